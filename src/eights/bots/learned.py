"""The learned bot: a network trained on the expert's play (:mod:`eights.learn`), run in NumPy.

The network scores a (state, action) pair, ``Q(s, a)``: the logit of playing ``a``
in a softmax over the legal actions (imitation, then policy gradient), or with the
``dmc`` learner the round's expected reward (+1 a win, -1 a loss), as in DouZero; the
bot plays the best score. It is a small multilayer perceptron whose first layer is split
in two, ``relu(W_s s + W_a a + b)``, so a decision costs one product for the state and
one row a legal action; then ``hidden`` layers and a scalar. Playing needs only NumPy:
neither ``eights play`` nor ``eights serve`` imports a training framework.

Two formats of features:

- the family's (:data:`FAMILY_FORMAT`, the shipped model): :func:`family_state` reads the
  observation with its seats laid out for :data:`MAX_SEATS` in turn order, what the
  up-card does (:func:`card_effects`) and the rules themselves (:func:`rules_features`);
  :func:`family_actions` adds to each action's features what its card does under these
  rules. One model plays every rule set and player count;
- a specialist's (:data:`FORMAT`): :func:`state_features` (the observation and the cards
  unseen) and :func:`action_features`, for the one rule set and player count it learned.

:class:`Encoder` gives a model's features at a table; :class:`Model` holds the weights
(``.npz``) and their card (``.json``); :class:`LearnedBot` is ``learned``
(``learned:model=PATH:temperature=0.5``).

Shipped models live in the package: ``eights/models/family.npz`` (with
``family.json``) and the specialists ``<rules>-<players>p.npz`` kept where they measured
better than the family model on their table; :func:`shipped_model` finds the one for a
table.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from eights.bots.blas import one_thread
from eights.codes import (
    A_DRAW,
    A_MULTI,
    A_NAME,
    N_ACTIONS,
    O_COUNTS,
    O_DISCARD,
    O_FLAGS,
    O_HAND,
    O_SEATS,
    O_TOP,
    UNDER,
    action_code,
    observation_size,
)
from eights.codes import (
    observation as observation_ints,
)
from eights.engine.actions import Action
from eights.engine.cards import CARDS, Rank
from eights.engine.observation import Observation
from eights.engine.rules import (
    BlockedScoring,
    CardRule,
    DrawPolicy,
    GoingOut,
    MultiPlay,
    ReverseTwo,
    Rules,
    Scoring,
    StarterWild,
    WildIf,
    load_rules,
)

__all__ = ["ACTION_FEATURES", "CARD_RULE_FEATURES", "FAMILY_ACTION", "FAMILY_FORMAT",
           "FAMILY_MODEL", "FAMILY_STATE", "FORMAT", "MAX_SEATS", "PADDED", "RULES_FEATURES",
           "Encoder", "LearnedBot", "Model", "action_features", "action_table", "card_effects",
           "card_path", "card_rule_features", "deck_counts", "family_actions", "family_model",
           "family_model_path", "family_state", "model_file", "pad_observation", "plays_alike",
           "rules_features", "shipped_model", "shipped_models", "state_features", "state_size"]

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


def action_features(codes: Sequence[int] | npt.NDArray[np.integer[Any]]) -> Float32Array:
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


# ---------------------------------------------------------------- the family's features
FAMILY_FORMAT = 2
"""The family model's format: features that read the rules, any player count."""
MAX_SEATS = 10
"""Seats the family model's observation holds (in turn order from the observer); at more
players it sees the first ten and, through the next and previous seats' block, both
neighbours."""
_SEAT_FEATURES = 5
PADDED = O_SEATS + _SEAT_FEATURES * MAX_SEATS
"""Integers of a padded observation (:func:`pad_observation`)."""
CARD_RULE_FEATURES = 23
"""Floats describing what one card does (:func:`card_rule_features`)."""
_GOING_OUT = {GoingOut.SUIT: 0, GoingOut.NO: 1, GoingOut.PENALTY: 2}


def card_rule_features(rule: CardRule, *, cancels: bool = False,
                       stacks: bool = False) -> list[float]:
    """What a card does, as :data:`CARD_RULE_FEATURES` floats: wild, names a suit, wild only
    without the suit, ranks it may not cover / 4, takes the covered rank, transparent, draw
    / 4, stacks, cards that stack on it / 8, cards that cancel it / 8, skip, pass on,
    reverse, again, again penalty / 2, any card follows, out multiplier - 1 (halved), must be
    covered, going out (suit, no, penalty; 'yes' is none of them), and whether the card
    cancels or stacks on some forced draw (``cancels``, ``stacks``)."""
    going = [0.0, 0.0, 0.0]
    if rule.going_out in _GOING_OUT:
        going[_GOING_OUT[rule.going_out]] = 1.0
    return [float(rule.wild), float(rule.name_suit), float(rule.wild_if is WildIf.NO_SUIT),
            len(rule.not_on) / 4, float(rule.takes_covered_rank), float(rule.transparent),
            rule.draw / 4, float(rule.stack), len(rule.stack_with) / 8,
            len(rule.cancelled_by) / 8, float(rule.skip), float(rule.pass_on),
            float(rule.reverse), float(rule.again), rule.again_penalty / 2,
            float(rule.any_follows), (rule.out_multiplier - 1) / 2, float(rule.must_cover),
            *going, float(cancels), float(stacks)]


@lru_cache(maxsize=256)
def card_effects(rules: Rules) -> Float32Array:
    """:func:`card_rule_features` of each card code (53 rows; read only): its own table
    where it has one (``[cards.Js]``), else its rank's, ``special_cards`` applied."""
    cancel: set[int] = set()
    stack: set[int] = set()
    for rule in (*rules.cards.values(), *rules.card_tables.values()):
        cancel.update(int(c) for c in rule.cancelled_by)
        stack.update(int(c) for c in rule.stack_with)
    out = np.array([card_rule_features(rules.rule_of(c), cancels=int(c) in cancel,
                                       stacks=int(c) in stack) for c in CARDS],
                   dtype=np.float32)
    out.setflags(write=False)
    return out


def _one_hot(value: object, options: Sequence[object]) -> list[float]:
    return [float(value == o) for o in options]


RULES_FEATURES = 53 + 10 + 2 + 14 + 1 + 4 + 5 + 2 + 8 + 5 + 10 + 4 + 3 + 14 + 3 + 2 + 1 + 14 + 14 \
    + 14 * CARD_RULE_FEATURES
"""Floats of :func:`rules_features`."""


@lru_cache(maxsize=256)
def rules_features(rules: Rules, players: int) -> Float32Array:
    """The rules as the family model reads them, for ``players`` (read only): the fields
    that change play, and nothing else (``name``, ``title``, ``source``, the calls' names,
    the player range are left out; steps by player count are read at ``players``).

    The deck (copies of each card code, halved); the player count (one-hot 2-10, and /
    10); hand size / 10 and decks / 2; the starter (ranks redrawn, effects, what a wild
    starter means); the draw policy and ``max_draws``; several cards a play, voluntary draw
    and pass, replacing after a play, the hand limit and overflow, reshuffling; the
    announcements, calls and their penalties; special cards, forced draws ending the turn,
    a reverse with two players, the limits on plays and passes, repetition, serving the
    last draw, playing on; the scoring and the blocked scoring, the points of each rank /
    50, the target and rounds, teams at this count; the ranks wild cards may not cover and
    which ranks' cards have their own table; then, for each rank (13 and the joker), what
    its cards do (:func:`card_rule_features`, the mean over its four cards)."""
    r = rules
    effects = card_effects(r)
    out: list[float] = list(deck_counts(r, players) / 2)
    out += _one_hot(min(players, MAX_SEATS), range(2, MAX_SEATS + 1)) + [players / 10]
    out += [r.hand_size_for(players) / 10, r.decks_for(players) / 2]
    out += [float(Rank(k) in r.starter_redraw) for k in range(14)]
    out += [float(r.starter_effects)] + _one_hot(r.starter_wild, list(StarterWild))
    out += _one_hot(r.draw, list(DrawPolicy))
    out += [r.max_draws / 5, float(r.max_draws == 0)]
    out += [float(r.multi_play is MultiPlay.SAME_RANK), float(r.voluntary_draw),
            float(r.voluntary_pass), float(r.replace_after_play), r.hand_limit / 20,
            float(r.hand_limit > 0), float(r.overflow), float(r.reshuffle)]
    out += [float(r.announce_last_card), r.announce_penalty / 4, float(r.call_out),
            r.call_out_penalty / 4, r.out_penalty / 4]
    out += [float(r.special_cards), float(r.forced_draw_ends_turn),
            float(r.reverse_two is ReverseTwo.SKIP), r.max_plays / 100, float(r.max_plays > 0),
            r.extra_passes_to_block / 2, float(r.block_on_repetition),
            float(r.served_draw_counts_as_pass), float(r.serve_last_draw), float(r.play_on)]
    out += _one_hot(r.scoring, list(Scoring)) + _one_hot(r.blocked_scoring, list(BlockedScoring))
    out += [r.points.get(Rank(k), 0) / 50 for k in range(14)]
    out += [min(r.target, 1000) / 500, math.log1p(r.target) / 7, float(r.target > 0)]
    out += [min(r.rounds, 20) / 10, float(r.rounds > 0)]
    out += [float(r.has_teams(players))]
    not_on = [0.0] * 14
    for rule in (*r.cards.values(), *r.card_tables.values()):
        for rank in rule.not_on:
            not_on[int(rank)] = 1.0
    out += not_on
    out += [float(any(c.rank == k for c in r.card_tables)) for k in range(14)]
    per_rank = np.zeros((14, CARD_RULE_FEATURES), dtype=np.float32)
    for k in range(13):
        per_rank[k] = effects[k * 4:k * 4 + 4].mean(axis=0)
    per_rank[13] = effects[52]
    vector = np.concatenate([np.array(out, dtype=np.float32), per_rank.ravel()])
    assert len(vector) == RULES_FEATURES, (len(vector), RULES_FEATURES)
    vector.setflags(write=False)
    return vector


def pad_observation(obs: npt.NDArray[Any], players: int) -> npt.NDArray[np.int16]:
    """Observations of ``players`` seats (rows of :func:`eights.codes.observation`) with
    their seats' block laid out for :data:`MAX_SEATS` seats (feature ``k`` of the seat
    ``i`` places after the observer at ``O_SEATS + k * MAX_SEATS + i``; seats past the
    tenth are left out)."""
    obs = np.atleast_2d(obs)
    out = np.zeros((obs.shape[0], PADDED), dtype=np.int16)
    out[:, :O_SEATS] = obs[:, :O_SEATS]
    shown = min(players, MAX_SEATS)
    for k in range(_SEAT_FEATURES):
        at = O_SEATS + k * MAX_SEATS
        out[:, at:at + shown] = obs[:, O_SEATS + k * players:O_SEATS + k * players + shown]
    return out


FAMILY_STATE = PADDED + MAX_SEATS + 2 * _SEAT_FEATURES + 53 + CARD_RULE_FEATURES \
    + RULES_FEATURES
"""Floats of :func:`family_state`."""
_PAD_SCALE = np.ones(PADDED, dtype=np.float32)
_PAD_SCALE[O_COUNTS:O_COUNTS + 7] = _COUNT_SCALE
_PAD_SCALE[O_SEATS:O_SEATS + MAX_SEATS] = _HAND_SIZE_SCALE
_DIRECTION = O_FLAGS + 6


def family_state(padded: npt.NDArray[Any], players: npt.NDArray[np.int64] | int,
                 deck: Float32Array, effects: Float32Array,
                 rules: Float32Array) -> Float32Array:
    """The family model's input for padded observations (:func:`pad_observation`, a row
    each): counts scaled; which of the ten seats are at the table; the next and the
    previous seat in the direction of play (their five features); the cards unseen by the
    observer; what the up-card does (:func:`card_effects`); the rules
    (:func:`rules_features`). ``players``, ``deck`` (53), ``effects`` (53 x
    :data:`CARD_RULE_FEATURES`) and ``rules`` hold for every row, or give one row each."""
    padded = np.atleast_2d(padded)
    rows = padded.shape[0]
    n = np.broadcast_to(np.asarray(players, dtype=np.int64), (rows,))
    out = np.empty((rows, FAMILY_STATE), dtype=np.float32)
    np.multiply(padded, _PAD_SCALE, out=out[:, :PADDED])
    at = PADDED
    out[:, at:at + MAX_SEATS] = np.arange(MAX_SEATS)[None, :] < n[:, None]
    at += MAX_SEATS
    reverse = padded[:, _DIRECTION] > 0
    nxt = np.where(reverse, n - 1, 1)
    prev = np.where(reverse, 1, n - 1)
    r = np.arange(rows)
    for which in (nxt, prev):
        slot = np.minimum(which, MAX_SEATS - 1)
        for k in range(_SEAT_FEATURES):
            out[:, at + k] = out[r, O_SEATS + k * MAX_SEATS + slot]
        at += _SEAT_FEATURES
    deck = np.asarray(deck, dtype=np.float32)
    out[:, at:at + 53] = (deck - padded[:, O_HAND:O_HAND + 53]
                          - padded[:, O_DISCARD:O_DISCARD + 53])
    at += 53
    top = np.argmax(padded[:, O_TOP:O_TOP + 53], axis=1)
    effects = np.asarray(effects, dtype=np.float32)
    out[:, at:at + CARD_RULE_FEATURES] = (effects[top] if effects.ndim == 2
                                          else effects[r, top])
    at += CARD_RULE_FEATURES
    out[:, at:] = rules
    return out


FAMILY_ACTION = ACTION_FEATURES + CARD_RULE_FEATURES
"""Floats of :func:`family_actions`."""


def family_actions(codes: Sequence[int] | npt.NDArray[np.integer[Any]],
                   effects: Float32Array) -> Float32Array:
    """The family model's features of action codes: :func:`action_features`, then what
    the top card laid does under these rules (``effects``: :func:`card_effects`, or one
    such table a row; zeros for draw, take, pass and naming a suit)."""
    codes = np.asarray(codes, dtype=np.int64)
    out = np.zeros((len(codes), FAMILY_ACTION), dtype=np.float32)
    out[:, :ACTION_FEATURES] = action_features(codes)
    card = np.where(codes >= A_MULTI, (codes - A_MULTI) % 530, codes) // 10
    plays = np.nonzero((codes < A_DRAW) | (codes >= A_MULTI))[0]
    effects = np.asarray(effects, dtype=np.float32)
    out[plays, ACTION_FEATURES:] = (effects[card[plays]] if effects.ndim == 2
                                    else effects[plays, card[plays]])
    return out


class Encoder:
    """The features a model reads for one rule set and player count: :meth:`states` of
    observations (rows of :func:`eights.codes.observation`), :meth:`actions` of codes and
    :attr:`table`, every code's features at once. ``family``: the family model's features
    (:func:`family_state`, :func:`family_actions`), else a specialist's
    (:func:`state_features`, :func:`action_features`)."""

    def __init__(self, rules: Rules, players: int, family: bool = True) -> None:
        self.rules = rules
        self.players = players
        self.family = family
        self.deck = deck_counts(rules, players)
        self.effects = card_effects(rules)
        self.vector = rules_features(rules, players) if family else None
        self.state_size = FAMILY_STATE if family else state_size(players)
        self.action_size = FAMILY_ACTION if family else ACTION_FEATURES

    def states(self, obs: npt.NDArray[Any]) -> Float32Array:
        if not self.family:
            return state_features(obs, self.deck)
        assert self.vector is not None
        return family_state(pad_observation(obs, self.players), self.players, self.deck,
                            self.effects, self.vector)

    def actions(self, codes: Sequence[int] | npt.NDArray[np.integer[Any]]) -> Float32Array:
        if not self.family:
            return action_features(codes)
        return family_actions(codes, self.effects)

    def table(self, count: int = N_ACTIONS) -> Float32Array:
        """The features of the codes ``0 .. count - 1``."""
        return self.actions(np.arange(count))


@dataclass(frozen=True)
class Model:
    """A trained network and its card."""

    weights: tuple[Float32Array, ...]
    """``W_s, W_a, b_0``, then ``W_i, b_i`` of each further layer; the last is the output."""
    card: dict[str, Any]
    """What the model is: ``format``, ``rules`` (a rules table, or ``None`` for the family
    model), ``players`` (``None`` likewise), ``training``, ``strength``."""

    @property
    def family(self) -> bool:
        """Whether the model reads the rules (:data:`FAMILY_FORMAT`): it plays every rule
        set and player count (a model ``eights train`` tuned for one keeps its ``rules``
        and ``players`` in its card)."""
        return bool(self.card.get("format") == FAMILY_FORMAT)

    @property
    def players(self) -> int:
        """The player count it was trained (or tuned) for; 0 for the family model."""
        return int(self.card.get("players") or 0)

    @property
    def rules(self) -> Rules | None:
        """The rules it was trained (or tuned) for; ``None`` for the family model."""
        table = self.card.get("rules")
        return None if table is None else _rules_of(json.dumps(table, sort_keys=True))

    def encoder(self, rules: Rules, players: int) -> Encoder:
        """The features this model reads at a table of ``rules`` with ``players``."""
        return Encoder(rules, players, family=self.family)

    def q_values(self, state: Float32Array, actions: Float32Array,
                 bias: Float32Array | None = None) -> Float32Array:
        """``Q(s, a)`` of one state's features (a row) for each row of action features
        (``bias``: :meth:`folded`'s, with ``state`` cut to its first rows)."""
        w = self.weights
        if bias is None:
            first = state @ w[0] + w[2]
        else:
            first = state @ w[0][:state.shape[-1]] + bias
        h = np.maximum(first + actions @ w[1], 0.0)
        for i in range(3, len(w) - 2, 2):
            h = np.maximum(h @ w[i] + w[i + 1], 0.0)
        out: Float32Array = (h @ w[-2] + w[-1])[:, 0]
        return out

    def folded(self, encoder: Encoder) -> tuple[int, Float32Array] | None:
        """For the family model: the state's rows that change with the observation, and the
        first layer's bias with the rules' part added (the rules are the same at every
        decision of a table, so their product is made once)."""
        if not self.family or encoder.vector is None:
            return None
        cut = FAMILY_STATE - RULES_FEATURES
        bias: Float32Array = (self.weights[2] + encoder.vector @ self.weights[0][cut:]).astype(
            np.float32)
        return cut, bias

    def save(self, path: Path, half: bool = False) -> None:
        """Write ``path`` (``.npz``) and its card beside it (``.json``); ``half``: the
        weights as 16-bit floats (half the size; read back as 32-bit)."""
        path = Path(path).with_suffix(".npz")
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays: dict[str, Any] = {f"w{i}": w.astype(np.float16) if half else w
                                  for i, w in enumerate(self.weights)}
        np.savez(path, **arrays)
        card_path(path).write_text(json.dumps(self.card, indent=1, sort_keys=True) + "\n", "utf-8")

    @classmethod
    def load(cls, path: Path | str) -> Model:
        """Read a model and its card; :class:`ValueError` names what is missing or wrong.
        A folder stands for its ``model.npz`` (the folder ``eights train`` writes)."""
        path = model_file(path)
        expected = ("an .npz file of arrays w0, w1, ... with its card (.json) beside it, as "
                    "eights train writes")
        if not path.is_file():
            raise ValueError(f"cannot read the model {str(path)!r}: no such file; a model is "
                             f"{expected}")
        why = "not an .npz archive"
        try:
            with np.load(path, allow_pickle=False) as data:
                if not isinstance(data, np.lib.npyio.NpzFile):
                    raise ValueError(why)
                names = sorted(data.files, key=lambda k: (len(k), k))
                if not names or names != [f"w{i}" for i in range(len(names))]:
                    why = f"it holds the arrays {', '.join(sorted(data.files)) or 'none'}"
                    raise ValueError(why)
                why = "it holds arrays that are not numbers"
                weights = tuple(data[k].astype(np.float32) for k in names)
        except (OSError, EOFError, KeyError, ValueError, TypeError, zipfile.BadZipFile):
            raise ValueError(f"{str(path)!r} is not an eights model ({why}); expected "
                             f"{expected}") from None
        try:
            card = json.loads(card_path(path).read_text("utf-8"))
            if not isinstance(card, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError) as exc:
            raise ValueError(f"the model {str(path)!r} has no readable card "
                             f"{str(card_path(path))!r}: {_short(exc)}") from None
        if card.get("format") not in (FORMAT, FAMILY_FORMAT):
            raise ValueError(f"the model {str(path)!r} has format {card.get('format')!r}; this "
                             f"version of eights reads formats {FORMAT} and {FAMILY_FORMAT}: "
                             f"train it again")
        model = cls(weights, card)
        sizes = ((FAMILY_STATE, FAMILY_ACTION) if model.family
                 else (state_size(model.players), ACTION_FEATURES))
        if (len(weights) < 5 or weights[0].shape[0] != sizes[0]
                or weights[1].shape[0] != sizes[1] or weights[-1].shape != (1,)):
            raise ValueError(f"the model {str(path)!r} has weights of unexpected shapes "
                             f"{[w.shape for w in weights]}")
        return model


def _short(exc: BaseException) -> str:
    return str(exc).split("\n")[0][:200] or type(exc).__name__


def model_file(path: Path | str) -> Path:
    """The model file ``path`` names: a folder stands for its ``model.npz``, a name
    without a suffix for its ``.npz``."""
    path = Path(path).expanduser()
    if path.is_dir():
        return path / "model.npz"
    if path.suffix != ".npz":
        return path.with_suffix(".npz")
    return path


def card_path(path: Path) -> Path:
    """The card of the model at ``path``."""
    return path.with_suffix(".json")


@lru_cache(maxsize=32)
def _rules_of(table: str) -> Rules:
    return load_rules(json.loads(table))


def _models_dir() -> Path:
    return Path(str(resources.files("eights") / "models"))


FAMILY_MODEL = "family"
"""The shipped family model's name (``eights/models/family.npz`` with ``family.json``)."""


def family_model_path() -> Path:
    """The shipped family model."""
    return _models_dir() / f"{FAMILY_MODEL}.npz"


@lru_cache(maxsize=1)
def family_model() -> Model:
    """The shipped family model (loaded once)."""
    return Model.load(family_model_path())


def shipped_models() -> list[tuple[str, int]]:
    """The shipped specialist models: (rules name, players), sorted (a learned model is an
    ``.npz`` beside its ``.json`` card; the family model and the belief models are not
    among them)."""
    found = []
    for p in sorted(_models_dir().glob("*p.npz")):
        if not card_path(p).exists():
            continue
        name, _, players = p.stem.rpartition("-")
        found.append((name, int(players[:-1])))
    return found


def shipped_model(rules: Rules, players: int) -> Path:
    """The shipped model for ``rules`` with ``players``: the specialist trained on exactly
    these rules and player count where one ships (kept where it measured better than the
    family model: docs/bots.md), else the family model, which plays every table."""
    path = _models_dir() / f"{rules.name}-{players}p.npz"
    if path.exists() and card_path(path).exists():
        try:
            card = json.loads(card_path(path).read_text("utf-8"))
        except (OSError, json.JSONDecodeError):
            card = {}
        if card.get("players") == players and plays_alike(_rules_of(
                json.dumps(card.get("rules"), sort_keys=True)), rules):
            return path
    return family_model_path()


def plays_alike(learned: Rules | None, rules: Rules) -> bool:
    """Whether a model that learned ``learned`` plays ``rules``: the same rules but for the
    fields that only describe them (``name``, ``title``, ``source``), so a preset's new
    title keeps its model."""
    return learned is not None and dataclasses.replace(
        learned, name=rules.name, title=rules.title, source=rules.source) == rules


@lru_cache(maxsize=16)
def _shipped(path: Path) -> Model:
    """A shipped model, read once per process (every learned bot of a server shares it, and
    its first move reads no file)."""
    return Model.load(path)


def _check_fits(model: Model, rules: Rules, players: int, where: str) -> None:
    if model.family:
        return
    if model.players != players:
        raise ValueError(f"the learned model {where} plays {model.players} players, not "
                         f"{players}: it is a model of one rule set and player count; leave "
                         f"model= out to play the family model, which plays every table")
    if not plays_alike(model.rules, rules):
        raise ValueError(f"the learned model {where} learned the rules "
                         f"{model.rules.name if model.rules else '?'!r}, which differ from "
                         f"these ({rules.name!r}): it is a model of one rule set and player "
                         f"count; leave model= out to play the family model, which plays "
                         f"every table")


@lru_cache(maxsize=64)
def _load_cached(path: str) -> Model:
    return Model.load(path)


class LearnedBot:
    """Plays the action of highest ``Q`` (``temperature`` 0), or draws one with weights
    ``exp(Q / temperature)`` from the game's generator.

    ``model``: a model file (``.npz`` with its ``.json`` card) or the folder ``eights
    train`` wrote (its ``model.npz``); by default the shipped model for the game's rules and
    player count (:func:`shipped_model`: the family model, or a specialist that measured
    better on its own table)."""

    name = "learned"

    def __init__(self, model: str | None = None, temperature: float = 0.0) -> None:
        if not temperature >= 0 or not math.isfinite(temperature):
            raise ValueError(f"learned temperature must be 0 or more, not {temperature}")
        self.path = None if model is None else model_file(model).resolve()
        """The model file given, as an absolute path (a saved game resumes from anywhere)."""
        self.temperature = temperature
        self._model = None if self.path is None else Model.load(self.path)
        self._fit: tuple[Rules, int, Model, Encoder, tuple[int, Float32Array] | None] | None \
            = None

    @property
    def spec(self) -> str:
        """This bot as a spec that makes it again from any folder (the model's absolute
        path)."""
        parts = [self.name]
        if self.path is not None:
            parts.append(f"model={self.path}")
        if self.temperature:
            parts.append(f"temperature={self.temperature:g}")
        return ":".join(parts)

    def check_table(self, rules: Rules, players: int) -> None:
        """Raise :class:`ValueError` (saying why) unless this bot has a model for ``rules``
        with ``players``: the server asks before it seats the bot. The family model plays
        every table; a specialist given as ``model=`` only its own."""
        self.model_for(rules, players)

    def model_for(self, rules: Rules, players: int) -> Model:
        """The model this bot plays ``rules`` with (loaded and checked once)."""
        return self._prepared(rules, players)[0]

    def _prepared(self, rules: Rules, players: int) -> tuple[
            Model, Encoder, tuple[int, Float32Array] | None]:
        fit = self._fit
        if fit is None or fit[0] is not rules or fit[1] != players:
            if self._model is None:
                model, where = _shipped(shipped_model(rules, players)), "shipped"
            else:
                model, where = self._model, repr(str(self.path))
            _check_fits(model, rules, players, where)
            encoder = model.encoder(rules, players)
            fit = self._fit = (rules, players, model, encoder, model.folded(encoder))
        return fit[2], fit[3], fit[4]

    def q_values(self, observation: Observation, legal: Sequence[Action]) -> Float32Array:
        """``Q`` of each legal action (OpenBLAS at one thread meanwhile:
        :func:`eights.bots.blas.one_thread`)."""
        with one_thread():
            model, encoder, folded = self._prepared(observation.rules, observation.players)
            state = encoder.states(np.array(observation_ints(observation), dtype=np.float32))
            actions = encoder.actions([action_code(a) for a in legal])
            if folded is None:
                return model.q_values(state, actions)
            return model.q_values(state[:, :folded[0]], actions, folded[1])

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
