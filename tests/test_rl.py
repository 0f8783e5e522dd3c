"""The PettingZoo and Gymnasium environments (eights.rl): PettingZoo's api_test and seed_test
and Gymnasium's check_env on every preset; observations, masks and rewards are the codes of
the engine's game; seeding, illegal actions, matches, rendering and the option errors."""

from __future__ import annotations

import doctest
import pickle
import re
import runpy
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pettingzoo
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from eights import Game, IllegalActionError, RulesError, codes, preset_names
from eights.rl import EightsEnv, EightsVectorEnv, env, raw_env
from eights.rl.table import NO_BOUND

ROOT = Path(__file__).resolve().parent.parent
PRESETS = preset_names()
DICT_WARNINGS = ("Observation space for each agent probably should be",
                 "Observation is not a NumPy array")
"""api_test's warnings for a Dict observation outside PettingZoo's own list of such envs."""


def pick(rng: np.random.Generator, mask: Any) -> int:
    """A random legal code, a card played nine times in ten when one may be (random
    play draws a lot: rounds of mau-mau would last thousands of moves)."""
    legal = np.flatnonzero(mask)
    plays = legal[(legal < codes.A_DRAW) | (legal >= codes.A_MULTI)]
    return int(rng.choice(plays if len(plays) and rng.random() < 0.9 else legal))


def random_steps(table: Any, seed: int) -> Iterator[tuple[str, dict[str, Any], float, bool]]:
    """Play :func:`pick` codes to the end of the episode, yielding what each ``last()``
    gave (agent, observation, reward, terminated)."""
    rng = np.random.default_rng(seed)
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, _ = table.last()
        yield agent, obs, reward, terminated
        table.step(None if terminated or truncated else pick(rng, obs["action_mask"]))


# ---------------------------------------------------------------- PettingZoo's own tests

@pytest.mark.parametrize("preset", PRESETS)
def test_api_test_and_seed_test(preset: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for message in DICT_WARNINGS:
            warnings.filterwarnings("ignore", message=message)
        api_test(env(preset), num_cycles=100)
        seed_test(lambda: env(preset), num_cycles=100)


def test_pettingzoo_registry() -> None:
    assert pettingzoo.__version__ >= "1.27"  # the first with a registry: update this test
    made = pettingzoo.make("aec", "eights/Eights-v0", rules="classic", players=3)
    made.reset(seed=1)
    assert made.possible_agents == ["player_0", "player_1", "player_2"]
    assert made.unwrapped.table.rules.name == "classic"


# ---------------------------------------------------------------- observations, masks, rewards

@pytest.mark.parametrize("preset", PRESETS)
def test_observations_and_masks_are_the_games(preset: str) -> None:
    table = raw_env(preset)
    table.reset(seed=7)
    game = table.table.game
    assert game is not None
    limit = codes.action_count(game.rules, game.n)
    for agent, obs, _, terminated in random_steps(table, 7):
        seat = table.agent_name_mapping[agent]
        assert obs["observation"].tolist() == codes.observation(game.observe(seat))
        mask = obs["action_mask"]
        assert mask.shape == (limit,) and mask.dtype == np.int8
        if terminated:
            assert game.over and not mask.any()
            continue
        assert game.to_play == seat
        assert set(np.flatnonzero(mask)) == {codes.action_code(a) for a in game.legal}
        for other in table.agents:  # the others see their own view, and no legal code
            if other != agent:
                seen = table.observe(other)
                assert not seen["action_mask"].any()
                assert seen["observation"].tolist() == codes.observation(
                    game.observe(table.agent_name_mapping[other]))
    assert game.over


@pytest.mark.parametrize(("preset", "reward"), [(p, r) for p in PRESETS for r in codes.REWARDS])
def test_rewards_come_at_the_end_of_the_round(preset: str, reward: str) -> None:
    table = raw_env(preset, reward=reward)
    table.reset(seed=11)
    game = table.table.game
    assert game is not None
    got: dict[str, float] = {}
    for agent, _, r, terminated in random_steps(table, 11):
        if terminated:
            got[agent] = r
        else:
            assert r == 0  # nothing before the round is over
    expected = codes.round_rewards(game.rules, game.round_points or (), game.round_winners or (),
                                   reward)
    assert [got[a] for a in table.possible_agents] == pytest.approx(expected)
    if reward == "points":
        assert sum(got.values()) == pytest.approx(0)  # zero-sum, whatever the scoring


def test_partners_share_their_team_reward_in_les_huit() -> None:
    for seed in range(5):
        table = raw_env("les-huit", players=4)
        table.reset(seed=seed)
        final = {a: r for a, _, r, t in random_steps(table, seed) if t}
        assert final["player_0"] == final["player_2"] == -final["player_1"] == -final["player_3"]
        assert final["player_0"] != 0 or table.table.live.round_points == [0, 0, 0, 0]


def test_a_match_gives_a_reward_every_round() -> None:
    table = raw_env("classic", players=3, episode="match", overrides=["rounds=3", "target=0"])
    table.reset(seed=2)
    game = table.table.live
    totals = dict.fromkeys(table.possible_agents, 0.0)
    rounds_seen: set[int] = set()
    for agent, _, r, _ in random_steps(table, 2):
        totals[agent] += r
        rounds_seen.add(game.round)
    assert game.match_over and rounds_seen == {1, 2, 3}
    # the points reward is zero-sum each round, so over the match; the scores are the sums
    assert sum(totals.values()) == pytest.approx(0)
    mean = sum(game.scores) / 3
    assert [totals[a] for a in table.possible_agents] == pytest.approx(
        [s - mean for s in game.scores])


# ---------------------------------------------------------------- seeding

def test_the_same_seed_deals_the_same_game() -> None:
    one, two = raw_env("huit-americain", 3), raw_env("huit-americain", 3)
    one.reset(seed=5)
    two.reset(seed=99)
    two.reset(seed=5)
    a, b = one.table.live, two.table.live
    assert (a.seed, a.dealer) == (b.seed, b.dealer)
    assert [a.hand(s) for s in range(3)] == [b.hand(s) for s in range(3)]
    # the game is an engine game of that seed and dealer: replayable without the env
    again = Game("huit-americain", 3, seed=a.seed, dealer=a.dealer)
    assert [again.hand(s) for s in range(3)] == [a.hand(s) for s in range(3)]
    # the next deals follow from the seed too, and differ
    one.reset()
    two.reset()
    assert one.table.live.seed == two.table.live.seed != a.seed


def test_a_fixed_dealer() -> None:
    table = raw_env("classic", 4, dealer=2)
    for seed in range(3):
        table.reset(seed=seed)
        assert table.table.live.dealer == 2
    dealers = set()
    table = raw_env("classic", 4)
    for seed in range(12):
        table.reset(seed=seed)
        dealers.add(table.table.live.dealer)
    assert len(dealers) > 1


def test_pettingzoo_and_gymnasium_deal_alike() -> None:
    aec = raw_env("crazy-eights", 3)
    aec.reset(seed=8)
    single = EightsEnv("crazy-eights", 3, dealer=0)
    single.reset(seed=8)
    aec_game, gym_game = aec.table.live, single.table.live
    assert aec_game.seed == gym_game.seed
    assert [aec_game.hand(s) for s in range(3)] == [Game("crazy-eights", 3, seed=gym_game.seed,
                                                         dealer=0).hand(s) for s in range(3)]


# ---------------------------------------------------------------- illegal actions, errors

def illegal_code(table: Any) -> int:
    mask = table.observe(table.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


def test_raw_env_raises_on_an_illegal_code_and_changes_nothing() -> None:
    table = raw_env("huit-fou")
    table.reset(seed=4)
    agent = table.agent_selection
    before = table.observe(agent)
    bad = illegal_code(table)
    with pytest.raises(IllegalActionError, match=f"action {bad} .* is not legal for {agent} now; "
                                                 "legal: "):
        table.step(bad)
    assert table.agent_selection == agent
    after = table.observe(agent)
    assert all(np.array_equal(before[k], after[k]) for k in before)
    with pytest.raises(ValueError, match=r"a whole number from 0 to 536"):
        table.step(537)
    with pytest.raises(ValueError, match="not an action code"):
        table.step("7h")


def test_env_ends_the_episode_on_an_illegal_code() -> None:
    table = env("huit-fou")
    table.reset(seed=4)
    offender = table.agent_selection
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns of the illegal move
        table.step(illegal_code(table))
    assert all(table.terminations.values())
    finals = {}
    for agent in table.agent_iter():
        _, reward, terminated, _, _ = table.last()
        assert terminated
        finals[agent] = reward
        table.step(None)
    assert finals == {a: (-1.0 if a == offender else 0.0) for a in table.possible_agents}


def test_env_without_the_illegal_wrapper_raises() -> None:
    table = env("classic", illegal_reward=None)
    table.reset(seed=1)
    with pytest.raises(IllegalActionError):
        table.step(illegal_code(table))


@pytest.mark.parametrize(("options", "message"), [
    ({"reward": "score"}, "unknown reward 'score'; rewards: points, raw, win"),
    ({"episode": "game"}, "unknown episode 'game'; episodes: round, match"),
    ({"dealer": 4}, "dealer 4 is not a seat; seats are 0 to 3"),
    ({"render_mode": "depth_array"},
     "unknown render_mode 'depth_array'; render modes: ansi, human, rgb_array or None"),
    ({"players": 9}, "huit-fou is played by 2 to 6 players, not 9"),
    ({"rules": "no-such-game"}, "no-such-game"),
    ({"overrides": ["hand_size=zero"]}, "hand_size"),
])
def test_bad_options_say_what_is_allowed(options: dict[str, Any], message: str) -> None:
    kwargs = {"rules": "huit-fou", "players": 4, **options}
    with pytest.raises((ValueError, RulesError), match=message):
        raw_env(**kwargs)
    with pytest.raises((ValueError, RulesError), match=message):
        EightsEnv(**kwargs)


def test_a_match_that_never_ends_is_refused() -> None:
    with pytest.raises(ValueError, match="episode='match' needs a match that ends"):
        raw_env("classic", episode="match", overrides=["target=0", "rounds=0"])


# ---------------------------------------------------------------- rendering

def test_render_ansi_shows_the_table_in_words() -> None:
    table = raw_env("classic", 3, render_mode="ansi")
    table.reset(seed=3)
    text = table.render()
    assert isinstance(text, str)
    game = table.table.live
    assert text.splitlines()[0] == f"{game.rules.title}: round 1, player_{game.dealer} deals"
    assert "Up-card: " in text and "Stock: " in text
    for seat in range(3):
        assert f"player_{seat}: " + " ".join(str(c) for c in game.hand(seat)) in text
    for _ in random_steps(table, 3):
        pass
    assert "Round 1 is over" in (table.render() or "")


def test_render_human_prints(capsys: pytest.CaptureFixture[str]) -> None:
    table = raw_env("classic", 2, render_mode="human")
    table.reset(seed=3)
    table.step(int(np.flatnonzero(table.observe(table.agent_selection)["action_mask"])[0]))
    assert "Up-card: " in capsys.readouterr().out


# ---------------------------------------------------------------- Gymnasium

@pytest.mark.parametrize("preset", PRESETS)
def test_check_env(preset: str) -> None:
    made = gymnasium.make("eights/Eights-v0", rules=preset, opponents="greedy,random")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(made.unwrapped)


def test_the_gymnasium_observation_space() -> None:
    single = EightsEnv("uno-cards", 3)
    space = single.observation_space
    assert isinstance(space, gymnasium.spaces.Dict)
    box = space["observation"]
    assert isinstance(box, gymnasium.spaces.Box)
    assert box.shape == (codes.observation_size(3),) and box.dtype == np.int32
    assert box.high[codes.O_HAND] == 2  # two jokers: at most 2 copies of a card code
    assert box.high[codes.O_TOP] == 1
    assert box.high[codes.O_COUNTS + 1] == 54  # the stock holds at most the deck
    assert box.high[codes.O_COUNTS + 4] == NO_BOUND  # plays: no bound
    assert (box.high > 0).all() and (box.low == 0).all()
    two_decks = EightsEnv("huit-americain", 6).table.observation_space["observation"]
    assert isinstance(two_decks, gymnasium.spaces.Box)
    assert two_decks.high[codes.O_DISCARD + 51] == 2 and two_decks.high[codes.O_SEATS] == 104


@pytest.mark.parametrize("preset", ["huit-americain", "les-huit", "switch", "tschau-sepp"])
def test_an_episode_of_the_gymnasium_env(preset: str) -> None:
    single = EightsEnv(preset, seat=1, opponents="expert,greedy,random")
    obs, info = single.reset(seed=3)
    game = single.table.live
    total, steps, terminated = 0.0, 0, False
    rng = np.random.default_rng(3)
    while not terminated:
        assert game.to_play == 1  # the learner is asked only for its own decisions
        assert obs["observation"].tolist() == codes.observation(game.observe(1))
        mask = single.action_masks()
        assert np.array_equal(mask, obs["action_mask"].astype(bool))
        assert set(np.flatnonzero(mask)) == {codes.action_code(a) for a in game.legal}
        obs, reward, terminated, truncated, info = single.step(pick(rng, mask))
        assert not truncated
        total += reward
        steps += 1
    assert game.over and not obs["action_mask"].any() and not single.action_masks().any()
    rewards = codes.round_rewards(game.rules, game.round_points or (), game.round_winners or ())
    assert total == pytest.approx(rewards[1])
    assert info == {"round_points": game.round_points, "round_winners": game.round_winners}
    seats = {seat for seat, _ in game.history}
    assert 1 in seats and seats - {1}  # the bots played too
    with pytest.raises(RuntimeError, match="call reset"):
        single.step(0)


def test_gymnasium_seeding_repeats_the_bots_choices() -> None:
    def history(seed: int) -> list[str]:
        single = EightsEnv("classic", 4, opponents="random")
        obs, _ = single.reset(seed=seed)
        done = False
        while not done:
            obs, _, done, _, _ = single.step(int(np.flatnonzero(obs["action_mask"])[0]))
        return [f"{s}:{a}" for s, a in single.table.live.history]

    assert history(4) == history(4) != history(5)


def test_gymnasium_illegal_codes() -> None:
    single = EightsEnv("classic", 3)
    obs, _ = single.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = single.step(bad)
    assert (reward, terminated, truncated, info) == (-1.0, True, False, {"illegal_action": bad})
    strict = EightsEnv("classic", 3, illegal_reward=None)
    strict.reset(seed=0)
    with pytest.raises(IllegalActionError, match=f"action {bad} "):
        strict.step(bad)
    with pytest.raises(ValueError, match="a whole number from 0 to 536"):
        strict.step(-1)


@pytest.mark.parametrize(("opponents", "message"), [
    ("greedy,dummy", "opponents: unknown bot 'dummy'; bots are expert, greedy, ismcts, learned, random"),
    ("expert:depth=2", "opponents: bot 'expert' has no option 'depth'"),
    ("greedy,,random", "needs bot specs separated by commas"),
    ("", "needs bot specs separated by commas"),
    ("random,random,random,random", r"4 opponents \(random, random, random, random\) for 3 "
                                    "other seats: give at most 3"),
])
def test_opponent_specs_are_checked(opponents: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        EightsEnv("classic", 4, opponents=opponents)


def test_opponents_as_a_list_and_the_seat() -> None:
    single = EightsEnv("classic", 3, seat=2, opponents=["expert", "greedy"])
    assert {s: b.name for s, b in single.bots.items()} == {0: "expert", 1: "greedy"}
    with pytest.raises(ValueError, match="seat 3 is not a seat; seats are 0 to 2"):
        EightsEnv("classic", 3, seat=3)


def test_a_gymnasium_match() -> None:
    single = EightsEnv("classic", 3, episode="match", opponents="greedy",
                       overrides=["rounds=3", "target=0"])
    obs, _ = single.reset(seed=6)
    total, done = 0.0, False
    while not done:
        obs, reward, done, _, _ = single.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        total += reward
    game = single.table.live
    assert game.match_over and game.round == 3
    assert total == pytest.approx(game.scores[0] - sum(game.scores) / 3)


def first_seed(seed: int) -> int:
    """The engine seed of the first deal after ``reset(seed=seed)``."""
    return int(gymnasium.utils.seeding.np_random(seed)[0].integers(2**63))


def test_a_round_over_before_the_learners_first_decision_is_dealt_again() -> None:
    # one card each, the bot first: it goes out at once whenever its card plays
    single = EightsEnv("classic", 2, seat=0, dealer=0, opponents="greedy",
                       overrides=["hand_size=1"])
    redealt = 0
    for seed in range(12):
        obs, _ = single.reset(seed=seed)
        game = single.table.live
        assert game.to_play == 0 and not game.over and obs["action_mask"].any()
        redealt += game.seed != first_seed(seed)
    assert redealt > 0


def test_in_a_match_a_round_over_before_the_learners_decision_still_counts() -> None:
    single = EightsEnv("classic", 2, seat=0, dealer=0, opponents="greedy", episode="match",
                       overrides=["hand_size=1", "rounds=6", "target=0"])
    carried = 0
    for seed in range(6):
        obs, _ = single.reset(seed=seed)
        game = single.table.live
        carried += game.round > 1  # a round ended before the learner's first decision
        total, done = 0.0, False
        while not done:
            obs, reward, done, _, _ = single.step(int(np.flatnonzero(obs["action_mask"])[0]))
            total += reward
        assert game.round == 6
        assert total == pytest.approx(game.scores[0] - sum(game.scores) / 2)
    assert carried > 0


def test_gymnasiums_own_vector_envs_batch_the_dict_observation() -> None:
    envs = gymnasium.make_vec("eights/Eights-v0", num_envs=3, vectorization_mode="sync",
                              rules="crazy-eights", players=3)
    obs, _ = envs.reset(seed=0)
    assert obs["observation"].shape == (3, codes.observation_size(3))
    assert obs["action_mask"].shape == (3, 537)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200):
        # a sub-env that has just ended shows an empty mask: Gymnasium resets it on this
        # step (autoreset, next step) and ignores its action
        actions = np.array([pick(rng, mask) if mask.any() else 0 for mask in obs["action_mask"]])
        obs, _, terminated, _, _ = envs.step(actions)
        ended += int(terminated.sum())
    assert ended > 0
    envs.close()


def test_the_environments_pickle() -> None:
    table = env("classic", 3)
    table.reset(seed=1)
    copy = pickle.loads(pickle.dumps(table))
    agent = table.agent_selection
    assert copy.agent_selection == agent
    assert np.array_equal(copy.observe(agent)["observation"], table.observe(agent)["observation"])
    single = EightsEnv("classic", 3, opponents="expert")
    single.reset(seed=1)
    assert pickle.loads(pickle.dumps(single)).table.live.seed == single.table.live.seed


# ---------------------------------------------------------------- the docs and the example

def test_the_docs_examples_run() -> None:
    doc = ROOT / "docs" / "environments.md"
    blocks = re.findall(r"^```python\n(.*?)^```", doc.read_text("utf-8"), re.MULTILINE | re.DOTALL)
    assert len(blocks) >= 2
    for code in blocks:
        exec(compile(code, str(doc), "exec"), {"__name__": "docs"})
    result = doctest.testfile(str(doc), module_relative=False)
    assert result.attempted > 0 and result.failed == 0


def test_the_pettingzoo_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    example = runpy.run_path(str(ROOT / "examples" / "pettingzoo_random.py"))
    totals = example["main"]("huit-americain", 3, rounds=2, seed=1)
    assert set(totals) == {"player_0", "player_1", "player_2"}
    assert sum(totals.values()) == pytest.approx(0)
    assert "player_0: " in capsys.readouterr().out


# ---------------------------------------------------------------- what self-play research needs

def test_api_test_and_seed_test_with_truncation() -> None:
    """``max_cycles`` truncates: PettingZoo's own tests pass on episodes cut short."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for message in DICT_WARNINGS:
            warnings.filterwarnings("ignore", message=message)
        api_test(env("uno-cards", 4, max_cycles=3), num_cycles=100)
        seed_test(lambda: env("uno-cards", 4, max_cycles=3), num_cycles=100)


def test_max_cycles_truncates_after_cycles_times_players_moves() -> None:
    """Every agent is truncated, with no reward and no termination, by the move that makes
    ``max_cycles * players`` moves; each agent then steps once with None and leaves."""
    table = env("uno-cards", 4, max_cycles=5)
    table.reset(seed=2)
    rng = np.random.default_rng(2)
    moves = 0
    last: dict[str, tuple[float, bool, bool]] = {}
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, _ = table.last()
        last[agent] = (reward, terminated, truncated)
        if terminated or truncated:
            table.step(None)
            continue
        assert moves < 20
        table.step(pick(rng, obs["action_mask"]))
        moves += 1
    assert moves == 20 and table.agents == []
    assert last == dict.fromkeys(table.possible_agents, (0.0, False, True))
    with pytest.raises(ValueError, match="max_cycles must be a positive number of cycles"):
        raw_env("classic", max_cycles=0)


def test_the_state_is_every_seats_observation_and_passes_pettingzoos_state_test() -> None:
    from pettingzoo.test.state_test import test_state, test_state_space

    table = env("les-huit", 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        test_state_space(table)
        test_state(table, num_cycles=20)
    raw = raw_env("huit-fou", 3)
    raw.reset(seed=5)
    size = codes.observation_size(3)
    rng = np.random.default_rng(5)
    for _ in range(30):
        state = raw.state()
        assert raw.state_space.contains(state) and state.shape == (3 * size,)
        for s, agent in enumerate(raw.possible_agents):
            assert state[s * size:(s + 1) * size].tolist() == raw.observe(agent)[
                "observation"].tolist()
        if raw.terminations[raw.agent_selection]:
            break
        raw.step(pick(rng, raw.observe(raw.agent_selection)["action_mask"]))
    single = EightsEnv("classic", 3, seat=1)
    obs, _ = single.reset(seed=1)
    assert single.state_space.contains(single.state())
    assert single.state()[size:2 * size].tolist() == obs["observation"].tolist()


def test_max_steps_truncates_the_gymnasium_episode() -> None:
    single = EightsEnv("uno-cards", 4, max_steps=3)
    for seed in range(5):
        obs, _ = single.reset(seed=seed)
        for step in range(1, 4):
            obs, reward, terminated, truncated, _ = single.step(int(obs["action_mask"].argmax()))
            if terminated:
                break
            assert truncated == (step == 3) and reward == 0.0
        assert terminated or truncated
        with pytest.raises(RuntimeError, match=r"call reset\(\)"):
            single.step(int(obs["action_mask"].argmax()))
    with pytest.raises(ValueError, match="max_steps must be a positive number"):
        EightsEnv("classic", max_steps=-1)
    made = gymnasium.make_vec("eights/Eights-v0", num_envs=2, vectorization_mode="sync",
                              rules="uno-cards", max_steps=2)
    obs, _ = made.reset(seed=1)
    for _ in range(2):
        obs, _, terminated, truncated, _ = made.step(obs["action_mask"].argmax(axis=1))
    assert (np.asarray(terminated) | np.asarray(truncated)).all()


@pytest.mark.parametrize("wrap", [np.int64, np.int32, np.uint16, np.array])
def test_step_takes_numpy_integers_and_0d_arrays(wrap: Any) -> None:
    """``model.predict`` returns a 0-d array: every environment's step takes it, and the
    NumPy integer scalars, as the code they hold."""
    single = EightsEnv("classic", 2, illegal_reward=None)
    obs, _ = single.reset(seed=1)
    code = int(obs["action_mask"].argmax())
    _, _, _, _, info = single.step(wrap(code))
    assert "illegal_action" not in info
    for table in (raw_env("classic", 2), env("classic", 2)):
        table.reset(seed=1)
        agent = table.agent_selection
        code = int(table.observe(agent)["action_mask"].argmax())
        table.step(wrap(code))
        assert not any(table.terminations.values())  # not taken for an illegal code
        assert codes.action_code(table.unwrapped.table.live.history[-1][1]) == code
    one = EightsVectorEnv("classic", 2, 1)
    obs, _ = one.reset(seed=1)
    one.step(wrap(int(obs["action_mask"][0].argmax())))  # one table: a scalar will do
    many = EightsVectorEnv("classic", 2, 2)
    obs, _ = many.reset(seed=1)
    many.step([wrap(int(code)) for code in obs["action_mask"].argmax(axis=1)])
    with pytest.raises(ValueError, match="not an action code"):
        single.step(np.array([code]))  # not a scalar


def test_an_unknown_render_mode_is_a_type_error_as_gymnasiums_tools_expect() -> None:
    """A tool that asks for a mode and retries without it on a TypeError (as SB3's
    make_vec_env did for ``rgb_array`` before the environments drew one) gets one; the
    error is still a ValueError too."""
    for make in (EightsEnv, raw_env):
        with pytest.raises(TypeError, match="unknown render_mode 'depth_array'"):
            make("classic", render_mode="depth_array")
    with pytest.raises(TypeError, match="unknown render_mode 'depth_array'"), \
            pytest.warns(UserWarning, match="not in the possible render_modes"):
        gymnasium.make("eights/Eights-v0", render_mode="depth_array")  # Gymnasium warns first
    with pytest.raises(ValueError, match="unknown render_mode"):
        EightsEnv("classic", render_mode="depth_array")


def test_render_rgb_array_draws_the_table_in_words() -> None:
    """``rgb_array`` (what SB3's make_vec_env asks for): the ``ansi`` text drawn, one line of
    pixels' rows a line of text; Gymnasium's own make takes it without a warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        made = gymnasium.make("eights/Eights-v0", rules="classic", players=3,
                              render_mode="rgb_array")
    made.reset(seed=4)
    image = made.render()
    assert isinstance(image, np.ndarray) and image.dtype == np.uint8
    assert image.ndim == 3 and image.shape[2] == 3
    single: Any = made.unwrapped
    lines = len(single.table.text(single.names).splitlines())
    assert image.shape[0] == 8 + 18 * lines and image.shape[1] > 100
    assert (image == 255).any() and (image == (18, 84, 48)).all(axis=2).mean() > 0.5
    table = raw_env("classic", 2, render_mode="rgb_array")
    table.reset(seed=1)
    assert table.render().shape[2] == 3  # type: ignore[union-attr]


def test_rgb_array_without_pillow_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import eights.rl.table as table_module

    monkeypatch.setattr(table_module, "find_spec", lambda name: None)
    with pytest.raises(TypeError, match="render_mode 'rgb_array' draws the table with Pillow, "
                                        "which is not installed: pip install pillow"):
        EightsEnv("classic", render_mode="rgb_array")


def test_api_tests_only_warnings_are_the_two_it_gives_any_dict_observation() -> None:
    """PettingZoo's api_test warns "Observation is not a NumPy array" and "Observation space
    for each agent probably should be ..." for a Dict observation unless the env's name is
    on its own list (its classic games, whose observations have the same form); nothing
    an environment can do silences them (docs/environments.md), and nothing else warns."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env("crazy-eights", 3), num_cycles=50)
    messages = {str(w.message) for w in caught}
    assert {m for m in messages if not m.startswith(DICT_WARNINGS)} == set()
    assert all(any(m.startswith(d) for m in messages) for d in DICT_WARNINGS)
