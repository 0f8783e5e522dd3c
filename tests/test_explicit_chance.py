"""A closed script of cards: the engine asks for every card that leaves the stock.

``Game(..., closed=True)`` and :meth:`Game.extend_deck` make the caller the chance
player: a card needed beyond the script raises :class:`ScriptEnded` with the stock it
would come from, and the action is played again on a fresh copy with the card added
(the OpenSpiel game, ``eights.openspiel``, is built on this).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from eights import Action, Card, Game, RecordError, ScriptEnded, load_rules

PRESETS = ["classic", "huit-americain", "huit-fou", "black-jack", "pesten", "switch"]


def deal_closed(rules: str, players: int, rng: random.Random) -> tuple[Game, int]:
    """The deal and starter of a closed game, each card chosen from the stock offered."""
    cards: list[Card] = []
    asked = 0
    while True:
        try:
            return Game(rules, players, deck=cards, closed=True), asked
        except ScriptEnded as chance:
            asked += 1
            cards.append(rng.choice(chance.stock))


def act_closed(game: Game, action: Action, rng: random.Random) -> tuple[Game, int]:
    """``action`` played on copies of ``game`` until the script holds every card it needs."""
    cards: list[Card] = []
    while True:
        copy = game.clone()
        copy.extend_deck(cards)
        try:
            copy.apply(action)
            return copy, len(cards)
        except ScriptEnded as chance:
            assert Counter(chance.stock) == Counter(copy.stock)
            cards.append(rng.choice(chance.stock))


@pytest.mark.parametrize("name", PRESETS)
def test_a_closed_game_asks_for_every_card_and_plays_as_the_same_script(name: str) -> None:
    rng = random.Random(name)
    game, asked = deal_closed(name, 3, rng)
    assert asked == game.dealt  # every card of the deal and the starter(s) was asked for
    while not game.over:
        game, _ = act_closed(game, rng.choice(game.legal_actions()), rng)
    log = game.round_log()
    again = Game(name, 3, deck=log.deck)  # the same cards, scripted: the same round
    for action in log.actions:
        again.apply(action)
    assert again.hands == game.hands and again.discard == game.discard
    assert again.round_points == game.round_points


def test_the_stock_offered_at_the_deal_is_the_deck_less_the_cards_dealt() -> None:
    rules = load_rules("huit-americain")
    with pytest.raises(ScriptEnded) as start:
        Game(rules, 4, closed=True)
    assert Counter(start.value.stock) == Counter(rules.deck(4))
    dealt = rules.deck(4)[:20]
    with pytest.raises(ScriptEnded) as later:
        Game(rules, 4, deck=dealt, closed=True)
    assert Counter(later.value.stock) == Counter(rules.deck(4)) - Counter(dealt)


def test_a_copy_stays_closed_and_reseed_or_an_open_script_draws_at_random() -> None:
    game, _ = deal_closed("classic", 2, random.Random(1))
    with pytest.raises(ScriptEnded):
        game.clone().apply("draw")
    with pytest.raises(ScriptEnded):
        game.clone(random.Random(2)).apply("draw")
    reseeded = game.clone()
    reseeded.reseed(5)
    reseeded.apply("draw")
    opened = game.clone()
    opened.extend_deck([], closed=False)
    opened.apply("draw")
    assert opened.dealt > game.dealt and reseeded.dealt > game.dealt


def test_a_card_not_in_the_stock_is_a_record_error_naming_it() -> None:
    game, _ = deal_closed("classic", 2, random.Random(3))
    up = game.up_card  # on the discard pile, not in the stock
    game.extend_deck([up])
    with pytest.raises(RecordError, match="not in the stock"):
        game.apply("draw")


def test_an_open_game_never_raises() -> None:
    game = Game("classic", 2, seed=4)
    rng = random.Random(4)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.round_points is not None
