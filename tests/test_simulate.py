"""The simulator: `eights simulate --rounds 10000` runs every preset without an error (on the
compiled kernel, which plays every preset), and its numbers add up."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from eights import load_rules, preset_names
from eights.bots import RandomBot
from eights.cli import app
from eights.lab.simulate import percentiles, simulate

runner = CliRunner()


@pytest.mark.parametrize("name", preset_names())
def test_every_preset_runs_ten_thousand_rounds(name: str) -> None:
    """``eights simulate --rounds 10000`` on every preset, as a user runs it: on the compiled
    kernel, which plays them all (proven equal to the engine in test_fast.py); the reference
    engine also plays 1,000 rounds of every preset here."""
    result = runner.invoke(app, ["simulate", "-r", name, "--rounds", "10000", "--seed", "2026",
                                 "--json", "-q"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    n = load_rules(name).default_players
    assert data["engine"] == "fast"
    assert data["rounds"] == 10_000
    assert len(data["decisions_per_round"]) == 6 and data["decisions_per_round"]["min"] >= 1
    assert sum(data["round_wins_by_seat"]) == pytest.approx(10_000)
    assert len(data["mean_points_by_seat"]) == n
    assert 0 <= data["blocked_rounds"] <= 10_000
    reference = simulate(name, rounds=1_000, seed=2026)
    numbers = reference.to_json()
    assert numbers["rounds"] == 1_000 and numbers["engine"] == "reference"
    assert sum(numbers["round_wins_by_seat"]) == pytest.approx(1_000)
    assert numbers["decisions"] == sum(reference.decisions_per_round)


def test_same_seed_same_numbers_and_matches_add_up() -> None:
    a = simulate("huit-americain", 3, games=20, seed=9).to_json()
    b = simulate("huit-americain", 3, games=20, seed=9).to_json()
    for key in ("seconds", "wall_seconds", "rounds_per_second", "decisions_per_second"):
        a.pop(key)
        b.pop(key)
    assert a == b
    assert a["matches"] == 20
    assert sum(a["match_wins_by_seat"]) == pytest.approx(20)
    assert a["rounds_per_match"]["mean"] * 20 == pytest.approx(a["rounds"])


def test_bots_can_be_given_and_must_fit_the_table() -> None:
    result = simulate("classic", 2, rounds=5, seed=1, bots=[RandomBot(), RandomBot()])
    assert result.rounds == 5
    with pytest.raises(ValueError, match="3 bots for 2 players"):
        simulate("classic", 2, rounds=5, seed=1, bots=[RandomBot()] * 3)
    with pytest.raises(ValueError, match="either games or rounds"):
        simulate("classic", 2, seed=1)


def test_percentiles_nearest_rank() -> None:
    assert percentiles([5]) == {"min": 5.0, "p10": 5.0, "p50": 5.0, "p90": 5.0, "max": 5.0}
    assert percentiles([3, 1, 2, 4])["p50"] == 2.0
