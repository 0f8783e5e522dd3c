"""House rules over the API, and practice (hint and undo) at a table of one person and bots.

A rules object makes the same table as the rules file with its keys (checked by the same
loader, never read from disk), an oversized or malformed one is refused in the rules' own
words with nothing stored, the form's check and schema speak both languages, and every
field of the rules is in the form. Practice: a hint reads only the seat's observation and
is written in ``meta.hints``; an undo takes back the person's last decision and what
followed, keeps the record replayable and is written in ``meta.undos``; neither is offered
to a table of two people.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import fields
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eights.engine.record import load_record, replay
from eights.engine.rules import CardRule, Rules, load_rules
from eights.i18n import translator
from eights.i18n.explain import describe
from eights.i18n.fields import CARD_FIELDS, GROUPS
from eights.server import create_app
from eights.server.house import RULES_BYTES, house_rules
from eights.server.store import Store
from postgres import BACKENDS, database_url
from test_server import Message, Peer, create, hub_of, room_of, start_table

HOUSE = {
    "extends": "switch",
    "title": "Kitchen Switch",
    "jokers": 1,
    "draw": "until-playable",
    "target": 3,
    "cards": {"2": {"stack_with": ["2", "X"]}, "X": {"draw": 4}, "Q": {"skip": True}},
}
"""Five rules changed from switch (one a list: ``stack_with``) and a target."""

HOUSE_TOML = """\
extends = "switch"
title = "Kitchen Switch"
jokers = 1
draw = "until-playable"
target = 3

[cards.2]
stack_with = ["2", "X"]

[cards.X]
draw = 4

[cards.Q]
skip = true
"""


def practice_client(db: str) -> TestClient:
    """The app with its bots and hints in threads, a hint on few worlds (the hint's own
    search is the terminal's, tested in tests/test_review.py)."""
    client = TestClient(create_app(db, bot_delay=0.0, testing_fixed_seeds=True,
                                   bot_pool="threads"))
    hub_of(client).thinker.hint_worlds = 16
    return client


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    return practice_client(f"sqlite:///{tmp_path / 'server.sqlite3'}")


def stored_tables(client: TestClient) -> int:
    store: Store = hub_of(client).store
    return len(store.load_open())


def test_a_rules_object_makes_the_same_table_as_the_file(client: TestClient,
                                                         tmp_path: Path) -> None:
    path = tmp_path / "house.toml"
    path.write_text(HOUSE_TOML, "utf-8")
    with client:
        made = create(client, rules=HOUSE, players=3, bots={"1": "greedy", "2": "learned"})
        code = made["code"]
        room = room_of(client, code)
        assert room.rules.to_table() | {"name": "house"} == load_rules(path).to_table()
        assert made["table"]["house_rules"] is True and made["table"]["rules"] == "switch"
        for lang in ("en", "fr"):
            words = client.get(f"/api/tables/{code}/rules?lang={lang}").json()
            said = describe(load_rules(path), translator(lang))
            assert words["words"][1:] == said[1:]  # the first line names the file: house
            assert words["house"] == HOUSE
        rules = client.get(f"/api/tables/{code}/rules").json()
        assert load_rules(_as_file(tmp_path, rules["toml"])).to_table() == (
            room.rules.to_table() | {"name": "copy"})
        assert "Stacks with: 2, X" in " | ".join(rules["changes"])
    # Restored from the database by another server process: the same rules.
    again = practice_client(hub_of(client).store.url)
    with again:
        assert room_of(again, code).rules == room.rules


def _as_file(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "copy.toml"
    path.write_text(text, "utf-8")
    return path


@pytest.mark.parametrize(("rules", "words"), [
    ({"extends": "switch", "cards": {"2": {"stack_with": ["Jc"]}}},
     "inline rules: cards.2.stack_with lists Jc, which has no 'draw'"),
    ({"extends": "classic", "jokers": "two"}, "inline rules: key 'jokers' has bad value 'two'"),
    ({"extends": "classic", "jokers": 9}, "key 'jokers' has bad value 9; allowed on this "
                                          "server: at most 4"),
    ({"extends": "classic", "cards": {"8": {"draw": 11}}}, "at most 10"),
    ({"extends": "../../etc/passwd"}, "key 'extends' must name a preset"),
    ({"extends": "classic", "jokre": 1}, "unknown key 'jokre'; did you mean 'jokers'?"),
    ({"extends": "classic", "cards": {"8": {"not_on": [["2"]]}}}, "nested 5 levels deep"),
    ({"extends": "classic", "source": "x" * RULES_BYTES}, f"at most {RULES_BYTES} bytes"),
    ({"extends": "classic", "points": {r: 1 for r in "A23456789TJQK"} | {
        f"x{i}": i for i in range(600)}}, "holds at most 600"),
    ({"extends": "classic", "target": 0, "rounds": 0}, "would never end"),
])
def test_a_bad_rules_object_is_refused_in_the_rules_words_and_nothing_is_stored(
        client: TestClient, rules: dict[str, Any], words: str) -> None:
    with client:
        answer = client.post("/api/tables", json={"rules": rules})
        assert answer.status_code == 400, answer.text
        assert words in answer.json()["message"]
        assert stored_tables(client) == 0


def test_overrides_go_with_a_preset_and_lists_with_an_object(client: TestClient) -> None:
    with client:
        answer = client.post("/api/tables", json={"rules": HOUSE, "overrides": {"jokers": 2}})
        assert answer.status_code == 400
        assert "put the fields in the object" in answer.json()["message"]
        answer = client.post("/api/tables", json={"rules": "classic",
                                                  "overrides": {"cards.8.stack_with": "2"}})
        assert "in a rules object" in answer.json()["message"]


def test_the_form_checks_an_object_or_a_file_in_both_languages(client: TestClient) -> None:
    with client:
        bad = client.post("/api/rules/check", json={
            "rules": {"extends": "switch", "cards": {"2": {"stack_with": ["Jc"]}}}}).json()
        assert bad == {"ok": False, "field": "cards.2.stack_with", "error": bad["error"]}
        assert "Jc, which has no 'draw'" in bad["error"]
        good = client.post("/api/rules/check", json={"toml": HOUSE_TOML, "lang": "fr"}).json()
        assert good["ok"] and good["rules"] == HOUSE
        assert good["words"] == describe(house_rules(HOUSE), translator("fr"))
        assert "Jokers par jeu\u00a0: 1" in good["changes"]
        broken = client.post("/api/rules/check", json={"toml": "jokers = "}).json()
        assert not broken["ok"] and "not valid TOML" in broken["error"]
        both = client.post("/api/rules/check", json={"rules": HOUSE, "toml": HOUSE_TOML})
        assert both.status_code == 400


def test_the_form_offers_every_field_of_the_rules_once(client: TestClient) -> None:
    offered = [key for _id, _title, keys in GROUPS for key in keys]
    expected = {f.name for f in fields(Rules) if f.init and f.name != "card_tables"}
    assert sorted(offered) == sorted(expected)
    assert sorted(CARD_FIELDS) == sorted(f.name for f in fields(CardRule))
    with client:
        for lang in ("en", "fr"):
            schema = client.get(f"/api/rules/schema?lang={lang}").json()
            keys = [f["key"] for g in schema["groups"] for f in g["fields"]]
            assert sorted(keys) == sorted(expected)
            for field in [f for g in schema["groups"] for f in g["fields"]] + schema["card_fields"]:
                assert field["label"] and field["about"], field
                if field["kind"] == "choice":
                    assert set(field["words"]) == set(field["choices"])
            assert schema["presets"]["switch"] == load_rules("switch").to_table()


def test_a_rematch_keeps_the_rules_object(client: TestClient) -> None:
    with client:
        made = create(client, rules={**HOUSE, "target": 1}, players=2, bots={"1": "greedy"},
                      name="Ana", seed=3)
        with client.websocket_connect(f"/ws/tables/{made['code']}") as ws:
            ana = Peer(ws, made["token"])
            ana.hello()
            ana.send("start", token=made["host_token"])
            rng = random.Random(1)
            while True:
                msg = ana.recv()
                if msg["type"] != "state":
                    continue
                view = msg["view"]
                if view["match_over"]:
                    break
                if view["round_over"]:
                    ana.send("next_round", token=ana.token, version=msg["version"])
                elif view["to_play"] == ana.seat and view["legal"]:
                    ana.play(rng.choice(view["legal"]))
            ana.send("rematch", token=ana.token)
            again = ana.until(lambda m: m["type"] == "rematch")
        assert room_of(client, again["code"]).house == {**HOUSE, "target": 1}


# --------------------------------------------------------------------------- practice


def practice(client: TestClient, stack: ExitStack, **body: Any) -> tuple[Message, Peer]:
    table, people = start_table(client, stack, **body)
    return table, people[0]


def newer(version: int) -> Callable[[Message], bool]:
    """A state newer than ``version``."""
    return lambda m: m["type"] == "state" and m["version"] > version


def my_turn(peer: Peer, after: int = -1) -> Message:
    """Wait for a state newer than version ``after`` where the person has a choice to make."""
    while not (peer.state and peer.version > after and peer.view["to_play"] == peer.seat
               and peer.view["legal"] and not peer.view["round_over"]):
        peer.recv()
    return peer.view


def test_hint_and_undo_at_a_practice_table_are_written_in_the_record(
        client: TestClient) -> None:
    with client, ExitStack() as stack:
        table, ana = practice(client, stack, rules="classic", players=3, seed=11, target=0,
                              rounds=1, bots={"1": "greedy", "2": "greedy"})
        code = table["code"]
        assert room_of(client, code).practice and ana.received[0]["table"]["practice"]
        view = my_turn(ana)
        seq = ana.send("hint", token=ana.token, version=ana.version)
        hint = ana.until(lambda m: m["type"] in ("hint", "error"), timeout=120)  # first: imports
        assert hint["type"] == "hint", hint
        assert hint["seq"] == seq and hint["text"].startswith(
            "Hint, your chance to win the round after each move")
        assert {o["action"] for o in hint["options"]} == set(view["legal"])
        assert hint["best"] == hint["options"][0]["action"]
        # The person plays, the bots answer; then the person takes it back.
        first = ana.version
        played = next(a for a in view["legal"] if a != "draw")
        ana.play(played)
        my_turn(ana, after=first)
        assert ana.version > first + 1
        before = [m for m in ana.received if m["type"] == "state" and m["version"] == first][-1]
        told = list(room_of(client, code).log_lines("en"))
        ana.send("undo", token=ana.token, version=ana.version)
        welcome = ana.until(lambda m: m["type"] == "welcome")
        state = ana.expect("state")
        assert state["view"] == before["view"]  # back where the decision was, exactly
        assert state["version"] > first  # the version never goes back
        room = room_of(client, code)
        assert room.meta["hints"] == [{"round": 1, "turn": len(view["history"])}]
        [undo] = room.meta["undos"]
        assert undo["round"] == 1 and undo["turn"] == len(view["history"])
        assert undo["actions"][0] == played
        assert welcome["log"] == told[:len(told) - len(undo["actions"])]  # the log rewritten
        # Play the round out; the record replays and carries the hints and undos.
        rng = random.Random(2)
        while not ana.view["match_over"]:
            now = ana.view
            if now["to_play"] == ana.seat and now["legal"] and not now["round_over"]:
                acted = ana.version
                ana.play(rng.choice(now["legal"]))
                ana.until(newer(acted))
            else:
                ana.recv()
        record = client.get(f"/api/tables/{code}/record").json()
        assert record["meta"]["hints"] == room.meta["hints"]
        assert record["meta"]["undos"] == room.meta["undos"]
        game = replay(load_record(record))
        assert game.scores == room.game.scores


@pytest.fixture(params=BACKENDS)
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """SQLite, and PostgreSQL (a fresh schema) where the tests have one."""
    with database_url(request.param, str(tmp_path / "server.sqlite3")) as url:
        yield url


def test_house_rules_hints_and_undos_are_read_again_after_a_restart(db: str) -> None:
    """What a practice table changed is in the database: another process (a restart) reads
    the same rules object, hints, undos and version, and the game replays to the same view."""
    client = practice_client(db)
    with client, ExitStack() as stack:
        table, ana = practice(client, stack, rules={**HOUSE, "target": 50}, players=2, seed=5,
                              bots={"1": "greedy"})
        view = my_turn(ana)
        ana.send("hint", token=ana.token, version=ana.version)
        ana.until(lambda m: m["type"] in ("hint", "error"), timeout=120)
        first = ana.version
        ana.play(next(a for a in view["legal"] if a != "draw"))
        my_turn(ana, after=first)
        ana.send("undo", token=ana.token, version=ana.version)
        ana.until(newer(ana.version))
        version, game_view = ana.version, ana.view
        before = room_of(client, table["code"])
        meta, rules = dict(before.meta), before.rules
    again = practice_client(db)
    with again:
        room = room_of(again, table["code"])
        assert room.rules == rules and room.house == {**HOUSE, "target": 50}
        assert room.meta == meta and meta["hints"] and meta["undos"]
        assert room.version == version
        assert room.view(0) == game_view


def test_hint_and_undo_are_refused_at_a_table_of_two_people(client: TestClient) -> None:
    with client, ExitStack() as stack:
        table, people = start_table(client, stack, rules="classic", players=3, seed=2,
                                    target=50, bots={"2": "greedy"})
        assert not people[0].received[0]["table"]["practice"]
        ana = people[0]
        my_turn(ana)
        for kind in ("hint", "undo"):
            ana.send(kind, token=ana.token, version=ana.version)
            error = ana.error("bad_request")
            assert "for practice, a table of one person and bots; this table has 2 people" in (
                error["message"])
        assert not room_of(client, table["code"]).meta
