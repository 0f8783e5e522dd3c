"""Where a run is played does not change its numbers: ``simulate`` plays fixed chunks
seeded by (seed, chunk), in this process or in ``--jobs N`` worker processes, and adds
them in chunk order; the workers' units and errors (tests/test_ray.py: on Ray)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from eights.bots import make_bot
from eights.cli import app
from eights.lab import simulate as simulate_module
from eights.lab.parallel import InProcess, Processes, Report, spans, workers
from eights.lab.simulate import simulate

runner = CliRunner()
TIMING = {"seconds", "wall_seconds", "rounds_per_second", "decisions_per_second"}


def untimed(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in TIMING}


def cli(*args: str, progress: str = "0") -> Result:
    return runner.invoke(app, list(args), env={"EIGHTS_PROGRESS": progress})


def cli_json(*args: str) -> dict[str, Any]:
    result = cli(*args, "--json")
    assert result.exit_code == 0, (result.output, result.exception)
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


# --------------------------------------------------------------------------- simulate's chunks


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of a few rounds, so that a short run has several (the chunk size goes to the
    workers with the job)."""
    monkeypatch.setattr(simulate_module, "ROUNDS_CHUNK", 40)
    monkeypatch.setattr(simulate_module, "GAMES_CHUNK", 3)
    monkeypatch.setattr(simulate_module, "FAST_CHUNK", 1000)


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize("amount", [{"rounds": 2 * 40 + 7}, {"games": 2 * 3 + 1}])
def test_simulate_gives_the_same_numbers_in_two_worker_processes(amount: dict[str, int]) -> None:
    """Three chunks (the last one short), played here and in two processes."""
    bots = [make_bot(b) for b in ("greedy", "random", "random")]
    games, rounds = amount.get("games"), amount.get("rounds")
    here = simulate("crazy-eights", 3, seed=5, bots=bots, games=games, rounds=rounds)
    there = simulate("crazy-eights", 3, seed=5, bots=bots, games=games, rounds=rounds, jobs=2)
    assert untimed(here.to_json()) == untimed(there.to_json())
    assert here.rounds == amount.get("rounds", here.rounds)
    assert here.matches == amount.get("games", here.matches)
    assert len(here.rounds_per_match) == here.matches
    assert there.seconds > 0 and there.wall_seconds > 0


@pytest.mark.usefixtures("small_chunks")
def test_simulate_jobs_on_the_kernel_from_the_command_line_with_progress() -> None:
    args = ("simulate", "-r", "crazy-eights", "--rounds", "2300", "--seed", "3", "--json")
    one = cli(*args)
    two = cli(*args, "--jobs", "2", progress="1")
    assert one.exit_code == 0 and two.exit_code == 0, (one.output, two.output)
    assert untimed(json.loads(one.stdout)) == untimed(json.loads(two.stdout))
    assert json.loads(two.stdout)["engine"] == "fast"
    assert "2300/2300" in two.stderr  # progress, as the workers' units come back


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize(("engine", "size"), [("fast", 1000), ("reference", 40)])
def test_a_chunk_is_seeded_by_its_index_not_by_the_length_of_the_run(engine: str, size: int) -> None:
    """The first chunk of a longer run is the run of one chunk; the second differs."""
    one = simulate("crazy-eights", seed=8, rounds=size, engine=engine)
    longer = simulate("crazy-eights", seed=8, rounds=2 * size, engine=engine)
    assert longer.decisions_per_round[:size] == one.decisions_per_round
    assert longer.decisions_per_round[size:] != one.decisions_per_round


@pytest.mark.parametrize("command", [("simulate", "--rounds", "5"), ("tournament", "--deals", "1")])
def test_jobs_below_one_is_refused(command: tuple[str, ...]) -> None:
    result = cli(*command, "--jobs", "0")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: --jobs must be 1 or more, not 0")


def test_the_text_report_says_cpu_and_elapsed_time() -> None:
    result = cli("simulate", "--rounds", "30", "-j", "2", "--engine", "reference")
    assert result.exit_code == 0, result.output
    assert "s CPU, " in result.stdout and "s elapsed (reference engine)" in result.stdout


# --------------------------------------------------------------------------- the workers


def _double(job: int, unit: range, report: Report | None) -> list[int]:
    """A task: the unit's numbers times the job, reporting each one (in this process); a
    negative job fails on 13."""
    out = []
    for i in unit:
        if job < 0 and i == 13:
            raise ValueError("thirteen is unlucky")
        out.append(i * job)
        if report is not None:
            report(1)
    return out


def test_results_come_back_in_the_units_order_with_progress() -> None:
    units = spans(40, 2)
    assert [i for span in units for i in span] == list(range(40))
    for pool in (workers(), workers(jobs=2)):
        seen: list[int] = []
        with pool:
            got = pool.run(_double, 3, units, size=len, progress=seen.append)
        assert [x for part in got for x in part] == [3 * i for i in range(40)]
        assert seen[-1] == 40 and seen == sorted(seen)
    assert isinstance(workers(1), InProcess) and isinstance(workers(2), Processes)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_tasks_error_is_raised_as_itself(jobs: int) -> None:
    with workers(jobs) as pool, pytest.raises(ValueError, match="thirteen is unlucky"):
        pool.run(_double, -1, [range(10), range(10, 20), range(20, 30)], size=len)


def test_bad_jobs_and_an_unreachable_ray_say_what_to_give() -> None:
    with pytest.raises(ValueError, match="jobs must be 1 or more, not 0"):
        workers(0)
    result = cli("simulate", "--rounds", "5", "--ray", "127.0.0.1:1")  # nothing listens there
    assert result.exit_code == 1, result.output
    assert "cannot reach the Ray cluster at '127.0.0.1:1'" in result.stderr
    assert "ray start --head" in result.stderr and "--ray local" in result.stderr
    result = cli("tournament", "--deals", "1", "--ray", "no address")
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("error: cannot connect to the Ray cluster at 'no address': ")
    assert "give local, auto or the head's host:6379" in result.stderr
    assert "Traceback" not in result.output
