"""Rules as data: a frozen :class:`Rules` object read from TOML.

Every mechanism of the family is a named field with its default declared
once, here. A preset is a TOML file shipped in ``eights/presets``; a house
rules file says ``extends = "<preset or file>"`` and changes any field.
Tables (``[cards.<rank>]``, ``[points]``) merge key by key, so a house rule
can change one card without repeating the rest::

    extends = "huit-americain"
    jokers = 2
    [cards.7]
    skip = false

Anything unknown or out of range is a :class:`~eights.engine.errors.RulesError`
that names the file, the key, the value and what is allowed.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, Sequence, ValuesView
from dataclasses import MISSING, dataclass, field, fields, replace
from enum import Enum
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from eights.engine.cards import CARDS, JOKER, RANKS, Card, Rank, make_deck
from eights.engine.errors import NotationError, RulesError

__all__ = [
    "BlockedScoring",
    "CardRule",
    "DrawPolicy",
    "FrozenMap",
    "GoingOut",
    "MultiPlay",
    "ReverseTwo",
    "Rules",
    "Scoring",
    "StarterWild",
    "WildIf",
    "load_rules",
    "preset_names",
]


_K = TypeVar("_K")
_V = TypeVar("_V")


class FrozenMap(Mapping[_K, _V]):
    """A read-only, hashable mapping: the tables of :class:`Rules` (``points``, ``cards``).

    A loaded rule set is shared (presets are cached), so nothing in it may change.

    >>> m = FrozenMap({Rank.ACE: 1})
    >>> m[Rank.ACE], m == {Rank.ACE: 1}, hash(m) == hash(FrozenMap({Rank.ACE: 1}))
    (1, True, True)
    >>> m[Rank.ACE] = 2
    Traceback (most recent call last):
    TypeError: 'FrozenMap' object does not support item assignment
    """

    __slots__ = ("_data",)
    _data: dict[_K, _V]

    def __init__(self, data: Mapping[_K, _V] | Iterable[tuple[_K, _V]] = ()) -> None:
        object.__setattr__(self, "_data", dict(data))

    def __getitem__(self, key: _K) -> _V:
        return self._data[key]

    def __iter__(self) -> Iterator[_K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data

    def get(self, key: _K, default: Any = None) -> Any:
        return self._data.get(key, default)

    def keys(self) -> KeysView[_K]:
        return self._data.keys()

    def items(self) -> ItemsView[_K, _V]:
        return self._data.items()

    def values(self) -> ValuesView[_V]:
        return self._data.values()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, FrozenMap):
            return self._data == other._data
        if isinstance(other, Mapping):
            return self._data == dict(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(frozenset(self._data.items()))

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"

    def __reduce__(self) -> tuple[type[FrozenMap[_K, _V]], tuple[dict[_K, _V]]]:
        return (type(self), (self._data,))

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"{type(self).__name__} is read-only")


class DrawPolicy(Enum):
    """What ``draw`` does when no forced draw is pending."""

    ONE_END = "one-end"
    """Take one card; the turn ends (CL5)."""
    ONE_MAY_PLAY = "one-may-play"
    """Take one card; if it is playable it may be played at once, else ``pass`` (HA4)."""
    ONE_MUST_PLAY = "one-must-play"
    """Take one card; if it is playable it must be played at once, else the turn ends (TS4)."""
    UNTIL_PLAYABLE = "until-playable"
    """Take cards until one is playable, then play it (HF5, LH6)."""
    REPEAT = "repeat"
    """Take one card and stay in the turn, up to ``max_draws`` a turn (OpenSpiel);
    ``max_draws = 0`` for no limit (CE4)."""


class ReverseTwo(Enum):
    """What a reverse does while only two players hold cards."""

    NONE = "none"
    """Nothing: the direction has no meaning with two players (HF10, HA9)."""
    SKIP = "skip"
    """It acts as a skip: the other player loses their turn, the direction stays (SW7, PE10,
    TS8, UC6); on a starter under ``starter_effects`` the dealer plays first (UC3)."""


class StarterWild(Enum):
    """What a wild starter that is not redrawn means for the first player."""

    PLAIN = "plain"
    """Nothing special: it is matched by its own suit and rank."""
    ANY = "any"
    """The first player may play any card on it (CL4)."""
    DEALER_NAMES = "dealer-names"
    """The dealer's first action names the suit to follow (``=s``: TS3)."""
    FIRST_NAMES = "first-names"
    """The first player names the suit to follow (``=s``), then takes their turn (UC3)."""


class MultiPlay(Enum):
    """Whether one play may hold several cards."""

    NONE = "none"
    """One card a play."""
    SAME_RANK = "same-rank"
    """Several cards of one rank and one rule, written ``7h+7s`` (the last one on top):
    one of the cards under the top card must be playable, the others follow by rank, and
    their effects add up (SW3, SW5-SW8, LC3)."""


class WildIf(Enum):
    """When a wild card may be played."""

    ALWAYS = "always"
    """Whenever no forced draw is pending (HF4, CL3, HA6)."""
    NO_SUIT = "no-suit"
    """Only by a player who holds no card of the suit to follow, wild cards aside; it then
    goes on any card, and otherwise it is not playable at all, even by suit or rank (UC8)."""


class GoingOut(Enum):
    """Whether a play of a card may empty the hand."""

    YES = "yes"
    """Always (HF11)."""
    SUIT = "suit"
    """Only if the card is of the suit to follow as it stood before the play (LC6)."""
    NO = "no"
    """Never: as the last card it is not a legal play (PE12, SW10's toggle)."""
    PENALTY = "penalty"
    """It may be played, but then the player draws ``out_penalty`` cards at the end of the
    turn and stays in the round (PE12's toggle)."""


class Scoring(Enum):
    """How a round is scored and who wins the match."""

    OWN_HAND = "own-hand"
    """Every player scores the cards in their own hand; lowest total wins (HF11, HA14)."""
    WINNER_COLLECTS = "winner-collects"
    """Whoever goes out scores the opponents' cards; highest total wins (CL7, LH8)."""
    ROUNDS_WON = "rounds-won"
    """The round's winner scores 1: the first player out, or in a blocked round the lowest
    hand value (tied players all score; ``blocked_scoring`` does not apply). The highest
    total wins, and ``target`` counts rounds won (SW11, LC9, PE13)."""
    PLACINGS = "placings"
    """Each player scores their placing minus one: 0 for the first out, n - 1 for the last.
    Players still holding cards are placed after those out, by hand value, lowest first;
    tied players share the better place. The lowest total wins (TS12)."""


class BlockedScoring(Enum):
    """How a blocked round (nobody can play or draw) is scored."""

    OWN_HAND = "own-hand"
    """Everyone scores their own hand, as if nobody went out (HF13)."""
    COLLECT = "collect"
    """The lowest hand wins and collects the opponents' hands (CL6)."""
    DIFFERENCE = "difference"
    """The lowest hand wins and scores the difference to each opponent (LH9)."""


@dataclass(frozen=True, slots=True)
class CardRule:
    """What a rank does beyond matching by suit or rank."""

    wild: bool = False
    """Playable on any up-card when no forced draw is pending (HF4, CL3, HA6, HA12)."""
    name_suit: bool = False
    """The player names the suit to follow (HF4, CL3, LH3)."""
    wild_if: WildIf = field(default=WildIf.ALWAYS, metadata={"needs": "wild"})
    """When this wild card may be played: 'always', or 'no-suit' (only by a player holding
    no card of the suit to follow, wild cards aside: UC8). Needs ``wild``."""
    not_on: frozenset[Rank] = field(default=frozenset(), metadata={"needs": "wild"})
    """Up-card ranks this wild card may not cover (HA6: no 8 on a 2)."""
    takes_covered_rank: bool = False
    """The card takes the rank of the card it covers (LH4)."""
    transparent: bool = False
    """The card to match stays the one beneath (HA12 joker)."""
    draw: int = 0
    """Cards the next player must draw (HF7, HF8, HA7, HA8, HA12)."""
    stack: bool = field(default=False, metadata={"needs": "draw"})
    """A pending draw can be answered by the same rank, adding ``draw`` (HF7, HA7)."""
    stack_with: frozenset[Card] = field(default=frozenset(), metadata={"needs": "draw"})
    """Cards that may be played on a pending draw whose last card is this one, each adding
    its own ``draw`` (BJ3: 2s and black jacks). A rank stands for its cards that have a
    draw; ``stack`` adds the card's own rank."""
    cancelled_by: frozenset[Card] = field(default=frozenset(), metadata={"needs": "draw"})
    """Cards (or ranks: every card of the rank) that may be played on the pending draw and
    cancel it (HA7: an 8; BJ4: the red jacks)."""
    skip: bool = False
    """The next player loses their turn (HF10 Q, HA10 7)."""
    pass_on: bool = field(default=False, metadata={"needs": "skip"})
    """The skipped player may play a card of this rank instead of losing their turn; the
    skip then falls on the player after them (``pass`` accepts it: MM5, PE8 toggles)."""
    reverse: bool = False
    """The direction of play reverses; no effect with two players (HF10 A, HA9 J)."""
    again: bool = False
    """The player must play again (HA11 10)."""
    again_penalty: int = field(default=0, metadata={"needs": "again"})
    """Cards drawn by a player who must play again and cannot (HA11)."""
    any_follows: bool = False
    """While this card is the up-card and no forced draw is pending, any card may be played
    on it; the card played on it sets the suit and the rank (PE6 joker)."""
    out_multiplier: int = 1
    """When the play that empties a hand ends with this card, every player's points for
    that round are multiplied by this (MM10: 2 for the jack)."""
    must_cover: bool = False
    """While this card is the up-card, ``draw`` takes one card at a time until one can be
    played, and that card must be played; with nothing left to draw the turn ends (TS9)."""
    going_out: GoingOut = GoingOut.YES
    """Whether a play of this card may empty the hand: 'yes'; 'suit' (only if it is of the
    suit to follow before the play: LC6); 'no' (never: PE12); 'penalty' (the player draws
    ``out_penalty`` cards at the end of the turn and stays in the round)."""

    def __post_init__(self) -> None:
        _freeze(self)

    @property
    def has_effect(self) -> bool:
        """True if the card does anything once played (draw, skip, reverse, again)."""
        return bool(self.draw or self.skip or self.reverse or self.again)


Steps = tuple[tuple[int, int], ...]
"""A value by player count: ``((2, 7), (5, 5))`` is 7 from 2 players, 5 from 5."""


def _default_points() -> dict[Rank, int]:
    table = {rank: min(rank.face_value, 10) for rank in Rank}
    table[Rank.JOKER] = 50
    return table


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete rule set. Build it with :func:`load_rules`."""

    name: str = "custom"
    """Short name (the preset's file name)."""
    title: str = "Custom rules"
    """Human title."""
    source: str = ""
    """Where the rules come from (the seed text, a web page, a house)."""
    players: tuple[int, int] = (2, 8)
    """Smallest and largest number of players."""
    default_players: int = 4
    """Players when none is given (HF1)."""
    decks: Steps = ((2, 1),)
    """Standard decks by player count (HA1, CL1)."""
    jokers: int = 0
    """Jokers per deck (HA12)."""
    ranks: frozenset[Rank] = frozenset(RANKS)
    """Ranks of each standard deck, in four suits: all thirteen, or a short pack
    (7 to A: 32 cards for Mau-Mau, MM1; 6 to A: 36 cards for Tschau Sepp, TS1)."""
    hand_size: Steps = ((2, 7),)
    """Cards dealt to each player, by player count (HF1, HA2, CL1, LH2)."""
    starter_redraw: frozenset[Rank] = frozenset()
    """Starter ranks put back into the stock and turned again (HA2)."""
    starter_effects: bool = False
    """The starter's draw, skip or reverse applies as if the dealer played it."""
    starter_wild: StarterWild = StarterWild.PLAIN
    """What a wild starter that is not redrawn means: 'plain' (match its suit and rank),
    'any' (the first player may play any card: CL4), 'dealer-names' (the dealer names the
    suit to follow, ``=s``: TS3) or 'first-names' (the first player names it, then plays:
    UC3). The old key ``starter_wild_any = true`` still reads as 'any'."""
    draw: DrawPolicy = DrawPolicy.ONE_END
    """What ``draw`` does when no forced draw is pending."""
    max_draws: int = 1
    """Draws a turn with the ``repeat`` policy; then the player may pass.
    0 for no limit: the turn ends with a play, or a pass when nothing is left to draw (CE4)."""
    multi_play: MultiPlay = MultiPlay.NONE
    """'none', or 'same-rank': several cards of one rank in one play, ``7h+7s`` (SW3)."""
    voluntary_draw: bool = False
    """A player may draw even when able to play (CL5)."""
    voluntary_pass: bool = False
    """With nothing to draw, a player may pass even when able to play."""
    replace_after_play: bool = False
    """After playing, a player may take the top card of the stock (LH5)."""
    hand_limit: int = 0
    """Most cards a hand may hold; 0 for no limit (HF6)."""
    overflow: bool = field(default=False, metadata={"needs": "hand_limit"})
    """Forced-draw cards past the limit go back to the attacker, then become penalty (HF9)."""
    reshuffle: bool = True
    """An empty stock is rebuilt from the discard pile but its top card (HA5, HF13, CL6)."""
    announce_last_card: bool = False
    """A play that leaves one card must announce it (HA13)."""
    announce_penalty: int = 2
    """Cards drawn at the end of the turn when the announcement is missing."""
    call_out: bool = False
    """The play that empties a hand must carry the going-out call, ``!`` (MM9, TS10). Without
    it the card stays played and its effects apply (a wild names a suit), any "play again"
    lapses, and the player draws ``call_out_penalty`` cards at the end of the turn and stays
    in the round; with nothing left to draw they go out anyway."""
    call_out_penalty: int = 2
    """Cards drawn at the end of the turn when the going-out call is missing (MM9: 2, TS10: 4)."""
    last_card_call: str = ""
    """What the last-card announcement is called, as the game's log and rules text say it:
    "Mau" (MM8), "Uno" (UC9), "Tschau" (TS10), "Last card" (SW9, LC7); empty: the generic
    words "last card"."""
    out_call: str = ""
    """What the going-out call is called: "Mau-Mau" (MM9), "Sepp" (TS10); empty: the generic
    word "out"."""
    out_penalty: int = 2
    """Cards drawn at the end of the turn by a player who played their last card on a card
    with ``going_out = "penalty"`` (PE12's toggle: 5)."""
    special_cards: bool = True
    """False turns off every card effect (draw, skip, reverse, again); wilds stay wild."""
    forced_draw_ends_turn: bool = True
    """The player who takes a forced draw loses their turn (HF7). False: after taking it in
    full they stay in turn, to play a card legal on the up-card or ``pass``; they do not
    draw again (PE5)."""
    reverse_two: ReverseTwo = ReverseTwo.NONE
    """What a reverse does while two players hold cards: nothing, or a skip (SW7, PE10, UC6)."""
    max_plays: int = 0
    """The round ends after this many card plays; 0 for no limit (OpenSpiel max_turns)."""
    extra_passes_to_block: int = 0
    """Passes beyond one per player, with nothing to draw, before a round is blocked."""
    block_on_repetition: bool = True
    """The round is blocked when a position comes back a third time while at most
    two cards a player are out of the hands (forced moves can cycle: HF5 with a
    one-card stock and an A reversing between two players, or queens skipping
    round a table of six)."""
    served_draw_counts_as_pass: bool = False
    """A forced draw served in full that empties the stock counts toward a blocked
    round like a pass (OpenSpiel's rule)."""
    serve_last_draw: bool = False
    """When the play that empties a hand leaves a forced draw pending, the next player takes
    it in full at once, before the round is scored; the served cards count (LC8, UC10)."""
    play_on: bool = False
    """A player who goes out leaves the round and play goes on, their last card's effect
    applying to the players left, until one player holds cards; the order of going out
    gives the placings (TS11)."""
    scoring: Scoring = Scoring.OWN_HAND
    """Own-hand penalty points (lowest wins), winner-collects (highest wins), rounds-won
    (1 a round won, highest wins: SW11) or placings (placing minus one, lowest wins: TS12)."""
    blocked_scoring: BlockedScoring = BlockedScoring.OWN_HAND
    """How a blocked round is scored."""
    points: Mapping[Rank, int] = field(default_factory=_default_points)
    """Points of each rank left in a hand."""
    target: int = 0
    """The match ends when a score (a team's score) reaches this; 0 for none."""
    rounds: int = 0
    """The match ends after this many rounds; 0 for none."""
    teams: frozenset[int] = frozenset()
    """Player counts at which partners sit opposite and score together (LH1)."""
    cards: Mapping[Rank, CardRule] = field(default_factory=FrozenMap)
    """What each rank does; ranks not listed are plain."""
    card_tables: Mapping[Card, CardRule] = field(default_factory=FrozenMap,
                                                 metadata={"file_key": "cards"})
    """What a card with its own table does (``[cards.Js]`` in a file, beside ``[cards.J]``):
    its rank's rule overridden field by field (BJ2-BJ4)."""
    _tables: object = field(default=None, init=False, repr=False, compare=False)
    """The engine's lookup tables, built on first use (see :mod:`eights.engine.tables`)."""

    def __post_init__(self) -> None:
        _freeze(self)  # tables, sets and lists given by hand become read-only

    @property
    def starter_wild_any(self) -> bool:
        """CL4 (the old name of ``starter_wild = "any"``)."""
        return self.starter_wild is StarterWild.ANY

    def card(self, rank: Rank) -> CardRule:
        """The rule of a rank, with effects removed when ``special_cards`` is off (a card
        with its own table may differ: :meth:`rule_of`)."""
        return self._effective(self.cards.get(rank, _PLAIN))

    def rule_of(self, card: Card) -> CardRule:
        """The rule of one card: its own table if it has one, else its rank's."""
        rule = self.card_tables.get(card)
        return self.card(card.rank) if rule is None else self._effective(rule)

    def _effective(self, rule: CardRule) -> CardRule:
        if not self.special_cards and rule.has_effect:
            return replace(rule, draw=0, stack=False, stack_with=frozenset(),
                           cancelled_by=frozenset(), skip=False, pass_on=False,
                           reverse=False, again=False, again_penalty=0)
        return rule

    def decks_for(self, players: int) -> int:
        """Standard decks used with this many players."""
        return _step(self.decks, players)

    def deck(self, players: int) -> list[Card]:
        """Every card of the stock before the deal with this many players, in card order:
        :attr:`ranks` in four suits, :meth:`decks_for` times, and the jokers."""
        return make_deck(self.decks_for(players), self.jokers, self.ranks)

    def hand_size_for(self, players: int) -> int:
        """Cards dealt to each of this many players."""
        return _step(self.hand_size, players)

    def has_teams(self, players: int) -> bool:
        """True when partners sit opposite at this player count."""
        return players in self.teams

    def check_players(self, players: int) -> None:
        """Raise :class:`RulesError` unless this many players can play."""
        low, high = self.players
        if not low <= players <= high:
            raise RulesError(f"{self.name} is played by {low} to {high} players, not "
                             f"{players}")
        cards = (4 * len(self.ranks) + self.jokers) * self.decks_for(players)
        if self.hand_size_for(players) * players >= cards:
            more = "" if len(self.ranks) == len(RANKS) else ", or use more ranks (ranks)"
            raise RulesError(f"{self.name}: {players} players with "
                             f"{self.hand_size_for(players)} cards each need more than "
                             f"{cards} cards; add a deck (decks) or deal fewer (hand_size){more}")

    def to_table(self) -> dict[str, Any]:
        """The rules as a TOML-ready table with every field (no ``extends``)."""
        table: dict[str, Any] = {}
        for f in fields(self):
            if f.init:
                table[f.name] = _to_plain(getattr(self, f.name))
        table["points"] = {rank.letter: pts for rank, pts in self.points.items()
                           if rank in self.ranks or rank is Rank.JOKER}
        table["ranks"] = [rank.letter for rank in sorted(self.ranks)]
        table.pop("card_tables")
        table["cards"] = {
            rank.letter: _rule_diff(rule, _PLAIN) for rank, rule in self.cards.items()
        }
        for card, rule in self.card_tables.items():
            table["cards"][str(card)] = _rule_diff(rule, self.cards.get(card.rank, _PLAIN))
        return table


def _rule_diff(rule: CardRule, base: CardRule) -> dict[str, Any]:
    """The fields of ``rule`` that differ from ``base``, as a rules file writes them."""
    return {f.name: _to_plain(getattr(rule, f.name)) for f in fields(rule)
            if getattr(rule, f.name) != getattr(base, f.name)}


def card_list(cards: frozenset[Card]) -> list[str]:
    """A set of cards as a rules file writes it: a rank where all four suits (or the
    joker) are there, else each card (``["2", "Jc", "Js"]``)."""
    out: list[str] = []
    for rank in sorted({c.rank for c in cards}):
        whole = ([JOKER] if rank is Rank.JOKER else [CARDS[rank * 4 + s] for s in range(4)])
        if all(c in cards for c in whole):
            out.append(rank.letter)
        else:
            out.extend(str(c) for c in sorted(cards) if c.rank is rank)
    return out


def _frozen(value: Any) -> Any:
    """A read-only equal of a field value: a mapping becomes a :class:`FrozenMap`,
    a set a frozenset, a list a tuple (the same object when it is read-only already)."""
    if isinstance(value, FrozenMap):
        return value
    if isinstance(value, Mapping):
        return FrozenMap(value)
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    if isinstance(value, (list, tuple)):
        items = tuple(_frozen(v) for v in value)
        if isinstance(value, tuple) and all(a is b for a, b in zip(items, value, strict=True)):
            return value
        return items
    return value


def _freeze(obj: Any) -> None:
    for f in fields(obj):
        if f.init:
            value = getattr(obj, f.name)
            frozen = _frozen(value)
            if frozen is not value:
                object.__setattr__(obj, f.name, frozen)


_PLAIN = CardRule()


def _step(steps: Steps, players: int) -> int:
    value = steps[0][1]
    for threshold, amount in steps:
        if players >= threshold:
            value = amount
    return value


def _to_plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, frozenset) and value and all(type(v) is Card for v in value):
        return card_list(value)
    if isinstance(value, frozenset):
        return sorted(v.letter if isinstance(v, Rank) else v for v in value)
    if isinstance(value, tuple):
        return [_to_plain(v) for v in value]
    return value


# --------------------------------------------------------------------------- loading

PRESETS_PACKAGE = "eights.presets"


def preset_names() -> list[str]:
    """Names of the presets shipped with eights, sorted."""
    return list(_preset_names())


@cache
def _preset_names() -> tuple[str, ...]:
    root = resources.files(PRESETS_PACKAGE)
    return tuple(sorted(p.name[:-5] for p in root.iterdir() if p.name.endswith(".toml")))


def load_rules(
    spec: str | Path | Mapping[str, Any] | Rules,
    overrides: Sequence[str] | Mapping[str, Any] = (),
) -> Rules:
    """Rules from a preset name, a TOML file path or an inline table.

    ``overrides`` are ``key=value`` strings (the value in TOML syntax, bare
    words taken as strings; dotted keys reach into tables: ``cards.7.skip=false``)
    or a mapping of the same.

    >>> load_rules("classic").scoring
    <Scoring.WINNER_COLLECTS: 'winner-collects'>
    >>> load_rules("huit-americain", ["jokers=2"]).jokers
    2
    """
    if isinstance(spec, str) and not overrides and spec in _PRESET_CACHE:
        return _PRESET_CACHE[spec]
    if isinstance(spec, Rules):
        if not overrides:
            return spec
        table: dict[str, Any] = spec.to_table()
        origin = f"rules {spec.name!r}"
    else:
        table, origin = _resolve(spec, seen=())
    if overrides:
        origin += " with overrides"
        table = _merge(table, _unalias(_parse_overrides(overrides), origin))
    rules = _build(table, origin)
    if isinstance(spec, str) and not overrides and spec in _preset_names():
        _PRESET_CACHE[spec] = rules
    return rules


_PRESET_CACHE: dict[str, Rules] = {}


def _read_toml(path: Path | None, text: str, origin: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{origin}: not valid TOML: {exc}") from None


def _resolve(spec: str | Path | Mapping[str, Any], seen: tuple[str, ...]) -> tuple[dict[str, Any], str]:
    """Read a spec to a merged table (``extends`` applied) and a name for errors."""
    if isinstance(spec, Mapping):
        table = dict(spec)
        origin = "inline rules"
        base_dir = Path.cwd()
    else:
        text_spec = str(spec)
        if text_spec in seen:
            raise RulesError(f"rules extend each other in a loop: {' -> '.join((*seen, text_spec))}")
        seen = (*seen, text_spec)
        path = Path(text_spec)
        if isinstance(spec, str) and spec in _preset_names():
            origin = f"preset {spec!r}"
            text = (resources.files(PRESETS_PACKAGE) / f"{spec}.toml").read_text("utf-8")
            table = _read_toml(None, text, origin)
            table.setdefault("name", spec)
            base_dir = Path.cwd()
        elif path.is_file():
            origin = f"rules file {str(path)!r}"
            try:
                text = path.read_text("utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise RulesError(f"{origin}: cannot be read: {exc}") from None
            table = _read_toml(path, text, origin)
            table.setdefault("name", path.stem)
            base_dir = path.parent
        else:
            presets = ", ".join(preset_names())
            if path.is_dir():
                raise RulesError(f"rules {text_spec!r}: a directory, not a rules file; give a "
                                 f"preset ({presets}) or a TOML file")
            if text_spec.endswith(".toml") or "/" in text_spec or "\\" in text_spec:
                raise RulesError(f"rules file {text_spec!r}: no such file (the presets are "
                                 f"{presets})")
            raise RulesError(f"unknown rules {text_spec!r}: not a preset ({presets}) and no "
                             f"such file")
    parent = table.pop("extends", None)
    table = _unalias(table, origin)
    for key, value in table.items():  # each file answers for its own values
        if key not in _FIELDS:
            raise _unknown(origin, key, key, _FIELDS, "known keys")
        _convert(key, value, origin)
    if parent is None:
        return table, origin
    if not isinstance(parent, str):
        raise RulesError(f"{origin}: key 'extends' must be a preset name or a file path, "
                         f"not {parent!r}")
    if parent not in preset_names() and not Path(parent).is_absolute():
        candidate = base_dir / parent
        if candidate.is_file():
            parent = str(candidate)
    try:
        base, _ = _resolve(parent, seen)
    except RulesError as exc:
        raise RulesError(f"{origin}: extends {parent!r}: {exc}") from None
    base.pop("name", None)
    base.pop("title", None)
    return _merge(base, table), origin


def _merge(base: Mapping[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    """``top`` (a file, the overrides) over ``base`` (what it extends), table by table; a
    field of ``base`` made moot by ``top`` follows it (:func:`_follow`), and ``[cards]``
    tables meet whatever way each names a rank or a card (``[cards.10]`` changes the
    ``[cards.T]`` below it)."""
    out = _follow(base, top, NEEDS)
    for key, value in top.items():
        if key == "cards" and isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merge_cards(out[key], value)
        elif isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _merge_cards(base: Mapping[str, Any], top: Mapping[str, Any]) -> dict[str, Any]:
    """The ``[cards]`` of ``top`` over those of ``base``: each table over the one of the same
    rank or card, its moot fields following it (:func:`_follow`)."""
    out = dict(base)
    names = {_card_key(key): key for key in out}
    for key, value in top.items():
        below = names.setdefault(_card_key(key), key)  # the key below keeps its place
        if below in out and isinstance(value, Mapping) and isinstance(out[below], Mapping):
            value = {**_follow(out[below], value, CARD_NEEDS), **value}
        out[below] = value
    return out


def _card_key(key: Any) -> str:
    """A ``[cards]`` key as one text for each rank or card (``10``, ``t`` and ``T`` are
    ``T``; ``js`` is ``Js``); a key that is neither stays as it is (refused later)."""
    text = str(key)
    for parse in (Rank.parse, Card.parse):
        try:
            value = parse(text)
        except NotationError:
            continue
        return value.letter if isinstance(value, Rank) else str(value)
    return text


def _follow(base: Mapping[str, Any], top: Mapping[str, Any],
            needs: Mapping[str, str]) -> dict[str, Any]:
    """``base`` without the fields that ``top`` makes moot: a field that needs another
    (:data:`NEEDS`, :data:`CARD_NEEDS`) goes back to its default when ``top`` turns that
    other field off and does not set the field itself. ``again = false`` over
    huit-americain's 10 drops its ``again_penalty``; ``hand_limit = 0`` over huit-fou drops
    its ``overflow``."""
    out = dict(base)
    for name, needed in needs.items():
        if name in out and name not in top and needed in top and _off(top[needed]):
            del out[name]
    return out


def _off(value: Any) -> bool:
    """A value that turns a field others need off: false or 0 (the fields' defaults)."""
    return value is False or (type(value) is int and value == 0)


ALIASES: dict[str, tuple[str, dict[bool, str]]] = {
    "starter_wild_any": ("starter_wild", {True: "any", False: "plain"}),
}
"""Old keys that still load: ``old: (new key, {old value: new value})``. A file is read
as if it said the new key (the rules-file schema lists both)."""


def _unalias(table: dict[str, Any], origin: str) -> dict[str, Any]:
    """``table`` with its old keys (:data:`ALIASES`) written as the new ones."""
    for old, (new, values) in ALIASES.items():
        if old not in table:
            continue
        if new in table:
            raise RulesError(f"{origin}: key {old!r} cannot be combined with {new!r} (it is "
                             f"the old name of {new!r}); allowed: {new!r} alone")
        value = table.pop(old)
        if not isinstance(value, bool) or value not in values:
            raise _bad(origin, old, value, f"true or false (the old name of {new!r}: "
                                           + ", ".join(f"{k!r} is {v!r}".lower()
                                                       for k, v in values.items()) + ")")
        table[new] = values[value]
    return table


def _parse_overrides(overrides: Sequence[str] | Mapping[str, Any]) -> dict[str, Any]:
    pairs: list[tuple[str, Any]] = []
    if isinstance(overrides, Mapping):
        pairs = list(overrides.items())
    else:
        for item in overrides:
            key, eq, raw = item.partition("=")
            if not eq or not key.strip():
                raise RulesError(f"override {item!r} is not key=value (e.g. jokers=2, "
                                 "cards.7.skip=false)")
            try:
                value = tomllib.loads(f"v = {raw.strip()}")["v"]
            except tomllib.TOMLDecodeError:
                value = raw.strip()
            pairs.append((key.strip(), value))
    table: dict[str, Any] = {}
    for key, value in pairs:
        parts = key.split(".")
        node = table
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return table


# --------------------------------------------------------------------------- validation

_FIELDS = {f.name: f for f in fields(Rules) if f.init and "file_key" not in f.metadata}
_CARD_FIELDS = {f.name: f for f in fields(CardRule)}

NEEDS: dict[str, str] = {f.name: f.metadata["needs"] for f in _FIELDS.values()
                         if "needs" in f.metadata}
"""The fields of :class:`Rules` that mean something only while another is on (not at its
default: false or 0), from the ``needs`` of their declaration: ``{field: the field it
needs}``. Such a field follows the one it needs: a file that turns that one off leaves
it at its default (:func:`_follow`), and a file that sets it while that one is off is
refused (:func:`_check`)."""
CARD_NEEDS: dict[str, str] = {f.name: f.metadata["needs"] for f in _CARD_FIELDS.values()
                              if "needs" in f.metadata}
"""The same for the fields of :class:`CardRule` (``again_penalty`` needs ``again``,
``stack`` a ``draw``, ``pass_on`` a ``skip``…)."""


def _build(table: Mapping[str, Any], origin: str) -> Rules:
    values: dict[str, Any] = {}
    for key, raw in table.items():
        if key not in _FIELDS:
            raise _unknown(origin, key, key, _FIELDS, "known keys")
        values[key] = _convert(key, raw, origin)
    if "cards" in values:
        values["cards"], values["card_tables"] = _card_rules(values["cards"], origin)
    if "ranks" in values and "points" in values:  # a rank outside the deck keeps its default
        default = _default_points()
        values["points"] = {rank: pts if rank in values["ranks"] or rank is Rank.JOKER
                            else default[rank] for rank, pts in values["points"].items()}
    rules = Rules(**values)
    _check(rules, origin)
    _check_deck(rules, table.get("points"), origin)
    return rules


def _unknown(origin: str, where: str, key: str, known: Iterable[str], what: str) -> RulesError:
    """An unknown key, with the likely one when a known key is close (``joker``: did you
    mean 'jokers'?) and then every known key."""
    names = sorted(known)
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
    guess = f"did you mean {close[0]!r}? " if close else ""
    return RulesError(f"{origin}: unknown key {where!r}; {guess}{what} are {', '.join(names)}")


def _bad(origin: str, key: str, value: Any, allowed: str) -> RulesError:
    return RulesError(f"{origin}: key {key!r} has bad value {value!r}; allowed: {allowed}")


NUMBER = (0, 10_000)
"""Smallest and largest value of a whole-number key that :data:`LIMITS` does not name."""
LIMITS: dict[str, tuple[int, int]] = {
    "players": (2, 20),
    "default_players": (2, 20),
    "decks": (1, 100),
    "hand_size": (1, 100),
    "steps.players": (2, 100),
    "cards.draw": (0, 52),
    "cards.again_penalty": (0, 52),
    "cards.out_multiplier": (1, 100),
    "out_penalty": (1, 52),
    "call_out_penalty": (1, 52),
}
"""Smallest and largest value of each whole-number key that has its own range
(``decks``, ``hand_size``: the value; ``steps.players``: the player count of one of
their ``[players, value]`` pairs). The loader and the rules-file schema read this."""


def _int(origin: str, key: str, value: Any, low: int = NUMBER[0], high: int = NUMBER[1]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise _bad(origin, key, value, f"a whole number from {low} to {high}")
    return value


def _bool(origin: str, key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _bad(origin, key, value, "true or false")
    return value


def _str(origin: str, key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise _bad(origin, key, value, "a string")
    return value


def _rank(origin: str, key: str, value: Any) -> Rank:
    try:
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str):
            raise NotationError(str(value))
        return Rank.parse(value)
    except NotationError:
        raise _bad(origin, key, value, "a rank: A 2 3 4 5 6 7 8 9 T (or 10) J Q K X") from None


def _ranks(origin: str, key: str, value: Any) -> frozenset[Rank]:
    if not isinstance(value, list):
        raise _bad(origin, key, value, 'a list of ranks such as ["8", "A"]')
    return frozenset(_rank(origin, key, v) for v in value)


def _deck_ranks(origin: str, value: Any) -> frozenset[Rank]:
    allowed = ('a list of the ranks of each deck, each once, no joker: '
               '["7", "8", "9", "T", "J", "Q", "K", "A"] for a 32-card pack')
    if not isinstance(value, list) or not value:
        raise _bad(origin, "ranks", value, allowed)
    ranks = [_rank(origin, "ranks", v) for v in value]
    if Rank.JOKER in ranks or len(set(ranks)) != len(ranks):
        raise _bad(origin, "ranks", value, allowed + " (jokers come with the key 'jokers')")
    return frozenset(ranks)


def _enum(origin: str, key: str, value: Any, kind: type[Enum]) -> Any:
    for member in kind:
        if member.value == value:
            return member
    raise _bad(origin, key, value, ", ".join(repr(m.value) for m in kind))


def _steps(origin: str, key: str, value: Any) -> Steps:
    if isinstance(value, int) and not isinstance(value, bool):
        return ((2, _int(origin, key, value, *LIMITS[key])),)
    allowed = "a whole number, or a list of [players, value] pairs such as [[2, 7], [5, 5]]"
    if not isinstance(value, list) or not value:
        raise _bad(origin, key, value, allowed)
    steps: list[tuple[int, int]] = []
    for item in value:
        if (not isinstance(item, list) or len(item) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in item)):
            raise _bad(origin, key, value, allowed)
        steps.append((_int(origin, key, item[0], *LIMITS["steps.players"]),
                      _int(origin, key, item[1], *LIMITS[key])))
    if [s[0] for s in steps] != sorted({s[0] for s in steps}):
        raise _bad(origin, key, value, "pairs in increasing order of players")
    return tuple(steps)


def _convert(key: str, raw: Any, origin: str) -> Any:
    if key in ("name", "title", "source"):
        return _str(origin, key, raw)
    if key in ("last_card_call", "out_call"):  # said in every log line with the call
        if not isinstance(raw, str) or len(raw) > 30 or not raw.isprintable():
            raise _bad(origin, key, raw, "a name of at most 30 printable characters, "
                                         'such as "Mau" (empty: the generic words)')
        return raw.strip()
    if key == "players":
        if (not isinstance(raw, list) or len(raw) != 2
                or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw)
                or not LIMITS[key][0] <= raw[0] <= raw[1] <= LIMITS[key][1]):
            raise _bad(origin, key, raw, f"[smallest, largest] with {LIMITS[key][0]} <= smallest "
                                         f"<= largest <= {LIMITS[key][1]}")
        return (raw[0], raw[1])
    if key in ("decks", "hand_size"):
        return _steps(origin, key, raw)
    if key in ("starter_redraw",):
        return _ranks(origin, key, raw)
    if key == "ranks":
        return _deck_ranks(origin, raw)
    if key == "teams":
        if not isinstance(raw, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 4 and v % 2 == 0
                for v in raw):
            raise _bad(origin, key, raw, "a list of even player counts of 4 or more, e.g. [4]")
        return frozenset(raw)
    if key == "draw":
        return _enum(origin, key, raw, DrawPolicy)
    if key == "scoring":
        return _enum(origin, key, raw, Scoring)
    if key == "blocked_scoring":
        return _enum(origin, key, raw, BlockedScoring)
    if key == "points":
        return _points(raw, origin)
    if key == "cards":
        return _cards(raw, origin)
    default = _FIELDS[key].default
    if isinstance(default, Enum):
        return _enum(origin, key, raw, type(default))
    if isinstance(default, bool):
        return _bool(origin, key, raw)
    if key in ("default_players", "out_penalty", "call_out_penalty"):
        return _int(origin, key, raw, *LIMITS[key])
    return _int(origin, key, raw)


def _points(raw: Any, origin: str) -> dict[Rank, int]:
    table = _default_points()
    if isinstance(raw, int) and not isinstance(raw, bool):
        value = _int(origin, "points", raw)
        return dict.fromkeys(Rank, value)
    if not isinstance(raw, Mapping):
        raise _bad(origin, "points", raw, "a number for every card, or a table rank = points")
    for rank_text, pts in raw.items():
        rank = _rank(origin, f"points.{rank_text}", rank_text)
        table[rank] = _int(origin, f"points.{rank_text}", pts)
    return table


CardSpec = tuple[dict[Rank, dict[str, Any]], dict[Card, dict[str, Any]]]
"""The ``[cards]`` of a file, read: the fields set for each rank and for each card, with
``stack_with`` and ``cancelled_by`` still lists of ranks and cards."""


def _cards(raw: Any, origin: str) -> CardSpec:
    if not isinstance(raw, Mapping):
        raise _bad(origin, "cards", raw, "a table of ranks or cards, e.g. [cards.8] wild = true, "
                                         "[cards.Js] draw = 5")
    ranks: dict[Rank, dict[str, Any]] = {}
    cards: dict[Card, dict[str, Any]] = {}
    for name, body in raw.items():
        key_text = str(name)
        try:
            rank: Rank | None = _rank(origin, f"cards.{key_text}", name)
            card = None
        except RulesError:
            rank = None
            try:
                card = Card.parse(key_text)
            except NotationError:
                raise _bad(origin, f"cards.{key_text}", key_text,
                           "a rank (A 2 ... 9 T J Q K X) or one card in the action notation "
                           "(Js, 7h), as in [cards.J] or [cards.Js]") from None
        if not isinstance(body, Mapping):
            raise _bad(origin, f"cards.{key_text}", body, "a table of card fields")
        values: dict[str, Any] = {}
        for key, value in body.items():
            where = f"cards.{key_text}.{key}"
            if key not in _CARD_FIELDS:
                raise _unknown(origin, where, key, _CARD_FIELDS, "card keys")
            if key == "not_on":
                values[key] = _ranks(origin, where, value)
            elif key in ("cancelled_by", "stack_with"):
                values[key] = _card_items(origin, where, value)
            elif key == "wild_if":
                values[key] = _enum(origin, where, value, WildIf)
            elif key == "going_out":
                values[key] = _enum(origin, where, value, GoingOut)
            elif key in ("draw", "again_penalty", "out_multiplier"):
                values[key] = _int(origin, where, value, *LIMITS[f"cards.{key}"])
            else:
                values[key] = _bool(origin, where, value)
        if rank is not None:
            ranks[rank] = values
        else:
            assert card is not None
            cards[card] = values
    return ranks, cards


def _card_items(origin: str, key: str, value: Any) -> tuple[Rank | Card, ...]:
    """A list of ranks and cards (``["2", "Jc", "Js"]``)."""
    allowed = 'a list of ranks or cards such as ["2", "Jc", "Js"]'
    if not isinstance(value, list):
        raise _bad(origin, key, value, allowed)
    items: list[Rank | Card] = []
    for v in value:
        try:
            items.append(_rank(origin, key, v))
        except RulesError:
            try:
                items.append(Card.parse(str(v)))
            except NotationError:
                raise _bad(origin, key, value, allowed + f"; {v!r} is neither") from None
    return tuple(items)


def _card_rules(spec: CardSpec, origin: str) -> tuple[dict[Rank, CardRule], dict[Card, CardRule]]:
    """The rules of the ranks and of the cards with their own table, lists of ranks made
    lists of cards: in ``stack_with`` a rank is its cards that have a ``draw``, in
    ``cancelled_by`` every card of the rank."""
    ranks, cards = spec

    def fields_of(card: Card) -> dict[str, Any]:  # the card's own table over its rank's
        own = cards.get(card, {})
        return {**_follow(ranks.get(card.rank, {}), own, CARD_NEEDS), **own}

    def expand(items: tuple[Rank | Card, ...], drawing: bool, where: str) -> frozenset[Card]:
        out: set[Card] = set()
        for item in items:
            if isinstance(item, Rank):
                whole = [JOKER] if item is Rank.JOKER else [CARDS[item * 4 + s] for s in range(4)]
                got = [c for c in whole if not drawing or fields_of(c).get("draw", 0)]
                if not got:
                    raise RulesError(
                        f"{origin}: {where}.stack_with lists {item.letter}, but no card of that "
                        f"rank has a 'draw'; allowed: ranks and cards with a draw (each adds "
                        f"its own draw to the pending one)")
                out.update(got)
            else:
                out.add(item)
        return frozenset(out)

    def rule(values: dict[str, Any], where: str) -> CardRule:
        values = dict(values)
        for key, drawing in (("stack_with", True), ("cancelled_by", False)):
            if key in values:
                values[key] = expand(values[key], drawing, where)
        return CardRule(**values)

    rank_rules = {rank: rule(values, f"cards.{rank.letter}") for rank, values in ranks.items()}
    card_rules = {card: rule(fields_of(card), f"cards.{card}") for card in cards}
    return rank_rules, card_rules


CARD_CONFLICTS: tuple[tuple[str, str, str], ...] = (
    ("again", "draw", "a card that makes its player play again cannot also make the next "
                      "player draw: its own player would have to take the draw"),
    ("again", "skip", "a card that makes its player play again passes the turn to nobody, "
                      "so there is no next player to skip"),
    ("draw", "skip", "a forced draw already costs the next player their turn; with a skip "
                     "the draw would fall on the player after them, and with two players "
                     "on the player who laid it"),
    ("transparent", "name_suit", "a transparent card leaves the card beneath to match, so "
                                 "the suit it names would be lost"),
    ("transparent", "takes_covered_rank", "a transparent card leaves the card beneath to "
                                          "match, rank and suit, so it takes no rank"),
    ("any_follows", "name_suit", "any card may follow this card, so a suit it names would "
                                 "bind nobody"),
    ("any_follows", "transparent", "a transparent card leaves the card beneath to match, so "
                                   "it is never the card any card may follow"),
    ("again", "must_cover", "the player who must play again and cannot draws "
                            "'again_penalty' and ends the turn: covering is the next "
                            "player's duty (TS9), playing again the toggle's"),
)
"""Pairs of :class:`CardRule` fields that one card may not both set, with the reason:
``(field, other field, why)``. Every other pair combines (the rules-file schema and the
tests read this table)."""


def _check(rules: Rules, origin: str) -> None:
    low, high = rules.players
    if not low <= rules.default_players <= high:
        raise _bad(origin, "default_players", rules.default_players,
                   f"a number within players = [{low}, {high}]")
    _check_needs(rules, "", NEEDS, origin)
    if rules.overflow and rules.serve_last_draw:
        raise RulesError(f"{origin}: 'overflow' cannot be combined with 'serve_last_draw' "
                         f"(the cards past the limit would go back to the player who has just "
                         f"gone out); allowed: one of them")
    if rules.overflow and rules.scoring is Scoring.ROUNDS_WON:
        raise RulesError(f"{origin}: 'overflow' cannot be combined with 'scoring' = "
                         f"'rounds-won' (overflow cards become penalty points, and rounds won "
                         f"count no points); allowed: overflow = false, or scoring = "
                         f"'own-hand' or 'winner-collects'")
    if rules.scoring is Scoring.PLACINGS and rules.teams:
        raise RulesError(f"{origin}: 'scoring' = 'placings' cannot be combined with 'teams' "
                         f"(placings rank players one by one, and partners score together); "
                         f"allowed: teams = [], or scoring 'own-hand', 'winner-collects' or "
                         f"'rounds-won'")
    if rules.play_on and rules.teams:
        raise RulesError(f"{origin}: 'play_on' cannot be combined with 'teams' (partners score "
                         f"together, and placings rank players one by one); allowed: one of "
                         f"them")
    for where, rank, rule in _card_tables(rules):
        _check_needs(rule, f"{where}.", CARD_NEEDS, origin)
        if rule.going_out is GoingOut.SUIT and rank is Rank.JOKER:
            raise _bad(origin, f"{where}.going_out", "suit",
                       "'yes', 'no' or 'penalty' for a joker (it has no suit to follow)")
        if rule.going_out in (GoingOut.NO, GoingOut.PENALTY) and rule.out_multiplier > 1:
            raise RulesError(f"{origin}: {where}: 'out_multiplier' cannot be combined with "
                             f"'going_out' = {rule.going_out.value!r} (nobody goes out on "
                             f"this card, so no round ends on it); allowed: out_multiplier "
                             f"= 1, or going_out 'yes' or 'suit'")
        for first, second, reason in CARD_CONFLICTS:
            if getattr(rule, first) and getattr(rule, second):
                raise RulesError(f"{origin}: {where}: {second!r} cannot be combined with "
                                 f"{first!r} ({reason})")
        drawing = frozenset(c for c in rule.cancelled_by if rules.rule_of(c).draw)
        if drawing:
            lowest = min(drawing)
            table = (f"cards.{lowest}" if lowest in rules.card_tables
                     and rules.card_tables[lowest].draw else f"cards.{lowest.rank.letter}")
            raise RulesError(
                f"{origin}: {where}.cancelled_by lists {', '.join(card_list(drawing))}, but "
                f"{table}.draw is set: 'cancelled_by' cannot name a card with a 'draw' (a card "
                f"that cancels a forced draw lies as a plain card, so its own draw would be "
                f"lost); allowed: cards without a draw, or list it in 'stack_with'")
        for other in sorted(rule.stack_with):
            if not rules.rule_of(other).draw:
                raise RulesError(
                    f"{origin}: {where}.stack_with lists {other}, which has no 'draw': "
                    f"'stack_with' names cards that add their own draw; allowed: cards with "
                    f"a draw (list a card that voids the draw in 'cancelled_by')")
    if rules.reverse_two is ReverseTwo.SKIP:  # with two players a reverse is a skip
        for where, _rank_of, rule in _card_tables(rules):
            for first, second, reason in CARD_CONFLICTS:
                mate = first if second == "skip" else second if first == "skip" else None
                if rule.reverse and mate and getattr(rule, mate):
                    raise RulesError(
                        f"{origin}: {where}: 'reverse' with {mate!r} cannot be "
                        f"combined with 'reverse_two' = 'skip' (with two players the reverse "
                        f"is a skip, and {reason}); allowed: reverse_two = 'none', or a "
                        f"reverse without {mate!r}")
    if rules.jokers and Rank.JOKER not in rules.cards and JOKER not in rules.card_tables:
        # A joker without a rule could only match another joker; make it explicit.
        raise _bad(origin, "jokers", rules.jokers,
                   "0 unless [cards.X] says what a joker does (e.g. wild = true)")


def _check_needs(obj: Rules | CardRule, prefix: str, needs: Mapping[str, str],
                 origin: str) -> None:
    """Refuse a field set while the field it needs is off (:data:`NEEDS`): ``again_penalty
    = 2`` on a card that does not play again."""
    defaults = _FIELDS if isinstance(obj, Rules) else _CARD_FIELDS
    for name, needed in needs.items():
        value = getattr(obj, name)
        if value != _field_default(defaults[name]) and _off(getattr(obj, needed)):
            on = f"{needed} = true" if isinstance(getattr(obj, needed), bool) else \
                f"{needed} is set"
            raise _bad(origin, f"{prefix}{name}", _to_plain(value),
                       f"{_toml_text(_to_plain(_field_default(defaults[name])))} unless {on} "
                       f"(without {needed!r}, {name!r} has nothing to apply to)")


def _field_default(f: Any) -> Any:
    return f.default_factory() if f.default is MISSING else f.default


def _toml_text(value: Any) -> str:
    """A default as a rules file writes it (``false``, ``0``, ``[]``, ``'always'``)."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return repr(value)
    return str(value)


def _card_tables(rules: Rules) -> list[tuple[str, Rank, CardRule]]:
    """Every card table of the rules: ``(its key, its rank, its rule)``, ranks first."""
    out = [(f"cards.{rank.letter}", rank, rule) for rank, rule in sorted(rules.cards.items())]
    out += [(f"cards.{card}", card.rank, rule) for card, rule in sorted(rules.card_tables.items())]
    return out


def _check_deck(rules: Rules, points: Any, origin: str) -> None:
    """A key that names a rank outside the deck (``ranks``) is an error naming the key.
    The joker is not a rank of ``ranks``: ``jokers`` decides whether it is dealt."""
    deck = rules.ranks
    if deck <= rules.starter_redraw and not (rules.jokers and Rank.JOKER not in rules.starter_redraw):
        raise _bad(origin, "starter_redraw", sorted(r.letter for r in rules.starter_redraw),
                   "a list that leaves some card of the deck to start the discard pile")
    if len(deck) == len(RANKS):
        return
    held = " ".join(r.letter for r in sorted(deck))

    def refuse(key: str, rank: Rank) -> RulesError:
        return RulesError(f"{origin}: key {key!r} names the rank {rank.letter}, which is not in "
                          f"the deck; allowed: the ranks of 'ranks' ({held}), or X for a joker. "
                          f"Add {rank.letter} to ranks or leave it out of {key!r}")

    def outside(items: frozenset[Rank] | frozenset[Card]) -> Rank | None:
        ranks = {i.rank if isinstance(i, Card) else i for i in items}
        return min((r for r in ranks if r is not Rank.JOKER and r not in deck), default=None)

    if isinstance(points, Mapping):
        for text in points:
            rank = Rank.parse(str(text))  # parsed already by _points
            if rank is not Rank.JOKER and rank not in deck:
                raise refuse(f"points.{text}", rank)
    missing = outside(rules.starter_redraw)
    if missing is not None:
        raise refuse("starter_redraw", missing)
    for where, rank, rule in _card_tables(rules):
        if rank is not Rank.JOKER and rank not in deck:
            raise refuse(where, rank)
        for key in ("cancelled_by", "stack_with", "not_on"):
            missing = outside(getattr(rule, key))
            if missing is not None:
                raise refuse(f"{where}.{key}", missing)
