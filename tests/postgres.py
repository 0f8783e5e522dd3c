"""The PostgreSQL cases of the server tests: a fresh schema per test on a real server.

``EIGHTS_TEST_POSTGRES`` names a database the tests may create schemas in,
e.g. ``postgresql://eights:eights@127.0.0.1:5432/eights_test`` (``.ci/run``
starts a server and sets it). Each test gets its own schema, reached through
``search_path`` in the URL, and drops it afterwards. Without the variable the
cases are skipped, except in CI (``EIGHTS_REQUIRE_POSTGRES=1`` or ``CI``), where
they fail: a PostgreSQL case must never pass without PostgreSQL.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from eights.server.store import normalize_url

__all__ = ["BACKENDS", "ENV", "database_url", "fresh_schema", "required"]

ENV = "EIGHTS_TEST_POSTGRES"
BACKENDS = ("sqlite", "postgresql")
"""The databases a storage test runs on (``pytest.fixture(params=BACKENDS)``)."""


def required() -> bool:
    """True in CI, where the PostgreSQL cases must run."""
    def on(name: str) -> bool:
        return os.environ.get(name, "").strip().lower() not in ("", "0", "false", "no")

    return on("EIGHTS_REQUIRE_POSTGRES") or on("CI")


@contextmanager
def fresh_schema() -> Iterator[str]:
    """A URL whose connections work in a new, empty schema (dropped on exit)."""
    base = os.environ.get(ENV, "").strip()
    if not base:
        if required():
            pytest.fail(f"{ENV} is not set, and CI requires the PostgreSQL cases: set it to "
                        "postgresql://USER:PASSWORD@HOST:PORT/DATABASE (.ci/run starts a server "
                        "and sets it)", pytrace=False)
        pytest.skip(f"PostgreSQL: set {ENV}=postgresql://USER:PASSWORD@HOST:PORT/DATABASE to run "
                    "these cases against a real server")
    url = make_url(normalize_url(base))
    schema = f"eights_test_{secrets.token_hex(6)}"
    admin = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    except SQLAlchemyError as exc:
        admin.dispose()
        shown = url.render_as_string(hide_password=True)
        pytest.fail(f"{ENV}={shown}: cannot create a schema there ({type(exc).__name__}: "
                    f"{str(exc).splitlines()[0]}); is the server up and the role allowed to "
                    "create schemas?", pytrace=False)
    try:
        scoped = url.update_query_dict({"options": f"-csearch_path={schema}"})
        yield scoped.render_as_string(hide_password=False)
    finally:
        with admin.connect() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


@contextmanager
def database_url(backend: str, sqlite_path: str) -> Iterator[str]:
    """A fresh database of ``backend``: the SQLite file ``sqlite_path``, or a new schema."""
    if backend == "sqlite":
        yield f"sqlite:///{sqlite_path}"
    else:
        with fresh_schema() as url:
            yield url
