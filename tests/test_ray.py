"""``--ray``: simulate and tournament played as Ray tasks give the numbers of ``--jobs 1``,
and examples/ray_tournament.py runs as it is.

One local Ray (two CPUs) serves the whole module: the commands find this process
connected and use that connection (``--ray local`` would start one otherwise, which
takes seconds). At the end Ray is shut down, and the test checks that it left no
process behind.
"""

from __future__ import annotations

import json
import logging
import os
import runpy
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import ray
from typer.testing import CliRunner, Result

from eights.cli import app
from eights.lab import simulate as simulate_module
from eights.lab.parallel import RayCluster, Report, workers
from eights.lab.tournament import standings_table, tournament

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
TIMING = {"seconds", "wall_seconds", "rounds_per_second", "decisions_per_second"}


def descendants() -> set[int]:
    """The live processes below this one, read from /proc (Linux)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue  # gone meanwhile
        if fields[0] != "Z":  # a zombie has exited
            parents[int(stat.parent.name)] = int(fields[1])
    found: set[int] = set()
    frontier = {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


@pytest.fixture(scope="module", autouse=True)
def local_ray() -> Iterator[None]:
    before = descendants()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.WARNING)
    assert descendants() - before, "Ray started its processes below this one"
    yield
    ray.shutdown()
    deadline = time.monotonic() + 30
    while (left := descendants() - before) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left, f"processes Ray left running: {sorted(left)}"


def cli(*args: str, progress: str = "0") -> Result:
    result = runner.invoke(app, list(args), env={"EIGHTS_PROGRESS": progress})
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def numbers(result: Result) -> dict[str, Any]:
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return {k: v for k, v in data.items() if k not in TIMING}


@pytest.mark.parametrize("amount", [("--rounds", "2300"), ("--games", "7", "--engine", "reference")])
def test_simulate_on_ray_gives_the_numbers_of_one_process(
        amount: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    """Three chunks (small ones: the size goes to the tasks with the job), on the kernel
    and on the reference engine."""
    monkeypatch.setattr(simulate_module, "FAST_CHUNK", 1000)
    monkeypatch.setattr(simulate_module, "GAMES_CHUNK", 3)
    args = ("simulate", "-r", "crazy-eights", "--seed", "6", "--bots", "greedy,random",
            *amount, "--json")
    here = numbers(cli(*args))
    on_ray = cli(*args, "--ray", "local", progress="1")
    assert numbers(on_ray) == here
    assert here["engine"] == ("reference" if "--games" in amount else "fast")
    total = amount[1]
    assert f"{total}/{total}" in on_ray.stderr  # progress as the tasks come back


def test_tournament_on_ray_gives_the_numbers_of_one_process() -> None:
    args = ("tournament", "-n", "3", "--bots", "expert,greedy,random", "--deals", "20",
            "--seed", "4", "--json", "-")
    here = numbers(cli(*args))
    assert here["rounds"] == 20 * 6
    assert numbers(cli(*args, "--ray", "local")) == here
    one_task_at_a_time = cli(*args, "--ray", "local", "--jobs", "1", progress="1")
    assert numbers(one_task_at_a_time) == here
    assert "120/120" in one_task_at_a_time.stderr


def test_the_example_script_runs_as_it_is(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["ray_tournament.py", "--deals", "3", "--seed", "2"])
    runpy.run_path(str(ROOT / "examples" / "ray_tournament.py"), run_name="__main__")
    printed = capsys.readouterr().out.splitlines()
    assert "3 deals x 12 seatings = 36 rounds" in printed[0]
    here = tournament("classic", 4, ["expert", "greedy", "random"], 3, seed=2)
    assert printed[1:] == standings_table(here).splitlines()[1:]  # the first line has the time


def _fail_on_13(job: int, unit: range, report: Report | None) -> list[int]:
    if 13 in unit:
        raise ValueError(f"unit {unit.start}-{unit.stop - 1} holds 13")
    return list(unit)


def test_a_tasks_error_comes_back_as_itself() -> None:
    pickler: Any = ray.cloudpickle  # untyped
    pickler.register_pickle_by_value(sys.modules[__name__])  # the workers cannot import tests
    try:
        pool = workers(2, "local")
        assert isinstance(pool, RayCluster) and pool.concurrency == 2
        with pool, pytest.raises(ValueError, match="unit 10-19 holds 13"):
            pool.run(_fail_on_13, 0, [range(0, 10), range(10, 20), range(20, 30)], size=len)
        assert ray.is_initialized()  # not started by the run: not stopped by it
    finally:
        pickler.unregister_pickle_by_value(sys.modules[__name__])
