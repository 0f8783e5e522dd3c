"""Variant analysis: intervals, the extended simulate summary, HF9 overflow counting,
the charts and the simulate command's --bots and --plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from eights import DRAW, load_rules
from eights.bots import make_bot
from eights.cli import app
from eights.lab.analysis import mean_ci, special_ranks, t95, wilson, write_plots
from eights.lab.simulate import SimulationResult, _forced_draw, simulate
from stacked import play, stacked

runner = CliRunner()
PNG = b"\x89PNG\r\n\x1a\n"
OLD_KEYS = {
    "rules", "players", "seed", "matches", "rounds", "decisions", "blocked_rounds",
    "rounds_per_match", "decisions_per_round", "round_wins_by_seat", "match_wins_by_seat",
    "mean_points_by_seat", "seconds", "rounds_per_second", "decisions_per_second",
}
NEW_KEYS = {
    "bots", "win_share_by_position", "win_share_by_position_ci95", "first_seat_advantage",
    "blocked_share", "blocked_share_ci95", "round_length_histogram", "forced_draws_per_round",
    "forced_cards_per_round", "rounds_with_forced_draw", "overflows_per_round",
    "overflow_cards_per_round", "rounds_with_overflow", "special_cards_per_round", "engine",
    "wall_seconds",
}


# --------------------------------------------------------------------------- intervals


@pytest.mark.parametrize(("wins", "n"), [(0, 10), (3, 10), (10, 10), (0.5, 3), (512, 1000)])
def test_wilson_contains_the_share_and_stays_in_0_1(wins: float, n: int) -> None:
    low, high = wilson(wins, n)
    assert 0 <= low <= wins / n <= high <= 1
    assert wilson(wins * 100, n * 100)[1] - wilson(wins * 100, n * 100)[0] < high - low


def test_t_interval() -> None:
    assert t95(1) == 12.706 and t95(31) == pytest.approx(2.040, abs=0.002)
    low, high = mean_ci([1.0, 2.0, 3.0])
    assert (low, high) == pytest.approx((2 - 4.303 / 3**0.5, 2 + 4.303 / 3**0.5))
    assert mean_ci([0.3], 0, 1) == (0, 1)
    with pytest.raises(ValueError):
        t95(0)


def test_special_ranks_follow_the_rules() -> None:
    letters = [r.letter for r in special_ranks(load_rules("huit-americain"))]
    assert letters == ["A", "2", "7", "8", "T", "J"]  # no joker: jokers = 0
    assert "X" in [r.letter for r in special_ranks(load_rules("huit-americain", ["jokers=2"]))]
    assert [r.letter for r in special_ranks(load_rules("huit-fou", ["special_cards=false"]))] == ["8"]


# --------------------------------------------------------------------------- the summary


def summary(rules: str, players: int, rounds: int, bots: list[str] | None = None) -> dict[str, Any]:
    seats = None if bots is None else [make_bot(bots[s % len(bots)]) for s in range(players)]
    return simulate(rules, players, rounds=rounds, seed=4, bots=seats).to_json()


def test_the_summary_keeps_its_keys_and_adds_the_variant_numbers() -> None:
    data = summary("huit-fou", 4, 200)
    assert set(data) == OLD_KEYS | NEW_KEYS
    assert data["bots"] == ["random"] * 4
    assert sum(data["win_share_by_position"]) == pytest.approx(1)
    for share, (low, high) in zip(data["win_share_by_position"],
                                  data["win_share_by_position_ci95"], strict=True):
        assert 0 <= low <= share <= high <= 1
    assert data["first_seat_advantage"] == pytest.approx(data["win_share_by_position"][0] - 0.25)
    assert sum(c for _, c in data["round_length_histogram"]) == 200
    assert sum(length * c for length, c in data["round_length_histogram"]) == data["decisions"]
    assert data["forced_draws_per_round"] > 0 and data["forced_cards_per_round"] > 0
    assert data["overflows_per_round"] > 0 and data["rounds_with_overflow"] > 0  # HF9, random bots
    assert set(data["special_cards_per_round"]) == {"A", "2", "4", "8", "Q"}
    assert data["special_cards_per_round"]["4"]["effect"] == "+4"
    plain = summary("classic", 3, 50)
    assert plain["forced_draws_per_round"] == 0 and plain["overflows_per_round"] == 0
    assert set(plain["special_cards_per_round"]) == {"8"}


def test_bots_are_named_in_the_summary() -> None:
    data = summary("huit-americain", 4, 30, ["greedy", "random"])
    assert data["bots"] == ["greedy", "random", "greedy", "random"]
    assert sum(data["round_wins_by_seat"]) == pytest.approx(30)


def test_hf9_overflow_is_counted_as_cards_back_and_penalty() -> None:
    g = stacked("huit-fou", ["3s 4s 5s 6s 7s 9s Ts Js Qs Ks As", "2h 3c 4c 5c 6c 7c 9c Tc Jc Qc Kc",
                             "2c 3d 4d 5d 6d 7d 9d Td Jd Qd Kd"], "5h", "Ah 3h 4h",
                overrides=["hand_size=11"])
    play(g, "2h 2c")
    result = SimulationResult("huit-fou", 3, 0)
    assert _forced_draw(g, DRAW, result) == 3  # 4 cards: 1 to the victim, 2 back, 1 penalty
    assert result.forced_cards == 1
    g = stacked("huit-fou", ["3d 5d 6d 7d 9d Td Jd Kd Ad 2d", "4h 3c 5c 6c 7c 9c Tc Jc Kc Ac"],
                "5h", "3s 5s 6s 7s", overrides=["hand_size=10"])
    play(g, "4h")
    assert _forced_draw(g, DRAW, result) == 2 and result.forced_cards == 3  # 2 taken, 2 back


# --------------------------------------------------------------------------- charts and command


def test_plots_are_png_files(tmp_path: Path) -> None:
    paths = write_plots(summary("les-huit", 4, 20), tmp_path / "charts")
    assert [p.name for p in paths] == ["round-length.png", "seat-wins.png", "special-cards.png"]
    for p in paths:
        assert p.read_bytes().startswith(PNG) and p.stat().st_size > 1000


def test_simulate_with_bots_and_plot(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "-r", "huit-fou", "--rounds", "20", "--bots",
                                 "greedy,random", "--plot", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert set(data) >= OLD_KEYS | NEW_KEYS
    assert data["bots"] == ["greedy", "random", "greedy", "random"]
    pngs = sorted(tmp_path.glob("*.png"))
    assert len(pngs) == 3 and all(p.read_bytes().startswith(PNG) for p in pngs)
    assert data["engine"] == "fast"  # its charts too: special cards say they are not gathered
    text = runner.invoke(app, ["simulate", "-r", "huit-americain", "--rounds", "10",
                               "--bots", "greedy", "--engine", "reference"])
    assert text.exit_code == 0, text.output
    for needle in ("first-seat advantage", "1st", "forced draws/round", "special cards played",
                   "overflows/round", "bots by seat:        greedy, greedy"):
        assert needle in text.stdout


@pytest.mark.parametrize(("args", "needle"), [
    (["--bots", "nobody"], "unknown bot 'nobody'"),
    (["--bots", ","], "--bots"),
])
def test_simulate_bad_bots_exit_2(args: list[str], needle: str) -> None:
    result = runner.invoke(app, ["simulate", "--rounds", "2", *args])
    assert result.exit_code == 2 and needle in result.stderr
