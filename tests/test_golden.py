"""Golden records: whole matches whose replay output is diffed against a file.

A change in the engine that changes how any of these matches plays shows up
as a diff here. When the change is intended, regenerate and review the diff:

    EIGHTS_REGEN_GOLDEN=1 python -m pytest tests/test_golden.py
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eights import Game
from eights.cli import app
from eights.engine.record import record_of

GOLDEN = Path(__file__).parent / "golden"
MATCHES = [("classic", 3, 21), ("huit-fou", 4, 5), ("huit-americain", 3, 8), ("les-huit", 4, 13),
           ("openspiel", 5, 2)]
REGEN = os.environ.get("EIGHTS_REGEN_GOLDEN") == "1"


def make_record(rules: str, players: int, seed: int) -> str:
    """A whole match between seeded random players, as record text."""
    game = Game(rules, players, seed=seed, dealer=seed % players)
    rng = random.Random(seed)
    while True:
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))
        if game.match_over:
            break
        game.next_round()
    return record_of(game, meta={"golden": f"{rules} {players} players seed {seed}"}).dumps()


@pytest.mark.parametrize(("rules", "players", "seed"), MATCHES)
def test_golden_replay(rules: str, players: int, seed: int) -> None:
    stem = GOLDEN / f"{rules}-{players}p-{seed}"
    record_file = stem.with_suffix(".record.json")
    if REGEN:
        record_file.write_text(make_record(rules, players, seed), "utf-8")
    runner = CliRunner()
    text = runner.invoke(app, ["replay", str(record_file)])
    final = runner.invoke(app, ["replay", str(record_file), "--json"])
    assert text.exit_code == 0 and final.exit_code == 0, text.output + final.output
    if REGEN:
        stem.with_suffix(".replay.txt").write_text(text.output, "utf-8")
        stem.with_suffix(".final.json").write_text(final.output, "utf-8")
    assert text.output == stem.with_suffix(".replay.txt").read_text("utf-8")
    assert final.output == stem.with_suffix(".final.json").read_text("utf-8")
    state = json.loads(final.output)
    assert state["match_over"] is True and state["winners"]


@pytest.mark.parametrize(("rules", "players", "seed"), MATCHES)
def test_golden_record_is_what_the_engine_plays_today(rules: str, players: int, seed: int) -> None:
    """The stored record equals a fresh run of the same seeded match."""
    stored = (GOLDEN / f"{rules}-{players}p-{seed}.record.json").read_text("utf-8")
    assert make_record(rules, players, seed) == stored
