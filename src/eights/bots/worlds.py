"""Worlds consistent with what a seat knows: determinization for search.

A seat sees its own hand, the discard pile, how many cards every other hand
and the stock hold, and the public history. Every other card is *unseen* and
could be anywhere among the other hands and the stock. :func:`sample_world`
deals the unseen cards at random into hands of the right sizes and a stock of
the right size, and builds a :class:`~eights.engine.game.Game` in the observed public
state, ready to be played forward.

Reading the hands makes the deal better than uniform. Some public moments
(:class:`~eights.engine.observation.Tell`) say what a hand lacked: where the rules let
a player draw only when unable to play, a plain draw shows that the hand held
no card for the target then; where drawing is free, and when a wild card is
spent while no forced draw is pending, a sensible player shows the same (no
card, or no plain card, for the target). :func:`hand_bands` turns these
moments into bands of a hand's present cards (those it has held since the
moment) that avoid those cards; ``infer`` chooses how much to believe
(:data:`INFERENCES`). The sampler deals the most constrained bands first; when
the constraints cannot all be met, the cards that do not fit are dealt at
random. :func:`known_voids` is the simpler view the expert uses: each seat's
last certain void.

A learned reading replaces the bands: :func:`sample_weighted_world` deals every
unseen card by its probability of lying in each place (the belief model of
:mod:`eights.bots.belief`), keeping the hand and stock sizes exact.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from eights.engine.actions import Kind
from eights.engine.cards import Card
from eights.engine.game import Game
from eights.engine.observation import TELL_KINDS, Observation
from eights.engine.rules import DrawPolicy
from eights.engine.tables import tables_for

__all__ = ["INFERENCES", "Band", "Void", "hand_bands", "known_voids", "sample_weighted_world",
           "sample_world", "unseen_cards"]

Void = tuple[int, int]
"""The suit and rank a seat could not match: it holds no card of that suit, of
that rank, and no wild card that could cover them."""


def unseen_cards(seen: Observation) -> list[Card]:
    """The cards the observer cannot place: the deck less its hand and the discard pile."""
    pool = Counter(seen.rules.deck(seen.players))
    pool.subtract(seen.hand)
    pool.subtract(seen.discard)
    return sorted(card for card, count in pool.items() for _ in range(max(0, count)))


def known_voids(seen: Observation) -> dict[int, Void]:
    """For each other seat, the cards it is known not to hold (see the module text)."""
    rules = seen.rules
    if rules.voluntary_draw or rules.draw is DrawPolicy.REPEAT:
        return {}  # drawing says nothing about the hand
    # The last plain draw of each seat, as an index into the history of its draws.
    last: dict[int, tuple[int, int, bool]] = {}
    for seat, suit, rank, free in seen.draw_log:
        if seat != seen.seat:
            last[seat] = (-1 if suit is None else int(suit), int(rank), free)
    if not last:
        return {}
    # A seat that drew again (a forced draw, LH5 take) since then holds unknown cards.
    draws_seen: Counter[int] = Counter()
    received: set[int] = set()
    plain_draws: Counter[int] = Counter(seat for seat, *_ in seen.draw_log)
    for seat, action in seen.history:
        if action.kind is Kind.DRAW or action.kind is Kind.TAKE:
            draws_seen[seat] += 1
    for seat in last:
        if draws_seen[seat] != plain_draws[seat] or (seen.penalties and seen.penalties[seat]):
            received.add(seat)
    return {seat: (suit, rank) for seat, (suit, rank, free) in last.items()
            if seat not in received and not free}


INFERENCES = ("model", "rules", "none")
"""How much :func:`hand_bands` reads into the public moments (:class:`~eights.engine.observation.Tell`):
``rules``: only what the rules make certain (a plain draw where only a player
unable to play may draw); ``model``: also what a sensible player's choices
show (it draws only when it cannot play, spends a wild card only when no plain
card plays); ``none``: nothing, hands are uniform."""

Band = tuple[int, tuple[bool, ...]]
"""At least ``count`` cards of a hand avoid the cards marked in the row."""


def hand_bands(seen: Observation, infer: str = "model") -> dict[int, list[Band]]:
    """For each other seat, what its present cards are known (or assumed) to lack.

    A tell at some moment says what the hand held then lacked; the cards that
    seat still holds from then number at least its hand size less the cards it
    received since. So every tell gives a band of old cards that avoid its
    target, and an older band also avoids every later tell's target. Bands come
    oldest first (the most constrained) and hold disjoint counts.
    """
    if infer not in INFERENCES:
        raise ValueError(f"infer must be {' or '.join(INFERENCES)}, not {infer!r}")
    if infer == "none" or not seen.tells:
        return {}
    kinds = {"draw"} if infer == "rules" else set(TELL_KINDS)
    t = tables_for(seen.rules)
    wild = t.wild  # by card code: a card may have a rule of its own ([cards.Js])
    per_seat: dict[int, list[tuple[int, tuple[bool, ...]]]] = {}
    for tell in seen.tells:
        if tell.seat == seen.seat or tell.kind not in kinds:
            continue
        row = t.row(-1 if tell.suit is None else int(tell.suit), int(tell.rank), False)
        if tell.kind == "wild":  # other wild cards may still be held
            row = tuple(r and not w for r, w in zip(row, wild, strict=True))
        per_seat.setdefault(tell.seat, []).append((tell.received, row))
    bands: dict[int, list[Band]] = {}
    for seat, tells in per_seat.items():
        size = seen.hand_sizes[seat]
        received = seen.received[seat] if seen.received else 0
        unions = [row for _, row in tells]  # each tell's row and every later one's
        for j in range(len(unions) - 2, -1, -1):
            unions[j] = tuple(a or b for a, b in zip(unions[j], unions[j + 1], strict=True))
        held = 0  # cards already placed in older bands
        out: list[Band] = []
        for (before, _), union in zip(tells, unions, strict=True):
            old = max(0, size - (received - before))
            if old > held:
                out.append((old - held, union))
                held = old
        if out:
            bands[seat] = out
    return bands


def sample_world(seen: Observation, rng: random.Random,
                 bands: dict[int, list[Band]] | None = None) -> Game:
    """A game in ``seen``'s public state with the unseen cards dealt at random.

    Hand and stock sizes are exact; the observer's hand is its own; the bands
    of :func:`hand_bands` (by default, what the rules make certain) are met
    where the unseen cards allow, the most constrained first; the cards that
    do not fit are dealt at random.
    """
    cards = unseen_cards(seen)
    rng.shuffle(cards)
    bands = hand_bands(seen, "rules") if bands is None else bands
    hands: list[list[Card]] = [[] for _ in range(seen.players)]
    hands[seen.seat] = list(seen.hand)
    need = {s: seen.hand_sizes[s] for s in range(seen.players) if s != seen.seat}
    if bands:
        order = sorted(((sum(row), seat, count, row) for seat, rows in bands.items()
                        if seat in need for count, row in rows), reverse=True)
        for _, seat, count, row in order:
            count = min(count, need[seat])
            take: list[Card] = []
            rest: list[Card] = []
            for c in cards:
                if len(take) < count and not row[c]:
                    take.append(c)
                else:
                    rest.append(c)
            hands[seat].extend(take)
            need[seat] -= len(take)
            cards = rest
    at = 0
    for seat, count in need.items():
        hands[seat].extend(cards[at:at + count])
        at += count
    stock = cards[at:]
    return Game.from_observation(seen, hands, stock, rng)


def sample_weighted_world(seen: Observation, rng: random.Random,
                          probs: Sequence[Sequence[float]], seats: Sequence[int]) -> Game:
    """A game in ``seen``'s public state with the unseen cards dealt by their probabilities.

    ``probs[card][j]`` is the chance that one copy of ``card`` lies in place ``j``: the
    hand of ``seats[j]``, or the stock for the last place (``seats`` lists every other
    seat). Cards are dealt one at a time in a random order, each to a place that still
    has room, with weight ``probs[card][j]`` times the room left in ``j`` over the
    probability mass still headed there: the deal keeps the sizes exact and follows the
    probabilities as closely as the sizes allow.
    """
    cards = unseen_cards(seen)
    rng.shuffle(cards)
    places = len(seats) + 1
    need = [seen.hand_sizes[s] for s in seats] + [seen.stock]
    mass = [sum(column) for column in zip(*(probs[c] for c in cards), strict=True)] or [0.0] * places
    dealt: list[list[Card]] = [[] for _ in range(places)]
    for c in cards:
        row = probs[c]
        weights = [r * k / m if k and m > 1e-12 else 0.0 for r, k, m in zip(row, need, mass, strict=True)]
        total = sum(weights)
        if total <= 0:  # the probabilities leave no room: any place with room
            weights = [float(k) for k in need]
            total = sum(weights)
        x = rng.random() * total
        j = -1
        for i, w in enumerate(weights):
            if w > 0:  # only places with room have weight
                j = i
                x -= w
                if x < 0:
                    break
        dealt[j].append(c)
        need[j] -= 1
        mass = [m - r for m, r in zip(mass, row, strict=True)]
    hands: list[list[Card]] = [[] for _ in range(seen.players)]
    hands[seen.seat] = list(seen.hand)
    for j, s in enumerate(seats):
        hands[s] = dealt[j]
    return Game.from_observation(seen, hands, dealt[-1], rng)


def deal_consistent(seen: Observation, hands: Sequence[Sequence[Card]],
                    stock: Sequence[Card]) -> bool:
    """Whether a deal of the hidden cards fits what ``seen`` shows (sizes and cards)."""
    if any(len(hands[s]) != seen.hand_sizes[s] for s in range(seen.players)):
        return False
    if sorted(hands[seen.seat]) != sorted(seen.hand) or len(stock) != seen.stock:
        return False
    hidden = [c for s in range(seen.players) if s != seen.seat for c in hands[s]] + list(stock)
    return sorted(hidden) == unseen_cards(seen)
