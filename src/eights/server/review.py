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
default, spawned, at the lowest priority: ``nice`` 19 and, on Linux, the idle scheduling
class, below the bots' pool at ``nice`` 10), so they take only the CPU the tables and their
bots leave idle; the event loop only waits (``benchmarks/review.py table`` measures it).
The work is bounded three ways (:class:`ReviewLimits`): at most ``queue`` reviews wait
or run at once on the server (more: ``too_many``), one at a time per table, and each
table has a budget of CPU seconds that refills by the hour (spent: ``too_many``); a
review is cut off past its share. A review made is kept (the same seat, round and
language answer at once, for nothing).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hmac
import logging
import multiprocessing
import os
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import orjson
from fastapi import FastAPI, Request
from pydantic import BaseModel, ConfigDict, ValidationError

from eights.engine.record import Record, record_of
from eights.i18n import LANGUAGES, translator
from eights.i18n.advice import review_json
from eights.lab.review import RULE, positions, review_seats
from eights.server.protocol import Count, ErrorCode, ProtocolError, Token, describe_errors
from eights.server.room import Room, hash_token
from eights.server.thinking import Pool

__all__ = ["ReviewLimits", "ReviewRequest", "Reviewer", "add_review_routes", "review_round",
           "review_worker_started"]

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
    table_seconds: float = 120.0
    """CPU seconds of review a table may spend, refilled over an hour."""
    review_seconds: float = 60.0
    """CPU seconds one review may take at most (it is cut off past them)."""
    wait: float = 120.0
    """Wall-clock seconds an asker waits; past them the answer is ``unavailable`` (the
    server is busy with tables in play) and the review goes on, kept for the next ask."""
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


def review_worker_started() -> None:
    """A review worker: below the server and its bots, so a table in play always goes first:
    ``nice`` 19, and on Linux the idle scheduling class (``SCHED_IDLE``: it runs only on a
    processor nothing else wants)."""
    with contextlib.suppress(OSError):
        os.nice(19)
    if hasattr(os, "sched_setscheduler") and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def review_round(record: dict[str, Any], seat: int, round_no: int, lang: str,
                 seconds: float, worlds: int | None = None) -> dict[str, Any]:
    """The review of ``seat`` in round ``round_no`` of ``record`` (the rounds up to it), in
    ``lang``; it stops past ``seconds`` of CPU (:class:`_OverBudget`). Runs in the pool."""
    from eights.engine.record import load_record

    start = time.thread_time()
    found = positions(load_record(record), [seat], [round_no])

    def told(_done: int, _total: int) -> None:
        if time.thread_time() - start > seconds:
            raise _OverBudget

    result = review_seats(found, [seat], quality=QUALITY, seed=SEED, worlds=worlds,
                          on_progress=told).seat(seat)
    words = review_json(result, translator(lang))  # the review in words: eights.i18n.advice
    return {"seat": seat, "round": round_no, **words, "rule": RULE.to_json(),
            "cpu": round(time.thread_time() - start, 3)}


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
class Reviewer:
    """The review pool and its bounds (see the module text)."""

    limits: ReviewLimits = field(default_factory=ReviewLimits)
    pool: Pool = "processes"
    _executor: concurrent.futures.Executor | None = None
    _running: int = 0
    _tables: dict[str, _Table] = field(default_factory=dict)
    _kept: OrderedDict[tuple[str, int, int, str], dict[str, Any]] = field(
        default_factory=OrderedDict)

    def _start(self) -> concurrent.futures.Executor:
        if self._executor is None:
            if self.pool == "threads":  # tests: no process to spawn
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    1, thread_name_prefix="eights-review")
            else:
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    1, mp_context=multiprocessing.get_context("spawn"),
                    initializer=review_worker_started)
        return self._executor

    def close(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def table(self, code: str) -> _Table:
        state = self._tables.get(code)
        if state is None:
            seconds = self.limits.table_seconds
            state = self._tables[code] = _Table(_Budget(seconds, seconds / 3600.0))
        return state

    async def review(self, room: Room, request: ReviewRequest) -> dict[str, Any]:
        """The review of the asker's seat in ``request.round``, or :class:`ProtocolError`."""
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
        table = self.table(room.code)
        if table.busy:
            raise ProtocolError(ErrorCode.TOO_MANY, "a review of this table is under way; ask "
                                "again when it is done")
        if self._running >= self.limits.queue:
            raise ProtocolError(ErrorCode.TOO_MANY, f"the server is reviewing "
                                f"{self._running} rounds already; try again in a minute")
        budget = table.budget
        left = min(self.limits.review_seconds, budget.left())
        if left < self.limits.table_seconds / 100:  # too little to review a round
            raise ProtocolError(ErrorCode.TOO_MANY, "this table has spent its review time for "
                                "now; try again later")
        table.busy = True
        self._running += 1
        executor = self._start()
        try:
            future = executor.submit(review_round, record.to_json(), seat, request.round,
                                     request.lang, left, self.limits.worlds)
        except BaseException:
            table.busy = False
            self._running -= 1
            raise
        loop = asyncio.get_running_loop()
        waiting = asyncio.wrap_future(future, loop=loop)

        def finished(done: asyncio.Future[dict[str, Any]]) -> None:
            """The review is over (even if its asker stopped waiting): the pool's slot and
            the table are free, its CPU is counted, and a review made is kept."""
            table.busy = False
            self._running -= 1
            if done.cancelled():
                return
            error = done.exception()
            if isinstance(error, _OverBudget):
                budget.seconds -= left
            elif error is None:
                answer = done.result()
                budget.seconds -= float(answer["cpu"])
                self._kept[key] = answer
                while len(self._kept) > self.limits.kept:
                    self._kept.popitem(last=False)

        waiting.add_done_callback(finished)
        try:
            return await asyncio.wait_for(asyncio.shield(waiting), self.limits.wait) | names
        except TimeoutError:
            raise ProtocolError(ErrorCode.UNAVAILABLE, "the server is busy with the tables in "
                                "play, which go first; the review goes on: ask again in a "
                                "minute") from None
        except _OverBudget:
            raise ProtocolError(ErrorCode.TOO_MANY, "this review needs more time than the "
                                "table has left; try again later") from None
        except concurrent.futures.BrokenExecutor:
            if self._executor is executor:
                self.close()
            raise ProtocolError(ErrorCode.UNAVAILABLE, "the review stopped; try again") \
                from None


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
        answer = await reviewer.review(room, body)
        return {**answer, "practice": room.practice_of(body.round)}  # hints, undos (room.py)
