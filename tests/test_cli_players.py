"""The command line as a new player reads it (issue 28, item 14): an empty bot in ``--bots``,
player counts in words, usage lines with metavars, one-line helps read whole, win shares
beside the share that is level, and the learning curve's axis and title."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from eights.cli import app, install_advice, invoked_as

runner = CliRunner()


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("EIGHTS_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("COLUMNS", "200")
    return tmp_path / "data"


@pytest.mark.parametrize("command", [
    ["play", "--plain"], ["simulate", "--games", "1"], ["tournament", "--deals", "1"]])
@pytest.mark.parametrize(("bots", "entry"), [("greedy,,expert", 2), ("greedy,", 2),
                                             (",greedy", 1)])
def test_an_empty_bot_in_bots_is_refused_naming_it(command: list[str], bots: str, entry: int,
                                                   data_dir: Path) -> None:
    done = runner.invoke(app, [*command, "--bots", bots], input="quit\n")
    assert done.exit_code == 2
    assert done.output.strip().splitlines()[-1] == (
        f"error: --bots {bots!r}: entry {entry} is empty; give bot names separated by commas, "
        "e.g. greedy,expert")
    assert not data_dir.exists() or not any(data_dir.iterdir())  # no game was saved


@pytest.mark.parametrize(("players", "rules", "words"), [
    (1, "classic", "classic is played by 2 to 10 players, not 1"),
    (9, "huit-fou", "huit-fou is played by 2 to 6 players, not 9")])
def test_a_player_count_is_refused_in_words_that_read(players: int, rules: str,
                                                      words: str) -> None:
    done = runner.invoke(app, ["play", "--plain", "-r", rules, "-n", str(players)])
    assert done.exit_code == 2
    assert done.output.strip().splitlines()[-1] == f"error: {words}"


@pytest.mark.parametrize(("command", "usage"), [
    (["train"], "eights train [OPTIONS] RULES"),
    (["rules", "show"], "eights rules show [OPTIONS] SPEC"),
    (["replay"], "eights replay [OPTIONS] FILE"),
    (["review"], "eights review [OPTIONS] FILE")])
def test_usage_lines_name_their_arguments(command: list[str], usage: str) -> None:
    done = runner.invoke(app, [*command, "--help"], prog_name="eights")
    assert done.exit_code == 0
    assert done.output.split("Usage:")[1].splitlines()[0].strip() == usage


def test_no_usage_line_shows_typers_braces() -> None:
    """Every command, a new one too: its arguments by their metavar, never ``{file}``."""
    commands: dict[str, Any] = getattr(typer.main.get_command(app), "commands")  # noqa: B009
    names = [[name] for name in commands]
    for name, command in commands.items():
        names += [[name, sub] for sub in getattr(command, "commands", {})]
    assert ["review"] in names and ["rules", "show"] in names
    for command in names:
        done = runner.invoke(app, [*command, "--help"], prog_name="eights")
        assert done.exit_code == 0, command
        assert "{" not in done.output.split("Usage:")[1].splitlines()[0], command


def command_rows(output: str) -> list[str]:
    """The rows of the Commands box of a group's help."""
    box = output.split("Commands")[1].split("╰")[0]
    return [line.strip("│ ").rstrip() for line in box.splitlines()[1:] if line.strip("│ ")]


@pytest.mark.parametrize("group", [[], ["rules"], ["db"]])
def test_every_command_has_a_one_line_help_that_reads_whole(group: list[str]) -> None:
    """At 200 columns nothing wraps: each command is one row, its help one sentence (train's
    once broke after "imitates a teacher (and,")."""
    done = runner.invoke(app, [*group, "--help"])
    assert done.exit_code == 0
    rows = command_rows(done.output)
    assert rows
    for row in rows:
        assert re.fullmatch(r"[a-z]+ {2,}\S.*\.", row), row


def test_win_shares_stand_beside_the_share_that_is_level() -> None:
    done = runner.invoke(app, ["tournament", "-n", "4", "--bots", "expert,greedy", "--seats",
                               "1,3", "--deals", "2", "-q"])
    assert done.exit_code == 0, done.output
    head, *rows = done.output.splitlines()[2:5]
    assert head.split()[:6] == ["bot", "seats", "win", "share", "(level)", "per"]
    level = {row.split()[0]: row.split()[3] for row in rows}
    assert level == {"expert": "0.250", "greedy": "0.750"}
    text = " ".join(done.output.split())
    assert ("(level): the share it would win by chance, the seats it held (0.250 for one seat "
            "in 4: level with the others).") in text


def test_the_learning_curve_starts_at_zero_and_names_the_rules() -> None:
    pytest.importorskip("torch")
    from eights.learn.train import curve_figure

    one = [{"seconds": 180.0, "win_share": 0.27, "low": 0.2, "high": 0.34, "rounds": 400}]
    fig = curve_figure(one, "Eights, 4 players", 4)
    ax = fig.axes[0]
    low, high = ax.get_xlim()
    assert low == 0 and high >= 3.0  # one measurement at 3 minutes: the axis from the start
    assert ax.get_title() == "Eights, 4 players"
    level = [line for line in ax.get_lines() if line.get_label().startswith("level")]
    assert [line.get_ydata()[0] for line in level] == [0.25]


# ------------------------------------------------------------------ where the game was started


@pytest.mark.parametrize(("argv", "orig", "on_path", "typed"), [
    ([".venv/bin/eights", "play"], [], None, ".venv/bin/eights"),  # make play
    (["/opt/venv/bin/eights", "play"], [], "/opt/venv/bin/eights", "eights"),
    (["eights", "play"], [], "/usr/bin/eights", "eights"),
    (["/x/eights/cli.py", "play"], ["python3", "-m", "eights.cli", "play"], None,
     "python3 -m eights.cli"),
    (["/my games/bin/eights"], [], None, "'/my games/bin/eights'"),
])
def test_the_command_is_named_as_it_was_typed(argv: list[str], orig: list[str],
                                              on_path: str | None, typed: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: after ``make play`` the resume line says ``.venv/bin/eights``, not an
    ``eights`` that the PATH does not have."""
    monkeypatch.setattr("shutil.which", lambda name: on_path)
    assert invoked_as(argv, orig) == typed


def test_play_names_the_resume_command_and_stops_the_background_compile(
        monkeypatch: pytest.MonkeyPatch, data_dir: Path) -> None:
    """The full screen left (run stubbed): the compile started under it is stopped, and the
    resume line uses the command as typed."""
    from eights.fast import cache
    from eights.tui.app import EightsApp

    stand_in = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])

    def warm() -> bool:
        cache._warming = stand_in
        return True

    monkeypatch.setattr(cache, "warm_in_background", warm)
    monkeypatch.setattr(EightsApp, "run", lambda self: None)
    monkeypatch.setattr(sys, "argv", [".venv/bin/eights", "play"])
    monkeypatch.setattr(sys, "orig_argv", [sys.executable, ".venv/bin/eights", "play"])
    try:
        done = runner.invoke(app, ["play", "--seed", "5", "--lang", "en"])
        assert done.exit_code == 0, done.output
        assert stand_in.wait(timeout=10) is not None  # stopped with the game
    finally:
        stand_in.kill()
    save = next(data_dir.glob("*.json"))
    assert done.output.splitlines()[-2:] == [
        f"Game saved: {save}", f"Resume it with: .venv/bin/eights play --resume {save}"]


def test_a_missing_extra_names_the_install_that_works_here(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35: in a clone the advice is ``pip install -e '.[server]'``; the environment's
    own pip by its path where the PATH's pip is another."""
    clone = tmp_path / "clone"
    (clone / "src" / "eights").mkdir(parents=True)
    (clone / "pyproject.toml").write_text('[project]\nname = "eights"\n')
    (clone / ".venv" / "bin").mkdir(parents=True)
    python = clone / ".venv" / "bin" / "python"
    monkeypatch.setattr("shutil.which", lambda name: None)
    package = clone / "src" / "eights"
    assert install_advice("server", package, clone, str(python)) == "pip install -e '.[server]'"
    assert install_advice("server", package, tmp_path, str(python)) == (
        f"pip install -e '{clone}[server]'")
    assert install_advice("tui", tmp_path / "site-packages" / "eights", tmp_path,
                          str(python)) == "pip install 'eights[tui]'"
    (clone / ".venv" / "bin" / "pip").write_text("")
    assert install_advice("server", package, clone, str(python)) == (
        ".venv/bin/pip install -e '.[server]'")
