"""The review (eights.lab.review, eights review, the terminal's review and hint): every
decision valued from the seat's observation alone, marked, summed up and told in words."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import OptionList, Static
from typer.testing import CliRunner

from eights.bots import make_bot
from eights.bots.ismcts import ISMCTSBot
from eights.cli import app as cli
from eights.engine.actions import Action
from eights.engine.errors import RecordError
from eights.engine.game import Game
from eights.engine.record import Record, RoundRecord, load_record, record_of
from eights.i18n import translator
from eights.i18n.advice import MARK_STYLES, mistake_words, summary_words
from eights.lab import review as lab_review
from eights.lab.review import (
    BEST,
    MARKS,
    THRESHOLDS,
    ReviewError,
    mark_of,
    people_seats,
    positions,
    review,
)
from eights.session import Session
from eights.tui.app import EightsApp
from eights.tui.dialogs import RoundOverScreen
from eights.tui.review import PositionScreen, ReviewScreen
from stacked import stacked

WORLDS = 6
"""Worlds per decision in these tests: enough to exercise the code, quick."""

runner = CliRunner()


def played(rules: str, players: int, seed: int, bots: list[str], rounds: int = 1,
           meta: dict[str, Any] | None = None) -> Record:
    """A record of ``rounds`` rounds played by ``bots`` (one a seat)."""
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    seats = [make_bot(b) for b in bots]
    for r in range(rounds):
        if r:
            game.next_round()
        while not game.over:
            game.apply(seats[game.to_move].choose(game.observe(game.to_move),
                                                  list(game.legal), rng))
    return record_of(game, meta=meta)


@pytest.fixture(autouse=True)
def few_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    for quality in lab_review.QUALITIES:
        monkeypatch.setitem(lab_review.QUALITIES, quality, WORLDS)


# ---------------------------------------------------------------- only the seat's view


def test_two_deals_that_look_the_same_to_the_seat_get_the_same_review() -> None:
    """Seat 0 holds the same cards and sees the same table; the other hand and the stock
    differ. Its review is the same, action for action, for the same seed."""
    mine = "7h 7c 9h 2s 3d 8c Kd"
    first = stacked("classic", [mine, "Ah 2h 3h 4h 5h 6h Ts"], "7s", "Qs Qd Jc",
                    dealer=1, overrides=["hand_size=7"])
    second = stacked("classic", [mine, "Ac 2c 3c 4c 5c 6c Jc"], "7s", "Th 9s 4s",
                     dealer=1, overrides=["hand_size=7"])
    assert first.observe(0) == second.observe(0)
    assert first.hand(1) != second.hand(1)
    legal = {str(a) for a in first.legal}
    for game in (first, second):
        game.apply("7h")
    records = [record_of(g) for g in (first, second)]
    found = [positions(r, [0]) for r in records]
    assert [len(f) for f in found] == [1, 1]
    assert found[0][0].observation == found[1][0].observation
    reviews = [review(r, [0], worlds=40, seed=5).to_json() for r in records]
    assert reviews[0] == reviews[1]
    assert {a["action"] for a in reviews[0]["seats"][0]["decisions"][0]["actions"]} == legal


def test_cutting_the_record_right_after_a_decision_changes_nothing() -> None:
    record = played("huit-americain", 3, 4, ["random", "expert", "greedy"])
    whole = review(record, [0], seed=2).seat(0)
    assert len(whole.decisions) >= 3
    for decision in whole.decisions[:4]:
        rnd = record.rounds[decision.round - 1]
        cut = Record(record.rules, record.players, record.dealer, record.seed,
                     (RoundRecord(rnd.actions[:decision.turn + 1], rnd.deck),))
        alone = review(cut, [0], seed=2).seat(0)
        assert alone.decisions[-1].to_json() == decision.to_json()


def test_the_review_reads_only_the_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    """What the search is handed at each decision is the seat's observation, nothing else."""
    record = played("classic", 4, 8, ["greedy", "expert", "expert", "expert"])
    seen: list[Any] = []
    real = ISMCTSBot.evaluate

    def spy(self: Any, observation: Any, legal: Any, rng: Any, worlds: int) -> Any:
        seen.append(observation)
        return real(self, observation, legal, rng, worlds)

    monkeypatch.setattr(ISMCTSBot, "evaluate", spy)
    result = review(record, [0], seed=1)
    assert len(seen) == len(result.seat(0).decisions) > 0
    assert all(o.seat == 0 and o.revealed is None and o.legal for o in seen)


# ---------------------------------------------------------------- values, marks, summary


def test_same_seed_same_review_and_values_in_range() -> None:
    record = played("classic", 2, 3, ["random", "expert"])
    one = review(record, [0, 1], seed=9).to_json()
    assert one == review(record, [0, 1], seed=9).to_json()
    for seat in one["seats"]:
        assert 0 <= seat["accuracy"] <= 1 and seat["mean_loss"] >= 0
        for d in seat["decisions"]:
            wins = {a["action"]: a for a in d["actions"]}
            assert d["played"] in wins and d["best"] in wins and d["mark"] in MARKS
            assert len(d["actions"]) >= 2
            for a in d["actions"]:
                assert 0 <= a["low"] <= a["win"] <= a["high"] <= 1
                assert "points" in a  # classic scores points
            assert d["loss"] == pytest.approx(max(0.0, wins[d["best"]]["win"]
                                                  - wins[d["played"]]["win"]), abs=2e-4)
            assert d["actions"][0]["action"] == d["best"]


@pytest.mark.parametrize(("loss", "se", "mark"), [
    (0.0, 0.0, "best"), (BEST, 0.0, "best"), (THRESHOLDS["good"], 0.0, "good"),
    (THRESHOLDS["inaccuracy"], 0.0, "inaccuracy"), (THRESHOLDS["mistake"], 0.0, "mistake"),
    (THRESHOLDS["mistake"] + 0.01, 0.0, "blunder"), (0.3, 0.2, "best"),
    (0.3, 0.1, "mistake"), (0.05, 0.015, "good"), (0.05, 0.021, "best"),
])
def test_marks_follow_the_loss_and_its_certainty(loss: float, se: float, mark: str) -> None:
    assert mark_of(loss, se) == mark


def test_team_games_rounds_won_scoring_and_house_rules(tmp_path: Path) -> None:
    teams = played("les-huit", 4, 2, ["random", "expert", "greedy", "expert"])
    assert review(teams, [0, 2]).to_json()["seats"][1]["seat"] == 2
    rounds_won = played("switch", 2, 2, ["random", "expert"])
    for d in review(rounds_won, [0]).to_json()["seats"][0]["decisions"]:
        assert all("points" not in a for a in d["actions"])  # a round won is all there is
    house = tmp_path / "house.toml"
    house.write_text('extends = "huit-fou"\nhand_size = 5\n', "utf-8")
    record = played(str(house), 3, 1, ["random", "expert", "expert"])
    assert review(record, [0]).seat(0).decisions


def test_bad_requests_are_refused_with_what_is_allowed() -> None:
    record = played("classic", 2, 3, ["random", "expert"])
    with pytest.raises(ReviewError, match="seat 2 is not at this table; seats are 0 to 1"):
        review(record, [2])
    with pytest.raises(ReviewError, match="round 3 is not in the record"):
        review(record, [0], rounds=[3])
    with pytest.raises(ReviewError, match="quality 'best' is not one of fast, normal, deep"):
        review(record, [0], quality="best")


def test_every_mark_has_a_colour_on_the_command_line_and_in_the_terminal() -> None:
    """eights review prints the marks with Rich, the review screen shows them with Textual:
    a colour name one of them does not know (Rich's dark_orange, in Textual) left the
    mistakes uncoloured on the review screen."""
    from rich.style import Style as RichStyle
    from textual.style import Style as TextualStyle

    for mark in MARKS:
        style = MARK_STYLES[mark]
        assert RichStyle.parse(style).color is not None, mark
        assert TextualStyle.parse(style).foreground is not None, mark


def test_people_seats_come_from_the_meta() -> None:
    meta = {"seats": [{"name": "a", "player": "greedy"}, {"name": "b", "player": "human"}]}
    assert people_seats(meta, 2) == [1]
    assert people_seats({}, 3) == [0]


@pytest.mark.parametrize(("played", "best", "lang", "words"), [
    ("draw", "Qc", "en", "you drew instead of playing the queen of clubs; the queen of clubs "
                         "wins 30% of the time, against 10%"),
    ("draw", "Qc", "fr", "vous avez pioché au lieu de jouer la dame de trèfle\u00a0; la dame de "
                         "trèfle gagne 30\u00a0% des fois, contre 10\u00a0%"),
    ("8c=s", "8c=h", "en", "you named ♠ with the eight of clubs; naming ♥ wins 30% of the "
                           "time, against 10%"),
    ("As", "draw", "fr", "vous avez choisi l’as de pique\u00a0; piocher gagne 30\u00a0% des "
                         "fois, contre 10\u00a0%"),
    # HA13: the same card, the announcement forgotten, told as such (not "you chose the
    # queen of hearts; the queen of hearts wins more")
    ("Qh", "Qh!", "en", "you played the queen of hearts without announcing; the queen of "
                        "hearts with the announcement wins 30% of the time, against 10%"),
    ("Qh", "Qh!", "fr", "vous avez joué la dame de cœur sans annoncer\u00a0; la dame de cœur "
                        "avec l’annonce gagne 30\u00a0% des fois, contre 10\u00a0%"),
    ("5c!", "5c", "en", "you played the five of clubs and announced; the five of clubs wins "
                        "30% of the time, against 10%"),
])
def test_the_worst_mistakes_are_told_in_words_in_english_and_french(
        played: str, best: str, lang: str, words: str) -> None:
    assert mistake_words(Action.parse(played), Action.parse(best), 0.1, 0.3,
                         translator(lang)) == words


def test_a_seats_review_is_summed_up_in_one_line() -> None:
    fr = translator("fr")
    counts = dict.fromkeys(MARKS, 0) | {"blunder": 2}
    assert summary_words(0.5, 0.125, counts, fr) == (
        "précision 50\u00a0%, perte moyenne de 12,5\u00a0% de la chance de gagner par "
        "décision\u00a0; 2 gaffes")


# ---------------------------------------------------------------- the command line


def test_review_json_has_the_shape_of_the_issue(tmp_path: Path) -> None:
    meta = {"seats": [{"name": "Ana", "player": "human"}, {"name": "B", "player": "expert"}]}
    path = tmp_path / "game.json"
    path.write_text(played("classic", 2, 3, ["random", "expert"], 2, meta).dumps(), "utf-8")
    out = tmp_path / "review.json"
    result = runner.invoke(cli, ["review", str(path), "--json", str(out), "--seed", "4",
                                 "--quality", "fast"])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text("utf-8"))
    assert list(data) == ["seats"] and [s["seat"] for s in data["seats"]] == [0]
    seat = data["seats"][0]
    assert set(seat) == {"seat", "accuracy", "mean_loss", "decisions"}
    assert {d["round"] for d in seat["decisions"]} == {1, 2}
    for d in seat["decisions"]:
        assert set(d) == {"round", "turn", "played", "best", "loss", "mark", "actions"}
        for a in d["actions"]:
            assert set(a) <= {"action", "win", "low", "high", "points"}
            Action.parse(a["action"])  # the record's notation
    assert "Ana (seat 0): accuracy" in result.output
    again = runner.invoke(cli, ["review", str(path), "--json", "-", "--seed", "4",
                                "--quality", "fast"])
    assert json.loads(again.output) == data
    every = runner.invoke(cli, ["review", str(path), "--all", "--json", "-"])
    assert [s["seat"] for s in json.loads(every.output)["seats"]] == [0, 1]


def test_review_in_french(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(played("huit-americain", 2, 5, ["random", "expert"]).dumps(), "utf-8")
    result = runner.invoke(cli, ["review", str(path), "--lang", "fr", "--seat", "0"])
    assert result.exit_code == 0, result.output
    assert "précision" in result.output and "manche 1, tour" in result.output
    assert "None" not in result.output and "nan" not in result.output.lower()
    # a record with no names (meta.seats) heads each seat with its number, said once
    first = result.output.splitlines()[0]
    assert first.startswith("Place 0") and "précision" in first and "(place" not in first
    english = runner.invoke(cli, ["review", str(path), "--seat", "0", "--quality", "fast"])
    assert english.output.startswith("Seat 0: accuracy")


@pytest.mark.parametrize(("args", "message"), [
    (["--seat", "5"], "seat 5 is not at this table; seats are 0 to 1"),
    (["--seat", "0", "--all"], "give --seat or --all, not both"),
    (["--quality", "best"], "--quality must be fast, normal, deep, not 'best'"),
    (["--json", "/nonexistent/dir/x.json"], "there is no directory"),
])
def test_review_refuses_bad_options(tmp_path: Path, args: list[str], message: str) -> None:
    path = tmp_path / "game.json"
    path.write_text(played("classic", 2, 3, ["random", "expert"]).dumps(), "utf-8")
    result = runner.invoke(cli, ["review", str(path), *args])
    assert result.exit_code == 2
    assert message in result.output


def test_review_refuses_what_is_not_a_record(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}', "utf-8")
    result = runner.invoke(cli, ["review", str(bad)])
    assert result.exit_code == 2 and "unknown record field 'hello'" in result.output
    result = runner.invoke(cli, ["review", str(tmp_path / "missing.json")])
    assert result.exit_code == 2 and "cannot read record" in result.output
    with pytest.raises(RecordError):
        load_record(bad)
    record = played("classic", 2, 3, ["random", "expert"]).to_json()
    record["rounds"][0]["actions"][0] = "Kh" if record["rounds"][0]["actions"][0] != "Kh" else "Qh"
    illegal = tmp_path / "illegal.json"
    illegal.write_text(json.dumps(record), "utf-8")
    result = runner.invoke(cli, ["review", str(illegal)])
    assert result.exit_code == 1 and "not legal" in result.output


# ---------------------------------------------------------------- the terminal


def finished_session(tmp_path: Path, seed: int = 3) -> Session:
    """A 2-player classic match against a bot whose first round is over."""
    session = Session.start("classic", 2, bots=["greedy"], seed=seed, save_dir=tmp_path)
    rng = random.Random(seed)
    while not session.game.over:
        if session.human_to_play:
            session.play(rng.choice(session.legal()))
        else:
            session.bot_move()
    return session


@pytest.mark.asyncio
async def test_r_on_the_round_summary_opens_the_review_and_its_positions(
        tmp_path: Path) -> None:
    session = finished_session(tmp_path)
    app = EightsApp(session, translator("en"), speed="instant")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, RoundOverScreen)
        assert "r: review your play" in "\n".join(
            str(s.render()) for s in app.screen.query(Static))
        await pilot.press("r")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert screen.result is not None and screen.result.decisions
        options = screen.query_one(OptionList)
        assert options.option_count == len(screen.result.decisions)
        first = options.get_option_at_index(0).prompt
        assert "round 1, turn" in str(first)
        await pilot.press("enter")
        position = app.screen
        assert isinstance(position, PositionScreen)
        decision = screen.result.decisions[0]
        frame = position.frames[position.position]
        assert (frame.round, frame.index) == (decision.round, decision.turn)
        shown = str(position.query_one("#evaluation", Static).render())
        assert "wins" in shown and "← played" in shown
        assert "Escape: back to the review" in str(position.query_one("#keys", Static).render())
        await pilot.press("escape")
        assert app.screen is screen
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, RoundOverScreen)


@pytest.mark.asyncio
async def test_the_hint_key_values_every_move_and_is_noted(tmp_path: Path) -> None:
    session = Session.start("classic", 2, bots=["greedy"], seed=11, save_dir=tmp_path)
    while len(session.legal()) < 2 or not session.human_to_play:
        if session.human_to_play:
            session.play(session.legal()[0])
        else:
            session.bot_move()
    app = EightsApp(session, translator("en"), speed="instant")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert not session.hints and "hints" not in session.record().meta
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        lines = [line for line in app.table.log_lines if line.startswith("Hint: ")]
        assert len(lines) == 1
        assert lines[0].count("%") == len(session.legal())
        assert session.hints == [(1, len(session.game.history))]
        assert session.path is not None
        assert load_record(session.path).meta["hints"] == [
            {"round": 1, "turn": len(session.game.history)}]
        resumed = Session.resume(session.path)
        assert resumed.hints == session.hints
