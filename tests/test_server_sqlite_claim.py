"""One server a SQLite file, whatever path names it: a hard link (or a symbolic one) to the
file being served is the same database, and a second server on it is refused."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from eights.server.store import DatabaseInUse, Store


@pytest.mark.parametrize("link", [os.link, os.symlink], ids=["hard link", "symbolic link"])
def test_a_second_server_through_a_link_to_the_file_is_refused(tmp_path: Path, link: object
                                                                ) -> None:
    first = Store(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    first.claim()
    first.migrate()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert callable(link)
    link(tmp_path / "server.sqlite3", elsewhere / "copy.sqlite3")
    second = Store(f"sqlite:///{elsewhere / 'copy.sqlite3'}")
    with pytest.raises(DatabaseInUse) as refused:
        second.claim()
    assert "in use by another eights server" in str(refused.value)
    first.close()
    second.claim()  # the first let go: the file is free, by either name
    second.close()


def test_a_new_database_file_is_claimed_before_it_exists(tmp_path: Path) -> None:
    path = tmp_path / "new" / "server.sqlite3"
    first = Store(f"sqlite:///{path}")
    first.claim()
    assert path.exists()
    first.migrate()  # SQLite takes the empty file as a new database
    with pytest.raises(DatabaseInUse):
        Store(f"sqlite:///{path}").claim()
    first.close()


@pytest.mark.parametrize("url", ["sqlite:///file:{path}?uri=true", "sqlite:///file:{path}",
                                 "sqlite:///{path}?uri=true"])
def test_a_sqlite_uri_file_name_is_refused(tmp_path: Path, url: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 36 item 7: ``sqlite:///file:/path/b.sqlite3?uri=true``, b a hard link to a file
    another server used, started, wrote its own WAL beside a stray ``./file:`` folder, and
    replaying it later erased the other server's tables. A URI file name is refused, before
    anything is opened or made."""
    first = Store(f"sqlite:///{tmp_path / 'server.sqlite3'}")
    first.claim()
    os.link(tmp_path / "server.sqlite3", tmp_path / "b.sqlite3")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match="the SQLite database must be a plain path"):
        Store(url.format(path=tmp_path / "b.sqlite3"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.sqlite3", "server.sqlite3",
                                                          "server.sqlite3.lock"]
    first.close()
