"""The web app: HTTP for the lobby and seats, one WebSocket per table connection."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import orjson
from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from eights import __version__
from eights.engine.rules import load_rules, preset_names
from eights.server.hub import Hub
from eights.server.limits import Limits
from eights.server.protocol import (
    CreateTable,
    ErrorCode,
    JoinTable,
    Ping,
    ProtocolError,
    RulesCheck,
    describe_errors,
    error_event,
    event,
    parse_message,
)
from eights.server.review import Reviewer, add_review_routes
from eights.server.room import Connection, Room
from eights.server.store import Store
from eights.server.thinking import BOTS, Pool, table_fits
from eights.server.web import LEVELS, add_web_routes

__all__ = ["LEVELS", "create_app", "data_dir", "default_db_url"]

log = logging.getLogger("eights.server")

TABLE_HEADER = "X-Eights-Table"
"""The response header naming a table just made (the proxy sticks the table to its maker)."""

RUNS_HEADER = "X-Eights-Runs"
"""The response header of an answer about a table (``/api/tables/CODE…``, the handshake of
``/ws/tables/CODE``) from the process that runs it: ``CODE``. The proxy sticks the code to
the process that says so, and to no other (deploy/haproxy.cfg)."""


def _table_of(path: str) -> str:
    """The code in ``/api/tables/CODE…`` (else ``""``)."""
    parts = path.split("/", 4)
    return parts[3] if len(parts) > 3 and parts[1:3] == ["api", "tables"] else ""


def _runs_header(hub: Hub, code: str) -> list[tuple[bytes, bytes]] | None:
    """``X-Eights-Runs: CODE`` when this process runs the open table ``code``."""
    if code and hub.runs(code):
        return [(RUNS_HEADER.lower().encode(), code.encode("ascii", "replace"))]
    return None

MAX_BODY = 16 * 1024
"""Largest HTTP request body, in bytes."""

_BAD_BODY = 'the body is not valid JSON; send one JSON object such as {"rules": "classic"}'

PLAIN_PATHS = ("percent-encoded addresses are refused: write the address plainly, such as "
               "/api/tables/CODE")
"""Why a path with a percent escape is refused (the proxy routes on the path as written, the
server decodes it: an escape would let a request about a table reach another process)."""

_STATUS = {
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.TOO_MANY: 429,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.WRONG_STATUS: 409,
    ErrorCode.BAD_REQUEST: 400,
    ErrorCode.BAD_MESSAGE: 422,
    ErrorCode.INTERNAL: 500,
    ErrorCode.UNAVAILABLE: 503,
}


def data_dir() -> Path:
    """``$EIGHTS_DATA_DIR``, else the user's data directory."""
    env = os.environ.get("EIGHTS_DATA_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("eights"))


def default_db_url() -> str:
    """The SQLite file ``server.sqlite3`` in :func:`data_dir`."""
    return f"sqlite:///{data_dir() / 'server.sqlite3'}"


def _address(conn: Request | WebSocket) -> str:
    return conn.client.host if conn.client is not None else "unknown"


def _error_response(code: ErrorCode, message: str, status: int | None = None) -> JSONResponse:
    """The JSON error; ``unavailable`` says when to try again (``Retry-After: 1``)."""
    headers = {"Retry-After": "1"} if code is ErrorCode.UNAVAILABLE else None
    return JSONResponse({"type": "error", "code": code.value, "message": message},
                        status_code=status or _STATUS.get(code, 400), headers=headers)


def create_app(db_url: str | None = None, *, bot_delay: float = 0.6,
               limits: Limits | None = None, testing_fixed_seeds: bool = False,
               bot_workers: int | None = None, bot_pool: Pool = "processes") -> FastAPI:
    """The server app: tables stored at ``db_url`` (default: :func:`default_db_url`).

    ``bot_delay`` is the pause before a bot moves (so people can follow);
    ``limits`` bounds sizes, rates and counts. Search bots think in ``bot_workers``
    processes of their own (``bot_pool="threads"``: threads; by default as many as
    :func:`eights.server.thinking.default_workers`: the processors less one), see
    :mod:`eights.server.thinking`. The schema is migrated and the
    open tables are restored when the app starts (its lifespan).

    ``testing_fixed_seeds`` is for tests only: ``POST /api/tables`` then takes
    a ``seed``, and whoever knows a table's seed knows every hand and the stock.
    Without it (the default) every table is dealt from the server's secure
    randomness and a ``seed`` is refused.
    """
    store = Store(db_url or default_db_url())
    hub = Hub(store, limits or Limits(), bot_delay, fixed_seeds=testing_fixed_seeds,
              bot_workers=bot_workers, bot_pool=bot_pool)
    reviewer = Reviewer(pool=bot_pool)  # reviews of ended rounds: server/review.py

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        hub.start()
        try:
            yield
        finally:
            reviewer.close()
            await hub.stop()

    app = FastAPI(title="eights", version=__version__, lifespan=lifespan,
                  docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json")
    app.state.hub = hub
    app.add_middleware(_PlainPaths)
    app.state.reviewer = reviewer

    @app.middleware("http")
    async def _bounded_bodies(request: Request, call_next: Callable[[Request], Awaitable[Response]]
                              ) -> Response:
        """Bodies with a bounded ``Content-Length``; and an answer about a table says, once
        it is given, whether the table runs here (:data:`RUNS_HEADER`)."""
        if request.method in ("POST", "PUT", "PATCH"):
            length = request.headers.get("content-length")
            if length is None or not length.isdigit():
                return _error_response(ErrorCode.BAD_REQUEST, "send the body with a Content-Length",
                                       411)
            if int(length) > MAX_BODY:
                return _error_response(ErrorCode.TOO_LARGE, f"request bodies are capped at "
                                       f"{MAX_BODY} bytes", 413)
        response = await call_next(request)
        for name, value in _runs_header(hub, _table_of(request.url.path)) or ():
            response.headers[name.decode()] = value.decode()
        return response

    @app.exception_handler(ProtocolError)
    async def _refused(_request: Request, exc: ProtocolError) -> JSONResponse:
        return _error_response(exc.code, exc.message)

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [{**e, "loc": tuple(e.get("loc", ()))[1:]} for e in exc.errors()]
        if any(e.get("type") == "json_invalid" for e in errors):
            return _error_response(ErrorCode.BAD_MESSAGE, _BAD_BODY)
        path = request.url.path
        model = (JoinTable if path.endswith("/join") else RulesCheck if path == "/api/rules/check"
                 else CreateTable)
        return _error_response(ErrorCode.BAD_MESSAGE,
                               describe_errors(errors, list(model.model_fields)))

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:  # a body FastAPI could not decode (nesting, huge numbers)
            return _error_response(ErrorCode.BAD_MESSAGE, _BAD_BODY)
        if exc.status_code == 404:
            return _error_response(ErrorCode.NOT_FOUND, "there is nothing at this address; the "
                                   "API is described at /api/docs")
        if exc.status_code == 405:
            return _error_response(ErrorCode.BAD_REQUEST, "this address does not take this "
                                   "method; the API is described at /api/docs", 405)
        return _error_response(ErrorCode.BAD_REQUEST, str(exc.detail)[:200], exc.status_code)

    @app.exception_handler(Exception)
    async def _failed(_request: Request, exc: Exception) -> JSONResponse:
        log.error("request failed", exc_info=exc)
        return _error_response(ErrorCode.INTERNAL, "the server failed to handle this request")

    # ------------------------------------------------------------------ HTTP

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        """``ok``, or ``degraded`` while some table waits for the database (see Hub.health)."""
        return hub.health()

    listed: list[dict[str, Any]] = []

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        """The rule sets a table can use, and the bots it can seat (``bots``: their names;
        ``levels``: the levels the new-table form offers, as bot specs, weakest first; a
        preset's ``bot_players``: the player counts a level that needs something made for
        the table, the learned bot's model, can be seated at)."""
        if not listed:  # the same for the server's life; the models are read once
            for name in preset_names():
                rules = load_rules(name)
                listed.append({"name": name, "title": rules.title,
                               "players": list(rules.players),
                               "default_players": rules.default_players, "target": rules.target,
                               "bot_players": await asyncio.to_thread(table_fits, rules,
                                                                      LEVELS)})
        return {"presets": listed, "bots": list(BOTS), "levels": list(LEVELS)}

    @app.get("/api/tables")
    async def lobby() -> dict[str, Any]:
        """Public tables waiting for players or being played."""
        return {"tables": await hub.lobby()}

    @app.post("/api/tables", status_code=201)
    async def create(body: CreateTable, request: Request, response: Response) -> dict[str, Any]:
        """Create a table; keep ``host_token`` (and ``token`` when you took a seat) secret.
        The ``X-Eights-Table`` header names it: a proxy in front of several processes sends
        its requests to the process that made it (deploy/haproxy.cfg)."""
        answer = await hub.create(body, _address(request))
        response.headers[TABLE_HEADER] = answer["code"]
        return answer

    @app.get("/api/tables/{code}")
    async def table(code: str) -> dict[str, Any]:
        return (await hub.look(code)).info()

    @app.post("/api/tables/{code}/join")
    async def join(code: str, body: JoinTable, request: Request) -> dict[str, Any]:
        """Take a free seat: the answer holds the seat's secret token."""
        hub.check_rate(_address(request))
        room = await hub.get(code)
        seat, token = await room.join(body.name, body.seat)
        return {"code": room.code, "seat": seat, "token": token, "table": room.info()}

    @app.get("/api/tables/{code}/record")
    async def record(code: str, request: Request) -> dict[str, Any]:
        """The match as ``eights-record/1`` (once it is over or the table is closed)."""
        return await hub.record(code, _address(request))

    # ------------------------------------------------------------------ WebSocket

    @app.websocket("/ws/tables/{code}")
    async def table_socket(websocket: WebSocket, code: str) -> None:
        address = _address(websocket)
        try:
            hub.admit(address)
        except ProtocolError as exc:
            await websocket.accept()
            await websocket.send_text(error_event(exc.code, exc.message))
            await websocket.close(1008, "too many connections")
            return
        conn = Connection(address, hub.limits)
        pump: asyncio.Task[None] | None = None
        room: Room | None = None
        try:  # from here on, whatever happens, the slot is given back
            try:
                room = await hub.get(code)
            except ProtocolError as exc:  # unavailable (run elsewhere for now): try again
                conn.send(error_event(exc.code, exc.message))
                conn.close(1013 if exc.code is ErrorCode.UNAVAILABLE else 1008, exc.code.value)
            except Exception:  # the database failed: say so; the client may try again
                log.exception("table %s: looking it up failed", code[:32])
                conn.send(error_event(ErrorCode.UNAVAILABLE, "the server cannot read its "
                                      "tables right now; try again in a moment"))
                conn.close(1013, "try again later")
            # The handshake's answer says whether the table runs here (for the proxy).
            try:
                await websocket.accept(headers=_runs_header(hub, code))
            except Exception:  # the client went away meanwhile
                return
            pump = asyncio.create_task(_pump(websocket, conn, hub.limits.send_timeout))
            if room is not None:
                serve = asyncio.create_task(_serve(websocket, conn, room, hub.limits))
                await asyncio.wait((serve, pump), return_when=asyncio.FIRST_COMPLETED)
                if serve.done():
                    serve.result()
                else:  # the socket closed, or the client stopped reading
                    serve.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await serve
        finally:
            if room is not None:
                room.leave(conn)
            hub.release(address)
            conn.close(1000, "")
            if pump is not None:
                try:
                    await asyncio.wait_for(pump, 5)
                except (TimeoutError, asyncio.CancelledError):
                    pump.cancel()

    add_web_routes(app)  # the browser table: /, /t/CODE, /static, /api/i18n/LANG
    add_review_routes(app, reviewer)  # POST /api/tables/CODE/review
    return app


class _PlainPaths:
    """Refuses every request whose path holds a percent escape (``400``; a WebSocket is
    closed before it opens): the proxy routes a table's requests by the path as written, and
    ``/api%2Ftables/CODE`` would be routed as another address (docs/protocol.md)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and b"%" in scope.get("raw_path", b""):
            if scope["type"] == "http":
                await _error_response(ErrorCode.BAD_REQUEST, PLAIN_PATHS, 400)(scope, receive,
                                                                               send)
            else:
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008, "reason": "percent escape"})
            return
        await self.app(scope, receive, send)


async def _pump(websocket: WebSocket, conn: Connection, timeout: float) -> None:
    """Send a connection's queued events in order; ``None`` closes the socket. A send that
    takes over ``timeout`` seconds (the client stopped reading) ends the connection."""
    try:
        while True:
            text = await conn.queue.get()
            if text is None:
                await asyncio.wait_for(websocket.close(conn.close_code, conn.close_reason),
                                       timeout)
                return
            await asyncio.wait_for(websocket.send_text(text), timeout)
            conn.sent(text)
    except TimeoutError:
        log.info("a client at %s stopped reading: dropped", conn.address)
        conn.close(1013, "too far behind", drop=True)
    except Exception:  # the client went away
        conn.closing = True


_INTERNAL = "the server failed to handle this message; the table is unchanged"


def message_type(text: str) -> str:
    """The ``type`` of a message, for the log (never its token)."""
    try:
        kind = orjson.loads(text).get("type")
    except (ValueError, AttributeError, RecursionError):
        return "malformed"
    return kind if isinstance(kind, str) and kind.isidentifier() and len(kind) <= 20 else "malformed"


async def _serve(websocket: WebSocket, conn: Connection, room: Room, limits: Limits) -> None:
    """Read, check and dispatch a connection's messages until it closes.

    Whatever goes wrong with one message, the connection gets an ``error``
    event and stays open: an unexpected exception is logged here with its
    traceback and sent as ``internal``, without details (the room changes
    nothing until a change is complete, so the game is as it was).
    """
    while not conn.closing:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = message.get("text")
        try:
            if not await _frame(conn, room, limits, text):
                return
        except Exception:
            kind = message_type(text) if isinstance(text, str) else "binary"
            log.exception("table %s: a %s message failed", room.code, kind)
            conn.send(error_event(ErrorCode.INTERNAL, _INTERNAL))


async def _frame(conn: Connection, room: Room, limits: Limits, text: str | None) -> bool:
    """One frame from the client (``text`` is ``None`` for a binary one); False to stop."""
    if not conn.bucket.take():
        conn.strikes += 1
        if conn.strikes >= limits.strikes:
            conn.send(error_event(ErrorCode.RATE_LIMITED, "too many messages: disconnecting"))
            conn.close(1008, "too many messages")
            return False
        conn.send(error_event(ErrorCode.RATE_LIMITED, f"more than {limits.messages_per_second:g} "
                              "messages a second; this one was dropped, slow down"))
        return True
    if not isinstance(text, str):
        conn.send(error_event(ErrorCode.BAD_JSON, "send JSON in text frames, not binary ones"))
        return True
    cap = limits.message_bytes
    size = len(text) if len(text) > cap else len(text.encode("utf-8", "surrogatepass"))
    if size > cap:
        conn.send(error_event(ErrorCode.TOO_LARGE, f"the message has {size} bytes or more; "
                              f"messages are capped at {cap} bytes"))
        return True
    seq: int | None = None
    version = room.version
    try:
        msg = parse_message(text)
        seq = msg.seq
        if msg.seq <= conn.last_seq:
            raise ProtocolError(ErrorCode.STALE, f"seq {msg.seq} is not above {conn.last_seq}, "
                                "the last seq sent on this connection: a stale or replayed "
                                "message; give each message a larger seq")
        conn.last_seq = msg.seq
        if isinstance(msg, Ping):
            conn.send(event("pong", seq=msg.seq))
            return True
        # Shielded: once a change is under way, it completes even if this reader is cancelled.
        await asyncio.shield(asyncio.ensure_future(room.handle(conn, msg)))
    except ProtocolError as exc:
        conn.send(error_event(exc.code, exc.message, exc.seq if exc.seq is not None else seq))
    except Exception:
        log.exception("table %s: a %s message failed", room.code, message_type(text))
        if room.version == version:
            conn.send(error_event(ErrorCode.INTERNAL, _INTERNAL, seq))
        else:  # the table moved on (a failure after a change was stored, or a bot meanwhile)
            conn.send(error_event(ErrorCode.INTERNAL, "the server failed to handle this message; "
                                  "here is the current state", seq))
            if conn.joined:
                conn.send(room.state_event(conn.seat, conn.lang))
    return True
