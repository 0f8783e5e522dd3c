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
