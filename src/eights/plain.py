"""``eights play --plain``: the game in plain lines on stdin and stdout.

For pipes, screen readers and scripts. Before each of a person's turns it
prints the table, the hand and the legal actions in canonical notation
(``7h``, ``8h=s``, ``draw``…), then reads one line. The keys of the full
screen work too: ``d`` draws, ``p`` passes, ``t`` takes the top card (LH5);
a wild card typed without its suit (``8h``) asks for the suit. Unknown or
illegal input gets a one-line explanation (a card you do not hold, an
announcement that does not apply, what the key means) and the question
again. ``undo``, ``rules`` (or ``?``) and ``quit`` are understood too. End of
input saves and exits.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from eights.engine.actions import DRAW, PASS, TAKE, Action
from eights.engine.cards import Card, Suit
from eights.engine.errors import NotationError
from eights.engine.rules import Rules
from eights.i18n import Translator
from eights.i18n.explain import describe
from eights.i18n.text import (
    card_label,
    card_words,
    hand_count_words,
    read_action,
    round_summary,
    suit_key,
    suit_keys,
    table_words,
)
from eights.session import Session

__all__ = ["KEYS", "refusal", "run_plain"]

KEYS: dict[str, Action] = {"d": DRAW, "p": PASS, "t": TAKE}
"""The one-letter keys of the full screen, understood here too."""


def refusal(action: Action, hand: Sequence[Card], legal: Sequence[Action], rules: Rules,
            _: Translator) -> str:
    """Why ``action`` is refused, in one line, saying what to do instead."""
    actions = " ".join(str(a) for a in legal)
    card = action.card
    if card is not None and card not in hand:
        return _("You don’t hold {card}. Legal: {actions}", card=str(card), actions=actions)
    if card is not None and action.announce and action.without_announce() in legal:
        plain = str(action.without_announce())
        if not rules.announce_last_card:
            return _("These rules have no last-card announcement: play {action} without “!”.",
                     action=plain)
        return _.plural(
            "Announce (“!”) only with your last card but one, the play that leaves you one "
            "card; you hold {n} card. Play {action} without “!”.",
            "Announce (“!”) only with your last card but one, the play that leaves you one "
            "card; you hold {n} cards. Play {action} without “!”.", len(hand), action=plain)
    if action == PASS and DRAW in legal:
        return _("p (pass) is not allowed now; to draw, type d. Legal: {actions}",
                 actions=actions)
    return _("{action} is not allowed now. Legal: {actions}", action=str(action),
             actions=actions)


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
            say(_("Resume it with: eights play --resume {path}", path=path))
        return 0

    def ask_suit(card: Card, suits: Sequence[Suit]) -> Suit | None:
        """The suit named with ``card`` (``None``: choose again); EOFError at end of input."""
        keys = suit_keys(_)
        choices = " ".join(f"{suit_key(s, _)}={s.symbol}" for s in suits)
        while True:
            say(_("{card} names a suit: which one? ({choices}, Enter: back)",
                  card=card_label(card, _), choices=choices))
            answer = ask("> ")
            if answer is None:
                raise EOFError
            if not answer:
                return None
            suit = keys.get(answer.strip().lower())
            if suit is None:
                try:
                    suit = Suit.parse(answer)
                except NotationError:
                    suit = None
            if suit in suits:
                return suit
            say(_("“{text}” is not a suit you may name. Type one of: {choices}", text=answer,
                  choices=choices))

    game = session.game
    say(_("{title} — {n} players. Type an action, “rules”, “undo” or “quit”.",
          title=game.rules.title, n=game.n))
    say(_("Type a card (7h), d to draw, p to pass; a wild card alone (8h) asks for the suit."))
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
        others = [f"{session.names[s]} {hand_count_words(len(game.hands[s]), _)}"
                  for s in range(game.n) if s != seat]
        say(_("Others: {list}", list=" · ".join(others)))
        hand = game.hand(seat)
        say(_("{name}, your hand: {cards}", name=session.names[seat],
              cards=" ".join(str(c) for c in hand)))
        say("   " + ", ".join(card_words(c, _) for c in hand))
        legal = game.legal_actions()
        say(_("Legal: {actions}", actions=" ".join(str(a) for a in legal)))
        while True:
            answer = ask("> ")
            if answer is None:
                return goodbye()
            line = answer
            word = line.lower()
            if word in ("quit", "q", "exit"):
                return goodbye()
            if word in ("rules", "?", "help"):
                for text in describe(game.rules, _):
                    say(text)
                continue
            if word in ("undo", "u"):
                if session.undo():
                    say(_("Your last move is taken back."))
                    break
                say(_("Nothing to undo."))
                continue
            if not line:
                continue
            action = KEYS.get(word)
            if action is None:
                try:
                    action = read_action(line, _)
                except NotationError:
                    say(_("“{text}” is not an action. Legal: {actions}", text=line,
                          actions=" ".join(str(a) for a in legal)))
                    continue
            if action.card is not None and action.suit is None and action not in legal:
                named = [a for a in legal if a.card == action.card and a.suit is not None
                         and a.announce == action.announce]
                if named:  # a wild card typed without its suit: ask for it
                    try:
                        suit = ask_suit(action.card, [a.suit for a in named if a.suit is not None])
                    except EOFError:
                        return goodbye()
                    if suit is None:
                        continue
                    action = Action.play(action.card, suit, action.announce)
            if action not in legal:
                say(refusal(action, hand, legal, game.rules, _))
                continue
            move = session.play(action)
            say(session.describe(move, _))
            break
