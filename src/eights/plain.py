"""``eights play --plain``: the game in plain lines on stdin and stdout.

For pipes, screen readers and scripts. Before each of a person's turns it
prints the table, the hand and the legal actions as the player's language
types them (:func:`~eights.i18n.text.action_code`: ``7h``, ``8h=s``, ``7h+7s``,
``=s``, ``draw`` in English; ``7c``, ``8c=p``, ``Vc+Vp``, ``piocher`` in French,
whose suits are t k c p and courts R D V), then reads one line. The keys of
the full screen work too: ``d`` draws, ``p`` passes (or lets a skip fall on
you, MM5), ``t`` takes the top card (LH5); a wild card typed without its suit
(``8h``, ``Ah+As``) asks for the suit. Several cards of one rank go down as one
play (SW3: ``7h+7s``, the last one on top); a wild starter's suit is named with
``=s`` (TS3); a suit may be named by its name too (``8h=hearts``, ``8h=cœur``,
or ``cœur`` when asked). Unknown or illegal input gets a one-line explanation
(a card you do not hold, a card that matches neither the suit nor the rank to
follow, a forced draw or a skip waiting, a suit named with a card that is not
wild, a word that is not a suit, an announcement that does not apply, cards
that cannot go down together, what the key means) and the question again.
``undo``, ``rules`` (or ``?``) and ``quit`` are understood too, in English and
French (:data:`WORDS`: ``annuler``, ``règles``, ``quitter``). End of input saves
and exits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TextIO

from eights.engine.actions import DRAW, PASS, TAKE, Action, Kind
from eights.engine.cards import Card, Rank, Suit
from eights.engine.errors import NotationError
from eights.engine.observation import Observation
from eights.engine.rules import CardRule, GoingOut, MultiPlay, Rules, WildIf
from eights.i18n import Translator
from eights.i18n.explain import describe, ranks_words
from eights.i18n.text import (
    action_code,
    card_code,
    card_label,
    card_words,
    rank_words,
    read_action,
    read_suit,
    round_summary,
    suit_key,
    suit_words,
    table_words,
)
from eights.session import Session, count_words

__all__ = ["KEYS", "WORDS", "card_refusal", "codes", "multi_refusal", "refusal", "run_plain",
           "suit_refusal"]

KEYS: dict[str, Action] = {"d": DRAW, "p": PASS, "t": TAKE}
"""The one-letter keys of the full screen, understood here too."""
WORDS: dict[str, str] = {
    "quit": "quit", "q": "quit", "exit": "quit", "quitter": "quit",
    "rules": "rules", "?": "rules", "help": "rules", "règles": "rules", "regles": "rules",
    "aide": "rules",
    "undo": "undo", "u": "undo", "annuler": "undo", "reprendre": "undo",
}
"""The words that are not actions, in English and French: leave (saving), the rules, undo."""


def codes(actions: Sequence[Action], _: Translator) -> str:
    """Actions as a player of this language types them (:func:`action_code`), one space
    apart: ``7h 8h=s draw``, ``7c 8c=p piocher``."""
    return " ".join(action_code(a, _) for a in actions)


def examples(rules: Rules, players: int, _: Translator) -> tuple[Card, Card | None]:
    """A card to show how one is typed (a 7 where the deck has one, and no card with a rule
    of its own), and a wild card that names a suit (``None`` where no card names one)."""
    deck = sorted(set(rules.deck(players)),
                  key=lambda c: (c.suit is not Suit.HEARTS, c.rank is not Rank.SEVEN, c))
    plain = next((c for c in deck if rules.rule_of(c) == CardRule()), deck[0])
    wild = next((c for c in deck if rules.rule_of(c).name_suit), None)
    return plain, wild


def refusal(action: Action, obs: Observation, _: Translator) -> str:
    """Why ``action`` is refused to the seat of ``obs`` (to play), in one line, saying what
    to do instead (the legal actions)."""
    legal, hand, rules = obs.legal, obs.hand, obs.rules
    actions = codes(legal, _)
    missing = Counter(action.cards) - Counter(hand)
    if missing:
        return _("You don’t hold {card}. Legal: {actions}", card=card_code(min(missing), _),
                 actions=actions)
    if action.card is not None and action.announce and action.without_announce() in legal:
        plain = action_code(action.without_announce(), _)
        if not rules.announce_last_card:
            return _("These rules have no last-card announcement: play {action} without “!”.",
                     action=plain)
        return _.plural(
            "Announce (“!”) only with your last card but one, the play that leaves you one "
            "card; you hold {n} card. Play {action} without “!”.",
            "Announce (“!”) only with your last card but one, the play that leaves you one "
            "card; you hold {n} cards. Play {action} without “!”.", len(hand), action=plain)
    if obs.naming:  # TS3, UC3
        return _("Name the suit to follow of the wild starter {card} first. Legal: {actions}",
                 card=card_label(obs.up_card, _), actions=actions)
    if len(action.cards) > 1:  # SW3
        why = multi_refusal(action, obs, _)
        if why is not None:
            return why
    if action.kind is Kind.NAME:
        return _("{action} names a suit only for a wild starter, before the first play. "
                 "Legal: {actions}", action=action_code(action, _), actions=actions)
    if action == PASS and DRAW in legal:
        return _("p (pass) is not allowed now; to draw, type d. Legal: {actions}",
                 actions=actions)
    if len(action.cards) == 1:
        why = card_refusal(action, obs, _)
        if why is not None:
            return _("{why} Legal: {actions}", why=why, actions=actions)
    return _("{action} is not allowed now. Legal: {actions}", action=action_code(action, _),
             actions=actions)


def card_refusal(action: Action, obs: Observation, _: Translator) -> str | None:
    """Why one card held cannot go down as typed, from the rules and the table (a suit
    named with a card that names none, a draw or a skip waiting, a wild card's limits, a
    card nobody may go out on, a card that matches neither suit nor rank); ``None`` when
    no single reason applies."""
    assert action.card is not None
    card, rules = action.card, obs.rules
    rule = rules.rule_of(card)
    label = card_label(card, _)
    if action.suit is not None and not rule.name_suit:  # Th=s: only the wild cards name one
        namers = frozenset(c.rank for c in rules.deck(obs.players) if rules.rule_of(c).name_suit)
        if not namers:
            return _("{card} names no suit: no card names a suit in these rules.", card=label)
        return _("{card} names no suit: it is not wild here; only {ranks} name a suit.",
                 card=label, ranks=ranks_words(namers, _))
    if any(a.cards == action.cards for a in obs.legal):  # the card goes down, written otherwise
        return _("With {card}, play: {plays}.", card=label, plays=" / ".join(
            action_code(a, _) for a in obs.legal if a.cards == action.cards))
    if obs.drawn is not None and card != obs.drawn:
        return _("After a draw only the card drawn, {card}, may be played.",
                 card=card_label(obs.drawn, _))
    if obs.pending_draw:
        return _.plural("{card} does not answer the forced draw of {n} card waiting for you.",
                        "{card} does not answer the forced draw of {n} cards waiting for you.",
                        obs.pending_draw, card=label)
    if obs.skip_due:  # MM5, PE8
        return _("A skip falls on you: only another {rank} passes it on.",
                 rank=rank_words(obs.up_card.rank, _))
    if len(obs.hand) == 1 and rule.going_out is GoingOut.NO:  # PE12
        return _("Nobody may go out on {card}: it cannot be your last card.", card=label)
    if len(obs.hand) == 1 and rule.going_out is GoingOut.SUIT and obs.suit is not None:  # LC6
        return _("You may go out on {card} only if it is of the suit to follow, {suit}.",
                 card=label, suit=obs.suit.symbol)
    if rule.wild and obs.up_card.rank in rule.not_on:  # HA6, MM6
        return _("The {ranks} may not be played on the {on}.",
                 ranks=ranks_words(frozenset({card.rank}), _),
                 on=ranks_words(frozenset({obs.up_card.rank}), _))
    if rule.wild and rule.wild_if is WildIf.NO_SUIT and obs.suit is not None:  # UC8
        return _("{card} may be played only by a player who holds no card of the suit to "
                 "follow, {suit}.", card=label, suit=obs.suit.symbol)
    if rule.wild or obs.free or obs.suit is None:
        return None
    up = card_label(obs.up_card, _)
    if obs.up_card.suit is not obs.suit:  # a wild card named the suit to follow
        return _("{card} matches neither the suit to follow, {suit} (named with {up}), nor the "
                 "rank {rank}.", card=label, suit=obs.suit.symbol, up=up,
                 rank=rank_words(obs.rank, _))
    return _("{card} matches neither the suit nor the rank of the up-card, {up}.", card=label,
             up=up)


def suit_refusal(text: str, _: Translator) -> str | None:
    """Why ``8d=z`` is not an action: ``z`` is not a suit (and which are); ``None`` when
    the text names no suit after ``=``."""
    head, equals, tail = text.partition("=")
    named = tail.strip().removesuffix("!").strip()
    if not equals or not head.strip() or not named or read_suit(named, _) is not None:
        return None
    return _("“{text}” is not a suit. Name one with {keys}, or by its name: {names}.",
             text=named, keys=" ".join("=" + suit_key(s, _) for s in Suit),
             names=", ".join(suit_words(s, _) for s in Suit))


def multi_refusal(action: Action, obs: Observation, _: Translator) -> str | None:
    """Why a play of several cards (SW3) is refused, or ``None`` when the cards could go
    down together and only the suit or the call is wrong."""
    legal, rules = obs.legal, obs.rules
    actions = codes(legal, _)
    cards = action.cards
    if rules.multi_play is MultiPlay.NONE:
        return _("These rules play one card at a time: {action} is not allowed. Legal: {actions}",
                 action=action_code(action, _), actions=actions)
    if len({c.rank for c in cards}) > 1:
        return _("The cards of one play must be of one rank: {action} is not allowed. "
                 "Legal: {actions}", action=action_code(action, _), actions=actions)
    if len({rules.rule_of(c) for c in cards}) > 1:  # BJ: black and red jacks differ
        return _("The cards of one play must have one rule: {action} mixes cards that do not. "
                 "Legal: {actions}", action=action_code(action, _), actions=actions)
    wanted = Counter(cards)
    same = [a for a in legal if len(a.cards) == len(cards) and Counter(a.cards) == wanted]
    if any(a.card == action.card for a in same):
        return None
    if same:  # a card under the top must be playable
        return _("{action}: a card under the top one must be playable now; with these cards "
                 "play {plays}", action=action_code(action, _),
                 plays=" / ".join(sorted({action_code(a.without_announce(), _) for a in same})))
    top = rules.rule_of(cards[-1])
    if cards[-1].rank in top.not_on:  # MM6: jacks never go down several at once
        return _("Cards of rank {rank} never go down together here (one may not cover "
                 "another). Legal: {actions}", rank=rank_words(cards[-1].rank, _),
                 actions=actions)
    if obs.drawn is not None:
        return _("After a draw only the card drawn may be played, alone. Legal: {actions}",
                 actions=actions)
    if obs.pending_draw:
        return _("None of these cards answers the forced draw. Legal: {actions}",
                 actions=actions)
    if obs.skip_due:
        return _("Only cards of the skip’s rank pass it on. Legal: {actions}", actions=actions)
    return _("None of the cards under the top one can be played on the up-card. "
             "Legal: {actions}", actions=actions)


def run_plain(session: Session, _: Translator, stdin: TextIO, stdout: TextIO) -> int:
    """Play until the match ends or input ends; returns the exit code (0)."""

    def say(line: str = "") -> None:
        stdout.write(line + "\n")
        stdout.flush()

    def ask(prompt: str) -> str | None:
        stdout.write(prompt)
        stdout.flush()
        line = stdin.readline()
        if not line:
            return None
        return line.strip()

    def goodbye() -> int:
        path = session.save()
        say()
        if path is not None:
            say(_("Game saved: {path}", path=path))
            command = session.resume_command()
            if command is not None and not session.game.match_over:  # a finished match:
                say(_("Resume it with: {command}", command=command))  # nothing to resume
        return 0

    def ask_suit(card: Card, suits: Sequence[Suit]) -> Suit | None:
        """The suit named with ``card`` (``None``: choose again); EOFError at end of input."""
        choices = " ".join(f"{suit_key(s, _)}={s.symbol}" for s in suits)
        while True:
            say(_("{card} names a suit: which one? ({choices}, Enter: back)",
                  card=card_label(card, _), choices=choices))
            answer = ask("> ")
            if answer is None:
                raise EOFError
            if not answer:
                return None
            suit = read_suit(answer, _)  # a key, a symbol or a name (hearts, cœur)
            if suit in suits:
                return suit
            say(_("“{text}” is not a suit you may name. Type one of: {choices}", text=answer,
                  choices=choices))

    game = session.game
    say(_("{title} — {n} players. Type an action, “rules”, “undo” or “quit”.",
          title=_(game.rules.title), n=game.n))
    plain, wild = examples(game.rules, game.n, _)
    if wild is None:
        say(_("Type a card ({card}), d to draw, p to pass.", card=card_code(plain, _)))
    else:  # the wild card of these rules, not always an 8
        say(_("Type a card ({card}), d to draw, p to pass; a wild card alone ({wild}) asks "
              "for the suit.", card=card_code(plain, _), wild=card_code(wild, _)))
    if game.rules.multi_play is not MultiPlay.NONE:  # SW3: 7h+7s, Ah+As=d
        deck = sorted(set(game.rules.deck(game.n)))
        both = action_code(Action.play_many([c for c in deck if c.rank is plain.rank][-2:]), _)
        namers = [] if wild is None else [c for c in deck if c.rank is wild.rank
                                          and game.rules.rule_of(c).name_suit][-2:]
        if len(namers) < 2:
            say(_("Several cards of one rank go down as one play, the last one on top: "
                  "{cards}.", cards=both))
        else:
            say(_("Several cards of one rank go down as one play, the last one on top: "
                  "{cards} ({named} names a suit).", cards=both,
                  named=action_code(Action.play_many(namers, Suit.DIAMONDS), _)))
    if session.path is not None:
        say(_("This game is saved as you play: {path}", path=session.path))
    if game.history:  # a resumed game: this round so far, as it was told
        story = [told.text for told in session.story(_)]
        deal = _("Round {n}: {dealer} deals.", n=game.round, dealer=session.names[game.dealer])
        start = max((k for k, text in enumerate(story) if text == deal), default=0)
        for text in story[start:]:
            say(text)
    while True:
        game = session.game
        if game.over:
            say()
            for line in round_summary(game, session.names, _):
                say(line)
            if game.match_over:
                return goodbye()
            if ask(_("Press Enter for the next round. ")) is None:
                return goodbye()
            session.next_round()
            game = session.game
            say(_("Round {n}: {dealer} deals.", n=game.round, dealer=session.names[game.dealer]))
            continue
        if session.bot_to_play:
            move = session.bot_move()
            say(session.describe(move, _))
            continue
        seat = game.to_move
        say()
        for line in table_words(game, session.names, _):
            say(line)
        obs = game.observe(seat)
        others = [f"{session.names[s]} {count_words(obs, s, _)}"
                  for s in range(game.n) if s != seat]
        say(_("Others: {list}", list=" · ".join(others)))
        hand = game.hand(seat)
        say(_("{name}, your hand: {cards}", name=session.names[seat],
              cards=" ".join(card_code(c, _) for c in hand)))
        say("   " + ", ".join(card_words(c, _) for c in hand))
        legal = game.legal_actions()
        if obs.naming:  # TS3, UC3
            say(_("The starter {card} is wild: name the suit to follow (=c =d =h =s).",
                  card=card_label(obs.up_card, _)))
        elif obs.skip_due and any(a.card is not None for a in legal):  # MM5, PE8
            say(_("A skip falls on you: pass it on with another {rank}, or p to miss your turn.",
                  rank=rank_words(obs.up_card.rank, _)))
        elif obs.skip_due:
            say(_("A skip falls on you: p to miss your turn."))
        say(_("Legal: {actions}", actions=codes(legal, _)))
        while True:
            answer = ask("> ")
            if answer is None:
                return goodbye()
            line = answer
            word = WORDS.get(line.lower())
            if word == "quit":
                return goodbye()
            if word == "rules":
                for text in describe(game.rules, _):
                    say(text)
                continue
            if word == "undo":
                if session.undo():
                    say(_("Your last move is taken back."))
                    break
                say(_("Nothing to undo."))
                continue
            if not line:
                continue
            action = KEYS.get(line.lower())
            if action is None:
                try:
                    action = read_action(line, _)
                except NotationError:
                    say(suit_refusal(line, _) or _("“{text}” is not an action. Legal: {actions}",
                                                   text=line,
                                                   actions=codes(legal, _)))
                    continue
            if action.card is not None and action.suit is None and action not in legal:
                named = [a for a in legal if a.cards == action.cards and a.suit is not None
                         and a.announce == action.announce]
                if named:  # a wild card typed without its suit: ask for it
                    try:
                        suit = ask_suit(action.card, [a.suit for a in named if a.suit is not None])
                    except EOFError:
                        return goodbye()
                    if suit is None:
                        continue
                    action = Action.play_many(action.cards, suit, action.announce)
            if action not in legal:
                say(refusal(action, obs, _))
                continue
            move = session.play(action)
            say(session.describe(move, _))
            break
