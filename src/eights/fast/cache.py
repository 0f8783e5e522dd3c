"""The kernel's machine code in numba's cache: kept in step with the sources, known to be
ready, compiled in the background. Nothing here imports numba.

``python -m eights.fast`` compiles every entry point into numba's cache (about a minute
on two cores) and then marks the cache ready (:func:`mark_ready`). ``eights play`` checks
:func:`ready` before its first screen and, when the cache is cold, starts that compile in
a background process (:func:`warm_in_background`), stopped when the game ends
(:func:`stop_warming`); while it runs (:func:`warming`), a
search bot with ``kernel=auto`` rolls out on the reference engine instead of compiling
the kernel itself, and moves to the kernel at its first decision after.
"""

from __future__ import annotations

import hashlib
import subprocess
import sys
from importlib import metadata
from importlib.util import find_spec
from pathlib import Path

HERE = Path(__file__).resolve().parent
CODES = HERE.parent / "codes.py"

_warming: subprocess.Popen[bytes] | None = None
"""The background compile this process started, if any."""


def sources_digest(here: Path = HERE, codes: Path = CODES) -> str:
    """The SHA-256 of the kernel's sources: every module of the package and eights.codes."""
    sources = [*sorted(here.glob("*.py")), codes]
    return hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()


def drop_stale_cache(here: Path = HERE, codes: Path = CODES) -> bool:
    """Drop the package's cached machine code when any of its sources has changed.

    numba's cache (``cache=True``) checks only the file of each function: a function of
    ``world.py`` compiled against an older ``kernel.py`` (whose helpers it inlines) would
    load unchanged and play the old rules. The sources' hash is kept beside the cache, in
    the package's ``__pycache__`` (numba's cache for a writable tree); when it differs,
    every ``*.nbi``/``*.nbc`` there is removed and compiled again on first use. A
    read-only install caches elsewhere, and an upgrade changes every file at once.
    Returns whether the cache was dropped.
    """
    digest = sources_digest(here, codes)
    cache = here / "__pycache__"
    stamp = cache / "numba-sources.sha256"
    try:
        if stamp.read_text("ascii") == digest:
            return False
    except OSError:
        pass  # no stamp yet: whatever is cached is of unknown sources
    try:
        for old in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            old.unlink(missing_ok=True)
        cache.mkdir(exist_ok=True)
        stamp.write_text(digest, "ascii")
    except OSError:
        pass  # not writable: numba caches elsewhere (or not at all)
    return True


def _ready_text(here: Path, codes: Path) -> str:
    """What the ready mark holds: the sources' hash, numba's version and Python's."""
    try:
        numba = metadata.version("numba")
    except metadata.PackageNotFoundError:
        numba = "none"
    python = ".".join(map(str, sys.version_info[:2]))
    return f"{sources_digest(here, codes)} numba {numba} python {python}\n"


def _ready_mark(here: Path) -> Path:
    return here / "__pycache__" / "numba-ready"


def mark_ready(here: Path = HERE, codes: Path = CODES) -> bool:
    """Record that every entry point of these sources is in numba's cache (called by
    ``python -m eights.fast`` once it has compiled them). Returns whether the mark could
    be written: not in a read-only install, where :func:`ready` then stays false."""
    try:
        _ready_mark(here).write_text(_ready_text(here, codes), "ascii")
    except OSError:
        return False
    return True


def ready(here: Path = HERE, codes: Path = CODES) -> bool:
    """Whether the kernel's machine code is in numba's cache for these sources, this numba
    and this Python, so the kernel loads in a second or two instead of compiling; without
    importing numba or compiling anything."""
    try:
        return _ready_mark(here).read_text("ascii") == _ready_text(here, codes)
    except OSError:
        return False


def warm_in_background() -> bool:
    """Start ``python -m eights.fast`` at low priority in a process of its own, unless
    numba is missing, the cache is :func:`ready` or this process started one already.
    Its output is dropped (it would cross the full screen). The game stops it when it
    ends (:func:`stop_warming`): what it compiled by then stays in numba's cache, and the
    next start compiles the rest. Returns whether one was started."""
    global _warming
    if _warming is not None or find_spec("numba") is None or ready():
        return False
    _warming = subprocess.Popen([sys.executable, "-m", "eights.fast", "--nice", "10"],
                                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
    return True


def stop_warming(wait: float = 5.0) -> bool:
    """Stop the background compile this process started, if it still runs (the game is
    over: nothing is left running after it); returns whether one was stopped. Each
    function numba has compiled is in its cache already (written whole, then renamed)."""
    global _warming
    process, _warming = _warming, None
    if process is None or process.poll() is not None:
        return False
    process.terminate()
    try:
        process.wait(timeout=wait)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
    return True


def warming() -> bool:
    """Whether the background compile this process started is still running."""
    return _warming is not None and _warming.poll() is None
