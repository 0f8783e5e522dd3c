"""The chaos benchmark, run short: server processes killed with -9, PostgreSQL restarted,
and no table loses, doubles or freezes a step.

``benchmarks/server_chaos.py`` is a measurement (its failover and latency figures are
not tested here); this runs its whole path on two ``eights serve`` processes behind
HAProxy, on a private PostgreSQL: 30 tables of three scripted people and a greedy bot
for 60 s, a process killed with SIGKILL at 20 s and the other at 40 s (each restarted a
second later), and the database restarted at 30 s. The clients reconnect by themselves,
as the browser does. It asserts the invariants only: every table plays on after the
last kill, every step a client was told of is in the table's record at its version
(none lost, none doubled), and every record replays to what each client saw last.

The checker itself is tested first, on a record it must refuse.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from eights.engine.game import Game
from eights.engine.record import record_of
from postgres import required

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
HAPROXY = "/usr/sbin/haproxy"


def server_clients() -> ModuleType:
    """benchmarks/server_clients.py, the server benchmarks' clients, as a module."""
    spec = importlib.util.spec_from_file_location("server_clients",
                                                  BENCHMARKS / "server_clients.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def _a_record(rounds: int) -> dict[str, Any]:
    """A match of random legal play of at least ``rounds`` rounds."""
    game, rng = Game("classic", 3, seed=7), random.Random(7)
    while (game.round < rounds or not game.over) and not game.match_over:
        if game.over:
            game.next_round()
        else:
            game.push(rng.choice(game.legal_actions()))
    data: dict[str, Any] = record_of(game).to_json()
    return data


def test_the_checker_finds_a_step_lost_doubled_or_rewritten() -> None:
    clients = server_clients()
    record = _a_record(2)
    game, steps = clients.record_steps(record)
    assert steps.count(None) == len(record["rounds"]) - 1  # one deal a round after the first
    assert len(steps) == sum(len(r["actions"]) for r in record["rounds"]) + steps.count(None)
    seen = {v: step for v, step in enumerate(steps, 1) if v % 3}  # clients miss some steps
    last = [(seat, len(steps), game.observe(seat).to_json()) for seat in range(3)]
    assert clients.check_record("T", record, seen, last, every_step=False) is None
    assert "the clients saw" in clients.check_record("T", record, seen, last, every_step=True)

    lost = json.loads(json.dumps(record))
    del lost["rounds"][-1]["actions"][-1]
    assert "the record ends at version" in clients.check_record("T", lost, seen, last,
                                                                 every_step=False)
    doubled = json.loads(json.dumps(record))
    doubled["rounds"][0]["actions"].insert(3, doubled["rounds"][0]["actions"][2])
    assert clients.check_record("T", doubled, seen, last, every_step=False) is not None
    told_otherwise = {**seen, 1: (steps[0][0], "draw" if steps[0][1] != "draw" else "pass")}
    assert "in the record" in clients.check_record("T", record, told_otherwise, last,
                                                   every_step=False)
    behind = [(0, len(steps) - 1, last[0][2])]
    assert "saw version" in clients.check_record("T", record, seen, behind, every_step=False)
    other_view = [(0, len(steps), last[1][2])]
    assert "does not replay to" in clients.check_record("T", record, seen, other_view,
                                                        every_step=False)


def _needs(what: str, present: bool) -> None:
    if present:
        return
    if required():
        pytest.fail(f"{what} is missing, and CI requires the chaos test (tools/test-env "
                    "installs it)", pytrace=False)
    pytest.skip(f"{what} is missing (tools/test-env installs it)")


def test_two_processes_killed_in_turn_lose_nothing(tmp_path: Path) -> None:
    _needs(f"HAProxy ({HAPROXY})", os.access(HAPROXY, os.X_OK))
    _needs("a PostgreSQL server (/usr/lib/postgresql/*/bin/initdb)",
           any(Path("/usr/lib/postgresql").glob("*/bin/initdb")))
    _needs("runuser (to run PostgreSQL as 'postgres')",
           os.geteuid() != 0 or shutil.which("runuser") is not None)
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / "server_chaos.py"), "--processes", "2",
         "--tables", "30", "--seconds", "60", "--kill-every", "20", "--ramp", "2",
         "--log-dir", str(tmp_path / "logs"), "--quiet", "--json", str(tmp_path / "out.json")],
        capture_output=True, text=True, timeout=300)
    logs = "".join(f"\n--- {p.name}\n" + p.read_text(errors="replace")[-3000:]
                   for p in sorted((tmp_path / "logs").glob("*.log")))
    assert done.returncode in (0, 1), done.stdout + done.stderr + logs
    result = json.loads((tmp_path / "out.json").read_text())["results"][0]
    assert result["problems"] == 0, (result["problem_examples"], logs)
    assert result["tables_stuck"] == 0 and result["records_wrong"] == 0
    assert [f["kind"] for f in result["faults"]] == ["kill 0", "postgresql", "kill 1"]
    for fault in result["faults"]:
        assert fault["tables_reached"] > 0, fault  # each kill dropped some tables' clients
        assert fault["never_stepped"] == 0, fault  # and every table it reached moved again
    assert result["actions_told_accepted"] > 300  # the people played throughout
    assert done.returncode == 0
