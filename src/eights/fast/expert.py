"""The expert in compiled code: :class:`eights.bots.expert.ExpertBot`'s choice, read off a
kernel state, for the search's rollouts (``ismcts:rollout=expert``).

:func:`expert_choice` is a line-by-line transliteration of ``ExpertBot.choose`` and
``ExpertBot._score`` (read them side by side): every legal play scored by the same terms,
summed in the same order in the same floating-point arithmetic, the first best kept.
``tests/test_fast_expert.py`` proves it equal, decision for decision, on positions of
every preset at 2 to 6 players.

What the expert reads beyond the state:

- **The cards it has not seen** (the deck less its hand and the discard pile): the state
  holds all three (the deck's counts, the hands, the pile).
- **The voids** (:func:`eights.bots.worlds.known_voids`): each seat's last plain draw
  (a draw the engine logs because the rules let a player draw only when it cannot
  play), unless that seat has ever drawn otherwise this round (a forced draw, HA11's
  draw, LH5's take) or paid HF9's penalty. The state does not keep them, so the search
  keeps them beside it, in a small ``notes`` array (:data:`NOTE_FIELDS` a seat), written
  by :func:`note` before every action is applied and first filled from the observation's
  public history (:func:`notes_of`).

The weights are the expert's (an array built by the caller from an ``ExpertBot``:
:func:`expert_weights`): the kernel may not import the bots, so the numbers come from
there, never written twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt

from eights.codes import A_DRAW, A_NAME, A_PASS, A_TAKE
from eights.engine.actions import Action, Kind
from eights.engine.rules import GoingOut, Rules
from eights.engine.tables import tables_for
from eights.fast import kernel as k
from eights.fast.kernel import _inline, _njit
from eights.fast.tables import (
    C_AGAIN,
    C_AGAIN_PENALTY,
    C_ANY_FOLLOWS,
    C_COVERED,
    C_DRAW,
    C_MUST_COVER,
    C_PASS_ON,
    C_REVERSE,
    C_SKIP,
    C_TRANSPARENT,
    C_WILD,
    M_STACKS,
    R_POINTS,
    T_LIMIT,
    T_OVERFLOW,
    T_REVERSE_SKIP,
)

__all__ = ["EXPERT", "NOTE_FIELDS", "WEIGHTS", "expert_choice", "expert_tables",
           "expert_weights", "note", "notes_of", "policy_choice"]

Int64Array = npt.NDArray[np.int64]
Float64Array = npt.NDArray[np.float64]

EXPERT = -1.0
"""A seat's entry in the search's ``policies`` array that makes it play the expert (the
others: the share of random choices, :func:`eights.fast.world.policy_epsilons`)."""

WEIGHTS = ("block", "points", "reserve", "follow", "suit", "keep", "multi", "uncovered",
           "cover", "skip_again", "stuck")
"""The expert's weights, in the order of the weights array (:func:`expert_weights`)."""
W_BLOCK, W_POINTS, W_RESERVE, W_FOLLOW, W_SUIT, W_KEEP, W_MULTI, W_UNCOVERED, W_COVER, \
    W_SKIP_AGAIN, W_STUCK = range(len(WEIGHTS))

# the expert's tables (an int64 array beside the kernel's)
X_TELLING = 0
"""A plain draw shows the hand could not play (the voids are read at all)."""
X_LAST_RESTRICTED = 1
"""A draw from a hand of one card tells nothing (LC6, PE12)."""
X_STUCK_ANY = 2
"""Some card may not always end the hand (PE12, LC6)."""
X_WILD_MASK = 3
X_CANCEL_MASK = 4
"""The plain cards that cancel some pick-up without adding to it (BJ4's red jacks)."""
X_STUCK = 8
"""Per card: twice how badly it serves as a last card (2: never or with a penalty, 1: only
on its suit, 0: always)."""
X_SIZE = X_STUCK + 53

# a seat's notes (NOTE_FIELDS slots a seat)
N_HAS = 0
"""1 once the seat has a logged plain draw this round."""
N_SUIT = 1
N_RANK = 2
N_FREE = 3
"""The target of its last plain draw (suit -1 for none), and whether any card followed."""
N_MIXED = 4
"""1 once the seat has drawn otherwise (a draw not logged, a take): its voids are lost."""
NOTE_FIELDS = 5

SUIT_BITS = 0x1111111111111
"""The clubs of the 13 ranks (bit ``4 * rank``): shifted by a suit, that suit's cards."""



def expert_weights(block: float, points: float, reserve: float, follow: float, suit: float,
                   keep: float, multi: float, uncovered: float, cover: float,
                   skip_again: float, stuck: float) -> Float64Array:
    """The weights array of :func:`expert_choice` (the order of :data:`WEIGHTS`)."""
    return np.array([block, points, reserve, follow, suit, keep, multi, uncovered, cover,
                     skip_again, stuck], dtype=np.float64)


def expert_tables(rules: Rules) -> Int64Array:
    """The facts of ``rules`` the expert reads beyond the kernel's tables (``X_*``)."""
    t = tables_for(rules)
    xt = np.zeros(X_SIZE, dtype=np.int64)
    xt[X_TELLING] = int(t.telling_draws)
    xt[X_LAST_RESTRICTED] = int(t.last_restricted)
    xt[X_STUCK_ANY] = int(any(g is not GoingOut.YES for g in t.going_out))
    xt[X_WILD_MASK] = sum(1 << c for c in range(53) if t.wild[c])
    xt[X_CANCEL_MASK] = sum(1 << c for c in range(53) if not t.wild[c] and any(
        t.draw[p] and t.answers[p][c] and not t.stacks[p][c] for p in range(53)))
    for c in range(53):
        g = t.going_out[c]
        xt[X_STUCK + c] = 2 if g in (GoingOut.NO, GoingOut.PENALTY) else (
            1 if g is GoingOut.SUIT else 0)
    return xt


def notes_of(players: int, draw_log: Iterable[tuple[int, Any, Any, bool]],
             history: Iterable[tuple[int, Action]]) -> Int64Array:
    """The notes (:func:`note`) of a round so far: its plain draws (an observation's or a
    game's ``draw_log``: seat, suit or ``None``/-1, rank, free) and its ``history``."""
    notes = np.zeros(players * NOTE_FIELDS, dtype=np.int64)
    logged = [0] * players
    for seat, suit, rank, free in draw_log:
        at = seat * NOTE_FIELDS
        notes[at + N_HAS] = 1
        notes[at + N_SUIT] = -1 if suit is None else int(suit)
        notes[at + N_RANK] = int(rank)
        notes[at + N_FREE] = int(free)
        logged[seat] += 1
    drew = [0] * players
    for seat, action in history:
        if action.kind is Kind.DRAW or action.kind is Kind.TAKE:
            drew[seat] += 1
    for seat in range(players):
        notes[seat * NOTE_FIELDS + N_MIXED] = int(drew[seat] != logged[seat])
    return notes


@_njit
def note(tab: Any, xt: Any, st: Any, notes: Any, action: int) -> None:
    """Keep ``notes`` for the action about to be applied to ``st`` (as the engine's
    ``_draw`` logs a plain draw: none pending, no HA11 draw, and not from a last card
    that may not go out)."""
    if action != A_DRAW and action != A_TAKE:
        return
    p = st[k.S_TO_MOVE]
    at = p * NOTE_FIELDS
    if (action == A_DRAW and xt[X_TELLING] and not st[k.S_PENDING] and not st[k.S_AGAIN]
            and not (xt[X_LAST_RESTRICTED] and st[st[k.S_HSIZE] + p] == 1)):
        notes[at + N_HAS] = 1
        notes[at + N_SUIT] = st[k.S_SUIT]
        notes[at + N_RANK] = st[k.S_RANK]
        notes[at + N_FREE] = st[k.S_FREE]
    else:
        notes[at + N_MIXED] = 1


@_njit
def _void_suit(xt: Any, st: Any, notes: Any, seat: int) -> int:
    """The suit ``seat`` is known to lack (``known_voids``), or -2 for none known."""
    at = seat * NOTE_FIELDS
    if (not xt[X_TELLING] or not notes[at + N_HAS] or notes[at + N_MIXED]
            or notes[at + N_FREE] or st[st[k.S_PEN] + seat]):
        return -2
    return int(notes[at + N_SUIT])


@_njit
def _next_seat(st: Any, seat: int, direction: int) -> int:
    """``eights.bots.expert._next_seat``: the next seat still in the round."""
    n = st[k.S_N]
    out = st[k.S_FIN_MASK]
    for step in range(1, n + 1):
        other = (seat + direction * step) % n
        if not (out >> other) & 1:
            return int(other)
    return seat


@_inline
def _count(counts: Any, base: int, mask: int) -> int:
    """The cards counted at ``counts[base:base + 53]`` among the cards of ``mask``."""
    total = 0
    m = mask
    while m:
        c = k._tz(m)
        total += counts[base + c]
        m &= m - 1
    return total


@_inline
def _laid_in(tab: Any, a: int, card: int, size: int, mask: int) -> int:
    """How many of the cards the play coded ``a`` lays (``size`` of them, ``card`` on top)
    are among the cards of ``mask``."""
    if card == 52:
        return size if (mask >> 52) & 1 else 0
    laid = 0
    for s in range(4):
        c = 4 * (card >> 2) + s
        if (mask >> c) & 1:
            laid += k._laid(tab, a, c)
    return laid


@_njit
def _target_mask(xt: Any, suit: int, rank: int) -> int:
    """The cards that match suit ``suit`` (-1: none) or rank ``rank``, and the wild cards."""
    m = xt[X_WILD_MASK]
    if rank == 13:
        m |= np.int64(1) << 52
    else:
        m |= np.int64(15) << (4 * rank)
    if suit >= 0:
        m |= np.int64(SUIT_BITS) << suit
    return int(m)


@_njit
def expert_choice(tab: Any, xt: Any, w: Any, st: Any, notes: Any, legal: Any,
                  count: int) -> int:
    """``ExpertBot.choose`` for the seat to play in ``st``, among the ``count`` legal codes
    of ``legal`` (the engine's order)."""
    if count == 1:
        return int(legal[0])
    for i in range(count):
        if legal[i] == A_TAKE:
            return A_PASS  # LH5: a card taken is a card to shed
    me = st[k.S_TO_MOVE]
    if st[k.S_NAMING]:  # TS3, UC3: the wild starter's suit, the one held most
        return A_NAME + k._favourite_suit(tab, st, me, -1)
    plays = 0
    has_draw = False
    has_plain = False
    has_ordinary = False
    for i in range(count):
        a = legal[i]
        if k._is_play(a):
            plays += 1
            top = k._top(a)
            if not tab[C_WILD + top]:
                has_plain = True
                if not (xt[X_CANCEL_MASK] >> top) & 1:
                    has_ordinary = True
        elif a == A_DRAW:
            has_draw = True
    if plays == 0:
        return A_DRAW if has_draw else int(legal[0])
    n = st[k.S_N]
    hs = st[k.S_HSIZE]
    direction = st[k.S_DIR]
    nxt = _next_seat(st, me, direction)
    prev = _next_seat(st, me, -direction)
    teams = st[k.S_TEAMS]
    out = st[k.S_FIN_MASK]
    closest = 99
    for s in range(n):
        if s != me and not (teams and s % 2 == me % 2) and not (out >> s) & 1:
            closest = min(closest, st[hs + s])
    urgency = 3.0 if closest <= 1 else 2.0 if closest <= 2 else 1.0 if closest <= 4 else 0.5
    nxt_partner = bool(teams) and nxt != me and nxt % 2 == me % 2
    prev_partner = bool(teams) and prev != me and prev % 2 == me % 2
    # the cards unseen by me: the deck less my hand and the discard pile
    unseen = np.zeros(53, dtype=np.int64)
    hand = st[k.S_HANDS] + me * 53
    deck = st[k.S_DECK]
    for c in range(53):
        unseen[c] = st[deck + c] - st[hand + c]
    d = st[k.S_DISC]
    for i in range(st[k.S_DISC_N]):
        unseen[st[d + i]] -= 1
    n_unseen = 0
    unseen_mask = 0
    for c in range(53):
        if unseen[c] < 0:
            unseen[c] = 0
        if unseen[c] > 0:
            n_unseen += unseen[c]
            unseen_mask |= 1 << c
    mine = st[st[k.S_HMASK] + me]
    n_hand = st[hs + me]
    stuck_hand = 0
    suits = np.zeros(4, dtype=np.int64)  # plain cards of each suit in hand
    m = mine
    while m:
        c = k._tz(m)
        m &= m - 1
        stuck_hand += st[hand + c] * xt[X_STUCK + c]
        if c < 52 and not tab[C_WILD + c]:
            suits[c & 3] += st[hand + c]
    pending = st[k.S_PENDING]
    holding = n - st[k.S_FIN_N]
    voids_nxt = _void_suit(xt, st, notes, nxt) if nxt != me and not nxt_partner else -2
    best = -1
    best_score = -1e18
    rest_suits = np.zeros(4, dtype=np.int64)
    for i in range(count):
        a = legal[i]
        if not k._is_play(a):
            continue
        card = k._top(a)
        size = k._size(tab, a)
        variant = k._variant(a)
        named = variant >> 1
        left = n_hand - size
        shed = tab[R_POINTS + (card >> 2)] * size
        score = 0.0 if tab[C_WILD + card] else shed * urgency * w[W_POINTS]
        if size > 1:  # SW3: every extra card laid is a turn saved
            score += w[W_MULTI] * (size - 1)
        if variant & 1:
            score += 100.0
        if left == 0:  # going out wins the round; with the call (MM9) if there is one
            out_score = 1e9 + score
            if out_score > best_score:
                best_score = out_score
                best = a
            continue
        if tab[C_WILD + card] and has_plain:
            score -= w[W_RESERVE] + (w[W_RESERVE] / 4 if left > 4 else 0.0)
        if not pending and (xt[X_CANCEL_MASK] >> card) & 1 and has_ordinary and left > 1:
            score -= w[W_RESERVE] * w[W_KEEP]
        # the cards this play lays, taken from the hand's counts
        lay_rank = card >> 2
        if xt[X_STUCK_ANY]:
            stuck2 = stuck_hand
            if card == 52:
                stuck2 -= size * xt[X_STUCK + 52]
            else:
                for s in range(4):
                    c = 4 * lay_rank + s
                    stuck2 -= k._laid(tab, a, c) * xt[X_STUCK + c]
            stuck = stuck2 * 0.5
            if stuck >= left:
                score -= w[W_STUCK]
            if left <= 4:
                score -= w[W_STUCK] / 6 * stuck
        if tab[C_TRANSPARENT + card]:
            suit = st[k.S_SUIT]
            rank = st[k.S_RANK]
        else:
            suit = named if named != 4 else (-1 if card == 52 else card & 3)
            rank = st[k.S_RANK] if tab[C_COVERED + card] else card >> 2
        target = _target_mask(xt, suit, rank)
        follow = _count(st, hand, target & mine) - _laid_in(tab, a, card, size, target)
        if w[W_FOLLOW]:
            plain = target & ~xt[X_WILD_MASK]
            plain_follow = _count(st, hand, plain & mine) - _laid_in(tab, a, card, size, plain)
            score += w[W_FOLLOW] * min(plain_follow, 3)
        skips = size if tab[C_SKIP + card] else 0
        if tab[C_REVERSE + card] and holding == 2 and tab[T_REVERSE_SKIP]:
            skips += size  # SW7, PE10, TS8, UC6: a skip with two players
        again = bool(tab[C_AGAIN + card]) or bool(
            holding == 2 and w[W_SKIP_AGAIN] and skips and not pending
            and not tab[C_DRAW + card] and not tab[C_PASS_ON + card])
        if n_unseen and not (again and follow > 0):  # else I play on it myself
            if tab[C_ANY_FOLLOWS + card]:
                chance = 1.0
            else:
                match = _count(unseen, 0, target & unseen_mask)
                chance = 1.0 - (1.0 - match / n_unseen) ** np.float64(st[hs + nxt])
            score += (w[W_BLOCK] if nxt_partner else -w[W_BLOCK]) * chance
        if named != 4:
            for s in range(4):
                rest_suits[s] = suits[s]
            if card != 52:
                for s in range(4):
                    c = 4 * lay_rank + s
                    if not tab[C_WILD + c]:
                        rest_suits[s] -= k._laid(tab, a, c)
            top_suit = 0
            for s in range(4):
                top_suit = max(top_suit, rest_suits[s])
            # ranks the suits only: never makes a wild card better than a plain one
            score += w[W_SUIT] * (rest_suits[named] - top_suit)
            if voids_nxt == named:
                score += 8.0  # the next opponent is known to lack that suit
            if teams:
                for p in range(n):
                    if p != me and p % 2 == me % 2 and _void_suit(xt, st, notes, p) == named:
                        score -= 4.0
        # effects
        if pending:
            pending_card = st[d + st[k.S_DISC_N] - 1]
            if tab[M_STACKS + pending_card * 53 + card]:
                score += 30.0 + 5.0 * pending + 2.0 * tab[C_DRAW + card] * size  # pass it on
            else:
                score += 20.0 + 5.0 * pending  # cancel it (HA7, BJ4)
        elif tab[C_DRAW + card]:
            gain = tab[C_DRAW + card] * size * (2.0 if st[hs + nxt] <= 3 else 1.0)
            if tab[T_LIMIT] and tab[T_OVERFLOW]:
                room = tab[T_LIMIT] - st[hs + nxt]
                if room < tab[C_DRAW + card]:
                    gain -= 3.0 * (tab[C_DRAW + card] - room)  # HF9: it would come back
            score += -gain * 4.0 if nxt_partner else gain * 4.0
        if tab[C_MUST_COVER + card]:  # TS9: the next player draws until they can cover it
            score += -w[W_COVER] if nxt_partner else w[W_COVER]
        if again:  # HA11, MM7, BJ7; a skip with two players: my turn again
            if follow:
                score += 8.0 * min(follow, 2)
            else:  # the cover card cannot be covered: a card drawn for nothing
                score -= w[W_UNCOVERED] * max(
                    1, tab[C_AGAIN_PENALTY + card] if tab[C_AGAIN + card] else 1)
        elif skips:
            bonus = 12.0 if st[hs + nxt] <= 2 else 5.0
            score += -bonus if nxt_partner else bonus
        if tab[C_REVERSE + card] and holding > 2 and size % 2:
            # after a reverse, prev plays next instead of nxt
            diff = st[hs + nxt] - st[hs + prev]
            toward = 1.0 if not prev_partner else -1.0
            score += 3.0 * diff * toward
        if score > best_score:
            best_score = score
            best = a
    return int(best)


@_njit
def policy_choice(tab: Any, xt: Any, w: Any, st: Any, notes: Any, policies: Any,
                  buf: Any) -> int:
    """The action the seat to play chooses by its policy: the expert where its entry of
    ``policies`` is :data:`EXPERT`, else as :func:`eights.fast.world.choose` (the same
    generator calls); ``buf`` is scratch."""
    count = k.legal_list(tab, st, buf)
    if count == 1:
        return int(buf[0])
    eps = policies[st[k.S_TO_MOVE]]
    if eps < 0.0:
        return expert_choice(tab, xt, w, st, notes, buf, count)
    if eps >= 1.0 or (eps > 0.0 and k.rand_below(st, 1 << 53) < eps * 9007199254740992.0):
        return int(buf[k.rand_below(st, count)])
    return int(k.greedy_choice(tab, st, buf, count))
