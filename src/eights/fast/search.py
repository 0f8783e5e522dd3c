"""The search's worlds in compiled code: sampled, played after every action, the tree
descended, the round played out, all on kernel states (ISMCTS, ``kernel=auto``).

:class:`~eights.bots.ismcts.ISMCTSBot` on the engine samples each world as an engine
:class:`~eights.engine.game.Game`, clones it for every root action, and descends its
tree on the engine; only the rollout after the descent ran on the kernel
(:mod:`eights.fast.world`). Here the whole world is compiled:

- **The template.** One kernel state holds the decision's public position and the
  observer's hand (:meth:`CompiledWorlds.__init__` builds it from the observation
  through :meth:`Game.from_observation <eights.engine.game.Game.from_observation>` and
  :func:`~eights.fast.world.state_from_game`, once per decision).
- **Sampling** (:func:`deal_bands`, :func:`deal_weighted`): every world re-deals the unseen
  cards into the other hands and the stock of that state, as
  :func:`eights.bots.worlds.sample_world` (shuffled, the bands of
  :func:`~eights.bots.worlds.hand_bands` met most constrained first, the rest at random)
  and :func:`~eights.bots.worlds.sample_weighted_world` (each card by its belief
  probabilities, the sizes exact) deal them: the same algorithms step for step, on the
  search's own generator (xorshift64*, as the kernel's), so that the same shuffle and
  the same uniforms give the same deal (``tests/test_compiled_search.py``).
- **The paired root** (:func:`play_world`): the world is copied into a second state for
  each root action, its generator seeded with the world's number (the same draws after
  every action: common random numbers), the action applied.
- **The descent** (``tree=own``, ``all``): the tree below each root action is a set of
  nodes in arrays (action code, first child, next sibling, visits, availability, reward
  sum); at the bot's own decisions (everyone's under ``tree=all``) an untried action is
  expanded, else UCB1 with availability counts picks among the children legal in this
  world, as :meth:`ISMCTSBot._iterate <eights.bots.ismcts.ISMCTSBot>` does; the others
  play the rollout policy (:func:`eights.fast.world.choose`).
- **The rollout and the rewards**: the same policy to the end of the round, then each
  seat's reward as :func:`eights.bots.ismcts.outcome_rewards` gives it (the win, shared
  among winners, plus the round's points over ``scale`` clipped to [-1, 1], times
  ``points``), backed up along the path.

Nothing here reads a card the observer may not see: the template is built from the
observation alone, and the hidden cards are the observation's unseen pool.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from eights.engine.cards import Card
from eights.engine.game import Game
from eights.engine.observation import Observation
from eights.fast import kernel as k
from eights.fast.expert import WEIGHTS, expert_tables, note, notes_of, policy_choice
from eights.fast.kernel import _inline, _njit
from eights.fast.tables import KernelTables
from eights.fast.world import state_from_game

__all__ = ["DEAL_BANDS", "DEAL_NONE", "DEAL_WEIGHTED", "TREE_ALL", "TREE_NONE", "TREE_OWN",
           "CompiledWorlds", "deal_bands", "deal_weighted",
           "play_world", "search_decision", "search_worlds", "seed_generator", "shuffle",
           "warm"]

Int64Array = npt.NDArray[np.int64]
Float64Array = npt.NDArray[np.float64]

TREE_NONE = 0
TREE_OWN = 1
TREE_ALL = 2

DEAL_BANDS = 0
"""Worlds dealt at random within the bands of the opponents' hands."""
DEAL_WEIGHTED = 1
"""Worlds dealt by each card's probability of lying in each place (a belief model)."""
DEAL_NONE = 2
"""No deal: every world is the true game (the search sees every card)."""

# node fields (rows of the int64 node table)
N_ACTION = 0
N_CHILD = 1
N_SIBLING = 2
N_VISITS = 3
N_AVAIL = 4
N_FIELDS = 5

_SEED_MASK = 2**63 - 1


@_inline
def _child(nodes: Any, node: int, action: int) -> int:
    """The child of ``node`` that ``action`` leads to, or -1 where it has none yet."""
    ch = nodes[node, N_CHILD]
    while ch >= 0 and nodes[ch, N_ACTION] != action:
        ch = nodes[ch, N_SIBLING]
    return int(ch)


# ---------------------------------------------------------------- the search's generator
@_njit
def seed_generator(rs: Any, seed: int) -> None:
    """Seed a one-slot generator (``rs[0]``) as the kernel seeds a state's."""
    rs[0] = k.splitmix(seed)


@_njit
def _next53(rs: Any) -> int:
    """53 random bits (xorshift64*)."""
    x = np.uint64(rs[0])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rs[0] = np.int64(x)
    return int(np.int64((x * np.uint64(2685821657736338717)) >> np.uint64(11)))


@_njit
def _uniform(rs: Any) -> float:
    return np.float64(_next53(rs)) * (1.0 / 9007199254740992.0)


@_njit
def shuffle(rs: Any, cards: Any, n: int) -> None:
    """Shuffle ``cards[:n]`` in place (Fisher-Yates, as :meth:`random.Random.shuffle`)."""
    for i in range(n - 1, 0, -1):
        j = int(_uniform(rs) * (i + 1))
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t


# ---------------------------------------------------------------- dealing a world
@_njit
def _clear_hidden(st: Any, me: int) -> None:
    """Empty every hand but ``me``'s, and the stock."""
    n = st[k.S_N]
    for s in range(n):
        if s == me:
            continue
        h = st[k.S_HANDS] + s * 53
        for c in range(53):
            st[h + c] = 0
        st[st[k.S_HSIZE] + s] = 0
        st[st[k.S_HMASK] + s] = 0
    for c in range(53):
        st[st[k.S_STOCK] + c] = 0
    st[k.S_STOCK_N] = 0


@_njit
def _give(st: Any, seat: int, c: int) -> None:
    st[st[k.S_HANDS] + seat * 53 + c] += 1
    st[st[k.S_HSIZE] + seat] += 1
    st[st[k.S_HMASK] + seat] |= np.int64(1) << c


@_njit
def _stock(st: Any, c: int) -> None:
    st[st[k.S_STOCK] + c] += 1
    st[st[k.S_STOCKL] + st[k.S_STOCK_N]] = c
    st[k.S_STOCK_N] += 1


@_njit
def deal_bands(st: Any, me: int, cards: Any, n_cards: int, need: Any, band_seat: Any,
               band_count: Any, band_rows: Any, rest: Any) -> None:
    """Deal ``cards[:n_cards]`` (already shuffled) into the hands but ``me``'s and the stock
    of ``st``, as :func:`eights.bots.worlds.sample_world` deals them: each band in turn
    (``band_seat[b]`` takes up to ``band_count[b]`` of the first cards not marked in
    ``band_rows[b]``, in order), then each other seat, in seat order, the next cards to its
    size ``need[seat]``, then the stock the rest, in order. ``need`` is changed; ``rest``
    is scratch (``n_cards`` slots)."""
    _clear_hidden(st, me)
    m = n_cards
    for i in range(m):
        rest[i] = cards[i]
    for b in range(band_seat.shape[0]):
        seat = band_seat[b]
        count = min(band_count[b], need[seat])
        taken = 0
        w = 0
        for i in range(m):
            c = rest[i]
            if taken < count and not band_rows[b, c]:
                _give(st, seat, c)
                taken += 1
            else:
                rest[w] = c
                w += 1
        need[seat] -= taken
        m = w
    at = 0
    for seat in range(st[k.S_N]):
        if seat == me:
            continue
        for _ in range(need[seat]):
            _give(st, seat, rest[at])
            at += 1
    for i in range(at, m):
        _stock(st, rest[i])


@_njit
def deal_weighted(st: Any, me: int, cards: Any, n_cards: int, uniforms: Any, probs: Any,
                  place_seat: Any, need: Any, mass: Any, weights: Any) -> None:
    """Deal ``cards[:n_cards]`` (already shuffled) by their probabilities, as
    :func:`eights.bots.worlds.sample_weighted_world` does, card ``i`` placed by
    ``uniforms[i]``: ``probs[card, j]`` is the chance that one copy lies in place ``j``,
    the hand of ``place_seat[j]`` or the stock for the last place; ``need[j]`` the room of
    place ``j`` (changed). ``mass`` and ``weights`` are scratch (one slot a place)."""
    _clear_hidden(st, me)
    places = need.shape[0]
    for j in range(places):
        mass[j] = 0.0
    if n_cards:  # summed card by card, in the shuffled order, as the reference sums
        for j in range(places):
            total = 0.0
            for i in range(n_cards):
                total += probs[cards[i], j]
            mass[j] = total
    for i in range(n_cards):
        c = cards[i]
        total = 0.0
        for j in range(places):
            w = 0.0
            if need[j] and mass[j] > 1e-12:
                w = probs[c, j] * need[j] / mass[j]
            weights[j] = w
            total += w
        if total <= 0:  # the probabilities leave no room: any place with room
            total = 0.0
            for j in range(places):
                weights[j] = float(need[j])
                total += weights[j]
        x = uniforms[i] * total
        pick = -1
        for j in range(places):
            if weights[j] > 0:
                pick = j
                x -= weights[j]
                if x < 0:
                    break
        need[pick] -= 1
        for j in range(places):
            mass[j] -= probs[c, j]
        if pick == places - 1:
            _stock(st, c)
        else:
            _give(st, place_seat[pick], c)


# ---------------------------------------------------------------- one world, every action
@_njit
def _restore(world: Any, st: Any) -> None:
    """Copy ``world`` into ``st`` (a state of the same shape), but for the table of positions
    seen: ``st``'s is cleared as a deal clears it (``world`` has seen none)."""
    for i in range(st[k.S_REP_N]):
        st[st[k.S_REP] + st[st[k.S_REP_IDX] + i]] = 0
    rep = world[k.S_REP]
    cap = world[k.S_REP_CAP]
    for i in range(rep):
        st[i] = world[i]
    for i in range(rep + cap, world[k.S_REP_IDX]):
        st[i] = world[i]
    st[k.S_REP_N] = 0


@_njit
def _rewards(st: Any, scale: float, weight: float, sign: float, out: Any) -> None:
    """``eights.bots.ismcts.outcome_rewards`` of the round over in ``st``."""
    n = st[k.S_N]
    winners = 0
    for s in range(n):
        winners += st[st[k.S_WINNERS] + s]
    share = 1.0 / winners if winners else 0.0
    for s in range(n):
        won = share if st[st[k.S_WINNERS] + s] else 0.0
        if weight:
            v = sign * st[st[k.S_POINTS] + s] / scale
            won += weight * max(-1.0, min(1.0, v))
        out[s] = won


@_njit
def _step(tab: Any, xt: Any, st: Any, notes: Any, action: int, script: Any) -> None:
    """Apply ``action`` to ``st``, the expert's notes kept (:func:`eights.fast.expert.note`)."""
    note(tab, xt, st, notes, action)
    k.apply(tab, st, action, script)


@_njit
def play_world(tab: Any, world: Any, st: Any, action: int, seed: int, root: int, nodes: Any,
               node_reward: Any, used: Any, tree: int, me: int, c: float, policies: Any,
               buf: Any, script: Any, path: Any, scale: float, weight: float, sign: float,
               rewards: Any, xt: Any, ew: Any, world_notes: Any, notes: Any) -> None:
    """One iteration of the search below the root action ``action`` in ``world``: ``st``
    becomes the world, its generator seeded by ``seed``, the action played; the tree below
    ``root`` (a node of ``nodes``/``node_reward``, ``used[0]`` of them in use) is descended
    and grown by one node (``tree``: ``TREE_OWN`` at ``me``'s decisions, ``TREE_ALL`` at
    everyone's, ``TREE_NONE`` none), the rest of the round played by ``policies``
    (:func:`eights.fast.expert.policy_choice`: the expert's seats with its tables ``xt``,
    weights ``ew`` and ``notes``, a copy of ``world_notes``); each seat's reward is written
    to ``rewards`` and backed up along the path (``path``: scratch, two slots a node)."""
    _restore(world, st)
    for i in range(world_notes.shape[0]):
        notes[i] = world_notes[i]
    k.seed_state(st, seed)
    _step(tab, xt, st, notes, action, script)
    depth = 0
    node = root
    while tree != TREE_NONE and not st[k.S_OVER]:
        player = st[k.S_TO_MOVE]
        if tree == TREE_OWN and player != me:
            _step(tab, xt, st, notes, policy_choice(tab, xt, ew, st, notes, policies, buf),
                  script)
            continue
        count = k.legal_list(tab, st, buf)
        untried = 0
        for i in range(count):
            if _child(nodes, node, buf[i]) < 0:
                untried += 1
        if untried:
            pick = k.rand_below(st, untried)
            a = -1
            for i in range(count):
                b = buf[i]
                if _child(nodes, node, b) < 0:
                    if pick == 0:
                        a = b
                        break
                    pick -= 1
            new = used[0]
            used[0] = new + 1
            nodes[new, N_ACTION] = a
            nodes[new, N_CHILD] = -1
            nodes[new, N_SIBLING] = nodes[node, N_CHILD]
            nodes[new, N_VISITS] = 0
            nodes[new, N_AVAIL] = 0
            node_reward[new] = 0.0
            nodes[node, N_CHILD] = new
            for i in range(count):  # every child legal here was available
                ch = _child(nodes, node, buf[i])
                if ch >= 0:
                    nodes[ch, N_AVAIL] += 1
            _step(tab, xt, st, notes, a, script)
            path[depth, 0] = new
            path[depth, 1] = player
            depth += 1
            break
        best_score = -1e9
        best = -1
        a = buf[0]
        for i in range(count):
            b = buf[i]
            ch = _child(nodes, node, b)  # every legal action has a child once none is untried
            nodes[ch, N_AVAIL] += 1
            visits = nodes[ch, N_VISITS]
            score = node_reward[ch] / visits + c * np.sqrt(np.log(nodes[ch, N_AVAIL]) / visits)
            if score > best_score:
                best_score = score
                best = ch
                a = b
        node = best
        _step(tab, xt, st, notes, a, script)
        path[depth, 0] = node
        path[depth, 1] = player
        depth += 1
    while not st[k.S_OVER]:
        _step(tab, xt, st, notes, policy_choice(tab, xt, ew, st, notes, policies, buf), script)
    _rewards(st, scale, weight, sign, rewards)
    nodes[root, N_VISITS] += 1
    for d in range(depth):
        nd = path[d, 0]
        nodes[nd, N_VISITS] += 1
        node_reward[nd] += rewards[path[d, 1]]


@_njit
def _deal_world(world: Any, rs: Any, mode: int, me: int, pool: Any, cards: Any,
                rest: Any, sizes: Any, need: Any, band_seat: Any, band_count: Any,
                band_rows: Any, uniforms: Any, probs: Any, place_seat: Any, place_need: Any,
                mass: Any, weights: Any) -> int:
    """Deal the unseen ``pool`` into ``world`` (``mode``: :data:`DEAL_BANDS` by the bands,
    :data:`DEAL_WEIGHTED` by the probabilities, :data:`DEAL_NONE` not at all: the world
    is the true one); returns the seed of the world's draws."""
    if mode == DEAL_NONE:
        return int(_next53(rs) << 10 ^ _next53(rs))
    weighted = mode == DEAL_WEIGHTED
    n_pool = pool.shape[0]
    for i in range(n_pool):
        cards[i] = pool[i]
    shuffle(rs, cards, n_pool)
    if weighted:
        for i in range(n_pool):
            uniforms[i] = _uniform(rs)
        for j in range(place_need.shape[0]):
            need[j] = place_need[j]
        deal_weighted(world, me, cards, n_pool, uniforms, probs, place_seat, need, mass,
                      weights)
    else:
        for s in range(world[k.S_N]):
            need[s] = sizes[s]
        deal_bands(world, me, cards, n_pool, need, band_seat, band_count, band_rows, rest)
    return int(_next53(rs) << 10 ^ _next53(rs))


@_njit
def search_worlds(tab: Any, world: Any, st: Any, rs: Any, count: int, mode: int,
                  me: int, pool: Any, cards: Any, rest: Any, sizes: Any, need: Any,
                  band_seat: Any, band_count: Any, band_rows: Any, uniforms: Any, probs: Any,
                  place_seat: Any, place_need: Any, mass: Any, weights: Any, actions: Any,
                  tried: Any, n_tried: int, roots: Any, nodes: Any, node_reward: Any,
                  used: Any, tree: int, c: float, policies: Any, buf: Any, script: Any,
                  path: Any, scale: float, weight: float, sign: float, rewards: Any,
                  out_reward: Any, out_points: Any, out_winners: Any, xt: Any, ew: Any,
                  world_notes: Any, notes: Any) -> None:
    """``count`` worlds, each dealt from the unseen ``pool`` into ``world`` (``mode``, see
    :func:`_deal_world`) and played after each of the ``n_tried`` actions
    ``actions[tried[j]]`` with the same draws (:func:`play_world`). World ``w``'s results
    go to row ``w``: ``out_reward[w, j]`` the reward of ``me`` after ``tried[j]``,
    ``out_points[w, j, s]`` and ``out_winners[w, j, s]`` each seat's points and win."""
    n = world[k.S_N]  # st may be fresh: the first play fills it
    for w in range(count):
        seed = _deal_world(world, rs, mode, me, pool, cards, rest, sizes, need, band_seat,
                           band_count, band_rows, uniforms, probs, place_seat, place_need,
                           mass, weights)
        for j in range(n_tried):
            i = tried[j]
            play_world(tab, world, st, actions[i], seed, roots[i], nodes, node_reward, used,
                       tree, me, c, policies, buf, script, path, scale, weight, sign, rewards,
                       xt, ew, world_notes, notes)
            out_reward[w, j] = rewards[me]
            for s in range(n):
                out_points[w, j, s] = st[st[k.S_POINTS] + s]
                out_winners[w, j, s] = st[st[k.S_WINNERS] + s]


@_njit
def _bound(total: float, squares: float, n: int, z: float) -> float:
    """``eights.bots.ismcts._bound``: mean minus ``z`` standard errors."""
    mean = total / n
    return float(mean - z * np.sqrt(max(0.0, squares / n - mean * mean) / max(1, n - 1)))


@_njit
def search_decision(tab: Any, world: Any, st: Any, rs: Any, mode: int, me: int,
                    pool: Any, cards: Any, rest: Any, sizes: Any, need: Any, band_seat: Any,
                    band_count: Any, band_rows: Any, uniforms: Any, probs: Any,
                    place_seat: Any, place_need: Any, mass: Any, weights: Any, actions: Any,
                    roots: Any, nodes: Any, node_reward: Any, used: Any, tree: int, c: float,
                    policies: Any, buf: Any, script: Any, path: Any, scale: float,
                    weight: float, sign: float, rewards: Any, base: int, live: Any,
                    total: Any, gain: Any, gain_sq: Any, count: Any, done: Any,
                    iterations: int, prune: float, prune_after: int, prune_every: int,
                    max_worlds: int, max_rollouts: int, tried: Any, xt: Any, ew: Any,
                    world_notes: Any, notes: Any) -> None:
    """The loop of :meth:`ISMCTSBot.choose <eights.bots.ismcts.ISMCTSBot.choose>` over
    worlds, in compiled code, from where ``done`` (worlds, rollouts) says it is: while an
    action is ``live`` (flags) and fewer than ``iterations`` rollouts (or 2 worlds) are
    done (``iterations`` -1: no limit), a world is played after the prior ``base`` (-1:
    none) and each live action, the statistics of the actions (``total``, ``gain``,
    ``gain_sq`` over the prior, ``count``) kept and the live actions raced (``prune``
    standard errors, every ``prune_every`` worlds from ``prune_after``; 0: never), all as
    the engine's loop does, in the same order. It returns after ``max_worlds`` worlds, or
    before a world that would take the rollouts of this call past ``max_rollouts`` (-1: no
    limit), so the caller can read its clock. ``tried`` is scratch."""
    k_actions = actions.shape[0]
    played = 0
    rolled = 0
    while played < max_worlds:
        n_tried = 0
        if base >= 0:
            tried[0] = base
            n_tried = 1
        for i in range(k_actions):
            if live[i]:
                tried[n_tried] = i
                n_tried += 1
        if n_tried == (1 if base >= 0 else 0):
            return  # nothing left in the race
        if iterations >= 0 and done[1] >= iterations and done[0] >= 2:
            return
        if max_rollouts >= 0 and rolled + n_tried > max_rollouts:
            return
        seed = _deal_world(world, rs, mode, me, pool, cards, rest, sizes, need, band_seat,
                           band_count, band_rows, uniforms, probs, place_seat, place_need,
                           mass, weights)
        anchor = 0.0
        for j in range(n_tried):
            i = tried[j]
            play_world(tab, world, st, actions[i], seed, roots[i], nodes, node_reward, used,
                       tree, me, c, policies, buf, script, path, scale, weight, sign, rewards,
                       xt, ew, world_notes, notes)
            value = rewards[me]
            if j == 0 and base >= 0:
                anchor = value
            total[i] += value
            count[i] += 1
            d = value - anchor
            gain[i] += d
            gain_sq[i] += d * d
        played += 1
        rolled += n_tried
        done[0] += 1
        done[1] += n_tried
        worlds = done[0]
        if base >= 0 and prune > 0 and worlds >= prune_after and worlds % prune_every == 0:
            for i in range(k_actions):
                if live[i] and _bound(gain[i], gain_sq[i], count[i], -prune) < 0:
                    live[i] = 0


# ---------------------------------------------------------------- the Python face
class CompiledWorlds:
    """The worlds of one decision of the search, sampled and played in compiled code.

    ``seen`` is the observation, ``actions`` the legal action codes, ``pool`` the unseen
    cards (:func:`eights.bots.worlds.unseen_cards`). Worlds are dealt within ``bands``
    (``(seat, count, row)`` in the order the reference deals them: at least ``count`` of
    the seat's cards avoid the cards marked in ``row``), or, given ``probs`` (a row a card
    code, a column a place: the hands of ``seats`` then the stock), by those
    probabilities. ``tree`` is ``TREE_NONE``, ``TREE_OWN`` or ``TREE_ALL``; ``policies``
    the rollout policy of each seat (:func:`eights.fast.world.policy_epsilons`, or
    :data:`eights.fast.expert.EXPERT` for the expert, who scores with the weights
    ``expert``: :func:`eights.fast.expert.expert_weights`); ``scale``, ``points`` and
    ``sign`` make the rewards (:func:`eights.bots.ismcts.outcome_rewards`); ``seed`` seeds
    the search's generator (the deals and each world's draws). Given ``truth`` (a game
    in the observed position), every world is that game, no card dealt: the search sees
    every card (the ceiling of ``ismcts:see=all``; never from an observation alone).
    """

    def __init__(self, kt: KernelTables, seen: Observation, actions: Sequence[int],
                 pool: Sequence[Card], *, bands: Sequence[tuple[int, int, Sequence[bool]]] = (),
                 probs: Float64Array | None = None, seats: Sequence[int] = (),
                 tree: int = TREE_OWN, c: float = 0.7, policies: Float64Array,
                 scale: float = 1.0, points: float = 0.0, sign: float = 1.0,
                 seed: int = 0, expert: Float64Array | None = None,
                 truth: Game | None = None) -> None:
        n = seen.players
        me = seen.seat
        self.kt = kt
        self.n = n
        self.me = me
        if truth is None:
            # the template: the public position and the observer's hand, any deal of the rest
            hidden = list(pool)
            hands: list[list[Card]] = [[] for _ in range(n)]
            hands[me] = list(seen.hand)
            at = 0
            for s in range(n):
                if s != me:
                    hands[s] = hidden[at:at + seen.hand_sizes[s]]
                    at += seen.hand_sizes[s]
            game = Game.from_observation(seen, hands, hidden[at:], random.Random(0))
        else:
            game = truth
        self.world = state_from_game(kt, game, 0)
        self.xt = expert_tables(kt.rules)
        self.ew = expert if expert is not None else np.zeros(len(WEIGHTS))
        self.world_notes = notes_of(n, seen.draw_log, seen.history)
        self.notes = np.zeros_like(self.world_notes)
        self.state = np.zeros(self.world.shape[0], dtype=np.int64)  # filled by each play
        self.pool = np.array([int(c) for c in pool], dtype=np.int64)
        self.cards = np.empty(len(pool), dtype=np.int64)
        self.rest = np.empty(len(pool), dtype=np.int64)
        self.sizes = np.array([0 if s == me else seen.hand_sizes[s] for s in range(n)],
                              dtype=np.int64)
        self.need = np.zeros(max(n, len(seats) + 1), dtype=np.int64)
        self.band_seat = np.array([b[0] for b in bands], dtype=np.int64)
        self.band_count = np.array([b[1] for b in bands], dtype=np.int64)
        self.band_rows = np.zeros((len(bands), 53), dtype=np.bool_)
        for i, (_, _, row) in enumerate(bands):
            self.band_rows[i, :len(row)] = row
        self.mode = DEAL_NONE if truth is not None else (
            DEAL_WEIGHTED if probs is not None else DEAL_BANDS)
        places = len(seats) + 1
        self.probs = (np.zeros((53, places)) if probs is None
                      else np.ascontiguousarray(probs, dtype=np.float64))
        self.place_seat = np.array(seats, dtype=np.int64)
        self.place_need = np.array([seen.hand_sizes[s] for s in seats] + [seen.stock],
                                   dtype=np.int64)
        self.uniforms = np.empty(len(pool), dtype=np.float64)
        self.mass = np.empty(places, dtype=np.float64)
        self.weights = np.empty(places, dtype=np.float64)
        self.actions = np.array(actions, dtype=np.int64)
        self.tree = tree
        self.c = c
        self.policies = policies
        self.scale = scale
        self.weight = points
        self.sign = sign
        self.rs = np.zeros(1, dtype=np.int64)
        seed_generator(self.rs, seed & _SEED_MASK)
        self.buf = np.empty(k.N_ACTIONS, dtype=np.int64)
        self.script = np.empty(0, dtype=np.int64)
        self.rewards = np.zeros(n, dtype=np.float64)
        self.path = np.zeros((0, 2), dtype=np.int64)
        self.used = np.zeros(1, dtype=np.int64)
        self.nodes = np.empty((0, N_FIELDS), dtype=np.int64)
        self.node_reward = np.empty(0, dtype=np.float64)
        self.roots = np.arange(len(actions), dtype=np.int64)
        self._reserve(len(actions) * 64)
        for r in range(len(actions)):
            self.nodes[r] = (-1, -1, -1, 0, 0)
            self.node_reward[r] = 0.0
        self.used[0] = len(actions)

    def _reserve(self, more: int) -> None:
        """Room for ``more`` nodes beyond those in use (every iteration adds one at most)."""
        want = int(self.used[0]) + more
        have = self.nodes.shape[0]
        if want <= have:
            return
        size = max(want, 2 * have)
        nodes = np.empty((size, N_FIELDS), dtype=np.int64)
        nodes[:have] = self.nodes
        reward = np.empty(size, dtype=np.float64)
        reward[:have] = self.node_reward
        self.nodes, self.node_reward = nodes, reward
        self.path = np.zeros((size, 2), dtype=np.int64)  # no deeper than the nodes

    def play(self, tried: Sequence[int], worlds: int = 1) -> tuple[Float64Array, Int64Array,
                                                                  Int64Array]:
        """Sample ``worlds`` worlds and play each after the actions ``tried`` (indices into
        the legal actions); returns, a row a world and a column an action of ``tried``,
        the observer's rewards, and each seat's points and win flags (a last axis a
        seat)."""
        n_tried = len(tried)
        self._reserve(worlds * n_tried)
        picks = np.array(tried, dtype=np.int64)
        out_reward = np.empty((worlds, n_tried), dtype=np.float64)
        out_points = np.empty((worlds, n_tried, self.n), dtype=np.int64)
        out_winners = np.empty((worlds, n_tried, self.n), dtype=np.int64)
        search_worlds(self.kt.tab, self.world, self.state, self.rs, worlds, self.mode,
                      self.me, self.pool, self.cards, self.rest, self.sizes, self.need,
                      self.band_seat, self.band_count, self.band_rows, self.uniforms,
                      self.probs, self.place_seat, self.place_need, self.mass, self.weights,
                      self.actions, picks, n_tried, self.roots, self.nodes, self.node_reward,
                      self.used, self.tree, self.c, self.policies, self.buf, self.script,
                      self.path, self.scale, self.weight, self.sign, self.rewards,
                      out_reward, out_points, out_winners, self.xt, self.ew,
                      self.world_notes, self.notes)
        return out_reward, out_points, out_winners

    def decide(self, base: int, live: Int64Array, total: Float64Array, gain: Float64Array,
               gain_sq: Float64Array, count: Int64Array, done: Int64Array, iterations: int,
               prune: float, prune_after: int, prune_every: int, max_worlds: int,
               max_rollouts: int) -> None:
        """Play worlds as the search's loop does (:func:`search_decision`), from and into
        its statistics: up to ``max_worlds`` worlds and ``max_rollouts`` rollouts (-1: no
        limit) in this call."""
        self._reserve(max_worlds * len(self.actions))
        tried = np.empty(len(self.actions) + 1, dtype=np.int64)
        search_decision(self.kt.tab, self.world, self.state, self.rs, self.mode, self.me,
                        self.pool, self.cards, self.rest, self.sizes, self.need,
                        self.band_seat, self.band_count, self.band_rows, self.uniforms,
                        self.probs, self.place_seat, self.place_need, self.mass, self.weights,
                        self.actions, self.roots, self.nodes, self.node_reward, self.used,
                        self.tree, self.c, self.policies, self.buf, self.script, self.path,
                        self.scale, self.weight, self.sign, self.rewards, base, live, total,
                        gain, gain_sq, count, done, iterations, prune, prune_after,
                        prune_every, max_worlds, max_rollouts, tried, self.xt, self.ew,
                        self.world_notes, self.notes)

    def node_stats(self, root: int) -> list[tuple[int, int, int, float]]:
        """The children of root ``root`` (an index into the legal actions): action code,
        visits, availability, reward sum (for tests)."""
        out = []
        ch = int(self.nodes[root, N_CHILD])
        while ch >= 0:
            out.append((int(self.nodes[ch, N_ACTION]), int(self.nodes[ch, N_VISITS]),
                        int(self.nodes[ch, N_AVAIL]), float(self.node_reward[ch])))
            ch = int(self.nodes[ch, N_SIBLING])
        return out


def warm(kt: KernelTables, players: int, policies: Float64Array) -> None:
    """Compile (or load from numba's cache) the search's functions: one world of a fresh
    round of ``kt``'s rules, searched."""
    game = Game(kt.rules, players, seed=0)
    seen = game.observe(game.to_move)
    from collections import Counter

    pool = Counter(kt.rules.deck(players))
    pool.subtract(seen.hand)
    pool.subtract(seen.discard)
    unseen = sorted(c for c, n in pool.items() for _ in range(max(0, n)))
    legal = game.legal_actions()
    from eights.codes import action_code

    worlds = CompiledWorlds(kt, seen, [action_code(a) for a in legal], unseen,
                            policies=policies, scale=1.0)
    worlds.play(range(len(legal)), 1)
    size = len(legal)
    worlds.decide(0, np.ones(size, dtype=np.int64), np.zeros(size), np.zeros(size),
                  np.zeros(size), np.zeros(size, dtype=np.int64), np.zeros(2, dtype=np.int64),
                  4, 1.0, 16, 4, 2, -1)
