"""Reinforcement-learning environments for every rule set (the ``rl`` extra).

- :func:`env` / :class:`raw_env`: a PettingZoo AEC environment, one agent a seat
  (:mod:`eights.rl.pettingzoo_env`);
- :class:`EightsEnv`: a Gymnasium environment where one seat learns and eights bots play
  the others (:mod:`eights.rl.gymnasium_env`);
- :class:`EightsVectorEnv`: a batched Gymnasium environment, many tables stepped in one
  call of the compiled kernel (:mod:`eights.rl.vector`; it needs numba, the ``fast``
  extra, and is imported when first used; its first step compiles the kernel, which
  ``eights compile`` does ahead of time);
- :mod:`eights.rl.sb3`: the batched tables as a Stable-Baselines3 ``VecEnv``
  (``EightsVecEnv``; imported on its own, it needs SB3);
- :mod:`eights.rl.policies`: the learned bot as a batched policy (``LearnedPolicy``), an
  opponent of the batched tables or a yardstick.

Both speak the integer codes of :mod:`eights.codes`: one action encoding for every rule
set, one seat's observation as integers, and round rewards. Importing this package
registers ``eights/Eights-v0`` with Gymnasium (``gymnasium.make``, and
``gymnasium.make_vec``, which makes an :class:`EightsVectorEnv` unless asked for another
``vectorization_mode``) and, where the installed
PettingZoo has a registry (1.27 and later), with PettingZoo (``pettingzoo.make("aec",
...)``). See ``docs/environments.md``.

>>> from eights.rl import env
>>> table = env("les-huit", players=4)
>>> table.reset(seed=3)
>>> table.agent_selection in table.agents, len(table.agents)
(True, 4)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import gymnasium
import pettingzoo

from eights.rl import gymnasium_env, pettingzoo_env
from eights.rl.gymnasium_env import EightsEnv, make_opponents
from eights.rl.pettingzoo_env import env, raw_env
from eights.rl.table import EPISODES, Table

if TYPE_CHECKING:
    from eights.rl.vector import EightsVectorEnv

__all__ = ["EPISODES", "GYMNASIUM_ID", "PETTINGZOO_ID", "EightsEnv", "EightsVectorEnv", "Table",
           "env", "make_opponents", "raw_env"]

GYMNASIUM_ID = gymnasium_env.ID
PETTINGZOO_ID = pettingzoo_env.ID

if GYMNASIUM_ID not in gymnasium.registry:
    gymnasium.register(GYMNASIUM_ID, entry_point="eights.rl.gymnasium_env:EightsEnv",
                       vector_entry_point="eights.rl.vector:EightsVectorEnv")
if hasattr(pettingzoo, "register") and PETTINGZOO_ID not in pettingzoo.aec_registry:
    pettingzoo.register("aec", PETTINGZOO_ID, entry_point="eights.rl.pettingzoo_env:env")


def __getattr__(name: str) -> Any:
    """:class:`EightsVectorEnv` on first use (it imports numba, which the rest does not)."""
    if name == "EightsVectorEnv":
        from eights.rl.vector import EightsVectorEnv
        return EightsVectorEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
