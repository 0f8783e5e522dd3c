"""The review of a round on the server (POST /api/tables/CODE/review): only the seat's holder,
only a round that has ended, bounded work, and nothing beyond what the round's end shows."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import threading
import time
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
from eights.server.review import Reviewer, ReviewLimits, ReviewRequest
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


def test_the_queue_is_bounded_fair_between_people_and_a_table_reviews_one_round_at_a_time(
        client: TestClient, stack: ExitStack, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36 item 4: four reviews of one person's own tables filled the queue and refused a
    stranger's; now a person has one review under way at a time, and asking again for the same
    review waits for it (it said "under way")."""
    tables = [ended_round(client, stack, seed=s) for s in (11, 12, 13)]
    reviewer = reviewer_of(client)
    reviewer.limits = ReviewLimits(worlds=4, queue=2)
    release = threading.Event()
    real = server_review.review_round

    def slow(*args: Any) -> Any:
        release.wait(10)
        return real(*args)

    monkeypatch.setattr(server_review, "review_round", slow)
    rooms = [room_of(client, table["code"]) for table, _ in tables]
    seat0 = [str(people[0].token) for _, people in tables]

    async def asks() -> list[Any]:
        def ask(room: int, person: str, token: str | None = None) -> Any:
            return asyncio.ensure_future(reviewer.review(
                rooms[room], ReviewRequest(token=token or seat0[room], round=1), person))

        first = ask(0, "ana")
        await asyncio.sleep(0.05)
        outcomes: list[Any] = []
        for asked in (ask(1, "ana"), ask(0, "bob", str(tables[0][1][2].token)),
                      ask(2, "cy")):
            await asyncio.sleep(0.05)
            outcomes.append(asked.exception() if asked.done() else asked)
        dee = ask(1, "dee")  # the queue is full: Ana's and Cy's
        again = ask(0, "ana")  # the same review asked again: it waits for it
        await asyncio.sleep(0.05)
        outcomes.append(dee.exception())
        release.set()
        outcomes += [await first, await again, await outcomes.pop(2)]
        return outcomes

    mine, busy, full, first, again, stranger = asyncio.run(asks())
    assert mine.code == "too_many" and "you have a review under way" in mine.message
    assert busy.code == "too_many" and "a review of this table is under way" in busy.message
    assert full.code == "too_many" and "reviewing 2 rounds already" in full.message
    assert first["seat"] == 0 and again == first
    assert stranger["seat"] == 0 and stranger["round"] == 1


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
    class (Linux), below the bots' pool (nice 10) and the server. Read from outside the
    worker: in the idle class on a busy machine (the test suite's own workers) it may wait
    minutes for a processor to answer anything itself."""
    worker = subprocess.Popen([sys.executable, "-c",
                               "import time\n"
                               "from eights.server.review import review_worker_started\n"
                               "review_worker_started()\n"
                               "time.sleep(600)\n"])
    try:
        deadline = time.monotonic() + 120
        while os.sched_getscheduler(worker.pid) != os.SCHED_IDLE:
            assert worker.poll() is None, "the worker ended before it set its class"
            assert time.monotonic() < deadline, "the worker never entered the idle class"
            time.sleep(0.05)
        assert os.getpriority(os.PRIO_PROCESS, worker.pid) == 19
    finally:
        worker.kill()
        worker.wait()


def test_a_review_stops_at_its_cpu_cap_inside_a_decision(client: TestClient,
                                                           stack: ExitStack) -> None:
    """Issue 36 item 4: the cap was checked between decisions only, and one decision can cost
    minutes (8,683 legal moves ran 88 s against a 60 s cap). In a worker (here the test's own
    main thread), a CPU timer stops it at the next return of a compiled call."""
    table, _people = ended_round(client, stack)
    record = _record(client, table["code"])
    began = time.process_time()
    with pytest.raises(server_review._OverBudget):
        server_review.review_round(record, 0, 1, "en", 0.3, 200_000)  # minutes uncapped
    spent = time.process_time() - began
    assert spent < 1.5, f"the review ran {spent:.2f} s of CPU past its cap of 0.3 s"


def test_a_worker_past_its_cap_is_killed_by_the_server() -> None:
    """The cap holds even where the timer cannot act (a compiled call that does not return):
    the server watches the worker's CPU and kills it past the cap and a grace."""
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        async def watch() -> None:
            never: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            began = server_review.cpu_of(spinner.pid)
            await server_review.watched(never, spinner.pid, began, 0.3, grace=0.3)

        with pytest.raises(server_review._Killed):
            asyncio.run(asyncio.wait_for(watch(), 120))
        assert spinner.wait(10) == -signal.SIGKILL
    finally:
        spinner.kill()
        spinner.wait()


def test_decisions_with_too_many_moves_are_left_out_and_many_moves_get_fewer_worlds(
        client: TestClient, stack: ExitStack) -> None:
    """A decision's cost grows faster than its legal moves: past ``moves`` it is left out
    (listed in ``skipped``), and a round with only such decisions is refused in words."""
    table, _people = ended_round(client, stack)
    record = _record(client, table["code"])
    legal = [len(p.observation.legal) for p in positions(load_record(record), [0], [1])]
    cap = sorted(legal)[len(legal) // 2]
    review = server_review.review_round(record, 0, 1, "en", 60.0, 4, moves=cap)
    assert [d["legal"] for d in review["skipped"]] == [n for n in legal if n > cap]
    assert len(review["decisions"]) == sum(n <= cap for n in legal)
    assert all(len(d["actions"]) <= cap for d in review["decisions"])
    with pytest.raises(server_review._Unreviewable, match=f"more than 1 legal moves .the most: "
                       f"{max(legal)}.; this server reviews decisions of up to 1"):
        server_review.review_round(record, 0, 1, "en", 60.0, 4, moves=1)
    assert server_review.worlds_for(200, 4000, 64_000) == 320


def _proxy_timeouts() -> dict[Path, float]:
    """``timeout server`` of every proxy configuration the repository ships, in seconds."""
    root = Path(__file__).resolve().parents[1]
    found: dict[Path, float] = {}
    for path in [*root.glob("deploy/**/*.cfg"), *root.glob("src/eights/server/*.cfg"),
                 *root.glob("deploy/**/*.conf")]:
        for line in path.read_text(encoding="utf-8").splitlines():
            words = line.split()
            if words[:2] == ["timeout", "server"] or words[:1] == ["proxy_read_timeout"]:
                value = words[-1].rstrip(";")
                found[path] = float(value.rstrip("s")) * (60 if value.endswith("m") else 1)
    return found


def test_a_review_is_answered_by_the_server_before_any_shipped_proxy_gives_up() -> None:
    """Issue 36 item 5: HAProxy's ``timeout server 60s`` was below the review's 120 s wait, so
    a slow review came back as HAProxy's HTML 504; the server answers first, in JSON."""
    timeouts = _proxy_timeouts()
    assert timeouts, "no proxy configuration found"
    wait = ReviewLimits().wait
    for path, seconds in timeouts.items():
        assert wait + 5 <= seconds, f"{path}: the proxy gives up after {seconds:g} s, the " \
                                    f"review's asker waits {wait:g} s"
