"""The review of a round on the server (POST /api/tables/CODE/review): only the seat's holder,
only a round that has ended, bounded work, and nothing beyond what the round's end shows."""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import multiprocessing
import os
import random
import threading
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from eights.engine.record import load_record
from eights.lab.review import MARKS, positions
from eights.server import create_app
from eights.server import review as server_review
from eights.server.protocol import ProtocolError
from eights.server.review import Reviewer, ReviewLimits, ReviewRequest, review_worker_started
from test_server import Peer, join, play_round, room_of, settled, start_table

Message = dict[str, Any]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'server.sqlite3'}", bot_delay=0.0,
                     testing_fixed_seeds=True, bot_pool="threads")
    reviewer = app.state.reviewer
    assert isinstance(reviewer, Reviewer)
    reviewer.limits = ReviewLimits(worlds=4)
    with TestClient(app) as c:
        yield c


@pytest.fixture
def stack() -> Iterator[ExitStack]:
    with ExitStack() as s:
        yield s


def reviewer_of(client: TestClient) -> Reviewer:
    reviewer = client.app.state.reviewer  # type: ignore[attr-defined]
    assert isinstance(reviewer, Reviewer)
    return reviewer


def ended_round(client: TestClient, stack: ExitStack, seed: int = 11
                ) -> tuple[Message, dict[int, Peer]]:
    """A classic table, Ana at seat 0 and Bob at seat 2 against two bots, round 1 over."""
    table, people = start_table(client, stack, rules="classic", players=4,
                                bots={"1": "greedy", "3": "expert"}, seed=seed)
    last = play_round(people, random.Random(seed))
    assert last["round_over"] and not last["match_over"]
    return table, people


def ask(client: TestClient, code: str, **body: Any) -> Any:
    return client.post(f"/api/tables/{code}/review", json=body)


def test_the_seat_holder_gets_the_review_of_a_round_that_ended(client: TestClient,
                                                                stack: ExitStack) -> None:
    table, people = ended_round(client, stack)
    code = table["code"]
    answer = ask(client, code, token=people[0].token, round=1, lang="fr")
    assert answer.status_code == 200, answer.text
    review = answer.json()
    assert review["seat"] == 0 and review["round"] == 1
    assert 0 <= review["accuracy"] <= 1 and review["mean_loss"] >= 0
    assert review["decisions"] and "Précision" in review["summary"]
    # only the seat's own decisions, and at each only the actions it could take then
    record = load_record(_record(client, code))
    legal = {(p.round, p.turn): {str(a) for a in p.observation.legal}
             for p in positions(record, [0], [1])}
    for d in review["decisions"]:
        assert d["mark"] in MARKS and d["mark_text"] and d["text"]
        assert {a["action"] for a in d["actions"]} == legal[(d["round"], d["turn"])]
        assert d["played"] in legal[(d["round"], d["turn"])]
    again = ask(client, code, token=people[0].token, round=1, lang="fr")
    assert again.json() == review  # kept: the same answer, nothing computed again
    bob = ask(client, code, token=people[2].token, round=1).json()
    assert bob["seat"] == 2


def _record(client: TestClient, code: str) -> Any:
    """The match so far as a record (the test's own look at the room, not an API)."""
    from eights.engine.record import record_of

    return record_of(room_of(client, code).game).to_json()


def test_another_seat_spectators_and_strangers_are_refused(client: TestClient,
                                                            stack: ExitStack) -> None:
    table, people = ended_round(client, stack)
    code = table["code"]
    other = ask(client, code, token=people[0].token, round=1, seat=2)
    assert other.status_code == 400 and other.json()["code"] == "bad_token"
    assert "your token holds seat 0" in other.json()["message"]
    host = ask(client, code, token=table["host_token"], round=1)  # the host holds no seat
    assert host.status_code == 400 and host.json()["code"] == "bad_token"
    assert "spectators cannot" in host.json()["message"]
    stranger = ask(client, code, token="x" * 32, round=1)
    assert stranger.json()["code"] == "bad_token"
    watcher = ask(client, code, round=1)  # a spectator has no token to send
    assert watcher.status_code == 422 and watcher.json()["code"] == "bad_message"
    assert "token" in watcher.json()["message"]
    missing = ask(client, "nosuchtable", token=people[0].token, round=1)
    assert missing.status_code == 404
    bad = ask(client, code, token=people[0].token, round=1, lang="de")
    assert bad.status_code == 400 and "languages are en, fr" in bad.json()["message"]


def test_a_round_in_play_is_refused(client: TestClient, stack: ExitStack) -> None:
    table, people = ended_round(client, stack)
    code = table["code"]
    ana = people[0]
    acted = ana.version
    ana.send("next_round", token=ana.token, version=acted)
    for p in people.values():
        p.until(settled(people, acted))
    playing = ask(client, code, token=ana.token, round=2)
    assert playing.status_code == 409 and playing.json()["code"] == "wrong_status"
    assert "round 2 is still being played" in playing.json()["message"]
    later = ask(client, code, token=ana.token, round=3)
    assert later.status_code == 400 and "rounds 1 to 2" in later.json()["message"]
    assert ask(client, code, token=ana.token, round=1).status_code == 200


def test_a_table_that_has_not_started_has_nothing_to_review(client: TestClient) -> None:
    made = client.post("/api/tables", json={"rules": "classic", "players": 2, "name": "Ana",
                                            "bots": {"1": "greedy"}}).json()
    waiting = ask(client, made["code"], token=made["token"], round=1)
    assert waiting.status_code == 409 and "has not started" in waiting.json()["message"]


def test_the_queue_is_bounded_and_a_table_reviews_one_round_at_a_time(
        client: TestClient, stack: ExitStack, monkeypatch: pytest.MonkeyPatch) -> None:
    first, people = ended_round(client, stack, seed=11)
    second, others = ended_round(client, stack, seed=12)
    reviewer = reviewer_of(client)
    reviewer.limits = ReviewLimits(worlds=4, queue=1)
    release = threading.Event()
    real = server_review.review_round

    def slow(*args: Any) -> Any:
        release.wait(10)
        return real(*args)

    monkeypatch.setattr(server_review, "review_round", slow)
    rooms = [room_of(client, first["code"]), room_of(client, second["code"])]

    async def both() -> list[Any]:
        one = asyncio.ensure_future(reviewer.review(
            rooms[0], ReviewRequest(token=str(people[0].token), round=1)))
        await asyncio.sleep(0.05)
        outcomes: list[Any] = []
        for room, token in ((rooms[1], others[0].token), (rooms[0], people[2].token)):
            try:
                await reviewer.review(room, ReviewRequest(token=str(token), round=1))
            except ProtocolError as exc:
                outcomes.append(exc)
        release.set()
        outcomes.append(await one)
        return outcomes

    full, busy, done = asyncio.run(both())
    assert full.code == "too_many" and "reviewing 1 rounds already" in full.message
    assert busy.code == "too_many" and "under way" in busy.message
    assert done["seat"] == 0


def test_a_table_has_a_budget_of_review_time(client: TestClient, stack: ExitStack) -> None:
    table, people = ended_round(client, stack)
    reviewer_of(client).limits = ReviewLimits(worlds=400, table_seconds=0.001)
    over = ask(client, table["code"], token=people[0].token, round=1)
    assert over.status_code == 429 and "more time than the table has left" in over.json()[
        "message"]
    spent = ask(client, table["code"], token=people[2].token, round=1)
    assert spent.status_code == 429 and "spent its review time" in spent.json()["message"]


def test_the_join_answer_token_is_what_a_review_takes(client: TestClient) -> None:
    made = client.post("/api/tables", json={"rules": "classic", "players": 2,
                                            "bots": {"1": "greedy"}, "seed": 3}).json()
    joined = join(client, made["code"], "Ana")
    assert ask(client, made["code"], token=joined["token"], round=1).status_code == 409


def test_an_asker_waits_a_bounded_time_and_the_review_is_kept_for_the_next_ask(
        client: TestClient, stack: ExitStack, monkeypatch: pytest.MonkeyPatch) -> None:
    table, people = ended_round(client, stack)
    reviewer = reviewer_of(client)
    reviewer.limits = ReviewLimits(worlds=4, wait=0.2)
    release = threading.Event()
    real = server_review.review_round

    def slow(*args: Any) -> Any:
        release.wait(10)
        return real(*args)

    monkeypatch.setattr(server_review, "review_round", slow)
    room = room_of(client, table["code"])
    request = ReviewRequest(token=str(people[0].token), round=1)

    async def twice() -> tuple[ProtocolError, Any]:
        try:
            await reviewer.review(room, request)
        except ProtocolError as exc:
            busy = exc
        release.set()
        for _ in range(200):  # the review goes on after its asker stopped waiting
            await asyncio.sleep(0.05)
            if reviewer.table(room.code).busy is False:
                break
        monkeypatch.setattr(server_review, "review_round", None)  # kept: nothing computed
        return busy, await reviewer.review(room, request)

    busy, kept = asyncio.run(twice())
    assert busy.code == "unavailable" and "the review goes on" in busy.message
    assert kept["seat"] == 0 and kept["round"] == 1


def test_a_review_worker_runs_below_the_tables_and_their_bots() -> None:
    """Reviews never slow a table: their worker runs at nice 19 in the idle scheduling
    class (Linux), below the bots' pool (nice 10) and the server."""
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(
            1, mp_context=context, initializer=review_worker_started) as pool:
        niceness = pool.submit(functools.partial(os.getpriority, os.PRIO_PROCESS, 0)).result()
        policy = pool.submit(functools.partial(os.sched_getscheduler, 0)).result()
    assert niceness == 19
    assert policy == os.SCHED_IDLE
