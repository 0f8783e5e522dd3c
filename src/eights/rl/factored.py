"""Factored actions: a play made one card at a time, then "done".

A rule set with ``multi_play`` has thousands of action codes (8,487 with one deck, 42,937
with two: :func:`eights.codes.action_count`), one for each whole play of several cards of
one rank; a learner's output layer and its masks grow with them. With
``actions="factored"`` the environments speak :data:`N_TOKENS` small steps instead:

==========  ================================================================
``0 .. 52``  a card (its code, ``rank * 4 + suit``, joker 52): the first card of
             a play is its **top** card (the one whose suit and effects count),
             the next ones go under it, in card order
``53 .. 56`` a suit, ``c d h s``: the suit a wild top card names; alone, a wild
             starter's suit (``=c`` ... ``=s``, TS3, UC3)
``57``       done: the play is complete
``58``       done, calling ``!`` (the last card announced, HA13, or the going-out
             call, MM9)
``59``       draw
``60``       take (LH5)
``61``       pass
==========  ================================================================

A whole play is the sequence ``top, under... (card order), [suit], done | done!``;
``draw``, ``take``, ``pass`` and ``=s`` are one step each. These sequences are
prefix-free, so a finished sequence names one whole play, and the mask of each step
marks exactly the tokens that lead on to some legal whole play: every legal whole play
is reachable, and every finished sequence is a legal whole play
(``tests/test_rl_factored.py`` walks every path of seeded positions of every preset).
A step whose only legal continuation is one token (``done`` after a plain card, in a
rule set without ``multi_play``) is taken at once, for the player: a plain card is one
step, as with whole actions; a wild card two (the card, its suit). The engine plays
whole actions as ever: the environments apply the play once it is finished, so the
record of a round is its whole plays and replays as any other.

The observation grows by :data:`PLAY_SIZE` integers, the play being built (zeros but
for the seat building it): the top card (one-hot, 53), the cards under it (counts, 53)
and the suit named (one-hot, 4).

:class:`Plays` does the bookkeeping for a batch of tables (NumPy, no Python loop over
tables), :class:`OnePlay` the same for one table in plain Python (the PettingZoo and
Gymnasium environments: there NumPy's cost per call would be most of a step), and
:class:`FactoredTables` puts :class:`Plays` on a batch of tables of whole actions
(:class:`~eights.fast.vector.TableBatch`, :class:`~eights.rl.engine_batch.EngineTables`),
for :class:`~eights.rl.EightsVectorEnv` and :class:`~eights.rl.sb3.EightsVecEnv`.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from eights.codes import A_DRAW, A_MULTI, A_NAME, A_PASS, A_TAKE, UNDER
from eights.engine.cards import CARDS

__all__ = [
    "ACTIONS", "DONE", "DONE_CALL", "DRAW", "N_TOKENS", "PASS", "PLAY_SIZE", "SUIT", "TAKE",
    "FactoredTables", "OnePlay", "Plays", "check_actions", "sequence", "sequences", "token_name",
]

ACTIONS = ("whole", "factored")
"""The action modes of the environments: one code a whole play (:mod:`eights.codes`),
or one step a card (this module)."""
SUIT = 53
"""``SUIT + s`` names suit ``s`` (``c d h s`` = 0 ... 3)."""
DONE = 57
DONE_CALL = 58
DRAW = 59
TAKE = 60
PASS = 61
N_TOKENS = 62
"""The size of the factored action space."""
PLAY_SIZE = 53 + 53 + 4
"""Integers the factored observation adds: the play being built (top, under, suit)."""
_UNDER_AT = 53
_SUIT_AT = 106
_SUITS = "cdhs"


def check_actions(actions: str) -> None:
    """A :class:`ValueError` unless ``actions`` is one of :data:`ACTIONS`."""
    if actions not in ACTIONS:
        raise ValueError(f"unknown actions {actions!r}; actions: {', '.join(ACTIONS)} "
                         "(factored: a play one card at a time, then done)")


def token_name(token: int) -> str:
    """A token in words: ``7h``, ``=s``, ``done``, ``done!``, ``draw``, ``take``, ``pass``."""
    if 0 <= token < SUIT:
        return str(CARDS[token])
    if SUIT <= token < DONE:
        return "=" + _SUITS[token - SUIT]
    names = {DONE: "done", DONE_CALL: "done!", DRAW: "draw", TAKE: "take", PASS: "pass"}
    if token in names:
        return names[token]
    raise ValueError(f"token {token} is out of range: 0 to {N_TOKENS - 1}")


def sequence(code: int) -> tuple[int, ...]:
    """The factored steps of the whole action ``code`` (:mod:`eights.codes`)."""
    if code == A_DRAW:
        return (DRAW,)
    if code == A_TAKE:
        return (TAKE,)
    if code == A_PASS:
        return (PASS,)
    if A_NAME <= code < A_MULTI:
        return (SUIT + code - A_NAME,)
    u, low = divmod(code - A_MULTI, 530) if code >= A_MULTI else (-1, code)
    top, variant = divmod(low, 10)
    suit, call = divmod(variant, 2)
    under: list[int] = []
    if u >= 0:
        if top == 52:
            under = [52] * (u + 1)
        else:
            under = [(top & ~3) + s for s, n in enumerate(UNDER[u + 1]) for _ in range(n)]
    return (top, *under, *((SUIT + suit,) if suit < 4 else ()), DONE_CALL if call else DONE)


_steps = lru_cache(maxsize=None)(sequence)


@lru_cache(maxsize=4)
def sequences(count: int) -> npt.NDArray[np.int8]:
    """The steps of every code below ``count``, one row a code, padded with -1 (read only)."""
    rows = [sequence(c) for c in range(count)]
    out = np.full((count, max(map(len, rows)) + 1), -1, dtype=np.int8)
    for c, row in enumerate(rows):
        out[c, :len(row)] = row
    out.flags.writeable = False
    return out


class Plays:
    """The plays being built at ``batch`` tables whose whole actions are the codes below
    ``codes``: each table's candidates (the legal whole codes its steps so far lead to),
    the mask of its next tokens (:attr:`mask`) and the observation's block of the play
    (:attr:`block`)."""

    def __init__(self, batch: int, codes: int) -> None:
        self.batch = batch
        self.seq = sequences(codes)
        self.mask = np.zeros((batch, N_TOKENS), dtype=np.bool_)
        """The legal tokens of each table now (all False at a table with no decision)."""
        self.block = np.zeros((batch, PLAY_SIZE), dtype=np.int32)
        """Each table's play so far, as the observation gives it."""
        self.depth = np.zeros(batch, dtype=np.int64)
        self._rows = np.zeros(0, dtype=np.int64)  # the candidates: (table, code) pairs
        self._codes = np.zeros(0, dtype=np.int64)

    def copy(self) -> Plays:
        """An independent copy (the table of sequences shared: it is read only)."""
        twin = copy.copy(self)
        for name in ("mask", "block", "depth", "_rows", "_codes"):
            setattr(twin, name, getattr(self, name).copy())
        return twin

    def start(self, rows: npt.NDArray[np.bool_], legal: npt.NDArray[np.bool_]) -> None:
        """A new decision at the tables of ``rows`` (booleans), whose legal whole codes are
        ``legal[rows]`` (one mask row a table)."""
        flat = np.flatnonzero(legal)  # one pass, no temporary: the masks are sparse
        tables, codes = np.divmod(flat, legal.shape[1])
        picked = rows[tables]
        self.start_pairs(rows, tables[picked], codes[picked])

    def start_pairs(self, rows: npt.NDArray[np.bool_], tables: npt.NDArray[np.int64],
                    codes: npt.NDArray[np.int64]) -> None:
        """:meth:`start` from the legal whole codes as pairs: ``codes[i]`` is legal at table
        ``tables[i]`` (every table of ``rows``, none other)."""
        keep = ~rows[self._rows]
        self._rows = np.concatenate([self._rows[keep], tables])
        self._codes = np.concatenate([self._codes[keep], codes])
        self.depth[rows] = 0
        self.block[rows] = 0
        self._remask(rows)

    def push(self, tokens: npt.NDArray[np.int64], rows: npt.NDArray[np.bool_]
             ) -> npt.NDArray[np.int64]:
        """Take ``tokens[b]`` (legal: :attr:`mask`) at each table ``b`` of ``rows``, then the
        forced steps after it: the whole code of each table whose play is finished, -1
        elsewhere (those tables' next decision needs :meth:`start`)."""
        whole = np.full(self.batch, -1, dtype=np.int64)
        moving = rows.copy()
        chosen = tokens
        while moving.any():
            pick = moving[self._rows]
            at = self.depth[self._rows]
            keep = ~pick | (self.seq[self._codes, at] == chosen[self._rows])
            self._rows, self._codes = self._rows[keep], self._codes[keep]
            self._record(np.flatnonzero(moving), chosen[moving])
            self.depth[moving] += 1
            ends = moving[self._rows] & (self.seq[self._codes, self.depth[self._rows]] < 0)
            whole[self._rows[ends]] = self._codes[ends]
            finished = np.zeros(self.batch, dtype=np.bool_)
            finished[self._rows[ends]] = True
            self._rows, self._codes = self._rows[~ends], self._codes[~ends]
            self._remask(moving)
            self.mask[finished] = False
            forced = moving & ~finished & (self.mask.sum(axis=1) == 1)
            chosen = self.mask.argmax(axis=1)
            moving = forced
        return whole

    def _record(self, tables: npt.NDArray[np.int64], tokens: npt.NDArray[np.int64]) -> None:
        """The block of the play: a card first is the top, a card after it goes under."""
        cards = tokens < SUIT
        first = cards & (self.depth[tables] == 0)
        self.block[tables[first], tokens[first]] = 1
        later = cards & ~first
        np.add.at(self.block, (tables[later], _UNDER_AT + tokens[later]), 1)
        suits = (tokens >= SUIT) & (tokens < DONE)
        self.block[tables[suits], _SUIT_AT + tokens[suits] - SUIT] = 1

    def _remask(self, rows: npt.NDArray[np.bool_]) -> None:
        self.mask[rows] = False
        pick = rows[self._rows]
        r, c = self._rows[pick], self._codes[pick]
        nxt = self.seq[c, self.depth[r]]
        self.mask[r, nxt] = True


class OnePlay:
    """The play being built at one table, in plain Python: :class:`Plays` for one table
    (the same steps, the same forced steps, the same block)."""

    def __init__(self) -> None:
        self.tokens: set[int] = set()
        """The legal tokens now (none at a table with no decision)."""
        self.block = [0] * PLAY_SIZE
        """The play so far, as the observation gives it."""
        self.depth = 0
        self._candidates: list[tuple[tuple[int, ...], int]] = []

    def start(self, codes: Any) -> None:
        """A new decision, whose legal whole codes are ``codes``."""
        self._candidates = [(_steps(int(c)), int(c)) for c in codes]
        self.depth = 0
        self.block = [0] * PLAY_SIZE
        self.tokens = {steps[0] for steps, _ in self._candidates}

    def push(self, token: int) -> int:
        """Take ``token`` (legal: :attr:`tokens`), then the forced steps after it: the whole
        code when the play is finished (the next decision needs :meth:`start`), else -1."""
        while True:
            at = self.depth
            self._candidates = [c for c in self._candidates if c[0][at] == token]
            if token < SUIT:
                self.block[token if at == 0 else _UNDER_AT + token] += 1
            elif token < DONE:
                self.block[_SUIT_AT + token - SUIT] = 1
            self.depth = at + 1
            done = [code for steps, code in self._candidates if len(steps) == self.depth]
            if done:
                self._candidates, self.tokens = [], set()
                return done[0]
            self.tokens = {steps[self.depth] for steps, _ in self._candidates}
            if len(self.tokens) != 1:
                return -1
            (token,) = self.tokens


class WholeTables(Protocol):
    """The surface of a batch of tables of whole actions that :class:`FactoredTables` uses
    (:class:`~eights.fast.vector.TableBatch`, :class:`~eights.rl.engine_batch.EngineTables`)."""

    batch: int
    action_count: int
    observation_size: int
    state_size: int
    truncated: npt.NDArray[np.bool_]
    skipped: int

    def seed(self, seed: int) -> None: ...

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.int32],
                                                      npt.NDArray[np.bool_]]: ...

    def step(self, actions: npt.ArrayLike, hold: npt.NDArray[np.bool_] | None = None
             ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_],
                        npt.NDArray[np.float64], npt.NDArray[np.bool_]]: ...

    def restart(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_]]: ...

    def state(self) -> npt.NDArray[np.int32]: ...


class FactoredTables:
    """A batch of tables of whole actions (``tables``) played one token at a time: the
    surface of :class:`~eights.fast.vector.TableBatch` (``reset``, ``step``, ``restart``,
    ``state``, ``truncated``, ``skipped``), with :data:`N_TOKENS` actions and the play's
    block added to each observation. A step that does not finish a play moves nothing
    at its table (reward 0, not terminated); the one that finishes it plays the whole
    action there. ``max_steps`` of the tables counts whole decisions."""

    def __init__(self, tables: WholeTables) -> None:
        self.tables = tables
        """The tables of whole actions underneath."""
        self.batch = tables.batch
        self.action_count = N_TOKENS
        self.observation_size = tables.observation_size + PLAY_SIZE
        self.state_size = tables.state_size
        self.plays = Plays(tables.batch, tables.action_count)
        self._done = np.zeros(tables.batch, dtype=np.bool_)

    @property
    def truncated(self) -> npt.NDArray[np.bool_]:
        return self.tables.truncated

    @property
    def skipped(self) -> int:
        return self.tables.skipped

    def seed(self, seed: int) -> None:
        self.tables.seed(seed)

    def _obs(self, obs: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
        return np.concatenate([obs, self.plays.block], axis=1)

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.int32],
                                                      npt.NDArray[np.bool_]]:
        obs, legal = self.tables.reset(seed)
        self._done[:] = False
        self._start(np.ones(self.batch, dtype=np.bool_), legal)
        return self._obs(obs), self.plays.mask.copy()

    def step(self, actions: npt.ArrayLike) -> tuple[npt.NDArray[np.int32],
                                                    npt.NDArray[np.bool_],
                                                    npt.NDArray[np.float64],
                                                    npt.NDArray[np.bool_]]:
        """One token a table: ``(obs, mask, rewards, terminated)`` as ``TableBatch.step``;
        a table whose round ended on the last step ignores its token and deals anew. An
        illegal token raises a :class:`ValueError` naming the table, the token and the
        legal ones, before any table moves."""
        tokens = np.asarray(actions)
        if tokens.shape == () and self.batch == 1:
            tokens = tokens.reshape(1)
        if tokens.shape != (self.batch,) or tokens.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.batch} integer tokens (one a table), not "
                             f"an array of shape {tokens.shape} and type {tokens.dtype}")
        tokens = tokens.astype(np.int64)
        waiting = ~self._done
        inside = (tokens >= 0) & (tokens < N_TOKENS)
        legal = inside & self.plays.mask[np.arange(self.batch), np.where(inside, tokens, 0)]
        bad = np.flatnonzero(waiting & ~legal)
        if bad.size:
            raise ValueError(self.illegal(int(bad[0]), int(tokens[bad[0]])))
        whole = self.plays.push(tokens, waiting)
        hold = waiting & (whole < 0)
        obs, legal_codes, rewards, terminated = self.tables.step(np.maximum(whole, 0), hold)
        moved = ~hold
        self._done = terminated | self.tables.truncated
        self._start(moved, legal_codes)
        return self._obs(obs), self.plays.mask.copy(), rewards, terminated

    def restart(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_]]:
        """``TableBatch.restart``: the tables whose round ended deal the next one now."""
        obs, legal = self.tables.restart()
        self._start(self._done.copy(), legal)
        self._done[:] = False
        return self._obs(obs), self.plays.mask.copy()

    def state(self) -> npt.NDArray[np.int32]:
        return self.tables.state()

    def _start(self, rows: npt.NDArray[np.bool_], legal: npt.NDArray[np.bool_]) -> None:
        """New decisions at ``rows``: their legal codes read from the kernel's tables where
        they can list them (``legal_codes``), else from the masks."""
        listed = getattr(self.tables, "legal_codes", None)
        if listed is None:
            self.plays.start(rows, legal)
        else:
            self.plays.start_pairs(rows, *listed(np.flatnonzero(rows)))

    def illegal(self, table: int, token: int) -> str:
        """The error's words for a token that is not legal at ``table`` now."""
        legal = ", ".join(f"{t} ({token_name(int(t))})"
                          for t in np.flatnonzero(self.plays.mask[table]))
        what = (f"token {token} ({token_name(token)}) is not legal now" if 0 <= token < N_TOKENS
                else f"token {token} is not a token: tokens are 0 to {N_TOKENS - 1}")
        return f"table {table}: {what}; legal: {legal or 'none (the round is over)'}"


def legal_mask(codes: Any, count: int) -> npt.NDArray[np.bool_]:
    """One table's mask of whole codes (for :meth:`Plays.start`), from its legal codes."""
    mask = np.zeros((1, count), dtype=np.bool_)
    mask[0, list(codes)] = True
    return mask
