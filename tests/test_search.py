"""Search support: worlds rebuilt from an observation, sampled deals, and the ISMCTS bot."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eights import Game, load_rules, preset_names
from eights.bots import GreedyBot
from eights.expert import ExpertBot
from eights.ismcts import PRUNE_AFTER, ISMCTSBot, round_rewards
from eights.tables import tables_for
from eights.worlds import deal_consistent, known_voids, sample_world, unseen_cards

CASES = [(name, n) for name in preset_names()
         for n in range(load_rules(name).players[0], min(load_rules(name).players[1], 5) + 1)]


def position(case: tuple[str, int], seed: int, steps: int) -> Game | None:
    """A game of ``case`` (preset, players) after ``steps`` random moves; None if it ended."""
    name, n = case
    game = Game(name, n, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            return None
        game.apply(rng.choice(game.legal_actions()))
    return None if game.over else game


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CASES), st.integers(0, 2**31), st.integers(0, 300))
def test_a_world_with_the_true_cards_is_the_game(case: tuple[str, int], seed: int,
                                                 steps: int) -> None:
    game = position(case, seed, steps)
    if game is None:
        return
    seen = game.observe(game.to_move)
    world = Game.from_observation(seen, game.hands, game.stock, random.Random(0))
    assert world.to_json() == game.to_json()
    assert world.legal_actions() == game.legal_actions()
    assert world.observe(game.to_move) == seen


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(CASES), st.integers(0, 2**31), st.integers(0, 300))
def test_every_sampled_world_is_consistent_with_the_observation(
        case: tuple[str, int], seed: int, steps: int) -> None:
    game = position(case, seed, steps)
    if game is None:
        return
    seen = game.observe(game.to_move)
    voids = known_voids(seen)
    table = tables_for(game.rules)
    for k in range(3):
        world = sample_world(seen, random.Random(k), voids)
        assert deal_consistent(seen, world.hands, world.stock)
        assert world.observe(seen.seat) == seen  # the observer cannot tell the worlds apart
        pool = unseen_cards(seen)
        for seat, (suit, rank) in voids.items():
            row = table.row(suit, rank, False)
            allowed = sum(1 for c in pool if not row[c])
            if allowed >= seen.hand_sizes[seat] + sum(
                    seen.hand_sizes[s] for s in voids if s != seat):
                assert not any(row[c] for c in world.hands[seat]), (seat, voids)


def test_voids_come_from_plain_draws_where_drawing_means_no_play() -> None:
    # huit-fou: a player draws only when unable to play
    game = Game("huit-fou", 3, seed=4)
    rng = random.Random(4)
    found = False
    for _ in range(400):
        if game.over:
            break
        seat = game.to_move
        legal = game.legal_actions()
        action = rng.choice(legal)
        if str(action) == "draw" and not game.pending and not game.again:
            suit, rank = game.suit, game.rank
            game.apply(action)
            watcher = (seat + 1) % 3
            voids = known_voids(game.observe(watcher))
            if seat in voids:
                assert voids[seat] == (suit, rank)
                found = True
            continue
        game.apply(action)
    assert found
    # classic: a voluntary draw shows nothing
    classic = Game("classic", 3, seed=4)
    classic.apply("draw")
    assert known_voids(classic.observe(2)) == {}


def test_ismcts_is_deterministic_for_a_seed_and_an_iteration_budget() -> None:
    game = Game("huit-americain", 3, seed=9)
    seen = game.observe(game.to_move)
    picks = {str(ISMCTSBot(iterations=60, seed=3).choose(seen, game.legal_actions(),
                                                         random.Random(1))) for _ in range(3)}
    assert len(picks) == 1
    bot = ISMCTSBot(iterations=60)
    a = bot.choose(seen, game.legal_actions(), random.Random(5))
    b = ISMCTSBot(iterations=60).choose(seen, game.legal_actions(), random.Random(5))
    assert a is b and bot.last_iterations == 60


@pytest.mark.parametrize("tree", ["own", "all", "none"])
def test_ismcts_plays_legal_moves_with_every_tree(tree: str) -> None:
    game = Game("huit-fou", 3, seed=6)
    rng = random.Random(6)
    bot = ISMCTSBot(iterations=40, tree=tree, seed=1)
    moves = 0
    while not game.over and moves < 60:
        legal = game.legal_actions()
        seat = game.to_move
        choice = bot.choose(game.observe(seat), legal, rng) if seat == 0 else rng.choice(legal)
        assert choice in legal
        game.apply(choice)
        moves += 1


def test_ismcts_plays_each_world_after_every_action() -> None:
    # the paired root: every legal action is tried in every sampled world
    game = Game("classic", 2, seed=3)
    legal = game.legal_actions()
    bot = ISMCTSBot(iterations=100, seed=2, prune=0)
    bot.choose(game.observe(game.to_move), legal, random.Random(0))
    worlds = {w for _, w, _, _ in bot.last_stats}
    assert [a for a, *_ in bot.last_stats] == legal and len(worlds) == 1
    assert worlds.pop() * len(legal) == bot.last_iterations >= 100


def test_ismcts_stops_searching_actions_that_cannot_beat_the_prior() -> None:
    game = Game("huit-americain", 4, seed=9)
    seen = game.observe(game.to_move)
    legal = game.legal_actions()
    expert = ExpertBot().choose(seen, legal, random.Random(0))
    bot = ISMCTSBot(iterations=3000, seed=4)
    bot.choose(seen, legal, random.Random(0))
    worlds = {a: w for a, w, _, _ in bot.last_stats}
    gains = {a: g for a, _, _, g in bot.last_stats}
    assert bot.last_iterations == sum(worlds.values())
    assert all(w >= PRUNE_AFTER for w in worlds.values())
    pruned = [a for a in legal if worlds[a] < worlds[expert]]
    assert pruned, "some action was dropped before the budget was spent"
    assert all(gains[a] < 0 for a in pruned)  # dropped: behind the prior
    # without pruning every action is played in every world
    full = ISMCTSBot(iterations=3000, seed=4, prune=0)
    full.choose(seen, legal, random.Random(0))
    assert len({w for _, w, _, _ in full.last_stats}) == 1


def test_ismcts_keeps_the_prior_unless_another_action_is_clearly_better() -> None:
    game = Game("huit-americain", 4, seed=9)
    seen = game.observe(game.to_move)
    legal = game.legal_actions()
    expert = ExpertBot().choose(seen, legal, random.Random(0))
    # z huge: no action can beat the prior by that much
    assert ISMCTSBot(iterations=200, z=1e9, seed=4).choose(seen, legal, random.Random(0)) is expert
    # without a prior, the action with the best mean reward
    free = ISMCTSBot(iterations=200, prior="none", seed=4)
    pick = free.choose(seen, legal, random.Random(0))
    assert pick is max(free.last_stats, key=lambda row: row[2])[0]
    # with z = 0, any action whose paired advantage is positive beats the prior
    eager = ISMCTSBot(iterations=200, z=0, seed=4)
    pick = eager.choose(seen, legal, random.Random(0))
    gains = {a: gain for a, _, _, gain in eager.last_stats}
    assert gains[pick] == max(gains.values()) and (pick is expert or gains[pick] > 0)


def test_ismcts_finds_the_move_the_expert_misses() -> None:
    # huit-americain, 2 players, greedy play from seed 2 until this position:
    # I hold 3h 4h 4s on the 4c and the opponent has one card left. The expert
    # plays 4h, leaving 3h and 4s that do not follow each other; 4s keeps the
    # chain 4s, 4h (same rank), 3h (same suit): about 20% more rounds won.
    game = Game("huit-americain", 2, seed=2)
    greedy = GreedyBot()
    while len(game.history) < 48:
        game.apply(greedy.choose(game.observe(game.to_move), game.legal_actions(),
                                 random.Random(0)))
    seen = game.observe(game.to_move)
    legal = game.legal_actions()
    assert [str(c) for c in seen.hand] == ["3h", "4h", "4s"] and str(seen.up_card) == "4c"
    assert seen.hand_sizes[1 - seen.seat] == 1
    assert str(ExpertBot().choose(seen, legal, random.Random(0))) == "4h"
    for seed in range(3):
        bot = ISMCTSBot(iterations=600, seed=seed)
        assert str(bot.choose(seen, legal, random.Random(0))) == "4s"
        assert {str(a): g for a, _, _, g in bot.last_stats}["4s"] > 0.1


def test_ismcts_time_budget_stops_the_search() -> None:
    game = Game("classic", 4, seed=2)
    bot = ISMCTSBot(time=0.05)
    bot.choose(game.observe(game.to_move), game.legal_actions(), random.Random(0))
    assert bot.last_iterations >= 1


def test_round_rewards_favour_the_winner_and_share_team_wins() -> None:
    game = Game("les-huit", 4, seed=1)
    rng = random.Random(1)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    rewards = round_rewards(game, 100.0)
    winners = game.round_winners or []
    for s in range(4):
        others = [r for t, r in enumerate(rewards) if t not in winners]
        if s in winners and others:
            assert rewards[s] > max(others)
    if len(winners) == 2:
        assert rewards[winners[0]] == rewards[winners[1]]
    assert Counter(round(r, 9) for r in rewards)
