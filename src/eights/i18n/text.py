"""Words for players: card names, moves, the table and the scores, in any catalog language.

Every function takes the translator as ``_`` (see :mod:`eights.i18n`), so the
same game reads in English or French:

>>> from eights.i18n import translator
>>> from eights.engine.cards import Card
>>> card_words(Card.parse("Qh"), translator("fr")), card_words(Card.parse("Ts"), translator("en"))
('dame de cœur', 'ten of spades')

Cards shown with a suit symbol use the letters players write in each
language, and so does what they type (:func:`card_code`: ``Dc``, ``Vk`` in French):

>>> card_label(Card.parse("Qs"), translator("fr")), card_label(Card.parse("Qs"), translator("en"))
('D♠', 'Q♠')
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from eights.engine.actions import Action, Kind
from eights.engine.cards import JOKER, Card, Rank, Suit
from eights.engine.errors import NotationError
from eights.engine.game import Game, Step
from eights.engine.rules import CardRule, GoingOut, Rules, Scoring
from eights.i18n import Translator

__all__ = [
    "ACTION_KEYS",
    "BOT_LEVELS",
    "RANK_KEYS",
    "SUIT_KEYS",
    "SUIT_WORDS",
    "action_code",
    "action_words",
    "call_name",
    "call_words",
    "card_code",
    "card_label",
    "card_words",
    "describe_move",
    "direction_words",
    "hand_count_words",
    "level_name",
    "level_words",
    "levels_words",
    "match_words",
    "ordinal",
    "own_model",
    "placings",
    "rank_label",
    "rank_words",
    "read_action",
    "read_suit",
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


SUIT_WORDS: dict[str, Suit] = {word: Suit(i) for i, words in enumerate((
    ("club", "clubs", "trèfle", "trefle", "trèfles", "trefles"),
    ("diamond", "diamonds", "carreau", "carreaux"),
    ("heart", "hearts", "cœur", "coeur", "cœurs", "coeurs"),
    ("spade", "spades", "pique", "piques"),
)) for word in words}
"""Suit names a player may type to name a suit, in English and French (``hearts``, ``cœur``)."""


def read_suit(text: str, _: Translator) -> Suit | None:
    """The suit a player typed: a key of this language (:func:`suit_keys`), a symbol or a
    suit name in English or French; ``None`` when it is none of these.

    >>> from eights.i18n import translator
    >>> read_suit("Hearts", translator("en")), read_suit("cœur", translator("en"))
    (<Suit.HEARTS: 2>, <Suit.HEARTS: 2>)
    >>> read_suit("c", translator("fr")), read_suit("z", translator("fr")) is None
    (<Suit.HEARTS: 2>, True)
    """
    word = text.strip().lower()
    suit = suit_keys(_).get(word)
    return SUIT_WORDS.get(word) if suit is None else suit


RANK_KEYS: dict[str, dict[Rank, str]] = {
    "en": {},
    "fr": {Rank.KING: "R", Rank.QUEEN: "D", Rank.JACK: "V", Rank.TEN: "10"},
}
"""The ranks a language writes otherwise than the canonical notation (``A 2 … 9 T J Q K X``):
French writes roi, dame, valet R D V, and 10."""
ACTION_KEYS: dict[str, dict[Kind, str]] = {
    "en": {},
    "fr": {Kind.DRAW: "piocher", Kind.PASS: "passer", Kind.TAKE: "prendre"},
}
"""The words a language types for ``draw``, ``pass`` and ``take``."""
_TYPED_WORDS: dict[str, dict[str, str]] = {
    "fr": {"pioche": "draw", "passe": "pass", "prends": "take"},
}
"""Other words a language types for ``draw``, ``pass`` and ``take`` (besides :data:`ACTION_KEYS`)."""
_RANK_TEXTS = frozenset(r.letter for r in Rank) | {"10"}


def card_code(card: Card, _: Translator) -> str:
    """A card as a player of this language types it: the canonical notation in English
    (``Qh``, ``Tc``); in French the letters French players write, rank then suit (``Dc``
    for the dame de cœur, ``10t`` for the 10 de trèfle: :data:`RANK_KEYS`, :data:`SUIT_KEYS`).

    >>> from eights.i18n import translator
    >>> card_code(Card.parse("Qh"), translator("fr")), card_code(Card.parse("Qh"), translator("en"))
    ('Dc', 'Qh')
    """
    if card.suit is None:
        return str(card)
    rank = RANK_KEYS.get(_.lang, {}).get(card.rank, card.rank.letter)
    return rank + suit_key(card.suit, _)


def action_code(action: Action, _: Translator) -> str:
    """An action as a player of this language types it (:func:`read_action` reads it back):
    ``8h=s``, ``draw`` in English; ``8c=p``, ``piocher`` in French.

    >>> from eights.i18n import translator
    >>> fr = translator("fr")
    >>> [action_code(Action.parse(a), fr) for a in ("Qc", "8d=h!", "Jh+Js", "=s", "draw")]
    ['Dt', '8k=c!', 'Vc+Vp', '=p', 'piocher']
    """
    word = ACTION_KEYS.get(_.lang, {}).get(action.kind)
    if word is not None:
        return word
    if not action.cards and action.suit is None:  # draw, pass, take
        return str(action)
    text = "+".join(card_code(c, _) for c in action.cards)
    if action.suit is not None:
        text += "=" + suit_key(action.suit, _)
    return text + ("!" if action.announce else "")


def read_action(text: str, _: Translator) -> Action:
    """An action typed by a player: what :func:`action_code` writes in this language, and
    the canonical notation (``Qh``, ``8h=s!``, ``draw``) where it does not clash.

    In French the ranks are ``R D V`` (``10`` or ``T``) and the suits ``t k c p`` (trèfle,
    carreau, cœur, pique; ``d h s`` and the symbols too), so ``c`` is cœur: ``Dt`` is the
    dame de trèfle, ``Qc`` the queen of hearts. ``piocher``, ``passer`` and ``prendre``
    (or ``pioche``…) draw, pass and take. A text that is not an action raises
    :class:`~eights.engine.errors.NotationError`, about the text typed.

    >>> from eights.i18n import translator
    >>> fr = translator("fr")
    >>> [str(read_action(t, fr)) for t in ("Dt", "V♦", "dh=p!", "Vc+Vp", "10k", "piocher")]
    ['Qc', 'Jd', 'Qh=s!', 'Jh+Js', 'Td', 'draw']

    A suit may be named by its name, in either language: ``8d=hearts``, ``8k=cœur!``.

    >>> str(read_action("8d=hearts", translator("en"))), str(read_action("8k=cœur!", fr))
    ('8d=h', '8d=h!')
    """
    canonical = _typed(text, _)
    if canonical is not None:
        try:
            return Action.parse(canonical)
        except NotationError:
            pass
    return Action.parse(text)  # the error about what was typed


def _typed(text: str, _: Translator) -> str | None:
    """What a player typed in this language's letters and words (:func:`action_code`), and
    suits named by their names, in the canonical notation: ``Dt`` → ``Qc``, ``piocher`` →
    ``draw``, ``8d=hearts`` → ``8d=h``; ``None`` where it is not written so."""
    raw = text.strip()
    words = {w: k.value for k, w in ACTION_KEYS.get(_.lang, {}).items()}
    word = {**words, **_TYPED_WORDS.get(_.lang, {})}.get(raw.lower())
    if word is not None:
        return word
    ranks = {text.lower(): rank.letter for rank, text in RANK_KEYS.get(_.lang, {}).items()}
    keys = suit_keys(_)
    head, equals, named = raw.removesuffix("!").strip().partition("=")
    cards: list[str] = []
    for part in (p.strip() for p in head.split("+")) if head.strip() else ():
        if part.upper() == "X":
            cards.append("X")
            continue
        suit = keys.get(part[-1:].lower())
        rank = ranks.get(part[:-1].lower(), part[:-1].upper())
        if suit is None or rank not in _RANK_TEXTS:
            return None
        cards.append(rank + suit.letter)
    out = "+".join(cards)
    if equals:
        suit = read_suit(named, _)
        if suit is None:
            return None
        out += "=" + suit.letter
    return out + ("!" if raw.endswith("!") else "")


def action_words(action: Action, _: Translator) -> str:
    """An action as a player reads it: ``8♥, naming ♠``, ``draw``."""
    if action.kind is Kind.DRAW:
        return _("draw")
    if action.kind is Kind.PASS:
        return _("pass")
    if action.kind is Kind.TAKE:
        return _("take a card")
    if action.kind is Kind.NAME:  # TS3, UC3
        assert action.suit is not None
        return _("name {suit}", suit=action.suit.symbol)
    text = "+".join(card_label(c, _) for c in action.cards)  # SW3: 7♥+7♠
    if action.suit is not None:
        text = _("{card}, naming {suit}", card=text, suit=action.suit.symbol)
    if action.announce:
        text = _("{play} and announce the last card", play=text)
    return text


def call_name(rules: Rules, out: bool, _: Translator) -> str:
    """What the rules call the last-card announcement (``out``: the going-out call), as a
    name in a sentence: ``Mau``, ``Mau-Mau``, ``Uno``; the generic words where the rules
    give no name (``last_card_call``, ``out_call``).

    >>> from eights.engine.rules import load_rules
    >>> from eights.i18n import translator
    >>> rules = load_rules("tschau-sepp")
    >>> call_name(rules, False, translator("en")), call_name(rules, True, translator("en"))
    ('Tschau', 'Sepp')
    >>> call_name(load_rules("huit-americain"), False, translator("fr"))
    'dernière carte'
    """
    name = rules.out_call if out else rules.last_card_call
    if name:
        return _(name)  # a name of the game ("Mau") stays; a catalog may translate a phrase
    return _("out") if out else _("last card")


def call_words(rules: Rules, out: bool, _: Translator) -> str:
    """The call as it is heard at the table: ``“Mau!”``, ``“Sepp!”``, ``“last card!”``."""
    name = rules.out_call if out else rules.last_card_call
    if not name:
        return _("“out!”") if out else _("“last card!”")
    return _("“{call}!”", call=_(name))


def hand_count_words(n: int, _: Translator) -> str:
    """``1 card``, ``5 cards``."""
    return _.plural("{n} card", "{n} cards", n)


def describe_move(game: Game, names: Sequence[str], step: Step, _: Translator,
                  you: int | None = None) -> str:
    """One line in words for an action just applied (``step``: what :meth:`Game.apply` said).

    Effects are named: who loses their turn (k players for k skip cards, SW6),
    a reversal, a forced draw waiting (growing across ranks, BJ3) or cancelled
    (BJ4), a skip that may be passed on (MM5, PE8), a forgotten announcement,
    cards sent back (HF9), a reshuffle, the player going out (with their placing
    under ``play_on``, TS11) and a pick-up served after the last card (LC8).
    Several cards are said one by one ("plays 7♥ 7♠"), ``=s`` as "names ♠".
    Only counts of cards are said, never the cards drawn,
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
        card = " ".join(card_label(c, _) for c in action.cards)  # SW3: "plays 7♥ 7♠"
        if action.suit is not None:
            parts.append(_("You play {card} and name {suit}", card=card, suit=action.suit.symbol)
                         if me else _("{name} plays {card} and names {suit}", name=who, card=card,
                                      suit=action.suit.symbol))
        else:
            parts.append(_("You play {card}", card=card) if me
                         else _("{name} plays {card}", name=who, card=card))
        if action.announce:  # the going-out call (MM9, TS10) or the last card (HA13)
            parts.append(call_words(game.rules, not game.hands[seat] and not counts[seat], _))
        if _skip_passed_on(game, step):  # MM5, PE8: the skip goes on to the next player
            parts.append(_("the skip passes on"))
        if seat in game.finished:  # TS11: out of the round, with a placing; play goes on
            place = ordinal(game.finished.index(seat) + 1, _)
            parts.append(_("you go out: {place}", place=place) if me
                         else _("{name} goes out: {place}", name=who, place=place))
            if step.out == seat:
                return " — ".join(parts)
        elif step.out == seat:
            parts.append(_("you go out") if me else _("{name} goes out", name=who))
            for s in range(game.n):  # LC8, UC10: the pick-up of the last card is served
                if s != seat and counts[s]:
                    parts.append(_("you take the pick-up: {cards}", cards=mine) if s == you
                                 else _.plural("{name} takes the pick-up: {n} card",
                                               "{name} takes the pick-up: {n} cards", counts[s],
                                               name=names[s]))
            return " — ".join(parts)
        if counts[seat] and len(game.hands[seat]) == counts[seat]:  # the hand was emptied
            if game.rules.rule_of(action.card).going_out is GoingOut.PENALTY:  # PE12
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
    elif action.kind is Kind.NAME:  # TS3, UC3: the suit of a wild starter
        assert action.suit is not None
        parts.append(_("You name {suit}", suit=action.suit.symbol) if me
                     else _("{name} names {suit}", name=who, suit=action.suit.symbol))
    else:
        previous = game.history[-2] if len(game.history) > 1 else None
        due = _skip_due_before(game, step)
        if due:  # MM5, PE8: the skip accepted; with k skip cards, k players lose their turn
            parts.append(_("You accept the skip and lose your turn") if me
                         else _("{name} accepts the skip and loses their turn", name=who))
            others = _seats_after(game, seat, due - 1)
            if others:
                parts.append(_skipped_words(others, names, you, _))
        elif previous is not None and previous[0] == seat and previous[1].kind is Kind.PLAY:
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
    rules = game.rules
    rule = rules.rule_of(card)
    out: list[str] = []
    nxt = game.to_play
    before = _pending_before(game, step)
    if before is not None and not game.pending and (
            card in before.cancelled_by):  # HA7, BJ4: the pick-up is void
        out.append(_("the pick-up is cancelled"))
    if game.pending and nxt is not None:
        answer = bool(rule.stack or rule.stack_with or rule.cancelled_by)
        if nxt == you:
            out.append(_("you must draw {n} or answer", n=game.pending) if answer
                       else _("you must draw {n}", n=game.pending))
        elif answer:
            out.append(_("{name} must draw {n} or answer", name=names[nxt], n=game.pending))
        else:
            out.append(_("{name} must draw {n}", name=names[nxt], n=game.pending))
    if step.reversed:
        out.append(_("play changes direction"))
    elif len(step.action.cards) > 1 and rule.reverse and game.n - len(game.finished) > 2:
        out.append(_("the direction of play stays the same"))  # SW7: two reverses
    if step.skipped is not None:
        skipped = _seats_after(game, step.seat, _skip_count(game, step, rule))
        if len(skipped) > 1:  # SW6: k skip cards skip k players
            out.append(_skipped_words(skipped, names, you, _))
        else:
            out.append(_("you lose your turn") if step.skipped == you
                       else _("{name} loses their turn", name=names[step.skipped]))
    if game.skip_due and nxt is not None:  # MM5, PE8: the skipped player has a say
        rank = _rank_letter(card, _)
        out.append(_("you lose your turn, unless you pass the skip on with another {rank}",
                     rank=rank) if nxt == you else
                   _("{name} loses their turn, unless they pass the skip on with another {rank}",
                     name=names[nxt], rank=rank))
    if rule.again and game.to_play == step.seat and game.again:
        out.append(_("you play again") if step.seat == you
                   else _("{name} plays again", name=names[step.seat]))
    return out


def _rank_letter(card: Card, _: Translator) -> str:
    return rank_label(card.rank, _)


def _seats_after(game: Game, seat: int, k: int) -> list[int]:
    """The ``k`` seats after ``seat`` in the direction of play, players out aside (TS11)."""
    out: list[int] = []
    at = seat
    for _step in range(game.n * (k + 1)):
        if len(out) >= k:
            break
        at = (at + game.direction) % game.n
        if at not in game.finished and at != seat:
            out.append(at)
    return out


def _skip_count(game: Game, step: Step, rule: CardRule) -> int:
    """How many players a play skips (SW6: one a skip card, never the player who laid
    them; a reverse with two players under ``reverse_two = "skip"``)."""
    k = len(step.action.cards)
    holding = game.n - len(game.finished)
    skips = k if rule.skip else 0
    if rule.reverse and holding <= 2:
        skips += k
    return max(1, min(skips, holding - 1))


def _skipped_words(seats: list[int], names: Sequence[str], you: int | None,
                   _: Translator) -> str:
    """``2 players lose their turn: Bob, Cy`` (SW6)."""
    who = ", ".join(_("you") if s == you else names[s] for s in seats)
    return _.plural("{n} player loses their turn: {names}", "{n} players lose their turn: {names}",
                    len(seats), names=who)


def _previous_play(game: Game, step: Step) -> tuple[int, Action] | None:
    """The action before this one in the round, if it was another seat's play."""
    if len(game.history) < 2:
        return None
    seat, action = game.history[-2]
    if action.kind is not Kind.PLAY or seat == step.seat:
        return None
    return seat, action


def _pending_before(game: Game, step: Step) -> CardRule | None:
    """The rule of the draw card that left a pick-up for this play, if the previous action
    was such a play (read from the history: :class:`Step` does not say)."""
    previous = _previous_play(game, step)
    if previous is None or previous[1].card is None:
        return None
    rule = game.rules.rule_of(previous[1].card)
    return rule if rule.draw else None


def _skip_passed_on(game: Game, step: Step) -> bool:
    """MM5, PE8: this play passed a skip on (a card of its rank on a skip that could be)."""
    previous = _previous_play(game, step)
    if previous is None or previous[1].card is None or step.action.card is None:
        return False
    rule = game.rules.rule_of(previous[1].card)
    return rule.pass_on and rule.skip and previous[1].card.rank is step.action.card.rank


def _skip_due_before(game: Game, step: Step) -> int:
    """MM5, PE8: the players a ``pass`` makes lose their turn when it accepts a skip that
    could have been passed on (the skip cards of the play before it), else 0."""
    if step.action.kind is not Kind.PASS:
        return 0
    previous = _previous_play(game, step)
    if previous is None or previous[1].card is None:
        return 0
    rule = game.rules.rule_of(previous[1].card)
    if not (rule.pass_on and rule.skip):
        return 0
    return max(1, min(len(previous[1].cards), game.n - len(game.finished) - 1))


def ordinal(n: int, _: Translator) -> str:
    """A placing: ``1st``, ``2nd``, ``3rd``, ``11th`` (``1er``, ``2e`` in French).

    >>> from eights.i18n import translator
    >>> [ordinal(n, translator("en")) for n in (1, 2, 3, 4, 11, 22)], ordinal(1, translator("fr"))
    (['1st', '2nd', '3rd', '4th', '11th', '22nd'], '1er')
    """
    if _.lang == "fr":
        return "1er" if n == 1 else f"{n}e"
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def placings(game: Game) -> list[int]:
    """Each seat's placing (1 for the first out) at the end of a round: those out under
    ``play_on`` in the order they went out, then those holding cards by hand value, lowest
    first, tied players sharing the better place (TS11, TS12); without ``play_on`` the
    player who went out is 1st."""
    first = list(game.finished) or ([game.out] if game.out is not None else [])
    place = [0] * game.n
    for i, seat in enumerate(first):
        place[seat] = i + 1
    holding = [s for s in range(game.n) if s not in first]
    values = {s: game.hand_value(s) for s in holding}
    for s in holding:
        place[s] = len(first) + 1 + sum(1 for o in holding if values[o] < values[s])
    return place


def direction_words(direction: int, _: Translator) -> str:
    """The direction of play as the table says it: ``↓ clockwise`` (1) or ``↑
    counter-clockwise`` (-1); the arrow follows the list of players, which goes clockwise
    from the top."""
    return "↓ " + _("clockwise") if direction == 1 else "↑ " + _("counter-clockwise")


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
    if game.skip_due:  # MM5, PE8
        lines.append(_("A skip waits: pass it on with another {rank}, or pass",
                       rank=rank_label(game.up_card.rank, _)))
    if game.naming and game.to_play is not None:  # TS3, UC3
        lines.append(_("{name} names the suit of the starter first",
                       name=names[game.to_play]))
    if game.finished:  # TS11
        lines.append(_("Out of the round: {list}", list=", ".join(
            f"{names[s]} ({ordinal(i + 1, _)})" for i, s in enumerate(game.finished))))
    lines.append(_("Direction: {arrow}", arrow=direction_words(game.direction, _)))
    lines.append(_("Stock: {stock} · discard: {discard}", stock=len(game.stock),
                   discard=len(game.discard)))
    return lines


def round_summary(game: Game, names: Sequence[str], _: Translator) -> list[str]:
    """Every hand revealed, how it counts, the round's points and the match totals."""
    assert game.round_points is not None
    lines: list[str] = []
    if game.rules.play_on or game.rules.scoring is Scoring.PLACINGS:  # TS11, TS12
        place = placings(game)
        ranked = ", ".join(f"{ordinal(place[s], _)} {names[s]}"
                           for s in sorted(range(game.n), key=lambda s: (place[s], s)))
        lines.append(_("Round {n} is over: the placings are {list}.", n=game.round,
                       list=ranked) if game.out is not None else
                     _("Round {n} is over: blocked; the placings are {list}.", n=game.round,
                       list=ranked))
    elif game.out is not None:
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
    wins = (_("lowest wins") if rules.scoring in (Scoring.OWN_HAND, Scoring.PLACINGS)
            else _("highest wins"))
    if rules.target and rules.scoring is Scoring.ROUNDS_WON:  # SW11: target counts rounds won
        goal = _.plural("{n} round to win", "{n} rounds to win", rules.target)
    elif rules.target:
        goal = _("Target {target}", target=rules.target)
    elif rules.rounds:
        goal = _.plural("{n} round", "{n} rounds", rules.rounds)
    else:
        goal = _("No target")
    return f"{goal} · {wins}"


BOT_LEVELS: tuple[str, ...] = ("random", "greedy", "expert", "ismcts", "learned",
                               "ismcts:prior=learned")
"""The bots' levels, as bot specs, from the weakest: one vocabulary for the terminal's
new-match screen and header and the browser's new-table form and seats."""


def level_words(level: str, _: Translator) -> tuple[str, str]:
    """The name of ``level`` (a spec of :data:`BOT_LEVELS`) and what it does, in one line.

    >>> from eights.i18n import translator
    >>> level_words("ismcts:prior=learned", translator("fr"))[0]
    'Recherche + entraîné'
    """
    return {
        "random": (_("Random"), _("Plays any legal move, at random.")),
        "greedy": (_("Greedy"), _("Sheds its costliest card first and keeps its wild cards "
                                  "for last.")),
        "expert": (_("Expert"), _("Weighs each move on what is public: points, cards "
                                  "counted, attacks.")),
        "ismcts": (_("Search"), _("Plays out deals of the hidden cards to choose; about a "
                                  "second a move.")),
        "learned": (_("Learned"), _("A network that reads the rules: it plays any table "
                                    "at about the expert's level, in a millisecond.")),
        "ismcts:prior=learned": (_("Search + learned"), _("The search, with the learned "
                                                          "network's move as the one to beat.")),
    }[level]


def level_name(spec: str, _: Translator) -> str:
    """The level a bot of ``spec`` plays at, in words: a level of :data:`BOT_LEVELS` by its
    name; a spec with other options by its bot's level and the spec; an unknown bot by its
    spec.

    >>> from eights.i18n import translator
    >>> en = translator("en")
    >>> level_name("greedy", en), level_name("ismcts:time=0.5", en), level_name("mine", en)
    ('Greedy', 'Search (ismcts:time=0.5)', 'mine')

    A learned bot with a model of the player's own is named by the model, as the new-match
    screen names it (not by its path):

    >>> level_name("learned:model=/home/ana/runs/my-bot/model.npz", en)
    'Learned: my-bot'
    """
    if spec in BOT_LEVELS:
        return level_words(spec, _)[0]
    model = own_model(spec)
    if model is not None:  # a model of the player's own: by its folder's or file's name
        shown = model.parent.name if model.name == "model.npz" and model.parent.name else model.stem
        return _("Learned: {model}", model=shown)
    bot = spec.split(":", 1)[0].strip()
    if bot in BOT_LEVELS:
        return f"{level_words(bot, _)[0]} ({spec})"
    return spec


def own_model(spec: str) -> Path | None:
    """The model file of a learned bot with a model of its own (``learned:model=PATH``),
    else ``None``."""
    if not spec.startswith("learned:") or "model=" not in spec:
        return None
    return Path(spec.split("model=", 1)[1].split(":", 1)[0])


def levels_words(specs: Sequence[str], _: Translator) -> str:
    """The levels of a table's bots, each named once, in seat order: ``Greedy``,
    ``Expert, Search``."""
    names = [level_name(spec, _) for spec in specs]
    return ", ".join(dict.fromkeys(names))
