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
import ctypes
import logging
import math
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Sequence
from concurrent.futures import BrokenExecutor
from typing import Any, Literal

from eights.bots import Bot, bot_options, check_table, make_bot, parse_bot_spec
from eights.bots.blas import limit_process
from eights.bots.ismcts import KERNELS, PRIORS, ROLLOUTS, TREES, WORLDS
from eights.bots.worlds import INFERENCES
from eights.engine.actions import Action
from eights.engine.observation import Observation
from eights.engine.rules import Rules
from eights.i18n.advice import HintLine
from eights.server.protocol import ErrorCode, ProtocolError

__all__ = [
    "BOTS",
    "CLIENT_OPTIONS",
    "CLIENT_WORDS",
    "INLINE_BOTS",
    "Pool",
    "Thinker",
    "check_bot",
    "check_options",
    "default_workers",
    "die_with",
    "seated_bot",
    "server_bot",
    "table_fits",
]

log = logging.getLogger("eights.server")

BOTS = ("random", "greedy", "expert", "ismcts", "learned")
"""Bots a table may seat (``learned`` with the model shipped for the table's rules and
players: a client names no file)."""
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


CLIENT_OPTIONS: dict[str, tuple[str, ...]] = {
    "random": (),
    "greedy": (),
    "expert": ("block", "follow", "points", "reserve", "suit"),
    "ismcts": ("iterations", "time", "rollout", "c", "seed", "tree", "prior", "z", "epsilon",
               "points", "prune", "infer", "kernel", "worlds"),
    "learned": ("temperature",),
}
"""The options a network client may set, per bot: numbers and fixed words only (a test
checks it). Every other option is refused before the bot is made, whatever its value: an
option that names a file (``ismcts``'s ``belief``, ``learned``'s ``model``) would let a client
probe the server's disk, or freeze it on a named pipe."""
CLIENT_WORDS: dict[tuple[str, str], tuple[str, ...]] = {
    ("ismcts", "rollout"): ROLLOUTS,
    ("ismcts", "tree"): TREES,
    ("ismcts", "prior"): PRIORS,
    ("ismcts", "infer"): INFERENCES,
    ("ismcts", "kernel"): KERNELS,
    ("ismcts", "worlds"): WORLDS,
}
"""The words an option of :data:`CLIENT_OPTIONS` that takes text may be (the others take
numbers, true or false, or words their bot declares)."""
_FILES = ("belief", "model")


def check_options(spec: str, seconds: float) -> tuple[str, dict[str, object]]:
    """The name and options of ``spec`` if a network client may ask for such a bot
    (:data:`CLIENT_OPTIONS`, numbers finite, ``iterations`` and ``time`` within bounds),
    else :class:`ProtocolError` saying what is allowed. Pure: it makes no bot and opens
    nothing.

    >>> check_options("ismcts:iterations=500", 3.0)
    ('ismcts', {'iterations': 500})
    >>> try:
    ...     check_options("ismcts:worlds=belief:belief=/etc/passwd", 3.0)
    ... except ProtocolError as exc:
    ...     print(exc.message[:73])
    bot 'ismcts': option belief cannot be set on this server (it names a file
    """
    try:
        name, options = parse_bot_spec(spec)
    except ValueError as exc:
        raise ProtocolError(ErrorCode.BAD_REQUEST, str(exc)) from None
    if name not in BOTS:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"unknown bot {name!r}; bots are "
                            f"{', '.join(BOTS)} (e.g. greedy, ismcts:iterations=500)")
    allowed = CLIENT_OPTIONS.get(name, ())
    for key in options:
        if key not in allowed:
            why = (" (it names a file: a server's bots play the models it ships)"
                   if key in _FILES else "")
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"bot {name!r}: option {key} cannot be "
                                f"set on this server{why}; options a client may set: "
                                f"{', '.join(sorted(allowed)) or 'none'}")
    for key, value in options.items():
        words = CLIENT_WORDS.get((name, key))
        if words is not None and value not in words:
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"bot {name!r}: option {key} must be "
                                f"{' or '.join(words)}")
        if isinstance(value, float) and not math.isfinite(value):
            raise ProtocolError(ErrorCode.BAD_REQUEST, f"bot {name!r}: option {key} must be a "
                                f"finite number, not {value}")
    iterations, time = options.get("iterations"), options.get("time")
    if isinstance(iterations, int) and not 1 <= iterations <= MAX_ITERATIONS:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"bot {name!r}: iterations must be 1 to "
                            f"{MAX_ITERATIONS}")
    if isinstance(time, (int, float)) and not 0 < time <= seconds:
        raise ProtocolError(ErrorCode.BAD_REQUEST, f"bot {name!r}: time must be more than 0 and "
                            f"at most {seconds:g} seconds a move on this server, not {time:g}")
    return name, options


def check_bot(spec: str, seconds: float, rules: Rules | None = None,
              players: int | None = None) -> Bot:
    """The bot of ``spec``, if the server seats such a bot within its budget of ``seconds``
    a move (:func:`check_options`), and (given ``rules`` and ``players``) at such a table: a
    bot that needs something made for the table (a learned bot, or a search whose prior is
    one: its model) says so by :func:`eights.bots.check_table`. Else :class:`ProtocolError`
    saying what is allowed. The table check reads the shipped model: call it off the event
    loop."""
    check_options(spec, seconds)
    try:
        bot = server_bot(spec, seconds)[1]
        if rules is not None and players is not None:
            check_table(bot, rules, players)  # the learned bot's model, or the search's prior's
    except ValueError as exc:
        raise ProtocolError(ErrorCode.BAD_REQUEST, str(exc)) from None
    return bot


def seated_bot(spec: str, seconds: float) -> tuple[str, Bot]:
    """The spec a stored seat's bot runs from, and the bot (:func:`server_bot`): a spec that a
    client may no longer ask for (stored before the server refused it, or written into the
    database by hand) runs as the greedy bot, and the log says so; nothing it names is opened.
    """
    try:
        check_options(spec, seconds)
        return server_bot(spec, seconds)
    except (ProtocolError, ValueError) as exc:
        log.warning("a stored bot %.60r is not one this server seats (%s): the greedy bot "
                    "plays its seat", spec, exc)
        return "greedy", make_bot("greedy")


def table_fits(rules: Rules, specs: Sequence[str] = BOTS) -> dict[str, list[int]]:
    """For each seatable bot of ``specs`` that needs something made for its table (a
    ``check_table``, such as the learned bot's model), the player counts of ``rules`` it
    can be seated at; the other bots fit every count and are not listed.

    >>> from eights.engine.rules import load_rules
    >>> table_fits(load_rules("classic"))  # the family model plays every count
    {}
    """
    fits: dict[str, list[int]] = {}
    every = range(rules.players[0], rules.players[1] + 1)
    for name in specs:
        bot = make_bot(name)
        counts = []
        for players in every:
            try:
                check_table(bot, rules, players)  # the bot's check, or its prior's
            except ValueError:
                continue
            counts.append(players)
        if counts != list(every):
            fits[name] = counts
    return fits


# --------------------------------------------------------------------------- the pool

_BOTS_KEPT = 32
"""Bots a worker keeps made (a search bot keeps its compiled kernel between moves)."""
_local = threading.local()


_PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: the signal a process gets when its parent dies."""
WATCH = 0.5
"""Seconds between two looks of a worker's watchdog at its parent."""


def _worker_started(parent: int) -> None:
    """A worker process: below the server's priority, so people's tables go first; and it dies
    with the server ``parent``, even one killed by ``kill -9`` (:func:`die_with`)."""
    with contextlib.suppress(OSError):  # not allowed here: the same priority
        os.nice(10)
    limit_process()  # one OpenBLAS thread: a bot's model decides one position at a time
    die_with(parent)


def die_with(parent: int) -> None:
    """End this process when process ``parent`` ends. On Linux the kernel sends it SIGKILL
    (``prctl(PR_SET_PDEATHSIG)``) the moment the thread that started it ends (the server's
    event loop: the server); everywhere, a watchdog thread looks every :data:`WATCH` seconds
    whether this process was handed to another parent (``os.getppid()`` changed), which is
    what happens when its parent dies, and then ends it."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:  # it died before the signal was asked for
        _end()
    threading.Thread(target=_watch, args=(parent,), name="eights-bot-watchdog",
                     daemon=True).start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH)
    _end()  # nobody waits for this worker's moves any more


def _end() -> None:
    """End this process at once (no clean-up: it owns nothing)."""
    os.kill(os.getpid(), signal.SIGKILL)


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


MOST_WORKERS = 8
"""The most workers :func:`default_workers` gives (each may hold 200 to 700 MB)."""


def default_workers() -> int:
    """The pool's size when none is given: the processors this process may run on, less one
    for the event loop (people's tables), at least 1 and at most :data:`MOST_WORKERS`. A
    worker runs below the server's priority, so it takes only what the server leaves idle.
    """
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(MOST_WORKERS, cpus - 1))


Outcome = Literal["thought", "late", "failed"]
"""How a bot's move was made: by the bot (``thought``), or by the greedy bot because the bot
ran past its wait (``late``) or failed (``failed``)."""


class Thinker:
    """The pool server bots think in, made at the first move it is asked for.

    ``workers`` processes (or threads, ``pool="threads"``) think at once (default:
    :func:`default_workers`); the others wait their turn. :meth:`choose` waits ``wait``
    seconds at most. :attr:`moves` counts how every bot move was made.
    """

    def __init__(self, *, workers: int | None = None, wait: float,
                 pool: Pool = "processes") -> None:
        if workers is None:
            workers = default_workers()
        if workers < 1:
            raise ValueError(f"bot workers must be 1 or more, not {workers}")
        if pool not in ("processes", "threads"):
            raise ValueError(f"the bot pool is 'processes' or 'threads', not {pool!r}")
        self.workers = workers
        self.wait = wait
        self.pool = pool
        self._executor: concurrent.futures.Executor | None = None
        self.moves: Counter[Outcome] = Counter()
        """Bot moves since the server started, by :data:`Outcome` (``/api/health``)."""
        self.hint_worlds: int | None = None
        """Worlds a practice hint plays (``None``: the terminal's, the ``fast`` quality;
        tests take fewer)."""

    def played(self, outcome: Outcome) -> None:
        """Count one bot move made this way."""
        self.moves[outcome] += 1

    def health(self) -> dict[str, Any]:
        """The pool and its bots' moves, for ``/api/health``."""
        return {"workers": self.workers, "pool": self.pool, "moves": sum(self.moves.values()),
                "late": self.moves["late"], "failed": self.moves["failed"]}

    def _start(self) -> concurrent.futures.Executor:
        if self._executor is None:
            if self.pool == "threads":
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    self.workers, thread_name_prefix="eights-bot")
            else:  # spawned: the server's threads (database, event loop) are not forked
                self._executor = concurrent.futures.ProcessPoolExecutor(
                    self.workers, mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_started, initargs=(os.getpid(),))
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

    async def hint(self, view: Observation, wait: float) -> list[HintLine]:
        """Practice: the search's hint for the decision ``view`` is at (the legal actions in
        lines with their chance of winning the round, the best first: :func:`eights.server.
        practice.hint_values`), thought in this pool; :class:`TimeoutError` after ``wait``
        seconds."""
        from eights.server.practice import hint_values

        executor = self._start()
        try:
            future = executor.submit(hint_values, view, 0, self.hint_worlds,
                                     time.monotonic() + wait)
            values = await asyncio.wait_for(asyncio.wrap_future(future), wait)
        except BrokenExecutor:
            if self._executor is executor:
                self.close()
            raise
        if values is None:
            raise TimeoutError
        return values

    def close(self, wait: bool = False) -> None:
        """Drop the queued moves and let the workers go (a move under way ends by its budget);
        with ``wait``, once they have ended (a server stopping: a pool left behind makes the
        resource tracker report its semaphores leaked)."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=wait, cancel_futures=True)
