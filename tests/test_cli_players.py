"""The command line as a new player reads it (issue 28, item 14): an empty bot in ``--bots``,
player counts in words, usage lines with metavars, one-line helps read whole, win shares
beside the share that is level, and the learning curve's axis and title."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from eights.cli import app

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
