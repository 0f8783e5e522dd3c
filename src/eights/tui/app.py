"""``eights play``: the full-screen game against bots (and friends, hot-seat).

The table screen reads the game only through ``session.observe(seat)`` for
the seat whose hand is shown, and acts only through the session (``play``,
``bot_turn`` and ``bot_play``, ``undo``, ``next_round``), which saves after
every action.

A bot chooses its move in a thread worker, from a :class:`~eights.session.BotTurn`
that owns everything the bot sees (so the screen keeps answering keys and
repainting while a search bot thinks); the move is applied on the screen's own
thread, when both the pause between bot moves is over and the choice is made,
and only if the game has not changed since the bot began to think (undo, a new
round): a stale choice is dropped.

Keys (the bar at the bottom shows them too):

=============  ===========================================================
← → 1–9        choose a card; Enter plays it (a click on a card too)
m  space       mark (or unmark) the chosen card to go down with others of
               its rank (SW3, ``multi_play``); Enter then plays the marked
               cards with the chosen card on top; only cards that can go
               down together can be marked (a right click or a ctrl+click
               on a card marks it too)
1–4 or letter  name a suit, in the suit picker after a wild card: c d h s
               (clubs, diamonds, hearts, spades); in French t k c p (trèfle,
               carreau, cœur, pique), with d h s still understood; the picker
               opens by itself for a wild starter to name (TS3, UC3), and
               Enter opens it again
d  p  t        draw, pass (also: let a skip fall on you, MM5), take the top
               card of the stock (LH5); a key that does not apply says why on
               the status line
a              announce your last card, or call going out, with the next
               play (HA13, MM9)
u              take back your last move (one person against bots)
h              a hint: every legal move's chance of winning the round, the best
               first (one person against bots; off until asked for, and noted
               in the save's ``meta.hints`` and the round's summary)
r              on the round's summary: the review of your play in that round
               (:mod:`eights.tui.review`): every decision marked, in colour
?              the rules of this game
+  −           bots play faster or slower
n              a new match: choose the rules, the player count and the
               opponents' level (:mod:`eights.tui.newmatch`); a match in
               progress is left first (keep or delete its save), as with q;
               at the end of a match, n on the summary opens it too
q              leave (keep or delete the save)
=============  ===========================================================

The layout fits any terminal of at least :data:`MIN_SIZE`: the table (up-card,
suit and rank to match, forced draw, stock, match goal) on the left, players
and log on the right, the whole hand below (cards overlap when they would not
fit side by side). A smaller terminal shows a message instead.
"""

from __future__ import annotations

import os
import random
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.geometry import Size
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Header, RichLog, Static
from textual.worker import Worker, WorkerState

from eights.engine.actions import DRAW, PASS, TAKE, Action, Kind
from eights.engine.cards import Card, Suit
from eights.engine.game import Step
from eights.engine.observation import Observation
from eights.engine.rules import MultiPlay, Scoring
from eights.i18n import Translator
from eights.i18n.explain import describe
from eights.i18n.text import card_label, levels_words, placings, rank_words, round_summary
from eights.session import BotTurn, Session
from eights.tui import DELAYS, SPEEDS
from eights.tui.cards import GameLog, set_text
from eights.tui.dialogs import (
    HandoverScreen,
    QuitScreen,
    RoundOverScreen,
    RulesScreen,
    SuitPicker,
    key_lines,
)
from eights.tui.hand import HandFan
from eights.tui.panels import PlayersPanel, TablePanel

if TYPE_CHECKING:
    from eights.tui.newmatch import NewMatch

__all__ = ["DELAYS", "MIN_SIZE", "SPEEDS", "EightsApp", "TableScreen", "default_selection",
           "plays_of"]

SHOW_THINKING_AFTER = 0.1
"""At the instant speed, seconds before the table shows a bot thinking (a quick bot
has played by then: the screen goes straight to the next person's turn)."""
MIN_SIZE = (80, 24)
"""The smallest terminal (columns, lines) the table fits in; below it a message says so."""
SHORT = 32
"""Below this many lines the panels drop their headings and spacing."""
TALL = 40
"""From this many lines on, the hand shows big cards."""
NARROW = 100
"""Below this many columns the keys of the bottom bar are written key first, ``d Draw``
(:func:`key_first`), without padding."""
SPARE_KEYS = ("new", "undo", "rules")
"""Buttons of the bottom bar left out, in this order, when the bar would still not fit the
width (their keys still work); the help (``?``), which tells every key, goes last."""
HEADER_MARGIN = 18
"""Columns of the header that its title cannot use: the icon on the left (8) and the
space of the clock on the right (10), Textual's ``HeaderIcon`` and ``HeaderClockSpace``."""
KEY_LABEL = re.compile(r"(?P<words>.+) \((?P<key>[^()]+)\)")
"""A key's label as the catalog writes it: ``Draw (d)``, « Piocher (d) »."""
FLASH_SECONDS = 4.0
"""How long a message about a key that does not apply stays on the status line."""


def key_first(label: str) -> Content:
    """A key's label for a narrow bar: the key first, in the accent colour, then the words
    (``d Draw`` for ``Draw (d)``); a label of another form stays as it is."""
    found = KEY_LABEL.fullmatch(label)
    if found is None:
        return Content(label)
    return Content.assemble((found["key"], "$accent"), " " + found["words"])


def is_wild(card: Card, obs: Observation) -> bool:
    """A card that is played on anything and names a suit (an 8): Enter on it by mistake costs."""
    rule = obs.rules.rule_of(card)
    return rule.wild or rule.name_suit


def plays_of(legal: Sequence[Action], cards: Sequence[Card]) -> list[Action]:
    """The legal plays of exactly ``cards``, the last one on top (a multi-card play, SW3,
    whatever order the cards under the top were chosen in), every suit named and call."""
    top, wanted = cards[-1], Counter(cards)
    return [a for a in legal if a.card == top and len(a.cards) == len(cards)
            and Counter(a.cards) == wanted]


def default_selection(obs: Observation, current: int = -1) -> int:
    """The card chosen at the start of a turn: never a wild card when another will do,
    and never a card that cannot be played when one can (the prompt says Enter plays it).

    The card just drawn when it can be played (and is not wild), else the card
    already chosen when it is playable and not wild, else the first playable
    card that is not wild, else the first playable card (a wild one: Enter opens the
    suit picker, and Escape there plays nothing), else the first card that is not
    wild, else the first.
    """
    hand = obs.hand
    playable = {a.card for a in obs.legal if a.card is not None}

    def good(i: int) -> bool:
        return hand[i] in playable and not is_wild(hand[i], obs)

    if obs.drawn is not None and obs.drawn in hand and good(hand.index(obs.drawn)):
        return hand.index(obs.drawn)
    if 0 <= current < len(hand) and good(current):
        return current
    for test in (good, lambda i: hand[i] in playable, lambda i: not is_wild(hand[i], obs)):
        first = next((i for i in range(len(hand)) if test(i)), None)
        if first is not None:
            return first
    return 0


class ActionButton(Button, can_focus=False):
    """A compact button of the bottom bar (keys do the same; it never takes focus)."""

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """The label and its line-pad (Textual's Button counts a line-pad of 1 always)."""
        return cell_len(str(self.label)) + 2 * self.styles.line_pad


def speed_words(speed: str, _: Translator) -> str:
    return {"slow": _("slow"), "normal": _("normal"), "fast": _("fast"),
            "instant": _("instant")}[speed]


@dataclass
class Thinking:
    """A bot's move in the making: the worker choosing it, then the choice."""

    turn: BotTurn
    worker: Worker[Action]
    action: Action | None = None
    """The choice, once the worker has made it."""
    due: bool = False
    """The pause before the move is over: it is played as soon as it is chosen."""


class TableScreen(Screen[None]):
    """The table: players, up-card, log, your hand and the keys that play it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        *[Binding(str(k), f"choose({k - 1})", show=False) for k in range(1, 10)],
        Binding("enter", "play_selected", show=False),
        Binding("m,space", "mark", show=False),
        Binding("d", "draw", show=False),
        Binding("p", "pass_turn", show=False),
        Binding("t", "take", show=False),
        Binding("a", "toggle_announce", show=False),
        Binding("u", "undo", show=False),
        Binding("h", "hint", show=False),
        Binding("question_mark", "rules", show=False),
        Binding("plus,equals_sign", "speed(1)", show=False),
        Binding("minus", "speed(-1)", show=False),
        Binding("n", "new_match", show=False),
        Binding("q", "quit_game", show=False),
    ]

    selected: reactive[int] = reactive(0)
    """Index of the chosen card in the hand shown."""
    announce: reactive[bool] = reactive(False)
    """HA13: the next play announces the last card."""
    speed: reactive[str] = reactive("normal")
    """Bot pace, one of :data:`SPEEDS`."""

    def __init__(self, session: Session, _: Translator, speed: str = "normal") -> None:
        super().__init__()
        self.session = session
        self.tr = _
        self.set_reactive(TableScreen.speed, speed)
        humans = session.humans
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        """The seat whose hand is shown (``None`` while the hand is hidden)."""
        self.obs: Observation = session.observe(self.seat)
        self._timer: Timer | None = None
        self._thinking: Thinking | None = None
        self._decision: tuple[int, int] | None = None
        self.log_lines: list[str] = []
        """Every line written to the log, unwrapped."""
        self.undone: set[int] = set()
        """Indices in :attr:`log_lines` of moves taken back (shown struck through)."""
        self._undo_marks: list[int] = []
        """For each move :meth:`Session.undo` can take back, where its log lines begin."""
        self.new_cards: dict[int, list[Card]] = {}
        """By seat: the cards received since that seat's last action (marked ``+``)."""
        self.flash_text: str | None = None
        """A message about a key that does not apply, shown for a while on the status line."""
        self.marked: list[int] = []
        """Positions in the hand of the cards marked to go down together (SW3), in the
        order they were marked; cleared at each new decision."""
        self._flash_timer: Timer | None = None
        self.labels: dict[str, str] = {}
        """The label of each button of the bottom bar, by its id, as the catalog writes it."""

    @property
    def seat(self) -> int:
        """The seat observed: the hand shown, or the first person's while hidden."""
        return self.viewer if self.viewer is not None else self.session.humans[0]

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        _ = self.tr
        yield Header(show_clock=False)
        with Horizontal(id="top"):
            yield TablePanel(self.tr, id="table")
            with Vertical(id="side"):
                yield PlayersPanel(self.session.names, _, id="players")
                log = GameLog(id="log", wrap=True, markup=False, highlight=False, min_width=20)
                log.can_focus = False
                yield log
        yield Static(id="prompt", markup=False)
        with Vertical(id="hand-box"):
            yield HandFan(self.tr, id="hand")
        self.labels.update({
            "mark": _("Mark (m)"), "draw": _("Draw (d)"), "pass": _("Pass (p)"),
            "take": _("Take (t)"), "announce": _("Announce (a)"), "undo": _("Undo (u)"),
            "rules": _("Help (?)"), "new": _("New (n)"), "quit": _("Quit (q)")})
        actions = {"mark": "mark", "draw": "draw", "pass": "pass_turn", "take": "take",
                   "announce": "toggle_announce", "undo": "undo", "rules": "rules",
                   "new": "new_match", "quit": "quit_game"}
        with Horizontal(id="actions"):
            for key, label in self.labels.items():
                yield ActionButton(label, id=key, compact=True, action=f"screen.{actions[key]}")
        yield Static(id="too-small", markup=False)

    def on_mount(self) -> None:
        _ = self.tr
        s = self.session
        rules = self.obs.rules
        self.app.title = _(rules.title)  # as the help (?) and the browser name them
        self.query_one("#players").border_title = _("Players")
        self.query_one("#table").border_title = _("Table")
        self.query_one("#log").border_title = _("Log")
        self.say(_("{title}: {n} players. Press ? for the rules and the keys.", title=_(rules.title),
                   n=len(s.seats)))
        if s.path is not None:
            self.say(_("This game is saved as you play: {path}", path=s.path))
        for told in s.story(_):  # a resumed game tells its past again
            if told.undoable:
                self._undo_marks.append(len(self.log_lines))
            self.say(told.text)
        self.fit(self.size.width, self.size.height)
        self.advance()

    def on_resize(self, event: events.Resize) -> None:
        self.fit(event.size.width, event.size.height)

    def fit(self, width: int, height: int) -> None:
        """Lay the table out for a terminal of ``width`` × ``height`` (or say it is too small)."""
        _ = self.tr
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.set_class(small, "-too-small")
        self.set_class(height < SHORT, "-short")
        self.set_class(width < NARROW, "-narrow")
        self.query_one(HandFan).set_big(height >= TALL)
        self._fit_keys(width)
        if self.is_mounted:
            self._show_title()
        if small:
            set_text(self.query_one("#too-small", Static), _(
                "This terminal is {width}×{height}: the table needs at least {min_width}×"
                "{min_height}. Make the window larger (or the font smaller); q leaves.",
                width=width, height=height, min_width=MIN_SIZE[0], min_height=MIN_SIZE[1]))

    def _fit_keys(self, width: int) -> None:
        """Show the buttons of the bottom bar these rules use, key first where the terminal
        is narrow (:func:`key_first`); leave out :data:`SPARE_KEYS` while the bar would
        still be wider than ``width``."""
        rules = self.obs.rules
        shown = {"mark": rules.multi_play is not MultiPlay.NONE,
                 "take": rules.replace_after_play,
                 "announce": rules.announce_last_card or rules.call_out}
        narrow = width < NARROW
        around = 1 if narrow else 3  # narrow: a gap after each; else line-pad 1 and a gap
        buttons = list(self.query("#actions > Button").results(Button))
        for button in buttons:
            button.display = shown.get(button.id or "", True)
            label = self.labels[button.id or ""]
            button.label = key_first(label) if narrow else label
            button.styles.line_pad = 0 if narrow else 1  # CSS takes no 0 for line-pad

        def needed() -> int:  # the last button's gap may fall off the edge
            return sum(cell_len(str(b.label)) + around for b in buttons if b.display) - 1

        for spare in SPARE_KEYS:
            if needed() <= width:
                break
            self.query_one(f"#{spare}").display = False

    # ------------------------------------------------------------------ the flow

    def say(self, line: str) -> None:
        """Add a line to the log."""
        self.log_lines.append(line)
        self.query_one("#log", RichLog).write(line)

    def _say_round(self) -> None:
        _ = self.tr
        obs = self.session.observe(self.seat)
        self.say(_("Round {n}: {dealer} deals.", n=obs.round,
                   dealer=self.session.names[obs.dealer]))

    def _log_move(self, step: Step) -> None:
        """Tell the move in the log and note the cards each seat received."""
        seat = step.seat
        self.new_cards[seat] = []  # the cards marked new are those since one's own action
        for s, cards in enumerate(step.received):
            if cards:
                self.new_cards.setdefault(s, []).extend(cards)
        self.say(self.session.describe(step, self.tr))

    def _mark_undone(self, start: int) -> None:
        """Strike through the log lines from ``start`` on (moves taken back)."""
        self.undone.update(range(start, len(self.log_lines)))
        log = self.query_one("#log", RichLog)
        log.clear()
        for i, line in enumerate(self.log_lines):
            log.write(Text("↶ " + line, style="strike dim") if i in self.undone else line)

    def advance(self) -> None:
        """Move the game on: bots play (paced), the round ends, or a person is to play.

        A bot starts to think at once, in a worker; its move is played when the
        pause of the current speed is over and the choice is made.
        """
        self._cancel_timer()
        s = self.session
        if s.observe(self.seat).round_over:
            self._forget_thinking()
            self.refresh_view()
            self._show_round_over()
            return
        if s.bot_to_play:
            thinking = self._think()
            if self.speed == "instant":
                thinking.due = True
                if thinking.action is None:
                    self._timer = self.set_timer(SHOW_THINKING_AFTER, self._show_thinking)
            else:
                thinking.due = False  # the pause starts again (after a dialog, a new speed)
                self._timer = self.set_timer(DELAYS[self.speed], self._bot_step)
                self.refresh_view()
            self._play_when_ready()
            return
        self._forget_thinking()
        seat = s.to_play
        assert seat is not None
        if seat != self.viewer:
            if len(s.humans) > 1:
                self.viewer = None
                self.refresh_view()
                self.app.push_screen(HandoverScreen(s.names[seat], self.tr),
                                     lambda _result: self._reveal(seat))
                return
            self.viewer = seat
        self.refresh_view()
        if self.obs.naming and self.my_turn():  # TS3, UC3: the suit of a wild starter
            self._ask_name()

    def _reveal(self, seat: int) -> None:
        self.viewer = seat
        self.advance()

    def _think(self) -> Thinking:
        """The bot to play thinks about its move in a worker (unless it already does)."""
        s = self.session
        thinking = self._thinking
        if thinking is not None and thinking.turn.version == s.version:
            return thinking
        self._forget_thinking()
        turn = s.bot_turn()
        worker = self.run_worker(turn.choose, name=f"bot {turn.seat}", group="bot",
                                 description=f"{s.names[turn.seat]} ({turn.name}) chooses a move",
                                 thread=True, exclusive=True)
        thinking = self._thinking = Thinking(turn, worker)
        return thinking

    def _forget_thinking(self) -> None:
        """Drop the move in the making (its worker may still finish; its choice is ignored)."""
        if self._thinking is not None:
            self._thinking.worker.cancel()
            self._thinking = None

    @property
    def thinking(self) -> bool:
        """True while a bot's move is in the making (chosen in a worker, or waiting its turn)."""
        return self._thinking is not None

    def _show_thinking(self) -> None:
        """The table as it is, and the bot that has not chosen yet (instant speed)."""
        self._timer = None
        self.refresh_view()

    def _bot_step(self) -> None:
        """The pause is over: the bot plays as soon as it has chosen."""
        self._timer = None
        if self._thinking is None:
            self.advance()
            return
        self._thinking.due = True
        self._show_prompt()  # "… is thinking" until it has chosen
        self._play_when_ready()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A bot has chosen (on the screen's thread; a stale worker is ignored)."""
        thinking = self._thinking
        if thinking is None or event.worker is not thinking.worker:
            return
        if event.state is WorkerState.SUCCESS:
            thinking.action = event.worker.result
            self._play_when_ready()
            if self._thinking is thinking:  # chosen, waiting for the pause or a dialog
                self._show_prompt()

    def on_screen_resume(self) -> None:
        """A dialog has closed: a bot that has chosen, and waited for it, plays."""
        self._play_when_ready()

    def _play_when_ready(self) -> None:
        thinking = self._thinking
        if (thinking is None or not thinking.due or thinking.action is None
                or not self.is_active):  # a dialog is open: wait for it
            return
        self._thinking = None
        if thinking.turn.version != self.session.version:  # the game moved on
            self.advance()
            return
        self._log_move(self.session.bot_play(thinking.turn, thinking.action))
        self.advance()

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _show_round_over(self) -> None:
        if any(isinstance(screen, RoundOverScreen) for screen in self.app.screen_stack):
            return
        s = self.session
        obs = s.observe(self.seat)
        summary = round_summary(s.game, s.names, self.tr)  # the end-of-round reveal
        rules = s.game.rules
        places = (placings(s.game) if rules.play_on or rules.scoring is Scoring.PLACINGS
                  else None)  # TS11, TS12
        hints = sum(r == obs.round for r, _turn in s.hints)
        if hints:
            summary.append(self.tr.plural("You asked for {n} hint this round.",
                                          "You asked for {n} hints this round.", hints))
        self.app.push_screen(RoundOverScreen(obs, s.names, summary, self.tr, places,
                                             review=self.viewer is not None),
                             self._round_answer)

    def _round_answer(self, answer: str | None) -> None:
        if answer == "next":
            self.session.next_round()
            self.announce = False
            self._decision = None
            self._undo_marks.clear()
            self.new_cards.clear()
            self.marked = []
            self._say_round()
            self.advance()
        elif answer == "review":
            from eights.tui.review import ReviewScreen  # the search: only when asked for

            self.app.push_screen(ReviewScreen(self.session.record(), self.seat,
                                              self.session.game.round, self.tr),
                                 lambda _answer: self._show_round_over())
        elif answer == "quit":
            self.action_quit_game()
        elif answer == "new":
            self.action_new_match()
        else:
            self.app.exit()

    # ------------------------------------------------------------------ the view

    def my_turn(self) -> bool:
        """True when the hand shown is to play and the table is in front."""
        return (self.viewer is not None and self.obs.to_play == self.viewer
                and self.session.human_to_play and not self.obs.round_over)

    def refresh_view(self) -> None:
        """Redraw everything from the observation of :attr:`seat`."""
        _ = self.tr
        s = self.session
        obs = self.obs = s.observe(self.seat)
        self._show_title()
        self.query_one(PlayersPanel).show(obs, self.viewer)
        self.query_one(TablePanel).show(obs, s.names, s.you)
        box = self.query_one("#hand-box")
        if self.viewer is None:
            box.border_title = ""
        elif len(s.humans) == 1:
            box.border_title = _("Your hand")
        else:
            box.border_title = _("Hand of {name}", name=s.names[self.viewer])
        if self.viewer is not None:
            box.border_subtitle = _.plural("{n} card", "{n} cards", len(obs.hand))
        if self.my_turn():
            decision = (obs.round, len(obs.history))
            if decision != self._decision:  # a new decision: point at a card to play
                self._decision = decision
                self.selected = default_selection(obs, self.selected)
                self.marked = []
        else:
            self.marked = []
        if obs.hand and self.selected >= len(obs.hand):
            self.selected = len(obs.hand) - 1
        self._show_hand()
        self._show_prompt()
        legal = obs.legal if self.my_turn() else ()
        for key, action in (("#draw", DRAW), ("#pass", PASS), ("#take", TAKE)):
            self.query_one(key).disabled = action not in legal
        self.query_one("#mark").disabled = not any(len(a.cards) > 1 for a in legal)
        self.query_one("#undo").disabled = not s.can_undo

    def new_positions(self) -> list[int]:
        """Where the cards received since the shown seat's last action lie in the hand."""
        if self.viewer is None:
            return []
        left = list(self.new_cards.get(self.viewer, ()))
        out: list[int] = []
        for i, card in enumerate(self.obs.hand):
            if card in left:
                left.remove(card)
                out.append(i)
        return out

    def _show_hand(self) -> None:
        hand = self.query_one(HandFan)
        if self.viewer is None:
            hand.show(())
            return
        obs = self.obs
        playable = {a.card for a in obs.legal if a.card is not None}
        hand.show(obs.hand, playable=playable, turn=self.my_turn(), selected=self.selected,
                  new=self.new_positions(), marked=self.marked)

    def _show_prompt(self) -> None:
        prompt = self.query_one("#prompt", Static)
        prompt.set_class(self.flash_text is not None, "-flash")
        set_text(prompt, self.flash_text if self.flash_text is not None else self.prompt())

    def flash(self, text: str, *, bell: bool = True) -> None:
        """Say on the status line, for a few seconds, why a key does nothing (with the bell)
        or what a key has changed (``bell=False``)."""
        if bell:
            self.app.bell()
        self.flash_text = text
        if self._flash_timer is not None:
            self._flash_timer.stop()
        self._flash_timer = self.set_timer(FLASH_SECONDS, self._end_flash)
        self._show_prompt()

    def _end_flash(self) -> None:
        self.flash_text = None
        self._flash_timer = None
        if self.is_mounted:
            self._show_prompt()

    def prompt(self) -> str:
        """What the player is asked now, with the keys that answer."""
        _ = self.tr
        obs = self.obs
        names = self.session.names
        if obs.round_over:
            return _("The round is over.")
        if self.viewer is None:
            return ""
        if obs.to_play is not None and not self.my_turn():
            if self.viewer in obs.finished:  # TS11: out of the round, the others play on
                return _("You are out in place {n}: the others play on.",
                         n=obs.finished.index(self.viewer) + 1)
            thinking = self._thinking
            if thinking is not None and thinking.due and thinking.action is None:
                return _("{name} is thinking…", name=names[obs.to_play])
            return _("{name} is playing…", name=names[obs.to_play])
        legal = obs.legal
        plays = any(a.card is not None for a in legal)
        keys: list[str] = []
        if obs.naming:  # TS3, UC3
            text = _("The starter {card} is wild: name the suit to follow (Enter).",
                     card=card_label(obs.up_card, _))
        elif self.marked:
            text = _("Marked: {cards}. Enter plays them with the chosen card on top; m "
                     "unmarks it.", cards=" ".join(card_label(obs.hand[i], _) for i in self.marked))
        elif obs.may_take:
            text = _("Take the top card of the stock? t: take it · p: no thanks")
        elif obs.drawn is not None and plays and obs.drawn in obs.hand \
                and self.selected != obs.hand.index(obs.drawn):  # a wild card is not chosen
            text = _("You drew {card}: press {key} then Enter to play it.",
                     card=card_label(obs.drawn, _), key=obs.hand.index(obs.drawn) + 1)
            if PASS in legal:
                keys.append(_("p: pass"))
        elif obs.drawn is not None and plays:
            if PASS in legal:
                text = _("You drew {card}: Enter plays it, p keeps it.",
                         card=card_label(obs.drawn, _))
            else:
                text = _("You drew {card}: press Enter to play it.", card=card_label(obs.drawn, _))
        elif obs.pending_draw:
            if plays:
                text = _.plural("{n} card to draw: answer with a card (Enter) or press d to draw it.",
                                "{n} cards to draw: answer with a card (Enter) or press d to draw them.",
                                obs.pending_draw)
            else:
                text = _.plural("{n} card to draw: press d.", "{n} cards to draw: press d.",
                                obs.pending_draw)
        elif obs.skip_due:  # MM5, PE8
            if plays:
                text = _("A skip falls on you: pass it on with another {rank} (Enter), or p to "
                         "miss your turn.", rank=rank_words(obs.up_card.rank, _))
            else:
                text = _("A skip falls on you: press p to miss your turn.")
        elif obs.must_play_again and not plays:
            text = _("You cannot play again: press d to draw the penalty.")
        else:
            if plays:
                text = _("Your turn: choose a card (←/→ or 1–9), Enter to play it.")
            else:
                text = _("Your turn: no card can be played.")
            if DRAW in legal:
                keys.append(_("d: draw"))
            if PASS in legal:
                keys.append(_("p: pass"))
        if any(len(a.cards) > 1 for a in legal) and not self.marked:  # SW3
            keys.append(_("m: mark"))
        if self.announce:
            keys.append(_("announcing your last card"))
        return " · ".join([text, *keys])

    def not_your_turn(self) -> str:
        _ = self.tr
        obs = self.obs
        if obs.round_over:
            return _("The round is over.")
        if obs.to_play is None or self.viewer is None:
            return _("It is not your turn.")
        return _("It is not your turn: {name} is playing.", name=self.session.names[obs.to_play])

    def why_not(self, action: Action) -> str:
        """Why ``action`` (draw, pass or take) is not possible now, in one line."""
        _ = self.tr
        obs = self.obs
        if not self.my_turn():
            return self.not_your_turn()
        legal = obs.legal
        plays = any(a.card is not None for a in legal)
        if obs.naming:  # TS3, UC3
            return _("Name the suit to follow first: Enter opens the suit picker.")
        if obs.skip_due and action == DRAW:  # MM5, PE8
            return _("d: a skip falls on you; pass it on with another {rank} or press p.",
                     rank=rank_words(obs.up_card.rank, _))
        if action == TAKE:
            if not obs.rules.replace_after_play:
                return _("t does nothing here: these rules never let you take the top card "
                         "of the stock.")
            return _("t: you may take the top card of the stock only right after playing a "
                     "card, when you do not go out.")
        if action == PASS:
            if obs.may_take:
                pass
            elif DRAW in legal and plays:
                return _("p: you cannot pass now; play a card or draw (d).")
            elif DRAW in legal:
                return _("p: you cannot pass now; no card can be played, so draw (d).")
            return _("p: you cannot pass now; play a card.")
        if action == DRAW:
            if obs.may_take:
                return _("d: you have played; take the top card (t) or not (p).")
            if obs.drawn is not None and PASS in legal:
                return _("d: you have drawn already; play it (Enter) or keep it (p).")
            return _("d: you cannot draw now; play a card.")
        return _("{action} is not possible now.", action=str(action))

    def watch_selected(self, selected: int) -> None:
        if self.is_mounted:
            self._show_hand()
            if self.obs.drawn is not None:
                self._show_prompt()

    def watch_announce(self, announce: bool) -> None:
        if not self.is_mounted:
            return
        _ = self.tr
        button = self.query_one("#announce", Button)
        self.labels["announce"] = _("Announcing! (a)") if announce else _("Announce (a)")
        button.set_class(announce, "-on")
        self._fit_keys(self.size.width)
        self._show_prompt()

    def watch_speed(self, speed: str) -> None:
        if not self.is_mounted:
            return
        self._show_title()
        if self._timer is not None:  # the next bot moves at the new pace
            self.advance()

    def _show_title(self) -> None:
        """The rules' title, the round, the level the bots play at and their speed, in the
        header; where that would not fit the width, without the keys of the speed, then
        without the speed (the status line says it when it changes), then without the title
        (the terminal's window still shows it)."""
        _ = self.tr
        title = _(self.obs.rules.title)
        bots = [seat.player for seat in self.session.seats if not seat.human]
        head = [_("Round {n}", n=self.obs.round),
                *([_("Bots: {levels}", levels=levels_words(bots, _))] if bots else [])]
        speed = speed_words(self.speed, _)
        subs = [" · ".join([*head, _("Speed: {speed} (+/−)", speed=speed)]),
                " · ".join([*head, _("Speed: {speed}", speed=speed)]), " · ".join(head)]
        room = self.app.size.width - HEADER_MARGIN
        self.app.title = title
        fits: list[tuple[str | None, str]] = [
            (None, sub) for sub in subs if cell_len(f"{title} — {sub}") <= room]
        fits += [("", sub) for sub in subs if cell_len(sub) <= room]
        self.title, self.sub_title = (fits or [("", subs[-1])])[0]

    # ------------------------------------------------------------------ actions

    def action_move(self, step: int) -> None:
        """Choose the card to the left (-1) or right (1), wrapping around."""
        n = len(self.query_one(HandFan).cards)
        if n:
            self.selected = (self.selected + step) % n

    def action_choose(self, index: int) -> None:
        """Choose the card at ``index`` (keys 1–9)."""
        if index < len(self.query_one(HandFan).cards):
            self.selected = index
        else:
            self.app.bell()

    def chosen_cards(self) -> list[Card]:
        """The cards Enter plays: those marked (SW3), then the chosen card, on top."""
        hand = self.obs.hand
        under = [hand[i] for i in self.marked if i != self.selected and i < len(hand)]
        return [*under, hand[self.selected]]

    def action_play_selected(self) -> None:
        """Play the chosen card, on top of the cards marked; ask for a suit first when the
        play names one (and for the suit of a wild starter, TS3)."""
        if not self.my_turn():
            self.flash(self.not_your_turn())
            return
        if self.obs.naming:
            self._ask_name()
            return
        if not 0 <= self.selected < len(self.obs.hand):
            self.app.bell()
            return
        cards = self.chosen_cards()
        card = cards[-1]
        plays = plays_of(self.obs.legal, cards)
        if not plays:
            self.flash(self.why_not_cards(cards))
            return
        suits = sorted({a.suit for a in plays if a.suit is not None})
        if self.announce and any(a.announce and a.suit is None for a in plays):
            suits = []  # MM9: the going-out call names no suit
        if suits:
            def picked(suit: Suit | None) -> None:
                if suit is not None:
                    self._play_cards(cards, suit)

            self.app.push_screen(SuitPicker(card, suits, self.tr), picked)
        else:
            self._play_cards(cards, None)

    def why_not_cards(self, cards: Sequence[Card]) -> str:
        """Why ``cards`` (the last on top) cannot be played now, in one line."""
        _ = self.tr
        legal = self.obs.legal
        card = cards[-1]
        if len(cards) == 1:
            if any(a.card == card for a in legal):  # SW3: only on top of others of its rank
                return _("{card} cannot be played alone now: mark (m) the cards to go "
                         "under it.", card=card_label(card, _))
            return _("{card} cannot be played now.", card=card_label(card, _))
        together = " ".join(card_label(c, _) for c in cards)
        wanted = Counter(cards)
        tops = sorted({a.card for a in legal if a.card is not None
                       and len(a.cards) == len(cards) and Counter(a.cards) == wanted})
        if tops:  # a card under the top must be playable on the up-card
            return _("{cards} go down together only with {tops} on top: choose it, then Enter.",
                     cards=together, tops=" / ".join(card_label(c, _) for c in tops))
        return _("{cards} cannot be played together now.", cards=together)

    def _play_cards(self, cards: Sequence[Card], suit: Suit | None) -> None:
        plays = [a for a in plays_of(self.obs.legal, cards) if a.suit == suit]
        if not plays:
            self.app.bell()
            return
        action = next((a for a in plays if a.announce == self.announce), plays[0])
        self.act(action)

    def _ask_name(self) -> None:
        """TS3, UC3: the suit picker for the wild starter (``=s``), unless it is open."""
        if any(isinstance(screen, SuitPicker) for screen in self.app.screen_stack):
            return
        suits = [a.suit for a in self.obs.legal if a.kind is Kind.NAME and a.suit is not None]
        if not suits:
            return

        def picked(suit: Suit | None) -> None:
            if suit is not None:
                self.act(Action.name(suit))

        self.app.push_screen(SuitPicker(self.obs.up_card, suits, self.tr, naming=True), picked)

    def action_mark(self) -> None:
        """SW3: mark the chosen card to go down with others of its rank, or unmark it."""
        _ = self.tr
        obs = self.obs
        if obs.rules.multi_play is MultiPlay.NONE:
            self.flash(_("m does nothing here: these rules play one card at a time."))
            return
        if not self.my_turn():
            self.flash(self.not_your_turn())
            return
        if obs.naming:
            self.flash(self.why_not(DRAW))
            return
        i = self.selected
        if not 0 <= i < len(obs.hand):
            self.app.bell()
            return
        if i in self.marked:
            self.marked.remove(i)
        else:
            cards = [obs.hand[j] for j in self.marked] + [obs.hand[i]]
            wanted = Counter(cards)
            if not any(len(a.cards) > 1 and not wanted - Counter(a.cards) for a in obs.legal):
                card = card_label(obs.hand[i], _)
                if self.marked:
                    self.flash(_("{card} cannot go down with {cards}.", card=card, cards=" ".join(
                        card_label(obs.hand[j], _) for j in self.marked)))
                else:
                    self.flash(_("{card} cannot go down with another card now.", card=card))
                return
            self.marked.append(i)
        self._end_flash()  # the prompt says what is marked
        self._show_hand()

    def act(self, action: Action) -> None:
        """Play ``action`` for the person to play (if it is legal), then move on."""
        if not self.my_turn() or action not in self.obs.legal:
            self.flash(self.why_not(action))
            return
        self._end_flash()
        mark = len(self.log_lines)
        move = self.session.play(action)
        if self.session.can_undo:
            self._undo_marks.append(mark)
        self.announce = False
        self.marked = []
        self._log_move(move)
        self.advance()

    def action_draw(self) -> None:
        self.act(DRAW)

    def action_pass_turn(self) -> None:
        self.act(PASS)

    def action_take(self) -> None:
        self.act(TAKE)

    def action_toggle_announce(self) -> None:
        _ = self.tr
        rules = self.obs.rules
        if not rules.announce_last_card and not rules.call_out:
            self.flash(_("a does nothing here: these rules have no last-card announcement."))
            return
        if not self.announce and not any(a.announce for a in self.obs.legal):
            if not self.my_turn():
                self.flash(_("a: announce on your turn, with the play that leaves you one card."))
            else:
                self.flash(_.plural(
                    "a: announce only with the play that leaves you one card; you hold {n} card.",
                    "a: announce only with the play that leaves you one card; you hold {n} cards.",
                    len(self.obs.hand)))
            return
        self.announce = not self.announce

    def action_undo(self) -> None:
        _ = self.tr
        if not self.session.can_undo:
            if len(self.session.humans) > 1:
                self.flash(_("u: no taking back between people sharing the screen."))
            else:
                self.flash(_("u: nothing to take back in this round."))
            self.say(_("Nothing to undo."))
            return
        self._cancel_timer()
        self._forget_thinking()
        self.session.undo()
        self.announce = False
        self.marked = []
        self._decision = None
        self.new_cards.clear()
        if self._undo_marks:
            self._mark_undone(self._undo_marks.pop())
        self.say(_("Your last move is taken back."))
        self.advance()

    def action_hint(self) -> None:
        """Every legal move valued by the search (in a worker), told in the log."""
        _ = self.tr
        s = self.session
        if len(s.humans) != 1:
            self.flash(_("Hints are for one person playing against bots."))
        elif not self.my_turn():
            self.flash(self.not_your_turn())
        elif len(self.obs.legal) < 2:
            self.flash(_("Only one move is legal: nothing to compare."))
        else:
            s.hint_asked()
            self.say(_("Looking for a hint…"))
            self.run_worker(self._hint(self.obs), group="hint", exclusive=True)

    async def _hint(self, obs: Observation) -> None:
        import asyncio

        from eights.tui.review import hint_line

        line = await asyncio.to_thread(hint_line, obs, self.tr)
        if self.obs.to_play == obs.to_play and self.obs.history == obs.history:
            self.say(line)

    def action_rules(self) -> None:
        title, *paragraphs = describe(self.obs.rules, self.tr)
        self.app.push_screen(RulesScreen(title, paragraphs, self.tr,
                                         key_lines(self.obs.rules, self.tr)))

    def action_speed(self, step: int) -> None:
        """One step faster (1) or slower (-1), said on the status line (a narrow header
        leaves the speed out)."""
        i = SPEEDS.index(self.speed) + step
        if 0 <= i < len(SPEEDS):
            self.speed = SPEEDS[i]
            self.flash(self.tr("Speed: {speed} (+/−)", speed=speed_words(self.speed, self.tr)),
                       bell=False)
        else:
            self.app.bell()

    def action_quit_game(self) -> None:
        self._pause_bots()
        self.app.push_screen(QuitScreen(self.session.path, self.tr,
                                        resume=self.session.resume_command()), self._quit_answer)

    def action_new_match(self) -> None:
        """Choose a new match (:class:`NewMatchScreen`); a match in progress is left first."""
        from eights.tui.newmatch import NewMatchScreen  # not before the first screen: 12 ms

        self._pause_bots()
        self.app.push_screen(NewMatchScreen(self.session, self.tr), self._new_match_chosen)

    def in_progress(self) -> bool:
        """A match begun and not over: leaving it for another asks first."""
        obs = self.session.observe(self.seat)
        return not obs.match_over and (obs.round > 1 or bool(obs.history))

    def _new_match_chosen(self, choice: NewMatch | None) -> None:
        _ = self.tr
        if choice is None:
            self.say(_("No new match: this one goes on."))
            self.advance()
        elif self.in_progress():
            def answer(answer: str | None) -> None:
                if answer is None:
                    self.advance()
                else:
                    self._start_new(choice, discard=answer == "discard")

            self.app.push_screen(QuitScreen(self.session.path, _, _(
                "Leave this match for a new one?"), resume=self.session.resume_command()), answer)
        else:
            self._start_new(choice)

    def _start_new(self, choice: NewMatch, *, discard: bool = False) -> None:
        """Start ``choice`` in place of this match (its save kept unless ``discard``): the
        same people, bots of the chosen level, saved beside this match, and a seed drawn
        from this match's (a seeded match leads to the same next ones)."""
        old = self.session
        path = old.path
        seed = random.Random(f"{old.game.seed}/next").randrange(10**9)
        session = Session.start(choice.rules, choice.players, bots=[choice.level],
                                humans=len(old.humans), names=[old.names[s] for s in old.humans],
                                seed=seed, save_dir=None if path is None else path.parent,
                                lang=self.tr.lang)
        session.program = old.program
        if discard:
            old.forget_save()
        self._cancel_timer()
        self._forget_thinking()
        app = self.app
        assert isinstance(app, EightsApp)
        app.call_later(app.new_table, session, self.speed)  # once the dialog has gone

    def _pause_bots(self) -> None:
        """A dialog opens: no bot plays until it closes (one may go on thinking)."""
        self._cancel_timer()
        if self._thinking is not None:
            self._thinking.due = False

    def _quit_answer(self, answer: str | None) -> None:
        if answer == "keep":
            self.app.exit()
        elif answer == "discard":
            self.session.forget_save()
            self.app.exit()
        else:
            self.advance()

    def on_hand_fan_chosen(self, message: HandFan.Chosen) -> None:
        """A click on a card of the hand chooses it and plays it (on top of the marked ones)."""
        self.selected = message.index
        self.action_play_selected()

    def on_hand_fan_marked(self, message: HandFan.Marked) -> None:
        """A right click (or ctrl+click) on a card chooses it and marks it (SW3)."""
        self.selected = message.index
        self.action_mark()


def _terminal_alive() -> bool:
    """Whether standard output is still a terminal (a closed one reads as not a tty)."""
    stream = sys.__stdout__
    try:
        return stream is not None and os.isatty(stream.fileno())
    except (OSError, ValueError):
        return False


class EightsApp(App[None]):
    """The full-screen game for one :class:`~eights.session.Session`."""

    CSS_PATH = "app.tcss"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, session: Session, _: Translator, speed: str = "normal") -> None:
        if speed not in DELAYS:
            raise ValueError(f"unknown speed {speed!r}; speeds are {', '.join(SPEEDS)}")
        super().__init__()
        self.session = session
        self.tr = _
        self.speed = speed

    def on_mount(self) -> None:
        # the table goes over the (empty) default screen, so that a new match can take its place
        self.push_screen(TableScreen(self.session, self.tr, self.speed))
        if _terminal_alive():  # a real terminal: leave when it goes away
            self.set_interval(1.0, self.check_terminal)

    def format_title(self, title: str, sub_title: str) -> Content:
        """The header's line; without the dash when the title is left out (a narrow terminal:
        :meth:`TableScreen._show_title`)."""
        if not title:
            return Content(sub_title).stylize("dim")
        return super().format_title(title, sub_title)

    def check_terminal(self) -> None:
        """Quit when the terminal has gone (its window closed under ``make play``, where no
        hang-up signal reaches the game): a game with no screen would spin on its input.
        Every action is saved as it is played, so nothing is lost."""
        if not _terminal_alive():
            self.exit()

    def new_table(self, session: Session, speed: str) -> None:
        """Play ``session`` from now on, on a new table screen in place of the current one."""
        self.session = session
        self.speed = speed
        self.switch_screen(TableScreen(session, self.tr, speed))

    @property
    def table(self) -> TableScreen:
        """The table screen (above the empty default screen; the dialogs go over it)."""
        screen = self.screen_stack[1]
        assert isinstance(screen, TableScreen)
        return screen
