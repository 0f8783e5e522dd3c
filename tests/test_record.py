"""Game records (``eights-record/1``): a record of any game replays to the same
state, with or without the cards written out; a malformed record is a
RecordError naming the field; an illegal action is a ReplayError saying where
it is and what was legal instead."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from eights import Action, Card, Game, IllegalActionError, RecordError, load_rules, preset_names
from eights.engine.record import FORMAT, Record, ReplayError, RoundRecord, load_record, record_of, replay
from stacked import random_play

PRESETS = ["black-jack", "classic", "crazy-eights", "huit-americain", "huit-fou", "last-card",
           "les-huit", "mau-mau", "openspiel", "pesten", "switch", "tschau-sepp", "uno-cards"]
MAX_DECISIONS = 200_000


def play_match(game: Game, rng: random.Random) -> Game:
    """Random legal play, round after round, until the match is over."""
    decisions = 0
    while True:
        while not game.over:
            legal = game.legal_actions()
            assert legal, "a running round always offers an action"
            game.apply(rng.choice(legal))
            decisions += 1
            assert decisions < MAX_DECISIONS, "the match does not end"
        if game.match_over:
            return game
        game.next_round()


play_steps = random_play


def round_trip(record: Record) -> Game:
    return replay(load_record(record.dumps()))


def base_record(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "rules": "classic",
        "players": 2,
        "dealer": 0,
        "seed": 1,
        "rounds": [{"actions": []}],
    }
    data.update(changes)
    return data


def record_error(source: Any) -> str:
    with pytest.raises(RecordError) as info:
        load_record(source)
    return str(info.value)


def test_presets_under_test_are_all_presets() -> None:
    assert sorted(PRESETS) == preset_names()


# --------------------------------------------------------------------------- replay


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("decks", [True, False], ids=["decks", "no-decks"])
def test_whole_match_replays_identically(name: str, seed: int, decks: bool) -> None:
    game = play_match(Game(name, seed=seed), random.Random(seed))
    assert game.match_over
    record = record_of(game, decks=decks)
    assert len(record.rounds) == game.round
    assert all((r.deck is not None) is decks for r in record.rounds)
    again = round_trip(record)
    assert again.to_json() == game.to_json()
    assert again.match_over and again.winners == game.winners
    assert [r.actions for r in again.rounds_log] == [r.actions for r in game.rounds_log]


@pytest.mark.parametrize("name", PRESETS)
def test_every_player_count_replays(name: str) -> None:
    low, high = load_rules(name).players
    for players in sorted({low, (low + high) // 2, high}):
        game = play_steps(Game(name, players, seed=players, dealer=players - 1),
                          random.Random(players), 400)
        for decks in (True, False):
            again = round_trip(record_of(game, decks=decks))
            assert again.to_json() == game.to_json(), (players, decks)
            assert again.n == players


@pytest.mark.parametrize("name", PRESETS)
@pytest.mark.parametrize("decks", [True, False], ids=["decks", "no-decks"])
def test_a_match_in_progress_replays_to_the_same_point(name: str, decks: bool) -> None:
    game = play_steps(Game(name, seed=11), random.Random(11), 37)
    assert not game.over
    again = round_trip(record_of(game, decks=decks))
    assert again.to_json() == game.to_json()
    assert again.legal_actions() == game.legal_actions()
    assert again.history == game.history


@pytest.mark.parametrize("name", PRESETS)
def test_a_replay_from_the_seed_plays_on_like_the_original(name: str) -> None:
    # Without decks, replay draws every card from the seeded generator, so the
    # replayed game's generator is where the original's is.
    game = play_steps(Game(name, seed=11), random.Random(11), 37)
    again = round_trip(record_of(game, decks=False))
    for g in (game, again):
        play_steps(g, random.Random(99), 300)
    assert again.to_json() == game.to_json()


def test_replay_ignores_the_global_generator() -> None:
    game = play_match(Game("huit-americain", seed=5), random.Random(5))
    text = record_of(game, decks=False).dumps()
    random.seed(1)
    first = replay(load_record(text)).to_json()
    random.seed(2)
    second = replay(load_record(text)).to_json()
    assert first == second == game.to_json()


def test_a_deck_overrides_the_seed() -> None:
    game = play_match(Game("classic", 3, seed=8), random.Random(8))
    data = record_of(game).to_json()
    data["seed"] = 12345  # every card is scripted, so the seed does not matter
    assert replay(load_record(data)).to_json() == game.to_json()


def test_dumps_is_stable_and_loads_back() -> None:
    game = play_steps(Game("les-huit", seed=4), random.Random(4), 300)
    record = record_of(game, meta={"players": ["Ann", "Bob", "Cy", "Di"]})
    text = record.dumps()
    loaded = load_record(text)
    assert loaded == record
    assert loaded.dumps() == text
    assert json.loads(text) == record.to_json()
    assert json.loads(text)["format"] == "eights-record/1"
    assert loaded.meta == {"players": ["Ann", "Bob", "Cy", "Di"]}
    # One round per line.
    assert len(text.splitlines()) == len(record.rounds) + 2


def test_load_record_from_a_path_and_from_path_text(tmp_path: Path) -> None:
    game = play_steps(Game("huit-fou", seed=2), random.Random(2), 100)
    record = record_of(game)
    path = tmp_path / "game.json"
    path.write_text(record.dumps(), "utf-8")
    assert load_record(path) == record
    assert load_record(str(path)) == record
    assert load_record(record.to_json()) == record


def test_on_step_sees_every_action_before_it_is_applied() -> None:
    game = play_match(Game("huit-fou", 3, seed=6), random.Random(6))
    record = record_of(game)
    seen: list[tuple[int, int, str, bool]] = []

    def step(g: Game, r: int, i: int, action: Action) -> None:
        seen.append((r, i, str(action), action in g.legal_actions()))

    replay(record, step)
    expected = [(r, i, str(a), True) for r, rnd in enumerate(record.rounds)
                for i, a in enumerate(rnd.actions)]
    assert seen == expected


def test_inline_rules_table_replays() -> None:
    spec = {"extends": "huit-americain", "jokers": 2}
    game = play_match(Game(spec, seed=9), random.Random(9))
    record = record_of(game)
    assert record.rules == spec
    data = json.loads(record.dumps())
    assert data["rules"] == {"extends": "huit-americain", "jokers": 2}
    again = replay(load_record(data))
    assert again.rules.jokers == 2
    assert again.to_json() == game.to_json()
    assert record_of(again).dumps() == record.dumps()


def test_handwritten_record_with_inline_rules_replays() -> None:
    data = base_record(rules={"extends": "huit-americain", "jokers": 2}, players=3, seed=21)
    game = Game({"extends": "huit-americain", "jokers": 2}, 3, seed=21)
    actions: list[str] = []
    rng = random.Random(0)
    for _ in range(30):
        action = rng.choice(game.legal_actions())
        actions.append(str(action))
        game.apply(action)
        if game.over:
            break
    data["rounds"] = [{"actions": actions}]
    again = replay(load_record(json.dumps(data)))
    assert again.to_json() == game.to_json()
    assert sum(c == 52 for c in again.stock) + sum(
        c == 52 for h in again.hands for c in h) + sum(c == 52 for c in again.discard) == 2


def test_rules_file_path_replays(tmp_path: Path) -> None:
    house = tmp_path / "house.toml"
    house.write_text('extends = "classic"\ntarget = 60\n[cards.Q]\nskip = true\n', "utf-8")
    game = play_match(Game(str(house), seed=3), random.Random(3))
    record = record_of(game)
    assert record.rules == str(house)
    assert round_trip(record).to_json() == game.to_json()


def test_game_built_from_a_rules_object_records_a_replayable_spec() -> None:
    custom = load_rules("huit-fou", ["hand_limit=9"])
    game = play_steps(Game(custom, seed=4), random.Random(4), 200)
    again = round_trip(record_of(game))
    assert again.rules == custom
    assert again.to_json() == game.to_json()
    preset = play_steps(Game(load_rules("classic"), seed=4), random.Random(4), 50)
    assert record_of(preset).rules == "classic"


# --------------------------------------------------------------------------- illegal actions


def illegal_at(game: Game) -> Action:
    """A well-formed action that is not legal for ``game`` now."""
    legal = set(game.legal_actions())
    for text in ("take", "pass", "draw", *(str(c) for c in game.hands[(game.to_move + 1) % game.n])):
        action = Action.parse(text)
        if action not in legal:
            return action
    raise AssertionError("no illegal action found")


@pytest.mark.parametrize("name", PRESETS)
def test_illegal_action_is_a_replay_error_with_round_and_index(name: str) -> None:
    game = Game(name, seed=17)
    rng = random.Random(17)
    for _ in range(7):
        game.apply(rng.choice(game.legal_actions()))
    assert not game.over
    bad = illegal_at(game)
    record = record_of(game).to_json()
    record["rounds"][0]["actions"].append(str(bad))
    record["rounds"][0]["actions"].append("draw")  # never reached
    with pytest.raises(ReplayError) as info:
        replay(load_record(record))
    err = info.value
    assert isinstance(err, IllegalActionError)
    assert err.round == 1
    assert err.index == 7
    legal = tuple(str(a) for a in game.legal_actions())
    assert err.legal == legal
    message = str(err)
    assert "round 1" in message and "action 7" in message and str(bad) in message
    for text in legal:
        assert text in message
    assert f"seat {game.to_move}" in message


def test_illegal_action_in_a_later_round() -> None:
    game = Game("huit-fou", 2, seed=3)
    rng = random.Random(3)
    while game.round < 2:
        if game.over:
            game.next_round()
        else:
            game.apply(rng.choice(game.legal_actions()))
    for _ in range(3):
        game.apply(rng.choice(game.legal_actions()))
    assert not game.over
    bad = illegal_at(game)
    record = record_of(game).to_json()
    record["rounds"][1]["actions"].append(str(bad))
    with pytest.raises(ReplayError) as info:
        replay(load_record(record))
    assert (info.value.round, info.value.index) == (2, 3)
    assert "round 2" in str(info.value)


def test_action_after_the_round_is_over() -> None:
    game = play_match(Game("openspiel", seed=1), random.Random(1))
    record = record_of(game).to_json()
    n = len(record["rounds"][-1]["actions"])
    record["rounds"][-1]["actions"].append("pass")
    with pytest.raises(ReplayError) as info:
        replay(load_record(record))
    assert info.value.index == n
    assert info.value.legal == ()
    assert "over" in str(info.value)


def test_replay_error_is_caught_as_illegal_action_error() -> None:
    game = Game("classic", 2, seed=1)
    bad = illegal_at(game)
    record = load_record(base_record(rounds=[{"actions": [str(bad)]}]))
    with pytest.raises(IllegalActionError):
        replay(record)


def test_round_that_ends_too_early_and_round_after_the_match() -> None:
    game = play_match(Game("huit-americain", 2, seed=2), random.Random(2))
    assert game.round >= 2
    data = record_of(game).to_json()
    short = json.loads(json.dumps(data))
    short["rounds"][0]["actions"].pop()
    with pytest.raises(RecordError, match=r"rounds\[0\]"):
        replay(load_record(short))
    extra = json.loads(json.dumps(data))
    extra["rounds"].append({"actions": []})
    with pytest.raises(RecordError, match=rf"rounds\[{game.round}\]"):
        replay(load_record(extra))


# --------------------------------------------------------------------------- malformed records


def test_wrong_format_string() -> None:
    message = record_error(base_record(format="eights-record/2"))
    assert "'format'" in message and "eights-record/2" in message and "eights-record/1" in message


def test_missing_format() -> None:
    data = base_record()
    del data["format"]
    assert "'format'" in record_error(data)


@pytest.mark.parametrize("key", ["players", "dealer", "seed", "rounds"])
def test_missing_field(key: str) -> None:
    data = base_record()
    del data[key]
    message = record_error(data)
    assert repr(key) in message and "missing" in message


@pytest.mark.parametrize("value", ["2", 2.0, True, None, [2]])
def test_players_not_an_int(value: object) -> None:
    message = record_error(base_record(players=value))
    assert "'players'" in message and repr(value) in message and "whole number" in message


@pytest.mark.parametrize(
    ("key", "value"), [("dealer", False), ("dealer", "0"), ("seed", 1.5), ("seed", True)]
)
def test_dealer_and_seed_not_ints(key: str, value: object) -> None:
    message = record_error(base_record(**{key: value}))
    assert repr(key) in message and repr(value) in message


@pytest.mark.parametrize("value", [5, ["classic"], None, True])
def test_rules_of_wrong_type(value: object) -> None:
    message = record_error(base_record(rules=value))
    assert "'rules'" in message and "preset name" in message and "inline table" in message


def test_unknown_top_level_field() -> None:
    message = record_error(base_record(colour="red"))
    assert "'colour'" in message
    for known in ("format", "rules", "players", "dealer", "seed", "rounds", "meta"):
        assert known in message


@pytest.mark.parametrize("value", [{}, "7h draw", 3])
def test_rounds_not_a_list(value: object) -> None:
    message = record_error(base_record(rounds=value))
    assert "'rounds'" in message and "list" in message


def test_empty_rounds() -> None:
    message = record_error(base_record(rounds=[]))
    assert "'rounds'" in message and "empty" in message


@pytest.mark.parametrize(
    ("rnd", "field"),
    [
        ("7h", "rounds[0]"),
        ({"actions": [], "moves": []}, "rounds[0]"),
        ({"deck": []}, "rounds[0].actions"),
        ({"actions": "7h draw"}, "rounds[0].actions"),
        ({"actions": ["7h", 3]}, "rounds[0].actions"),
        ({"actions": [], "deck": "7h 8h"}, "rounds[0].deck"),
    ],
)
def test_malformed_round(rnd: object, field: str) -> None:
    message = record_error(base_record(rounds=[rnd]))
    assert repr(field) in message, message


def test_action_that_does_not_parse() -> None:
    message = record_error(base_record(rounds=[{"actions": ["draw", "8h=z"]}]))
    assert "rounds[0].actions" in message
    assert "'8h=z'" in message
    assert "draw, pass, take" in message


def test_action_that_does_not_parse_in_a_later_round() -> None:
    message = record_error(base_record(rounds=[{"actions": []}, {"actions": ["dra"]}]))
    assert "rounds[1].actions" in message and "'dra'" in message


def test_deck_card_that_does_not_parse() -> None:
    message = record_error(base_record(rounds=[{"deck": ["7h", "1h"], "actions": []}]))
    assert "rounds[0].deck" in message
    assert "'1h'" in message


def test_meta_must_be_an_object() -> None:
    message = record_error(base_record(meta=["Ann"]))
    assert "'meta'" in message


def test_meta_is_ignored_by_replay() -> None:
    plain = replay(load_record(base_record()))
    tagged = replay(load_record(base_record(meta={"date": "today"})))
    assert plain.to_json() == tagged.to_json()


def test_deck_card_not_in_the_stock_during_the_deal() -> None:
    # One deck: a second 7h cannot leave the stock.
    record = load_record(base_record(rounds=[{"deck": ["7h", "7h"], "actions": []}]))
    with pytest.raises(RecordError) as info:
        replay(record)
    message = str(info.value)
    assert "7h" in message and "not in the stock" in message
    assert "rounds[0].deck" in message, message


def test_deck_card_not_in_the_stock_in_a_later_round() -> None:
    game = play_match(Game("huit-americain", 2, seed=2), random.Random(2))
    assert game.round >= 2
    data = record_of(game).to_json()
    deck = data["rounds"][1]["deck"]
    deck[1] = deck[0]
    with pytest.raises(RecordError) as info:
        replay(load_record(data))
    message = str(info.value)
    assert "not in the stock" in message
    assert "rounds[1].deck" in message, message


def test_deck_card_not_in_the_stock_when_drawing() -> None:
    # Classic lets a player draw at any time (CL5). Script the first draw to be
    # the starter, which lies on the discard pile, not in the stock.
    game = Game("classic", 2, seed=1)
    starter = str(game.up_card)
    game.apply("draw")
    data = record_of(game).to_json()
    deck = data["rounds"][0]["deck"]
    assert len(deck) == 2 * 7 + 1 + 1 and deck[14] == starter
    deck[15] = starter
    with pytest.raises(RecordError) as info:
        replay(load_record(data))
    message = str(info.value)
    assert "rounds[0].deck" in message and starter in message and "not in the stock" in message


def test_scripted_deck_is_the_deal_then_the_starter() -> None:
    deal = ["Ac", "2c", "3c", "4c", "5c", "6c", "7c", "Ad", "2d", "3d", "4d", "5d", "6d", "7d"]
    record = load_record(base_record(rounds=[{"deck": [*deal, "9h"], "actions": []}]))
    game = replay(record)
    # Seat 1 (left of dealer 0) is dealt first, one card at a time.
    assert sorted(game.hand(1)) == sorted(Card.parse(t) for t in deal[0::2])
    assert sorted(game.hand(0)) == sorted(Card.parse(t) for t in deal[1::2])
    assert str(game.up_card) == "9h"


def test_record_that_cannot_start() -> None:
    for changes in ({"players": 99}, {"dealer": 5}, {"rules": "no-such-preset"},
                    {"rules": {"extends": "classic", "jokers": 2}}):
        record = load_record(base_record(**changes))
        with pytest.raises(RecordError):
            replay(record)


def test_invalid_json_text() -> None:
    message = record_error('{"format": "eights-record/1", ')
    assert "not valid JSON" in message


def test_json_that_is_not_an_object(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text("[1, 2]", "utf-8")
    message = record_error(path)
    assert "JSON object" in message


def test_invalid_json_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{ nope", "utf-8")
    assert "not valid JSON" in record_error(path)


def test_unreadable_path(tmp_path: Path) -> None:
    missing = tmp_path / "missing.json"
    message = record_error(missing)
    assert str(missing) in message and "cannot read" in message
    message = record_error(str(missing))
    assert str(missing) in message
    assert "cannot read" in record_error(tmp_path)  # a directory


def test_record_values_are_plain() -> None:
    record = Record("classic", 2, 0, 1, (RoundRecord((Action.parse("draw"),)),))
    assert record.to_json() == {
        "format": "eights-record/1", "rules": "classic", "players": 2, "dealer": 0, "seed": 1,
        "rounds": [{"actions": ["draw"]}],
    }
