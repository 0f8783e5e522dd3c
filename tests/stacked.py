"""Stacked decks for the rule tests (tests/test_rules_*.py).

A stacked game names every card that leaves the stock: the hands (dealt one
card at a time, seat ``dealer + 1`` first), the starter (and any re-turned
starter, HA2), then the draws in order. When the script runs out, draws come
from the game's seeded generator.

>>> g = stacked("classic", ["7h 8s", "Kd 2c"], "9h", overrides=["hand_size=2"])
>>> g.to_play, show(g.hand(1)), legal(g)
(1, '2c Kd', ['draw'])
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

import pytest

from eights import Card, Game, IllegalActionError, Rules, load_rules

__all__ = [
    "SPREAD",
    "SPREAD_STARTER",
    "SPREAD_STOCK",
    "assert_illegal",
    "cards",
    "deal_order",
    "filled",
    "hands",
    "legal",
    "make_rules",
    "play",
    "random_play",
    "show",
    "snapshot",
    "stacked",
]


def cards(text: str) -> list[Card]:
    """Cards from space-separated text: ``"7h 8s X"``."""
    return [Card.parse(t) for t in text.split()]


def show(items: Iterable[Card]) -> str:
    """Cards as space-separated canonical text, in the given order."""
    return " ".join(str(c) for c in items)


def make_rules(rules: str | Rules, overrides: Sequence[str] = ()) -> Rules:
    """A preset (or rules object) with ``key=value`` overrides applied."""
    return load_rules(rules, list(overrides))


def deal_order(hands: Sequence[str], dealer: int = 0) -> list[Card]:
    """The per-seat ``hands`` interleaved in deal order (seat ``dealer + 1`` first)."""
    n = len(hands)
    split = [cards(h) for h in hands]
    size = len(split[0])
    if any(len(h) != size for h in split):
        raise ValueError(f"every hand needs the same number of cards: {[len(h) for h in split]}")
    return [split[(dealer + 1 + k) % n][i] for i in range(size) for k in range(n)]


def stacked(
    rules: str | Rules,
    hands: Sequence[str],
    starter: str,
    draws: str = "",
    *,
    dealer: int = 0,
    overrides: Sequence[str] = (),
) -> Game:
    """A game of ``len(hands)`` players whose stock yields exactly these cards.

    ``hands[s]`` is seat ``s``'s hand, ``starter`` the starter (several cards
    when HA2 turns the starter again), ``draws`` the next cards drawn.
    """
    ruleset = make_rules(rules, overrides)
    n = len(hands)
    size = ruleset.hand_size_for(n)
    for seat, hand in enumerate(hands):
        if len(hand.split()) != size:
            raise ValueError(f"seat {seat} holds {len(hand.split())} cards; {ruleset.name} deals {size}")
    deck = deal_order(hands, dealer) + cards(starter) + cards(draws)
    return Game(ruleset, n, seed=0, dealer=dealer, deck=deck)


def filled(rules: str | Rules, pool: Sequence[Card], hands: Sequence[str], starter: str,
           draws: str = "", *, overrides: Sequence[str] = ()) -> Game:
    """Seat 0 plays first (the dealer is the last seat) with ``hands[0]``, seat 1 next with
    ``hands[1]`` and so on; a hand ``"-"`` is filled from ``pool`` with cards that are in no
    other hand. Every hand has the size of ``hands[0]``."""
    size = len(hands[0].split())
    taken = set(cards(" ".join([*(h for h in hands if h != "-"), starter, draws])))
    spare = [c for c in pool if c not in taken]
    full: list[str] = []
    for h in hands:
        if h == "-":
            h, spare = show(spare[:size]), spare[size:]
        full.append(h)
    return stacked(rules, full, starter, draws, dealer=len(hands) - 1,
                   overrides=[f"hand_size={size}", *overrides])


def legal(game: Game) -> list[str]:
    """The legal actions as canonical text, sorted (order-independent comparison)."""
    return sorted(str(a) for a in game.legal_actions())


def hands(game: Game) -> list[str]:
    """Every seat's hand as text (sorted by suit then rank, as ``Game.hand``)."""
    return [show(game.hand(s)) for s in range(game.n)]


def play(game: Game, actions: str) -> None:
    """Apply space-separated actions in turn (``"7h 8s=c draw pass"``)."""
    for action in actions.split():
        game.apply(action)


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything a rejected action must leave unchanged."""
    return (
        game.to_json(),
        [list(h) for h in game.hands],
        sorted(game.stock),
        list(game.discard),
        list(game.history),
        list(game.penalties),
        game.drawn,
    )


def assert_illegal(game: Game, action: str) -> None:
    """``action`` raises IllegalActionError and changes nothing."""
    before = snapshot(game)
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert snapshot(game) == before


# Five hands of ten (``hand_size=10``, dealer 0) that leave one card, Ks, in the
# stock under the starter 5h. Seat 1 holds 8d; seats 2 and 3 hold no club and no
# 8; seat 4 holds ten clubs. After seat 1 plays ``8d=c`` the stock runs dry on
# the next draw, which shows the stock-empty policies (HA5, HF13, CL6, LH7).
SPREAD_STARTER = "5h"
SPREAD_STOCK = "Ks"
SPREAD = [
    "Qc Kc 8c 8s Ts Js Qs Ah 2h 3h",
    "8d 8h 4h 6h 7h 9h Th Jh Qh Kh",
    "Ad 2d 3d 4d 5d 6d 7d 9d Td Jd",
    "Qd Kd As 2s 3s 4s 5s 6s 7s 9s",
    "Ac 2c 3c 4c 5c 6c 7c 9c Tc Jc",
]


def random_play(game: Game, rng: random.Random, steps: int) -> Game:
    """Random legal play for ``steps`` decisions, starting new rounds as needed."""
    for _ in range(steps):
        if game.over:
            if game.match_over:
                break
            game.next_round()
        game.apply(rng.choice(game.legal_actions()))
    return game
