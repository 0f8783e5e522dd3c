"""Baselines: standard algorithms trained for the same CPU budget, measured against random,
greedy and the expert in duplicate deals.

    python benchmarks/rl_baselines.py --rules classic --minutes 5 --deals 150 --seed 0 \\
        [--algorithms ppo,dqn,pg] [--train-against random] [--out FILE.json]

For one rule set at two players, each algorithm learns seat play from nothing for
``--minutes`` of this process's CPU time (``time.process_time``: on a shared machine the
figure that gives each the same work, whatever the load; PyTorch is given one thread),
every one with ``reward="win"`` (+1 a round won, -1 lost) against the ``--train-against``
opponent (a uniform random legal player by default):

- ``ppo``: sb3-contrib's ``MaskablePPO`` (``MlpPolicy``, its defaults but ``n_steps=64``,
  ``batch_size=1024``) on :class:`eights.rl.sb3.EightsVecEnv`, 64 batched tables;
- ``dqn``: Stable-Baselines3's ``DQN`` (``MlpPolicy``) on 8 batched tables, its choices
  masked (:class:`MaskedDQN`: exploration draws a legal code, the greedy choice is the
  legal code of highest Q; the bootstrap target's max is SB3's, over every code);
- ``pg``: OpenSpiel's policy gradient (``open_spiel.python.pytorch.policy_gradient``,
  ``a2c`` loss, its defaults) on ``python_eights`` through OpenSpiel's
  ``rl_environment`` (the observation tensor: the same integers as the batched tables),
  one round an episode, the dealer alternating.

Then each learnt policy (its most likely legal code: deterministic), and for scale the
bots ``random``, ``greedy``, ``expert`` and the shipped ``learned`` model, play
``--deals`` duplicate deals (:func:`eights.lab.tournament.make_deal`: the same cards, the
seats swapped, so each side holds each hand once) against each of ``random``, ``greedy``
and ``expert`` on the reference engine. A row gives the share of rounds won (0.5 is level;
shares of a round's joint winners split) with a 95% interval over the deals (Student t,
each deal's mean over its two replays one observation), the steps each algorithm took and
its CPU and wall seconds. docs/environments.md keeps the figures measured.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from eights.bots import make_bot
from eights.codes import action_code, action_count, observation, observation_size
from eights.engine.game import Game
from eights.engine.rules import Rules, load_rules
from eights.lab.tournament import make_deal

Act = Callable[[npt.NDArray[np.int32], npt.NDArray[np.bool_]], int]
"""A learnt policy: one seat's observation integers and its mask of legal codes, to a code."""
PLAYERS = 2
OPPONENTS = ("random", "greedy", "expert")
REFERENCE = ("random", "greedy", "expert", "learned")


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


def train_ppo(rules: Rules, budget: Budget, seed: int, against: str) -> tuple[Act, int]:
    from sb3_contrib import MaskablePPO

    from eights.rl.sb3 import EightsVecEnv

    envs = EightsVecEnv(rules.name, PLAYERS, 64, seed=seed, opponents=against, reward="win")
    model = MaskablePPO("MlpPolicy", envs, n_steps=64, batch_size=1024, seed=seed, verbose=0)
    budget.start()
    model.learn(total_timesteps=10**10, callback=_sb3_callback(budget))

    def act(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> int:
        action, _ = model.predict(obs[None], action_masks=mask[None], deterministic=True)
        return int(action[0])

    return act, int(model.num_timesteps)


def masked_dqn() -> Any:
    """:class:`MaskedDQN`, made when asked (it subclasses SB3's DQN)."""
    from stable_baselines3 import DQN

    class MaskedDQN(DQN):
        """SB3's DQN whose choices while learning are legal: exploration draws a uniform
        legal code, the greedy choice is the legal code of highest Q (the env's
        ``action_masks``), both from ``masked_rng``."""

        masked_rng = np.random.default_rng(0)

        def _sample_action(self, learning_starts: int, action_noise: Any = None,
                           n_envs: int = 1) -> tuple[np.ndarray, np.ndarray]:
            assert self.env is not None
            masks = np.stack(self.env.env_method("action_masks"))
            eps = 1.0 if self.num_timesteps < learning_starts else self.exploration_rate
            rng = self.masked_rng
            chosen = masked_argmax(self.q_values(np.asarray(self._last_obs)), masks)
            explore = rng.random(n_envs) < eps
            drawn = (rng.random(masks.shape) * masks).argmax(axis=1)
            action = np.where(explore, drawn, chosen)
            return action, action

        def q_values(self, obs: npt.NDArray[Any]) -> npt.NDArray[np.float32]:
            with torch.no_grad():
                tensor, _ = self.policy.obs_to_tensor(obs)
                return np.asarray(self.q_net(tensor).cpu().numpy())

    return MaskedDQN


def masked_argmax(values: npt.NDArray[Any], masks: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Each row's legal column of highest value."""
    return np.asarray(np.where(masks, values, -np.inf).argmax(axis=1), dtype=np.int64)


def train_dqn(rules: Rules, budget: Budget, seed: int, against: str) -> tuple[Act, int]:
    from eights.rl.sb3 import EightsVecEnv

    envs = EightsVecEnv(rules.name, PLAYERS, 8, seed=seed, opponents=against, reward="win")
    model = masked_dqn()("MlpPolicy", envs, learning_starts=10_000, buffer_size=200_000,
                         batch_size=128, train_freq=1, gradient_steps=1,
                         target_update_interval=10_000, exploration_fraction=0.05,
                         exploration_final_eps=0.05, seed=seed, verbose=0)
    model.masked_rng = np.random.default_rng(seed)
    budget.start()
    model.learn(total_timesteps=4_000_000, callback=_sb3_callback(budget))

    def act(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> int:
        return int(masked_argmax(model.q_values(obs[None]), mask[None])[0])

    return act, int(model.num_timesteps)


def train_pg(rules: Rules, budget: Budget, seed: int, against: str) -> tuple[Act, int]:
    import pyspiel
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import policy_gradient

    from eights.openspiel import BotAdapter

    np.random.seed(seed)  # the agent samples with NumPy's global generator
    torch.manual_seed(seed)
    envs = [rl_environment.Environment(
        pyspiel.load_game("python_eights", {"rules": rules.name, "players": PLAYERS,
                                            "reward": "win", "dealer": dealer}),
        observation_type=rl_environment.ObservationType.OBSERVATION,
        chance_event_sampler=rl_environment.ChanceEventSampler(seed + dealer))
        for dealer in (0, 1)]
    agent = policy_gradient.PolicyGradient(0, observation_size(PLAYERS),
                                           action_count(rules, PLAYERS), loss_str="a2c")
    other = BotAdapter(make_bot(against), seed + 7)
    steps = episode = 0
    budget.start()
    while not budget.spent():
        env = envs[episode % 2]
        step = env.reset()
        while not step.last():
            if step.observations["current_player"] == 0:
                action = agent.step(step).action
                steps += 1
            else:
                action = other.step(env.get_state)
            step = env.step([action])
        agent.step(step)
        episode += 1

    def act(obs: npt.NDArray[np.int32], mask: npt.NDArray[np.bool_]) -> int:
        with torch.no_grad():
            logits = agent._policy_logits_layer(agent._net_torso(torch.Tensor(obs[None])))
        return int(masked_argmax(logits.numpy(), mask[None])[0])

    return act, steps


TRAINERS: dict[str, Callable[[Rules, Budget, int, str], tuple[Act, int]]] = {
    "ppo": train_ppo, "dqn": train_dqn, "pg": train_pg}
NAMES = {"ppo": "MaskablePPO (sb3-contrib)", "dqn": "DQN, masked (SB3)",
         "pg": "policy gradient, a2c (OpenSpiel)"}


def duplicate(rules: Rules, act: Act | str, opponent: str, deals: int,
              seed: int) -> tuple[float, float]:
    """``act`` (a learnt policy, or a bot spec) against ``opponent`` in ``deals`` duplicate
    deals: its share of rounds won, and the half-width of its 95% interval over deals."""
    shares = []
    for d in range(deals):
        deal = make_deal(rules, PLAYERS, seed, d)
        won = 0.0
        for mine in (0, 1):
            rng = random.Random(seed * 1_000_003 + d * 2 + mine)
            theirs = make_bot(opponent)
            bot = make_bot(act) if isinstance(act, str) else None
            policy = None if isinstance(act, str) else act
            game = Game(rules, PLAYERS, seed=deal.seed, dealer=0, deck=deal.deck)
            while not game.over:
                p = game.to_move
                legal = game.legal_actions()
                seen = game.observe(p)
                if p != mine:
                    choice = theirs.choose(seen, legal, rng)
                elif bot is not None:
                    choice = bot.choose(seen, legal, rng)
                elif len(legal) == 1:
                    choice = legal[0]
                else:
                    assert policy is not None
                    by_code = {action_code(a): a for a in legal}
                    mask = np.zeros(action_count(rules, PLAYERS), dtype=np.bool_)
                    mask[list(by_code)] = True
                    obs = np.array(observation(seen), dtype=np.int32)
                    choice = by_code[policy(obs, mask)]
                game.apply(choice)
            winners = game.round_winners or []
            if mine in winners:
                won += 1 / len(winners)
        shares.append(won / 2)
    mean = statistics.fmean(shares)
    spread = statistics.stdev(shares) if deals > 1 else 0.0
    return mean, 1.96 * spread / math.sqrt(deals)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--minutes", type=float, default=5.0,
                        help="CPU minutes of training for each algorithm")
    parser.add_argument("--deals", type=int, default=150, help="duplicate deals a match-up")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--algorithms", default="ppo,dqn,pg")
    parser.add_argument("--train-against", default="random", choices=("random", "greedy"))
    parser.add_argument("--reference", default=",".join(REFERENCE),
                        help="bots measured the same way, for scale ('' for none)")
    parser.add_argument("--out", help="write the results as JSON here too")
    args = parser.parse_args()
    torch.set_num_threads(1)
    rules = load_rules(args.rules)
    rows: list[dict[str, Any]] = []

    def measure(name: str, act: Act | str, extra: dict[str, Any]) -> None:
        row: dict[str, Any] = {"agent": name, **extra}
        began = time.process_time()
        for opponent in OPPONENTS:
            share, half = duplicate(rules, act, opponent, args.deals, args.seed)
            row[opponent] = [round(share, 4), round(half, 4)]
        row["eval_cpu"] = round(time.process_time() - began, 1)
        rows.append(row)
        print(json.dumps(row), flush=True)

    print(f"# {rules.name}, {PLAYERS} players, {args.minutes} CPU minutes each, trained "
          f"against {args.train_against}, {args.deals} duplicate deals, seed {args.seed}, "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)
    for algo in filter(None, args.algorithms.split(",")):
        budget = Budget(args.minutes * 60)
        act, steps = TRAINERS[algo](rules, budget, args.seed, args.train_against)
        measure(NAMES[algo], act, {"steps": steps, "cpu": round(budget.cpu, 1),
                                   "wall": round(budget.wall, 1),
                                   "load": round(os.getloadavg()[0], 2)})
    for spec in filter(None, args.reference.split(",")):
        measure(f"bot {spec}", spec, {})
    print(f"# done, load average {os.getloadavg()[0]:.2f}", flush=True)
    print(table(rules, rows))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump({"rules": rules.name, "players": PLAYERS, "minutes": args.minutes,
                       "deals": args.deals, "seed": args.seed,
                       "train_against": args.train_against, "rows": rows}, out, indent=1)


def table(rules: Rules, rows: Sequence[dict[str, Any]]) -> str:
    """The rows as a Markdown table."""
    lines = [f"| {rules.name}, 2 players | steps | vs random | vs greedy | vs expert |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for row in rows:
        cells = [f"{row[o][0]:.3f} ± {row[o][1]:.3f}" for o in OPPONENTS]
        steps = f"{row['steps']:,}" if "steps" in row else ""
        lines.append(f"| {row['agent']} | {steps} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
