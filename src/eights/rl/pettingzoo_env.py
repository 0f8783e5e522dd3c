"""# Eights (PettingZoo AEC)

Crazy Eights and its family for any number of players, under any preset or rules file.

| Creation           | `eights.rl.env(rules="huit-fou", players=4)`                     |
|--------------------|------------------------------------------------------------------|
| Registry           | `pettingzoo.make("aec", "eights/Eights-v0", rules=..., players=...)` |
| Actions            | Discrete                                                         |
| Parallel API       | No                                                               |
| Manual Control     | No (play it with `eights play`)                                  |
| Agents             | `agents = ['player_0', ..., 'player_{n-1}']`                     |
| Agents             | 2 to the rule set's maximum (`rules.players`)                    |
| Action Shape       | Discrete(`eights.codes.action_count(rules, players)`): 537, 8487 or 42937 |
| Action Values      | [0, action_count - 1]: `eights.codes.action_code` of an action   |
| Observation Shape  | `{"observation": (261 + 5 * players,), "action_mask": (action_count,)}` |
| Observation Values | integers >= 0 (`eights.codes.observation`); the mask 0 or 1       |
| State Shape        | `(players * (261 + 5 * players),)`: every seat's observation      |

The agent to act is the seat to play (``agent_selection``); turns follow the rules
(skips, reverses, play again), not a fixed cycle. An episode is one round (or, with
``episode="match"``, a whole match); every agent's reward comes at the end of each round
from :func:`eights.codes.round_rewards`. With ``max_cycles``, an episode is truncated
(every agent's ``truncations`` True) after ``max_cycles * players`` moves, a cycle being
as many moves as seats (turns are not a fixed cycle: skips and plays again count as
moves). :meth:`raw_env.state` is the global state for a centralised critic: every seat's
observation in seat order (``state_space``). An illegal code raises
:class:`~eights.engine.errors.IllegalActionError` in :class:`raw_env`, and ends the
episode with ``illegal_reward`` for the offender (0 for the others) in :func:`env`, as in
PettingZoo's classic environments. ``docs/environments.md`` has the details.

With ``actions="factored"`` an action is a step of a play (one card at a time, then
done: :mod:`eights.rl.factored`, 62 actions whatever the rules), and the agent building a
play steps again until it is finished; the engine plays the whole play.

Version history: v0, the first version (eights 0.1); ``max_cycles``, ``state()`` and
``state_space`` added to v0, then ``actions="factored"`` (nothing else changes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from eights.rl.table import RENDER_MODES, RulesArg, Table, check_limit, check_render_mode

__all__ = ["ID", "env", "raw_env"]

ID = "eights/Eights-v0"
"""The id in PettingZoo's registry (``pettingzoo.make("aec", ID, rules=...)``)."""


def env(rules: RulesArg = "huit-fou", players: int | None = None, *,
        render_mode: str | None = None, illegal_reward: float | None = -1.0,
        **options: Any) -> AECEnv:
    """The environment with PettingZoo's usual wrappers: an illegal code ends the episode
    with ``illegal_reward`` for the offender (``None``: no such wrapper, the error is
    raised), a code out of the action space fails an assertion, and the order of calls
    (``reset`` first) is enforced. ``options`` are those of :class:`raw_env`."""
    made: AECEnv = raw_env(rules, players, render_mode=render_mode, **options)
    if illegal_reward is not None:
        made = wrappers.TerminateIllegalWrapper(made, illegal_reward=illegal_reward)
    made = wrappers.AssertOutOfBoundsWrapper(made)
    return wrappers.OrderEnforcingWrapper(made)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo's names: env, raw_env
    """A round (or match) of ``rules`` with ``players`` seats, one agent a seat.

    ``rules``: a preset name, a rules file path, an inline table or a
    :class:`~eights.engine.rules.Rules` (``overrides``: ``key=value`` strings, as
    ``--set``); ``players``: the rule set's default when ``None``; ``reward``:
    ``points`` (zero-sum), ``raw`` or ``win`` (:data:`eights.codes.REWARDS`);
    ``episode``: ``round`` or ``match``; ``dealer``: a fixed dealer, or ``None`` for one
    drawn from the seed; ``max_cycles``: the episode is truncated after ``max_cycles *
    players`` moves (``None``: never; a factored step is a move); ``render_mode``: ``ansi``
    (the table as a string) or ``human`` (printed after every step); ``actions``:
    ``whole`` (one code a play) or ``factored`` (a play one card at a time, then done:
    :mod:`eights.rl.factored`).
    """

    metadata = {"render_modes": list(RENDER_MODES), "name": "eights_v0",  # noqa: RUF012 (AECEnv's)
                "is_parallelizable": False, "render_fps": 1}

    def __init__(self, rules: RulesArg = "huit-fou", players: int | None = None, *,
                 reward: str = "points", episode: str = "round", dealer: int | None = None,
                 overrides: Sequence[str] | Mapping[str, Any] = (),
                 max_cycles: int | None = None, render_mode: str | None = None,
                 actions: str = "whole") -> None:
        super().__init__()
        check_render_mode(render_mode)
        check_limit("max_cycles", max_cycles, "cycles (of one move a seat)")
        self.table = Table(rules, players, reward=reward, episode=episode, dealer=dealer,
                           overrides=overrides, actions=actions)
        """The rules, the game (``table.game``, an engine :class:`~eights.engine.game.Game`)
        and the encodings."""
        self.render_mode = render_mode
        self.possible_agents = [f"player_{s}" for s in range(self.table.players)]
        self.agent_name_mapping = {a: s for s, a in enumerate(self.possible_agents)}
        self.observation_spaces = {a: self.table.observation_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.table.actions)
                              for a in self.possible_agents}
        self.state_space = self.table.state_space
        """The global state's space (:meth:`state`)."""
        self.max_cycles = max_cycles
        self.agents: list[str] = []
        self.np_random: np.random.Generator | None = None
        self._moves = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new round: with ``seed``, the same seed deals the same game; without, the
        next deal of the stream the last seed began (fresh entropy the first time)."""
        if seed is not None or self.np_random is None:
            self.np_random, _ = seeding.np_random(seed)
        game = self.table.deal(self.np_random)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._moves = 0
        assert game.to_play is not None
        self.agent_selection = self.possible_agents[game.to_play]

    def observe(self, agent: str) -> dict[str, Any]:
        return self.table.observation(self.agent_name_mapping[agent])

    def state(self) -> npt.NDArray[np.int32]:
        """The global state, for a centralised critic: every seat's observation in seat
        order, so every hand (:meth:`Table.state <eights.rl.table.Table.state>`)."""
        return self.table.state()

    def step(self, action: Any) -> None:
        """Play ``action`` (a code) for ``agent_selection``; at the end of a round every
        agent gets its reward, and the episode ends (or the next round is dealt)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if not self.table.is_legal(action):
            raise self.table.illegal(action, agent)
        game = self.table.live
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        chosen = self.table.advance(action)
        self._moves += 1
        if chosen is None:  # a step of a play not finished (factored): the game waits
            self._step_limit()
            self._accumulate_rewards()
            return
        game.push(chosen)
        if game.over:
            for a, r in zip(self.possible_agents, self.table.rewards(), strict=True):
                self.rewards[a] = r
            if self.table.episode == "round" or game.match_over:
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                game.next_round()
        self._step_limit()
        self.table.refresh()
        self._accumulate_rewards()
        if game.to_play is not None:
            self.agent_selection = self.possible_agents[game.to_play]
        if self.render_mode == "human":
            self.render()

    def _step_limit(self) -> None:
        """Truncate the episode at ``max_cycles * players`` moves."""
        if (self.max_cycles is not None and not any(self.terminations.values())
                and self._moves >= self.max_cycles * self.table.players):
            self.truncations = dict.fromkeys(self.agents, True)

    def render(self) -> str | npt.NDArray[np.uint8] | None:
        """The table in words (``ansi``: returned; ``human``: printed; ``rgb_array``: drawn
        on an image, returned)."""
        return self.table.render(self.render_mode, self.possible_agents)

    def close(self) -> None:
        """Nothing to release."""

