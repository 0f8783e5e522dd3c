"""Statistics and charts for variant analysis (``eights simulate``) and tournaments.

The intervals:

- :func:`wilson` — the Wilson score interval for a share over ``n`` trials,
  used when the trials are independent (every round of ``eights simulate``
  is a fresh random deal). Shared wins count as fractions of a win; the
  interval treats a round's share as a Bernoulli outcome, which is exact for
  undivided wins and slightly conservative for split ones.
- :func:`mean_ci` — a Student *t* interval for the mean of independent
  blocks (a tournament's deals: the replays of one deal share their cards,
  so they are one block, not independent rounds).

The charts are drawn with matplotlib's object API on the Agg canvas (no
``pyplot``, no global state); matplotlib is imported only when a chart is
written.

>>> lo, hi = wilson(50, 100)
>>> round(lo, 3), round(hi, 3)
(0.404, 0.596)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from eights.engine.cards import JOKER, Card, Rank, Suit
from eights.engine.rules import CardRule, Rules

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "Z95",
    "effect_label",
    "mean_ci",
    "position_label",
    "special_ranks",
    "t95",
    "variant_lines",
    "wilson",
    "write_plots",
]

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""

_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
"""Two-sided 95% quantiles of Student's t for 1 to 30 degrees of freedom."""


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom.

    Tabulated up to 30, then the normal quantile with two Cornish-Fisher
    corrections (within 0.001 of the exact value).

    >>> t95(1), t95(30), round(t95(1000), 3)
    (12.706, 2.042, 1.962)
    """
    if df < 1:
        raise ValueError(f"degrees of freedom must be 1 or more, not {df}")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of the share ``successes / n`` (95% by default).

    >>> wilson(0, 10)[0], round(wilson(0, 10)[1], 3)
    (0.0, 0.278)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, successes / n))
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


def mean_ci(values: Sequence[float], low: float = -math.inf,
            high: float = math.inf) -> tuple[float, float]:
    """A 95% Student *t* interval for the mean of independent ``values``, clipped to
    ``[low, high]``; ``(low, high)`` when there are fewer than two values.

    >>> mean_ci([0.5, 0.5, 0.5])
    (0.5, 0.5)
    >>> lo, hi = mean_ci([0.0, 1.0, 0.5, 0.5], 0.0, 1.0)
    >>> round(lo, 3), round(hi, 3)
    (0.0, 1.0)
    """
    if len(values) < 2:
        return (low, high)
    mean = statistics.fmean(values)
    half = t95(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))
    return (max(low, mean - half), min(high, mean + half))


# --------------------------------------------------------------------------- special cards


def special_ranks(rules: Rules) -> list[Rank]:
    """Ranks that do something in these rules (wild, or an effect) and are in the deck.

    >>> from eights import load_rules
    >>> [r.letter for r in special_ranks(load_rules("huit-fou"))]
    ['A', '2', '4', '8', 'Q']
    """
    out: list[Rank] = []
    for rank in Rank:
        if rank is Rank.JOKER and not rules.jokers:
            continue
        if rank is not Rank.JOKER and rank not in rules.ranks:
            continue
        if any(rule.wild or rule.has_effect for _, rule in _rules_of_rank(rules, rank)):
            out.append(rank)
    return out


def _rules_of_rank(rules: Rules, rank: Rank) -> list[tuple[list[Card], CardRule]]:
    """The cards of a rank grouped by rule (a card table, ``[cards.Js]``, may differ)."""
    cards = [JOKER] if rank is Rank.JOKER else [Card.of(rank, suit) for suit in Suit]
    groups: dict[CardRule, list[Card]] = {}
    for card in cards:
        groups.setdefault(rules.rule_of(card), []).append(card)
    return [(group, rule) for rule, group in groups.items()]


def rank_label(rules: Rules, rank: Rank) -> str:
    """What the cards of a rank do, each card table apart (BJ2: ``Jc Js +5, Jd Jh plain``).

    >>> from eights import load_rules
    >>> rank_label(load_rules("huit-fou"), Rank.TWO)
    '+2 stack'
    """
    groups = _rules_of_rank(rules, rank)
    if len(groups) == 1:
        return effect_label(groups[0][1])
    return "; ".join(" ".join(str(c) for c in cards) + " " + effect_label(rule)
                     for cards, rule in groups)


def effect_label(rule: CardRule) -> str:
    """A few words for what a card does: ``wild``, ``+2 stack``, ``skip``...

    >>> effect_label(CardRule(draw=2, stack=True, reverse=True))
    '+2 stack, reverse'
    """
    parts: list[str] = []
    if rule.wild:
        parts.append("wild")
    if rule.draw:
        parts.append(f"+{rule.draw}" + (" stack" if rule.stack else ""))
    if rule.skip:
        parts.append("skip")
    if rule.reverse:
        parts.append("reverse")
    if rule.again:
        parts.append("again")
    return ", ".join(parts) or "plain"


# --------------------------------------------------------------------------- reports


def position_label(position: int, players: int) -> str:
    """A seat's name by its position after the dealer: ``1st`` (first to be dealt)
    ... ``dealer``.

    >>> [position_label(p, 4) for p in range(4)]
    ['1st', '2nd', '3rd', 'dealer']
    """
    if position == players - 1:
        return "dealer"
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(position + 1, "th")
    return f"{position + 1}{suffix}"


def _interval(ci: Sequence[float]) -> str:
    return f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def _count(n: int, noun: str) -> str:
    """``1 round``, ``3 rounds`` (the report is in English)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def variant_lines(data: Mapping[str, Any]) -> list[str]:
    """The variant-analysis lines of the ``eights simulate`` report, from its JSON."""
    n = data["players"]
    rounds = data["rounds"]
    lines = [f"bots by seat:        {', '.join(data['bots'])}"]
    lines.append(f"blocked share:       {data['blocked_share']:.3f}  95% CI "
                 f"{_interval(data['blocked_share_ci95'])}")
    special = data["special_cards_per_round"]
    if special is None:  # the fast engine: whole rounds, not move by move
        lines.append("forced draws, overflows and special cards per round: not gathered by "
                     "the fast engine (use --engine reference)")
    else:
        lines.append(f"forced draws/round:  {data['forced_draws_per_round']:.2f} "
                     f"({data['forced_cards_per_round']:.2f} cards; "
                     f"{data['rounds_with_forced_draw']} of {_count(rounds, 'round')} "
                     f"{'has' if rounds == 1 else 'have'} one)")
        lines.append(f"overflows/round:     {data['overflows_per_round']:.3f} "
                     f"({data['overflow_cards_per_round']:.3f} cards back to the attacker or "
                     f"as penalty; {_count(data['rounds_with_overflow'], 'round')})")
    if special:
        lines.append("special cards played per round: " + ", ".join(
            f"{rank} ({v['effect']}) {v['per_round']:.2f}" for rank, v in special.items()))
    lines.append(f"win share by position after the dealer (fair share {1 / n:.3f}; "
                 f"first-seat advantage {data['first_seat_advantage']:+.3f}):")
    for pos, (share, ci) in enumerate(zip(data["win_share_by_position"],
                                          data["win_share_by_position_ci95"], strict=True)):
        label = position_label(pos, n)
        lines.append(f"  {label:>6}  {share:.3f}  95% CI {_interval(ci)}")
    return lines


# --------------------------------------------------------------------------- charts


def write_plots(data: Mapping[str, Any], directory: Path) -> list[Path]:
    """Write the variant charts of a ``simulate`` JSON summary as PNG files.

    ``round-length.png`` (histogram of decisions per round), ``seat-wins.png``
    (win share by position after the dealer, with 95% intervals) and
    ``special-cards.png`` (special cards played per round). Returns the paths.
    """
    from matplotlib.figure import Figure  # imported late: a second to load

    directory.mkdir(parents=True, exist_ok=True)
    title = f"{data['rules']}, {data['players']} players, {data['rounds']} rounds"
    paths: list[Path] = []

    fig = Figure(figsize=(7, 4), layout="constrained")
    ax = fig.subplots()
    hist = data["round_length_histogram"]
    lengths = [length for length, _ in hist]
    counts = [count for _, count in hist]
    bins = min(60, max(1, max(lengths) - min(lengths) + 1)) if lengths else 1
    ax.hist(lengths, bins=bins, weights=counts, color="#4c72b0")
    ax.set_xlabel("decisions per round")
    ax.set_ylabel("rounds")
    ax.set_title(f"Round length — {title}")
    paths.append(_save(fig, directory / "round-length.png"))

    fig = Figure(figsize=(7, 4), layout="constrained")
    ax = fig.subplots()
    n = data["players"]
    shares = data["win_share_by_position"]
    cis = data["win_share_by_position_ci95"]
    labels = [position_label(p, n) for p in range(n)]
    errors = [[s - ci[0] for s, ci in zip(shares, cis, strict=True)],
              [ci[1] - s for s, ci in zip(shares, cis, strict=True)]]
    ax.bar(labels, shares, yerr=errors, capsize=4, color="#55a868")
    ax.axhline(1 / n, color="grey", linestyle="--", linewidth=1, label=f"fair share 1/{n}")
    ax.set_xlabel("position after the dealer")
    ax.set_ylabel("round win share (95% CI)")
    ax.legend(loc="lower right", framealpha=0.9)
    ax.set_title(f"Win share by seat — {title}")
    paths.append(_save(fig, directory / "seat-wins.png"))

    fig = Figure(figsize=(7, 4), layout="constrained")
    ax = fig.subplots()
    special = data["special_cards_per_round"] or {}
    names = [f"{rank}\n{v['effect']}" for rank, v in special.items()]
    ax.bar(names, [v["per_round"] for v in special.values()], color="#c44e52")
    ax.set_ylabel("plays per round")
    ax.set_title(f"Special cards played — {title}")
    if not special:
        empty = ("no special cards in these rules" if data["special_cards_per_round"] is not None
                 else "not gathered by the fast engine (--engine reference)")
        ax.text(0.5, 0.5, empty, ha="center", va="center",
                transform=ax.transAxes)
    paths.append(_save(fig, directory / "special-cards.png"))
    return paths


def _save(fig: Figure, path: Path) -> Path:
    fig.savefig(path, dpi=100)
    return path

