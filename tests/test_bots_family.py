"""Bots on the family presets (docs/rules.md, "The family: eight more presets"): every bot
is legal at the new mechanisms' awkward moments, the expert uses them sensibly (each test
names the rule it exercises), and the worlds the search samples have the real game's
legal actions."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from eights import Action, Game, load_rules
from eights.bots import ExpertBot, GreedyBot, make_bot
from eights.bots.ismcts import round_rewards
from eights.bots.worlds import hand_bands, sample_world
from eights.engine.actions import NAMES, PASS
from eights.engine.rules import GoingOut
from stacked import stacked

FAMILY = ("crazy-eights", "mau-mau", "switch", "black-jack", "last-card", "pesten",
          "tschau-sepp", "uno-cards")
"""The eight presets of the family."""

TABLES: list[tuple[str, tuple[str, ...]]] = [
    *((name, ()) for name in FAMILY),
    ("mau-mau", ("cards.8.pass_on=true",)),  # MM5's toggle: a skip passed on with an 8
    ("pesten", ("cards.8.pass_on=true",)),  # PE8's toggle
]
"""Presets, and toggles of their Decisions that bring in more mechanisms."""


def _last_card_rule(game: Game, check: Callable[..., bool]) -> bool:
    hand = game.hands[game.to_move]
    return len(hand) == 1 and check(game.rules.rule_of(hand[0]))


AWKWARD: dict[str, Callable[[Game], bool]] = {
    "multi-card play (SW3)": lambda g: any(len(a.cards) > 1 for a in g.legal_actions()),
    "multi-card play on a pending stack (SW5, BJ3)": lambda g: g.pending > 0 and any(
        len(a.cards) > 1 for a in g.legal_actions()),
    "a cancel on a pending pick-up (BJ4)": lambda g: g.pending > 0 and any(
        a.card is not None and not g.rules.rule_of(a.card).draw for a in g.legal_actions()),
    "must play again (MM7, BJ7, PE7)": lambda g: g.again,
    "a cover card as the last card (MM7, BJ7, TS9)": lambda g: _last_card_rule(
        g, lambda r: r.again or r.must_cover) and any(a.card for a in g.legal_actions()),
    "the up-card must be covered (TS9)": lambda g: g.tables.must_cover[g.discard[-1]]
    and not g.pending,
    "the going-out call (MM9, TS10)": lambda g: len(g.hands[g.to_move]) == 1 and any(
        a.announce for a in g.legal_actions()),
    "a last card that may not end the hand (PE12)": lambda g: _last_card_rule(
        g, lambda r: r.going_out is GoingOut.NO),
    "naming a wild starter's suit (TS3, UC3)": lambda g: g.naming,
    "a skip to pass on (MM5, PE8 toggles)": lambda g: g.skip_due > 0,
    "a forced draw taken, the turn goes on (PE5)": lambda g: g.served,
    "seats out, play goes on (TS11)": lambda g: bool(g.finished),
}


@pytest.mark.parametrize("bot", ["random", "greedy", "expert", "ismcts:iterations=12"])
def test_every_bot_is_legal_at_the_family_moments(bot: str) -> None:
    found = dict.fromkeys(AWKWARD, 0)
    player = make_bot(bot)
    rng = random.Random(5)
    cap = 3 if bot.startswith("ismcts") else 12
    for name, overrides in TABLES:
        rules = load_rules(name, list(overrides))
        for n in (2, 3, 4):
            for seed in range(8):
                game = Game(rules, n, seed=seed)
                while not game.over:
                    assert game.to_move not in game.finished  # TS11: a seat out is never asked
                    legal = game.legal_actions()
                    moments = [m for m, test in AWKWARD.items() if test(game)]
                    if moments and any(found[m] < cap for m in moments):
                        choice = player.choose(game.observe(game.to_move), legal, rng)
                        assert choice in legal, (name, n, seed, moments, choice, legal)
                        for m in moments:
                            found[m] += 1
                    game.apply(rng.choice(legal))
    assert all(found.values()), found  # every kind of moment was met


@pytest.mark.parametrize("bot", ["greedy", "expert"])
@pytest.mark.parametrize(("name", "overrides"), TABLES)
def test_every_bot_finishes_rounds_of_the_family_against_itself(
        bot: str, name: str, overrides: tuple[str, ...]) -> None:
    rules = load_rules(name, list(overrides))
    player = make_bot(bot)
    for n in (2, 4):
        for seed in range(3):
            game = Game(rules, n, seed=seed)
            rng = random.Random(seed)
            while not game.over:
                assert game.to_move not in game.finished
                legal = game.legal_actions()
                choice = player.choose(game.observe(game.to_move), legal, rng)
                assert choice in legal
                game.apply(choice)
            assert game.round_winners


# Sensible play ---------------------------------------------------------------------------


def _choose(bot: object, game: Game) -> str:
    assert isinstance(bot, ExpertBot | GreedyBot)
    return str(bot.choose(game.observe(game.to_move), game.legal_actions(), random.Random(0)))


BOTH = [ExpertBot(), GreedyBot()]


@pytest.mark.parametrize("bot", BOTH, ids=["expert", "greedy"])
def test_sw3_several_cards_of_a_rank_go_down_at_once(bot: ExpertBot | GreedyBot) -> None:
    # switch, 2 players: seat 1 holds three 7s and the starter is a 7
    g = stacked("switch", ["3c 4c 6d 9d Qd Kd 5s", "7c 7h 7s 3d 4h 9s Tc"], "7d")
    choice = Action.parse(_choose(bot, g))
    assert len(choice.cards) == 3 and {str(c) for c in choice.cards} == {"7c", "7h", "7s"}


@pytest.mark.parametrize("bot", BOTH, ids=["expert", "greedy"])
def test_sw5_every_two_is_added_to_a_pending_pick_up(bot: ExpertBot | GreedyBot) -> None:
    g = stacked("switch", ["2h 2s 3c 3d 4h 9s Tc", "2c 4c 6d 9d Qd Kd 5s"], "5c")
    g.apply("2c")  # seat 0 faces 2 and holds two 2s
    assert g.pending == 2
    assert _choose(bot, g) in ("2h+2s", "2s+2h")


def test_bj3_the_expert_passes_a_pick_up_on_with_a_black_jack_rather_than_cancel() -> None:
    g = stacked("black-jack", ["Js Jh 3c 3d 4h 9s Tc", "2c 4c 6d 9d Qd Kd 5s"], "5c")
    g.apply("2c")
    assert sorted(str(a) for a in g.legal_actions() if a.card) == ["Jh", "Js"]
    assert _choose(ExpertBot(), g) == "Js"


def test_bj4_the_expert_keeps_its_red_jack_for_a_pick_up() -> None:
    g = stacked("black-jack", ["2h 4c 6d 9d Qd Kd 5s", "Jh 5h 9c Kc 6c 3d Tc"], "3h")
    assert _choose(GreedyBot(), g) == "Jh"  # greedy sheds the costliest card
    assert _choose(ExpertBot(), g) == "5h"  # the expert keeps it...
    g.apply("5h")
    g.apply("2h")
    assert g.pending == 2
    assert _choose(ExpertBot(), g) == "Jh"  # ...and cancels the pick-up with it


def test_bj7_the_expert_lays_a_queen_it_can_cover_and_covers_it() -> None:
    g = stacked("black-jack", ["3c 4c 6d 9d Qd Kd 5s", "Qh 4h 9c Kc 6c 7c 3d"], "3h")
    assert _choose(ExpertBot(), g) == "Qh"  # two cards gone this turn
    g.apply("Qh")
    assert g.again and [str(a) for a in g.legal_actions()] == ["4h"]
    assert _choose(ExpertBot(), g) == "4h"


def test_bj7_the_expert_does_not_lay_a_queen_it_cannot_cover() -> None:
    # on the 3c: the Qc is playable, but then a club, a queen or an ace must cover it
    g = stacked("black-jack", ["3s 4s 6d 9d Td Kd 5s", "Qc 3h 6h 9h 4d 7d Kh"], "3c")
    assert "Qc" in [str(a) for a in g.legal_actions()]
    assert _choose(ExpertBot(), g) != "Qc"


def test_pe12_the_expert_does_not_keep_a_card_it_may_not_finish_on() -> None:
    # pesten, 3 players: 8h (a skip, PE8) and 5h on the 3h; keeping the 8 would leave a
    # last card that may not end the hand, so a draw next turn instead of going out
    g = stacked("pesten", ["3c 4c", "8h 5h", "3d 4d"], "3h", overrides=["hand_size=2"])
    assert g.to_move == 1 and sorted(str(a) for a in g.legal_actions()) == ["5h", "5h!", "8h",
                                                                            "8h!"]
    assert _choose(ExpertBot(), g) == "8h!"
    g.apply("5h!")  # kept, the 8 is no way out
    while g.to_move != 1:
        g.apply("draw" if "draw" in [str(a) for a in g.legal_actions()] else "pass")
    assert g.to_move == 1 and all(a.card is None for a in g.legal_actions())


def test_ts3_uc3_a_wild_starter_names_the_suit_held_most() -> None:
    # tschau-sepp: the dealer (seat 0) names the suit of a starter jack
    g = stacked("tschau-sepp", ["6s 7s 9s Kh 9d", "6c 7c 8d 9h Kc"], "Jd")
    assert g.naming and g.to_move == 0
    assert [str(a) for a in g.legal_actions()] == [str(a) for a in NAMES]
    for bot in BOTH:
        assert _choose(bot, g) == "=s"
    # uno-cards: the first player (seat 1) names the suit of a starter joker
    g = stacked("uno-cards", ["3c 4c 6d 9d Qd Kd 5s", "3h 4h 6h 9c Th 2s 5d"], "X")
    assert g.naming and g.to_move == 1
    for bot in BOTH:
        assert _choose(bot, g) == "=h"


@pytest.mark.parametrize("bot", BOTH, ids=["expert", "greedy"])
def test_mm9_ts10_the_going_out_call_is_always_made(bot: ExpertBot | GreedyBot) -> None:
    g = stacked("mau-mau", ["7c", "Kh"], "9h", overrides=["hand_size=1"])
    assert sorted(str(a) for a in g.legal_actions()) == ["Kh", "Kh!", "draw"]
    assert _choose(bot, g) == "Kh!"
    # tschau-sepp, 3 players (TS11): a jack going out names a suit for the players left
    g = stacked("tschau-sepp", ["6c", "Jh", "7d"], "9h", overrides=["hand_size=1"])
    choice = Action.parse(_choose(bot, g))
    assert choice.announce and choice.card is not None and str(choice.card) == "Jh"
    assert choice.suit is not None


@pytest.mark.parametrize("bot", BOTH, ids=["expert", "greedy"])
def test_mm5_a_skip_is_passed_on_when_it_can_be(bot: ExpertBot | GreedyBot) -> None:
    # mau-mau with MM5's toggle (cards.8.pass_on = true)
    g = stacked("mau-mau", ["8h 7c 9d Td Qd", "8c 7h 9s Ts Qs"], "9c",
                overrides=["cards.8.pass_on=true"])
    g.apply("8c")
    assert g.to_move == 0 and g.skip_due == 1
    assert sorted(str(a) for a in g.legal_actions()) == ["8h", "pass"]
    assert _choose(bot, g) == "8h"


def test_ts11_a_seat_out_is_never_asked_and_the_bots_play_on() -> None:
    game = Game("tschau-sepp", 4, seed=3)
    bot = ExpertBot()
    rng = random.Random(3)
    outs = 0
    while not game.over:
        assert game.to_move not in game.finished
        seen = game.observe(game.to_move)
        assert seen.finished == tuple(game.finished)
        game.apply(bot.choose(seen, game.legal_actions(), rng))
        outs = max(outs, len(game.finished))
    assert outs >= 1


# Worlds ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "overrides"), TABLES)
def test_worlds_of_the_family_have_the_real_legal_actions(
        name: str, overrides: tuple[str, ...]) -> None:
    rules = load_rules(name, list(overrides))
    checked = 0
    special: set[str] = set()
    for n in (2, 3, 4):
        for seed in range(4):
            game = Game(rules, n, seed=seed)
            rng = random.Random(seed)
            for _ in range(80):  # random players take long to finish some rounds
                if game.over:
                    break
                seat = game.to_move
                seen = game.observe(seat)
                world = Game.from_observation(seen, game.hands, game.stock, random.Random(0))
                assert world.to_json() == game.to_json()
                assert world.legal_actions() == game.legal_actions()
                for k in range(2):
                    sampled = sample_world(seen, random.Random(k), hand_bands(seen))
                    assert sampled.legal_actions() == game.legal_actions(), (name, n, seed)
                    assert sampled.observe(seat) == seen
                checked += 1
                for label, on in (("pending", game.pending), ("again", game.again),
                                  ("skip_due", game.skip_due), ("naming", game.naming),
                                  ("served", game.served), ("finished", game.finished),
                                  ("drawn", game.drawn is not None), ("draws", game.draws)):
                    if on:
                        special.add(label)
                game.apply(rng.choice(game.legal_actions()))
    assert checked > 100
    t = Game(rules, 2, seed=0).tables
    expected = {label for label, on in (
        ("pending", any(t.draw)), ("again", any(t.again)), ("skip_due", any(t.pass_on)),
        ("served", not rules.forced_draw_ends_turn), ("finished", rules.play_on)) if on}
    assert expected <= special  # the preset's special moments were among those checked


def test_a_world_plays_on_like_the_game_after_a_named_starter_and_a_skip_passed_on() -> None:
    # TS3: the dealer names, then the first player moves, in the world as in the game
    g = stacked("tschau-sepp", ["6s 7s 9s Kh 9d", "6c 7c 8d 9h Kc"], "Jd")
    world = sample_world(g.observe(0), random.Random(1))
    for game in (g, world):
        game.apply("=c")
    assert world.to_move == g.to_move == 1 and world.suit == g.suit and not world.naming
    # UC3: the first player names, then plays on in the same turn
    g = stacked("uno-cards", ["3c 4c 6d 9d Qd Kd 5s", "3h 4h 6h 9c Th 2s 5d"], "X")
    world = sample_world(g.observe(1), random.Random(3))
    assert world.legal_actions() == g.legal_actions() == list(NAMES)
    for game in (g, world):
        game.apply("=h")
    assert world.to_move == g.to_move == 1 and not world.naming
    assert world.legal_actions() == g.legal_actions()
    # MM5's toggle: a skip waiting to be passed on is rebuilt, and accepted alike
    g = stacked("mau-mau", ["8h 7c 9d Td Qd", "8c 7h 9s Ts Qs"], "9c",
                overrides=["cards.8.pass_on=true"])
    g.apply("8c")
    world = sample_world(g.observe(0), random.Random(2))
    assert world.skip_due == g.skip_due == 1
    for game in (g, world):
        game.apply("8h")
    assert world.to_move == g.to_move == 1 and world.skip_due == g.skip_due == 1
    assert world.legal_actions() == g.legal_actions() == [PASS]
    for game in (g, world):
        game.apply("pass")
    assert world.to_move == g.to_move == 0  # the skip fell on seat 1


def test_ts12_search_rewards_a_better_placing_more() -> None:
    # placings are penalty points (0 for the first out): the search's reward falls with them
    game = Game("tschau-sepp", 4, seed=2)
    bot, rng = GreedyBot(), random.Random(2)
    while not game.over:
        game.apply(bot.choose(game.observe(game.to_move), game.legal_actions(), rng))
    points = game.round_points
    assert points is not None and sorted(points) == [0, 1, 2, 3]
    rewards = round_rewards(game, 3.0, 0.25)
    order = sorted(range(4), key=lambda s: points[s])
    assert [rewards[s] for s in order] == sorted(rewards, reverse=True)
    assert rewards[order[0]] == 1.0 > rewards[order[1]] > rewards[order[3]]
