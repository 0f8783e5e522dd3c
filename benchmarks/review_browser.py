"""How long the browser waits for "Review my play" on an idle server (issue 27's target:
10 s), measured in the browser itself.

    python benchmarks/review_browser.py [--tables 3] [--rules classic] [--players 4]
                                        [--screenshot DIR]

Starts ``eights serve`` in a child process as it ships (SQLite in a temporary directory,
its bots and its reviews in their own processes), and for each of ``--tables`` tables: one
person in seat 0 (played over the WebSocket, some card if one plays) against expert bots,
one round to its end; then Debian's chromium opens the table's page holding that seat,
as the person's browser would, clicks **Review my play** on the round's summary and
times the wait until the review is on the page. The first review of a fresh server
spawns its review process and loads the compiled search: it is printed apart. Prints
each wait, the number of decisions reviewed and the load average. Needs chromium
(``make test`` installs it) and the server and test extras.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path

import orjson
from playwright.sync_api import sync_playwright
from websockets.asyncio.client import connect

from server_clients import ServerProcess, http

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def pick(legal: list[str], rng: random.Random) -> str:
    plays = [a for a in legal if a not in ("draw", "pass", "take")]
    return rng.choice(plays) if plays else ("draw" if "draw" in legal else legal[0])


async def play_round(base: str, code: str, token: str, host: str, seed: int) -> None:
    """Seat 0 plays round 1 of table ``code`` to its end (the bots play the rest)."""
    rng = random.Random(seed)
    seq = 0
    async with connect(base.replace("http://", "ws://") + f"/ws/tables/{code}",
                       ping_interval=None, max_size=2**22) as ws:

        async def send(kind: str, **fields: object) -> None:
            nonlocal seq
            seq += 1
            await ws.send(orjson.dumps({"type": kind, "seq": seq, **fields}).decode())

        await send("hello", token=token)
        await send("start", token=host)
        while True:
            message = orjson.loads(await asyncio.wait_for(ws.recv(), 120))
            if message["type"] == "error":
                raise RuntimeError(f"table {code}: {message}")
            if message["type"] != "state":
                continue
            view = message["view"]
            if view["round_over"] or view["match_over"]:
                return
            if view["to_play"] == 0:
                await send("action", token=token, version=message["version"],
                           action=pick(view["legal"], rng))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--screenshot", type=Path, default=None,
                        help="save each page with its review as PNG files in this folder")
    args = parser.parse_args()
    if not CHROMIUM.exists():
        parser.error(f"{CHROMIUM} is missing: apt-get install -y chromium (make test does)")
    waits: list[float] = []
    with tempfile.TemporaryDirectory(prefix="eights-review-browser-") as tmp:
        server = ServerProcess(f"sqlite:///{tmp}/server.sqlite3", Path(tmp) / "server.log")
        try:
            tables: list[tuple[str, str]] = []
            for i in range(args.tables):  # played first: Playwright's own loop runs later
                bots = {str(s): "expert" for s in range(1, args.players)}
                made = http(server.base, "POST", "/api/tables", {
                    "rules": args.rules, "players": args.players, "bots": bots,
                    "public": False, "title": f"review {i}"})
                code = made["code"]
                token = http(server.base, "POST", f"/api/tables/{code}/join",
                             {"name": "Ana", "seat": 0})["token"]
                asyncio.run(play_round(server.base, code, token, made["host_token"],
                                       args.seed + i))
                tables.append((code, token))
            time.sleep(2.0)  # the server idle: its bots done thinking
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
                for i, (code, token) in enumerate(tables):
                    context = browser.new_context(locale="en-GB")
                    seat = json.dumps(json.dumps({"seat": 0, "token": token}))
                    context.add_init_script(f"localStorage.setItem('eights.seat.{code}', {seat})")
                    page = context.new_page()
                    page.goto(f"{server.base}/t/{code}")
                    button = page.locator("#review-round-1")
                    button.wait_for(timeout=30_000)
                    start = time.monotonic()
                    button.click()
                    page.locator("#review-1 .review-summary").wait_for(timeout=120_000)
                    wait = time.monotonic() - start
                    decisions = page.locator("#review-1 .review-decision").count()
                    print(f"{'first' if i == 0 else 'then'}: table {code}, {args.rules} "
                          f"{args.players}p, review on the page {wait:.2f} s after the click "
                          f"({decisions} decisions); load {os.getloadavg()[0]:.1f}", flush=True)
                    waits.append(wait)
                    if args.screenshot is not None:
                        args.screenshot.mkdir(parents=True, exist_ok=True)
                        page.locator("#review-1").screenshot(
                            path=str(args.screenshot / f"review-{i + 1}.png"))
                    context.close()
                browser.close()
        finally:
            server.stop()
    later = waits[1:] or waits
    print(f"first review {waits[0]:.2f} s (the review process spawned); later ones median "
          f"{statistics.median(later):.2f} s ({min(later):.2f} to {max(later):.2f}); "
          f"target 10 s on an idle server", flush=True)


if __name__ == "__main__":
    main()
