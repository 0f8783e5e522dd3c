"""Integer codes at the RL boundary: one action encoding for every rule set, and one
seat's observation as a flat list of integers.

The kernel (:mod:`eights.fast`), the environments (:mod:`eights.rl`) and the
OpenSpiel game (:mod:`eights.openspiel`) share these codes, so an action number
means the same play everywhere and in every preset. Nothing here imports
anything but the engine; ``docs/environments.md`` has both tables.

The action encoding
-------------------

==================  ==============================================================
``0 .. 529``        one card: ``card * 10 + suit * 2 + call``; ``card`` its code
                    (``rank * 4 + suit``, joker 52), ``suit`` the suit named (0-3:
                    ``c d h s``) or 4 for none, ``call`` 1 for ``!`` (the last card
                    announced, or the going-out call)
``530``             ``draw``
``531``             ``take`` (LH5)
``532``             ``pass``
``533 .. 536``      ``=c`` ``=d`` ``=h`` ``=s``: name a wild starter's suit (TS3, UC3)
``537 .. 42936``    several cards of one rank (``multi_play``, SW3):
                    ``537 + (u - 1) * 530 + top * 10 + suit * 2 + call``, the top card
                    and its variant as for one card, ``u`` (1-80) the cards under it:
                    :data:`UNDER` ``[u]`` counts them by suit (the top card's rank);
                    under a joker, ``u`` jokers
==================  ==============================================================

:data:`UNDER` lists first the 15 sets of at most one card a suit (``u`` 1-15, in
binary order: bit ``s`` for suit ``s``), then the 65 with two of some suit. A rule
set uses a prefix of the codes (:func:`action_count`): 537 without ``multi_play``,
:data:`N_ONE_DECK` when no card has a second copy, :data:`N_ACTIONS` with two decks.

Rewards
-------

:func:`round_rewards` turns a round's points into one reward a seat (:data:`REWARDS`).
Points are good or bad by the scoring: under ``winner-collects`` and ``rounds-won`` a
seat gains them, under ``own-hand`` and ``placings`` it wants few; ``raw`` is the round's
points signed so that more is better. ``points`` (the default) is ``raw`` less its mean
over the seats: zero-sum in every scoring (under teams partners score alike, so each gets
its team's reward). ``win`` is +1 for each winner of the round and -1 for every other seat.

The observation
---------------

:func:`observation` turns an :class:`~eights.engine.observation.Observation` into
``observation_size(players)`` integers; seats are relative (block position ``i`` is
the seat ``i`` places after the observer, so position 0 is the observer):

===================  ====  =========================================================
``O_HAND``           53    the observer's hand: copies of each card code
``O_TOP``            53    the up-card (one-hot)
``O_DISCARD``        53    the discard pile: copies of each card code
``O_DRAWN``          53    the card the observer drew and may or must play (one-hot)
``O_SUIT``           5     the suit to follow, ``c d h s`` or none (one-hot)
``O_RANK``           14    the rank to match (one-hot, joker 13)
``O_PENDING_RANK``   14    the rank behind a waiting forced draw (one-hot, or zeros)
``O_COUNTS``         7     pending draw, stock, skip due, draws this turn, plays,
                           passes in a row, seats skipped after LH5
``O_FLAGS``          9     any card may follow, must play again, may take, served,
                           announce due, naming, direction reversed, observer to play,
                           round over
``O_SEATS``          5n    per seat (relative): hand size, out (play_on), to play,
                           dealer, attacker (behind the pending draw)
===================  ====  =========================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import TYPE_CHECKING

from eights.engine.actions import DRAW, NAMES, PASS, TAKE, Action, Kind
from eights.engine.cards import CARDS, Card, Suit
from eights.engine.errors import RulesError
from eights.engine.rules import MultiPlay, Scoring

if TYPE_CHECKING:
    from eights.engine.observation import Observation
    from eights.engine.rules import Rules

__all__ = [
    "A_DRAW", "A_MULTI", "A_NAME", "A_PASS", "A_TAKE", "N_ACTIONS", "N_ONE_DECK", "N_SINGLE",
    "OBSERVATION_BLOCKS", "REWARDS", "UNDER", "action_code", "action_count", "code_action",
    "observation", "observation_size", "round_rewards",
]

A_DRAW = 530
A_TAKE = 531
A_PASS = 532
A_NAME = 533
"""``=c``; ``A_NAME + s`` names suit ``s``."""
N_SINGLE = 537
"""Codes of rules without ``multi_play``."""
A_MULTI = N_SINGLE
"""The first code of a play of several cards."""


def _under_sets() -> tuple[tuple[int, ...], ...]:
    ones = [tuple((u >> s) & 1 for s in range(4)) for u in range(1, 16)]
    twos = [v for v in (tuple(reversed(p)) for p in product(range(3), repeat=4))
            if max(v) == 2]
    return ((0, 0, 0, 0), *ones, *sorted(twos, key=lambda v: sum(x * 3**s for s, x in
                                                                  enumerate(v))))


UNDER: tuple[tuple[int, ...], ...] = _under_sets()
"""``UNDER[u]``: how many cards of each suit (``c d h s``) lie under the top card in a play
coded with ``u`` (``UNDER[0]``, none, is a single card)."""
_UNDER_INDEX = {v: u for u, v in enumerate(UNDER)}
N_ONE_DECK = N_SINGLE + 15 * 530
"""Codes of rules with ``multi_play`` and one copy of each card (jokers: at most 16)."""
N_ACTIONS = N_SINGLE + (len(UNDER) - 1) * 530
"""Every code: two copies of each card (jokers: at most 81)."""


def action_code(action: Action) -> int:
    """The code of an action (raises :class:`RulesError` for a play of several cards that
    the encoding has no code for: three copies of one card)."""
    if action.kind is Kind.PLAY:
        top = action.card
        assert top is not None
        low = top * 10 + (4 if action.suit is None else int(action.suit)) * 2 + action.announce
        if not action.under:
            return low
        if top == 52:
            u = len(action.under)
            if u >= len(UNDER):
                raise RulesError(f"{action}: more jokers under the top card than the action "
                                 f"encoding has ({len(UNDER) - 1})")
        else:
            counts = [0, 0, 0, 0]
            for c in action.under:
                counts[c & 3] += 1
            found = _UNDER_INDEX.get(tuple(counts))
            if found is None:
                raise RulesError(f"{action}: three copies of one card in a play; the action "
                                 "encoding has two at most")
            u = found
        return A_MULTI + (u - 1) * 530 + low
    if action is DRAW:
        return A_DRAW
    if action is TAKE:
        return A_TAKE
    if action is PASS:
        return A_PASS
    assert action.suit is not None
    return A_NAME + int(action.suit)


def code_action(code: int) -> Action:
    """The action of a code (raises :class:`ValueError` naming the allowed range)."""
    if not 0 <= code < N_ACTIONS:
        raise ValueError(f"action code {code} is out of range: 0 to {N_ACTIONS - 1}")
    if code < A_DRAW:
        return Action.play(CARDS[code // 10], *_variant(code % 10))
    if code < A_MULTI:
        return (DRAW, TAKE, PASS, *NAMES)[code - A_DRAW]
    u, low = divmod(code - A_MULTI, 530)
    top = CARDS[low // 10]
    suit, call = _variant(low % 10)
    if top == 52:
        under = [top] * (u + 1)
    else:
        rank = top & ~3
        under = [CARDS[rank + s] for s, n in enumerate(UNDER[u + 1]) for _ in range(n)]
    return Action.play_many([*under, top], suit, call)


def _variant(bit: int) -> tuple[Suit | None, bool]:
    suit = bit >> 1
    return (None if suit == 4 else Suit(suit)), bool(bit & 1)


def action_count(rules: Rules, players: int) -> int:
    """How many codes ``rules`` with ``players`` may use (a prefix of the encoding).

    Raises :class:`RulesError`, naming ``decks`` or ``jokers``, when plays of several
    cards could hold more copies of a card than the encoding has room for."""
    if rules.multi_play is MultiPlay.NONE:
        return N_SINGLE
    copies = rules.decks_for(players)
    jokers = rules.jokers * copies
    if copies <= 1 and jokers <= 16:
        return N_ONE_DECK
    if copies <= 2 and jokers <= len(UNDER):
        return N_ACTIONS
    field = "decks" if copies > 2 else "jokers"
    raise RulesError(f"{rules.name}: multi_play with {copies} decks and {jokers} jokers; the "
                     f"action encoding holds plays with two copies of a card at most (and 81 "
                     f"jokers): lower {field}")


# ---------------------------------------------------------------- the observation
OBSERVATION_BLOCKS: tuple[tuple[str, int], ...] = (
    ("hand", 53), ("top", 53), ("discard", 53), ("drawn", 53), ("suit", 5), ("rank", 14),
    ("pending_rank", 14), ("counts", 7), ("flags", 9),
)
"""The fixed blocks of :func:`observation` in order, with their sizes; the seats' block
(``5 * players``) follows."""
O_HAND, O_TOP, O_DISCARD, O_DRAWN, O_SUIT, O_RANK, O_PENDING_RANK, O_COUNTS, O_FLAGS, \
    O_SEATS = (sum(size for _, size in OBSERVATION_BLOCKS[:i])
               for i in range(len(OBSERVATION_BLOCKS) + 1))


def observation_size(players: int) -> int:
    """The length of :func:`observation` with ``players`` seats."""
    return O_SEATS + 5 * players


def _cards(out: list[int], at: int, cards: tuple[Card, ...]) -> None:
    for c in cards:
        out[at + c] += 1


def observation(obs: Observation) -> list[int]:
    """One seat's observation as integers (the layout in the module's docstring)."""
    n = obs.players
    out = [0] * observation_size(n)
    _cards(out, O_HAND, obs.hand)
    out[O_TOP + obs.up_card] = 1
    _cards(out, O_DISCARD, obs.discard)
    if obs.drawn is not None:
        out[O_DRAWN + obs.drawn] = 1
    out[O_SUIT + (4 if obs.suit is None else int(obs.suit))] = 1
    out[O_RANK + int(obs.rank)] = 1
    if obs.pending_rank is not None:
        out[O_PENDING_RANK + int(obs.pending_rank)] = 1
    out[O_COUNTS:O_COUNTS + 7] = (obs.pending_draw, obs.stock, obs.skip_due, obs.draws_this_turn,
                                  obs.plays, obs.passes, obs.skip_next)
    out[O_FLAGS:O_FLAGS + 9] = (int(obs.free), int(obs.must_play_again), int(obs.may_take),
                                int(obs.served), int(obs.announce_due), int(obs.naming),
                                int(obs.direction < 0), int(obs.to_play == obs.seat),
                                int(obs.round_over))
    finished = set(obs.finished)
    for i in range(n):
        seat = (obs.seat + i) % n
        out[O_SEATS + i] = obs.hand_sizes[seat]
        out[O_SEATS + n + i] = int(seat in finished)
        out[O_SEATS + 2 * n + i] = int(obs.to_play == seat)
        out[O_SEATS + 3 * n + i] = int(obs.dealer == seat)
        out[O_SEATS + 4 * n + i] = int(obs.attacker == seat)
    return out


REWARDS = ("points", "raw", "win")
"""The reward modes of :func:`round_rewards`."""


def round_rewards(rules: Rules, points: Sequence[int], winners: Sequence[int],
                  mode: str = "points") -> list[float]:
    """One reward a seat for a round over: ``points`` its round points by seat, ``winners``
    the seats that won it (see *Rewards* above)."""
    sign = 1 if rules.scoring in (Scoring.WINNER_COLLECTS, Scoring.ROUNDS_WON) else -1
    if mode == "points":
        mean = sum(points) / len(points)
        return [sign * (p - mean) for p in points]
    if mode == "raw":
        return [float(sign * p) for p in points]
    if mode == "win":
        won = set(winners)
        return [1.0 if s in won else -1.0 for s in range(len(points))]
    raise ValueError(f"unknown reward mode {mode!r}; modes: {', '.join(REWARDS)}")
