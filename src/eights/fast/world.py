"""Engine games as kernel states, and play-outs to the end of the round in compiled code.

The search's path (ISMCTS rollouts): a sampled world (an engine
:class:`~eights.engine.game.Game`, mid-round) becomes a kernel state
(:func:`state_from_game`), which :func:`play_out` plays to the end of the round
with the built-in policies; the round's points and winners are then in the state.
:class:`PlayOuts` does the three steps for one rule set and player count, reusing one
state buffer and the rule set's compiled tables (:func:`cached_tables`), so a
play-out costs no allocation and no compilation after the first.

The state is built from the game's public attributes only (hands, stock, discard,
the turn's scalars, ``finished``, ``penalties``, ``history`` for the last card each
seat played (MM10 under ``play_on``), ``repeats`` for ``block_on_repetition``); the
positions the engine has counted are carried over exactly, hashed as the kernel
hashes its own (:func:`~eights.fast.kernel._repeated`). Future draws come from the
kernel's generator seeded by ``seed`` (or from a ``script`` of cards given to
:func:`play_out`).

Policies are one ``float64`` a seat, the share of uniform random choices:
``1.0`` is the kernel's ``random`` policy (the same generator calls as
:func:`~eights.fast.kernel.policy_round`), ``0.0`` its ``greedy`` policy (the engine's
GreedyBot), anything between an epsilon-greedy policy (:func:`policy_epsilons`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from eights.engine.game import Game
from eights.engine.rules import Rules
from eights.fast import kernel as k
from eights.fast.game import POLICIES, new_state
from eights.fast.kernel import _njit, _repeated
from eights.fast.tables import T_BLOCK_REPEAT, KernelTables, compile_rules

__all__ = ["PlayOut", "PlayOuts", "cached_tables", "choose", "play_out", "play_out_logged",
           "policy_epsilons", "state_from_game"]

Int64Array = npt.NDArray[np.int64]
Float64Array = npt.NDArray[np.float64]

_SEED_MASK = 2**63 - 1
_CACHE_SIZE = 16
_cache: list[KernelTables] = []


def cached_tables(rules: Rules) -> KernelTables:
    """The kernel's tables of ``rules``, compiled once: a small cache (the last 16 rule
    sets) found by identity first, then by equality (raises
    :class:`~eights.fast.tables.KernelUnsupported` for rules the kernel cannot play)."""
    for i, kt in enumerate(_cache):
        if kt.rules is rules:
            if i:
                _cache.insert(0, _cache.pop(i))
            return kt
    for i, kt in enumerate(_cache):
        if kt.rules == rules:
            _cache.insert(0, _cache.pop(i))
            return kt
    kt = compile_rules(rules)
    _cache.insert(0, kt)
    del _cache[_CACHE_SIZE:]
    return kt


# ---------------------------------------------------------------- game -> state
_HEADER = (
    k.S_DEALER, k.S_TO_MOVE, k.S_DIR, k.S_PENDING, k.S_PCARD, k.S_ATTACKER, k.S_SUIT, k.S_RANK,
    k.S_FREE, k.S_DRAWN, k.S_DRAWS, k.S_AGAIN, k.S_AGAIN_PEN, k.S_REPLACE, k.S_SKIP_NEXT,
    k.S_SERVED, k.S_ANNOUNCE_DUE, k.S_PASSES, k.S_PLAYS, k.S_OVER, k.S_OUT, k.S_NAMING,
    k.S_AFTER_NAMING, k.S_SKIP_DUE, k.S_DECISIONS,
)
"""The scalar slots copied from the game, in the order :func:`state_from_game` packs them."""
_SLOTS = np.array(_HEADER, dtype=np.int64)
_Position = tuple[int, int, int | None, int, int, tuple[int, ...], tuple[int, ...],
                  tuple[tuple[int, ...], ...]]
"""A key of ``Game.repeats``: seat, card, suit named, direction, pending draw, the stock
(sorted), the discard pile, the hands."""


@_njit
def _count(st: Any, region: int, cards: Any, at: int, count: int) -> None:
    """Clear the 53 counts from ``region`` and count ``cards[at:at + count]`` there."""
    for c in range(53):
        st[region + c] = 0
    for i in range(count):
        st[region + cards[at + i]] += 1


@_njit
def _put_position(st: Any, head: Any, hi: int, cards: Any, ci: int) -> tuple[int, int]:
    """The hands, the stock and the discard pile: their sizes from ``head[hi]`` (a hand a
    seat, the stock, the pile), their cards from ``cards[ci]`` in that order; returns
    where both lists go on."""
    n = st[k.S_N]
    for s in range(n):
        size = head[hi + s]
        st[st[k.S_HSIZE] + s] = size
        mask = np.int64(0)
        for i in range(size):
            mask |= np.int64(1) << cards[ci + i]
        st[st[k.S_HMASK] + s] = mask
        _count(st, st[k.S_HANDS] + s * 53, cards, ci, size)
        ci += size
    stock_n, disc_n = head[hi + n], head[hi + n + 1]
    for i in range(stock_n):
        st[st[k.S_STOCKL] + i] = cards[ci + i]
    _count(st, st[k.S_STOCK], cards, ci, stock_n)
    st[k.S_STOCK_N] = stock_n
    ci += stock_n
    for i in range(disc_n):
        st[st[k.S_DISC] + i] = cards[ci + i]
    st[k.S_DISC_N] = disc_n
    return hi + n + 2, ci + disc_n


@_njit
def _fill(tab: Any, st: Any, head: Any, cards: Any, slots: Any, seed: int) -> None:
    """Write the position packed by :func:`state_from_game` into ``st`` (any earlier
    position in it is overwritten, the positions it remembered forgotten): ``head`` the
    numbers, ``cards`` the card codes (one byte each)."""
    n = st[k.S_N]
    for i in range(st[k.S_REP_N]):  # as a deal does
        st[st[k.S_REP] + st[st[k.S_REP_IDX] + i]] = 0
    st[k.S_REP_N] = 0
    st[k.S_SCRIPT_POS] = 0
    k.seed_state(st, seed)
    hi = slots.shape[0]
    for region in (k.S_PEN, k.S_LASTC, k.S_POINTS, k.S_WINNERS):
        for s in range(n):
            st[st[region] + s] = head[hi + s]
        hi += n
    fin_n = head[hi]
    mask = np.int64(0)
    for i in range(fin_n):
        st[st[k.S_FIN] + i] = head[hi + 1 + i]
        mask |= np.int64(1) << head[hi + 1 + i]
    st[k.S_FIN_N] = fin_n
    st[k.S_FIN_MASK] = mask
    hi += 1 + fin_n
    position = hi
    ci = 0
    for i in range(n + 2):
        ci += head[hi + i]
    hi += n + 2
    # the positions counted (block_on_repetition): each set up in the state and counted
    # by the kernel's own _repeated as often as the engine saw it
    keys = head[hi]
    hi += 1
    for _ in range(keys):
        p, c, named, times = head[hi], head[hi + 1], head[hi + 2], head[hi + 5]
        st[k.S_DIR] = head[hi + 3]
        st[k.S_PENDING] = head[hi + 4]
        hi, ci = _put_position(st, head, hi + 6, cards, ci)
        for _ in range(times):
            _repeated(tab, st, p, c, named)
    for i in range(slots.shape[0]):  # the turn's scalars, then the position itself
        st[slots[i]] = head[i]
    _put_position(st, head, position, cards, 0)


def _last_cards(game: Game) -> list[int]:
    """The last card each seat played this round (-1 for none), read back from the
    history until every seat is found."""
    n = game.n
    last = [-1] * n
    missing = n
    for seat, action in reversed(game.history):
        if last[seat] < 0 and action.card is not None:
            last[seat] = int(action.card)
            missing -= 1
            if not missing:
                break
    return last


def state_from_game(kt: KernelTables, game: Game, seed: int = 0,
                    out: Int64Array | None = None) -> Int64Array:
    """A kernel state equal to ``game`` (mid-round or over), its generator seeded by
    ``seed`` for the draws to come; written into ``out`` when given (no allocation): a
    state made for the same rules and players, by an earlier call or
    :func:`~eights.fast.game.new_state` (its table of positions must hold what the
    play-out will count).

    Raises :class:`ValueError` when ``game`` is not played by ``kt``'s rules or ``out``
    holds a state of another shape.
    """
    if game.rules is not kt.rules and game.rules != kt.rules:
        raise ValueError(f"the game plays {game.rules.name!r}, the tables are those of "
                         f"{kt.rules.name!r}: compile the game's rules (cached_tables)")
    n = game.n
    if out is None:
        out = new_state(kt, n, 0)
    elif (out.ndim != 1 or out.shape[0] <= k.S_SCALARS or int(out[k.S_N]) != n
          or (kt.tab[T_BLOCK_REPEAT] and not out[k.S_REP_CAP])):
        raise ValueError(f"out is not a state of {kt.rules.name!r} with {n} players: pass a "
                         "state made for them (state_from_game(kt, game) returns one)")
    drawn, out_seat, points = game.drawn, game.out, game.round_points
    head = [
        game.dealer, game.to_move, game.direction, game.pending, game.pending_card,
        game.attacker, game.suit, game.rank, int(game.free), -1 if drawn is None else int(drawn),
        game.draws, int(game.again), game.again_penalty, int(game.replace), game.skip_next,
        int(game.served), int(game.announce_due), game.passes, game.plays, int(game.over),
        -1 if out_seat is None else out_seat, int(game.naming), game.after_naming,
        game.skip_due, len(game.history), *game.penalties, *_last_cards(game),
        *(points if points is not None else [0] * n),
    ]
    winners = game.round_winners or ()
    head += [int(s in winners) for s in range(n)]
    finished = game.finished
    head.append(len(finished))
    head += finished
    cards: list[int] = []
    for hand in game.hands:
        head.append(len(hand))
        cards += hand
    stock, discard = game.stock, game.discard
    head += (len(stock), len(discard))
    cards += stock
    cards += discard
    if len(cards) != out[k.S_DECK_N]:  # every card is in a hand, the stock or the pile
        raise ValueError(f"out is a state of a {int(out[k.S_DECK_N])}-card deck, the game "
                         f"has {len(cards)} cards: pass a state made for its rules")
    repeats = game.repeats
    head.append(len(repeats))
    for key, times in repeats.items():
        p, c, named, direction, pending, kstock, kdiscard, khands = cast(_Position, key)
        head += (p, c, -1 if named is None else named, direction, pending, times)
        for khand in khands:
            head.append(len(khand))
            cards += khand
        head += (len(kstock), len(kdiscard))
        cards += kstock
        cards += kdiscard
    _fill(kt.tab, out, np.array(head, dtype=np.int64), bytes(cards), _SLOTS,
          seed & _SEED_MASK)
    return out


# ---------------------------------------------------------------- play-outs
@_njit
def choose(tab: Any, st: Any, policies: Any, buf: Any) -> int:
    """The action the seat to play chooses by its policy (see :func:`play_out`); ``buf`` is
    scratch (:data:`~eights.fast.kernel.N_ACTIONS` codes)."""
    count = k.legal_list(tab, st, buf)
    if count == 1:
        return int(buf[0])
    eps = policies[st[k.S_TO_MOVE]]
    if eps >= 1.0 or (eps > 0.0 and k.rand_below(st, 1 << 53) < eps * 9007199254740992.0):
        return int(buf[k.rand_below(st, count)])
    return int(k.greedy_choice(tab, st, buf, count))


@_njit
def play_out_logged(tab: Any, st: Any, policies: Any, buf: Any, script: Any, log: Any) -> int:
    """:func:`play_out`, writing the action codes chosen to ``log`` (as many as fit)."""
    decisions = 0
    while not st[k.S_OVER]:
        a = choose(tab, st, policies, buf)
        if decisions < log.shape[0]:
            log[decisions] = a
        k.apply(tab, st, a, script)
        decisions += 1
    return decisions


@_njit
def play_out(tab: Any, st: Any, policies: Any, buf: Any, script: Any) -> int:
    """Play the round in ``st`` to its end, seat ``s`` choosing by ``policies[s]`` (its share
    of uniform random choices: 1.0 random, 0.0 greedy, between: epsilon-greedy; a seat with
    one legal action draws nothing from the generator); returns the decisions made.

    ``buf`` holds :data:`~eights.fast.kernel.N_ACTIONS` codes (scratch); the cards drawn
    come from ``script`` while it lasts (from its start: a state from
    :func:`state_from_game` has read none of it), then from the state's generator. The
    round's result is in the state (``S_OUT``, the points and winners regions)."""
    return play_out_logged(tab, st, policies, buf, script, np.empty(0, dtype=np.int64))


def policy_epsilons(policies: str | Sequence[str], players: int,
                    epsilon: float = 0.0) -> Float64Array:
    """The ``policies`` argument of :func:`play_out`: one policy for every seat (a name) or
    one a seat, ``"random"`` or ``"greedy"``; greedy seats make ``epsilon`` of their choices
    (0 to 1) uniformly at random."""
    names = [policies] * players if isinstance(policies, str) else list(policies)
    if len(names) != players:
        raise ValueError(f"{len(names)} policies for {players} players: give one policy, or "
                         "one a seat")
    unknown = sorted(set(names) - set(POLICIES))
    if unknown:
        raise ValueError(f"unknown policy {unknown[0]!r}; policies: {', '.join(POLICIES)}")
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be between 0 and 1, not {epsilon}")
    return np.array([1.0 if p == "random" else epsilon for p in names], dtype=np.float64)


@dataclass(frozen=True, slots=True)
class PlayOut:
    """A round played to its end by :meth:`PlayOuts.play`."""

    points: tuple[int, ...]
    """Each seat's points of the round."""
    winners: tuple[int, ...]
    """The seats that won the round (ties and partners: several)."""
    out: int | None
    """The seat that went out, ``None`` for a blocked round."""
    decisions: int
    """Decisions made from the game's position to the end."""


class PlayOuts:
    """Rounds of ``rules`` with ``players`` seats, played from engine games to their end on
    the kernel, every seat by ``policy`` (``"random"``, ``"greedy"``, or one a seat) with
    ``epsilon`` random choices in the greedy ones: ISMCTS's rollouts.

    One state buffer is reused from play-out to play-out and the tables are compiled once
    per rule set (:func:`cached_tables`).

    >>> from eights import Game
    >>> playouts = PlayOuts(Game("classic", 2).rules, 2)
    >>> result = playouts.play(Game("classic", 2, seed=3), seed=1)
    >>> len(result.points), result.decisions > 0
    (2, True)
    """

    def __init__(self, rules: Rules, players: int, policy: str | Sequence[str] = "greedy",
                 epsilon: float = 0.0) -> None:
        rules.check_players(players)
        self.kt = cached_tables(rules)
        self.players = players
        self.policies = policy_epsilons(policy, players, epsilon)
        self.state = new_state(self.kt, players, 0)
        self.buf = np.empty(k.N_ACTIONS, dtype=np.int64)
        self.script = np.empty(0, dtype=np.int64)
        self._points = int(self.state[k.S_POINTS])
        self._winners = int(self.state[k.S_WINNERS])

    def play(self, game: Game, seed: int) -> PlayOut:
        """Play ``game``'s round from its position to the end (the game is not changed), the
        draws from the kernel's generator seeded by ``seed``."""
        if game.n != self.players:
            raise ValueError(f"the game has {game.n} players, these play-outs {self.players}")
        st = state_from_game(self.kt, game, seed, self.state)
        decisions = play_out(self.kt.tab, st, self.policies, self.buf, self.script)
        n = self.players
        points = st[self._points:self._points + n].tolist()
        won = st[self._winners:self._winners + n].tolist()
        out = int(st[k.S_OUT])
        return PlayOut(tuple(points), tuple(s for s in range(n) if won[s]),
                       out if out >= 0 else None, decisions)
