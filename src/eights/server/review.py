"""The review of a finished round for the person who played it: ``POST /api/tables/{code}/review``.

A seat's holder (its token) asks for the review of a round of their table that has
ended; the search values each of their decisions in it from what they could see then
(:mod:`eights.lab.review`), and the answer lists them with their marks, the best
alternative and the largest mistakes in words. Nothing else may ask: a spectator has no
token, another seat's token reviews that seat only, and a round still being played is
refused (its review would tell which of the person's moves the other hands made better,
before those hands are shown). A review holds nothing the end of the round did not
already show: only the seat's own decisions, valued on sampled worlds.

Reviews never slow a table in play. They run in a pool of their own (one process by
default, spawned with the server, at the lowest priority: ``nice`` 19 and, on Linux, the idle
scheduling class, below the bots' pool at ``nice`` 10), so they take only the CPU the tables
and their bots leave idle; the event loop only waits (``benchmarks/review.py table`` measures
it). The worker loads (or, on a fresh install, compiles) the search's kernel as it starts, at
``nice`` 19 before it enters the idle class, so the first review does not wait for it; it dies
with its server, even one killed by ``kill -9`` (:func:`eights.server.thinking.die_with`).

The work is bounded (:class:`ReviewLimits`): at most ``queue`` reviews wait or run at once on
the server and one per person (their address), so that one person's rounds never keep
another's out; one at a time per table; each table has a budget of CPU seconds that refills
by the hour (spent: ``too_many``). Reviews run one at a time, in the order asked. A review's
CPU is capped inside its decisions too: a decision with more than ``moves`` legal moves is
left out (listed in ``skipped``), one with many is valued on fewer worlds
(``action_worlds``), a timer in the worker stops it at its cap between two compiled calls, and
the server kills the worker if its CPU runs past the cap anyway (a compiled call that does not
return): the cap holds, whatever the round. A review made is kept (the same seat, round and
language answer at once, for nothing), and asking again while it runs waits for the same one.
An asker waits ``wait`` seconds at most, less than every shipped proxy's timeout, so the
answer is always this server's JSON.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hmac
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import Any

import orjson
from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, ValidationError

from eights.engine.record import Record, record_of
from eights.i18n import LANGUAGES, translator
from eights.i18n.advice import review_json
from eights.lab.review import (
    QUALITIES,
    RULE,
    Position,
    SeatReview,
    evaluate_position,
    positions,
    review_bot,
)
from eights.server.limits import creator_key
from eights.server.protocol import Count, ErrorCode, ProtocolError, Token, describe_errors
from eights.server.room import Room, hash_token
from eights.server.thinking import Pool, die_with

__all__ = ["ReviewLimits", "ReviewRequest", "Reviewer", "add_review_routes", "cpu_of",
           "review_round", "review_worker_started", "warm_up", "watched", "worlds_for"]

log = logging.getLogger("eights.server")

QUALITY = "normal"
"""The quality of a server's reviews (:data:`eights.lab.review.QUALITIES`)."""
SEED = 0
"""Reviews are seeded: the same round reviewed twice reads the same."""


@dataclass(frozen=True, slots=True)
class ReviewLimits:
    """The bounds on reviews (tests shrink them)."""

    queue: int = 4
    """Reviews waiting or running at once on the server; more are refused (``too_many``)."""
    per_person: int = 1
    """Reviews one person (a client address) may have waiting or running at once."""
    table_seconds: float = 120.0
    """CPU seconds of review a table may spend, refilled over an hour."""
    review_seconds: float = 60.0
    """CPU seconds one review may take at most (it is cut off past them, inside a decision
    too: :data:`GRACE`)."""
    wait: float = 20.0
    """Wall-clock seconds an asker waits; past them the answer is ``unavailable`` (the
    server is busy with tables in play) and the review goes on, kept for the next ask. Below
    every shipped proxy's ``timeout server`` (30 s), so the answer is the server's JSON, not
    the proxy's page."""
    moves: int = 100
    """Most legal moves a decision may have to be valued; a decision with more is left out
    of the review (``skipped``): its cost grows faster than its moves."""
    action_worlds: int = 64_000
    """Legal moves times worlds a decision is valued on at most: a decision with many moves
    is valued on fewer worlds (4000 up to 16 moves at the ``normal`` quality, 640 at 100)."""
    kept: int = 256
    """Reviews kept for asking again."""
    worlds: int | None = None
    """Worlds per decision (default: :data:`QUALITY`'s)."""


class ReviewRequest(BaseModel):
    """``POST /api/tables/{code}/review``: the seat's token, the round (from 1), a language."""

    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True, strict=True)

    token: Token
    round: Count
    lang: str = "en"
    seat: Count | None = None
    """The seat to review: the token's own (another seat is refused); optional."""


class _OverBudget(Exception):
    """A review ran past its CPU seconds."""


class _Killed(_OverBudget):
    """A review's worker was killed by the server: it ran past its CPU seconds, the timer
    inside it notwithstanding (:func:`watched`)."""


class _Unreviewable(Exception):
    """A round the server does not review (its message says why)."""


GRACE = 2.0
"""CPU seconds past its cap that a review's worker may run (a compiled call under way) before
the server kills it."""
WATCH = 0.25
"""Seconds between two looks of the server at a running review's CPU."""


def review_worker_started(parent: int | None = None, warm: bool = False) -> None:
    """A review worker: below the server and its bots, so a table in play always goes first:
    ``nice`` 19, and on Linux the idle scheduling class (``SCHED_IDLE``: it runs only on a
    processor nothing else wants). With ``parent`` (the server), it dies with it, even by
    ``kill -9`` (:func:`die_with`). With ``warm``, it first loads the search's compiled
    kernel (:func:`warm_up`: compiled on a fresh install) at ``nice`` 19 only: a compilation
    done once, in the idle class, could wait for ever on a busy machine."""
    with contextlib.suppress(OSError):
        os.nice(19)
    if parent is not None:
        die_with(parent)
    if warm:
        try:
            warm_up()
        except Exception:  # the first review compiles, as before
            log.exception("the review worker could not load the search's kernel ahead")
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def warm_up() -> float:
    """Value one decision of a small classic round on 2 worlds: it loads (or compiles) what a
    review runs. The seconds it took."""
    from eights.engine.game import Game
    from eights.engine.rules import load_rules

    began = time.monotonic()
    game = Game(load_rules("classic"), 2, seed=1)
    while len(game.legal) < 2:
        game.push(game.legal[0])
    evaluate_position(Position(1, 0, game.observe(game.to_move), game.legal[0]), 2)
    return time.monotonic() - began


def worlds_for(moves: int, worlds: int, action_worlds: int) -> int:
    """The worlds a decision with ``moves`` legal moves is valued on: ``worlds``, fewer where
    ``moves`` times them would pass ``action_worlds`` (2 at least).

    >>> worlds_for(5, 4000, 64_000), worlds_for(32, 4000, 64_000), worlds_for(100, 4000, 64_000)
    (4000, 2000, 640)
    """
    return max(2, min(worlds, action_worlds // max(1, moves)))


def _on_cpu_cap(_signum: int, _frame: object) -> None:
    raise _OverBudget


def review_round(record: dict[str, Any], seat: int, round_no: int, lang: str,
                 seconds: float, worlds: int | None = None, moves: int = 100,
                 action_worlds: int = 64_000) -> dict[str, Any]:
    """The review of ``seat`` in round ``round_no`` of ``record`` (the rounds up to it), in
    ``lang``; it stops past ``seconds`` of CPU (:class:`_OverBudget`): between decisions, and
    inside one, in a worker process, by a CPU timer (``ITIMER_PROF``) whose signal ends the
    computation at the next compiled call's return. A decision with more than ``moves``
    legal moves is left out (``skipped``), and one with many is valued on fewer worlds
    (:func:`worlds_for`). Runs in the pool."""
    from eights.engine.record import load_record

    start = time.thread_time()
    timed = threading.current_thread() is threading.main_thread() and hasattr(signal,
                                                                              "setitimer")
    if timed:
        previous = signal.signal(signal.SIGPROF, _on_cpu_cap)
        signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        found = positions(load_record(record), [seat], [round_no])
        count = worlds if worlds is not None else QUALITIES[QUALITY]
        search = review_bot()
        valued = []
        skipped: list[dict[str, int]] = []
        for position in found:
            legal = len(position.observation.legal)
            if legal > moves:
                skipped.append({"round": position.round, "turn": position.turn, "legal": legal})
                continue
            valued.append(evaluate_position(position, worlds_for(legal, count, action_worlds),
                                            SEED, search))
            if time.thread_time() - start > seconds:
                raise _OverBudget
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, previous)
    if found and not valued:
        raise _Unreviewable(f"every decision of this round has more than {moves} legal moves "
                            f"(the most: {max(s['legal'] for s in skipped)}); this server "
                            f"reviews decisions of up to {moves}")
    result = SeatReview(seat, tuple(valued))
    words = review_json(result, translator(lang))  # the review in words: eights.i18n.advice
    return {"seat": seat, "round": round_no, **words, "rule": RULE.to_json(),
            "skipped": skipped, "cpu": round(time.thread_time() - start, 3)}


@dataclass(slots=True)
class _Budget:
    """CPU seconds a table may still spend on reviews: up to ``most``, refilled at ``rate``
    a second."""

    most: float
    rate: float
    seconds: float = field(init=False)
    last: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        self.seconds = self.most

    def left(self) -> float:
        now = time.monotonic()
        self.seconds = min(self.most, self.seconds + (now - self.last) * self.rate)
        self.last = now
        return self.seconds


@dataclass(slots=True)
class _Table:
    budget: _Budget
    busy: bool = False


@dataclass(slots=True)
class _Job:
    """A review asked for: its task (shared by whoever asks for it meanwhile)."""

    key: tuple[str, int, int, str]
    person: str
    task: asyncio.Task[dict[str, Any]] | None = None


@dataclass(slots=True)
class _Loop:
    """What the reviewer keeps on the event loop it runs on."""

    loop: asyncio.AbstractEventLoop
    turn: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held by the review running in the worker: the others wait, in the order asked."""
    stopping: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass(slots=True)
class Reviewer:
    """The review pool and its bounds (see the module text)."""

    limits: ReviewLimits = field(default_factory=ReviewLimits)
    pool: Pool = "processes"
    _executor: concurrent.futures.Executor | None = None
    _worker: int | None = None
    """The worker's process id (processes)."""
    _started: concurrent.futures.Future[int] | None = None
    """Done once the worker has started and loaded the search (processes)."""
    _on: _Loop | None = None
    _stopped: bool = False
    _jobs: dict[tuple[str, int, int, str], _Job] = field(default_factory=dict)
    _people: Counter[str] = field(default_factory=Counter)
    _tables: dict[str, _Table] = field(default_factory=dict)
    _kept: OrderedDict[tuple[str, int, int, str], dict[str, Any]] = field(
        default_factory=OrderedDict)

    def start(self) -> None:
        """Start the worker now, with the server: it loads the search's kernel ahead, and (a
        process) dies with the thread that started it, the server's event loop."""
        self._stopped = False
        self._start()

    def _start(self) -> concurrent.futures.Executor:
        if self._executor is None:
            if self.pool == "threads":  # tests: no process to spawn
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    1, thread_name_prefix="eights-review")
                self._worker = self._started = None
            else:
                before = {p.pid for p in multiprocessing.active_children()}
                executor = self._executor = concurrent.futures.ProcessPoolExecutor(
                    1, mp_context=multiprocessing.get_context("spawn"),
                    initializer=review_worker_started, initargs=(os.getpid(), True))
                self._started = executor.submit(os.getpid)  # spawned (and warming) now
                new = [p.pid for p in multiprocessing.active_children() if p.pid not in before]
                self._worker = new[0] if len(new) == 1 else None
        return self._executor

    def _here(self) -> _Loop:
        """The lock and event of the running event loop (made again on another loop)."""
        loop = asyncio.get_running_loop()
        if self._on is None or self._on.loop is not loop:
            self._on = _Loop(loop)
            if self._stopped:
                self._on.stopping.set()
        return self._on

    def stop_waiting(self) -> None:
        """The server is stopping (call on its event loop): every asker is answered at once
        (``unavailable``), so that the server does not wait for reviews."""
        self._stopped = True
        if self._on is not None:
            self._on.stopping.set()

    def close(self) -> None:
        """End the worker at once (a review under way too), and its pool. Blocks a moment (the
        pool's threads are joined): call it off the event loop."""
        executor, self._executor = self._executor, None
        worker, self._worker = self._worker, None
        self._started = None
        if executor is None:
            return
        if worker is not None:
            with contextlib.suppress(OSError):
                os.kill(worker, signal.SIGKILL)
        # Joined (a pool left behind makes the resource tracker report its semaphores leaked),
        # unless its worker is unknown: a review under way would hold the stop up.
        executor.shutdown(wait=worker is not None or self.pool == "threads", cancel_futures=True)

    def table(self, code: str) -> _Table:
        state = self._tables.get(code)
        if state is None:
            seconds = self.limits.table_seconds
            state = self._tables[code] = _Table(_Budget(seconds, seconds / 3600.0))
        return state

    async def review(self, room: Room, request: ReviewRequest, person: str = "") -> dict[str, Any]:
        """The review of the asker's seat in ``request.round``, or :class:`ProtocolError`;
        ``person`` is the asker's address (a person has :attr:`ReviewLimits.per_person`
        reviews waiting or running at once)."""
        if request.lang not in LANGUAGES:
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"no language {request.lang[:8]!r}; "
                                f"languages are {', '.join(LANGUAGES)}")
        seat = seat_of(room, request.token)
        if request.seat is not None and request.seat != seat:
            raise ProtocolError(ErrorCode.BAD_TOKEN, f"your token holds seat {seat}; a "
                                f"player may review only their own play, not seat "
                                f"{request.seat}'s")
        record = ended_rounds(room, request.round)
        key = (room.code, seat, request.round, request.lang)
        kept = self._kept.get(key)
        names = {"names": room.names(request.lang)}  # for the counts of the review's positions
        if kept is not None:
            self._kept.move_to_end(key)
            return kept | names
        job = self._jobs.get(key)  # asked again while it runs: the same review
        if job is None:
            job = self._begin(key, person, record.to_json())
        assert job.task is not None
        return await self._answer(job.task) | names

    def _begin(self, key: tuple[str, int, int, str], person: str,
               record: dict[str, Any]) -> _Job:
        """Start the review of ``key``, within the bounds (else :class:`ProtocolError`)."""
        if self._stopped:
            raise ProtocolError(ErrorCode.UNAVAILABLE, _RESTARTING)
        table = self.table(key[0])
        if table.busy:
            raise ProtocolError(ErrorCode.TOO_MANY, "a review of this table is under way; ask "
                                "again when it is done")
        if self._people[person] >= self.limits.per_person:
            raise ProtocolError(ErrorCode.TOO_MANY, "you have a review under way; ask for the "
                                "next one when it is done")
        if len(self._jobs) >= self.limits.queue:
            raise ProtocolError(ErrorCode.TOO_MANY, f"the server is reviewing {len(self._jobs)} "
                                "rounds already; try again in a minute")
        budget = table.budget
        left = min(self.limits.review_seconds, budget.left())
        if left < self.limits.table_seconds / 100:  # too little to review a round
            raise ProtocolError(ErrorCode.TOO_MANY, "this table has spent its review time for "
                                "now; try again later")
        job = _Job(key, person)
        table.busy = True
        self._people[person] += 1
        self._jobs[key] = job

        def over(task: asyncio.Task[dict[str, Any]]) -> None:
            """The review is over (even if its askers stopped waiting): its slots are free, its
            CPU is counted, and a review made is kept."""
            table.busy = False
            self._people[person] -= 1
            if self._people[person] <= 0:
                del self._people[person]
            self._jobs.pop(key, None)
            if task.cancelled():
                return
            error = task.exception()
            if isinstance(error, _OverBudget):
                budget.seconds -= left
            elif error is None:
                answer = task.result()
                budget.seconds -= float(answer["cpu"])
                self._kept[key] = answer
                while len(self._kept) > self.limits.kept:
                    self._kept.popitem(last=False)

        job.task = asyncio.get_running_loop().create_task(self._run(record, key, left),
                                                          name=f"review {key[0]}")
        job.task.add_done_callback(over)
        return job

    async def _run(self, record: dict[str, Any], key: tuple[str, int, int, str],
                   left: float) -> dict[str, Any]:
        """Run one review in the worker when its turn comes, the server watching its CPU: past
        ``left`` by :data:`GRACE`, the worker is killed (:class:`_OverBudget`) and another
        started."""
        _code, seat, round_no, lang = key
        async with self._here().turn:
            executor = self._start()
            if self._started is not None:  # its CPU so far is the warm-up's, not this review's
                with contextlib.suppress(Exception):
                    await asyncio.shield(asyncio.wrap_future(self._started))
            worker = self._worker
            began = cpu_of(worker) if worker is not None else None
            future = executor.submit(review_round, record, seat, round_no, lang, left,
                                     self.limits.worlds, self.limits.moves,
                                     self.limits.action_worlds)
            try:
                return await watched(asyncio.wrap_future(future), worker, began, left)
            except (_Killed, concurrent.futures.BrokenExecutor) as exc:
                if isinstance(exc, _Killed):
                    log.warning("a review ran past its cap of %.1f s of CPU: its worker is ended",
                                left)
                await self._replace(executor)  # the worker is dead: another one
                raise

    async def _replace(self, executor: concurrent.futures.Executor) -> None:
        """End the worker of ``executor`` (if it is still the pool's) and start another."""
        if self._executor is executor:
            await asyncio.to_thread(self.close)
            if not self._stopped:
                self._start()

    async def _answer(self, task: asyncio.Task[dict[str, Any]]) -> dict[str, Any]:
        """Wait for ``task`` for :attr:`ReviewLimits.wait` seconds at most, or until the
        server stops."""
        stopping = asyncio.ensure_future(self._here().stopping.wait())
        try:
            done, _ = await asyncio.wait((task, stopping), timeout=self.limits.wait,
                                         return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopping.cancel()
        if task not in done:
            if self._stopped:
                raise ProtocolError(ErrorCode.UNAVAILABLE, _RESTARTING)
            raise ProtocolError(ErrorCode.UNAVAILABLE, "the server is busy with the tables in "
                                "play, which go first; the review goes on: ask again in a "
                                "minute")
        try:
            return task.result()
        except _OverBudget:
            raise ProtocolError(ErrorCode.TOO_MANY, "this review needs more time than the "
                                "table has left; try again later") from None
        except _Unreviewable as exc:
            raise ProtocolError(ErrorCode.BAD_REQUEST, str(exc)) from None
        except (concurrent.futures.BrokenExecutor, asyncio.CancelledError):
            raise ProtocolError(ErrorCode.UNAVAILABLE, "the review stopped; try again") \
                from None


async def watched(waiting: asyncio.Future[dict[str, Any]], pid: int | None, began: float | None,
                  seconds: float, grace: float = GRACE) -> dict[str, Any]:
    """What ``waiting`` gives; but if process ``pid`` (its worker) runs past ``seconds`` of
    CPU from ``began`` (:func:`cpu_of`) by ``grace``, the process is killed and
    :class:`_Killed` raised (without ``pid``, or ``/proc``, ``waiting`` alone)."""
    while not waiting.done():
        await asyncio.wait((waiting,), timeout=WATCH)
        if pid is None or began is None:
            continue
        used = cpu_of(pid)
        if used is not None and used - began > seconds + grace:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
            raise _Killed
    return waiting.result()


_RESTARTING = "the server is restarting; ask for the review again in a moment"


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_of(pid: int) -> float | None:
    """The CPU seconds process ``pid`` used so far (Linux's ``/proc``), or ``None``."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, ValueError, IndexError):
        return None


def seat_of(room: Room, token: str) -> int:
    """The seat ``token`` holds at ``room`` (a person's seat), or :class:`ProtocolError`."""
    digest = hash_token(token)
    for seat, holder in enumerate(room.seats):
        if holder.bot_spec is None and holder.token_hash is not None and hmac.compare_digest(
                digest, holder.token_hash):
            return seat
    raise ProtocolError(ErrorCode.BAD_TOKEN, f"this is not a seat token of table {room.code}; "
                        "only a seat's holder may ask for the review of their play (spectators "
                        "cannot)")


def ended_rounds(room: Room, round_no: int) -> Record:
    """The record of ``room`` up to round ``round_no``, which must have ended."""
    game = room.game
    if room.status == "waiting":
        raise ProtocolError(ErrorCode.WRONG_STATUS, "the match has not started; a round can be "
                            "reviewed once it has ended")
    if not 1 <= round_no <= game.round:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"round {round_no} is not in this match; "
                            f"it has rounds 1 to {game.round}")
    if round_no == game.round and not game.over:
        raise ProtocolError(ErrorCode.WRONG_STATUS, f"round {round_no} is still being played; "
                            "its review opens when it ends")
    whole = record_of(game)
    return Record(whole.rules, whole.players, whole.dealer, whole.seed,
                  whole.rounds[:round_no], {})


def add_review_routes(app: FastAPI, reviewer: Reviewer) -> None:
    """``POST /api/tables/{code}/review`` (see the module text)."""

    @app.post("/api/tables/{code}/review")
    async def review(code: str, request: Request) -> dict[str, Any]:
        """The review of your play in a round that has ended: body ``{"token": your seat's
        token, "round": n, "lang": "en" or "fr"}``."""
        hub = app.state.hub
        hub.check_rate(request.client.host if request.client is not None else "unknown")
        try:
            body = ReviewRequest.model_validate(orjson.loads(await request.body()))
        except orjson.JSONDecodeError:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, 'the body is not valid JSON; send '
                                '{"token": ..., "round": 1}') from None
        except ValidationError as exc:
            errors = [{**e, "loc": tuple(e.get("loc", ()))} for e in exc.errors()]
            raise ProtocolError(ErrorCode.BAD_MESSAGE, describe_errors(
                errors, list(ReviewRequest.model_fields))) from None
        room = await hub.get(code, keep=False)
        person = creator_key(request.client.host if request.client is not None else "unknown")
        answer = await reviewer.review(room, body, person)  # (an IPv6 address: its /64)
        return {**answer, "practice": room.practice_of(body.round)}  # hints, undos (room.py)
