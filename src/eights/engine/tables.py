"""Lookup tables derived once from a :class:`~eights.engine.rules.Rules`.

The engine's hot path (legal actions, applying a card) reads per-rank and
per-card tuples instead of walking the rules objects: which cards match a
target, which answer a pending draw, every way each card can be played.
"""

from __future__ import annotations

from typing import Any

from eights.engine.actions import Action
from eights.engine.cards import CARDS, Card, Rank, Suit
from eights.engine.errors import RulesError
from eights.engine.rules import (
    CardRule,
    DrawPolicy,
    GoingOut,
    MultiPlay,
    ReverseTwo,
    Rules,
    StarterWild,
    WildIf,
    load_rules,
)

__all__ = ["SUIT_OF", "Tables", "tables_for"]

SUIT_OF: tuple[int, ...] = tuple(i & 3 for i in range(52)) + (-1,)
"""Suit index of each card code (-1 for the joker)."""


class Tables:
    """Per-card lookups derived once from a :class:`Rules` (the hot path reads these).

    Each tuple of card facts is indexed by card code (``rank * 4 + suit``, 52 for the
    joker): a card may have a rule of its own (``[cards.Js]``), else its rank's.
    """

    def __init__(self, rules: Rules) -> None:
        cr = [rules.rule_of(card) for card in CARDS]
        self.wild = tuple(c.wild for c in cr)
        self.name_suit = tuple(c.name_suit for c in cr)
        self.not_on = tuple(frozenset(int(r) for r in c.not_on) for c in cr)
        self.covered = tuple(c.takes_covered_rank for c in cr)
        self.transparent = tuple(c.transparent for c in cr)
        self.any_follows = tuple(c.any_follows for c in cr)
        """Any card may be played on this card while it is the card to match (PE6)."""
        self.no_suit = tuple(c.wild and c.wild_if is WildIf.NO_SUIT for c in cr)
        """Wild only for a hand without the suit to follow, wild cards aside (UC8)."""
        self.plain_of_suit = tuple(tuple(SUIT_OF[c] == suit and not self.wild[c] for c in range(53))
                                   for suit in range(4))
        """``plain_of_suit[suit][c]``: ``c`` is of that suit and not wild (UC8's check)."""
        self.wild_if = any(self.no_suit)
        """Some card's legality depends on the hand (the hot path checks this once)."""
        self.draw = tuple(c.draw for c in cr)
        self.skip = tuple(c.skip for c in cr)
        self.pass_on = tuple(c.pass_on for c in cr)
        """A skip the skipped player may pass on with a card of its rank (MM5, PE8)."""
        self.reverse = tuple(c.reverse for c in cr)
        self.again = tuple(c.again for c in cr)
        self.again_penalty = tuple(c.again_penalty for c in cr)
        self.points = tuple(rules.points[rank] for rank in Rank)
        """Points of each rank (indexed by rank)."""
        self.out_multiplier = tuple(c.out_multiplier for c in cr)
        """Points of a round won with this card on top are multiplied by this (MM10)."""
        self.serve_last = rules.serve_last_draw and not rules.play_on
        """A forced draw left pending by the play that empties a hand is served (LC8, UC10);
        under ``play_on`` it simply stays pending for the players left."""
        self.served_stays = not rules.forced_draw_ends_turn
        """A victim who took a forced draw in full stays in turn (PE5)."""
        self.reverse_skip = rules.reverse_two is ReverseTwo.SKIP
        """With two players a reverse acts as a skip (SW7, PE10, TS8, UC3, UC6)."""
        self.redraw = frozenset(int(r) for r in rules.starter_redraw)
        """Starter ranks put back (indexed by rank)."""
        self.starter_any = rules.starter_wild is StarterWild.ANY
        """The first player may play any card on a wild starter (CL4)."""
        self.starter_names = rules.starter_wild in (StarterWild.DEALER_NAMES,
                                                    StarterWild.FIRST_NAMES)
        """A wild starter's suit is named with ``=s`` before play (TS3, UC3)."""
        self.dealer_names = rules.starter_wild is StarterWild.DEALER_NAMES
        self.spec: str | dict[str, Any] = rules.name if rules == _preset(rules.name) else rules.to_table()
        self.repeat = rules.draw is DrawPolicy.REPEAT
        self.may_keep = rules.draw is DrawPolicy.ONE_MAY_PLAY
        self.play_drawn = rules.draw in (DrawPolicy.ONE_MAY_PLAY, DrawPolicy.ONE_MUST_PLAY)
        """One card is drawn and, if playable, may (HA4) or must (TS4) be played at once."""
        self.until_playable = rules.draw is DrawPolicy.UNTIL_PLAYABLE
        self.replace = rules.replace_after_play
        self.telling_draws = not rules.voluntary_draw and rules.draw is not DrawPolicy.REPEAT
        """A plain draw shows the hand could not play (so it is logged for the observers)."""
        self.effect = tuple(bool(d or sk or rv or ag) for d, sk, rv, ag in
                            zip(self.draw, self.skip, self.reverse, self.again, strict=True))
        self.voluntary_draw = rules.voluntary_draw
        self.voluntary_pass = rules.voluntary_pass
        self.max_draws = rules.max_draws or 1 << 30
        """Draws a turn under ``repeat``; ``max_draws = 0`` is no limit (CE4)."""
        self.max_plays = rules.max_plays
        self.limit = rules.hand_limit
        self.cap = rules.hand_limit or 1 << 30
        """Hand size below which a player may draw."""
        self.last_play = rules.max_plays - 1 if rules.max_plays else 1 << 30
        """Plays after which the next play ends the round (OpenSpiel max_turns)."""
        self.announce = rules.announce_last_card
        self.multi = rules.multi_play is MultiPlay.SAME_RANK
        """Several cards of one rank and one rule may go down in one play (SW3)."""
        self.play_on = rules.play_on
        """A player who goes out leaves and the round goes on (TS11)."""
        kinds: dict[CardRule, int] = {}
        self.kind = tuple(kinds.setdefault(c, len(kinds)) for c in cr)
        """Which rule each card has, as a number: cards share a multi-card play only if
        their rules are equal (BJ6)."""
        self.rows: dict[tuple[int, int, bool], tuple[bool, ...]] = {}
        self._rules = rules
        self._decks: dict[int, tuple[Card, ...]] = {}
        self.fixed = tuple(self.row(s, r, False) for s in range(4) for r in range(14))
        """Rows after a card was played (a suit is always set): index ``suit * 14 + rank``."""
        stack_with: list[set[int]] = [{int(c) for c in r.stack_with} for r in cr]
        for p in range(53):
            if cr[p].stack:  # a rank stacks on itself: its cards that have a draw
                stack_with[p].update(c for c in range(53) if c >> 2 == p >> 2 and self.draw[c])
        self.stacks = tuple(tuple(c in stack_with[p] for c in range(53)) for p in range(53))
        """``stacks[p][c]``: ``c`` adds its draw to a pending draw whose last card is ``p``
        (HF7, HA7, BJ3)."""
        cancel = [frozenset(int(c) for c in r.cancelled_by) for r in cr]
        self.answers = tuple(
            tuple(self.stacks[p][c] or c in cancel[p] for c in range(53)) for p in range(53))
        """``answers[p][c]``: ``c`` may be played on a pending draw whose last card is ``p``
        (it stacks, or it cancels the draw: HA7, BJ4)."""
        # Every way to play each card: mid-round, announcing the last card, going out.
        self.mid = tuple(self._variants(c, False) for c in range(53))
        self.announced = tuple(self._variants(c, True) for c in range(53))
        ends = tuple((Action.play(CARDS[c]),) for c in range(53))
        self.end: tuple[tuple[Action, ...], ...] = (self.mid if rules.play_on else ends)
        """A play that ends the round names no suit; under ``play_on`` it names one for the
        players left (TS11: ``Jh=s!``)."""
        out = [c.going_out for c in cr]
        self.going_out = tuple(out)
        self.last = tuple(() if out[c] is GoingOut.NO
                          else self.mid[c] if out[c] is GoingOut.PENALTY
                          else self.end[c] for c in range(53))
        """Every way to play each card as the last card of a hand: none if it may not end
        the hand (PE12), its mid-round plays if it costs ``out_penalty`` cards."""
        self.must_cover = tuple(c.must_cover for c in cr)
        """While this card is the up-card, ``draw`` draws until a card can be played (TS9)."""
        self.cover_any = any(self.must_cover)
        self.out_suit = tuple(g is GoingOut.SUIT for g in out)
        """May empty the hand only if of the suit to follow (LC6)."""
        self.any_out_suit = any(self.out_suit)
        self.last_restricted = self.any_out_suit or any(
            self.mid[c] and not self.last[c] for c in range(53))
        """Some card that matches may not be a hand's last card (LC6, PE12): a draw from a
        hand of one card shows nothing of it."""
        self.stays_in = tuple(g is GoingOut.PENALTY for g in out)
        """The player who plays it last draws ``out_penalty`` and stays in the round."""
        self.out_penalty = rules.out_penalty
        self.call_out_penalty = rules.call_out_penalty
        if rules.call_out:  # MM9, TS10: the called last card goes out; uncalled, it stays in
            self.last = tuple(self.mid[c] + tuple(Action.play(CARDS[c], a.suit, True)
                                                  for a in self.end[c])
                              if self.last[c] and not self.stays_in[c] else self.last[c]
                              for c in range(53))
        self.call_out = rules.call_out
        """The play that empties a hand must carry ``!`` to go out (MM9, TS10)."""

    def deck(self, players: int) -> list[Card]:
        """A fresh full stock for this many players."""
        cards = self._decks.get(players)
        if cards is None:
            cards = self._decks[players] = tuple(self._rules.deck(players))
        return list(cards)

    def _variants(self, c: int, announce: bool) -> tuple[Action, ...]:
        card = CARDS[c]
        suits: tuple[Suit | None, ...] = tuple(Suit) if self.name_suit[c] else (None,)
        out: list[Action] = []
        for s in suits:
            out.append(Action.play(card, s))
            if announce:
                out.append(Action.play(card, s, True))
        return tuple(out)

    def plays(self, cards: tuple[Card, ...], kind: str) -> tuple[Action, ...]:
        """Every way to play ``cards`` at once (the top card last), as :attr:`mid` (kind
        ``"mid"``), :attr:`announced` or :attr:`last` (``"last"``) give them for one card."""
        top = cards[-1]
        if len(cards) == 1:
            return {"mid": self.mid, "announced": self.announced, "last": self.last,
                    "end": self.end}[kind][top]
        return tuple(Action.play_many(cards, a.suit, a.announce)
                     for a in self.plays((top,), kind))

    def row(self, suit: int, rank: int, free: bool) -> tuple[bool, ...]:
        """Which cards may be played on this target (no forced draw pending)."""
        key = (suit, rank, free)
        row = self.rows.get(key)
        if row is None:
            row = tuple(self._matches(c, suit, rank, free) for c in range(53))
            self.rows[key] = row
        return row

    def _matches(self, c: int, suit: int, rank: int, free: bool) -> bool:
        r = c >> 2
        if self.wild[c]:
            return rank not in self.not_on[c]
        return free or (c != 52 and (r == rank or SUIT_OF[c] == suit))


def tables_for(rules: Rules) -> Tables:
    """The tables of a rule set, built once and kept on the rules object."""
    found = rules._tables
    if found is None:
        found = Tables(rules)
        object.__setattr__(rules, "_tables", found)
    assert isinstance(found, Tables)
    return found


def _preset(name: str) -> Rules | None:
    try:
        return load_rules(name)
    except RulesError:
        return None
