"""The browser table's files and words, without a browser: routes, headers, the catalog.

Every message id the page's scripts look up (``t("…")``, ``tn("…", "…")``)
must be one the server translates, or the French page would show English.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from eights.engine.cards import Rank
from eights.engine.game import Game
from eights.engine.rules import load_rules, preset_names
from eights.i18n import translator
from eights.i18n.explain import card_effects, match_goal
from eights.server import create_app
from eights.server.room import BOTS
from eights.server.web import MESSAGES, PLURALS, STATIC

ROOT = Path(__file__).parent.parent
SCRIPTS = sorted(STATIC.glob("*.js"))
STRING = r'"((?:[^"\\]|\\.)*)"'


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", bot_delay=0.0)) as client:
        yield client


def looked_up() -> tuple[set[str], set[str]]:
    singular: set[str] = set()
    plural: set[tuple[str, str]] = set()
    for script in SCRIPTS:
        text = script.read_text(encoding="utf-8")
        singular.update(re.findall(r"\bt\(\s*" + STRING, text))
        plural.update(re.findall(r"\btn\(\s*" + STRING + r",\s*" + STRING, text))
    return singular, {one for one, _many in plural}


def test_every_message_the_page_looks_up_is_in_the_catalog() -> None:
    singular, plural = looked_up()
    assert len(singular) > 60 and plural
    assert singular - set(MESSAGES) == set()
    assert plural - {one for one, _many in PLURALS} == set()
    # words chosen by key rather than written out: levels, statuses, ranks and suits
    for word in ("easy", "normal", "hard", "waiting", "playing", "finished", "closed", "queen",
                 "hearts"):
        assert word in MESSAGES


def test_the_words_of_the_page_come_from_the_catalogs(client: TestClient) -> None:
    fr = client.get("/api/i18n/fr").json()
    assert fr["lang"] == "fr"
    assert fr["messages"]["Draw"] == "Piocher"
    assert fr["messages"]["{rank} of {suit}"] == translator("fr")("{rank} of {suit}")
    assert fr["plurals"]["{n} card"] == ["{n} carte", "{n} cartes"]
    assert set(fr["messages"]) == set(MESSAGES)
    en = client.get("/api/i18n/en").json()
    assert all(text == key for key, text in en["messages"].items())
    assert en["plurals"]["{n} card"] == ["{n} card", "{n} cards"]
    missing = client.get("/api/i18n/de")
    assert missing.status_code == 404 and "languages are en, fr" in missing.json()["message"]


@pytest.mark.parametrize("path", ["/", "/t/AbC-12_x"])
def test_the_lobby_and_the_table_pages_are_the_same_file(client: TestClient, path: str) -> None:
    answer = client.get(path)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in answer.text
    policy = answer.headers["content-security-policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy


@pytest.mark.parametrize("name", ["app.js", "table.js", "plays.js", "lobby.js", "cards.js", "net.js",
                                  "i18n.js", "storage.js", "app.css", "favicon.svg"])
def test_the_static_files_are_served(client: TestClient, name: str) -> None:
    answer = client.get(f"/static/{name}")
    assert answer.status_code == 200 and answer.content == (STATIC / name).read_bytes()


def test_the_static_files_ship_with_the_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = config["tool"]["setuptools"]["package-data"]["eights"]
    assert "server/static/*" in data
    assert {p.name for p in STATIC.iterdir()} >= {"index.html", "app.js", "app.css"}
    assert all(p.is_file() for p in STATIC.iterdir())  # the glob takes files only


def test_the_rules_of_a_table_in_words_for_the_rules_panel(client: TestClient) -> None:
    made = client.post("/api/tables", json={"rules": "huit-americain", "players": 3,
                                            "overrides": {"target": 200}}).json()
    code = made["code"]
    rules = load_rules("huit-americain", {"target": 200})
    fr = client.get(f"/api/tables/{code}/rules?lang=fr").json()
    assert fr["specials"] == card_effects(rules, translator("fr"))
    assert any(line.startswith("Les valets") for line in fr["specials"])  # HA9: jacks reverse
    assert fr["goal"] == match_goal(rules, translator("fr")) and "200" in fr["goal"][1]
    assert fr["lowest_wins"] is True and fr["reverse"] is True and fr["target"] == 200
    assert fr["overrides"] == {"target": 200}
    assert fr["points"]["J"] == rules.points[Rank.JACK] and fr["points"]["T"] == 10
    en = client.get(f"/api/tables/{code}/rules").json()
    assert en["lang"] == "en" and en["specials"][-1].startswith("Jacks:")
    assert not any("oker" in line for line in en["specials"])  # huit-americain deals none
    classic = client.post("/api/tables", json={"rules": "classic", "players": 4}).json()
    words = client.get(f"/api/tables/{classic['code']}/rules?lang=en").json()
    assert words["lowest_wins"] is False and words["reverse"] is False
    assert words["scoring"] == "winner-collects" and words["blocked_scoring"] == "collect"
    assert client.get(f"/api/tables/{code}/rules?lang=de").status_code == 404
    assert client.get("/api/tables/nosuchtable00/rules").status_code == 404


def test_preset_titles_come_through_the_catalog(client: TestClient) -> None:
    fr = client.get("/api/i18n/fr").json()["presets"]
    en = client.get("/api/i18n/en").json()["presets"]
    assert set(fr) == set(en) == set(preset_names())
    assert en["classic"] == load_rules("classic").title
    assert fr["classic"] == translator("fr")(load_rules("classic").title) != en["classic"]


def test_a_reconnecting_client_gets_the_log_of_the_match_as_it_was_said(client: TestClient) -> None:
    made = client.post("/api/tables", json={"rules": "classic", "players": 2, "name": "Ana",
                                            "bots": {"1": "greedy"}}).json()
    code, token, host = made["code"], made["token"], made["host_token"]
    lines = ["Dealt: round 1."]
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.send_json({"type": "hello", "seq": 1, "token": token})
        welcome = ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["log"] == []  # not started yet
        ws.send_json({"type": "start", "seq": 2, "token": host})
        seq, moves = 3, 0
        while True:
            got = ws.receive_json()
            if got["type"] != "state":
                continue
            if got["last"]:
                lines.append(got["last"]["text"])
            view = got["view"]
            if view["to_play"] == 0 and view["legal"]:  # the bot waits for Ana: nothing moves
                if moves == 6:
                    break
                ws.send_json({"type": "action", "seq": seq, "token": token,
                              "action": view["legal"][0], "version": got["version"]})
                seq, moves = seq + 1, moves + 1
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.send_json({"type": "hello", "seq": 1, "token": token})
        assert ws.receive_json()["log"] == lines
    with client.websocket_connect(f"/ws/tables/{code}") as ws:  # a spectator, in French
        ws.send_json({"type": "hello", "seq": 1, "lang": "fr"})
        log = ws.receive_json()["log"]
        assert log[0] == translator("fr")("Dealt: round {n}.", n=1) and len(log) == len(lines)


def test_the_page_is_told_which_bots_the_server_seats(client: TestClient) -> None:
    answer = client.get("/api/presets").json()
    assert answer["bots"] == list(BOTS) and "ismcts" in answer["bots"]
    assert answer["levels"] == ["random", "greedy", "expert", "ismcts", "learned",
                                "ismcts:prior=learned"]  # the new-table form's, the terminal's
    fits = {p["name"]: p["bot_players"] for p in answer["presets"]}
    # the family model plays every table: no level is left out at any player count
    assert fits["classic"] == {} and fits["openspiel"] == {}


def receive(ws: Any, kind: str) -> dict[str, Any]:
    """The next event of this type on a connection (the others are passed over)."""
    for _ in range(50):
        got: dict[str, Any] = ws.receive_json()
        if got["type"] == kind:
            return got
    raise AssertionError(f"no {kind} event")  # pragma: no cover


def test_a_rematch_seats_the_people_connected_and_the_bots_at_a_new_table(tmp_path: Path) -> None:
    """The rematch message: only once the match is over, only with a seat's or the host's
    token, once per table; each person connected gets their new seat's token, the one who
    asked the new host token, a spectator the code; a person away leaves a free seat."""
    rules = load_rules("classic", {"hand_size": 1, "rounds": 1})
    seed = next(s for s in range(1, 100) if any(  # Ana goes out with her one card at once
        a.card is not None for a in Game(rules, 4, seed=s, dealer=3).legal_actions()))
    app = create_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", bot_delay=0.0, testing_fixed_seeds=True)
    with TestClient(app) as client:
        made = client.post("/api/tables", json={
            "rules": "classic", "players": 4, "name": "Ana", "bots": {"3": "greedy"}, "seed": seed,
            "overrides": {"hand_size": 1, "rounds": 1}, "title": "Once more"}).json()
        code = made["code"]
        bob = client.post(f"/api/tables/{code}/join", json={"name": "Bob"}).json()
        client.post(f"/api/tables/{code}/join", json={"name": "Cy"})  # Cy never connects
        with client.websocket_connect(f"/ws/tables/{code}") as ana_ws, \
                client.websocket_connect(f"/ws/tables/{code}") as bob_ws, \
                client.websocket_connect(f"/ws/tables/{code}") as watch_ws:
            ana_ws.send_json({"type": "hello", "seq": 1, "token": made["token"]})
            bob_ws.send_json({"type": "hello", "seq": 1, "token": bob["token"]})
            watch_ws.send_json({"type": "hello", "seq": 1})
            for ws in (ana_ws, bob_ws, watch_ws):
                receive(ws, "welcome")
            ana_ws.send_json({"type": "rematch", "seq": 2, "token": made["host_token"]})
            refused = receive(ana_ws, "error")
            assert refused["code"] == "wrong_status" and "not started" in refused["message"]
            ana_ws.send_json({"type": "start", "seq": 3, "token": made["host_token"]})
            view = receive(ana_ws, "state")["view"]
            card = next(a for a in view["legal"] if a != "draw")
            ana_ws.send_json({"type": "action", "seq": 4, "token": made["token"], "action": card,
                              "version": 0})
            while not receive(ana_ws, "state")["view"]["match_over"]:
                pass
            ana_ws.send_json({"type": "rematch", "seq": 5, "token": "not a token"})
            assert receive(ana_ws, "error")["code"] == "bad_token"
            ana_ws.send_json({"type": "rematch", "seq": 6, "token": made["token"]})
            mine, bobs, watched = (receive(ws, "rematch") for ws in (ana_ws, bob_ws, watch_ws))
            new = mine["code"]
            assert new != code and mine["invite"] == f"/t/{new}" == bobs["invite"] == watched["invite"]
            assert (mine["seat"], bobs["seat"]) == (0, 1) and mine["token"] != made["token"]
            assert "host_token" in mine and "host_token" not in bobs
            assert "token" not in watched and "seat" not in watched
            assert receive(watch_ws, "table")["table"]["rematch"] == new
            bob_ws.send_json({"type": "rematch", "seq": 2, "token": bob["token"]})
            again = receive(bob_ws, "error")
            assert again["code"] == "wrong_status" and new in again["message"]
        table = client.get(f"/api/tables/{new}").json()
        assert (table["rules"], table["overrides"], table["title"], table["status"]) == (
            "classic", {"hand_size": 1, "rounds": 1}, "Once more", "waiting")
        assert [(s["name"], s["kind"], s["bot"]) for s in table["seats"]] == [
            ("Ana", "person", None), ("Bob", "person", None), (None, "free", None),
            ("Bot 1", "bot", "greedy")]
        with client.websocket_connect(f"/ws/tables/{new}") as ws:  # Bob's new token is his seat
            ws.send_json({"type": "hello", "seq": 1, "token": bobs["token"]})
            assert receive(ws, "welcome")["seat"] == 1
            ws.send_json({"type": "seat_bot", "seq": 2, "token": mine["host_token"], "seat": 2})
            seats = receive(ws, "table")["table"]["seats"]
            assert [s["name"] for s in seats] == ["Ana", "Bob", "Bot 1", "Bot 2"]  # seat order
