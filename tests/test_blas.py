"""OpenBLAS's threads while a model decides (:mod:`eights.bots.blas`): one inside a decision,
as they were outside it; the whole process for eights' own commands; a count the user chose
is kept."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import eights.bots.blas as blas
from eights import Game, load_rules
from eights.bots import LearnedBot
from eights.bots.learned import Model

threadpoolctl = pytest.importorskip("threadpoolctl")


def threads() -> list[int]:
    return [lib["num_threads"] for lib in threadpoolctl.threadpool_info()
            if lib["user_api"] == "blas"]


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """No thread count chosen in the environment, the module's controllers found afresh,
    and OpenBLAS at two threads outside (as on a machine of two cores or more)."""
    for name in blas.CHOSEN_BY:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(blas, "_found", None)
    with threadpoolctl.threadpool_limits(limits=2, user_api="blas"):
        yield threads()


def test_a_decision_runs_on_one_thread_and_the_count_comes_back(
        fresh: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    assert fresh and set(fresh) == {2}
    seen: list[list[int]] = []
    q_values = Model.q_values

    def spy(self: Model, *args: object) -> object:
        seen.append(threads())
        return q_values(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Model, "q_values", spy)
    bot = LearnedBot()
    game = Game(load_rules("classic"), 2, seed=1)
    rng = random.Random(1)
    while not game.over:
        seen_ = game.observe(game.to_move)
        game.apply(bot.choose(seen_, game.legal, rng))
    assert seen and all(t == [1] * len(fresh) for t in seen)
    assert threads() == fresh


def test_threads_that_decide_at_once_share_the_limit(fresh: list[int]) -> None:
    """Each thread at one inside, every thread at its count after."""
    inside: list[list[int]] = []
    start = threading.Barrier(4)

    def decide() -> None:
        start.wait()
        for _ in range(200):
            with blas.one_thread():
                inside.append(threads())

    workers = [threading.Thread(target=decide) for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(inside) == 800 and all(t == [1] * len(fresh) for t in inside)
    assert threads() == fresh


def test_a_count_the_user_chose_is_kept(fresh: list[int],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    with blas.one_thread():
        assert threads() == fresh


def test_eights_own_process_and_its_children_get_one_thread(tmp_path: Path) -> None:
    """limit_process (what every command and the server's bot workers call): this process at
    one thread, and a process it starts loads NumPy at one thread; a count chosen in the
    environment is kept in both."""
    script = tmp_path / "child.py"
    script.write_text(
        "import json, os, subprocess, sys\n"
        "import numpy\n"
        "from threadpoolctl import threadpool_info\n"
        "from eights.bots.blas import limit_process\n"
        "def blas():\n"
        "    return [l['num_threads'] for l in threadpool_info() if l['user_api'] == 'blas']\n"
        "if sys.argv[1:] == ['child']:\n"
        "    print(json.dumps(blas())); sys.exit()\n"
        "before = blas()\n"
        "limit_process()\n"
        "child = subprocess.run([sys.executable, __file__, 'child'], capture_output=True,\n"
        "                       text=True, check=True).stdout\n"
        "print(json.dumps([before, blas(), json.loads(child)]))\n", "utf-8")
    env = {k: v for k, v in os.environ.items() if k not in blas.CHOSEN_BY}
    env["PYTHONPATH"] = os.pathsep.join([str(Path(blas.__file__).parents[2]),
                                         env.get("PYTHONPATH", "")])

    def run(**extra: str) -> list[list[int]]:
        done = subprocess.run([sys.executable, str(script)], env={**env, **extra},
                              capture_output=True, text=True, check=True, timeout=120)
        got: list[list[int]] = json.loads(done.stdout)
        return got

    before, after, child = run()
    assert before and after == [1] * len(before) and child == [1] * len(before)
    before, after, child = run(OPENBLAS_NUM_THREADS="2")
    assert before == after == child == [2] * len(before)


def test_every_command_limits_its_process(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    import eights.cli as cli

    called: list[bool] = []
    monkeypatch.setattr(cli, "limit_process", lambda: called.append(True))
    result = CliRunner().invoke(cli.app, ["rules", "list"])
    assert result.exit_code == 0 and called == [True]


def test_the_server_bot_workers_limit_theirs(monkeypatch: pytest.MonkeyPatch) -> None:
    import eights.server.thinking as thinking

    called: list[str] = []
    monkeypatch.setattr(thinking, "limit_process", lambda: called.append("limit"))
    monkeypatch.setattr(thinking, "die_with", lambda parent: called.append("watch"))
    monkeypatch.setattr(os, "nice", lambda n: 0)
    thinking._worker_started(os.getpid())
    assert called == ["limit", "watch"]


def test_the_belief_model_decides_on_one_thread(fresh: list[int],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from eights.bots.belief import BeliefModel, shipped_for

    seen: list[list[int]] = []
    scores = BeliefModel.scores

    def spy(self: BeliefModel, x: np.ndarray) -> np.ndarray:
        seen.append(threads())
        return scores(self, x)

    monkeypatch.setattr(BeliefModel, "scores", spy)
    rules = load_rules("classic")
    game = Game(rules, 3, seed=2)
    game.apply(game.legal[0])
    shipped_for(rules, 3).deal_probs(game.observe(game.to_move))
    assert seen == [[1] * len(fresh)] and threads() == fresh
