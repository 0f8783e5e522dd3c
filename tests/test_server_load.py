"""The load benchmark, run small: every action reaches every client and the record.

``benchmarks/server_load.py`` is a measurement (its timing goals are not tested
here); this runs its whole path (a server process, tables of WebSocket clients
playing, the records checked against what the clients saw) with six tables
for a few seconds, and asserts only that nothing failed and nothing was lost.
Six tables and their 24 create/join requests from one address are more than
the default bounds allow, so this also shows ``--address-limit`` lifting them.
With ``--processes 2`` the same runs on two servers behind HAProxy.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from postgres import BACKENDS, database_url, fresh_schema, required

BENCHMARK = Path(__file__).resolve().parent.parent / "benchmarks" / "server_load.py"
HAPROXY = "/usr/sbin/haproxy"


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


def test_two_processes_behind_the_proxy_lose_nothing() -> None:
    """``--processes 2``: the tables spread over two servers on one PostgreSQL behind
    HAProxy, every record still what its clients saw."""
    if not os.access(HAPROXY, os.X_OK):
        if required():
            pytest.fail(f"HAProxy ({HAPROXY}) is missing; tools/test-env installs it",
                        pytrace=False)
        pytest.skip(f"HAProxy ({HAPROXY}) is missing")
    with fresh_schema() as url:
        done = subprocess.run(
            [sys.executable, str(BENCHMARK), "--processes", "2", "--tables", "6", "--seconds",
             "3", "--ramp", "0.2", "--warmup", "0.5", "--think", "0.05", "--bots", "1",
             "--bot-delay", "0", "--db", url, "--json"],
            capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    result = json.loads(done.stdout.splitlines()[-1])
    assert result["errors"] == 0, result["error_examples"]
    assert result["lost"] == 0 and result["verified_tables"] == 6
    assert result["processes"] == 2 and result["actions"] > 20
    assert result["cpu"]["proxy"] >= 0  # measured (not NaN: the proxy ran)
