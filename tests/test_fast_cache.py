"""The kernel out of the way of the first screen (:mod:`eights.fast.cache`).

``import eights.fast`` and its cache module import no numba; the cache is ready only
with the mark ``python -m eights.fast`` leaves for these very sources, this numba and
this Python; ``eights play`` starts that compile in the background; and while it runs,
a search bot with ``kernel=auto`` rolls out on the engine, then on the kernel at its
first decision after.
"""

from __future__ import annotations

import random
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


def test_the_warm_up_marks_the_cache_ready() -> None:
    from eights.fast.__main__ import main

    main([])  # python -m eights.fast: every entry point compiled, or loaded from the cache
    assert cache.ready()


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
