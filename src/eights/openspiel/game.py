"""The OpenSpiel game ``python_eights``: :class:`EightsGame`, :class:`EightsState`, the
observer, and the bridges to OpenSpiel's search (resampling, an eights bot as a
``pyspiel.Bot``, OpenSpiel's ISMCTS set up with a seed)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

import eights.codes as codes
from eights.bots.basic import Bot
from eights.engine.cards import CARDS, Rank
from eights.engine.errors import RulesError
from eights.engine.rules import Rules, Scoring, load_rules
from eights.engine.tables import tables_for
from eights.openspiel.chance import Round
from eights.openspiel.resample import resample
from eights.openspiel.views import (
    PUBLIC_FLAGS,
    info_text,
    observation_text,
    public_text,
    recall,
    recall_blocks,
    referee_text,
)

__all__ = ["GAME_TYPE", "MAX_GAME_LENGTH", "PARAMETERS", "BotAdapter", "EightsGame",
           "EightsObserver", "EightsPublicObserver", "EightsState", "describe_observation_type",
           "ismcts_bot", "resampler", "utility_range"]

PARAMETERS: dict[str, Any] = {"rules": "classic", "players": 0, "reward": "points", "dealer": 0}
"""The game's parameters and their defaults: ``rules`` a preset name or a rules file path,
``players`` 0 for the rule set's default, ``reward`` one of :data:`eights.codes.REWARDS`,
``dealer`` the seat that deals (the next one plays first)."""

MAX_GAME_LENGTH = 100_000
"""Decisions in a round, at most: the bound the property tests hold random play to. The
rules of the family bound no round in general (a reshuffled stock can go round and round);
see ``docs/openspiel.md`` for the longest rounds measured."""

_UTILITY = {"points": pyspiel.GameType.Utility.ZERO_SUM,
            "raw": pyspiel.GameType.Utility.GENERAL_SUM,
            "win": pyspiel.GameType.Utility.GENERAL_SUM}


def _game_type(utility: Any = pyspiel.GameType.Utility.ZERO_SUM, low: int = 2,
               high: int = 20) -> Any:
    return pyspiel.GameType(
        short_name="python_eights",
        long_name="eights: Crazy Eights and its family (any rule set)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=PARAMETERS,
    )


GAME_TYPE = _game_type()
"""The registered type (the default ``reward``, points: zero-sum); a game's own type
(``get_type()``) has its rule set's player range and its reward's utility."""


def utility_range(rules: Rules, players: int, reward: str) -> tuple[float, float]:
    """Bounds of a seat's return: every card's points in one hand (times the largest
    ``out_multiplier``), or 1 a round won, or the last placing; under ``overflow`` (HF9)
    twice the deck's draw cards as penalty points, a bound the rules do not guarantee but
    no measured round comes near (``docs/openspiel.md``)."""
    if reward == "win":
        return -1.0, 1.0
    t = tables_for(rules)
    deck = rules.deck(players)
    if rules.scoring is Scoring.ROUNDS_WON:
        most = 1
    elif rules.scoring is Scoring.PLACINGS:
        most = players - 1
    else:
        most = sum(rules.points[Rank(c >> 2)] for c in deck)
    penalty = 2 * sum(t.draw[c] for c in deck) if rules.overflow else 0
    times = max(t.out_multiplier)
    if reward == "raw":
        bound = (most + penalty) * times
    else:  # points: a seat's points less the mean, penalties on either side
        bound = (most + 2 * penalty) * times
    return -float(bound), float(bound)


class EightsGame(pyspiel.Game):  # type: ignore[misc]
    """``python_eights``: one round of any rule set (see :mod:`eights.openspiel`)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(params or {})
        unknown = sorted(set(given) - set(PARAMETERS))
        if unknown:
            raise ValueError(f"python_eights: unknown parameter {', '.join(unknown)}; "
                             f"parameters: {', '.join(PARAMETERS)}")
        values = {**PARAMETERS, **given}
        rules = load_rules(str(values["rules"]))
        players = int(values["players"]) or rules.default_players
        rules.check_players(players)
        reward = str(values["reward"])
        if reward not in codes.REWARDS:
            raise ValueError(f"python_eights: reward {reward!r} is not one; rewards: "
                             f"{', '.join(codes.REWARDS)}")
        dealer = int(values["dealer"])
        if not 0 <= dealer < players:
            raise RulesError(f"python_eights: dealer {dealer} is not a seat; seats are 0 to "
                             f"{players - 1}")
        self.rules, self.players, self.reward, self.dealer = rules, players, reward, dealer
        low, high = utility_range(rules, players, reward)
        info = pyspiel.GameInfo(
            num_distinct_actions=codes.action_count(rules, players),
            max_chance_outcomes=len(CARDS),
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if reward == "points" else None,
            max_game_length=MAX_GAME_LENGTH,
        )
        kind = _game_type(_UTILITY[reward], *rules.players)
        super().__init__(kind, info, {**values, "players": players})

    def new_initial_state(self) -> EightsState:
        """The round before the deal: a chance node for every card dealt."""
        return EightsState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
                         ) -> EightsObserver | EightsPublicObserver:
        """The observation (``perfect_recall`` false) or information state (true) of one
        seat: its private cards and everything public (``private_info`` SINGLE_PLAYER, the
        default); or the public observation (``private_info`` NONE, ``perfect_recall``
        false): no seat's cards, the same for every player."""
        if params:
            raise ValueError(f"python_eights observers take no parameters; given {dict(params)}")
        if iig_obs_type is None:
            return EightsObserver(self.players, False)
        private = iig_obs_type.private_info
        if iig_obs_type.public_info and private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return EightsObserver(self.players, bool(iig_obs_type.perfect_recall))
        if (iig_obs_type.public_info and private == pyspiel.PrivateInfoType.NONE
                and not iig_obs_type.perfect_recall):
            return EightsPublicObserver(self.players)
        raise ValueError("python_eights observes one seat (public_info True, private_info "
                         "SINGLE_PLAYER, perfect_recall either), or the public information "
                         "alone (public_info True, private_info NONE, perfect_recall False); "
                         f"not {describe_observation_type(iig_obs_type)}")


def describe_observation_type(iig_obs_type: Any) -> str:
    """A ``pyspiel.IIGObservationType`` by its fields, as it would be written (its own
    ``str`` is ``<pyspiel.IIGObservationType object at 0x...>``).

    >>> print(describe_observation_type(pyspiel.IIGObservationType(perfect_recall=True)))
    IIGObservationType(public_info=True, perfect_recall=True, private_info=PrivateInfoType.SINGLE_PLAYER)
    """
    fields = []
    for name in ("public_info", "perfect_recall", "private_info"):
        value = getattr(iig_obs_type, name, None)
        fields.append(f"{name}={value}")
    return f"IIGObservationType({', '.join(fields)})"


class EightsState(pyspiel.State):  # type: ignore[misc]
    """A state of ``python_eights``; ``round`` holds it all (:class:`~eights.openspiel.chance.Round`)."""

    def __init__(self, game: EightsGame) -> None:
        super().__init__(game)
        self.round = Round(game.rules, game.players, game.dealer, game.reward)

    def current_player(self) -> int:
        rnd = self.round
        if rnd.awaiting:
            return int(pyspiel.PlayerId.CHANCE)
        if rnd.over:
            return int(pyspiel.PlayerId.TERMINAL)
        return rnd.to_play

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self.round.legal())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.round.outcomes()

    def _apply_action(self, action: int) -> None:
        if self.round.awaiting:
            self.round.add_card(int(action))
        else:
            self.round.act(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if not 0 <= action < len(CARDS):
                raise ValueError(f"chance outcome {action} is not a card code (0 to 52)")
            return f"card {CARDS[action]}"
        return str(codes.code_action(int(action)))

    def is_terminal(self) -> bool:
        return self.round.over

    def returns(self) -> list[float]:
        return self.round.returns()

    def __str__(self) -> str:
        return referee_text(self.round)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EightsState:
        """A state ``player_id`` cannot tell from this one, the hidden cards dealt again
        (:func:`eights.openspiel.resample.resample`), with a generator seeded from
        ``probability_sampler()``."""
        return self.resample(player_id, random.Random(int(probability_sampler() * 2**53)))

    def resample(self, player: int, rng: random.Random) -> EightsState:
        """:meth:`resample_from_infostate` with an eights generator."""
        state: EightsState = self.get_game().new_initial_state()
        state.round = resample(self.round, player, rng)
        return state


Pieces = list[tuple[str, int, tuple[int, ...]]]
"""An observer's named views: name, size and shape, in the tensor's order."""


def _views(pieces: Pieces) -> tuple[npt.NDArray[np.float32], dict[str, Any]]:
    """The tensor of ``pieces`` and its named views (reshaped slices of it)."""
    tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
    views: dict[str, Any] = {}
    at = 0
    for name, size, shape in pieces:
        views[name] = tensor[at:at + size].reshape(shape)
        at += size
    return tensor, views


class EightsObserver:
    """OpenSpiel's Python observer: ``tensor`` with named views in ``dict``, filled by
    :meth:`set_from`; :meth:`string_from` in words. The observation is
    :func:`eights.codes.observation`; the information state adds
    :func:`eights.openspiel.views.recall` (its blocks: ``dealt``, ``received``,
    ``played``, ``decisions``)."""

    def __init__(self, players: int, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        pieces: Pieces = [(name, size, (size,)) for name, size in codes.OBSERVATION_BLOCKS]
        pieces.append(("seats", 5 * players, (5, players)))
        self.split = sum(size for _, size, _ in pieces)
        if perfect_recall:
            shapes = {"played": (players, 53), "decisions": (3, players)}
            pieces += [(name, size, shapes.get(name, (size,)))
                       for name, size in recall_blocks(players)]
        self.tensor, self.dict = _views(pieces)

    def set_from(self, state: EightsState, player: int) -> None:
        """Fill :attr:`tensor` with what ``player`` sees of ``state``."""
        self.tensor.fill(0)
        obs = state.round.observation(player)
        if obs is not None:
            self.tensor[:self.split] = codes.observation(obs)
        if self.perfect_recall:
            self.tensor[self.split:] = recall(state.round, player)

    def string_from(self, state: EightsState, player: int) -> str:
        """What ``player`` sees of ``state``, in words."""
        if self.perfect_recall:
            return info_text(state.round, player)
        return observation_text(state.round, player)


class EightsPublicObserver:
    """The public observation: what every seat and a spectator see, no seat's cards.
    ``tensor`` is :func:`eights.codes.observation` without the ``hand`` and ``drawn``
    blocks and the ``observer to play`` flag, its seats in absolute order (``seats``:
    hand size, out, to play, dealer, attacker of seat ``s`` in column ``s``); the same
    for every ``player``. :meth:`string_from` is :func:`~eights.openspiel.views.public_text`.
    Zeros during the deal; the hands shown at the end are not in it."""

    def __init__(self, players: int) -> None:
        kept = [(name, size) for name, size in codes.OBSERVATION_BLOCKS
                if name not in ("hand", "drawn")]
        pieces: Pieces = [
            (name, len(PUBLIC_FLAGS) if name == "flags" else size,
             (len(PUBLIC_FLAGS),) if name == "flags" else (size,)) for name, size in kept]
        pieces.append(("seats", 5 * players, (5, players)))
        self.tensor, self.dict = _views(pieces)
        self._blocks = [(codes.O_TOP, codes.O_DRAWN), (codes.O_SUIT, codes.O_FLAGS)]

    def set_from(self, state: EightsState, player: int) -> None:
        """Fill :attr:`tensor` with the public information of ``state`` (``player`` is not
        used: the view is every player's)."""
        self.tensor.fill(0)
        obs = state.round.observation(0)  # seat 0's seats are in absolute order
        if obs is None:
            return
        full = codes.observation(obs)
        at = 0
        for start, end in self._blocks:
            self.tensor[at:at + end - start] = full[start:end]
            at += end - start
        for i in PUBLIC_FLAGS:
            self.tensor[at] = full[codes.O_FLAGS + i]
            at += 1
        self.tensor[at:] = full[codes.O_SEATS:]

    def string_from(self, state: EightsState, player: int) -> str:
        """The public information in words (the same for every ``player``)."""
        return public_text(state.round)


# ---------------------------------------------------------------- search and bots

def resampler(seed: int) -> Callable[[EightsState, int], EightsState]:
    """A seeded resampling callback for OpenSpiel's Python ISMCTS (``set_resampler``):
    its default sampler is seeded from the clock."""
    rng = random.Random(seed)

    def resample_state(state: EightsState, player: int) -> EightsState:
        return state.resample(player, rng)

    return resample_state


def ismcts_bot(game: EightsGame, *, simulations: int = 100, uct_c: float = 2.0,
               seed: int = 0, rollouts: int = 1) -> Any:
    """OpenSpiel's ISMCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``) on ``game``,
    its every random choice from ``seed``: random rollouts, worlds from
    :func:`resampler`, nodes keyed by the information state string.

    Use this one, never OpenSpiel's C++ ``pyspiel.ISMCTSBot``: its ``step`` on
    ``python_eights`` (on any Python game, OpenSpiel 2.0.2) kills the process with a
    segmentation fault, as it releases the GIL and then calls back into Python (see
    ``docs/openspiel.md``); this is its Python twin.
    """
    from open_spiel.python.algorithms import ismcts, mcts

    evaluator = mcts.RandomRolloutEvaluator(rollouts, np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c, simulations,
                           random_state=np.random.RandomState(seed + 1))
    bot.set_resampler(resampler(seed + 2))
    return bot


class BotAdapter(pyspiel.Bot):  # type: ignore[misc]
    """An eights bot (:mod:`eights.bots`) as a ``pyspiel.Bot`` on ``python_eights``: it
    chooses from the seat's observation, with a generator seeded by ``seed``."""

    def __init__(self, bot: Bot, seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot
        self.rng = random.Random(seed)

    def step(self, state: EightsState) -> int:
        player = state.current_player()
        obs = state.round.observation(player)
        if player < 0 or obs is None:
            raise ValueError(f"{self.bot.name}: no seat is to decide in this state")
        return codes.action_code(self.bot.choose(obs, obs.legal, self.rng))

    def restart_at(self, state: EightsState) -> None:
        pass


pyspiel.register_game(GAME_TYPE, EightsGame)
