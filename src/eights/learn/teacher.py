"""Expert iteration: the family model fitted to the search's values of every legal action.

    python -m eights.learn.teacher label --out DATA [--seed 1] [--tasks 0:400] [--positions 100]
                                         [--worlds 48] [--search SPEC] [--share 0.25] [--hours H]
    python -m eights.learn.teacher fit DATA [DATA ...] --out RUN [--start family] [--epochs 4]
                                       [--lr 1e-4] [--tau 0.02] [--z 1] [--points 0] [--hours H]
                                       [--device cpu|cuda]

The family model imitates the expert (:mod:`eights.learn.family`); the search
(:class:`~eights.bots.ismcts.ISMCTSBot`) plays every legal action in the same sampled worlds
and sees, now and then, that another action wins more often. This module distils that
policy improvement into the network (expert iteration: Anthony, Tian and Barber 2017;
AlphaZero's policy targets; the KL-regularised improvement of MPO, Abdolmaleki et al. 2018):

- **Positions** (``label``): tasks drawn by :func:`task` from ``(seed, i)``: the four seed
  presets (classic, huit-americain, huit-fou, les-huit) at 2 players a share
  :data:`MIX` ``"seed-2p"``, at 3 to 6 players, the other presets at 2 to 6, and house rules
  drawn at random (:func:`eights.lab.houses.random_house`, from strings
  ``teacher:<seed>:<i>``, never the family's nor the measurements'). In each, the expert
  plays every seat on the reference engine and a decision with a choice is labelled with
  chance ``share`` (so the positions spread over many rounds), ``positions`` a task.
- **Labels**: :meth:`~eights.bots.ismcts.ISMCTSBot.evaluate` of the ``search`` spec from the
  seat's observation alone: every legal action played in ``worlds`` worlds with the same
  draws after it (paired). Kept per action: its mean win (the seat's win of the round, or
  its team's), its mean points scaled by :func:`~eights.bots.ismcts.reward_scale` (0 where
  the rules do not score), and the standard error of its paired difference with the
  expert's action (0 for the expert's own). A task is a file ``task-<i>.npz`` (with
  ``task-<i>.json``: its rules, players, search and time): a run stopped and started again
  labels only the tasks it lacks; several processes label disjoint ``--tasks`` ranges.
- **Targets** (``fit``): the starting network's policy (a softmax over the legal actions,
  the expert's imitation) improved by the search's advantages:
  ``target(a) ∝ prior(a) · exp(A(a) / tau)``, where ``A(a)`` is action ``a``'s win (plus
  ``points`` times its scaled points) less the expert's action's, shrunk towards 0 by ``z``
  standard errors (an advantage within the noise moves nothing). The network is fitted to
  the targets (cross-entropy, Adam at ``lr``), starting from the shipped family model's
  weights, ``epochs`` passes in seeded batches.
- **Held out**: every tenth task (``i % 10 == 9``) is not learned from; on it the run
  reports the loss and the **gain**: the mean, over its decisions, of the win of the
  network's best action less the win of the expert's (by the search's labels, which the
  network never saw: an unbiased estimate of what its choices add to the expert's, per
  decision). The model kept is the one of the best gain (the starting model's is 0 by
  construction up to where it departs from the expert).

Every random choice flows from the seeds: the tasks, their rounds, the search's worlds
(from the task's seed), the batches. The run writes ``RUN/model.npz`` with its card
``RUN/model.json`` (the data, the targets, the held-out curve) and ``RUN/log.txt``; the
measurements and the shipping are ``benchmarks/teacher.py`` and ``benchmarks/family.py``
(docs/bots.md, *The teacher*).
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from eights.bots import make_bot
from eights.bots.blas import limit_process
from eights.bots.expert import ExpertBot
from eights.bots.ismcts import ISMCTSBot, reward_scale
from eights.bots.learned import (
    FAMILY_ACTION,
    FAMILY_STATE,
    Model,
    action_table,
    family_model_path,
    pad_observation,
)
from eights.codes import N_ACTIONS, action_code, observation, observation_size
from eights.engine.game import Game
from eights.engine.rules import Rules, load_rules, preset_names
from eights.lab.houses import house_players, random_house
from eights.learn.family import Chunk, Contexts, family_card, layout, scores
from eights.learn.net import QNet

__all__ = ["MIX", "SEARCH", "SEED_PRESETS", "Fit", "Labels", "held_out", "label_task", "load",
           "main", "targets", "task"]

SEED_PRESETS = ("classic", "huit-americain", "huit-fou", "les-huit")
"""The four presets of the 2-player target."""
MIX = {"seed-2p": 0.45, "seed-n": 0.15, "preset": 0.2, "house": 0.2}
"""How often each kind of task is drawn: a seed preset at 2 players, at 3 to 6, another
preset at 2 to 6, random house rules at 2 to 6."""
SEARCH = "ismcts:tree=none"
"""The labelling search (its evaluation: every seat plays the rollout policy after the
root action)."""
LOSSES = ("mse", "ce")
"""How the network is fitted: ``mse`` (its scores' differences with the expert's action
regressed on the prior's plus the advantage over ``tau``: unbiased under the labels' noise)
or ``ce`` (cross-entropy against the improved policy)."""
CLIP = 6.0
"""``mse``: score differences below the expert's action's by more than this many nats are
not fitted (an action that far below is never played: fitting how far would spend the
network on it)."""
HELD_OUT = 10
"""Task ``i`` is held out when ``i % HELD_OUT == HELD_OUT - 1``."""
FLOOR = 4.0
"""``mse``: each action's squared error is weighed by ``1 / (1 + v / FLOOR)``, where ``v``
is its label's noise in nats squared (``(se / tau)^2``): a label known well counts more, up
to the network's own misfit (``FLOOR``, nats squared); 0 weighs every label alike."""
LONGEST = 3000
"""A round longer than this many moves is left (random house rules may make long ones)."""


def held_out(index: int) -> bool:
    """Whether task ``index`` is held out of the fit (its decisions measure it)."""
    return index % HELD_OUT == HELD_OUT - 1


def task(seed: int, index: int) -> tuple[str, Rules, int, int]:
    """Task ``index`` of the stream of ``seed``: its kind (:data:`MIX`), rules, player count
    and the seed of its rounds."""
    rng = random.Random(f"teacher:{seed}:{index}")
    kind = rng.choices(list(MIX), list(MIX.values()))[0]
    if kind == "house":
        rules, _ = random_house(rng, f"teacher-house-{seed}-{index}")
    elif kind == "preset":
        rules = load_rules(rng.choice([p for p in preset_names() if p not in SEED_PRESETS]))
    else:
        rules = load_rules(rng.choice(SEED_PRESETS))
    counts = [n for n in house_players(rules, 6) if rules.players[0] <= n <= rules.players[1]]
    if kind == "seed-2p":
        players = 2
    else:
        wider = [n for n in counts if n > 2] if kind == "seed-n" else counts
        players = rng.choice(wider or counts)
    return kind, rules, players, rng.getrandbits(62)


@dataclass
class Labels(Chunk):
    """A task's labelled decisions (:class:`~eights.learn.family.Chunk`: ``chosen`` is the
    expert's action) and, aligned with ``legal``, each action's mean ``win``, scaled
    ``points`` and the standard error ``se`` of its paired difference with the expert's
    action."""

    win: npt.NDArray[np.float32]
    points: npt.NDArray[np.float32]
    se: npt.NDArray[np.float32]
    kind: str = ""
    """The task's kind (:data:`MIX`)."""
    start_best: npt.NDArray[np.int64] | None = None
    """The starting network's best action at each decision (once :class:`Fit` has scored
    it)."""
    prior: npt.NDArray[np.float32] | None = None
    """The starting network's score of each legal action, aligned with ``legal`` (scored
    once by :class:`Fit`: the prior never changes during a fit)."""


LabelParts = list[tuple[Labels, npt.NDArray[np.int64]]]
"""Decisions ``i`` of labelled tasks: a batch."""


def label_task(rules: Rules, players: int, seed: int, positions: int, search: str,
               worlds: int, share: float, longest: int = LONGEST,
               stop: Callable[[], bool] | None = None) -> dict[str, npt.NDArray[Any]]:
    """``positions`` decisions of the expert playing every seat of rounds dealt from
    ``seed``, each labelled by ``search``'s paired evaluation over ``worlds`` worlds (a
    decision with a choice is labelled with chance ``share``); fewer when ``stop()`` says
    so (asked between labels). The arrays of a task file."""
    bot = make_bot(search)
    if not isinstance(bot, ISMCTSBot):
        raise ValueError(f"the labelling search must be an ismcts spec, not {search!r}")
    expert = ExpertBot()
    master = random.Random(seed)
    obs: list[list[int]] = []
    legal: list[int] = []
    start = [0]
    chosen: list[int] = []
    win: list[float] = []
    points: list[float] = []
    se: list[float] = []
    while len(chosen) < positions and not (stop is not None and stop()):
        game = Game(rules, players, seed=master.getrandbits(63),
                    dealer=master.randrange(players))
        rng = random.Random(master.getrandbits(63))
        moves = 0
        while not game.over and len(chosen) < positions and moves < longest:
            moves += 1
            options = game.legal
            seen = game.observe(game.to_move)
            action = options[0] if len(options) == 1 else expert.choose(seen, options, rng)
            if len(options) > 1 and rng.random() < share:
                got = bot.evaluate(seen, options, random.Random(rng.getrandbits(64)), worlds)
                mine = options.index(action)
                scale = reward_scale(seen)
                for i in range(len(options)):
                    win.append(got.win(i))
                    points.append(sum(max(-1.0, min(1.0, p[i] / scale)) for p in got.points)
                                  / got.worlds)
                    se.append(got.paired(i, mine)[1])
                obs.append(observation(seen))
                legal.extend(action_code(a) for a in options)
                start.append(len(legal))
                chosen.append(mine)
                if stop is not None and stop():
                    break
            game.apply(action)
    return {"obs": pad_observation(np.array(obs, dtype=np.int16).reshape(
                len(obs), observation_size(players)), players),
            "legal": np.array(legal, dtype=np.int32), "start": np.array(start, dtype=np.int64),
            "chosen": np.array(chosen, dtype=np.int64), "win": np.array(win, dtype=np.float32),
            "points": np.array(points, dtype=np.float32), "se": np.array(se, dtype=np.float32)}


def label(out: Path, seed: int, tasks: range, positions: int, search: str, worlds: int,
          share: float, hours: float, log: Callable[[str], None],
          kinds: Sequence[str] = tuple(MIX)) -> int:
    """Label ``tasks`` of the stream of ``seed`` into ``out`` (the tasks already there are
    kept; a task of a kind not in ``kinds`` is passed over); stops after ``hours``. Returns
    the decisions labelled now."""
    out.mkdir(parents=True, exist_ok=True)
    began = time.perf_counter()
    cpu = time.process_time()
    deadline = began + hours * 3600
    done = 0
    for i in tasks:
        path = out / f"task-{i}.npz"
        if path.exists():
            continue
        if time.perf_counter() > deadline:
            break
        kind, rules, players, task_seed = task(seed, i)
        if kind not in kinds:
            continue
        at, at_cpu = time.perf_counter(), time.process_time()
        try:
            arrays = label_task(rules, players, task_seed, positions, search, worlds, share,
                                stop=lambda: time.perf_counter() > deadline)
        except Exception as exc:  # a house the engine or the search cannot play: say so
            log(json.dumps({"task": i, "failed": f"{type(exc).__name__}: {exc}"}))
            continue
        if len(arrays["chosen"]) < positions:  # cut by the time: labelled again next run
            break
        tmp = out / f"task-{i}.tmp.npz"
        np.savez(tmp, **arrays)  # type: ignore[arg-type]
        card = {"task": i, "seed": seed, "kind": kind, "rules": rules.to_table(),
                "rules_name": rules.name, "players": players, "search": search,
                "worlds": worlds, "share": share, "positions": len(arrays["chosen"]),
                "actions": len(arrays["legal"]), "seconds": round(time.perf_counter() - at, 1),
                "cpu_seconds": round(time.process_time() - at_cpu, 1)}
        (out / f"task-{i}.json").write_text(json.dumps(card, sort_keys=True) + "\n", "utf-8")
        tmp.replace(path)
        done += len(arrays["chosen"])
        elapsed = time.process_time() - cpu
        log(json.dumps({k: card[k] for k in ("task", "kind", "rules_name", "players",
                                             "positions", "actions", "seconds",
                                             "cpu_seconds")}
                       | {"labelled": done, "per_cpu_second": round(done / max(elapsed, 1e-9),
                                                                    2)}))
    return done


def load(folders: Sequence[Path], contexts: Contexts) -> tuple[list[Labels], list[Labels]]:
    """The labelled tasks of ``folders``: (learned from, held out)."""
    train: list[Labels] = []
    test: list[Labels] = []
    for folder in folders:
        for card_file in sorted(folder.glob("task-*.json")):
            card = json.loads(card_file.read_text("utf-8"))
            path = card_file.with_suffix(".npz")
            if not path.exists():
                continue
            with np.load(path) as data:
                if not len(data["chosen"]):
                    continue
                rules = load_rules(card["rules"])
                labels = Labels(data["obs"], data["legal"], data["start"], data["chosen"],
                                contexts.add(rules, int(card["players"])), data["win"],
                                data["points"], data["se"], str(card.get("kind", "")))
            (test if held_out(int(card["task"])) else train).append(labels)
    return train, test


def flat_field(parts: LabelParts, name: str) -> npt.NDArray[Any]:
    """The array ``name`` of the labels (one entry per legal action: ``win``, ``points``,
    ``se``, ``prior``) of the decisions ``parts``, in the order of their places
    (:func:`~eights.learn.family.layout`)."""
    flat = layout(parts)[0]
    return np.concatenate([getattr(c, name)[f] for (c, _), f in zip(parts, flat, strict=True)])


def advantages(parts: LabelParts, places: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]],
               z: float, points: float) -> npt.NDArray[np.float64]:
    """Each legal action's advantage over the expert's action by the search (its win, plus
    ``points`` times its scaled points), shrunk towards 0 by ``z`` standard errors; in the
    order of ``places`` (:func:`~eights.learn.family.scores`)."""
    rows, cols = places
    win, pts, se = (flat_field(parts, name) for name in ("win", "points", "se"))
    value = win.astype(np.float64) + points * pts
    chosen = np.concatenate([c.chosen[i] for c, i in parts])
    mine = np.zeros(len(chosen), dtype=np.float64)
    at_expert = cols == chosen[rows]
    mine[rows[at_expert]] = value[at_expert]
    advantage = value - mine[rows]
    out: npt.NDArray[np.float64] = np.sign(advantage) * np.maximum(0.0, np.abs(advantage)
                                                                   - z * se)
    return out


def targets(prior: torch.Tensor, parts: LabelParts, places: tuple[npt.NDArray[np.int64],
                                                                  npt.NDArray[np.int64]],
            tau: float, z: float, points: float) -> torch.Tensor:
    """The improved policy of the decisions ``parts`` (rows as ``prior``'s, the starting
    network's scores padded with -1e9): ``prior(a) · exp(A(a) / tau)``, normalised, where
    ``A`` is :func:`advantages`."""
    rows, cols = (torch.from_numpy(x).to(prior.device) for x in places)
    bonus = torch.zeros_like(prior).index_put(
        (rows, cols),
        torch.from_numpy((advantages(parts, places, z, points) / tau).astype(np.float32)).to(
            prior.device))
    return torch.softmax(torch.log_softmax(prior, dim=1) + bonus, dim=1)


class Fit:
    """Fitting the network to the improved policy (see the module text)."""

    def __init__(self, train: list[Labels], test: list[Labels], contexts: Contexts,
                 start: Model, *, seed: int, lr: float, tau: float, z: float, points: float,
                 batch: int = 512, device: str = "cpu", loss: str = "mse",
                 clip: float = CLIP, floor: float = FLOOR, margin: float = 0.0) -> None:
        if loss not in LOSSES:
            raise ValueError(f"the loss is {' or '.join(LOSSES)}, not {loss!r}")
        self.loss = loss
        self.clip = clip
        self.floor = floor
        self.margin = margin
        torch.manual_seed(seed)
        self.train, self.test, self.contexts = train, test, contexts
        self.tau, self.z, self.points, self.batch = tau, z, points, batch
        self.device = torch.device(device)
        w = start.weights
        hidden = (w[0].shape[1], *(w[i].shape[1] for i in range(3, len(w) - 2, 2)))
        self.start = start
        self.net = QNet(FAMILY_STATE, hidden, FAMILY_ACTION)
        self.net.load_weights(start.weights)
        self.net.to(self.device)
        self.hidden = hidden
        self.base = torch.from_numpy(np.array(action_table(N_ACTIONS)))
        self._score_prior(train + test)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)
        self.lr = lr
        self.rng = np.random.default_rng(seed)
        self.samples = 0
        self.curve: list[dict[str, float]] = []
        self.best: tuple[float, tuple[npt.NDArray[np.float32], ...]] | None = None
        # a fixed sample of the training tasks, measured like the held-out ones: how far the
        # fit goes on what it learns from (its capacity) against what carries (the data)
        pick = np.random.default_rng(seed + 1).permutation(len(train))[:max(1, len(test))]
        self.train_sample = [train[int(k)] for k in sorted(pick)]

    def _score_prior(self, tasks: list[Labels]) -> None:
        """The starting network's scores of every legal action of ``tasks``, once."""
        with torch.no_grad():
            for labels in tasks:
                if labels.prior is None:
                    out, (rows, cols) = scores(self.net, self.contexts, self.base,
                                               [(labels, np.arange(len(labels)))])
                    labels.prior = out[rows, cols].cpu().numpy().astype(np.float32)
                    labels.start_best = out.argmax(dim=1).cpu().numpy()

    def _sample(self) -> LabelParts:
        pick = self.rng.choice(len(self.train), size=min(32, len(self.train)), replace=False)
        each = max(1, self.batch // len(pick))
        return [(self.train[int(k)], self.rng.integers(len(self.train[int(k)]), size=each))
                for k in pick]

    def _loss(self, parts: LabelParts) -> tuple[torch.Tensor, torch.Tensor, float]:
        """The loss of the decisions ``parts`` (:attr:`loss`), the network's scores and the
        part of the loss that is the labels' noise (``mse``: what a perfect fit would still
        lose, in the same weighting; 0 for ``ce``)."""
        logits, places = scores(self.net, self.contexts, self.base, parts)
        rows, cols = (torch.from_numpy(x).to(logits.device) for x in places)
        prior = torch.full_like(logits, -1e9).index_put(
            (rows, cols), torch.from_numpy(flat_field(parts, "prior")).to(logits.device))
        if self.loss == "ce":
            with torch.no_grad():
                target = targets(prior, parts, places, self.tau, self.z, self.points)
            logp = torch.log_softmax(logits, dim=1)
            return -(target * torch.where(target > 0, logp, 0.0)).sum(dim=1).mean(), logits, 0.0
        shifted = advantages(parts, places, self.z, self.points)
        chosen = torch.from_numpy(np.concatenate([c.chosen[i] for c, i in parts])).to(
            logits.device)
        other = (cols != chosen[rows]).cpu().numpy()
        o_rows, o_cols = rows[other], cols[other]
        gap = logits[o_rows, o_cols] - logits[o_rows, chosen[o_rows]]
        if self.margin > 0:  # the expert's choice is the prior: `margin` nats above the rest
            prior_gap = torch.full_like(gap, -self.margin)
        else:  # the starting network's scores are
            prior_gap = prior[o_rows, o_cols] - prior[o_rows, chosen[o_rows]]
        noise = (flat_field(parts, "se")[other] / self.tau) ** 2
        weight = torch.from_numpy(1.0 / (1.0 + noise / self.floor) if self.floor > 0
                                  else np.ones_like(noise)).to(logits.device).float()
        wanted = prior_gap + torch.from_numpy(shifted[other] / self.tau).to(logits.device).float()
        # one-sided below the line: a score more than `clip` nats under the expert's action
        # is only pushed up (by labels above it), never further down, so the network spends
        # nothing on how bad a never-played action is, and no noisy label is clipped (which
        # would bias the targets upwards); above the line the regression is plain
        miss = gap - wanted
        fitted = weight * (torch.relu(-miss) ** 2
                           + torch.where(gap > -self.clip, torch.relu(miss) ** 2, 0.0))
        floor_part = float((weight.cpu().numpy() * noise).sum()
                           / max(float(weight.sum()), 1e-9))
        mass = weight
        return fitted.sum() / mass.sum().clamp(min=1e-9), logits, floor_part

    def learn(self, samples: int) -> float:
        """``samples`` decisions' worth of batches; their mean loss."""
        total = 0.0
        seen = 0
        while seen < samples:
            parts = self._sample()
            loss, _, _ = self._loss(parts)
            self.opt.zero_grad()
            torch.autograd.backward(loss)
            self.opt.step()
            n = sum(len(i) for _, i in parts)
            seen += n
            self.samples += n
            total += float(loss.detach()) * n
        return total / max(seen, 1)

    def _measure(self, tasks: list[Labels], suffix: str) -> dict[str, float]:
        losses: list[float] = []
        floors: list[float] = []
        gains: list[npt.NDArray[np.float64]] = []
        added: list[npt.NDArray[np.float64]] = []
        two: list[bool] = []
        same = count = 0
        with torch.no_grad():
            for labels in tasks:
                parts: LabelParts = [(labels, np.arange(len(labels)))]
                loss, logits, floor_part = self._loss(parts)
                best = logits.argmax(dim=1).cpu().numpy()
                assert labels.start_best is not None
                first = labels.start[:-1]
                win = labels.win.astype(np.float64)
                gains.append(win[first + best] - win[first + labels.chosen])
                added.append(win[first + best] - win[first + labels.start_best])
                two.extend([labels.kind == "seed-2p"] * len(labels))
                same += int((best == labels.chosen).sum())
                count += len(labels)
                losses.append(float(loss) * len(labels))
                floors.append(floor_part * len(labels))
        point = {"loss" + suffix: round(sum(losses) / max(count, 1), 5),
                 "noise" + suffix: round(sum(floors) / max(count, 1), 5),
                 "expert_agreement" + suffix: round(same / max(count, 1), 4),
                 "decisions" + suffix: count}
        mask = np.array(two, dtype=np.bool_)
        for name, values in (("gain", gains), ("added", added)):
            flat = np.concatenate(values) if values else np.zeros(0)
            for part_name, part in (("", flat), ("_2p", flat[mask] if len(flat) else flat)):
                key = name + part_name + suffix
                point[key] = round(float(part.mean()), 5) if len(part) else 0.0
                point[key + "_se"] = (round(float(part.std(ddof=1) / math.sqrt(len(part))), 5)
                                      if len(part) > 1 else 0.0)
        return point

    def measure(self) -> dict[str, float]:
        """On the held-out tasks: the loss (and its noise floor: what the labels' noise alone
        costs), the share of decisions where the network's best is the expert's, the
        **gain** (the search's win of the network's best action less the expert's action's,
        per decision) and the gain over the starting network (the same with the starting
        network's best action: what the fit added), each with its standard error, over every
        held-out decision and over those of the seed presets at 2 players (``_2p``). The
        same on a fixed sample of the training tasks as many as the held-out ones
        (``..._train``: in-sample, so optimistic; a gap between the two that grows is the
        labels' noise learned, a training gain that stays small is the network's limit)."""
        return ({"samples": self.samples} | self._measure(self.test, "")
                | self._measure(self.train_sample, "_train"))

    def keep(self, point: dict[str, float]) -> None:
        """Note a measurement; the network is kept when its gain is the best so far."""
        self.curve.append(point)
        if self.best is None or point["gain"] > self.best[0]:
            self.best = (point["gain"], self.net.weights())

    def model(self, command: str, data: dict[str, Any]) -> Model:
        """The kept network (the best gain) with its card."""
        weights = self.best[1] if self.best is not None else self.net.weights()
        card = {
            **family_card(),
            "training": {
                "command": command, "teacher": "the search's values (expert iteration)",
                "start": {"command": self.start.card.get("training", {}).get("command", ""),
                          "commands": self.start.card.get("training", {}).get("commands", [])},
                "data": data, "hidden": list(self.hidden), "lr": self.lr, "tau": self.tau,
                "z": self.z, "points": self.points, "batch": self.batch, "loss": self.loss,
                "clip": self.clip, "floor": self.floor, "margin": self.margin,
                "samples": self.samples, "kept": None if self.best is None else
                next((p for p in self.curve if p["gain"] == self.best[0]), None),
                "torch": torch.__version__,
                "machine": f"{platform.machine()}, {torch.get_num_threads()} torch thread(s)"},
            "curve": self.curve,
            "strength": [],
        }
        return Model(weights, card)


def _tasks(text: str) -> range:
    first, _, last = text.partition(":")
    return range(int(first), int(last))


def main(argv: Sequence[str] | None = None) -> None:
    limit_process()
    parser = argparse.ArgumentParser(prog="python -m eights.learn.teacher",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    sub = parser.add_subparsers(dest="what", required=True)
    lab = sub.add_parser("label", help="label positions with the search's values")
    lab.add_argument("--out", type=Path, required=True)
    lab.add_argument("--seed", type=int, default=1)
    lab.add_argument("--tasks", default="0:400", help="FIRST:END, the task indices")
    lab.add_argument("--positions", type=int, default=100, help="labelled decisions a task")
    lab.add_argument("--worlds", type=int, default=48)
    lab.add_argument("--search", default=SEARCH)
    lab.add_argument("--share", type=float, default=0.25,
                     help="the chance a decision with a choice is labelled")
    lab.add_argument("--hours", type=float, default=1.0)
    lab.add_argument("--kinds", default=",".join(MIX),
                     help=f"the kinds of task labelled (of {', '.join(MIX)}; the others are "
                          f"passed over)")
    fit = sub.add_parser("fit", help="fit the family model to the labels")
    fit.add_argument("data", type=Path, nargs="+")
    fit.add_argument("--out", type=Path, required=True)
    fit.add_argument("--start", default="family",
                     help="family (the shipped model) or a family model file")
    fit.add_argument("--seed", type=int, default=1)
    fit.add_argument("--epochs", type=float, default=4.0)
    fit.add_argument("--lr", type=float, default=1e-4)
    fit.add_argument("--tau", type=float, default=0.02)
    fit.add_argument("--z", type=float, default=0.0,
                     help="standard errors an advantage is shrunk by")
    fit.add_argument("--loss", choices=LOSSES, default="mse")
    fit.add_argument("--clip", type=float, default=CLIP)
    fit.add_argument("--margin", type=float, default=0.0,
                     help="mse: the expert's choice as the prior, this many nats above every "
                          "other action (0: the starting network's scores)")
    fit.add_argument("--floor", type=float, default=FLOOR,
                     help="mse: the labels' weights' floor in nats squared (0: alike)")
    fit.add_argument("--points", type=float, default=0.0)
    fit.add_argument("--batch", type=int, default=512)
    fit.add_argument("--measures", type=int, default=8, help="held-out measurements a run")
    fit.add_argument("--share", type=float, default=1.0,
                     help="the share of the training tasks learned from (a seeded draw; the "
                          "held-out tasks stay all): a learning curve")
    fit.add_argument("--hours", type=float, default=1.0)
    fit.add_argument("--device", default="cpu", help="cpu, or cuda where a GPU is at hand")
    args = parser.parse_args(argv)
    command = "python -m eights.learn.teacher " + " ".join(
        sys.argv[1:] if argv is None else list(argv))
    if args.what == "label":
        kinds = args.kinds.split(",")
        if unknown := set(kinds) - set(MIX):
            parser.error(f"--kinds: unknown {', '.join(sorted(unknown))}; kinds: "
                         f"{', '.join(MIX)}")
        args.out.mkdir(parents=True, exist_ok=True)
        log_file = (args.out / f"log-{args.tasks.replace(':', '-')}.txt").open("a", encoding="utf-8")

        def say(line: str) -> None:
            print(line, file=log_file, flush=True)

        done = label(args.out, args.seed, _tasks(args.tasks), args.positions, args.search,
                     args.worlds, args.share, args.hours, say, kinds)
        say(json.dumps({"done": done}))
        return
    torch.set_num_threads(1)
    began = time.perf_counter()
    contexts = Contexts()
    train, test = load(args.data, contexts)
    if not train or not test:
        parser.error(f"{', '.join(map(str, args.data))}: {len(train)} tasks to learn from and "
                     f"{len(test)} held out; label more tasks (every tenth is held out)")
    if args.share < 1:  # a learning curve: fewer tasks learned from, the same held out
        keep = np.random.default_rng(args.seed).permutation(len(train))
        train = [train[int(k)] for k in sorted(keep[:max(1, round(args.share * len(train)))])]
    start = Model.load(family_model_path() if args.start == "family" else args.start)
    run = Fit(train, test, contexts, start, seed=args.seed, lr=args.lr, tau=args.tau, z=args.z,
              points=args.points, batch=args.batch, device=args.device, loss=args.loss,
              clip=args.clip, floor=args.floor, margin=args.margin)
    args.out.mkdir(parents=True, exist_ok=True)
    log = (args.out / "log.txt").open("a", encoding="utf-8")
    decisions = sum(len(t) for t in train)
    data = {"folders": [str(d) for d in args.data], "tasks": len(train),
            "held_out_tasks": len(test), "decisions": decisions,
            "held_out_decisions": sum(len(t) for t in test)}
    print(json.dumps(data), file=log, flush=True)
    total = int(args.epochs * decisions)
    step = max(1, total // max(1, args.measures))
    point = run.measure() | {"seconds": round(time.perf_counter() - began, 1)}
    run.keep(point)
    print(json.dumps(point), file=log, flush=True)
    while run.samples < total and time.perf_counter() - began < args.hours * 3600:
        loss = run.learn(min(step, total - run.samples))
        point = run.measure() | {"seconds": round(time.perf_counter() - began, 1),
                                 "train_loss": round(loss, 5)}
        run.keep(point)
        print(json.dumps(point), file=log, flush=True)
        run.model(command, data).save(args.out / "model.npz")
    run.model(command, data).save(args.out / "model.npz")
    print("done", json.dumps(run.curve[-1]), file=log, flush=True)
    print(f"wrote {args.out / 'model.npz'}", file=sys.stderr)


if __name__ == "__main__":
    main()
