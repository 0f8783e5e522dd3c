"""Worlds consistent with what a seat knows: determinization for search.

A seat sees its own hand, the discard pile, how many cards every other hand
and the stock hold, and the public history. Every other card is *unseen* and
could be anywhere among the other hands and the stock. :func:`sample_world`
deals the unseen cards at random into hands of the right sizes and a stock of
the right size, and builds a :class:`~eights.game.Game` in the observed public
state, ready to be played forward.

Known voids make the deal better than uniform: where the rules let a player
draw only when unable to play, a plain draw shows that the hand held no card
matching the up-card then (and, with ``until-playable``, neither did the cards
drawn before the playable one). Until that player receives other cards, the
sampler deals them no such card; when the constraints cannot all be met, the
cards that do not fit are dealt at random.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from eights.actions import Kind
from eights.cards import Card, make_deck
from eights.game import Game
from eights.observation import Observation
from eights.rules import DrawPolicy
from eights.tables import tables_for

__all__ = ["Void", "known_voids", "sample_world", "unseen_cards"]

Void = tuple[int, int]
"""The suit and rank a seat could not match: it holds no card of that suit, of
that rank, and no wild card that could cover them."""


def unseen_cards(seen: Observation) -> list[Card]:
    """The cards the observer cannot place: the deck less its hand and the discard pile."""
    rules = seen.rules
    decks = rules.decks_for(seen.players)
    pool = Counter(make_deck(decks, rules.jokers))
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


def sample_world(seen: Observation, rng: random.Random,
                 voids: dict[int, Void] | None = None) -> Game:
    """A game in ``seen``'s public state with the unseen cards dealt at random.

    Hand and stock sizes are exact; the observer's hand is its own; known
    voids are respected where the unseen cards allow.
    """
    cards = unseen_cards(seen)
    rng.shuffle(cards)
    voids = known_voids(seen) if voids is None else voids
    t = tables_for(seen.rules)
    hands: list[list[Card]] = [[] for _ in range(seen.players)]
    hands[seen.seat] = list(seen.hand)
    need = {s: seen.hand_sizes[s] for s in range(seen.players) if s != seen.seat}
    # Seats with voids first, from the cards they may hold.
    for seat in sorted(voids, key=lambda s: need.get(s, 0)):
        if seat not in need:
            continue
        void = t.row(voids[seat][0], voids[seat][1], False)
        take: list[Card] = []
        rest: list[Card] = []
        for c in cards:
            if len(take) < need[seat] and not void[c]:
                take.append(c)
            else:
                rest.append(c)
        hands[seat] = take
        need[seat] -= len(take)
        cards = rest
    at = 0
    for seat, count in need.items():
        hands[seat].extend(cards[at:at + count])
        at += count
    stock = cards[at:]
    return Game.from_observation(seen, hands, stock, rng)


def deal_consistent(seen: Observation, hands: Sequence[Sequence[Card]],
                    stock: Sequence[Card]) -> bool:
    """Whether a deal of the hidden cards fits what ``seen`` shows (sizes and cards)."""
    if any(len(hands[s]) != seen.hand_sizes[s] for s in range(seen.players)):
        return False
    if sorted(hands[seen.seat]) != sorted(seen.hand) or len(stock) != seen.stock:
        return False
    hidden = [c for s in range(seen.players) if s != seen.seat for c in hands[s]] + list(stock)
    return sorted(hidden) == unseen_cards(seen)
