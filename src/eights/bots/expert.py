"""The expert: a heuristic player that uses everything public.

It scores every legal action and plays the best. What goes into the score:

- **Shedding**: a card's points, weighted up as the closest opponent nears
  going out (in every scoring mode the cards left in hand cost).
- **Keeping wild cards**: an 8 (a ``wild`` rank) costs a reserve penalty
  whenever a plain card can be played, down to the last two cards (an 8 kept
  as the last card goes out whatever the up-card; the search found it); its
  points do not count as shedding (playing an 8 early to unload 50 points
  lost rounds).
- **Card counting**: the chance that the next player can follow the target a
  play leaves (suit, rank or a wild card), from the cards it has not seen
  (the deck less its hand and the discard pile) and that player's hand size;
  lower is better against an opponent, higher for a partner. (Counting its
  own follow-ups did not help in tournaments: ``follow`` is 0 by default.)

Every weight is an option (``expert:block=20:suit=30:points=0.5:reserve=40:follow=0``);
the defaults were tuned in 2-player duplicate tournaments against ``greedy``
on the four seed presets.
- **Suit choice**: a wild card names the suit held most of (a strong weight:
  naming a suit the hand lacks was the expert's costliest mistake, worth up
  to 40% of a 2-player round by the search's count), preferring suits the
  next opponent has shown it lacks (its plain draws, see
  :func:`eights.bots.worlds.known_voids`), avoiding suits a partner lacks.
- **Special cards**: forced draws and skips are aimed at an opponent, more so
  when it has few cards; never at a partner (les-huit teams); a reverse is
  played when it turns play away from the opponent with fewer cards; a stack
  on a pending draw passes it on; an 8 cancels an ace run (HA7); the 10's
  replay (HA11) is valued by the follow-up it allows; HF9 overflow is avoided
  when the draw would bounce back.
- **Announcing** the last card always (HA13); the LH5 extra card is never
  taken; a play is always preferred to a voluntary draw (CL5: measured, saving
  an 8 by drawing lost more rounds than it won).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from eights.bots.worlds import Void, known_voids, unseen_cards
from eights.engine.actions import DRAW, PASS, TAKE, Action
from eights.engine.cards import Card
from eights.engine.observation import Observation

__all__ = ["ExpertBot"]

W_POINTS = 0.5
"""Weight of a card's points (times the urgency) when shedding it."""
W_BLOCK = 20.0
"""Weight of the chance that the next player can follow the target a play leaves."""
W_FOLLOW = 0.0
"""Weight of the cards left in hand that could follow the target a play leaves (up to 3)."""
W_SUIT = 30.0
"""Weight of each card held in the suit a wild card names."""
W_RESERVE = 40.0
"""Cost of playing a wild card while a plain card could be played."""


class ExpertBot:
    """Heuristic scoring of every legal action (see the module text)."""

    name = "expert"

    def __init__(self, block: float = W_BLOCK, points: float = W_POINTS,
                 reserve: float = W_RESERVE, follow: float = W_FOLLOW,
                 suit: float = W_SUIT) -> None:
        for option, value in (("block", block), ("points", points), ("reserve", reserve),
                              ("follow", follow), ("suit", suit)):
            if value < 0:
                raise ValueError(f"expert {option} must be 0 or more, not {value}")
        self.block = block
        self.points = points
        self.reserve = reserve
        self.follow = follow
        self.suit = suit

    def choose(self, observation: Observation, legal: Sequence[Action],
               rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if TAKE in legal:
            return PASS  # LH5: a card taken is a card to shed
        seen = observation
        plays = [a for a in legal if a.card is not None]
        if not plays:
            return DRAW if DRAW in legal else legal[0]
        rules = seen.rules
        me = seen.seat
        n = seen.players
        nxt = (me + seen.direction) % n
        prev = (me - seen.direction) % n
        partners = {s for s in range(n) if seen.teams and s != me and s % 2 == me % 2}
        opponents = [s for s in range(n) if s != me and s not in partners]
        closest = min((seen.hand_sizes[s] for s in opponents), default=99)
        urgency = 3.0 if closest <= 1 else 2.0 if closest <= 2 else 1.0 if closest <= 4 else 0.5
        voids = known_voids(seen)
        hand = list(seen.hand)
        unseen = unseen_cards(seen)

        def is_wild(card: Card) -> bool:
            return rules.card(card.rank).wild

        plain_plays = [a for a in plays if a.card is not None and not is_wild(a.card)]
        best: Action = plays[0]
        best_score = -1e18
        for a in plays:
            score = self._score(seen, a, hand, plain_plays, nxt, prev, partners, opponents,
                                urgency, voids, unseen)
            if score > best_score:
                best_score = score
                best = a
        return best

    def _score(self, seen: Observation, a: Action, hand: list[Card], plain: list[Action],
               nxt: int, prev: int, partners: set[int], opponents: list[int],
               urgency: float, voids: dict[int, Void], unseen: list[Card]) -> float:
        rules = seen.rules
        card = a.card
        assert card is not None
        rule = rules.card(card.rank)
        points = rules.points[card.rank]
        rest = list(hand)
        rest.remove(card)
        score = 0.0 if rule.wild else points * urgency * self.points
        if a.announce:
            score += 100.0
        if len(rest) == 0:  # going out wins the round; with the call (MM9) if there is one
            return 1e9 + score
        # Keep wild cards in reserve.
        if rule.wild and plain:
            score -= self.reserve + (self.reserve / 4 if len(rest) > 4 else 0.0)
        # Target left for the next player and for my follow-ups.
        if rule.transparent:
            suit, rank = seen.suit, seen.rank
        else:
            suit = a.suit if a.suit is not None else card.suit
            rank = seen.rank if rule.takes_covered_rank else card.rank
        follow = sum(1 for c in rest if (c.suit == suit and suit is not None) or c.rank == rank
                     or rules.card(c.rank).wild)
        if self.follow:
            plain_follow = sum(1 for c in rest if not rules.card(c.rank).wild and (
                (c.suit == suit and suit is not None) or c.rank == rank))
            score += self.follow * min(plain_follow, 3)
        # How likely the next player can follow the target left (cards unseen by me).
        if unseen:
            match = sum(1 for c in unseen if (suit is not None and c.suit == suit)
                        or c.rank == rank or rules.card(c.rank).wild)
            chance = 1.0 - (1.0 - match / len(unseen)) ** seen.hand_sizes[nxt]
            score += (self.block if nxt in partners else -self.block) * chance
        if a.suit is not None:
            held = Counter(c.suit for c in rest if c.suit is not None and not rules.card(c.rank).wild)
            # ranks the suits only: never makes a wild card better than a plain one
            score += self.suit * (held[a.suit] - max(held.values(), default=0))
            nxt_void = voids.get(nxt)
            if nxt_void is not None and nxt not in partners and nxt_void[0] == int(a.suit):
                score += 8.0  # the next opponent is known to lack that suit
            for p in partners:
                pv = voids.get(p)
                if pv is not None and pv[0] == int(a.suit):
                    score -= 4.0
        # Effects.
        victim_is_partner = nxt in partners
        if seen.pending_draw:
            if rule.stack and card.rank == seen.pending_rank:
                score += 30.0 + 5.0 * seen.pending_draw  # pass the draw on
            else:
                score += 20.0 + 5.0 * seen.pending_draw  # cancel it (HA7)
        elif rule.draw:
            gain = rule.draw * (2.0 if seen.hand_sizes[nxt] <= 3 else 1.0)
            if rules.hand_limit and rules.overflow:
                room = rules.hand_limit - seen.hand_sizes[nxt]
                if room < rule.draw:
                    gain -= 3.0 * (rule.draw - room)  # HF9: it would come back
            score += -gain * 4.0 if victim_is_partner else gain * 4.0
        if rule.skip:
            bonus = 12.0 if seen.hand_sizes[nxt] <= 2 else 5.0
            score += -bonus if victim_is_partner else bonus
        if rule.reverse and seen.players > 2:
            # after a reverse, prev plays next instead of nxt
            diff = seen.hand_sizes[nxt] - seen.hand_sizes[prev]
            toward = 1.0 if prev not in partners else -1.0
            score += 3.0 * diff * toward
        if rule.again:
            score += 8.0 * min(follow, 2)
        return score
