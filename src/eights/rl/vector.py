"""A batched Gymnasium environment on the compiled kernel: ``num_envs`` tables in one call.

>>> import gymnasium, eights.rl
>>> envs = gymnasium.make_vec("eights/Eights-v0", num_envs=8, rules="classic", players=4)
>>> obs, infos = envs.reset(seed=1)
>>> obs["observation"].shape, obs["action_mask"].shape, obs["action_mask"].dtype
((8, 281), (8, 537), dtype('int8'))
>>> obs, rewards, terminations, truncations, infos = envs.step(obs["action_mask"].argmax(axis=1))

:class:`EightsVectorEnv` is :class:`eights.rl.EightsEnv` for ``num_envs`` tables at once:
one learning seat a table, the other seats played by the kernel's compiled policies
(``random``, ``greedy``), every table stepped in one compiled call
(:class:`eights.fast.vector.TableBatch`), or by policy callables such as a frozen
network: ``policy(obs, mask) -> codes`` on the observations and masks of every table
where one of its seats is to play (the kernel stops there and goes on with its codes). A
table's spaces are EightsEnv's (``single_observation_space``, ``single_action_space``), so
one policy plays both; the batched spaces are Gymnasium's
:func:`~gymnasium.vector.utils.batch_space` of them.

What differs from EightsEnv, all for speed:

- the opponents are ``random``, ``greedy`` or policy callables on the kernel (the learned
  bot's: :class:`eights.rl.policies.LearnedPolicy`), and an episode is one round (the
  kernel plays every rule set the action codes hold; one it refused would be a
  :class:`~eights.fast.KernelUnsupported` naming the field). Other bots (``expert``,
  ``learned``, ``ismcts:...``) are seated too, but then every table plays on the engine
  (:class:`~eights.rl.engine_batch.EngineTables`, :attr:`EightsVectorEnv.engine`), at
  the engine's speed;
- rounds that end (or are cut at ``max_steps``) autoreset on the table's next step
  (Gymnasium's ``AutoresetMode.NEXT_STEP``): the ending step returns the round's reward
  and its final observation (an all-zero mask); on the next step that table's action is
  ignored and it returns the new round's first observation, reward 0;
- an action that is not legal raises a :class:`ValueError` naming the table, the action
  and the legal codes, and no table moves (EightsEnv's ``illegal_reward`` is not offered);
- ``infos`` is empty, and there is no ``render``.

Seeding: ``reset(seed=s)`` seeds table ``i`` by word ``i`` of
``numpy.random.SeedSequence(s)``, so table ``i`` plays the same rounds in a batch of any
size, and as ``TableBatch(..., seed=s)`` does; ``reset()`` deals every table's next round
of the same streams (the first ``reset()`` without a seed draws fresh entropy).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from eights.bots import BOTS, parse_bot_spec
from eights.rl.engine_batch import EngineTables
from eights.rl.factored import FactoredTables
from eights.rl.gymnasium_env import seat_opponents
from eights.rl.table import RulesArg, Table
from eights.rl.threads import AUTO, BlasLimited, blas_limit

try:
    from eights.fast import POLICIES, KernelUnsupported, check_supported
    from eights.fast.vector import Opponent, TableBatch
except ModuleNotFoundError as exc:  # numba
    raise ModuleNotFoundError(f"EightsVectorEnv runs on the compiled kernel, which needs "
                              f"{exc.name}: pip install 'eights[fast]' (or use EightsEnv)",
                              name=exc.name) from exc

__all__ = ["EightsVectorEnv"]

ObsDict = dict[str, npt.NDArray[Any]]
_ELSEWHERE = ("EightsEnv (gymnasium.make, or gymnasium.make_vec(..., "
              "vectorization_mode='sync') for a batch of them)")


def kernel_opponents(opponents: Opponent | Sequence[Opponent], players: int,
                     seat: int) -> list[Opponent] | None:
    """The opponent of every seat but ``seat`` in seat order, from specs as EightsEnv takes
    them (:func:`~eights.rl.gymnasium_env.opponent_specs`) or policy callables (see
    :class:`~eights.fast.vector.TableBatch`), when the kernel plays them all; ``None`` when
    some are bots that only the engine plays (``expert``, ``learned``, ``ismcts``, a
    policy with options) and none is a callable. A mix of callables and such bots, or an
    unknown bot, is a :class:`ValueError` saying what is played where."""
    given: str | Sequence[Opponent] = [opponents] if callable(opponents) else opponents
    specs = seat_opponents(given, players, seat)
    engine: list[str] = []
    for spec in specs.values():
        if callable(spec) or spec in POLICIES:
            continue
        try:
            name, _ = parse_bot_spec(spec)
        except ValueError as exc:
            raise ValueError(f"opponents: {exc}") from None
        if name not in BOTS:
            raise ValueError(f"opponents: unknown bot {name!r}; bots: {', '.join(BOTS)}, or "
                             "policy callables")
        engine.append(spec)
    if not engine:
        return list(specs.values())
    if any(callable(spec) for spec in specs.values()):
        raise ValueError(f"opponents: {', '.join(map(repr, engine))} play on the engine and "
                         f"policy callables on the kernel: give one or the other (the "
                         f"learned bot as a callable is eights.rl.policies.LearnedPolicy; "
                         f"on the engine, the spec 'learned')")
    return None


def _limited(opponents: list[Opponent], limit: Callable[[], AbstractContextManager[Any]]
             ) -> list[Opponent]:
    """Each policy callable of ``opponents`` called within ``limit`` (one wrapper a callable,
    so that one given for several seats is still asked once for all of them)."""
    wrapped: dict[int, Opponent] = {}
    out: list[Opponent] = []
    for one in opponents:
        if callable(one):
            one = wrapped.setdefault(id(one), BlasLimited(one, limit))
        out.append(one)
    return out


class EightsVectorEnv(VectorEnv[ObsDict, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` tables of ``rules``; seat ``seat`` of each learns, the ``opponents``
    play the others: ``random`` and ``greedy`` inside the compiled kernel, and policy
    callables (``policy(obs, mask) -> codes``, batched: see
    :class:`~eights.fast.vector.TableBatch`) asked from Python at their seats' turns; one
    for all, or a list (as EightsEnv takes specs: a shorter list is repeated).

    ``rules``, ``players``, ``overrides``, ``reward`` and ``max_steps`` (a round cut after
    that many decisions of the learning seat: ``truncations``) are EightsEnv's;
    ``episode`` is ``round`` (matches are EightsEnv's); ``repeat_capacity`` sizes each
    table's record of positions under ``block_on_repetition`` (see
    :class:`~eights.fast.vector.TableBatch`); ``actions``: ``whole`` (one code a play) or
    ``factored`` (a play one card at a time: :mod:`eights.rl.factored`; ``max_steps``
    then counts whole decisions); ``blas_threads`` the threads OpenBLAS may
    use while a policy callable runs: ``"auto"`` (the default) one where threadpoolctl is
    installed, a number (threadpoolctl needed), or ``None`` to leave them as they are
    (:mod:`eights.rl.threads`: a NumPy policy ran ten times slower with OpenBLAS's own
    threads on a busy machine).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(self, rules: RulesArg = "huit-fou", players: int | None = None,
                 num_envs: int = 1, *, seat: int = 0,
                 opponents: Opponent | Sequence[Opponent] = "random", reward: str = "points",
                 episode: str = "round", overrides: Sequence[str] | Mapping[str, Any] = (),
                 repeat_capacity: int | None = None, max_steps: int | None = None,
                 blas_threads: int | str | None = AUTO, actions: str = "whole") -> None:
        limit = blas_limit(blas_threads)
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive number of tables, not {num_envs!r}")
        if episode == "match":
            raise ValueError("episode='match': EightsVectorEnv's episodes are rounds; for "
                             f"matches use {_ELSEWHERE}")
        table = Table(rules, players, reward=reward, episode=episode, overrides=overrides,
                      actions=actions)
        if not 0 <= seat < table.players:
            raise ValueError(f"seat {seat} is not a seat; seats are 0 to {table.players - 1}")
        compiled = kernel_opponents(opponents, table.players, seat)
        self.engine = compiled is None
        """Whether the tables play on the engine (:class:`~eights.rl.engine_batch.EngineTables`:
        an opponent the kernel does not play), not the kernel."""
        if compiled is not None:
            try:
                check_supported(table.rules, table.players)
            except KernelUnsupported as exc:
                exc.add_note(f"EightsVectorEnv runs on the kernel: for {table.rules.name} use "
                             f"{_ELSEWHERE}")
                raise
        self.rules = table.rules
        """The rules played (overrides applied)."""
        self.players = table.players
        self.seat = seat
        self.opponents: tuple[Opponent, ...] = tuple(
            compiled if compiled is not None
            else seat_opponents(opponents, table.players, seat).values())  # type: ignore[arg-type]
        """The policy of each other seat, in seat order: a kernel policy's name, a
        callable, or (on the engine) a bot spec."""
        self.reward = reward
        self.num_envs = num_envs
        self.single_observation_space = table.observation_space
        self.single_action_space = spaces.Discrete(table.actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.single_state_space = table.state_space
        """A table's global state (:meth:`state`), as :attr:`Table.state_space`."""
        self.state_space = batch_space(self.single_state_space, num_envs)
        self.max_steps = max_steps
        self.tables: TableBatch | EngineTables | FactoredTables
        """The tables: the kernel's (:class:`~eights.fast.vector.TableBatch`), or the
        engine's (:class:`~eights.rl.engine_batch.EngineTables`) when :attr:`engine`;
        with ``actions="factored"``, either under a
        :class:`~eights.rl.factored.FactoredTables`."""
        whole: TableBatch | EngineTables
        if compiled is not None:
            if limit is not None:
                compiled = _limited(compiled, limit)
            whole = TableBatch(table.rules, table.players, num_envs, seat=seat,
                               opponents=compiled, reward=reward,
                               repeat_capacity=repeat_capacity, max_steps=max_steps)
        else:
            whole = EngineTables(table.rules, table.players, num_envs, seat=seat,
                                 opponents=[str(o) for o in self.opponents],
                                 reward=reward, max_steps=max_steps)
        self.tables = FactoredTables(whole) if table.factored else whole
        self._seeded = False
        self._mask: npt.NDArray[np.bool_] | None = None

    def reset(self, *, seed: int | np.integer[Any] | None = None,
              options: dict[str, Any] | None = None) -> tuple[ObsDict, dict[str, Any]]:
        """Deal a new round at every table and play it to the learning seat's first decision:
        ``(obs, {})``. ``seed``: a non-negative integer (see the module text)."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed must be a non-negative integer (one for the batch: table "
                                 f"i plays word i of SeedSequence(seed)), not {seed!r}")
            seed = int(seed)
            super().reset(seed=seed)
        elif not self._seeded:
            seed = int(self.np_random.integers(2**63))
        self._seeded = True
        obs, mask = self.tables.reset(seed)
        self._mask = mask
        return {"observation": obs, "action_mask": mask.view(np.int8)}, {}

    def step(self, actions: npt.ArrayLike) -> tuple[ObsDict, npt.NDArray[np.float64],
                                                    npt.NDArray[np.bool_], npt.NDArray[np.bool_],
                                                    dict[str, Any]]:
        """Play one code a table for the learning seat: ``(obs, rewards, terminations,
        truncations, {})``, one row a table; a table whose round ended on the last step
        or was cut ignores its action and deals the next round (``NEXT_STEP`` autoreset).
        ``truncations`` marks the rounds cut at ``max_steps`` (all False without it)."""
        obs, mask, rewards, terminated = self.tables.step(actions)
        self._mask = mask
        return ({"observation": obs, "action_mask": mask.view(np.int8)}, rewards, terminated,
                self.tables.truncated.copy(), {})

    def state(self) -> npt.NDArray[np.int32]:
        """Every table's global state, for a centralised critic: each seat's observation in
        seat order (every hand), one row a table (:meth:`TableBatch.state
        <eights.fast.vector.TableBatch.state>`; :attr:`single_state_space`)."""
        if self._mask is None:
            raise RuntimeError("call reset() before state()")
        return self.tables.state()

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal codes of every table now, as booleans (``obs["action_mask"]`` viewed as
        ``bool``, no copy; all False at a table whose round just ended)."""
        if self._mask is None:
            raise RuntimeError("call reset() before action_masks()")
        return self._mask
