"""``eights serve --processes N`` as an operator runs it: stopped by SIGTERM or SIGHUP as by
Ctrl-C (HAProxy and every server with it), and, killed itself, not outliving its children:
each notices its supervisor died and stops."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from eights.server.cluster import LAUNCHER_FILE, RUNTIME_PREFIX, clean_stale_runtimes, free_port
from postgres import fresh_schema

CHILDREN_GONE = 15.0
"""Seconds within which the children of a killed launcher have exited."""


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:  # gone meanwhile
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, exited but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@contextmanager
def launcher(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], set[int], str]]:
    """``eights serve --processes 2`` on a fresh schema, up (answering through its proxy):
    the launcher, its children (HAProxy and the servers), its address."""
    port = free_port()
    with fresh_schema() as url:
        env = {**os.environ, "EIGHTS_DATA_DIR": str(tmp_path)}
        process = subprocess.Popen([sys.executable, "-m", "eights.cli", "serve", "--processes",
                                    "2", "--db", url, "--port", str(port)], env=env,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        kids: set[int] = set()
        try:
            deadline = time.monotonic() + 120
            while True:
                assert process.poll() is None, "the launcher exited while starting"
                try:
                    with urllib.request.urlopen(f"{base}/api/health", timeout=2) as answer:
                        if answer.status == 200:
                            break
                except OSError:
                    pass
                assert time.monotonic() < deadline, "the launcher never answered"
                time.sleep(0.2)
            kids = children(process.pid)
            assert len(kids) == 3, kids  # HAProxy and two servers
            yield process, kids, base
        finally:
            for pid in [process.pid, *kids]:
                if alive(pid):
                    os.kill(pid, signal.SIGKILL)
            process.wait(30)


def gone_within(pids: set[int], seconds: float) -> set[int]:
    """The processes of ``pids`` still running after ``seconds`` (polled)."""
    deadline = time.monotonic() + seconds
    while True:
        left = {pid for pid in pids if alive(pid)}
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.1)


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_sigterm_and_sighup_stop_the_launcher_and_everything_it_started(
        tmp_path: Path, signum: int) -> None:
    with launcher(tmp_path) as (process, kids, _base):
        workers = set().union(*(children(kid) for kid in kids))  # the servers' review workers
        process.send_signal(signum)
        assert process.wait(60) == 0
        assert gone_within(kids | workers, 5.0) == set()


def runtime_of(kids: set[int]) -> Path:
    """The private directory of a launcher's servers (their ``--unix-socket``)."""
    for pid in kids:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        if b"--unix-socket" in words:
            return Path(words[words.index(b"--unix-socket") + 1].decode()).parent
    raise AssertionError("no server of the launcher names its socket")


def test_the_children_of_a_killed_launcher_stop_by_themselves(tmp_path: Path) -> None:
    """And its private directory, which a SIGKILL leaves behind, is removed by the next
    launcher's start (issue 36 item 8)."""
    with launcher(tmp_path) as (process, kids, _base):
        runtime = runtime_of(kids)
        workers = set().union(*(children(kid) for kid in kids))  # the servers' review workers
        assert workers
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        assert gone_within(kids | workers, CHILDREN_GONE) == set()
        assert runtime.is_dir()
        assert runtime in clean_stale_runtimes(runtime.parent)  # what Cluster() does first
        assert not runtime.exists()


def test_only_the_directories_of_clusters_gone_are_removed(tmp_path: Path) -> None:
    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()
    folders = {}
    for name, pid in (("gone", ended.pid), ("running", os.getpid())):
        folders[name] = tmp_path / f"{RUNTIME_PREFIX}{name}"
        folders[name].mkdir()
        (folders[name] / LAUNCHER_FILE).write_text(str(pid))
    old = tmp_path / f"{RUNTIME_PREFIX}old"  # before the launcher's file: no socket answers
    old.mkdir()
    (old / "server1.sock").touch()
    (tmp_path / "other").mkdir()
    assert sorted(clean_stale_runtimes(tmp_path)) == sorted([folders["gone"], old])
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{RUNTIME_PREFIX}running", "other"]
