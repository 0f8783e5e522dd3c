"""The kernel's step interface against the reference engine: engine games as kernel states
(:mod:`eights.fast.world`), play-outs, observations (:mod:`eights.fast.observe`), batches
of tables (:mod:`eights.fast.vector`) and the lockstep with OpenSpiel on the kernel.

Differential, like ``tests/test_fast.py`` (whose lockstep helpers these tests reuse): a
round is played by the engine with random draws and choices, then replayed from its
deck and actions; at random points the engine game becomes a kernel state, and both go
on from there with the same cards and choices.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from eights import Action, Card, Game, Rank, load_rules
from eights.bots.basic import GreedyBot
from eights.codes import O_FLAGS, observation_size, round_rewards
from eights.codes import observation as engine_observation
from eights.engine.rules import Rules
from eights.fast import FastGame, action_code
from eights.fast import kernel as k
from eights.fast.game import new_state
from eights.fast.observe import observation, observe
from eights.fast.vector import TableBatch
from eights.fast.world import (
    PlayOuts,
    cached_tables,
    play_out,
    play_out_logged,
    policy_epsilons,
    state_from_game,
)
from openspiel_bridge import os_documented_bug_points, params_to_overrides, play_lockstep
from test_fast import SUPPORTED, VARIANTS, _same_state, _seats

Int64Array = npt.NDArray[np.int64]


def _random_round(rules: Rules, players: int, seed: int) -> Game:
    """A round played to its end with random draws and random choices."""
    game = Game(rules, players, seed=seed, dealer=seed % players)
    choose = random.Random(seed)
    while not game.over:
        legal = game.legal
        game.push(legal[int(choose.random() * len(legal))])
    return game


def _short_rounds(rules: Rules, players: int, count: int) -> list[Game]:
    """The ``count`` shortest of the random rounds of seeds 0 to ``4 * count - 1`` (random
    play can go on for thousands of decisions: slow to compare step by step)."""
    rounds = [_random_round(rules, players, seed) for seed in range(4 * count)]
    return sorted(rounds, key=lambda game: len(game.history))[:count]


def _replayed(first: Game, decisions: int) -> tuple[Game, FastGame]:
    """The round of ``first`` replayed from its deck for ``decisions`` decisions, on a
    scripted engine game and on the kernel."""
    log = first.round_log()
    ref = Game(first.rules, first.n, seed=1, dealer=log.dealer, deck=log.deck)
    fast = FastGame(first.rules, first.n, seed=2, dealer=log.dealer, deck=log.deck)
    for action in log.actions[:decisions]:
        ref.push(action)
        fast.apply(action)
    return ref, fast


def _regions(st: Int64Array) -> dict[str, list[int]]:
    """A kernel state's meaning, slot by slot: every scalar but the generator and the
    script's position, every region (the stock's list as a multiset, the positions
    remembered as a set, the last card only of the seats that played one)."""
    n, deck_n = int(st[k.S_N]), int(st[k.S_DECK_N])

    def region(slot: int, size: int) -> list[int]:
        at = int(st[slot])
        return [int(x) for x in st[at:at + size]]

    out = {name: [int(st[getattr(k, name)])] for name in dir(k)
           if name.startswith("S_") and name not in ("S_SCALARS", "S_RNG", "S_SCRIPT_POS")
           and getattr(k, name) < k.S_SCALARS and name not in _OFFSETS}
    for name, size in (("S_HANDS", n * 53), ("S_HSIZE", n), ("S_HMASK", n), ("S_STOCK", 53),
                       ("S_DECK", 53), ("S_PEN", n), ("S_POINTS", n), ("S_WINNERS", n)):
        out[name] = region(getattr(k, name), size)
    out["S_STOCKL"] = sorted(region(k.S_STOCKL, int(st[k.S_STOCK_N])))
    out["S_DISC"] = region(k.S_DISC, int(st[k.S_DISC_N]))
    out["S_FIN"] = region(k.S_FIN, int(st[k.S_FIN_N]))
    out["S_REP"] = sorted(x for x in region(k.S_REP, int(st[k.S_REP_CAP])) if x)
    out["deck_n"] = [deck_n]
    return out


_OFFSETS = {"S_HANDS", "S_HSIZE", "S_STOCK", "S_DECK", "S_DISC", "S_PEN", "S_POINTS",
            "S_WINNERS", "S_REP", "S_HMASK", "S_STOCKL", "S_FIN", "S_LASTC", "S_REP_IDX"}
"""The scalar slots that hold where a region starts (compared as regions)."""


def _same_kernel_state(mine: Int64Array, replayed: Int64Array, game: Game, where: str) -> None:
    a, b = _regions(mine), _regions(replayed)
    for name in b:
        assert a[name] == b[name], f"{where}: {name}"
    played = {seat for seat, action in game.history if action.card is not None}
    last_a, last_b = int(mine[k.S_LASTC]), int(replayed[k.S_LASTC])
    for seat in played:
        assert mine[last_a + seat] == replayed[last_b + seat], f"{where}: last card of {seat}"


def _continued(ref: Game, first: Game, st: Int64Array, where: str) -> None:
    """Go on from ``ref`` (the engine, at some decision of ``first``'s round) and from
    ``st`` (the kernel state made from it) with the rest of the round's cards and choices,
    comparing them at every decision."""
    log = first.round_log()
    fast = FastGame(ref.rules, ref.n)
    fast.state = st
    fast.script = np.array([int(c) for c in log.deck[ref.dealt:]], dtype=np.int64)
    for i, action in enumerate(log.actions[len(ref.history):], start=len(ref.history)):
        _same_state(ref, fast, f"{where} decision {i}")
        assert fast.legal_actions() == ref.legal_actions(), f"{where} decision {i}"
        ref.push(action)
        fast.apply(action)
    _same_state(ref, fast, f"{where} end")
    assert fast.over and ref.over, where
    assert fast.out == ref.out == first.out, where
    assert fast.round_points == ref.round_points == first.round_points, where
    assert fast.round_winners == ref.round_winners == first.round_winners, where


@pytest.mark.parametrize("name", SUPPORTED)
def test_a_game_at_any_point_becomes_the_kernel_state_and_plays_on_alike(name: str) -> None:
    """At random points of random rounds (the deal, mid-round, the end among them) the state
    made from the engine game is the state the kernel reached replaying the same round,
    and both then play the rest of the round alike."""
    rules = load_rules(name)
    kt = cached_tables(rules)
    rand = random.Random(name)
    points = 0
    for players in _seats(rules):
        for first in _short_rounds(rules, players, 3):
            total = len(first.history)
            for at in sorted({0, total, rand.randrange(total + 1), rand.randrange(total + 1)}):
                where = f"{name} {players}p seed {first.seed} at {at}"
                ref, fast = _replayed(first, at)
                st = state_from_game(kt, ref, seed=at)
                _same_kernel_state(st, fast.state, ref, where)
                _continued(ref, first, st, where)
                points += 1
    assert points > 30


def test_the_positions_counted_carry_over_and_block_the_round_alike() -> None:
    """HF13 (``block_on_repetition``): the engine's known cycle (huit-fou, six players) made
    a kernel state two decisions before it ends blocked: the kernel counts the position a
    third time at the same decision."""
    game = Game("huit-fou", 6, seed=647)
    rng = random.Random(647)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.out is None and max(game.repeats.values()) == 3
    kt = cached_tables(game.rules)
    total = len(game.history)
    for at in (total - 2, total - 1, total // 2):
        ref, fast = _replayed(game, at)
        assert at < total // 2 + 1 or max(ref.repeats.values()) == 2
        st = state_from_game(kt, ref, seed=5)
        assert st[k.S_REP_N] == len(ref.repeats)
        _same_kernel_state(st, fast.state, ref, f"HF13 at {at}")
        _continued(ref, game, st, f"HF13 at {at}")


@pytest.mark.parametrize(("name", "overrides"), [
    ("mau-mau", ["play_on=true"]),  # MM10 with TS11: the first out's last card multiplies
    ("pesten", ["play_on=true", "scoring=placings", "cards.7.going_out=penalty"]),
    ("tschau-sepp", ["multi_play=none", "play_on=false"]),  # TS3 naming, TS9 cover
    ("huit-fou", ["hand_limit=9"]),  # HF9 overflow: penalties
    ("huit-americain", ["jokers=2"]),  # HA12: transparent jokers that draw 4
    ("crazy-eights", ["max_draws=3", "voluntary_pass=true"]),  # repeated draws
])
def test_variants_become_the_kernel_state_alike(name: str, overrides: list[str]) -> None:
    rules = load_rules(name, overrides)
    kt = cached_tables(rules)
    rand = random.Random(3)
    for players in _seats(rules):
        for first in _short_rounds(rules, players, 2):
            at = rand.randrange(len(first.history) + 1)
            ref, fast = _replayed(first, at)
            where = f"{name} {overrides} {players}p seed {first.seed}"
            st = state_from_game(kt, ref, seed=first.seed)
            _same_kernel_state(st, fast.state, ref, where)
            _continued(ref, first, st, where)


def test_a_state_buffer_is_reused_without_leftovers() -> None:
    """Writing one game's state over another's (positions remembered included) gives the
    state made afresh (but for the list of the table's used slots past its end, which
    nothing reads)."""
    rules = load_rules("huit-fou")
    kt = cached_tables(rules)
    cycle = Game(rules, 6, seed=647)
    rng = random.Random(647)
    while not cycle.over:
        cycle.apply(rng.choice(cycle.legal_actions()))
    late, _ = _replayed(cycle, len(cycle.history) - 1)
    early, _ = _replayed(cycle, 10)
    buffer = state_from_game(kt, late, seed=1)
    assert buffer[k.S_REP_N] > 0
    again = state_from_game(kt, early, seed=1, out=buffer)
    assert again is buffer
    _same_kernel_state(buffer, state_from_game(kt, early, seed=1), early, "reused")
    assert (buffer[:k.S_SCALARS] == state_from_game(kt, early, seed=1)[:k.S_SCALARS]).all()


def test_play_out_with_greedy_seats_is_the_greedy_bot_to_the_end() -> None:
    """From a random point, the engine's GreedyBots (random draws) and the kernel's
    play-out with greedy seats (the same cards, scripted) make the same choices and end
    the round alike."""
    bot = GreedyBot()
    policies_of = {players: policy_epsilons("greedy", players) for players in range(2, 9)}
    buf = np.empty(k.N_ACTIONS, dtype=np.int64)
    rounds = 0
    for name in SUPPORTED:
        rules = load_rules(name)
        kt = cached_tables(rules)
        for players in _seats(rules)[:2]:
            for first in _short_rounds(rules, players, 2):
                seed = first.seed
                at = random.Random(seed).randrange(len(first.history))
                ref, _ = _replayed(first, at)
                st = state_from_game(kt, ref, seed=seed)
                dealt = ref.dealt
                ref.reseed(seed)
                rng = random.Random(seed)
                while not ref.over:
                    ref.push(bot.choose(ref.observe(ref.to_move), ref.legal_actions(), rng))
                script = np.array([int(c) for c in ref.round_log().deck[dealt:]], dtype=np.int64)
                log = np.full(len(ref.history) - at + 1, -1, dtype=np.int64)
                decisions = play_out_logged(kt.tab, st, policies_of[players], buf, script, log)
                assert decisions == len(ref.history) - at
                assert [action_code(a) for _, a in ref.history[at:]] == log[:decisions].tolist(), (
                    f"{name} {players}p seed {seed}")
                points = int(st[k.S_POINTS])
                assert st[points:points + players].tolist() == ref.round_points
                rounds += 1
    assert rounds >= 2 * len(SUPPORTED)


def test_play_out_with_random_seats_is_the_kernels_random_policy() -> None:
    """A dealt state played out by random seats makes the generator calls of the kernel's
    own random rounds: the same decisions and points."""
    rules = load_rules("openspiel")
    kt = cached_tables(rules)
    buf = np.empty(k.N_ACTIONS, dtype=np.int64)
    script = np.empty(0, dtype=np.int64)
    for seed in range(20):
        mine = new_state(kt, 4, seed)
        k.deal(kt.tab, mine, seed % 4, script)
        decisions = play_out(kt.tab, mine, policy_epsilons("random", 4), buf, script)
        theirs = new_state(kt, 4, seed)
        assert decisions == k.random_round(kt.tab, theirs, seed % 4, script, buf)
        assert (mine == theirs).all()


def test_epsilon_greedy_seats_play_at_random_that_share_of_their_choices() -> None:
    """Each choice of an epsilon-greedy seat: a coin from the state's generator (below
    ``epsilon`` of its range: a uniform choice, else the greedy one). Replayed from Python
    with the kernel's generator, the play-out's choices are those; the coins come up
    random in ``epsilon`` of the choices (within 4.5 standard errors); seats given
    ``random`` play at random whatever ``epsilon``."""
    rules = load_rules("crazy-eights")
    kt = cached_tables(rules)
    epsilon = 0.3
    policies = policy_epsilons(["greedy", "random", "greedy"], 3, epsilon)
    assert policies.tolist() == [epsilon, 1.0, epsilon]
    buf = np.empty(k.N_ACTIONS, dtype=np.int64)
    script = np.empty(0, dtype=np.int64)
    coins = heads = 0
    for seed in range(40):
        st = new_state(kt, 3, seed)
        k.deal(kt.tab, st, 0, script)
        mirror = st.copy()
        log = np.full(4000, -1, dtype=np.int64)
        decisions = play_out_logged(kt.tab, st, policies, buf, script, log)
        expected = []
        while not mirror[k.S_OVER]:
            count = k.legal_list(kt.tab, mirror, buf)
            eps = policies[int(mirror[k.S_TO_MOVE])]
            if count == 1:
                a = int(buf[0])
            elif eps == 1.0 or k.rand_below(mirror, 1 << 53) < eps * 2.0**53:
                heads += eps < 1.0
                a = int(buf[k.rand_below(mirror, count)])
            else:
                a = int(k.greedy_choice(kt.tab, mirror, buf, count))
            coins += count > 1 and eps < 1.0
            expected.append(a)
            k.apply(kt.tab, mirror, a, script)
        assert log[:decisions].tolist() == expected
        assert (mirror == st).all()
    share_se = (epsilon * (1 - epsilon) / coins) ** 0.5
    assert coins > 500 and abs(heads / coins - epsilon) < 4.5 * share_se


def test_play_outs_play_engine_games_to_their_end_seeded() -> None:
    """:class:`PlayOuts`: the round from the game's position (which is left as it was),
    reproducible by seed, the result the state's."""
    rules = load_rules("classic")
    game = _replayed(_random_round(rules, 4, 5), 12)[0]
    before = game.to_json()
    playouts = PlayOuts(rules, 4, "greedy", epsilon=0.2)
    results = [playouts.play(game, seed) for seed in (1, 2, 1)]
    assert game.to_json() == before
    assert results[0] == results[2] and results[0] != results[1]
    for result in results:
        assert len(result.points) == 4 and result.decisions > 0 and result.winners
    st = state_from_game(cached_tables(rules), game, 1)
    decisions = play_out(playouts.kt.tab, st, policy_epsilons("greedy", 4, 0.2),
                         np.empty(k.N_ACTIONS, dtype=np.int64), np.empty(0, dtype=np.int64))
    at = int(st[k.S_POINTS])
    assert (decisions, st[at:at + 4].tolist()) == (results[0].decisions, list(results[0].points))
    with pytest.raises(ValueError, match="3 players"):
        playouts.play(Game(rules, 3), 1)


def test_tables_are_compiled_once_per_rule_set() -> None:
    rules = load_rules("classic")
    assert cached_tables(rules) is cached_tables(rules)
    assert cached_tables(load_rules("classic")) is cached_tables(rules)  # equal rules
    assert cached_tables(load_rules("classic", ["hand_limit=9"])) is not cached_tables(rules)


def test_bad_arguments_are_named() -> None:
    classic, crazy = load_rules("classic"), load_rules("crazy-eights")
    with pytest.raises(ValueError, match=r"'crazy-eights'.*'classic'"):
        state_from_game(cached_tables(classic), Game(crazy, 2), 0)
    small = state_from_game(cached_tables(classic), Game(classic, 2), 0)
    with pytest.raises(ValueError, match="3 players"):
        state_from_game(cached_tables(classic), Game(classic, 3), 0, out=small)
    uno = load_rules("uno-cards")
    with pytest.raises(ValueError, match=r"a 54-card deck, the game has 52 cards"):
        state_from_game(cached_tables(classic), Game(classic, 2), 0,
                        out=new_state(cached_tables(uno), 2, 0))
    with pytest.raises(ValueError, match="unknown policy 'clever'"):
        policy_epsilons(["greedy", "clever"], 2)
    with pytest.raises(ValueError, match="3 policies for 2 players"):
        policy_epsilons(["greedy"] * 3, 2)
    with pytest.raises(ValueError, match="between 0 and 1"):
        policy_epsilons("greedy", 2, epsilon=1.5)


def _observations_alike(first: Game, where: str, limit: int = 250) -> int:
    """Replay ``first``'s round on a scripted engine game and the kernel in lockstep; at
    every decision (the first ``limit`` of a long round) and at the end, every seat's
    observation from the kernel state is the engine's; the observations compared."""
    ref, fast = _replayed(first, 0)
    out = np.empty(observation_size(first.n), dtype=np.int32)
    compared = 0
    for i, action in enumerate([*first.round_log().actions, None]):
        for seat in range(first.n if i < limit or action is None else 0):
            observe(fast.kt.tab, fast.state, seat, out)
            assert out.tolist() == engine_observation(ref.observe(seat)), (
                f"{where} decision {i} seat {seat}")
            compared += 1
        if action is not None:
            ref.push(action)
            fast.apply(action)
    assert ref.over and fast.over
    return compared


@pytest.mark.parametrize("name", SUPPORTED)
def test_the_kernels_observations_are_the_engines(name: str) -> None:
    rules = load_rules(name)
    compared = 0
    for players in _seats(rules):
        for first in _short_rounds(rules, players, 2):
            compared += _observations_alike(first, f"{name} {players}p seed {first.seed}")
    assert compared > 300


@pytest.mark.parametrize(("name", "overrides"), VARIANTS,
                         ids=[f"{n}-{'-'.join(o)}" for n, o in VARIANTS])
def test_the_kernels_observations_are_the_engines_in_variants(name: str,
                                                             overrides: list[str]) -> None:
    rules = load_rules(name, overrides)
    for players in _seats(rules)[:2]:
        first = _short_rounds(rules, players, 1)[0]
        _observations_alike(first, f"{name} {overrides} {players}p seed {first.seed}")


def test_an_observation_names_a_missing_seat() -> None:
    game = FastGame("classic", 3, seed=1)
    assert observation(game.kt.tab, game.state, 2).shape == (observation_size(3),)
    with pytest.raises(ValueError, match="seat 3 does not exist; seats are 0 to 2"):
        observation(game.kt.tab, game.state, 3)


def _table_seed(seed: int, table: int) -> int:
    """Table ``table``'s generator seed, as :mod:`eights.fast.vector` documents it."""
    words = np.random.SeedSequence(seed).generate_state(table + 1, dtype=np.uint64)
    return int(words[table]) & (2**63 - 1)


class _Alone:
    """One table stepped alone from Python: a :class:`FastGame` seeded as the batch seeds
    it, the other seats choosing as the kernel's policies do (``greedy``: the compiled
    greedy choice; ``random``: a uniform draw from the state's generator when there is a
    choice), new rounds dealt with the dealer one seat on."""

    def __init__(self, rules: Rules, players: int, table: int, seat: int,
                 opponents: list[str], seed: int) -> None:
        self.seat = seat
        others = [s for s in range(players) if s != seat]
        self.policy = dict(zip(others, opponents * len(others) if len(opponents) == 1
                               else opponents, strict=True))
        self.game = FastGame(rules, players, seed=_table_seed(seed, table),
                             dealer=table % players)
        self.others()

    def others(self) -> None:
        g = self.game
        while not g.over and g.to_play != self.seat:
            legal = g.legal_codes()
            if len(legal) == 1:
                g.apply(legal[0])
            elif self.policy[int(g.state[k.S_TO_MOVE])] == "greedy":
                g.apply(g.greedy_action())
            else:
                g.apply(legal[k.rand_below(g.state, len(legal))])

    def new_round(self) -> None:
        g = self.game
        k.deal(g.kt.tab, g.state, (int(g.state[k.S_DEALER]) + 1) % g.n, g.script)
        self.others()
        assert not g.over  # (a round over before the seat's turn: not with these rules)


@pytest.mark.parametrize(("name", "players", "seat", "opponents", "reward"), [
    ("classic", 4, 0, ["random"], "points"),  # winner-collects
    ("huit-fou", 3, 1, ["greedy", "random"], "raw"),  # own-hand
    ("crazy-eights", 2, 1, ["greedy"], "win"),
    ("les-huit", 4, 2, ["random", "greedy", "greedy"], "points"),  # teams
    ("pesten", 3, 2, ["random"], "points"),  # rounds-won
    ("tschau-sepp", 3, 0, ["random"], "raw"),  # placings, play_on: the seat may be out
])
def test_a_batch_steps_each_table_as_it_steps_alone(name: str, players: int, seat: int,
                                                     opponents: list[str], reward: str) -> None:
    """Rewards, observations, masks and ends of a batch's tables are those of each table
    stepped alone through :class:`FastGame` with the same choices (the observations are
    the engine's: see the tests above), across the rounds that follow one another."""
    rules = load_rules(name)
    batch = 5
    tables = TableBatch(rules, players, batch, seat=seat, opponents=opponents, seed=11,
                        reward=reward)
    alone = [_Alone(rules, players, b, seat, opponents, 11) for b in range(batch)]
    chooser = random.Random(4)
    obs, mask = tables.reset()
    ended = [False] * batch
    rounds = 0
    for step in range(300):
        for b, one in enumerate(alone):
            g = one.game
            where = f"{name} step {step} table {b}"
            assert obs[b].tolist() == observation(g.kt.tab, g.state, seat).tolist(), where
            assert np.flatnonzero(mask[b]).tolist() == sorted(g.legal_codes()), where
        actions = np.array([chooser.choice(np.flatnonzero(mask[b]).tolist()) if mask[b].any()
                            else 9999 for b in range(batch)])
        obs, mask, rewards, terminated = tables.step(actions)
        for b, one in enumerate(alone):
            g = one.game
            if ended[b]:
                one.new_round()
                expected, over = 0.0, False
            else:
                g.apply(int(actions[b]))
                one.others()
                over = g.over
                expected = 0.0
                if over:
                    assert g.round_points is not None and g.round_winners is not None
                    expected = round_rewards(rules, g.round_points, g.round_winners,
                                             reward)[seat]
                    rounds += 1
            assert (rewards[b], terminated[b]) == (expected, over), f"{name} step {step} {b}"
            ended[b] = over
    assert rounds >= 10 and tables.skipped == 0


def test_batches_are_seeded_table_by_table() -> None:
    """The same seed plays the same rounds; table ``i`` plays alike in batches of any size;
    another seed plays others; ``reset(seed)`` starts the stream again."""
    def run(batch: int, seed: int, tables: TableBatch | None = None) -> list[npt.NDArray[Any]]:
        tables = tables or TableBatch("crazy-eights", 3, batch, seed=seed,
                                      opponents="greedy")
        obs, mask = tables.reset(seed)
        seen: list[npt.NDArray[Any]] = [obs.copy()]
        for _ in range(60):
            obs, mask, rewards, _ = tables.step(mask.argmax(axis=1))
            seen += [obs.copy(), rewards.copy()]
        return seen

    small, large = run(2, 7), run(5, 7)
    assert all((a == b[:2]).all() for a, b in zip(small, large, strict=True))
    assert all((a == b).all() for a, b in zip(small, run(2, 7), strict=True))
    assert not all((a == b).all() for a, b in zip(small, run(2, 8), strict=True))
    reused = TableBatch("crazy-eights", 3, 2, seed=3, opponents="greedy")
    run(2, 3, reused)
    assert all((a == b).all() for a, b in zip(small, run(2, 7, reused), strict=True))


def test_an_illegal_action_names_its_table_and_changes_nothing() -> None:
    tables = TableBatch("classic", 2, 3, seed=5)
    _, mask = tables.reset()
    before = tables.states.copy()
    actions = mask.argmax(axis=1)
    illegal = int(np.flatnonzero(~mask[1])[0])
    actions[1] = illegal
    with pytest.raises(ValueError, match=rf"table 1: action {illegal} \(.*\) is not legal now; "
                                         r"legal: \d+ \("):
        tables.step(actions)
    assert (tables.states == before).all()
    actions[1] = 10_000
    with pytest.raises(ValueError, match="table 1: action 10000 is not a code: codes are 0 to 536"):
        tables.step(actions)
    actions[1] = mask[1].argmax()
    again = TableBatch("classic", 2, 3, seed=5)
    again.reset()
    mine, theirs = tables.step(actions), again.step(actions)
    for i in range(4):
        assert np.array_equal(mine[i], theirs[i])


def test_a_round_over_starts_again_on_the_next_step() -> None:
    """NEXT_STEP autoreset: the final observation (round over) with the reward and an empty
    mask; then, whatever the action, the next round's first observation, reward 0."""
    tables = TableBatch("crazy-eights", 2, 1, seed=2, opponents="greedy", reward="win")
    obs, mask = tables.reset()
    rounds_over = 0
    for _ in range(400):
        obs, mask, rewards, terminated = tables.step(mask.argmax(axis=1))
        if terminated[0]:
            rounds_over += 1
            assert obs[0, O_FLAGS + 8] == 1 and not mask.any() and rewards[0] in (1.0, -1.0)
            obs, mask, rewards, terminated = tables.step(np.array([-1]))
            assert obs[0, O_FLAGS + 8] == 0 and mask.any()
            assert rewards[0] == 0.0 and not terminated[0]
            assert obs[0, O_FLAGS + 7] == 1  # the seat is to play
        else:
            assert rewards[0] == 0.0
    assert rounds_over >= 5


def test_bad_batch_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="batch must be a positive number"):
        TableBatch("classic", 2, 0)
    with pytest.raises(ValueError, match="seat 4 does not exist; seats are 0 to 3"):
        TableBatch("classic", 4, 2, seat=4)
    with pytest.raises(ValueError, match="2 opponent policies for 3 other seats"):
        TableBatch("classic", 4, 2, opponents=["random", "greedy"])
    with pytest.raises(ValueError, match="unknown policy 'clever'; policies: random, greedy"):
        TableBatch("classic", 2, 2, opponents="clever")
    with pytest.raises(ValueError, match="unknown reward 'money'; rewards: points, raw, win"):
        TableBatch("classic", 2, 2, reward="money")
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        TableBatch("classic", 2, 2, seed=-1)
    tables = TableBatch("classic", 2, 2)
    with pytest.raises(RuntimeError, match=r"reset\(\) before step"):
        tables.step(np.zeros(2, dtype=np.int64))
    tables.reset()
    with pytest.raises(ValueError, match=r"2 integer codes \(one a table\)"):
        tables.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(ValueError, match="integer codes"):
        tables.step(np.zeros(2))


def test_a_round_outgrowing_the_record_of_positions_stops_the_batch_loudly() -> None:
    """huit-fou with six players counts positions (HF13) in most rounds: with room for 7
    the batch soon stops, saying what to do, and steps no more until reset."""
    tables = TableBatch("huit-fou", 6, 4, seed=1, repeat_capacity=8)
    _, mask = tables.reset()
    with pytest.raises(ValueError, match=r"repeat capacity.*call reset\(\), with a larger "
                                         r"TableBatch\(repeat_capacity=...\)"):
        for _ in range(5000):
            _, mask, _, _ = tables.step(mask.argmax(axis=1))
    with pytest.raises(RuntimeError, match="reset"):
        tables.step(mask.argmax(axis=1))
    assert tables.states.shape[1] < TableBatch("huit-fou", 6, 1).states.shape[1]


class _KernelSide:
    """The kernel (:class:`FastGame`) as the OpenSpiel bridge's side of the lockstep; the
    cards it deals and draws, in the order they leave the stock, read back from the hands
    (the deal round the table from the dealer's left, then the starter; after each action
    what each hand gained, the cards of the stock before the action first: after those
    the discard pile was turned into a new stock, HA5). A starter put back (HA2) is not
    seen: for OpenSpiel it is as if the card turned were the one that stays."""

    def __init__(self, rules: Rules, players: int, *, seed: int, dealer: int) -> None:
        self.game = FastGame(rules, players, seed=seed, dealer=dealer)
        dealt = [self.game.hand(s) for s in range(players)]
        self.deck: list[Card] = []
        for i in range(rules.hand_size_for(players) * players):
            self.deck.append(dealt[(dealer + 1 + i) % players].pop())
        self.deck.append(self.game.discard()[0])

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def to_play(self) -> int | None:
        return self.game.to_play

    @property
    def round_points(self) -> list[int] | None:
        return self.game.round_points

    @property
    def hands(self) -> list[list[Card]]:
        return [self.game.hand(s) for s in range(self.game.n)]

    def legal_actions(self) -> list[Action]:
        return self.game.legal_actions()

    def apply(self, action: Action) -> None:
        seat = self.game.to_play
        before = [Counter(h) for h in self.hands]
        if action.card is not None:
            assert seat is not None
            before[seat] -= Counter(action.cards)
        stock = self.game.stock()
        self.game.apply(action)
        for s, hand in sorted(enumerate(self.hands), key=lambda sh: sh[0] != seat):
            got = Counter(hand) - before[s]
            first = got & stock  # drawn before the stock ran out and the pile was turned
            self.deck += sorted(first.elements()) + sorted((got - first).elements())
            stock -= first

    def round_log(self) -> _KernelSide:
        return self


@pytest.mark.parametrize("params", [
    {"players": p, "max_draw_cards": d, "use_special_cards": s, "reshuffle": r, "max_turns": t}
    for p in (2, 3, 4, 5, 6, 7)
    for d, s, r, t in ((1, False, False, 100), (5, True, True, 100), (2, True, False, 20))
], ids=lambda p: "-".join(str(v) for v in p.values()))
def test_the_kernel_plays_in_lockstep_with_openspiel(params: dict[str, Any]) -> None:
    """``tests/openspiel_bridge.py``'s lockstep with pyspiel's ``crazy_eights``, the kernel
    on our side: the same legal actions at every decision, the same end; pyspiel's
    returns by its documented scoring bug, our points by face value."""
    rules = load_rules("openspiel", params_to_overrides(params))
    for seed in range(6):
        outcome = play_lockstep(params, seed, engine=_KernelSide)
        assert outcome.decisions > 0
        assert outcome.os_returns == [-float(os_documented_bug_points(h))
                                      for h in outcome.final_hands]
        assert outcome.our_points == [sum(rules.points[Rank(c >> 2)] for c in h)
                                      for h in outcome.final_hands]


@pytest.mark.parametrize("name", ["classic", "huit-fou", "tschau-sepp", "pesten"])
def test_sampled_worlds_become_kernel_states_that_play_on_alike(name: str) -> None:
    """ISMCTS's worlds (:func:`eights.bots.worlds.sample_world`, games rebuilt from an
    observation) made kernel states go on alike with the world's own draws and the
    rollout's choices (greedy, one in four at random)."""
    from eights.bots.ismcts import greedy_action
    from eights.bots.worlds import sample_world

    rules = load_rules(name)
    kt = cached_tables(rules)
    rng = random.Random(name)
    worlds = 0
    for first in _short_rounds(rules, 3, 2):
        for at in range(0, len(first.history), 4):
            ref, _ = _replayed(first, at)
            world = sample_world(ref.observe(ref.to_move), rng)
            st = state_from_game(kt, world, seed=at)
            ended = world.clone(random.Random(at))
            while not ended.over:
                legal = ended.legal_actions()
                ended.push(rng.choice(legal) if rng.random() < 0.25
                           else greedy_action(ended, legal))
            # the engine goes on drawing as the round did (the same generator)
            _continued(world.clone(random.Random(at)), ended, st, f"{name} at {at}")
            worlds += 1
    assert worlds > 10
