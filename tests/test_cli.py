"""The ``eights`` command line: rules list/show, demo, simulate and replay, with
exit code 2 and a message naming the mistake for bad input, 1 for an illegal
action in a record."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from eights import Game, load_rules, preset_names
from eights.cli import app
from eights.engine.record import record_of
from stacked import random_play

PRESETS = ["black-jack", "classic", "crazy-eights", "huit-americain", "huit-fou", "last-card",
           "les-huit", "mau-mau", "openspiel", "pesten", "switch", "tschau-sepp", "uno-cards"]
STATE_KEYS = {
    "round", "over", "match_over", "to_play", "legal", "hands", "up_card", "suit",
    "direction", "pending_draw", "stock", "discard", "round_points", "scores", "winners",
}
SIMULATION_KEYS = {
    "rounds", "decisions_per_round", "blocked_rounds", "round_wins_by_seat",
    "match_wins_by_seat", "mean_points_by_seat", "rounds_per_second",
}
TIMING_KEYS = {"seconds", "wall_seconds", "rounds_per_second", "decisions_per_second"}

runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, (result.exit_code, result.output, result.exception)
    return result.stdout


def fails(code: int, *args: str) -> str:
    """Run a command that must fail with ``code``; its error message (stderr)."""
    result = run(*args)
    assert result.exit_code == code, (result.exit_code, result.output, result.exception)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    return result.stderr


def play(game: Game, steps: int, seed: int = 0) -> Game:
    return random_play(game, random.Random(seed), steps)


def write_record(path: Path, data: dict[str, Any] | str) -> str:
    path.write_text(data if isinstance(data, str) else json.dumps(data), "utf-8")
    return str(path)


@pytest.fixture
def record_file(tmp_path: Path) -> tuple[str, Game]:
    game = play(Game("huit-americain", 3, seed=4), 40, seed=4)
    return write_record(tmp_path / "game.json", record_of(game).dumps()), game


# --------------------------------------------------------------------------- entry points


def test_console_script_help() -> None:
    script = Path(sys.executable).parent / "eights"
    command = [str(script)] if script.exists() else [sys.executable, "-m", "eights.cli"]
    done = subprocess.run([*command, "--help"], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    for name in ("rules", "demo", "simulate", "replay"):
        assert name in done.stdout


def test_module_help() -> None:
    done = subprocess.run([sys.executable, "-m", "eights.cli", "rules", "list"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert "huit-americain" in done.stdout


# --------------------------------------------------------------------------- rules


def test_rules_list_lists_every_preset() -> None:
    out = ok("rules", "list")
    lines = out.splitlines()
    assert len(lines) == len(preset_names()) == len(PRESETS)
    for name in PRESETS:
        rules = load_rules(name)
        line = next(line for line in lines if line.split()[0] == name)
        assert rules.title in line
        assert f"{rules.players[0]}-{rules.players[1]} players" in line


def test_rules_show_explains_the_preset() -> None:
    out = ok("rules", "show", "huit-americain")
    assert "Le 8 américain (huit-americain)" in out and "Source: jeuxetlogique.fr." in out
    assert "10s: the player must play again; if they cannot, they draw 2 and the turn ends." in out
    assert "Scoring: every player scores the cards left in their own hand" in out
    assert "eight 50" in out or "8 50" in out
    assert "The match ends when a score reaches 500." in out


def test_rules_show_house_file(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('extends = "huit-americain"\ntitle = "Chez nous"\njokers = 2\n'
                     "hand_limit = 11\n[cards.7]\nskip = false\n", "utf-8")
    out = ok("rules", "show", str(house))
    assert "Chez nous (house)" in out
    assert "Jokers per deck: 2." in out
    assert "No hand ever holds more than 11 cards." in out
    assert "7s:" not in out  # a plain card is no special card (issue 35)


def test_rules_show_with_set() -> None:
    out = ok("rules", "show", "classic", "--set", "hand_limit=9")
    assert "No hand ever holds more than 9 cards." in out
    assert "9 cards" not in ok("rules", "show", "classic")
    out = ok("rules", "show", "classic", "--set", "target=77", "--set", "rounds=3")
    assert "a score reaches 77 or after 3 rounds" in out


@pytest.mark.parametrize("name", PRESETS)
def test_rules_show_toml_loads_back_to_equal_rules(name: str, tmp_path: Path) -> None:
    out = ok("rules", "show", name, "--toml")
    table = tomllib.loads(out)
    assert table["name"] == name
    assert load_rules(table) == load_rules(name)
    path = tmp_path / f"{name}.toml"
    path.write_text(out, "utf-8")
    assert load_rules(path) == load_rules(name)


def test_rules_show_toml_of_a_house_file_with_overrides(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('extends = "huit-americain"\njokers = 2\n[cards.7]\nskip = false\n', "utf-8")
    out = ok("rules", "show", str(house), "--toml", "--set", "teams=[4]")
    expected = load_rules(house, ["teams=[4]"])
    assert load_rules(tomllib.loads(out)) == expected


def test_rules_show_unknown_preset() -> None:
    err = fails(2, "rules", "show", "huit-americian")
    assert "'huit-americian'" in err
    for name in PRESETS:
        assert name in err


def test_rules_show_bad_file(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('extends = "classic"\ndraw = "sometimes"\n', "utf-8")
    err = fails(2, "rules", "show", str(house))
    assert str(house) in err and "'draw'" in err and "'sometimes'" in err and "until-playable" in err


def test_rules_show_bad_set() -> None:
    err = fails(2, "rules", "show", "classic", "--set", "nonsense")
    assert "'nonsense'" in err and "key=value" in err
    err = fails(2, "rules", "show", "classic", "--set", "hand_limit=many")
    assert "'hand_limit'" in err and "'many'" in err


# --------------------------------------------------------------------------- demo


@pytest.mark.parametrize("name", PRESETS)
def test_demo_plays_a_round_and_is_reproducible(name: str) -> None:
    out = ok("demo", "--seed", "5", "-r", name)
    rules = load_rules(name)
    n = rules.default_players
    lines = out.splitlines()
    assert lines[0].startswith(f"{rules.title}: {n} random bots, seed 5")
    assert f"eights demo -r {name} -n {n} --seed 5" in lines[0]
    assert lines[1].startswith("Dealer: Seat 0. Starter: ")
    # Ends with the round summary: who went out (or blocked), then one line per seat.
    summary = next(i for i, line in enumerate(lines) if line.startswith("Round 1 is over: "))
    seat_lines = lines[summary + 1:summary + 1 + n]
    assert [line.split(":")[0].split(" (team")[0] for line in seat_lines] == [
        f"Seat {s}" for s in range(n)]
    assert all(" = " in line and "round" in line and "total" in line for line in seat_lines)
    assert len(lines) - (summary + 1 + n) in (0, 2)  # maybe "The match is over…" and winners
    assert any(" plays " in line for line in lines[2:summary])
    assert ok("demo", "--seed", "5", "-r", name) == out


def test_demo_seed_matters_and_players_and_set_apply() -> None:
    a = ok("demo", "--seed", "5", "-r", "huit-fou")
    b = ok("demo", "--seed", "6", "-r", "huit-fou")
    assert a != b
    out = ok("demo", "--seed", "5", "-r", "huit-americain", "-n", "2", "--set", "jokers=2")
    assert "2 random bots" in out
    assert "Seat 2" not in out.split("Round 1 is over")[1]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("demo", "-r", "no-such-preset"), "'no-such-preset'"),
        (("demo", "--set", "nonsense"), "'nonsense'"),
        (("demo", "--players", "99"), "classic is played by 2 to 10 players, not 99"),
        (("demo", "-r", "les-huit", "--players", "1"), "les-huit is played by 2 to 4 players, not 1"),
    ],
)
def test_demo_bad_input(args: tuple[str, ...], needle: str) -> None:
    err = fails(2, *args)
    assert err.startswith("error: ")
    assert needle in err


# --------------------------------------------------------------------------- simulate


def simulate_json(*args: str) -> dict[str, Any]:
    data = json.loads(ok("simulate", *args, "--json"))
    assert isinstance(data, dict)
    return data


def test_simulate_json_has_the_documented_keys_and_is_reproducible() -> None:
    first = simulate_json("-r", "huit-fou", "--games", "5", "--seed", "1")
    assert set(first) >= SIMULATION_KEYS
    assert first["matches"] == 5
    assert first["rules"] == "huit-fou" and first["players"] == 4 and first["seed"] == 1
    assert first["rounds"] >= 5
    assert sum(first["match_wins_by_seat"]) == pytest.approx(5)
    assert sum(first["round_wins_by_seat"]) == pytest.approx(first["rounds"])
    assert len(first["mean_points_by_seat"]) == 4
    assert set(first["decisions_per_round"]) >= {"mean", "min", "max"}
    assert 0 <= first["blocked_rounds"] <= first["rounds"]
    assert first["rounds_per_second"] > 0
    second = simulate_json("-r", "huit-fou", "--games", "5", "--seed", "1")
    strip = {k: v for k, v in first.items() if k not in TIMING_KEYS}
    assert strip == {k: v for k, v in second.items() if k not in TIMING_KEYS}
    other = simulate_json("-r", "huit-fou", "--games", "5", "--seed", "2")
    assert {k: v for k, v in other.items() if k not in TIMING_KEYS} != strip


def test_simulate_rounds_and_players() -> None:
    data = simulate_json("-r", "classic", "--rounds", "7", "-n", "3", "--seed", "3")
    assert data["rounds"] == 7 and data["players"] == 3
    assert len(data["round_wins_by_seat"]) == 3


def test_simulate_text_report() -> None:
    out = ok("simulate", "-r", "les-huit", "--games", "2", "--seed", "1")
    assert "Les huit" in out and "2 matches" in out
    assert "decisions per round" in out and "blocked rounds" in out


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (("-r", "no-such-preset"), ("'no-such-preset'", "huit-fou")),
        (("--set", "nonsense"), ("'nonsense'", "key=value")),
        (("--players", "99"), ("2 to 10 players, not 99",)),
        (("--games", "0"), ("--games", "0")),
        (("--rounds", "-3"), ("--rounds", "-3")),
        (("--games", "2", "--rounds", "3"), ("--games", "--rounds")),
    ],
)
def test_simulate_bad_input(args: tuple[str, ...], needles: tuple[str, ...]) -> None:
    err = fails(2, "simulate", *args)
    assert err.startswith("error: ")
    for needle in needles:
        assert needle in err, err


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (("--refine", "bogus"), ("--refine 'bogus'", "unknown bot", "ismcts")),
        (("--refine", "ismcts:iterations=-1"), ("--refine", "iterations", "-1")),
        (("--refine-decisions", "0"), ("--refine-decisions", "0")),
        (("--jobs", "0"), ("--jobs", "0")),
        (("--teacher", "none", "--refine", "greedy"), ("--refine", "--teacher")),
        (("--teacher", "bogus"), ("--teacher 'bogus'", "unknown bot")),
        (("--teacher-decisions", "0"), ("--teacher-decisions", "0")),
        (("--start", "nowhere.npz"), ("--start 'nowhere.npz'", "no such file")),
        (("--hours", "nan"), ("--hours must be positive, not nan",)),
    ],
)
def test_train_bad_input(args: tuple[str, ...], needles: tuple[str, ...],
                         tmp_path: Path) -> None:
    err = fails(2, "train", "classic", "-n", "2", "--out", str(tmp_path / "run"), *args)
    assert err.startswith("error: ")
    for needle in needles:
        assert needle in err, err
    assert not (tmp_path / "run").exists()  # refused before anything was written


# --------------------------------------------------------------------------- replay


def test_replay_json_prints_the_final_state(record_file: tuple[str, Game]) -> None:
    path, game = record_file
    out = ok("replay", path, "--json")
    state = json.loads(out)
    assert set(state) >= STATE_KEYS
    assert state == json.loads(json.dumps(game.to_json()))


def test_replay_trace_prints_every_decision_then_the_state(record_file: tuple[str, Game]) -> None:
    path, game = record_file
    lines = ok("replay", path, "--trace").splitlines()
    actions = [a for log in [*game.rounds_log, game.round_log()] for a in log.actions]
    assert len(lines) == len(actions) + 1
    steps = [json.loads(line) for line in lines[:-1]]
    for step, action in zip(steps, actions, strict=True):
        assert {"index", "to_play", "legal", "action"} <= set(step)
        assert step["action"] == str(action)
        assert step["action"] in step["legal"]
        assert isinstance(step["to_play"], int)
    logs = [*game.rounds_log, game.round_log()]
    for r, log in enumerate(logs, start=1):
        assert [s["index"] for s in steps if s["round"] == r] == list(range(len(log.actions)))
    assert json.loads(lines[-1]) == json.loads(json.dumps(game.to_json()))


def test_replay_trace_matches_the_game(tmp_path: Path) -> None:
    game = Game("classic", 2, seed=9)
    expected: list[dict[str, Any]] = []
    rng = random.Random(9)
    for i in range(12):
        legal = game.legal_actions()
        action = rng.choice(legal)
        expected.append({"round": 1, "index": i, "to_play": game.to_play,
                         "legal": [str(a) for a in legal], "action": str(action)})
        game.apply(action)
    path = write_record(tmp_path / "g.json", record_of(game).dumps())
    lines = ok("replay", path, "--trace").splitlines()
    assert [json.loads(line) for line in lines[:-1]] == expected
    assert json.loads(lines[-1])["to_play"] == game.to_play


def test_replay_narrates_by_default(record_file: tuple[str, Game]) -> None:
    path, game = record_file
    out = ok("replay", path)
    assert out.startswith("Round 1: Seat 0 deals, starter ")
    assert "Seat 1 " in out
    if not game.over:
        assert f"record ends in round {game.round} with seat {game.to_play} to play" in out


def test_replay_of_a_whole_match(tmp_path: Path) -> None:
    game = play(Game("les-huit", 4, seed=2), 100_000, seed=2)
    assert game.match_over
    path = write_record(tmp_path / "match.json", record_of(game, decks=False).dumps())
    state = json.loads(ok("replay", path, "--json"))
    assert state["match_over"] is True and state["winners"] == game.winners
    assert state["scores"] == game.scores
    out = ok("replay", path)
    assert f"The match is over after {game.round} rounds." in out


def test_replay_illegal_action_exits_1(tmp_path: Path) -> None:
    game = play(Game("huit-americain", 3, seed=4), 5, seed=4)
    legal = [str(a) for a in game.legal_actions()]
    assert "take" not in legal
    data = record_of(game).to_json()
    data["rounds"][0]["actions"].append("take")
    path = write_record(tmp_path / "bad.json", data)
    for args in ((), ("--json",), ("--trace",)):
        err = fails(1, "replay", path, *args)
        assert "round 1" in err and "action 5" in err and "take" in err, err
        assert "legal: " + ", ".join(legal) in err, err


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"players": "x"}, "'players'"),
        ({"players": True}, "'players'"),
        ({"format": "eights-record/9"}, "'format'"),
        ({"rules": 5}, "'rules'"),
        ({"rounds": []}, "'rounds'"),
        ({"colour": "red"}, "'colour'"),
        ({"rounds": [{"actions": ["zz"]}]}, "rounds[0].actions"),
        ({"rounds": [{"actions": [], "deck": ["1h"]}]}, "rounds[0].deck"),
    ],
)
def test_replay_malformed_record_exits_2(tmp_path: Path, change: dict[str, Any], needle: str) -> None:
    data = record_of(Game("classic", 2, seed=1)).to_json()
    data.update(change)
    path = write_record(tmp_path / "bad.json", data)
    for args in ((), ("--json",)):
        err = fails(2, "replay", path, *args)
        assert err.startswith("error: ")
        assert needle in err, err


def test_replay_record_that_cannot_start_exits_2(tmp_path: Path) -> None:
    data = record_of(Game("classic", 2, seed=1)).to_json()
    data["players"] = 99
    err = fails(2, "replay", write_record(tmp_path / "bad.json", data), "--json")
    assert "classic is played by 2 to 10 players, not 99" in err


def test_replay_invalid_json_and_missing_file(tmp_path: Path) -> None:
    err = fails(2, "replay", write_record(tmp_path / "bad.json", "{ nope"))
    assert "not valid JSON" in err
    missing = tmp_path / "missing.json"
    err = fails(2, "replay", str(missing))
    assert str(missing) in err


def test_replay_record_with_inline_rules(tmp_path: Path) -> None:
    game = play(Game({"extends": "huit-americain", "jokers": 2}, seed=3), 200, seed=3)
    path = write_record(tmp_path / "inline.json", record_of(game).dumps())
    assert json.loads(ok("replay", path, "--json")) == json.loads(json.dumps(game.to_json()))


# --------------------------------------------------------------------------- version, options, progress


def test_version() -> None:
    from importlib.metadata import version

    import eights

    assert ok("--version") == f"eights {eights.__version__}\n"
    assert eights.__version__ == version("eights")


@pytest.mark.parametrize(("args", "needles"), [
    (("--speed", "warp"), ("unknown speed 'warp'", "slow, normal, fast, instant")),
    (("--bots", "clever"), ("unknown bot 'clever'", "expert, greedy, ismcts, learned, random")),
    (("--bots", "ismcts:iterations=abc"), ("option iterations must be a whole number, not 'abc'",)),
    (("--bots", "greedy:depth=2"), ("has no option 'depth'",)),
    (("--rules", "nope"), ("nope",)),
    (("--players", "99"), ("99",)),
    (("--lang", "xx"), ("unknown language 'xx'",)),
    (("--humans", "5", "--players", "2"), ("5 people",)),
    (("--set", "hand_size=banana"), ("hand_size",)),
    (("--plain", "--speed", "warp"), ("unknown speed 'warp'",)),
])
def test_play_checks_every_option_before_writing_anything(
        tmp_path: Path, args: tuple[str, ...], needles: tuple[str, ...]) -> None:
    data = tmp_path / "data"
    result = runner.invoke(app, ["play", *args], env={"EIGHTS_DATA_DIR": str(data)}, input="quit\n")
    assert result.exit_code == 2, (result.output, result.exception)
    assert "Traceback" not in result.output
    for needle in needles:
        assert needle in result.stderr, result.stderr
    assert not data.exists() or not list(data.iterdir())


def test_play_plain_writes_its_save_when_the_options_are_good(tmp_path: Path) -> None:
    data = tmp_path / "data"
    result = runner.invoke(app, ["play", "--plain", "--speed", "fast", "--seed", "2"],
                           env={"EIGHTS_DATA_DIR": str(data)}, input="quit\n")
    assert result.exit_code == 0, (result.output, result.exception)
    assert len(list(data.iterdir())) == 1


def progress_run(*args: str, forced: str | None = "1") -> Result:
    result = runner.invoke(app, list(args), env={"EIGHTS_PROGRESS": forced})
    assert result.exit_code == 0, (result.output, result.exception)
    return result


def test_simulate_shows_progress_with_the_time_left_on_stderr_only() -> None:
    result = progress_run("simulate", "--games", "3", "--json")
    assert "matches" in result.stderr
    assert "3/3" in result.stderr
    assert "elapsed" in result.stderr and "left" in result.stderr
    assert json.loads(result.stdout)["matches"] == 3  # stdout is the JSON alone
    result = progress_run("simulate", "--rounds", "4", "--json")
    assert "rounds" in result.stderr and "4/4" in result.stderr


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_tournament_shows_progress_per_round_also_from_workers(jobs: str) -> None:
    result = progress_run("tournament", "-n", "3", "--bots", "greedy,random", "--deals", "1",
                          "-j", jobs, "--json", "-")
    assert "rounds" in result.stderr
    assert "3/3" in result.stderr  # one deal, three seatings: three rounds
    assert json.loads(result.stdout)["rounds"] == 3


@pytest.mark.parametrize(("forced", "quiet"), [(None, ()), ("1", ("--quiet",)), ("1", ("-q",)),
                                                ("0", ())])
def test_no_progress_off_a_terminal_with_quiet_or_when_turned_off(
        forced: str | None, quiet: tuple[str, ...]) -> None:
    assert progress_run("simulate", "--games", "2", "--json", *quiet, forced=forced).stderr == ""
    assert progress_run("tournament", "--deals", "1", "--json", "-", *quiet,
                        forced=forced).stderr == ""


def test_counts_are_said_in_good_english() -> None:
    out = ok("simulate", "--rounds", "1")  # the fast engine: rounds, no whole match
    first = out.splitlines()[0]
    assert ": 1 round, " in first and "(fast engine)" in first
    assert "match" not in out.split("bots by seat")[0]  # no "0 matches", no match-wins column
    assert "seat  round wins  mean points/round" in out
    assert " 1 decisions" not in first
    first = ok("simulate", "--games", "1").splitlines()[0]
    assert ": 1 match, " in first
    first = ok("tournament", "-n", "2", "--deals", "1").splitlines()[0]
    assert "2 players: 1 deal x 2 seatings = 2 rounds" in first
    first = ok("tournament", "-n", "2", "--bots", "greedy", "--deals", "1").splitlines()[0]
    assert "2 players: 1 deal x 1 seating = 1 round," in first


def test_output_paths_are_checked_before_the_run(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "result.json"
    err = fails(2, "tournament", "--deals", "1", "--json", str(missing))
    assert f"--json {str(missing)!r}: there is no directory" in err
    err = fails(2, "tournament", "--deals", "1", "--json", str(tmp_path))
    assert "is a directory; give a file name" in err
    a_file = tmp_path / "charts.png"
    a_file.write_text("")
    err = fails(2, "simulate", "--games", "1", "--plot", str(a_file))
    assert "is a file, not a directory" in err
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("command", [(), ("play",), ("simulate",), ("tournament",), ("replay",),
                                     ("rules",), ("rules", "show"), ("demo",)])
def test_help_shows_flags_without_a_value_type(command: tuple[str, ...]) -> None:
    """A flag (--plain, --json, --help) takes no value: the help shows it no type
    (Typer's rich help printed ``<bool>``), while options with a value keep theirs."""
    result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "<bool>" not in result.output
    assert "--help" in result.output


def test_help_says_the_default_of_games() -> None:
    out = runner.invoke(app, ["simulate", "--help"], env={"COLUMNS": "200"}).output
    games = next(line for line in out.splitlines() if "--games" in line)
    assert "<int>" in games and "default: 100 when --rounds is not given" in games
