"""The new-match screen of ``eights play`` (key ``n``): rules, player count, opponents' level.

A level is a bot spec (:data:`LEVELS`) with a name and a one-line description in
each language (:func:`level_words`). A level is offered only where it can play:
:func:`eights.bots.check_table` decides, the same check the server makes before it
seats a bot (the shipped learned model plays every table; a model of one rule set given as
``learned:model=PATH`` plays only its own). The levels left out are named, with the player
counts they play at. A match started with ``learned:model=PATH`` offers that model too,
as one more level (:func:`own_level`), chosen at first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, RadioButton, RadioSet, Select, Static

from eights.bots import check_table, make_bot
from eights.engine.rules import Rules, load_rules, preset_names
from eights.i18n import Translator
from eights.i18n.text import BOT_LEVELS, level_name, own_model
from eights.i18n.text import level_words as words_of_level
from eights.session import Session

__all__ = ["LEVELS", "NewMatch", "NewMatchScreen", "level_fits", "level_words", "levels_at",
           "own_level"]

LEVELS: tuple[str, ...] = BOT_LEVELS
"""The opponents' levels offered, as bot specs, in the order shown (their words:
:func:`eights.i18n.text.level_words`, as on the browser's new-table form)."""
DEFAULT_LEVEL = "greedy"
"""The level chosen when the current opponents are not all of one level (``eights play``'s
default bots)."""
CURRENT = "current"
"""The rules choice that keeps the current rules (a house-rules file, ``--set``)."""


def own_level(spec: str) -> bool:
    """Whether ``spec`` is a learned bot with its own model (``learned:model=PATH``)."""
    return own_model(spec) is not None


def level_words(level: str, _: Translator) -> tuple[str, str]:
    """The name of ``level`` (a spec of :data:`LEVELS`, or :func:`own_level`'s, named as the
    table's header names it: :func:`eights.i18n.text.level_name`) and what it does, in one
    line (:func:`eights.i18n.text.level_words`)."""
    model = own_model(level)
    if model is not None:
        return level_name(level, _), _("Your model, {path}.", path=str(model))
    return words_of_level(level, _)


@cache
def level_fits(level: str, rules: Rules, players: int) -> bool:
    """Whether the bots of ``level`` can play ``rules`` with ``players``
    (:func:`eights.bots.check_table`; a model is loaded once per table)."""
    try:
        check_table(make_bot(level), rules, players)
    except ValueError:
        return False
    return True


def levels_at(rules: Rules, players: int, levels: Sequence[str] = LEVELS) -> list[str]:
    """The levels of ``levels`` (:data:`LEVELS`) offered for ``rules`` with ``players``."""
    return [level for level in levels if level_fits(level, rules, players)]


@dataclass(frozen=True, slots=True)
class NewMatch:
    """What the new-match screen chose: the match to start."""

    rules: Rules
    players: int
    level: str
    """A spec of :data:`LEVELS`: every bot of the new match plays it."""


class NewMatchScreen(ModalScreen[NewMatch | None]):
    """Choose the rules, the player count and the opponents' level of a new match.

    It opens on the current match's choices; Start (or ``s``) answers a
    :class:`NewMatch`, Escape answers ``None`` (nothing changes).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", show=False),
        Binding("s", "start", show=False),
    ]

    def __init__(self, session: Session, _: Translator) -> None:
        super().__init__()
        self.tr = _
        self.people = len(session.humans)
        """People at the table: the new match keeps them, so it needs as many seats."""
        current = session.game.rules
        self.rules: dict[str, Rules] = {}
        """The rules to choose from, by their value in the rules list."""
        chosen = None
        for name in preset_names():
            rules = load_rules(name)
            if rules.players[1] < self.people:
                continue
            self.rules[name] = rules
            if rules == current:
                chosen = name
        if chosen is None:  # a house-rules file, or a preset changed by --set
            self.rules = {CURRENT: current, **self.rules}
            chosen = CURRENT
        self.chosen_rules = chosen
        self.chosen_players = session.game.n
        specs = {seat.player for seat in session.seats if not seat.human}
        own = sorted(spec for spec in specs if own_level(spec))
        self.levels: tuple[str, ...] = (*LEVELS, *own)
        """The levels offered: :data:`LEVELS`, and the learned model the match was started
        with (``learned:model=PATH``), if any."""
        self.chosen_level = specs.pop() if len(specs) == 1 and specs <= set(self.levels) else (
            own[0] if own else DEFAULT_LEVEL)

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        _ = self.tr
        with Vertical(id="new-dialog", classes="dialog"):
            yield Static(_("New match"), classes="dialog-title")
            with Horizontal(classes="field"):
                yield Label(_("Rules"), classes="field-label")
                yield Select(self._rules_options(), value=self.chosen_rules, allow_blank=False,
                             type_to_search=False, compact=True, id="new-rules")
            with Horizontal(classes="field"):
                yield Label(_("Players"), classes="field-label")
                yield Select(self._player_options(), value=self.chosen_players,
                             allow_blank=False, type_to_search=False, compact=True,
                             id="new-players")
            yield Label(_("Opponents"), classes="field-head")
            with RadioSet(id="new-levels", compact=True):
                for level in self.levels:
                    yield RadioButton(level_words(level, _)[0], id=self.button_id(level))
            yield Static(id="new-about", classes="about", markup=False)
            yield Static(id="new-missing", classes="hint", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(_("Start (s)"), id="new-start", variant="primary", compact=True,
                             action="screen.start")
                yield Button(_("Cancel (Esc)"), id="new-cancel", compact=True,
                             action="screen.cancel")
            yield Static(_("Tab: next field · Enter: open a list or choose · Esc: back"),
                         classes="hint", markup=False)

    def on_mount(self) -> None:
        self._show_levels()
        # Tab goes down the fields from the first, then to Start and round again; Cancel is
        # Escape's (or a click): Enter never closes the screen by a focus the person missed
        self.query_one("#new-cancel").can_focus = False
        self.query_one("#new-rules").focus()

    def _rules_options(self) -> list[tuple[str, str]]:
        _ = self.tr
        return [(_("{title} (these rules)", title=_(rules.title)) if key == CURRENT
                 else f"{_(rules.title)} · {key}", key) for key, rules in self.rules.items()]

    def player_counts(self) -> range:
        """The player counts offered: the chosen rules', from the people at the table."""
        low, high = self.rules[self.chosen_rules].players
        return range(max(low, self.people), high + 1)

    def _player_options(self) -> list[tuple[str, int]]:
        return [(str(n), n) for n in self.player_counts()]

    # ------------------------------------------------------------------ choices

    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        if event.select.id == "new-rules" and isinstance(event.value, str):
            self.chosen_rules = event.value
            counts = self.player_counts()
            if self.chosen_players not in counts:
                default = self.rules[self.chosen_rules].default_players
                self.chosen_players = default if default in counts else counts[0]
            players = self.query_one("#new-players", Select)
            players.set_options(self._player_options())
            players.value = self.chosen_players
        elif event.select.id == "new-players" and isinstance(event.value, int):
            self.chosen_players = event.value
        self._show_levels()

    def on_radio_set_changed(self, event: RadioSet.Changed) -> None:
        event.stop()
        self.chosen_level = self.levels[[self.button_id(level) for level in self.levels]
                                        .index(event.pressed.id or "")]
        self._show_about()

    def offered(self) -> list[str]:
        """The levels offered for the rules and player count chosen."""
        return levels_at(self.rules[self.chosen_rules], self.chosen_players, self.levels)

    def _show_levels(self) -> None:
        """Show only the levels that play the chosen table; say which are left out."""
        _ = self.tr
        offered = self.offered()
        for level in self.levels:
            button = self.query_one(f"#{self.button_id(level)}", RadioButton)
            button.display = level in offered
            button.disabled = level not in offered  # the arrows skip it
        if self.chosen_level not in offered:
            self.chosen_level = DEFAULT_LEVEL if DEFAULT_LEVEL in offered else offered[0]
        self.query_one(f"#{self.button_id(self.chosen_level)}", RadioButton).value = True  # and
        # highlighted: the set's arrows start from it
        self._show_about()
        rules = self.rules[self.chosen_rules]
        left_out: dict[tuple[int, ...], list[str]] = {}  # by the player counts they play at
        for level in self.levels:
            if level not in offered:
                counts = tuple(n for n in range(rules.players[0], rules.players[1] + 1)
                               if level_fits(level, rules, n))
                left_out.setdefault(counts, []).append(level_words(level, _)[0])
        why = [_("{levels} (with {counts} players only)", levels=", ".join(names),
                 counts=_list_words(counts, _)) if counts else
               _("{levels} (not with these rules)", levels=", ".join(names))
               for counts, names in left_out.items()]
        text = _("Not offered here: {why}.", why="; ".join(why)) if why else ""
        self.query_one("#new-missing", Static).update(text)
        self.query_one("#new-missing").display = bool(text)

    def _show_about(self) -> None:
        name, about = level_words(self.chosen_level, self.tr)
        self.query_one("#new-about", Static).update(self.tr("{level}: {about}", level=name,
                                                            about=about))

    # ------------------------------------------------------------------ answers

    def choice(self) -> NewMatch:
        """The match the screen would start now."""
        return NewMatch(self.rules[self.chosen_rules], self.chosen_players, self.chosen_level)

    def action_start(self) -> None:
        self.dismiss(self.choice())

    def action_cancel(self) -> None:
        self.dismiss(None)

    def button_id(self, level: str) -> str:
        """The id of the radio button of ``level``."""
        if own_level(level):
            return f"level-own-{self.levels.index(level)}"
        return "level-" + level.replace(":", "-").replace("=", "-")


def _list_words(counts: Sequence[int], _: Translator) -> str:
    """``2``, ``2 or 3``, ``2, 3 or 4``."""
    words = [str(n) for n in counts]
    if len(words) == 1:
        return words[0]
    return _("{first} or {last}", first=", ".join(words[:-1]), last=words[-1])
