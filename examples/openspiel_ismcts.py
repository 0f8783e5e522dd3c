"""OpenSpiel's ISMCTS against eights' own expert bot, on any rule set.

    python examples/openspiel_ismcts.py [--rules crazy-eights] [--players 2] [--rounds 4]
                                        [--simulations 50] [--opponent expert] [--seed 0]

The game is ``python_eights`` (``import eights.openspiel`` registers it) with the ``win``
reward. OpenSpiel's Python ISMCTS (``open_spiel.python.algorithms.ismcts``) searches it:
random rollouts, worlds dealt by eights' sampler through ``resample_from_infostate``. The
other seats are eights bots (``--opponent``, any bot spec: ``expert``, ``greedy``,
``ismcts:iterations=200``) behind :class:`eights.openspiel.BotAdapter`. The searching seat
moves one place each round; every random choice comes from ``--seed``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

import pyspiel

import eights.openspiel as eo
from eights.bots import make_bot


def play_round(game: Any, seat: int, simulations: int, opponent: str, seed: int) -> list[float]:
    """One round: OpenSpiel's ISMCTS at ``seat``, ``opponent`` bots elsewhere."""
    search = eo.ismcts_bot(game, simulations=simulations, seed=seed)
    others = {s: eo.BotAdapter(make_bot(opponent), seed=seed * 100 + s)
              for s in range(game.num_players()) if s != seat}
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            cards, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(cards, odds)[0])
            continue
        player = state.current_player()
        action = search.step(state) if player == seat else others[player].step(state)
        state.apply_action(action)
    return list(state.returns())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="crazy-eights", help="a preset or a rules file")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=50, help="ISMCTS simulations a move")
    parser.add_argument("--opponent", default="expert", help="an eights bot spec")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    game = pyspiel.load_game("python_eights", {"rules": args.rules, "players": args.players,
                                               "reward": "win"})
    wins = 0
    start = time.process_time()
    for r in range(args.rounds):
        seat = r % game.num_players()
        returns = play_round(game, seat, args.simulations, args.opponent, args.seed + r)
        won = returns[seat] > 0
        wins += won
        print(f"round {r + 1}: ISMCTS at seat {seat} {'wins' if won else 'loses'} "
              f"(returns {' '.join(f'{x:+g}' for x in returns)})")
    print(f"OpenSpiel ISMCTS ({args.simulations} simulations) against {args.opponent} on "
          f"{args.rules}, {game.num_players()} players: {wins} of {args.rounds} rounds won "
          f"({time.process_time() - start:.1f} s CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
