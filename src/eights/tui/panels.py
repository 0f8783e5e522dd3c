"""The public table: players (names, cards, scores, teams) and the discard pile.

Both panels draw from one :class:`~eights.engine.observation.Observation`, the view
of the seat whose hand is on screen; nothing here sees another hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.widgets import Label, Static

from eights.engine.actions import Kind
from eights.engine.observation import Observation
from eights.i18n import Translator
from eights.i18n.text import (
    action_words,
    card_label,
    card_words,
    direction_words,
    match_words,
    rank_words,
    suit_words,
)
from eights.session import count_words
from eights.tui.cards import CardChips, CardFace, set_text, text_visual

__all__ = ["PlayersPanel", "TablePanel", "played_by", "seat_lines", "table_lines"]


class PlayersPanel(Vertical):
    """One row per seat: whose turn, name, cards in hand, score; then the teams."""

    def __init__(self, names: Sequence[str], _: Translator, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.names = list(names)
        self.tr = _
        self._cells: list[tuple[Label, Label, Label]] = [
            (Label(classes="name", markup=False), Label(classes="count"),
             Label(classes="score"))
            for _seat in self.names
        ]

    def compose(self) -> ComposeResult:
        _ = self.tr
        with Grid(id="players-grid"):
            yield Label(_("Player"), classes="head")
            yield Label(_("Cards"), classes="head count")
            yield Label(_("Score"), classes="head score")
            for row in self._cells:
                yield from row
        yield Static(id="teams", markup=False)

    def show(self, obs: Observation, me: int | None) -> None:
        """Fill the rows from ``obs``; ``me`` is the seat whose hand is shown."""
        _ = self.tr
        for seat, (name, count, score) in enumerate(self._cells):
            turn = obs.to_play == seat
            marker = "▶ " if turn else "  "
            team = _(" (team {t})", t=seat % 2 + 1) if obs.teams else ""
            set_text(name, marker + self.names[seat] + team)
            set_text(count, count_words(obs, seat, _))
            set_text(score, str(obs.scores[seat]))
            for cell in (name, count, score):
                cell.set_class(turn, "-turn")
                cell.set_class(seat == me, "-me")
        teams = self.query_one("#teams", Static)
        teams.display = obs.teams
        if obs.teams:
            set_text(teams, "\n".join(
                _("Team {t}: {names} — {score}", t=t + 1,
                  names=" & ".join(self.names[s] for s in range(obs.players) if s % 2 == t),
                  score=obs.scores[t])
                for t in (0, 1)))


def played_by(obs: Observation) -> int | None:
    """The seat that played the up-card this round (``None`` for the starter)."""
    for seat, action in reversed(obs.history):
        if action.kind is Kind.PLAY:
            return seat
    return None


def table_lines(obs: Observation, names: Sequence[str], _: Translator,
                you: int | None = None) -> list[str]:
    """The public state of the table in short lines: the up-card and who played it, what
    must be matched, a forced draw, the direction, the stock, the goal of the match."""
    up = obs.up_card
    lines = [_("Up-card: {card} ({words})", card=card_label(up, _), words=card_words(up, _))]
    by = played_by(obs)
    if by is None:
        lines.append(_("turned up from the stock"))
    elif by == you:
        lines.append(_("played by you"))
    else:
        lines.append(_("played by {name}", name=names[by]))
    if obs.round_over:  # the last card played ends the round: nothing more to follow
        pass
    elif obs.naming and obs.to_play is not None:  # TS3, UC3: a wild starter
        lines.append(_("You name the suit to follow") if obs.to_play == you
                     else _("{name} names the suit to follow", name=names[obs.to_play]))
    elif obs.free:
        lines.append(_("Any card may be played"))
    else:
        suit = (f"{obs.suit.symbol} ({suit_words(obs.suit, _)})" if obs.suit is not None
                else "—")
        lines.append(_("To match: {suit} or {rank}", suit=suit, rank=rank_words(obs.rank, _)))
    if obs.pending_draw:
        lines.append(_("Forced draw waiting: {n}", n=obs.pending_draw))
    if obs.skip_due:  # MM5, PE8: the player to move may pass it on
        lines.append(_("Skip waiting: {n}", n=obs.skip_due))
    if obs.must_play_again and obs.to_play is not None:
        lines.append(_("{name} must play again", name=names[obs.to_play]))
    lines.append(_("Direction: {arrow}", arrow=direction_words(obs.direction, _)))
    lines.append(_("Stock: {stock} · discard: {discard}", stock=obs.stock,
                   discard=len(obs.discard)))
    lines.append(match_words(obs.rules, _))
    return lines


def seat_lines(obs: Observation, names: Sequence[str], _: Translator,
               you: int | None = None) -> list[str]:
    """Around the table in the order of play from the seat shown: each other seat's cards
    (as backs), their count and the last thing they did this round."""
    backs = 24
    """At most this many card backs are drawn for one hand."""
    last: dict[int, str] = {}
    for seat, action in obs.history:
        last[seat] = action_words(action, _)
    width = max(len(names[s]) for s in range(obs.players))
    most = min(backs, max(obs.hand_sizes)) + 1
    lines: list[str] = []
    for k in range(1, obs.players):
        seat = (obs.seat + k * obs.direction) % obs.players
        n = obs.hand_sizes[seat]
        marker = "▶ " if obs.to_play == seat else "  "
        if seat in obs.finished:  # TS11: out of the round, with its place
            line = f"{marker}{names[seat].ljust(width)}  {count_words(obs, seat, _)}"
        else:
            cards = ("▒" * min(n, backs) + ("…" if n > backs else "")).ljust(most)
            line = f"{marker}{names[seat].ljust(width)}  {cards} {n:>2}"
        if seat in last:
            line += "  · " + _("last: {action}", action=last[seat])
        lines.append(line)
    return lines


class TablePanel(Vertical):
    """The up-card as a big card, the state of play beside it, the last cards played below."""

    RECENT = 24
    """How many cards of the discard pile are listed under the up-card."""

    def __init__(self, _: Translator, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.tr = _

    def compose(self) -> ComposeResult:
        _ = self.tr
        with Horizontal(id="table-top"):
            yield CardFace(big=True, id="up-card")
            yield Static(id="table-info", markup=False)
        yield Label(text_visual(_("Played before (latest last):")), id="discard-label")
        yield CardChips(id="discard", empty="")
        yield Label(text_visual(_("Around the table, in the order of play:")), id="seats-label")
        yield Static(id="seats", markup=False)

    def show(self, obs: Observation, names: Sequence[str], you: int | None = None) -> None:
        self.query_one("#up-card", CardFace).show(obs.up_card)
        set_text(self.query_one("#table-info", Static),
                 "\n".join(table_lines(obs, names, self.tr, you)))
        set_text(self.query_one("#seats", Static),
                 "\n".join(seat_lines(obs, names, self.tr, you)))
        below = obs.discard[-self.RECENT - 1:-1]
        self.query_one("#discard-label").display = bool(below)
        self.query_one("#discard", CardChips).cards = below
