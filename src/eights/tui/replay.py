"""``eights replay FILE --view``: step through a record in the look of the game.

A replay is public, so every hand is shown. The record is replayed once with
:func:`eights.engine.record.replay`, keeping a cheap copy of the game before each
action; the state after a round's last action is that copy with the action
applied. ← → step through the actions, PgUp PgDn jump a round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Label, RichLog, Static

from eights.engine.actions import Action
from eights.engine.game import Game, Step
from eights.engine.record import Record, replay
from eights.i18n import Translator
from eights.i18n.text import action_words, describe_move, hand_count_words, round_summary
from eights.tui.cards import CardChips, GameLog
from eights.tui.panels import TablePanel

__all__ = ["Frame", "HandsBox", "ReplayApp", "ReplayScreen", "frames_of", "seat_names"]


@dataclass(frozen=True, slots=True)
class Frame:
    """One position of the record: the state after ``index`` actions of round ``round``."""

    game: Game
    round: int
    """Round number (1 for the first)."""
    index: int
    """Actions already played in this round."""
    total: int
    """Actions of this round in the record."""
    lines: tuple[str, ...]
    """The round's moves so far, in words."""
    next: Action | None
    """The action played from here (``None`` at the end)."""


def seat_names(record: Record, _: Translator) -> list[str]:
    """The players' names from the record's ``meta.seats``, else ``Seat 0``, ``Seat 1``…"""
    seats = record.meta.get("seats")
    if isinstance(seats, list) and len(seats) == record.players and all(
            isinstance(s, dict) and isinstance(s.get("name"), str) for s in seats):
        return [str(s["name"]) for s in seats]
    return [_("Seat {n}", n=s) for s in range(record.players)]


def frames_of(record: Record, names: Sequence[str], _: Translator) -> list[Frame]:
    """Every position of the record, round by round (raises what ``replay`` raises)."""
    before: list[tuple[Game, int, int, Action]] = []
    steps: list[Step] = []

    def step(game: Game, r: int, i: int, action: Action) -> None:
        before.append((game.clone(), r, i, action))

    final = replay(record, step, lambda game, r, i, made: steps.append(made))
    totals = [len(rnd.actions) for rnd in record.rounds]
    frames: list[Frame] = []
    lines: list[str] = []
    for k, (game, r, i, action) in enumerate(before):
        if i == 0:
            lines = []
        frames.append(Frame(game, r + 1, i, totals[r], tuple(lines), action))
        following = before[k + 1] if k + 1 < len(before) else None
        if following is not None and following[1] == r:
            after = following[0]
        else:  # the round's last action: play it on a copy
            after = game.clone()
            after.apply(action)
        lines.append(describe_move(after, names, steps[k], _))
        if following is None or following[1] != r:
            if after.over:
                lines.extend(round_summary(after, names, _))
            frames.append(Frame(after, r + 1, i + 1, totals[r], tuple(lines), None))
    if not frames or frames[-1].round < len(record.rounds):  # a last round with no action yet
        frames.append(Frame(final, len(record.rounds), 0, 0, (), None))
    return frames


class HandsBox(VerticalScroll, can_focus=False):
    """The players' hands, one under the other (scrolls with the mouse at big tables)."""


class ReplayScreen(Screen[None]):
    """Every hand, the table and the log of the round, one action at a time."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space", "step(1)", show=False),
        Binding("left,backspace", "step(-1)", show=False),
        Binding("pagedown", "round(1)", show=False),
        Binding("pageup", "round(-1)", show=False),
        Binding("home", "jump(0)", show=False),
        Binding("end", "jump(-1)", show=False),
        Binding("q,escape", "app.quit", show=False),
    ]

    def __init__(self, title: str, frames: Sequence[Frame], names: Sequence[str],
                 _: Translator) -> None:
        super().__init__()
        self.rules_title = title
        self.frames = list(frames)
        self.names = list(names)
        self.tr = _
        self.position = 0
        """Index of the frame shown."""

    def compose(self) -> ComposeResult:
        yield Header(show_clock=False)
        with Horizontal(id="top"):
            with Vertical(id="left"):
                yield TablePanel(self.tr, id="table")
                with HandsBox(id="hands"):
                    for s in range(len(self.names)):
                        with Vertical(classes="seat"):
                            yield Label(id=f"who-{s}", classes="who", markup=False)
                            yield CardChips(id=f"cards-{s}")
            log = GameLog(id="log", wrap=True, markup=False, highlight=False, min_width=20)
            log.can_focus = False
            yield log
        yield Static(id="prompt", markup=False)
        with Horizontal(id="actions"):
            yield Static(id="keys", markup=False)

    def on_mount(self) -> None:
        _ = self.tr
        self.app.title = _("Replay: {title}", title=_(self.rules_title))
        self.query_one("#table").border_title = _("Table")
        self.query_one("#hands").border_title = _("Hands")
        self.query_one("#log").border_title = _("Log")
        self.query_one("#keys", Static).update(
            _("←/→ step · PgUp/PgDn: round · Home/End: start/end · q: quit"))
        self.show_frame()

    def show_frame(self) -> None:
        """Draw the frame at :attr:`position`."""
        _ = self.tr
        frame = self.frames[self.position]
        game = frame.game
        self.sub_title = _("Round {n} · move {i}/{total}", n=frame.round, i=frame.index,
                           total=frame.total)
        to_play = game.to_play
        obs = game.observe(game.to_move)  # the public part of the table
        self.query_one(TablePanel).show(obs, self.names)
        nxt = frame.next
        for s, name in enumerate(self.names):
            hand = game.hand(s)  # a replay shows every hand
            who = self.query_one(f"#who-{s}", Label)
            team = _(" (team {t})", t=s % 2 + 1) if game.teams else ""
            who.update(("▶ " if s == to_play else "  ") + name + team + " · "
                       + hand_count_words(len(hand), _) + " · " + str(game.scores[s]))
            who.set_class(s == to_play, "-turn")
            chips = self.query_one(f"#cards-{s}", CardChips)
            chips.cards = tuple(hand)
            marked: set[int] = set()
            if s == to_play and nxt is not None:  # every card of the next play (SW3)
                for card in nxt.cards:
                    i = next((i for i, c in enumerate(hand) if c == card and i not in marked), -1)
                    if i >= 0:
                        marked.add(i)
            chips.marked = frozenset(marked)
        log = self.query_one("#log", RichLog)
        log.clear()
        for line in frame.lines:
            log.write(line)
        self.call_after_refresh(log.scroll_end, animate=False)
        prompt = self.query_one("#prompt", Static)
        if nxt is not None and to_play is not None:
            prompt.update(_("Next: {name} — {action}", name=self.names[to_play],
                            action=action_words(nxt, _)))
        elif game.over:
            prompt.update(_("The round is over."))
        else:
            prompt.update(_("The record ends here."))

    def action_step(self, step: int) -> None:
        """One action forward (1) or back (-1)."""
        self._go(self.position + step)

    def action_round(self, step: int) -> None:
        """To the start of the next (1) or this / the previous (-1) round."""
        here = self.frames[self.position]
        if step > 0:
            target = next((k for k in range(self.position + 1, len(self.frames))
                           if self.frames[k].round > here.round), len(self.frames) - 1)
        else:
            wanted = here.round - 1 if here.index == 0 else here.round
            target = next((k for k, f in enumerate(self.frames) if f.round == wanted), 0)
        self._go(target)

    def action_jump(self, where: int) -> None:
        """To the first (0) or the last (-1) position."""
        self._go(where % len(self.frames))

    def _go(self, position: int) -> None:
        if not 0 <= position < len(self.frames):
            self.app.bell()
            return
        self.position = position
        self.show_frame()


class ReplayApp(App[None]):
    """The replay viewer for one record (replayed at once: errors raise here)."""

    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, record: Record, _: Translator) -> None:
        super().__init__()
        self.record = record
        self.tr = _
        self.names = seat_names(record, _)
        self.frames = frames_of(record, self.names, _)
        self.rules_title = self.frames[0].game.rules.title

    def get_default_screen(self) -> Screen[Any]:
        return ReplayScreen(self.rules_title, self.frames, self.names, self.tr)

    @property
    def viewer(self) -> ReplayScreen:
        screen = self.screen_stack[0]
        assert isinstance(screen, ReplayScreen)
        return screen
