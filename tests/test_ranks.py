"""The deck's ranks (``ranks``): 32- and 36-card packs, checked against the rest of a
rules file, and used everywhere a deck is made (the game, the bots' worlds, the
tournament's deals, records)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from eights import Game, Rank, Rules, RulesError, load_rules, make_deck
from eights.bots import make_bot
from eights.bots.worlds import sample_world, unseen_cards
from eights.engine.record import load_record, record_of, replay
from eights.i18n import translator
from eights.i18n.explain import describe
from eights.lab.tournament import make_deal

PIQUET = ["7", "8", "9", "T", "J", "Q", "K", "A"]
"""The 32-card pack (Mau-Mau, MM1)."""
JASS = ["6", *PIQUET]
"""The 36-card pack (Tschau Sepp, TS1)."""


def short(base: str, ranks: list[str], *more: str) -> Rules:
    return load_rules(base, [f"ranks={ranks!r}".replace("'", '"'), *more])


def in_play(game: Game) -> Counter[int]:
    return Counter([*game.stock, *game.discard, *(c for h in game.hands for c in h)])


def test_the_default_deck_is_all_thirteen_ranks_in_card_order() -> None:
    """Seeds keep dealing the same cards: the default deck is the 52 cards as before."""
    rules = Rules()
    assert rules.ranks == frozenset(r for r in Rank if r is not Rank.JOKER)
    assert rules.deck(2) == make_deck() and len(load_rules("classic").deck(7)) == 104
    assert load_rules("huit-americain", ["jokers=2"]).deck(6) == make_deck(2, jokers=2)


@pytest.mark.parametrize(("ranks", "size"), [(PIQUET, 32), (JASS, 36)])
def test_a_short_pack_holds_its_ranks_in_four_suits(ranks: list[str], size: int) -> None:
    rules = short("classic", ranks)
    deck = rules.deck(2)
    assert len(deck) == size and len(set(deck)) == size
    assert {c.rank.letter for c in deck} == set(ranks)
    assert Counter(c.suit for c in deck) == Counter({s: size // 4 for s in {c.suit for c in deck}})
    assert len(rules.deck(7)) == 2 * size  # classic: a second deck above 6 players


@pytest.mark.parametrize(("base", "ranks"), [
    ("classic", PIQUET), ("classic", JASS), ("crazy-eights", PIQUET), ("crazy-eights", JASS),
    ("les-huit", PIQUET), ("les-huit", JASS),
])
def test_random_rounds_on_a_short_pack_conserve_its_cards(base: str, ranks: list[str]) -> None:
    rules = short(base, ranks)
    rng = random.Random(7)
    for n in range(rules.players[0], min(rules.players[1], 6) + 1):
        deck = Counter(rules.deck(n))
        if not sum(deck.values()) > rules.hand_size_for(n) * n:
            continue  # refused, as test_the_hand_size_check_counts_the_short_pack shows
        for seed in range(4):
            game = Game(rules, n, seed=seed)
            assert in_play(game) == deck
            steps = 0
            while not game.over:
                game.apply(rng.choice(game.legal_actions()))
                assert in_play(game) == deck
                steps += 1
                assert steps < 20_000


def test_a_record_of_a_short_pack_replays() -> None:
    rules = short("crazy-eights", PIQUET)
    game = Game(rules, 3, seed=11)
    rng = random.Random(11)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    again = replay(load_record(record_of(game).to_json()))
    assert again.rules.ranks == rules.ranks
    assert again.to_json() == game.to_json()


def test_the_bots_and_the_tournament_use_the_rules_deck() -> None:
    rules = short("crazy-eights", JASS)
    deal = make_deal(rules, 2, seed=5, index=0)
    assert sorted(deal.deck) == sorted(rules.deck(2))
    game = Game(rules, 2, seed=deal.seed, deck=deal.deck)
    seen = game.observe(game.to_move)
    unseen = unseen_cards(seen)
    assert len(unseen) == 36 - len(seen.hand) - len(seen.discard)
    assert all(c.rank.letter in JASS for c in unseen)
    world = sample_world(seen, random.Random(1))
    assert in_play(world) == Counter(rules.deck(2))
    rng = random.Random(2)
    for spec in ("random", "greedy", "expert", "ismcts:iterations=16"):
        bot = make_bot(spec)
        game = Game(rules, 2, seed=3)
        while not game.over:
            legal = game.legal_actions()
            choice = bot.choose(game.observe(game.to_move), legal, rng)
            assert choice in legal, spec
            game.apply(choice)


# --------------------------------------------------------------------------- checks


@pytest.mark.parametrize(("base", "more", "key"), [
    ("classic", ["cards.2.skip=true"], "cards.2"),
    ("classic", ["points.2=5"], "points.2"),
    ("classic", ['starter_redraw=["8", "3"]'], "starter_redraw"),
    ("classic", ["cards.A.draw=2", 'cards.A.cancelled_by=["2"]'], "cards.A.cancelled_by"),
    ("classic", ['cards.8.not_on=["5"]'], "cards.8.not_on"),
    ("huit-americain", [], "points.2"),  # its 2s score 25: a 32-card pack has none
    ("huit-fou", [], "cards.2"),  # points = 1 names no rank; its 2s draw two
])
def test_a_key_naming_a_rank_outside_the_deck_is_an_error(base: str, more: list[str],
                                                          key: str) -> None:
    with pytest.raises(RulesError) as info:
        short(base, PIQUET, *more)
    message = str(info.value)
    assert f"{key!r}" in message and "not in the deck" in message, message
    assert "7 8 9 T J Q K" in message and "ranks" in message


def test_ranks_in_the_deck_and_jokers_are_fine() -> None:
    rules = short("classic", JASS, "jokers=1", "cards.X.wild=true", 'starter_redraw=["8", "X"]',
                  "points.X=20", "points.6=6", "cards.A.draw=2", 'cards.A.cancelled_by=["6"]',
                  'cards.8.not_on=["6"]')
    assert rules.jokers == 1 and len(rules.deck(2)) == 37
    assert rules.to_table()["points"] == {"A": 10, "6": 6, "7": 7, "8": 50, "9": 9, "T": 10,
                                          "J": 10, "Q": 10, "K": 10, "X": 20}
    assert load_rules(rules.to_table()) == rules


def test_points_for_every_card_name_no_rank() -> None:
    """``points = 1`` gives every card of the deck one point, whatever its ranks."""
    rules = short("classic", PIQUET, "points=1")
    assert {rules.points[c.rank] for c in rules.deck(2)} == {1}
    assert load_rules(rules.to_table()) == rules


@pytest.mark.parametrize("value", ["[]", '["X", "7"]', '["7", "7", "8"]', '"7"', '["Z"]', "[7, 8.5]"])
def test_bad_ranks_values(value: str) -> None:
    with pytest.raises(RulesError) as info:
        load_rules("classic", [f"ranks={value}"])
    message = str(info.value)
    assert "'ranks'" in message and "allowed" in message, message


def test_starter_redraw_must_leave_a_starter() -> None:
    with pytest.raises(RulesError, match=r"'starter_redraw'.*leaves some card"):
        load_rules("classic", ['ranks=["8", "9"]', 'starter_redraw=["8", "9"]'])


def test_the_hand_size_check_counts_the_short_pack() -> None:
    """Hands and the starter must fit: 4 × 7 + 1 ≤ 32, but 5 × 7 = 35 cards do not."""
    rules = short("classic", PIQUET, "hand_size=7")
    assert Game(rules, 4, seed=0).stock.__len__() == 32 - 28 - 1
    with pytest.raises(RulesError) as info:
        Game(rules, 5, seed=0)
    message = str(info.value)
    assert "5 players with 7 cards each need more than 32 cards" in message
    assert "(ranks)" in message and "(decks)" in message and "(hand_size)" in message
    jass = short("classic", JASS, "hand_size=7", "players=[2, 6]")
    Game(jass, 5, seed=0)  # 35 cards dealt, one starter: 36
    with pytest.raises(RulesError, match="need more than 36 cards"):
        Game(jass, 6, seed=0)


def test_ranks_round_trip_and_read_in_words() -> None:
    rules = short("classic", PIQUET)
    table = rules.to_table()
    assert table["ranks"] == ["A", "7", "8", "9", "T", "J", "Q", "K"]
    assert load_rules(table) == rules
    en = "\n".join(describe(rules, translator("en")))
    fr = "\n".join(describe(rules, translator("fr")))
    assert "Decks of 32 cards (7, 8, 9, 10, jack, queen, king, ace)" in en
    assert "Jeux de 32 cartes (7, 8, 9, 10, valet, dame, roi, as)" in fr
    assert "2 2" not in en  # the points name only the cards of the deck
