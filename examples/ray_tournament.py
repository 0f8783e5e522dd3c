"""A duplicate tournament on a Ray cluster: three bots at a four-player classic table.

    pip install 'eights[lab,ray]'
    python examples/ray_tournament.py                          # a Ray started on this machine
    python examples/ray_tournament.py --address auto           # the cluster this machine joined
    python examples/ray_tournament.py --address head:6379 --deals 2000

Every worker of the cluster needs the same version of eights installed: the tasks
receive the rules object and the bot specs, and play with the eights they import.
The standings are the same as with ``--jobs 1`` on one machine, for the same seed
(see docs/scaling.md).
"""

from __future__ import annotations

import argparse

from eights.lab.tournament import standings_table, tournament


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--address", default="local",
                        help="local (start a Ray here), auto, or the head's host:6379")
    parser.add_argument("--deals", type=int, default=100, help="deals, each played 12 times")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    result = tournament("classic", 4, ["expert", "greedy", "random"], args.deals,
                        seed=args.seed, ray=args.address)
    print(standings_table(result))


if __name__ == "__main__":
    main()
