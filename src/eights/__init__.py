"""eights: Crazy Eights and its family, with rules as data.

>>> from eights import Game
>>> game = Game("huit-americain", players=3, seed=7)
>>> game.to_play
1
"""

from eights.engine.actions import DRAW, PASS, TAKE, Action, Kind
from eights.engine.cards import CARDS, JOKER, Card, Rank, Suit, make_deck, parse_cards
from eights.engine.errors import (
    EightsError,
    IllegalActionError,
    NotationError,
    RecordError,
    RulesError,
    ScriptEnded,
)
from eights.engine.game import Game, RoundLog, Step
from eights.engine.observation import Observation
from eights.engine.rules import CardRule, DrawPolicy, Rules, Scoring, load_rules, preset_names

__version__ = "0.1.0"

__all__ = [
    "CARDS",
    "DRAW",
    "JOKER",
    "PASS",
    "TAKE",
    "Action",
    "Card",
    "CardRule",
    "DrawPolicy",
    "EightsError",
    "Game",
    "IllegalActionError",
    "Kind",
    "NotationError",
    "Observation",
    "Rank",
    "RecordError",
    "RoundLog",
    "Rules",
    "RulesError",
    "Scoring",
    "ScriptEnded",
    "Step",
    "Suit",
    "load_rules",
    "make_deck",
    "parse_cards",
    "preset_names",
]
