"""The compiled kernel (:mod:`eights.fast`) against the reference engine.

Differential: a round is played by the reference engine with random draws and
random choices; a second reference game and the kernel then replay it in
lockstep from the same scripted deck (the cards in the order they left the
stock) and the same choices. At every decision both must offer the same legal
actions in the same order, and hold the same hands, stock (as a multiset),
discard pile and turn; at the end, the same round result and points.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from eights import Game, codes, load_rules, preset_names
from eights.engine.actions import DRAW, PASS, TAKE, Action
from eights.engine.errors import IllegalActionError, RulesError
from eights.engine.rules import Rules
from eights.fast import (
    N_ACTIONS,
    FastGame,
    KernelUnsupported,
    action_code,
    check_supported,
    code_action,
    policy_rounds,
    random_rounds,
)
from eights.fast import kernel as k

SUPPORTED = preset_names()
"""Every preset: the kernel plays them all."""
MULTI = ["switch", "black-jack", "last-card"]
"""The presets with plays of several cards of one rank (``multi_play``: SW3, LC3)."""

VARIANTS: list[tuple[str, list[str]]] = [
    ("openspiel", ["special_cards=true", "reshuffle=true"]),  # the benchmark's game
    ("huit-americain", ["jokers=2"]),  # HA12: transparent jokers that draw 4
    ("crazy-eights", ["max_draws=3", "voluntary_pass=true"]),
    ("classic", ["replace_after_play=true", "hand_limit=9"]),
    ("huit-fou", ["reshuffle=false", "block_on_repetition=false"]),
    ("mau-mau", ["scoring=rounds-won", "cards.8.pass_on=true"]),  # MM5's toggle
    ("pesten", ["cards.8.pass_on=true", "cards.7.going_out=penalty", "out_penalty=5",
                "starter_wild=dealer-names"]),  # PE8's and PE12's toggles
    ("uno-cards", ["scoring=placings"]),
    ("tschau-sepp", ["play_on=false"]),  # TS3, TS4, TS9, TS10
    ("mau-mau", ["play_on=true"]),  # MM10 with TS11: the first out's jack doubles
    ("pesten", ["play_on=true", "scoring=placings", "cards.7.going_out=penalty"]),
    ("huit-americain", ["play_on=true", "jokers=1"]),
    # the same mechanisms with plays of several cards (SW3): their effects add up
    ("huit-americain", ["jokers=2", "multi_play=same-rank"]),  # jokers under a joker
    ("mau-mau", ["multi_play=same-rank", "cards.8.pass_on=true"]),  # MM6 jacks; MM5 k skips
    ("pesten", ["multi_play=same-rank", "cards.7.going_out=penalty", "out_penalty=5",
                "starter_wild=dealer-names"]),
    ("tschau-sepp", ["multi_play=same-rank"]),  # TS11 play_on, TS10's call, TS9
    ("uno-cards", ["multi_play=same-rank", "scoring=placings"]),  # UC8 wild only off-suit
    ("les-huit", ["multi_play=same-rank"]),  # LH4 covered rank, LH5 replace
    ("crazy-eights", ["multi_play=same-rank", "draw=repeat", "max_draws=3"]),
]
"""Toggles, and presets with ``multi_play`` turned on: every mechanism with it and without."""


def _seats(rules: Rules) -> list[int]:
    low, high = rules.players
    return sorted({low, min(high, 3), min(high, 4), min(high, 6)} & set(range(low, high + 1)))


def _random_round(rules: Rules, players: int, seed: int) -> Game:
    """One round of the reference engine with random draws and choices."""
    first = Game(rules, players, seed=seed, dealer=seed % players)
    choose = random.Random(seed)
    while not first.over:
        legal = first.legal_actions()
        first.push(legal[int(choose.random() * len(legal))])
    return first


def _replay(rules: Rules, players: int, seed: int, longest: int = 1 << 30) -> int:
    """Play one round with random draws and choices, then replay it on both engines (not
    if it took more than ``longest`` decisions: 0)."""
    first = _random_round(rules, players, seed)
    if len(first.history) > longest:
        return 0
    return _lockstep(first, f"{rules.name} {players}p seed {seed}")


def _lockstep(first: Game, name: str) -> int:
    """Replay the finished round of ``first`` (its deck and actions) on a scripted reference
    game and the kernel in lockstep, comparing them at every decision; the decisions."""
    rules, players = first.rules, first.n
    log = first.round_log()
    ref = Game(rules, players, seed=1, dealer=log.dealer, deck=log.deck)
    fast = FastGame(rules, players, seed=2, dealer=log.dealer, deck=log.deck)
    for i, action in enumerate(log.actions):
        where = f"{name} decision {i}"
        _same_state(ref, fast, where)
        assert fast.legal_actions() == ref.legal_actions(), where
        ref.push(action)
        fast.apply(action)
    where = f"{name} end"
    _same_state(ref, fast, where)
    assert ref.over and fast.over, where
    assert fast.out == ref.out == first.out, where
    assert fast.round_points == ref.round_points == first.round_points, where
    assert fast.round_winners == ref.round_winners, where
    assert fast.plays == ref.plays, where
    return len(log.actions)


def _same_state(ref: Game, fast: FastGame, where: str) -> None:
    for seat in range(ref.n):
        assert fast.hand(seat) == sorted(ref.hands[seat]), f"{where}: hand {seat}"
    assert fast.stock() == Counter(ref.stock), f"{where}: stock"
    assert fast.discard() == ref.discard, f"{where}: discard"
    assert fast.to_play == ref.to_play, f"{where}: to play"
    assert fast.penalties == ref.penalties, f"{where}: penalties"
    s = fast.scalars()
    assert (s["dir"], s["pending"], s["suit"], s["rank"], s["free"], s["passes"]) == (
        ref.direction, ref.pending, ref.suit, ref.rank, int(ref.free), ref.passes), where
    # HF13: the kernel's hash tells positions apart exactly as the engine's keys do
    assert s["rep_n"] == len(ref.repeats), f"{where}: positions counted"


@pytest.mark.parametrize("name", SUPPORTED)
def test_every_preset_plays_the_same_rounds(name: str) -> None:
    rules = load_rules(name)
    decisions = 0
    for players in _seats(rules):
        for seed in range(6):
            decisions += _replay(rules, players, seed)
    assert decisions > 200  # real rounds were compared, not empty ones


@pytest.mark.parametrize("name", MULTI)
def test_multi_play_presets_play_the_same_rounds_at_every_player_count(name: str) -> None:
    """SW3 at every player count the preset allows (switch and black-jack: two decks from
    six players, so a play may hold both copies of a card), and the plays of several
    cards were legal and chosen: two and three cards, two copies, on a pending draw."""
    rules = load_rules(name)
    low, high = rules.players
    seen: Counter[str] = Counter()
    for players in range(low, high + 1):
        for seed in range(2):
            first = _random_round(rules, players, seed)
            for action in first.round_log().actions:
                if action.under:
                    seen["multi"] += 1
                    seen["three"] += len(action.under) > 1
                    seen["copies"] += len(set(action.cards)) < len(action.cards)
            _lockstep(first, f"{name} {players}p seed {seed}")
    assert seen["multi"] > 50 and seen["three"] > 0
    assert seen["copies"] > 0 or rules.decks_for(high) == 1


@pytest.mark.parametrize(("name", "overrides"), VARIANTS,
                         ids=[f"{n}-{'-'.join(o)}" for n, o in VARIANTS])
def test_variants_play_the_same_rounds(name: str, overrides: list[str]) -> None:
    rules = load_rules(name, overrides)
    for players in _seats(rules):
        for seed in range(4):
            _replay(rules, players, seed)


def test_forced_moves_going_round_in_circles_block_the_round_alike() -> None:
    """HF13 (``block_on_repetition``): the engine's known cycle (queens skipping round six
    players, a one-card stock) ends the kernel's replay blocked at the same decision."""
    game = Game("huit-fou", 6, seed=647)
    rng = random.Random(647)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.out is None and max(game.repeats.values()) == 3
    _lockstep(game, "huit-fou 6p HF13 cycle")


def _hold(st: np.ndarray, seat: int, card: int, count: int) -> None:
    """Seat ``seat`` holds ``count`` copies of ``card`` (counts, size and bits kept in step;
    the stock is not: ``_repeated`` does not read it)."""
    at = int(st[k.S_HANDS]) + seat * 53 + card
    st[int(st[k.S_HSIZE]) + seat] += count - st[at]
    st[at] = count
    bit = np.int64(1) << card
    mask = int(st[k.S_HMASK]) + seat
    st[mask] = st[mask] | bit if count else st[mask] & ~bit


def test_the_repetition_hash_parts_positions_as_the_engines_key_does() -> None:
    """HF13: ``_repeated`` hashes the engine's key (seat, card, suit named, direction,
    pending draw, the discard pile in order, every hand's counts; the stock follows from
    them within a round) and counts a position a third time only when all of it recurs.
    The changes keep every hand's size and set of cards where they can, so that only the
    part named differs: the copies held (two packs), which seat holds a card, the pile."""
    game = FastGame("mau-mau", 6, seed=3)
    tab, st = game.kt.tab, game.state
    x, y, z, w = 0, 1, 2, 3  # the 7s
    for seat in (0, 1):
        for c in range(53):
            _hold(st, seat, c, 0)
    for seat, cards in ((0, {x: 2, y: 1, z: 1}), (1, {w: 1})):
        for c, n in cards.items():
            _hold(st, seat, c, n)
    seen = int(st[k.S_REP_N])

    def count(p: int = 1, named: int = -1) -> bool:
        return bool(k._repeated(tab, st, p, 20, named))

    def new() -> None:
        nonlocal seen
        assert not count() and st[k.S_REP_N] == seen + 1
        seen += 1

    new()  # A
    _hold(st, 0, x, 1)
    _hold(st, 0, y, 2)
    new()  # B: the same cards in seat 0's hand, other copies
    _hold(st, 0, x, 2)
    _hold(st, 0, y, 1)
    _hold(st, 0, z, 0)
    _hold(st, 1, z, 1)
    _hold(st, 1, w, 0)
    _hold(st, 0, w, 1)
    new()  # C: seats 0 and 1 traded a card (z for w): sizes alike
    _hold(st, 1, w, 1)
    _hold(st, 0, w, 0)
    _hold(st, 0, z, 1)
    _hold(st, 1, z, 0)
    assert not count() and st[k.S_REP_N] == seen  # A again: counted, not new
    _hold(st, 0, z, 0)
    _hold(st, 1, z, 1)
    new()  # D: z passed from seat 0 to seat 1, the cards in seat order unchanged
    _hold(st, 1, z, 0)
    _hold(st, 0, z, 1)
    disc = int(st[k.S_DISC])
    first = int(st[disc])
    st[disc] = 51 if first != 51 else 50
    new()  # E: another card on the pile
    st[disc] = first
    for p, named in ((2, -1), (1, 3)):  # F, G: another seat, a suit named
        assert not count(p, named) and st[k.S_REP_N] == seen + 1
        seen += 1
    assert count()  # A a third time: the round is blocked
    assert st[k.S_REP_N] == seen


@pytest.mark.parametrize(("players", "seed"), [(3, 26), (3, 69), (4, 129)])
def test_lc6_a_last_ace_of_another_suit_is_no_play_alike(players: int, seed: int) -> None:
    """LC6 (``going_out = "suit"``) is rare in random play: these rounds reach a one-card
    hand holding an ace not of the suit to follow, and replay alike."""
    rules = load_rules("last-card", ["multi_play=none"])
    g = Game(rules, players, seed=seed, dealer=seed % players)
    rand = random.Random(seed)
    met = False
    while not g.over:
        hand = g.hands[g.to_move]
        if (len(hand) == 1 and hand[0] >> 2 == 0 and hand[0] & 3 != g.suit and not g.pending
                and g.drawn is None):
            met = True
            assert all(a.card != hand[0] for a in g.legal_actions())
        legal = g.legal_actions()
        g.push(legal[int(rand.random() * len(legal))])
    assert met
    _replay(rules, players, seed)


def test_rounds_that_end_every_way_are_compared() -> None:
    """The replays above meet blocked rounds, rounds gone out and stacked draws."""
    outs: Counter[str] = Counter()
    for seed in range(40):
        for name in ("huit-fou", "crazy-eights"):
            g = Game(name, 2, seed=seed)
            rand = random.Random(seed)
            while not g.over:
                legal = g.legal_actions()
                g.push(legal[int(rand.random() * len(legal))])
            outs["blocked" if g.out is None else "out"] += 1
            _replay(load_rules(name), 2, seed)
    assert outs["blocked"] > 0 and outs["out"] > 0


@pytest.mark.parametrize(("field", "name", "overrides", "players"), [
    ("decks", "switch", ["decks=3"], 2),  # three copies of a card: 7h+7h+7h has no code
    ("decks", "switch", ["decks=[[2, 1], [6, 3]]"], 6),
    ("jokers", "pesten", ["jokers=41", "multi_play=same-rank"], 7),  # two decks: 82 jokers,
])                                                                   # one more than coded
def test_plays_the_encoding_cannot_code_raise_naming_the_field(
        field: str, name: str, overrides: list[str], players: int) -> None:
    rules = load_rules(name, overrides)
    check_supported(rules)  # the rules alone are played...
    with pytest.raises(KernelUnsupported, match=field) as caught:
        check_supported(rules, players)  # ...but not with this many players
    assert caught.value.field == field
    assert isinstance(caught.value, RulesError)
    assert f"{players} players" in str(caught.value)
    with pytest.raises(KernelUnsupported, match=field):
        FastGame(rules, players)
    with pytest.raises(KernelUnsupported, match=field):
        random_rounds(rules, players, 1)
    FastGame(load_rules(name, [*overrides, "multi_play=none"]), players)  # one card: coded


def test_every_preset_is_played_at_every_player_count() -> None:
    for name in preset_names():
        rules = load_rules(name)
        low, high = rules.players
        for players in range(low, high + 1):
            check_supported(rules, players)


def test_action_codes_are_the_engine_actions() -> None:
    """The kernel's codes are :mod:`eights.codes` (one definition, re-exported)."""
    assert (action_code, code_action, N_ACTIONS) == (codes.action_code, codes.code_action,
                                                     codes.N_ACTIONS)
    assert (k.A_DRAW, k.A_TAKE, k.A_PASS, k.A_NAME, k.A_MULTI) == (
        codes.A_DRAW, codes.A_TAKE, codes.A_PASS, codes.A_NAME, codes.A_MULTI)
    for code in range(N_ACTIONS):
        action = code_action(code)
        assert action_code(action) == code
    assert code_action(k.A_DRAW) is DRAW and code_action(k.A_PASS) is PASS
    assert code_action(k.A_TAKE) is TAKE
    assert str(code_action(7 * 4 * 10 + 3 * 2 + 1)) == "8c=s!"
    assert str(code_action(k.A_NAME + 2)) == "=h"
    assert action_code(Action.parse("7h")) == (6 * 4 + 2) * 10 + 4 * 2
    assert str(code_action(codes.A_MULTI + 530 + (6 * 4 + 2) * 10 + 4 * 2)) == "7d+7h"


def test_legal_mask_marks_the_legal_codes() -> None:
    g = FastGame("classic", 3, seed=5)
    mask = np.zeros(N_ACTIONS, dtype=np.int64)
    count = k.legal_mask(g.kt.tab, g.state, mask)
    assert count == len(g.legal_codes()) > 0
    assert [int(i) for i in np.flatnonzero(mask)] == sorted(g.legal_codes())


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    g = FastGame("classic", 2, seed=1)
    before = g.state.copy()
    illegal = next(c for c in range(N_ACTIONS) if c not in g.legal_codes())
    with pytest.raises(IllegalActionError):
        g.apply(illegal)
    assert (g.state == before).all()


def test_a_copy_of_the_state_is_independent() -> None:
    g = FastGame("huit-fou", 4, seed=2)
    saved = g.state.copy()
    while not g.over:
        g.apply(g.legal_codes()[0])
    assert not (g.state == saved).all()
    g.state[:] = saved
    assert not g.over and len(g.hand(0)) == 6


def test_scripted_card_missing_from_stock_fails_loudly() -> None:
    with pytest.raises(ValueError, match="not in the stock"):
        FastGame("classic", 2, deck=[Action.parse("7h").cards[0]] * 5)


def test_compiled_random_rounds_are_seeded_and_end() -> None:
    a = random_rounds("openspiel", 4, 300, seed=7)
    b = random_rounds("openspiel", 4, 300, seed=7)
    c = random_rounds("openspiel", 4, 300, seed=8)
    assert (a.decisions == b.decisions).all() and (a.points == b.points).all()
    assert not (a.decisions == c.decisions).all()
    assert (a.plays <= 101).all()  # max_plays = 100: the 101st play ends the round
    assert ((a.out >= -1) & (a.out < 4)).all()
    out = a.out >= 0  # own-hand scoring: whoever goes out scores 0
    assert (a.points[out, :][np.arange(out.sum()), a.out[out]] == 0).all()


def _stats(decisions: list[int], blocked: list[bool], first: list[bool]) -> list[tuple[float, float]]:
    """(mean, variance of one sample) of round length, blocked rounds, first-seat wins."""
    out = []
    for xs in (np.array(decisions, dtype=float), np.array(blocked, dtype=float),
               np.array(first, dtype=float)):
        out.append((float(xs.mean()), float(xs.var())))
    return out


@pytest.mark.parametrize(("name", "players"), [("openspiel", 4), ("huit-fou", 3),
                                               ("crazy-eights", 2)])
def test_random_play_has_the_reference_distribution(name: str, players: int) -> None:
    """Round lengths, blocked rounds and wins of the seat after the dealer: the kernel's
    compiled random rounds against the reference engine's, each mean within 4.5 standard
    errors of the difference (a false alarm about once in 150,000 runs per figure)."""
    rules = load_rules(name)
    ref_rounds, fast_rounds = 1200, 20000
    decisions, blocked, first = [], [], []
    rand = random.Random(11)
    for i in range(ref_rounds):
        g = Game(rules, players, seed=i, dealer=i % players)
        count = 0
        while not g.over:
            legal = g.legal
            g.push(legal[int(rand.random() * len(legal))])
            count += 1
        decisions.append(count)
        blocked.append(g.out is None)
        first.append(g.out == (i + 1) % players)
    ref = _stats(decisions, blocked, first)
    fast = random_rounds(rules, players, fast_rounds, seed=5)
    dealers = np.arange(fast_rounds) % players
    mine = _stats(list(fast.decisions), list(fast.out < 0), list(fast.out == (dealers + 1) % players))
    for what, (m1, v1), (m2, v2) in zip(("decisions", "blocked", "first seat wins"), ref, mine,
                                        strict=True):
        se = (v1 / ref_rounds + v2 / fast_rounds) ** 0.5
        assert abs(m1 - m2) <= 4.5 * se + 1e-9, f"{what}: reference {m1:.3f}, kernel {m2:.3f}"


_TOGGLES: list[list[str]] = [
    ["draw=one-end", "draw=one-may-play", "draw=one-must-play", "draw=until-playable",
     "draw=repeat"],
    ["max_draws=0", "max_draws=1", "max_draws=3"],
    ["voluntary_draw=true", "voluntary_draw=false"],
    ["voluntary_pass=true", "voluntary_pass=false"],
    ["replace_after_play=true", "replace_after_play=false"],
    ["reshuffle=true", "reshuffle=false"],
    ["announce_last_card=true", "announce_last_card=false"],
    ["call_out=true", "call_out=false"],
    ["serve_last_draw=true", "serve_last_draw=false"],
    ["forced_draw_ends_turn=true", "forced_draw_ends_turn=false"],
    ["reverse_two=none", "reverse_two=skip"],
    ["starter_effects=true", "starter_effects=false"],
    ["starter_wild=plain", "starter_wild=any", "starter_wild=dealer-names",
     "starter_wild=first-names"],
    ["special_cards=true", "special_cards=false"],
    ["hand_limit=0", "hand_limit=9", "hand_limit=12"],
    ["overflow=true", "overflow=false"],
    ["play_on=true", "play_on=false"],
    ["scoring=own-hand", "scoring=winner-collects", "scoring=rounds-won", "scoring=placings"],
    ["blocked_scoring=own-hand", "blocked_scoring=collect", "blocked_scoring=difference"],
    ["teams=[4]", "teams=[]"],
    ["max_plays=0", "max_plays=40"],
    ["extra_passes_to_block=0", "extra_passes_to_block=1"],
    ["served_draw_counts_as_pass=true", "served_draw_counts_as_pass=false"],
    ["block_on_repetition=true", "block_on_repetition=false"],
    ["multi_play=none", "multi_play=same-rank"],
]
_CARD_TOGGLES = [
    "wild=true", "name_suit=true", "draw=2", "stack=true", "skip=true", "pass_on=true",
    "reverse=true", "again=true", "again_penalty=1", "transparent=true", "any_follows=true",
    "must_cover=true", 'going_out="suit"', 'going_out="no"', 'going_out="penalty"',
    "out_multiplier=2", 'not_on=["2"]', "takes_covered_rank=true", 'cancelled_by=["8"]',
    'wild_if="no-suit"', 'stack_with=["2"]',
]


def _random_rules(rand: random.Random) -> Rules:
    """A random rules file over every mechanism the kernel plays (retried until valid)."""
    while True:
        base = rand.choice(SUPPORTED)
        overrides = [rand.choice(group) for group in _TOGGLES if rand.random() < 0.4]
        for rank in rand.sample(["2", "5", "7", "9", "J", "Q", "A"], 3):
            for field in rand.sample(_CARD_TOGGLES, rand.randint(1, 3)):
                overrides.append(f"cards.{rank}.{field}")
        try:
            return load_rules(base, overrides)
        except RulesError:
            continue


def test_random_rules_files_play_the_same_rounds() -> None:
    """Rules files drawn at random from every mechanism the kernel plays, several player
    counts and seeds each, replayed in lockstep (but rounds of more than 3,000 decisions:
    one of 100,000 is there, too slow to step from Python)."""
    rand = random.Random(2026)
    decisions = 0
    for _ in range(60):
        rules = _random_rules(rand)
        low, high = rules.players
        for seed in range(3):
            players = rand.randint(low, min(high, 6))
            try:
                rules.check_players(players)
            except RulesError:
                continue
            decisions += _replay(rules, players, seed, longest=3000)
    assert decisions > 1000


@pytest.mark.parametrize("name", SUPPORTED)
def test_the_compiled_greedy_policy_is_the_greedy_bot(name: str) -> None:
    """Rounds of four GreedyBots in the engine (random draws), replayed on the kernel from
    the same deck: at every decision the compiled greedy policy makes the bot's choice."""
    from eights.bots.basic import GreedyBot

    rules = load_rules(name)
    bot = GreedyBot()
    seats = _seats(rules)[:2]
    if name in MULTI:  # and two decks (switch, black-jack): two copies of a card in a play
        seats.append(_seats(rules)[-1])
    multi = 0
    for players in seats:
        for seed in range(4):
            g = Game(rules, players, seed=seed, dealer=seed % players)
            rng = random.Random(seed)
            while not g.over:
                seat = g.to_move
                g.push(bot.choose(g.observe(seat), g.legal_actions(), rng))
            log = g.round_log()
            multi += sum(1 for a in log.actions if a.under)
            fast = FastGame(rules, players, dealer=log.dealer, deck=log.deck)
            for i, action in enumerate(log.actions):
                assert fast.greedy_action() == action, f"{name} {players}p seed {seed} decision {i}"
                fast.apply(action)
            assert fast.round_points == g.round_points
    assert multi > 0 or name not in MULTI  # SW3: the bot sheds several cards when it can


def test_policy_rounds_mix_policies_and_greedy_beats_random() -> None:
    result = policy_rounds("crazy-eights", ["greedy", "random"], 3000, seed=3)
    greedy_wins = int((result.out == 0).sum())
    random_wins = int((result.out == 1).sum())
    assert greedy_wins > random_wins  # crazy-eights: the greedy bot sheds points first
    with pytest.raises(ValueError, match="unknown policy"):
        policy_rounds("classic", ["greedy", "clever"], 1)


def test_a_deal_resets_every_scalar_of_the_round() -> None:
    """Each ``S_*`` scalar slot is reset by a deal or is part of the layout, the generator or
    the deal's setup (a new slot must be put on one side or the other)."""
    kept = {k.S_N, k.S_RNG, k.S_HAND_SIZE, k.S_TEAMS, k.S_DECK_N, k.S_HANDS, k.S_HSIZE,
            k.S_STOCK, k.S_DECK, k.S_DISC, k.S_PEN, k.S_POINTS, k.S_WINNERS, k.S_REP,
            k.S_REP_CAP, k.S_HMASK, k.S_STOCKL, k.S_FIN, k.S_LASTC, k.S_REP_IDX, k.S_WORK}
    slots = {getattr(k, name) for name in dir(k) if name.startswith("S_") and name != "S_SCALARS"}
    assert len(slots) == len([n for n in dir(k) if n.startswith("S_")]) - 1  # no slot shared
    assert max(slots) < k.S_SCALARS
    assert set(k._ROUND_SLOTS) == slots - kept
    g = FastGame("huit-fou", 3, seed=4)
    while not g.over:
        g.apply(g.legal_codes()[-1])
    assert g.plays > 0 and g.scalars()["decisions"] > 0
    k.deal(g.kt.tab, g.state, 1, g.script)
    s = g.scalars()
    assert (s["over"], s["plays"], s["passes"], s["draws"], s["decisions"], s["out"],
            s["drawn"], s["dealer"], s["to_move"], s["disc_n"]) == (0, 0, 0, 0, 0, -1, -1, 1, 2, 1)
    assert sum(len(g.hand(seat)) for seat in range(3)) == 18 and g.penalties == [0, 0, 0]


def test_the_entry_points_that_play_count_no_references() -> None:
    """``policy_round``, ``apply``, ``legal_list`` and ``deal`` (and all they call) are
    compiled without numba's reference counting, whose atomic instructions took most of a
    round's time (kernel.py's text): none of them may allocate an array, which the whole
    rounds above compile and check."""
    for entry in (k.policy_round, k.apply, k.legal_list, k.deal):
        assert getattr(entry, "targetoptions", {}).get("_nrt") is False, entry
    assert k.state_size(4, 52, 0) - k.state_size(3, 52, 0) == 53 + 7 + 3  # the work: 3 a seat


def test_a_change_to_any_kernel_source_drops_the_whole_cache(tmp_path: Path) -> None:
    """numba checks only each function's own file; the package drops every cached function
    when any of its sources (or eights.codes) changes, so none runs against old helpers."""
    from eights.fast import drop_stale_cache

    pkg = tmp_path / "fast"
    (pkg / "__pycache__").mkdir(parents=True)
    (pkg / "kernel.py").write_text("x = 1\n")
    (pkg / "world.py").write_text("y = 2\n")
    codes = tmp_path / "codes.py"
    codes.write_text("z = 3\n")
    cached = [pkg / "__pycache__" / name for name in ("world.play_out-1.py311.nbi",
                                                      "world.play_out-1.py311.1.nbc")]
    for path in cached:
        path.write_bytes(b"old")
    assert drop_stale_cache(pkg, codes)  # no stamp yet: unknown sources
    assert not any(p.exists() for p in cached)
    for path in cached:
        path.write_bytes(b"new")
    assert not drop_stale_cache(pkg, codes)  # nothing changed: the cache stays
    assert all(p.exists() for p in cached)
    (pkg / "kernel.py").write_text("x = 4\n")  # world.py untouched, kernel.py changed
    assert drop_stale_cache(pkg, codes)
    assert not any(p.exists() for p in cached)
    codes.write_text("z = 5\n")
    assert drop_stale_cache(pkg, codes)


def test_the_warm_up_make_runs_at_install_calls_every_entry_point() -> None:
    """``python -m eights.fast`` (run by make when it installs) compiles each entry point."""
    from eights.fast.__main__ import warm

    assert warm() >= 0.0
