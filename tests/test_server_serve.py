"""``eights serve``'s options, refused before anything starts: a port out of range (exit 2),
a database that cannot be reached or a SQLite URI (a sentence, no traceback); and the
layering of the server's storage: a lease takes a connection, not the store."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from eights.cli import app
from eights.server import leases


@pytest.mark.parametrize("port", ["99999", "0", "-1"])
def test_a_port_out_of_range_is_refused(port: str, tmp_path: Path) -> None:
    """Issue 35 item 9: ``--port 99999`` announced http://127.0.0.1:99999 and listened on a
    port of the system's choice."""
    result = subprocess.run([sys.executable, "-m", "eights.cli", "serve", "--port", port,
                             "--db", f"sqlite:///{tmp_path / 's.sqlite3'}"],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "--port" in result.stderr and "eights server on" not in result.stdout
    assert not (tmp_path / "s.sqlite3").exists()


@pytest.mark.parametrize(("db", "said"), [
    ("postgresql://nobody@127.0.0.1:1/x", "cannot reach the database '127.0.0.1:1/x': "
                                          "connection failed"),
    ("sqlite:///file:{tmp}/b.sqlite3?uri=true", "the SQLite database must be a plain path"),
])
def test_a_database_that_cannot_be_used_is_said_in_a_sentence(db: str, said: str,
                                                              tmp_path: Path) -> None:
    """Issue 35 item 9: an unreachable PostgreSQL printed a Python traceback."""
    result = CliRunner().invoke(app, ["serve", "--db", db.format(tmp=tmp_path)])
    assert result.exit_code == 2, result.output
    assert said in result.output and result.output.startswith("error: ")
    assert ("Traceback" not in result.output and result.exception is None) or \
        isinstance(result.exception, SystemExit)


def test_the_leases_know_a_connection_not_the_store() -> None:
    """Issue 35 item 18: ``leases`` and ``store`` imported each other; the store gives the
    leases a function that opens a connection, and ``leases`` imports nothing of the server."""
    tree = ast.parse(Path(leases.__file__).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import)
                 for alias in node.names}
    assert not {name for name in imported if name.startswith("eights")}, imported
