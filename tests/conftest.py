"""Hooks for the whole suite."""

from __future__ import annotations

import gc

import pytest


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish() -> None:
    """Collect the garbage once, after the session's fixtures are torn down, then freeze
    what is left, so that the end of a pytest-xdist worker takes a moment.

    After its session, pytest runs five full garbage collections (its check for
    unraisable exceptions). A worker that has run its share of the suite holds over a
    million objects, and on a busy machine each collection took 7 s. That happens after
    the worker has told the controller it is done, and the controller then closes it:
    execnet interrupts a worker still running 5 s later with SIGINT, whose
    KeyboardInterrupt, raised inside hypothesis's gc callback, ended every green
    ``make test`` with a PytestUnraisableExceptionWarning. Here, before the worker says
    it is done, one collection still finds what the tests left unreachable (its
    unraisable exceptions are reported as before); frozen, the survivors are skipped by
    pytest's collections.
    """
    gc.collect()
    gc.freeze()
