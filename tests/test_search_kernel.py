"""ISMCTS's rollouts on the compiled kernel (``kernel=on``) against its rollouts on the
engine (``kernel=off``): the same policy, the same rewards, the same worlds.

The kernel's rounds are proven equal to the engine's, card for card, in
``tests/test_fast_world.py``; what is tested here is the search's use of them: the
greedy rollout policy of the engine path is the kernel's ``greedy`` (GreedyBot), and
from the same sampled worlds both paths give rewards of the same distribution.
"""

from __future__ import annotations

import math
import random
import subprocess
import sys

import pytest

from eights import Game, load_rules, preset_names
from eights.bots import GreedyBot, make_bot
from eights.bots.ismcts import ISMCTSBot, greedy_action
from eights.engine.errors import RulesError
from test_fast import SUPPORTED


def _counts(name: str) -> list[int]:
    low, high = load_rules(name).players
    return [n for n in (2, 3, 4) if low <= n <= high]


@pytest.mark.parametrize("name", preset_names())
def test_the_rollout_policy_is_the_greedy_bot(name: str) -> None:
    # the kernel's greedy policy is GreedyBot choice for choice (tests/test_fast.py), so
    # this makes the engine's rollouts and the kernel's play the same moves
    greedy = GreedyBot()
    for players in _counts(name):
        for seed in range(3):
            game = Game(name, players, seed=seed)
            rng = random.Random(seed)
            while not game.over:
                legal = game.legal
                mine = greedy_action(game, legal)
                assert mine is greedy.choose(game.observe(game.to_move), legal, rng), (
                    f"{name} {players}p seed {seed} decision {len(game.history)}")
                # a few random moves reach positions greedy play would not
                game.push(legal[int(rng.random() * len(legal))] if rng.random() < 0.3 else mine)


def _position(name: str, players: int, seed: int) -> Game:
    """A decision with a choice, a few greedy moves into a seeded round."""
    game = Game(name, players, seed=seed % 5)
    greedy = GreedyBot()
    rng = random.Random(seed)
    moves = 2 + seed % 7
    while True:
        legal = game.legal_actions()
        if moves <= 0 and len(legal) > 1:
            return game
        game.apply(greedy.choose(game.observe(game.to_move), legal, rng))
        moves -= 1
        if game.over:
            game = Game(name, players, seed=seed + 100)
            moves = 0


@pytest.mark.parametrize(("name", "players", "options"), [
    # kernel=rollout plays the greedy and random rollouts of the search before it was
    # compiled (the expert's rollouts are compiled: tests/test_compiled_search.py)
    ("classic", 2, ":rollout=greedy:tree=own"),
    ("huit-fou", 4, ":rollout=greedy:tree=own"),  # long rounds, reshuffles, repetition
    ("les-huit", 4, ":rollout=greedy:tree=own"),  # partners share a win
    ("tschau-sepp", 3, ":rollout=greedy:tree=all"),  # placings (TS12), everyone in the tree
    ("pesten", 2, ":rollout=greedy:tree=none"),   # rounds won, flat Monte Carlo
    ("huit-americain", 4, ":rollout=random:tree=own"),
    ("uno-cards", 3, ":rollout=greedy:epsilon=0.2:tree=own"),
])
def test_kernel_and_engine_rollouts_have_the_same_value(name: str, players: int,
                                                        options: str) -> None:
    # Same search seed, so both paths sample the same worlds and descend the same trees
    # at first; only the draws (and random choices) of the rollouts differ. Each decision
    # samples two worlds and plays each after every action (iterations=1); the paired
    # difference of the two paths' mean rewards, over 120 decisions, is within 4 standard
    # errors of zero.
    spec = f"ismcts:iterations=1:prune=0:prior=none{options}"
    diffs = []
    for seed in range(120):
        game = _position(name, players, seed)
        seen, legal = game.observe(game.to_move), game.legal_actions()
        means = []
        for kernel in ("rollout", "off"):  # the engine's search, its rollouts on the kernel
            bot = make_bot(f"{spec}:kernel={kernel}:seed={seed}")
            assert isinstance(bot, ISMCTSBot)
            bot.choose(seen, legal, random.Random(0))
            assert bot.last_kernel is (kernel == "rollout") and not bot.last_compiled
            assert [count for _, count, _, _ in bot.last_stats] == [2] * len(legal)
            means.append(sum(mean for _, _, mean, _ in bot.last_stats) / len(legal))
        diffs.append(means[0] - means[1])
    n = len(diffs)
    mean = sum(diffs) / n
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    assert any(diffs), "the draws differ, so some rollouts should too"
    assert abs(mean) <= 4 * se, f"kernel - engine: {mean:.4f} (standard error {se:.4f})"


@pytest.mark.parametrize("name", SUPPORTED)
def test_ismcts_on_the_kernel_is_legal_and_reproducible(name: str) -> None:
    players = 4 if 4 in _counts(name) else _counts(name)[-1]

    def play(seed: int) -> list[str]:
        bot = ISMCTSBot(iterations=24, kernel="on", seed=seed)
        game = Game(name, players, seed=seed)
        greedy = GreedyBot()
        rng = random.Random(seed)
        picks: list[str] = []
        while not game.over and len(picks) < 8:
            legal = game.legal_actions()
            seen = game.observe(game.to_move)
            if game.to_move == 0 and len(legal) > 1:
                choice = bot.choose(seen, legal, rng)
                assert choice in legal and bot.last_kernel
                picks.append(str(choice))
            else:
                choice = greedy.choose(seen, legal, rng)
            game.apply(choice)
        return picks

    for seed in (1, 2):
        first = play(seed)
        assert first, f"{name}: seat 0 had no decision"
        assert play(seed) == first


def test_kernel_off_and_auto_where_the_kernel_cannot_roll_out_on_the_engine() -> None:
    # switch with three decks: plays of several cards the action codes cannot hold
    for spec, rules in (("ismcts:iterations=40:prune=0:kernel=off", load_rules("classic")),
                        ("ismcts:iterations=40:prune=0", load_rules("switch", ["decks=3"]))):
        game = Game(rules, 3, seed=4)
        bot = make_bot(spec + ":seed=1")
        assert isinstance(bot, ISMCTSBot)
        legal = game.legal_actions()
        choice = bot.choose(game.observe(game.to_move), legal, random.Random(0))
        assert choice in legal and not bot.last_kernel and bot.last_iterations >= 40
        again = make_bot(spec + ":seed=1").choose(game.observe(game.to_move), legal,
                                                  random.Random(0))
        assert again is choice


def test_kernel_on_says_why_it_cannot() -> None:
    game = Game(load_rules("switch", ["decks=3"]), 2, seed=1)  # three copies of a card
    bot = make_bot("ismcts:iterations=10:kernel=on")
    with pytest.raises(RulesError, match=r"ismcts kernel=on: switch: the compiled kernel does "
                       r"not support decks .*; kernel=auto or kernel=off rolls out on "
                       r"the engine"):
        bot.choose(game.observe(game.to_move), game.legal_actions(), random.Random(0))
    with pytest.raises(ValueError, match="ismcts kernel must be auto or on or off or rollout, not 'fast'"):
        make_bot("ismcts:kernel=fast")


def test_without_numba_kernel_on_is_refused_and_auto_uses_the_engine(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numba", None)  # find_spec("numba") is None now
    with pytest.raises(ValueError, match=r"kernel=on needs numba, which is not installed "
                       r"\(pip install 'eights\[fast\]'\)"):
        make_bot("ismcts:kernel=on")
    bot = make_bot("ismcts:iterations=20:seed=1")
    assert isinstance(bot, ISMCTSBot)
    game = Game("classic", 2, seed=1)
    legal = game.legal_actions()
    assert bot.choose(game.observe(game.to_move), legal, random.Random(0)) in legal
    assert not bot.last_kernel


def test_making_an_ismcts_bot_does_not_import_numba() -> None:
    # `eights play` starts without the compiler: numba comes with the first decision
    code = ("import sys, eights.cli, eights.bots\n"
            "eights.bots.make_bot('ismcts')\n"
            "print(sorted(m for m in sys.modules if m == 'numba' or m.startswith('eights.fast')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
