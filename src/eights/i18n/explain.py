"""The rules in plain words, generated from the data (``eights rules show``).

A house-rules file explains itself: whatever its fields say is what is
printed, so the text can never drift from what the engine plays. The words
come from the message catalogs (English and French).
"""

from __future__ import annotations

from eights.engine.cards import RANKS, Rank
from eights.engine.rules import (
    BlockedScoring,
    CardRule,
    DrawPolicy,
    GoingOut,
    ReverseTwo,
    Rules,
    Scoring,
    StarterWild,
    WildIf,
)
from eights.i18n import Translator, translator

__all__ = ["card_effects", "describe", "match_goal"]


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


def _steps(steps: tuple[tuple[int, int], ...], _: Translator) -> str:
    if len(steps) == 1:
        return str(steps[0][1])
    return ", ".join(_("{value} from {players} players", value=v, players=p) for p, v in steps)


def _card_line(rank: Rank, rule: CardRule, rules: Rules, _: Translator) -> str:
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
        text = _("the next player draws {n} and loses their turn", n=rule.draw)
        if rule.stack:
            text += _(", unless they play another {rank}, which passes the draw on, {n} more "
                      "for each", rank=_rank_short(rank, _), n=rule.draw)
        if rule.cancelled_by:
            text += _("; {ranks} played on it cancel the draw",
                      ranks=_ranks(rule.cancelled_by, _))
        bits.append(text)
    if rule.skip:
        bits.append(_("the next player loses their turn"))
    if rule.reverse:
        if rules.reverse_two is ReverseTwo.SKIP:  # SW7, PE10, UC6
            bits.append(_("the direction of play reverses; with two players, the next player "
                          "loses their turn"))
        else:
            bits.append(_("the direction of play reverses (no effect with two players)"))
    if rule.again:
        if rule.again_penalty:
            bits.append(_("the player must play again; if they cannot, they draw {n} and the "
                          "turn ends", n=rule.again_penalty))
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
    name = _rank_plural(rank, _).capitalize()
    if not bits:
        return _("{cards}: no effect.", cards=name)
    return _("{cards}: {effects}.", cards=name, effects=_("; ").join(bits))


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
                 ranks=", ".join(_rank_short(r, _) for r in sorted(rules.ranks)))
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
    if rules.starter_redraw:
        starter += " " + _("If it is one of the {ranks}, it goes back into the stock and "
                           "another card is turned.", ranks=_ranks(rules.starter_redraw, _))
    if rules.starter_effects:
        starter += " " + _("Its effect applies as if the dealer had played it.")
    else:
        starter += " " + _("It has no effect; it is only the card to match.")
    if rules.starter_wild is StarterWild.ANY:  # CL4
        starter += " " + _("If it is wild, the first player may play any card.")
    lines.append(starter)
    lines.append(_("On your turn, play a card of the same suit or the same rank as the "
                   "up-card."))
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
        lines.append(_("Instead of playing (even when you could play), {draw}.", draw=draw))
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
    if rules.announce_last_card:
        lines.append(_("A player whose play leaves one card must announce it (a trailing !, "
                       "or the announce key); forgetting costs {n} cards at the end of the "
                       "turn.", n=rules.announce_penalty))
    if rules.call_out:  # MM9, TS10
        lines.append(_("A player who plays their last card must call it (a trailing !, or the "
                       "announce key) to go out. Without the call the card stays played and its "
                       "effect applies (a wild card names a suit), and the player draws {n} cards "
                       "at the end of the turn and stays in the round; with nothing left to draw "
                       "they go out anyway.", n=rules.call_out_penalty))
    specials = [(rank, rules.card(rank)) for rank in Rank if rank in rules.cards]
    if specials:
        lines.append(_("Special cards:"))
        lines.extend("  " + _card_line(rank, rule, rules, _) for rank, rule in specials)
    if not rules.special_cards:
        lines.append("  " + _("(special_cards = false: card effects other than wild cards are "
                              "off.)"))
    if not rules.forced_draw_ends_turn:  # PE5
        lines.append(_("A player who takes a forced draw in full does not lose their turn: "
                       "they may then play a card that fits the up-card, or pass; they do not "
                       "draw again."))
    lines.append(_("The round ends the moment a player plays their last card; that card's "
                   "effect does not apply."))
    if rules.serve_last_draw:  # LC8, UC10
        lines.append(_("Except a forced draw: played as the last card, it is still served. The "
                       "next player takes it in full at once, and the cards count in the "
                       "scoring."))
    if rules.max_plays:
        lines.append(_("It also ends after {n} cards have been played.", n=rules.max_plays))
    blocked = _("The round is blocked when every player passes in turn with nothing to draw")
    if rules.extra_passes_to_block:
        blocked += _(" (plus {n} more passes)", n=rules.extra_passes_to_block)
    if rules.served_draw_counts_as_pass:
        blocked += _("; a forced draw that takes the last card of the stock counts as a pass")
    lines.append(blocked + ".")
    pts = ", ".join(f"{_rank_short(r, _)} {rules.points[r]}" for r in Rank
                    if r in rules.ranks or (r is Rank.JOKER and rules.jokers))
    if rules.scoring is Scoring.OWN_HAND:
        lines.append(_("Scoring: every player scores the cards left in their own hand ({points}); "
                       "the lowest total wins the match.", points=pts))
    elif rules.scoring is Scoring.ROUNDS_WON:  # SW11, LC9, PE13
        lines.append(_("Scoring: the first player out wins the round and scores 1; the most "
                       "rounds won wins the match."))
    else:
        lines.append(_("Scoring: the player who goes out scores the cards left in the opponents' "
                       "hands ({points}); the highest total wins the match.", points=pts))
    lines.append(_("A blocked round: {how}.", how=_(
        "the lowest hand value wins the round, and tied players all win it ({points})",
        points=pts) if rules.scoring is Scoring.ROUNDS_WON else {
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
    _ = _ or translator("en")
    lines: list[str] = []
    for rank in Rank:
        if rank not in rules.cards:
            continue
        rule = rules.card(rank)
        if rule.wild or rule.name_suit or rule.takes_covered_rank or rule.transparent \
                or rule.has_effect or rule.any_follows or rule.out_multiplier > 1 \
                or rule.going_out is not GoingOut.YES or rule.must_cover:
            lines.append(_card_line(rank, rule, rules, _))
    return lines


def match_goal(rules: Rules, _: Translator | None = None) -> list[str]:
    """How the match is won, in the words of :func:`describe`: how a round scores (which
    says whether the lowest or the highest total wins), then when the match ends."""
    _ = _ or translator("en")
    pts = ", ".join(f"{_rank_short(r, _)} {rules.points[r]}" for r in Rank
                    if r in rules.ranks or (r is Rank.JOKER and rules.jokers))
    if rules.scoring is Scoring.OWN_HAND:
        scoring = _("Scoring: every player scores the cards left in their own hand ({points}); "
                    "the lowest total wins the match.", points=pts)
    elif rules.scoring is Scoring.ROUNDS_WON:  # SW11, LC9, PE13
        scoring = _("Scoring: the first player out wins the round and scores 1; the most "
                    "rounds won wins the match.")
    else:
        scoring = _("Scoring: the player who goes out scores the cards left in the opponents' "
                    "hands ({points}); the highest total wins the match.", points=pts)
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


def _rounds_to_win(rules: Rules, _: Translator) -> str:
    """When a match of rounds won ends (SW11: ``target`` counts rounds)."""
    if rules.rounds:
        return _.plural("The match ends when a player has won {n} round or after {rounds} rounds.",
                        "The match ends when a player has won {n} rounds or after {rounds} "
                        "rounds.", rules.target, rounds=rules.rounds)
    return _.plural("The match ends when a player has won {n} round.",
                    "The match ends when a player has won {n} rounds.", rules.target)
