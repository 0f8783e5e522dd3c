"""The belief model: where each unseen card lies, read from what a seat may see.

From one seat's :class:`~eights.engine.observation.Observation` (its hand, the
public state and the public history of the round), :meth:`BeliefModel.marginals`
gives, for every unseen card, how likely it is to be in each other hand or in
the stock. The search deals its worlds from these probabilities
(:func:`eights.bots.worlds.sample_weighted_world`, ``ismcts:worlds=belief``).

The model scores every pair of an unseen card and a place (each other seat,
in seat order after the observer, then the stock) with one small network shared
by all pairs, so a card and a hand are described once each:

- the card: its suit and rank (one-hot), its unseen copies, whether it matches
  the suit and the rank to follow now;
- the place: stock or hand, its size (and share of the unseen cards), the cards
  that seat received since the deal, played and drew this round, its position
  after the observer, its tells (:class:`~eights.engine.observation.Tell`): how
  many, and the share of its hand that is older than the last;
- the pair: for each kind of tell (``draw``, ``chose-draw``, ``wild``), the
  largest share of the hand held since a tell whose target this card would have
  matched (the hand lacked it then); how many cards of this suit and of this rank
  the seat played this round; whether the suit is the last the seat named, and
  how often it named it; whether its last card played was of this suit;
- the table: unseen cards, the stock's share of them, the length of the history,
  a pending forced draw.

The network's scores are turned into probabilities that meet the hard
constraints by Sinkhorn scaling: each unseen card's copies are spread over the
places (a row sums to its copies), every place gets its size (a column sums to
the hand or stock size), and a place with no cards and a card with no unseen copy
get nothing. The last step scales the rows, so every card's probabilities are
exactly a distribution over the places.

Weights are ``.npz`` files (:data:`MODELS`: ``belief-<rules>-<n>p.npz``, one per
rule set and player count), trained by :mod:`eights.learn.belief`; a file also
holds its card (``meta``: rules, players, training command, seed, samples, time,
held-out log-loss). Inference needs only NumPy.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from eights.bots.blas import one_thread
from eights.engine.actions import Kind
from eights.engine.observation import TELL_KINDS, Observation
from eights.engine.rules import Rules, load_rules, preset_names
from eights.engine.tables import SUIT_OF, tables_for

__all__ = ["CARD_STATIC", "FAMILY", "FEATURES", "MODELS", "SINKHORN_STEPS", "BeliefModel",
           "Features", "features", "model_path", "shipped", "shipped_for", "sinkhorn"]

F_CARD = 4
"""Per card: unseen copies, matches the target now, of the suit to follow, of the rank."""
F_PLACE = 9
"""Per place: stock, size / 10, size / unseen, received / 10, plays / 10, draws / 10,
position after the observer / players, tells / 5, share of the hand older than the last tell."""
F_PAIR = 3 + 5
"""Per card and place: the three kinds of tell, played of its suit / 4, of its rank / 2,
last suit named, suits named / 2, last card played of its suit (all 0 for the stock)."""
F_TABLE = 4
"""Per observation: unseen / 52, stock / unseen, history / 50, pending draw / 5."""
CARD_STATIC: npt.NDArray[np.float32] = np.zeros((53, 19), dtype=np.float32)
"""Suit (c d h s, joker) and rank (one-hot, joker 13) of each card code."""
for _c in range(53):
    CARD_STATIC[_c, 4 if _c == 52 else _c & 3] = 1
    CARD_STATIC[_c, 5 + (13 if _c == 52 else _c >> 2)] = 1
FEATURES = CARD_STATIC.shape[1] + F_CARD + F_PLACE + F_PAIR + F_TABLE
"""Inputs of the network for one (card, place) pair."""
SINKHORN_STEPS = 20
"""Row and column scalings that make the probabilities meet the sizes."""
MODELS = Path(__file__).resolve().parent.parent / "models"
"""Where the shipped weights live (``eights/models``, package data)."""


@dataclass(frozen=True, slots=True)
class Features:
    """One observation's inputs, in parts that the network concatenates per pair."""

    card: npt.NDArray[np.float32]
    """``(53, F_CARD)``"""
    place: npt.NDArray[np.float32]
    """``(players, F_PLACE)``: the other seats after the observer, then the stock."""
    pair: npt.NDArray[np.float32]
    """``(53, players, F_PAIR)``"""
    table: npt.NDArray[np.float32]
    """``(F_TABLE,)``"""
    copies: npt.NDArray[np.float32]
    """``(53,)``: unseen copies of each card (a row's sum)."""
    sizes: npt.NDArray[np.float32]
    """``(players,)``: cards in each place (a column's sum)."""
    seats: tuple[int, ...]
    """The seat of each hand place, in order (the stock is the last place)."""


def features(seen: Observation) -> Features:
    """The model's inputs for ``seen`` (see the module text)."""
    n = seen.players
    t = tables_for(seen.rules)
    seats = tuple((seen.seat + 1 + i) % n for i in range(n - 1))
    index = {s: i for i, s in enumerate(seats)}
    copies = np.zeros(53, dtype=np.float32)
    for c in seen.rules.deck(n):
        copies[c] += 1
    for c in seen.hand:
        copies[c] -= 1
    for c in seen.discard:
        copies[c] -= 1
    np.maximum(copies, 0, out=copies)
    unseen = float(copies.sum())
    suit = -1 if seen.suit is None else int(seen.suit)
    rank = int(seen.rank)
    card = np.zeros((53, F_CARD), dtype=np.float32)
    card[:, 0] = copies
    card[:, 1] = t.row(suit, rank, seen.free)
    card[:52, 2] = [SUIT_OF[c] == suit for c in range(52)]
    card[:52, 3] = [(c >> 2) == rank for c in range(52)]

    place = np.zeros((n, F_PLACE), dtype=np.float32)
    pair = np.zeros((53, n, F_PAIR), dtype=np.float32)
    suit_of = np.array([4 if c == 52 else c & 3 for c in range(53)])
    rank_of = np.array([13 if c == 52 else c >> 2 for c in range(53)])
    played_suit = np.zeros((n, 5), dtype=np.float32)
    played_rank = np.zeros((n, 14), dtype=np.float32)
    named = np.zeros((n, 5), dtype=np.float32)
    last_named = np.full(n, -1)
    last_suit = np.full(n, -1)
    plays = np.zeros(n, dtype=np.float32)
    draws = np.zeros(n, dtype=np.float32)
    for seat, action in seen.history:
        if action.kind is Kind.PLAY:
            plays[seat] += len(action.cards)
            for c in action.cards:
                played_suit[seat, suit_of[c]] += 1
                played_rank[seat, rank_of[c]] += 1
            last_suit[seat] = suit_of[action.cards[-1]]
        elif action.kind is Kind.DRAW or action.kind is Kind.TAKE:
            draws[seat] += 1
        if action.suit is not None and action.kind is not Kind.DRAW:
            named[seat, int(action.suit)] += 1
            last_named[seat] = int(action.suit)
    received = seen.received or (0,) * n
    tells = np.zeros(n, dtype=np.float32)
    older = np.ones(n, dtype=np.float32)
    wild = np.array(t.wild, dtype=bool)
    for tell in seen.tells:
        i = index.get(tell.seat)
        if i is None:
            continue
        size = seen.hand_sizes[tell.seat]
        share = max(0, size - (received[tell.seat] - tell.received)) / size if size else 0.0
        row = np.array(t.row(-1 if tell.suit is None else int(tell.suit), int(tell.rank), False))
        if tell.kind == "wild":  # other wild cards may still be held
            row &= ~wild
        k = TELL_KINDS.index(tell.kind)
        np.maximum(pair[:, i, k], share * row, out=pair[:, i, k])
        tells[i] += 1
        older[i] = share
    for i, s in enumerate(seats):
        size = seen.hand_sizes[s]
        place[i] = (0, size / 10, size / max(1.0, unseen), received[s] / 10, plays[s] / 10,
                    draws[s] / 10, (i + 1) / n, tells[i] / 5, older[i])
        pair[:, i, 3] = played_suit[s, suit_of] / 4
        pair[:, i, 4] = played_rank[s, rank_of] / 2
        pair[:, i, 5] = suit_of == last_named[s]
        pair[:, i, 6] = named[s, suit_of] / 2
        pair[:, i, 7] = suit_of == last_suit[s]
    place[n - 1, :3] = (1, seen.stock / 10, seen.stock / max(1.0, unseen))
    table = np.array((unseen / 52, seen.stock / max(1.0, unseen), len(seen.history) / 50,
                      seen.pending_draw / 5), dtype=np.float32)
    sizes = np.array([seen.hand_sizes[s] for s in seats] + [seen.stock], dtype=np.float32)
    return Features(card, place, pair, table, copies, sizes, seats)


def inputs(f: Features) -> npt.NDArray[np.float32]:
    """The network's input for every (card, place) pair: ``(53, players, FEATURES)``."""
    n = f.place.shape[0]
    return np.concatenate([
        np.broadcast_to(CARD_STATIC[:, None, :], (53, n, CARD_STATIC.shape[1])),
        np.broadcast_to(f.card[:, None, :], (53, n, F_CARD)),
        np.broadcast_to(f.place[None, :, :], (53, n, F_PLACE)),
        f.pair,
        np.broadcast_to(f.table[None, None, :], (53, n, F_TABLE)),
    ], axis=2)


def sinkhorn(weights: npt.NDArray[np.float64], rows: npt.NDArray[Any], cols: npt.NDArray[Any],
             steps: int = SINKHORN_STEPS) -> npt.NDArray[np.float64]:
    """Scale ``weights`` (cards by places, non-negative) so rows sum to ``rows`` and columns
    nearly to ``cols``; the last scaling is the rows'. Zero rows and columns stay zero."""
    w = np.array(weights, dtype=np.float64)
    for _ in range(steps):
        w *= (cols / np.maximum(w.sum(axis=0), 1e-30))[None, :]
        w *= (rows / np.maximum(w.sum(axis=1), 1e-30))[:, None]
    return w


class BeliefModel:
    """A trained belief model for one rule set and player count (see the module text)."""

    def __init__(self, layers: Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
                 meta: dict[str, Any]) -> None:
        if not layers or layers[0][0].shape[0] != FEATURES or layers[-1][0].shape[1] != 1:
            raise ValueError(f"a belief model takes {FEATURES} inputs and gives one score; "
                             f"these weights have the shapes {[w.shape for w, _ in layers]}")
        self.layers = [(np.asarray(w, np.float32), np.asarray(b, np.float32)) for w, b in layers]
        self.meta = meta
        """The model's card: rules, players, training command, seed, samples, time, log-loss."""
        self.rules = str(meta.get("rules", ""))
        self.players = int(meta.get("players", 0))

    @classmethod
    def load(cls, path: str | Path) -> BeliefModel:
        """A model from its ``.npz`` file (``w0``, ``b0``, ``w1``… and ``meta``, JSON)."""
        try:
            with np.load(path) as data:
                count = sum(1 for key in data.files if key.startswith("w"))
                layers = [(data[f"w{i}"], data[f"b{i}"]) for i in range(count)]
                meta = json.loads(str(data["meta"]))
        except (OSError, KeyError, ValueError) as exc:
            raise ValueError(f"{path}: not a belief model ({exc})") from None
        return cls(layers, meta)

    def save(self, path: str | Path) -> None:
        """Write the model as ``.npz`` (see :meth:`load`)."""
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(self.meta, sort_keys=True))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"], arrays[f"b{i}"] = w, b
        with open(path, "wb") as out:
            np.savez_compressed(out, **arrays)

    def scores(self, x: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """The network's score of each pair of ``x`` (``(..., FEATURES)``)."""
        h = x
        last = len(self.layers) - 1
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < last:
                np.maximum(h, 0, out=h)
        return h[..., 0]

    def marginals(self, seen: Observation) -> tuple[npt.NDArray[np.float64], Features]:
        """Expected copies of each card (rows, 53) in each place (columns: the other seats
        after the observer, then the stock), and the features they were read from. A row
        sums to the card's unseen copies; a column sums nearly to the place's size."""
        if self.players and seen.players != self.players:
            raise ValueError(f"this belief model is for {self.players} players, "
                             f"not {seen.players}")
        f = features(seen)
        live = np.flatnonzero(f.copies)
        w = np.zeros((53, seen.players))
        if live.size:
            with one_thread():  # one decision's rows: OpenBLAS's other threads only wait
                logits = self.scores(inputs(f)[live]).astype(np.float64)
            w[live] = np.exp(np.clip(logits - logits.max(), -30.0, 0.0))
            w[:, f.sizes == 0] = 0
        return sinkhorn(w, f.copies, f.sizes), f


    def deal_probs(self, seen: Observation) -> tuple[list[list[float]], tuple[int, ...]]:
        """Per card, the chance that one copy lies in each place, as plain lists (what
        :func:`eights.bots.worlds.sample_weighted_world` takes), and the seats of the
        hand places."""
        p, f = self.marginals(seen)
        return (p / np.maximum(f.copies, 1)[:, None]).tolist(), f.seats


FAMILY = "belief-family.npz"
"""The family belief model: trained on the presets and on house rules drawn at random, at
every player count from 2 to 10 (:mod:`eights.learn.belief` ``--family``); it serves every
table that ships no model of its own."""


def model_path(rules: str, players: int) -> Path | None:
    """The shipped model for a rule set's name and a player count, if there is one."""
    found = MODELS / f"belief-{rules}-{players}p.npz"
    return found if found.is_file() else None


@cache
def shipped(rules: str, players: int) -> BeliefModel:
    """The shipped model for a rule set's name and player count (loaded once): its own,
    else the family model."""
    path = model_path(rules, players)
    return _family() if path is None else BeliefModel.load(path)


def shipped_for(rules: Rules, players: int) -> BeliefModel:
    """The shipped model for ``rules`` with ``players``: the specialist of a preset played
    as it ships (same rules, same count), else the family model, which serves every table."""
    if (rules.name in preset_names() and model_path(rules.name, players) is not None
            and load_rules(rules.name) == rules):
        return shipped(rules.name, players)
    return _family()


@cache
def _family() -> BeliefModel:
    return BeliefModel.load(MODELS / FAMILY)
