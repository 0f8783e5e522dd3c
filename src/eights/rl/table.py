"""What the environments share: a table of some rules and seats, its deals and their seeds,
the spaces, the legal-action mask, the rewards and the table in words.

Both :mod:`eights.rl.pettingzoo_env` and :mod:`eights.rl.gymnasium_env` deal through a
:class:`Table` from a NumPy generator seeded by ``reset(seed=...)``
(:func:`gymnasium.utils.seeding.np_random`), so one seed deals the same round in
both: the engine game's own seed and, unless fixed, the dealer are drawn from it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

import eights.codes as codes
from eights.engine.actions import Action
from eights.engine.errors import IllegalActionError
from eights.engine.game import Game
from eights.engine.rules import Rules, load_rules
from eights.i18n import translator
from eights.i18n.text import round_summary, table_words
from eights.rl.factored import N_TOKENS, PLAY_SIZE, OnePlay, check_actions, token_name

__all__ = ["EPISODES", "NO_BOUND", "RENDER_MODES", "RenderModeError", "Table", "check_limit",
           "check_render_mode", "observation_high", "text_image"]

EPISODES = ("round", "match")
"""What one episode is: one round (the default), or a whole match (the rules' target or
number of rounds), with a reward at the end of each round."""
NO_BOUND = 2**31 - 1
"""The observation's upper bound for the counts the rules do not bound (a pending forced
draw, draws this turn, plays, passes in a row)."""

RENDER_MODES = ("ansi", "human", "rgb_array")
"""``ansi``: ``render()`` returns the table in words; ``human``: it is printed after every
step; ``rgb_array``: ``render()`` returns those words drawn on an image (an ``uint8``
array of shape ``(height, width, 3)``; it needs Pillow), the mode Stable-Baselines3's
``make_vec_env`` asks for."""

ObsArray = npt.NDArray[np.int32]
MaskArray = npt.NDArray[np.int8]
RulesArg = str | Path | Mapping[str, Any] | Rules


class RenderModeError(TypeError, ValueError):
    """A ``render_mode`` the environments do not offer. A :class:`TypeError`, as tools
    expect of an environment that does not take a keyword's value (Stable-Baselines3's
    ``make_vec_env`` asks ``gymnasium.make`` for ``render_mode="rgb_array"`` and, on a
    TypeError, makes the environment again without it), and a :class:`ValueError`, as a
    bad option is everywhere else in eights."""


def check_render_mode(render_mode: str | None) -> None:
    """A :class:`RenderModeError` unless ``render_mode`` is one of :data:`RENDER_MODES` or
    None (``rgb_array`` only where Pillow is installed)."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise RenderModeError(f"unknown render_mode {render_mode!r}; render modes: "
                              f"{', '.join(RENDER_MODES)} or None")
    if render_mode == "rgb_array" and find_spec("PIL") is None:
        raise RenderModeError("render_mode 'rgb_array' draws the table with Pillow, which is "
                              "not installed: pip install pillow (or use 'ansi')")


_SYMBOLS = str.maketrans({"♣": "c", "♦": "d", "♥": "h", "♠": "s", "→": ">", "←": "<"})
"""The suits and arrows in letters, for a font without them."""
_FONT_SIZE = 14


def text_image(text: str) -> npt.NDArray[np.uint8]:
    """``text`` drawn in white on a card table's green, one line a line of text, in DejaVu
    Sans Mono where it is installed (else Pillow's own font, the suits as letters): an
    ``uint8`` array of shape ``(height, width, 3)``."""
    from PIL import Image, ImageDraw, ImageFont

    font: ImageFont.FreeTypeFont | ImageFont.ImageFont
    try:
        font = ImageFont.truetype("DejaVuSansMono.ttf", _FONT_SIZE)
    except OSError:
        font = ImageFont.load_default(_FONT_SIZE)
        text = text.translate(_SYMBOLS)
    lines = text.split("\n")
    step = _FONT_SIZE + 4
    width = 8 + max(int(font.getlength(line)) for line in lines)
    image = Image.new("RGB", (width, 8 + step * len(lines)), (18, 84, 48))
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((4, 4 + step * i), line, font=font, fill=(255, 255, 255))
    return np.asarray(image, dtype=np.uint8)


def check_limit(name: str, limit: int | None, unit: str) -> None:
    """A :class:`ValueError` unless ``limit`` is a positive integer or None (no limit)."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)
                              or limit < 1):
        raise ValueError(f"{name} must be a positive number of {unit}, or None for no limit, "
                         f"not {limit!r}")


def observation_high(rules: Rules, players: int) -> ObsArray:
    """The upper bound of each integer of :func:`eights.codes.observation` (the lower is 0).

    Card counts (hand, discard) are bounded by the most copies of a card in the deck, the
    one-hot blocks and flags by 1, the hand sizes, the stock, a skip due and the seats
    skipped by the deck's size, and the other counts by :data:`NO_BOUND`. A block's bound
    is the same for all its cards, so none is 0 (a card missing from a short deck)."""
    deck = rules.deck(players)
    copies = max(Counter(deck).values())
    total = len(deck)
    high = np.ones(codes.observation_size(players), dtype=np.int32)
    for start in (codes.O_HAND, codes.O_DISCARD):
        high[start:start + 53] = copies
    c = codes.O_COUNTS
    high[c:c + 7] = (NO_BOUND, total, total, NO_BOUND, NO_BOUND, NO_BOUND, total)
    high[codes.O_SEATS:codes.O_SEATS + players] = total
    return high


class Table:
    """One table of ``rules`` with ``players`` seats, as the environments see it.

    Checks the options (a :class:`ValueError` or :class:`~eights.engine.errors.RulesError`
    names the option, the value and what is allowed), deals rounds, and turns the game
    into arrays: :meth:`observation` (the observer's integers and its mask), :meth:`advance`
    (an action of the space to the legal action it finishes) and :meth:`rewards` (a
    round's rewards). ``actions``: ``whole`` (one code a play, :mod:`eights.codes`) or
    ``factored`` (one step a card, :mod:`eights.rl.factored`).
    """

    def __init__(self, rules: RulesArg, players: int | None, *, reward: str = "points",
                 episode: str = "round", dealer: int | None = None,
                 overrides: Sequence[str] | Mapping[str, Any] = (),
                 actions: str = "whole") -> None:
        self.rules = load_rules(rules, overrides)
        self.players = self.rules.default_players if players is None else players
        self.rules.check_players(self.players)
        if reward not in codes.REWARDS:
            raise ValueError(f"unknown reward {reward!r}; rewards: {', '.join(codes.REWARDS)}")
        if episode not in EPISODES:
            raise ValueError(f"unknown episode {episode!r}; episodes: {', '.join(EPISODES)}")
        if episode == "match" and not (self.rules.rounds or self.rules.target):
            raise ValueError(f"episode='match' needs a match that ends: {self.rules.name} has "
                             "neither a target nor a number of rounds (set target or rounds)")
        if dealer is not None and not 0 <= dealer < self.players:
            raise ValueError(f"dealer {dealer} is not a seat; seats are 0 to {self.players - 1}, "
                             "or None for a dealer drawn from the seed")
        check_actions(actions)
        self.reward = reward
        self.episode = episode
        self.dealer = dealer
        self.factored = actions == "factored"
        """Whether an action is a step of a play (:mod:`eights.rl.factored`), not a code."""
        self.codes = codes.action_count(self.rules, self.players)
        """How many whole action codes the rules use: a prefix of :mod:`eights.codes`."""
        self.actions = N_TOKENS if self.factored else self.codes
        """The size of the Discrete action space: the codes, or the factored tokens."""
        high = observation_high(self.rules, self.players)
        self.size = codes.observation_size(self.players)
        if self.factored:
            self.size += PLAY_SIZE
            block = np.ones(PLAY_SIZE, dtype=np.int32)
            block[53:106] = high[codes.O_HAND]  # the cards under the top: copies of a card
            high = np.concatenate([high, block])
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0, high, (self.size,), np.int32),
            "action_mask": spaces.Box(0, 1, (self.actions,), np.int8),
        })
        self.state_space = spaces.Box(0, np.tile(observation_high(self.rules, self.players),
                                                 self.players),
                                      (self.players * codes.observation_size(self.players),),
                                      np.int32)
        """The global state's space (:meth:`state`): every seat's observation (without the
        factored play's block)."""
        self.game: Game | None = None
        self.legal: dict[int, Action] = {}
        """The legal actions of the seat to play, by code."""
        self.play = OnePlay()
        """The play being built (factored actions)."""

    @property
    def live(self) -> Game:
        """The game being played (a :class:`RuntimeError` before the first deal)."""
        if self.game is None:
            raise RuntimeError("no round is dealt yet: call reset() first")
        return self.game

    def deal(self, rng: np.random.Generator) -> Game:
        """A new game: its seed, and its dealer unless fixed, drawn from ``rng``."""
        seed = int(rng.integers(2**63))
        dealer = self.dealer if self.dealer is not None else int(rng.integers(self.players))
        self.game = Game(self.rules, self.players, seed=seed, dealer=dealer)
        self.refresh()
        return self.game

    def refresh(self) -> None:
        """Read the legal actions of the seat to play (after every move)."""
        game = self.live
        self.legal = {} if game.over else {codes.action_code(a): a for a in game.legal}
        if self.factored:
            self.play.start(self.legal)

    def observation(self, seat: int) -> dict[str, Any]:
        """``{"observation": ..., "action_mask": ...}`` for ``seat``: its integers
        (:func:`eights.codes.observation` of ``game.observe(seat)``) and the legal codes
        (all zeros unless it is to play)."""
        game = self.live
        seen = codes.observation(game.observe(seat))
        if self.factored:
            seen.extend(self.play.block if game.to_play == seat else [0] * PLAY_SIZE)
        return {"observation": np.array(seen, dtype=np.int32), "action_mask": self.mask(seat)}

    def mask(self, seat: int) -> MaskArray:
        """``seat``'s legal actions now, 0 or 1 (all 0 unless it is to play)."""
        mask = np.zeros(self.actions, dtype=np.int8)
        if self.live.to_play == seat:
            if self.factored:
                mask[list(self.play.tokens)] = 1
            else:
                mask[list(self.legal)] = 1
        return mask

    def state(self) -> npt.NDArray[np.int32]:
        """The global state, for a centralised critic: every seat's observation
        (:func:`eights.codes.observation`) in seat order, so every hand. The stock's cards
        are those in no hand and not on the pile; their order (the draws to come) is not in
        it."""
        game = self.live
        return np.array([x for s in range(self.players)
                         for x in codes.observation(game.observe(s))], dtype=np.int32)

    def code(self, action: object) -> int:
        """The integer code (or factored token) of ``action`` (an int, a NumPy integer or a
        0-d integer array, as ``model.predict`` returns, in the action space), or a
        :class:`ValueError` saying what is allowed."""
        if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
            action = action[()]
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            code = int(action)
            if 0 <= code < self.actions:
                return code
        what, where = (("a factored action", "eights.rl.factored") if self.factored
                       else ("an action code", "eights.codes"))
        raise ValueError(f"action {action!r} is not {what} of {self.rules.name}: "
                         f"a whole number from 0 to {self.actions - 1} ({where})")

    def is_legal(self, action: object) -> bool:
        """Whether ``action`` (in the action space) is legal now."""
        code = self.code(action)
        return code in self.play.tokens if self.factored else code in self.legal

    def advance(self, action: object) -> Action | None:
        """Take ``action`` (legal: :meth:`is_legal`): the whole action it finishes, or
        ``None`` for a step of a play not finished yet (factored actions; the game has not
        moved)."""
        code = self.code(action)
        if not self.factored:
            return self.legal[code]
        whole = self.play.push(code)
        return self.legal[whole] if whole >= 0 else None

    def illegal(self, action: object, who: str) -> IllegalActionError:
        """The error for an action that is not legal now, listing the legal ones."""
        code = self.code(action)
        if self.factored:
            steps = sorted(self.play.tokens)
            tokens = ", ".join(f"{t} ({token_name(t)})" for t in steps)
            return IllegalActionError(
                f"token {code} ({token_name(code)}) is not legal for {who} now; legal: "
                f"{tokens or 'none (the round is over)'}", tuple(map(token_name, steps)))
        legal = ", ".join(f"{c} ({a})" for c, a in sorted(self.legal.items()))
        return IllegalActionError(
            f"action {code} ({codes.code_action(code)}) is not legal for {who} now; "
            f"legal: {legal or 'none (the round is over)'}",
            tuple(str(a) for a in self.legal.values()))

    def rewards(self) -> list[float]:
        """Each seat's reward for the round just over (:func:`eights.codes.round_rewards`)."""
        game = self.live
        assert game.round_points is not None and game.round_winners is not None
        return codes.round_rewards(self.rules, game.round_points, game.round_winners,
                                   self.reward)

    def text(self, names: Sequence[str]) -> str:
        """The table in words (the terminal's lines, in English), every hand shown (the
        referee's view), and the round's summary once it is over."""
        game = self.live
        _ = translator("en")
        lines = [f"{game.rules.title}: round {game.round}, {names[game.dealer]} deals",
                 *table_words(game, names, _)]
        for seat, name in enumerate(names):
            hand = " ".join(str(c) for c in game.hand(seat)) or "-"
            turn = "  <- to play" if game.to_play == seat else ""
            lines.append(f"{name}: {hand}{turn}")
        if game.over:
            lines.extend(round_summary(game, names, _))
        return "\n".join(lines)

    def render(self, mode: str | None, names: Sequence[str]) -> str | npt.NDArray[np.uint8] | None:
        """:meth:`text` as ``render()`` gives it in ``mode``: returned (``ansi``), printed
        (``human``), drawn (``rgb_array``: :func:`text_image`), or a warning without a
        mode."""
        if mode is None:
            gymnasium.logger.warn("render() was called without a render_mode; "
                                  "make the environment with render_mode='ansi', 'human' or "
                                  "'rgb_array'")
            return None
        text = self.text(names)
        if mode == "human":
            print(text)
            return None
        if mode == "rgb_array":
            return text_image(text)
        return text
