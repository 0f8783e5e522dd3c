"""The family model: one network for every rule set and player count, imitating the expert.

    python -m eights.learn.family --out out/family [--seed 1] [--decisions 3000000]
                                  [--reuse 4] [--hours 3] [--resume]

The network is :class:`eights.learn.net.QNet` on the family's features
(:class:`eights.bots.learned.Encoder` with ``family=True``: the observation with ten
seats, the rules as a vector, what each card does). Its data is the expert's play
(:func:`collect`) on tasks drawn by :func:`task`: a preset (half the time) or house rules
drawn by :func:`eights.lab.houses.random_house`, at a player count from 2 to 10 that the
rules allow (:data:`PLAYER_WEIGHTS`). A task gives a chunk of :data:`CHUNK` decisions;
chunks go into a buffer of the last ``buffer`` decisions, and after each chunk the network
takes as many samples from the buffer (batches of 32 chunks' rows) as ``reuse`` times the
chunk's decisions: each decision is learned from about ``reuse`` times. The loss is the
cross-entropy of the expert's choice among the legal actions (as
:func:`eights.learn.imitate.imitate`); Adam, its learning rate falling from ``lr`` to a
tenth along a cosine over ``decisions``.

Every random choice flows from ``seed``: task ``i`` is drawn from ``(seed, i)``, its rounds
are dealt from it, the batches from the run's generator (one torch thread). Monitoring
(the agreement with the expert on chunks of another stream, ``monitor``) never uses the
training tasks; the measurements of docs/bots.md use other seeds again (their house-rules
files are drawn from seeds the training never draws from: :func:`task` draws its houses
from strings ``family:<seed>:<i>``).

The run writes ``OUT/family.pt`` (everything to go on with ``--resume``; the buffer
restarts empty), ``OUT/model.npz`` with its card ``OUT/model.json``, and a log line a
chunk to ``OUT/log.txt``.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import sys
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from eights.bots.blas import limit_process
from eights.bots.learned import (
    ACTION_FEATURES,
    CARD_RULE_FEATURES,
    FAMILY_ACTION,
    FAMILY_FORMAT,
    FAMILY_STATE,
    Model,
    action_table,
    card_effects,
    deck_counts,
    family_state,
    pad_observation,
    rules_features,
)
from eights.codes import A_DRAW, A_MULTI, N_ACTIONS
from eights.engine.rules import Rules, load_rules, preset_names
from eights.lab.houses import house_players, random_house
from eights.learn.imitate import demonstrations
from eights.learn.net import QNet

__all__ = ["CHUNK", "PLAYER_WEIGHTS", "Chunk", "Contexts", "FamilyRun", "Parts", "collect",
           "family_card", "layout", "main", "scores", "task"]

CHUNK = 1000
"""Decisions of one task."""
PRESET_SHARE = 0.5
"""Tasks on a preset (the others on house rules drawn at random)."""
PLAYER_WEIGHTS = {2: 3.0, 3: 2.0, 4: 2.0, 5: 1.0, 6: 1.5, 7: 0.75, 8: 0.75, 9: 0.5, 10: 0.5}
"""How often each player count is drawn (among those the rules allow)."""
LONGEST = 3000
"""A round longer than this many decisions is left (its decisions kept)."""


def task(seed: int, index: int, preset_share: float = PRESET_SHARE) -> tuple[Rules, int, int]:
    """Task ``index`` of a run of ``seed``: its rules, player count and the seed of its
    rounds (a preset ``preset_share`` of the time)."""
    rng = random.Random(f"family:{seed}:{index}")
    if rng.random() < preset_share:
        rules = load_rules(rng.choice(preset_names()))
    else:
        rules, _ = random_house(rng, f"house-{seed}-{index}")
    counts = [n for n in house_players(rules) if rules.players[0] <= n <= rules.players[1]]
    players = rng.choices(counts, [PLAYER_WEIGHTS[n] for n in counts])[0]
    return rules, players, rng.getrandbits(62)


@dataclass
class Chunk:
    """A teacher's decisions on one task: decision ``i`` saw ``obs[i]`` (padded,
    :func:`~eights.bots.learned.pad_observation`) and chose ``legal[start[i] + chosen[i]]``
    among ``legal[start[i]:start[i + 1]]``; ``context`` indexes :class:`Contexts`."""

    obs: npt.NDArray[np.int16]
    legal: npt.NDArray[np.int32]
    start: npt.NDArray[np.int64]
    chosen: npt.NDArray[np.int64]
    context: int

    def __len__(self) -> int:
        return len(self.chosen)


def collect(rules: Rules, players: int, decisions: int, seed: int, teacher: str = "expert",
            longest: int = LONGEST) -> tuple[npt.NDArray[np.int16], list[int], list[int],
                                             list[int]]:
    """``decisions`` choices of ``teacher`` playing every seat of rounds dealt from
    ``seed`` (a decision with one legal action is left out): padded observations, the legal
    codes (flat), their starts and the choices."""
    got = demonstrations(rules, players, teacher, decisions, seed, longest=longest)
    return (pad_observation(got.obs, players), got.legal.tolist(), got.start.tolist(),
            got.chosen.tolist())


class Contexts:
    """The rule sets and player counts met so far, each with its features: deck (53),
    card effects (53 x 23), rules vector, players."""

    def __init__(self) -> None:
        self.index: dict[tuple[Rules, int], int] = {}
        self.deck: list[npt.NDArray[np.float32]] = []
        self.effects: list[npt.NDArray[np.float32]] = []
        self.vector: list[npt.NDArray[np.float32]] = []
        self.players: list[int] = []
        self._stacked: tuple[torch.Tensor, ...] | None = None

    def add(self, rules: Rules, players: int) -> int:
        key = (rules, players)
        found = self.index.get(key)
        if found is None:
            found = self.index[key] = len(self.players)
            self.deck.append(deck_counts(rules, players))
            self.effects.append(np.array(card_effects(rules)))
            self.vector.append(np.array(rules_features(rules, players)))
            self.players.append(players)
            self._stacked = None
        return found

    def forget(self, keep: set[int]) -> None:
        """Nothing is removed (ids stay valid); the stacked arrays are rebuilt on need."""

    def arrays(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                              npt.NDArray[np.float32], npt.NDArray[np.int64]]:
        return (np.stack(self.deck), np.stack(self.effects), np.stack(self.vector),
                np.array(self.players, dtype=np.int64))


def family_card() -> dict[str, Any]:
    """What every family model's card starts with: its format and features (the training and
    the measurements follow)."""
    return {"format": FAMILY_FORMAT, "family": True, "rules": None, "players": None,
            "rules_name": "every rule set",
            "features": {"state": FAMILY_STATE, "action": FAMILY_ACTION,
                         "base_action": ACTION_FEATURES, "card_rule": CARD_RULE_FEATURES}}


Parts = Sequence[tuple[Chunk, npt.NDArray[np.int64]]]
"""Decisions ``i`` of chunks: a batch."""


def layout(parts: Parts) -> tuple[list[npt.NDArray[np.int64]], npt.NDArray[np.int64],
                                  npt.NDArray[np.int64]]:
    """Where the legal actions of the decisions ``parts`` lie: for each part, their places
    in its chunk's flat arrays (``legal`` and any array aligned with it), and for all of
    them together their row (the decision, in order) and column (the action's place among
    its decision's)."""
    flat: list[npt.NDArray[np.int64]] = []
    rows: list[npt.NDArray[np.int64]] = []
    cols: list[npt.NDArray[np.int64]] = []
    row = 0
    for c, idx in parts:
        first = c.start[idx]
        length = c.start[idx + 1] - first
        total = int(length.sum())
        offsets = np.arange(total) - np.repeat(np.cumsum(length) - length, length)
        flat.append(np.repeat(first, length) + offsets)
        rows.append(np.repeat(np.arange(row, row + len(idx)), length))
        cols.append(offsets)
        row += len(idx)
    return flat, np.concatenate(rows), np.concatenate(cols)


def scores(net: QNet, contexts: Contexts, base: torch.Tensor, parts: Parts) -> tuple[
        torch.Tensor, tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]]:
    """``net``'s scores of the legal actions of the decisions ``parts`` as rows padded with
    -1e9, and their places (row and column, :func:`layout`); ``base`` holds every action
    code's base features (:func:`~eights.bots.learned.action_table`)."""
    deck, effects, vector, players = contexts.arrays()
    obs = np.concatenate([c.obs[i] for c, i in parts])
    ctx = np.concatenate([np.full(len(i), c.context) for c, i in parts])
    flat, r_all, c_all = layout(parts)
    code = np.concatenate([c.legal[f].astype(np.int64) for (c, _), f in zip(parts, flat,
                                                                           strict=True)])
    states = family_state(obs, players[ctx], deck[ctx], effects[ctx], vector[ctx])
    card = np.where(code >= A_MULTI, (code - A_MULTI) % 530, code) // 10
    play = ((code < A_DRAW) | (code >= A_MULTI)).astype(np.float32)
    eff = effects[ctx[r_all], np.minimum(card, 52)] * play[:, None]
    device = net.out.weight.device  # the CPU, or a GPU the network was moved to
    a = torch.cat([base[torch.from_numpy(code)], torch.from_numpy(eff)], dim=1).to(device)
    rows, cols = torch.from_numpy(r_all).to(device), torch.from_numpy(c_all).to(device)
    h = torch.relu(net.state(torch.from_numpy(states).to(device))[rows] + net.action(a))
    for layer in net.layers:
        h = torch.relu(layer(h))
    out = torch.full((len(obs), int(c_all.max()) + 1), -1e9, device=device).index_put(
        (rows, cols), net.out(h)[:, 0])
    return out, (r_all, c_all)


class FamilyRun:
    """A run (see the module text)."""

    def __init__(self, seed: int, hidden: Sequence[int], decisions: int, reuse: float,
                 buffer: int, batch: int, lr: float, chunk: int = CHUNK,
                 teacher: str = "expert", preset_share: float = PRESET_SHARE) -> None:
        torch.set_num_threads(1)
        torch.manual_seed(seed)
        self.seed = seed
        self.hidden = tuple(hidden)
        self.decisions = decisions
        self.reuse = reuse
        self.buffer_size = buffer
        self.batch = batch
        self.lr = lr
        self.chunk = chunk
        self.teacher = teacher
        self.preset_share = preset_share
        self.net = QNet(FAMILY_STATE, self.hidden, FAMILY_ACTION)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)
        self.rng = np.random.default_rng(seed)
        self.contexts = Contexts()
        self.buffer: deque[Chunk] = deque()
        self.held = 0
        self.next_task = 0
        self.collected = 0
        self.samples = 0
        self.seconds = 0.0
        self.collect_seconds = 0.0
        self.failed: list[str] = []
        self.base = torch.from_numpy(np.array(action_table(N_ACTIONS)))
        self.monitor: list[Chunk] = []
        self.curve: list[dict[str, float]] = []

    # ------------------------------------------------------------------ data
    def make_chunk(self, rules: Rules, players: int, seed: int, size: int) -> Chunk:
        obs, legal, start, chosen = collect(rules, players, size, seed, self.teacher)
        return Chunk(obs, np.array(legal, dtype=np.int32), np.array(start, dtype=np.int64),
                     np.array(chosen, dtype=np.int64), self.contexts.add(rules, players))

    def add_task(self) -> int:
        """Play the next task's chunk into the buffer; its decisions (0 if it failed)."""
        rules, players, seed = task(self.seed, self.next_task, self.preset_share)
        self.next_task += 1
        try:
            chunk = self.make_chunk(rules, players, seed, self.chunk)
        except Exception as exc:  # a house the engine or the teacher cannot play: say so
            self.failed.append(f"task {self.next_task - 1} ({rules.name}, {players}p): "
                               f"{type(exc).__name__}: {exc}")
            return 0
        self.buffer.append(chunk)
        self.held += len(chunk)
        while self.held > self.buffer_size:
            self.held -= len(self.buffer.popleft())
        self.collected += len(chunk)
        return len(chunk)

    # ------------------------------------------------------------------ learning
    def logits(self, parts: list[tuple[Chunk, npt.NDArray[np.int64]]]) -> tuple[
            torch.Tensor, torch.Tensor]:
        """The scores of the legal actions of the decisions ``parts`` (padded with -1e9)
        and the teacher's choices."""
        out, _ = scores(self.net, self.contexts, self.base, parts)
        return out, torch.from_numpy(np.concatenate([c.chosen[i] for c, i in parts]))

    def sample(self) -> list[tuple[Chunk, npt.NDArray[np.int64]]]:
        """A batch: up to 32 chunks of the buffer, ``batch / 32`` decisions of each."""
        pick = self.rng.choice(len(self.buffer), size=min(32, len(self.buffer)), replace=False)
        each = max(1, self.batch // len(pick))
        return [(self.buffer[int(k)],
                 self.rng.integers(len(self.buffer[int(k)]), size=each)) for k in pick]

    def learn(self, samples: int) -> float:
        """``samples`` decisions' worth of batches; the mean loss."""
        total = 0.0
        seen = 0
        while seen < samples:
            parts = self.sample()
            progress = min(1.0, self.samples / max(1.0, self.reuse * self.decisions))
            for group in self.opt.param_groups:
                group["lr"] = self.lr * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress)))
            logits, target = self.logits(parts)
            loss = (-torch.log_softmax(logits, dim=1)[torch.arange(len(target)), target]).mean()
            self.opt.zero_grad()
            torch.autograd.backward(loss)
            self.opt.step()
            seen += len(target)
            self.samples += len(target)
            total += float(loss.detach()) * len(target)
        return total / max(seen, 1)

    def agreement(self) -> float:
        """The share of the monitoring decisions where the network's best is the expert's."""
        same = count = 0
        with torch.no_grad():
            for c in self.monitor:
                logits, target = self.logits([(c, np.arange(len(c)))])
                same += int((logits.argmax(dim=1) == target).sum())
                count += len(target)
        return same / max(count, 1)

    def make_monitor(self, tasks: int, size: int, seed: int) -> None:
        """Monitoring chunks from the tasks of another seed."""
        for i in range(tasks):
            rules, players, s = task(seed, i)
            self.monitor.append(self.make_chunk(rules, players, s, size))

    # ------------------------------------------------------------------ files
    def model(self, command: str = "") -> Model:
        card = {
            **family_card(),
            "training": {
                "command": command, "seed": self.seed, "teacher": self.teacher,
                "hidden": list(self.hidden), "decisions": self.collected,
                "tasks": self.next_task, "samples": self.samples, "reuse": self.reuse,
                "buffer": self.buffer_size, "batch": self.batch, "lr": self.lr,
                "chunk": self.chunk, "preset_share": self.preset_share,
                "seconds": round(self.seconds, 1),
                "collect_seconds": round(self.collect_seconds, 1),
                "torch": torch.__version__, "failed_tasks": len(self.failed),
                "machine": f"{platform.machine()}, 1 torch thread",
            },
            "curve": self.curve, "strength": [],
        }
        return Model(self.net.weights(), card)

    def save(self, out: Path, command: str) -> None:
        out.mkdir(parents=True, exist_ok=True)
        state = {"net": self.net.state_dict(), "opt": self.opt.state_dict(),
                 "rng": self.rng.bit_generator.state, "next_task": self.next_task,
                 "collected": self.collected, "samples": self.samples, "seconds": self.seconds,
                 "collect_seconds": self.collect_seconds, "curve": self.curve,
                 "failed": self.failed}
        tmp = out / "family.pt.tmp"
        torch.save(state, tmp)
        tmp.replace(out / "family.pt")
        self.model(command).save(out / "model.npz")

    def load(self, out: Path) -> None:
        state = torch.load(out / "family.pt", weights_only=False)
        self.net.load_state_dict(state["net"])
        self.opt.load_state_dict(state["opt"])
        self.rng.bit_generator.state = state["rng"]
        for key in ("next_task", "collected", "samples", "seconds", "collect_seconds", "curve",
                    "failed"):
            setattr(self, key, state[key])


def main(argv: Sequence[str] | None = None) -> None:
    limit_process()  # one OpenBLAS thread: eights' own process (eights.bots.blas)
    parser = argparse.ArgumentParser(prog="python -m eights.learn.family",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--out", type=Path, required=True, help="the run's folder")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--decisions", type=int, default=3_000_000,
                        help="the expert's decisions to collect (the learning rate's schedule)")
    parser.add_argument("--reuse", type=float, default=4.0,
                        help="samples learned a decision collected")
    parser.add_argument("--buffer", type=int, default=800_000, help="decisions held")
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--hidden", default="384,192,96")
    parser.add_argument("--hours", type=float, default=3.0, help="stop after this long")
    parser.add_argument("--monitor", type=int, default=9_000_001,
                        help="the seed of the monitoring tasks")
    parser.add_argument("--save-every", type=float, default=600.0, help="seconds")
    parser.add_argument("--preset-share", type=float, default=PRESET_SHARE,
                        help="the share of tasks on a preset (the others: random houses)")
    parser.add_argument("--resume", action="store_true")
    args = parser.parse_args(argv)
    hidden = tuple(int(h) for h in args.hidden.split(","))
    command = ("python -m eights.learn.family " + " ".join(
        f"--{k.replace('_', '-')} {v}" for k, v in (
            ("seed", args.seed), ("decisions", args.decisions), ("reuse", args.reuse),
            ("buffer", args.buffer), ("batch", args.batch), ("lr", args.lr),
            ("hidden", args.hidden), ("monitor", args.monitor),
            ("preset-share", args.preset_share))))
    run = FamilyRun(args.seed, hidden, args.decisions, args.reuse, args.buffer, args.batch,
                    args.lr, preset_share=args.preset_share)
    args.out.mkdir(parents=True, exist_ok=True)
    log = (args.out / "log.txt").open("a", encoding="utf-8")
    if args.resume and (args.out / "family.pt").exists():
        run.load(args.out)
        print(f"resumed at task {run.next_task}, {run.collected} decisions", file=log,
              flush=True)
    run.make_monitor(40, 250, args.monitor)
    began = time.perf_counter() - run.seconds
    saved = time.perf_counter()
    while run.collected < args.decisions and run.seconds < args.hours * 3600:
        t0 = time.perf_counter()
        got = run.add_task()
        run.collect_seconds += time.perf_counter() - t0
        loss = run.learn(int(got * args.reuse)) if got and run.held >= 20 * run.chunk else 0.0
        run.seconds = time.perf_counter() - began
        print(json.dumps({"task": run.next_task - 1, "decisions": run.collected,
                          "samples": run.samples, "loss": round(loss, 4),
                          "seconds": round(run.seconds), "collect": round(run.collect_seconds)}),
              file=log, flush=True)
        if time.perf_counter() - saved >= args.save_every:
            point = {"seconds": round(run.seconds), "decisions": run.collected,
                     "samples": run.samples, "agreement": round(run.agreement(), 4)}
            run.curve.append(point)
            print(json.dumps(point), file=log, flush=True)
            run.save(args.out, command)
            saved = time.perf_counter()
    run.curve.append({"seconds": round(run.seconds), "decisions": run.collected,
                      "samples": run.samples, "agreement": round(run.agreement(), 4)})
    run.save(args.out, command)
    for line in run.failed:
        print("failed:", line, file=log, flush=True)
    print("done", json.dumps(run.curve[-1]), file=log, flush=True)
    print(f"wrote {args.out / 'model.npz'}", file=sys.stderr)


if __name__ == "__main__":
    main()
