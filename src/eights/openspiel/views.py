"""What each seat sees of a :class:`~eights.openspiel.chance.Round`, as text and integers.

- The **observation** is :func:`eights.codes.observation` of ``observe(seat)`` (the one
  observer of the engine), and :func:`observation_text` says the same in words.
- The **information state** adds what the seat saw happen. :func:`info_text` is exact
  (perfect recall): the seat's hand as dealt, the cards turned up at the start, then every
  decision with the number of cards each seat received during it, the seat's own cards
  shown; at the end every hand, shown when the round ends. Two histories give the same
  text exactly when the seat cannot tell them apart (up to the order in which its own
  hand was dealt). :func:`recall` is its fixed-size summary for the tensor: the hand as
  dealt, the cards received since, the cards each seat played, and each seat's draws,
  passes and cards received. A tensor cannot hold an unbounded history; search keys
  nodes by the text.

Seats in the integer blocks are relative, as in :mod:`eights.codes` (position ``i`` is the
seat ``i`` places after the observer).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING

from eights.engine.actions import Kind
from eights.engine.cards import CARDS, Card
from eights.engine.observation import Observation

if TYPE_CHECKING:
    from eights.openspiel.chance import Event, Round

__all__ = ["PUBLIC_FLAGS", "dealt_tally", "event_line", "head_lines", "info_text",
           "observation_text", "public_text", "recall", "recall_blocks", "recall_size",
           "referee_text", "tally"]

PUBLIC_FLAGS = (0, 1, 2, 3, 4, 5, 6, 8)
"""The flags of :func:`eights.codes.observation` that the public observation keeps: all but
``observer to play`` (7), which names no one there (the seats block says who plays)."""


def _cards(cards: Iterable[int]) -> str:
    return " ".join(str(CARDS[c]) for c in cards) or "-"


@cache
def recall_size(players: int) -> int:
    """The length of :func:`recall` with ``players`` seats."""
    return sum(size for _, size in recall_blocks(players))


def recall_blocks(players: int) -> tuple[tuple[str, int], ...]:
    """The blocks of :func:`recall` in order, with their sizes."""
    return (("dealt", 53), ("received", 53), ("played", 53 * players),
            ("decisions", 3 * players))


# ---------------------------------------------------------------- observation

def observation_text(rnd: Round, seat: int) -> str:
    """The observation in words: the fields of :func:`eights.codes.observation`."""
    obs = rnd.observation(seat)
    if obs is None:
        return _dealing(rnd, seat)
    parts = [f"seat {seat}", f"hand {_cards(sorted(obs.hand))}",
             f"up {CARDS[obs.up_card]}",
             f"suit {'-' if obs.suit is None else obs.suit.letter}", f"rank {obs.rank.letter}",
             f"discard {_cards(obs.discard)}",
             f"hands {' '.join(str(k) for k in obs.hand_sizes)}", f"stock {obs.stock}",
             "round over" if obs.round_over else f"to play {obs.to_play}",
             f"dealer {obs.dealer}"]
    parts += _extras(obs, private=True)
    if obs.revealed is not None:
        parts.append("revealed " + " / ".join(_cards(sorted(h)) for h in obs.revealed))
    return " | ".join(parts)


def public_text(rnd: Round) -> str:
    """The public observation in words: :func:`observation_text` without the seat, its
    hand, the card it drew and the hands shown at the end (no seat's cards at all)."""
    obs = rnd.observation(0)
    if obs is None:
        text = f"dealing {min(len(rnd.cards), rnd.deal_size)}/{rnd.deal_size}"
        if len(rnd.cards) > rnd.deal_size:
            text += f" | turned {_cards(rnd.cards[rnd.deal_size:])}"
        return text
    parts = [f"up {CARDS[obs.up_card]}",
             f"suit {'-' if obs.suit is None else obs.suit.letter}", f"rank {obs.rank.letter}",
             f"discard {_cards(obs.discard)}",
             f"hands {' '.join(str(k) for k in obs.hand_sizes)}", f"stock {obs.stock}",
             "round over" if obs.round_over else f"to play {obs.to_play}",
             f"dealer {obs.dealer}"]
    return " | ".join(parts + _extras(obs, private=False))


def _extras(obs: Observation, private: bool) -> list[str]:
    """The rarer fields, named only when they are set (the card drawn only when
    ``private``)."""
    out = []
    if private and obs.drawn is not None:
        out.append(f"drawn {CARDS[obs.drawn]}")
    if obs.pending_draw:
        assert obs.pending_rank is not None
        out.append(f"pending draw {obs.pending_draw} (rank {obs.pending_rank.letter}, "
                   f"from {obs.attacker})")
    for name, value in (("skip due", obs.skip_due), ("draws this turn", obs.draws_this_turn),
                        ("plays", obs.plays), ("passes", obs.passes),
                        ("seats skipped after", obs.skip_next)):
        if value:
            out.append(f"{name} {value}")
    for name, flag in (("any card follows", obs.free), ("play again", obs.must_play_again),
                       ("may take", obs.may_take), ("served", obs.served),
                       ("announce due", obs.announce_due), ("naming", obs.naming),
                       ("reversed", obs.direction < 0)):
        if flag:
            out.append(name)
    if obs.finished:
        out.append(f"out {' '.join(str(s) for s in obs.finished)}")
    return out


def _dealing(rnd: Round, seat: int) -> str:
    own = [c for i, c in enumerate(rnd.cards[:rnd.deal_size]) if rnd.dealt_to(i) == seat]
    text = f"seat {seat} | dealing {min(len(rnd.cards), rnd.deal_size)}/{rnd.deal_size} | " \
           f"hand {_cards(sorted(own))}"
    if len(rnd.cards) > rnd.deal_size:
        text += f" | turned {_cards(rnd.cards[rnd.deal_size:])}"
    return text


# ---------------------------------------------------------------- information state
# A round keeps each seat's lines and tally of the decisions completed (:meth:`Round.record`
# adds one with :func:`event_line` and :func:`tally`), so a view costs no pass over the
# history; the decision under way and the end are added here.

def head_lines(rnd: Round, seat: int) -> list[str]:
    """The first lines of ``seat``'s information state, once the deal is done."""
    return [f"eights {rnd.rules.name} {rnd.players}p", f"seat {seat} dealer {rnd.dealer}",
            f"dealt {_cards(rnd.hands0[seat])}", f"turned {_cards(rnd.starters)}"]


def event_line(event: Event, seat: int) -> str:
    """One decision as ``seat`` saw it: who, what, and the cards each seat received
    (``seat``'s own shown, the others counted)."""
    text = f"{event.seat} {event.action}"
    for s, cards in enumerate(event.received):
        if cards:
            text += f" {s}+{_cards(cards) if s == seat else len(cards)}"
    return text


@cache
def _offsets(n: int) -> tuple[int, ...]:
    return tuple(sum(size for _, size in recall_blocks(n)[:i]) for i in range(4))


def dealt_tally(hand: Iterable[int], n: int) -> list[int]:
    """A recall vector holding only the hand as dealt."""
    out = [0] * recall_size(n)
    for c in hand:
        out[c] += 1
    return out


def tally(out: list[int], event: Event, seat: int, n: int) -> None:
    """Add one decision to ``seat``'s recall vector ``out``."""
    _, received, played, decisions = _offsets(n)
    rel = (event.seat - seat) % n
    for c in event.action.cards:
        out[played + 53 * rel + c] += 1
    kind = event.action.kind
    if kind is Kind.DRAW or kind is Kind.TAKE:
        out[decisions + rel] += 1
    elif kind is Kind.PASS:
        out[decisions + n + rel] += 1
    for s, cards in enumerate(event.received):
        out[decisions + 2 * n + (s - seat) % n] += len(cards)
    for c in event.received[seat]:
        out[received + c] += 1


def _so_far(rnd: Round, seat: int) -> tuple[list[int], list[Card]]:
    """During a decision that awaits a card: what each seat has received so far, and
    ``seat``'s own cards among them."""
    game, partial, pending = rnd.game, rnd.partial, rnd.pending
    assert game is not None and partial is not None and pending is not None
    counts = [a - b for a, b in zip(partial.received, game.received, strict=True)]
    before = Counter(game.hands[seat])
    if pending.seat == seat:
        before -= Counter(pending.action.cards)
    return counts, sorted((Counter(partial.hands[seat]) - before).elements())


def info_text(rnd: Round, seat: int) -> str:
    """The information state in words (exact: see the module text)."""
    game = rnd.game
    if game is None:
        return f"eights {rnd.rules.name} {rnd.players}p\n" + _dealing(rnd, seat)
    text = "\n".join(rnd.lines[seat])
    if rnd.pending is not None:
        counts, own = _so_far(rnd, seat)
        text += f"\n{rnd.pending.seat} {rnd.pending.action} …"
        for s, k in enumerate(counts):
            if k:
                text += f" {s}+{_cards(own) if s == seat else k}"
    if game.over:
        text += "\nover: " + " / ".join(_cards(sorted(game.hands[s]))
                                        for s in range(rnd.players))
    return text


def recall(rnd: Round, seat: int) -> list[int]:
    """The information state's fixed-size summary (:func:`recall_blocks`)."""
    n = rnd.players
    if rnd.game is None:
        return dealt_tally((c for i, c in enumerate(rnd.cards[:rnd.deal_size])
                            if rnd.dealt_to(i) == seat), n)
    out = rnd.tallies[seat][:]
    if rnd.pending is not None:
        _, received, _, decisions = _offsets(n)
        counts, own = _so_far(rnd, seat)
        for s, k in enumerate(counts):
            out[decisions + 2 * n + (s - seat) % n] += k
        for c in own:
            out[received + c] += 1
    return out


# ---------------------------------------------------------------- the referee

def referee_text(rnd: Round) -> str:
    """The whole state (every hand): OpenSpiel's ``str(state)``."""
    game = rnd.game
    if game is None:
        return (f"dealing {min(len(rnd.cards), rnd.deal_size)}/{rnd.deal_size}: "
                f"{_cards(rnd.cards)}")
    now = rnd.now()
    assert now is not None
    lines = [f"{s}: {_cards(sorted(now.hands[s]))}" for s in range(rnd.players)]
    lines.append(f"up {CARDS[now.up_card]} stock {len(now.stock)} discard {len(now.discard)}")
    if rnd.pending is not None:
        lines.append(f"{rnd.pending.seat} {rnd.pending.action} …, awaiting a card")
    elif game.over:
        lines.append(f"over, points {game.round_points}")
    else:
        lines.append(f"to play {game.to_move}")
    return "\n".join(lines)
