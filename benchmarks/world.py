"""The kernel's step interface: engine games made kernel states, play-outs, batches of tables.

    python benchmarks/world.py [--worlds 400] [--seconds 2] [--repeats 3]

On ``classic`` with 2 and 4 players (best of ``--repeats``, CPU time):

- the worlds ISMCTS searches: decision points of games between greedy bots, a world
  sampled at each (``eights.bots.worlds.sample_world``); per world, the µs of
  ``state_from_game`` into a reused state, of ``play_out`` with greedy seats from it
  (converting and playing, less converting),
  and of ``PlayOuts.play`` (both, and the result read back), against the engine's
  rollout as ISMCTS plays it (``Game.clone`` and ``greedy_action`` pushed to the end);
- ``TableBatch`` on 4 players: table-steps a second (CPU time of ``step`` alone; the
  learning seat plays its first legal code, ``mask.argmax(axis=1)``, the three others
  at random inside compiled code) at batches of 1, 64 and 1024, and the learning
  seat's decisions a second of all seats.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import numpy as np

from common import Bench, decision_points, for_cpu
from eights import Game, load_rules
from eights.bots.ismcts import greedy_action
from eights.bots.worlds import hand_bands, sample_world
from eights.engine.rules import Rules
from eights.fast import kernel as k
from eights.fast.vector import TableBatch
from eights.fast.world import PlayOuts, cached_tables, play_out, policy_epsilons, state_from_game


def sampled_worlds(rules: Rules, players: int, count: int, seed: int = 1) -> list[Game]:
    """One sampled world at each of ``count`` decision points of games between greedy bots
    (decisions with a choice only)."""
    rng = random.Random(seed)
    return [sample_world(seen, rng, hand_bands(seen))
            for seen, _ in decision_points(rules, players, count, seed)]


def per_world(worlds: list[Game], run: Callable[[Game], object], seconds: float) -> float:
    """CPU µs per world of ``run``, over the worlds again and again for ``seconds``."""
    def all_worlds() -> int:
        for world in worlds:
            run(world)
        return len(worlds)

    done, spent = for_cpu(seconds, all_worlds)
    return spent / done * 1e6


def world_figures(rules: Rules, players: int, count: int, seconds: float,
                  seed: int = 1) -> dict[str, float]:
    worlds = sampled_worlds(rules, players, count, seed)
    kt = cached_tables(rules)
    state = state_from_game(kt, worlds[0], 0)
    greedy = policy_epsilons("greedy", players)
    buf = np.empty(k.N_ACTIONS, dtype=np.int64)
    script = np.empty(0, dtype=np.int64)
    playouts = PlayOuts(rules, players)
    decisions = 0
    for i, w in enumerate(worlds):
        decisions += playouts.play(w, i).decisions
    rng = random.Random(0)

    def convert(world: Game) -> None:
        state_from_game(kt, world, 7, state)

    def play(world: Game) -> None:
        state_from_game(kt, world, 7, state)
        play_out(kt.tab, state, greedy, buf, script)

    def both(world: Game) -> None:
        playouts.play(world, 7)

    def engine(world: Game) -> None:
        game = world.clone(rng)
        while not game.over:
            game.push(greedy_action(game, game.legal))

    converted = per_world(worlds, convert, seconds)
    return {
        "convert": converted,
        "play_out": per_world(worlds, play, seconds) - converted,
        "PlayOuts.play": per_world(worlds, both, seconds),
        "engine rollout": per_world(worlds, engine, seconds),
        "decisions": decisions / len(worlds),
    }


def batch_figures(rules: Rules, players: int, batch: int, seconds: float,
                  seed: int = 1) -> tuple[float, float]:
    """Table-steps a second of :meth:`TableBatch.step` (CPU time of the calls alone), and
    the decisions of all seats per table-step (from the rounds finished)."""
    tables = TableBatch(rules, players, batch, seed=seed)
    _, mask = tables.reset()
    steps = 0
    spent = 0.0
    done = np.zeros(batch, dtype=bool)
    mine = np.zeros(batch, dtype=np.int64)
    my_total = all_total = 0
    while spent < seconds:
        actions = mask.argmax(axis=1)
        start = time.process_time()
        _, mask, _, terminated = tables.step(actions)
        spent += time.process_time() - start
        steps += batch
        mine += ~done
        my_total += int(mine[terminated].sum())
        all_total += int(tables.states[terminated, k.S_DECISIONS].sum())
        mine[terminated | done] = 0
        done = terminated
    return steps / spent, all_total / max(1, my_total)


def main() -> None:
    bench = Bench(__doc__, seed=1)
    bench.parser.add_argument("--worlds", type=int, default=400, help="sampled worlds per setting")
    bench.parser.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    bench.parser.add_argument("--repeats", type=int, default=3,
                              help="repeat every measurement and keep the best")
    args = bench.parse()
    rules = load_rules("classic")
    PlayOuts(rules, 2).play(Game(rules, 2, seed=1), 1)  # compiled (or loaded) first
    print(f"classic, sampled worlds (µs per world, best of {args.repeats}, CPU time)")
    heads = ("convert", "play_out", "PlayOuts.play", "engine rollout", "decisions")
    print(f"{'players':<8}" + "".join(f"{h:>16}" for h in heads) + f"{'speed-up':>10}")
    for players in (2, 4):
        best: dict[str, float] = {}
        for _ in range(args.repeats):
            for name, value in world_figures(rules, players, args.worlds, args.seconds,
                                             args.seed).items():
                best[name] = min(best.get(name, value), value)
        print(f"{players:<8}" + "".join(f"{best[h]:>16.1f}" for h in heads)
              + f"{best['engine rollout'] / best['PlayOuts.play']:>9.1f}x")
        bench.result({"players": players, **best})
    print(f"\nTableBatch, classic, 4 players, seat 0 learning, 3 random seats (best of "
          f"{args.repeats}, CPU time of step)")
    print(f"{'batch':<8}{'table-steps/s':>16}{'decisions/step':>16}{'decisions/s':>14}")
    for batch in (1, 64, 1024):
        rate, per = max(batch_figures(rules, 4, batch, args.seconds, args.seed)
                        for _ in range(args.repeats))
        print(f"{batch:<8}{rate:>16,.0f}{per:>16.2f}{rate * per:>14,.0f}")
        bench.result({"batch": batch, "table_steps_per_s": rate, "decisions_per_step": per})


if __name__ == "__main__":
    main()
