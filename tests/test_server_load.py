"""The load benchmark, run small: every action reaches every client and the record.

``benchmarks/server_load.py`` is a measurement (its timing goals are not tested
here); this runs its whole path (a server process, tables of WebSocket clients
playing, the records checked against what the clients saw) with six tables
for a few seconds, and asserts only that nothing failed and nothing was lost.
Six tables and their 24 create/join requests from one address are more than
the default bounds allow, so this also shows ``--address-limit`` lifting them.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from postgres import BACKENDS, database_url

BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "server_load.py"


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database_url(request.param, str(tmp_path / "server.sqlite3")) as url:
        yield url


def test_six_tables_lose_nothing(db: str) -> None:
    done = subprocess.run(
        [sys.executable, str(BENCHMARK), "--tables", "6", "--seconds", "3", "--ramp", "0.2",
         "--warmup", "0.5", "--think", "0.05", "--bots", "1", "--bot-delay", "0", "--db", db,
         "--json"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["errors"] == 0, result["error_examples"]
    assert result["lost"] == 0 and result["verified_tables"] == 6
    assert result["clients"] == 18
    assert result["actions"] > 20  # people and bots both played
    assert result["latency_ms"]["p50"] > 0
