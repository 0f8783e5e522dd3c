"""The first review of a fresh server (issue 35 item 3, issue 36 item 6): how long a person
waits for "Review my play" right after the server started, and the reviews after it.

    python benchmarks/server_first_review.py [--tables 4] [--cold] [--json FILE]

Starts ``eights serve`` as it ships (SQLite in a temporary directory; its review worker
starts with it and loads the search's compiled kernel ahead, at ``nice`` 19, then runs in
the idle class). For each of ``--tables`` tables (classic, Ana against two expert bots) it
plays round 1 to its end over the WebSocket and asks for its review over HTTP as the page
does, asking again on ``503 unavailable`` (the page says the review goes on; a server before
issue 36 answered the next ask ``429``, "under way", which is asked again too): the wait from
the first ask to the review, and the decisions reviewed. The first table is played
at once after the server answers its health check, so its review comes while the worker
may still be loading. ``--cold`` gives the server an empty numba cache (a fresh install:
the kernel is compiled, some 220 s of CPU on the machine below). Prints the machine and the
load beside every figure.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

from common import Bench, machine_line
from server_clients import ServerProcess, ask_review, http, play_first_round


def play_round(base: str, seed: int) -> tuple[str, str]:
    """A classic table of Ana and two expert bots, round 1 played to its end (Ana plays some
    card when one plays): its code and Ana's token."""
    made = http(base, "POST", "/api/tables", {"rules": "classic", "players": 3, "name": "Ana",
                                              "bots": {"1": "expert", "2": "expert"},
                                              "public": False})
    play_first_round(base, made, random.Random(seed), wait=120)
    return made["code"], made["token"]


def review(base: str, code: str, token: str, most: float = 900.0) -> tuple[float, int, int]:
    """Ask for round 1's review until it comes: the seconds, the decisions, the asks."""
    began = time.monotonic()
    asks = 0
    while True:
        asks += 1
        try:  # (a server before issue 36 held an asker up to 120 s)
            status, body = ask_review(base, code, token, timeout=150)
        except TimeoutError:
            continue
        if status == 200:
            return time.monotonic() - began, len(json.loads(body)["decisions"]), asks
        again = status == 503 or (status == 429 and b"under way" in body)  # (as a person would)
        if not again or time.monotonic() - began > most:
            raise RuntimeError(f"the review was refused: {status} {body[:200]!r}")
        time.sleep(0.5)


def main() -> None:
    bench = Bench(__doc__, seed=1)
    bench.parser.add_argument("--tables", type=int, default=4)
    bench.parser.add_argument("--cold", action="store_true",
                              help="an empty numba cache: the kernel is compiled (a fresh install)")
    args = bench.parse()
    with tempfile.TemporaryDirectory(prefix="eights-first-review-") as tmp:
        if args.cold:
            os.environ["NUMBA_CACHE_DIR"] = str(Path(tmp) / "numba")
        started = time.monotonic()
        server = ServerProcess(f"sqlite:///{tmp}/server.sqlite3", Path(tmp) / "server.log",
                               bot_delay=0.0)
        healthy = time.monotonic() - started
        bench.say(f"server answered {healthy:.1f} s after its start ({'cold' if args.cold else 'warm'} "
                  "numba cache)")
        rows = []
        try:
            for i in range(args.tables):
                code, token = play_round(server.base, args.seed + i)
                asked = time.monotonic() - started
                wait, decisions, asks = review(server.base, code, token)
                load = os.getloadavg()[0]
                rows.append({"table": i, "asked_after_start_s": round(asked, 1),
                             "wait_s": round(wait, 2), "decisions": decisions, "asks": asks,
                             "load": round(load, 1)})
                bench.say(f"{'first' if i == 0 else 'then '}: asked {asked:.1f} s after the "
                          f"start, the review came {wait:.2f} s later ({decisions} decisions, "
                          f"{asks} asks); load {load:.1f}")
        finally:
            server.stop()
    later = [r["wait_s"] for r in rows[1:]]
    summary = {"cold": args.cold, "healthy_s": round(healthy, 1), "first_wait_s": rows[0]["wait_s"],
               "later_wait_s": {"median": statistics.median(later), "min": min(later),
                                "max": max(later)} if later else None, "reviews": rows}
    bench.result(summary)
    bench.say(f"first review {rows[0]['wait_s']:.2f} s; later ones {summary['later_wait_s']}; "
              f"{machine_line()}")


if __name__ == "__main__":
    main()
