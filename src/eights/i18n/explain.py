"""The rules in plain words, generated from the data (``eights rules show``).

A house-rules file explains itself: whatever its fields say is what is
printed, so the text can never drift from what the engine plays. The words
come from the message catalogs (English and French).
"""

from __future__ import annotations

from eights.engine.cards import CARDS, JOKER, RANKS, Card, Rank, Suit
from eights.engine.rules import (
    BlockedScoring,
    CardRule,
    DrawPolicy,
    GoingOut,
    MultiPlay,
    ReverseTwo,
    Rules,
    Scoring,
    StarterWild,
    WildIf,
)
from eights.i18n import Translator, translator
from eights.i18n.text import call_name, card_label

__all__ = ["card_effects", "describe", "match_goal", "ranks_words"]


def _rank_plural(rank: Rank, _: Translator) -> str:
    return {
        Rank.ACE: _("aces"), Rank.TWO: _("2s"), Rank.THREE: _("3s"), Rank.FOUR: _("4s"),
        Rank.FIVE: _("5s"), Rank.SIX: _("6s"), Rank.SEVEN: _("7s"), Rank.EIGHT: _("8s"),
        Rank.NINE: _("9s"), Rank.TEN: _("10s"), Rank.JACK: _("jacks"), Rank.QUEEN: _("queens"),
        Rank.KING: _("kings"), Rank.JOKER: _("jokers"),
    }[rank]


def _rank_short(rank: Rank, _: Translator) -> str:
    return {Rank.ACE: _("ace"), Rank.JACK: _("jack"), Rank.QUEEN: _("queen"),
            Rank.KING: _("king"), Rank.JOKER: _("joker"), Rank.TEN: "10"}.get(rank, rank.letter)


def _ranks(ranks: frozenset[Rank], _: Translator) -> str:
    names = [_rank_plural(r, _) for r in sorted(ranks)]
    if len(names) == 1:
        return names[0]
    return _("{list} or {last}", list=", ".join(names[:-1]), last=names[-1])


def ranks_words(ranks: frozenset[Rank], _: Translator) -> str:
    """Ranks in words, plural, as the rules text says them: ``8s``, ``aces or jacks``."""
    return _ranks(ranks, _)


def _or(names: list[str], _: Translator) -> str:
    if len(names) == 1:
        return names[0]
    return _("{list} or {last}", list=", ".join(names[:-1]), last=names[-1])


def _whole(rank: Rank) -> tuple[Card, ...]:
    """Every card of a rank (the joker alone for the joker)."""
    return (JOKER,) if rank is Rank.JOKER else tuple(CARDS[rank * 4 + s] for s in range(4))


def _some(cards: list[Card], _: Translator) -> str:
    """Some cards of one rank: ``the black jacks (J♣, J♠)``, ``the red 2s (2♦, 2♥)``, or
    the cards themselves (``J♥``, ``J♣, J♦, J♠``)."""
    rank = cards[0].rank
    labels = ", ".join(card_label(c, _) for c in cards)
    suits = {c.suit for c in cards}
    if suits == {Suit.CLUBS, Suit.SPADES}:
        if rank is Rank.QUEEN:  # French agrees the colour with « dames »
            return _("the black queens ({cards})", cards=labels)
        return _("the black {ranks} ({cards})", ranks=_rank_plural(rank, _), cards=labels)
    if suits == {Suit.DIAMONDS, Suit.HEARTS}:
        if rank is Rank.QUEEN:
            return _("the red queens ({cards})", cards=labels)
        return _("the red {ranks} ({cards})", ranks=_rank_plural(rank, _), cards=labels)
    return labels


def _card_set(cards: frozenset[Card], _: Translator) -> str:
    """A set of cards in words, whole ranks by name (``the 2s or the black jacks (J♣, J♠)``):
    the words of ``card_list`` (BJ3, BJ4)."""
    names: list[str] = []
    for rank in sorted({c.rank for c in cards}):
        whole = _whole(rank)
        if all(c in cards for c in whole):
            names.append(_("the {ranks}", ranks=_rank_plural(rank, _)))
        else:
            names.append(_some([c for c in whole if c in cards], _))
    return _or(names, _)


def _whole_ranks(cards: frozenset[Card]) -> frozenset[Rank] | None:
    """The ranks of ``cards`` if they are whole ranks (every card of each), else None."""
    ranks = frozenset(c.rank for c in cards)
    if all(c in cards for r in ranks for c in _whole(r)):
        return ranks
    return None


def _multi_play(rules: Rules, _: Translator) -> str:
    """SW3: several cards of one rank in one play, their effects adding up."""
    text = _("You may lay several cards of one rank in one play, written 7h+7s: one of the "
             "cards under the top one must be playable, the last card written is the new "
             "up-card, and the effects add up (two draw cards add both draws, k skip cards "
             "skip k players, each reverse flips the direction again).")
    alone = frozenset(r for r in Rank if r in rules.cards and r in rules.card(r).not_on)
    if alone:  # MM6: a jack may not cover a jack, so jacks go down one at a time
        text += " " + _("The {ranks} never go down together.", ranks=_ranks(alone, _))
    if rules.card_tables:  # BJ6: one rule a play
        text += " " + _("Cards of one play share one rule: cards of a rank with different "
                        "effects never go down together.")
    return text


def _steps(steps: tuple[tuple[int, int], ...], _: Translator) -> str:
    if len(steps) == 1:
        return str(steps[0][1])
    return ", ".join(_("{value} from {players} players", value=v, players=p) for p, v in steps)


def _card_line(rank: Rank, rule: CardRule, rules: Rules, _: Translator,
               label: str | None = None, cancels: frozenset[Card] = frozenset()) -> str | None:
    """One card's effects in words: a whole rank (``Jacks: ...``), or the cards of a rank
    with their own table (``label``: ``The black jacks (J♣, J♠): ...``, BJ2). ``cancels``:
    the draw cards this one cancels (BJ4), said when it does nothing else."""
    bits: list[str] = []
    if rule.wild:
        if rule.not_on:
            bits.append(_("may be played on any card except {ranks} when no forced draw is "
                          "waiting", ranks=_ranks(rule.not_on, _)))
        else:
            bits.append(_("may be played on any card when no forced draw is waiting"))
        if rule.wild_if is WildIf.NO_SUIT:  # UC8
            bits.append(_("only a player who holds no card of the suit to follow (wild cards "
                          "aside) may play it"))
    if rule.name_suit:
        bits.append(_("the player names the suit to follow"))
    if rule.takes_covered_rank:
        bits.append(_("it also takes the rank of the card it covers"))
    if rule.transparent:
        bits.append(_("the card to match stays the one beneath it"))
    if rule.any_follows:  # PE6
        bits.append(_("any card may be played on it when no forced draw is waiting"))
    if rule.draw:
        if rules.forced_draw_ends_turn:
            text = _("the next player draws {n} and loses their turn", n=rule.draw)
        else:  # PE5: the victim stays in turn (said once, below the cards)
            text = _("the next player draws {n}", n=rule.draw)
        own = frozenset(_whole(rank)) if rule.stack else frozenset()
        answers = own | rule.stack_with
        if answers and answers != own:  # BJ3: pick-ups stack across ranks
            text += _(", unless they answer with {cards}, each adding its own draw to the "
                      "pick-up, which passes on to the next player", cards=_card_set(answers, _))
        elif rule.stack:
            text += _(", unless they play another {rank}, which passes the draw on, {n} more "
                      "for each", rank=_rank_short(rank, _), n=rule.draw)
        if rule.cancelled_by:
            whole = _whole_ranks(rule.cancelled_by)
            if whole is not None:
                text += _("; {ranks} played on it cancel the draw", ranks=_ranks(whole, _))
            else:  # BJ4: the red jacks
                text += _("; {cards} played on it cancel the draw",
                          cards=_card_set(rule.cancelled_by, _))
        bits.append(text)
    if rule.skip:
        if rule.pass_on:  # MM5, PE8 toggles
            bits.append(_("the next player loses their turn, unless they play another {rank} "
                          "on it, which passes the skip on to the player after them (pass "
                          "accepts the skip)", rank=_rank_short(rank, _)))
        else:
            bits.append(_("the next player loses their turn"))
    if rule.reverse:
        if rules.reverse_two is ReverseTwo.SKIP:  # SW7, PE10, UC6
            bits.append(_("the direction of play reverses; with two players, the next player "
                          "loses their turn"))
        else:
            bits.append(_("the direction of play reverses (no effect with two players)"))
    if rule.again:
        if rule.again_penalty:
            bits.append(_.plural(  # one English text; French says « 1 carte », « 2 cartes »
                "the player must play again; if they cannot, they draw {n} and the turn ends",
                "the player must play again; if they cannot, they draw {n} and the turn ends",
                rule.again_penalty))
        else:
            bits.append(_("the player must play again"))
    if rule.out_multiplier > 1:  # MM10
        bits.append(_("a player who goes out on it multiplies every score of the round by "
                      "{n}", n=rule.out_multiplier))
    if rule.must_cover:  # TS9
        bits.append(_("a player who cannot play on it draws cards one at a time until one can "
                      "be played, then plays it"))
    if rule.going_out is GoingOut.SUIT:  # LC6
        bits.append(_("a player may go out on it only if it is of the suit to follow"))
    elif rule.going_out is GoingOut.NO:  # PE12
        bits.append(_("nobody may go out on it: it cannot be played as the last card"))
    elif rule.going_out is GoingOut.PENALTY:  # PE12's toggle
        bits.append(_("a player who plays it as their last card draws {n} and stays in the "
                      "round", n=rules.out_penalty))
    if not bits and cancels:  # BJ4: a plain card, but it voids a pick-up
        bits.append(_("played on a pending draw of {cards}, they cancel it; otherwise they "
                      "are plain cards", cards=_card_set(cancels, _)))
    if not bits and not rules.special_cards:  # a table whose effects are off: said below
        return None
    if label is None:  # a whole rank: "8s: ...", « Les 8 : ... »
        ranks = _rank_plural(rank, _)
        if not bits:  # a plain rank: said only for points unlike its face (a neutral 8's 50)
            points = rules.points[rank]
            if points == Rules().points[rank]:
                return None
            text = _.plural("{ranks}: no effect, but each left in a hand counts {n} point.",
                            "{ranks}: no effect, but each left in a hand counts {n} points.",
                            points, ranks=ranks)
            return text[:1].upper() + text[1:]
        text = _("{ranks}: {effects}.", ranks=ranks, effects=_("; ").join(bits))
    else:
        text = (_("{cards}: {effects}.", cards=label, effects=_("; ").join(bits)) if bits
                else _("{cards}: no effect.", cards=label))
    return text[:1].upper() + text[1:]


def _groups(rules: Rules, rank: Rank) -> list[tuple[list[Card], CardRule]]:
    """The cards of ``rank`` by rule, in card order: one group unless some have a table of
    their own (BJ2: the black jacks)."""
    groups: list[tuple[list[Card], CardRule]] = []
    for card in _whole(rank):
        rule = rules.rule_of(card)
        for cards, other in groups:
            if other == rule:
                cards.append(card)
                break
        else:
            groups.append(([card], rule))
    return groups


def _in_deck(rules: Rules) -> list[Rank]:
    """The ranks the deck holds, in order: its ranks, and the joker when there are jokers
    (a preset may say what a joker does and deal none: HA12's jokers are off by default)."""
    return [r for r in Rank if r in rules.ranks or (r is Rank.JOKER and rules.jokers)]


def _cancellers(rules: Rules) -> dict[Card, set[Card]]:
    """For each card that cancels a draw, the draw cards it cancels (BJ4)."""
    out: dict[Card, set[Card]] = {}
    for rank in _in_deck(rules):
        for card in _whole(rank):
            for other in rules.rule_of(card).cancelled_by:
                out.setdefault(other, set()).add(card)
    return out


def _special_lines(rules: Rules, _: Translator, effects_only: bool) -> list[str]:
    """A line per rank with a table, or per group of its cards when some cards have their
    own table (``[cards.Js]``)."""
    cancellers = _cancellers(rules)
    tables = {card.rank for card in rules.card_tables}
    lines: list[str] = []
    for rank in _in_deck(rules):
        if rank not in rules.cards and rank not in tables:
            continue
        groups = _groups(rules, rank)
        for cards, rule in groups:
            cancels = frozenset(d for c in cards for d in cancellers.get(c, ()))
            if effects_only and not (
                    rule.wild or rule.name_suit or rule.takes_covered_rank or rule.transparent
                    or rule.has_effect or rule.any_follows or rule.out_multiplier > 1
                    or rule.going_out is not GoingOut.YES or rule.must_cover or cancels):
                continue
            label = None if len(groups) == 1 else _some(cards, _)
            line = _card_line(rank, rule, rules, _, label, cancels)
            if line is not None:
                lines.append(line)
    return lines


def describe(rules: Rules, _: Translator | None = None) -> list[str]:
    """Paragraphs that explain ``rules`` to a player."""
    _ = _ or translator("en")
    low, high = rules.players
    lines = [f"{_(rules.title)} ({rules.name})"]  # a preset's title through the catalog, as online
    if rules.source:
        lines.append(_("Source: {source}.", source=_(rules.source)))
    if len(rules.ranks) == len(RANKS):
        text = _("Players: {low} to {high} (default {default}). Decks of 52 cards: {decks}.",
                 low=low, high=high, default=rules.default_players, decks=_steps(rules.decks, _))
    else:  # a short pack (MM1, TS1)
        text = _("Players: {low} to {high} (default {default}). Decks of {size} cards "
                 "({ranks}): {decks}.", low=low, high=high, default=rules.default_players,
                 size=4 * len(rules.ranks), decks=_steps(rules.decks, _),
                 ranks=", ".join(_rank_short(r, _) for r in  # low to high: 7 ... king, ace
                                 sorted(rules.ranks, key=lambda r: (r is Rank.ACE, r))))
    if rules.jokers:
        text += " " + _("Jokers per deck: {n}.", n=rules.jokers)
    if len(rules.hand_size) == 1:
        text += " " + _("Each player is dealt {n} cards, one at a time, starting left of the "
                        "dealer.", n=rules.hand_size[0][1])
    else:
        text += " " + _("Cards dealt to each player, one at a time, starting left of the "
                        "dealer: {steps}.", steps=_steps(rules.hand_size, _))
    lines.append(text)
    if rules.teams:
        lines.append(_("With {counts} players, partners sit opposite and score together.",
                       counts=", ".join(str(c) for c in sorted(rules.teams))))
    starter = _("The top card of the stock is turned to start the discard pile.")
    redraw = rules.starter_redraw & frozenset(_in_deck(rules))
    if redraw:
        starter += " " + _("If it is one of the {ranks}, it goes back into the stock and "
                           "another card is turned.", ranks=_ranks(redraw, _))
    if rules.starter_effects:
        starter += " " + _("Its effect applies as if the dealer had played it.")
    else:
        starter += " " + _("It has no effect; it is only the card to match.")
    if rules.starter_wild is StarterWild.ANY:  # CL4
        starter += " " + _("If it is wild, the first player may play any card.")
    elif rules.starter_wild is not StarterWild.PLAIN:  # TS3, UC3: a suit is named first
        namers = frozenset(r for r in Rank if r not in rules.starter_redraw and any(
            rules.rule_of(c).name_suit for c in _whole(r)))
        if namers:
            starter += " " + (
                _("If it is one of the {ranks}, the dealer names the suit to follow (=s, "
                  "=h…) before the first player's turn.", ranks=_ranks(namers, _))
                if rules.starter_wild is StarterWild.DEALER_NAMES else
                _("If it is one of the {ranks}, the first player names the suit to follow "
                  "(=s, =h…), then takes their turn.", ranks=_ranks(namers, _)))
    lines.append(starter)
    lines.append(_("On your turn, play a card of the same suit or the same rank as the "
                   "up-card."))
    if rules.multi_play is MultiPlay.SAME_RANK:  # SW3
        lines.append(_multi_play(rules, _))
    draw = {
        DrawPolicy.ONE_END: _("draw one card; your turn ends"),
        DrawPolicy.ONE_MAY_PLAY: _("draw one card; if it can be played you may play it at "
                                   "once, otherwise you keep it and your turn ends"),
        DrawPolicy.ONE_MUST_PLAY: _("draw one card; if it can be played you must play it "
                                    "at once, otherwise you keep it and your turn ends"),
        DrawPolicy.UNTIL_PLAYABLE: _("draw cards one at a time until one can be played, then "
                                     "play it"),
        DrawPolicy.REPEAT: _("draw one card and carry on: play, or draw again, up to {n} cards "
                             "a turn, after which you may pass", n=rules.max_draws)
        if rules.max_draws else  # CE4
        _("draw one card and carry on: play, or draw again, with no limit; you pass only when "
          "nothing is left to draw and you cannot play"),
    }[rules.draw]
    if rules.voluntary_draw:
        lines.append(_("If you cannot play, or would rather not, {draw}.", draw=draw))
    else:
        lines.append(_("If you cannot play, {draw}.", draw=draw))
    if rules.replace_after_play:
        lines.append(_("After playing, you may take the top card of the stock into your hand "
                       "(not when you go out)."))
    if rules.hand_limit:
        text = _("No hand ever holds more than {n} cards.", n=rules.hand_limit)
        if rules.overflow:
            text += " " + _("Cards of a forced draw that would pass the limit go to the player "
                            "who played the forcing card; what they cannot take either becomes "
                            "penalty points against them, one per card.")
        lines.append(text)
    if rules.reshuffle:
        lines.append(_("When the stock runs out, the discard pile but its top card is shuffled "
                       "into a new stock."))
    else:
        lines.append(_("When the stock runs out there is no reshuffle: a player who cannot "
                       "play passes."))
    if rules.announce_last_card:  # HA13; MM8 "Mau", UC9 "Uno", TS10 "Tschau"
        call = call_name(rules, False, _)
        lines.append(_.plural(
            "A player whose play leaves one card must announce it: “{call}!” (a trailing !, "
            "or the announce key); forgetting costs {n} card at the end of the turn.",
            "A player whose play leaves one card must announce it: “{call}!” (a trailing !, "
            "or the announce key); forgetting costs {n} cards at the end of the turn.",
            rules.announce_penalty, call=call))
    if rules.call_out:  # MM9 "Mau-Mau", TS10 "Sepp"
        call = call_name(rules, True, _)
        lines.append(_.plural(
            "A player who plays their last card must call “{call}!” (a trailing !, or the "
            "announce key) to go out. Without the call the card stays played and its effect "
            "applies (a wild card names a suit), and the player draws {n} card at the end of "
            "the turn and stays in the round; with nothing left to draw they go out anyway.",
            "A player who plays their last card must call “{call}!” (a trailing !, or the "
            "announce key) to go out. Without the call the card stays played and its effect "
            "applies (a wild card names a suit), and the player draws {n} cards at the end of "
            "the turn and stays in the round; with nothing left to draw they go out anyway.",
            rules.call_out_penalty, call=call))
    specials = _special_lines(rules, _, False)
    if specials:
        lines.append(_("Special cards:"))
        lines.extend("  " + line for line in specials)
    if not rules.special_cards:
        lines.append("  " + _("(special_cards = false: card effects other than wild cards are "
                              "off.)"))
    if not rules.forced_draw_ends_turn:  # PE5
        lines.append(_("A player who takes a forced draw in full does not lose their turn: "
                       "they may then play a card that fits the up-card, or pass; they do not "
                       "draw again."))
    if rules.play_on:  # TS11
        lines.append(_("A player who plays their last card goes out and leaves the round; play "
                       "goes on without them, and their last card's effect applies to the "
                       "players left. The round ends when only one player still holds cards. "
                       "The order of going out gives the placings: the first out is 1st."))
    elif rules.call_out:  # MM9: a last card without the call does not end the round
        lines.append(_("The round ends the moment a player goes out with the call; their last "
                       "card's effect does not apply."))
    else:
        lines.append(_("The round ends the moment a player plays their last card; that card's "
                       "effect does not apply."))
    if rules.serve_last_draw and not rules.play_on:  # LC8, UC10 (play_on: it applies anyway)
        lines.append(_("A forced draw is the exception: played as the last card, it is still "
                       "served. The next player takes it in full at once, and the cards count "
                       "in the scoring."))
    if rules.max_plays:
        lines.append(_("It also ends after {n} cards have been played.", n=rules.max_plays))
    blocked = _("The round is blocked when every player passes in turn with nothing to draw")
    if rules.extra_passes_to_block:
        blocked += _.plural(" (plus {n} more pass)", " (plus {n} more passes)",
                            rules.extra_passes_to_block)
    if rules.served_draw_counts_as_pass:
        blocked += _("; a forced draw that takes the last card of the stock counts as a pass")
    lines.append(blocked + ".")
    pts = _points(rules, _)
    lines.append(_scoring(rules, pts, _))
    lines.append(_("A blocked round: {how}.", how=_(
        "the lowest hand value wins the round, and tied players all win it ({points})",
        points=pts) if rules.scoring is Scoring.ROUNDS_WON else _(
        "the players still holding cards are placed by hand value, lowest first, tied players "
        "sharing the better place") if rules.scoring is Scoring.PLACINGS else {
        BlockedScoring.OWN_HAND: _("everyone scores their own hand"),
        BlockedScoring.COLLECT: _("the lowest hand wins and scores the opponents' hands"),
        BlockedScoring.DIFFERENCE: _("the lowest hand wins and scores the difference to each "
                                     "opponent's hand"),
    }[rules.blocked_scoring]))
    if rules.target and rules.scoring is Scoring.ROUNDS_WON:
        lines.append(_rounds_to_win(rules, _))
    elif rules.target and rules.rounds:
        lines.append(_("The match ends when a score reaches {target} or after {rounds} rounds.",
                       target=rules.target, rounds=rules.rounds))
    elif rules.target:
        lines.append(_("The match ends when a score reaches {target}.", target=rules.target))
    elif rules.rounds:
        lines.append(_.plural("The match is {n} round.", "The match is {n} rounds.", rules.rounds))
    else:
        lines.append(_("The match goes on until the players stop."))
    return lines


def card_effects(rules: Rules, _: Translator | None = None) -> list[str]:
    """One line per card that does something at this table (wild, forced draw, skip…),
    as :func:`describe` says it; empty when every card only matches suit or rank."""
    return _special_lines(rules, _ or translator("en"), True)


def match_goal(rules: Rules, _: Translator | None = None) -> list[str]:
    """How the match is won, in the words of :func:`describe`: how a round scores (which
    says whether the lowest or the highest total wins), then when the match ends."""
    _ = _ or translator("en")
    scoring = _scoring(rules, _points(rules, _), _)
    if rules.target and rules.scoring is Scoring.ROUNDS_WON:
        ends = _rounds_to_win(rules, _)
    elif rules.target and rules.rounds:
        ends = _("The match ends when a score reaches {target} or after {rounds} rounds.",
                 target=rules.target, rounds=rules.rounds)
    elif rules.target:
        ends = _("The match ends when a score reaches {target}.", target=rules.target)
    elif rules.rounds:
        ends = _.plural("The match is {n} round.", "The match is {n} rounds.", rules.rounds)
    else:
        ends = _("The match goes on until the players stop.")
    return [scoring, ends]


def _points(rules: Rules, _: Translator) -> str:
    """The points of each rank in the deck (``ace 10, 2 2, …``), or one figure when every
    card scores the same (HF11: ``1 point a card``)."""
    ranks = _in_deck(rules)
    values = {rules.points[r] for r in ranks}
    if len(values) == 1:
        return _.plural("{n} point a card", "{n} points a card", values.pop())
    return ", ".join(f"{_rank_short(r, _)} {rules.points[r]}" for r in ranks)


def _scoring(rules: Rules, pts: str, _: Translator) -> str:
    """How a round scores and which total wins the match."""
    if rules.scoring is Scoring.OWN_HAND:
        return _("Scoring: every player scores the cards left in their own hand ({points}); "
                 "the lowest total wins the match.", points=pts)
    if rules.scoring is Scoring.ROUNDS_WON:  # SW11, LC9, PE13
        return _("Scoring: the first player out wins the round and scores 1; the most "
                 "rounds won wins the match.")
    if rules.scoring is Scoring.PLACINGS:  # TS12
        return _("Scoring: each player scores their placing minus one as penalty points: 0 for "
                 "the first out, 1 for the second, and so on. Players still holding cards when "
                 "the round ends are placed after those out, by hand value ({points}), lowest "
                 "first, tied players sharing the better place. The lowest total wins the "
                 "match.", points=pts)
    return _("Scoring: the player who goes out scores the cards left in the opponents' "
             "hands ({points}); the highest total wins the match.", points=pts)


def _rounds_to_win(rules: Rules, _: Translator) -> str:
    """When a match of rounds won ends (SW11: ``target`` counts rounds)."""
    if rules.rounds:
        return _.plural("The match ends when a player has won {n} round or after {rounds} rounds.",
                        "The match ends when a player has won {n} rounds or after {rounds} "
                        "rounds.", rules.target, rounds=rules.rounds)
    return _.plural("The match ends when a player has won {n} round.",
                    "The match ends when a player has won {n} rounds.", rules.target)
