"""The integer codes at the RL boundary (eights.codes): every action code round-trips, a rule
set uses a prefix of them, the observation has the documented layout, and round rewards
are signed and centred as the module says."""

from __future__ import annotations

import random

import pytest

from eights import Action, Card, Game, RulesError, load_rules, preset_names
from eights.codes import (
    A_DRAW,
    A_MULTI,
    A_NAME,
    A_PASS,
    A_TAKE,
    N_ACTIONS,
    N_ONE_DECK,
    N_SINGLE,
    O_COUNTS,
    O_DISCARD,
    O_DRAWN,
    O_FLAGS,
    O_HAND,
    O_PENDING_RANK,
    O_RANK,
    O_SEATS,
    O_SUIT,
    O_TOP,
    OBSERVATION_BLOCKS,
    REWARDS,
    UNDER,
    action_code,
    action_count,
    code_action,
    observation,
    observation_size,
    round_rewards,
)
from stacked import cards, play, stacked


def code(text: str) -> int:
    return action_code(Action.parse(text))


def test_every_code_round_trips() -> None:
    for c in range(N_ACTIONS):
        assert action_code(code_action(c)) == c


@pytest.mark.parametrize(("text", "expected"), [
    ("Ac", 8),                       # card 0, no suit named (4), no call: 0 * 10 + 4 * 2
    ("2c", 4 * 10 + 8),              # card 4 (rank 1, clubs)
    ("8h=s", 30 * 10 + 3 * 2),       # 8h is card 7 * 4 + 2 = 30, naming spades
    ("8h=s!", 30 * 10 + 3 * 2 + 1),
    ("5c!", 16 * 10 + 8 + 1),
    ("X", 52 * 10 + 8),
    ("draw", 530), ("take", 531), ("pass", 532), ("=c", 533), ("=s", 536),
    ("7c+7h", 537 + (1 - 1) * 530 + 26 * 10 + 8),    # 7c under: UNDER[1] = one club
    ("7s+7h", 537 + (8 - 1) * 530 + 26 * 10 + 8),    # 7s under: bit 3, UNDER[8]
    ("7c+7d+7s+7h", 537 + (11 - 1) * 530 + 26 * 10 + 8),
    ("X+X", 537 + 52 * 10 + 8),                         # one joker under a joker: u = 1
])
def test_codes_of_known_actions(text: str, expected: int) -> None:
    assert code(text) == expected
    assert str(code_action(expected)) == str(Action.parse(text))


def test_the_constants_and_the_under_sets() -> None:
    assert (A_DRAW, A_TAKE, A_PASS, A_NAME, A_MULTI) == (530, 531, 532, 533, 537)
    assert N_SINGLE == 537 and N_ONE_DECK == 537 + 15 * 530 and N_ACTIONS == 537 + 80 * 530
    assert UNDER[0] == (0, 0, 0, 0) and len(UNDER) == 81 == len(set(UNDER))
    assert UNDER[1:16] == tuple(tuple((u >> s) & 1 for s in range(4)) for u in range(1, 16))
    assert all(max(v) == 2 for v in UNDER[16:]) and all(max(v) <= 2 for v in UNDER)
    # the cards under the top card come back in card order whatever order they were given
    assert code("7s+7c+7h") == code("7c+7s+7h")


def test_a_rule_set_uses_a_prefix_of_the_codes() -> None:
    assert action_count(load_rules("classic"), 4) == N_SINGLE
    assert action_count(load_rules("switch"), 4) == N_ONE_DECK
    assert action_count(load_rules("switch", ["decks=2"]), 4) == N_ACTIONS
    assert action_count(load_rules("switch", ["jokers=2", "cards.X.wild=true"]), 4) == N_ONE_DECK
    # more than 16 jokers: a joker may lie on more than 15 others, codes past the first deck's
    assert action_count(load_rules("switch", ["jokers=17", "cards.X.wild=true"]), 4) == N_ACTIONS


@pytest.mark.parametrize("preset", preset_names())
def test_every_legal_action_of_random_rounds_has_a_code_in_the_prefix(preset: str) -> None:
    rules = load_rules(preset)
    rng = random.Random(preset)
    for players in sorted({rules.players[0], rules.default_players}):
        limit = action_count(rules, players)
        for seed in range(3):
            game = Game(rules, players, seed=seed)
            while not game.over:
                for a in game.legal:
                    c = action_code(a)
                    assert 0 <= c < limit and code_action(c) is a
                game.push(rng.choice(game.legal))


def test_a_multi_play_with_two_decks_in_the_prefix() -> None:
    rules = load_rules("switch", ["decks=2", "hand_size=9"])
    rng = random.Random(5)
    seen = 0
    for seed in range(20):
        game = Game(rules, 2, seed=seed)
        while not game.over:
            for a in game.legal:
                assert action_code(a) < N_ACTIONS and code_action(action_code(a)) is a
                seen += len(a.under) >= 2 and len(set(a.under)) < len(a.under)
            game.push(rng.choice(game.legal))
    assert seen  # plays with both copies of a card under the top card were met


def test_errors_name_what_is_allowed() -> None:
    with pytest.raises(ValueError, match=f"action code -1 is out of range: 0 to {N_ACTIONS - 1}"):
        code_action(-1)
    with pytest.raises(ValueError, match="out of range"):
        code_action(N_ACTIONS)
    with pytest.raises(RulesError, match="three copies of one card"):
        action_code(Action.play_many(cards("7c 7c 7c 7h")))
    with pytest.raises(RulesError, match=r"more jokers .* \(80\)"):
        action_code(Action.play_many([Card.parse("X")] * 82))
    with pytest.raises(RulesError, match="lower decks"):
        action_count(load_rules("switch", ["decks=3"]), 4)
    with pytest.raises(RulesError, match="lower jokers"):
        action_count(load_rules("switch", ["jokers=90", "cards.X.wild=true"]), 4)


def test_the_blocks_are_where_the_docstring_says() -> None:
    assert [size for _, size in OBSERVATION_BLOCKS] == [53, 53, 53, 53, 5, 14, 14, 7, 9]
    assert (O_HAND, O_TOP, O_DISCARD, O_DRAWN, O_SUIT, O_RANK, O_PENDING_RANK, O_COUNTS,
            O_FLAGS, O_SEATS) == (0, 53, 106, 159, 212, 217, 231, 245, 252, 261)
    assert observation_size(3) == 276


def ace_attack() -> Game:
    """huit-americain, three players: seat 1 opens with Ah (HA7: a forced draw of 2)."""
    game = stacked("huit-americain", ["7h 8s Kd 3c 4c", "Ah Qd 9s 4d 5c", "As 6d 6s Tc 3d"],
                   "9h", overrides=["hand_size=5"])
    play(game, "Ah")
    return game


def expected(nonzero: dict[int, int], players: int) -> list[int]:
    out = [0] * (261 + 5 * players)
    for at, value in nonzero.items():
        out[at] = value
    return out


def test_the_observation_of_the_seat_to_play() -> None:
    game = ace_attack()
    assert game.to_play == 2
    hand = {int(c): 1 for c in cards("As 6d 6s Tc 3d")}
    assert observation(game.observe(2)) == expected({
        **hand,                                  # the hand
        53 + 2: 1,                               # up-card Ah (card 2)
        106 + 34: 1, 106 + 2: 1,                 # discard: 9h (card 34), Ah
        212 + 2: 1,                              # suit to follow: hearts
        217 + 0: 1,                              # rank to match: ace
        231 + 0: 1,                              # a forced draw behind an ace
        245: 2, 246: 52 - 15 - 1, 249: 1,        # pending 2, stock 36, one card played
        252 + 7: 1,                              # the observer is to play
        261: 5, 262: 5, 263: 4,                  # hand sizes: seats 2, 0, 1
        261 + 6: 1,                              # to play: the observer (relative 0)
        261 + 9 + 1: 1,                          # dealer: seat 0, one after the observer
        261 + 12 + 2: 1,                         # attacker: seat 1, two after it
    }, 3)


def test_the_observation_of_a_seat_waiting() -> None:
    game = ace_attack()
    hand = {int(c): 1 for c in cards("7h 8s Kd 3c 4c")}
    assert observation(game.observe(0)) == expected({
        **hand, 53 + 2: 1, 106 + 34: 1, 106 + 2: 1, 212 + 2: 1, 217: 1, 231: 1,
        245: 2, 246: 36, 249: 1,
        261: 5, 262: 4, 263: 5,                  # seats 0, 1, 2
        261 + 6 + 2: 1,                          # seat 2 to play, two after seat 0
        261 + 9 + 0: 1,                          # the observer deals
        261 + 12 + 1: 1,                         # seat 1 attacked
    }, 3)


def test_the_drawn_card_is_seen_by_its_drawer_only() -> None:
    game = stacked("huit-americain", ["7h 8s Kd 3c 4c", "Qd 4s 4d 5c 6c", "As 6d 6s Tc 3d"],
                   "9h", "Jh", overrides=["hand_size=5"])
    play(game, "draw")  # HA4: seat 1 draws Jh and may play it
    assert game.to_play == 1
    jh = int(Card.parse("Jh"))
    assert observation(game.observe(1))[O_DRAWN + jh] == 1
    assert observation(game.observe(1))[O_COUNTS + 1] == 52 - 15 - 1 - 1  # the stock
    assert observation(game.observe(0))[O_DRAWN:O_DRAWN + 53] == [0] * 53


CLASSIC = load_rules("classic")          # winner-collects: points are good
OWN_HAND = load_rules("huit-americain")  # own-hand: points are bad


@pytest.mark.parametrize(("rules", "points", "winners", "mode", "rewards"), [
    (CLASSIC, [0, 30, 0], [1], "points", [-10.0, 20.0, -10.0]),
    (CLASSIC, [0, 30, 0], [1], "raw", [0.0, 30.0, 0.0]),
    (CLASSIC, [0, 30, 0], [1], "win", [-1.0, 1.0, -1.0]),
    (OWN_HAND, [12, 0, 42], [1], "points", [6.0, 18.0, -24.0]),
    (OWN_HAND, [12, 0, 42], [1], "raw", [-12.0, 0.0, -42.0]),
    (OWN_HAND, [12, 0, 42], [1], "win", [-1.0, 1.0, -1.0]),
    (load_rules("les-huit"), [30, 0, 30, 0], [0, 2], "points", [15.0, -15.0, 15.0, -15.0]),
    (load_rules("tschau-sepp"), [2, 0, 3, 1], [1], "points", [-0.5, 1.5, -1.5, 0.5]),
])
def test_round_rewards(rules: object, points: list[int], winners: list[int], mode: str,
                       rewards: list[float]) -> None:
    assert round_rewards(rules, points, winners, mode) == pytest.approx(rewards)  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", preset_names())
def test_rewards_of_played_rounds(preset: str) -> None:
    rules = load_rules(preset)
    rng = random.Random(preset)
    for seed in range(4):
        game = Game(rules, rules.default_players, seed=seed)
        while not game.over:
            game.push(rng.choice(game.legal))
        points, winners = game.round_points, game.round_winners
        assert points is not None and winners is not None
        raw = round_rewards(rules, points, winners, "raw")
        centred = round_rewards(rules, points, winners, "points")
        assert sum(centred) == pytest.approx(0)
        assert centred == pytest.approx([r - sum(raw) / len(raw) for r in raw])
        assert round_rewards(rules, points, winners, "win") == [
            1.0 if s in winners else -1.0 for s in range(game.n)]


def test_an_unknown_reward_mode_lists_the_modes() -> None:
    assert REWARDS == ("points", "raw", "win")
    with pytest.raises(ValueError, match="unknown reward mode 'score'; modes: points, raw, win"):
        round_rewards(CLASSIC, [0, 1], [1], "score")
