"""The fields of a rules file in words, grouped as a player thinks of them.

The browser's New table form offers every key a rules file takes (the keys the loader
checks, :func:`eights.engine.rules.load_rules`), in the groups of :data:`GROUPS`: the
table and the deal, drawing, special cards by rank (:data:`CARD_FIELDS`, the keys of a
``[cards.<rank>]`` table), announcing, scoring, and the end of the round and of the match.
Each key has a short label and one sentence saying what it does, in English (the message
ids) and French (the catalog); the choices of a key that takes words have words too.
``tests/test_house_rules.py`` checks that every field of
:class:`~eights.engine.rules.Rules` and :class:`~eights.engine.rules.CardRule` is here
exactly once, so a new field cannot be left out of the form.

>>> from eights.i18n import translator
>>> field_words("jokers", translator("fr"))
('Jokers par jeu', 'Des jokers s’ajoutent à chaque jeu de 52 cartes.')
>>> choice_words("draw", "repeat", translator("en"))
'draw and carry on'
"""

from __future__ import annotations

from eights.i18n import Translator

__all__ = ["CARD_FIELDS", "CHOICES", "FROM_PLAYERS", "GROUPS", "LINE", "NO", "YES", "choice_words",
           "field_words", "group_title"]


def _(message: str) -> str:
    """Marks a message id for the catalog extractor (translated by the functions below)."""
    return message


GROUPS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("about", _("Name"), ("title", "name", "source")),
    ("dealing", _("The table and the deal"), (
        "players", "default_players", "decks", "jokers", "ranks", "hand_size", "teams",
        "starter_redraw", "starter_effects", "starter_wild")),
    ("drawing", _("Drawing"), (
        "draw", "max_draws", "voluntary_draw", "voluntary_pass", "reshuffle",
        "replace_after_play", "hand_limit", "overflow", "forced_draw_ends_turn")),
    ("cards", _("Special cards by rank"), (
        "special_cards", "multi_play", "reverse_two", "out_penalty", "cards")),
    ("announcing", _("Announcing"), (
        "announce_last_card", "announce_penalty", "last_card_call", "call_out",
        "call_out_penalty", "out_call")),
    ("scoring", _("Scoring"), ("scoring", "blocked_scoring", "points")),
    ("ending", _("The end of the round and of the match"), (
        "target", "rounds", "play_on", "serve_last_draw", "max_plays", "extra_passes_to_block",
        "block_on_repetition", "served_draw_counts_as_pass")),
)
"""``(id, title, keys)`` of each group of the form, in order; ``cards`` stands for the
tables of :data:`CARD_FIELDS`, one per rank (or per card)."""

CARD_FIELDS: tuple[str, ...] = (
    "wild", "name_suit", "wild_if", "not_on", "takes_covered_rank", "transparent", "draw",
    "stack", "stack_with", "cancelled_by", "skip", "pass_on", "reverse", "again",
    "again_penalty", "any_follows", "must_cover", "going_out", "out_multiplier")
"""The keys of a card table (``[cards.8]``), in the order the form shows them."""

_WORDS: dict[str, tuple[str, str]] = {
    # the name
    "title": (_("Title"), _("The name of these rules, as the table and the rules in words "
                            "show it.")),
    "name": (_("Short name"), _("A short name for these rules (a file’s name without "
                                "“.toml”).")),
    "source": (_("Source"), _("Where these rules come from: a book, a web page, a house.")),
    # the table and the deal
    "players": (_("Players"), _("The fewest and the most players these rules take.")),
    "default_players": (_("Players by default"), _("Players when nobody says how many.")),
    "decks": (_("Decks"), _("Decks of 52 cards shuffled together; more players can need "
                            "more decks.")),
    "jokers": (_("Jokers per deck"), _("Jokers are added to each deck of 52 cards.")),
    "ranks": (_("Ranks in the deck"), _("A short pack keeps only some ranks (7 to ace: 32 "
                                        "cards).")),
    "hand_size": (_("Cards dealt"), _("Cards dealt to each player; it may depend on the "
                                      "number of players.")),
    "teams": (_("Partners at"), _("At these numbers of players, partners sit opposite and "
                                  "score together.")),
    "starter_redraw": (_("Starter turned again"), _("A starter of these ranks goes back into "
                                                    "the stock and another card is turned.")),
    "starter_effects": (_("Starter’s effect applies"), _("The first card turned draws, skips "
                                                         "or reverses as if the dealer had "
                                                         "played it.")),
    "starter_wild": (_("Wild starter"), _("What a wild card turned as the starter means.")),
    # drawing
    "draw": (_("When you draw"), _("What a player who draws does, when no forced draw is waiting.")),
    "max_draws": (_("Draws a turn"), _("With “draw and carry on”: the most cards drawn in a "
                                       "turn (0: no limit).")),
    "voluntary_draw": (_("Draw at will"), _("A player may draw even when they could play.")),
    "voluntary_pass": (_("Pass at will"), _("With nothing left to draw, a player may pass "
                                            "even when they could play.")),
    "reshuffle": (_("Reshuffle"), _("An empty stock is made again from the discard pile but "
                                    "its top card.")),
    "replace_after_play": (_("Take after playing"), _("After playing, a player may take the "
                                                      "top card of the stock.")),
    "hand_limit": (_("Hand limit"), _("The most cards a hand may hold (0: no limit).")),
    "overflow": (_("Overflow goes back"), _("Cards of a forced draw past the limit go back "
                                            "to the player who played the card.")),
    "forced_draw_ends_turn": (_("A forced draw ends the turn"), _("Taking a forced draw in "
                                                                  "full loses the turn.")),
    # special cards
    "special_cards": (_("Card effects"), _("Off: no card draws, skips, reverses or plays "
                                           "again; wild cards stay wild.")),
    "multi_play": (_("Several cards a play"), _("Whether several cards of one rank may go "
                                                "down in one play.")),
    "reverse_two": (_("Reverse with two players"), _("What a reverse does while two players "
                                                     "hold cards.")),
    "out_penalty": (_("Last-card penalty"), _("Cards drawn by a player whose last card may "
                                              "not end the hand (“penalty”).")),
    "cards": (_("Cards"), _("What each rank does beyond matching by suit or rank.")),
    "wild": (_("Wild"), _("Playable on any up-card when no forced draw is waiting.")),
    "name_suit": (_("Asks for a suit"), _("The player asks for the suit to follow.")),
    "wild_if": (_("Wild only"), _("When this wild card may be played.")),
    "not_on": (_("Not on"), _("Up-card ranks this wild card may not cover.")),
    "takes_covered_rank": (_("Takes the rank beneath"), _("The card takes the rank of the "
                                                          "card it covers.")),
    "transparent": (_("Transparent"), _("The card to match stays the one beneath.")),
    "draw_card": (_("Next player draws"), _("Cards the next player must draw (0: none).")),
    "stack": (_("Stacks"), _("A forced draw can be answered with the same rank, adding its "
                             "draw.")),
    "stack_with": (_("Stacks with"), _("Cards (or ranks) that may answer this card’s forced "
                                       "draw, adding their own: 2, Jc, Js.")),
    "cancelled_by": (_("Cancelled by"), _("Cards (or ranks) that may answer this card’s "
                                          "forced draw and cancel it: 8, Jd, Jh.")),
    "skip": (_("Skips"), _("The next player loses their turn.")),
    "pass_on": (_("Skip passed on"), _("The skipped player may pass the skip on with a card "
                                       "of this rank.")),
    "reverse": (_("Reverses"), _("The direction of play reverses.")),
    "again": (_("Play again"), _("The player must play again.")),
    "again_penalty": (_("Play-again penalty"), _("Cards drawn by a player who must play "
                                                 "again and cannot.")),
    "any_follows": (_("Anything follows"), _("Any card may be played on it.")),
    "must_cover": (_("Must be covered"), _("The next player draws until they can cover it, "
                                           "and must.")),
    "going_out": (_("May end a hand"), _("Whether this card may be the last card of a hand.")),
    "out_multiplier": (_("Going-out multiplier"), _("Going out on this card multiplies the "
                                                    "round’s points.")),
    # announcing
    "announce_last_card": (_("Announce the last card"), _("A play that leaves one card must "
                                                          "announce it.")),
    "announce_penalty": (_("Announcement penalty"), _("Cards drawn when the announcement is "
                                                      "forgotten.")),
    "last_card_call": (_("Last-card call"), _("What the announcement is called (Mau, Uno, "
                                              "Last card).")),
    "call_out": (_("Call going out"), _("The play that empties a hand must carry the call.")),
    "call_out_penalty": (_("Going-out call penalty"), _("Cards drawn when the call on going "
                                                        "out is forgotten.")),
    "out_call": (_("Going-out call"), _("What the call on going out is called (Mau-Mau, "
                                        "Sepp).")),
    # scoring
    "scoring": (_("Scoring"), _("How a round is scored, and which total wins the match.")),
    "blocked_scoring": (_("Blocked round"), _("How a round nobody can play on is scored.")),
    "points": (_("Points"), _("What each rank counts, left in a hand.")),
    # the end
    "target": (_("Target"), _("The match ends when a score reaches this (0: none).")),
    "rounds": (_("Rounds"), _("The match ends after this many rounds (0: no limit).")),
    "play_on": (_("Play on"), _("A player who goes out leaves the round; the others play on "
                                "until one holds cards.")),
    "serve_last_draw": (_("Last forced draw served"), _("A forced draw played as the last card "
                                                        "is still served.")),
    "max_plays": (_("Most plays a round"), _("The round ends after this many cards played "
                                             "(0: no limit).")),
    "extra_passes_to_block": (_("Extra passes to block"), _("Passes beyond one a player, with "
                                                            "nothing to draw, before the round "
                                                            "is blocked.")),
    "block_on_repetition": (_("Block on repetition"), _("The round is blocked when a position "
                                                        "comes back a third time.")),
    "served_draw_counts_as_pass": (_("Forced draw counts as a pass"), _(
        "A forced draw that empties the stock counts as a pass toward a blocked round.")),
}
"""Each key's ``(label, sentence)``; a card's ``draw`` is ``draw_card`` (the table-wide
``draw`` is the drawing policy)."""

CHOICES: dict[str, dict[str, str]] = {
    "starter_wild": {"plain": _("plain: match it"), "any": _("any card may follow"),
                     "dealer-names": _("the dealer asks for a suit"),
                     "first-names": _("the first player asks for a suit")},
    "draw": {"one-end": _("draw one, the turn ends"),
             "one-may-play": _("draw one, you may play it"),
             "one-must-play": _("draw one, you must play it if you can"),
             "until-playable": _("draw until you can play"),
             "repeat": _("draw and carry on")},
    "multi_play": {"none": _("one card a play"), "same-rank": _("several of one rank")},
    "reverse_two": {"none": _("nothing"), "skip": _("it skips")},
    "wild_if": {"always": _("always"), "no-suit": _("without the suit to follow")},
    "going_out": {"yes": _("yes"), "suit": _("only of the suit to follow"), "no": _("never"),
                  "penalty": _("yes, with a penalty")},
    "scoring": {"own-hand": _("own hand, lowest total wins"),
                "winner-collects": _("the winner collects, highest total wins"),
                "rounds-won": _("rounds won"), "placings": _("placings, lowest total wins")},
    "blocked_scoring": {"own-hand": _("everyone scores their hand"),
                        "collect": _("the lowest hand collects"),
                        "difference": _("the lowest hand scores the difference")},
}
"""The words of each choice of a key that takes words (its values are the rules file's)."""


YES = _("yes")
NO = _("no")
"""A true or false value, in words."""
LINE = _("{label}: {value}")
"""One key and its value, in words."""
FROM_PLAYERS = _("{value} from {n} players")
"""One step of a value by player count (``hand_size = [[2, 7], [5, 5]]``)."""


def field_words(key: str, tr: Translator, *, card: bool = False) -> tuple[str, str]:
    """The label and the sentence of ``key`` (``card``: a key of a card table) in ``tr``'s
    language."""
    label, about = _WORDS["draw_card" if card and key == "draw" else key]
    return tr(label), tr(about)


def choice_words(key: str, value: str, tr: Translator) -> str:
    """The words of one choice of ``key`` (the value itself when it has none)."""
    words = CHOICES.get(key, {}).get(value)
    return tr(words) if words else value


def group_title(group: str, tr: Translator) -> str:
    """The title of a group of :data:`GROUPS`."""
    for name, title, _keys in GROUPS:
        if name == group:
            return tr(title)
    raise KeyError(group)
