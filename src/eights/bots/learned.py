"""The learned bot: a network trained on the expert's play, then by self-play (:mod:`eights.learn`),
run in NumPy.

The network scores a (state, action) pair, ``Q(s, a)``: the logit of playing ``a``
in a softmax over the legal actions (the default learners: imitation, then policy
gradient), or with the ``dmc`` learner the round's expected reward (+1 a win, -1 a
loss), as in DouZero; the bot plays the best score. It is a small multilayer perceptron whose
first layer is split in two, ``relu(W_s s + W_a a + b)``, so a decision costs one
product for the state and one row a legal action; then ``hidden`` layers and a
scalar. Playing needs only NumPy: neither ``eights play`` nor ``eights serve``
imports a training framework.

- :func:`state_features`: one seat's observation (:func:`eights.codes.observation`)
  as floats, counts scaled, plus the cards that seat has not seen (the deck less its
  hand and the discard pile);
- :func:`action_features`: action codes' features (its top card, rank and suit,
  the suit it names, the call, draw/take/pass/name, the cards under it);
- :class:`Model`: the weights (``.npz``) and their card (``.json``): the rules, the
  player count, how it was trained and what it measured;
- :class:`LearnedBot`: ``learned`` (``learned:model=PATH:temperature=0.5``).

Shipped models live in the package (``eights/models/<rules>-<players>p.npz`` with
its ``.json`` card); :func:`shipped_model` finds the one for a rule set and player
count, and refuses rules that differ from the preset it was trained on.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from eights.codes import (
    A_DRAW,
    A_MULTI,
    A_NAME,
    N_ACTIONS,
    O_COUNTS,
    O_DISCARD,
    O_HAND,
    O_SEATS,
    UNDER,
    action_code,
    observation_size,
)
from eights.codes import (
    observation as observation_ints,
)
from eights.engine.actions import Action
from eights.engine.observation import Observation
from eights.engine.rules import Rules, load_rules

__all__ = ["ACTION_FEATURES", "FORMAT", "LearnedBot", "Model", "action_features", "action_table",
           "card_path", "deck_counts", "shipped_model", "shipped_models", "state_features",
           "state_size"]

FORMAT = 1
"""The model files' format (the features and the layout of the weights)."""
Float32Array = npt.NDArray[np.float32]

_COUNT_SCALE = (1 / 8, 1 / 32, 1 / 2, 1 / 4, 1 / 64, 1 / 4, 1 / 4)
"""Pending draw, stock, skip due, draws this turn, plays, passes, seats skipped."""
_HAND_SIZE_SCALE = 1 / 8


def deck_counts(rules: Rules, players: int) -> Float32Array:
    """Copies of each card code (53) in the deck of ``rules`` for ``players``."""
    out = np.zeros(53, dtype=np.float32)
    for c in rules.deck(players):
        out[int(c)] += 1
    return out


def state_size(players: int) -> int:
    """Floats in :func:`state_features`: the observation and the 53 cards unseen."""
    return observation_size(players) + 53


@lru_cache(maxsize=16)
def _scale(players: int) -> Float32Array:
    scale = np.ones(observation_size(players), dtype=np.float32)
    scale[O_COUNTS:O_COUNTS + 7] = _COUNT_SCALE
    scale[O_SEATS:O_SEATS + players] = _HAND_SIZE_SCALE
    return scale


def state_features(obs: npt.NDArray[Any], deck: Float32Array) -> Float32Array:
    """Observations (one a row, :func:`eights.codes.observation`'s integers) as the
    network's input: counts scaled, then the cards unseen by the observer."""
    obs = np.atleast_2d(obs)
    players = (obs.shape[1] - O_SEATS) // 5
    out = np.empty((obs.shape[0], obs.shape[1] + 53), dtype=np.float32)
    np.multiply(obs, _scale(players), out=out[:, :obs.shape[1]])
    out[:, obs.shape[1]:] = deck - obs[:, O_HAND:O_HAND + 53] - obs[:, O_DISCARD:O_DISCARD + 53]
    return out


ACTION_FEATURES = 53 + 14 + 5 + 5 + 1 + 4 + 4 + 2
"""Floats a legal action's features hold (see :func:`action_features`)."""


_UNDER = np.array(UNDER, dtype=np.int64)
_KIND = 53 + 14 + 5 + 5 + 1


def action_features(codes: Sequence[int] | npt.NDArray[np.int64]) -> Float32Array:
    """The features of action codes, one row each: top card (53, one-hot), its rank (14)
    and suit (5, joker last), the suit named (5, none last), the call, draw / take / pass /
    name a suit (4), the cards under it by suit (4, halved), the jokers under it and all
    the cards laid (quartered)."""
    codes = np.asarray(codes, dtype=np.int64)
    out = np.zeros((len(codes), ACTION_FEATURES), dtype=np.float32)
    special = (codes >= A_DRAW) & (codes < A_MULTI)
    multi = codes >= A_MULTI
    u = np.where(multi, (codes - A_MULTI) // 530, -1)
    low = np.where(multi, (codes - A_MULTI) % 530, codes)
    card, suit, call = low // 10, (low % 10) >> 1, low & 1
    i = np.nonzero(~special)[0]
    c = card[i]
    out[i, c] = 1
    out[i, 53 + np.minimum(c >> 2, 13)] = 1
    out[i, 67 + np.where(c == 52, 4, c & 3)] = 1
    out[i, 72 + suit[i]] = 1
    out[i, 77] = call[i]
    j = np.nonzero(special)[0]
    out[j, _KIND + np.minimum(codes[j] - A_DRAW, 3)] = 1
    named = np.nonzero(special & (codes >= A_NAME))[0]
    out[named, 72 + codes[named] - A_NAME] = 1
    jokers = multi & (card == 52)
    plain = np.nonzero(multi & ~jokers)[0]
    out[plain, _KIND + 4:_KIND + 8] = _UNDER[u[plain] + 1] / 2
    out[jokers, _KIND + 8] = (u[jokers] + 1) / 4
    under = np.where(jokers, u + 1, np.where(multi, _UNDER[u + 1].sum(axis=1), 0))
    out[i, _KIND + 9] = (1 + under[i]) / 4
    return out


@lru_cache(maxsize=4)
def action_table(count: int = N_ACTIONS) -> Float32Array:
    """:func:`action_features` of the codes ``0 .. count - 1`` (read only)."""
    table = action_features(np.arange(count))
    table.setflags(write=False)
    return table


@dataclass(frozen=True)
class Model:
    """A trained network and its card."""

    weights: tuple[Float32Array, ...]
    """``W_s, W_a, b_0``, then ``W_i, b_i`` of each further layer; the last is the output."""
    card: dict[str, Any]
    """What the model is: ``rules`` (a rules table), ``players``, ``training``, ``strength``."""

    @property
    def players(self) -> int:
        return int(self.card["players"])

    @property
    def rules(self) -> Rules:
        return _rules_of(json.dumps(self.card["rules"], sort_keys=True))

    def q_values(self, state: Float32Array, actions: Float32Array) -> Float32Array:
        """``Q(s, a)`` of one state's features (a row) for each row of action features."""
        w = self.weights
        h = np.maximum(state @ w[0] + w[2] + actions @ w[1], 0.0)
        for i in range(3, len(w) - 2, 2):
            h = np.maximum(h @ w[i] + w[i + 1], 0.0)
        out: Float32Array = (h @ w[-2] + w[-1])[:, 0]
        return out

    def save(self, path: Path) -> None:
        """Write ``path`` (``.npz``) and its card beside it (``.json``)."""
        path = Path(path).with_suffix(".npz")
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, Any] = {f"w{i}": w for i, w in enumerate(self.weights)}
        np.savez(path, **arrays)
        card_path(path).write_text(json.dumps(self.card, indent=1, sort_keys=True) + "\n", "utf-8")

    @classmethod
    def load(cls, path: Path | str) -> Model:
        """Read a model and its card; :class:`ValueError` names what is missing or wrong."""
        path = Path(path)
        if path.suffix != ".npz":
            path = path.with_suffix(".npz")
        try:
            with np.load(path) as data:
                weights = tuple(data[f"w{i}"].astype(np.float32) for i in range(len(data.files)))
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"cannot read the model {str(path)!r}: {exc}") from None
        try:
            card = json.loads(card_path(path).read_text("utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ValueError(f"the model {str(path)!r} has no readable card "
                             f"{str(card_path(path))!r}: {exc}") from None
        if card.get("format") != FORMAT:
            raise ValueError(f"the model {str(path)!r} has format {card.get('format')!r}; this "
                             f"version of eights reads format {FORMAT}: train it again")
        model = cls(weights, card)
        if (len(weights) < 5 or weights[0].shape[0] != state_size(model.players)
                or weights[1].shape[0] != ACTION_FEATURES or weights[-1].shape != (1,)):
            raise ValueError(f"the model {str(path)!r} has weights of unexpected shapes "
                             f"{[w.shape for w in weights]}")
        return model


def card_path(path: Path) -> Path:
    """The card of the model at ``path``."""
    return path.with_suffix(".json")


@lru_cache(maxsize=32)
def _rules_of(table: str) -> Rules:
    return load_rules(json.loads(table))


def _models_dir() -> Path:
    return Path(str(resources.files("eights") / "models"))


def shipped_models() -> list[tuple[str, int]]:
    """The shipped models: (rules name, players), sorted (a learned model is an ``.npz``
    beside its ``.json`` card; the belief models, cards inside, are not among them)."""
    found = []
    for p in sorted(_models_dir().glob("*p.npz")):
        if not card_path(p).exists():
            continue
        name, _, players = p.stem.rpartition("-")
        found.append((name, int(players[:-1])))
    return found


def shipped_model(rules: Rules, players: int) -> Path:
    """The shipped model for ``rules`` with ``players``; :class:`ValueError` when there is
    none, or when ``rules`` differ from the preset the model learned."""
    path = _models_dir() / f"{rules.name}-{players}p.npz"
    if not path.exists():
        have = ", ".join(f"{n} {p}p" for n, p in shipped_models()) or "none"
        raise ValueError(f"no learned model ships for {rules.name} with {players} players "
                         f"(shipped: {have}); train one with `eights train {rules.name} "
                         f"--players {players}` and use learned:model=PATH")
    return path


@lru_cache(maxsize=16)
def _shipped(path: Path) -> Model:
    """A shipped model, read once per process (every learned bot of a server shares it, and
    its first move reads no file)."""
    return Model.load(path)


def _check_fits(model: Model, rules: Rules, players: int, where: str) -> None:
    if model.players != players:
        raise ValueError(f"the learned model {where} plays {model.players} players, not "
                         f"{players}; train one for {players} players with eights train")
    if model.rules != rules:
        raise ValueError(f"the learned model {where} learned the rules {model.rules.name!r}, "
                         f"which differ from these ({rules.name!r}, house rules?); train a "
                         f"model for them with eights train and use learned:model=PATH")


class LearnedBot:
    """Plays the action of highest ``Q`` (``temperature`` 0), or draws one with weights
    ``exp(Q / temperature)`` from the game's generator.

    ``model``: a model file (``.npz`` with its ``.json`` card); by default the shipped
    model for the game's rules and player count (an error names what ships)."""

    name = "learned"

    def __init__(self, model: str | None = None, temperature: float = 0.0) -> None:
        if not temperature >= 0 or not math.isfinite(temperature):
            raise ValueError(f"learned temperature must be 0 or more, not {temperature}")
        self.path = None if model is None else Path(model)
        self.temperature = temperature
        self._model = None if self.path is None else Model.load(self.path)
        self._fit: tuple[Rules, int, Model, Float32Array] | None = None

    def check_table(self, rules: Rules, players: int) -> None:
        """Raise :class:`ValueError` (saying why) unless this bot has a model for ``rules``
        with ``players``: the server asks before it seats the bot."""
        self.model_for(rules, players)

    def model_for(self, rules: Rules, players: int) -> Model:
        """The model this bot plays ``rules`` with (loaded and checked once)."""
        return self._prepared(rules, players)[0]

    def _prepared(self, rules: Rules, players: int) -> tuple[Model, Float32Array]:
        fit = self._fit
        if fit is None or fit[0] is not rules or fit[1] != players:
            if self._model is None:
                model, where = _shipped(shipped_model(rules, players)), "shipped"
            else:
                model, where = self._model, repr(str(self.path))
            _check_fits(model, rules, players, where)
            fit = self._fit = (rules, players, model, deck_counts(rules, players))
        return fit[2], fit[3]

    def q_values(self, observation: Observation, legal: Sequence[Action]) -> Float32Array:
        """``Q`` of each legal action."""
        model, deck = self._prepared(observation.rules, observation.players)
        state = state_features(np.array(observation_ints(observation), dtype=np.float32), deck)
        return model.q_values(state, action_features([action_code(a) for a in legal]))

    def choose(self, observation: Observation, legal: Sequence[Action],
               rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        q = self.q_values(observation, legal)
        if self.temperature <= 0:
            return legal[int(np.argmax(q))]
        weights = np.exp((q - q.max()) / self.temperature)
        point = rng.random() * float(weights.sum())
        for action, w in zip(legal, weights, strict=True):
            point -= float(w)
            if point < 0:
                return action
        return legal[-1]
