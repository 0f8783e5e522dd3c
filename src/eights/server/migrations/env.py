"""Alembic environment: the server passes its connection; by hand, give ``-x url=...``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from eights.server.store import Base, make_db_engine

target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=target_metadata,
                      render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def _url() -> str:
    url = context.get_x_argument(as_dictionary=True).get("url") or context.config.get_main_option(
        "sqlalchemy.url")
    if not url:
        raise SystemExit("give the database: alembic -x url=sqlite:////path/server.sqlite3 ...")
    return url


def main() -> None:
    if context.is_offline_mode():
        context.configure(url=_url(), target_metadata=target_metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    given = context.config.attributes.get("connection")
    if given is not None:
        _run(given)
        return
    engine = make_db_engine(_url())
    with engine.begin() as connection:
        _run(connection)
    engine.dispose()


if getattr(context, "config", None) is not None:  # run by Alembic, not merely imported
    main()
