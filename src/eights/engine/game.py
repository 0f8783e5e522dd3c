"""The game: deal, legal actions, one action at a time, scoring, a match.

:class:`Game` is the referee's whole state of a match. It does no I/O and
owns its randomness: every card that leaves the stock is drawn uniformly from
the stock (a multiset) with the game's own ``random.Random(seed)``, or taken
from a scripted sequence when one is given (stacked decks, replays). A closed
script (``closed=True``, :meth:`Game.extend_deck`) never draws at random: the
card after it is asked of the caller (:class:`~eights.engine.errors.ScriptEnded`),
which is how OpenSpiel's explicit chance nodes are made (:mod:`eights.openspiel`).

Seats are numbered in play order: seat ``s + 1`` sits left of seat ``s`` and
plays next when ``direction`` is 1. The dealer rotates one seat each round;
the seat after the dealer is dealt first and, unless a starter effect says
otherwise, plays first.

>>> g = Game("classic", 2, seed=1)
>>> g.to_play, len(g.hand(0)), len(g.hand(1))
(1, 7, 7)
>>> step = g.apply(g.legal_actions()[0])
>>> step.seat
1
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, NamedTuple

from eights.engine.actions import DRAW, NAMES, PASS, TAKE, Action
from eights.engine.cards import Card, Rank, Suit
from eights.engine.errors import IllegalActionError, RecordError, RulesError, ScriptEnded
from eights.engine.observation import TELL_KINDS, Observation, Tell
from eights.engine.rules import BlockedScoring, Rules, Scoring, load_rules
from eights.engine.tables import SUIT_OF, Tables, tables_for

__all__ = ["Game", "RoundLog", "Step"]

RulesSpec = str | Mapping[str, Any] | Rules


@dataclass(frozen=True, slots=True)
class RoundLog:
    """What a finished or running round needs to be replayed."""

    dealer: int
    deck: tuple[Card, ...]
    """Cards in the order they left the stock: deal, starter(s), draws."""
    actions: tuple[Action, ...]


class Step(NamedTuple):
    """What one action did: the public event a front-end narrates and a log keeps.

    Returned by :meth:`Game.apply` (an immutable named tuple: cheap enough to make for
    every checked action). ``received`` holds the cards themselves
    (the referee's view): a front-end shows a seat only its own cards and the
    counts of the others (:meth:`counts`).

    >>> g = Game("classic", 2, seed=1, deck=None)
    >>> step = g.apply("draw")
    >>> step.seat, str(step.action), step.counts()
    (1, 'draw', (0, 1))
    """

    seat: int
    """Who acted."""
    action: Action
    received: tuple[tuple[Card, ...], ...]
    """The cards each seat received during the action (draws, forced draws, the
    HA13 penalty, the HF9 overflow sent back to the attacker), in seat order."""
    penalties: tuple[int, ...]
    """Penalty points each seat incurred (HF9 overflow)."""
    skipped: int | None
    """The seat that loses its turn to this card (HA10, HF8), if any."""
    reversed: bool
    """The direction of play changed (HF10, HA9)."""
    reshuffled: int
    """Cards of the discard pile turned over into a new stock (HA5), 0 if none."""
    round_over: bool
    """The round ended with this action (someone went out, or it is blocked)."""
    out: int | None
    """The seat that went out with this action."""

    def counts(self) -> tuple[int, ...]:
        """How many cards each seat received (public)."""
        return tuple(len(cards) for cards in self.received)

    @property
    def blocked(self) -> bool:
        """The round ended without anyone going out."""
        return self.round_over and self.out is None


class Game:
    """A match of Crazy Eights under some :class:`~eights.engine.rules.Rules`."""

    __slots__ = (
        "_closed",
        "_dealt",
        "_legal",
        "_rng",
        "_row",
        "_script",
        "_script_pos",
        "_t",
        "after_naming",
        "again",
        "again_penalty",
        "announce_due",
        "attacker",
        "dealer",
        "direction",
        "discard",
        "draw_log",
        "drawn",
        "draws",
        "finished",
        "free",
        "hands",
        "history",
        "match_over",
        "n",
        "naming",
        "out",
        "over",
        "passes",
        "penalties",
        "pending",
        "pending_card",
        "plays",
        "rank",
        "received",
        "repeats",
        "replace",
        "round",
        "round_points",
        "round_winners",
        "rounds_log",
        "rules",
        "rules_spec",
        "scores",
        "seed",
        "served",
        "skip_due",
        "skip_next",
        "stock",
        "suit",
        "teams",
        "tells",
        "to_move",
        "winners",
    )

    def __init__(
        self,
        rules: RulesSpec = "classic",
        players: int | None = None,
        *,
        seed: int | None = None,
        dealer: int = 0,
        deck: Sequence[Card] | None = None,
        closed: bool = False,
    ) -> None:
        """``deck``: the cards in the order they leave the stock (a stacked deck, a replay);
        after them the game draws with its generator, unless ``closed``: then a card needed
        beyond ``deck`` raises :class:`~eights.engine.errors.ScriptEnded` (see
        :meth:`extend_deck`)."""
        self.rules_spec: str | dict[str, Any]
        if isinstance(rules, Rules):
            self.rules = rules
            self.rules_spec = tables_for(rules).spec
        else:
            self.rules = load_rules(rules)
            self.rules_spec = rules if isinstance(rules, str) else dict(rules)
        self.n = self.rules.default_players if players is None else players
        self.rules.check_players(self.n)
        if not 0 <= dealer < self.n:
            raise RulesError(f"dealer {dealer} is not a seat; seats are 0 to {self.n - 1}")
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self.seed = seed
        self._rng = random.Random(seed)
        self._closed = closed
        self._t = tables_for(self.rules)
        self.teams = self.rules.has_teams(self.n)
        self.scores = [0] * self.n
        self.round = 0
        self.dealer = dealer
        self.match_over = False
        self.winners: list[int] | None = None
        self.rounds_log: list[RoundLog] = []
        self._start_round(deck)

    # ------------------------------------------------------------------ rounds

    def _start_round(self, deck: Sequence[Card] | None) -> None:
        t = self._t
        n = self.n
        self.stock: list[Card] = t.deck(n)
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.discard: list[Card] = []
        self._dealt: list[Card] = []
        self._script: list[Card] = list(deck or ())
        self._script_pos = 0
        self.history: list[tuple[int, Action]] = []
        self.draw_log: list[tuple[int, int, int, bool]] = []
        self.tells: list[tuple[int, int, int, int, int]] = []
        self.received = [0] * n
        self.repeats: dict[tuple[object, ...], int] = {}
        self.round += 1
        self.direction = 1
        self.pending = 0
        self.pending_card = -1
        self.attacker = -1
        self.skip_due = 0
        self.finished: list[int] = []
        self.naming = False
        self.after_naming = -1
        self.drawn: Card | None = None
        self.draws = 0
        self.again = False
        self.again_penalty = 0
        self.replace = False
        self.skip_next = 0
        self.served = False
        self.announce_due = False
        self.passes = 0
        self.plays = 0
        self.penalties = [0] * n
        self.over = False
        self.out: int | None = None
        self.round_points: list[int] | None = None
        self.round_winners: list[int] | None = None
        self._legal: list[Action] | None = None
        hands = self.hands
        first = self.dealer + 1
        count = self.rules.hand_size_for(n) * n
        if self._script or self._closed:
            for i in range(count):
                hands[(first + i) % n].append(self._take_from_stock())
        else:  # the same draws as _take_from_stock, inlined: dealing is most of a new game
            stock, dealt, rand = self.stock, self._dealt, self._rng.random
            for i in range(count):
                k = int(rand() * len(stock))
                c = stock[k]
                stock[k] = stock[-1]
                stock.pop()
                dealt.append(c)
                hands[(first + i) % n].append(c)
        for hand in hands:
            hand.sort()  # hands are kept sorted by card code
        starter = self._take_from_stock()
        turns = 0
        while starter >> 2 in t.redraw:  # HA2: back into the stock, turn the next one
            self.stock.append(starter)
            turns += 1
            if turns > 200 and all(c >> 2 in t.redraw for c in self.stock):
                break
            starter = self._take_from_stock()
        self.discard.append(starter)
        rank = starter >> 2
        self.suit = SUIT_OF[starter]
        self.rank = rank
        self.free = (t.starter_any and t.wild[starter]) or t.any_follows[starter]  # CL4, PE6
        self._row = t.row(self.suit, self.rank, self.free)
        steps = 1
        if self.rules.starter_effects:  # as if the dealer had played it
            if t.draw[starter]:
                self.pending, self.pending_card, self.attacker = t.draw[starter], starter, self.dealer
            if t.reverse[starter] and n > 2:
                self.direction = -1
            if t.skip[starter] or (t.reverse[starter] and n == 2 and t.reverse_skip):  # UC3
                steps = 2
        self.to_move = (self.dealer + self.direction * steps) % n
        if t.starter_names and t.name_suit[starter]:  # TS3, UC3: a suit is named first
            self.naming = True
            self.suit = -1  # nothing to follow until it is named
            self.after_naming = self.to_move
            if t.dealer_names:
                self.to_move = self.dealer

    def next_round(self, deck: Sequence[Card] | None = None) -> None:
        """Deal the next round of the match; the dealer moves one seat on."""
        if not self.over or self.match_over:
            raise IllegalActionError("the next round starts only after a round ends "
                                     "and while the match goes on")
        self.rounds_log.append(self.round_log())
        self.dealer = (self.dealer + 1) % self.n
        self._start_round(deck)

    def round_log(self) -> RoundLog:
        """The current round as a deck and an action list (for records)."""
        return RoundLog(self.dealer, tuple(self._dealt), tuple(a for _, a in self.history))

    # ------------------------------------------------------------------ queries

    @property
    def to_play(self) -> int | None:
        """The seat to act, or ``None`` when the round is over."""
        return None if self.over else self.to_move

    @property
    def up_card(self) -> Card:
        """The top card of the discard pile."""
        return self.discard[-1]

    def hand(self, seat: int) -> list[Card]:
        """A copy of a seat's hand, sorted by suit then rank (the referee's view)."""
        return sorted(self.hands[seat], key=_hand_order)

    def team_of(self, seat: int) -> int:
        """The team (0 or 1) of a seat when partners play, else the seat itself."""
        return seat % 2 if self.teams else seat

    def hand_value(self, seat: int) -> int:
        """Points of the cards in a seat's hand."""
        pts = self._t.points
        return sum(pts[c >> 2] for c in self.hands[seat])

    def playable(self, card: Card) -> bool:
        """Whether ``card`` may be played on the up-card now (by the seat to play: UC8's
        wild card depends on the hand)."""
        if self.pending:
            return self._answers(card)
        return self._playable(card)

    def _playable(self, c: int) -> bool:
        if self._row[c]:
            return not self._t.no_suit[c] or self._lacks_suit(self.hands[self.to_move])
        return False

    def _lacks_suit(self, hand: list[Card]) -> bool:
        """UC8: the hand holds no card of the suit to follow, wild cards aside."""
        if self.suit < 0:  # no suit to follow: none held
            return True
        return not any(map(self._t.plain_of_suit[self.suit].__getitem__, hand))

    def _matching(self, hand: list[Card]) -> list[Card]:
        """The cards of ``hand`` that may be played on the up-card (no draw pending)."""
        row = self._row
        cards = [c for c in hand if row[c]]
        if self._t.wild_if and cards and not self._lacks_suit(hand):  # UC8
            no_suit = self._t.no_suit
            cards = [c for c in cards if not no_suit[c]]
        return cards

    def _answers(self, c: int) -> bool:
        return self._t.answers[self.pending_card][c]

    def can_draw(self, seat: int) -> bool:
        """True if a card can be drawn and the seat is below the hand limit (HF6).

        The stock is rebuilt the moment it empties (when the rules reshuffle),
        so an empty stock means there is nothing to draw.
        """
        return bool(self.stock) and len(self.hands[seat]) < self._t.cap

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to play, in canonical order (a fresh list)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal[:]

    def _generate(self) -> list[Action]:
        if (self.over or self.replace or self.pending or self.again or self.drawn is not None
                or self.served or self.skip_due or self.naming):
            return self._generate_special()
        t = self._t
        hand = self.hands[self.to_move]
        n_hand = len(hand)
        row = self._row
        cards = [c for c in hand if row[c]]
        if t.wild_if and cards:
            cards = self._matching(hand)
        out = self._plays_of(cards, n_hand) if cards else []
        if t.multi:  # SW3: several cards of one rank, one of those under the top playable
            out += self._multi_plays(hand, cards)
        can_draw = n_hand < t.cap and bool(self.stock)
        if t.repeat:
            if can_draw and self.draws < t.max_draws and (not out or t.voluntary_draw):
                out.append(DRAW)
            if self.draws >= t.max_draws or (not can_draw and (not out or t.voluntary_pass)):
                out.append(PASS)
        elif can_draw:
            if not out or t.voluntary_draw:
                out.append(DRAW)
        elif not out or t.voluntary_pass:
            out.append(PASS)
        if not out:
            out.append(PASS)
        return out

    def _generate_special(self) -> list[Action]:
        """Legal actions in the rarer moments: round over, LH5 choice, a forced
        draw waiting, HA11 play again, a drawn card to play or keep, PE5 a forced
        draw taken and the turn going on."""
        if self.over:
            return []
        if self.naming:  # TS3, UC3: name the suit of the wild starter
            return list(NAMES)
        if self.replace:  # LH5
            return [TAKE, PASS]
        t = self._t
        hand = self.hands[self.to_move]
        if self.pending:  # only answers, or take the draw
            row = t.answers[self.pending_card]
            first = [c for c in hand if row[c]]
            out = self._plays_of(first, len(hand))
            if t.multi:
                out += self._multi_plays(hand, first)
            out.append(DRAW)
            return out
        if self.skip_due:  # MM5, PE8: pass the skip on with a card of its rank, or accept it
            rank = self.discard[-1] >> 2
            first = [c for c in hand if c >> 2 == rank and t.pass_on[c]]
            out = self._plays_of(first, len(hand))
            if t.multi:
                out += self._multi_plays(hand, first)
            out.append(PASS)
            return out
        if self.drawn is not None:  # HA4 may play it, HF5 and TS4 must play it
            out = self._plays_of([self.drawn], len(hand)) if self._playable(self.drawn) else []
            if (t.may_keep and not self._covering()) or not out:
                out.append(PASS)
            return out
        first = self._matching(hand)
        out = self._plays_of(first, len(hand))
        if t.multi:
            out += self._multi_plays(hand, first)
        if self.served and not self.again:  # PE5: play on the up-card, or pass; no draw
            out.append(PASS)
        elif not out:  # HA11: cannot play again
            out.append(DRAW)
        return out

    def _plays_of(self, cards: list[Card], n_hand: int) -> list[Action]:
        """Every way to play each of ``cards`` (sorted by code): suits named,
        the last card announced (HA13), or nothing named when going out."""
        t = self._t
        if n_hand == 1:  # going out (LC6, PE12: not on every card)
            if t.any_out_suit:
                return self._last_plays(cards)
            table = t.last
        elif self.plays >= t.last_play:
            table = t.end
        elif n_hand == 2 and t.announce:
            table = t.announced
        else:
            table = t.mid
        if len(cards) == 1:
            return list(table[cards[0]])
        out: list[Action] = []
        last = -1
        for c in cards:  # each card once (two decks), in canonical order
            if c != last:
                out.extend(table[c])
                last = c
        return out

    def _last_plays(self, cards: list[Card]) -> list[Action]:
        """LC6: the plays of a hand's last card, a card of ``going_out = "suit"`` only if it
        is of the suit to follow."""
        t = self._t
        out: list[Action] = []
        for c in cards:  # one card (or two copies of it)
            if not t.out_suit[c] or SUIT_OF[c] == self.suit:
                out.extend(t.last[c])
                break
        return out

    def _multi_plays(self, hand: list[Card], first: list[Card]) -> list[Action]:
        """SW3: every play of two or more cards of one rank and one rule, one of those under
        the top card among ``first`` (the cards that may go down on their own now)."""
        if not first:
            return []
        out: list[Action] = []
        n_hand = len(hand)
        done: set[int] = set()
        for lead in first:
            rank = lead >> 2
            if rank in done:
                continue
            done.add(rank)
            for group in self._groups_of(hand, rank):
                if len(group) < 2 or not any(c in first for c in group):
                    continue
                for size in range(2, len(group) + 1):
                    seen: set[tuple[int, ...]] = set()
                    for combo in combinations(group, size):
                        if combo in seen:
                            continue
                        seen.add(combo)
                        for i, top in enumerate(combo):
                            if i and combo[i - 1] == top:
                                continue  # a second copy on top is the same play
                            under = combo[:i] + combo[i + 1:]
                            if not any(c in first for c in under):
                                continue
                            out.extend(self._many(under, top, n_hand - size))
        return out

    def _groups_of(self, hand: list[Card], rank: int) -> list[list[Card]]:
        """The cards of ``hand`` of this rank, grouped by rule (BJ6: black and red jacks
        never go down together); none for a rank that may not cover itself (MM6)."""
        t = self._t
        groups: dict[int, list[Card]] = {}
        for c in hand:
            if c >> 2 == rank and rank not in t.not_on[c]:
                groups.setdefault(t.kind[c], []).append(c)
        return list(groups.values())

    def _many(self, under: tuple[Card, ...], top: Card, left: int) -> tuple[Action, ...]:
        """Every way to lay ``under`` then ``top``, leaving ``left`` cards in the hand."""
        t = self._t
        cards = (*under, top)
        if left == 0:  # LC6: an ace goes out only if of the suit to follow before the play
            if t.out_suit[top] and SUIT_OF[top] != self.suit:
                return ()
            return t.plays(cards, "last")
        if self.plays >= t.last_play:
            return t.plays(cards, "end")
        if left == 1 and t.announce:
            return t.plays(cards, "announced")
        return t.plays(cards, "mid")

    # ------------------------------------------------------------------ acting

    def apply(self, action: Action | str) -> Step:
        """Play ``action`` for the seat to play and say what it did.

        Raises :class:`~eights.engine.errors.NotationError` for malformed text and
        :class:`~eights.engine.errors.IllegalActionError` (listing the legal actions)
        for an action the rules do not allow; either way nothing changes.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if action not in legal:
            if isinstance(action, str):
                return self.apply(Action.parse(action))
            if self.over:
                raise IllegalActionError(f"{action} is not allowed: the round is over")
            names = tuple(str(a) for a in legal)
            raise IllegalActionError(
                f"{action} is not legal for seat {self.to_move} now; legal: {', '.join(names)}",
                names,
            )
        seat, direction = self.to_move, self.direction
        hands = self.hands
        sizes = [len(h) for h in hands]
        dealt, penalties = len(self._dealt), self.penalties[:]
        card = action.card
        discard = len(self.discard) + len(action.cards)
        self.push(action)
        n = self.n
        received: tuple[tuple[Card, ...], ...] = ((),) * n
        new = self._dealt[dealt:]
        if new:  # cards leave the stock for the actor first (its draw), then the others (HF9)
            got = [len(h) - k for h, k in zip(hands, sizes, strict=True)]
            if card is not None:
                got[seat] += len(action.cards)
            at = 0
            parts: list[tuple[Card, ...]] = [()] * n
            for s in sorted(range(n), key=lambda s: s != seat):
                if got[s] > 0:
                    parts[s] = tuple(new[at:at + got[s]])
                    at += got[s]
            received = tuple(parts)
        after = self.penalties
        over = self.over
        return Step(
            seat, action, received,
            (0,) * n if after == penalties else tuple(a - b for a, b in zip(after, penalties, strict=True)),
            self._advance(seat, 1) if card is not None and not over and self._skips(card)
            else None,
            self.direction != direction, max(0, discard - len(self.discard)), over,
            self.out if over else None)

    def _skips(self, c: Card) -> bool:
        """Whether playing ``c`` makes the next player lose their turn (a skip, or a
        reverse with two players under ``reverse_two = "skip"``)."""
        t = self._t
        if t.pass_on[c]:
            return False  # MM5, PE8: the skipped player has a say (skip_due)
        return t.skip[c] or (t.reverse[c] and self._holding() == 2 and t.reverse_skip)

    @property
    def legal(self) -> Sequence[Action]:
        """The legal actions, cached and shared: read, never modify (the hot loops' view;
        :meth:`legal_actions` gives a fresh list)."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    @property
    def tables(self) -> Tables:
        """The lookup tables the engine plays with (read only)."""
        return self._t

    @property
    def dealt(self) -> int:
        """How many cards have left the stock this round (deal, starters, draws)."""
        return len(self._dealt)

    def push(self, action: Action) -> None:
        """Play an action known to be legal, without checking it or reporting what it
        did (search and simulation loops: :meth:`apply` is the checked way)."""
        p = self.to_move
        self.history.append((p, action))
        self._legal = None
        card = action.card
        if card is not None:
            self._play(p, card, action.under, action.suit, action.announce)
        elif action is DRAW:
            self._draw(p)
        elif action is PASS:
            self._pass(p)
        elif action is TAKE:
            self._give(p, 1)  # LH5: take the top card of the stock
            self._end_turn(p, 1 + self.skip_next)
        else:  # TS3, UC3: the suit of a wild starter is named
            assert action.suit is not None
            self.suit = int(action.suit)
            self.naming = False
            self._row = self._t.fixed[self.suit * 14 + self.rank]
            self.to_move = self.after_naming

    def _play(self, p: int, c: Card, under: tuple[Card, ...], named: Suit | None,
              announce: bool) -> None:
        """The one place cards leave a hand for the discard pile: one card ``c``, or several
        of one rank, ``under`` then ``c`` on top (SW3), their effects adding up."""
        t = self._t
        hand = self.hands[p]
        if t.wild[c] and self.drawn is None and not (self.pending or self.again or self.free
                                                     or self.skip_due):
            self.tells.append((p, self.suit, self.rank, 2, self.received[p]))
        if under:
            for x in under:
                hand.remove(x)
            self.discard.extend(under)
        hand.remove(c)
        self.discard.append(c)
        self.plays += 1
        self.passes = 0
        if self.drawn is not None:
            self.drawn = None
        if self.skip_due:  # MM5, PE8: the skip passed on
            self.skip_due = 0
        if not self.stock:
            self._refill()
        if not hand and not t.stays_in[c] and (announce or not t.call_out):
            # HF11, HA14, CL7, LH8: going out ends the round (MM9, TS10: with the call)
            if not t.play_on:
                if t.serve_last and t.draw[c]:  # LC8, UC10: its draw is served first
                    self._serve_last(p, c, 1 + len(under))
                self._end_round(p)
                return
            self._leave(p)  # TS11: out of the round; the card's effect goes on
            if self.over:
                return
        if len(self.stock) + len(self.discard) <= 2 * self.n and self._repeated(p, c, named):
            self._end_round(None)  # forced moves going round in circles: blocked
            return
        if self.plays > t.last_play:  # OpenSpiel max_turns
            self._end_round(None)
            return
        if not t.transparent[c]:  # HA12: after a joker the card to match is the one beneath
            self.suit = SUIT_OF[c] if named is None else int(named)
            if not t.covered[c]:  # LH4: the 8 keeps the rank it covers
                self.rank = c >> 2
            if t.any_follows[c]:  # PE6: any card may follow it
                self.free = True
                self._row = t.row(self.suit, self.rank, True)
            else:
                self.free = False
                suit = self.suit
                self._row = (t.fixed[suit * 14 + self.rank] if suit >= 0
                             else t.row(suit, self.rank, False))
        if t.announce and not announce and len(hand) == 1:
            self.announce_due = True  # HA13: penalty at the end of the turn
        if not t.effect[c]:
            if self.pending:  # HA7: an 8 cancels the run
                self.pending, self.pending_card, self.attacker = 0, -1, -1
            self.again = False
            if t.replace and self.stock and hand and len(hand) < t.cap:
                self.replace = True  # LH5
                return
            if (self.announce_due or self.draws or self.skip_next or self.free or self.served
                    or not hand or self.finished):
                self._end_turn(p, 1)
            else:  # the common case of _end_turn, inline
                self.to_move = (p + self.direction) % self.n
            return
        k = 1 + len(under) if under else 1
        if self.pending:
            if t.stacks[self.pending_card][c]:  # HF7, HA7, BJ3: the run grows
                if self.stock:
                    self.pending += t.draw[c] * k
                self.pending_card = c
                self.attacker = p
            else:  # HA7: an 8 cancels the run (BJ4: a red jack; BJ6: the rest lie plain)
                self.pending, self.pending_card, self.attacker = 0, -1, -1
        elif t.draw[c] and self.stock:
            self.pending, self.pending_card, self.attacker = t.draw[c] * k, c, p
        skips = k if t.skip[c] else 0
        if t.reverse[c]:
            if self.n - len(self.finished) > 2:
                if k % 2:  # SW7: each reverse flips the direction
                    self.direction = -self.direction
            elif t.reverse_skip:  # SW7, PE10, TS8, UC6: a skip with two players
                skips += k
            # else HF10, HA9: no effect with two players
        if t.again[c] and hand:  # HA11: play again (not with an empty hand: MM9)
            self.again = True
            self.again_penalty = t.again_penalty[c]
            self.served = False
            return
        self.again = False
        if skips and t.pass_on[c] and t.skip[c]:  # MM5, PE8: the next player has a say
            self.skip_due, skips = skips, 0
        if skips > 1 or self.finished:  # SW6: never the player who laid them
            skips = min(skips, self.n - len(self.finished) - 1)
        if t.replace and hand and self.can_draw(p):  # LH5
            self.replace = True
            self.skip_next = skips
            return
        self._end_turn(p, 1 + skips)

    def _holding(self) -> int:
        """Players still in the round (TS11: those out under ``play_on`` are not)."""
        return self.n - len(self.finished)

    def _leave(self, p: int) -> None:
        """TS11: ``p`` has gone out and leaves the round; it ends with one player left."""
        self.finished.append(p)
        self.again = False
        if self.n - len(self.finished) <= 1:
            self._end_round(p)

    def _advance(self, p: int, steps: int) -> int:
        """The seat ``steps`` seats on from ``p`` in the direction of play, counting only
        players still in the round (TS11)."""
        if not self.finished:
            return (p + self.direction * steps) % self.n
        seat = p
        while steps:
            seat = (seat + self.direction) % self.n
            if seat not in self.finished:
                steps -= 1
        return seat

    def _serve_last(self, p: int, c: int, k: int) -> None:
        """LC8, UC10: the draw of the cards that emptied ``p``'s hand (with the run they
        join) is taken in full by the next player, before the round is scored."""
        t = self._t
        if self.pending and not t.stacks[self.pending_card][c]:
            return  # not an answer that adds to the run (cannot happen: see _check)
        self.pending += t.draw[c] * k
        self.pending_card, self.attacker = c, p
        flips = t.reverse[c] and self.n > 2 and k % 2
        direction = -self.direction if flips else self.direction
        self._forced_draw((p + direction) % self.n)

    def _out_penalty(self) -> int:
        """Cards drawn at the end of the turn by a player whose last card did not take them
        out: PE12's ``out_penalty``, or MM9's ``call_out_penalty`` for a missing call."""
        t = self._t
        return t.out_penalty if t.stays_in[self.discard[-1]] else t.call_out_penalty

    def _follows_any(self) -> bool:
        """PE6: the card to match (the top card but transparent ones) lets any card follow."""
        t = self._t
        for c in reversed(self.discard):
            if not t.transparent[c]:
                return t.any_follows[c]
        return False

    def _repeated(self, p: int, c: Card, named: Suit | None) -> bool:
        """Count this position (few cards out of the hands: at most two per player);
        True at its third time."""
        if not self.rules.block_on_repetition:
            return False
        key = (p, c, named, self.direction, self.pending, tuple(sorted(self.stock)),
               tuple(self.discard), tuple(tuple(h) for h in self.hands))
        seen = self.repeats.get(key, 0) + 1
        self.repeats[key] = seen
        return seen >= 3

    def _draw(self, p: int) -> None:
        self.passes = 0
        if self.pending:  # forced draw in full; the victim loses the turn
            full = self._forced_draw(p)
            if full and not self.stock and self.rules.served_draw_counts_as_pass:
                self.passes = 1
            if full and self._t.served_stays:  # PE5: the turn goes on, without drawing
                self.served = True
                return
            self._end_turn(p, 1)
            return
        if self.again:  # HA11: cannot play again
            self._give(p, self.again_penalty)
            self._end_turn(p, 1)
            return
        t = self._t
        # LC6, PE12: a last card may match and still not go out, so a draw from a hand of
        # one card there tells nothing (public: the hand's size decides, not its card)
        tells = not (t.last_restricted and len(self.hands[p]) == 1)
        if t.telling_draws and tells:  # public: p could not match this target
            self.draw_log.append((p, self.suit, self.rank, self.free))
        told = tells and not self.free
        if told:
            self.tells.append((p, self.suit, self.rank, 0 if t.telling_draws else 1,
                               self.received[p]))
        cover = t.cover_any and self._covering()
        if t.repeat and not cover:
            if self.stock:
                insort(self.hands[p], self._take_from_stock())
                self.received[p] += 1
            self.draws += 1
            return
        if t.until_playable or cover:  # HF5, LH6; TS9: the up-card must be covered
            while self.can_draw(p):
                c = self._give_one(p)
                if c is not None and self._playable(c):
                    self.drawn = c
                    if told:  # the cards drawn before it did not match either
                        self._told(p, 1)
                    return
            if told:
                self._told(p, 0)
            self._end_turn(p, 1)  # HF6: stopped at the limit; LH7: nothing left
            return
        c = self._give_one(p)
        if t.play_drawn and c is not None:
            if self._playable(c):
                self.drawn = c  # HA4: may be played at once; TS4: must be
                return
            if told:  # the turn ends at once: the card drawn did not match
                self._told(p, 0)
        self._end_turn(p, 1)

    def _covering(self) -> bool:
        """TS9: the up-card must be covered (``draw`` draws until a card can be played). A
        starter is only the card to match (HF2, TS3), unless ``starter_effects``."""
        return self._t.must_cover[self.discard[-1]] and (
            self.plays > 0 or self.rules.starter_effects)

    def _told(self, p: int, unknown: int) -> None:
        """The cards ``p`` has just drawn but the last ``unknown`` did not match the
        target of its draw either (the public turn shows it): the tell covers them."""
        if self.tells:
            seat, suit, rank, kind, _ = self.tells[-1]
            self.tells[-1] = (seat, suit, rank, kind, self.received[p] - unknown)

    def _forced_draw(self, victim: int) -> bool:
        """Serve the pending draw; True if the victim took all of it."""
        count, attacker = self.pending, self.attacker
        self.pending, self.pending_card, self.attacker = 0, -1, -1
        limit = self.rules.hand_limit
        if not limit:
            return self._give(victim, count) == count
        room = max(0, limit - len(self.hands[victim]))
        taken = min(count, room)
        got = self._give(victim, taken)
        excess = count - taken
        if excess and self.rules.overflow and attacker >= 0:  # HF9
            back = min(excess, max(0, limit - len(self.hands[attacker])))
            self._give(attacker, back)
            self.penalties[attacker] += excess - back
        return got == count

    def _pass(self, p: int) -> None:
        if self.replace:  # LH5: declined the top card
            self._end_turn(p, 1 + self.skip_next)
            return
        if self.skip_due:  # MM5, PE8: the skip accepted; with k skip cards, k players lose
            steps = min(self.skip_due, self._holding() - 1)
            self.skip_due = 0
            self._end_turn(p, steps)
            return
        if self.served:  # PE5: the forced draw taken, the player ends the turn
            self._end_turn(p, 1)
            return
        if self.can_draw(p):
            self.passes = 0
        else:
            self.passes += 1
            if self.passes >= self.n - len(self.finished) + self.rules.extra_passes_to_block:
                self._end_round(None)  # HF13, CL6, LH9: blocked
                return
        self._end_turn(p, 1)

    def _end_turn(self, p: int, steps: int) -> None:
        if self.announce_due:
            self.announce_due = False
            self._give(p, self.rules.announce_penalty)  # HA13
        if not self.hands[p] and p not in self.finished and not self._give(p, self._out_penalty()):
            # PE12's toggle: out on a penalty card; nothing to draw: out
            if not self._t.play_on:
                self._end_round(p)
                return
            self._leave(p)
            if self.over:
                return
        if self.free and not self._follows_any():
            # CL4: only the first player may play anything on a wild starter
            self.free = False
            self._row = self._t.row(self.suit, self.rank, False)
        self.drawn = None
        self.draws = 0
        self.again = self.replace = self.served = False
        self.skip_next = 0
        self.to_move = (self._advance(p, steps) if self.finished
                        else (p + self.direction * steps) % self.n)

    # ------------------------------------------------------------------ the stock

    def _take_from_stock(self) -> Card:
        """The next card to leave the stock: scripted, else uniform from the multiset."""
        stock = self.stock
        if not stock:
            raise RecordError("no card left to draw")
        if self._script and self._script_pos < len(self._script):
            c = self._script[self._script_pos]
            self._script_pos += 1
            try:
                i = stock.index(c)
            except ValueError:
                raise RecordError(
                    f"deck card {self._script_pos} ({c}) is not in the stock at that point "
                    f"(the stock holds {len(stock)} cards)") from None
        elif self._closed:
            raise ScriptEnded(tuple(stock))
        else:
            i = int(self._rng.random() * len(stock))
        c = stock[i]
        stock[i] = stock[-1]
        stock.pop()
        self._dealt.append(c)
        if not stock:
            self._refill()
        return c

    def _refill(self) -> None:
        """HA5, HF13, CL6: the moment the stock is empty, the discard pile but its
        top card becomes the new stock (it is drawn from at random: shuffled)."""
        if self.rules.reshuffle and len(self.discard) > 1:
            self.stock.extend(self.discard[:-1])
            del self.discard[:-1]

    def _give_one(self, seat: int) -> Card | None:
        if not self.stock:
            return None
        c = self._take_from_stock()
        insort(self.hands[seat], c)
        self.received[seat] += 1
        return c

    def _give(self, seat: int, count: int) -> int:
        """Deal up to ``count`` cards to ``seat`` (fewer if the stock runs out)."""
        given = 0
        hand = self.hands[seat]
        while given < count and self.stock:
            insort(hand, self._take_from_stock())
            given += 1
        self.received[seat] += given
        return given

    # ------------------------------------------------------------------ scoring

    def _groups(self) -> list[list[int]]:
        if self.teams:
            return [[s for s in range(self.n) if s % 2 == team] for team in (0, 1)]
        return [[s] for s in range(self.n)]

    def _end_round(self, out: int | None) -> None:
        self.over = True
        self.out = out
        self._legal = None
        rules = self.rules
        groups = self._groups()
        values = [sum(self.hand_value(s) for s in g) for g in groups]
        gpoints = [0] * len(groups)
        first = self.finished[0] if self.finished else out  # TS11: the first out wins
        if first is not None:
            win = [i for i, g in enumerate(groups) if first in g]
            if rules.scoring is Scoring.OWN_HAND:  # HF11, HA14
                gpoints = values
            else:  # CL7, LH8
                gpoints[win[0]] = sum(v for i, v in enumerate(values) if i != win[0])
        else:
            low = min(values)
            win = [i for i, v in enumerate(values) if v == low]
            if rules.blocked_scoring is BlockedScoring.OWN_HAND:  # HF13
                gpoints = values
            else:  # CL6 collect, LH9 difference
                base = low if rules.blocked_scoring is BlockedScoring.DIFFERENCE else 0
                for w in win:
                    gpoints[w] = sum(v - base for i, v in enumerate(values) if i not in win)
        if rules.scoring is Scoring.ROUNDS_WON:  # SW11, LC9, PE13: a round won scores 1
            gpoints = [int(i in win) for i in range(len(groups))]
        elif rules.scoring is Scoring.PLACINGS:  # TS12: placing minus one
            gpoints = self._placings(values)
            win = [i for i, v in enumerate(gpoints) if v == 0]
        sign = -1 if rules.scoring in (Scoring.WINNER_COLLECTS, Scoring.ROUNDS_WON) else 1
        # MM10: going out on a card with a multiplier multiplies every score of the round
        times = 1 if out is None else self._t.out_multiplier[self._winning_card()]
        points = [0] * self.n
        for i, g in enumerate(groups):
            penalty = sum(self.penalties[s] for s in g)  # HF9
            for s in g:
                points[s] = (gpoints[i] + sign * penalty) * times
        self.round_points = points
        self.round_winners = sorted(s for i in win for s in groups[i])
        for s in range(self.n):
            self.scores[s] += points[s]
        ended = (rules.rounds and self.round >= rules.rounds) or (
            rules.target and max(self.scores) >= rules.target)
        if ended:  # HF12, HA15, CL7, LH10
            self.match_over = True
            best = min(self.scores) if sign > 0 else max(self.scores)
            self.winners = [s for s in range(self.n) if self.scores[s] == best]

    def _winning_card(self) -> Card:
        """The top card of the play that emptied the winner's hand: the last card played,
        or under ``play_on`` the first player out's last card (MM10 with TS11)."""
        if not self.finished:
            return self.discard[-1]
        first = self.finished[0]
        for seat, action in reversed(self.history):
            if seat == first and action.card is not None:
                return action.card
        return self.discard[-1]  # not reached: the first player out played a card

    def _placings(self, values: list[int]) -> list[int]:
        """TS12: each seat's placing minus one. Those out come first, in the order they
        went out; those still holding cards follow by hand value, lowest first, tied
        players sharing the better place."""
        place = [0] * self.n
        for i, seat in enumerate(self.finished):
            place[seat] = i
        holding = [s for s in range(self.n) if s not in self.finished]
        for s in holding:
            place[s] = len(self.finished) + sum(1 for o in holding if values[o] < values[s])
        return place

    # ------------------------------------------------------------------ views

    def observe(self, seat: int) -> Observation:
        """What ``seat`` may know: its own hand and everything public, nothing else."""
        if not 0 <= seat < self.n:
            raise ValueError(f"seat {seat} does not exist; seats are 0 to {self.n - 1}")
        mine = self.to_move == seat and not self.over
        return Observation(
            seat=seat,
            players=self.n,
            rules=self.rules,
            hand=tuple(self.hand(seat)),
            hand_sizes=tuple(len(h) for h in self.hands),
            stock=len(self.stock),
            discard=tuple(self.discard),
            suit=None if self.suit < 0 else Suit(self.suit),
            rank=Rank(self.rank),
            free=self.free,
            direction=self.direction,
            to_play=self.to_play,
            dealer=self.dealer,
            pending_draw=self.pending,
            drawn=self.drawn if mine else None,
            must_play_again=self.again,
            may_take=self.replace,
            round=self.round,
            scores=tuple(self.scores),
            round_points=None if self.round_points is None else tuple(self.round_points),
            round_over=self.over,
            match_over=self.match_over,
            winners=None if self.winners is None else tuple(self.winners),
            teams=self.teams,
            history=tuple(self.history),
            legal=tuple(self.legal_actions()) if mine else (),
            revealed=tuple(tuple(self.hand(s)) for s in range(self.n)) if self.over else None,
            pending_rank=Rank(self.pending_card >> 2) if self.pending else None,
            attacker=self.attacker if self.attacker >= 0 else None,
            draws_this_turn=self.draws,
            plays=self.plays,
            passes=self.passes,
            skip_next=self.skip_next,
            served=self.served,
            announce_due=self.announce_due,
            penalties=tuple(self.penalties),
            draw_log=tuple((p, _SUIT_OR_NONE[su], _RANKS[r], fr) for p, su, r, fr in self.draw_log),
            tells=_tells(self.tells),
            received=tuple(self.received),
            skip_due=self.skip_due,
            finished=tuple(self.finished),
            naming=self.naming,
        )

    @classmethod
    def from_observation(cls, seen: Observation, hands: Sequence[Sequence[Card]],
                         stock: Sequence[Card], rng: random.Random) -> Game:
        """A game in the public state of ``seen`` with these hidden cards (a world to search).

        ``hands`` gives every seat's hand (``seen.hand`` for the observer) and
        ``stock`` the cards of the stock; future draws use ``rng``.
        """
        g = cls.__new__(cls)
        rules = seen.rules
        g.rules = rules
        g._t = tables_for(rules)
        g.rules_spec = g._t.spec
        g.n = seen.players
        g.seed = 0
        g._rng = rng
        g._closed = False
        g._script = []
        g._script_pos = 0
        g._dealt = []
        g.rounds_log = []
        g.teams = seen.teams
        g.hands = [sorted(h) for h in hands]
        g.stock = list(stock)
        g.discard = list(seen.discard)
        g.history = list(seen.history)
        g.draw_log = [(p, -1 if su is None else int(su), int(r), fr)
                      for p, su, r, fr in seen.draw_log]
        g.tells = [(p, -1 if su is None else int(su), int(r), TELL_KINDS.index(k), got)
                   for p, su, r, k, got in seen.tells]
        g.received = list(seen.received) if seen.received else [0] * seen.players
        g.repeats = {}
        g.scores = list(seen.scores)
        g.penalties = list(seen.penalties)
        g.round = seen.round
        g.dealer = seen.dealer
        g.direction = seen.direction
        g.suit = -1 if seen.suit is None else int(seen.suit)
        g.rank = int(seen.rank)
        g.free = seen.free
        g.pending = seen.pending_draw
        g.pending_card = g.discard[-1] if seen.pending_draw else -1
        g.skip_due = seen.skip_due
        g.finished = list(seen.finished)
        g.naming = seen.naming
        g.after_naming = -1
        if seen.naming:  # TS3: the dealer names, then the first player plays; UC3: they both
            seat = seen.to_play if seen.to_play is not None else 0
            g.after_naming = (seat + seen.direction) % seen.players if g._t.dealer_names else seat
        g.attacker = -1 if seen.attacker is None else seen.attacker
        g.drawn = seen.drawn
        g.draws = seen.draws_this_turn
        g.again = seen.must_play_again
        g.again_penalty = g._t.again_penalty[g.discard[-1]] if seen.must_play_again else 0
        g.replace = seen.may_take
        g.skip_next = seen.skip_next
        g.served = seen.served
        g.announce_due = seen.announce_due
        g.passes = seen.passes
        g.plays = seen.plays
        g.over = seen.round_over
        g.match_over = seen.match_over
        g.out = None
        g.round_points = None if seen.round_points is None else list(seen.round_points)
        g.round_winners = None
        g.winners = None if seen.winners is None else list(seen.winners)
        g.to_move = seen.to_play if seen.to_play is not None else 0
        g._row = g._t.row(g.suit, g.rank, g.free)
        g._legal = None
        return g

    def to_json(self) -> dict[str, Any]:
        """The referee's view of the state as plain JSON values."""
        return {
            "round": self.round,
            "over": self.over,
            "match_over": self.match_over,
            "to_play": self.to_play,
            "legal": [str(a) for a in self.legal_actions()],
            "hands": [[str(c) for c in self.hand(s)] for s in range(self.n)],
            "up_card": str(self.up_card),
            "suit": None if self.suit < 0 else Suit(self.suit).letter,
            "rank": Rank(self.rank).letter,
            "direction": self.direction,
            "pending_draw": self.pending,
            "stock": len(self.stock),
            "discard": len(self.discard),
            "dealer": self.dealer,
            "round_points": self.round_points,
            "round_winners": self.round_winners,
            "scores": list(self.scores),
            "winners": self.winners,
        }

    def clone(self, rng: random.Random | None = None) -> Game:
        """An independent copy: lists are copied, nothing deep.

        The copy draws with ``rng`` when one is given (a search shares one
        generator among its copies: a few microseconds a copy); otherwise it
        gets an exact copy of this game's generator (tens of microseconds).
        """
        g = Game.__new__(Game)
        (
            g._legal, g._row, g._script, g._script_pos, g._t, g.again, g.again_penalty, g.announce_due,
            g.attacker, g.dealer, g.direction, g.drawn, g.draws, g.free, g.match_over, g.n,
            g.out, g.over, g.passes, g.pending, g.pending_card, g.plays, g.rank, g.replace,
            g.round, g.round_points, g.round_winners, g.rules, g.rules_spec, g.seed,
            g.skip_next, g.suit, g.teams, g.to_move, g.winners, g.served, g.skip_due,
            g.naming, g.after_naming, g._closed,
        ) = (
            self._legal, self._row, self._script, self._script_pos, self._t, self.again,
            self.again_penalty, self.announce_due, self.attacker, self.dealer, self.direction,
            self.drawn, self.draws, self.free, self.match_over, self.n, self.out, self.over,
            self.passes, self.pending, self.pending_card, self.plays, self.rank, self.replace,
            self.round, self.round_points, self.round_winners, self.rules, self.rules_spec,
            self.seed, self.skip_next, self.suit, self.teams, self.to_move, self.winners,
            self.served, self.skip_due, self.naming, self.after_naming, self._closed,
        )
        g.finished = self.finished[:]
        g.hands = [h[:] for h in self.hands]
        g.stock = self.stock[:]
        g.discard = self.discard[:]
        g.history = self.history[:]
        g.draw_log = self.draw_log[:]
        g.tells = self.tells[:]
        g.received = self.received[:]
        g.repeats = dict(self.repeats)
        g.scores = self.scores[:]
        g.penalties = self.penalties[:]
        g._dealt = self._dealt[:]
        g.rounds_log = self.rounds_log[:]
        if rng is None:
            rng = random.Random()
            rng.setstate(self._rng.getstate())
        g._rng = rng
        return g

    def reseed(self, seed: int) -> None:
        """Replace the generator of future draws (for search on a sampled world)."""
        self._rng = random.Random(seed)
        self._script = []
        self._script_pos = 0
        self._closed = False

    def extend_deck(self, cards: Sequence[Card] = (), *, closed: bool = True) -> None:
        """Script the next cards to leave the stock: ``cards`` in order, after the scripted
        cards not yet drawn.

        ``closed`` (the default) makes the script the only source of cards: a card needed
        beyond it raises :class:`~eights.engine.errors.ScriptEnded`, whose ``stock`` lists
        what it may be, and the caller chooses it (OpenSpiel's explicit chance). The action
        that raised it is left half done, so it is played on a :meth:`clone`, then played
        again on a new copy with the card added. ``closed=False`` draws at random after
        the script, as a game built with ``deck`` does.

        >>> g = Game("classic", 2, seed=1)
        >>> g.extend_deck()
        >>> g.clone().apply("draw")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        eights.engine.errors.ScriptEnded: the script of cards has ended; the next card leaves ...
        >>> card = g.stock[0]
        >>> g.extend_deck([card])
        >>> g.apply("draw").received[1] == (card,)
        True
        """
        self._script = [*self._script[self._script_pos:], *cards]
        self._script_pos = 0
        self._closed = closed

    def __repr__(self) -> str:
        where = "over" if self.over else f"seat {self.to_move} to play"
        return (f"<Game {self.rules.name} {self.n}p round {self.round}, up {self.up_card}, "
                f"{where}, scores {self.scores}>")




_SUIT_OR_NONE: tuple[Suit | None, ...] = (*Suit, None)
"""A suit by number, ``-1`` (none) giving ``None``: cheaper than ``Suit(n)``."""
_RANKS = tuple(Rank)
_TELLS: dict[tuple[int, int, int, int, int], Tell] = {}
"""Every :class:`Tell` made so far, by its row in ``Game.tells``: an observation lists every
tell of the round, so making each one once keeps :meth:`Game.observe` cheap in long rounds."""


def _tells(rows: list[tuple[int, int, int, int, int]]) -> tuple[Tell, ...]:
    known = _TELLS
    out = []
    for row in rows:
        tell = known.get(row)
        if tell is None:
            p, su, r, k, got = row
            tell = known[row] = Tell(p, _SUIT_OR_NONE[su], _RANKS[r], TELL_KINDS[k], got)
        out.append(tell)
    return tuple(out)


def _hand_order(c: Card) -> tuple[int, int]:
    return (4 if c == 52 else c & 3, c >> 2)



