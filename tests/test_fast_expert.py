"""The compiled expert (:mod:`eights.fast.expert`) against ``ExpertBot``, its reference.

On positions of seeded games of every preset the kernel plays, at every player count it
allows up to 6, reached by a mix of expert, greedy and random moves (draws of every
kind, voids known and lost, forced draws, reverses, partners, seats out), the kernel's
expert, given the state and the notes of the round so far, chooses ``ExpertBot``'s
action, decision for decision; so does the expert with other weights. The notes kept
while a round is played in the kernel are the ones the engine's history gives.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from eights import Game, load_rules, preset_names
from eights.bots import ExpertBot, GreedyBot
from eights.codes import action_code
from eights.fast import kernel as k
from eights.fast.expert import (
    NOTE_FIELDS,
    WEIGHTS,
    expert_choice,
    expert_tables,
    expert_weights,
    note,
    notes_of,
)
from eights.fast.tables import KernelUnsupported, check_supported
from eights.fast.world import cached_tables, state_from_game


def _cases() -> list[tuple[str, int]]:
    out = []
    for name in preset_names():
        low, high = load_rules(name).players
        for n in range(low, min(high, 6) + 1):
            try:
                check_supported(load_rules(name), n)
            except KernelUnsupported:
                continue
            out.append((name, n))
    return out


def _compiled(game: Game, bot: ExpertBot) -> int:
    kt = cached_tables(game.rules)
    st = state_from_game(kt, game, 0)
    buf = np.empty(k.N_ACTIONS, dtype=np.int64)
    count = k.legal_list(kt.tab, st, buf)
    return int(expert_choice(kt.tab, expert_tables(game.rules), expert_weights(*bot.weights()),
                             st, notes_of(game.n, game.draw_log, game.history), buf, count))


def _play(name: str, n: int, seed: int, bot: ExpertBot, check: bool = True) -> int:
    """Play a seeded round, checking every decision with a choice; returns how many."""
    game = Game(name, n, seed=seed)
    rng = random.Random(seed)
    greedy = GreedyBot()
    checked = 0
    while not game.over:
        legal = game.legal_actions()
        seen = game.observe(game.to_move)
        mine = bot.choose(seen, legal, rng)
        if len(legal) > 1:
            assert _compiled(game, bot) == action_code(mine), (
                f"{name} {n}p seed {seed} decision {len(game.history)}: the engine's expert "
                f"plays {mine}")
            checked += 1
        r = rng.random()
        game.apply(mine if r < 0.6 else greedy.choose(seen, legal, rng) if r < 0.8
                   else legal[int(rng.random() * len(legal))])
    return checked


@pytest.mark.parametrize(("name", "n"), _cases())
def test_the_compiled_expert_chooses_the_experts_action(name: str, n: int) -> None:
    checked = sum(_play(name, n, seed, ExpertBot()) for seed in range(3))
    assert checked >= 10


@pytest.mark.parametrize("name", ["classic", "huit-americain", "les-huit", "uno-cards"])
def test_the_compiled_expert_reads_other_weights_alike(name: str) -> None:
    bot = ExpertBot(block=5, points=2, reserve=10, follow=3, suit=12)
    assert sum(_play(name, 4, seed, bot) for seed in range(2)) >= 10


def test_the_weights_are_named_in_the_order_of_the_array() -> None:
    assert len(ExpertBot().weights()) == len(WEIGHTS)
    assert ExpertBot(block=7).weights()[WEIGHTS.index("block")] == 7


@pytest.mark.parametrize(("name", "n"), [("classic", 3), ("huit-fou", 2), ("les-huit", 4),
                                         ("crazy-eights", 4), ("huit-americain", 3)])
def test_notes_kept_action_by_action_are_the_notes_of_the_history(name: str, n: int) -> None:
    # before each action, note() on the state of the game; after it, the notes are those
    # read from the engine's draw log and history (forced draws, HA11 draws and takes lose
    # a seat's voids)
    rules = load_rules(name)
    kt = cached_tables(rules)
    xt = expert_tables(rules)
    greedy = GreedyBot()
    kinds = set()
    for seed in range(4):
        game = Game(rules, n, seed=seed)
        rng = random.Random(seed)
        notes = notes_of(n, game.draw_log, game.history)
        while not game.over:
            legal = game.legal_actions()
            a = (legal[int(rng.random() * len(legal))] if rng.random() < 0.3
                 else greedy.choose(game.observe(game.to_move), legal, rng))
            note(kt.tab, xt, state_from_game(kt, game, 0), notes, action_code(a))
            game.push(a)
            assert notes.tolist() == notes_of(n, game.draw_log, game.history).tolist()
        kinds |= {(notes[s * NOTE_FIELDS], notes[s * NOTE_FIELDS + 4]) for s in range(n)}
    assert len(kinds) >= 2  # some seats with voids, some without
