"""How much the search's worlds know about the hidden hands, by way of reading them.

    python benchmarks/inference.py [--preset classic] [--players 4] [--games 25]
                                   [--worlds 60] [--seed 0]

Experts play seeded games. At every fourth decision with a choice, the player
to move samples ``--worlds`` worlds three ways, and for every other seat and
suit the share of worlds in which that seat holds a plain card of the suit is
scored against the truth (log loss, lower is better; a perfect reader scores
0, a coin 0.693):

- ``none``: hand sizes and the cards seen only (uniform deals);
- ``rules``: what the rules make certain (plain draws where drawing means no play);
- ``model``: also what a sensible player's draws and wild cards show (the
  search's default, ``infer=model``).

It measures the information the public moves carry: the gap between these
rows and 0 is what the ``oracle`` line of ``strength.py`` (the search handed
the true cards) exploits and no reading of the moves can recover.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Sequence

from eights import Game
from eights.bots.expert import ExpertBot
from eights.bots.worlds import hand_bands, sample_world
from eights.engine.observation import Observation

WAYS = ("none", "rules", "model")


def holds(hand: Sequence[int], suit: int, wild: Sequence[bool]) -> bool:
    return any(c < 52 and c & 3 == suit and not wild[c] for c in hand)


def score(seen: Observation, truth: Game, way: str, worlds: int,
          rng: random.Random) -> tuple[float, int]:
    """Summed log loss over (seat, suit) and how many were scored."""
    bands = hand_bands(seen, way)
    sample = [sample_world(seen, rng, bands) for _ in range(worlds)]
    wild = list(truth.tables.wild)
    loss, count = 0.0, 0
    for seat in range(seen.players):
        if seat == seen.seat:
            continue
        for suit in range(4):
            p = sum(1 for world in sample if holds(world.hands[seat], suit, wild)) / worlds
            p = min(max(p, 0.01), 0.99)
            loss -= math.log(p if holds(truth.hands[seat], suit, wild) else 1 - p)
            count += 1
    return loss, count


def run(preset: str, players: int, games: int, worlds: int, seed: int) -> None:
    sums = dict.fromkeys(WAYS, 0.0)
    counts = dict.fromkeys(WAYS, 0)
    expert = ExpertBot()
    for k in range(games):
        game = Game(preset, players, seed=seed + k)
        rng = random.Random(seed + k)
        moves = 0
        while not game.over:
            seen = game.observe(game.to_move)
            legal = game.legal_actions()
            if moves % 4 == 0 and len(legal) > 1:
                for way in WAYS:
                    loss, count = score(seen, game, way, worlds, rng)
                    sums[way] += loss
                    counts[way] += count
            moves += 1
            game.apply(expert.choose(seen, legal, rng))
    print(f"{preset} {players}p, {games} games, {worlds} worlds a decision "
          f"(log loss per seat and suit; 0 is perfect, 0.693 a coin):")
    for way in WAYS:
        print(f"  {way:<13} {sums[way] / max(1, counts[way]):.4f}  ({counts[way]} scored)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=25)
    parser.add_argument("--worlds", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    run(args.preset, args.players, args.games, args.worlds, args.seed)


if __name__ == "__main__":
    main()
