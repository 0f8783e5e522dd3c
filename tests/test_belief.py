"""The belief model: shipped weights, probabilities that meet the hard constraints,
worlds dealt from them, and training (deterministic, better than a uniform guess)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from eights import Game, load_rules, preset_names
from eights.bots import make_bot
from eights.bots.belief import MODELS, BeliefModel, features, shipped, shipped_for
from eights.bots.worlds import deal_consistent, sample_weighted_world, unseen_cards
from eights.engine.observation import Observation

SEED_PRESETS = ("classic", "huit-americain", "les-huit", "huit-fou")
SHIPPED = [(p, n) for n in (2, 4) for p in SEED_PRESETS]


def observations(rules: str, players: int, seed: int, every: int = 3) -> list[Observation]:
    """Observations of the seat to play at decisions of a seeded round between experts."""
    game = Game(rules, players, seed=seed)
    bot, rng = make_bot("expert"), random.Random(seed)
    out: list[Observation] = []
    while not game.over:
        seen = game.observe(game.to_move)
        if len(game.legal) > 1 and len(out) < 200 and rng.random() < 1 / every:
            out.append(seen)
        game.apply(bot.choose(seen, game.legal_actions(), rng))
    return out


def test_a_model_ships_for_every_seed_preset_at_two_and_four_players_with_its_card() -> None:
    found = {p.name for p in MODELS.glob("belief-*.npz")}
    assert {f"belief-{p}-{n}p.npz" for p, n in SHIPPED} <= found
    for rules, players in SHIPPED:
        model = shipped(rules, players)
        assert (model.rules, model.players) == (rules, players)
        for key in ("command", "seed", "games", "decisions", "wall_seconds"):
            assert key in model.meta, (rules, players, key)
        assert f"--rules {rules}" in model.meta["command"]


def test_a_table_without_its_own_model_gets_the_family_model() -> None:
    family = shipped("pesten", 3)
    assert (family.rules, family.players) == ("family", 0)
    assert "--family" in family.meta["command"]
    assert shipped_for(load_rules("classic", ["target=20"]), 2) is family
    assert shipped_for(load_rules("classic"), 2).rules == "classic"
    seen = observations("pesten", 3, seed=1)[0]
    p, f = family.marginals(seen)
    assert np.allclose(p.sum(axis=1), f.copies)


@pytest.mark.parametrize(("rules", "players"), SHIPPED)
def test_probabilities_are_a_distribution_per_card_that_meets_the_sizes(
        rules: str, players: int) -> None:
    model = shipped(rules, players)
    for seed in (1, 2):
        for seen in observations(rules, players, seed):
            p, f = model.marginals(seen)
            unseen = np.zeros(53)
            for c in unseen_cards(seen):
                unseen[c] += 1
            assert np.array_equal(f.copies, unseen)
            assert (p >= 0).all()
            np.testing.assert_allclose(p.sum(axis=1), unseen, atol=1e-9)  # each card: its copies
            sizes = [seen.hand_sizes[s] for s in f.seats] + [seen.stock]
            np.testing.assert_allclose(p.sum(axis=0), sizes, atol=0.05)  # each place: its size
            assert (p[:, np.array(sizes) == 0] == 0).all()
            probs, seats = model.deal_probs(seen)
            assert seats == f.seats and sorted(seats + (seen.seat,)) == list(range(players))
            for code in range(53):
                assert sum(probs[code]) == pytest.approx(1.0 if unseen[code] else 0.0)


@pytest.mark.parametrize("rules", preset_names())
@pytest.mark.parametrize("players", [2, 3, 4])
def test_worlds_dealt_from_any_probabilities_are_consistent(rules: str, players: int) -> None:
    rng = random.Random(players)
    for seen in observations(rules, players, seed=players, every=4)[:8]:
        places = players
        seats = tuple((seen.seat + 1 + i) % players for i in range(players - 1))
        lopsided = [[1.0] + [0.0] * (places - 1) for _ in range(53)]  # all in one hand
        noisy = [[rng.random() for _ in range(places)] for _ in range(53)]
        for probs in (lopsided, noisy):
            world = sample_weighted_world(seen, rng, probs, seats)
            assert deal_consistent(seen, world.hands, world.stock)
            assert world.observe(seen.seat) == seen


@pytest.mark.parametrize(("rules", "players"), SHIPPED)
def test_search_with_belief_worlds_plays_legal_moves(rules: str, players: int) -> None:
    bot = make_bot("ismcts:iterations=20:worlds=belief")
    game = Game(rules, players, seed=5)
    rng = random.Random(5)
    model = shipped(rules, players)
    for _ in range(40):  # decisions enough to see draws, wild cards and forced draws
        if game.over:
            break
        seen = game.observe(game.to_move)
        if len(game.legal) > 1:
            probs, seats = model.deal_probs(seen)
            world = sample_weighted_world(seen, rng, probs, seats)
            assert deal_consistent(seen, world.hands, world.stock)
        action = bot.choose(seen, game.legal_actions(), rng)
        assert action in game.legal
        game.apply(action)


def test_belief_options_are_checked() -> None:
    with pytest.raises(ValueError, match="worlds must be bands or belief"):
        make_bot("ismcts:worlds=oracle")
    with pytest.raises(ValueError, match="belief=PATH is the model of worlds=belief"):
        make_bot("ismcts:belief=model.npz")
    with pytest.raises(ValueError, match="not a belief model"):
        make_bot("ismcts:worlds=belief:belief=/nonexistent.npz")
    path = MODELS / "belief-classic-2p.npz"
    bot = make_bot(f"ismcts:iterations=10:worlds=belief:belief={path}")
    seen = next(s for s in observations("huit-fou", 2, 1, every=1) if len(s.legal) > 1)
    with pytest.raises(ValueError, match="model is for classic with 2 players, not huit-fou"):
        bot.choose(seen, seen.legal, random.Random(1))


def test_a_model_round_trips_through_its_file(tmp_path: object) -> None:
    model = shipped("classic", 2)
    path = f"{tmp_path}/copy.npz"
    model.save(path)
    again = BeliefModel.load(path)
    seen = observations("classic", 2, 3)[0]
    assert again.meta == model.meta
    np.testing.assert_array_equal(again.marginals(seen)[0], model.marginals(seen)[0])


def test_features_read_the_tells_of_a_seat_that_drew() -> None:
    # classic-like rules where only a player unable to play may draw: the drawer lacked
    # every card of the target, so those cards carry its ``draw`` tell
    for seen in observations("huit-fou", 2, 4, every=1):
        drawn = [t for t in seen.tells if t.seat != seen.seat and t.kind == "draw"]
        if drawn and seen.hand_sizes[drawn[-1].seat]:
            f = features(seen)
            i = f.seats.index(drawn[-1].seat)
            assert f.pair[:, i, 0].max() > 0
            assert (f.pair[:, -1, :] == 0).all()  # the stock has no tells
            return
    pytest.fail("no draw tell in the round")


def test_training_is_deterministic_for_a_seed() -> None:
    pytest.importorskip("torch", reason="training needs the [train] extra (torch)")
    from eights.learn.belief import collect, train

    rules = load_rules("classic")
    runs = []
    for _ in range(2):
        data = collect(rules, 2, games=12, seed=3)
        runs.append(train(data, epochs=2, seed=3))
    for (w1, b1), (w2, b2) in zip(runs[0].layers, runs[1].layers, strict=True):
        np.testing.assert_array_equal(w1, w2)
        np.testing.assert_array_equal(b1, b2)
    other = train(collect(rules, 2, games=12, seed=3), epochs=2, seed=4)
    assert not np.array_equal(other.layers[0][0], runs[0].layers[0][0])


def test_a_tiny_model_beats_a_uniform_guess_on_held_out_deals() -> None:
    pytest.importorskip("torch", reason="training needs the [train] extra (torch)")
    from eights.learn.belief import _mean_loss, _uniform, collect, log_loss, train

    rules = load_rules("huit-fou")
    model = train(collect(rules, 2, games=120, seed=5), epochs=4, seed=5)
    held_out = collect(rules, 2, games=30, seed=5, tag="eval", observations=True)
    uniform = _mean_loss(held_out, _uniform(held_out))
    assert log_loss(model, held_out) < uniform - 0.005
