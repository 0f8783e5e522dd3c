"""Resampling from an information state: OpenSpiel's ``resample_from_infostate``.

A seat's information state fixes its own cards, the public history and how many cards
every seat received at each decision. :func:`resample` keeps all of that and deals the
rest again with eights' world sampler (:func:`eights.bots.worlds.sample_world`: the
unseen cards into hands of the right sizes and the stock, meeting what the rules make
certain about the other hands, e.g. a plain draw where only a player unable to play may
draw). The seat's own information state string and tensor are unchanged; the other
seats get a past that fits their new hands: the cards each of them played and holds are
spread over its deal and its receipts, every card received before it was played
(earliest deadline first), the rest at random. That past is not checked against the
rules (a sampled hand may make an old ``draw`` one the rules would not allow), as the
world sampler's deal is not either where its constraints cannot all be met.

The resampled state is a world, not a replay: it holds the round's present and the
story above, and OpenSpiel's ``history()`` of it is empty.
"""

from __future__ import annotations

import random

from eights.bots.worlds import sample_world
from eights.engine.cards import Card
from eights.openspiel.chance import Event, Round

__all__ = ["resample"]


def resample(rnd: Round, seat: int, rng: random.Random) -> Round:
    """A round ``seat`` cannot tell from ``rnd``, the hidden cards dealt again with ``rng``.

    Works where a seat is to decide or the round is over (a finished round shows every
    hand: it is copied); raises :class:`ValueError` at a chance node.
    """
    if not 0 <= seat < rnd.players:
        raise ValueError(f"seat {seat} does not exist; seats are 0 to {rnd.players - 1}")
    if rnd.awaiting:
        raise ValueError("resample_from_infostate needs a decision or the end of the round; "
                         "this state awaits a card (a chance node)")
    game = rnd.game
    assert game is not None
    if game.over:
        return rnd.copy()
    world = sample_world(game.observe(seat), rng)
    hands0 = list(rnd.hands0)
    received = [list(e.received) for e in rnd.events]
    for other in range(rnd.players):
        if other != seat:
            _retell(rnd, other, world.hands[other], rng, hands0, received)
    events = [Event(e.seat, e.action, e.code, tuple(r))
              for e, r in zip(rnd.events, received, strict=True)]
    return rnd.world(world, tuple(hands0), events)


def _retell(rnd: Round, seat: int, hand: list[Card], rng: random.Random,
            hands0: list[tuple[Card, ...]], received: list[list[tuple[Card, ...]]]) -> None:
    """Give ``seat`` a deal and receipts that lead to ``hand`` through its public plays:
    its cards by deadline (the event that played them; held ones last, in random order)
    fill its deal, then each of its receipts in order."""
    held = hand[:]
    rng.shuffle(held)
    cards = [c for _, c in rnd.played(seat)] + held  # by the event that played them
    at = len(rnd.hands0[seat])
    hands0[seat] = tuple(sorted(cards[:at]))
    for i, event in enumerate(rnd.events):
        k = len(event.received[seat])
        if k:
            row = received[i]
            row[seat] = tuple(cards[at:at + k])
            at += k
    assert at == len(cards), "a seat's cards and its deal and receipts differ in number"

