"""The family through the server: plays of several cards, a starter's suit named, players out.

Whole matches of the new presets are played by people over the protocol (and
bots beside them), then every event each client received is scanned for
cards it may not see (:func:`test_server_security.scan`); a second server on
the same database resumes a table exactly, mid-round, with multi-card plays
in its history or players already out. Rule IDs are those of docs/rules.md.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eights import Card, Game, load_rules
from eights.engine.record import load_record, replay
from eights.server import Limits
from eights.server.room import Room
from postgres import BACKENDS, database_url
from test_server import (
    Message,
    Peer,
    create,
    hub_of,
    make_client,
    pick,
    play_round,
    room_of,
    settled,
    start_table,
)
from test_server_security import scan, timeline


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'server.sqlite3'}"


FAST = Limits(messages_per_second=1000.0, message_burst=1000, tables_per_address=50)
"""People here play whole matches as fast as the server answers."""


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with make_client(db, limits=FAST) as c:
        yield c


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    with ExitStack() as s:
        yield s


def first_seed(rules: str, overrides: dict[str, Any], players: int, accept: Any) -> int:
    """The first seed whose deal (as the server deals it: seat 0 plays first) ``accept``s."""
    loaded = load_rules(rules, overrides)
    for seed in range(2000):
        if accept(Game(loaded, players, seed=seed, dealer=players - 1)):
            return seed
    raise AssertionError(f"no seed of {rules} {overrides} fits")


def pick_family(legal: list[str], rng: random.Random) -> str:
    """A person who likes the new plays: several cards at once, and the calls."""
    multi = [a for a in legal if "+" in a]
    if multi and rng.random() < 0.7:
        return rng.choice(multi)
    called = [a for a in legal if a.endswith("!")]
    if called and rng.random() < 0.8:
        return rng.choice(called)
    return pick(legal, rng)


# --------------------------------------------------------------------------- single moves


def test_sw3_a_play_of_three_cards_goes_through_the_server(client: TestClient,
                                                           stack: ExitStack) -> None:
    """SW3, SW5: ``2c+2h+2s`` is one action; its cards leave the hand, the top card is the
    up-card, and the draws add up for the next player."""
    seed = first_seed("switch", {}, 2, lambda g: any(len(a.cards) == 3 for a in g.legal_actions()))
    _table, people = start_table(client, stack, rules="switch", players=2, seed=seed)
    ana, bob = people[0], people[1]
    triple = next(a for a in ana.view["legal"] if a.count("+") == 2)
    assert len(triple) > 6
    cards = triple.split("=")[0].rstrip("!").split("+")
    hand = list(ana.view["hand"])
    acted = ana.version
    ana.play(triple)
    state = ana.until(lambda m: m["type"] == "state" and m["version"] > acted)
    view = state["view"]
    assert state["last"]["action"] == triple and view["history"][-1] == [0, triple]
    assert sorted(view["hand"]) == sorted(c for c in hand if c not in cards)
    assert view["up_card"] == cards[-1] and view["discard"][-3:] == cards
    bob_view = bob.until(lambda m: m["type"] == "state" and m["version"] > acted)["view"]
    if cards[0][0] == "2":  # SW5: three 2s make 6 for the next player
        assert bob_view["pending_draw"] == 6 and bob_view["to_play"] == 1
    assert bob_view["hand_sizes"][0] == len(hand) - 3


def test_sw3_a_play_of_several_cards_not_in_the_legal_list_is_refused(
        client: TestClient, stack: ExitStack) -> None:
    """A play of several cards the hand does not hold (or of two ranks) is illegal and changes
    nothing; the message lists the legal actions, the plays of several cards among them."""
    seed = first_seed("switch", {}, 2, lambda g: any(len(a.cards) > 1 for a in g.legal_actions()))
    table, people = start_table(client, stack, rules="switch", players=2, seed=seed)
    ana = people[0]
    room: Room = room_of(client, table["code"])
    before = (room.version, room.game.to_json())
    hand = ana.view["hand"]
    stranger = next(c for c in ("5c", "5d", "5h", "5s") if c not in hand)
    longest = "7c+7c+7c+7d+7d+7d+7h+7h+7h+7s=h!"  # read (not too long), then refused
    for action in (f"{hand[0]}+{stranger}", f"{hand[0]}+{hand[1]}+{hand[0]}", longest):
        ana.play(action)
        error = ana.recv()
        assert error["type"] == "error" and error["code"] in ("illegal", "bad_notation"), error
        assert "+" in error["message"].split("legal")[-1]
    assert (room.version, room.game.to_json()) == before
    ana.alive()


@pytest.mark.parametrize(("rules", "players", "namer"), [
    ("tschau-sepp", 2, 1),  # TS3: the dealer (seat 1, before seat 0 plays) names the suit
    ("uno-cards", 2, 0),  # UC3: the first player names it, then plays
])
def test_ts3_uc3_a_wild_starter_is_named_with_eq_s(client: TestClient, stack: ExitStack, rules: str,
                                                  players: int, namer: int) -> None:
    seed = first_seed(rules, {}, players, lambda g: g.naming)
    _table, people = start_table(client, stack, rules=rules, players=players, seed=seed)
    namer_peer, other = people[namer], people[1 - namer]
    view = namer_peer.view
    assert view["naming"] and view["to_play"] == namer
    assert view["legal"] == ["=c", "=d", "=h", "=s"]
    assert other.view["naming"] and other.view["legal"] == []
    acted = namer_peer.version
    namer_peer.play("=h")
    after = other.until(lambda m: m["type"] == "state" and m["version"] > acted)
    assert after["last"]["action"] == "=h" and after["view"]["suit"] == "h"
    assert not after["view"]["naming"] and after["view"]["to_play"] == 0
    assert after["view"]["history"] == [[namer, "=h"]]
    mine = namer_peer.until(lambda m: m["type"] == "state" and m["version"] > acted)["view"]
    if namer == 0:  # UC3: the first player then takes their turn
        assert mine["legal"] and not any(a.startswith("=") for a in mine["legal"])


def test_the_new_table_fields_may_be_set_per_table(client: TestClient) -> None:
    """SW3, TS11, TS12: multi_play, play_on and scoring are table overrides; the rules
    check their values."""
    made = create(client, rules="crazy-eights", players=3, bots={"1": "greedy", "2": "greedy"},
                  overrides={"multi_play": "same-rank", "play_on": True, "scoring": "placings"})
    assert made["table"]["overrides"] == {"multi_play": "same-rank", "play_on": True,
                                          "scoring": "placings"}
    rules = room_of(client, made["code"]).rules
    assert rules.play_on and rules.multi_play.value == "same-rank"
    words = client.get(f"/api/tables/{made['code']}/rules").json()
    assert words["multi_play"] and words["play_on"] and words["lowest_wins"]
    # BJ2's toggle: a card table's field, for one card
    seven = create(client, rules="black-jack", players=2, bots={"1": "greedy"},
                   overrides={"cards.Jc.draw": 7, "cards.Js.draw": 7})
    rules = room_of(client, seven["code"]).rules
    assert rules.rule_of(Card.parse("Js")).draw == 7 and rules.rule_of(Card.parse("Jh")).draw == 0
    refused = client.post("/api/tables", json={"rules": "switch", "overrides": {"multi_play": "any"}})
    assert refused.status_code == 400 and "multi_play" in refused.json()["message"]


def test_mm5_a_table_may_let_a_skip_be_passed_on(client: TestClient, stack: ExitStack) -> None:
    """MM5's toggle as a table field (``cards.8.pass_on``): the skipped seat sees
    ``skip_due`` and may pass the skip on with an 8 or accept it with ``pass``."""
    overrides = {"cards.8.pass_on": True}

    def skip_waits(game: Game) -> bool:
        for action in game.legal_actions():
            if action.card is not None and action.card.rank.letter == "8":
                after = game.clone()
                after.apply(action)
                if after.skip_due and any(a.card is not None for a in after.legal_actions()):
                    return True
        return False

    seed = first_seed("mau-mau", overrides, 2, skip_waits)
    table, people = start_table(client, stack, rules="mau-mau", players=2, overrides=overrides,
                                seed=seed)
    assert table["table"]["overrides"] == overrides
    ana, bob = people[0], people[1]
    eight = next(a for a in ana.view["legal"] if a.startswith("8"))
    acted = ana.version
    ana.play(eight)
    view = bob.until(lambda m: m["type"] == "state" and m["version"] > acted)["view"]
    assert view["skip_due"] == 1 and view["to_play"] == 1
    assert "pass" in view["legal"] and all(a[0] == "8" for a in view["legal"] if a != "pass")
    acted = bob.version
    bob.play(next(a for a in view["legal"] if a != "pass"))  # the skip falls back on Ana
    view = ana.until(lambda m: m["type"] == "state" and m["version"] > acted)["view"]
    assert view["to_play"] == 0 and view["skip_due"] == 1


@pytest.mark.parametrize(("overrides", "words"), [
    ({"cards.8.stack_with": "2"}, "cards.<rank or card>.<field>"),
    ({"cards.Z.skip": True}, "cannot be changed here"),
    ({"cards.Jc.draw": 11}, "at most 10"),
    ({"cards.8.pass_on": 1}, "pass_on"),
])
def test_card_fields_a_table_may_not_set(client: TestClient, overrides: dict[str, Any],
                                         words: str) -> None:
    refused = client.post("/api/tables", json={"rules": "mau-mau", "overrides": overrides})
    assert refused.status_code == 400 and words in refused.json()["message"], refused.json()


# --------------------------------------------------------------------------- whole matches

FAMILY: list[tuple[str, int, dict[str, str], dict[str, Any]]] = [
    # (preset, players, bots, overrides): single decks without jokers, so a card names its place
    ("switch", 4, {"1": "greedy"}, {"target": 3}),
    ("black-jack", 3, {"2": "expert"}, {"target": 2}),
    ("last-card", 3, {"1": "random"}, {"target": 2}),
    ("mau-mau", 3, {"2": "greedy"}, {"target": 120}),
    ("tschau-sepp", 4, {"1": "greedy"}, {"target": 4}),
    ("crazy-eights", 4, {"2": "expert"}, {"multi_play": "same-rank", "play_on": True,
                                         "scoring": "placings", "call_out": True, "target": 4}),
]


@pytest.mark.parametrize(("rules", "players", "bots", "overrides"), FAMILY,
                         ids=["switch", "black-jack", "last-card", "mau-mau", "tschau-sepp",
                              "crazy-eights+"])
def test_whole_family_matches_show_no_hidden_card(client: TestClient, stack: ExitStack, rules: str,
                                                  players: int, bots: dict[str, str],
                                                  overrides: dict[str, Any]) -> None:
    """Whole matches of the family, with plays of several cards (SW3), players out (TS11)
    and calls (MM9, TS10): no event shows a card of another hand or of the stock, and the
    record replays to the last state everyone saw."""
    loaded = load_rules(rules, overrides)
    assert loaded.decks_for(players) == 1 and loaded.jokers == 0
    rng = random.Random(11)
    table, people = start_table(client, stack, rules=rules, players=players, bots=bots,
                                overrides=overrides, seed=23)
    code = table["code"]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        watcher = Peer(ws)
        watcher.hello()
        watcher.expect("state")
        rounds = 0
        while True:
            last = play_round(people, rng, watchers=(watcher,), choose=pick_family)
            rounds += 1
            if last["match_over"]:
                break
            anyone = next(iter(people.values()))
            acted = anyone.version
            anyone.send("next_round", token=anyone.token, version=acted)
            for p in (*people.values(), watcher):
                p.until(settled(people, acted))
        assert room_of(client, code).status == "finished"
        record = client.get(f"/api/tables/{code}/record").json()
    snaps = timeline(record)
    checked = sum(scan(p.received, seat, snaps) for seat, p in people.items())
    checked += scan(watcher.received, None, snaps)
    assert checked > 20 * rounds
    game = replay(load_record(record))
    assert game.match_over
    for seat, p in people.items():
        assert game.observe(seat).to_json() == p.view
    states = [m["view"] for m in watcher.received if m["type"] == "state"]
    played = {a for v in states for _s, a in v["history"]}
    if loaded.multi_play.value != "none":  # SW3: some plays held several cards
        assert any("+" in a for a in played)
    if loaded.play_on:  # TS11: players left the round, in order, and the others played on
        assert any(len(v["finished"]) >= 2 for v in states)
        ended = [v for v in states if v["round_over"]]
        assert all(len(v["finished"]) >= 1 for v in ended)
    if loaded.call_out:  # MM9, TS10: a last card played with the call
        assert any(a.endswith("!") for a in played)


@pytest.mark.parametrize(("rules", "players", "bots", "overrides", "reached"), [
    ("switch", 3, {"2": "greedy"}, {}, lambda v: any("+" in a for _s, a in v["history"])),
    ("tschau-sepp", 3, {"2": "greedy"}, {}, lambda v: len(v["finished"]) >= 1),
    ("crazy-eights", 3, {"2": "greedy"}, {"play_on": True, "scoring": "placings",
                                          "multi_play": "same-rank"},
     lambda v: len(v["finished"]) >= 1 and any("+" in a for _s, a in v["history"])),
    ("switch", 2, {}, {"decks": 3, "hand_size": 12},
     lambda v: any(a.count("+") >= 3 for _s, a in v["history"])),
], ids=["switch", "tschau-sepp", "crazy-eights+", "switch-3-decks"])
@pytest.mark.parametrize("backend", BACKENDS)
def test_a_restart_resumes_a_family_table_exactly(backend: str, tmp_path: Path, stack: ExitStack,
                                                  rules: str, players: int, bots: dict[str, str],
                                                  overrides: dict[str, Any], reached: Any) -> None:
    """A second server on the same database (as after kill -9) replays the table: the same
    version and views, with the plays of several cards (SW3, four or more of a rank with
    three decks) and the players out (TS11); on SQLite and on PostgreSQL."""
    db = stack.enter_context(database_url(backend, str(tmp_path / "family.sqlite3")))
    first = stack.enter_context(make_client(db, limits=FAST))
    rng = random.Random(5)
    for seed in range(40):  # a deal whose round gets there before it ends
        table, people = start_table(first, stack, rules=rules, players=players, bots=bots,
                                    overrides=overrides, seed=seed)
        view = play_round(people, rng, choose=pick_family, stop=reached)
        if reached(view) and not view["round_over"]:
            break
    else:  # pragma: no cover - the message helps
        raise AssertionError("no round got there")
    code = table["code"]
    room = room_of(first, code)
    before = (room.version, room.status, room.game.to_json(),
              [room.game.observe(s).to_json() for s in range(room.n)])
    seen = {seat: p.state for seat, p in people.items()}
    hub_of(first).store.release()  # the system lets go of a killed server's claim
    with make_client(db, limits=FAST) as second, ExitStack() as sockets:
        restored = room_of(second, code)
        assert (restored.version, restored.status, restored.game.to_json(),
                [restored.game.observe(s).to_json() for s in range(restored.n)]) == before
        again: dict[int, Peer] = {}
        for seat, p in people.items():
            peer = Peer(sockets.enter_context(second.websocket_connect(f"/ws/tables/{code}")), p.token)
            assert peer.hello()["seat"] == seat
            state = peer.expect("state")
            assert state == {**(seen[seat] or {}), "last": None}
            again[seat] = peer
        last: Message = play_round(again, rng, choose=pick_family)
        assert last["round_over"]
        assert room_of(second, code).version > before[0]
