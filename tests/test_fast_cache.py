"""The kernel out of the way of the first screen (:mod:`eights.fast.cache`).

``import eights.fast`` and its cache module import no numba; the cache is ready only
with the mark ``python -m eights.fast`` leaves for these very sources, this numba and
this Python; ``eights play`` starts that compile in the background; and while it runs,
a search bot with ``kernel=auto`` rolls out on the engine, then on the kernel at its
first decision after.
"""

from __future__ import annotations

import logging
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from eights import Game
from eights.bots import GreedyBot
from eights.bots.ismcts import ISMCTSBot
from eights.fast import cache


def test_the_package_and_its_cache_module_import_no_numba() -> None:
    code = ("import sys, eights.fast, eights.fast.cache\n"
            "from eights.fast import check_supported\n"
            "print('numba' in sys.modules)\n"
            "from eights.fast import FastGame\n"
            "print('numba' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "True"]


def _sources(tmp_path: Path) -> tuple[Path, Path]:
    pkg = tmp_path / "fast"
    (pkg / "__pycache__").mkdir(parents=True)
    (pkg / "kernel.py").write_text("x = 1\n")
    codes = tmp_path / "codes.py"
    codes.write_text("z = 3\n")
    return pkg, codes


def test_the_cache_is_ready_only_with_the_mark_of_these_sources(tmp_path: Path) -> None:
    pkg, codes = _sources(tmp_path)
    assert not cache.ready(pkg, codes)  # never warmed
    assert cache.mark_ready(pkg, codes)
    assert cache.ready(pkg, codes)
    (pkg / "kernel.py").write_text("x = 2\n")  # a changed source: compiled anew
    assert not cache.ready(pkg, codes)
    assert cache.mark_ready(pkg, codes)
    codes.write_text("z = 4\n")  # eights.codes counts too
    assert not cache.ready(pkg, codes)
    mark = pkg / "__pycache__" / "numba-ready"
    assert cache.mark_ready(pkg, codes)
    mark.write_text(mark.read_text().replace("numba ", "numba 0.0.0-other "))
    assert not cache.ready(pkg, codes)  # machine code of another numba


def test_a_read_only_package_is_never_marked_ready(tmp_path: Path) -> None:
    pkg, codes = _sources(tmp_path)
    (pkg / "__pycache__").rmdir()
    (pkg / "__pycache__").write_text("not a directory")  # the mark cannot be written
    assert not cache.mark_ready(pkg, codes)
    assert not cache.ready(pkg, codes)


def test_a_cold_cache_starts_one_compile_in_the_background(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "_warming", None)
    monkeypatch.setattr(cache, "ready", lambda: False)  # as on a fresh clone
    assert cache.warm_in_background()
    process = cache._warming
    assert process is not None
    try:
        assert process.args == [sys.executable, "-m", "eights.fast", "--nice", "10"]
        assert cache.warming()
        assert not cache.warm_in_background()  # one at a time
    finally:
        process.kill()  # the compile itself is the next test's (in this process: quicker)
        process.wait(timeout=30)
    assert not cache.warming()


def test_the_warm_up_marks_the_cache_ready_and_leaves_no_function_uncompiled(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m eights.fast`` says each step; after it every compiled function of the
    package has machine code (a function added to the kernel must be reached by one of
    its STEPS, or the first use compiles it after all)."""
    from eights.fast.__main__ import STEPS, main, uncompiled

    main([])  # python -m eights.fast: every entry point compiled, or loaded from the cache
    assert cache.ready()
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"eights.fast: [1/{len(STEPS)}] {STEPS[0][0]}"
    assert f"eights.fast: [{len(STEPS)}/{len(STEPS)}] {STEPS[-1][0]}" in out
    assert out[-1].startswith("eights.fast: the kernel compiled or loaded from numba's cache in ")
    assert uncompiled() == []
    from typer.testing import CliRunner

    from eights.cli import app

    done = CliRunner().invoke(app, ["compile", "--quiet"])
    assert done.exit_code == 0, done.output
    assert done.output.startswith("eights.fast: the kernel compiled or loaded from numba's "
                                  "cache in ") and done.output.count("\n") == 1


def test_a_compile_is_said_as_it_happens() -> None:
    """numba's compile events, said: what is happening and how long it takes, once, then each
    function called from Python, with those compiled inside it (a cache hit says nothing)."""
    import numba
    from numba.core import event

    from eights.fast import kernel, progress

    assert progress.report_compiles() is progress.report_compiles()  # once a process
    assert progress.report_compiles() in event._registered["numba:compile"]
    assert vars(kernel)["report_compiles"] is progress.report_compiles

    said: list[str] = []
    inner = numba.njit(lambda x: x + 1)
    outer = numba.njit(lambda x: inner(x) * 2)
    foreign: list[str] = []
    with event.install_listener("numba:compile", progress.CompileReport(foreign.append)):
        assert numba.njit(lambda x: x * 3)(2) == 6  # a program's own function: not eights'
    assert foreign == []
    with event.install_listener("numba:compile", progress.CompileReport(said.append, "")):
        assert outer(3) == 8
        assert outer(4) == 10  # compiled already: nothing said
        assert inner(1.5) == 2.5  # a new signature: compiled
    assert said[0] == progress.HEADER.format(estimate=progress.ESTIMATE)
    assert "`eights compile` (python -m eights.fast) compiles all of it ahead of time" in said[0]
    assert re.fullmatch(r"eights.fast: compiled \S+<lambda> and 1 it calls in \d+\.\d s "
                        r"\(2 functions, \d+ s so far\)", said[1]), said
    assert re.fullmatch(r"eights.fast: compiled \S+<lambda> in \d+\.\d s \(3 functions, "
                        r"\d+ s so far\)", said[2]), said
    assert len(said) == 3


def test_the_compile_is_said_on_the_eights_fast_logger(
        caplog: pytest.LogCaptureFixture) -> None:
    import numba

    from eights.fast import progress

    report = progress.report_compiles()
    told, prefix = report._told, report.prefix
    report._told, report.prefix = False, ""  # this test's function counts as eights'
    try:
        with caplog.at_level(logging.WARNING, logger="eights.fast"):
            numba.njit(lambda x: x - 1)(5)
    finally:
        report._told, report.prefix = told or report._told, prefix
    messages = [r.getMessage() for r in caplog.records if r.name == "eights.fast"]
    assert messages[0].startswith("eights.fast: compiling the kernel into numba's cache")
    assert messages[1].startswith("eights.fast: compiled ")


def test_warm_in_background_starts_nothing_when_the_cache_is_ready(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "_warming", None)
    monkeypatch.setattr(cache, "ready", lambda: True)
    assert not cache.warm_in_background()
    assert not cache.warming()


def _decision() -> Game:
    """Seat 0 with a choice, a few greedy moves into a seeded classic round."""
    game = Game("classic", 2, seed=3)
    rng = random.Random(3)
    while len(game.legal_actions()) < 2 or game.to_move != 0:
        game.apply(GreedyBot().choose(game.observe(game.to_move), game.legal_actions(), rng))
    return game


def test_search_rolls_out_on_the_engine_while_the_kernel_compiles_then_on_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a stand-in for the background compile: a process that runs until it is told to stop
    stand_in = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                                stdin=subprocess.PIPE)
    monkeypatch.setattr(cache, "_warming", stand_in)
    game = _decision()
    bot = ISMCTSBot(iterations=20, seed=1)  # kernel=auto
    try:
        bot.choose(game.observe(0), game.legal_actions(), random.Random(1))
        assert not bot.last_kernel  # compiling elsewhere: the engine, no compile here
        bot.choose(game.observe(0), game.legal_actions(), random.Random(1))
        assert not bot.last_kernel  # still compiling
    finally:
        assert stand_in.stdin is not None
        stand_in.stdin.close()
        stand_in.wait(timeout=30)
    bot.choose(game.observe(0), game.legal_actions(), random.Random(1))
    assert bot.last_kernel  # done: the next decision is on the kernel


def test_the_background_compile_stops_with_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: quitting before the kernel has compiled leaves nothing running."""
    stand_in = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    monkeypatch.setattr(cache, "_warming", stand_in)
    try:
        assert cache.warming()
        assert cache.stop_warming()
        assert stand_in.poll() is not None and not cache.warming()
        assert not cache.stop_warming()  # nothing left to stop
    finally:
        stand_in.kill()
