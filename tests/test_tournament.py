"""Duplicate tournaments: the deal is the same in every replay, the bots rotate
through the seats, results do not depend on --jobs, and the numbers add up."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from eights import Card, Game, load_rules, make_deck
from eights.bots import make_bot
from eights.cli import app
from eights.lab.tournament import (
    FORMAT,
    RoundOutcome,
    TournamentResult,
    _places,
    make_deal,
    play_round,
    seat_assignments,
    standings_table,
    tournament,
)

runner = CliRunner()


def timeless(result: TournamentResult) -> dict[str, Any]:
    data = result.to_json()
    data.pop("seconds")
    return data


# --------------------------------------------------------------------------- seat assignments


@pytest.mark.parametrize(("bots", "players", "replays"), [
    (2, 2, 2), (1, 2, 1), (2, 3, 3), (3, 3, 6), (2, 4, 6), (4, 4, 24),
    (2, 5, 5), (3, 6, 3), (4, 8, 4), (5, 5, 5),
])
def test_every_bot_sits_in_every_seat_as_often_as_its_share(bots: int, players: int,
                                                            replays: int) -> None:
    orders = seat_assignments(bots, players)
    assert len(orders) == replays == len(set(orders))
    held = Counter(i % bots for i in range(players))  # seats per bot in the cyclic lineup
    for order in orders:
        assert Counter(order) == held
    for seat in range(players):
        in_seat = Counter(order[seat] for order in orders)
        for bot in range(bots):
            assert in_seat[bot] * players == held[bot] * len(orders)


def test_more_bots_than_seats_is_refused() -> None:
    with pytest.raises(ValueError, match="3 bots for 2 seats"):
        seat_assignments(3, 2)


@pytest.mark.parametrize(("seats", "replays"), [((1, 3), 4), ((2, 2), 6), ((3, 1), 4),
                                                ((1, 1, 2), 12), ((1, 4), 5)])
def test_a_lineup_gives_each_bot_its_seats_in_every_position(seats: tuple[int, ...],
                                                              replays: int) -> None:
    players = sum(seats)
    orders = seat_assignments(len(seats), players, seats)
    assert len(orders) == replays == len(set(orders))
    for order in orders:
        assert [order.count(b) for b in range(len(seats))] == list(seats)
    for seat in range(players):
        for bot, held in enumerate(seats):
            assert sum(order[seat] == bot for order in orders) * players == held * len(orders)


@pytest.mark.parametrize("seats", [(1, 2), (0, 4), (1, 1, 2), (4,)])
def test_a_lineup_that_does_not_fit_is_refused(seats: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="do not fit 2 bots in 4 seats"):
        seat_assignments(2, 4, seats)


def test_one_bot_against_three_copies_of_another() -> None:
    result = tournament("classic", 4, ["greedy", "random"], deals=6, seed=2, seats=(1, 3))
    greedy, rand = (next(s for s in result.standings if s.bot == b) for b in ("greedy", "random"))
    assert greedy.seat_share == 0.25 and rand.seat_share == 0.75
    assert len(result.outcomes) == 6 * 4
    assert all(o.seats.count(0) == 1 for o in result.outcomes)
    assert greedy.win_share + rand.win_share == pytest.approx(1.0)


# --------------------------------------------------------------------------- the duplicate deal


@pytest.mark.parametrize(("rules", "players"), [("classic", 2), ("huit-fou", 4),
                                                ("huit-americain", 3)])
def test_a_deal_is_the_same_cards_in_the_same_order_in_every_replay(rules: str,
                                                                     players: int) -> None:
    ruleset = load_rules(rules)
    deal = make_deal(ruleset, players, seed=5, index=3)
    assert sorted(deal.deck) == sorted(make_deck(ruleset.decks_for(players), ruleset.jokers))
    assert deal == make_deal(ruleset, players, seed=5, index=3)
    assert deal.deck != make_deal(ruleset, players, seed=5, index=4).deck
    assert deal.deck != make_deal(ruleset, players, seed=6, index=3).deck
    dealt: list[list[Card]] = []
    first_hands: list[list[list[Card]]] = []
    for order in seat_assignments(2, players):
        specs = ["greedy", "random"]
        bots = [make_bot(specs[b]) for b in order]
        rngs = [random.Random(s) for s in range(players)]
        fresh = Game(ruleset, players, seed=deal.seed, dealer=0, deck=deal.deck)
        first_hands.append([fresh.hand(s) for s in range(players)])
        game = play_round(ruleset, players, deal, bots, rngs)
        assert game.over
        deck = list(game.round_log().deck)
        scripted = min(len(deck), len(deal.deck))
        assert deck[:scripted] == list(deal.deck[:scripted])  # draws follow the script
        dealt.append(deck)
    assert all(hands == first_hands[0] for hands in first_hands)  # same hand in each seat
    shortest = min(len(d) for d in dealt)
    assert all(d[:shortest] == dealt[0][:shortest] for d in dealt)  # i-th card drawn: the same


# --------------------------------------------------------------------------- results


def check_result(result: TournamentResult, deals: int) -> None:
    data = result.to_json()
    replays = len(result.assignments)
    assert data["format"] == FORMAT
    assert data["rounds"] == deals * replays == len(data["results"]["rows"])
    assert {s["bot"] for s in data["standings"]} == set(data["bots"])
    assert sum(s["win_share"] for s in data["standings"]) == pytest.approx(1)
    assert sum(s["seat_share"] for s in data["standings"]) == pytest.approx(1)
    for s in data["standings"]:
        assert set(s) == {"bot", "seat_share", "rounds", "win_share", "ci95", "wilson95",
                          "mean_points", "rating"}
        for key in ("ci95", "wilson95"):
            low, high = s[key]
            assert 0 <= low <= s["win_share"] <= high <= 1
        rating = s["rating"]
        assert rating["sigma"] > 0
        assert rating["ordinal"] == pytest.approx(rating["mu"] - 3 * rating["sigma"])
    h2h = data["head_to_head"]
    for a in data["bots"]:
        assert h2h[a][a] is None
        for b in data["bots"]:
            if a != b and h2h[a][b] is not None:
                assert h2h[a][b] + h2h[b][a] == pytest.approx(1)
    assert data["points_better"] == ("lower" if data["scoring"] == "own-hand" else "higher")
    json.dumps(data)  # plain JSON values only


@pytest.mark.parametrize(("rules", "players"), [("classic", 2), ("huit-fou", 4)])
def test_results_do_not_depend_on_jobs(rules: str, players: int) -> None:
    one = tournament(rules, players, ["greedy", "random"], 3, jobs=1, seed=11)
    two = tournament(rules, players, ["greedy", "random"], 3, jobs=2, seed=11)
    assert timeless(one) == timeless(two)
    check_result(one, 3)
    other = tournament(rules, players, ["greedy", "random"], 3, jobs=1, seed=12)
    assert timeless(other)["results"] != timeless(one)["results"]


def test_fewer_bots_than_seats_and_teams() -> None:
    three = tournament("classic", 3, ["greedy", "random"], 2, seed=1)
    check_result(three, 2)
    shares = {s.bot: s.seat_share for s in three.standings}
    assert shares == pytest.approx({"greedy": 2 / 3, "random": 1 / 3})
    teams = tournament("les-huit", 4, ["random", "greedy"], 2, seed=1)  # partners share a win
    check_result(teams, 2)
    solo = tournament("classic", 2, ["greedy"], 2, seed=1)  # a bot against itself
    assert solo.standings[0].win_share == 1 and solo.head_to_head == ((None,),)


def test_finishing_places_winners_first_then_points() -> None:
    def outcome(winners: tuple[int, ...], points: tuple[int, ...]) -> RoundOutcome:
        return RoundOutcome(0, 0, (0, 1, 2, 3), winners, points, False, 1, False)

    assert _places(outcome((2,), (5, 9, 0, 5)), 1) == [2, 4, 1, 2]  # own-hand: lower better
    assert _places(outcome((1,), (0, 30, 0, 0)), -1) == [2, 1, 2, 2]  # winner collects
    assert _places(outcome((0, 2), (3, 7, 3, 7)), 1) == [1, 3, 1, 3]  # partners


def test_the_table_names_bots_and_methods() -> None:
    result = tournament("classic", 2, ["greedy", "random"], 2, seed=3)
    table = standings_table(result)
    for needle in ("greedy", "random", "win share", "95% CI", "head to head", "higher is better",
                   "Plackett-Luce"):
        assert needle in table



def test_the_table_explains_its_order_and_the_reshuffled_rounds() -> None:
    """The rows go by win share per seat held (a column of its own), the rating ordinal
    only breaking ties, and the output says so; rounds past the scripted deck are said in
    plain words."""
    result = tournament("classic", 4, ["greedy", "random"], deals=6, seed=2, seats=(1, 3))
    table = standings_table(result)
    rows = table.splitlines()[3:3 + len(result.standings)]
    per_seat = [float(row.split()[4]) for row in rows]
    assert per_seat == sorted(per_seat, reverse=True)
    for row, s in zip(rows, result.standings, strict=True):
        assert row.split()[0] == s.bot
        assert float(row.split()[4]) == pytest.approx(s.win_share / s.seat_share, abs=0.005)
        assert float(row.split()[3]) == pytest.approx(s.seat_share, abs=0.0005)  # (level)
    text = " ".join(table.split())
    assert "Order: by win share per seat held" in text
    assert "then by rating ordinal where that ties" in text
    past = sum(o.past_script for o in result.outcomes)
    assert (f"Rounds whose stock ran out and was rebuilt from the discard pile, so that later "
            f"draws differed between the seatings (luck not fully shared): {past}.") in text
    assert "scripted deck" not in table


# --------------------------------------------------------------------------- command line


def test_cli_prints_the_table_and_writes_json(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    result = runner.invoke(app, ["tournament", "--rules", "classic", "--players", "2", "--bots",
                                 "greedy,random", "--deals", "3", "--seed", "1",
                                 "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "head to head" in result.stdout and "greedy" in result.stdout
    data = json.loads(out.read_text("utf-8"))
    assert data["format"] == FORMAT and data["deals"] == 3 and data["rounds"] == 6
    printed = runner.invoke(app, ["tournament", "--deals", "3", "--seed", "1", "--players", "2",
                                  "--json", "-"])
    assert printed.exit_code == 0, printed.output
    again = json.loads(printed.stdout)
    for d in (data, again):
        d.pop("seconds")
    assert again == data


@pytest.mark.parametrize(("args", "needle"), [
    (["--bots", "greedy,nobody"], "unknown bot 'nobody'"),
    (["--deals", "0"], "deals must be 1 or more"),
    (["--jobs", "0"], "jobs must be 1 or more"),
    (["--players", "2", "--bots", "greedy,random,greedy:x=1"], "bot"),
    (["--players", "2", "--bots", "greedy,random,ismcts"], "3 bots for 2 players"),
    (["--bots", "greedy,greedy"], "listed twice"),
    (["--bots", "greedy,,random"], "entry 2 is empty; give bot names separated by commas"),
    (["--players", "4", "--seats", "1,2"], "seats 1,2 do not fit 2 bots in 4 seats"),
    (["--players", "4", "--seats", "one,three"], "is not a comma-separated list of seat counts"),
    (["--rules", "no-such-preset"], "no-such-preset"),
    (["--players", "1"], "classic is played by 2 to 10 players, not 1"),
])
def test_bad_input_exits_2(args: list[str], needle: str) -> None:
    result = runner.invoke(app, ["tournament", "--deals", "1", *args])
    assert result.exit_code == 2, (result.output, result.exception)
    assert result.stderr.startswith("error: ") and needle in result.stderr
    assert "Traceback" not in result.output
