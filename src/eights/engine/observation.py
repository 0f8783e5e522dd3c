"""What one seat may know: the single observer every bot, UI and server uses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from eights.engine.actions import Action
from eights.engine.cards import Card, Rank, Suit

if TYPE_CHECKING:
    from eights.engine.rules import Rules

__all__ = ["TELL_KINDS", "Observation", "Tell"]

TELL_KINDS = ("draw", "chose-draw", "wild")
"""What a :class:`Tell` saw: a plain draw where only a player unable to play may
draw (the hand surely lacked a card for the target); a plain draw where the
rules let a player draw at will (it lacked one, unless it chose to draw); a wild
card played while no forced draw was pending (it lacked a plain card for the
target, unless it chose to spend the wild card)."""


class Tell(NamedTuple):
    """A public moment that says what a hand lacked, for reading opponents' hands.

    Every player sees it: who did it, on what target (suit and rank), which
    kind of moment (:data:`TELL_KINDS`), and how many cards that seat had
    received this round whose absence of a match it shows (draws of every kind),
    so what it holds now can be told apart from what it held then
    (:attr:`Observation.received`). A draw's own cards count among them when
    the turn shows they did not match either: the cards drawn before the
    playable one (``until-playable``), the card drawn when the turn ends at once
    (``one-may-play``).
    """

    seat: int
    suit: Suit | None
    rank: Rank
    kind: str
    received: int


@dataclass(frozen=True, slots=True)
class Observation:
    """A seat's view of the game: its own hand and the public state, nothing else.

    Other hands appear only as counts (:attr:`hand_sizes`) and the stock only
    as a count, until the round is over and every hand is shown
    (:attr:`revealed`).
    """

    seat: int
    players: int
    rules: Rules
    hand: tuple[Card, ...]
    """This seat's cards, sorted by suit then rank."""
    hand_sizes: tuple[int, ...]
    stock: int
    """Cards in the stock (a count)."""
    discard: tuple[Card, ...]
    """The discard pile, bottom first; its last card is the up-card."""
    suit: Suit | None
    """The suit to follow (the named suit after a wild card)."""
    rank: Rank
    """The rank to match (the covered rank after an LH4 eight)."""
    free: bool
    """True when any card may be played (CL4 wild starter, PE6 ``any_follows``)."""
    direction: int
    to_play: int | None
    dealer: int
    pending_draw: int
    """Cards of a forced draw waiting for the player to move."""
    drawn: Card | None
    """The card this seat just drew and may (HA4) or must (HF5) play."""
    must_play_again: bool
    """HA11: the player to move must play again after a 10."""
    may_take: bool
    """LH5: the player to move may take the top card of the stock."""
    round: int
    scores: tuple[int, ...]
    round_points: tuple[int, ...] | None
    round_over: bool
    match_over: bool
    winners: tuple[int, ...] | None
    teams: bool
    history: tuple[tuple[int, Action], ...]
    """Public actions of this round: (seat, action); drawn cards are not shown."""
    legal: tuple[Action, ...]
    """The legal actions when this seat is to play, else empty."""
    revealed: tuple[tuple[Card, ...], ...] | None
    """Every hand, once the round is over (cards are shown for the count)."""
    pending_rank: Rank | None = None
    """The rank of the card behind a waiting forced draw (what stacks on it)."""
    attacker: int | None = None
    """Who played the card behind a waiting forced draw (HF9 overflow goes back there)."""
    draws_this_turn: int = 0
    """Cards drawn so far this turn (the ``repeat`` policy's count)."""
    plays: int = 0
    """Cards played this round (OpenSpiel's max_turns counts these)."""
    passes: int = 0
    """Passes in a row with nothing to draw (towards a blocked round)."""
    skip_next: int = 0
    """Seats skipped once the LH5 choice is made."""
    served: bool = False
    """PE5: the player to move took a forced draw in full and stays in turn, to play a
    card legal on the up-card or pass (``forced_draw_ends_turn = false``)."""
    announce_due: bool = False
    """HA13: the player to move left one card without announcing it."""
    penalties: tuple[int, ...] = ()
    """HF9 penalty points of this round, by seat."""
    draw_log: tuple[tuple[int, Suit | None, Rank, bool], ...] = ()
    """Where the rules let only a player who cannot play draw: every plain draw
    this round (not a forced one), with the seat and the suit and rank it could
    not play on (and whether any card was allowed), so what that hand lacked.
    Empty under rules with voluntary draws, where a draw tells nothing."""
    tells: tuple[Tell, ...] = ()
    """Every public moment of this round that says what a hand lacked (plain draws
    and wild cards played), oldest first; see :class:`Tell`."""
    received: tuple[int, ...] = ()
    """Cards each seat has received this round after the deal (draws of every kind)."""
    skip_due: int = 0
    """A skip that may be passed on waits for the player to move: the skip cards of the
    last play. They may play a card of its rank, or ``pass`` to accept it (MM5, PE8)."""
    finished: tuple[int, ...] = ()
    """Under ``play_on``, the seats out of the round, in the order they went out (TS11)."""
    naming: bool = False
    """The player to move names the suit of a wild starter (``=s``: TS3, UC3)."""

    @property
    def up_card(self) -> Card:
        """The top card of the discard pile."""
        return self.discard[-1]

    def to_json(self) -> dict[str, Any]:
        """Plain JSON values (cards and actions in canonical text)."""
        return {
            "seat": self.seat,
            "players": self.players,
            "rules": self.rules.name,
            "hand": [str(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "stock": self.stock,
            "discard": [str(c) for c in self.discard],
            "up_card": str(self.up_card),
            "suit": None if self.suit is None else self.suit.letter,
            "rank": self.rank.letter,
            "free": self.free,
            "direction": self.direction,
            "to_play": self.to_play,
            "dealer": self.dealer,
            "pending_draw": self.pending_draw,
            "drawn": None if self.drawn is None else str(self.drawn),
            "must_play_again": self.must_play_again,
            "may_take": self.may_take,
            "round": self.round,
            "scores": list(self.scores),
            "round_points": None if self.round_points is None else list(self.round_points),
            "round_over": self.round_over,
            "match_over": self.match_over,
            "winners": None if self.winners is None else list(self.winners),
            "teams": self.teams,
            "history": [[s, str(a)] for s, a in self.history],
            "legal": [str(a) for a in self.legal],
            "revealed": None if self.revealed is None
            else [[str(c) for c in h] for h in self.revealed],
            "pending_rank": None if self.pending_rank is None else self.pending_rank.letter,
            "attacker": self.attacker,
            "draws_this_turn": self.draws_this_turn,
            "plays": self.plays,
            "passes": self.passes,
            "skip_next": self.skip_next,
            "served": self.served,
            "announce_due": self.announce_due,
            "penalties": list(self.penalties),
            "draw_log": [[p, None if s is None else s.letter, r.letter, free]
                         for p, s, r, free in self.draw_log],
            "tells": [[t.seat, None if t.suit is None else t.suit.letter, t.rank.letter, t.kind,
                       t.received] for t in self.tells],
            "received": list(self.received),
            "skip_due": self.skip_due,
            "finished": list(self.finished),
            "naming": self.naming,
        }
