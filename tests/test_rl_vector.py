"""The batched Gymnasium environment (eights.rl.vector.EightsVectorEnv): its spaces are
EightsEnv's, batched; its steps are those of the kernel's TableBatch it wraps (itself
tested against each table stepped alone, tests/test_fast_world.py); seeding, the
next-step autoreset, the errors, make_vec and the example."""

from __future__ import annotations

import runpy
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.vector.utils import batch_space
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from eights import RulesError, preset_names
from eights.codes import O_FLAGS
from eights.engine.rules import Rules
from eights.fast import KernelUnsupported
from eights.fast.vector import TableBatch
from eights.rl import EightsEnv, EightsVectorEnv, vector

ROOT = Path(__file__).resolve().parent.parent
ROUND_OVER = O_FLAGS + 8
"""The observation's ``round over`` flag."""


def random_codes(rng: np.random.Generator, mask: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """A random legal code a table, 0 at a table with none (its round just ended)."""
    return np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask],
                    dtype=np.int64)


def trajectory(envs: EightsVectorEnv, seed: int | None, steps: int) -> list[npt.NDArray[Any]]:
    """Everything ``envs`` returned from ``reset(seed=seed)`` over ``steps`` steps, each
    table playing its first legal code (a choice that does not depend on the batch)."""
    obs, _ = envs.reset(seed=seed)
    seen = [obs["observation"], obs["action_mask"]]
    for _ in range(steps):
        obs, rewards, terminated, truncated, _ = envs.step(obs["action_mask"].argmax(axis=1))
        seen += [obs["observation"], obs["action_mask"], rewards, terminated, truncated]
    return seen


def same(a: list[npt.NDArray[Any]], b: list[npt.NDArray[Any]]) -> bool:
    return len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


# ---------------------------------------------------------------- spaces

@pytest.mark.parametrize(("rules", "players", "seat"), [
    *((preset, None, 0) for preset in preset_names()), ("huit-fou", 3, 1), ("les-huit", 4, 2),
    ("switch", 7, 6)])  # switch with 7: two decks, 42937 codes
def test_a_tables_spaces_are_eightsenvs_and_the_batch_is_batch_space(
        rules: str, players: int | None, seat: int) -> None:
    envs = EightsVectorEnv(rules, players, 3, seat=seat)
    single = EightsEnv(rules, players, seat=seat)
    assert envs.single_observation_space == single.observation_space
    assert envs.single_action_space == single.action_space
    assert envs.observation_space == batch_space(single.observation_space, 3)
    assert envs.action_space == batch_space(single.action_space, 3)
    assert envs.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP
    obs, infos = envs.reset(seed=2)
    assert infos == {}
    assert obs["observation"].dtype == np.int32 and obs["action_mask"].dtype == np.int8
    assert envs.observation_space.contains(obs)
    for table in range(3):  # each row is an observation EightsEnv's policy can read
        row = {key: value[table] for key, value in obs.items()}
        assert single.observation_space.contains(row)
        assert row["observation"][O_FLAGS + 7] == 1 and row["action_mask"].any()  # to play
    rng = np.random.default_rng(0)
    for _ in range(20):
        obs, *_ = envs.step(random_codes(rng, obs["action_mask"]))
        assert envs.observation_space.contains(obs)


# ---------------------------------------------------------------- steps

@pytest.mark.parametrize(("rules", "players", "seat", "opponents", "kernel", "reward"), [
    ("classic", 4, 0, "random", ["random"] * 3, "points"),
    ("huit-fou", 3, 1, "greedy,random", ["greedy", "random"], "raw"),
    ("les-huit", 4, 3, ["random", "greedy"], ["random", "greedy", "random"], "win"),
    ("switch", 4, 0, "greedy", ["greedy"] * 3, "points"),  # multi_play: 8487 codes
])
def test_steps_are_the_kernel_batchs(rules: str, players: int, seat: int,
                                     opponents: str | list[str], kernel: list[str],
                                     reward: str) -> None:
    """Observations, masks (as int8), rewards and ends are TableBatch's for the same seed
    and actions; opponents are read as EightsEnv reads them (a shorter list repeated)."""
    envs = EightsVectorEnv(rules, players, 4, seat=seat, opponents=opponents, reward=reward)
    assert envs.opponents == tuple(kernel)
    tables = TableBatch(rules, players, 4, seat=seat, opponents=kernel, seed=11, reward=reward)
    rng = np.random.default_rng(3)
    obs, _ = envs.reset(seed=11)
    their_obs, their_mask = tables.reset()
    ended = 0
    for _ in range(150):
        assert np.array_equal(obs["observation"], their_obs)
        assert np.array_equal(obs["action_mask"], their_mask.astype(np.int8))
        assert np.array_equal(envs.action_masks(), their_mask)
        actions = random_codes(rng, their_mask)
        obs, rewards, terminated, truncated, infos = envs.step(actions)
        their_obs, their_mask, their_rewards, their_terminated = tables.step(actions)
        assert np.array_equal(rewards, their_rewards)
        assert np.array_equal(terminated, their_terminated)
        assert truncated.dtype == np.bool_ and not truncated.any() and infos == {}
        ended += int(terminated.sum())
    assert ended >= 3


def first_legal(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> npt.NDArray[Any]:
    """A policy opponent: each row's first legal code."""
    return np.asarray(np.argmax(mask, axis=1))


def test_policy_callables_max_steps_and_the_state_are_the_kernel_batchs() -> None:
    """Callables take their seats (a shorter list repeated), ``max_steps`` cuts rounds
    (``truncations``), and ``state()`` is every seat's observation, all as TableBatch."""
    envs = EightsVectorEnv("classic", 4, 4, seat=1, opponents=[first_legal, "greedy"],
                           max_steps=6)
    assert envs.opponents == (first_legal, "greedy", first_legal)
    tables = TableBatch("classic", 4, 4, seat=1, opponents=list(envs.opponents), seed=11,
                        max_steps=6)
    rng = np.random.default_rng(3)
    obs, _ = envs.reset(seed=11)
    their_obs, their_mask = tables.reset()
    cut = ended = 0
    for _ in range(120):
        assert np.array_equal(obs["observation"], their_obs)
        state = envs.state()
        assert np.array_equal(state, tables.state())
        assert envs.state_space.contains(state)
        assert np.array_equal(state[:, 281:562], their_obs)  # seat 1's part
        actions = random_codes(rng, their_mask)
        obs, rewards, terminated, truncated, _ = envs.step(actions)
        their_obs, their_mask, their_rewards, their_terminated = tables.step(actions)
        assert np.array_equal(rewards, their_rewards)
        assert np.array_equal(terminated, their_terminated)
        assert np.array_equal(truncated, tables.truncated) and not (truncated & terminated).any()
        cut += int(truncated.sum())
        ended += int(terminated.sum())
    assert cut >= 10 and ended >= 3
    made = gymnasium.make_vec("eights/Eights-v0", num_envs=2, rules="classic", players=3,
                              opponents=first_legal)
    assert made.unwrapped.opponents == (first_legal, first_legal)  # type: ignore[attr-defined]


def test_a_round_over_is_reset_on_the_tables_next_step() -> None:
    """NEXT_STEP autoreset: the ending step gives the reward and the final observation (an
    empty mask); the next ignores that table's action (any code) and deals a new round."""
    envs = EightsVectorEnv("crazy-eights", 2, 3, opponents="greedy", reward="win")
    rng = np.random.default_rng(1)
    obs, _ = envs.reset(seed=5)
    checked = 0
    for _ in range(300):
        obs, rewards, terminated, _, _ = envs.step(random_codes(rng, obs["action_mask"]))
        over = np.flatnonzero(terminated)
        assert (rewards[~terminated] == 0).all()
        assert set(rewards[over]) <= {1.0, -1.0}
        assert (obs["observation"][over, ROUND_OVER] == 1).all()
        assert not obs["action_mask"][over].any()
        if len(over):
            actions = random_codes(rng, obs["action_mask"])
            actions[over] = 536  # not legal in any position of crazy-eights: ignored
            obs, rewards, terminated, _, _ = envs.step(actions)
            assert (rewards[over] == 0).all() and not terminated[over].any()
            assert (obs["observation"][over, ROUND_OVER] == 0).all()
            assert obs["action_mask"][over].any(axis=1).all()
            checked += len(over)
    assert checked >= 5


def test_gymnasiums_episode_statistics_count_the_rounds() -> None:
    envs = RecordEpisodeStatistics(EightsVectorEnv("classic", 2, 4, reward="win"))
    rng = np.random.default_rng(2)
    obs, _ = envs.reset(seed=1)
    returns: list[float] = []
    for _ in range(200):
        obs, _, terminated, _, infos = envs.step(random_codes(rng, obs["action_mask"]))
        if terminated.any():
            returns += infos["episode"]["r"][terminated].tolist()
    assert returns and set(returns) <= {1.0, -1.0}


# ---------------------------------------------------------------- seeding

def test_the_same_seed_plays_the_same_rounds() -> None:
    """Same seed, same trajectory; table i alike in a batch of any size; another seed
    other rounds; ``reset()`` goes on with the same streams; no seed at all, fresh ones."""
    envs = EightsVectorEnv("crazy-eights", 3, 2)
    first = trajectory(envs, 7, 40)
    assert same(first, trajectory(EightsVectorEnv("crazy-eights", 3, 2), 7, 40))
    wider = trajectory(EightsVectorEnv("crazy-eights", 3, 4), 7, 40)
    assert same(first, [x[:2] for x in wider])
    assert not same(first, trajectory(envs, 8, 40))
    again = trajectory(envs, 7, 40)
    assert same(first, again)
    going_on = trajectory(envs, None, 0)  # the next deals of seed 7's streams
    assert not np.array_equal(going_on[0], first[0])
    replay = EightsVectorEnv("crazy-eights", 3, 2)
    trajectory(replay, 7, 40)
    assert same(going_on, trajectory(replay, None, 0))
    fresh = [trajectory(EightsVectorEnv("crazy-eights", 3, 2), None, 0)[0] for _ in range(2)]
    assert not np.array_equal(fresh[0], fresh[1])


# ---------------------------------------------------------------- errors

@pytest.mark.parametrize(("options", "message"), [
    ({"opponents": "greedy:epsilon=0.1"}, "opponents: bot 'greedy' has no option 'epsilon'"),
    ({"opponents": "clever"}, r"unknown bot 'clever'; bots: random, greedy, expert, ismcts, "
                              r"learned, or policy callables"),
    ({"blas_threads": 0}, r"blas_threads must be a positive number of threads, 'auto'"),
    ({"opponents": "random,random,random,random"}, "4 opponents .* for 3 other seats"),
    ({"episode": "match"}, r"episodes are rounds; for matches use EightsEnv"),
    ({"episode": "game"}, "unknown episode 'game'; episodes: round, match"),
    ({"reward": "money"}, "unknown reward 'money'; rewards: points, raw, win"),
    ({"num_envs": 0}, "num_envs must be a positive number of tables, not 0"),
    ({"seat": 4}, "seat 4 is not a seat; seats are 0 to 3"),
])
def test_bad_options_say_what_is_allowed(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        EightsVectorEnv(**{"rules": "classic", "players": 4, **options})


def test_rules_the_kernel_refuses_name_the_field_and_where_they_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel plays every rule set the action codes hold (what they do not hold is a
    RulesError before, as in EightsEnv); should it refuse one, the error says where to go."""
    with pytest.raises(RulesError, match="multi_play with 3 decks"):
        EightsVectorEnv("switch", 10, 2, overrides=["decks=[[2, 1], [6, 3]]"])

    def refuse(rules: Rules, players: int | None = None) -> None:
        raise KernelUnsupported(rules.name, "jokers", f"{players} players: too many")

    monkeypatch.setattr(vector, "check_supported", refuse)
    with pytest.raises(KernelUnsupported, match="does not support jokers") as caught:
        EightsVectorEnv("classic", 4, 2)
    assert caught.value.field == "jokers"
    assert any("for classic use EightsEnv" in note for note in caught.value.__notes__)


def test_bad_calls_say_what_to_do() -> None:
    envs = EightsVectorEnv("classic", 2, 3)
    with pytest.raises(RuntimeError, match=r"reset\(\) before step"):
        envs.step(np.zeros(3, dtype=np.int64))
    with pytest.raises(RuntimeError, match=r"reset\(\) before action_masks"):
        envs.action_masks()
    for seed in (-1, "7", 1.5, [1, 2]):
        with pytest.raises(ValueError, match=r"seed must be a non-negative integer \(one for "):
            envs.reset(seed=seed)  # type: ignore[arg-type]
    envs.reset(seed=np.int64(4))  # a NumPy integer will do
    with pytest.raises(ValueError, match=r"3 integer codes \(one a table\)"):
        envs.step(np.zeros(2, dtype=np.int64))


def test_an_illegal_code_names_its_table_and_moves_none() -> None:
    envs, twin = EightsVectorEnv("classic", 2, 3), EightsVectorEnv("classic", 2, 3)
    obs, _ = envs.reset(seed=5)
    twin.reset(seed=5)
    actions = obs["action_mask"].argmax(axis=1)
    illegal = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
    bad = actions.copy()
    bad[2] = illegal
    with pytest.raises(ValueError, match=rf"table 2: action {illegal} \(.*\) is not legal now; "
                                         r"legal: \d+ \("):
        envs.step(bad)
    obs, rewards, terminated, _, _ = envs.step(actions)
    twin_obs, twin_rewards, twin_terminated, _, _ = twin.step(actions)
    for key in ("observation", "action_mask"):
        assert np.array_equal(obs[key], twin_obs[key])
    assert np.array_equal(rewards, twin_rewards)
    assert np.array_equal(terminated, twin_terminated)


# ---------------------------------------------------------------- make_vec and the example

def test_make_vec_makes_the_batched_env_and_make_the_single_one() -> None:
    envs = gymnasium.make_vec("eights/Eights-v0", num_envs=5, rules="huit-fou", players=3,
                              opponents="greedy")
    assert isinstance(envs, EightsVectorEnv) and envs.num_envs == 5
    assert envs.rules.name == "huit-fou" and envs.opponents == ("greedy", "greedy")
    assert envs.spec is not None and envs.spec.kwargs["vectorization_mode"] == "vector_entry_point"
    same_again = gymnasium.make_vec("eights/Eights-v0", num_envs=5,
                                    vectorization_mode="vector_entry_point", rules="huit-fou",
                                    players=3, opponents="greedy")
    assert isinstance(same_again, EightsVectorEnv)
    assert same(trajectory(envs, 3, 20), trajectory(same_again, 3, 20))
    assert isinstance(gymnasium.make("eights/Eights-v0").unwrapped, EightsEnv)
    sync = gymnasium.make_vec("eights/Eights-v0", num_envs=2, vectorization_mode="sync",
                              opponents="expert")
    assert isinstance(sync, SyncVectorEnv)
    sync.close()
    on_engine = gymnasium.make_vec("eights/Eights-v0", num_envs=2, opponents="expert")
    assert isinstance(on_engine, EightsVectorEnv) and on_engine.engine  # the expert: on the engine


def test_the_batched_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    example = runpy.run_path(str(ROOT / "examples" / "batched_random.py"))
    rounds, mean = example["main"]("huit-americain", 3, tables=16, steps=60, seed=1)
    assert rounds > 0 and np.isfinite(mean)
    assert "16 tables x 60 steps" in capsys.readouterr().out
