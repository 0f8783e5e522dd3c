"""The kernel's compile said as it happens: what numba compiles, how long it takes.

numba compiles a function the first time it is called with new argument types, unless its
machine code is in the cache (``cache=True``: :mod:`eights.fast.cache`). On a fresh install
(or after the kernel's sources change) the first search decision, simulation or batched
step therefore compiles for minutes. :func:`report_compiles`, called when the kernel is
imported, makes that visible: numba broadcasts a ``numba:compile`` event for each function
it compiles (never for one loaded from the cache), and the listener here says, on the
``eights.fast`` logger (a warning: on stderr without any logging set up), first what is
happening and how long it takes, then each function called from Python once it is
compiled, with the functions it calls and the time so far. A process that loads everything
from the cache says nothing.

``python -m eights.fast`` (``eights compile``) compiles every entry point ahead of time
and prints the same progress (:func:`reporting`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from numba.core import event

__all__ = ["ESTIMATE", "CompileReport", "report_compiles", "reporting"]

log = logging.getLogger("eights.fast")

ESTIMATE = ("one to two minutes of one core on a quiet machine (more than half of it for "
            "the batched environment), many times that in wall time on a busy one")
"""How long the first compile takes, measured (docs/environments.md, docs/development.md)."""

HEADER = ("eights.fast: compiling the kernel into numba's cache (its first use since eights "
          "was installed or changed): {estimate}; once, later runs load it in about a second. "
          "`eights compile` (python -m eights.fast) compiles all of it ahead of time.")


def _module(data: Any) -> str:
    """The module of the function a ``numba:compile`` event is about."""
    return str(getattr(getattr(data.get("dispatcher"), "py_func", None), "__module__", ""))


def _name(data: Any) -> str:
    """``module.function`` of the dispatcher a ``numba:compile`` event is about."""
    func = getattr(data.get("dispatcher"), "py_func", None)
    if func is None:
        return "a numba function"
    module = func.__module__.removeprefix("eights.fast.")
    return f"{module}.{func.__qualname__}"


class CompileReport(event.Listener):
    """A ``numba:compile`` listener: ``say`` the header at the first compile, then a line
    for each outermost function once compiled (the functions compiled inside it, being
    typed as it is, are counted in it); only the compiles of functions whose module
    starts with ``prefix`` (eights' own by default: a program's own numba functions are
    its business)."""

    def __init__(self, say: Callable[[str], None], prefix: str = "eights.") -> None:
        self.say = say
        self.prefix = prefix
        self.functions = 0
        """Functions compiled so far in this process."""
        self.seconds = 0.0
        """Wall seconds spent compiling so far."""
        self._depth = 0
        self._began = 0.0
        self._inner = 0
        self._ours = False
        self._told = False

    def on_start(self, ev: Any) -> None:
        if self._depth == 0:
            self._ours = _module(ev.data).startswith(self.prefix)
        if self._depth == 0 and self._ours:
            if not self._told:
                self._told = True
                self.say(HEADER.format(estimate=ESTIMATE))
            self._began = time.perf_counter()
            self._inner = 0
        self._depth += 1

    def on_end(self, ev: Any) -> None:
        self._depth -= 1
        if not self._ours:
            return
        self.functions += 1
        if self._depth > 0:
            self._inner += 1
            return
        took = time.perf_counter() - self._began
        self.seconds += took
        inner = f" and {self._inner} it calls" if self._inner else ""
        plural = "s" * (self.functions != 1)
        self.say(f"eights.fast: compiled {_name(ev.data)}{inner} in {took:.1f} s "
                 f"({self.functions} function{plural}, {self.seconds:.0f} s so far)")


_report: CompileReport | None = None


def _warn(text: str) -> None:
    log.warning(text)


def report_compiles() -> CompileReport:
    """Listen to numba's compiles for the rest of the process (once; the kernel's import
    calls it), saying them on the ``eights.fast`` logger."""
    global _report
    if _report is None:
        _report = CompileReport(_warn)
        event.register("numba:compile", _report)  # type: ignore[no-untyped-call]
    return _report


@contextmanager
def reporting(say: Callable[[str], None]) -> Iterator[CompileReport]:
    """Say the compiles with ``say`` rather than the logger while inside (``python -m
    eights.fast`` prints them)."""
    report = report_compiles()
    before = report.say
    report.say = say
    try:
        yield report
    finally:
        report.say = before
