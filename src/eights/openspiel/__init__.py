"""Every rule set as an OpenSpiel game: ``import eights.openspiel`` registers ``python_eights``.

>>> import pyspiel
>>> import eights.openspiel
>>> game = pyspiel.load_game("python_eights", {"rules": "huit-americain", "players": 3})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(3, 537, 53)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 52)

==================  =======================================================================
parameter           meaning
==================  =======================================================================
``rules``           a preset name (``eights rules list``) or a rules file path; default
                    ``classic``
``players``         seats; 0 (the default) for the rule set's default
``reward``          ``points`` (default: zero-sum), ``raw`` or ``win``
                    (:func:`eights.codes.round_rewards`)
``dealer``          the seat that deals; the seat after it plays first; default 0
==================  =======================================================================

**Search it with** :func:`ismcts_bot` **(OpenSpiel's Python ISMCTS), never**
``pyspiel.ISMCTSBot``: the C++ bot's ``step`` on ``python_eights`` (on any Python game,
OpenSpiel 2.0.2) crashes the process with a segmentation fault. Observation types are
``pyspiel.IIGObservationType(public_info=..., perfect_recall=..., private_info=...)``
(``pyspiel``, not ``open_spiel.python.observation``).

One OpenSpiel episode is one round. Player actions are :func:`eights.codes.action_code`
numbers (``num_distinct_actions`` is :func:`eights.codes.action_count`); a chance outcome
is the code of the card that leaves the stock (0-52), one chance node a card: the deal,
the starter and every card drawn (:mod:`eights.openspiel.chance`). Observations and
information states come from the engine's one observer (:mod:`eights.openspiel.views`);
``resample_from_infostate`` deals the hidden cards again with eights' world sampler
(:mod:`eights.openspiel.resample`), so OpenSpiel's ISMCTS (its Python bot:
:func:`ismcts_bot`) searches the game. ``docs/openspiel.md`` has the whole story.

Version history: 1 (this one), the first.
"""

from __future__ import annotations

try:
    import pyspiel  # noqa: F401
except ImportError as missing:  # pragma: no cover - the extra is part of the test set-up
    raise ImportError("eights.openspiel needs OpenSpiel: pip install 'eights[openspiel]'") \
        from missing

from eights.openspiel.chance import Event, Round
from eights.openspiel.game import (
    GAME_TYPE,
    MAX_GAME_LENGTH,
    PARAMETERS,
    BotAdapter,
    EightsGame,
    EightsObserver,
    EightsState,
    describe_observation_type,
    ismcts_bot,
    resampler,
    utility_range,
)

__all__ = ["GAME_TYPE", "MAX_GAME_LENGTH", "PARAMETERS", "BotAdapter", "EightsGame",
           "EightsObserver", "EightsState", "Event", "Round", "describe_observation_type",
           "ismcts_bot", "resampler", "utility_range"]
