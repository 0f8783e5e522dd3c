"""Where a long lab run is played: in this process, in worker processes, or on a Ray cluster.

A run (a tournament, a simulation) is cut by its owner into *units*: runs of deals, or
of chunks of rounds. What every unit needs (the rules, the bots, the seed) is the run's
*job*, sent to each worker once; a *task* plays one unit of the job and returns its
result. Every random choice of a unit derives from the run's seed and the unit's own
indices (:func:`derive_seed`), never from the worker that plays it, and
:meth:`Workers.run` returns the results in the order of the units: a run's numbers are
the same wherever it is played, on however many workers.

- :class:`InProcess` (``jobs=1``): here, one unit after the other; a task reports its
  progress as it goes (each round).
- :class:`Processes` (``jobs=N``): N worker processes, spawned (safe with threads, the
  same on every OS); progress comes as each unit's result comes back.
- :class:`RayCluster` (``ray="local"``, ``"auto"`` or the address of a cluster's head;
  the ``ray`` extra): tasks on a Ray cluster, at most ``jobs`` running at a time
  (default: one per CPU of the cluster). What a task receives is pickled: the job (a
  rules object, bot specs or bots, the seed) once per run, then each unit; the task
  functions are sent by name, so every machine of the cluster needs the same version of
  eights installed.

:func:`workers` picks one from the ``jobs`` and ``ray`` options of the commands.

>>> derive_seed(7, "deal", 3) == derive_seed(7, "deal", 3) != derive_seed(7, "deal", 4)
True
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import multiprocessing
import socket
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from types import ModuleType, TracebackType
from typing import Any, TypeVar

__all__ = ["InProcess", "Processes", "RayCluster", "Report", "Workers", "WorkersError",
           "derive_seed", "spans", "workers"]

J = TypeVar("J")
U = TypeVar("U")
R = TypeVar("R")

Report = Callable[[int], None]
"""What a task calls with the count of items (rounds, matches) it has just finished;
given only to a task played in this process (elsewhere, progress comes with results)."""

RAY_INSTALL = "pip install 'eights[ray]'"


class WorkersError(RuntimeError):
    """The workers cannot be had: Ray is not installed, or the cluster cannot be reached."""


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed from a run's seed and a path of names and indices (stable on every
    machine and Python, unlike ``hash``)."""
    text = "/".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1


def spans(count: int, concurrency: int, *, per_worker: int = 8, most: int = 25) -> list[range]:
    """``range(count)`` cut into consecutive runs for ``concurrency`` workers: about
    ``per_worker`` runs each (so a slow run does not leave the others idle at the end),
    of at most ``most`` items, and at least one.

    >>> spans(3, 2)
    [range(0, 1), range(1, 2), range(2, 3)]
    >>> [len(s) for s in spans(1000, 2)][:2], len(spans(1000, 2))
    ([25, 25], 40)
    """
    size = max(1, min(most, count // (concurrency * per_worker)))
    return [range(first, min(count, first + size)) for first in range(0, count, size)]


class Workers(ABC):
    """Plays the units of a run and gives their results back in order. Use it in a
    ``with`` block: a Ray cluster started for the run is stopped at its end."""

    concurrency: int = 1
    """How many units are played at the same time (size the units with it)."""
    in_process: bool = False
    """True when the units are played here (progress can be reported within a unit)."""

    @abstractmethod
    def run(self, task: Callable[[J, U, Report | None], R], job: J, units: Sequence[U], *,
            size: Callable[[R], int], progress: Callable[[int], None] | None = None) -> list[R]:
        """``task(job, unit, report)`` for every unit; the results in the units' order.

        ``progress(done)`` is called with the items finished so far: as a task in this
        process reports them, or with ``size(result)`` as each unit comes back. The first
        error of a task is raised here (the units not yet started are dropped)."""

    def close(self) -> None:
        """Release what the run used (nothing by default)."""
        return None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


class InProcess(Workers):
    """Every unit in this process, one after the other."""

    in_process = True

    def run(self, task: Callable[[J, U, Report | None], R], job: J, units: Sequence[U], *,
            size: Callable[[R], int], progress: Callable[[int], None] | None = None) -> list[R]:
        done = 0

        def report(items: int) -> None:
            nonlocal done
            done += items
            if progress is not None:
                progress(done)

        return [task(job, unit, report) for unit in units]


_WORKER: tuple[Callable[[Any, Any, Report | None], Any], Any] | None = None
"""The task and the job of a worker process (set by :func:`_start`)."""


def _start(task: Callable[[Any, Any, Report | None], Any], job: Any) -> None:
    global _WORKER
    _WORKER = (task, job)


def _play(unit: Any) -> Any:
    """One unit in a worker process."""
    assert _WORKER is not None, "worker not started"
    task, job = _WORKER
    return task(job, unit, None)


def _play_remote(task: Callable[[Any, Any, Report | None], Any], job: Any, unit: Any) -> Any:
    """One unit in a Ray task (the job comes from the object store)."""
    return task(job, unit, None)


class Processes(Workers):
    """``jobs`` worker processes on this machine."""

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be 1 or more, not {jobs}")
        self.concurrency = jobs

    def run(self, task: Callable[[J, U, Report | None], R], job: J, units: Sequence[U], *,
            size: Callable[[R], int], progress: Callable[[int], None] | None = None) -> list[R]:
        results: dict[int, R] = {}
        done = 0
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max(1, min(self.concurrency, len(units))), mp_context=context,
                                 initializer=_start, initargs=(task, job)) as pool:
            pending: dict[Future[R], int] = {pool.submit(_play, unit): i
                                             for i, unit in enumerate(units)}
            while pending:
                finished, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    index = pending.pop(future)
                    error = future.exception()
                    if error is not None:
                        pool.shutdown(cancel_futures=True)
                        raise error
                    results[index] = future.result()
                    done += size(results[index])
                    if progress is not None:
                        progress(done)
        return [results[i] for i in range(len(units))]


def _import_ray() -> ModuleType:
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise WorkersError(f"--ray needs the ray extra ({exc.name or 'ray'} is not installed): "
                           f"{RAY_INSTALL}") from exc


def _check_reachable(address: str) -> None:
    """A ``host:port`` address is tried first, so that a wrong one fails at once (Ray
    itself waits for minutes)."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or "://" in address or not port.isdigit():
        return
    try:
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as exc:
        raise WorkersError(
            f"cannot reach the Ray cluster at {address!r} ({exc.strerror or exc}); start its "
            "head with `ray start --head` there, or give --ray local for a Ray on this "
            "machine") from exc


class RayCluster(Workers):
    """Tasks on a Ray cluster: ``address`` ``"local"`` starts one on this machine with
    ``jobs`` CPUs (default: all), stopped at the end of the run; ``"auto"`` joins the
    cluster this machine belongs to (``ray start``); ``host:port`` (the head's address,
    port 6379 by default) or ``ray://host:10001`` (Ray Client) joins that cluster. A
    process already connected to Ray (``ray.init`` called by the program) keeps its
    connection, whatever ``address`` says. At most ``jobs`` tasks run at once (default:
    one per CPU of the cluster)."""

    def __init__(self, address: str, jobs: int | None = None) -> None:
        if jobs is not None and jobs < 1:
            raise ValueError(f"jobs must be 1 or more, not {jobs}")
        if not address.strip():
            raise ValueError("give --ray local, auto, or the address of a Ray cluster's head "
                             "(host:6379)")
        self.ray = _import_ray()
        self.started = False
        if not self.ray.is_initialized():
            quiet = {"logging_level": logging.WARNING, "log_to_driver": False}
            try:
                if address == "local":
                    self.ray.init(address="local", num_cpus=jobs, include_dashboard=False, **quiet)
                else:
                    _check_reachable(address)
                    self.ray.init(address=address, **quiet)
            except (ConnectionError, ValueError) as exc:  # ValueError: a malformed address
                raise WorkersError(f"cannot connect to the Ray cluster at {address!r}: {exc}; "
                                   "give local, auto or the head's host:6379") from exc
            self.started = True
        cpus = int(self.ray.cluster_resources().get("CPU", 1))
        self.concurrency = jobs or max(1, cpus)

    def run(self, task: Callable[[J, U, Report | None], R], job: J, units: Sequence[U], *,
            size: Callable[[R], int], progress: Callable[[int], None] | None = None) -> list[R]:
        ray = self.ray
        remote = ray.remote(num_cpus=1)(_play_remote)
        shared = ray.put(job)
        results: dict[int, R] = {}
        done = 0
        queue = iter(enumerate(units))
        running: dict[Any, int] = {}

        def submit() -> None:
            for index, unit in queue:
                running[remote.remote(task, shared, unit)] = index
                if len(running) >= self.concurrency:
                    return

        submit()
        while running:
            ready, _ = ray.wait(list(running), num_returns=1)
            for ref in ready:
                index = running.pop(ref)
                try:
                    results[index] = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    for other in running:
                        ray.cancel(other)
                    cause = getattr(exc, "cause", None)
                    if isinstance(cause, Exception):
                        raise cause from None
                    raise
                done += size(results[index])
                if progress is not None:
                    progress(done)
            submit()
        return [results[i] for i in range(len(units))]

    def close(self) -> None:
        if self.started:
            self.ray.shutdown()
            self.started = False


def workers(jobs: int | None = None, ray: str | None = None) -> Workers:
    """The workers of the commands' ``--jobs`` and ``--ray``: without ``ray``, ``jobs``
    processes (1 or ``None``: this process); with it, a :class:`RayCluster` running at
    most ``jobs`` tasks at once (``None``: one per CPU of the cluster; with ``"local"``,
    ``jobs`` is the number of CPUs of the Ray started here). Raises :class:`ValueError`
    for a bad ``jobs`` and :class:`WorkersError` when Ray is missing or unreachable."""
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be 1 or more, not {jobs}")
    if ray is not None:
        return RayCluster(ray, jobs)
    if jobs is None or jobs == 1:
        return InProcess()
    return Processes(jobs)
