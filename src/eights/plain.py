"""``eights play --plain``: the game in plain lines on stdin and stdout.

For pipes, screen readers and scripts. Before each of a person's turns it
prints the table, the hand and the legal actions in canonical notation
(``7h``, ``8h=s``, ``draw``…), then reads one line. Unknown or illegal input
gets a one-line explanation and the question again. ``undo``, ``rules``
(or ``?``) and ``quit`` are understood too. End of input saves and exits.
"""

from __future__ import annotations

from typing import TextIO

from eights.engine.actions import Action
from eights.engine.errors import NotationError
from eights.i18n import Translator
from eights.i18n.explain import describe
from eights.i18n.text import card_words, hand_count_words, round_summary, table_words
from eights.session import Session

__all__ = ["run_plain"]


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

    game = session.game
    say(_("{title} — {n} players. Type an action, “rules”, “undo” or “quit”.",
          title=game.rules.title, n=game.n))
    if session.path is not None:
        say(_("This game is saved as you play: {path}", path=session.path))
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
            try:
                action = Action.parse(line)
            except NotationError:
                say(_("“{text}” is not an action. Legal: {actions}", text=line,
                      actions=" ".join(str(a) for a in legal)))
                continue
            if action not in legal:
                say(_("{action} is not allowed now. Legal: {actions}", action=str(action),
                      actions=" ".join(str(a) for a in legal)))
                continue
            move = session.play(action)
            say(session.describe(move, _))
            break
