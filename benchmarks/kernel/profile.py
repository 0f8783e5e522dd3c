"""Where the kernel's whole random rounds spend their time, by source line: ``perf`` samples
of the compiled code mapped back through numba's object code and its debug lines.

    python benchmarks/kernel/profile.py [--seconds 20] [--top 40] [--cache DIR]

It compiles :func:`eights.fast.kernel.random_rounds` with debug information
(``NUMBA_DEBUGINFO=1``, in a ``NUMBA_CACHE_DIR`` of its own, ``--cache`` or a temporary one
printed first: the package's own cache is not touched; minutes under load), plays the
``openspiel`` preset (4 players, special cards, reshuffle) for ``--seconds`` while ``perf
record -e cpu-clock`` samples the playing thread, then maps every sample's address to a
compiled function (numba's code is one section: its base from the address of the entry
point) and an instruction (``objdump -dl`` of the library's object code: each
instruction's source line), and prints the share of samples by function and by line. ``perf`` needs no
hardware counters for this (a virtual machine's CPU clock will do).
"""

from __future__ import annotations

import argparse
import bisect
import collections
import contextlib
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--cache", help="numba's cache for the debug build (kept: a second run "
                        "loads it)")
    args = parser.parse_args()
    if os.environ.get("NUMBA_DEBUGINFO") != "1":
        cache = args.cache or tempfile.mkdtemp(prefix="eights-profile-")
        print(f"debug build cached in {cache}", flush=True)
        env = {**os.environ, "NUMBA_DEBUGINFO": "1", "NUMBA_CACHE_DIR": cache}
        os.execve(sys.executable, [sys.executable, *sys.argv], env)
    import numpy as np
    from numba.core import codegen

    keep = codegen.CPUCodeLibrary._set_compiled_object

    def kept(self: Any, value: bytes) -> None:  # the object code, also when loaded from cache
        self.eights_object = value
        keep(self, value)  # type: ignore[no-untyped-call]

    codegen.CPUCodeLibrary._set_compiled_object = kept  # type: ignore[method-assign]

    from eights import load_rules
    from eights.fast import kernel as k
    from eights.fast.game import new_state
    from eights.fast.tables import compile_rules

    rules = load_rules("openspiel", {"special_cards": True, "reshuffle": True})
    kt = compile_rules(rules)
    st = new_state(kt, 4, 1)
    results = np.zeros((2000, 7), dtype=np.int64)
    k.random_rounds(kt.tab, st, 10, results)
    for one in vars(k).values():  # compiled afresh: the object code is still at hand
        for cres in getattr(one, "overloads", {}).values():
            if not getattr(cres.library, "eights_object", None):
                with contextlib.suppress(RuntimeError):  # none kept
                    cres.library.eights_object = cres.library._get_compiled_object()
    libraries = [cres.library for one in vars(k).values() if hasattr(one, "overloads")
                 for cres in one.overloads.values()
                 if getattr(cres.library, "eights_object", None)]
    starts: list[tuple[int, str, int, int]] = []  # runtime address, name, offset, library
    lines: dict[tuple[int, str, int], str] = {}
    with tempfile.TemporaryDirectory() as work:
        for index, library in enumerate(libraries):
            obj = Path(work, f"kernel{index}.o")
            obj.write_bytes(library.eights_object)
            dump = subprocess.run(["objdump", "-dl", "--no-show-raw-insn", str(obj)],
                                  capture_output=True, text=True, check=True).stdout
            symbols = subprocess.run(["nm", "-S", "--defined-only", str(obj)],
                                     capture_output=True, text=True, check=True).stdout
            code = [(int(parts[0], 16), parts[3])
                    for parts in map(str.split, symbols.splitlines())
                    if len(parts) == 4 and parts[2] in "tTwW"]
            base = next(library.get_pointer_to_function(name) - offset for offset, name in code
                        if name.startswith("cfunc."))  # the code is one section: one base
            starts += [(base + offset, name, offset, index) for offset, name in code]
            current, where = "", "?"
            for line in dump.splitlines():
                head = re.match(r"^[0-9a-f]+ <(.+)>:$", line)
                if head:
                    current = head.group(1)
                    continue
                loc = re.match(r"^(/.*|\S+\.py):(\d+)", line)
                if loc:
                    where = f"{Path(loc.group(1)).name}:{loc.group(2)}"
                    continue
                ins = re.match(r"^\s+([0-9a-f]+):", line)
                if ins and current:
                    lines[(index, current, int(ins.group(1), 16))] = where
        starts.sort()
        out = Path(work, "perf.data")
        stop = threading.Event()

        def play() -> None:
            while not stop.is_set():
                k.random_rounds(kt.tab, st, 2000, results)

        worker = threading.Thread(target=play)
        worker.start()
        perf = subprocess.Popen(["perf", "record", "-e", "cpu-clock", "-F", "4000", "-o", str(out),
                                 "-t", str(worker.native_id)], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        time.sleep(args.seconds)
        perf.send_signal(2)
        perf.wait()
        stop.set()
        worker.join()
        script = subprocess.run(["perf", "script", "-i", str(out), "-F", "ip"],
                                capture_output=True, text=True, check=True).stdout
    maps = []
    for line in Path("/proc/self/maps").read_text().splitlines():
        span, _, _, _, _, *path = line.split()
        low, high = (int(x, 16) for x in span.split("-"))
        maps.append((low, high, path[0] if path else "[anonymous]"))
    addresses = [a for a, _, _, _ in starts]
    by_function: collections.Counter[str] = collections.Counter()
    outside: collections.Counter[int] = collections.Counter()
    by_line: collections.Counter[str] = collections.Counter()
    total = 0
    for text in script.split():
        ip = int(text, 16)
        total += 1
        i = bisect.bisect_right(addresses, ip) - 1
        start, name, offset, index = starts[max(i, 0)]
        if i < 0 or ip - start > 200_000:
            where = next((path for low, high, path in maps if low <= ip < high), "?")
            by_function[f"(outside the kernel: {Path(where).name})"] += 1
            outside[ip & ~0xFFF] += 1
            continue
        by_function[name] += 1
        # the instruction at or just before the sampled address
        at = offset + ip - start
        where = "?"
        for back in range(16):
            if (index, name, at - back) in lines:
                where = lines[(index, name, at - back)]
                break
        by_line[where] += 1
    print(f"{total} samples; libraries at " + ", ".join(
        f"{min(a for a, _, _, i in starts if i == index):#x}" for index in range(len(libraries))))
    print("most sampled addresses outside them: " + ", ".join(
        f"{ip:#x} ({count})" for ip, count in outside.most_common(8)))
    for name, count in by_function.most_common(12):
        print(f"{count / total:7.1%}  {name[:110]}")
    print()
    for where, count in by_line.most_common(args.top):
        print(f"{count / total:7.1%}  {where}")


if __name__ == "__main__":
    main()
