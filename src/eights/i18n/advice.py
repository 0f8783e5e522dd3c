r"""The review in words: marks, chances, and a mistake told as a player would tell it.

>>> from eights.engine.actions import Action
>>> from eights.i18n import translator
>>> played, best = Action.parse("5c"), Action.parse("8c=h")
>>> print(mistake_words(played, best, 0.19, 0.31, translator("en")))  # doctest: +NORMALIZE_WHITESPACE
you kept the eight of clubs and played the five of clubs; the eight of clubs naming ♥ wins 31% of
the time, against 19%
>>> print(mistake_words(Action.parse("qh"), Action.parse("qh!"), 0.21, 0.58, translator("en")))
... # doctest: +NORMALIZE_WHITESPACE
you played the queen of hearts without announcing; the queen of hearts with the announcement wins
58% of the time, against 21%
"""

from __future__ import annotations

from eights.engine.actions import Action, Kind
from eights.engine.cards import Card, Rank
from eights.i18n import Translator
from eights.i18n.text import action_words, card_words

__all__ = ["MARK_STYLES", "mark_words", "mistake_words", "percent", "play_words", "the_card"]

MARK_STYLES: dict[str, str] = {"best": "bold green", "good": "green", "inaccuracy": "yellow",
                               "mistake": "#ff8700", "blunder": "bold red"}
"""The colour of each mark in the terminal: styles that Rich (``eights review``) and Textual
(the review screen) both read (Rich's ``dark_orange`` is no colour to Textual: the orange
is written in hex)."""


def mark_words(mark: str, _: Translator) -> str:
    """A mark as players read it: ``best``, ``good``, ``inaccuracy``, ``mistake``,
    ``blunder`` (``meilleur coup``, ``bon coup``, ``imprécision``, ``erreur``, ``gaffe``)."""
    names = {"best": _("best move"), "good": _("good move"), "inaccuracy": _("inaccuracy"),
             "mistake": _("mistake"), "blunder": _("blunder")}
    return names[mark]


def percent(x: float, _: Translator, digits: int = 0) -> str:
    """A chance as a percentage: ``31%``, ``2.5%`` (``31 %``, ``2,5 %`` in French)."""
    number = f"{100 * x:.{digits}f}"
    if _.lang == "fr":
        number = number.replace(".", ",")
    return _("{n}%", n=number)


def play_words(action: Action, _: Translator) -> str:
    """An action as an object in a sentence: ``the eight of clubs, naming ♥``, ``draw``."""
    if action.kind is not Kind.PLAY or action.card is None:
        return action_words(action, _)
    names = [card_words(c, _) for c in action.cards]
    text = the_card(action.cards[0], _) + (
        "" if len(names) == 1 else _(" and {cards}", cards=", ".join(names[1:])))
    if action.suit is not None:
        text = _("{card} naming {suit}", card=text, suit=action.suit.symbol)
    if action.announce:  # the last card (HA13) or the going-out call (MM9)
        text = _("{play} with the announcement", play=text)
    return text


def the_card(card: Card, _: Translator) -> str:
    """A card in words with its article: ``the queen of hearts``, ``la dame de cœur``,
    ``l’as de pique``, ``le huit de trèfle``."""
    words = card_words(card, _)
    if _.lang != "fr":
        return f"the {words}"
    if card.rank is Rank.QUEEN:
        return f"la {words}"
    if card.rank is Rank.ACE:
        return f"l’{words}"
    return f"le {words}"


def mistake_words(played: Action, best: Action, played_win: float, best_win: float,
                  _: Translator) -> str:
    """What the player did and what was better, with both chances of winning the round."""
    chances = _("{best} wins {b} of the time, against {p}", best=play_words(best, _),
                b=percent(best_win, _), p=percent(played_win, _))
    if played.kind is Kind.PLAY and best.kind is Kind.PLAY and played.card is not None \
            and best.card is not None:
        if played.cards == best.cards and played.suit == best.suit \
                and played.announce != best.announce:  # HA13, MM9: the call forgotten
            said = (_("you played {card} without announcing", card=the_card(played.card, _))
                    if best.announce else
                    _("you played {card} and announced", card=the_card(played.card, _)))
            return _("{said}; {chances}", said=said, chances=chances)
        if played.cards == best.cards and played.suit != best.suit and best.suit is not None:
            said = (_("you named {suit} with {card}", suit=played.suit.symbol,
                      card=the_card(played.card, _)) if played.suit is not None
                    else _("you played {card}", card=the_card(played.card, _)))
            return _("{said}; naming {suit} wins {b} of the time, against {p}", said=said,
                     suit=best.suit.symbol, b=percent(best_win, _), p=percent(played_win, _))
        if best.card not in played.cards:
            said = _("you kept {kept} and played {card}", kept=the_card(best.card, _),
                     card=the_card(played.card, _))
            return _("{said}; {chances}", said=said, chances=chances)
    if played.kind is Kind.DRAW and best.kind is Kind.PLAY and best.card is not None:
        said = _("you drew instead of playing {card}", card=the_card(best.card, _))
        return _("{said}; {chances}", said=said, chances=chances)
    said = _("you chose {action}", action=play_words(played, _))
    return _("{said}; {chances}", said=said, chances=chances)


def summary_words(accuracy: float, mean_loss: float, counts: dict[str, int],
                  _: Translator) -> str:
    """A seat's review in one line: accuracy, mean loss and how many of each mark.

    >>> from eights.i18n import translator
    >>> summary_words(0.8, 0.0213, {"best": 3, "good": 1, "inaccuracy": 1, "mistake": 0,
    ...                              "blunder": 0}, translator("en"))
    'accuracy 80%, mean loss 2.1% of the chance to win a decision; 3 best moves, 1 good move, 1 inaccuracy'
    """
    shown = {"best": _.plural("{n} best move", "{n} best moves", counts.get("best", 0)),
             "good": _.plural("{n} good move", "{n} good moves", counts.get("good", 0)),
             "inaccuracy": _.plural("{n} inaccuracy", "{n} inaccuracies",
                                    counts.get("inaccuracy", 0)),
             "mistake": _.plural("{n} mistake", "{n} mistakes", counts.get("mistake", 0)),
             "blunder": _.plural("{n} blunder", "{n} blunders", counts.get("blunder", 0))}
    marks = ", ".join(text for mark, text in shown.items() if counts.get(mark, 0))
    line = _("accuracy {accuracy}, mean loss {loss} of the chance to win a decision",
             accuracy=percent(accuracy, _), loss=percent(mean_loss, _, 1))
    return _("{line}; {marks}", line=line, marks=marks) if marks else line


def decision_words(round_no: int, turn: int, played: Action, best: Action, mark: str,
                   played_win: float, best_win: float, _: Translator) -> str:
    """One reviewed decision in a line: where, what was played, its mark, and the best
    action when another was better.

    >>> from eights.i18n import translator
    >>> decision_words(1, 4, Action.parse("5c"), Action.parse("8c=h"), "mistake", 0.19, 0.31,
    ...                translator("en"))
    'round 1, turn 4: 5♣ (19%), mistake; better: 8♣, naming ♥ (31%)'
    """
    line = _("round {round}, turn {turn}: {played} ({p}), {mark}", round=round_no, turn=turn,
             played=action_words(played, _), p=percent(played_win, _),
             mark=mark_words(mark, _))
    if mark == "best" or played == best:
        return line
    return _("{line}; better: {best} ({b})", line=line, best=action_words(best, _),
             b=percent(best_win, _))
