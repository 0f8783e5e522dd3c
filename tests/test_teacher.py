"""Expert iteration (:mod:`eights.learn.teacher`): positions labelled with the search's paired
values, the improved policy as targets, and a tiny run that learns them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra")

from eights.bots.learned import PADDED  # noqa: E402
from eights.engine.rules import load_rules  # noqa: E402
from eights.learn.family import Contexts  # noqa: E402
from eights.learn.teacher import (  # noqa: E402
    MIX,
    SEED_PRESETS,
    Labels,
    advantages,
    held_out,
    label_task,
    main,
    targets,
    task,
)

SEARCH = "ismcts"


def test_tasks_come_from_their_seed_and_cover_the_mix() -> None:
    drawn = [task(1, i) for i in range(200)]
    assert [(k, r.name, n, s) for k, r, n, s in drawn[:20]] == [
        (k, r.name, n, s) for k, r, n, s in (task(1, i) for i in range(20))]
    assert {k for k, *_ in drawn} == set(MIX)
    for kind, rules, players, _ in drawn:
        assert 2 <= players <= 6
        rules.check_players(players)
        if kind == "seed-2p":
            assert rules.name in SEED_PRESETS and players == 2
        if kind == "seed-n":
            assert rules.name in SEED_PRESETS and players > 2
        if kind == "house":
            assert rules.name.startswith("teacher-house-1-")
    assert task(2, 0) != task(1, 0)
    assert [held_out(i) for i in range(10)] == [False] * 9 + [True]


def test_a_labelled_position_holds_every_actions_paired_value() -> None:
    rules = load_rules("classic")
    got = label_task(rules, 2, seed=5, positions=6, search=SEARCH, worlds=8, share=0.5)
    again = label_task(rules, 2, seed=5, positions=6, search=SEARCH, worlds=8, share=0.5)
    assert all(np.array_equal(got[k], again[k]) for k in got)  # the seed decides
    start, chosen = got["start"], got["chosen"]
    assert len(chosen) == 6 and len(start) == 7 and start[-1] == len(got["legal"])
    assert len(got["win"]) == len(got["se"]) == len(got["points"]) == len(got["legal"])
    assert ((got["win"] >= 0) & (got["win"] <= 1)).all() and (got["se"] >= 0).all()
    for i in range(6):
        assert start[i + 1] - start[i] >= 2 and 0 <= chosen[i] < start[i + 1] - start[i]
        assert got["se"][start[i] + chosen[i]] == 0  # the expert's against itself
    assert got["win"].std() > 0 and (np.abs(got["points"]) <= 1).all()


def _labels(win: list[float], se: list[float], chosen: int, context: int) -> Labels:
    """One decision of classic at 2 players, ``len(win)`` legal actions (codes 0, 10, ...)."""
    n = len(win)
    return Labels(np.zeros((1, PADDED), dtype=np.int16), np.arange(0, 10 * n, 10, dtype=np.int32),
                  np.array([0, n]), np.array([chosen]), context,
                  np.array(win, dtype=np.float32), np.zeros(n, dtype=np.float32),
                  np.array(se, dtype=np.float32))


def test_the_targets_move_the_policy_by_the_advantage_beyond_the_noise() -> None:
    contexts = Contexts()
    ctx = contexts.add(load_rules("classic"), 2)
    labels = _labels([0.50, 0.60, 0.45], [0.01, 0.02, 0.02], chosen=0, context=ctx)
    parts = [(labels, np.array([0]))]
    places = (np.array([0, 0, 0]), np.array([0, 1, 2]))
    assert advantages(parts, places, 0.0, 0.0) == pytest.approx([0.0, 0.10, -0.05])
    assert advantages(parts, places, 1.0, 0.0) == pytest.approx([0.0, 0.08, -0.03])
    prior = torch.tensor([[2.0, 0.0, 0.0]])
    flat = targets(prior, parts, places, tau=0.02, z=0.0, points=0.0)[0]
    assert float(flat.sum()) == pytest.approx(1.0) and int(flat.argmax()) == 1
    kept = targets(prior, parts, places, tau=0.02, z=10.0, points=0.0)[0]
    assert kept.tolist() == pytest.approx(torch.softmax(prior, dim=1)[0].tolist())


def test_a_tiny_run_labels_fits_and_its_loss_falls(tmp_path: Path) -> None:
    """Ten tasks (the tenth held out), a few positions each; the fit from the shipped family
    model: the loss on the decisions it learns from falls, the model and its card are
    written, the card names its data and its targets."""
    data = tmp_path / "data"
    main(["label", "--out", str(data), "--seed", "3", "--tasks", "0:10", "--positions", "8",
          "--worlds", "6", "--search", SEARCH, "--share", "0.5"])
    cards = sorted(data.glob("task-*.json"))
    assert len(cards) == 10 and (data / "task-9.npz").exists()
    log = (data / "log-0-10.txt").read_text("utf-8").splitlines()
    assert json.loads(log[-1]) == {"done": 80}
    main(["label", "--out", str(data), "--seed", "3", "--tasks", "0:10", "--positions", "8"])
    assert json.loads((data / "log-0-10.txt").read_text("utf-8").splitlines()[-1]) == {
        "done": 0}  # every task was there: none labelled again
    run = tmp_path / "run"
    main(["fit", str(data), "--out", str(run), "--epochs", "12", "--measures", "3",
          "--lr", "1e-3", "--tau", "0.05", "--seed", "2", "--batch", "64"])
    card = json.loads((run / "model.json").read_text("utf-8"))
    training = card["training"]
    assert card["format"] == 2 and training["data"]["tasks"] == 9
    assert training["data"]["held_out_tasks"] == 1 and training["samples"] >= 12 * 72
    assert training["loss"] == "mse" and training["tau"] == 0.05
    losses = [json.loads(x)["train_loss"] for x in
              (run / "log.txt").read_text("utf-8").splitlines()
              if x.startswith("{") and '"train_loss"' in x]
    assert len(losses) == 3 and losses[-1] < losses[0]
    assert (run / "model.npz").exists()
