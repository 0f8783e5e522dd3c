"""``make test``'s set-up (tools/test-env): as root it installs the missing Debian
packages, not as root it stops at once with the command to run; the test command
gets the PostgreSQL variables and its exit status is the script's.

``id``, ``dpkg-query``, ``apt-get`` and ``psql`` are replaced by small scripts
that log their calls, so nothing is installed and no server is needed (the script
still checks the real /usr/bin/chromium, which `make test` has installed).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEST_ENV = ROOT / "tools" / "test-env"
URL = "postgresql://eights:secret@127.0.0.1:1/eights_test"


def fake_bin(tmp_path: Path, *, uid: int, installed: bool) -> Path:
    """A directory of stand-ins that append their arguments to ``calls``."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "calls"
    scripts = {
        "id": f'[ "$1" = -u ] && echo {uid} && exit 0; exec /usr/bin/id "$@"',
        "dpkg-query": f'echo "dpkg-query $*" >> {log}; '
                      + ('printf "install ok installed"' if installed else "exit 1"),
        "apt-get": f'echo "apt-get $*" >> {log}',
        "psql": f'echo "psql $*" >> {log}',
    }
    for name, body in scripts.items():
        path = bin_dir / name
        path.write_text(f"#!/bin/sh\n{body}\n")
        path.chmod(0o755)
    return bin_dir


def run(tmp_path: Path, bin_dir: Path, *command: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "EIGHTS_TEST_POSTGRES": URL}
    env.pop("EIGHTS_REQUIRE_POSTGRES", None)
    return subprocess.run(["bash", str(TEST_ENV), *command], env=env, capture_output=True,
                          text=True, timeout=60, check=False, cwd=tmp_path)


def calls(tmp_path: Path) -> list[str]:
    log = tmp_path / "calls"
    return log.read_text().splitlines() if log.exists() else []


def test_not_root_and_packages_missing_stops_at_once_with_the_command(tmp_path: Path) -> None:
    done = run(tmp_path, fake_bin(tmp_path, uid=1000, installed=False), "touch", "ran")
    assert done.returncode == 1
    assert "sudo apt-get install chromium postgresql" in done.stderr
    assert not (tmp_path / "ran").exists()
    assert not [c for c in calls(tmp_path) if c.startswith(("apt-get", "psql"))]


def test_as_root_the_missing_packages_are_installed_then_the_command_runs(tmp_path: Path) -> None:
    done = run(tmp_path, fake_bin(tmp_path, uid=0, installed=False), "touch", "ran")
    assert done.returncode == 0, done.stderr
    made = calls(tmp_path)
    assert [c for c in made if c.startswith("apt-get")] == [
        "apt-get update -qq",
        "apt-get install -y -qq --no-install-recommends chromium postgresql"]
    assert (tmp_path / "ran").exists()


@pytest.mark.parametrize("uid", [0, 1000])
def test_the_command_gets_the_database_and_its_status_is_kept(tmp_path: Path, uid: int) -> None:
    done = run(tmp_path, fake_bin(tmp_path, uid=uid, installed=True), "sh", "-c",
               'echo "$EIGHTS_TEST_POSTGRES $EIGHTS_REQUIRE_POSTGRES"; exit 3')
    assert done.returncode == 3, done.stderr
    assert done.stdout.splitlines()[-1] == f"{URL} 1"
    said = done.stdout.splitlines()[:-1]
    assert "== PostgreSQL ready: EIGHTS_TEST_POSTGRES=postgresql://eights:***@127.0.0.1:1/eights_test" in said
    assert not [line for line in said if "secret" in line]  # the password is not shown
    assert not [c for c in calls(tmp_path) if c.startswith("apt-get")]
    assert [c for c in calls(tmp_path) if c.startswith("psql")] == [f"psql {URL} -qAtc SELECT 1"]
