"""Several ``eights serve`` processes on one PostgreSQL database, behind HAProxy.

:class:`Cluster` starts ``processes`` servers on Unix sockets in a private directory and
HAProxy in front of them, its configuration rendered from ``deploy/haproxy.cfg`` (the
``bind`` line and the server lines replaced); ``eights serve --processes N``
runs one until it is stopped, and the tests and benchmarks use it to kill and
restart servers::

    with Cluster("postgresql://...", 2, log_dir=Path("logs")) as cluster:
        httpx.get(f"{cluster.url}/api/tables")
        cluster.kill(0)      # SIGKILL: its tables are adopted by the other process
        cluster.restart(0)   # the same socket again, back once healthy

Each server writes to ``log_dir/server<i>.log`` (appended across restarts), HAProxy
to ``log_dir/haproxy.log``; the rendered configuration is ``log_dir/haproxy.cfg``.

The children do not outlive the process that started them: each server watches its parent
(:func:`watch_supervisor`, told by :data:`SUPERVISOR_ENV`) and stops as on SIGTERM once it is
gone; HAProxy gets the parent-death signal (``PR_SET_PDEATHSIG``: SIGTERM when the thread that
made the cluster ends, so make it in a thread that lives as long as the cluster).
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import http.client
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any

__all__ = ["HAPROXY_CONFIG", "LAUNCHER_FILE", "RUNTIME_PREFIX", "SUPERVISOR_ENV", "Cluster",
           "ClusterError", "clean_stale_runtimes", "free_port", "per_address_bound",
           "render_haproxy", "unix_request", "watch_supervisor"]

log = logging.getLogger("eights.server")

HAPROXY_CONFIG = Path(__file__).parent / "haproxy.cfg"
"""The shipped configuration (``deploy/haproxy.cfg`` in the repository links to it)."""

START_WAIT = 90.0
"""Seconds a server (or the proxy) may take to answer its first health check."""

SUPERVISOR_ENV = "EIGHTS_SUPERVISOR"
"""The environment variable that gives a server the process id of its supervisor (the
cluster's process): the server stops once that process is gone (:func:`watch_supervisor`)."""

ORPHAN_CHECK = 0.5
"""Seconds between two looks of a server at its supervisor."""
ORPHAN_STOP = 30.0
"""Seconds an orphaned server has to stop cleanly before it exits at once."""


RUNTIME_PREFIX = "eights-cluster-"
"""The start of the name of a cluster's private directory, in the system's temporary one."""
LAUNCHER_FILE = "launcher.pid"
"""The file of a cluster's directory that holds the process id of the process running it."""


def clean_stale_runtimes(parent: Path | None = None) -> list[Path]:
    """Remove the private directories of clusters whose process is gone (killed by SIGKILL,
    which runs no clean-up): those of this user in ``parent`` (the system's temporary
    directory) whose :data:`LAUNCHER_FILE` names a process that no longer runs, or, made
    before that file, where no socket answers. The directories removed."""
    removed = []
    for folder in sorted(Path(parent or tempfile.gettempdir()).glob(RUNTIME_PREFIX + "*")):
        try:
            if not folder.is_dir() or folder.is_symlink() or folder.stat().st_uid != os.getuid():
                continue
            pid_file = folder / LAUNCHER_FILE
            if pid_file.exists():
                text = pid_file.read_text(encoding="ascii").strip()
                stale = text.isdigit() and not _runs(int(text))
            else:
                stale = not any(_answers(sock) for sock in folder.glob("*.sock"))
        except OSError:
            continue
        if stale:
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def _runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: it runs
        return True
    return True


def _answers(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX) as probe:
        probe.settimeout(1.0)
        try:
            probe.connect(str(path))
        except OSError:
            return False
    return True


class ClusterError(RuntimeError):
    """A server or the proxy did not start (the message names its log)."""


def free_port(host: str = "127.0.0.1") -> int:
    """A port free on ``host`` now (the system's choice for port 0)."""
    with socket.socket() as s:
        s.bind((host, 0))
        port: int = s.getsockname()[1]
        return port


def watch_supervisor() -> bool:
    """In a server started by a :class:`Cluster`: a thread that stops this process (SIGTERM,
    a clean stop) once its supervisor is gone, and ends it :data:`ORPHAN_STOP` seconds later
    if it has not stopped by then. False (nothing watched) outside a cluster."""
    value = os.environ.get(SUPERVISOR_ENV, "")
    if not value.isdigit():
        return False
    supervisor = int(value)

    def watch() -> None:
        while os.getppid() == supervisor:
            time.sleep(ORPHAN_CHECK)
        log.warning("the supervisor (process %d) is gone: stopping", supervisor)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(ORPHAN_STOP)
        log.error("did not stop within %g s of the supervisor's end: exiting", ORPHAN_STOP)
        os.kill(os.getpid(), signal.SIGKILL)

    threading.Thread(target=watch, name="eights-supervisor-watch", daemon=True).start()
    return True


def _dies_with_parent() -> Any:
    """A ``preexec_fn`` giving the child SIGTERM when its parent (thread) ends (Linux
    ``PR_SET_PDEATHSIG``), and exiting it at once if the parent is already gone; ``None``
    where the system has no ``prctl``."""
    name = ctypes.util.find_library("c")
    prctl = getattr(ctypes.CDLL(name, use_errno=True), "prctl", None) if name else None
    if prctl is None or not sys.platform.startswith("linux"):
        return None
    parent = os.getpid()

    def child() -> None:
        prctl(1, signal.SIGTERM, 0, 0, 0)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)

    return child


def per_address_bound(serve_args: Sequence[str]) -> int | None:
    """The proxy's bound on one address's connections for servers started with
    ``serve_args``: lifted with ``--address-limit L`` to L + 40 (as each server's own socket
    bound), else ``None`` (the configuration's, 60).

    >>> per_address_bound(["--bot-delay", "0", "--address-limit", "500"])
    540
    """
    args = list(serve_args)
    if "--address-limit" in args[:-1]:
        return int(args[args.index("--address-limit") + 1]) + 40
    return None


def render_haproxy(template: str, *, bind: str, servers: Sequence[int | str | Path],
                   per_address: int | None = None, stats: Path | None = None) -> str:
    r"""``template`` (``deploy/haproxy.cfg``) listening on ``bind`` (``host:port``), each
    backend's servers being ``servers``: local ports, or the paths of Unix sockets. With
    ``per_address``, the connections one address may hold at once through the proxy (and
    sixty times as many new tables a minute from one network); with ``stats``, HAProxy's
    runtime API on that Unix socket (``show table eights``).

    >>> cfg = ("frontend f\n    bind 127.0.0.1:8000\n"
    ...        "backend b\n    # servers\n    x\n    # servers end\n")
    >>> print(render_haproxy(cfg, bind="127.0.0.1:9", servers=[7, Path("/run/e/s2.sock")]),
    ...       end="")
    frontend f
        bind 127.0.0.1:9
    backend b
        # servers
        server eights1 127.0.0.1:7 id 1
        server eights2 /run/e/s2.sock id 2
        # servers end
    """
    lines = "".join(f"    server eights{i} {address} id {i}\n" for i, address in enumerate(
        (f"127.0.0.1:{s}" if isinstance(s, int) else str(s) for s in servers), 1))
    text, binds = re.subn(r"(?m)^(\s*bind )\S+", lambda m: m[1] + bind, template, count=1)
    text, blocks = re.subn(r"(?ms)^(\s*# servers\b[^\n]*\n).*?^(\s*# servers end\n)",
                           lambda m: m[1] + lines + m[2], text)
    if binds != 1 or blocks < 1:
        raise ClusterError("the HAProxy configuration needs a 'bind' line and '# servers' ... "
                           "'# servers end' blocks (see deploy/haproxy.cfg)")
    if per_address is not None:  # (load tests from one machine: its network's creations too)
        text = re.sub(r"(sc0_conn_cur gt )\d+", lambda m: f"{m[1]}{per_address}", text)
        text = re.sub(r"(sc1_http_req_rate\(creations\) gt )\d+",
                      lambda m: f"{m[1]}{per_address * 60}", text)
    if stats is not None:
        text = re.sub(r"(?m)^global[ \t]*\n",
                      lambda m: f"{m[0]}    stats socket {stats} mode 600 level admin\n",
                      text, count=1)
    return text


class Cluster:
    """``processes`` servers of ``db_url`` (PostgreSQL) and HAProxy in front: started at once,
    stopped by :meth:`stop` (or leaving the ``with`` block).

    ``serve_args`` are more ``eights serve`` options for every server (e.g.
    ``["--bot-delay", "0.05"]``); each already gets ``--db`` and ``--unix-socket``: the
    servers listen on Unix sockets in a private directory (:attr:`runtime`, mode 0700),
    which the proxy alone reaches (no other user can open them, so nobody else can pose as
    the proxy and set ``X-Forwarded-For``), and HAProxy's runtime API is
    ``runtime/haproxy.sock``. The proxy listens on ``host:port`` (port 0: a free one).
    """

    def __init__(self, db_url: str, processes: int, *, log_dir: Path,
                 serve_args: Sequence[str] = (), haproxy: str = "/usr/sbin/haproxy",
                 host: str = "127.0.0.1", port: int = 0,
                 config: Path | None = None) -> None:
        if processes < 1:
            raise ValueError(f"a cluster has 1 or more processes, not {processes}")
        if not db_url.startswith(("postgresql", "postgres:")):
            raise ValueError("several processes serve a PostgreSQL database only (a SQLite "
                             "file is served by one process); give --db postgresql://...")
        if not (os.path.isfile(haproxy) and os.access(haproxy, os.X_OK)):
            raise ClusterError(f"HAProxy is not at {haproxy!r}: install it (Debian: apt-get "
                               "install haproxy) or say where it is")
        self.db_url = db_url
        self.log_dir = Path(log_dir)
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.serve_args = list(serve_args)
        self.haproxy = haproxy
        self.host = host
        clean_stale_runtimes()
        self.runtime = Path(tempfile.mkdtemp(prefix=RUNTIME_PREFIX))
        """The private directory (mode 0700) of the servers' sockets and HAProxy's runtime
        API; removed by :meth:`stop`, or, should this process be killed first, by the next
        cluster's start (:func:`clean_stale_runtimes`)."""
        (self.runtime / LAUNCHER_FILE).write_text(str(os.getpid()), encoding="ascii")
        self.sockets = [self.runtime / f"server{i + 1}.sock" for i in range(processes)]
        """The servers' Unix sockets (kept across :meth:`restart`)."""
        self.stats = self.runtime / "haproxy.sock"
        """HAProxy's runtime API (``show table eights``: the connections of each address)."""
        self.proxy_port = port or free_port(host)
        self.servers: list[subprocess.Popen[bytes] | None] = [None] * processes
        self.proxy: subprocess.Popen[bytes] | None = None
        source = config or HAPROXY_CONFIG
        self.config = self.log_dir / "haproxy.cfg"
        self.config.write_text(render_haproxy(source.read_text(encoding="utf-8"),
                                              bind=f"{host}:{self.proxy_port}",
                                              servers=self.sockets,
                                              per_address=per_address_bound(self.serve_args),
                                              stats=self.stats), encoding="utf-8")
        try:
            for i in range(processes):
                self._start(i)
            for i in range(processes):
                self._wait(i)
            self._start_proxy()
        except BaseException:
            self.stop()
            raise

    @property
    def url(self) -> str:
        """The proxy's address: ``http://HOST:PORT``."""
        return f"http://{self.host}:{self.proxy_port}"

    def server_socket(self, i: int) -> Path:
        """Server ``i``'s own Unix socket (past the proxy)."""
        return self.sockets[i]

    def alive(self, i: int) -> bool:
        server = self.servers[i]
        return server is not None and server.poll() is None

    # ------------------------------------------------------------------ servers

    def _start(self, i: int) -> None:
        command = [sys.executable, "-m", "eights.cli", "serve", "--db", self.db_url,
                   "--unix-socket", str(self.sockets[i]), *self.serve_args]
        with (self.log_dir / f"server{i}.log").open("ab") as log:
            log.write(f"--- {time.strftime('%H:%M:%S')} starting server {i} on "
                      f"{self.sockets[i]}\n".encode())
            log.flush()
            self.servers[i] = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                env={**os.environ, SUPERVISOR_ENV: str(os.getpid())})

    def _wait(self, i: int) -> None:
        """Until server ``i`` answers ``/api/health`` (raises when it exits or is too slow)."""
        deadline = time.monotonic() + START_WAIT
        while True:
            server = self.servers[i]
            if server is None or server.poll() is not None:
                raise ClusterError(f"server {i} exited while starting; see "
                                   f"{self.log_dir / f'server{i}.log'}")
            if _healthy_at(self.sockets[i]):
                return
            if time.monotonic() > deadline:
                raise ClusterError(f"server {i} did not answer within {START_WAIT:g} s; see "
                                   f"{self.log_dir / f'server{i}.log'}")
            time.sleep(0.1)

    def kill(self, i: int) -> None:
        """``kill -9`` server ``i`` (PostgreSQL lets go of its leases at once)."""
        server = self.servers[i]
        if server is not None and server.poll() is None:
            server.send_signal(signal.SIGKILL)
            server.wait()

    def terminate(self, i: int, timeout: float = 20.0) -> None:
        """Stop server ``i`` as an operator would (SIGTERM; SIGKILL after ``timeout`` s)."""
        server = self.servers[i]
        if server is not None and server.poll() is None:
            server.terminate()
            try:
                server.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill(i)

    def restart(self, i: int) -> None:
        """Start server ``i`` again on its socket (stopped first if it runs); returns once it
        answers its health check and the proxy sends it requests again (its checks marked it
        up: a second or two)."""
        self.terminate(i)
        self._start(i)
        self._wait(i)
        if self.proxy is not None and self.proxy.poll() is None:
            deadline = time.monotonic() + START_WAIT
            while not self.proxy_sees(i):
                if time.monotonic() > deadline:
                    raise ClusterError(f"the proxy did not mark server {i} up within "
                                       f"{START_WAIT:g} s; see {self.log_dir / 'haproxy.log'}")
                time.sleep(0.1)

    def ask_proxy(self, command: str) -> str:
        """A command to HAProxy's runtime API (``show stat``, ``show table eights``...): its
        answer."""
        with socket.socket(socket.AF_UNIX) as api:
            api.settimeout(5)
            api.connect(str(self.stats))
            api.sendall(command.encode() + b"\n")
            answer = b""
            while chunk := api.recv(65536):
                answer += chunk
        return answer.decode("utf-8", "replace")

    def proxy_sees(self, i: int) -> bool:
        """Whether the proxy marks server ``i`` up in every backend."""
        try:
            rows = [line.split(",") for line in self.ask_proxy("show stat").splitlines()
                    if not line.startswith("#")]
        except OSError:
            return False
        mine = [row for row in rows if len(row) > 17 and row[1] == f"eights{i + 1}"]
        return bool(mine) and all(row[17].startswith("UP") for row in mine)  # "UP 1/3" too

    # ------------------------------------------------------------------ the proxy

    def _start_proxy(self) -> None:
        with (self.log_dir / "haproxy.log").open("ab") as log:
            self.proxy = subprocess.Popen([self.haproxy, "-db", "-f", str(self.config)],
                                          stdout=log, stderr=subprocess.STDOUT,
                                          stdin=subprocess.DEVNULL,
                                          preexec_fn=_dies_with_parent())
        deadline = time.monotonic() + START_WAIT
        while not _healthy(self.url):
            if self.proxy.poll() is not None:
                raise ClusterError(f"HAProxy exited while starting; see "
                                   f"{self.log_dir / 'haproxy.log'}")
            if time.monotonic() > deadline:
                raise ClusterError(f"HAProxy did not answer within {START_WAIT:g} s; see "
                                   f"{self.log_dir / 'haproxy.log'}")
            time.sleep(0.1)

    # ------------------------------------------------------------------ the end

    def stop(self) -> None:
        """Stop the proxy and every server (SIGTERM, then SIGKILL after 20 s)."""
        if self.proxy is not None and self.proxy.poll() is None:
            self.proxy.terminate()
            try:
                self.proxy.wait(10)
            except subprocess.TimeoutExpired:
                self.proxy.kill()
                self.proxy.wait()
        for server in self.servers:
            if server is not None and server.poll() is None:
                server.terminate()
        for i in range(len(self.servers)):
            self.terminate(i)
        shutil.rmtree(self.runtime, ignore_errors=True)

    def supervise(self) -> None:
        """Until the proxy exits: start again each server that exits (``eights serve
        --processes``; Ctrl-C, SIGTERM and SIGHUP stop it: see the command)."""
        while self.proxy is not None and self.proxy.poll() is None:
            for i in range(len(self.servers)):
                if not self.alive(i):
                    print(f"server {i} exited; starting it again (log: "
                          f"{self.log_dir / f'server{i}.log'})", file=sys.stderr, flush=True)
                    with contextlib.suppress(ClusterError):
                        self.restart(i)
            time.sleep(0.5)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()


def _healthy(url: str) -> bool:
    with (contextlib.suppress(OSError, urllib.error.URLError),
          urllib.request.urlopen(f"{url}/api/health", timeout=2) as answer):
        return int(answer.status) == 200
    return False


def _healthy_at(path: Path) -> bool:
    with contextlib.suppress(OSError, http.client.HTTPException):
        return unix_request(path, "GET", "/api/health", timeout=2)[0] == 200
    return False


class _UnixConnection(http.client.HTTPConnection):
    """HTTP over a Unix socket."""

    def __init__(self, path: Path, timeout: float) -> None:
        super().__init__("localhost", timeout=timeout)
        self.path = str(path)

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path)


def unix_request(path: Path, method: str, target: str, body: bytes | None = None, *,
                 headers: dict[str, str] | None = None, timeout: float = 20.0
                 ) -> tuple[int, bytes]:
    """One HTTP request to a server's Unix socket ``path`` (:meth:`Cluster.server_socket`):
    the status and the body."""
    connection = _UnixConnection(path, timeout)
    try:
        connection.request(method, target, body=body, headers=headers or {})
        answer = connection.getresponse()
        return answer.status, answer.read()
    finally:
        connection.close()
