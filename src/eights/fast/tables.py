"""A :class:`~eights.engine.rules.Rules` object compiled into one flat ``int64`` array.

Nothing here imports numba: checking whether the kernel supports a rule set
(:func:`check_supported`) is cheap, so a caller can fall back to the reference
engine without paying for the compiler.

The table array ``tab`` is laid out as named blocks (offsets below): table-level
switches first (``T_*``, one slot each), then per-card facts (``C_*``, 53 slots
each, indexed by card code ``rank * 4 + suit``, joker 52), per-rank facts
(``R_*``, 14 slots each) and two 53 x 53 matrices (``stacks`` and ``answers``,
``[pending card * 53 + card]``), bit masks (``B_*``) and the blocks of plays of several
cards (``X_*``, ``U_*``). Every rule-dependent value comes from
:func:`~eights.engine.tables.tables_for`, so the engine and the kernel read the
same facts.

The ways a card may be played (:attr:`~eights.engine.tables.Tables.mid`,
``announced``, ``end``, ``last``) become lists of the play variants of one card,
in the engine's order, packed four bits a variant: ``suit * 2 + call + 1`` with
``suit`` 0-3 (clubs, diamonds, hearts, spades) or 4 (no suit named) and ``call``
1 for ``!`` (``suit * 2 + call`` is the low digit of the action code: see
:mod:`eights.codes`), the first variant in the lowest bits, 0 after the last. A play
of several cards (SW3) has the variants of its top card (``Tables.plays``), so the
same lists serve it.

Plays of several cards (``multi_play``, ``T_MULTI``): the cards of a rank in a hand
form groups by rule (``C_KIND``, BJ6); a play is a count of cards of each suit of one
group, packed two bits a suit (``x[s]`` at bits ``2s``, at most two: the encoding's
limit, :func:`check_supported` with ``players``). ``X_PLAYS`` lists every such count
of two cards or more in the engine's order (fewer cards first, then more of the lower
suits: the order in which ``combinations`` first meets them), each row
``[packed, cards, u if suit 0 is on top, ... suit 3]``, ``u`` the index in
:data:`eights.codes.UNDER` of the cards left under that top card (0 where no card of
that suit is in the play). ``U_COUNTS[u]`` is ``UNDER[u]`` packed the same way (what
``apply`` lays under the top card). Jokers (one card, many copies) are counted
directly: ``u`` jokers under a joker.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from eights.codes import UNDER, action_count
from eights.engine.actions import Action
from eights.engine.cards import CARDS
from eights.engine.errors import RulesError
from eights.engine.rules import (
    BlockedScoring,
    Rules,
    Scoring,
)
from eights.engine.tables import SUIT_OF, tables_for

__all__ = ["KernelTables", "KernelUnsupported", "check_supported", "compile_rules"]

Int64Array = npt.NDArray[np.int64]


class KernelUnsupported(RulesError):
    """The kernel cannot play this rule set yet; the message names the field (or fields).

    Use the reference engine (:class:`~eights.engine.game.Game`) for it.
    """

    def __init__(self, rules_name: str, field: str, why: str) -> None:
        super().__init__(f"{rules_name}: the compiled kernel does not support {field} ({why}); "
                         f"use the reference engine")
        self.field = field


# ---------------------------------------------------------------- table-level slots
T_REPEAT = 0
T_MAY_KEEP = 1
T_PLAY_DRAWN = 2
T_UNTIL_PLAYABLE = 3
T_REPLACE = 4
T_VOLUNTARY_DRAW = 5
T_VOLUNTARY_PASS = 6
T_MAX_DRAWS = 7
T_LAST_PLAY = 8
T_LIMIT = 9
T_CAP = 10
T_OVERFLOW = 11
T_RESHUFFLE = 12
T_ANNOUNCE = 13
T_ANNOUNCE_PENALTY = 14
T_CALL_OUT = 15
T_CALL_OUT_PENALTY = 16
T_OUT_PENALTY = 17
T_SERVE_LAST = 18
T_SERVED_STAYS = 19
T_REVERSE_SKIP = 20
T_STARTER_ANY = 21
T_STARTER_NAMES = 22
T_DEALER_NAMES = 23
T_STARTER_EFFECTS = 24
T_EXTRA_PASSES = 25
T_SERVED_COUNTS = 26
T_BLOCK_REPEAT = 27
T_SCORING = 28
T_BLOCKED = 29
T_WILD_IF = 30
T_COVER_ANY = 31
T_ANY_OUT_SUIT = 32
T_PLAY_ON = 33
T_MULTI = 34
T_N_SLOTS = 40

SCORING_CODES = {Scoring.OWN_HAND: 0, Scoring.WINNER_COLLECTS: 1, Scoring.ROUNDS_WON: 2,
                 Scoring.PLACINGS: 3}
BLOCKED_CODES = {BlockedScoring.OWN_HAND: 0, BlockedScoring.COLLECT: 1,
                 BlockedScoring.DIFFERENCE: 2}

# ---------------------------------------------------------------- per-card blocks (53 each)
_CARD_FIELDS = (
    "wild", "name_suit", "not_on", "covered", "transparent", "any_follows", "no_suit", "draw",
    "skip", "pass_on", "reverse", "again", "again_penalty", "out_multiplier", "must_cover",
    "out_suit", "stays_in", "effect", "mid", "announced", "end", "last", "kind",
)
C_WILD, C_NAME_SUIT, C_NOT_ON, C_COVERED, C_TRANSPARENT, C_ANY_FOLLOWS, C_NO_SUIT, C_DRAW, \
    C_SKIP, C_PASS_ON, C_REVERSE, C_AGAIN, C_AGAIN_PENALTY, C_OUT_MULT, C_MUST_COVER, \
    C_OUT_SUIT, C_STAYS_IN, C_EFFECT, C_MID, C_ANNOUNCED, C_END, C_LAST, C_KIND = (
        T_N_SLOTS + 53 * i for i in range(len(_CARD_FIELDS)))
_AFTER_CARDS = T_N_SLOTS + 53 * len(_CARD_FIELDS)
R_POINTS = _AFTER_CARDS
"""Points of each rank (14 slots)."""
R_REDRAW = R_POINTS + 14
"""1 for the starter ranks put back (14 slots)."""
M_STACKS = R_REDRAW + 14
"""``stacks[p * 53 + c]``: ``c`` adds its draw to a pending draw whose last card is ``p``."""
M_ANSWERS = M_STACKS + 53 * 53
"""``answers[p * 53 + c]``: ``c`` may be played on a pending draw whose last card is ``p``."""
B_ROWS = M_ANSWERS + 53 * 53
"""Bit masks over card codes (bit ``c`` for card ``c``): ``Tables.row(suit, rank, free)`` at
``B_ROWS + ((suit + 1) * 14 + rank) * 2 + free``, ``suit`` -1 to 3 (140 slots)."""
B_ANSWERS = B_ROWS + 140
"""``answers[p]`` as a mask (53 slots)."""
B_PASS_ON = B_ANSWERS + 53
"""The cards of each rank that pass a skip on (14 slots)."""
B_OF_SUIT = B_PASS_ON + 14
"""The cards that make a hand hold the suit to follow (``_lacks_suit``): at
``B_OF_SUIT + suit + 1``, the cards of that suit that are not wild (5 slots)."""
B_NO_SUIT = B_OF_SUIT + 5
"""The wild cards playable only without the suit to follow (UC8), one slot."""


def _play_counts() -> list[tuple[int, ...]]:
    """Every count of cards by suit (at most two a suit) of two cards or more, in the
    engine's order: fewer cards first, then more of the lower suits."""
    counts = [tuple(v // 3**s % 3 for s in range(4)) for v in range(81)]
    return sorted((x for x in counts if sum(x) >= 2), key=lambda x: (sum(x), [-n for n in x]))


def _packed(x: tuple[int, ...]) -> int:
    return sum(n << (2 * s) for s, n in enumerate(x))


_PLAY_COUNTS = _play_counts()
X_ROW = 6
"""Slots of a row of ``X_PLAYS``: packed counts, cards, then ``u`` by top suit."""
X_N = len(_PLAY_COUNTS)
"""Rows of ``X_PLAYS`` (76)."""
X_PLAYS = B_NO_SUIT + 1
"""The plays of several cards of one rank by their counts of each suit (see above)."""
U_COUNTS = X_PLAYS + X_N * X_ROW
"""``UNDER[u]`` packed two bits a suit (81 slots)."""
TAB_SIZE = U_COUNTS + len(UNDER)


@dataclass(frozen=True, slots=True)
class KernelTables:
    """The flat tables of one rule set (``tab``), with the rules they came from."""

    rules: Rules
    tab: Int64Array

    def card_fact(self, name: str) -> Int64Array:
        """One per-card block by its field name (``"wild"``, ``"draw"``, ``"mid"``...): 53 values."""
        i = _CARD_FIELDS.index(name)
        start = T_N_SLOTS + 53 * i
        return self.tab[start:start + 53]


def check_supported(rules: Rules, players: int | None = None) -> None:
    """Raise :class:`KernelUnsupported`, naming the field, unless the kernel plays these rules
    (with ``players``, if given) exactly as the reference engine does.

    Every rules field is played; with ``players``, plays of several cards must fit the
    action encoding (:func:`eights.codes.action_count`: at most two copies of a card,
    81 jokers), else the field named is ``decks`` or ``jokers``."""
    if players is None:
        return
    try:
        action_count(rules, players)
    except RulesError as exc:
        field = "decks" if rules.decks_for(players) > 2 else "jokers"
        raise KernelUnsupported(rules.name, field, f"{players} players: {exc}") from None


def _variant_mask(actions: tuple[Action, ...]) -> int:
    """The variants of one card's plays, in the engine's order: each variant's bit
    (``suit * 2 + call``) plus one, four bits each, the first lowest; 0 ends the list."""
    seq = 0
    for i, a in enumerate(actions):
        suit = 4 if a.suit is None else int(a.suit)
        seq |= (suit * 2 + int(a.announce) + 1) << (4 * i)
    return seq


def _mask(flags: tuple[bool, ...]) -> int:
    return sum(1 << c for c in range(53) if flags[c])


def compile_rules(rules: Rules) -> KernelTables:
    """The kernel's flat tables of ``rules`` (raises :class:`KernelUnsupported` first)."""
    check_supported(rules)
    t = tables_for(rules)
    tab = np.zeros(TAB_SIZE, dtype=np.int64)
    big = 1 << 40  # the engine's "no limit" is 1 << 30; any bound above the deck works
    switches = {
        T_REPEAT: t.repeat, T_MAY_KEEP: t.may_keep, T_PLAY_DRAWN: t.play_drawn,
        T_UNTIL_PLAYABLE: t.until_playable, T_REPLACE: t.replace,
        T_VOLUNTARY_DRAW: t.voluntary_draw, T_VOLUNTARY_PASS: t.voluntary_pass,
        T_MAX_DRAWS: min(t.max_draws, big), T_LAST_PLAY: min(t.last_play, big),
        T_LIMIT: rules.hand_limit, T_CAP: min(t.cap, big), T_OVERFLOW: rules.overflow,
        T_RESHUFFLE: rules.reshuffle, T_ANNOUNCE: t.announce,
        T_ANNOUNCE_PENALTY: rules.announce_penalty, T_CALL_OUT: t.call_out,
        T_CALL_OUT_PENALTY: t.call_out_penalty, T_OUT_PENALTY: t.out_penalty,
        T_SERVE_LAST: t.serve_last, T_SERVED_STAYS: t.served_stays,
        T_REVERSE_SKIP: t.reverse_skip, T_STARTER_ANY: t.starter_any,
        T_STARTER_NAMES: t.starter_names, T_DEALER_NAMES: t.dealer_names,
        T_STARTER_EFFECTS: rules.starter_effects, T_EXTRA_PASSES: rules.extra_passes_to_block,
        T_SERVED_COUNTS: rules.served_draw_counts_as_pass,
        T_BLOCK_REPEAT: rules.block_on_repetition, T_SCORING: SCORING_CODES[rules.scoring],
        T_BLOCKED: BLOCKED_CODES[rules.blocked_scoring], T_WILD_IF: t.wild_if,
        T_COVER_ANY: t.cover_any, T_ANY_OUT_SUIT: t.any_out_suit, T_PLAY_ON: t.play_on,
    }
    for slot, value in switches.items():
        tab[slot] = int(value)
    facts: dict[str, tuple[int, ...]] = {
        "wild": tuple(int(x) for x in t.wild),
        "name_suit": tuple(int(x) for x in t.name_suit),
        "not_on": tuple(sum(1 << r for r in ranks) for ranks in t.not_on),
        "covered": tuple(int(x) for x in t.covered),
        "transparent": tuple(int(x) for x in t.transparent),
        "any_follows": tuple(int(x) for x in t.any_follows),
        "no_suit": tuple(int(x) for x in t.no_suit),
        "draw": tuple(t.draw),
        "skip": tuple(int(x) for x in t.skip),
        "pass_on": tuple(int(x) for x in t.pass_on),
        "reverse": tuple(int(x) for x in t.reverse),
        "again": tuple(int(x) for x in t.again),
        "again_penalty": tuple(t.again_penalty),
        "out_multiplier": tuple(t.out_multiplier),
        "must_cover": tuple(int(x) for x in t.must_cover),
        "out_suit": tuple(int(x) for x in t.out_suit),
        "stays_in": tuple(int(x) for x in t.stays_in),
        "effect": tuple(int(x) for x in t.effect),
        "mid": tuple(_variant_mask(v) for v in t.mid),
        "announced": tuple(_variant_mask(v) for v in t.announced),
        "end": tuple(_variant_mask(v) for v in t.end),
        "last": tuple(_variant_mask(v) for v in t.last),
        "kind": t.kind,
    }
    for i, name in enumerate(_CARD_FIELDS):
        start = T_N_SLOTS + 53 * i
        tab[start:start + 53] = facts[name]
    tab[R_POINTS:R_POINTS + 14] = t.points
    for r in t.redraw:
        tab[R_REDRAW + r] = 1
    for p in range(53):
        tab[M_STACKS + p * 53:M_STACKS + p * 53 + 53] = t.stacks[p]
        tab[M_ANSWERS + p * 53:M_ANSWERS + p * 53 + 53] = t.answers[p]
    for suit in range(-1, 4):
        for rank in range(14):
            for free in (0, 1):
                row = t.row(suit, rank, bool(free))
                tab[B_ROWS + ((suit + 1) * 14 + rank) * 2 + free] = _mask(row)
        tab[B_OF_SUIT + suit + 1] = _mask(tuple(
            SUIT_OF[c] == suit and not t.wild[c] for c in range(53)))
    for p in range(53):
        tab[B_ANSWERS + p] = _mask(t.answers[p])
    for r in range(14):
        tab[B_PASS_ON + r] = _mask(tuple(c >> 2 == r and t.pass_on[c] for c in range(53)))
    tab[B_NO_SUIT] = _mask(t.no_suit)
    tab[T_MULTI] = int(t.multi)
    under_index = {_packed(v): u for u, v in enumerate(UNDER)}
    for j, x in enumerate(_PLAY_COUNTS):
        at = X_PLAYS + j * X_ROW
        tab[at] = _packed(x)
        tab[at + 1] = sum(x)
        for top in range(4):
            if x[top]:
                tab[at + 2 + top] = under_index[_packed(x) - (1 << (2 * top))]
    for u, v in enumerate(UNDER):
        tab[U_COUNTS + u] = _packed(v)
    # every play variant the engine may offer must be one the encoding has
    for c in range(53):
        for block in (t.mid, t.announced, t.end, t.last):
            for a in block[c]:
                assert a.card == CARDS[c] and not a.under
    return KernelTables(rules, tab)
