"""``eights simulate --engine fast|reference``: the compiled kernel plays ``--rounds N`` by
default where the rules and the bots allow; elsewhere the reference engine plays and
one line on standard error says why, never a silent difference; ``--engine fast`` that
cannot be honoured is an error naming the field (exit 2).

The kernel's random rounds agree with the reference engine's in distribution: the mean
round length and the first seat's win share, each within four standard errors of the
difference (fixed seeds, so the test is deterministic).
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from eights.cli import app, install_advice
from eights.lab.simulate import REFERENCE_ONLY

runner = CliRunner()

FAST_KEYS = {"engine", "rounds", "decisions", "blocked_rounds", "decisions_per_round",
             "round_wins_by_seat", "mean_points_by_seat", "win_share_by_position",
             "first_seat_advantage", "blocked_share", "round_length_histogram",
             "rounds_per_second", "decisions_per_second", "seconds", "wall_seconds", "bots"}
TIMING_KEYS = {"seconds", "wall_seconds", "rounds_per_second", "decisions_per_second"}


def run(*args: str) -> Result:
    return runner.invoke(app, ["simulate", "-q", *args])


def simulate_json(*args: str) -> tuple[dict[str, Any], str]:
    """The JSON of a successful run, and its standard error."""
    result = run(*args, "--json")
    assert result.exit_code == 0, (result.output, result.exception)
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data, result.stderr


def untimed(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in TIMING_KEYS}


@pytest.mark.parametrize("engine", [(), ("--engine", "fast")])
def test_fast_engine_is_the_default_for_rounds_on_supported_rules(engine: tuple[str, ...]) -> None:
    data, err = simulate_json("-r", "crazy-eights", "--rounds", "500", "--seed", "4", *engine)
    assert err == ""
    assert data["engine"] == "fast"
    assert set(data) >= FAST_KEYS
    assert data["rounds"] == 500 and data["matches"] == 0 and data["players"] == 4
    assert data["rounds_per_second"] > 0 and data["decisions_per_second"] > 0
    assert data["decisions"] == sum(length * count
                                    for length, count in data["round_length_histogram"])
    assert sum(data["round_wins_by_seat"]) == pytest.approx(500)
    assert sum(data["win_share_by_position"]) == pytest.approx(1)
    assert data["bots"] == ["random"] * 4
    for key in REFERENCE_ONLY:  # what the kernel's whole rounds cannot tell
        assert data[key] is None, key


def test_reference_engine_on_request() -> None:
    data, err = simulate_json("-r", "crazy-eights", "--rounds", "50", "--seed", "4",
                              "--engine", "reference")
    assert err == ""
    assert data["engine"] == "reference"
    assert data["rounds"] == 50 and data["rounds_per_second"] > 0
    assert data["special_cards_per_round"] is not None
    assert data["forced_draws_per_round"] is not None


def test_the_text_report_names_the_engine_and_what_needs_the_reference() -> None:
    result = run("-r", "crazy-eights", "--rounds", "100", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "(fast engine)" in result.stdout.splitlines()[0]
    assert "not gathered by the fast engine (use --engine reference)" in result.stdout
    result = run("-r", "crazy-eights", "--rounds", "20", "--seed", "1", "--engine", "reference")
    assert "(reference engine)" in result.stdout.splitlines()[0]
    assert "forced draws/round" in result.stdout


def test_same_seed_same_result_on_each_engine() -> None:
    for engine in ("fast", "reference"):
        args = ("-r", "crazy-eights", "-n", "3", "--rounds", "300" if engine == "fast" else "30",
                "--engine", engine)
        first, _ = simulate_json(*args, "--seed", "11")
        again, _ = simulate_json(*args, "--seed", "11")
        other, _ = simulate_json(*args, "--seed", "12")
        assert untimed(first) == untimed(again), engine
        assert untimed(first) != untimed(other), engine


def test_multi_play_presets_run_on_the_kernel() -> None:
    """SW3: switch (two decks from six players), black-jack and last-card play several cards
    of one rank at once on the kernel too."""
    for name, players in (("switch", "6"), ("black-jack", "4"), ("last-card", "3")):
        data, err = simulate_json("-r", name, "-n", players, "--rounds", "300", "--seed", "2",
                                  "--bots", "greedy,random")
        assert err == "" and data["engine"] == "fast", name
        assert sum(data["round_wins_by_seat"]) == pytest.approx(300), name


def test_plays_the_codes_cannot_hold_fall_back_naming_the_field() -> None:
    """Three decks under multi_play: three copies of a card in one play have no action code,
    so the reference engine plays (one line says why)."""
    data, err = simulate_json("-r", "switch", "--set", "decks=3", "--rounds", "20", "--seed", "2")
    assert data["engine"] == "reference"
    assert data["rounds"] == 20
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert "decks" in lines[0] and "using the reference engine" in lines[0]


def test_engine_fast_on_three_decks_of_switch_is_an_error_naming_the_field() -> None:
    result = run("-r", "switch", "--set", "decks=3", "--rounds", "20", "--engine", "fast")
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: --engine fast: ")
    assert "decks" in result.stderr
    assert result.stdout == ""


def test_whole_matches_are_the_reference_engines() -> None:
    data, err = simulate_json("-r", "crazy-eights", "--games", "2", "--seed", "1")
    assert data["engine"] == "reference" and data["matches"] == 2
    assert err == ""  # the default for matches: the JSON and the report name the engine
    result = run("-r", "crazy-eights", "--games", "2", "--engine", "fast")
    assert result.exit_code == 2
    assert "--games" in result.stderr and "--rounds" in result.stderr


def test_greedy_plays_on_the_kernel_other_bots_fall_back() -> None:
    data, err = simulate_json("-r", "crazy-eights", "--rounds", "200", "--bots", "greedy,random")
    assert err == ""
    assert data["engine"] == "fast"
    assert data["bots"] == ["greedy", "random", "greedy", "random"]
    data, err = simulate_json("-r", "crazy-eights", "--rounds", "5", "--bots", "expert,random")
    assert data["engine"] == "reference"
    assert "'expert'" in err and "using the reference engine" in err
    result = run("-r", "crazy-eights", "--rounds", "5", "--bots", "expert", "--engine", "fast")
    assert result.exit_code == 2 and "'expert'" in result.stderr


def test_without_numba_the_default_falls_back_and_fast_says_what_to_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numba", None)  # import numba now raises ImportError
    data, err = simulate_json("-r", "crazy-eights", "--rounds", "10")
    assert data["engine"] == "reference"
    advice = install_advice("fast")  # the pip install that works where the tests run
    assert "numba" in err and advice in err
    result = run("-r", "crazy-eights", "--rounds", "10", "--engine", "fast")
    assert result.exit_code == 1
    assert advice in result.stderr and "numba" in result.stderr


def test_unknown_engine_is_a_bad_option() -> None:
    result = run("--rounds", "3", "--engine", "turbo")
    assert result.exit_code == 2 and "'turbo'" in result.stderr


def test_kernel_and_reference_agree_on_round_length_and_first_seat_share() -> None:
    """Random play, 4000 rounds of crazy-eights with 4 players on each engine: the mean
    decisions per round and the win share of the seat after the dealer agree within four
    standard errors of their difference."""
    rounds = 4000
    fast, _ = simulate_json("-r", "crazy-eights", "--rounds", str(rounds), "--seed", "5",
                            "--engine", "fast")
    ref, _ = simulate_json("-r", "crazy-eights", "--rounds", str(rounds), "--seed", "5",
                           "--engine", "reference")

    def lengths(data: dict[str, Any]) -> list[int]:
        return [length for length, count in data["round_length_histogram"]
                for _ in range(count)]

    a, b = lengths(fast), lengths(ref)
    assert len(a) == len(b) == rounds
    se = math.sqrt(statistics.variance(a) / rounds + statistics.variance(b) / rounds)
    assert abs(statistics.fmean(a) - statistics.fmean(b)) < 4 * se
    pa, pb = fast["win_share_by_position"][0], ref["win_share_by_position"][0]
    pooled = (pa + pb) / 2
    se = math.sqrt(2 * pooled * (1 - pooled) / rounds)
    assert abs(pa - pb) < 4 * se
    assert fast["blocked_share"] == pytest.approx(ref["blocked_share"], abs=0.02)


def test_kernel_greedy_seats_win_as_the_reference_greedy_bots_do() -> None:
    """``--bots greedy,random`` (greedy in seats 0 and 2), 1500 rounds on each engine: each
    seat's win share agrees within four standard errors (greedy wins about 40%, random 10%:
    a policy on the wrong seat fails)."""
    rounds = 1500
    args = ("-r", "crazy-eights", "--rounds", str(rounds), "--bots", "greedy,random",
            "--seed", "8")
    fast, _ = simulate_json(*args, "--engine", "fast")
    ref, _ = simulate_json(*args, "--engine", "reference")
    for seat in range(4):
        pa = fast["round_wins_by_seat"][seat] / rounds
        pb = ref["round_wins_by_seat"][seat] / rounds
        pooled = (pa + pb) / 2
        assert abs(pa - pb) < 4 * math.sqrt(2 * pooled * (1 - pooled) / rounds), seat
    assert fast["round_wins_by_seat"][0] > 2 * fast["round_wins_by_seat"][1]
