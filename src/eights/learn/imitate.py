"""Learning from a teacher: the learned bot's network fitted to a bot's choices.

Self-play from random weights (:mod:`eights.learn.train`) reached 0.35-0.45 against the
expert and then stayed there (docs/bots.md, *Learning*). A network that starts from the
expert's play does not have to find what the expert knows by chance: its scores are fitted
to the expert's choices as the logits of a softmax over the legal actions (cross-entropy:
behaviour cloning), then self-play goes on from there.

- :func:`demonstrations`: rounds of the teacher against itself on the reference engine
  (about 10,000 decisions a second on one core: the expert is quick), every decision with
  a choice kept as the seat's observation, its legal actions and the teacher's pick;
- :func:`imitate`: the fit, in batches, ``epochs`` passes in a seeded order.

Every random choice flows from ``seed``: the deals, the bots' generator, the order of the
batches.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import torch

from eights.bots import make_bot
from eights.bots.learned import state_features
from eights.codes import action_code, observation
from eights.engine.game import Game
from eights.engine.rules import Rules

if TYPE_CHECKING:
    from eights.learn.train import QNet

__all__ = ["Demonstrations", "demonstrations", "imitate", "legal_logits"]


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


def demonstrations(rules: Rules, players: int, teacher: str, decisions: int, seed: int,
                   report: Callable[[int], None] | None = None) -> Demonstrations:
    """``decisions`` choices of ``teacher`` (a bot spec) playing every seat, from rounds
    dealt by ``seed`` (a decision with one legal action is not a choice and is left out)."""
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
        while not game.over and len(chosen) < decisions:
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
    return Demonstrations(np.array(obs, dtype=np.int16), np.array(legal, dtype=np.int64),
                          np.array(start, dtype=np.int64), np.array(chosen, dtype=np.int64))


def legal_logits(net: QNet, table: torch.Tensor, deck: npt.NDArray[np.float32],
            obs: npt.NDArray[np.int16], legal: npt.NDArray[np.int64]) -> torch.Tensor:
    """The scores of the legal actions (padded with -1e9), each (state, action) pair
    computed once: a few wide rows (136 legal plays in last-card) would make the padded
    product many times the work."""
    rows, cols = np.nonzero(legal >= 0)
    at = (torch.from_numpy(rows), torch.from_numpy(cols))
    flat = net.flat(torch.from_numpy(state_features(obs, deck)), at[0],
                    torch.from_numpy(legal[rows, cols]), table)
    return torch.full(legal.shape, -1e9).index_put(at, flat)


def imitate(net: QNet, table: torch.Tensor, deck: npt.NDArray[np.float32],
            demos: Demonstrations, *, epochs: float, batch: int, lr: float, seed: int,
            report: Callable[[int, float, float], None] | None = None) -> tuple[float, float]:
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
            logits = legal_logits(net, table, deck, demos.obs[which], legal)
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
    return loss_sum / max(counted, 1), agree_sum / max(counted, 1)
