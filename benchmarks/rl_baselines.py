"""Baselines: standard algorithms trained for the same CPU budget, measured against random,
greedy and the expert in duplicate deals.

    python benchmarks/rl_baselines.py --rules classic --players 2 --minutes 3 --deals 200 \\
        [--algorithms ppo,dqn,dqn-legal,pg,dmc,nfsp,ppo-factored] [--train-against random] \\
        [--json FILE]

For one rule set (a preset or a rules file) at ``--players`` seats, each algorithm learns
from nothing for ``--minutes`` of this process's CPU time (``time.process_time``: on a
shared machine the figure that gives each the same work, whatever the load; PyTorch is
given one thread), every one with ``reward="win"`` (+1 a round won, -1 lost):

- ``ppo``: sb3-contrib's ``MaskablePPO`` (``MlpPolicy``, its defaults but ``n_steps=64``,
  ``batch_size=1024``) on :class:`eights.rl.sb3.EightsVecEnv`, 64 batched tables, the
  other seats ``--train-against`` (a uniform random legal player by default);
  ``ppo-factored``: the same on the factored actions (``actions="factored"``: a play one
  card at a time, :mod:`eights.rl.factored`);
- ``dqn``: Stable-Baselines3's ``DQN`` on 8 batched tables, its choices masked (exploration
  draws a legal code, the greedy choice is the legal code of highest Q) but its bootstrap
  target SB3's own, the max over every code (:class:`MaskedDQN` with ``legal_target``
  False); ``dqn-legal``: the same with the target's max over the next state's legal codes
  only (the masks kept in the replay buffer). Both report the mean of ``max Q`` over
  every code and over the legal codes on states of their replay buffer, and how often
  their greedy choice draws where a card could be played: what tells the two apart;
- ``pg``: OpenSpiel's policy gradient (``open_spiel.python.pytorch.policy_gradient``,
  ``a2c`` loss, its defaults) on ``python_eights`` through OpenSpiel's ``rl_environment``,
  the other seats ``--train-against``, one round an episode, the dealer rotating;
- ``nfsp``: self-play, OpenSpiel's Neural Fictitious Self-Play
  (``open_spiel.python.pytorch.nfsp``: one agent a seat, each a DQN best response and an
  average policy; its example's settings scaled down) on ``python_eights``; the average
  policy of seat 0 is measured (it needs ``dm-tree``, which eights does not install);
- ``dmc``: self-play, DouZero's deep Monte Carlo written small (:func:`train_dmc`): a
  Q-network over the codes, its targets the round's final reward (no bootstrap, no
  discount), ε-greedy, on the batched tables where the other seats are a copy of the
  network (refreshed every 50 updates) playing greedily.

Then each learnt policy (its most likely legal code: deterministic), and for scale the bots
``random``, ``greedy``, ``expert`` and the shipped ``learned`` model, play ``--deals``
duplicate deals against each of ``random``, ``greedy`` and ``expert`` on the reference
engine: the same cards replayed with the measured side in each seat in turn (with teams,
in each team's seats in turn), every other seat the opponent. A cell is the share of rounds
won (joint winners split) with a 95% interval over deals (Student t, each deal's mean over
its replays one observation); level is ``1 / players`` (one half with teams). Each row
gives the steps its algorithm took (factored steps for ``ppo-factored``) and its CPU and
wall seconds. docs/environments.md keeps the figures measured.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from common import Bench, machine_line
from eights.bots import make_bot
from eights.codes import A_DRAW, A_MULTI, action_code, action_count, observation, observation_size
from eights.engine.game import Game
from eights.engine.rules import Rules, load_rules
from eights.lab.tournament import make_deal
from eights.rl.factored import Plays

Act = Callable[[npt.NDArray[np.int32], npt.NDArray[np.bool_]], int]
"""A learnt policy: one seat's observation integers and its mask of legal codes, to a code."""
OPPONENTS = ("random", "greedy", "expert")
REFERENCE = ("random", "greedy", "expert", "learned")


@dataclass(frozen=True)
class Setting:
    """What is learnt: the rules (and how they were given: a preset's name or a file),
    and the seats."""

    source: str
    players: int

    @cached_property
    def rules(self) -> Rules:
        return load_rules(self.source)

    @cached_property
    def codes(self) -> int:
        return action_count(self.rules, self.players)

    @cached_property
    def teams(self) -> bool:
        return self.rules.has_teams(self.players)


@dataclass
class Trained:
    """A learnt policy, the steps it took, and what its trainer noted."""

    act: Act
    steps: int
    notes: dict[str, Any]


class Budget:
    """Stops a training loop once this process has used ``seconds`` of CPU time since
    :meth:`start`."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.cpu = self.wall = 0.0

    def start(self) -> None:
        self._cpu, self._wall = time.process_time(), time.perf_counter()

    def spent(self) -> bool:
        self.cpu = time.process_time() - self._cpu
        self.wall = time.perf_counter() - self._wall
        return self.cpu >= self.seconds


def _sb3_callback(budget: Budget) -> Any:
    from stable_baselines3.common.callbacks import BaseCallback

    class Stop(BaseCallback):
        def _on_step(self) -> bool:
            return not budget.spent()

    return Stop()


def warm(envs: Any) -> None:
    """One step of an SB3 ``VecEnv`` of the batched tables before any budget starts: the
    kernel compiled (or loaded from numba's cache) is not training time."""
    envs.reset()
    envs.step_async(envs.action_masks().argmax(axis=1))
    envs.step_wait()


def masked_argmax(values: npt.NDArray[Any], masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Each row's legal column of highest value."""
    return np.asarray(np.where(masks, values, -np.inf).argmax(axis=1), dtype=np.int64)


# ---------------------------------------------------------------- MaskablePPO
def train_ppo(setting: Setting, budget: Budget, seed: int, against: str,
              actions: str = "whole") -> Trained:
    from sb3_contrib import MaskablePPO

    from eights.rl.sb3 import EightsVecEnv

    envs = EightsVecEnv(setting.source, setting.players, 64, seed=seed, opponents=against,
                        reward="win", actions=actions)
    warm(envs)
    model = MaskablePPO("MlpPolicy", envs, n_steps=64, batch_size=1024, seed=seed, verbose=0)
    budget.start()
    model.learn(total_timesteps=10**10, callback=_sb3_callback(budget))

    def choose(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> int:
        action, _ = model.predict(obs[None], action_masks=mask[None], deterministic=True)
        return int(action[0])

    act = choose if actions == "whole" else factored_act(choose, setting.codes)
    return Trained(act, int(model.num_timesteps), {})


def factored_act(choose: Act, codes: int) -> Act:
    """A policy of factored steps (observation with the play's block, mask of tokens) as a
    policy of whole codes: the steps it takes at a decision, to the play they finish."""
    def act(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> int:
        plays = Plays(1, codes)
        plays.start(np.ones(1, dtype=np.bool_), mask[None])
        while True:
            token = choose(np.concatenate([obs, plays.block[0]]), plays.mask[0])
            whole = int(plays.push(np.array([token]), np.ones(1, dtype=np.bool_))[0])
            if whole >= 0:
                return whole

    return act


# ---------------------------------------------------------------- DQN, masked
def masked_dqn(legal_target: bool, codes: int) -> Any:
    """:class:`MaskedDQN` over ``codes`` actions, made when asked (it subclasses SB3's DQN):
    its choices while learning are legal; with ``legal_target`` its bootstrap target's
    max is over the next state's legal codes (kept, packed, in the replay buffer)."""
    import torch.nn.functional as F
    from stable_baselines3 import DQN
    from stable_baselines3.common.buffers import ReplayBuffer
    from stable_baselines3.common.type_aliases import ReplayBufferSamples

    class MaskBuffer(ReplayBuffer):
        """SB3's replay buffer with each transition's next legal codes, packed in bits."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.next_masks = np.zeros((self.buffer_size, self.n_envs, (codes + 7) // 8),
                                       dtype=np.uint8)
            self.pending = np.ones((self.n_envs, codes), dtype=np.bool_)
            self.sampled = np.ones((1, codes), dtype=np.bool_)

        def add(self, *args: Any, **kwargs: Any) -> None:
            at = self.pos
            super().add(*args, **kwargs)
            self.next_masks[at] = np.packbits(self.pending, axis=1)

        def _get_samples(self, batch_inds: npt.NDArray[Any], env: Any = None
                         ) -> ReplayBufferSamples:
            rows = self.masked_rng.integers(0, self.n_envs, size=len(batch_inds))
            self.sampled = np.unpackbits(self.next_masks[batch_inds, rows], axis=1,
                                         count=codes).astype(np.bool_)
            data = (self._normalize_obs(self.observations[batch_inds, rows, :], env),
                    self.actions[batch_inds, rows, :],
                    self._normalize_obs(self.next_observations[batch_inds, rows, :], env),
                    (self.dones[batch_inds, rows]
                     * (1 - self.timeouts[batch_inds, rows])).reshape(-1, 1),
                    self.rewards[batch_inds, rows].reshape(-1, 1))
            return ReplayBufferSamples(*tuple(map(self.to_torch, data)))

        masked_rng = np.random.default_rng(0)

    class MaskedDQN(DQN):
        """SB3's DQN whose choices while learning are legal: exploration draws a uniform
        legal code, the greedy choice is the legal code of highest Q (the env's
        ``action_masks``), both from ``masked_rng``."""

        masked_rng = np.random.default_rng(0)

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["replay_buffer_class"] = MaskBuffer
            super().__init__(*args, **kwargs)

        def _sample_action(self, learning_starts: int, action_noise: Any = None,
                           n_envs: int = 1) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
            assert self.env is not None
            masks = np.stack(self.env.env_method("action_masks"))
            eps = 1.0 if self.num_timesteps < learning_starts else self.exploration_rate
            rng = self.masked_rng
            chosen = masked_argmax(self.q_values(np.asarray(self._last_obs)), masks)
            explore = rng.random(n_envs) < eps
            drawn = (rng.random(masks.shape) * masks).argmax(axis=1)
            action = np.where(explore, drawn, chosen)
            return action, action

        def _store_transition(self, replay_buffer: Any, *args: Any, **kwargs: Any) -> None:
            assert self.env is not None
            replay_buffer.pending = np.stack(self.env.env_method("action_masks"))
            super()._store_transition(replay_buffer, *args, **kwargs)

        def q_values(self, obs: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
            with torch.no_grad():
                tensor, _ = self.policy.obs_to_tensor(obs)
                return np.asarray(self.q_net(tensor).cpu().numpy())

        def train(self, gradient_steps: int, batch_size: int = 100) -> None:
            if not legal_target:
                super().train(gradient_steps, batch_size)
                return
            self.policy.set_training_mode(True)
            self._update_learning_rate(self.policy.optimizer)
            buffer = self.replay_buffer
            assert isinstance(buffer, MaskBuffer)
            for _ in range(gradient_steps):
                data = buffer.sample(batch_size)
                legal = torch.as_tensor(buffer.sampled)
                with torch.no_grad():
                    ahead = self.q_net_target(data.next_observations)
                    best = ahead.masked_fill(~legal, -1e9).max(dim=1).values.reshape(-1, 1)
                    best = torch.where(legal.any(dim=1, keepdim=True), best, 0.0)
                    target = data.rewards + (1 - data.dones) * self.gamma * best
                now = self.q_net(data.observations).gather(1, data.actions.long())
                loss = F.smooth_l1_loss(now, target)
                self.policy.optimizer.zero_grad()
                loss.backward()  # type: ignore[no-untyped-call]
                torch.nn.utils.clip_grad_norm_(self.policy.parameters(), self.max_grad_norm)
                self.policy.optimizer.step()
            self._n_updates += gradient_steps

    return MaskedDQN


def train_dqn(setting: Setting, budget: Budget, seed: int, against: str,
              legal_target: bool = False, normalize: bool = False, gamma: float = 0.99,
              target_every: int = 10_000) -> Trained:
    from stable_baselines3.common.vec_env import VecNormalize

    from eights.rl.sb3 import EightsVecEnv

    envs: Any = EightsVecEnv(setting.source, setting.players, 8, seed=seed, opponents=against,
                             reward="win")
    if normalize:  # observations by their running mean and deviation, as SB3 offers
        envs = VecNormalize(envs, norm_obs=True, norm_reward=False, gamma=gamma)
    model = masked_dqn(legal_target, setting.codes)(
        "MlpPolicy", envs, learning_starts=10_000, buffer_size=100_000, batch_size=128,
        train_freq=1, gradient_steps=1, target_update_interval=target_every, gamma=gamma,
        exploration_fraction=0.05, exploration_final_eps=0.05, seed=seed, verbose=0)
    model.masked_rng = np.random.default_rng(seed)
    model.replay_buffer.masked_rng = np.random.default_rng(seed + 1)
    warm(envs)
    budget.start()
    model.learn(total_timesteps=4_000_000, callback=_sb3_callback(budget))

    if normalize:
        envs.training = False

    def act(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> int:
        seen = envs.normalize_obs(obs[None]) if normalize else obs[None]
        return int(masked_argmax(model.q_values(seen), mask[None])[0])

    return Trained(act, int(model.num_timesteps), q_diagnosis(model))


def q_diagnosis(model: Any) -> dict[str, Any]:
    """On up to 4,000 states of the replay buffer: the mean of max Q over every code and
    over the legal codes (the true values lie in [-1, 1] with win rewards), and the share
    of states with a legal play where the greedy legal choice is to draw."""
    buffer = model.replay_buffer
    filled = buffer.buffer_size if buffer.full else buffer.pos
    rows = np.random.default_rng(0).integers(0, filled, size=min(4000, filled))
    obs = buffer.next_observations[rows, 0]
    done = buffer.dones[rows, 0] > 0
    codes = buffer.pending.shape[1]
    legal = np.unpackbits(buffer.next_masks[rows, 0], axis=1, count=codes).astype(np.bool_)
    keep = ~done & legal.any(axis=1)
    if model._vec_normalize_env is not None:
        obs = model._vec_normalize_env.normalize_obs(obs)
    values, legal = model.q_values(obs[keep]), legal[keep]
    chosen = masked_argmax(values, legal)
    plays = legal[:, :A_DRAW].any(axis=1) | legal[:, A_MULTI:].any(axis=1)
    return {"q_max_all": round(float(values.max(axis=1).mean()), 3),
            "q_max_legal": round(float(np.where(legal, values, -np.inf).max(axis=1).mean()), 3),
            "draws_when_a_play_is_legal": round(float((chosen[plays] == A_DRAW).mean()), 3),
            "states": int(keep.sum())}


# ---------------------------------------------------------------- OpenSpiel: pg and nfsp
def _openspiel_envs(setting: Setting, seed: int) -> list[Any]:
    import pyspiel
    from open_spiel.python import rl_environment

    return [rl_environment.Environment(
        pyspiel.load_game("python_eights", {"rules": setting.source,
                                            "players": setting.players, "reward": "win",
                                            "dealer": dealer}),
        observation_type=rl_environment.ObservationType.OBSERVATION,
        chance_event_sampler=rl_environment.ChanceEventSampler(seed + dealer))
        for dealer in range(setting.players)]


def _episodes(envs: list[Any], budget: Budget, move: Callable[[Any, Any, int], int],
              finish: Callable[[Any], None]) -> None:
    """Rounds of OpenSpiel's ``rl_environment`` (the dealer rotating through ``envs``) until
    the budget is spent: ``move(step, env, player)`` chooses each action, ``finish(step)``
    sees each round's last step."""
    episode = 0
    budget.start()
    while not budget.spent():
        env = envs[episode % len(envs)]
        step = env.reset()
        while not step.last():
            step = env.step([move(step, env, step.observations["current_player"])])
        finish(step)
        episode += 1


def train_pg(setting: Setting, budget: Budget, seed: int, against: str) -> Trained:
    from open_spiel.python.pytorch import policy_gradient

    from eights.openspiel import BotAdapter

    np.random.seed(seed)  # the agent samples with NumPy's global generator
    torch.manual_seed(seed)
    envs = _openspiel_envs(setting, seed)
    agent = policy_gradient.PolicyGradient(0, observation_size(setting.players), setting.codes,
                                           loss_str="a2c")
    others = [BotAdapter(make_bot(against), seed + 7 + s) for s in range(setting.players)]
    steps = 0

    def move(step: Any, env: Any, player: int) -> int:
        nonlocal steps
        if player:
            return int(others[player].step(env.get_state))
        steps += 1
        return int(agent.step(step).action)

    _episodes(envs, budget, move, agent.step)

    def act(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> int:
        with torch.no_grad():
            logits = agent._policy_logits_layer(agent._net_torso(torch.Tensor(obs[None])))
        return int(masked_argmax(logits.numpy(), mask[None])[0])

    return Trained(act, steps, {})


def train_nfsp(setting: Setting, budget: Budget, seed: int, against: str) -> Trained:
    try:
        from open_spiel.python.pytorch import nfsp
    except ModuleNotFoundError as exc:  # its reservoir imports dm-tree
        raise SystemExit(f"nfsp: OpenSpiel's NFSP needs {exc.name!r}, not installed "
                         "(pip install dm-tree); dmc is the self-play that needs nothing more"
                         ) from None

    np.random.seed(seed)
    torch.manual_seed(seed)
    envs = _openspiel_envs(setting, seed)
    agents = [nfsp.NFSP(p, observation_size(setting.players), setting.codes, [128],
                        reservoir_buffer_capacity=200_000, anticipatory_param=0.1,
                        batch_size=128, rl_learning_rate=0.01, sl_learning_rate=0.01,
                        min_buffer_size_to_learn=1000, learn_every=64, optimizer_str="sgd",
                        replay_buffer_capacity=200_000, epsilon_start=0.06, epsilon_end=0.001,
                        seed=seed + p)
              for p in range(setting.players)]
    steps = episodes = 0

    def move(step: Any, env: Any, player: int) -> int:
        nonlocal steps
        steps += 1
        return int(agents[player].step(step).action)

    def finish(step: Any) -> None:
        nonlocal episodes
        episodes += 1
        for agent in agents:
            agent.step(step)

    _episodes(envs, budget, move, finish)
    average = agents[0]._avg_network

    def act(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> int:
        with torch.no_grad():
            logits = average(torch.Tensor(obs[None].astype(np.float32)))
        return int(masked_argmax(logits.numpy(), mask[None])[0])

    return Trained(act, steps, {"episodes": episodes})


# ---------------------------------------------------------------- deep Monte Carlo
def train_dmc(setting: Setting, budget: Budget, seed: int, against: str) -> Trained:
    """DouZero's deep Monte Carlo, small: a Q-network over the codes regressed on the
    round's final reward for each (observation, code) the learning seat met; ε-greedy
    (ε 0.1) at 64 batched tables whose other seats are a frozen copy of the network,
    playing its greedy legal choice, refreshed every 50 updates (self-play)."""
    from eights.rl import EightsVectorEnv

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    size, codes, batch = observation_size(setting.players), setting.codes, 64

    def network() -> torch.nn.Module:
        return torch.nn.Sequential(torch.nn.Linear(size, 256), torch.nn.ReLU(),
                                   torch.nn.Linear(256, 256), torch.nn.ReLU(),
                                   torch.nn.Linear(256, codes))

    q, frozen = network(), network()
    frozen.load_state_dict(q.state_dict())
    optimizer = torch.optim.Adam(q.parameters(), lr=1e-4)

    def greedy(net: torch.nn.Module, obs: npt.NDArray[Any], mask: npt.NDArray[np.bool_]
               ) -> npt.NDArray[np.int64]:
        with torch.no_grad():
            values = net(torch.as_tensor(obs, dtype=torch.float32)).numpy()
        return masked_argmax(values, mask)

    def opponent(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
        return greedy(frozen, obs, mask)

    envs = EightsVectorEnv(setting.source, setting.players, batch, opponents=opponent,
                           reward="win")
    obs_all, _ = envs.reset(seed=seed)  # the kernel compiled (or loaded) here, unbudgeted
    obs_all, *_ = envs.step(obs_all["action_mask"].argmax(axis=1))
    episodes: list[list[tuple[npt.NDArray[np.int32], int]]] = [[] for _ in range(batch)]
    memory_obs = np.zeros((50_000, size), dtype=np.float32)
    memory_act = np.zeros(50_000, dtype=np.int64)
    memory_ret = np.zeros(50_000, dtype=np.float32)
    filled = at = steps = updates = 0
    budget.start()
    while not budget.spent():
        obs, mask = obs_all["observation"], obs_all["action_mask"].astype(np.bool_)
        chosen = greedy(q, obs, mask)
        explore = rng.random(batch) < 0.1
        drawn = (rng.random(mask.shape) * mask).argmax(axis=1)
        actions = np.where(explore, drawn, chosen)
        live = mask.any(axis=1)
        for b in np.flatnonzero(live):
            episodes[b].append((obs[b], int(actions[b])))
        steps += int(live.sum())
        obs_all, rewards, terminated, truncated, _ = envs.step(actions)
        for b in np.flatnonzero(terminated | truncated):
            for seen, code in episodes[b]:
                memory_obs[at], memory_act[at], memory_ret[at] = seen, code, rewards[b]
                at = (at + 1) % len(memory_obs)
                filled = min(filled + 1, len(memory_obs))
            episodes[b] = []
        if filled >= 2_000:
            rows = rng.integers(0, filled, size=256)
            values = q(torch.as_tensor(memory_obs[rows])).gather(
                1, torch.as_tensor(memory_act[rows])[:, None]).squeeze(1)
            loss = torch.nn.functional.mse_loss(values, torch.as_tensor(memory_ret[rows]))
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            torch.nn.utils.clip_grad_norm_(q.parameters(), 40.0)
            optimizer.step()
            updates += 1
            if updates % 50 == 0:
                frozen.load_state_dict(q.state_dict())

    def act(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> int:
        return int(greedy(q, obs[None], mask[None])[0])

    return Trained(act, steps, {"updates": updates})


TRAINERS: dict[str, Callable[[Setting, Budget, int, str], Trained]] = {
    "ppo": train_ppo,
    "ppo-factored": lambda s, b, seed, a: train_ppo(s, b, seed, a, actions="factored"),
    "dqn": train_dqn,
    "dqn-legal": lambda s, b, seed, a: train_dqn(s, b, seed, a, legal_target=True),
    "dqn-legal-norm": lambda s, b, seed, a: train_dqn(s, b, seed, a, legal_target=True,
                                                      normalize=True),
    "dqn-legal-gamma1": lambda s, b, seed, a: train_dqn(s, b, seed, a, legal_target=True,
                                                        gamma=1.0),
    "dqn-legal-norm-1k": lambda s, b, seed, a: train_dqn(s, b, seed, a, legal_target=True,
                                                         normalize=True, target_every=1000),
    "pg": train_pg,
    "nfsp": train_nfsp,
    "dmc": train_dmc,
}
NAMES = {"ppo": "MaskablePPO (sb3-contrib)", "ppo-factored": "MaskablePPO, factored actions",
         "dqn": "DQN, masked choices (SB3)", "dqn-legal": "DQN, masked choices and target",
         "dqn-legal-norm": "DQN, masked target, normalized observations",
         "dqn-legal-gamma1": "DQN, masked target, no discount",
         "dqn-legal-norm-1k": "DQN, masked target, normalized, target every 1,000",
         "pg": "policy gradient, a2c (OpenSpiel)", "nfsp": "NFSP, self-play (OpenSpiel)",
         "dmc": "deep Monte Carlo, self-play"}
SELF_PLAY = ("nfsp", "dmc")


# ---------------------------------------------------------------- measuring
def lineups(setting: Setting) -> list[tuple[int, ...]]:
    """The seats of the measured side in each replay of a deal: each seat in turn, or with
    teams each team's seats."""
    n = setting.players
    if setting.teams:
        return [tuple(range(first, n, 2)) for first in (0, 1)]
    return [(seat,) for seat in range(n)]


def duplicate(setting: Setting, act: Act | str, opponent: str, deals: int,
              seed: int) -> tuple[float, float]:
    """``act`` (a learnt policy, or a bot spec) against ``opponent`` in ``deals`` duplicate
    deals: its share of rounds won, and the half-width of its 95% interval over deals."""
    rules, n = setting.rules, setting.players
    shares = []
    for d in range(deals):
        deal = make_deal(rules, n, seed, d)
        won = 0.0
        replays = lineups(setting)
        for r, mine in enumerate(replays):
            rng = random.Random(seed * 1_000_003 + d * 16 + r)
            theirs = make_bot(opponent)
            bot = make_bot(act) if isinstance(act, str) else None
            game = Game(rules, n, seed=deal.seed, dealer=0, deck=deal.deck)
            while not game.over:
                p = game.to_move
                legal = game.legal_actions()
                seen = game.observe(p)
                if p not in mine:
                    choice = theirs.choose(seen, legal, rng)
                elif bot is not None:
                    choice = bot.choose(seen, legal, rng)
                elif len(legal) == 1:
                    choice = legal[0]
                else:
                    assert not isinstance(act, str)
                    by_code = {action_code(a): a for a in legal}
                    mask = np.zeros(setting.codes, dtype=np.bool_)
                    mask[list(by_code)] = True
                    choice = by_code[act(np.array(observation(seen), dtype=np.int32), mask)]
                game.apply(choice)
            winners = game.round_winners or []
            ours = [w for w in winners if w in mine]
            if ours:
                won += len(ours) / len(winners) if not setting.teams else 1.0
        shares.append(won / len(replays))
    mean = statistics.fmean(shares)
    spread = statistics.stdev(shares) if deals > 1 else 0.0
    return mean, 1.96 * spread / math.sqrt(deals)


def table(setting: Setting, rows: Sequence[dict[str, Any]], minutes: float, deals: int,
          seed: int, against: str) -> str:
    """The rows as a Markdown table, its header giving the setting and the budgets."""
    level = 0.5 if setting.teams else 1 / setting.players
    who = "teams of two" if setting.teams else f"{setting.players} players"
    lines = [f"| {setting.rules.name}, {who} (level {level:.3g}) | steps in {minutes:g} CPU min "
             f"| vs random | vs greedy | vs expert |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for row in rows:
        cells = [f"{row[o][0]:.3f} ± {row[o][1]:.3f}" for o in OPPONENTS]
        steps = f"{row['steps']:,}" if "steps" in row else ""
        lines.append(f"| {row['agent']} | {steps} | " + " | ".join(cells) + " |")
    lines.append(f"\n({deals} duplicate deals a cell, seed {seed}; learners trained against "
                 f"{against}, self-play ones against themselves; {machine_line()})")
    return "\n".join(lines)


def main() -> None:
    bench = Bench(__doc__)
    bench.parser.add_argument("--rules", default="classic", help="a preset or a rules file")
    bench.parser.add_argument("--players", type=int, default=2)
    bench.parser.add_argument("--minutes", type=float, default=5.0,
                              help="CPU minutes of training for each algorithm")
    bench.parser.add_argument("--deals", type=int, default=150, help="duplicate deals a match-up")
    bench.parser.add_argument("--algorithms", default="ppo,dqn,pg",
                              help=f"by commas, of {', '.join(TRAINERS)}")
    bench.parser.add_argument("--train-against", default="random", choices=("random", "greedy"))
    bench.parser.add_argument("--reference", default=",".join(REFERENCE),
                              help="bots measured the same way, for scale ('' for none)")
    args = bench.parse()
    torch.set_num_threads(1)
    setting = Setting(args.rules, args.players)
    rules = setting.rules
    rows: list[dict[str, Any]] = []

    def measure(name: str, act: Act | str, extra: dict[str, Any]) -> None:
        row: dict[str, Any] = {"agent": name, **extra}
        began = time.process_time()
        for opponent in OPPONENTS:
            share, half = duplicate(setting, act, opponent, args.deals, args.seed)
            row[opponent] = [round(share, 4), round(half, 4)]
        row["eval_cpu"] = round(time.process_time() - began, 1)
        rows.append(row)
        bench.say(str(row))
        bench.result(row)

    bench.say(f"# {rules.name}, {args.players} players, {args.minutes} CPU minutes each, "
              f"trained against {args.train_against}, {args.deals} duplicate deals, "
              f"seed {args.seed}")
    for algo in filter(None, args.algorithms.split(",")):
        if algo not in TRAINERS:
            bench.parser.error(f"unknown algorithm {algo!r}; algorithms: {', '.join(TRAINERS)}")
        budget = Budget(args.minutes * 60)
        trained = TRAINERS[algo](setting, budget, args.seed, args.train_against)
        measure(NAMES[algo], trained.act, {
            "algorithm": algo, "steps": trained.steps, "cpu": round(budget.cpu, 1),
            "wall": round(budget.wall, 1), **trained.notes})
    for spec in filter(None, args.reference.split(",")):
        measure(f"bot `{spec}`", spec, {})
    print(table(setting, rows, args.minutes, args.deals, args.seed, args.train_against))


if __name__ == "__main__":
    main()
