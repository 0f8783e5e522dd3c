"""The compiled search (:mod:`eights.fast.search`) against the engine's, its reference.

- Dealing: given the same shuffle (and the same uniforms), the compiled deal of a world is
  :func:`~eights.bots.worlds.sample_world`'s (:func:`~eights.bots.worlds.sample_weighted_world`'s)
  card for card, state for state; with its own generator, its deals keep every constraint
  and have the engine's card-by-place frequencies (chi-square).
- An iteration: from the same world, with the engine given the kernel's own generator
  (:class:`KernelRandom`, its draws and choices then the kernel's), the compiled root action,
  descent, rollout and rewards are the engine's exactly, and so is the tree they grow.
- The search: the same choices' values in distribution, and the same decisions where a
  decision is clear.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence

import numpy as np
import pytest

from eights import Game, load_rules, preset_names
from eights.bots import ExpertBot, GreedyBot, make_bot
from eights.bots.ismcts import TREE_CODES, ISMCTSBot, _Node
from eights.bots.worlds import (
    INFERENCES,
    hand_bands,
    sample_weighted_world,
    sample_world,
    unseen_cards,
)
from eights.codes import action_code
from eights.engine.observation import Observation
from eights.engine.rules import Scoring
from eights.fast import kernel as k
from eights.fast.expert import EXPERT, expert_weights
from eights.fast.search import (
    N_ACTION,
    N_AVAIL,
    N_CHILD,
    N_SIBLING,
    N_VISITS,
    CompiledWorlds,
    deal_bands,
    deal_weighted,
    play_world,
    seed_generator,
    shuffle,
)
from eights.fast.tables import KernelUnsupported, check_supported
from eights.fast.world import cached_tables, policy_epsilons, state_from_game

CASES = [(name, n) for name in preset_names()
         for n in range(load_rules(name).players[0], min(load_rules(name).players[1], 4) + 1)]


def _kernel_plays(name: str, n: int) -> bool:
    try:
        check_supported(load_rules(name), n)
    except KernelUnsupported:
        return False
    return True


def _decision(name: str, n: int, seed: int, greedy_moves: int) -> Game | None:
    """A decision with a choice, after some greedy and random moves (tells, draws)."""
    game = Game(name, n, seed=seed)
    rng = random.Random(seed)
    greedy = GreedyBot()
    moves = 0
    while not game.over:
        legal = game.legal_actions()
        if moves >= greedy_moves and len(legal) > 1:
            return game
        pick = (rng.choice(legal) if rng.random() < 0.3
                else greedy.choose(game.observe(game.to_move), legal, rng))
        game.apply(pick)
        moves += 1
    return None


def _order(seen: Observation, bands: dict[int, list[tuple[int, tuple[bool, ...]]]]
           ) -> list[tuple[int, int, tuple[bool, ...]]]:
    """The bands in the order sample_world deals them."""
    return [(seat, count, row) for _, seat, count, row in sorted(
        ((sum(row), seat, count, row) for seat, rows in bands.items() if seat != seen.seat
         for count, row in rows), reverse=True)]


def _worlds(game: Game, bands: Sequence[tuple[int, int, tuple[bool, ...]]] = (),
            probs: np.ndarray | None = None, seats: tuple[int, ...] = (),
            tree: str = "own", seed: int = 0, rollout: str = "greedy") -> CompiledWorlds:
    seen = game.observe(game.to_move)
    kt = cached_tables(game.rules)
    sign = -1.0 if game.rules.scoring in (Scoring.OWN_HAND, Scoring.PLACINGS) else 1.0
    policies = (np.full(game.n, EXPERT) if rollout == "expert"
                else policy_epsilons("greedy", game.n))
    return CompiledWorlds(kt, seen, [action_code(a) for a in game.legal_actions()],
                          unseen_cards(seen), bands=bands, probs=probs, seats=seats,
                          tree=TREE_CODES[tree], policies=policies,
                          scale=ISMCTSBot._scale(seen), points=0.25, sign=sign, seed=seed,
                          expert=expert_weights(*ExpertBot().weights()))


def _same_state(a: np.ndarray, b: np.ndarray) -> bool:
    a, b = a.copy(), b.copy()
    a[k.S_RNG] = b[k.S_RNG] = 0
    return bool(np.array_equal(a, b))


# ---------------------------------------------------------------- dealing
@pytest.mark.parametrize(("name", "n"), CASES)
def test_the_compiled_deal_is_sample_worlds_deal_for_the_same_shuffle(name: str, n: int) -> None:
    if not _kernel_plays(name, n):
        pytest.skip(f"the kernel does not play {name} with {n} players (its search is the engine's)")
    checked = 0
    for seed in range(6):
        game = _decision(name, n, seed, greedy_moves=3 + 5 * seed)
        if game is None:
            continue
        seen = game.observe(game.to_move)
        for infer in INFERENCES:
            bands = hand_bands(seen, infer)
            worlds = _worlds(game, _order(seen, bands))
            for s in range(3):
                reference = sample_world(seen, random.Random(s), bands)
                cards = unseen_cards(seen)
                random.Random(s).shuffle(cards)  # the shuffle sample_world made
                pool = np.array(cards, dtype=np.int64)
                need = worlds.sizes.copy()
                deal_bands(worlds.world, seen.seat, pool, len(cards), need, worlds.band_seat,
                           worlds.band_count, worlds.band_rows, worlds.rest)
                expected = state_from_game(worlds.kt, reference, 0)
                assert _same_state(worlds.world, expected), f"{name} {n}p seed {seed} {infer}"
                checked += 1
    assert checked


@pytest.mark.parametrize(("name", "n"), [("classic", 2), ("classic", 4), ("huit-americain", 4),
                                         ("les-huit", 4), ("uno-cards", 3)])
def test_the_compiled_weighted_deal_is_the_references_for_the_same_draws(name: str,
                                                                         n: int) -> None:
    rng = random.Random(1)
    for seed in range(4):
        game = _decision(name, n, seed, greedy_moves=4 + 3 * seed)
        assert game is not None
        seen = game.observe(game.to_move)
        seats = tuple(s for s in range(n) if s != seen.seat)
        # any probabilities: some cards nowhere likely (the fallback), some places empty
        probs = [[rng.random() if rng.random() > 0.2 else 0.0 for _ in range(n)]
                 for _ in range(53)]
        worlds = _worlds(game, probs=np.array(probs), seats=seats)
        for s in range(4):
            reference = sample_weighted_world(seen, random.Random(s), probs, seats)
            draws = random.Random(s)
            cards = unseen_cards(seen)
            draws.shuffle(cards)
            uniforms = np.array([draws.random() for _ in cards])
            need = worlds.place_need.copy()
            deal_weighted(worlds.world, seen.seat, np.array(cards, dtype=np.int64), len(cards),
                          uniforms, worlds.probs, worlds.place_seat, need, worlds.mass,
                          worlds.weights)
            assert _same_state(worlds.world, state_from_game(worlds.kt, reference, 0))


def test_the_compiled_shuffle_puts_every_card_everywhere_alike() -> None:
    rs = np.zeros(1, dtype=np.int64)
    seed_generator(rs, 12345)
    size, rounds = 8, 16000
    counts = np.zeros((size, size), dtype=np.int64)
    cards = np.arange(size, dtype=np.int64)
    for _ in range(rounds):
        cards[:] = np.arange(size)
        shuffle(rs, cards, size)
        counts[np.arange(size), cards] += 1
    expected = rounds / size
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    # (size - 1)^2 = 49 degrees of freedom: 99.9th percentile about 85.4
    assert chi2 < 85.4, chi2


def _hidden_deal(state: np.ndarray, n: int, me: int) -> tuple[list[Counter[int]], Counter[int]]:
    hands = [Counter({c: int(state[state[k.S_HANDS] + s * 53 + c]) for c in range(53)
                      if state[state[k.S_HANDS] + s * 53 + c]}) for s in range(n)]
    stock = Counter({c: int(state[state[k.S_STOCK] + c]) for c in range(53)
                     if state[state[k.S_STOCK] + c]})
    return hands, stock


@pytest.mark.parametrize(("name", "n", "seed", "moves"), [
    ("classic", 2, 3, 14), ("classic", 4, 2, 12), ("huit-americain", 4, 5, 16),
    ("crazy-eights", 3, 1, 10),
])
def test_compiled_worlds_keep_the_constraints_and_the_engines_frequencies(
        name: str, n: int, seed: int, moves: int) -> None:
    game = _decision(name, n, seed, greedy_moves=moves)
    assert game is not None
    seen = game.observe(game.to_move)
    bands = hand_bands(seen, "model")
    assert bands, "a position where the bands say something"
    worlds = _worlds(game, _order(seen, bands), seed=7)
    places = n + 1  # every hand (the observer's fixed), the stock
    pool = Counter(unseen_cards(seen))
    compiled = np.zeros((53, places), dtype=np.int64)
    engine = np.zeros((53, places), dtype=np.int64)
    samples = 1500
    rng = random.Random(7)
    tried = [0]
    for _ in range(samples):
        worlds.play(tried, 1)  # deals a world into worlds.world, then plays it
        hands, stock = _hidden_deal(worlds.world, n, seen.seat)
        assert hands[seen.seat] == Counter(int(c) for c in seen.hand)
        for s in range(n):
            assert sum(hands[s].values()) == seen.hand_sizes[s]
        assert sum(stock.values()) == seen.stock
        dealt = sum((hands[s] for s in range(n) if s != seen.seat), Counter()) + stock
        assert dealt == Counter({int(c): m for c, m in pool.items()})  # never a card seen
        for seat, rows in bands.items():  # every band met (this position leaves room)
            held = [c for c, m in hands[seat].items() for _ in range(m)]
            assert sum(1 for c in held if not rows[0][1][c]) >= min(rows[0][0], len(held))
        for s in range(n):
            for c, m in hands[s].items():
                compiled[c, s] += m
        for c, m in stock.items():
            compiled[c, n] += m
        world = sample_world(seen, rng, bands)
        for s in range(n):
            for c in world.hands[s]:
                engine[int(c), s] += 1
        for c in world.stock:
            engine[int(c), n] += 1
    # two-sample chi-square over the (card, place) cells the hidden cards can take
    chi2 = 0.0
    cells = 0
    for c in pool:
        for j in range(places):
            if j == seen.seat:
                continue
            a, b = compiled[int(c), j], engine[int(c), j]
            if a + b:
                chi2 += (a - b) ** 2 / (a + b)
                cells += 1
    dof = cells - len(pool)  # each card's row sums to the same total on both sides
    assert chi2 < dof + 4 * math.sqrt(2 * dof), (chi2, dof)


# ---------------------------------------------------------------- an iteration, exactly
class KernelRandom(random.Random):
    """The kernel's generator (splitmix64 seed, xorshift64*) behind ``random()``: the engine
    given this draws the cards and makes the choices the kernel makes from the same seed."""

    def __init__(self, seed: int) -> None:
        super().__init__(0)
        mask = (1 << 64) - 1
        z = (seed + 0x9E3779B97F4A7C15) & mask
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        self.x = z or 1

    def random(self) -> float:
        mask = (1 << 64) - 1
        x = self.x
        x ^= x >> 12
        x ^= (x << 25) & mask
        x ^= x >> 27
        self.x = x
        return (((x * 2685821657736338717) & mask) >> 11) * (1.0 / 9007199254740992.0)


def test_the_python_face_of_the_kernels_generator_is_the_kernels() -> None:
    rs = np.zeros(1, dtype=np.int64)
    state = np.zeros(k.S_SCALARS, dtype=np.int64)
    for seed in (0, 1, 2**40 + 7):
        seed_generator(rs, seed)
        k.seed_state(state, seed)
        mine = KernelRandom(seed)
        for size in (1, 2, 7, 52, 1000):
            u = mine.random()
            assert int(u * size) == k.rand_below(state, size)


Tree = dict[int, tuple[int, int, float, object]]
"""A tree as nested dicts: action code to visits, availability, reward sum, children."""


def _engine_tree(node: _Node) -> Tree:
    return {action_code(a): (ch.visits, ch.avail, ch.reward, _engine_tree(ch))
            for a, ch in node.children.items()}


def _compiled_tree(worlds: CompiledWorlds, node: int) -> Tree:
    out: Tree = {}
    ch = int(worlds.nodes[node, N_CHILD])
    while ch >= 0:
        out[int(worlds.nodes[ch, N_ACTION])] = (
            int(worlds.nodes[ch, N_VISITS]), int(worlds.nodes[ch, N_AVAIL]),
            float(worlds.node_reward[ch]), _compiled_tree(worlds, ch))
        ch = int(worlds.nodes[ch, N_SIBLING])
    return out


@pytest.mark.parametrize(("name", "n", "tree", "rollout"), [
    ("classic", 2, "own", "greedy"), ("classic", 4, "own", "greedy"),
    ("huit-americain", 4, "own", "greedy"), ("les-huit", 4, "all", "greedy"),
    ("huit-fou", 3, "own", "greedy"), ("tschau-sepp", 3, "all", "greedy"),
    ("mau-mau", 4, "none", "greedy"), ("uno-cards", 3, "own", "greedy"),
    ("pesten", 2, "own", "greedy"),
    # the expert's rollouts: its voids read from the draws of the rollout itself
    ("classic", 2, "none", "expert"), ("huit-americain", 4, "own", "expert"),
    ("les-huit", 4, "none", "expert"), ("huit-fou", 3, "none", "expert"),
    ("black-jack", 2, "none", "expert"), ("tschau-sepp", 3, "none", "expert"),
])
def test_a_compiled_iteration_is_the_engines_for_the_same_generator(
        name: str, n: int, tree: str, rollout: str) -> None:
    # the same world, the same root action, the engine given the kernel's generator: the
    # descent, the rollout, the rewards and the tree grown over 60 iterations are equal
    bot = ISMCTSBot(tree=tree, kernel="off", rollout=rollout)
    checked = 0
    for seed in range(3):
        game = _decision(name, n, seed, greedy_moves=2 + 4 * seed)
        if game is None:
            continue
        seen = game.observe(game.to_move)
        legal = game.legal_actions()
        world = sample_world(seen, random.Random(seed), hand_bands(seen))
        worlds = _worlds(game, tree=tree, rollout=rollout)
        worlds.world[:] = state_from_game(worlds.kt, world, 0)
        roots = [_Node() for _ in legal]
        rewards = np.zeros(n)
        scale = ISMCTSBot._scale(seen)
        worlds._reserve(60)
        for it in range(60):
            i = it % len(legal)
            draws = 1000 * seed + it
            mine = KernelRandom(draws)
            copy = world.clone(mine)
            copy.push(legal[i])
            outcome = bot._iterate(roots[i], copy, mine, scale, seen.seat)
            play_world(worlds.kt.tab, worlds.world, worlds.state, worlds.actions[i], draws,
                       i, worlds.nodes, worlds.node_reward, worlds.used, worlds.tree,
                       seen.seat, worlds.c, worlds.policies, worlds.buf, worlds.script,
                       worlds.path, worlds.scale, worlds.weight, worlds.sign, rewards,
                       worlds.xt, worlds.ew, worlds.world_notes, worlds.notes)
            assert rewards.tolist() == outcome.rewards, f"{name} seed {seed} iteration {it}"
            assert worlds.state[worlds.state[k.S_POINTS]:][:n].tolist() == list(outcome.points)
        for i in range(len(legal)):
            assert _compiled_tree(worlds, i) == _engine_tree(roots[i])
            assert int(worlds.nodes[i, N_VISITS]) == roots[i].visits
        checked += 1
    assert checked


# ---------------------------------------------------------------- the search
def _position(name: str, players: int, seed: int) -> Game:
    game = _decision(name, players, seed % 7, greedy_moves=2 + seed % 9)
    while game is None:  # a round over before a choice: the next seed
        seed += 100
        game = _decision(name, players, seed % 7, greedy_moves=2 + seed % 9)
    return game


@pytest.mark.parametrize(("name", "players", "options"), [
    ("classic", 2, ":rollout=greedy:tree=own"),
    ("huit-fou", 4, ":rollout=greedy:tree=own"),
    ("les-huit", 4, ":rollout=greedy:tree=all"),
    ("tschau-sepp", 3, ":rollout=greedy:tree=own"),
    ("huit-americain", 4, ":rollout=greedy:worlds=belief"),
    ("uno-cards", 3, ":rollout=greedy:epsilon=0.2:tree=none"),
    ("classic", 2, ""),  # the default: the expert plays every seat after the root
])
def test_the_compiled_search_values_the_actions_as_the_engines(name: str, players: int,
                                                               options: str) -> None:
    # the same decisions searched by both (every action in 6 worlds, no prior): the mean
    # value of the actions on the compiled search minus on the engine's, over 100
    # decisions, is within 4 standard errors of zero
    spec = f"iterations=1:prune=0:prior=none{options}"
    diffs = []
    for seed in range(100):
        game = _position(name, players, seed)
        seen, legal = game.observe(game.to_move), game.legal_actions()
        means = []
        for kernel in ("on", "off"):
            bot = make_bot(f"ismcts:{spec}:kernel={kernel}:seed={seed}")
            assert isinstance(bot, ISMCTSBot)
            evaluation = bot.evaluate(seen, legal, random.Random(0), worlds=6)
            assert bot.last_compiled is (kernel == "on")
            means.append(sum(evaluation.win(i) for i in range(len(legal))) / len(legal))
        diffs.append(means[0] - means[1])
    n = len(diffs)
    mean = sum(diffs) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    assert any(diffs)
    assert abs(mean) <= 4 * se, f"compiled - engine: {mean:.4f} (standard error {se:.4f})"


@pytest.mark.parametrize("tree", ["own", "all", "none"])
def test_the_compiled_search_is_legal_reproducible_and_within_its_budget(tree: str) -> None:
    game = Game("huit-americain", 3, seed=5)
    rng = random.Random(5)
    greedy = GreedyBot()
    picks: list[object] = []
    while not game.over and len(picks) < 6:
        legal = game.legal_actions()
        seen = game.observe(game.to_move)
        if game.to_move == 0 and len(legal) > 1:
            bot = ISMCTSBot(iterations=300, tree=tree, seed=len(picks))
            choice = bot.choose(seen, legal, rng)
            again = ISMCTSBot(iterations=300, tree=tree, seed=len(picks)).choose(
                seen, legal, random.Random(0))
            assert choice in legal and choice is again and bot.last_compiled
            assert bot.last_iterations < 300 + len(legal)  # the last world crosses the budget
            picks.append(choice)
        else:
            choice = greedy.choose(seen, legal, rng)
        game.apply(choice)
    assert picks


@pytest.mark.parametrize(("name", "players", "prior", "prune", "iterations"), [
    ("classic", 2, True, 1.0, 600), ("huit-americain", 4, True, 1.0, 1500),
    ("les-huit", 4, False, 0.0, 400), ("huit-fou", 3, True, 0.0, 300),
])
def test_the_compiled_loop_keeps_the_statistics_as_the_engines_loop(
        name: str, players: int, prior: bool, prune: float, iterations: int) -> None:
    # the loop of ISMCTSBot.choose, in Python over the same compiled worlds, against
    # search_decision (called in pieces of 7 worlds, as the clock would cut it)
    from eights.bots.ismcts import PRUNE_AFTER, PRUNE_EVERY, _bound

    for seed in range(3):
        game = _position(name, players, seed)
        seen = game.observe(game.to_move)
        bands = _order(seen, hand_bands(seen))
        size = len(game.legal_actions())
        base = seed % size if prior else -1
        python, compiled = _worlds(game, bands, seed=seed), _worlds(game, bands, seed=seed)
        total, gain, gain_sq, count = [0.0] * size, [0.0] * size, [0.0] * size, [0] * size
        live = [i for i in range(size) if i != base or not prior]
        worlds = rollouts = 0
        while live:
            if rollouts >= iterations and worlds >= 2:
                break
            tried = [base, *live] if prior else live
            row = python.play(tried, 1)[0][0].tolist()
            worlds += 1
            rollouts += len(tried)
            anchor = row[0] if prior else 0.0
            for i, value in zip(tried, row, strict=True):
                total[i] += value
                count[i] += 1
                gain[i] += value - anchor
                gain_sq[i] += (value - anchor) ** 2
            if prior and prune and worlds >= PRUNE_AFTER and worlds % PRUNE_EVERY == 0:
                live = [i for i in live if _bound(gain[i], gain_sq[i], count[i], -prune) >= 0]
        flags = np.array([int(i != base or not prior) for i in range(size)], dtype=np.int64)
        sums, gains, squares = np.zeros(size), np.zeros(size), np.zeros(size)
        counts = np.zeros(size, dtype=np.int64)
        done = np.zeros(2, dtype=np.int64)
        while True:
            before = int(done[0])
            compiled.decide(base, flags, sums, gains, squares, counts, done, iterations, prune,
                            PRUNE_AFTER, PRUNE_EVERY, 7, -1)
            if done[0] == before:
                break
        assert (int(done[0]), int(done[1])) == (worlds, rollouts)
        assert [sums.tolist(), gains.tolist(), squares.tolist()] == [total, gain, gain_sq]
        assert counts.tolist() == count
        assert [i for i in range(size) if flags[i]] == live
