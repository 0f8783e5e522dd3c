"""Bots in the batched environment: the learned bot as a batched policy
(:class:`eights.rl.policies.LearnedPolicy`, on the kernel) and every other bot, the expert
first, at the other seats of the engine's tables (:class:`eights.rl.engine_batch.EngineTables`,
what EightsVectorEnv makes for them)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import eights
from eights import Game, codes, load_rules
from eights.bots import ExpertBot, GreedyBot
from eights.bots.learned import LearnedBot
from eights.rl import EightsEnv, EightsVectorEnv
from eights.rl.engine_batch import EngineTables
from eights.rl.policies import LearnedPolicy
from eights.rl.sb3 import EightsVecEnv

ROUND_OVER = codes.O_FLAGS + 8


# ---------------------------------------------------------------- the learned bot, batched

@pytest.mark.parametrize(("rules", "players"), [("classic", 2), ("huit-americain", 4),
                                                ("switch", 2)])
def test_the_learned_policy_chooses_as_the_learned_bot(rules: str, players: int) -> None:
    """At every decision of a few rounds (the engine, greedy and expert seats), the batched
    policy's code for all the seats' observations at once is the bot's choice for each."""
    policy = LearnedPolicy(rules, players)
    bot = LearnedBot()
    compared = 0
    for seed in range(3):
        game = Game(load_rules(rules), players, seed=seed)
        rng = random.Random(seed)
        obs, masks, wanted = [], [], []
        while not game.over:
            p = game.to_move
            legal = game.legal_actions()
            seen = game.observe(p)
            mask = np.zeros(codes.action_count(game.rules, players), dtype=np.bool_)
            mask[[codes.action_code(a) for a in legal]] = True
            obs.append(codes.observation(seen))
            masks.append(mask)
            wanted.append(codes.action_code(bot.choose(seen, legal, rng)))
            helper = (ExpertBot() if p % 2 else GreedyBot())
            game.apply(helper.choose(seen, legal, rng))
        chosen = policy(np.array(obs, dtype=np.int32), np.array(masks))
        assert chosen.dtype == np.int64 and chosen.tolist() == wanted
        compared += len(wanted)
    assert compared > 60


def test_the_learned_policy_refuses_arrays_of_the_wrong_shape() -> None:
    policy = LearnedPolicy("classic", 2)
    obs = np.zeros((3, codes.observation_size(2)), dtype=np.int32)
    with pytest.raises(ValueError, match=r"obs must be observations of 2 players, one a row "
                                         r"\(271 integers\), not an array of shape \(3, 281\)"):
        policy(np.zeros((3, 281), dtype=np.int32), np.ones((3, 537), dtype=np.bool_))
    with pytest.raises(ValueError, match=r"mask must be 3 rows of 537 legal-code flags"):
        policy(obs, np.ones((3, 530), dtype=np.bool_))
    specialist = Path(eights.__file__).parent / "models" / "classic-4p.npz"
    with pytest.raises(ValueError, match="plays 4 players, not 3"):
        LearnedPolicy("classic", 3, model=specialist)


def test_the_learned_policy_is_a_yardstick_across_rounds_that_end() -> None:
    """On the learning seat of the batched tables, round after round: a table whose round
    just ended shows an all-False mask (its action is ignored); the policy skips its row
    (code 0) and chooses for the others as it would alone."""
    policy = LearnedPolicy("classic", 2)
    envs = EightsVectorEnv("classic", 2, num_envs=8, opponents="greedy", reward="win")
    obs, _ = envs.reset(seed=4)
    ended = 0
    for _ in range(200):
        masks = envs.action_masks()
        codes_ = policy(obs["observation"], masks)
        empty = ~masks.any(axis=1)
        assert (codes_[empty] == 0).all()
        assert masks[~empty, codes_[~empty]].all()
        if empty.any() and (~empty).any():
            alone = policy(obs["observation"][~empty], masks[~empty])
            assert alone.tolist() == codes_[~empty].tolist()
        obs, _, terminated, truncated, _ = envs.step(codes_)
        ended += int((terminated | truncated).sum())
    assert ended > 8  # rounds ended, and their all-False rows were met


def test_the_learned_policy_with_a_temperature_draws_legal_codes_from_its_seed() -> None:
    obs = np.zeros((50, codes.observation_size(2)), dtype=np.int32)
    mask = np.zeros((50, 537), dtype=np.bool_)
    mask[:, [3, 17, 530]] = True
    one = LearnedPolicy("classic", 2, temperature=5.0, seed=3)(obs, mask)
    assert set(one.tolist()) <= {3, 17, 530} and len(set(one.tolist())) > 1
    assert one.tolist() == LearnedPolicy("classic", 2, temperature=5.0, seed=3)(obs, mask).tolist()


def test_the_learned_policy_sits_at_the_batched_tables() -> None:
    """A policy opponent of the kernel's tables: same seed, same rounds; and it beats the
    random seat it replaces (its rounds won as the opponent of a random learning seat)."""
    def play(opponents: Any, seed: int) -> tuple[list[float], list[list[int]]]:
        envs = EightsVectorEnv("classic", 2, num_envs=32, opponents=opponents, reward="win")
        obs, _ = envs.reset(seed=seed)
        rng = np.random.default_rng(seed)
        rewards, firsts = [], []
        for _ in range(400):
            masks = envs.action_masks()
            actions = (rng.random(masks.shape) * masks).argmax(axis=1)
            obs, reward, terminated, _, _ = envs.step(actions)
            rewards.extend(reward[terminated].tolist())
            firsts.append(obs["observation"][:, :53].sum(axis=1).tolist())
        return rewards, firsts

    learned, seen = play(LearnedPolicy("classic", 2), 5)
    again, seen_again = play(LearnedPolicy("classic", 2), 5)
    assert learned == again and seen == seen_again
    against_random, _ = play("random", 5)
    assert len(learned) > 300 and len(against_random) > 30  # random rounds last long
    assert np.mean(learned) < np.mean(against_random) - 0.5  # the learning seat loses more


# ---------------------------------------------------------------- the expert, on the engine

def test_the_batched_environment_seats_the_expert_on_the_engine() -> None:
    envs = EightsVectorEnv("crazy-eights", 3, num_envs=4, opponents="expert,greedy",
                           reward="win")
    assert envs.engine and isinstance(envs.tables, EngineTables)
    assert envs.opponents == ("expert", "greedy")
    obs, _ = envs.reset(seed=2)
    assert obs["observation"].shape == (4, codes.observation_size(3))
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].any(axis=1).all()
    rng = np.random.default_rng(2)
    ended = np.zeros(4, dtype=np.bool_)
    rounds = 0
    for _ in range(300):
        masks = envs.action_masks()
        assert (masks.any(axis=1) == ~ended).all()  # a round's final step: an empty mask
        obs, rewards, terminated, truncated, infos = envs.step(
            (rng.random(masks.shape) * masks).argmax(axis=1))
        assert infos == {} and not truncated.any()
        for b in range(4):
            if ended[b]:  # NEXT_STEP: the next round's first decision, reward 0
                assert not terminated[b] and rewards[b] == 0 and obs["observation"][b, ROUND_OVER] == 0
            elif terminated[b]:
                assert rewards[b] in (1.0, -1.0) and obs["observation"][b, ROUND_OVER] == 1
            else:
                assert rewards[b] == 0
        rounds += int(terminated.sum())
        ended = terminated
    assert rounds > 20
    assert envs.state().shape == (4, 3 * codes.observation_size(3))


def test_the_engines_tables_follow_the_seeding_rule() -> None:
    """Table ``i`` is an EightsEnv reset with word ``i`` of SeedSequence(seed): the same
    rounds in a batch of any size, and the same as that EightsEnv's."""
    big = EngineTables(load_rules("classic"), 2, 5, opponents="expert", seed=11)
    small = EngineTables(load_rules("classic"), 2, 2, opponents="expert", seed=11)
    obs_big, _ = big.reset()
    obs_small, _ = small.reset()
    assert np.array_equal(obs_big[:2], obs_small)
    word = int(np.random.SeedSequence(11).generate_state(5, np.uint64)[3] & np.uint64(2**63 - 1))
    single, _ = EightsEnv("classic", 2, opponents="expert").reset(seed=word)
    assert np.array_equal(obs_big[3], single["observation"])
    again, _ = big.reset(seed=11)
    assert np.array_equal(again, obs_big)


def test_an_illegal_code_at_the_engines_tables_moves_no_table() -> None:
    tables = EngineTables(load_rules("classic"), 2, 3, opponents="expert", seed=1)
    obs, mask = tables.reset()
    actions = mask.argmax(axis=1)
    actions[2] = 536  # =s: never legal at the start of a turn
    with pytest.raises(ValueError, match=r"table 2: action 536 \(=s\) is not legal now; legal: "):
        tables.step(actions)
    with pytest.raises(ValueError, match="action 9999 is not a code: codes are 0 to 536"):
        tables.step(np.array([9999, 0, 0]))
    again, _, _, _ = tables.step(mask.argmax(axis=1))  # nothing had moved
    assert not np.array_equal(again, obs)


def test_the_engines_tables_cut_rounds_at_max_steps_and_restart_in_the_same_step() -> None:
    envs = EightsVecEnv("classic", 2, 3, seed=4, opponents="expert", reward="win", max_steps=3)
    assert envs.envs.engine
    envs.reset()
    cut = 0
    for _ in range(12):
        stepped: Any = envs.step(envs.action_masks().argmax(axis=1))
        obs, _, dones, infos = stepped
        for b in np.flatnonzero(dones):
            cut += infos[b]["TimeLimit.truncated"]
            assert obs[b, ROUND_OVER] == 0 and envs.action_masks()[b].any()
    assert cut >= 3


def test_callables_and_engine_bots_do_not_mix() -> None:
    with pytest.raises(ValueError, match=r"opponents: 'expert' play on the engine and policy "
                                         r"callables on the kernel: give one or the other"):
        EightsVectorEnv("classic", 3, 2, opponents=[lambda o, m: m.argmax(axis=1), "expert"])
    with pytest.raises(ValueError, match="opponents: unknown bot 'wizard'; bots: "):
        EightsVectorEnv("classic", 3, 2, opponents="wizard")


# ---------------------------------------------------------------- OpenBLAS's threads

def _blas_threads() -> list[int]:
    from threadpoolctl import threadpool_info

    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


def test_policy_callables_run_with_one_blas_thread() -> None:
    """``blas_threads="auto"`` (the default, threadpoolctl being installed with the rl
    extra): OpenBLAS has one thread while a policy callable runs, its own count after;
    ``None`` leaves it alone; ``2`` gives two."""
    outside = _blas_threads()
    assert outside and max(outside) >= 1

    def run(**options: object) -> list[list[int]]:
        seen: list[list[int]] = []

        def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
            seen.append(_blas_threads())
            return np.asarray(mask.argmax(axis=1))

        envs = EightsVectorEnv("classic", 3, num_envs=4, opponents=[policy, "greedy"],
                               **options)  # type: ignore[arg-type]
        envs.reset(seed=1)
        for _ in range(5):
            envs.step(envs.action_masks().argmax(axis=1))
        assert seen
        return seen

    assert all(threads == [1] * len(outside) for threads in run())
    assert all(threads == outside for threads in run(blas_threads=None))
    assert all(threads == [2] * len(outside) for threads in run(blas_threads=2))
    assert _blas_threads() == outside


def test_without_threadpoolctl_the_threads_are_left_or_the_count_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import eights.rl.threads as threads

    monkeypatch.setattr(threads, "find_spec", lambda name: None)
    assert threads.blas_limit("auto") is None
    with pytest.raises(ModuleNotFoundError, match=r"blas_threads needs threadpoolctl: pip install "
                                                  r"threadpoolctl \(or set OPENBLAS_NUM_THREADS=1"):
        EightsVectorEnv("classic", 2, 2, opponents=lambda o, m: m.argmax(axis=1), blas_threads=1)
