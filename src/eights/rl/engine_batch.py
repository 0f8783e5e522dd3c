"""A batch of tables on the reference engine, for opponents the kernel does not play.

:class:`EngineTables` has the surface of :class:`eights.fast.vector.TableBatch` that
:class:`~eights.rl.EightsVectorEnv` and :class:`~eights.rl.sb3.EightsVecEnv` use
(``reset``, ``step``, ``restart``, ``state``, ``truncated``, ``skipped``), with every
table an :class:`~eights.rl.EightsEnv`: any bot spec sits at the other seats (``expert``,
``learned``, ``ismcts:iterations=200``...), at the engine's speed (a few thousand
table-steps a second, where the kernel does hundreds of thousands). The same conventions
hold: one learning seat a table, an episode is one round, ``NEXT_STEP`` autoreset
(:meth:`restart` for ``SAME_STEP``), an illegal code raises a :class:`ValueError` naming
the table, the code and the legal codes before any table moves.

Seeding: table ``i`` is an EightsEnv reset with word ``i`` of
``numpy.random.SeedSequence(seed)`` (its low 63 bits), then ``reset()`` for its next
rounds, so table ``i`` plays the same rounds in a batch of any size. The engine deals
otherwise than the kernel: the same seed gives other rounds than on the kernel.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from eights.codes import code_action
from eights.engine.rules import Rules
from eights.rl.gymnasium_env import EightsEnv

__all__ = ["EngineTables"]

_SEED_MASK = np.uint64(2**63 - 1)


class EngineTables:
    """``batch`` tables of ``rules`` on the engine, ``seat`` learning at each, the other
    seats played by the bots of ``opponents`` (specs as :class:`~eights.rl.EightsEnv` takes
    them); ``reward`` and ``max_steps`` as there. Every table's bots are made anew (a
    bot keeps no state between tables)."""

    def __init__(self, rules: Rules, players: int, batch: int, seat: int = 0,
                 opponents: str | Sequence[str] = "expert", seed: int = 0,
                 reward: str = "points", max_steps: int | None = None) -> None:
        if not isinstance(batch, int) or batch < 1:
            raise ValueError(f"batch must be a positive number of tables, not {batch!r}")
        self.rules = rules
        self.players = players
        self.batch = batch
        self.seat = seat
        self.tables = [EightsEnv(rules, players, seat=seat, opponents=opponents, reward=reward,
                                 illegal_reward=None, max_steps=max_steps)
                       for _ in range(batch)]
        """One EightsEnv a table."""
        first = self.tables[0]
        self.observation_size = first.table.size
        self.action_count = first.table.actions
        self.state_size = players * self.observation_size
        self.truncated = np.zeros(batch, dtype=np.bool_)
        """The tables whose round the last step cut at ``max_steps``."""
        self.skipped = 0
        """Kept for TableBatch's surface: EightsEnv deals again, uncounted, a round that
        ends before the learning seat's first decision."""
        self._done = np.zeros(batch, dtype=np.bool_)
        self._obs = np.zeros((batch, self.observation_size), dtype=np.int32)
        self._mask = np.zeros((batch, self.action_count), dtype=np.bool_)
        self._seed: int | None = seed
        self._ready = False

    def seed(self, seed: int) -> None:
        """Reseed every table as a new batch with ``seed`` would be (call :meth:`reset`)."""
        self._seed = seed
        self._ready = False

    def _put(self, b: int, obs: dict[str, Any]) -> None:
        self._obs[b] = obs["observation"]
        self._mask[b] = obs["action_mask"].astype(np.bool_)

    def _deal(self, b: int, seed: int | None = None) -> None:
        obs, _ = self.tables[b].reset(seed=seed)
        self._put(b, obs)
        self._done[b] = False

    def _out(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_]]:
        return self._obs.copy(), self._mask.copy()

    def reset(self, seed: int | None = None) -> tuple[npt.NDArray[np.int32],
                                                      npt.NDArray[np.bool_]]:
        """Deal a new round at every table (reseeded when ``seed`` is given, or on the first
        reset after :meth:`seed`) and play it to the learning seat's first decision."""
        if seed is not None:
            self._seed = seed
        seeds: list[int | None] = [None] * self.batch
        if self._seed is not None:
            words = np.random.SeedSequence(self._seed).generate_state(self.batch, np.uint64)
            seeds = [int(w & _SEED_MASK) for w in words]
            self._seed = None
        for b in range(self.batch):
            self._deal(b, seeds[b])
        self.truncated[:] = False
        self._ready = True
        return self._out()

    def step(self, actions: npt.ArrayLike, hold: npt.ArrayLike | None = None
             ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_], npt.NDArray[np.float64],
                        npt.NDArray[np.bool_]]:
        """One code a table for the learning seat: ``(obs, mask, rewards, terminated)``, as
        :meth:`TableBatch.step <eights.fast.vector.TableBatch.step>` (``hold``: the tables
        that do not move)."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        codes = np.asarray(actions)
        if codes.shape == () and self.batch == 1:
            codes = codes.reshape(1)
        if codes.shape != (self.batch,) or codes.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.batch} integer codes (one a table), not "
                             f"an array of shape {codes.shape} and type {codes.dtype}")
        held = (np.zeros(self.batch, dtype=np.bool_) if hold is None
                else np.asarray(hold, dtype=np.bool_).reshape(-1))
        if held.shape != (self.batch,):
            raise ValueError(f"hold must be {self.batch} booleans (one a table), not "
                             f"{held.shape[0]}")
        held = held & ~self._done
        for waiting in np.flatnonzero(~self._done & ~held).tolist():  # checked before any move
            code = int(codes[waiting])
            if not (0 <= code < self.action_count and self._mask[waiting, code]):
                raise ValueError(self._illegal(waiting, code))
        rewards = np.zeros(self.batch, dtype=np.float64)
        terminated = np.zeros(self.batch, dtype=np.bool_)
        self.truncated[:] = False
        for b in range(self.batch):
            if self._done[b]:  # NEXT_STEP autoreset: the action is ignored
                self._deal(b)
                continue
            if held[b]:
                continue
            obs, reward, ended, cut, _ = self.tables[b].step(int(codes[b]))
            self._put(b, obs)  # when cut: the next decision's, never taken
            rewards[b] = reward
            terminated[b] = ended
            self.truncated[b] = cut
            self._done[b] = ended or cut
        obs_out, mask_out = self._out()
        return obs_out, mask_out, rewards, terminated

    def restart(self) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.bool_]]:
        """Deal a new round now at every table whose round the last step ended or cut
        (``SAME_STEP`` autoreset): every table's ``(obs, mask)``."""
        if not self._ready:
            raise RuntimeError("call reset() before restart()")
        for b in np.flatnonzero(self._done).tolist():
            self._deal(b)
        return self._out()

    def state(self) -> npt.NDArray[np.int32]:
        """Every table's global state (each seat's observation in seat order)."""
        return np.stack([t.state() for t in self.tables])

    def _illegal(self, table: int, code: int) -> str:
        legal = ", ".join(f"{c} ({code_action(int(c))})" for c in np.flatnonzero(self._mask[table]))
        if 0 <= code < self.action_count:
            what = f"action {code} ({code_action(code)}) is not legal now"
        else:
            what = f"action {code} is not a code: codes are 0 to {self.action_count - 1}"
        return f"table {table}: {what}; legal: {legal}"
