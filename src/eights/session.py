"""A match played by people and bots: whose turn, bot moves, undo and saving.

The session is the game flow shared by the terminal screen and the plain
line mode; it knows nothing of either. Every accepted action is saved at once
as an ``eights-record/1`` file (the seats and names go in its ``meta``), so a
game can always be resumed with ``eights play --resume FILE``.

>>> s = Session.start("classic", 3, bots=["greedy", "random"], seed=4, save_dir=None)
>>> [seat.player for seat in s.seats], s.names
(['human', 'greedy', 'random'], ['Player', 'Bot 1', 'Bot 2'])
"""

from __future__ import annotations

import datetime as _dt
import os
import random
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from eights.bots import Bot, make_bot
from eights.engine.actions import Action
from eights.engine.errors import IllegalActionError, RecordError
from eights.engine.game import Game, Step
from eights.engine.observation import Observation
from eights.engine.record import Record, load_record, record_of, replay
from eights.engine.rules import Rules, load_rules
from eights.i18n import LANGUAGES, Translator, translator
from eights.i18n.text import describe_move, hand_count_words

__all__ = ["BotTurn", "Seat", "Session", "Told", "count_words", "default_name",
           "default_save_dir"]


def default_save_dir() -> Path:
    """Where games are saved: ``$EIGHTS_DATA_DIR``, else the user's data directory."""
    env = os.environ.get("EIGHTS_DATA_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("eights")) / "games"


def default_name(index: int, humans: int, human: bool, _: Translator) -> str:
    """The name a seat gets when none is given: ``Player`` (``Player 2`` with several
    people) for the person ``index`` of ``humans``, ``Bot 1`` for the bot ``index``."""
    if not human:
        return _("Bot {n}", n=index + 1)
    return _("Player") if humans == 1 else _("Player {n}", n=index + 1)


def _rename_defaults(seats: list[Seat], _: Translator) -> None:
    """Give the seats still named by default (in any language) their names in ``_``'s."""
    humans = sum(seat.human for seat in seats)
    kinds = ([s for s in seats if s.human], [s for s in seats if not s.human])
    for group in kinds:
        for index, seat in enumerate(group):
            if any(seat.name == default_name(index, humans, seat.human, translator(lang))
                   for lang in LANGUAGES):
                seat.name = default_name(index, humans, seat.human, _)


def count_words(obs: Observation, seat: int, _: Translator) -> str:
    """A seat's cards in hand (``5 cards``), or its place once it is out (``Out: place 1``,
    TS11)."""
    if seat in obs.finished:
        return _("Out: place {n}", n=obs.finished.index(seat) + 1)
    return hand_count_words(obs.hand_sizes[seat], _)


@dataclass
class Seat:
    """Who sits at a seat: a person (``player == "human"``) or a bot spec."""

    name: str
    player: str = "human"
    bot: Bot | None = None

    @property
    def human(self) -> bool:
        return self.bot is None


@dataclass(frozen=True, slots=True)
class BotTurn:
    """A bot's decision, detached from the session so another thread may make it.

    It holds what the bot may see (its observation and the legal actions) and
    its own copy of the session's bot generator; :meth:`choose` touches nothing
    else, and :meth:`Session.bot_play` applies the choice, refusing it once the
    game has moved on (:attr:`version`).
    """

    seat: int
    bot: Bot
    observation: Observation
    legal: tuple[Action, ...]
    rng: random.Random
    """A copy of :attr:`Session.bot_rng`; the session takes its state back with the move."""
    version: int
    """:attr:`Session.version` when the turn was taken."""

    @property
    def name(self) -> str:
        return self.bot.name

    def choose(self) -> Action:
        """The bot's choice (may take a while: a search bot thinks)."""
        return self.bot.choose(self.observation, list(self.legal), self.rng)


@dataclass(frozen=True, slots=True)
class Told:
    """One line of the story of a match (see :meth:`Session.story`)."""

    text: str
    undoable: bool = False
    """The line tells a move :meth:`Session.undo` can still take back (the person's, this
    round); such lines come in the order of the undo stack."""


class Session:
    """A match at a table of people and bots."""

    def __init__(self, game: Game, seats: Sequence[Seat], *, path: Path | None,
                 bot_seed: str, undo: Sequence[tuple[Game, tuple[Any, ...]]] = ()) -> None:
        if len(seats) != game.n:
            raise ValueError(f"{len(seats)} seats for {game.n} players")
        self.game = game
        self.seats = list(seats)
        self.path = path
        self.bot_rng = random.Random(bot_seed)
        self._undo: list[tuple[Game, tuple[Any, ...]]] = list(undo)
        """Positions before each of the person's actions this round, with the bots' generator."""
        self._version = 0
        self.hints: list[tuple[int, int]] = []
        """The decisions a hint was asked for: (round, actions of the round before it); the
        saved record's ``meta.hints`` lists them."""
        self.program = "eights"
        """How the ``eights`` command is typed where this match was started, for the line
        that says how to resume it (``.venv/bin/eights`` under ``make play``: the command
        line sets it)."""

    # ------------------------------------------------------------------ set-up

    @classmethod
    def start(
        cls,
        rules: str | Rules = "classic",
        players: int | None = None,
        *,
        bots: Sequence[str] | None = None,
        humans: int = 1,
        names: Sequence[str] = (),
        seed: int | None = None,
        save_dir: Path | None = None,
        lang: str | None = "en",
    ) -> Session:
        """A new match: ``humans`` people in the first seats, bots in the others.

        ``bots`` lists bot specs for the bot seats (repeated cyclically, default
        ``greedy``); ``names`` names the people in seat order.
        """
        _ = translator(lang)
        rules_obj = rules if isinstance(rules, Rules) else load_rules(rules)
        n = rules_obj.default_players if players is None else players
        rules_obj.check_players(n)
        if not 1 <= humans <= n:
            raise ValueError(f"{humans} people cannot sit at a table of {n}; "
                             f"give 1 to {n} (--humans)")
        specs = list(bots or ["greedy"])
        if not specs:
            specs = ["greedy"]
        seats: list[Seat] = []
        for s in range(n):
            if s < humans:
                default = default_name(s, humans, True, _)
                name = names[s] if s < len(names) and names[s] else default
                seats.append(Seat(name))
            else:
                spec = specs[(s - humans) % len(specs)]
                bot = make_bot(spec)
                spec = getattr(bot, "spec", spec)  # a model's path made absolute: resumes anywhere
                seats.append(Seat(default_name(s - humans, humans, False, _), spec, bot))
        if seed is None:
            seed = random.SystemRandom().randrange(10**9)
        game = Game(rules_obj, n, seed=seed, dealer=n - 1)  # seat 0 plays first
        path = None
        if save_dir is not None:
            stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
            path = save_dir / f"{stamp}-{rules_obj.name}-{seed}.json"
        session = cls(game, seats, path=path, bot_seed=f"{seed}/bots/0")
        session.save()
        return session

    @classmethod
    def resume(cls, path: Path, lang: str | None = None) -> Session:
        """Continue a saved game (its seats come from the record's ``meta``).

        The undo stack is rebuilt: every action of the person in the current
        round can be taken back, as before the game was left. The bots'
        generator at each of those positions is the one a resume there would
        give (``{seed}/bots/{actions so far}``). With ``lang``, a seat still under the
        name it was given by default (``Robot 1`` in a French game) takes that name in
        ``lang`` (``Bot 1``); a name a person chose stays.
        """
        record = load_record(path)
        raw = record.meta.get("seats")
        if not isinstance(raw, list) or len(raw) != record.players or not all(
                isinstance(s, dict) and isinstance(s.get("name"), str)
                and isinstance(s.get("player"), str) for s in raw):
            raise RecordError(f"record field 'meta.seats' must list {record.players} seats as "
                              '{"name": ..., "player": "human" or a bot}')
        humans = [k for k, s in enumerate(raw) if s["player"] == "human"]
        last = len(record.rounds) - 1
        undo: list[tuple[Game, tuple[Any, ...]]] = []
        done = 0

        def before(game: Game, r: int, _i: int, _action: Action) -> None:
            nonlocal done
            if len(humans) == 1 and r == last and game.to_play == humans[0]:
                state = random.Random(f"{record.seed}/bots/{done}").getstate()
                undo.append((game.clone(), state))
            done += 1

        game = replay(record, before)
        seats = [Seat(s["name"]) if s["player"] == "human"
                 else Seat(s["name"], s["player"], make_bot(s["player"])) for s in raw]
        if lang is not None:
            _rename_defaults(seats, translator(lang))
        session = cls(game, seats, path=path, bot_seed=f"{record.seed}/bots/{done}", undo=undo)
        hints = record.meta.get("hints")
        if isinstance(hints, list):
            session.hints = [(h["round"], h["turn"]) for h in hints if isinstance(h, dict)
                             and isinstance(h.get("round"), int) and isinstance(h.get("turn"), int)]
        return session

    # ------------------------------------------------------------------ state

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def humans(self) -> list[int]:
        return [s for s, seat in enumerate(self.seats) if seat.human]

    @property
    def version(self) -> int:
        """Counts the changes to the game (moves, undo, new rounds) made through the session."""
        return self._version

    @property
    def to_play(self) -> int | None:
        return self.game.to_play

    @property
    def human_to_play(self) -> bool:
        seat = self.game.to_play
        return seat is not None and self.seats[seat].human

    @property
    def bot_to_play(self) -> bool:
        seat = self.game.to_play
        return seat is not None and not self.seats[seat].human

    def observe(self, seat: int) -> Observation:
        return self.game.observe(seat)

    def legal(self) -> list[Action]:
        return self.game.legal_actions()

    @property
    def you(self) -> int | None:
        """The seat of the one person against bots (``None`` with several people)."""
        humans = self.humans
        return humans[0] if len(humans) == 1 else None

    def describe(self, step: Step, _: Translator) -> str:
        """The move in words (call right after it was made); "you" for the one person."""
        return self.tell(self.game, step, _)

    def tell(self, game: Game, step: Step, _: Translator) -> str:
        """``step`` in words, ``game`` being the state right after it."""
        return describe_move(game, self.names, step, _, you=self.you)

    def story(self, _: Translator) -> list[Told]:
        """The match so far as the log tells it: each round's deal, then every move.

        Rebuilt from the record (after :meth:`resume`, the screen's log starts
        with it). The person's moves of this round are marked while they can
        be taken back.
        """
        record = self.record()
        names = self.names
        undoable = self.undo_depth
        last = len(record.rounds) - 1
        lines: list[Told] = []
        mine: list[int] = []

        def deal(game: Game) -> None:
            lines.append(Told(_("Round {n}: {dealer} deals.", n=game.round,
                                dealer=names[game.dealer])))

        def before(game: Game, r: int, i: int, _action: Action) -> None:
            if i == 0:
                deal(game)
            if r == last and game.to_play == self.you:
                mine.append(len(lines))

        def after(game: Game, _r: int, _i: int, step: Step) -> None:
            lines.append(Told(self.tell(game, step, _)))

        final = replay(record, before, after)
        if not record.rounds[-1].actions:
            deal(final)
        for k in mine[len(mine) - undoable:] if undoable else ():
            lines[k] = Told(lines[k].text, undoable=True)
        return lines

    # ------------------------------------------------------------------ acting

    def play(self, action: Action | str) -> Step:
        """A person's action for the seat to play (checked; nothing changes if refused)."""
        if not self.human_to_play:
            raise IllegalActionError("it is not a person's turn")
        if isinstance(action, str):
            action = Action.parse(action)
        snapshot = (self.game.clone(), self.bot_rng.getstate())
        move = self._apply(action)
        self._undo.append(snapshot)
        return move

    def bot_move(self) -> Step:
        """Let the bot to play choose and play (it sees only its observation)."""
        turn = self.bot_turn()
        return self.bot_play(turn, turn.choose())

    def bot_turn(self) -> BotTurn:
        """The decision of the bot to play, for :meth:`BotTurn.choose` (on any thread)."""
        seat = self.game.to_play
        if seat is None or self.seats[seat].human:
            raise IllegalActionError("it is not a bot's turn")
        bot = self.seats[seat].bot
        assert bot is not None
        rng = random.Random()
        rng.setstate(self.bot_rng.getstate())
        return BotTurn(seat, bot, self.game.observe(seat), tuple(self.game.legal_actions()), rng,
                       self._version)

    def bot_play(self, turn: BotTurn, action: Action) -> Step:
        """Play the choice made for ``turn`` (refused if the game changed since)."""
        if turn.version != self._version:
            raise IllegalActionError("the game has moved on since the bot began to think")
        self.bot_rng.setstate(turn.rng.getstate())
        return self._apply(action)

    def _apply(self, action: Action) -> Step:
        step = self.game.apply(action)
        self._version += 1
        self.save()
        return step

    @property
    def can_undo(self) -> bool:
        """Undo is for one person against bots, within the current round."""
        return len(self.humans) == 1 and bool(self._undo)

    @property
    def undo_depth(self) -> int:
        """How many of the person's moves :meth:`undo` can still take back (this round)."""
        return len(self._undo) if self.can_undo else 0

    def undo(self) -> bool:
        """Take back the person's last action and every bot move after it."""
        if not self.can_undo:
            return False
        game, state = self._undo.pop()
        self.game = game
        self.bot_rng.setstate(state)
        self._version += 1
        self.save()
        return True

    def next_round(self) -> None:
        self.game.next_round()
        self._undo.clear()
        self._version += 1
        self.save()

    # ------------------------------------------------------------------ saving

    def record(self) -> Record:
        meta: dict[str, Any] = {"seats": [{"name": s.name, "player": s.player}
                                          for s in self.seats]}
        if self.hints:
            meta["hints"] = [{"round": r, "turn": t} for r, t in self.hints]
        return record_of(self.game, meta=meta)

    def hint_asked(self) -> None:
        """Note that a hint was asked for the decision now to play (saved in ``meta.hints``)."""
        here = (self.game.round, len(self.game.history))
        if here not in self.hints:
            self.hints.append(here)
            self.save()

    def save(self) -> Path | None:
        """Write the record to :attr:`path` (atomically); ``None`` when not saving."""
        if self.path is None:
            return None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(self.record().dumps(), "utf-8")
        tmp.replace(self.path)
        return self.path

    def resume_command(self) -> str | None:
        """The command that continues this match, typed where it was started
        (:attr:`program`): ``eights play --resume PATH``; ``None`` when it is not saved."""
        if self.path is None:
            return None
        return f"{self.program} play --resume {shlex.quote(str(self.path))}"

    def forget_save(self) -> None:
        """Delete the saved file (the player chose not to keep the game)."""
        if self.path is not None and self.path.exists():
            self.path.unlink()
