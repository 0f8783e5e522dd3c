"""Reinforcement-learning environments for every rule set (the ``rl`` extra).

- :func:`env` / :class:`raw_env`: a PettingZoo AEC environment, one agent a seat
  (:mod:`eights.rl.pettingzoo_env`);
- :class:`EightsEnv`: a Gymnasium environment where one seat learns and eights bots play
  the others (:mod:`eights.rl.gymnasium_env`).

Both speak the integer codes of :mod:`eights.codes`: one action encoding for every rule
set, one seat's observation as integers, and round rewards. Importing this package
registers ``eights/Eights-v0`` with Gymnasium (``gymnasium.make``) and, where the installed
PettingZoo has a registry (1.27 and later), with PettingZoo (``pettingzoo.make("aec",
...)``). See ``docs/environments.md``.

>>> from eights.rl import env
>>> table = env("les-huit", players=4)
>>> table.reset(seed=3)
>>> table.agent_selection in table.agents, len(table.agents)
(True, 4)
"""

from __future__ import annotations

import gymnasium
import pettingzoo

from eights.rl import gymnasium_env, pettingzoo_env
from eights.rl.gymnasium_env import EightsEnv, make_opponents
from eights.rl.pettingzoo_env import env, raw_env
from eights.rl.table import EPISODES, Table

__all__ = ["EPISODES", "GYMNASIUM_ID", "PETTINGZOO_ID", "EightsEnv", "Table", "env",
           "make_opponents", "raw_env"]

GYMNASIUM_ID = gymnasium_env.ID
PETTINGZOO_ID = pettingzoo_env.ID

if GYMNASIUM_ID not in gymnasium.registry:
    gymnasium.register(GYMNASIUM_ID, entry_point="eights.rl.gymnasium_env:EightsEnv")
if hasattr(pettingzoo, "register") and PETTINGZOO_ID not in pettingzoo.aec_registry:
    pettingzoo.register("aec", PETTINGZOO_ID, entry_point="eights.rl.pettingzoo_env:env")
