"""Dependencies by use: ``pip install eights`` (no extra) plays, explains and simulates;
a command whose extra is missing says which ``pip install`` to run, exit 1, no traceback.

Each case runs ``eights`` in a fresh interpreter where importing a library of the
``tui``, ``server`` or ``lab`` extra raises ImportError, as on a machine without it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from eights.cli import EXTRAS, install_advice

CORE = {"pydantic"}
"""Libraries of an extra that a core dependency brings anyway (typer needs pydantic)."""
BLOCKED = sorted({module for modules in EXTRAS.values() for module in modules} - CORE | {"psycopg"})

BLOCKER = f"""
import sys

class _Missing:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in {BLOCKED!r}:
            raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
        return None

sys.meta_path.insert(0, _Missing())
"""


def bare(code: str, tmp_path: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``code`` after the blocker, with a private data directory."""
    env = {**os.environ, "EIGHTS_DATA_DIR": str(tmp_path / "data"), "EIGHTS_PROGRESS": "0"}
    return subprocess.run([sys.executable, "-c", BLOCKER + code], input=stdin, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def eights(tmp_path: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return bare(f"import sys\nsys.argv = ['eights', *{list(args)!r}]\n"
                "from eights.cli import app\napp()\n", tmp_path, stdin)


def test_the_blocker_blocks(tmp_path: Path) -> None:
    done = bare("import textual\n", tmp_path)
    assert done.returncode == 1
    assert "No module named 'textual'" in done.stderr


def test_the_core_imports_none_of_the_extras(tmp_path: Path) -> None:
    done = bare("import sys\nimport eights, eights.bots, eights.engine, eights.cli, eights.lab.simulate\n"
                f"print(sorted(m for m in sys.modules if m.partition('.')[0] in {BLOCKED!r}))\n",
                tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(("args", "needle"), [
    (("rules", "list"), "huit-americain"),
    (("rules", "show", "huit-fou"), "8"),
    (("demo", "--seed", "3", "--lang", "en"), "seed 3"),
    (("simulate", "--games", "3", "--bots", "greedy,random"), "3 matches"),
    (("--version",), "eights 0.1.0"),
])
def test_commands_of_the_core_work_without_extras(tmp_path: Path, args: tuple[str, ...],
                                                   needle: str) -> None:
    done = eights(tmp_path, *args)
    assert done.returncode == 0, done.stderr
    assert needle in done.stdout


def test_plain_play_works_without_extras(tmp_path: Path) -> None:
    done = eights(tmp_path, "play", "--plain", "--seed", "1", "--lang", "en", stdin="quit\n")
    assert done.returncode == 0, done.stderr
    assert "quit" in done.stdout
    assert list((tmp_path / "data").iterdir())  # the game was saved


@pytest.mark.parametrize(("args", "command", "extra", "module"), [
    (("serve",), "eights serve", "server", "fastapi"),
    (("play",), "eights play", "tui", "textual"),
    (("replay", "game.json", "--view"), "eights replay --view", "tui", "textual"),
    (("tournament", "--deals", "1"), "eights tournament", "lab", "openskill"),
    (("simulate", "--games", "1", "--plot", "charts"), "eights simulate --plot", "lab", "matplotlib"),
    (("simulate", "--rounds", "1", "--ray", "local"), "eights simulate --ray", "ray", "ray"),
])
def test_a_command_without_its_extra_says_what_to_install(
        tmp_path: Path, args: tuple[str, ...], command: str, extra: str, module: str) -> None:
    done = eights(tmp_path, *args)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert (f"error: {command} needs the {extra} extra ({module} is not installed): "
            f"{install_advice(extra)}") in done.stderr  # in a clone: pip install -e '.[tui]'
    assert "[" + extra + "]" in install_advice(extra)
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "data").exists()  # nothing written before the check


def test_play_without_textual_points_to_plain_mode(tmp_path: Path) -> None:
    done = eights(tmp_path, "play")
    assert "eights play --plain" in done.stderr
