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
    DrawPolicy,
    GoingOut,
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
    """Per-rank lookups derived once from a :class:`Rules` (the hot path reads these)."""

    def __init__(self, rules: Rules) -> None:
        cr = [rules.card(rank) for rank in Rank]
        self.wild = tuple(c.wild for c in cr)
        self.name_suit = tuple(c.name_suit for c in cr)
        self.not_on = tuple(frozenset(int(r) for r in c.not_on) for c in cr)
        self.covered = tuple(c.takes_covered_rank for c in cr)
        self.transparent = tuple(c.transparent for c in cr)
        self.any_follows = tuple(c.any_follows for c in cr)
        """Any card may be played on this rank while it is the card to match (PE6)."""
        self.no_suit = tuple(c.wild and c.wild_if is WildIf.NO_SUIT for c in cr)
        """Wild only for a hand without the suit to follow, wild cards aside (UC8)."""
        self.wild_if = any(self.no_suit)
        """Some card's legality depends on the hand (the hot path checks this once)."""
        self.draw = tuple(c.draw for c in cr)
        self.stack = tuple(c.stack for c in cr)
        self.cancel = tuple(frozenset(int(r) for r in c.cancelled_by) for c in cr)
        self.skip = tuple(c.skip for c in cr)
        self.reverse = tuple(c.reverse for c in cr)
        self.again = tuple(c.again for c in cr)
        self.again_penalty = tuple(c.again_penalty for c in cr)
        self.points = tuple(rules.points[rank] for rank in Rank)
        self.out_multiplier = tuple(c.out_multiplier for c in cr)
        """Points of a round won with this rank on top are multiplied by this (MM10)."""
        self.serve_last = rules.serve_last_draw
        """A forced draw left pending by the play that empties a hand is served (LC8, UC10)."""
        self.served_stays = not rules.forced_draw_ends_turn
        """A victim who took a forced draw in full stays in turn (PE5)."""
        self.reverse_skip = rules.reverse_two is ReverseTwo.SKIP
        """With two players a reverse acts as a skip (SW7, PE10, TS8, UC3, UC6)."""
        self.redraw = frozenset(int(r) for r in rules.starter_redraw)
        self.starter_any = rules.starter_wild is StarterWild.ANY
        """The first player may play any card on a wild starter (CL4)."""
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
        self.rows: dict[tuple[int, int, bool], tuple[bool, ...]] = {}
        self._rules = rules
        self._decks: dict[int, tuple[Card, ...]] = {}
        self.fixed = tuple(self.row(s, r, False) for s in range(4) for r in range(14))
        """Rows after a card was played (a suit is always set): index ``suit * 14 + rank``."""
        self.answers = tuple(
            tuple((c >> 2 == pr and self.stack[pr]) or c >> 2 in self.cancel[pr] for c in range(53))
            for pr in range(14))
        # Every way to play each card: mid-round, announcing the last card, going out.
        self.mid = tuple(self._variants(c, False) for c in range(53))
        self.announced = tuple(self._variants(c, True) for c in range(53))
        self.end: tuple[tuple[Action, ...], ...] = tuple((Action.play(CARDS[c]),) for c in range(53))
        out = [c.going_out for c in cr]
        self.last = tuple(() if out[c >> 2] is GoingOut.NO
                          else self.mid[c] if out[c >> 2] is GoingOut.PENALTY
                          else self.end[c] for c in range(53))
        """Every way to play each card as the last card of a hand: none if it may not end
        the hand (PE12), its mid-round plays if it costs ``out_penalty`` cards."""
        self.must_cover = tuple(c.must_cover for c in cr)
        """While this rank is the up-card, ``draw`` draws until a card can be played (TS9)."""
        self.cover_any = any(self.must_cover)
        self.out_suit = tuple(g is GoingOut.SUIT for g in out)
        """May empty the hand only if of the suit to follow (LC6)."""
        self.any_out_suit = any(self.out_suit)
        self.stays_in = tuple(g is GoingOut.PENALTY for g in out)
        """The player who plays it last draws ``out_penalty`` and stays in the round."""
        self.out_penalty = rules.out_penalty
        self.call_out_penalty = rules.call_out_penalty
        if rules.call_out:  # MM9, TS10: the called last card goes out; uncalled, it stays in
            self.last = tuple(self.mid[c] + (Action.play(CARDS[c], None, True),)
                              if self.last[c] and not self.stays_in[c >> 2] else self.last[c]
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
        suits: tuple[Suit | None, ...] = tuple(Suit) if self.name_suit[c >> 2] else (None,)
        out: list[Action] = []
        for s in suits:
            out.append(Action.play(card, s))
            if announce:
                out.append(Action.play(card, s, True))
        return tuple(out)

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
        if self.wild[r]:
            return rank not in self.not_on[r]
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
