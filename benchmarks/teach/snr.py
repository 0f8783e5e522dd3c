"""How much the search knows beyond the expert, and how much of it a label carries.

    python benchmarks/teach/snr.py references     # on benchmarks/values (8,000 worlds an action)
    python benchmarks/teach/snr.py labels DATA... # on labelled tasks of eights.learn.teacher

``references``: for every stored position of benchmarks/values (the judge's references:
every action valued by 8,000 worlds, everyone the expert after it), the expert's and the
shipped family model's choice and the **oracle gain** (the reference win of the best action
less the expert's action's), per table and player kind: the most a learner of the search's
values could add per decision, and what a label at W worlds would see of it.

``labels``: the labels' signal against their noise: over the actions other than the
expert's, the variance of the observed advantage against the mean squared standard error
(the true advantages' variance is the difference), and how many beat the expert's action by
two standard errors against the share expected by chance.
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eights.bots.expert import ExpertBot
from eights.bots.learned import LearnedBot
from values import POSITIONS, REFERENCES, load, observation


def references() -> None:
    refs = {r["id"]: r for r in load(REFERENCES)}
    expert = ExpertBot()
    net = LearnedBot()
    rows: dict[tuple[int, str], list[tuple[float, float, float, float]]] = defaultdict(list)
    for record in load(POSITIONS):
        ref = refs[record["id"]]
        seen = observation(record)
        legal = list(seen.legal)
        win = {a["action"]: a["win"] for a in ref["actions"]}
        se = max(a["se"] for a in ref["actions"])
        e = str(expert.choose(seen, legal, random.Random(record["id"])))
        n = str(net.choose(seen, legal, random.Random(record["id"])))
        best = max(win.values())
        kind = "strong" if record["player"] in ("expert", "ismcts:iterations=300") else "weak"
        rows[(record["players"], kind)].append((best - win[e], best - win[n], se,
                                                float(e != n)))
    for key in sorted(rows):
        a = np.array(rows[key])
        gap = a[:, 0]
        print(f"{key[0]}p {key[1]:6}: {len(a)} positions; oracle gain over the expert "
              f"{gap.mean():.4f} a decision (median {np.median(gap):.4f}; "
              f"share > 0.01: {(gap > 0.01).mean():.3f}, > 0.03: {(gap > 0.03).mean():.3f}, "
              f"> 0.05: {(gap > 0.05).mean():.3f}); over the network {a[:, 1].mean():.4f}; "
              f"network departs {a[:, 3].mean():.3f}; reference se {a[:, 2].mean():.4f}")


def labels(folders: list[str]) -> None:
    by: dict[str, list[tuple[np.ndarray, np.ndarray]]] = defaultdict(list)
    for folder in folders:
        for card_file in sorted(Path(folder).glob("task-*.json")):
            card = json.loads(card_file.read_text("utf-8"))
            with np.load(card_file.with_suffix(".npz")) as d:
                start, chosen, win, se = d["start"], d["chosen"], d["win"], d["se"]
            for i in range(len(chosen)):
                lo, hi = start[i], start[i + 1]
                adv = win[lo:hi] - win[lo + chosen[i]]
                mask = np.arange(hi - lo) != chosen[i]
                key = f"{card['kind']} w{card['worlds']}"
                by[key].append((adv[mask], se[lo:hi][mask]))
    for key, items in sorted(by.items()):
        adv = np.concatenate([a for a, _ in items])
        se = np.concatenate([s for _, s in items])
        best = np.array([a.max() if len(a) else 0.0 for a, _ in items])
        best_se = np.array([s[a.argmax()] if len(a) else 0.0 for a, s in items])
        signal = adv.var() - (se ** 2).mean()
        print(f"{key}: {len(items)} positions, {len(adv)} other actions; advantage mean "
              f"{adv.mean():+.4f}, sd {adv.std():.4f}, label se rms {math.sqrt((se ** 2).mean()):.4f}, "
              f"true sd ~{math.sqrt(max(signal, 0)):.4f}; "
              f"beat by 2 se {((adv > 2 * se) & (se > 0)).mean():.4f} "
              f"(chance 0.023); best other than the expert's: mean {best.mean():+.4f}, "
              f"> 2 se {(best > 2 * best_se).mean():.3f}")


def _category(code: int, expert: int) -> str:
    """What an action is beside the expert's (one-card codes ``card * 10 + suit * 2 +
    call``, card ``rank * 4 + suit``)."""
    if code >= 530 or expert >= 530:
        names = {530: "draw", 531: "take", 532: "pass"}
        mine = names.get(code, "play" if code < 530 else "other")
        theirs = names.get(expert, "play" if expert < 530 else "other")
        return f"{mine} for {theirs}"
    card, other = code // 10, expert // 10
    if card == other:
        return "same card, another suit named"
    if card // 4 == other // 4:
        return "same rank"
    if card % 4 == other % 4:
        return "same suit, " + ("higher" if card // 4 > other // 4 else "lower") + " rank"
    return "another card"


def patterns(folders: list[str]) -> None:
    """The 2-player seed presets' labels grouped by what the other action is beside the
    expert's, and by the opponent's hand size: a precision-weighted mean advantage each
    (a systematic pattern a network should learn shows as a mean well above 0)."""
    from eights.codes import O_SEATS

    groups: dict[tuple[str, str, str], list[tuple[float, float]]] = defaultdict(list)
    for folder in folders:
        for card_file in sorted(Path(folder).glob("task-*.json")):
            card = json.loads(card_file.read_text("utf-8"))
            if card["kind"] != "seed-2p":
                continue
            with np.load(card_file.with_suffix(".npz")) as d:
                obs, legal, start, chosen, win, se = (d[k] for k in ("obs", "legal", "start",
                                                                     "chosen", "win", "se"))
            for i in range(len(chosen)):
                lo, hi = start[i], start[i + 1]
                e = lo + chosen[i]
                theirs = int(obs[i, O_SEATS + 1])
                size = "1-2" if theirs <= 2 else "3-5" if theirs <= 5 else "6+"
                for j in range(lo, hi):
                    if j != e and se[j] > 0:
                        key = (card["rules_name"], _category(int(legal[j]), int(legal[e])), size)
                        groups[key].append((float(win[j] - win[e]), float(se[j])))
    print("preset | the other action | opponent's cards | actions | mean advantage (se) | "
          "share above 0 by 2 se")
    for key in sorted(groups):
        a = np.array(groups[key])
        if len(a) < 100:
            continue
        w = 1 / np.maximum(a[:, 1], 0.01) ** 2
        mean = float((w * a[:, 0]).sum() / w.sum())
        se = float(1 / math.sqrt(w.sum()))
        print(f"{key[0]} | {key[1]} | {key[2]} | {len(a)} | {mean:+.4f} ({se:.4f}) | "
              f"{(a[:, 0] > 2 * a[:, 1]).mean():.3f}")


if __name__ == "__main__":
    if sys.argv[1] == "references":
        references()
    elif sys.argv[1] == "patterns":
        patterns(sys.argv[2:])
    else:
        labels(sys.argv[2:])
