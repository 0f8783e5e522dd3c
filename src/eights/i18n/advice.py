r"""The review and the hints in words: marks, chances, lines of options, a mistake told as
a player would tell it. The one place the terminal, ``eights review`` and the browser take
their words from: a front-end only draws them.

It reads a review through what it needs of it (:class:`Valued`, :class:`Ranked`,
:class:`Reviewed`: the shapes of :mod:`eights.lab.review`'s values, lines and decisions),
so the words stay below the review in the layers.

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

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

from eights.engine.actions import Action, Kind
from eights.engine.cards import Card, Rank
from eights.engine.observation import Observation
from eights.i18n import Translator
from eights.i18n.text import action_words, card_label, card_words, ordinal

__all__ = [
    "MARK_STYLES",
    "HintLine",
    "Ranked",
    "Reviewed",
    "SeatReviewed",
    "Valued",
    "decision_json",
    "decision_mistake",
    "decision_words",
    "hint_json",
    "hint_lines",
    "hint_words",
    "line_words",
    "mark_words",
    "meaning_words",
    "mistake_words",
    "move_words",
    "option_lines",
    "options_words",
    "percent",
    "play_words",
    "review_json",
    "summary_words",
    "the_card",
]


class Valued(Protocol):
    """One action's value (:class:`eights.lab.review.ActionValue`)."""

    @property
    def action(self) -> Action: ...
    @property
    def win(self) -> float: ...
    @property
    def low(self) -> float: ...
    @property
    def high(self) -> float: ...
    @property
    def points(self) -> float | None: ...


class Ranked(Protocol):
    """A line of options (:class:`eights.lab.review.Line`): actions nothing tells apart,
    the best valued first, and the line's rank (tied lines share one)."""

    @property
    def values(self) -> Sequence[Valued]: ...
    @property
    def rank(self) -> int: ...


class Reviewed(Protocol):
    """A reviewed decision (:class:`eights.lab.review.Decision`)."""

    @property
    def round(self) -> int: ...
    @property
    def move(self) -> int: ...
    @property
    def mark(self) -> str: ...
    @property
    def played(self) -> Valued: ...
    @property
    def best(self) -> Valued: ...
    @property
    def loss(self) -> float: ...
    @property
    def observation(self) -> Observation: ...
    @property
    def lines(self) -> Sequence[Ranked]: ...
    def to_json(self) -> dict[str, Any]: ...


class SeatReviewed(Protocol):
    """A seat's reviewed decisions (:class:`eights.lab.review.SeatReview`)."""

    @property
    def decisions(self) -> Sequence[Reviewed]: ...
    @property
    def accuracy(self) -> float: ...
    @property
    def mean_loss(self) -> float: ...
    def counts(self) -> dict[str, int]: ...
    def worst(self, k: int = 3) -> Sequence[Reviewed]: ...


MARK_STYLES: dict[str, str] = {"best": "bold green", "equal": "green", "good": "#87af5f",
                               "inaccuracy": "yellow", "mistake": "#ff8700",
                               "blunder": "bold red"}
"""The colour of each mark in the terminal: styles that Rich (``eights review``) and Textual
(the review screen) both read (Rich's ``dark_orange`` is no colour to Textual: the orange
is written in hex)."""


def mark_words(mark: str, _: Translator) -> str:
    """A mark as players read it: ``best move``, ``as good as the best``, ``good move``,
    ``inaccuracy``, ``mistake``, ``blunder`` (``meilleur coup``, ``aussi bon que le
    meilleur``, ``bon coup``, ``imprécision``, ``erreur``, ``gaffe``)."""
    names = {"best": _("best move"), "equal": _("as good as the best"),
             "good": _("good move"), "inaccuracy": _("inaccuracy"), "mistake": _("mistake"),
             "blunder": _("blunder")}
    return names[mark]


def meaning_words(_: Translator) -> str:
    """What a review's or a hint's percentage is, said once beside them."""
    return _("A percentage is the chance to win the round after that move, if every player "
             "then plays as the Expert bot would.")


def move_words(move: int, round_no: int, _: Translator) -> str:
    """Where a decision was, as the person counts: ``your 5th move, round 2`` (their own
    moves in the round, from 1).

    >>> from eights.i18n import translator
    >>> move_words(5, 2, translator("en")), move_words(1, 1, translator("fr"))
    ('your 5th move, round 2', 'votre 1er coup, manche 1')
    """
    return _("your {nth} move, round {round}", nth=ordinal(move, _), round=round_no)


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


def line_words(actions: Sequence[Action], _: Translator) -> str:
    """A line of actions that nothing tells apart, in one phrase: ``8♦ or 8♥, naming ♥``
    (one action: :func:`~eights.i18n.text.action_words`).

    >>> from eights.i18n import translator
    >>> line_words([Action.parse("8d=h"), Action.parse("8h=h")], translator("en"))
    '8♦ or 8♥, naming ♥'
    """
    first = actions[0]
    if len(actions) == 1 or first.suit is None:
        return action_words(first, _)
    cards = _(" or ").join(card_label(a.cards[0], _) for a in actions)
    text = _("{card}, naming {suit}", card=cards, suit=first.suit.symbol)
    if first.announce:
        text = _("{play} and announce the last card", play=text)
    return text


class HintLine(NamedTuple):
    """A line of a hint as plain values (what a worker process sends back): its actions in
    the record's notation, their chance of winning the round, and the line's rank."""

    actions: tuple[str, ...]
    win: float
    rank: int


def hint_lines(lines: Sequence[Ranked]) -> list[HintLine]:
    """The lines of a decision's options (:class:`eights.lab.review.Line`) as plain values."""
    return [HintLine(tuple(str(v.action) for v in line.values), line.values[0].win, line.rank)
            for line in lines]


def options_words(lines: Sequence[HintLine], _: Translator) -> str:
    """Every line with its chance, the best first; lines as good as each other (the same
    rank) joined by ``=``, the others by ``·``: ``6♠ 17% = 7♠ 16% · draw 12%``."""
    text = ""
    for k, line in enumerate(lines):
        shown = f"{line_words([Action.parse(a) for a in line.actions], _)} {percent(line.win, _)}"
        if k:
            text += " = " if line.rank == lines[k - 1].rank else " · "
        text += shown
    return text


def hint_words(lines: Sequence[HintLine], _: Translator) -> str:
    """A hint in one line: what the numbers are, then every option, ties shown as ties.

    >>> from eights.i18n import translator
    >>> lines = [HintLine(("6s",), 0.17, 1), HintLine(("7s",), 0.16, 1),
    ...          HintLine(("draw",), 0.12, 3)]
    >>> print(hint_words(lines, translator("en")))  # doctest: +NORMALIZE_WHITESPACE
    Hint, your chance to win the round after each move (= as good as each other): 6♠ 17% = 7♠
    16% · draw 12%
    """
    tied = any(k and line.rank == lines[k - 1].rank for k, line in enumerate(lines))
    options = options_words(lines, _)
    if tied:
        return _("Hint, your chance to win the round after each move (= as good as each "
                 "other): {options}", options=options)
    return _("Hint, your chance to win the round after each move: {options}", options=options)


def hint_json(lines: Sequence[HintLine], _: Translator) -> dict[str, Any]:
    """A hint for a page (the browser's practice hint): the whole line (``text``, as the
    terminal shows it), what a percentage is (``meaning``), the best action (``best``),
    every legal action with its chance, its words, its line and rank (``options``), and
    every line (``lines``: its actions, their words, the chance, the rank; ties share one).

    >>> from eights.i18n import translator
    >>> hint = hint_json([HintLine(("8d=h", "8h=h"), 0.31, 1), HintLine(("draw",), 0.1, 2)],
    ...                  translator("en"))
    >>> hint["best"], hint["lines"][0]
    ('8d=h', {'actions': ['8d=h', '8h=h'], 'text': '8♦ or 8♥, naming ♥', 'win': 0.31, 'rank': 1})
    >>> [o["action"] for o in hint["options"]], hint["options"][1]["line"]
    (['8d=h', '8h=h', 'draw'], 0)
    """
    return {"text": hint_words(lines, _), "meaning": meaning_words(_),
            "best": lines[0].actions[0] if lines else None,
            "options": [{"action": a, "win": round(line.win, 4),
                         "text": action_words(Action.parse(a), _),
                         "percent": percent(line.win, _), "line": k, "rank": line.rank}
                        for k, line in enumerate(lines) for a in line.actions],
            "lines": [{"actions": list(line.actions),
                       "text": line_words([Action.parse(a) for a in line.actions], _),
                       "win": round(line.win, 4), "rank": line.rank} for line in lines]}


def summary_words(accuracy: float, mean_loss: float, counts: dict[str, int],
                  _: Translator) -> str:
    """A seat's review in a few words: how many moves were reviewed and their marks, the
    accuracy and what it counts, and the chance given up a move on average.

    >>> from eights.i18n import translator
    >>> print(summary_words(0.8, 0.0213, {"best": 3, "equal": 0, "good": 1, "inaccuracy": 1,
    ...                                   "mistake": 0, "blunder": 0}, translator("en")))
    ... # doctest: +NORMALIZE_WHITESPACE
    5 moves reviewed: 3 best moves, 1 good move, 1 inaccuracy. Accuracy 80% (moves marked best,
    as good as the best or good); a move gave up 2.1 points of winning chance on average.
    """
    shown = {"best": _.plural("{n} best move", "{n} best moves", counts.get("best", 0)),
             "equal": _.plural("{n} as good as the best", "{n} as good as the best",
                               counts.get("equal", 0)),
             "good": _.plural("{n} good move", "{n} good moves", counts.get("good", 0)),
             "inaccuracy": _.plural("{n} inaccuracy", "{n} inaccuracies",
                                    counts.get("inaccuracy", 0)),
             "mistake": _.plural("{n} mistake", "{n} mistakes", counts.get("mistake", 0)),
             "blunder": _.plural("{n} blunder", "{n} blunders", counts.get("blunder", 0))}
    total = sum(counts.values())
    marks = ", ".join(text for mark, text in shown.items() if counts.get(mark, 0))
    points = round(100 * mean_loss, 1)
    shown_points = _.plural("{x} point", "{x} points", 1 if _.lang == "fr" and points < 2 else 2,
                            x=f"{points:.1f}".replace(".", "," if _.lang == "fr" else "."))
    share = percent(accuracy, _)
    return _.plural("{n} move reviewed: {marks}. Accuracy {accuracy} (moves marked best, as "
                    "good as the best or good); a move gave up {points} of winning chance on "
                    "average.",
                    "{n} moves reviewed: {marks}. Accuracy {accuracy} (moves marked best, as "
                    "good as the best or good); a move gave up {points} of winning chance on "
                    "average.", total, marks=marks, accuracy=share, points=shown_points)


def decision_words(d: Reviewed, _: Translator) -> str:
    """One reviewed decision in a line: which of the person's moves, what was played with
    its chance, its mark, and the better move when there was one.

    ``your 5th move, round 1: 5♣ (19%), mistake; better: 8♣, naming ♥ (31%)``
    """
    lines = d.lines
    played_line = _line_of(lines, d.played.action)
    line = _("{where}: {played} ({p}), {mark}", where=move_words(d.move, d.round, _),
             played=action_words(d.played.action, _), p=percent(d.played.win, _),
             mark=mark_words(d.mark, _))
    if d.mark == "best":
        return line
    best = lines[0]
    best_text = line_words([v.action for v in best.values], _)
    if d.mark == "equal" or (played_line is not None and played_line.rank == 1):
        return _("{line}: {best} ({b})", line=line, best=best_text, b=percent(best.values[0].win, _))
    return _("{line}; better: {best} ({b})", line=line, best=best_text,
             b=percent(best.values[0].win, _))


def _line_of(lines: Sequence[Ranked], action: Action) -> Ranked | None:
    for line in lines:
        if any(v.action == action for v in line.values):
            return line
    return None


def decision_mistake(d: Reviewed, _: Translator) -> str:
    """The mistake of a decision in a sentence (:func:`mistake_words`), against the best
    line's action that plays the same card where there is one, so that a wrong suit named
    is told as such (``you named ♠ with the eight of diamonds; naming ♥ wins…``)."""
    best = d.best
    for value in d.lines[0].values:
        if d.played.action.cards and value.action.cards == d.played.action.cards:
            best = value
            break
    return mistake_words(d.played.action, best.action, d.played.win, best.win, _)


def option_lines(d: Reviewed, _: Translator) -> list[tuple[str, str]]:
    """Every line of a decision's options, best first, as ``(text, kind)``: the rank (tied
    lines share it), the actions, the chance of winning with its interval, the expected
    points where the rules score, and what the line is (the best, as good as the best,
    played); ``kind`` is ``played``, ``best`` or ``""`` (for a front-end's colours)."""
    out: list[tuple[str, str]] = []
    for k, line in enumerate(d.lines):
        value = line.values[0]
        actions = [v.action for v in line.values]
        text = _("{rank}. {action}: wins {win} ({low}–{high})", rank=line.rank,
                 action=line_words(actions, _), win=percent(value.win, _),
                 low=percent(value.low, _), high=percent(value.high, _))
        if value.points is not None:
            points = f"{value.points:+.1f}"
            text += " · " + _("points {points}", points=points.replace(".", ",")
                              if _.lang == "fr" else points)
        tags = []
        played = d.played.action in actions
        if played:
            tags.append(_("played"))
        if k == 0:
            tags.append(_("best"))
        elif line.rank == 1:
            tags.append(_("as good as the best"))
        if tags:
            text += "  ← " + ", ".join(tags)
        out.append((text, "played" if played else "best" if k == 0 else ""))
    return out


def review_json(review: SeatReviewed, _: Translator) -> dict[str, Any]:
    """A seat's review for a page (the browser's **Review my play**): its accuracy, mean
    loss, marks counted and summed up in words (``summary``), what a percentage is
    (``meaning``), every decision's values (``to_json``) with its words
    (:func:`decision_json`; each action's ``text``), and the largest mistakes in words
    (``worst``)."""
    decisions = []
    for d in review.decisions:
        data = d.to_json()
        for a in data["actions"]:
            a["text"] = action_words(Action.parse(a["action"]), _)
        decisions.append(data | decision_json(d, _) | {
            "win": round(d.played.win, 4), "best_win": round(d.best.win, 4)})
    return {"accuracy": round(review.accuracy, 4), "mean_loss": round(review.mean_loss, 4),
            "summary": summary_words(review.accuracy, review.mean_loss, review.counts(), _),
            "meaning": meaning_words(_), "counts": review.counts(), "decisions": decisions,
            "worst": [_("{where}: {words}", where=move_words(d.move, d.round, _),
                        words=decision_mistake(d, _)) for d in review.worst()]}


def decision_json(d: Reviewed, _: Translator) -> dict[str, Any]:
    """A reviewed decision's words for a page: where it was (``where``), its mark, the
    played and the best action, the sentence about it, its mistake in words (``None`` for
    a fine move), and every line of options (``lines``: text, rank, the actions in it,
    whether played)."""
    lines = d.lines
    return {
        "where": move_words(d.move, d.round, _), "mark_text": mark_words(d.mark, _),
        "played_text": action_words(d.played.action, _),
        "best_text": line_words([v.action for v in lines[0].values], _),
        "text": decision_words(d, _),
        "mistake": None if d.mark in ("best", "equal", "good") else decision_mistake(d, _),
        "lines": [{"text": text, "kind": kind, "rank": line.rank,
                   "actions": [str(v.action) for v in line.values]}
                  for (text, kind), line in zip(option_lines(d, _), lines, strict=True)],
    }
