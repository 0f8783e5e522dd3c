"""Drive OpenSpiel's ``crazy_eights`` in lockstep with our ``openspiel`` preset.

Our engine draws the cards; the bridge feeds the same cards to pyspiel as its
chance outcomes, plays the same decisions on both and compares the legal
actions at every decision. OpenSpiel's "play 8" then "nominate suit" is our
single ``8h=s``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from eights import Action, Game, Kind, load_rules

OS_DRAW, OS_PASS, OS_NOMINATE = 52, 53, 54


class Dealt(Protocol):
    @property
    def deck(self) -> Sequence[int]:
        """The cards in the order they left the stock."""


class Ours(Protocol):
    """What the bridge drives on our side: a :class:`~eights.Game`, or an adapter (the
    compiled kernel's, in ``tests/test_fast_world.py``)."""

    @property
    def over(self) -> bool: ...
    @property
    def to_play(self) -> int | None: ...
    @property
    def round_points(self) -> list[int] | None: ...
    @property
    def hands(self) -> Sequence[Sequence[int]]: ...
    def legal_actions(self) -> list[Action]: ...
    def apply(self, action: Action) -> object: ...
    def round_log(self) -> Dealt: ...


def os_card(card: int) -> int:
    """OpenSpiel's card id (rank 2..A as 0..12, suits C D H S) for our card code."""
    rank, suit = card >> 2, card & 3
    os_rank = 12 if rank == 0 else rank - 1
    return os_rank * 4 + suit


def os_action(action: Action) -> int:
    if action.kind is Kind.DRAW:
        return OS_DRAW
    if action.kind is Kind.PASS:
        return OS_PASS
    assert action.card is not None
    return os_card(action.card)


@dataclass
class Outcome:
    decisions: int
    our_points: list[int]
    os_returns: list[float]
    final_hands: list[list[int]]


def os_documented_bug_points(hand: list[int]) -> int:
    """What OpenSpiel charges for a hand: ``card index + 2`` for number cards (its bug)."""
    total = 0
    for card in hand:
        os_id = os_card(card)
        rank = os_id // 4
        if rank == 6:
            total += 50
        elif rank >= 9:
            total += 10
        else:
            total += os_id + 2
    return total


def params_to_overrides(params: dict[str, Any]) -> dict[str, Any]:
    """OpenSpiel parameters as field overrides of our ``openspiel`` preset."""
    return {
        "default_players": params["players"],
        "max_draws": params["max_draw_cards"],
        "special_cards": params["use_special_cards"],
        "reshuffle": params["reshuffle"],
        "max_plays": params["max_turns"],
    }


def play_lockstep(params: dict[str, Any], seed: int,
                  engine: Callable[..., Ours] = Game) -> Outcome:
    """Play one random game on both engines; raise AssertionError on any divergence.

    ``engine(rules, players, seed=..., dealer=...)`` makes our side: the reference
    engine by default."""
    import pyspiel

    rules = load_rules("openspiel", params_to_overrides(params))
    rng = random.Random(seed)
    players = params["players"]
    dealer = rng.randrange(players)
    ours = engine(rules, players, seed=seed, dealer=dealer)
    game = pyspiel.load_game("crazy_eights", dict(params))
    state = game.new_initial_state()
    state.apply_action(_dealer_action(state, dealer))
    fed = 0

    def feed() -> None:
        nonlocal fed
        dealt = ours.round_log().deck
        while state.is_chance_node():
            assert fed < len(dealt), f"pyspiel wants a card we did not draw (seed {seed})"
            card = os_card(dealt[fed])
            outcomes = {a for a, _ in state.chance_outcomes()}
            assert card in outcomes, f"card {dealt[fed]} not in pyspiel's stock (seed {seed})"
            state.apply_action(card)
            fed += 1
        assert fed == len(dealt), f"we drew {len(dealt) - fed} cards pyspiel did not (seed {seed})"

    feed()
    decisions = 0
    while not ours.over:
        assert not state.is_terminal(), f"pyspiel ended first at decision {decisions} (seed {seed})"
        assert state.current_player() == ours.to_play, (
            f"to play: pyspiel {state.current_player()} ours {ours.to_play} "
            f"at decision {decisions} (seed {seed})")
        legal = ours.legal_actions()
        mine = sorted({os_action(a) for a in legal})
        theirs = sorted(state.legal_actions())
        assert mine == theirs, (
            f"legal actions differ at decision {decisions} (seed {seed}): "
            f"ours {[str(a) for a in legal]} -> {mine}, pyspiel {theirs} "
            f"{[state.action_to_string(a) for a in theirs]}\n{state}")
        action = rng.choice(legal)
        ours.apply(action)
        state.apply_action(os_action(action))
        if action.suit is not None:
            assert state.legal_actions() == [OS_NOMINATE + s for s in range(4)]
            state.apply_action(OS_NOMINATE + int(action.suit))
        feed()
        decisions += 1
    assert state.is_terminal(), f"we ended, pyspiel did not (seed {seed}, {decisions} decisions)"
    assert ours.round_points is not None
    return Outcome(decisions, list(ours.round_points), list(state.returns()),
                   [list(h) for h in ours.hands])


def _dealer_action(state: Any, dealer: int) -> int:
    for action, _ in state.chance_outcomes():
        if state.action_to_string(action).endswith(f"Player {dealer} to be the dealer"):
            return int(action)
    raise AssertionError("no dealer outcome")
