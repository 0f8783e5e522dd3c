"""Training the belief model (:mod:`eights.bots.belief`) by supervised learning on self-play.

    python -m eights.learn.belief --rules classic --players 2 [--games 1500] [--epochs 4]
                                  [--seed 1] [--bots expert] [--keep 0.5] [--out PATH]
    python -m eights.learn.belief --rules classic --players 2 --evaluate PATH
                                  [--eval-games 150] [--eval-seed 31] [--worlds 200]

Self-play gives the labels for free: seats played by ``--bots`` (one drawn per seat
and game from the list; the expert by default, the opponent the search meets) play
whole rounds on the engine, and at every decision with a choice (kept with
probability ``keep``) the seat to play's observation is turned into the model's
inputs (:func:`eights.bots.belief.features`) and the true places of the unseen cards
into its targets. The engine, not the kernel, plays these rounds: the inputs are read
from an :class:`~eights.engine.observation.Observation`, exactly as the search reads
them, and the engine with the expert makes about 8,000 decisions a second, so data
costs seconds.

The network (:data:`HIDDEN`) is trained with Adam on the log-loss of the true
places, through the same Sinkhorn scaling that inference uses, on one thread,
seeded: a run is reproducible for a seed. Training deals and evaluation deals come
from different seed streams (:func:`deal_seed`: the tag ``train`` or ``eval``).

``--evaluate`` prints the held-out log-loss (nats per unseen card) of: the uniform
deal (``infer=none``), the current sampler (:func:`eights.bots.worlds.sample_world`
with ``infer=rules`` and ``infer=model``, its marginals counted over ``--worlds``
sampled worlds, smoothed by one uniform world so a card never seen in a place is not
certain to be absent) and the belief model.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch

from eights.bots import make_bot
from eights.bots.belief import (
    CARD_STATIC,
    FAMILY,
    FEATURES,
    MODELS,
    SINKHORN_STEPS,
    BeliefModel,
    Features,
    features,
)
from eights.bots.blas import limit_process
from eights.bots.worlds import hand_bands, sample_world
from eights.engine.game import Game
from eights.engine.observation import Observation
from eights.engine.rules import Rules, load_rules

__all__ = ["HIDDEN", "Samples", "collect", "deal_seed", "evaluate", "log_loss", "train"]

HIDDEN = (32, 32)
"""Widths of the hidden layers."""


def deal_seed(tag: str, seed: int, game: int) -> int:
    """The seed of game ``game`` of a stream (``train`` or ``eval``): disjoint streams."""
    return random.Random(f"belief:{tag}:{seed}:{game}").getrandbits(62)


@dataclass
class Samples:
    """Observations' inputs and the true places of their unseen cards, stacked."""

    inputs: Features
    """Each :class:`~eights.bots.belief.Features` array stacked (one row a decision)."""
    labels: npt.NDArray[np.float32]
    """``(N, 53, players)``: copies of each card in each place."""
    seen: list[Observation]
    """The observations themselves (kept for evaluation only, else empty)."""
    rules: str = ""
    """The rule set's name."""

    def __len__(self) -> int:
        return len(self.labels)


def _labels(game: Game, f: Features) -> npt.NDArray[np.float32]:
    out = np.zeros((53, len(f.sizes)), dtype=np.float32)
    for j, s in enumerate(f.seats):
        for c in game.hands[s]:
            out[c, j] += 1
    out[:, -1] = f.copies - out[:, :-1].sum(axis=1)
    return out


def collect(rules: Rules, players: int, games: int, seed: int, tag: str = "train",
            bots: Sequence[str] = ("expert",), keep: float = 0.5,
            observations: bool = False) -> Samples:
    """Play ``games`` rounds (seeds of stream ``tag``) and record the decisions kept."""
    made = {spec: make_bot(spec) for spec in bots}
    rows: list[tuple[Features, npt.NDArray[np.float32]]] = []
    seen_kept: list[Observation] = []
    for g in range(games):
        s = deal_seed(tag, seed, g)
        game = Game(rules, players, seed=s)
        rng = random.Random(s)
        seats = [made[rng.choice(list(bots))] for _ in range(players)]
        while not game.over:
            seen = game.observe(game.to_move)
            legal = game.legal_actions()
            if len(legal) > 1 and rng.random() < keep:
                f = features(seen)
                rows.append((f, _labels(game, f)))
                if observations:
                    seen_kept.append(seen)
            game.apply(seats[game.to_move].choose(seen, legal, rng))
    if not rows:
        raise ValueError(f"{games} games of {rules.name} kept no decision; play more games")
    def stack(name: str) -> npt.NDArray[np.float32]:
        return np.stack([getattr(f, name) for f, _ in rows])

    stacked = Features(stack("card"), stack("place"), stack("pair"), stack("table"),
                       stack("copies"), stack("sizes"), seats=())
    return Samples(stacked, np.stack([y for _, y in rows]), seen_kept, rules.name)


class _Net(torch.nn.Module):
    """The scoring network and the Sinkhorn scaling, batched (as :class:`BeliefModel`)."""

    def __init__(self) -> None:
        super().__init__()
        widths = (FEATURES, *HIDDEN, 1)
        self.layers = torch.nn.ModuleList(torch.nn.Linear(a, b) for a, b in pairwise(widths))
        self.static = torch.from_numpy(CARD_STATIC)

    def forward(self, card: torch.Tensor, place: torch.Tensor, pair: torch.Tensor,
                table: torch.Tensor, copies: torch.Tensor, sizes: torch.Tensor) -> torch.Tensor:
        b, n = place.shape[0], place.shape[1]
        x = torch.cat([
            self.static[None, :, None, :].expand(b, 53, n, -1),
            card[:, :, None, :].expand(b, 53, n, -1),
            place[:, None, :, :].expand(b, 53, n, -1),
            pair,
            table[:, None, None, :].expand(b, 53, n, -1),
        ], dim=3)
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = torch.relu(x)
        logits = x[..., 0]
        mask = (copies[:, :, None] > 0) & (sizes[:, None, :] > 0)
        top = logits.masked_fill(~mask, -1e9).amax(dim=(1, 2), keepdim=True)
        w = torch.exp(torch.clamp(logits - top, -30.0, 0.0)) * mask
        for _ in range(SINKHORN_STEPS):
            w = w * (sizes / w.sum(dim=1).clamp_min(1e-30))[:, None, :]
            w = w * (copies / w.sum(dim=2).clamp_min(1e-30))[:, :, None]
        return w


def _loss(w: torch.Tensor, labels: torch.Tensor, copies: torch.Tensor) -> torch.Tensor:
    per_copy = w / copies.clamp_min(1.0)[:, :, None]
    return -(labels * torch.log(per_copy.clamp_min(1e-9))).sum() / copies.sum()


def train(data: Samples | Sequence[Samples], epochs: int, seed: int, batch: int = 256,
          lr: float = 3e-3, log: Any = None) -> BeliefModel:
    """Fit the network to ``data`` (one thread, seeded): one rule set's samples, or several
    (of any player counts: the family model; a batch holds one part's samples); the model's
    card holds only its rules and players (``family`` and 0 for several parts)."""
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    net = _Net()
    parts = [data] if isinstance(data, Samples) else list(data)
    groups = [[torch.from_numpy(a) for a in (d.inputs.card, d.inputs.place, d.inputs.pair,
                                             d.inputs.table, d.inputs.copies, d.inputs.sizes,
                                             d.labels)] for d in parts]
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, max(1, epochs))
    order = torch.Generator().manual_seed(seed)
    for epoch in range(epochs):
        total = count = 0.0
        batches = []
        for g, d in enumerate(parts):
            perm = torch.randperm(len(d), generator=order)
            batches += [(g, perm[at:at + batch]) for at in range(0, len(d), batch)]
        for k in torch.randperm(len(batches), generator=order).tolist():
            g, idx = batches[k]
            *inputs, labels = (t[idx] for t in groups[g])
            loss = _loss(net(*inputs), labels, inputs[4])
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
            total += float(loss.detach()) * len(idx)
            count += len(idx)
        schedule.step()
        if log is not None:
            print(f"epoch {epoch + 1}/{epochs}: log-loss {total / count:.4f}", file=log, flush=True)
    layers = [(layer.weight.detach().numpy().T.copy(), layer.bias.detach().numpy().copy())
              for layer in net.layers if isinstance(layer, torch.nn.Linear)]
    if len(parts) == 1:
        return BeliefModel(layers, {"rules": parts[0].rules,
                                    "players": int(parts[0].inputs.place.shape[1])})
    return BeliefModel(layers, {"rules": "family", "players": 0})


def collect_family(tasks: int, games: int, seed: int, keep: float = 0.3,
                   bots: Sequence[str] = ("expert",), log: Any = None) -> list[Samples]:
    """The family model's data: ``games`` rounds of each of ``tasks`` tasks of
    :func:`eights.learn.family.task` (presets and house rules drawn at random, 2 to 10
    players) of ``seed``, grouped by player count (a batch holds one count)."""
    from eights.learn.family import task

    by_count: dict[int, list[Samples]] = {}
    for i in range(tasks):
        rules, players, task_seed = task(seed, i)
        try:
            part = collect(rules, players, games, task_seed, "train", bots, keep)
        except ValueError:
            continue
        by_count.setdefault(players, []).append(part)
        if log is not None and i % 20 == 19:
            print(f"task {i + 1}/{tasks}", file=log, flush=True)
    out = []
    for players in sorted(by_count):
        group = by_count[players]

        def cat(name: str, group: list[Samples] = group) -> npt.NDArray[np.float32]:
            return np.concatenate([getattr(d.inputs, name) for d in group])

        out.append(Samples(Features(cat("card"), cat("place"), cat("pair"), cat("table"),
                                    cat("copies"), cat("sizes"), seats=()),
                           np.concatenate([d.labels for d in group]), [], "family"))
    return out


def log_loss(model: BeliefModel, data: Samples) -> float:
    """Nats per unseen card of ``model``'s marginals on ``data``'s observations."""
    if not data.seen:
        raise ValueError("log_loss needs samples collected with observations=True")
    return _mean_loss(data, [model.marginals(seen)[0] for seen in data.seen])


def _mean_loss(data: Samples, marginals: Sequence[npt.NDArray[np.float64]]) -> float:
    total = 0.0
    for p, y, copies in zip(marginals, data.labels, data.inputs.copies, strict=True):
        per_copy = p / np.maximum(copies, 1)[:, None]
        total -= float((y * np.log(np.maximum(per_copy, 1e-9))).sum())
    return total / float(data.inputs.copies.sum())


def _uniform(data: Samples) -> list[npt.NDArray[np.float64]]:
    return [np.outer(c, s / max(1.0, float(s.sum()))).astype(np.float64)
            for c, s in zip(data.inputs.copies, data.inputs.sizes, strict=True)]


def _sampled(data: Samples, infer: str, worlds: int, seed: int) -> list[npt.NDArray[np.float64]]:
    """The current sampler's marginals, counted over ``worlds`` worlds plus one uniform."""
    rng = random.Random(seed)
    out = []
    for seen, uniform in zip(data.seen, _uniform(data), strict=True):
        n = seen.players
        seats = [(seen.seat + 1 + i) % n for i in range(n - 1)]
        counts = np.zeros((53, n))
        bands = hand_bands(seen, infer)
        for _ in range(worlds):
            world = sample_world(seen, rng, bands)
            for j, s in enumerate(seats):
                for c in world.hands[s]:
                    counts[c, j] += 1
            for c in world.stock:
                counts[c, n - 1] += 1
        out.append((counts + uniform) / (worlds + 1))
    return out


def evaluate(model: BeliefModel | None, rules: Rules, players: int, games: int, seed: int,
             worlds: int, keep: float = 0.3, bots: Sequence[str] = ("expert",)) -> dict[str, Any]:
    """Held-out log-losses (see the module text) on ``games`` rounds of the ``eval`` stream."""
    data = collect(rules, players, games, seed, "eval", bots, keep, observations=True)
    result: dict[str, Any] = {"rules": rules.name, "players": players, "games": games,
                              "eval_seed": seed, "decisions": len(data), "worlds": worlds,
                              "uniform": _mean_loss(data, _uniform(data))}
    for infer in ("rules", "model"):
        result[f"sampler-{infer}"] = _mean_loss(data, _sampled(data, infer, worlds, seed))
    if model is not None:
        start = time.process_time()
        result["belief"] = log_loss(model, data)
        result["ms_per_decision"] = 1000 * (time.process_time() - start) / len(data)
    return result


def command(rules: str, players: int, games: int, epochs: int, seed: int, bots: str,
            keep: float) -> str:
    """The training command line, every option spelt out (a model's card keeps it)."""
    return (f"python -m eights.learn.belief --rules {rules} --players {players} --games {games} "
            f"--epochs {epochs} --seed {seed} --bots {bots} --keep {keep}")


def main(argv: Sequence[str] | None = None) -> None:
    limit_process()  # one OpenBLAS thread: eights' own process (eights.bots.blas)
    parser = argparse.ArgumentParser(prog="python -m eights.learn.belief",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", help="a preset or a rules file")
    parser.add_argument("--players", type=int)
    parser.add_argument("--games", type=int, default=1500, help="training rounds")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="expert",
                        help="comma-separated bots; each seat of a round plays one drawn at random")
    parser.add_argument("--keep", type=float, default=0.5, help="share of decisions recorded")
    parser.add_argument("--out", type=Path, help="where to write the model "
                        "(default: eights/models/belief-RULES-Np.npz)")
    parser.add_argument("--evaluate", type=Path, metavar="MODEL",
                        help="evaluate this model on held-out deals instead of training")
    parser.add_argument("--eval-games", type=int, default=150)
    parser.add_argument("--eval-seed", type=int, default=31)
    parser.add_argument("--worlds", type=int, default=200,
                        help="worlds sampled per decision to count the sampler's marginals")
    parser.add_argument("--family", type=int, metavar="TASKS", default=0,
                        help="train the family model instead: --games rounds of each of TASKS "
                             "tasks (presets and random house rules, 2 to 10 players) drawn "
                             "from --seed as eights.learn.family draws them")
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    if args.family:
        if args.evaluate is not None:
            model = BeliefModel.load(args.evaluate)
            players = args.players or 2
            print(evaluate(model, load_rules(args.rules), players, args.eval_games,
                           args.eval_seed, args.worlds, bots=bots))
            return
        start = time.time()
        parts = collect_family(args.family, args.games, args.seed, args.keep, bots,
                               log=sys.stderr)
        decisions = sum(len(p) for p in parts)
        print(f"{decisions} decisions from {args.family} tasks in {time.time() - start:.0f} s",
              file=sys.stderr)
        model = train(parts, args.epochs, args.seed, log=sys.stderr)
        model.meta |= {
            "seed": args.seed, "games": args.games, "tasks": args.family,
            "epochs": args.epochs, "bots": bots, "keep": args.keep, "decisions": decisions,
            "hidden": list(HIDDEN), "wall_seconds": round(time.time() - start, 1),
            "command": (f"python -m eights.learn.belief --family {args.family} --games "
                        f"{args.games} --epochs {args.epochs} --seed {args.seed} --bots "
                        f"{args.bots} --keep {args.keep}"),
        }
        out = args.out or MODELS / FAMILY
        model.save(out)
        print(f"wrote {out} ({math.ceil(out.stat().st_size / 1024)} kB)", file=sys.stderr)
        return
    if args.players is None or args.rules is None:
        parser.error("--rules and --players are needed (or --family TASKS)")
    rules = load_rules(args.rules)
    if args.evaluate is not None:
        model = BeliefModel.load(args.evaluate)
        print(evaluate(model, rules, args.players, args.eval_games, args.eval_seed, args.worlds,
                       bots=bots))
        return
    start = time.time()
    data = collect(rules, args.players, args.games, args.seed, "train", bots, args.keep)
    collected = time.time() - start
    print(f"{len(data)} decisions from {args.games} rounds in {collected:.0f} s", file=sys.stderr)
    model = train(data, args.epochs, args.seed, log=sys.stderr)
    model.meta |= {
        "seed": args.seed, "games": args.games, "epochs": args.epochs, "bots": bots,
        "keep": args.keep, "decisions": len(data),
        "hidden": list(HIDDEN), "wall_seconds": round(time.time() - start, 1),
        "command": command(args.rules, args.players, args.games, args.epochs, args.seed,
                           args.bots, args.keep),
    }
    out = args.out or MODELS / f"belief-{rules.name}-{args.players}p.npz"
    model.save(out)
    print(f"wrote {out} ({math.ceil(out.stat().st_size / 1024)} kB, "
          f"{model.meta['wall_seconds']:.0f} s in all)", file=sys.stderr)


if __name__ == "__main__":
    main()
