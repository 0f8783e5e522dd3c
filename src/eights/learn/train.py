"""Self-play training of the learned bot on the compiled kernel (PyTorch, CPU).

Two learners share the network of :mod:`eights.bots.learned` (``Q(s, a)``, one score
a legal action) and everything else; they differ in how the score is read and fitted:

- ``dmc`` (Deep Monte-Carlo, DouZero): the score is the round's expected reward; the
  seats play the best-scored action (``epsilon`` of the time a random one), and each
  decision's score is fitted to the reward its seat got at the round's end (mean
  squared error). Off-policy tolerant: every seat of every table may learn.
- ``pg`` (policy gradient with action masks, as PPO's actor without its clipping):
  the scores are the logits of a softmax over the legal actions; the seats sample
  from it, and each decision's log-probability is pushed by its advantage (the
  round's reward less a value ``V(s)`` fitted alongside), with an entropy bonus.

Opponents: a round is self-play (every seat the current network: every seat learns)
or one learning seat against the kernel's greedy policy, or against a frozen past
checkpoint from a pool (the last few, added every ``pool_every`` samples), by
``greedy_share`` and ``pool_share``. The reward is +1 for each winner of the round
and -1 for every other seat (:func:`eights.codes.round_rewards`, ``win``).

Every random choice flows from ``seed``: the tables' deals and draws, the line-ups,
the exploration and the network's initial weights (one torch thread makes the
arithmetic repeatable). A run stops after ``hours`` of training or ``samples``
decisions learned from, whichever comes first; the strength against ``expert`` is
measured every ``eval_every`` seconds on duplicate deals of ``eval_seed`` (never the
seeds of the final measurements) and kept as the learning curve.
"""

from __future__ import annotations

import json
import math
import platform
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from eights.bots.learned import (
    FAMILY_FORMAT,
    FORMAT,
    Encoder,
    Model,
    family_model_path,
)
from eights.codes import action_count, observation_size
from eights.engine.rules import Rules, load_rules
from eights.fast.selfplay import GREEDY, OUTSIDE, Tables
from eights.fast.tables import KernelUnsupported
from eights.learn.imitate import legal_logits
from eights.learn.net import QNet

__all__ = ["ALGORITHMS", "Config", "Progress", "QNet", "Trainer", "evaluate"]  # QNet: eights.learn.net

ALGORITHMS = ("dmc", "pg")
TAIL_SHARE, TAIL_SECONDS = 0.04, 4.0
"""The time a timed run leaves at its end for what follows it (writing the files, the
curve's picture, the interpreter starting before the clock could): 4% and 4 seconds."""
MEASURE_CHUNK = 5
"""Deals a measurement plays at a time (:func:`evaluate`'s ``chunk``)."""
MEASURE_SHARE = 0.12
"""The share of a timed run's time its first measurement may take (it stops between two
chunks; the last measurement plays the same deals, about as long)."""
SELFPLAY_AFTER = 600.0
"""Seconds of learning time a timed run needs left, before imitation, to self-play too."""
IMITATION_SHARE = 0.7
"""The share of a timed run's learning time that imitation may take when more phases
follow (self-play takes the rest)."""


@dataclass
class Config:
    """A training run (the defaults are those of the shipped models)."""

    rules: dict[str, Any]
    """The rules as a table (:meth:`~eights.engine.rules.Rules.to_table`)."""
    players: int
    seed: int = 0
    hours: float = 1.0
    samples: int | None = None
    """Stop after this many decisions learned from (``None``: the time decides)."""
    algorithm: str = "pg"
    hidden: tuple[int, ...] = (256, 128, 64)
    tables: int = 256
    batch: int = 1024
    lr: float = 1e-4
    epsilon: float = 0.05
    entropy: float = 0.001
    greedy_share: float = 0.15
    pool_share: float = 0.25
    pool_every: int = 500_000
    pool_size: int = 5
    eval_every: float = 300.0
    """Seconds of training between two measurements against the expert (0: none)."""
    eval_deals: int = 100
    eval_seed: int = 7
    threads: int = 1
    teacher: str | None = "expert"
    """A bot whose choices the network imitates before self-play (:mod:`eights.learn.imitate`;
    ``None``: self-play from random weights)."""
    teacher_decisions: int = 500_000
    """The teacher's decisions to imitate (it plays every seat on the reference engine)."""
    teacher_epochs: float = 3.0
    teacher_lr: float = 1e-3
    teacher_share: float = 0.3
    """Rounds of one learning seat against the network as it was after imitating (the
    teacher's stand-in on the kernel: the teacher itself plays on the reference engine)."""
    refine: str | None = None
    """A stronger, slower teacher (the search, ``ismcts``) whose choices the imitated network
    is then fitted to, before self-play (:func:`eights.learn.imitate.demonstrations_in_chunks`;
    ``None``: none)."""
    refine_decisions: int = 60_000
    refine_epochs: float = 3.0
    refine_lr: float = 3e-4
    jobs: int = 1
    """Processes playing the refining teacher's rounds."""
    keep_best: bool = True
    """The model written is the network of the best measurement against the expert (on the
    monitoring deals of ``eval_seed``), not necessarily the last."""
    max_decisions: int = 2000
    """A round longer than this (decisions of its outside seats) is dealt again and not
    learned from: an early network may draw for ever where drawing is always allowed."""
    command: str = ""
    """The command line that started the run (for the model card)."""
    family: bool = True
    """The family model's features (:class:`eights.bots.learned.Encoder`): the network reads
    the rules and plays any table; ``False``: a specialist's features (format 1)."""
    init: str | None = None
    """A model to start from (its weights, and its widths as :attr:`hidden`): ``family`` for
    the shipped family model, or a model file; ``None``: random weights."""

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {self.algorithm!r}; algorithms: "
                             f"{', '.join(ALGORITHMS)}")
        if self.hours <= 0 and self.samples is None:
            raise ValueError(f"hours must be positive, not {self.hours}")
        if self.samples is not None and self.samples < 1:
            raise ValueError(f"samples must be 1 or more, not {self.samples}")
        if self.teacher_decisions < 1 or not self.teacher_epochs > 0:
            raise ValueError(f"teacher_decisions must be 1 or more and teacher_epochs positive, "
                             f"not {self.teacher_decisions} and {self.teacher_epochs}")
        if self.refine is not None and (self.teacher is None or self.refine_decisions < 1
                                        or not self.refine_epochs > 0 or self.jobs < 1):
            raise ValueError("refine needs a teacher first, refine_decisions and jobs of 1 or "
                             "more and positive refine_epochs")
        if self.init is not None and not self.family:
            raise ValueError("init starts from a family model: it needs family = True")
        if self.greedy_share + self.pool_share + self.teacher_share > 1:
            raise ValueError("greedy_share, pool_share and teacher_share add up to more than 1")
        for name in ("greedy_share", "pool_share", "teacher_share", "epsilon"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} must be between 0 and 1, not {getattr(self, name)}")
        self.hidden = tuple(self.hidden)


@dataclass
class Progress:
    """Where a run stands (passed to the progress callback after each step)."""

    seconds: float = 0.0
    """Training time so far (resumed runs included)."""
    cpu_seconds: float = 0.0
    """CPU time of this process while training (measurements left out; a shared machine
    gives a run less CPU than wall time)."""
    samples: int = 0
    """Decisions learned from."""
    decisions: int = 0
    """Decisions played by the learning network (exploring included)."""
    rounds: int = 0
    dropped: int = 0
    """Rounds dealt again for passing ``max_decisions`` (not learned from)."""
    updates: int = 0
    loss: float = 0.0
    curve: list[dict[str, Any]] = field(default_factory=list)
    """``{seconds, samples, win_share, low, high, rounds}`` of each measurement against the
    expert, and ``vs_start`` (:func:`paired`: its difference with the starting model on the
    same deals) where the starting model was measured."""
    imitated: int = 0
    """The teacher's decisions imitated (0: not yet, or no teacher)."""
    agreement: float = 0.0
    """After imitating: the share of the teacher's decisions the network's best action matches."""
    teaching: int = 0
    """While the refining teacher plays: its decisions so far (0 otherwise)."""
    refined: int = 0
    """The refining teacher's decisions the network was fitted to (0: not yet, or none)."""
    refine_agreement: float = 0.0
    """Before refining: the share of the refining teacher's decisions where the imitated
    network's best action was its choice (how often the two teachers differ, roughly)."""
    refined_agreement: float = 0.0
    """After refining: the same share for the refined network."""
    best: int = -1
    """The measurement (index in :attr:`curve`) whose network is :attr:`Trainer.best`."""
    shares: list[list[float]] = field(default_factory=list)
    """Each measurement's share of each deal's wins (paired comparisons with the start)."""
    measure_deals: int = 0
    """The deals every measurement plays (fixed by the first; 0 before it)."""
    fitted: int = 0
    """Samples learned from while fitting a teacher's choices (imitation and refining; the
    card's ``samples`` adds them to self-play's :attr:`samples`)."""
    phase: str = ""
    """The phase running: ``measure`` (the starting model, then the end), ``imitate``
    (playing the teacher's rounds), ``fit`` (fitting them), ``refine``, ``self-play``."""
    phase_done: float = 0.0
    phase_total: float = 0.0
    """How far the phase is, in its own unit (decisions, samples), of how much."""
    left: float = math.inf
    """Seconds left of the whole run (``hours``; infinite when ``samples`` decides)."""
    phases: list[dict[str, Any]] = field(default_factory=list)
    """Each phase done: ``{phase, seconds, ...}`` what it did (decisions, samples, share)."""
    selfplay_skipped: str = ""
    """Why self-play did not run, if it did not (the kernel does not play the rules)."""


class _Buffer:
    """Decisions waiting for their round's end, then for the learner."""

    def __init__(self, obs: int) -> None:
        self.size = 0
        self.obs = np.zeros((4096, obs), dtype=np.int16)
        self.code = np.zeros(4096, dtype=np.int64)
        self.uid = np.zeros(4096, dtype=np.int64)
        self.seat = np.zeros(4096, dtype=np.int64)
        self.legal = np.full((4096, 1), -1, dtype=np.int64)

    def add(self, obs: npt.NDArray[Any], code: npt.NDArray[np.int64],
            uid: npt.NDArray[np.int64], seat: npt.NDArray[np.int64],
            legal: npt.NDArray[np.int64] | None) -> None:
        n = len(code)
        width = 1 if legal is None else legal.shape[1]
        if self.size + n > len(self.code) or width > self.legal.shape[1]:
            cap = max(len(self.code), 2 * (self.size + n))
            for name in ("obs", "code", "uid", "seat"):
                old = getattr(self, name)
                new = np.zeros((cap, *old.shape[1:]), dtype=old.dtype)
                new[:self.size] = old[:self.size]
                setattr(self, name, new)
            legal_new = np.full((cap, max(width, self.legal.shape[1])), -1, dtype=np.int64)
            legal_new[:self.size, :self.legal.shape[1]] = self.legal[:self.size]
            self.legal = legal_new
        at = slice(self.size, self.size + n)
        self.obs[at] = obs
        self.code[at] = code
        self.uid[at] = uid
        self.seat[at] = seat
        if legal is not None:
            self.legal[at, :width] = legal
            self.legal[at, width:] = -1
        self.size += n

    def take(self, done: npt.NDArray[np.bool_]) -> dict[str, npt.NDArray[Any]]:
        """Remove the decisions whose round is over (``done[uid]``) and return them."""
        live = slice(0, self.size)
        over = done[self.uid[live]]
        out = {name: getattr(self, name)[live][over] for name in
               ("obs", "code", "uid", "seat", "legal")}
        keep = ~over
        kept = int(keep.sum())
        for name in ("obs", "code", "uid", "seat", "legal"):
            arr = getattr(self, name)
            arr[:kept] = arr[live][keep]
        self.size = kept
        return out


class Trainer:
    """One training run (see the module text); :meth:`run` trains, :meth:`model` is the
    network as a :class:`~eights.bots.learned.Model` with its card."""

    def __init__(self, config: Config) -> None:
        self.config = config
        torch.set_num_threads(config.threads)
        torch.manual_seed(config.seed)
        self.rules: Rules = load_rules(config.rules)
        n = self.players = config.players
        self.rules.check_players(n)
        self.actions = action_count(self.rules, n)
        self.encoder = Encoder(self.rules, n, family=config.family)
        self.table = torch.from_numpy(np.array(self.encoder.table(self.actions)))
        self.start: Model | None = None
        """The model the run started from (:attr:`Config.init`)."""
        if config.init is not None:
            self.start = Model.load(family_model_path() if config.init == "family"
                                    else config.init)
            if not self.start.family:
                raise ValueError(f"init {config.init!r} is a model of format "
                                 f"{self.start.card.get('format')}; a run starts from a family "
                                 f"model (format {FAMILY_FORMAT})")
            w = self.start.weights
            config.hidden = (w[0].shape[1], *(w[i].shape[1] for i in range(3, len(w) - 2, 2)))
        self.net = self.new_net()
        if self.start is not None:
            self.net.load_weights(self.start.weights)
        size = self.encoder.state_size
        self.value = (nn.Sequential(nn.Linear(size, 128), nn.ReLU(), nn.Linear(128, 1))
                      if config.algorithm == "pg" else None)
        params = list(self.net.parameters()) + ([] if self.value is None
                                                else list(self.value.parameters()))
        self.opt = torch.optim.Adam(params, lr=config.lr)
        self.rng = np.random.default_rng(config.seed)
        note = ""
        try:
            tables: Tables | None = Tables(self.rules, n, config.tables, seed=config.seed)
        except KernelUnsupported as exc:  # imitation alone, on the engine
            tables = None
            note = f"the kernel does not play these rules ({exc})"
        self.kernel_tables = tables
        """Self-play's tables on the kernel (``None`` where the kernel does not play the rules)."""
        self.pool: list[QNet] = []
        self.role = np.zeros((config.tables, n), dtype=np.int64)
        """Who plays each seat: 0 the learning network, ``i > 0`` pool member ``i - 1``,
        -1 the kernel's greedy policy."""
        self.uid = np.arange(config.tables, dtype=np.int64)
        self.next_uid = config.tables
        self.rewards = np.zeros((1024, n), dtype=np.float32)
        self.done = np.zeros(1024, dtype=np.bool_)
        self.dropped = np.zeros(1024, dtype=np.bool_)
        self.length = np.zeros(config.tables, dtype=np.int64)
        self.buffer = _Buffer(observation_size(n))
        self.progress = Progress(selfplay_skipped=note)
        self.best: dict[str, torch.Tensor] | None = None
        """The network's weights at its best measurement (:attr:`Config.keep_best`)."""
        self.pool_mark = 0
        """The samples when the pool last took a checkpoint."""
        self._taken = 0
        for b in range(config.tables):
            self.line_up(b)
        if tables is not None:
            tables.kinds[:] = np.where(self.role < 0, GREEDY, OUTSIDE)

    @property
    def tables(self) -> Tables:
        """The kernel's tables of self-play (:class:`ValueError` when the kernel does not
        play the rules: :attr:`Progress.selfplay_skipped` says so)."""
        if self.kernel_tables is None:
            raise ValueError(f"no self-play: {self.progress.selfplay_skipped}")
        return self.kernel_tables

    # ------------------------------------------------------------------ playing
    def line_up(self, b: int) -> None:
        """Choose who plays table ``b``'s next round (:attr:`role`)."""
        cfg, n = self.config, self.players
        u = self.rng.random()
        learner = int(self.rng.integers(n))
        anchored = self.anchored
        if u < cfg.greedy_share:
            self.role[b] = -1
        elif u < cfg.greedy_share + cfg.teacher_share and anchored:
            self.role[b] = 1
        elif (u < cfg.greedy_share + cfg.teacher_share + cfg.pool_share
              and len(self.pool) > anchored):
            self.role[b] = 1 + anchored + int(self.rng.integers(len(self.pool) - anchored))
        else:
            self.role[b] = 0
        self.role[b, learner] = 0

    def _scores(self, net: QNet, which: npt.NDArray[np.int64]) -> tuple[torch.Tensor,
                                                                          npt.NDArray[np.int64]]:
        """The scores of the legal actions at tables ``which`` (``-inf`` past each table's
        last), and the legal codes (padded with -1)."""
        t = self.tables
        legal = t.legal[which, :int(t.counts[which].max())]
        rows, cols = np.nonzero(legal >= 0)
        s = torch.from_numpy(self.encoder.states(t.obs[which]))
        with torch.no_grad():
            flat = net.flat(s, torch.from_numpy(rows), torch.from_numpy(legal[rows, cols]),
                            self.table)
        q = torch.full(legal.shape, -math.inf)
        q[torch.from_numpy(rows), torch.from_numpy(cols)] = flat
        return q, legal

    def _choose(self, q: torch.Tensor, legal: npt.NDArray[np.int64],
                explore: bool) -> npt.NDArray[np.int64]:
        counts = (legal >= 0).sum(axis=1)
        if explore and self.config.algorithm == "pg":
            gumbel = -np.log(-np.log(self.rng.random(legal.shape)))
            pick = np.argmax(q.numpy() + gumbel, axis=1)
        else:
            pick = q.argmax(dim=1).numpy()
            if explore and self.config.epsilon > 0:
                wild = self.rng.random(len(pick)) < self.config.epsilon
                pick = np.where(wild, (self.rng.random(len(pick)) * counts).astype(np.int64),
                                pick)
        return np.asarray(legal[np.arange(len(pick)), pick], dtype=np.int64)

    def step(self) -> None:
        """One decision at every table (the greedy seats' moves before it included)."""
        t = self.tables
        while True:
            t.advance()
            ended = np.nonzero(t.ended)[0]
            if not len(ended):
                break
            self._end_rounds(ended)
            t.deal(ended)
        roles = self.role[np.arange(t.batch), t.to_move]
        for who in np.unique(roles):
            which = np.nonzero(roles == who)[0]
            net = self.net if who == 0 else self.pool[who - 1]
            q, legal = self._scores(net, which)
            codes = self._choose(q, legal, explore=who == 0)
            if who == 0:
                self.buffer.add(t.obs[which], codes, self.uid[which], t.to_move[which],
                                legal if self.config.algorithm == "pg" else None)
                self.progress.decisions += len(which)
            t.apply(which, codes)
        self.length += 1
        long = np.nonzero(self.length > self.config.max_decisions)[0]
        if len(long):
            self._end_rounds(long, dropped=True)
            t.deal(long)

    def _end_rounds(self, ended: npt.NDArray[np.int64], dropped: bool = False) -> None:
        t, n = self.tables, self.players
        need = self.next_uid + len(ended)
        if need > len(self.done):
            cap = 2 * need
            self.rewards = np.resize(self.rewards, (cap, n))
            self.done = np.concatenate([self.done, np.zeros(cap - len(self.done), np.bool_)])
            self.dropped = np.concatenate([self.dropped,
                                           np.zeros(cap - len(self.dropped), np.bool_)])
        uids = self.uid[ended]
        if dropped:
            self.dropped[uids] = True
            self.progress.dropped += len(ended)
        else:
            self.rewards[uids] = np.where(t.results[ended, :n] > 0, 1.0, -1.0)
            self.progress.rounds += len(ended)
        self.done[uids] = True
        self.length[ended] = 0
        for b in ended:
            self.line_up(int(b))
            self.uid[b] = self.next_uid
            self.next_uid += 1
        t.kinds[ended] = np.where(self.role[ended] < 0, GREEDY, OUTSIDE)

    # ------------------------------------------------------------------ learning
    def learn(self) -> None:
        """Fit the network to the decisions whose rounds are over, ``batch`` at a time."""
        cfg = self.config
        if self.progress.decisions - self._taken < 4 * cfg.batch:
            return
        self._taken = self.progress.decisions
        got = self.buffer.take(self.done)
        kept = ~self.dropped[got["uid"]]
        got = {name: value[kept] for name, value in got.items()}
        count = len(got["code"])
        if not count:
            return
        order = self.rng.permutation(count)
        target_all = self.rewards[got["uid"], got["seat"]]
        for start in range(0, count, cfg.batch):
            part = order[start:start + cfg.batch]
            s = torch.from_numpy(self.encoder.states(got["obs"][part]))
            g = torch.from_numpy(target_all[part])
            if cfg.algorithm == "dmc":
                a = self.table[torch.from_numpy(got["code"][part])][:, None, :]
                loss = ((self.net(s, a)[:, 0] - g) ** 2).mean()
            else:
                assert self.value is not None
                legal = got["legal"][part]
                legal = legal[:, :int((legal >= 0).sum(axis=1).max())]
                logits = legal_logits(self.net, self.table, self.encoder, got["obs"][part],
                                      legal)
                logp = torch.log_softmax(logits, dim=1)
                chosen = torch.from_numpy(np.argmax(legal == got["code"][part, None], axis=1))
                v = self.value(s)[:, 0]
                advantage = (g - v).detach()
                entropy = -(logp.exp() * logp).sum(dim=1).mean()
                loss = (-(advantage * logp[torch.arange(len(part)), chosen]).mean()
                        + 0.5 * ((v - g) ** 2).mean() - cfg.entropy * entropy)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            self.progress.updates += 1
            self.progress.loss = float(loss.detach())
        self.progress.samples += count
        if self.progress.samples - self.pool_mark >= cfg.pool_every:
            self.pool_mark = self.progress.samples
            frozen = self.new_net()
            frozen.load_state_dict(self.net.state_dict())
            stand_in = self.anchored
            self.pool = (self.pool[:stand_in]
                         + [*self.pool[stand_in:], frozen][-cfg.pool_size:])

    def new_net(self) -> QNet:
        """A network of this run's features and widths (random weights)."""
        return QNet(self.encoder.state_size, self.config.hidden, self.encoder.action_size)

    def imitate(self, until: float = math.inf, clock: Callable[[], float] = time.perf_counter,
                report: Callable[[], None] | None = None) -> None:
        """Fit the network to the teacher's choices (:mod:`eights.learn.imitate`): the
        teacher plays until it has made :attr:`Config.teacher_decisions` or ``clock()``
        passes ``until`` minus the fit's share of the time left (the fit takes the time
        the rounds took, about: as long again), then the fit runs its epochs or to
        ``until``."""
        from eights.learn.imitate import demonstrations, imitate

        cfg = self.config
        p = self.progress
        assert cfg.teacher is not None
        began = clock()
        stop_playing = began + (until - began) / 2 if math.isfinite(until) else math.inf
        p.phase, p.phase_done, p.phase_total = "imitate", 0, cfg.teacher_decisions

        def played(done: int) -> None:
            p.phase_done = done
            if report is not None:
                report()

        demos = demonstrations(self.rules, self.players, cfg.teacher, cfg.teacher_decisions,
                               seed=cfg.seed, report=played,
                               stop=lambda: clock() >= stop_playing)
        p.phases.append({"phase": "imitate", "seconds": round(clock() - began, 1),
                         "decisions": len(demos), "teacher": cfg.teacher})
        began = clock()
        p.phase, p.phase_done = "fit", 0
        p.phase_total = float(int(cfg.teacher_epochs * len(demos)))

        def fitted(seen: int, loss: float, share: float) -> None:
            p.phase_done = seen
            if report is not None:
                report()

        _, p.agreement = imitate(
            self.net, self.table, self.encoder, demos, epochs=cfg.teacher_epochs,
            batch=cfg.batch, lr=cfg.teacher_lr, seed=cfg.seed, report=fitted,
            stop=lambda: clock() >= until)
        p.imitated = len(demos)
        p.fitted += int(p.phase_done)
        p.phases.append({"phase": "fit", "seconds": round(clock() - began, 1),
                         "samples": int(p.phase_done), "agreement": round(p.agreement, 4)})
        frozen = self.new_net()
        frozen.load_state_dict(self.net.state_dict())
        self.pool.insert(0, frozen)  # the teacher's stand-in, pool member 0 for good

    def refine(self, folder: Path, report: Callable[[int], None] | None = None) -> None:
        """Fit the imitated network to the refining teacher's choices, played in chunks by
        :attr:`Config.jobs` processes and kept in ``folder`` (a run started again reuses
        them)."""
        from eights.learn.imitate import agreement, demonstrations_in_chunks, imitate

        cfg = self.config
        assert cfg.refine is not None
        demos = demonstrations_in_chunks(self.rules, self.players, cfg.refine,
                                         cfg.refine_decisions, cfg.seed, folder, jobs=cfg.jobs,
                                         report=report)
        p = self.progress
        p.refine_agreement = agreement(self.net, self.table, self.encoder, demos)
        _, p.refined_agreement = imitate(
            self.net, self.table, self.encoder, demos, epochs=cfg.refine_epochs,
            batch=cfg.batch, lr=cfg.refine_lr, seed=cfg.seed)
        p.refined = len(demos)
        p.fitted += int(cfg.refine_epochs * len(demos))

    @property
    def anchored(self) -> int:
        """1 when pool member 0 is the teacher's stand-in (the network after imitating)."""
        return 1 if self.progress.imitated else 0

    # ------------------------------------------------------------------ the run
    def model(self, strength: list[dict[str, Any]] | None = None, *,
              current: bool = False) -> Model:
        """The network at its best measurement (:attr:`Config.keep_best`; ``current``: as it
        is now), with its card; ``strength`` defaults to the kept network's measurement."""
        cfg = self.config
        p = self.progress
        net = self.net
        if cfg.keep_best and self.best is not None and not current:
            net = self.new_net()
            net.load_state_dict(self.best)
        kept = p.curve[p.best] if cfg.keep_best and 0 <= p.best < len(p.curve) else None
        if strength is None:
            strength = [] if kept is None else [{
                "opponent": "expert", "players": self.players,
                "deals": p.measure_deals or cfg.eval_deals,
                "seed": cfg.eval_seed, "win_share": kept["win_share"], "low": kept["low"],
                "high": kept["high"], "rounds": kept["rounds"],
                "model": "start" if kept.get("start") else "tuned"}]
        card = {
            "format": FAMILY_FORMAT if cfg.family else FORMAT,
            "rules": cfg.rules,
            "rules_name": self.rules.name,
            "players": self.players,
            "training": {
                "command": cfg.command, "seed": cfg.seed, "algorithm": cfg.algorithm,
                "hidden": list(cfg.hidden), "config": _plain(asdict(cfg), drop=("rules",)),
                "start": (None if self.start is None else
                          {"init": cfg.init, "command": self.start.card.get("training", {})
                           .get("command", "")}),
                "seconds": round(p.seconds, 1), "cpu_seconds": round(p.cpu_seconds, 1),
                "samples": p.samples + p.fitted, "selfplay_samples": p.samples,
                "fitted_samples": p.fitted, "rounds": p.rounds,
                "updates": p.updates, "torch": torch.__version__,
                "imitated": p.imitated, "agreement": round(p.agreement, 4),
                "refined": p.refined, "refine_agreement": round(p.refine_agreement, 4),
                "refined_agreement": round(p.refined_agreement, 4),
                "phases": p.phases, "selfplay_skipped": p.selfplay_skipped,
                "kept": kept,
                "machine": f"{platform.machine()}, {cfg.threads} torch thread(s)",
            },
            "curve": p.curve,
            "strength": strength,
        }
        return Model(net.weights(), card)

    def run(self, report: Callable[[Progress], None] | None = None,
            checkpoint: Path | None = None, started: float | None = None) -> Progress:
        """Train until the time (``hours``: every phase counts, measurements included) or
        the samples run out, measuring as configured; saves ``checkpoint`` (and the model
        beside it) after each phase, each measurement and at the end; the refining
        teacher's chunks are kept in a folder ``refine`` beside it.

        The phases: the starting model measured (with :attr:`Config.init`), imitation (the
        teacher's rounds, then the fit: half the time left each at most), refining,
        self-play (the kernel, when it plays the rules) to the end less the time of one
        measurement, and the last measurement; the network kept is the best measured.
        Self-play runs only when at least :data:`SELFPLAY_AFTER` seconds of learning are left
        (a short run imitates: measured gains of self-play were within the noise).
        ``started``: when the run began (``time.perf_counter()``; default now), so that the
        time spent loading before this call counts too."""
        cfg = self.config
        p = self.progress
        began = (time.perf_counter() if started is None else started) - p.seconds
        cpu_began = time.process_time() - p.cpu_seconds
        budget = cfg.hours * 3600 if cfg.samples is None else math.inf
        end = began + budget - min(TAIL_SHARE * budget + TAIL_SECONDS, 120.0)

        def tick() -> None:
            p.seconds = time.perf_counter() - began
            p.cpu_seconds = time.process_time() - cpu_began
            p.left = max(0.0, budget - p.seconds)
            if report is not None:
                report(p)

        saving = [0.0]

        def save() -> None:
            if checkpoint is not None:
                at = time.perf_counter()
                self.save(checkpoint)
                saving[0] = max(saving[0], time.perf_counter() - at)

        def measuring() -> float:
            """Seconds the last measurement and the files after it may take: the longest
            measurement so far and the longest save, padded (a busy machine slows the second
            measurement as much as the first)."""
            done = [ph["seconds"] for ph in p.phases if ph["phase"] == "measure"]
            return (1.25 * max(done) + 2.0 if done else 0.0) + 1.5 * saving[0]

        measure = cfg.eval_every > 0
        if measure and not p.curve:
            self.measure(start=self.start is not None, report=tick,
                         until=time.perf_counter() + MEASURE_SHARE * budget)
            save()
        reserve = measuring()
        learning = end - reserve
        if learning - time.perf_counter() < 0.05 * budget:  # no time to learn: keep the start
            p.phases.append({"phase": "learn", "seconds": 0.0,
                             "skipped": "the measurement took the time"})
            tick()
            save()
            return p
        if not p.selfplay_skipped and learning - time.perf_counter() < SELFPLAY_AFTER:
            p.selfplay_skipped = (f"less than {SELFPLAY_AFTER / 60:.0f} minutes to learn: the "
                                  f"time goes to imitation")
        if cfg.teacher is not None and not p.imitated:
            now = time.perf_counter()
            share = 1.0 if p.selfplay_skipped and cfg.refine is None else IMITATION_SHARE
            self.imitate(until=now + share * (learning - now), report=tick)
            save()
        if cfg.refine is not None and not p.refined:
            with tempfile.TemporaryDirectory() as tmp:
                folder = checkpoint.parent / "refine" if checkpoint is not None else Path(tmp)

                def chunks(done: int) -> None:
                    p.teaching = done
                    p.phase, p.phase_done, p.phase_total = ("refine", done,
                                                            cfg.refine_decisions)
                    tick()

                at = time.perf_counter()
                self.refine(folder, chunks)
                p.phases.append({"phase": "refine", "seconds": round(time.perf_counter() - at, 1),
                                 "decisions": p.refined})
                p.teaching = 0
            save()
        if not p.selfplay_skipped:
            at = time.perf_counter()
            done_before = p.samples
            p.phase, p.phase_done = "self-play", 0
            p.phase_total = (cfg.samples if cfg.samples is not None
                             else max(0.0, learning - at))
            next_eval = at + cfg.eval_every
            while True:
                now = time.perf_counter()
                if (cfg.samples is not None and p.samples >= cfg.samples) or now >= learning:
                    break
                if measure and now >= next_eval and learning - now > 2 * measuring():
                    self.measure(report=tick)
                    next_eval = time.perf_counter() + cfg.eval_every
                    save()
                    p.phase = "self-play"
                self.step()
                self.learn()
                p.phase_done = (p.samples if cfg.samples is not None
                                else time.perf_counter() - at)
                tick()
            p.phases.append({"phase": "self-play", "seconds": round(time.perf_counter() - at, 1),
                             "samples": p.samples - done_before})
        if measure:
            self.measure(report=tick)
        tick()
        save()
        return p

    def measure(self, start: bool = False, report: Callable[[], None] | None = None,
                until: float | None = None) -> dict[str, Any]:
        """The network's win share against the expert now (appended to the curve; ``start``:
        it is the model the run started from). The first measurement plays up to
        :attr:`Config.eval_deals` deals, in chunks of :data:`MEASURE_CHUNK`, and begins no
        chunk after ``until`` (``time.perf_counter()``); every later one plays the same
        deals."""
        cfg = self.config
        p = self.progress
        deals = p.measure_deals or cfg.eval_deals
        p.phase, p.phase_done, p.phase_total = "measure", 0, deals
        if report is not None:
            report()
        at = time.perf_counter()

        def played(done: int, total: int) -> None:
            p.phase_done, p.phase_total = done, total
            if report is not None:
                report()

        result = evaluate(self.model(current=True), "expert", deals, cfg.eval_seed,
                          on_progress=played, chunk=MEASURE_CHUNK,
                          until=None if p.measure_deals else until)
        p.measure_deals = int(result["deals"])
        shares = result.pop("per_deal")
        p.phases.append({"phase": "measure", "seconds": round(time.perf_counter() - at, 1),
                         "win_share": result["win_share"], "start": start})
        point: dict[str, Any] = {"seconds": round(p.seconds, 1), "samples": p.samples,
                                 **result}
        if start:
            point["start"] = True
        first = p.curve[0] if p.curve and p.curve[0].get("start") else None
        if first is not None and p.shares:
            point["vs_start"] = paired(shares, p.shares[0])
        p.curve.append(point)
        p.shares.append(shares)
        if self._better(point):
            p.best = len(p.curve) - 1
            self.best = {k: v.clone() for k, v in self.net.state_dict().items()}
        return point

    def _better(self, point: dict[str, Any]) -> bool:
        """Whether ``point`` (just measured) is the network to keep: with a measured starting
        model, the network must beat it on the same deals beyond the noise (the paired
        difference's 95% interval above 0), and then the best of those; without one, the
        best win share."""
        p = self.progress
        if p.best < 0:
            return True
        if "vs_start" in point:
            if point["vs_start"]["low"] <= 0:
                return False
            kept = p.curve[p.best]
            return bool(kept.get("start")) or point["win_share"] > kept["win_share"]
        return bool(point["win_share"] > p.curve[p.best]["win_share"])

    def save(self, path: Path) -> None:
        """A checkpoint ``path`` (``.pt``: everything :meth:`load` needs to go on) and the
        model beside it (``model.npz``, ``model.json``)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        state = {
            "config": asdict(self.config), "net": self.net.state_dict(),
            "value": None if self.value is None else self.value.state_dict(),
            "opt": self.opt.state_dict(), "pool": [m.state_dict() for m in self.pool],
            "rng": self.rng.bit_generator.state,
            "tables": None if self.kernel_tables is None else self.kernel_tables.states.copy(),
            "progress": asdict(self.progress), "pool_mark": self.pool_mark,
            "best": self.best,
        }
        tmp = path.with_suffix(".tmp")
        torch.save(state, tmp)
        tmp.replace(path)
        self.model().save(path.parent / "model.npz")

    @classmethod
    def load(cls, path: Path, **changes: Any) -> Trainer:
        """Go on from a checkpoint; ``changes`` (``hours``, ``samples``, ``command``) replace
        the saved configuration's."""
        state = torch.load(path, weights_only=False)
        config = Config(**{**state["config"], **changes})
        trainer = cls(config)
        trainer.net.load_state_dict(state["net"])
        if trainer.value is not None and state["value"] is not None:
            trainer.value.load_state_dict(state["value"])
        trainer.opt.load_state_dict(state["opt"])
        for saved in state["pool"]:
            frozen = trainer.new_net()
            frozen.load_state_dict(saved)
            trainer.pool.append(frozen)
        trainer.rng.bit_generator.state = state["rng"]
        trainer.progress = Progress(**state["progress"])
        trainer.pool_mark = state["pool_mark"]
        trainer.best = state.get("best")
        if trainer.kernel_tables is not None and state["tables"] is not None:
            trainer.kernel_tables.states[:] = state["tables"]
            for b in range(config.tables):  # the rounds restart: the old line-ups are gone
                trainer.line_up(b)
            trainer.kernel_tables.kinds[:] = np.where(trainer.role < 0, GREEDY, OUTSIDE)
            trainer.kernel_tables.deal(np.arange(config.tables))
        return trainer


def _plain(table: dict[str, Any], drop: tuple[str, ...]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in table.items()
            if k not in drop}


def evaluate(model: Model, opponent: str, deals: int, seed: int,
             jobs: int | None = None, rules: Rules | None = None,
             players: int | None = None,
             on_progress: Callable[[int, int], None] | None = None, *,
             chunk: int | None = None, until: float | None = None) -> dict[str, Any]:
    """``model``'s win share against ``opponent`` (a bot spec) in a duplicate tournament
    (one learned seat against the others at more than two players), with its 95%
    interval (over the deals): ``{win_share, low, high, rounds, deals, per_deal}``
    (``per_deal``: its share of each deal's wins, over the deal's seatings, for paired
    comparisons); at the table of ``rules`` and ``players`` (default: the model's own, which
    the family model has not). ``on_progress(done, total)`` as the rounds are played.
    ``chunk``: the deals are played as tournaments of ``chunk`` deals, chunk ``j`` dealt
    from ``seed * 1_000_003 + j`` (so that a measurement cut short plays a prefix of the
    same deals), and none begun after ``until`` (``time.perf_counter()``; one at least)."""
    from eights.lab.analysis import mean_ci
    from eights.lab.tournament import tournament

    table = rules if rules is not None else model.rules
    n = players if players is not None else model.players
    if table is None or not n:
        raise ValueError("the family model has no table of its own: give rules and players")
    sizes = [deals] if chunk is None else [min(chunk, deals - k) for k in range(0, deals, chunk)]
    per_deal: list[float] = []
    rounds = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.npz"
        model.save(path)
        spec = f"learned:model={path}"
        for j, size in enumerate(sizes):
            if j and until is not None and time.perf_counter() >= until:
                break
            done_before = rounds

            def told(done: int, total: int, before: int = done_before, size: int = size) -> None:
                if on_progress is not None:  # every seating of every deal, in all
                    on_progress(before + done, total // size * deals)

            result = tournament(table, n, [spec, opponent], size,
                                seed=seed if chunk is None else seed * 1_000_003 + j,
                                jobs=jobs, seats=None if n == 2 else (1, n - 1),
                                on_progress=told)
            shares = [0.0] * size
            replays = len(result.outcomes) / size
            for o in result.outcomes:
                if o.winners:
                    won = sum(1 for s in o.winners if result.bots[o.seats[s]] == spec)
                    shares[o.deal] += won / len(o.winners) / replays
            per_deal += shares
            rounds += len(result.outcomes)
    share = sum(per_deal) / len(per_deal)
    low, high = mean_ci(per_deal, 0.0, 1.0) if len(set(per_deal)) > 1 else (share, share)
    return {"win_share": round(share, 4), "low": round(low, 4), "high": round(high, 4),
            "rounds": rounds, "deals": len(per_deal), "per_deal": per_deal}


def paired(after: Sequence[float], before: Sequence[float]) -> dict[str, float]:
    """The mean of ``after - before`` deal by deal (two models' shares on the same deals)
    with its 95% interval (normal, from the deals' spread): ``{difference, low, high}``."""
    diffs = [a - b for a, b in zip(after, before, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n if n else 0.0
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1)) if n > 1 else math.inf
    half = 1.96 * sd / math.sqrt(n) if n > 1 else math.inf
    return {"difference": round(mean, 4), "low": round(mean - half, 4),
            "high": round(mean + half, 4)}


def save_curve(curve: list[dict[str, Any]], path: Path, title: str, players: int = 2) -> None:
    """The learning curve as a PNG (:func:`curve_figure`)."""
    import matplotlib.pyplot as plt

    fig = curve_figure(curve, title, players)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def curve_figure(curve: list[dict[str, Any]], title: str, players: int = 2) -> Any:
    """The learning curve: win share against the expert (with its 95% interval) over
    training time, from the start of training, and the share that is level with the expert
    (one seat in ``players``: 0.5 at two players, 0.25 at four). A matplotlib figure."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    minutes = [c["seconds"] / 60 for c in curve]
    ax.plot(minutes, [c["win_share"] for c in curve], marker="o", label="learned vs expert")
    ax.fill_between(minutes, [c["low"] for c in curve], [c["high"] for c in curve], alpha=0.25,
                    label="95% interval")
    ax.axhline(1 / players, color="grey", linestyle="--", linewidth=1,
               label=f"level with the expert ({1 / players:.2f})")
    ax.set_xlim(0, max(minutes, default=0) * 1.05 or 1)  # from the start, one point or many
    ax.set_xlabel("training time (minutes)")
    ax.set_ylabel("win share")
    ax.set_ylim(0, 1)
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    return fig


def card_text(card: dict[str, Any]) -> str:
    """A model card as JSON text (for printing)."""
    return json.dumps(card, indent=1, sort_keys=True)
