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
- **Announcing** the last card always (HA13), and the going-out call (MM9,
  TS10); the LH5 extra card is never taken; a play is always preferred to a
  voluntary draw (CL5: measured, saving an 8 by drawing lost more rounds than
  it won).
- **The family's mechanisms**: several cards of a rank at once (SW3) count
  every card's points (no bonus beyond: measured); any card that adds to a
  pending draw passes it on (BJ3), and a card that cancels a pick-up without
  adding to it (BJ4) is kept while another plain card can go; a card that
  makes its player play again (MM7, BJ7, PE7), or between two players a
  skip, is worth the follow-ups in hand and costs a card without one; a card
  the next player must cover (TS9) is an attack; a hand is not left with only
  cards that may not end it (PE12; LC6's aces count half); a wild starter
  names the suit held most (``=s``); seats out under ``play_on`` are passed
  over (TS11).
"""

from __future__ import annotations

import random
import weakref
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from eights.bots.basic import favourite_suit
from eights.bots.worlds import Void, known_voids, unseen_cards
from eights.engine.actions import DRAW, PASS, TAKE, Action
from eights.engine.cards import CARDS, Card
from eights.engine.observation import Observation
from eights.engine.rules import GoingOut, ReverseTwo
from eights.engine.tables import Tables, tables_for

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
"""Cost of playing a wild card while a plain card could be played (half of it for a
card that cancels a pick-up, BJ4, while no pick-up is pending)."""
W_KEEP = 0.5
"""Cost of playing a card that cancels a pick-up (BJ4) while none is pending, as a share
of ``reserve``."""
W_MULTI = 0.0
"""Worth of each card beyond the first laid in one play (SW3: a turn saved)."""
W_UNCOVERED = 12.0
"""Cost of a card that makes its player play again (MM7, BJ7) with nothing to play."""
W_COVER = 6.0
"""Worth of a card the next player must cover (TS9: they draw until they can)."""
SKIP_AGAIN = 1.0
"""Whether a skip between two players is valued as playing again (by the follow-up)."""
W_STUCK = 40.0
"""Cost of leaving only cards that may not end the hand (PE12; half for LC6's aces)."""


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

    def weights(self) -> tuple[float, ...]:
        """Every weight of the score, options and fixed ones, in the order of the compiled
        expert's array (:data:`eights.fast.expert.WEIGHTS`, for
        :func:`eights.fast.expert.expert_weights`)."""
        return (self.block, self.points, self.reserve, self.follow, self.suit, W_KEEP,
                W_MULTI, W_UNCOVERED, W_COVER, SKIP_AGAIN, W_STUCK)

    def choose(self, observation: Observation, legal: Sequence[Action],
               rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        if TAKE in legal:
            return PASS  # LH5: a card taken is a card to shed
        seen = observation
        rules = seen.rules
        if seen.naming:  # TS3, UC3: the wild starter's suit, the one held most
            return Action.name(favourite_suit(seen.hand, (), seen.rules))
        plays = [a for a in legal if a.card is not None]
        if not plays:
            return DRAW if DRAW in legal else legal[0]
        me = seen.seat
        n = seen.players
        out = set(seen.finished)
        nxt = _next_seat(me, seen.direction, n, out)
        prev = _next_seat(me, -seen.direction, n, out)
        partners = {s for s in range(n) if seen.teams and s != me and s % 2 == me % 2}
        opponents = [s for s in range(n) if s != me and s not in partners and s not in out]
        closest = min((seen.hand_sizes[s] for s in opponents), default=99)
        urgency = 3.0 if closest <= 1 else 2.0 if closest <= 2 else 1.0 if closest <= 4 else 0.5
        voids = known_voids(seen)
        hand = list(seen.hand)
        unseen = unseen_cards(seen)
        t = tables_for(rules)
        plain_plays = [a for a in plays if a.card is not None and not t.wild[a.card]]
        # BJ4: a card that cancels a pick-up is kept for one, while another card can go
        cancels, stuck = _facts(t)
        ordinary = [a for a in plain_plays if a.card is not None and a.card not in cancels]
        view = _View(seen, hand, plain_plays, ordinary, cancels, nxt, prev, partners, urgency,
                     voids, unseen, t, len(out), stuck)
        best: Action = plays[0]
        best_score = -1e18
        for a in plays:
            score = self._score(view, a)
            if score > best_score:
                best_score = score
                best = a
        return best

    def _score(self, v: _View, a: Action) -> float:
        seen, t = v.seen, v.t
        rules = seen.rules
        card = a.card
        assert card is not None
        cards = a.cards
        k = len(cards)
        rule = rules.rule_of(card)
        nxt, partners = v.nxt, v.partners
        rest = list(v.hand)
        for c in cards:
            rest.remove(c)
        shed = sum(rules.points[c.rank] for c in cards)
        score = 0.0 if rule.wild else shed * v.urgency * self.points
        if k > 1:  # SW3: every extra card laid is a turn saved
            score += W_MULTI * (k - 1)
        if a.announce:
            score += 100.0
        if len(rest) == 0:  # going out wins the round; with the call (MM9) if there is one
            return 1e9 + score
        # Keep wild cards in reserve, and a cancel card (BJ4) for a pick-up.
        if rule.wild and v.plain:
            score -= self.reserve + (self.reserve / 4 if len(rest) > 4 else 0.0)
        if not seen.pending_draw and card in v.cancels and v.ordinary and len(rest) > 1:
            score -= self.reserve * W_KEEP
        # PE12, LC6: a card that may not end the hand is a poor last card
        if v.stuck:
            stuck = sum(_stuck(rules.rule_of(c).going_out) for c in rest)
            if stuck >= len(rest):
                score -= W_STUCK
            if len(rest) <= 4:
                score -= W_STUCK / 6 * stuck
        # Target left for the next player and for my follow-ups.
        if rule.transparent:
            suit, rank = seen.suit, seen.rank
        else:
            suit = a.suit if a.suit is not None else card.suit
            rank = seen.rank if rule.takes_covered_rank else card.rank
        follow = sum(1 for c in rest if (c.suit == suit and suit is not None) or c.rank == rank
                     or t.wild[c])
        if self.follow:
            plain_follow = sum(1 for c in rest if not t.wild[c] and (
                (c.suit == suit and suit is not None) or c.rank == rank))
            score += self.follow * min(plain_follow, 3)
        holding = seen.players - v.gone
        skips = k if rule.skip else 0
        if rule.reverse and holding == 2 and rules.reverse_two is ReverseTwo.SKIP:
            skips += k  # SW7, PE10, TS8, UC6: a skip with two players
        # I play next, on the card I leave: it makes me play again (HA11, MM7, BJ7), or,
        # between two players, the other loses their turn to a skip. (Valuing a draw attack
        # that ends their turn the same way lost: 0.520 against 0.530 in uno-cards, 3000
        # deals.)
        again = rule.again or bool(holding == 2 and SKIP_AGAIN and skips and not seen.pending_draw
                                   and not rule.draw and not rule.pass_on)
        # How likely the next player can follow the target left (cards unseen by me).
        if v.unseen and not (again and follow):  # else I play on it myself
            if t.any_follows[card]:
                chance = 1.0
            else:
                match = sum(1 for c in v.unseen if (suit is not None and c.suit == suit)
                            or c.rank == rank or t.wild[c])
                chance = 1.0 - (1.0 - match / len(v.unseen)) ** seen.hand_sizes[nxt]
            score += (self.block if nxt in partners else -self.block) * chance
        if a.suit is not None:
            held = Counter(c.suit for c in rest if c.suit is not None and not t.wild[c])
            # ranks the suits only: never makes a wild card better than a plain one
            score += self.suit * (held[a.suit] - max(held.values(), default=0))
            nxt_void = v.voids.get(nxt)
            if nxt_void is not None and nxt not in partners and nxt_void[0] == int(a.suit):
                score += 8.0  # the next opponent is known to lack that suit
            for p in partners:
                pv = v.voids.get(p)
                if pv is not None and pv[0] == int(a.suit):
                    score -= 4.0
        # Effects.
        victim_is_partner = nxt in partners
        if seen.pending_draw:
            pending_card = seen.discard[-1]
            if t.stacks[pending_card][card]:
                score += 30.0 + 5.0 * seen.pending_draw + 2.0 * rule.draw * k  # pass it on
            else:
                score += 20.0 + 5.0 * seen.pending_draw  # cancel it (HA7, BJ4)
        elif rule.draw:
            gain = rule.draw * k * (2.0 if seen.hand_sizes[nxt] <= 3 else 1.0)
            if rules.hand_limit and rules.overflow:
                room = rules.hand_limit - seen.hand_sizes[nxt]
                if room < rule.draw:
                    gain -= 3.0 * (rule.draw - room)  # HF9: it would come back
            score += -gain * 4.0 if victim_is_partner else gain * 4.0
        if rule.must_cover:  # TS9: the next player draws until they can cover it
            score += -W_COVER if victim_is_partner else W_COVER
        if again:  # HA11, MM7, BJ7; a skip with two players: my turn again
            if follow:
                score += 8.0 * min(follow, 2)
            else:  # the cover card cannot be covered: a card drawn for nothing
                score -= W_UNCOVERED * max(1, rule.again_penalty if rule.again else 1)
        elif skips:
            bonus = 12.0 if seen.hand_sizes[nxt] <= 2 else 5.0
            score += -bonus if victim_is_partner else bonus
        if rule.reverse and holding > 2 and k % 2:
            # after a reverse, prev plays next instead of nxt
            diff = seen.hand_sizes[nxt] - seen.hand_sizes[v.prev]
            toward = 1.0 if v.prev not in partners else -1.0
            score += 3.0 * diff * toward
        return score


@dataclass(frozen=True, slots=True)
class _View:
    """What every action of one decision is scored against."""

    seen: Observation
    hand: list[Card]
    plain: list[Action]
    """The legal plays of plain (not wild) cards."""
    ordinary: list[Action]
    """The legal plays of plain cards that cancel no pick-up."""
    cancels: frozenset[Card]
    nxt: int
    prev: int
    partners: set[int]
    urgency: float
    voids: dict[int, Void]
    unseen: list[Card]
    t: Tables
    gone: int
    """Seats out of the round (TS11)."""
    stuck: bool
    """Some card may not always end the hand (PE12, LC6)."""


def _next_seat(seat: int, direction: int, n: int, out: set[int]) -> int:
    """The next seat from ``seat`` still in the round (TS11: seats out are passed over)."""
    for step in range(1, n + 1):
        other = (seat + direction * step) % n
        if other not in out:
            return other
    return seat


_FACTS: weakref.WeakKeyDictionary[Tables, tuple[frozenset[Card], bool]] = (
    weakref.WeakKeyDictionary())


def _facts(t: Tables) -> tuple[frozenset[Card], bool]:
    """Of a rule set: the plain cards that cancel some pick-up without adding to it (BJ4's
    red jacks), and whether some card may not always end the hand (PE12, LC6)."""
    found = _FACTS.get(t)
    if found is None:
        cancels = frozenset(CARDS[c] for c in range(53) if not t.wild[c] and any(
            t.draw[p] and t.answers[p][c] and not t.stacks[p][c] for p in range(53)))
        stuck = any(g is not GoingOut.YES for g in t.going_out)
        found = _FACTS[t] = (cancels, stuck)
    return found


def _stuck(going_out: GoingOut) -> float:
    """How badly a card serves as the last one: it may never end the hand (PE12), or
    only on its own suit (LC6)."""
    if going_out is GoingOut.NO or going_out is GoingOut.PENALTY:
        return 1.0
    return 0.5 if going_out is GoingOut.SUIT else 0.0
