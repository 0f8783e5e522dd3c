"""One round with explicit chance: every card that leaves the stock is a chance outcome.

:class:`Round` is the whole state of the OpenSpiel game, without OpenSpiel (this module
imports neither ``pyspiel`` nor ``numpy``). The engine plays the round on a *closed*
script of cards (:meth:`~eights.engine.game.Game.extend_deck`): when it needs a card the
script does not hold it raises :class:`~eights.engine.errors.ScriptEnded` with the stock,
the round waits for the chance player's card, and the action is played again on a fresh
copy of the state before it, with the cards chosen so far. So a ``draw`` of three cards
is one decision followed by three chance nodes, a forced draw of four cards four chance
nodes, and the deal one chance node a card (the starter and each card turned after an
HA2 redraw too). A reshuffle of the discard pile is no chance node: it only decides
which cards the stock holds, and the cards drawn after it are chosen one by one.

Each card is drawn uniformly from the stock, a multiset: a card's probability is its
copies over the stock's size, as the engine's own generator draws them.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import NamedTuple

import eights.codes as codes
from eights.engine.actions import Action, Kind
from eights.engine.cards import CARDS, Card
from eights.engine.errors import ScriptEnded
from eights.engine.game import Game
from eights.engine.observation import Observation
from eights.engine.rules import Rules
from eights.openspiel import views

__all__ = ["Event", "Round"]

_QUIET = random.Random(0)
"""The generator handed to copies of a closed game: never drawn from (closed games ask
for their cards), shared so a copy costs no generator state."""


class Event(NamedTuple):
    """One completed decision: who, what, and the cards each seat received during it."""

    seat: int
    action: Action
    code: int
    received: tuple[tuple[Card, ...], ...]


class Round:
    """A round of eights whose chance outcomes are chosen from outside (see the module text).

    ``game`` is the engine's state after the last completed decision (``None`` while the
    deal goes on); while a card is awaited, ``stock`` holds what it may be and ``pending``
    the decision it belongs to (``None`` for the deal), played as far as it goes on
    ``partial``.
    """

    __slots__ = ("cards", "dealer", "events", "game", "hands0", "lines", "partial", "pending",
                 "players", "reward", "rules", "seen", "starters", "stock", "tallies")

    def __init__(self, rules: Rules, players: int, dealer: int = 0, reward: str = "points") -> None:
        self.rules = rules
        self.players = players
        self.dealer = dealer
        self.reward = reward
        self.game: Game | None = None
        self.cards: list[Card] = []
        """The cards chosen for the step under way: the deal, or the pending decision's."""
        self.stock: tuple[Card, ...] = tuple(rules.deck(players))
        """What the awaited card may be (each copy equally likely); empty when none is."""
        self.pending: Event | None = None
        self.partial: Game | None = None
        self.events: list[Event] = []
        self.hands0: tuple[tuple[Card, ...], ...] = ()
        """Each seat's hand as dealt (sorted by card code)."""
        self.starters: tuple[Card, ...] = ()
        """The cards turned up at the start: redrawn ones (HA2), then the starter."""
        self.seen: dict[int, Observation] = {}
        """Observations made of this state, by seat (an observer asks several times)."""
        self.lines: list[list[str]] = []
        """Each seat's information state in words, a line a completed decision."""
        self.tallies: list[list[int]] = []
        """Each seat's information state summary (:func:`~eights.openspiel.views.recall`)
        over the completed decisions."""

    # ------------------------------------------------------------------ state

    @property
    def awaiting(self) -> bool:
        """A chance node: a card is to leave the stock."""
        return bool(self.stock)

    @property
    def over(self) -> bool:
        """The round is over: a terminal state."""
        return self.game is not None and self.game.over and self.pending is None

    @property
    def to_play(self) -> int:
        """The seat to decide (only when neither awaiting a card nor over)."""
        assert self.game is not None
        return self.game.to_move

    @property
    def deal_size(self) -> int:
        """Cards dealt to the hands (the starter comes after them)."""
        return self.rules.hand_size_for(self.players) * self.players

    def dealt_to(self, index: int) -> int:
        """The seat the ``index``-th card of the deal goes to: one at a time, starting left
        of the dealer (as :class:`~eights.engine.game.Game` deals)."""
        return (self.dealer + 1 + index) % self.players

    def outcomes(self) -> list[tuple[int, float]]:
        """The awaited card's outcomes: (card code, probability), by card code."""
        counts = Counter(self.stock)
        total = len(self.stock)
        return [(int(card), copies / total) for card, copies in sorted(counts.items())]

    def legal(self) -> dict[int, Action]:
        """The seat to play's legal actions by code (:func:`eights.codes.action_code`)."""
        assert self.game is not None and not self.awaiting
        return {codes.action_code(a): a for a in self.game.legal}

    def returns(self) -> list[float]:
        """Each seat's reward for the round (:func:`eights.codes.round_rewards`), zeros
        until it is over."""
        game = self.game
        if game is None or not self.over:
            return [0.0] * self.players
        assert game.round_points is not None and game.round_winners is not None
        return codes.round_rewards(self.rules, game.round_points, game.round_winners, self.reward)

    def now(self) -> Game | None:
        """The engine's state as far as play has gone: mid-decision while a card it needs
        is awaited."""
        return self.partial if self.partial is not None else self.game

    def observation(self, seat: int) -> Observation | None:
        """What ``seat`` sees now (``None`` during the deal)."""
        seen = self.seen.get(seat)
        if seen is None:
            now = self.now()
            if now is None:
                return None
            seen = self.seen[seat] = now.observe(seat)
        return seen

    # ------------------------------------------------------------------ moves

    def add_card(self, card: int) -> None:
        """The chance player's card: the next to leave the stock."""
        if card not in self.stock:
            offered = " ".join(str(CARDS[c]) for c in sorted(set(self.stock)))
            what = f"card {card}" if not 0 <= card < len(CARDS) else f"{CARDS[card]}"
            raise ValueError(f"{what} cannot leave the stock now; the stock holds {offered}"
                             if self.stock else f"{what}: no card is awaited now")
        self.cards.append(CARDS[card])
        self._advance()

    def act(self, code: int) -> None:
        """The seat to play's decision, by its code."""
        if self.awaiting or self.over:
            raise ValueError(f"action {code}: no player is to act now "
                             f"({'a card is awaited' if self.awaiting else 'the round is over'})")
        legal = self.legal()
        action = legal.get(code)
        if action is None:
            names = ", ".join(f"{c} ({a})" for c, a in sorted(legal.items()))
            raise ValueError(f"action {code} is not legal for seat {self.to_play}; legal: {names}")
        self.pending = Event(self.to_play, action, code, ())
        self.cards = []
        self._advance()

    def _advance(self) -> None:
        """Play the step under way with the cards chosen so far: done, or await a card."""
        self.seen = {}
        if self.pending is None:
            self._deal()
            return
        assert self.game is not None
        game = self.game.clone(_QUIET)
        game.extend_deck(self.cards)
        try:
            step = game.apply(self.pending.action)
        except ScriptEnded as chance:
            self.partial, self.stock = game, chance.stock
            return
        seat, action, code, _ = self.pending
        self.record(Event(seat, action, code, step.received))
        self.game, self.pending, self.partial = game, None, None
        self.cards, self.stock = [], ()

    def _deal(self) -> None:
        if len(self.cards) < self.deal_size:  # the stock less the card just dealt
            i = self.stock.index(self.cards[-1])
            self.stock = self.stock[:i] + self.stock[i + 1:]
            return
        try:
            game = Game(self.rules, self.players, dealer=self.dealer, deck=self.cards,
                        closed=True)
        except ScriptEnded as chance:
            self.stock = chance.stock
            return
        self.game = game
        self.hands0 = tuple(tuple(sorted(h)) for h in game.hands)
        self.starters = tuple(self.cards[self.deal_size:])
        self.cards, self.stock = [], ()
        self.recount()

    def record(self, event: Event) -> None:
        """Add a completed decision to the events and to every seat's view of them."""
        self.events.append(event)
        for seat in range(self.players):
            self.lines[seat].append(views.event_line(event, seat))
            views.tally(self.tallies[seat], event, seat, self.players)

    def recount(self) -> None:
        """Every seat's view of the deal and the events, from the start."""
        events, self.events = self.events, []
        self.lines = [views.head_lines(self, s) for s in range(self.players)]
        self.tallies = [views.dealt_tally(self.hands0[s], self.players)
                        for s in range(self.players)]
        for event in events:
            self.record(event)

    # ------------------------------------------------------------------ copies

    def copy(self) -> Round:
        """An independent copy (the engine's clone and a few lists: microseconds)."""
        new = Round.__new__(Round)
        new.rules, new.players, new.dealer, new.reward = (self.rules, self.players, self.dealer,
                                                          self.reward)
        new.game = None if self.game is None else self.game.clone(_QUIET)
        new.cards = self.cards[:]
        new.stock, new.pending = self.stock, self.pending
        new.partial = self.partial  # only read: a half-played copy is never played on
        new.events = self.events[:]
        new.lines = [lines[:] for lines in self.lines]
        new.tallies = [t[:] for t in self.tallies]
        new.hands0, new.starters = self.hands0, self.starters
        new.seen = self.seen  # equal states see alike; a move replaces the dict, never clears it
        return new

    def __deepcopy__(self, memo: dict[int, object]) -> Round:
        # OpenSpiel clones a Python state by deep-copying its attributes.
        return self.copy()

    def world(self, game: Game, hands0: tuple[tuple[Card, ...], ...],
              events: list[Event]) -> Round:
        """This round's copy in another world: ``game`` (closed here) with these deals and
        events (resampling, :mod:`eights.openspiel.resample`)."""
        game.extend_deck()
        new = self.copy()
        new.game, new.hands0, new.events = game, hands0, events
        new.seen = {}
        new.recount()
        return new

    def played(self, seat: int) -> list[tuple[int, Card]]:
        """The cards ``seat`` has played, with the index of the event that played them."""
        return [(i, c) for i, e in enumerate(self.events) if e.seat == seat
                and e.action.kind is Kind.PLAY for c in e.action.cards]
