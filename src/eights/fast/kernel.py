"""The compiled kernel: numba functions over a flat ``int64`` state and the table array.

Each function here is a line-by-line transliteration of the reference engine's
method of the same name in :mod:`eights.engine.game` (``_play``, ``_draw``,
``_pass``, ``_end_turn``, ``_end_round``...): read them side by side. The state
is one ``int64`` array (so copying a state is one array copy), laid out as the
``S_*`` scalar slots, then regions whose offsets are kept in the state itself:

========  ==================================================================
hands     ``n * 53`` counts: ``st[st[S_HANDS] + seat * 53 + card]``
hsize     ``n`` hand sizes
hmask     ``n`` bit masks of the cards in each hand (bit ``c`` for card ``c``)
stock     53 counts (the stock is a multiset)
stockl    the same cards as a list of ``S_STOCK_N`` codes, in no meaningful order
deck      53 counts: the full stock before the deal (to start a new round)
discard   the discard pile in order, bottom first (``S_DISC_N`` cards)
penalty   ``n`` penalty points (HF9 overflow)
points    ``n`` round points, once the round is over
winners   ``n`` flags, once the round is over
finished  ``n`` seats in the order they went out (TS11, ``S_FIN_N`` of them; bit mask
          ``S_FIN_MASK``)
lastc     ``n``: the last card each seat played (the first out's multiplies: MM10)
repeats   the positions seen (``_repeated``): ``S_REP_CAP`` slots
work      ``3 * n + 8`` slots of scratch (``_end_round``'s values of each seat or team,
          their points and winners; ``_favourite_suit``'s counts), so that no function
          of a round allocates
========  ==================================================================

Draws take the next card of a scripted sequence while one is left (the
``script`` argument; a card not in the stock raises), else a uniform card of
the stock multiset with the state's own xorshift64* generator (``S_RNG``).

Actions are the integer codes of :mod:`eights.codes` (plays of several cards
included: ``A_MULTI`` and up).

Reference counting: numba counts the references to every array with atomic
instructions (``lock incq``/``lock decq``), at every call between compiled functions
and wherever an inlined helper binds the state to a name; profiled on the ``openspiel``
preset (``benchmarks/kernel/profile.py``), six samples in ten of whole random rounds fell
in numba's ``NRT_incref`` and ``NRT_decref`` on an AMD EPYC. The functions a round runs
in allocate nothing (the ``work`` region above is their scratch), so the entry points
that play (:func:`policy_round`, :func:`apply`, :func:`legal_list`, :func:`deal`) are
compiled without reference counting (:func:`_bare`), and so is every function they call;
those that allocate their buffers (:func:`random_round`, :func:`legal_mask`...) call
them and keep numba's counting for their own arrays.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from numba.cpython.unsafe.numbers import trailing_zeros

from eights.codes import A_DRAW, A_MULTI, A_NAME, A_PASS, A_TAKE, N_ACTIONS
from eights.fast.progress import report_compiles
from eights.fast.tables import (
    B_ANSWERS,
    B_NO_SUIT,
    B_OF_SUIT,
    B_PASS_ON,
    B_ROWS,
    C_AGAIN,
    C_AGAIN_PENALTY,
    C_ANNOUNCED,
    C_ANY_FOLLOWS,
    C_COVERED,
    C_DRAW,
    C_EFFECT,
    C_END,
    C_KIND,
    C_LAST,
    C_MID,
    C_MUST_COVER,
    C_NAME_SUIT,
    C_NO_SUIT,
    C_NOT_ON,
    C_OUT_MULT,
    C_OUT_SUIT,
    C_PASS_ON,
    C_REVERSE,
    C_SKIP,
    C_STAYS_IN,
    C_TRANSPARENT,
    C_WILD,
    M_STACKS,
    R_POINTS,
    R_REDRAW,
    T_ANNOUNCE,
    T_ANNOUNCE_PENALTY,
    T_ANY_OUT_SUIT,
    T_BLOCK_REPEAT,
    T_BLOCKED,
    T_CALL_OUT,
    T_CALL_OUT_PENALTY,
    T_CAP,
    T_COVER_ANY,
    T_DEALER_NAMES,
    T_EXTRA_PASSES,
    T_LAST_PLAY,
    T_LIMIT,
    T_MAX_DRAWS,
    T_MAY_KEEP,
    T_MULTI,
    T_OUT_PENALTY,
    T_OVERFLOW,
    T_PLAY_DRAWN,
    T_PLAY_ON,
    T_REPEAT,
    T_REPLACE,
    T_RESHUFFLE,
    T_REVERSE_SKIP,
    T_SCORING,
    T_SERVE_LAST,
    T_SERVED_COUNTS,
    T_SERVED_STAYS,
    T_STARTER_ANY,
    T_STARTER_EFFECTS,
    T_STARTER_NAMES,
    T_UNTIL_PLAYABLE,
    T_VOLUNTARY_DRAW,
    T_VOLUNTARY_PASS,
    T_WILD_IF,
    U_COUNTS,
    X_N,
    X_PLAYS,
    X_ROW,
)

report_compiles()  # a compile (first use, not from the cache) is said on the eights.fast logger

__all__ = [
    "A_DRAW", "A_MULTI", "A_NAME", "A_PASS", "A_TAKE", "N_ACTIONS", "POLICY_GREEDY", "POLICY_RANDOM",
    "apply", "deal", "greedy_choice", "legal_list", "legal_mask", "policy_round",
    "policy_rounds", "random_round", "random_rounds", "state_size",
]

_F = TypeVar("_F", bound=Callable[..., Any])


_tz = cast(Callable[[int], int], trailing_zeros)
"""The index of the lowest set bit (an LLVM intrinsic)."""


def _njit(f: _F) -> _F:
    """``numba.njit(cache=True)``, typed for mypy."""
    return cast(_F, numba.njit(cache=True)(f))


def _inline(f: _F) -> _F:
    """:func:`_njit`, inlined into its callers (numba's IR inlining)."""
    return cast(_F, numba.njit(cache=True, inline="always")(f))


def _bare(f: _F) -> _F:
    """:func:`_njit` without numba's reference counting (``_nrt=False``), which the
    functions it calls inherit: neither may allocate an array (see the module text)."""
    bare: Any = numba.njit  # _nrt, numba's own option, is not in its type stubs
    return cast(_F, bare(cache=True, _nrt=False)(f))


# ---------------------------------------------------------------- the state's scalar slots
S_N = 0
S_DEALER = 1
S_TO_MOVE = 2
S_DIR = 3
S_PENDING = 4
S_PCARD = 5
S_ATTACKER = 6
S_SUIT = 7
S_RANK = 8
S_FREE = 9
S_DRAWN = 10
S_DRAWS = 11
S_AGAIN = 12
S_AGAIN_PEN = 13
S_REPLACE = 14
S_SKIP_NEXT = 15
S_SERVED = 16
S_ANNOUNCE_DUE = 17
S_PASSES = 18
S_PLAYS = 19
S_OVER = 20
S_OUT = 21
S_STOCK_N = 22
S_DISC_N = 23
S_SCRIPT_POS = 24
S_RNG = 25
S_REP_N = 26
S_NAMING = 27
S_AFTER_NAMING = 28
S_SKIP_DUE = 29
S_HAND_SIZE = 30
S_TEAMS = 31
S_DECK_N = 32
S_DECISIONS = 33
S_HANDS = 34
S_HSIZE = 35
S_STOCK = 36
S_DECK = 37
S_DISC = 38
S_PEN = 39
S_POINTS = 40
S_WINNERS = 41
S_REP = 42
S_REP_CAP = 43
S_HMASK = 44
S_STOCKL = 45
S_FIN_N = 46
S_FIN_MASK = 47
S_FIN = 48
S_LASTC = 49
S_REP_IDX = 50
S_WORK = 51
S_SCALARS = 56
REP_CAP = 1 << 15
"""Default slots of the table of positions seen (``block_on_repetition``): an open-addressing
table of 64-bit hashes, the count in their low two bits, with the list of the slots used
(to clear them at the next deal). Filled to 7/8 (28,672 positions; the most seen in
random play of random rules files is about 13,000) it raises: never silently wrong.
Rules without ``block_on_repetition`` get none."""


def _rep_max(rep_cap: int) -> int:
    return rep_cap - rep_cap // 8


def state_size(n: int, deck_n: int, rep_cap: int) -> int:
    """Slots of the state of ``n`` players with a deck of ``deck_n`` cards."""
    return (S_SCALARS + n * 53 + n + 53 + 53 + deck_n + 3 * n + rep_cap + n + deck_n + 2 * n
            + _rep_max(rep_cap) + _work_size(n))


def _work_size(n: int) -> int:
    """Slots of the state's scratch region (``work``)."""
    return 3 * n + 8


def layout(st: np.ndarray[Any, Any], n: int, deck_n: int, rep_cap: int) -> None:
    """Write the region offsets of a fresh state."""
    if rep_cap & (rep_cap - 1):
        raise ValueError(f"repeat capacity {rep_cap} is not a power of two")
    st[S_N] = n
    st[S_DECK_N] = deck_n
    st[S_REP_CAP] = rep_cap
    at = S_SCALARS
    for slot, size in ((S_HANDS, n * 53), (S_HSIZE, n), (S_STOCK, 53), (S_DECK, 53),
                       (S_DISC, deck_n), (S_PEN, n), (S_POINTS, n), (S_WINNERS, n),
                       (S_REP, rep_cap), (S_HMASK, n), (S_STOCKL, deck_n),
                       (S_FIN, n), (S_LASTC, n), (S_REP_IDX, _rep_max(rep_cap)),
                       (S_WORK, _work_size(n))):
        st[slot] = at
        at += size


# ---------------------------------------------------------------- generator and stock
@_inline
def _rand53(st: Any) -> int:
    x = np.uint64(st[S_RNG])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    st[S_RNG] = np.int64(x)
    return int(np.int64((x * np.uint64(2685821657736338717)) >> np.uint64(11)))


@_inline
def rand_below(st: Any, k: int) -> int:
    """A uniform integer in ``[0, k)`` from the state's generator."""
    return int(np.float64(_rand53(st)) * (1.0 / 9007199254740992.0) * k)


@_njit
def splitmix(seed: int) -> Any:
    """A generator's first word from ``seed``: splitmix64 of it, never zero (an int64)."""
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    if z == np.uint64(0):
        z = np.uint64(1)
    return np.int64(z)


@_njit
def seed_state(st: Any, seed: int) -> None:
    """Seed the state's generator (:func:`splitmix` of ``seed``)."""
    st[S_RNG] = splitmix(seed)


@_inline
def _suit_of(c: int) -> int:
    return -1 if c == 52 else c & 3


@_njit
def _refill(tab: Any, st: Any) -> None:
    if tab[T_RESHUFFLE] and st[S_DISC_N] > 1:
        d = st[S_DISC]
        k = st[S_DISC_N] - 1
        sl = st[S_STOCKL] + st[S_STOCK_N]
        for i in range(k):
            c = st[d + i]
            st[st[S_STOCK] + c] += 1
            st[sl + i] = c
        st[d] = st[d + k]
        st[S_DISC_N] = 1
        st[S_STOCK_N] += k


@_inline
def _take(tab: Any, st: Any, script: Any) -> int:
    """``_take_from_stock``: the next card to leave the stock."""
    if st[S_STOCK_N] <= 0:
        raise ValueError("no card left to draw")
    stock = st[S_STOCK]
    sl = st[S_STOCKL]
    last = st[S_STOCK_N] - 1
    pos = st[S_SCRIPT_POS]
    if pos < script.shape[0]:
        c = script[pos]
        st[S_SCRIPT_POS] = pos + 1
        if c < 0 or c > 52 or st[stock + c] <= 0:
            raise ValueError("a scripted card is not in the stock at that point")
        i = 0
        while st[sl + i] != c:
            i += 1
    else:
        i = rand_below(st, last + 1)
        c = st[sl + i]
    st[sl + i] = st[sl + last]
    st[stock + c] -= 1
    st[S_STOCK_N] = last
    if st[S_STOCK_N] == 0:
        _refill(tab, st)
    return int(c)


@_inline
def _add(st: Any, seat: int, c: int) -> None:
    st[st[S_HANDS] + seat * 53 + c] += 1
    st[st[S_HSIZE] + seat] += 1
    st[st[S_HMASK] + seat] |= np.int64(1) << c


@_njit
def _give(tab: Any, st: Any, script: Any, seat: int, count: int) -> int:
    given = 0
    while given < count and st[S_STOCK_N] > 0:
        _add(st, seat, _take(tab, st, script))
        given += 1
    return given


@_inline
def _give_one(tab: Any, st: Any, script: Any, seat: int) -> int:
    if st[S_STOCK_N] <= 0:
        return -1
    c = _take(tab, st, script)
    _add(st, seat, c)
    return c


# ---------------------------------------------------------------- the deal
_ROUND_SLOTS = (
    S_DEALER, S_TO_MOVE, S_DIR, S_PENDING, S_PCARD, S_ATTACKER, S_SUIT, S_RANK, S_FREE, S_DRAWN,
    S_DRAWS, S_AGAIN, S_AGAIN_PEN, S_REPLACE, S_SKIP_NEXT, S_SERVED, S_ANNOUNCE_DUE, S_PASSES,
    S_PLAYS, S_OVER, S_OUT, S_STOCK_N, S_DISC_N, S_SCRIPT_POS, S_REP_N, S_NAMING,
    S_AFTER_NAMING, S_SKIP_DUE, S_DECISIONS, S_FIN_N, S_FIN_MASK,
)
"""The scalar slots a deal resets (every ``S_*`` scalar but the layout, the generator and
the table-of-the-deal slots)."""


@_bare
def deal(tab: Any, st: Any, dealer: int, script: Any) -> None:
    """``Game._start_round``: reset the round, deal, turn the starter."""
    n = st[S_N]
    for i in range(st[S_REP_N]):  # the positions of the last round
        st[st[S_REP] + st[st[S_REP_IDX] + i]] = 0
    for i in _ROUND_SLOTS:  # the round's scalars; the layout, the generator and the deal stay
        st[i] = 0
    st[S_DEALER] = dealer
    st[S_DIR] = 1
    st[S_PCARD] = -1
    st[S_ATTACKER] = -1
    st[S_DRAWN] = -1
    st[S_OUT] = -1
    st[S_AFTER_NAMING] = -1
    for i in range(n * 53):
        st[st[S_HANDS] + i] = 0
    for s in range(n):
        st[st[S_HMASK] + s] = 0
        st[st[S_HSIZE] + s] = 0
        st[st[S_PEN] + s] = 0
        st[st[S_POINTS] + s] = 0
        st[st[S_WINNERS] + s] = 0
    total = 0
    for c in range(53):
        st[st[S_STOCK] + c] = st[st[S_DECK] + c]
        for _ in range(st[st[S_DECK] + c]):
            st[st[S_STOCKL] + total] = c
            total += 1
    st[S_STOCK_N] = total
    first = dealer + 1
    for i in range(st[S_HAND_SIZE] * n):
        _add(st, (first + i) % n, _take(tab, st, script))
    starter = _take(tab, st, script)
    turns = 0
    while tab[R_REDRAW + (starter >> 2)]:  # HA2: back into the stock, turn the next one
        st[st[S_STOCK] + starter] += 1
        st[st[S_STOCKL] + st[S_STOCK_N]] = starter
        st[S_STOCK_N] += 1
        turns += 1
        if turns > 200:
            every = True
            for c in range(53):
                if st[st[S_STOCK] + c] > 0 and not tab[R_REDRAW + (c >> 2)]:
                    every = False
            if every:
                break
        starter = _take(tab, st, script)
    st[st[S_DISC]] = starter
    st[S_DISC_N] = 1
    st[S_SUIT] = _suit_of(starter)
    st[S_RANK] = starter >> 2
    st[S_FREE] = 1 if ((tab[T_STARTER_ANY] and tab[C_WILD + starter])
                       or tab[C_ANY_FOLLOWS + starter]) else 0
    steps = 1
    if tab[T_STARTER_EFFECTS]:  # as if the dealer had played it
        if tab[C_DRAW + starter]:
            st[S_PENDING] = tab[C_DRAW + starter]
            st[S_PCARD] = starter
            st[S_ATTACKER] = dealer
        if tab[C_REVERSE + starter] and n > 2:
            st[S_DIR] = -1
        if tab[C_SKIP + starter] or (tab[C_REVERSE + starter] and n == 2
                                     and tab[T_REVERSE_SKIP]):
            steps = 2
    st[S_TO_MOVE] = (dealer + st[S_DIR] * steps) % n
    if tab[T_STARTER_NAMES] and tab[C_NAME_SUIT + starter]:  # TS3, UC3
        st[S_NAMING] = 1
        st[S_SUIT] = -1
        st[S_AFTER_NAMING] = st[S_TO_MOVE]
        if tab[T_DEALER_NAMES]:
            st[S_TO_MOVE] = dealer


# ---------------------------------------------------------------- legal actions
@_inline
def _row_mask(tab: Any, st: Any) -> int:
    """``Tables.row(suit, rank, free)`` as a bit mask."""
    return int(tab[B_ROWS + ((st[S_SUIT] + 1) * 14 + st[S_RANK]) * 2 + st[S_FREE]])


@_inline
def _lacks_suit(tab: Any, st: Any, seat: int) -> bool:
    """UC8: the hand holds no card of the suit to follow, wild cards aside."""
    return bool((st[st[S_HMASK] + seat] & tab[B_OF_SUIT + st[S_SUIT] + 1]) == 0)


@_inline
def _playable(tab: Any, st: Any, c: int) -> bool:
    if (_row_mask(tab, st) >> c) & 1:
        return not tab[C_NO_SUIT + c] or _lacks_suit(tab, st, st[S_TO_MOVE])
    return False


@_inline
def _matching(tab: Any, st: Any, p: int) -> int:
    """``_matching``: the cards of ``p``'s hand playable now (no draw pending), a mask."""
    m = st[st[S_HMASK] + p] & _row_mask(tab, st)
    if tab[T_WILD_IF] and (m & tab[B_NO_SUIT]) and not _lacks_suit(tab, st, p):
        m &= ~tab[B_NO_SUIT]
    return int(m)


@_inline
def _add_plays(tab: Any, st: Any, c: int, n_hand: int, out: Any, k: int) -> int:
    """``_plays_of`` for one card: its variants, in action order, appended at ``out[k]``."""
    return _add_variants(tab, st, c, n_hand, 0, out, k)


@_inline
def _add_variants(tab: Any, st: Any, c: int, n_hand: int, base: int, out: Any, k: int) -> int:
    """The variants of a play whose top card is ``c`` from a hand of ``n_hand`` cards (one
    card: ``_plays_of``; several: ``_many`` with ``left = n_hand - 1``, its cards but the top
    coded in ``base``), in action order, appended at ``out[k]``."""
    if n_hand == 1:
        if tab[T_ANY_OUT_SUIT] and tab[C_OUT_SUIT + c] and (c & 3) != st[S_SUIT]:
            return k  # LC6
        mask = tab[C_LAST + c]
    elif st[S_PLAYS] >= tab[T_LAST_PLAY]:
        mask = tab[C_END + c]
    elif n_hand == 2 and tab[T_ANNOUNCE]:
        mask = tab[C_ANNOUNCED + c]
    else:
        mask = tab[C_MID + c]
    while mask:  # the variants in the engine's order, four bits each
        out[k] = base + c * 10 + (mask & 15) - 1
        k += 1
        mask >>= 4
    return k


@_inline
def _add_all(tab: Any, st: Any, m: int, n_hand: int, out: Any, k: int) -> int:
    """``_plays_of`` for the cards of mask ``m``, in card order (:func:`_add_variants`, the
    table of variants chosen once)."""
    if n_hand == 1:
        while m:
            k = _add_plays(tab, st, _tz(m), n_hand, out, k)
            m &= m - 1
        return k
    if st[S_PLAYS] >= tab[T_LAST_PLAY]:
        block = C_END
    elif n_hand == 2 and tab[T_ANNOUNCE]:
        block = C_ANNOUNCED
    else:
        block = C_MID
    while m:
        c = _tz(m)
        m &= m - 1
        mask = tab[block + c]
        code = c * 10 - 1
        while mask:  # the variants in the engine's order, four bits each
            out[k] = code + (mask & 15)
            k += 1
            mask >>= 4
    return k


@_njit
def _add_multi(tab: Any, st: Any, p: int, first: int, n_hand: int, out: Any, k: int) -> int:
    """``_multi_plays`` (SW3): every play of two or more cards of one rank and one rule
    (BJ6) from ``p``'s hand, one of the cards under the top among ``first`` (a mask: the
    cards that may go down on their own now), in the engine's order, at ``out[k]``."""
    h = st[S_HANDS] + p * 53
    for r in range(13):
        if not (first >> (4 * r)) & 15:
            continue
        grouped = 0
        for s0 in range(4):  # the groups of this rank by rule, in card order
            c0 = 4 * r + s0
            if (grouped >> s0) & 1 or not st[h + c0] or (tab[C_NOT_ON + c0] >> r) & 1:
                continue
            held = 0  # the group's cards: counts packed two bits a suit
            cards = 0
            leads = 0  # the group's suits among first
            for s in range(s0, 4):
                c = 4 * r + s
                if (st[h + c] and tab[C_KIND + c] == tab[C_KIND + c0]
                        and not (tab[C_NOT_ON + c] >> r) & 1):  # MM6
                    grouped |= 1 << s
                    held |= st[h + c] << (2 * s)
                    cards += st[h + c]
                    leads |= ((first >> c) & 1) << s
            if cards < 2 or not leads:
                continue
            for j in range(X_N):  # the plays by their counts of each suit, in order
                row = X_PLAYS + j * X_ROW
                size = tab[row + 1]
                if size > cards:
                    break
                x = tab[row]
                fits = True
                suits = 0
                for s in range(4):
                    n = (x >> (2 * s)) & 3
                    if n > (held >> (2 * s)) & 3:
                        fits = False
                    if n:
                        suits |= 1 << s
                if not fits:
                    continue
                for top in range(4):  # each suit on top once (a copy on top is the same)
                    if not (suits >> top) & 1:
                        continue
                    under = suits
                    if (x >> (2 * top)) & 3 == 1:
                        under &= ~(1 << top)
                    if under & leads:  # a card under the top may go down alone now
                        k = _add_variants(tab, st, 4 * r + top, n_hand - size + 1,
                                          A_MULTI + (tab[row + 2 + top] - 1) * 530, out, k)
    if (first >> 52) & 1 and not (tab[C_NOT_ON + 52] >> 13) & 1:  # jokers: u under the top
        for size in range(2, st[h + 52] + 1):
            k = _add_variants(tab, st, 52, n_hand - size + 1, A_MULTI + (size - 2) * 530, out, k)
    return k


@_inline
def _covering(tab: Any, st: Any) -> bool:
    top = st[st[S_DISC] + st[S_DISC_N] - 1]
    return bool(tab[C_MUST_COVER + top]) and (st[S_PLAYS] > 0 or bool(tab[T_STARTER_EFFECTS]))


@_bare
def legal_list(tab: Any, st: Any, out: Any) -> int:
    """The legal action codes of the seat to play, in the engine's canonical order,
    written to ``out``; returns how many."""
    return _legal_list(tab, st, out)


@_inline
def _legal_list(tab: Any, st: Any, out: Any) -> int:
    """The legal action codes of the seat to play, in the engine's canonical order,
    written to ``out``; returns how many."""
    if st[S_OVER]:
        return 0
    if st[S_NAMING]:
        for s in range(4):
            out[s] = A_NAME + s
        return 4
    if st[S_REPLACE]:
        out[0] = A_TAKE
        out[1] = A_PASS
        return 2
    p = st[S_TO_MOVE]
    n_hand = st[st[S_HSIZE] + p]
    k = 0
    if st[S_PENDING]:  # only answers, or take the draw
        first = st[st[S_HMASK] + p] & tab[B_ANSWERS + st[S_PCARD]]
        k = _add_all(tab, st, first, n_hand, out, k)
        if tab[T_MULTI]:
            k = _add_multi(tab, st, p, first, n_hand, out, k)
        out[k] = A_DRAW
        return k + 1
    if st[S_SKIP_DUE]:  # MM5, PE8: pass the skip on, or accept it
        rank = st[st[S_DISC] + st[S_DISC_N] - 1] >> 2
        first = st[st[S_HMASK] + p] & tab[B_PASS_ON + rank]
        k = _add_all(tab, st, first, n_hand, out, k)
        if tab[T_MULTI]:
            k = _add_multi(tab, st, p, first, n_hand, out, k)
        out[k] = A_PASS
        return k + 1
    drawn = st[S_DRAWN]
    if drawn >= 0:  # HA4 may play it, HF5 and TS4 must play it
        if _playable(tab, st, drawn):
            k = _add_plays(tab, st, drawn, n_hand, out, k)
        if (tab[T_MAY_KEEP] and not _covering(tab, st)) or k == 0:
            out[k] = A_PASS
            k += 1
        return k
    first = _matching(tab, st, p)
    k = _add_all(tab, st, first, n_hand, out, k)
    if tab[T_MULTI]:  # SW3: several cards of one rank, one of those under the top playable
        k = _add_multi(tab, st, p, first, n_hand, out, k)
    if st[S_AGAIN] or st[S_SERVED]:
        if st[S_SERVED] and not st[S_AGAIN]:  # PE5
            out[k] = A_PASS
            k += 1
        elif k == 0:  # HA11: cannot play again
            out[k] = A_DRAW
            k += 1
        return k
    plays = k
    can_draw = n_hand < tab[T_CAP] and st[S_STOCK_N] > 0
    if tab[T_REPEAT]:
        if can_draw and st[S_DRAWS] < tab[T_MAX_DRAWS] and (plays == 0 or tab[T_VOLUNTARY_DRAW]):
            out[k] = A_DRAW
            k += 1
        if st[S_DRAWS] >= tab[T_MAX_DRAWS] or (not can_draw and (plays == 0
                                                                 or tab[T_VOLUNTARY_PASS])):
            out[k] = A_PASS
            k += 1
    elif can_draw:
        if plays == 0 or tab[T_VOLUNTARY_DRAW]:
            out[k] = A_DRAW
            k += 1
    elif plays == 0 or tab[T_VOLUNTARY_PASS]:
        out[k] = A_PASS
        k += 1
    if k == 0:
        out[k] = A_PASS
        k += 1
    return k


@_njit
def legal_mask(tab: Any, st: Any, out: Any) -> int:
    """The legal actions as a 0/1 mask over the action codes; returns how many. ``out`` holds
    at least the codes the rules use (:func:`eights.codes.action_count`), so the legal
    actions, distinct codes, are at most ``len(out)``."""
    buf = np.empty(out.shape[0], dtype=np.int64)
    k = legal_list(tab, st, buf)
    out[:] = 0
    for i in range(k):
        out[buf[i]] = 1
    return k


# ---------------------------------------------------------------- acting
@_njit
def _end_round(tab: Any, st: Any, out: int) -> None:
    n = st[S_N]
    st[S_OVER] = 1
    st[S_OUT] = out
    teams = st[S_TEAMS]
    ng = 2 if teams else n
    values = st[S_WORK]  # the work region: values, gpoints and win, n slots each
    gpoints = values + n
    win = gpoints + n
    for i in range(3 * n):
        st[values + i] = 0
    for s in range(n):
        v = 0
        h = st[S_HANDS] + s * 53
        for c in range(53):
            v += st[h + c] * tab[R_POINTS + (c >> 2)]
        st[values + (s % 2 if teams else s)] += v
    first = st[st[S_FIN]] if st[S_FIN_N] else out  # TS11: the first out wins
    if first >= 0:
        w = first % 2 if teams else first
        st[win + w] = 1
        if tab[T_SCORING] == 0:  # own hand
            for i in range(ng):
                st[gpoints + i] = st[values + i]
        else:
            for i in range(ng):
                if i != w:
                    st[gpoints + w] += st[values + i]
    else:
        low = st[values + 0]
        for i in range(ng):
            low = min(low, st[values + i])
        for i in range(ng):
            st[win + i] = st[values + i] == low
        if tab[T_BLOCKED] == 0:
            for i in range(ng):
                st[gpoints + i] = st[values + i]
        else:
            base = low if tab[T_BLOCKED] == 2 else 0
            for w in range(ng):
                if st[win + w]:
                    for i in range(ng):
                        if not st[win + i]:
                            st[gpoints + w] += st[values + i] - base
    if tab[T_SCORING] == 2:  # rounds won
        for i in range(ng):
            st[gpoints + i] = st[win + i]
    elif tab[T_SCORING] == 3:  # TS12: placings (no teams: a group is a seat)
        fin = st[S_FIN_N]
        for i in range(fin):
            st[gpoints + st[st[S_FIN] + i]] = i
        for s in range(n):
            if (st[S_FIN_MASK] >> s) & 1:
                continue
            place = fin
            for o in range(n):
                if not (st[S_FIN_MASK] >> o) & 1 and st[values + o] < st[values + s]:
                    place += 1
            st[gpoints + s] = place
        for i in range(ng):
            st[win + i] = st[gpoints + i] == 0
    sign = -1 if tab[T_SCORING] in (1, 2) else 1
    times = 1
    if out >= 0:  # MM10: the first player out's last card (TS11), else the top card
        card = (st[st[S_LASTC] + st[st[S_FIN]]] if st[S_FIN_N]
                else st[st[S_DISC] + st[S_DISC_N] - 1])
        times = tab[C_OUT_MULT + card]
    for s in range(n):
        g = s % 2 if teams else s
        penalty = 0
        for o in range(n):
            if (o % 2 if teams else o) == g:
                penalty += st[st[S_PEN] + o]
        st[st[S_POINTS] + s] = (st[gpoints + g] + sign * penalty) * times
        st[st[S_WINNERS] + s] = st[win + g]


@_njit
def _leave(tab: Any, st: Any, p: int) -> None:
    """TS11: ``p`` has gone out and leaves the round; it ends with one player left."""
    st[st[S_FIN] + st[S_FIN_N]] = p
    st[S_FIN_N] += 1
    st[S_FIN_MASK] |= np.int64(1) << p
    st[S_AGAIN] = 0
    if st[S_N] - st[S_FIN_N] <= 1:
        _end_round(tab, st, p)


@_inline
def _advance(st: Any, p: int, steps: int) -> int:
    """The seat ``steps`` seats on from ``p``, counting only players still in (TS11)."""
    n = st[S_N]
    if not st[S_FIN_N]:
        return int((p + st[S_DIR] * steps) % n)
    seat = p
    while steps:
        seat = (seat + st[S_DIR]) % n
        if not (st[S_FIN_MASK] >> seat) & 1:
            steps -= 1
    return int(seat)


@_inline
def _follows_any(tab: Any, st: Any) -> bool:
    d = st[S_DISC]
    for i in range(st[S_DISC_N] - 1, -1, -1):
        c = st[d + i]
        if not tab[C_TRANSPARENT + c]:
            return bool(tab[C_ANY_FOLLOWS + c])
    return False


@_inline
def _next_turn(st: Any, p: int, steps: int) -> None:
    """The turn's flags cleared, and the seat ``steps`` on from ``p`` to play."""
    st[S_DRAWN] = -1
    st[S_DRAWS] = 0
    st[S_AGAIN] = 0
    st[S_REPLACE] = 0
    st[S_SERVED] = 0
    st[S_SKIP_NEXT] = 0
    st[S_TO_MOVE] = _advance(st, p, steps)


@_njit
def _end_turn(tab: Any, st: Any, script: Any, p: int, steps: int) -> None:
    """``_end_turn``: the common case here, the rare one (HA13's penalty, a hand emptied, a
    card any card follows) called. Compiled once and called, not inlined into its twelve
    callers: a cold compile took a fifth less CPU, the batched step and whole random
    rounds as fast within the noise (docs/development.md, the kernel's compile)."""
    if st[S_ANNOUNCE_DUE] or st[S_FREE] or st[st[S_HSIZE] + p] == 0:
        _end_turn_rare(tab, st, script, p, steps)
        return
    _next_turn(st, p, steps)


@_njit
def _end_turn_rare(tab: Any, st: Any, script: Any, p: int, steps: int) -> None:
    if st[S_ANNOUNCE_DUE]:
        st[S_ANNOUNCE_DUE] = 0
        _give(tab, st, script, p, tab[T_ANNOUNCE_PENALTY])  # HA13
    if st[st[S_HSIZE] + p] == 0 and not (st[S_FIN_MASK] >> p) & 1:
        top = st[st[S_DISC] + st[S_DISC_N] - 1]
        pen = tab[T_OUT_PENALTY] if tab[C_STAYS_IN + top] else tab[T_CALL_OUT_PENALTY]
        if not _give(tab, st, script, p, pen):  # PE12, MM9: nothing to draw: out
            if not tab[T_PLAY_ON]:
                _end_round(tab, st, p)
                return
            _leave(tab, st, p)
            if st[S_OVER]:
                return
    if st[S_FREE] and not _follows_any(tab, st):  # CL4: only the first player
        st[S_FREE] = 0
    _next_turn(st, p, steps)


@_njit
def _forced_draw(tab: Any, st: Any, script: Any, victim: int) -> bool:
    count = st[S_PENDING]
    attacker = st[S_ATTACKER]
    st[S_PENDING] = 0
    st[S_PCARD] = -1
    st[S_ATTACKER] = -1
    limit = tab[T_LIMIT]
    if not limit:
        return bool(_give(tab, st, script, victim, count) == count)
    room = max(0, limit - st[st[S_HSIZE] + victim])
    taken = min(count, room)
    got = _give(tab, st, script, victim, taken)
    excess = count - taken
    if excess and tab[T_OVERFLOW] and attacker >= 0:  # HF9
        back = min(excess, max(0, limit - st[st[S_HSIZE] + attacker]))
        _give(tab, st, script, attacker, back)
        st[st[S_PEN] + attacker] += excess - back
    return bool(got == count)


@_inline
def _mix(h: np.uint64, v: int) -> np.uint64:
    h ^= np.uint64(v + 0x9E3779B9) + (h << np.uint64(6)) + (h >> np.uint64(2))
    return h * np.uint64(0x100000001B3)


@_njit
def _repeated(tab: Any, st: Any, p: int, c: int, named: int) -> bool:
    """``_repeated``: count this position (by a 64-bit hash of the engine's key); True at
    its third time. The stock is left out of the hash: within a round it is the deck less
    the hands and the discard pile, which are in it (each hand by its cards' bits)."""
    if not tab[T_BLOCK_REPEAT]:
        return False
    n = st[S_N]
    h = np.uint64(1469598103934665603)
    h = _mix(h, p)
    h = _mix(h, c)
    h = _mix(h, named)
    h = _mix(h, st[S_DIR])
    h = _mix(h, st[S_PENDING])
    h = _mix(h, 1000 + st[S_DISC_N])
    for i in range(st[S_DISC_N]):
        h = _mix(h, st[st[S_DISC] + i])
    for s in range(n):
        h = _mix(h, 2000 + s)
        hand = st[S_HANDS] + s * 53
        m = st[st[S_HMASK] + s]
        while m:
            x = _tz(m)
            h = _mix(h, x + 64 * st[hand + x])
            m &= m - 1
    key = np.int64((h | np.uint64(4)) & ~np.uint64(3))  # low 2 bits: the count
    cap = st[S_REP_CAP]
    if st[S_REP_N] >= cap - cap // 8:
        raise ValueError("block_on_repetition: more positions to remember than the state's "
                         "repeat capacity (new_state(..., repeat_capacity=...))")
    rep = st[S_REP]
    i = np.int64(h >> np.uint64(20)) & (cap - 1)
    while st[rep + i] != 0:
        if (st[rep + i] & ~3) == key:
            st[rep + i] += 1
            return bool((st[rep + i] & 3) >= 3)
        i = (i + 1) & (cap - 1)
    st[rep + i] = key | 1
    st[st[S_REP_IDX] + st[S_REP_N]] = i
    st[S_REP_N] += 1
    return False


@_njit
def _serve_last(tab: Any, st: Any, script: Any, p: int, c: int, k: int) -> None:
    if st[S_PENDING] and not tab[M_STACKS + st[S_PCARD] * 53 + c]:
        return
    st[S_PENDING] += tab[C_DRAW + c] * k
    st[S_PCARD] = c
    st[S_ATTACKER] = p
    n = st[S_N]
    direction = -st[S_DIR] if (tab[C_REVERSE + c] and n > 2 and k % 2) else st[S_DIR]
    _forced_draw(tab, st, script, (p + direction) % n)


@_inline
def _lay(st: Any, p: int, c: int) -> None:
    """One card from ``p``'s hand onto the discard pile."""
    h = st[S_HANDS] + p * 53
    st[h + c] -= 1
    if st[h + c] == 0:
        st[st[S_HMASK] + p] &= ~(np.int64(1) << c)
    st[st[S_HSIZE] + p] -= 1
    st[st[S_DISC] + st[S_DISC_N]] = c
    st[S_DISC_N] += 1


@_njit
def _lay_under(tab: Any, st: Any, p: int, c: int, u: int) -> int:
    """SW3: the cards coded ``u`` under the top card ``c`` (:data:`eights.codes.UNDER`; under
    a joker, ``u`` jokers) onto the discard pile, in card order; returns how many."""
    if c == 52:
        for _ in range(u):
            _lay(st, p, 52)
        return u
    counts = tab[U_COUNTS + u]
    laid = 0
    for s in range(4):
        for _ in range((counts >> (2 * s)) & 3):
            _lay(st, p, (c & ~3) + s)
            laid += 1
    return laid


@_inline
def _play(tab: Any, st: Any, script: Any, p: int, c: int, under: int, named: int,
          announce: bool) -> None:
    """``_play``: the card ``c``, on top of the cards coded ``under`` (SW3; 0: none), their
    effects adding up."""
    n = st[S_N]
    k = 1 + _lay_under(tab, st, p, c, under) if under else 1
    _lay(st, p, c)
    left = st[st[S_HSIZE] + p]
    st[S_PLAYS] += 1
    st[st[S_LASTC] + p] = c
    st[S_PASSES] = 0
    st[S_DRAWN] = -1
    st[S_SKIP_DUE] = 0
    if st[S_STOCK_N] == 0:
        _refill(tab, st)
    if left == 0 and not tab[C_STAYS_IN + c] and (announce or not tab[T_CALL_OUT]):
        if not tab[T_PLAY_ON]:
            if tab[T_SERVE_LAST] and tab[C_DRAW + c]:  # LC8, UC10
                _serve_last(tab, st, script, p, c, k)
            _end_round(tab, st, p)
            return
        _leave(tab, st, p)  # TS11: out of the round; the card's effect goes on
        if st[S_OVER]:
            return
    if st[S_STOCK_N] + st[S_DISC_N] <= 2 * n and _repeated(tab, st, p, c, named):
        _end_round(tab, st, -1)
        return
    if st[S_PLAYS] > tab[T_LAST_PLAY]:  # OpenSpiel max_turns
        _end_round(tab, st, -1)
        return
    if not tab[C_TRANSPARENT + c]:  # HA12
        st[S_SUIT] = _suit_of(c) if named < 0 else named
        if not tab[C_COVERED + c]:  # LH4
            st[S_RANK] = c >> 2
        st[S_FREE] = 1 if tab[C_ANY_FOLLOWS + c] else 0  # PE6
    if tab[T_ANNOUNCE] and not announce and left == 1:
        st[S_ANNOUNCE_DUE] = 1  # HA13
    if not tab[C_EFFECT + c]:
        if st[S_PENDING]:  # HA7: an 8 cancels the run
            st[S_PENDING] = 0
            st[S_PCARD] = -1
            st[S_ATTACKER] = -1
        st[S_AGAIN] = 0
        if tab[T_REPLACE] and st[S_STOCK_N] > 0 and left > 0 and left < tab[T_CAP]:
            st[S_REPLACE] = 1  # LH5
            return
        if (st[S_ANNOUNCE_DUE] or st[S_DRAWS] or st[S_SKIP_NEXT] or st[S_FREE] or st[S_SERVED]
                or left == 0 or st[S_FIN_N]):
            _end_turn(tab, st, script, p, 1)
        else:
            st[S_TO_MOVE] = (p + st[S_DIR]) % n
        return
    if st[S_PENDING]:
        if tab[M_STACKS + st[S_PCARD] * 53 + c]:  # HF7, HA7, BJ3: the run grows
            if st[S_STOCK_N] > 0:
                st[S_PENDING] += tab[C_DRAW + c] * k
            st[S_PCARD] = c
            st[S_ATTACKER] = p
        else:  # HA7: an 8 cancels the run (BJ4: a red jack; BJ6: the rest lie plain)
            st[S_PENDING] = 0
            st[S_PCARD] = -1
            st[S_ATTACKER] = -1
    elif tab[C_DRAW + c] and st[S_STOCK_N] > 0:
        st[S_PENDING] = tab[C_DRAW + c] * k
        st[S_PCARD] = c
        st[S_ATTACKER] = p
    skips = k if tab[C_SKIP + c] else 0
    if tab[C_REVERSE + c]:
        if n - st[S_FIN_N] > 2:
            if k % 2:  # SW7: each reverse flips the direction
                st[S_DIR] = -st[S_DIR]
        elif tab[T_REVERSE_SKIP]:  # a skip with two players (SW7: each one)
            skips += k
    if tab[C_AGAIN + c] and left > 0:  # HA11
        st[S_AGAIN] = 1
        st[S_AGAIN_PEN] = tab[C_AGAIN_PENALTY + c]
        st[S_SERVED] = 0
        return
    st[S_AGAIN] = 0
    if skips and tab[C_PASS_ON + c] and tab[C_SKIP + c]:  # MM5, PE8
        st[S_SKIP_DUE] = skips
        skips = 0
    if skips > 1 or st[S_FIN_N]:  # SW6: never the player who laid them
        skips = min(skips, n - st[S_FIN_N] - 1)
    if tab[T_REPLACE] and left > 0 and st[S_STOCK_N] > 0 and left < tab[T_CAP]:  # LH5
        st[S_REPLACE] = 1
        st[S_SKIP_NEXT] = skips
        return
    _end_turn(tab, st, script, p, 1 + skips)


@_inline
def _draw(tab: Any, st: Any, script: Any, p: int) -> None:
    st[S_PASSES] = 0
    if st[S_PENDING]:  # forced draw in full
        full = _forced_draw(tab, st, script, p)
        if full and st[S_STOCK_N] == 0 and tab[T_SERVED_COUNTS]:
            st[S_PASSES] = 1
        if full and tab[T_SERVED_STAYS]:  # PE5
            st[S_SERVED] = 1
            return
        _end_turn(tab, st, script, p, 1)
        return
    if st[S_AGAIN]:  # HA11: cannot play again
        _give(tab, st, script, p, st[S_AGAIN_PEN])
        _end_turn(tab, st, script, p, 1)
        return
    cover = bool(tab[T_COVER_ANY]) and _covering(tab, st)
    if tab[T_REPEAT] and not cover:
        if st[S_STOCK_N] > 0:
            _add(st, p, _take(tab, st, script))
        st[S_DRAWS] += 1
        return
    if tab[T_UNTIL_PLAYABLE] or cover:  # HF5, LH6; TS9
        while st[S_STOCK_N] > 0 and st[st[S_HSIZE] + p] < tab[T_CAP]:
            c = _give_one(tab, st, script, p)
            if c >= 0 and _playable(tab, st, c):
                st[S_DRAWN] = c
                return
        _end_turn(tab, st, script, p, 1)
        return
    c = _give_one(tab, st, script, p)
    if tab[T_PLAY_DRAWN] and c >= 0 and _playable(tab, st, c):
        st[S_DRAWN] = c  # HA4, TS4
        return
    _end_turn(tab, st, script, p, 1)


@_inline
def _pass(tab: Any, st: Any, script: Any, p: int) -> None:
    n = st[S_N]
    if st[S_REPLACE]:  # LH5: declined the top card
        _end_turn(tab, st, script, p, 1 + st[S_SKIP_NEXT])
        return
    if st[S_SKIP_DUE]:  # MM5, PE8: the skip accepted
        steps = min(st[S_SKIP_DUE], n - st[S_FIN_N] - 1)
        st[S_SKIP_DUE] = 0
        _end_turn(tab, st, script, p, steps)
        return
    if st[S_SERVED]:  # PE5
        _end_turn(tab, st, script, p, 1)
        return
    if st[S_STOCK_N] > 0 and st[st[S_HSIZE] + p] < tab[T_CAP]:
        st[S_PASSES] = 0
    else:
        st[S_PASSES] += 1
        if st[S_PASSES] >= n - st[S_FIN_N] + tab[T_EXTRA_PASSES]:
            _end_round(tab, st, -1)  # HF13, CL6, LH9: blocked
            return
    _end_turn(tab, st, script, p, 1)


@_bare
def apply(tab: Any, st: Any, action: int, script: Any) -> None:
    """``Game.push``: play an action code known to be legal for the seat to play."""
    _apply(tab, st, action, script)


@_inline
def _apply(tab: Any, st: Any, action: int, script: Any) -> None:
    """:func:`apply`, inlined: the whole-round loops step with it (every helper of a step
    in one compiled body, about 40% faster than calling :func:`apply`; numba compiles it
    once per caller, so only those loops use it)."""
    p = st[S_TO_MOVE]
    st[S_DECISIONS] += 1
    if action < A_DRAW or action >= A_MULTI:
        under = 0
        low = action
        if action >= A_MULTI:  # SW3: several cards of one rank
            under, low = divmod(action - A_MULTI, 530)
            under += 1
        b = low % 10
        suit = b >> 1
        _play(tab, st, script, p, low // 10, under, -1 if suit == 4 else suit, (b & 1) == 1)
    elif action == A_DRAW:
        _draw(tab, st, script, p)
    elif action == A_PASS:
        _pass(tab, st, script, p)
    elif action == A_TAKE:
        _give(tab, st, script, p, 1)  # LH5: the top card of the stock
        _end_turn(tab, st, script, p, 1 + st[S_SKIP_NEXT])
    else:  # TS3, UC3: the suit of a wild starter is named
        st[S_SUIT] = action - A_NAME
        st[S_NAMING] = 0
        st[S_TO_MOVE] = st[S_AFTER_NAMING]


# ---------------------------------------------------------------- policies
POLICY_RANDOM = 0
POLICY_GREEDY = 1


@_njit
def _is_play(a: int) -> bool:
    return a < A_DRAW or a >= A_MULTI


@_njit
def _variant(a: int) -> int:
    """The low digit of a play's code: ``suit * 2 + call``."""
    return a % 10 if a < A_DRAW else (a - A_MULTI) % 10


@_njit
def _top(a: int) -> int:
    """The (top) card of a play's code."""
    return a // 10 if a < A_DRAW else (a - A_MULTI) % 530 // 10


@_njit
def _size(tab: Any, a: int) -> int:
    """How many cards the play coded ``a`` lays."""
    if a < A_MULTI:
        return 1
    u = (a - A_MULTI) // 530 + 1
    if _top(a) == 52:
        return 1 + u
    counts = tab[U_COUNTS + u]
    return int(1 + (counts & 3) + (counts >> 2 & 3) + (counts >> 4 & 3) + (counts >> 6 & 3))


@_njit
def _laid(tab: Any, a: int, c: int) -> int:
    """How many copies of card ``c`` the play coded ``a`` lays (none for ``a = -1``, no play)."""
    if a < 0:
        return 0
    top = _top(a)
    n = 1 if c == top else 0
    if a >= A_MULTI and c >> 2 == top >> 2:
        u = (a - A_MULTI) // 530 + 1
        n += u if top == 52 else (tab[U_COUNTS + u] >> (2 * (c & 3))) & 3
    return int(n)


@_njit
def _favourite_suit(tab: Any, st: Any, seat: int, playing: int) -> int:
    """``eights.bots.basic.favourite_suit``: the suit the hand (less the cards of the play
    coded ``playing``, -1 for none) holds most of, wild cards aside; ties: the suit worth
    most points, then the first."""
    h = st[S_HANDS] + seat * 53
    count = st[S_WORK] + 3 * st[S_N]  # the work region's last 8 slots: counts, then values
    value = count + 4
    for s in range(8):
        st[count + s] = 0
    for c in range(52):
        held = st[h + c] - _laid(tab, playing, c)
        if held > 0 and not tab[C_WILD + c]:
            st[count + (c & 3)] += held
            st[value + (c & 3)] += held * tab[R_POINTS + (c >> 2)]
    best = 0
    for s in range(1, 4):
        if st[count + s] > st[count + best] or (st[count + s] == st[count + best]
                                                and st[value + s] > st[value + best]):
            best = s
    return best


@_njit
def greedy_choice(tab: Any, st: Any, legal: Any, k: int) -> int:
    """``eights.bots.basic.GreedyBot.choose`` over the ``k`` legal codes in ``legal``: the
    play shedding most points (ties: more cards, then the higher top card; SW3)."""
    p = st[S_TO_MOVE]
    best = -1  # the best play's code less its variant: its cards
    best_key = -1
    any_plain = False
    for i in range(k):
        a = legal[i]
        if _is_play(a) and not tab[C_WILD + _top(a)]:
            any_plain = True
    for i in range(k):  # the costliest play of the pool (plain cards, else all plays)
        a = legal[i]
        if not _is_play(a):
            continue
        c = _top(a)
        if any_plain and tab[C_WILD + c]:
            continue
        cards = _size(tab, a)
        key = (tab[R_POINTS + (c >> 2)] * cards * 128 + cards) * 64 + c
        if key > best_key:
            best_key = key
            best = a - _variant(a)
    if best < 0:
        if A_NAME <= legal[0] < A_MULTI:  # TS3, UC3: name the wild starter's suit
            return A_NAME + _favourite_suit(tab, st, p, -1)
        has_take = False
        has_pass = False
        has_draw = False
        for i in range(k):
            has_take |= legal[i] == A_TAKE
            has_pass |= legal[i] == A_PASS
            has_draw |= legal[i] == A_DRAW
        if has_take and has_pass:
            return A_PASS  # LH5
        return A_DRAW if has_draw else int(legal[0])
    announced = False
    named = False
    for i in range(k):
        a = legal[i]
        if _is_play(a) and a - _variant(a) == best:
            announced |= (_variant(a) & 1) == 1
            named |= _variant(a) >> 1 != 4
    suit = _favourite_suit(tab, st, p, best) if named else -1
    first = -1
    for want_suit in (True, False):
        for i in range(k):
            a = legal[i]
            if not _is_play(a) or a - _variant(a) != best:
                continue
            if announced and not (_variant(a) & 1):
                continue
            if want_suit and named and _variant(a) >> 1 != suit:
                continue
            if first < 0:
                first = a
        if first >= 0:
            return int(first)
    return int(first)


# ---------------------------------------------------------------- whole rounds
@_njit
def random_round(tab: Any, st: Any, dealer: int, script: Any, buf: Any) -> int:
    """Deal and play one round with uniform random choices from the state's generator;
    returns the number of decisions. The result is in the state (``S_OUT``, points)."""
    return policy_round(tab, st, dealer, script, buf, np.zeros(st[S_N], dtype=np.int64))


@_bare
def policy_round(tab: Any, st: Any, dealer: int, script: Any, buf: Any, policies: Any) -> int:
    """Deal and play one round, seat ``s`` choosing by ``policies[s]`` (``POLICY_RANDOM``
    with the state's generator, or ``POLICY_GREEDY``); returns the number of decisions."""
    deal(tab, st, dealer, script)
    decisions = 0
    while not st[S_OVER]:
        k = _legal_list(tab, st, buf)
        if k == 1:
            a = buf[0]
        elif policies[st[S_TO_MOVE]] == POLICY_GREEDY:
            a = greedy_choice(tab, st, buf, k)
        else:
            a = buf[rand_below(st, k)]
        _apply(tab, st, a, script)
        decisions += 1
    return decisions


@_njit
def policy_rounds(tab: Any, st: Any, rounds: int, policies: Any, results: Any) -> None:
    """:func:`random_rounds` with a policy a seat (see :func:`policy_round`)."""
    n = st[S_N]
    script = np.empty(0, dtype=np.int64)
    buf = np.empty(N_ACTIONS, dtype=np.int64)
    for i in range(rounds):
        results[i, 0] = policy_round(tab, st, i % n, script, buf, policies)
        results[i, 1] = st[S_PLAYS]
        results[i, 2] = st[S_OUT]
        for s in range(n):
            results[i, 3 + s] = st[st[S_POINTS] + s]


@_njit
def random_rounds(tab: Any, st: Any, rounds: int, results: Any) -> None:
    """Play ``rounds`` random rounds (dealer rotating from seat 0); row ``i`` of
    ``results`` gets ``[decisions, plays, seat out or -1, points of each seat...]``."""
    policy_rounds(tab, st, rounds, np.zeros(st[S_N], dtype=np.int64), results)  # all random
