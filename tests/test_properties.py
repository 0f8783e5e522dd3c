"""Invariants of random legal play, over every preset and player count (hypothesis).

- play always ends (a round within a bound of decisions, a match within a
  bound of rounds);
- cards are conserved: hands + stock + discard = the deck;
- hand limits hold (HF6);
- an observation never shows another hand or the stock: re-dealing the cards
  a seat cannot see leaves its observation unchanged;
- a record replays to the identical state;
- the :class:`~eights.engine.game.Step` an action returns says what changed:
  the cards each seat received, penalty points, a reversal, a reshuffle, the end;
- the global random generator has no influence.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from eights import Action, Game, load_rules, preset_names
from eights.engine.record import load_record, record_of, replay
from eights.engine.rules import ReverseTwo

CASES = [
    (name, n)
    for name in preset_names()
    for n in range(load_rules(name).players[0], min(load_rules(name).players[1], 8) + 1)
]
MAX_DECISIONS = 20_000
MAX_ROUNDS = 200

case = st.sampled_from(CASES)
seeds = st.integers(min_value=0, max_value=2**32)


def full_deck(game: Game) -> Counter[int]:
    return Counter(game.rules.deck(game.n))


def cards_in_play(game: Game) -> Counter[int]:
    return Counter([*game.stock, *game.discard, *(c for h in game.hands for c in h)])


def play_round(game: Game, rng: random.Random, check: bool = True) -> int:
    """Random legal play to the end of the round, checking invariants at each step."""
    deck = full_deck(game)
    limit = game.rules.hand_limit
    steps = 0
    while not game.over:
        legal = game.legal_actions()
        assert legal, "a seat to play always has a legal action"
        if check:
            check_step(game, rng.choice(legal))
        else:
            game.apply(rng.choice(legal))
        steps += 1
        assert steps < MAX_DECISIONS, f"round did not end in {MAX_DECISIONS} decisions"
        if check:
            assert cards_in_play(game) == deck
            if limit:
                assert max(len(h) for h in game.hands) <= limit
    return steps


def check_step(game: Game, action: Action) -> None:
    """Apply ``action`` and check its Step against the state before and after."""
    seat, direction = game.to_move, game.direction
    hands = [Counter(h) for h in game.hands]
    penalties, stock = game.penalties[:], Counter(game.stock)
    discard = Counter(game.discard)
    step = game.apply(action)
    assert (step.seat, step.action, step.round_over) == (seat, action, game.over)
    assert step.out == (game.out if game.over else None)
    assert step.reversed == (game.direction != direction)
    for s in range(game.n):
        before = hands[s] - Counter(action.cards if s == seat else [])
        assert Counter(game.hands[s]) == before + Counter(step.received[s])
        assert game.penalties[s] - penalties[s] == step.penalties[s]
    got = Counter(c for cards in step.received for c in cards)
    if step.reshuffled:  # the cards drawn came from the old stock and the turned-over pile
        assert step.reshuffled == (discard.total() + len(action.cards) - len(game.discard))
        assert got <= stock + discard
    else:
        assert got <= stock and Counter(game.stock) == stock - got
    if step.skipped is not None:  # a skip, or a reverse with two players (reverse_two)
        assert action.card is not None
        rule = game.rules.rule_of(action.card)
        holding = game.n - len(game.finished)
        assert rule.skip or (rule.reverse and holding == 2
                             and game.rules.reverse_two is ReverseTwo.SKIP)
        assert step.skipped != seat and step.skipped not in game.finished
    if action.card is not None and len(action.cards) > 1:  # SW3: one rank, one rule
        assert len({c.rank for c in action.cards}) == 1
        assert len({game.rules.rule_of(c) for c in action.cards}) == 1


def play_match(game: Game, rng: random.Random, check: bool = True) -> None:
    while True:
        play_round(game, rng, check)
        if game.match_over:
            return
        assert game.round < MAX_ROUNDS, "match did not end"
        game.next_round()


@settings(max_examples=60, deadline=None)
@given(case, seeds)
def test_random_play_ends_and_conserves_cards(c: tuple[str, int], seed: int) -> None:
    name, n = c
    game = Game(name, n, seed=seed, dealer=seed % n)
    play_match(game, random.Random(seed))
    assert game.match_over and game.winners
    assert game.round_points is not None and len(game.round_points) == n


@settings(max_examples=40, deadline=None)
@given(case, seeds)
def test_a_record_replays_to_the_identical_state(c: tuple[str, int], seed: int) -> None:
    name, n = c
    game = Game(name, n, seed=seed)
    rng = random.Random(seed)
    play_match(game, rng, check=False)
    for decks in (True, False):
        again = replay(load_record(record_of(game, decks=decks).dumps()))
        assert again.to_json() == game.to_json()
        assert again.scores == game.scores and again.round == game.round


@settings(max_examples=40, deadline=None)
@given(case, seeds)
def test_the_global_generator_changes_nothing(c: tuple[str, int], seed: int) -> None:
    name, n = c

    def run(disturb: bool) -> list[object]:
        game = Game(name, n, seed=seed)
        rng = random.Random(seed)
        noise = random.Random(~seed)
        trace: list[object] = []
        for _ in range(3):
            while not game.over:
                if disturb:
                    random.seed(noise.random())
                    random.random()
                action = rng.choice(game.legal_actions())
                game.apply(action)
                trace.append((str(action), tuple(len(h) for h in game.hands)))
            if game.match_over:
                break
            game.next_round()
        trace.append(game.to_json())
        return trace

    assert run(False) == run(True)


def redeal_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy where every card ``seat`` cannot see is moved among other hands and the stock."""
    other = game.clone()
    hidden = [c for s in range(game.n) if s != seat for c in other.hands[s]] + other.stock
    rng.shuffle(hidden)
    at = 0
    for s in range(game.n):
        if s != seat:
            size = len(other.hands[s])
            other.hands[s] = sorted(hidden[at:at + size])
            at += size
    other.stock = hidden[at:]
    return other


@settings(max_examples=60, deadline=None)
@given(case, seeds, st.integers(min_value=0, max_value=400))
def test_an_observation_never_shows_another_hand_or_the_stock(
        c: tuple[str, int], seed: int, steps: int) -> None:
    name, n = c
    game = Game(name, n, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
    if game.over:
        return  # hands are shown at the end of a round, by design
    for seat in range(n):
        seen = game.observe(seat)
        assert seen.hand == tuple(game.hand(seat))
        assert seen.hand_sizes == tuple(len(h) for h in game.hands)
        for _ in range(3):
            assert redeal_hidden(game, seat, rng).observe(seat) == seen
        data = seen.to_json()
        assert set(data) == {
            "seat", "players", "rules", "hand", "hand_sizes", "stock", "discard", "up_card",
            "suit", "rank", "free", "direction", "to_play", "dealer", "pending_draw", "drawn",
            "must_play_again", "may_take", "round", "scores", "round_points", "round_over",
            "match_over", "winners", "teams", "history", "legal", "revealed", "pending_rank",
            "attacker", "draws_this_turn", "plays", "passes", "skip_next", "served", "announce_due",
            "penalties", "draw_log", "tells", "received", "skip_due", "finished", "naming"}
        assert isinstance(data["stock"], int)
        assert data["revealed"] is None


def test_the_observer_reveals_hands_only_when_the_round_is_over() -> None:
    game = Game("classic", 3, seed=11)
    rng = random.Random(11)
    play_round(game, rng)
    seen = game.observe(0)
    assert seen.revealed == tuple(tuple(game.hand(s)) for s in range(3))
    assert seen.legal == ()


def test_clone_is_independent_and_exact() -> None:
    game = Game("huit-americain", 4, seed=5)
    rng = random.Random(5)
    for _ in range(30):
        game.apply(rng.choice(game.legal_actions()))
    copy = game.clone()
    assert copy.to_json() == game.to_json()
    # the copy draws the same cards as the original would (exact generator copy)
    a, b = random.Random(1), random.Random(1)
    while not game.over:
        game.apply(a.choice(game.legal_actions()))
        copy.apply(b.choice(copy.legal_actions()))
        assert copy.to_json() == game.to_json()
    assert copy.hands is not game.hands and copy.stock is not game.stock
