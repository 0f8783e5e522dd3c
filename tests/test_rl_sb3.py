"""The environments driven by Stable-Baselines3 and sb3-contrib themselves: ``make_vec_env``
on the registered id (without a warning), SB3's ``check_env``, ``model.predict``'s 0-d
arrays fed to ``step``, and the VecEnv adapter :mod:`eights.rl.sb3` (SB3's VecEnv
contract, same-step autoreset, final observations, truncation, masks) with MaskablePPO
learning on it, through examples/sb3_maskable_ppo.py, which imports it."""

from __future__ import annotations

import runpy
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from sb3_contrib import MaskablePPO
from stable_baselines3.common.env_checker import check_env
from stable_baselines3.common.env_util import make_vec_env

import eights.rl  # noqa: F401  (registers eights/Eights-v0)
from eights.codes import O_FLAGS
from eights.rl import EightsEnv
from eights.rl.sb3 import EightsVecEnv

ROOT = Path(__file__).resolve().parent.parent
ROUND_OVER = O_FLAGS + 8
EXAMPLE = runpy.run_path(str(ROOT / "examples" / "sb3_maskable_ppo.py"))


def test_the_example_uses_the_packages_adapter() -> None:
    assert EXAMPLE["EightsVecEnv"] is EightsVecEnv


def test_make_vec_env_makes_the_registered_env_as_is_without_a_warning() -> None:
    """SB3 asks for ``render_mode="rgb_array"``: the environment draws the table (no
    Gymnasium warning about the mode, no retry without it)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        envs = make_vec_env("eights/Eights-v0", n_envs=3, seed=5,
                            env_kwargs={"rules": "classic", "players": 3, "max_steps": 4})
    assert envs.get_attr("render_mode") == ["rgb_array"] * 3
    obs: Any = envs.reset()
    rng = np.random.default_rng(0)
    ended = truncated = 0
    for _ in range(40):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, _, dones, infos = envs.step(actions)
        for b in np.flatnonzero(dones):  # SB3 resets at once, the final observation kept
            assert infos[b]["terminal_observation"]["observation"].shape == (276,)
            truncated += bool(infos[b].get("TimeLimit.truncated"))
            ended += 1
        assert obs["action_mask"].any(axis=1).all()
    assert ended >= 10 and truncated >= 5


@pytest.mark.parametrize(("rules", "options"), [
    ("classic", {}), ("switch", {"players": 3, "opponents": "greedy"}),
    ("les-huit", {"players": 4, "max_steps": 5})])
def test_sb3s_check_env(rules: str, options: dict[str, Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(EightsEnv(rules, **options))


def test_model_predicts_0d_arrays_that_step_takes() -> None:
    """``model.predict`` on one observation returns a 0-d array: played as its code."""
    single = EightsEnv("classic", 2, illegal_reward=None)
    model = MaskablePPO("MultiInputPolicy", single, n_steps=32, batch_size=32, seed=0)
    obs, _ = single.reset(seed=2)
    for _ in range(50):
        action, _ = model.predict(obs, action_masks=single.action_masks())
        assert isinstance(action, np.ndarray) and action.shape == ()
        obs, _, terminated, truncated, _ = single.step(action)
        if terminated or truncated:
            obs, _ = single.reset()


def test_the_adapter_resets_in_the_same_step_and_keeps_the_final_observation() -> None:
    envs = EightsVecEnv("crazy-eights", 3, 6, seed=1, opponents=["greedy", "random"],
                        reward="win", max_steps=5)
    obs: Any = envs.reset()
    assert obs.shape == (6, 276) and envs.action_masks().any(axis=1).all()
    ended = cut = 0
    for _ in range(60):
        masks = np.stack(envs.env_method("action_masks"))
        assert masks.shape == (6, 537) and masks.any(axis=1).all()
        obs, rewards, dones, infos = envs.step(masks.argmax(axis=1))
        for b in range(6):
            if not dones[b]:
                assert infos[b] == {} and rewards[b] == 0.0
                continue
            final = infos[b]["terminal_observation"]
            if infos[b]["TimeLimit.truncated"]:
                cut += 1
                assert rewards[b] == 0.0 and final[ROUND_OVER] == 0
            else:
                ended += 1
                assert rewards[b] in (1.0, -1.0) and final[ROUND_OVER] == 1
            assert obs[b, ROUND_OVER] == 0 and obs[b, O_FLAGS + 7] == 1  # a new round, to play
    assert ended >= 5 and cut >= 5
    with pytest.raises(ValueError, match="not legal now"):
        envs.step(np.full(6, 536))  # =s: not legal at the start of a turn


def test_plain_ppos_illegal_codes_can_be_replaced_by_the_first_legal_one() -> None:
    envs = EightsVecEnv("classic", 2, 4, seed=1, illegal="first")
    envs.reset()
    first = envs.action_masks().argmax(axis=1)
    other = EightsVecEnv("classic", 2, 4, seed=1)
    other.reset()
    replaced: Any = envs.step(np.full(4, 536))[0]
    played: Any = other.step(first)[0]
    assert np.array_equal(replaced, played)
    assert envs.illegal == 4


def test_illegal_codes_can_be_replaced_by_a_seeded_random_legal_one() -> None:
    def run() -> tuple[list[Any], int]:
        envs = EightsVecEnv("classic", 2, 8, seed=3, illegal="random")
        envs.reset()
        seen: list[Any] = [envs.step(np.full(8, 536))[0] for _ in range(30)]  # =s: not legal
        return seen, envs.illegal
    one, replaced = run()
    two, _ = run()
    assert replaced >= 200 and all(np.array_equal(a, b) for a, b in zip(one, two, strict=True))
    with pytest.raises(ValueError, match="illegal must be one of raise, first, random, not 'skip'"):
        EightsVecEnv("classic", 2, 2, illegal="skip")


def test_the_adapter_keeps_sb3s_vecenv_contract() -> None:
    """What SB3 relies on, checked as its own VecEnv wrappers would: the observations in
    the observation space, float32 rewards, bool dones, one info dict a table, seeding
    through ``seed()``, the attribute and method calls, and no NaN (VecCheckNan)."""
    from stable_baselines3.common.vec_env import VecCheckNan, VecEnv

    envs = EightsVecEnv("huit-americain", 2, 5, seed=0, opponents="greedy")
    assert isinstance(envs, VecEnv) and envs.num_envs == 5
    checked = VecCheckNan(envs, raise_exception=True)
    envs.seed(7)
    first: Any = checked.reset()
    assert first.shape == (5, 271) and first.dtype == np.int32
    assert all(envs.observation_space.contains(row) for row in first)
    for _ in range(30):
        obs, rewards, dones, infos = checked.step(envs.action_masks().argmax(axis=1))
        assert all(envs.observation_space.contains(row) for row in obs)
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_ and len(infos) == 5
    envs.seed(7)
    again: Any = envs.reset()
    assert np.array_equal(again, first)  # seed() seeds the next reset
    assert envs.get_attr("render_mode", [0, 2]) == [None, None]
    assert envs.env_is_wrapped(VecCheckNan) == [False] * 5
    assert len(envs.env_method("action_masks", indices=[1, 3])) == 2
    with pytest.raises(AttributeError, match="no per-table method 'render'; it has action_masks"):
        envs.env_method("render")
    envs.set_attr("illegal", 0)
    assert envs.illegal == 0


def test_maskable_ppo_learns_on_the_adapter_and_beats_random() -> None:
    """A short run of the example (2 players of crazy-eights against random): the learnt
    policy wins more rounds than a random legal policy on rounds it never saw."""
    mine, theirs = EXAMPLE["main"](rules="crazy-eights", players=2, tables=16,
                                   timesteps=16_384, rounds=400, n_steps=64)
    assert 0.0 <= theirs <= 1.0 and mine > theirs
