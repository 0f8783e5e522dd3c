"""The game record, ``eights-record/1``: a JSON document that replays a match.

::

    {"format": "eights-record/1",
     "rules": "huit-americain",
     "players": 4, "dealer": 0, "seed": 7,
     "rounds": [{"deck": ["Kd", "7h", "..."], "actions": ["7h", "draw", "8s=h"]}]}

``rules`` is a preset name, a file path or an inline table (which may
``extends`` a preset). ``deck`` (optional) lists the cards in the order they
leave the stock: the deal, the starter (and any re-turned starter), then every
draw; once it runs out, cards come from the generator seeded by ``seed``.
``meta`` (optional) is a free object (player names, dates) that replay ignores.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from eights.engine.actions import Action
from eights.engine.cards import Card
from eights.engine.errors import EightsError, IllegalActionError, NotationError, RecordError
from eights.engine.game import Game, Step

T = TypeVar("T")

__all__ = ["FORMAT", "Record", "ReplayError", "RoundRecord", "load_record", "record_of", "replay"]

FORMAT = "eights-record/1"
_KEYS = {"format", "rules", "players", "dealer", "seed", "rounds", "meta"}


class ReplayError(IllegalActionError):
    """An action of a record that the rules do not allow at its point."""

    def __init__(self, message: str, legal: tuple[str, ...], round_no: int, index: int) -> None:
        super().__init__(message, legal)
        self.round = round_no
        self.index = index


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """One round: the cards in the order they left the stock, and the actions."""

    actions: tuple[Action, ...]
    deck: tuple[Card, ...] | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """A parsed ``eights-record/1`` document."""

    rules: str | dict[str, Any]
    players: int
    dealer: int
    seed: int
    rounds: tuple[RoundRecord, ...]
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The record as a JSON-ready object."""
        rounds: list[dict[str, Any]] = []
        for r in self.rounds:
            item: dict[str, Any] = {}
            if r.deck is not None:
                item["deck"] = [str(c) for c in r.deck]
            item["actions"] = [str(a) for a in r.actions]
            rounds.append(item)
        data: dict[str, Any] = {
            "format": FORMAT, "rules": self.rules, "players": self.players,
            "dealer": self.dealer, "seed": self.seed, "rounds": rounds,
        }
        if self.meta:
            data["meta"] = self.meta
        return data

    def dumps(self) -> str:
        """Compact, one round per line, stable JSON text."""
        head = {k: v for k, v in self.to_json().items() if k != "rounds"}
        body = ",\n  ".join(json.dumps(r, ensure_ascii=False) for r in self.to_json()["rounds"])
        text = json.dumps(head, ensure_ascii=False)[:-1]
        return f'{text}, "rounds": [\n  {body}\n]}}\n'


def record_of(game: Game, *, decks: bool = True, meta: Mapping[str, Any] | None = None) -> Record:
    """The record of a game so far (every round, the running one included).

    With ``decks`` the cards that left the stock are written out, so the
    record replays without relying on the generator.
    """
    logs = [*game.rounds_log, game.round_log()]
    first_dealer = logs[0].dealer
    rounds = tuple(RoundRecord(log.actions, log.deck if decks else None) for log in logs)
    return Record(game.rules_spec, game.n, first_dealer, game.seed, rounds, dict(meta or {}))


def _field(data: Mapping[str, Any], key: str, kind: type, what: str) -> Any:
    if key not in data:
        raise RecordError(f"record field {key!r} is missing; it must be {what}")
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"record field {key!r} is {value!r}; it must be {what}")
    return value


def load_record(source: str | Path | Mapping[str, Any]) -> Record:
    """Parse a record from a file path, JSON text or a decoded object.

    Raises :class:`~eights.engine.errors.RecordError` naming the bad field.
    """
    if isinstance(source, Mapping):
        data: Any = source
    else:
        text = str(source)
        if isinstance(source, Path) or not text.lstrip().startswith("{"):
            try:
                text = Path(source).read_text("utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise RecordError(f"cannot read record {str(source)!r}: {exc}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"record is not valid JSON: {exc}") from None
    if not isinstance(data, Mapping):
        raise RecordError("a record must be a JSON object with format, rules, players, "
                          "dealer, seed and rounds")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise RecordError(f"unknown record field {unknown[0]!r}; fields are {', '.join(sorted(_KEYS))}")
    for key in ("format", "rules"):
        if key not in data:
            raise RecordError(f"record field {key!r} is missing")
    fmt = data.get("format")
    if fmt != FORMAT:
        raise RecordError(f"record field 'format' is {fmt!r}; it must be {FORMAT!r}")
    rules = data.get("rules")
    if not isinstance(rules, (str, Mapping)):
        raise RecordError(f"record field 'rules' is {rules!r}; it must be a preset name, "
                          "a file path or an inline table")
    players = _field(data, "players", int, "a whole number of players")
    dealer = _field(data, "dealer", int, "the seat of the first dealer")
    seed = _field(data, "seed", int, "a whole number")
    raw_rounds = _field(data, "rounds", list, "a list of rounds")
    meta = data.get("meta", {})
    if not isinstance(meta, Mapping):
        raise RecordError(f"record field 'meta' is {meta!r}; it must be an object")
    rounds: list[RoundRecord] = []
    for i, raw in enumerate(raw_rounds):
        where = f"rounds[{i}]"
        if not isinstance(raw, Mapping) or set(raw) - {"deck", "actions"}:
            raise RecordError(f"record field {where!r} must be an object with 'actions' "
                              "and an optional 'deck'")
        actions = _parse_items(raw.get("actions"), Action.parse, f"{where}.actions",
                               "a list of action strings")
        deck = (_parse_items(raw["deck"], Card.parse, f"{where}.deck", "a list of card strings")
                if "deck" in raw else None)
        rounds.append(RoundRecord(actions, deck))
    if not rounds:
        raise RecordError("record field 'rounds' is empty; it must hold at least one round")
    return Record(rules if isinstance(rules, str) else dict(rules), players, dealer, seed,
                  tuple(rounds), dict(meta))


def _parse_items(items: object, parse: Callable[[str], T], where: str, what: str) -> tuple[T, ...]:
    """Parse a list of strings, naming the field and index of the first bad one."""
    if not isinstance(items, list) or not all(isinstance(x, str) for x in items):
        raise RecordError(f"record field '{where}' must be {what}")
    out: list[T] = []
    for k, text in enumerate(items):
        try:
            out.append(parse(text))
        except NotationError as exc:
            raise RecordError(f"record field '{where}[{k}]': {exc}") from None
    return tuple(out)


Before = Callable[[Game, int, int, Action], None]
"""Called before each action with the game, the round index, the action index and the action."""
After = Callable[[Game, int, int, Step], None]
"""Called after each action with what it did (:class:`~eights.engine.game.Step`)."""
"""Called around each action: ``(game, round_index, action_index, action)``."""


def replay(record: Record, on_step: Before | None = None, after_step: After | None = None) -> Game:
    """Replay a record to its final state.

    ``on_step`` is called before each action, ``after_step`` right after it
    with the :class:`~eights.engine.game.Step` it made.
    Raises :class:`ReplayError` (round, index and legal actions) for an action
    the rules do not allow, :class:`~eights.engine.errors.RecordError` for a record
    that cannot be set up (bad rules, players, dealer, deck).
    """
    try:
        game = Game(record.rules, record.players, seed=record.seed, dealer=record.dealer,
                    deck=record.rounds[0].deck)
    except RecordError as exc:
        raise RecordError(f"rounds[0].deck: {exc}") from None
    except EightsError as exc:
        raise RecordError(f"record cannot start: {exc}") from None
    for r, rnd in enumerate(record.rounds):
        if r:
            if not game.over:
                raise RecordError(f"rounds[{r - 1}] ends before its round is over; "
                                  f"{len(record.rounds[r - 1].actions)} actions were not enough")
            if game.match_over:
                raise RecordError(f"rounds[{r}] follows the end of the match")
            try:
                game.next_round(rnd.deck)
            except RecordError as exc:
                raise RecordError(f"rounds[{r}].deck: {exc}") from None
        for i, action in enumerate(rnd.actions):
            legal = game.legal_actions()
            if on_step is not None:
                on_step(game, r, i, action)
            if action not in legal:
                names = tuple(str(a) for a in legal)
                state = "the round is over" if game.over else f"seat {game.to_play} to play"
                raise ReplayError(
                    f"round {r + 1}, action {i} ({action}): not legal ({state}); "
                    f"legal: {', '.join(names) or 'none'}", names, r + 1, i)
            try:
                if after_step is None:
                    game.push(action)
                else:
                    step = game.apply(action)
            except RecordError as exc:
                raise RecordError(f"rounds[{r}].deck: {exc}") from None
            if after_step is not None:
                after_step(game, r, i, step)
    return game
