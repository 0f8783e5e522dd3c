"""The dialogs over the table: suit picker, rules, quit, end of round, hot-seat handover."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.events import Key, Resize
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Label, Static

from eights.engine.cards import Card, Suit
from eights.engine.observation import Observation
from eights.engine.rules import BlockedScoring, MultiPlay, Rules, Scoring
from eights.i18n import Translator
from eights.i18n.text import card_label, ordinal, suit_key, suit_keys, suit_words
from eights.tui.cards import CardChips, text_visual

__all__ = ["HandoverScreen", "QuitScreen", "RoundOverScreen", "RulesScreen", "SuitPicker",
           "key_lines", "scoring_words"]


def scoring_words(obs: Observation, names: Sequence[str], _: Translator) -> str:
    """How the round's points were counted, in one sentence (from the revealed hands)."""
    assert obs.revealed is not None
    rules = obs.rules
    out = next((s for s, hand in enumerate(obs.revealed) if not hand), None)
    if rules.scoring is Scoring.PLACINGS:  # TS12
        return _("Each player scores their place minus one: 0 for the first out, {n} for the "
                 "last.", n=obs.players - 1)
    if rules.scoring is Scoring.ROUNDS_WON:  # SW11, LC9, PE13
        if out is None:
            return _("Blocked: the lowest hand wins the round and scores 1.")
        return _("{name} went out and wins the round: 1 point.", name=names[out])
    if out is None and rules.blocked_scoring is BlockedScoring.COLLECT:
        return _("Blocked: the lowest hand scores the cards left in the other hands.")
    if out is None and rules.blocked_scoring is BlockedScoring.DIFFERENCE:
        return _("Blocked: the lowest hand scores the difference to each other hand.")
    if out is None or rules.scoring is Scoring.OWN_HAND:
        return _("Each player scores the cards left in their own hand; the lowest total wins.")
    if obs.teams:
        return _("{name} went out: their team scores the cards left in the other team's "
                 "hands.", name=names[out])
    return _("{name} went out and scores the cards left in the other hands.", name=names[out])


class SuitPicker(ModalScreen[Suit | None]):
    """Name the suit to follow after a wild card: a digit, a suit letter, a click, Escape.

    The digits 1–4 name ♣ ♦ ♥ ♠ in every language; the letters are those of
    :func:`~eights.i18n.text.suit_keys` (``c d h s``; in French ``t k c p`` for
    trèfle, carreau, cœur, pique, with ``d h s`` still understood). Each button
    shows its digit and its letter.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", show=False),
    ]

    def __init__(self, card: Card, suits: Sequence[Suit], _: Translator, *,
                 naming: bool = False) -> None:
        super().__init__()
        self.card = card
        self.suits = list(suits)
        self.tr = _
        self.naming = naming
        """TS3, UC3: ``card`` is a wild starter whose suit is named without a play (``=s``)."""
        self.keys: dict[str, Suit] = {str(suit.value + 1): suit for suit in Suit}
        """Every key that names a suit here."""
        self.keys.update(suit_keys(_))

    def compose(self) -> ComposeResult:
        _ = self.tr
        with Vertical(id="suit-dialog", classes="dialog"):
            if self.naming:
                title = _("The starter {card} is wild: name the suit to follow.",
                          card=card_label(self.card, _))
            else:
                title = _("You play {card}: name the suit to follow.",
                          card=card_label(self.card, _))
            yield Static(title, classes="dialog-title", markup=False)
            with Horizontal(id="suits"):
                for suit in self.suits:
                    red = " -red" if suit in (Suit.HEARTS, Suit.DIAMONDS) else ""
                    yield Button(f"{suit.value + 1} {suit.symbol} {suit_words(suit, _)} "
                                 f"({suit_key(suit, _)})",
                                 id=f"suit-{suit.letter}", classes="suit" + red,
                                 action=f"screen.pick('{suit.letter}')")
            keys = "1–4 / " + " ".join(suit_key(suit, _) for suit in Suit)
            yield Static(_("Keys {keys}, or click; Escape: back to the table.", keys=keys)
                         if self.naming else
                         _("Keys {keys}, or click; Escape: choose another card.", keys=keys),
                         classes="hint", markup=False)

    def on_key(self, event: Key) -> None:
        suit = self.keys.get((event.character or "").lower())
        if suit is not None:
            event.stop()
            self.action_pick(suit.letter)

    def action_pick(self, letter: str) -> None:
        suit = Suit.parse(letter)
        if suit in self.suits:
            self.dismiss(suit)
        else:
            self.app.bell()

    def action_cancel(self) -> None:
        self.dismiss(None)


def key_lines(rules: Rules, _: Translator) -> list[tuple[str, str]]:
    """Every key of the table and what it does; a key these rules have no use for says so."""
    unused = " " + _("(not in these rules)")
    mark = rules.multi_play is not MultiPlay.NONE
    announce = rules.announce_last_card or rules.call_out
    return [
        ("← → 1–9", _("choose a card (the playable ones are marked)")),
        (_("Enter"), _("play the chosen card; a wild card asks for the suit to name")),
        (_("m space"), _("mark the chosen card to go down with others of its rank")
         + ("" if mark else unused)),
        ("d", _("draw")),
        ("p", _("pass, or keep the card you drew")),
        ("t", _("take the top card of the stock after your play") + (
            "" if rules.replace_after_play else unused)),
        ("a", _("announce your last card with the play that leaves you one")
         + ("" if announce else unused)),
        ("u", _("take back your last move (one person against bots)")),
        ("h", _("a hint: every legal move's chance of winning the round (against bots)")),
        ("r", _("on the round's summary: the review of your play in it")),
        ("+ −", _("bots play faster / slower")),
        ("?", _("this help: the keys and the rules")),
        ("n", _("a new match: rules, players, the bots' level")),
        ("q", _("leave the game (keep or delete its save)")),
        (_("Esc"), _("close a dialog")),
    ]


class RulesScreen(ModalScreen[None]):
    """The help of ``?``: the keys (:func:`key_lines`), then the rules of the current preset
    in words (scrollable)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,enter", "close", show=False),
    ]

    def __init__(self, title: str, paragraphs: Sequence[str], _: Translator,
                 keys: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__()
        self.rules_title = title
        self.paragraphs = list(paragraphs)
        self.tr = _
        self.keys = list(keys)
        """The keys and what they do, shown before the rules."""

    def compose(self) -> ComposeResult:
        _ = self.tr
        with Vertical(id="rules-dialog", classes="dialog"):
            yield Static(self.rules_title, classes="dialog-title")
            with VerticalScroll(id="rules-text"):
                if self.keys:
                    yield Static(_("Keys"), classes="section")
                    with Grid(id="keys"):
                        for key, words in self.keys:
                            yield Static(key, classes="key", markup=False)
                            yield Static(text_visual(words), classes="words", markup=False)
                    yield Static(_("Rules"), classes="section")
                for text in self.paragraphs:
                    yield Static(text_visual(text), classes="paragraph", markup=False)
            yield Static(_("↑/↓ scroll · Escape: back to the game"), classes="hint")

    def on_mount(self) -> None:
        self.query_one("#rules-text").focus()

    def action_close(self) -> None:
        self.dismiss(None)


class QuitScreen(ModalScreen[str | None]):
    """Leave the game: keep the save (``keep``), delete it (``discard``) or stay (``None``)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("k", "answer('keep')", show=False),
        Binding("x", "answer('discard')", show=False),
        Binding("escape", "answer('')", show=False),
    ]

    def __init__(self, path: Path | None, _: Translator, title: str | None = None, *,
                 resume: str | None = None) -> None:
        super().__init__()
        self.path = path
        self.tr = _
        self.title_text = title
        """The question asked (default: leave the game?)."""
        self.resume = resume
        """The command that resumes the match where it was started
        (:meth:`eights.session.Session.resume_command`)."""

    def compose(self) -> ComposeResult:
        _ = self.tr
        with Vertical(id="quit-dialog", classes="dialog"):
            yield Static(self.title_text or _("Leave the game?"), classes="dialog-title",
                         markup=False)
            if self.path is not None:
                yield Static(_("This game is saved as you play: {path}", path=self.path),
                             markup=False)
                if self.resume is not None:
                    yield Static(_("Resume it with: {command}", command=self.resume),
                                 markup=False)
            with Horizontal(classes="buttons"):
                # compact: the three fit 80 columns in French too
                yield Button(_("Keep the save (k)"), id="keep", variant="primary", compact=True,
                             action="screen.answer('keep')")
                yield Button(_("Delete it (x)"), id="discard", variant="error", compact=True,
                             action="screen.answer('discard')")
                yield Button(_("Stay (Esc)"), id="stay", compact=True, action="screen.answer('')")

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer or None)


class RoundOverScreen(ModalScreen[str]):
    """Every hand revealed, the points and the totals.

    Answers ``next`` (Enter), ``quit`` (q), ``new`` (n: a new match, as on the table; in
    the middle of a match the table asks first whether to leave it), or once the match is
    over ``leave`` (Enter, q, Escape); with ``review``, ``review`` (r: the review of the
    round, :mod:`eights.tui.review`).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "review", show=False),
        Binding("enter", "next", show=False),
        Binding("n", "new", show=False),
        Binding("q", "quit_game", show=False),
        Binding("escape", "leave_if_over", show=False),
    ]

    def __init__(self, obs: Observation, names: Sequence[str], summary: Sequence[str],
                 _: Translator, places: Sequence[int] | None = None, *,
                 review: bool = False) -> None:
        super().__init__()
        self.review = review
        """``r`` opens the review of the round (a person's hand was shown)."""
        self.obs = obs
        self.names = list(names)
        self.summary = list(summary)
        self.tr = _
        self.places = None if places is None else list(places)
        """Each seat's placing, under ``play_on`` or ``scoring = "placings"`` (TS11, TS12)."""

    def compose(self) -> ComposeResult:
        _ = self.tr
        obs = self.obs
        assert obs.revealed is not None and obs.round_points is not None
        points = obs.rules.points
        n = obs.players
        places = self.places
        with Vertical(id="round-dialog", classes="dialog"):
            yield Static(self.summary[0], classes="dialog-title", markup=False)
            with VerticalScroll(id="round-body"):  # scrolls at big tables on small screens
                # SW11: where a round is won by going out, what the hands are worth does not
                # count (a blocked round goes to the lowest hand: then it does)
                valued = not (obs.rules.scoring is Scoring.ROUNDS_WON
                              and any(not hand for hand in obs.revealed))
                with Grid(id="round-grid", classes="" if valued else "-unvalued"):
                    for head in (_("Player"), _("Hand"), *([_("Value")] if valued else []),
                                 _("Round"), _("Total")):
                        yield Label(head, classes="head")
                    winners = set(obs.winners or ()) | {s for s in range(n) if not obs.revealed[s]}
                    if places is not None:
                        winners = set(obs.winners or ()) | {s for s in range(n) if places[s] == 1}
                    for s in range(n):
                        hand = obs.revealed[s]
                        team = _(" (team {t})", t=s % 2 + 1) if obs.teams else ""
                        if places is not None:
                            team += f" ({ordinal(places[s], _)})"  # TS11, TS12
                        best = "-winner" if s in winners else ""
                        yield Label(self.names[s] + team, classes="name " + best, markup=False)
                        yield CardChips(hand, classes="hand")
                        if valued:  # the total first: a long sum is cut at the right
                            counted = " + ".join(str(points[c.rank]) for c in hand)
                            value = sum(points[c.rank] for c in hand)
                            yield Label(f"{value} = {counted}" if len(hand) > 1 else str(value),
                                        classes="value")
                        yield Label(f"{obs.round_points[s]:+d}", classes="points")
                        yield Label(str(obs.scores[s]), classes="total " + best)
                yield Static(text_visual(scoring_words(obs, self.names, _)), classes="how",
                             markup=False)
                for line in self.summary[1 + n:]:
                    yield Static(text_visual(line), classes="result", markup=False)
            if obs.match_over:
                hint = _("The match is over. n: a new match · q or Enter: leave")
            else:
                hint = _("Enter: next round · n: a new match · q: quit")
            if self.review:
                hint = _("{keys} · r: review your play", keys=hint)
            yield Static(hint, classes="hint")

    def on_mount(self) -> None:
        self._fit(self.app.size.height)
        self.query_one("#round-body").focus()  # ↑/↓ scroll a long table

    def on_resize(self, event: Resize) -> None:
        self._fit(event.size.height)

    def _fit(self, height: int) -> None:
        """The table, the scoring and the results scroll; the title and the keys stay in view."""
        around = 2 + 2 + 2 + 2  # the dialog's border and padding, the title, the keys
        self.query_one("#round-body").styles.max_height = max(3, height * 9 // 10 - around)

    def action_next(self) -> None:
        self.dismiss("leave" if self.obs.match_over else "next")

    def action_review(self) -> None:
        if self.review:
            self.dismiss("review")
        else:
            self.app.bell()

    def action_new(self) -> None:
        self.dismiss("new")

    def action_quit_game(self) -> None:
        self.dismiss("leave" if self.obs.match_over else "quit")

    def action_leave_if_over(self) -> None:
        if self.obs.match_over:
            self.dismiss("leave")


class HandoverScreen(Screen[None]):
    """Hot-seat: the table is hidden until the next person takes the keyboard."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "ready", show=False)]

    def __init__(self, name: str, _: Translator) -> None:
        super().__init__()
        self.player = name
        self.tr = _

    def compose(self) -> ComposeResult:
        _ = self.tr
        with Vertical(id="handover", classes="dialog"):
            yield Static(_("Pass the keyboard to {name} — press Enter", name=self.player),
                         id="handover-text", markup=False)

    def action_ready(self) -> None:
        self.dismiss(None)
