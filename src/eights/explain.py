"""The rules in plain English, generated from the data (``eights rules show``).

A house-rules file explains itself: whatever its fields say is what is
printed, so the text can never drift from what the engine plays.
"""

from __future__ import annotations

from eights.cards import Rank
from eights.rules import BlockedScoring, CardRule, DrawPolicy, Rules, Scoring

__all__ = ["describe"]

_RANK_NAMES = {
    Rank.ACE: "ace", Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5",
    Rank.SIX: "6", Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "10",
    Rank.JACK: "jack", Rank.QUEEN: "queen", Rank.KING: "king", Rank.JOKER: "joker",
}


def _plural(rank: Rank) -> str:
    name = _RANK_NAMES[rank]
    return name + ("es" if name.endswith("x") else "s")


def _ranks(ranks: frozenset[Rank]) -> str:
    names = [_plural(r) for r in sorted(ranks)]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _steps(steps: tuple[tuple[int, int], ...], unit: str) -> str:
    unit = f" {unit}" if unit else ""
    if len(steps) == 1:
        return f"{steps[0][1]}{unit}"
    parts = [f"{v}{unit} from {p} players" for p, v in steps]
    return ", ".join(parts)


def _card_line(rank: Rank, rule: CardRule) -> str:
    name = _plural(rank).capitalize()
    bits: list[str] = []
    if rule.wild:
        where = "on any card"
        if rule.not_on:
            where += f" except {_ranks(rule.not_on)}"
        bits.append(f"may be played {where} when no forced draw is waiting")
    if rule.name_suit:
        bits.append("the player names the suit to follow")
    if rule.takes_covered_rank:
        bits.append("it also takes the rank of the card it covers")
    if rule.transparent:
        bits.append("the card to match stays the one beneath it")
    if rule.draw:
        text = f"the next player draws {rule.draw} and loses their turn"
        if rule.stack:
            text += (f", unless they play another {_RANK_NAMES[rank]}, which passes the "
                     f"draw on, {rule.draw} more for each")
        if rule.cancelled_by:
            text += f"; {_ranks(rule.cancelled_by)} played on it cancel the draw"
        bits.append(text)
    if rule.skip:
        bits.append("the next player loses their turn")
    if rule.reverse:
        bits.append("the direction of play reverses (no effect with two players)")
    if rule.again:
        text = "the player must play again"
        if rule.again_penalty:
            text += f"; if they cannot, they draw {rule.again_penalty} and the turn ends"
        bits.append(text)
    return f"{name}: " + "; ".join(bits) + "." if bits else f"{name}: no effect."


def describe(rules: Rules) -> list[str]:
    """Paragraphs that explain ``rules`` to a player."""
    low, high = rules.players
    lines = [f"{rules.title} ({rules.name})"]
    if rules.source:
        lines.append(f"Source: {rules.source}.")
    deck = _steps(rules.decks, "")
    jokers = f", with {rules.jokers} joker(s) per deck" if rules.jokers else ""
    lines.append(f"Players: {low} to {high} (default {rules.default_players}). "
                 f"Decks of 52 cards: {deck}{jokers}. Each player is dealt "
                 f"{_steps(rules.hand_size, 'cards')}, one at a time, starting left of the dealer.")
    if rules.teams:
        counts = ", ".join(str(c) for c in sorted(rules.teams))
        lines.append(f"With {counts} players, partners sit opposite and score together.")
    starter = "The top card of the stock is turned to start the discard pile."
    if rules.starter_redraw:
        starter += (f" If it is one of the {_ranks(rules.starter_redraw)}, it goes back into "
                    "the stock and another card is turned.")
    if rules.starter_effects:
        starter += " Its effect applies as if the dealer had played it."
    else:
        starter += " It has no effect; it is only the card to match."
    if rules.starter_wild_any:
        starter += " If it is wild, the first player may play any card."
    lines.append(starter)
    lines.append("On your turn, play a card of the same suit or the same rank as the up-card.")
    draw = {
        DrawPolicy.ONE_END: "draw one card; your turn ends",
        DrawPolicy.ONE_MAY_PLAY: "draw one card; if it can be played you may play it at once, "
                                 "otherwise you keep it and your turn ends",
        DrawPolicy.UNTIL_PLAYABLE: "draw cards one at a time until one can be played, "
                                   "then play it",
        DrawPolicy.REPEAT: f"draw one card and carry on: play, or draw again, up to "
                           f"{rules.max_draws} cards a turn, after which you may pass",
    }[rules.draw]
    who = "Instead of playing (even when you could play)" if rules.voluntary_draw else \
        "If you cannot play"
    lines.append(f"{who}, {draw}.")
    if rules.replace_after_play:
        lines.append("After playing, you may take the top card of the stock into your hand "
                     "(not when you go out).")
    if rules.hand_limit:
        text = f"No hand ever holds more than {rules.hand_limit} cards."
        if rules.overflow:
            text += (" Cards of a forced draw that would pass the limit go to the player who "
                     "played the forcing card; what they cannot take either becomes penalty "
                     "points against them, one per card.")
        lines.append(text)
    if rules.reshuffle:
        lines.append("When the stock runs out, the discard pile but its top card is shuffled "
                     "into a new stock.")
    else:
        lines.append("When the stock runs out there is no reshuffle: a player who cannot play "
                     "passes.")
    if rules.announce_last_card:
        lines.append(f"A player whose play leaves one card must announce it (write a trailing "
                     f"!); forgetting costs {rules.announce_penalty} cards at the end of the turn.")
    specials = [(rank, rules.card(rank)) for rank in Rank if rank in rules.cards]
    if specials:
        lines.append("Special cards:")
        lines.extend("  " + _card_line(rank, rule) for rank, rule in specials)
    if not rules.special_cards:
        lines.append("  (special_cards = false: card effects other than wild cards are off.)")
    lines.append("The round ends the moment a player plays their last card; that card's "
                 "effect does not apply.")
    if rules.max_plays:
        lines.append(f"It also ends after {rules.max_plays} cards have been played.")
    lines.append("The round is blocked when every player passes in turn with nothing to draw"
                 + (f" (plus {rules.extra_passes_to_block} more pass(es))"
                    if rules.extra_passes_to_block else "")
                 + ("; a forced draw that takes the last card of the stock counts as a pass"
                    if rules.served_draw_counts_as_pass else "") + ".")
    pts = ", ".join(f"{_RANK_NAMES[r]} {rules.points[r]}" for r in Rank
                    if r is not Rank.JOKER or rules.jokers)
    if rules.scoring is Scoring.OWN_HAND:
        lines.append(f"Scoring: every player scores the cards left in their own hand ({pts}); "
                     "the lowest total wins the match.")
    else:
        lines.append(f"Scoring: the player who goes out scores the cards left in the opponents' "
                     f"hands ({pts}); the highest total wins the match.")
    blocked = {
        BlockedScoring.OWN_HAND: "everyone scores their own hand",
        BlockedScoring.COLLECT: "the lowest hand wins and scores the opponents' hands",
        BlockedScoring.DIFFERENCE: "the lowest hand wins and scores the difference to each "
                                   "opponent's hand",
    }[rules.blocked_scoring]
    lines.append(f"A blocked round: {blocked}.")
    ends = []
    if rules.target:
        ends.append(f"a score reaches {rules.target}")
    if rules.rounds:
        ends.append(f"{rules.rounds} round(s) have been played")
    lines.append("The match ends when " + (" or ".join(ends) if ends else "the players stop") + ".")
    return lines
