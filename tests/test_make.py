"""The Makefile and ``make test``'s set-up.

``make play`` installs only what playing needs and compiles nothing before the first
screen; ``make test`` (``check``) installs every extra and compiles the kernel first
(read off ``make -n``, nothing installed).

tools/test-env: as root it installs the missing Debian
packages, not as root it stops at once with the command to run; the test command
gets the PostgreSQL variables and its exit status is the script's.

``id``, ``dpkg-query``, ``apt-get`` and ``psql`` are replaced by small scripts
that log their calls, so nothing is installed and no server is needed (the script
still checks the real /usr/bin/chromium, which `make test` has installed).
"""

from __future__ import annotations

import os
import re
import subprocess
import tomllib
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
    assert "sudo apt-get install chromium postgresql haproxy" in done.stderr
    assert not (tmp_path / "ran").exists()
    assert not [c for c in calls(tmp_path) if c.startswith(("apt-get", "psql"))]


def test_as_root_the_missing_packages_are_installed_then_the_command_runs(tmp_path: Path) -> None:
    done = run(tmp_path, fake_bin(tmp_path, uid=0, installed=False), "touch", "ran")
    assert done.returncode == 0, done.stderr
    made = calls(tmp_path)
    assert [c for c in made if c.startswith("apt-get")] == [
        "apt-get update -qq",
        "apt-get install -y -qq --no-install-recommends chromium postgresql haproxy"]
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


# ---------------------------------------------------------------- the Makefile
# `make -n` (print the commands, run none) with .venv in a temporary directory: what each
# target would install and run, without installing anything.

def make_n(venv: Path, *args: str) -> list[str]:
    done = subprocess.run(["make", "-n", "--no-print-directory", "-C", str(ROOT), f"VENV={venv}",
                           *args], capture_output=True, text=True, timeout=60, check=True)
    return [line.strip() for line in done.stdout.splitlines()]


def installed_extras(lines: list[str]) -> list[set[str]]:
    """The extras of each ``tools/install-venv [--pip] [--quiet] VENV extras`` among ``lines``."""
    return [set(m.group(1).split(",")) for line in lines
            if (m := re.search(r"tools/install-venv (?:--\S+ )*\S+ ([a-z,]+)$", line))]


def test_play_installs_only_the_tui_and_the_kernel_and_compiles_nothing_first(
        tmp_path: Path) -> None:
    venv = tmp_path / ".venv"
    lines = make_n(venv, "play", "ARGS=-r les-huit")
    assert lines[0] == f"PYTHON=python3 tools/install-venv {venv} tui,fast"  # uv, or pip
    assert installed_extras(lines) == [{"tui", "fast"}]
    assert not [line for line in lines if "eights.fast" in line]  # no compile before the game
    assert lines[-1] == f"{venv}/bin/eights play -r les-huit"
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    for extra in ("tui", "fast"):  # none of them brings another extra (all, test)
        assert not [r for r in extras[extra] if r.startswith("eights")], extra


def test_check_installs_every_extra_and_compiles_the_kernel_before_the_tests(
        tmp_path: Path) -> None:
    venv = tmp_path / ".venv"
    lines = make_n(venv, "check")
    assert installed_extras(lines) == [{"all", "test"}]
    assert f"PYTHON=python3 tools/install-venv --pip --quiet {venv} all,test" in lines  # pip:
    # its torch is the CPU wheel that pip's configuration names
    warm = lines.index(f"{venv}/bin/python -m eights.fast")
    first_check = next(i for i, line in enumerate(lines) if "ruff check" in line)
    assert lines.index(f"touch {venv}/.installed {venv}/.installed-play") == warm + 1
    assert warm < first_check
    assert any("pytest" in line for line in lines[first_check:])


def fake_venv(venv: Path, *stamps: str) -> None:
    """A .venv whose python and ``stamps`` are newer than pyproject.toml."""
    (venv / "bin").mkdir(parents=True)
    later = (ROOT / "pyproject.toml").stat().st_mtime + 60
    for i, name in enumerate(["bin/python", *stamps]):
        path = venv / name
        path.touch()
        os.utime(path, (later + i, later + i))


@pytest.mark.parametrize("stamps", [(".installed-play",), (".installed", ".installed-play")])
def test_play_installs_nothing_once_installed(tmp_path: Path, stamps: tuple[str, ...]) -> None:
    venv = tmp_path / ".venv"
    fake_venv(venv, *stamps)
    lines = make_n(venv, "play")
    assert installed_extras(lines) == []
    assert lines[-1] == f"{venv}/bin/eights play"


def test_after_make_play_check_installs_the_rest(tmp_path: Path) -> None:
    venv = tmp_path / ".venv"
    fake_venv(venv, ".installed-play")
    assert installed_extras(make_n(venv, "check")) == [{"all", "test"}]


def test_make_path_prints_the_directory_of_eights(tmp_path: Path) -> None:
    venv = tmp_path / ".venv"
    done = subprocess.run(["make", "-s", "--no-print-directory", "-C", str(ROOT), f"VENV={venv}",
                           "path"], capture_output=True, text=True, timeout=60, check=True)
    assert done.stdout == f"{venv}/bin\n"


# ---------------------------------------------------------------- tools/install-venv
# The install of make play and make test, run with stand-ins for python and uv that log
# their calls and make the files the real ones would (the environment's python, uv once
# bootstrapped): what it runs, in which order, and its falls back to pip, without installing
# anything.

INSTALL = ROOT / "tools" / "install-venv"
FAKE_PYTHON = r"""#!/bin/sh
echo "python $*" >> "$FAKE_LOG"
case "$*" in
  "-m venv --without-pip "*|"-m venv "*)
    dir=$(eval echo \${$#}); mkdir -p "$dir/bin"; cp "$0" "$dir/bin/python"
    case "$*" in *--without-pip*) ;; *) touch "$dir/has-pip" ;; esac ;;
  *"-m pip --version"*) [ -e "$(dirname "$(dirname "$0")")/has-pip" ] || exit 1 ;;
  *"-m ensurepip"*) touch "$(dirname "$(dirname "$0")")/has-pip" ;;
  *"install --quiet uv"*)
    [ "$FAKE_UV_BOOT" = ok ] || exit 1
    venv=${FAKE_VENV}; cp "$FAKE_UV" "$venv/bin/uv" ;;
esac
exit 0
"""
FAKE_UV = """#!/bin/sh
echo "uv $*" >> "$FAKE_LOG"
exit "${FAKE_UV_RC:-0}"
"""


def install(tmp_path: Path, *args: str, uv_on_path: bool = False, boot: bool = True,
            uv_rc: int = 0, env: dict[str, str] | None = None) -> tuple[int, list[str], str]:
    """Run tools/install-venv in ``tmp_path`` with the stand-ins; its status, the calls made
    (paths shortened: VENV, the stand-ins by name) and its output."""
    tools = tmp_path / "tools"
    tools.mkdir()
    python, uv = tools / "python3", tools / "uv-stand-in"
    python.write_text(FAKE_PYTHON)
    uv.write_text(FAKE_UV)
    for path in (python, uv):
        path.chmod(0o755)
    path_dirs = [str(tools)] if not uv_on_path else [str(tools), str(tmp_path / "onpath")]
    if uv_on_path:
        (tmp_path / "onpath").mkdir()
        (tmp_path / "onpath" / "uv").write_text(FAKE_UV)
        (tmp_path / "onpath" / "uv").chmod(0o755)
    venv = tmp_path / ".venv"
    done = subprocess.run(
        ["sh", str(INSTALL), *args, str(venv), "tui,fast"], cwd=tmp_path, capture_output=True,
        text=True, timeout=60, check=False,
        env={"PATH": ":".join([*path_dirs, "/usr/bin", "/bin"]), "PYTHON": str(python),
             "FAKE_LOG": str(tmp_path / "log"), "FAKE_UV": str(uv), "FAKE_VENV": str(venv),
             "FAKE_UV_BOOT": "ok" if boot else "no", "FAKE_UV_RC": str(uv_rc), **(env or {})})
    log = (tmp_path / "log").read_text().splitlines() if (tmp_path / "log").exists() else []
    short = [line.replace(str(venv), "VENV").replace(str(python), "python3") for line in log]
    return done.returncode, short, done.stdout + done.stderr


def test_install_uses_the_uv_on_path_and_creates_the_environment_without_pip(
        tmp_path: Path) -> None:
    status, calls, out = install(tmp_path, uv_on_path=True)
    assert status == 0, out
    assert calls == ["python -m venv --without-pip VENV",
                     "uv pip install --python VENV/bin/python pip -e .[tui,fast]"]
    assert "== make: installing eights[tui,fast] into" in out and "with uv" in out


def test_install_puts_uv_into_the_environment_with_pip_when_none_is_on_path(
        tmp_path: Path) -> None:
    status, calls, out = install(tmp_path)
    assert status == 0, out
    assert calls == [
        "python -m venv --without-pip VENV",
        "python -m pip --disable-pip-version-check --python VENV/bin/python install --quiet uv",
        "uv pip install --python VENV/bin/python pip -e .[tui,fast]"]
    assert "installing uv, a faster installer" in out
    # the next install finds it there, and the environment is not made again
    (tmp_path / "log").unlink()
    for stand_in in (tmp_path / "tools").iterdir():
        stand_in.unlink()
    (tmp_path / "tools").rmdir()
    status, calls, out = install(tmp_path)
    assert status == 0, out
    assert calls == ["uv pip install --python VENV/bin/python pip -e .[tui,fast]"]


@pytest.mark.parametrize("why", ["UV=no", "no uv to be had", "uv fails"])
def test_install_falls_back_to_pip(tmp_path: Path, why: str) -> None:
    status, calls, out = install(tmp_path, boot=why != "no uv to be had",
                                 uv_rc=1 if why == "uv fails" else 0,
                                 env={"UV": "no"} if why == "UV=no" else None)
    assert status == 0, out
    pip = "python -m pip --disable-pip-version-check install --progress-bar on -e .[tui,fast]"
    assert calls[-1] == pip
    assert "with pip" in out
    if why == "UV=no":  # the environment as before uv: made with pip
        assert calls == ["python -m venv VENV", "python -m pip --version", pip]
    else:  # made without pip for uv: pip is brought in first
        assert calls[0] == "python -m venv --without-pip VENV"
        assert "python -m ensurepip --upgrade --default-pip" in calls
        said = "uv could not be installed" if why == "no uv to be had" else "uv failed"
        assert f"{said}: pip installs instead" in out


def test_make_test_installs_quietly_with_pip(tmp_path: Path) -> None:
    status, calls, out = install(tmp_path, "--pip", "--quiet", uv_on_path=True)
    assert status == 0, out
    assert calls == [
        "python -m venv VENV", "python -m pip --version",
        "python -m pip --disable-pip-version-check --quiet install --upgrade pip",
        "python -m pip --disable-pip-version-check --quiet install -e .[tui,fast]"]
