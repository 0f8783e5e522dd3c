"""Learning from a teacher: the learned bot's network fitted to a bot's choices.

Self-play from random weights (:mod:`eights.learn.train`) reached 0.35-0.45 against the
expert and then stayed there (docs/bots.md, *Learning*). A network that starts from the
expert's play does not have to find what the expert knows by chance: its scores are fitted
to the expert's choices as the logits of a softmax over the legal actions (cross-entropy:
behaviour cloning), then self-play goes on from there.

- :func:`demonstrations`: rounds of the teacher against itself on the reference engine
  (about 10,000 decisions a second on one core: the expert is quick), every decision with
  a choice kept as the seat's observation, its legal actions and the teacher's pick;
- :func:`imitate`: the fit, in batches, ``epochs`` passes in a seeded order;
- :func:`demonstrations_in_chunks`: the same for a slow teacher (the search: about 50 ms a
  decision), in chunks of :data:`CHUNK` decisions played by several processes, each chunk
  kept in a folder as it is done, so that a run stopped and started again plays only the
  chunks it lacks.

Every random choice flows from ``seed``: the deals, the bots' generator, the order of the
batches.
"""

from __future__ import annotations

import json
import multiprocessing
import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import torch

from eights.bots import make_bot
from eights.bots.learned import Encoder
from eights.codes import action_code, observation
from eights.engine.game import Game
from eights.engine.rules import Rules
from eights.learn.net import QNet

__all__ = ["CHUNK", "Demonstrations", "agreement", "demonstrations", "demonstrations_in_chunks",
           "imitate", "legal_logits"]

CHUNK = 1000
"""Decisions in a chunk of :func:`demonstrations_in_chunks`."""


@dataclass
class Demonstrations:
    """A teacher's decisions: decision ``i`` saw ``obs[i]`` and chose ``legal[start[i] +
    chosen[i]]`` among ``legal[start[i]:start[i + 1]]`` (action codes)."""

    obs: npt.NDArray[np.int16]
    legal: npt.NDArray[np.int64]
    start: npt.NDArray[np.int64]
    chosen: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.chosen)

    def padded(self, which: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The legal codes of decisions ``which``, one row each, padded with -1."""
        first = self.start[which]
        length = self.start[which + 1] - first
        width = np.arange(int(length.max()))
        at = np.minimum(first[:, None] + width, len(self.legal) - 1)
        return np.where(width < length[:, None], self.legal[at], -1)

    def save(self, path: Path) -> None:
        np.savez(path, obs=self.obs, legal=self.legal, start=self.start, chosen=self.chosen)

    @classmethod
    def load(cls, path: Path) -> Demonstrations:
        with np.load(path) as data:
            return cls(data["obs"], data["legal"], data["start"], data["chosen"])

    @classmethod
    def join(cls, parts: list[Demonstrations]) -> Demonstrations:
        """The decisions of ``parts``, in order."""
        starts = [np.zeros(1, dtype=np.int64)]
        offset = 0
        for part in parts:
            starts.append(part.start[1:] + offset)
            offset += int(part.start[-1])
        return cls(np.concatenate([p.obs for p in parts]),
                   np.concatenate([p.legal for p in parts]),
                   np.concatenate(starts), np.concatenate([p.chosen for p in parts]))


def demonstrations(rules: Rules, players: int, teacher: str, decisions: int, seed: int,
                   report: Callable[[int], None] | None = None,
                   stop: Callable[[], bool] | None = None,
                   longest: int | None = None) -> Demonstrations:
    """``decisions`` choices of ``teacher`` (a bot spec) playing every seat, from rounds
    dealt by ``seed`` (a decision with one legal action is not a choice and is left out);
    fewer when ``stop()`` says so (asked after each round: a time limit); with ``longest``,
    a round is left after that many moves (random house rules may make long ones)."""
    bots = [make_bot(teacher) for _ in range(players)]
    master = random.Random(seed)
    obs: list[list[int]] = []
    legal: list[int] = []
    start = [0]
    chosen: list[int] = []
    while len(chosen) < decisions:
        game = Game(rules, players, seed=master.getrandbits(63),
                    dealer=master.randrange(players))
        rng = random.Random(master.getrandbits(63))
        steps = 0
        while not game.over and len(chosen) < decisions and (longest is None
                                                             or steps < longest):
            steps += 1
            p = game.to_move
            options = game.legal
            if len(options) == 1:
                game.apply(options[0])
                continue
            seen = game.observe(p)
            action = bots[p].choose(seen, options, rng)
            obs.append(observation(seen))
            legal.extend(action_code(a) for a in options)
            start.append(len(legal))
            chosen.append(options.index(action))
            game.apply(action)
        if report is not None:
            report(len(chosen))
        if stop is not None and stop():
            break
    return Demonstrations(np.array(obs, dtype=np.int16), np.array(legal, dtype=np.int64),
                          np.array(start, dtype=np.int64), np.array(chosen, dtype=np.int64))


def chunk_seed(seed: int, index: int) -> int:
    """The seed of chunk ``index`` of a run of ``seed``."""
    return seed * 10_000 + index


def _chunk(rules: dict[str, object], players: int, teacher: str, size: int, seed: int,
           path: str) -> str:
    """One chunk, played in a worker process and written to ``path``."""
    from eights.engine.rules import load_rules

    demos = demonstrations(load_rules(rules), players, teacher, size, seed)
    tmp = Path(path).with_suffix(".tmp.npz")
    demos.save(tmp)
    tmp.replace(path)
    return path


def demonstrations_in_chunks(rules: Rules, players: int, teacher: str, decisions: int,
                             seed: int, folder: Path, *, jobs: int = 1, chunk: int = CHUNK,
                             report: Callable[[int], None] | None = None) -> Demonstrations:
    """``decisions`` choices of ``teacher`` (rounded up to whole chunks of ``chunk``
    decisions), chunk ``i`` played as :func:`demonstrations` plays them from seed
    :func:`chunk_seed` ``(seed, i)`` by one of ``jobs`` processes and kept in ``folder``
    (``chunk-<seed>.npz``): the result depends on ``seed`` only, whatever ``jobs``, and
    chunks already in ``folder`` are not played again. ``folder`` holds one teacher's chunks
    for one rule set: another's is refused."""
    folder.mkdir(parents=True, exist_ok=True)
    what = {"rules": rules.to_table(), "players": players, "teacher": teacher,
            "chunk": chunk}
    label = folder / "teacher.json"
    if label.exists():
        if json.loads(label.read_text("utf-8")) != what:
            raise ValueError(f"{str(folder)!r} holds another teacher's or rule set's "
                             f"decisions (see its teacher.json): give another folder")
    else:
        label.write_text(json.dumps(what, sort_keys=True) + "\n", "utf-8")
    count = -(-decisions // chunk)
    paths = [folder / f"chunk-{chunk_seed(seed, i)}.npz" for i in range(count)]
    missing = [i for i, path in enumerate(paths) if not path.exists()]
    done = count - len(missing)
    if report is not None:
        report(done * chunk)
    if missing:
        table = rules.to_table()
        context = multiprocessing.get_context("spawn")  # no torch state forked into workers
        with ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=context) as pool:
            futures = [pool.submit(_chunk, table, players, teacher, chunk, chunk_seed(seed, i),
                                   str(paths[i])) for i in missing]
            for future in futures:
                future.result()
                done += 1
                if report is not None:
                    report(done * chunk)
    return Demonstrations.join([Demonstrations.load(path) for path in paths])


def legal_logits(net: QNet, table: torch.Tensor, encoder: Encoder,
                 obs: npt.NDArray[np.int16], legal: npt.NDArray[np.int64]) -> torch.Tensor:
    """The scores of the legal actions (padded with -1e9), each (state, action) pair
    computed once: a few wide rows (136 legal plays in last-card) would make the padded
    product many times the work."""
    rows, cols = np.nonzero(legal >= 0)
    at = (torch.from_numpy(rows), torch.from_numpy(cols))
    flat = net.flat(torch.from_numpy(encoder.states(obs)), at[0],
                    torch.from_numpy(legal[rows, cols]), table)
    return torch.full(legal.shape, -1e9).index_put(at, flat)


def agreement(net: QNet, table: torch.Tensor, encoder: Encoder,
              demos: Demonstrations, batch: int = 4096) -> float:
    """The share of ``demos``' decisions where ``net``'s best action is the teacher's."""
    same = 0
    with torch.no_grad():
        for begin in range(0, len(demos), batch):
            which = np.arange(begin, min(begin + batch, len(demos)))
            logits = legal_logits(net, table, encoder, demos.obs[which], demos.padded(which))
            same += int((logits.argmax(dim=1).numpy() == demos.chosen[which]).sum())
    return same / max(len(demos), 1)


def imitate(net: QNet, table: torch.Tensor, encoder: Encoder,
            demos: Demonstrations, *, epochs: float, batch: int, lr: float, seed: int,
            report: Callable[[int, float, float], None] | None = None,
            stop: Callable[[], bool] | None = None) -> tuple[float, float]:
    """Fit ``net``'s scores (``Q(s, a)`` read as logits) to the
    teacher's choices; ``table`` holds every action code's features. Returns the last
    epoch's mean loss and the share of decisions where the network's best action is the
    teacher's. ``report(decisions_seen, loss, agreement)`` after each batch."""
    rng = np.random.default_rng(seed)
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    total = int(epochs * len(demos))
    seen = 0
    loss_sum = agree_sum = 0.0
    counted = 0
    while seen < total:
        order = rng.permutation(len(demos))[:total - seen]
        loss_sum = agree_sum = 0.0
        counted = 0
        for begin in range(0, len(order), batch):
            which = order[begin:begin + batch]
            legal = demos.padded(which)
            logits = legal_logits(net, table, encoder, demos.obs[which], legal)
            target = torch.from_numpy(demos.chosen[which])
            loss = (-torch.log_softmax(logits, dim=1)[torch.arange(len(which)), target]).mean()
            opt.zero_grad()
            torch.autograd.backward(loss)
            opt.step()
            seen += len(which)
            counted += len(which)
            loss_sum += float(loss.detach()) * len(which)
            agree_sum += float((logits.argmax(dim=1) == target).sum())
            if report is not None:
                report(seen, loss_sum / counted, agree_sum / counted)
            if stop is not None and stop():
                return loss_sum / max(counted, 1), agree_sum / max(counted, 1)
    return loss_sum / max(counted, 1), agree_sum / max(counted, 1)
