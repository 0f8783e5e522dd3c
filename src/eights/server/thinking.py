"""How server bots think: a budget for every move, and a pool of their own.

A bot the server seats has a **budget** (:attr:`Limits.bot_seconds`, 3 seconds
by default). A bot whose factory takes a ``time`` option (the search bots)
thinks for at most that long: a spec asking for more is refused, and a spec
that sets no time limit of its own (``ismcts:iterations=5000``) gets the
budget as its ``time`` (:func:`server_bot`). Whatever the bot, the server
waits at most :attr:`Limits.bot_wait` seconds of wall-clock time for a move,
counted from when it asks (a move still queued counts); after that it plays
the greedy move for the bot, so a table never waits longer.

Quick bots (:data:`INLINE_BOTS`: heuristics that answer in well under a
millisecond) choose on the event loop. Every other bot thinks in the
:class:`Thinker`'s pool, away from the event loop, from the database's
threads and from the room's lock. The pool is made of worker processes by
default: a search is pure Python and numba code that holds the GIL, so in a
thread it would delay every wake-up of the event loop (the people's tables);
in a process at a lower priority (``nice`` 10) it takes only the CPU the
server leaves idle. ``benchmarks/server_bots.py`` measures both.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import math
import multiprocessing
import os
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import BrokenExecutor
from typing import Literal

from eights.bots import Bot, bot_options, make_bot, parse_bot_spec
from eights.engine.actions import Action
from eights.engine.observation import Observation
from eights.engine.rules import Rules
from eights.server.protocol import ErrorCode, ProtocolError

__all__ = ["BOTS", "INLINE_BOTS", "OFFERED", "Pool", "Thinker", "check_bot", "server_bot", "table_fits"]

log = logging.getLogger("eights.server")

BOTS = ("random", "greedy", "expert", "ismcts", "learned")
"""Bots a table may seat (``learned`` with the model shipped for the table's rules and
players: a client names no file)."""
OFFERED = (*BOTS, "ismcts:prior=learned")
"""The levels the new-table form offers, as bot specs: every bot, and the search with the
learned network's move as the one to beat."""
INLINE_BOTS = frozenset({"random", "greedy", "expert", "learned"})
"""Bots quick enough to choose on the event loop; every other bot thinks in the pool."""
MAX_ITERATIONS = 5000
"""Most ``iterations`` a bot spec may ask for (it bounds a search's memory, not its time)."""

Pool = Literal["processes", "threads"]


def server_bot(spec: str, seconds: float) -> tuple[str, Bot]:
    """The spec the server runs a bot from, and the bot: ``spec`` itself, or, for a bot that
    takes a ``time`` and would think longer than ``seconds`` a move (no time limit of its
    own, or a longer one), ``spec`` with ``time`` set to ``seconds``.

    >>> server_bot("ismcts:iterations=5000", 3.0)[0]
    'ismcts:iterations=5000:time=3.0'
    >>> server_bot("ismcts", 3.0)[0]  # its default: 2000 rollouts or 1 second
    'ismcts'
    >>> server_bot("greedy", 3.0)[0]
    'greedy'
    """
    bot = make_bot(spec)
    name, options = parse_bot_spec(spec)
    declared = bot_options(name) or {}
    if "time" not in declared:
        return spec, bot
    own = getattr(bot, "time", None)
    if isinstance(own, (int, float)) and own <= seconds:
        return spec, bot
    options["time"] = float(seconds)
    bounded = ":".join([name, *(f"{k}={v}" for k, v in options.items())])
    return bounded, make_bot(bounded)


def check_bot(spec: str, seconds: float, rules: Rules | None = None,
              players: int | None = None) -> Bot:
    """The bot of ``spec``, if the server seats such a bot within its budget of ``seconds``
    a move, and (given ``rules`` and ``players``) at such a table: a bot that needs
    something made for the table (a learned bot, its model) says so by a
    ``check_table(rules, players)`` that raises :class:`ValueError`. Else
    :class:`ProtocolError` saying what is allowed."""
    try:
        name, options = parse_bot_spec(spec)
    except ValueError as exc:
        raise ProtocolError(ErrorCode.BAD_REQUEST, str(exc)) from None
    if name not in BOTS:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"unknown bot {name!r}; bots are "
                            f"{', '.join(BOTS)} (e.g. greedy, ismcts:iterations=500)")
    for key, value in options.items():
        if isinstance(value, float) and not math.isfinite(value):
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"bot {name!r}: option {key} must be a "
                                f"finite number, not {value}")
    if "model" in options:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"bot {name!r}: the model option is for the "
                            "command line; a server's bots play the models it ships")
    iterations, time = options.get("iterations"), options.get("time")
    if isinstance(iterations, int) and not 1 <= iterations <= MAX_ITERATIONS:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"bot {name!r}: iterations must be 1 to "
                            f"{MAX_ITERATIONS}")
    if isinstance(time, (int, float)) and not 0 < time <= seconds:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"bot {name!r}: time must be more than 0 and "
                            f"at most {seconds:g} seconds a move on this server, not {time:g}")
    try:
        bot = server_bot(spec, seconds)[1]
        fits = getattr(bot, "check_table", None)
        if rules is not None and players is not None and callable(fits):
            fits(rules, players)
    except ValueError as exc:
        raise ProtocolError(ErrorCode.BAD_REQUEST, str(exc)) from None
    return bot


def table_fits(rules: Rules) -> dict[str, list[int]]:
    """For each seatable bot that needs something made for its table (a ``check_table``,
    such as the learned bot's model), the player counts of ``rules`` it can be seated at;
    the other bots fit every count and are not listed.

    >>> from eights.engine.rules import load_rules
    >>> table_fits(load_rules("classic"))["learned"]
    [2, 3, 4, 5, 6, 7, 8, 9, 10]
    """
    fits: dict[str, list[int]] = {}
    for name in BOTS:
        check = getattr(make_bot(name), "check_table", None)
        if not callable(check):
            continue
        counts = []
        for players in range(rules.players[0], rules.players[1] + 1):
            try:
                check(rules, players)
            except ValueError:
                continue
            counts.append(players)
        fits[name] = counts
    return fits


# --------------------------------------------------------------------------- the pool

_BOTS_KEPT = 32
"""Bots a worker keeps made (a search bot keeps its compiled kernel between moves)."""
_local = threading.local()


def _worker_started() -> None:
    """A worker process: below the server's priority, so people's tables go first."""
    with contextlib.suppress(OSError):  # not allowed here: the same priority
        os.nice(10)


def think(spec: str, view: Observation, legal: Sequence[Action], seed: str,
          deadline: float | None = None) -> Action | None:
    """The move of the bot of ``spec`` (made once per worker thread, then kept); ``None``
    without thinking when it starts past ``deadline`` (``time.monotonic()``, the same clock
    in every process of the machine): nobody waits for that move any more."""
    if deadline is not None and time.monotonic() >= deadline:
        return None
    bots: OrderedDict[str, Bot] | None = getattr(_local, "bots", None)
    if bots is None:
        bots = _local.bots = OrderedDict()
    bot = bots.get(spec)
    if bot is None:
        bot = bots[spec] = make_bot(spec)
        while len(bots) > _BOTS_KEPT:
            bots.popitem(last=False)
    bots.move_to_end(spec)
    return bot.choose(view, legal, random.Random(seed))


class Thinker:
    """The pool server bots think in, made at the first move it is asked for.

    ``workers`` processes (or threads, ``pool="threads"``) think at once; the
    others wait their turn. :meth:`choose` waits ``wait`` seconds at most.
    """

    def __init__(self, *, workers: int, wait: float, pool: Pool = "processes") -> None:
        if workers < 1:
            raise ValueError(f"bot workers must be 1 or more, not {workers}")
        if pool not in ("processes", "threads"):
            raise ValueError(f"the bot pool is 'processes' or 'threads', not {pool!r}")
        self.workers = workers
        self.wait = wait
        self.pool = pool
        self._executor: concurrent.futures.Executor | None = None

    def _start(self) -> concurrent.futures.Executor:
        if self._executor is None:
            if self.pool == "threads":
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    self.workers, thread_name_prefix="eights-bot")
            else:  # spawned: the server's threads (database, event loop) are not forked
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_started)
        return self._executor

    async def choose(self, spec: str, view: Observation, legal: Sequence[Action],
                     seed: str) -> Action:
        """The move of the bot of ``spec``; :class:`TimeoutError` after :attr:`wait` seconds
        (the move is then dropped: a worker that takes it up later skips it)."""
        executor = self._start()
        try:
            future = executor.submit(think, spec, view, list(legal), seed,
                                     time.monotonic() + self.wait)
            action = await asyncio.wait_for(asyncio.wrap_future(future), self.wait)
        except BrokenExecutor:  # a worker died (killed, out of memory): a new pool next time
            if self._executor is executor:
                self.close()
            raise
        if action is None:  # begun past its deadline: the wait ran out meanwhile
            raise TimeoutError
        return action

    def close(self) -> None:
        """Drop the queued moves and let the workers go (a move under way ends by its budget)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
