"""Environment steps per second: the PettingZoo env, the Gymnasium env and the batched one.

    python benchmarks/environments.py [--rules classic] [--players 4] [--seconds 3]
                                      [--batches 1,64,1024] [--actions whole,factored]

In one run, on one rule set, each environment is driven by a masked uniform-random
policy (NumPy) for ``--seconds`` of CPU time, episodes one after another (best of
``--repeats``, alternating so that a busy machine hurts all alike):

- ``pettingzoo``: ``eights.rl.env`` (PettingZoo's wrappers included), a step is one
  seat's decision (``last()`` then ``step()``; the finished agents' ``None`` steps are
  not counted);
- ``gymnasium``: ``eights.rl.EightsEnv`` with ``random`` opponents, a step is one
  decision of the learning seat, the bots' decisions in between included in its cost;
- ``batched-N``: ``eights.rl.EightsVectorEnv`` with ``num_envs=N`` and ``random``
  opponents (inside the compiled kernel), a step is one table's step (one decision of
  its learning seat, the others' in between), so a call of ``step`` is N steps; the
  policy is the same masked uniform choice made for every table at once with NumPy
  (:func:`random_legal`). Its time is counted, as the others' policies are; the
  ``env only`` rate leaves it out.

Each rate is printed with its ratios to the PettingZoo env's and the Gymnasium env's (a
batched step is worth a Gymnasium step: one decision of the learning seat and the
opponents' in between; a PettingZoo step is one seat's decision). With ``--actions
factored`` each environment is measured again in the factored action mode
(:mod:`eights.rl.factored`), where a step is one step of a play (a card, a suit, done):
the rows ``... factored`` count those steps, and the decisions they make.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from common import Bench
from eights.rl import EightsEnv, EightsVectorEnv, env


class Run(NamedTuple):
    """What one run measured: steps, episodes, CPU seconds (the policy's among them)."""

    steps: int
    episodes: int
    cpu: float
    policy_cpu: float | None = None


def pettingzoo_steps(rules: str, players: int, seconds: float, seed: int = 1,
                     actions: str = "whole") -> Run:
    """Steps, episodes and CPU seconds of the PettingZoo env."""
    table = env(rules, players, actions=actions)
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    start = time.process_time()
    while time.process_time() < start + seconds:
        table.reset(seed=seed + episodes)
        for _ in table.agent_iter():
            obs, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            table.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        episodes += 1
    return Run(steps, episodes, time.process_time() - start)


def gymnasium_steps(rules: str, players: int, seconds: float, seed: int = 1,
                    actions: str = "whole") -> Run:
    """Steps, episodes and CPU seconds of the Gymnasium env (random opponents)."""
    single = EightsEnv(rules, players, opponents="random", actions=actions)
    rng = np.random.default_rng(seed)
    steps = episodes = 0
    start = time.process_time()
    obs, _ = single.reset(seed=seed)
    while time.process_time() < start + seconds:
        obs, _, terminated, _, _ = single.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if terminated:
            episodes += 1
            obs, _ = single.reset()
    return Run(steps, episodes, time.process_time() - start)


def random_legal(rng: np.random.Generator, mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
    """A uniformly random legal code a row of ``mask`` (0 on a row with none: a table whose
    round just ended ignores its action), in a few NumPy calls for the whole batch."""
    batch, width = mask.shape
    legal = np.flatnonzero(mask.view(np.bool_))  # row-major: each row's codes in a run
    if not len(legal):
        return np.zeros(batch, dtype=np.int64)
    counts = np.bincount(legal // width, minlength=batch)
    last = np.cumsum(counts) - 1  # each row's last legal code in ``legal``
    picks = legal[np.maximum(last - (rng.random(batch) * counts).astype(np.int64), 0)] % width
    return np.where(counts > 0, picks, 0)


def batched_steps(rules: str, players: int, seconds: float, seed: int = 1, *,
                  batch: int, mode: str = "whole") -> Run:
    """Table-steps, episodes and CPU seconds of the batched env (random opponents); one
    ``step`` first, untimed, to load the compiled code."""
    tables = EightsVectorEnv(rules, players, batch, opponents="random", actions=mode)
    rng = np.random.default_rng(seed)
    obs, _ = tables.reset(seed=seed)
    obs, *_ = tables.step(random_legal(rng, obs["action_mask"]))
    steps = episodes = 0
    policy = 0.0
    start = time.process_time()
    while (now := time.process_time()) < start + seconds:
        actions = random_legal(rng, obs["action_mask"])
        policy += time.process_time() - now
        obs, _rewards, terminated, _cut, _infos = tables.step(actions)
        steps += batch
        episodes += int(terminated.sum())
    return Run(steps, episodes, time.process_time() - start, policy)


def main() -> None:
    bench = Bench(__doc__, seed=1)
    bench.parser.add_argument("--rules", default="classic", help="a preset or a rules file")
    bench.parser.add_argument("--players", type=int, default=4)
    bench.parser.add_argument("--seconds", type=float, default=3.0, help="CPU time a run")
    bench.parser.add_argument("--repeats", type=int, default=3)
    bench.parser.add_argument("--batches", default="1,64,1024",
                              help="the batched env's num_envs, separated by commas")
    bench.parser.add_argument("--actions", default="whole",
                              help="action modes measured, by commas: whole, factored")
    args = bench.parse()
    runs: dict[str, Callable[..., Run]] = {}
    for mode in args.actions.split(","):
        tag = "" if mode == "whole" else f" {mode}"
        runs[f"pettingzoo{tag}"] = functools.partial(pettingzoo_steps, actions=mode)
        runs[f"gymnasium{tag}"] = functools.partial(gymnasium_steps, actions=mode)
        for batch in (int(b) for b in args.batches.split(",")):
            runs[f"batched-{batch}{tag}"] = functools.partial(batched_steps, batch=batch,
                                                              mode=mode)
    best: dict[str, Run] = {}
    for _ in range(args.repeats):
        for name, run in runs.items():
            got = run(args.rules, args.players, args.seconds, args.seed)
            if name not in best or got.steps / got.cpu > best[name].steps / best[name].cpu:
                best[name] = got
    bench.say(f"{args.rules}, {args.players} players, {args.seconds:g} s CPU a run, best of "
              f"{args.repeats}, seed {args.seed}")
    first = next(iter(best))
    base = best[first].steps / best[first].cpu
    gym = next(name for name in best if name.startswith("gymnasium"))
    single = best[gym].steps / best[gym].cpu
    print(f"  {'':<24} {'steps/s':>12} {'x ' + first:>13} {'x ' + gym:>12}   "
          f"{'env only':>10} {'x ' + first:>13}   steps, episodes")
    for name, got in best.items():
        rate = got.steps / got.cpu
        line = f"  {name:<24} {rate:>12,.0f} {rate / base:>13.1f} {rate / single:>12.1f}   "
        alone = None
        if got.policy_cpu is None:
            line += f"{'':>10} {'':>13}"
        else:
            alone = got.steps / (got.cpu - got.policy_cpu)
            line += f"{alone:>10,.0f} {alone / base:>13.1f}"
        print(f"{line}   {got.steps:,}, {got.episodes:,}")
        bench.result({"env": name, "steps_per_s": round(rate), "env_only": alone and round(alone),
                      "steps": got.steps, "episodes": got.episodes, "cpu_s": round(got.cpu, 3)})

if __name__ == "__main__":
    main()
