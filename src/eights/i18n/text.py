"""Words for players: card names, moves, the table and the scores, in any catalog language.

Every function takes the translator as ``_`` (see :mod:`eights.i18n`), so the
same game reads in English or French:

>>> from eights.i18n import translator
>>> from eights.engine.cards import Card
>>> card_words(Card.parse("Qh"), translator("fr")), card_words(Card.parse("Ts"), translator("en"))
('dame de cœur', 'ten of spades')

Cards shown with a suit symbol use the letters players write in each
language (the typed notation stays ``Qh``, ``Jd``, in every language):

>>> card_label(Card.parse("Qs"), translator("fr")), card_label(Card.parse("Qs"), translator("en"))
('D♠', 'Q♠')
"""

from __future__ import annotations

from collections.abc import Sequence

from eights.engine.actions import Action, Kind
from eights.engine.cards import JOKER, Card, Rank, Suit
from eights.engine.errors import NotationError
from eights.engine.game import Game, Step
from eights.engine.rules import GoingOut, Rules, Scoring
from eights.i18n import Translator

__all__ = [
    "SUIT_KEYS",
    "action_words",
    "card_label",
    "card_words",
    "describe_move",
    "hand_count_words",
    "match_words",
    "rank_label",
    "rank_words",
    "read_action",
    "round_summary",
    "suit_key",
    "suit_keys",
    "suit_words",
    "table_words",
]

SUIT_KEYS: dict[str, str] = {"en": "cdhs", "fr": "tkcp"}
"""The key for each suit (clubs, diamonds, hearts, spades) in each language.

French players name suits trèfle, carreau, cœur, pique and write them T, K, C, P
(the bridge convention: K for carreau, since C is cœur).
"""


def rank_words(rank: Rank, _: Translator) -> str:
    """``ace``, ``two`` … ``king``, ``joker`` (``as`` … ``roi`` in French)."""
    names = {
        Rank.ACE: _("ace"), Rank.TWO: _("two"), Rank.THREE: _("three"), Rank.FOUR: _("four"),
        Rank.FIVE: _("five"), Rank.SIX: _("six"), Rank.SEVEN: _("seven"),
        Rank.EIGHT: _("eight"), Rank.NINE: _("nine"), Rank.TEN: _("ten"),
        Rank.JACK: _("jack"), Rank.QUEEN: _("queen"), Rank.KING: _("king"),
        Rank.JOKER: _("joker"),
    }
    return names[rank]


def suit_words(suit: Suit, _: Translator) -> str:
    """``clubs``, ``diamonds``, ``hearts``, ``spades`` (``trèfle`` … ``pique``)."""
    return (_("clubs"), _("diamonds"), _("hearts"), _("spades"))[suit]


def card_words(card: Card, _: Translator) -> str:
    """A card in words: ``queen of hearts``, ``dame de cœur``."""
    if card.suit is None:
        return rank_words(Rank.JOKER, _)
    return _("{rank} of {suit}", rank=rank_words(card.rank, _), suit=suit_words(card.suit, _))


def rank_label(rank: Rank, _: Translator) -> str:
    """The rank as written on a card: ``A``, ``2`` … ``10``, ``J Q K`` (``V D R`` in French), ``🃏``.

    >>> from eights.i18n import translator
    >>> [rank_label(r, translator("fr")) for r in (Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING)]
    ['10', 'V', 'D', 'R']
    """
    if rank is Rank.JOKER:
        return JOKER.pretty()
    if rank is Rank.TEN:
        return "10"
    courts = {Rank.JACK: _("J"), Rank.QUEEN: _("Q"), Rank.KING: _("K")}
    return courts.get(rank, rank.letter)


def card_label(card: Card, _: Translator) -> str:
    """A card as players read it, rank then suit symbol: ``R♥``, ``10♣`` in French, ``K♥`` in English."""
    if card.suit is None:
        return JOKER.pretty()
    return rank_label(card.rank, _) + card.suit.symbol


def suit_keys(_: Translator) -> dict[str, Suit]:
    """The keys that name a suit in this language (``t k c p`` in French), English ones too where free.

    In French ``c`` is cœur, so clubs is ``t`` only; ``d``, ``h`` and ``s`` keep
    their English meaning, and the suit symbols always work:

    >>> from eights.i18n import translator
    >>> keys = suit_keys(translator("fr"))
    >>> keys["c"], keys["t"], keys["h"]
    (<Suit.HEARTS: 2>, <Suit.CLUBS: 0>, <Suit.HEARTS: 2>)
    """
    keys: dict[str, Suit] = {suit.symbol: suit for suit in Suit}
    for letters in (SUIT_KEYS["en"], SUIT_KEYS.get(_.lang, SUIT_KEYS["en"])):
        keys.update({letter: Suit(i) for i, letter in enumerate(letters)})
    return keys


def suit_key(suit: Suit, _: Translator) -> str:
    """The key shown for ``suit`` in this language: ``p`` for pique, ``s`` for spades."""
    return SUIT_KEYS.get(_.lang, SUIT_KEYS["en"])[suit]


_FRENCH_RANKS = {"r": "K", "d": "Q", "v": "J"}
_FRENCH_WORDS = {"piocher": "draw", "pioche": "draw", "passer": "pass", "passe": "pass",
                 "prendre": "take", "prends": "take"}


def read_action(text: str, _: Translator) -> Action:
    """An action typed by a player: the canonical notation (``Qh``, ``8h=s!``, ``draw``) in any language.

    In French the court letters players write are understood too (``Dh`` is
    ``Qh``, ``V♦`` is ``Jd``, ``R♠`` is ``Ks``), and so are ``pioche``, ``passe``
    and ``prendre``. Suit letters stay the canonical ``c d h s`` (or symbols),
    so ``c`` is never read as cœur here. A text that is not an action raises
    :class:`~eights.engine.errors.NotationError`.

    >>> from eights.i18n import translator
    >>> str(read_action("V♦", translator("fr"))), str(read_action("dh=s!", translator("fr")))
    ('Jd', 'Qh=s!')
    """
    try:
        return Action.parse(text)
    except NotationError:
        alias = _french_alias(text) if _.lang == "fr" else None
        if alias is None:
            raise
        try:
            return Action.parse(alias)
        except NotationError:
            pass
        raise  # the error about what was typed, not about the alias


def _french_alias(text: str) -> str | None:
    """``Dh`` → ``Qh``, ``pioche`` → ``draw``; ``None`` when nothing French is recognised."""
    raw = text.strip()
    word = _FRENCH_WORDS.get(raw.lower())
    if word is not None:
        return word
    rank = _FRENCH_RANKS.get(raw[:1].lower())
    return None if rank is None else rank + raw[1:]


def action_words(action: Action, _: Translator) -> str:
    """An action as a player reads it: ``8♥, naming ♠``, ``draw``."""
    if action.kind is Kind.DRAW:
        return _("draw")
    if action.kind is Kind.PASS:
        return _("pass")
    if action.kind is Kind.TAKE:
        return _("take a card")
    assert action.card is not None
    text = card_label(action.card, _)
    if action.suit is not None:
        text = _("{card}, naming {suit}", card=text, suit=action.suit.symbol)
    if action.announce:
        text = _("{play} and announce the last card", play=text)
    return text


def hand_count_words(n: int, _: Translator) -> str:
    """``1 card``, ``5 cards``."""
    return _.plural("{n} card", "{n} cards", n)


def describe_move(game: Game, names: Sequence[str], step: Step, _: Translator,
                  you: int | None = None) -> str:
    """One line in words for an action just applied (``step``: what :meth:`Game.apply` said).

    Effects are named: who loses their turn, a reversal, a forced draw
    waiting, a forgotten announcement, cards sent back (HF9), a reshuffle, the
    player going out. Only counts of cards are said, never the cards drawn,
    except to ``you``: told to the one person at the table, their own moves
    read "You play 7♥", "You draw J♦" (the cards they received, and only
    theirs), and what falls on them "you must draw 2", "you lose your turn".
    """
    seat, action = step.seat, step.action
    who = names[seat]
    me = seat == you
    counts = step.counts()
    mine = " ".join(card_label(c, _) for c in step.received[you]) if you is not None else ""
    parts: list[str] = []
    if action.kind is Kind.PLAY:
        assert action.card is not None
        card = card_label(action.card, _)
        if action.suit is not None:
            parts.append(_("You play {card} and name {suit}", card=card, suit=action.suit.symbol)
                         if me else _("{name} plays {card} and names {suit}", name=who, card=card,
                                      suit=action.suit.symbol))
        else:
            parts.append(_("You play {card}", card=card) if me
                         else _("{name} plays {card}", name=who, card=card))
        if action.announce:
            parts.append(_("“last card!”"))
        if step.out == seat:
            parts.append(_("you go out") if me else _("{name} goes out", name=who))
            return " — ".join(parts)
        if counts[seat] and len(game.hands[seat]) == counts[seat]:  # the hand was emptied
            if game.rules.card(action.card.rank).going_out is GoingOut.PENALTY:  # PE12
                parts.append(_("you may not go out on {card} and draw {cards}", card=card,
                               cards=mine) if me
                             else _.plural("{name} may not go out on {card} and draws {n} card",
                                           "{name} may not go out on {card} and draws {n} cards",
                                           counts[seat], name=who, card=card))
            else:  # MM9, TS10: the going-out call was missed
                parts.append(_("you did not call going out and draw {cards}", cards=mine) if me
                             else _.plural("{name} did not call going out and draws {n} card",
                                           "{name} did not call going out and draws {n} cards",
                                           counts[seat], name=who))
        elif counts[seat]:  # HA13: the penalty for a last card not announced
            parts.append(_("you forgot to announce and draw {cards}", cards=mine) if me
                         else _.plural("{name} forgot to announce and draws {n} card",
                                       "{name} forgot to announce and draws {n} cards",
                                       counts[seat], name=who))
        parts.extend(_effects(game, names, step, action.card, you, _))
    elif action.kind is Kind.DRAW:
        if not me:
            parts.append(_.plural("{name} draws {n} card", "{name} draws {n} cards",
                                  counts[seat], name=who))
        elif counts[seat] == 1:
            parts.append(_("You draw {card}", card=mine))
        elif counts[seat]:
            parts.append(_("You draw {n} cards: {cards}", n=counts[seat], cards=mine))
        else:
            parts.append(_("You draw no card"))
        for s in range(game.n):
            if s != seat and counts[s]:  # HF9: the overflow goes back to the attacker
                parts.append(_("you take {cards} back", cards=mine) if s == you
                             else _.plural("{name} takes {n} card back",
                                           "{name} takes {n} cards back", counts[s],
                                           name=names[s]))
    elif action.kind is Kind.TAKE:
        parts.append(_("You take the top card of the stock: {card}", card=mine) if me
                     else _("{name} takes the top card of the stock", name=who))
    else:
        previous = game.history[-2] if len(game.history) > 1 else None
        if previous is not None and previous[0] == seat and previous[1].kind is Kind.PLAY:
            parts.append(_("You do not take a card") if me
                         else _("{name} does not take a card", name=who))
        elif previous is not None and previous[0] == seat and previous[1].kind is Kind.DRAW:
            parts.append(_("You keep the card and pass") if me
                         else _("{name} keeps the card and passes", name=who))
        else:
            parts.append(_("You pass") if me else _("{name} passes", name=who))
    for s, points in enumerate(step.penalties):
        if points:
            parts.append(_.plural("you score {n} penalty point (overflow)",
                                  "you score {n} penalty points (overflow)", points) if s == you
                         else _.plural("{name} scores {n} penalty point (overflow)",
                                       "{name} scores {n} penalty points (overflow)", points,
                                       name=names[s]))
    if step.reshuffled:
        parts.append(_("the discard pile is shuffled into a new stock"))
    if step.blocked:
        parts.append(_("the round is blocked"))
    return " — ".join(parts)


def _effects(game: Game, names: Sequence[str], step: Step, card: Card, you: int | None,
             _: Translator) -> list[str]:
    rule = game.rules.card(card.rank)
    out: list[str] = []
    nxt = game.to_play
    if game.pending and nxt is not None:
        answer = bool(rule.stack or rule.cancelled_by)
        if nxt == you:
            out.append(_("you must draw {n} or answer", n=game.pending) if answer
                       else _("you must draw {n}", n=game.pending))
        elif answer:
            out.append(_("{name} must draw {n} or answer", name=names[nxt], n=game.pending))
        else:
            out.append(_("{name} must draw {n}", name=names[nxt], n=game.pending))
    if step.reversed:
        out.append(_("play changes direction"))
    if step.skipped is not None:
        out.append(_("you lose your turn") if step.skipped == you
                   else _("{name} loses their turn", name=names[step.skipped]))
    if rule.again and game.to_play == step.seat and game.again:
        out.append(_("you play again") if step.seat == you
                   else _("{name} plays again", name=names[step.seat]))
    return out


def table_words(game: Game, names: Sequence[str], _: Translator) -> list[str]:
    """The public table in a few lines: up-card, suit, direction, draws, counts."""
    lines = [_("Up-card: {card} ({words})", card=card_label(game.up_card, _),
               words=card_words(game.up_card, _))]
    if game.suit >= 0 and (game.up_card.suit is None or game.suit != game.up_card.suit):
        lines.append(_("Suit to follow: {suit}", suit=Suit(game.suit).symbol))
    if game.free:
        lines.append(_("Any card may be played"))
    if game.pending:
        lines.append(_("Forced draw waiting: {n}", n=game.pending))
    lines.append(_("Direction: {arrow}", arrow="→" if game.direction == 1 else "←"))
    lines.append(_("Stock: {stock} · discard: {discard}", stock=len(game.stock),
                   discard=len(game.discard)))
    return lines


def round_summary(game: Game, names: Sequence[str], _: Translator) -> list[str]:
    """Every hand revealed, how it counts, the round's points and the match totals."""
    assert game.round_points is not None
    lines: list[str] = []
    if game.out is not None:
        lines.append(_("Round {n} is over: {name} went out.", n=game.round, name=names[game.out]))
    else:
        lines.append(_("Round {n} is over: blocked, nobody could play.", n=game.round))
    points = game.rules.points
    for s in range(game.n):
        hand = game.hand(s)
        counted = " + ".join(f"{card_label(c, _)} {points[c.rank]}" for c in hand)
        value = game.hand_value(s)
        team = _(" (team {t})", t=game.team_of(s) + 1) if game.teams else ""
        lines.append(_("{name}{team}: {cards} = {value} · round {points:+d} · total {total}",
                       name=names[s], team=team, cards=counted or "—", value=value,
                       points=game.round_points[s], total=game.scores[s]))
    if any(game.penalties):
        for s, pen in enumerate(game.penalties):
            if pen:
                lines.append(_.plural("{name}: {n} penalty point (overflow)",
                                      "{name}: {n} penalty points (overflow)", pen,
                                      name=names[s]))
    if game.match_over and game.winners is not None:
        lines.append(_.plural("The match is over after {n} round.",
                              "The match is over after {n} rounds.", game.round))
        lines.append(_.plural("Winner: {names}.", "Winners: {names}.", len(game.winners),
                              names=", ".join(names[s] for s in game.winners)))
    return lines


def match_words(rules: Rules, _: Translator) -> str:
    """The match goal in a few words: ``Target 250 · highest wins``, ``1 round · lowest wins``."""
    wins = _("lowest wins") if rules.scoring is Scoring.OWN_HAND else _("highest wins")
    if rules.target and rules.scoring is Scoring.ROUNDS_WON:  # SW11: target counts rounds won
        goal = _.plural("{n} round to win", "{n} rounds to win", rules.target)
    elif rules.target:
        goal = _("Target {target}", target=rules.target)
    elif rules.rounds:
        goal = _.plural("{n} round", "{n} rounds", rules.rounds)
    else:
        goal = _("No target")
    return f"{goal} · {wins}"
