"""OpenBLAS's threads while a model decides: one.

NumPy's matrix products run on OpenBLAS (MKL in some builds), which starts one thread a
core for every product, however small. A model called one decision at a time (the learned
bot, the belief model) multiplies a row or a few by its weights: the extra threads only
wait for each other and for the cores, more so on a busy machine. Measured with process
CPU time (every thread counted) in ``benchmarks/learned.py``: docs/bots.md, *Speed*.

- :func:`one_thread`: a context in which OpenBLAS has one thread, as it was after;
  :class:`~eights.bots.learned.LearnedBot` and :class:`~eights.bots.belief.BeliefModel`
  decide inside it. A few microseconds a call (the libraries found once, through
  threadpoolctl). Threads that decide at once (a server's bot threads) share it: the first
  in limits, the last out restores.
- :func:`limit_process`: for eights' own processes (the commands ``play``, ``tournament``,
  ``train``, ``serve``, ``simulate``..., the server's bot workers): one thread for the
  whole process, and for the processes it starts (``OPENBLAS_NUM_THREADS=1`` and
  ``MKL_NUM_THREADS=1`` in its environment, which NumPy reads when a child imports it);
  :func:`one_thread` then has nothing left to do.

A program that imports eights keeps its own threads outside the models' decisions. Neither
function touches a count the user chose: where ``OPENBLAS_NUM_THREADS``,
``MKL_NUM_THREADS`` or ``OMP_NUM_THREADS`` is set in the environment, the threads are left
as they are (set ``OPENBLAS_NUM_THREADS`` to the cores to give the models every thread).
Without threadpoolctl (a dependency of eights) only the environment variables are set.
"""

from __future__ import annotations

import ctypes
import os
import threading
from collections.abc import Callable
from importlib.util import find_spec
from types import TracebackType
from typing import Any, cast

__all__ = ["CHOSEN_BY", "limit_process", "one_thread"]

CHOSEN_BY = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS")
"""Environment variables that say the user chose the threads: eights leaves them."""
_SETS = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")

_SETTER = {"openblas": "openblas_set_num_threads_local"}
"""OpenBLAS's setter that returns the count before (0.3.27 and later). Called from a thread
that is not the main one, OpenBLAS 0.3.31's usual setter (the one threadpoolctl calls) did not
change the count that thread's products used once the main thread had set it before
(measured: 6 ms of CPU a product instead of 0.2); this one does, and sets the process's count
as the other."""

Setter = Callable[[int], int]
"""Sets a library's count, returning the count before."""

_lock = threading.Lock()
_found: list[Setter] | None = None
"""The BLAS libraries loaded (found at the first decision), as setters; empty when there is
nothing to do."""
_inside = 0
_saved: list[tuple[Setter, int]] = []


def _chosen() -> bool:
    return any(os.environ.get(name) for name in CHOSEN_BY)


def _setter(lib: Any) -> Setter:
    """``lib``'s setter (a threadpoolctl controller): its own where :data:`_SETTER` names one
    it has, else threadpoolctl's ``get_num_threads`` and ``set_num_threads``."""
    name = _SETTER.get(lib.internal_api)
    for symbol in () if name is None else (name, f"scipy_{name}64_", f"{name}64_"):
        fn = getattr(lib.dynlib, symbol, None)
        if fn is not None:
            fn.argtypes, fn.restype = [ctypes.c_int], ctypes.c_int
            return cast(Setter, fn)

    def swap(threads: int) -> int:
        before: int = lib.get_num_threads()
        lib.set_num_threads(threads)
        return before

    return swap


def _libraries() -> list[Setter]:
    global _found
    if _found is None:
        found: list[Setter] = []
        if not _chosen() and find_spec("threadpoolctl") is not None:
            from threadpoolctl import ThreadpoolController

            found = [_setter(lib) for lib in ThreadpoolController().lib_controllers
                     if lib.user_api == "blas"]
        _found = found
    return _found


class _OneThread:
    """The context of :func:`one_thread`: the threads inside share the process's count (the
    first in sets one, the last out restores it)."""

    __slots__ = ("_entered",)

    def __init__(self) -> None:
        self._entered = False

    def __enter__(self) -> None:
        global _inside, _saved
        setters = _libraries()
        if not setters:
            return
        with _lock:
            if _inside == 0:
                _saved = [(setter, setter(1)) for setter in setters]
            _inside += 1
        self._entered = True

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        global _inside
        if not self._entered:
            return
        with _lock:
            _inside -= 1
            if _inside == 0 and _found:  # (limit_process meanwhile: its one thread stays)
                for setter, before in reversed(_saved):
                    setter(before)


def one_thread() -> _OneThread:
    """A context: OpenBLAS at one thread inside (unless the user chose the threads or
    :func:`limit_process` did it for the whole process)."""
    return _OneThread()


def limit_process() -> None:
    """One BLAS thread for this process and the processes it starts, unless the user chose
    the threads (see the module text). For eights' own processes: a library's user keeps
    their threads (the models limit theirs around each decision)."""
    global _found
    if _chosen():
        return
    for name in _SETS:
        os.environ[name] = "1"
    if find_spec("threadpoolctl") is not None:
        from threadpoolctl import threadpool_limits

        threadpool_limits(limits=1, user_api="blas")
    with _lock:
        _found = []
