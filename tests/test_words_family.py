"""The family's mechanisms in words (docs/rules.md, "New mechanisms" and "New notation"),
in English and in French: ``eights rules show`` (:func:`describe`) explains each one, and
the narration (:func:`describe_move`, :func:`round_summary`, :func:`table_words`) says
each new event, the "You" forms included. Every narration test plays a stacked deck."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from eights import Action, Game, RulesError, load_rules, preset_names
from eights.i18n import Translator, translator
from eights.i18n.explain import card_effects, describe, match_goal
from eights.i18n.text import (
    action_words,
    describe_move,
    match_words,
    ordinal,
    placings,
    read_action,
    round_summary,
    table_words,
)
from stacked import stacked

EN, FR = translator("en"), translator("fr")
NAMES = ["Ana", "Bob", "Cy", "Dee"]
NB = "\u00a0"


def said(game: Game, text: str, _: Translator, you: int | None = None) -> str:
    """Apply ``text`` and return its narration."""
    return describe_move(game, NAMES, game.apply(text), _, you)


def both(make: Callable[[], Game], moves: list[str], you: int | None = None
         ) -> list[tuple[str, str]]:
    """The narration of ``moves`` in English and French, on two copies of a stacked game."""
    en_game, fr_game = make(), make()
    return [(said(en_game, m, EN, you), said(fr_game, m, FR, you)) for m in moves]


def rules_text(name: str, _: Translator, overrides: list[str] | None = None) -> str:
    return "\n".join(describe(load_rules(name, overrides or []), _))


# the catalog: the family's titles and sources ----------------------------------------

FAMILY = ["black-jack", "last-card", "mau-mau", "pesten", "switch", "tschau-sepp", "uno-cards"]


@pytest.mark.parametrize("name", FAMILY)
def test_family_titles_and_sources_are_catalogued(name: str) -> None:
    """Each new preset's title and source has a French entry, as crazy-eights' do."""
    rules = load_rules(name)
    assert name in preset_names()
    assert FR._singular.get(rules.title), rules.title
    assert FR._singular.get(rules.source), rules.source
    lines = describe(rules, FR)
    assert lines[1] == f"Source{NB}: {FR(rules.source)}."


def test_family_sources_read_in_french() -> None:
    assert FR("the German game (de.wikipedia, kartenspiele.net, spielfibel.de)") == (
        "le jeu allemand (de.wikipedia, kartenspiele.net, spielfibel.de)")
    assert FR("Uno on a standard deck") == "Uno avec un jeu de cartes classique"
    assert describe(load_rules("pesten"), FR)[1] == (
        f"Source{NB}: le jeu néerlandais (nl.wikipedia, libelle.nl, spelenboek.nl).")


# rules show: the mechanisms ------------------------------------------------------------


def test_sw3_multi_play_in_words() -> None:
    """SW3: ``multi_play = "same-rank"``: several cards of one rank, effects adding up."""
    en, fr = rules_text("switch", EN), rules_text("switch", FR)
    assert ("You may lay several cards of one rank in one play, written 7h+7s: one of the "
            "cards under the top one must be playable") in en
    assert "k skip cards skip k players" in en
    assert f"plusieurs cartes de même valeur, notées 7h+7s{NB}:" in fr
    assert "les effets s’additionnent" in fr
    assert "7h+7s" not in rules_text("huit-americain", EN)  # one card a play: not said


def test_mm6_multi_play_a_rank_that_may_not_cover_itself() -> None:
    """MM6 with multi_play: jacks (not_on = ["J"]) never go down together."""
    overrides = ["multi_play=same-rank"]
    assert "The jacks never go down together." in rules_text("mau-mau", EN, overrides)
    assert "Les valets ne se posent jamais à plusieurs." in rules_text("mau-mau", FR, overrides)


def test_bj2_bj3_bj4_card_tables_in_words() -> None:
    """BJ2: the black jacks have their own table; BJ3: pick-ups stack across ranks; BJ4: the
    red jacks cancel a pick-up."""
    en = rules_text("black-jack", EN).splitlines()
    assert ("  The black jacks (J♣, J♠): the next player draws 5 and loses their turn, unless "
            "they answer with the 2s or the black jacks (J♣, J♠), each adding its own draw to "
            "the pick-up, which passes on to the next player; the red jacks (J♦, J♥) played on "
            "it cancel the draw.") in en
    assert ("  The red jacks (J♦, J♥): played on a pending draw of the 2s or the black jacks "
            "(J♣, J♠), they cancel it; otherwise they are plain cards.") in en
    assert any(line.startswith("  2s: the next player draws 2 and loses their turn, unless "
                               "they answer with the 2s or the black jacks (J♣, J♠)")
               for line in en)
    assert not any(line.startswith("  Jacks") for line in en)  # said card by card
    fr = rules_text("black-jack", FR)
    assert (f"  Les valets noirs (V♣, V♠){NB}: le joueur suivant pioche 5 cartes et passe son "
            "tour, sauf s’il contre avec les 2 ou les valets noirs (V♣, V♠)") in fr
    assert "les valets rouges (V♦, V♥), posés dessus, dispensent de piocher" in fr
    assert f"  Les valets rouges (V♦, V♥){NB}: posées sur des cartes à piocher" in fr


def test_bj4_the_red_jacks_are_a_card_effect() -> None:
    """BJ4: the web page's list of card effects names the red jacks too (they cancel)."""
    lines = card_effects(load_rules("black-jack"))
    assert any(line.startswith("The red jacks (J♦, J♥): played on a pending draw")
               for line in lines)
    assert card_effects(load_rules("black-jack"), FR)[3].startswith("Les valets noirs")


def test_cards_of_one_card_and_queens_agree_in_french() -> None:
    """A card table on one card is named by the card; black queens agree in French."""
    rules = load_rules("huit-americain", ["cards.Qs.skip=true", "cards.Qc.skip=true",
                                          "cards.Kh.skip=true"])
    en, fr = describe(rules, EN), describe(rules, FR)
    assert "  The black queens (Q♣, Q♠): the next player loses their turn." in en
    assert f"  Les dames noires (D♣, D♠){NB}: le joueur suivant passe son tour." in fr
    assert "  K♥: the next player loses their turn." in en
    assert "  The red queens (Q♦, Q♥): no effect." in en  # the rest of the rank, plain
    assert "  K♣, K♦, K♠: no effect." in en
    assert not any(line.startswith(("  Kings", "  Queens")) for line in en)


def test_ha7_cancel_by_a_whole_rank_keeps_its_words() -> None:
    """HA7: ``cancelled_by`` read as cards still says a whole rank by its name."""
    en = rules_text("huit-americain", EN)
    assert "; 8s played on it cancel the draw" in en
    assert "les 8 posés dessus dispensent de piocher" in rules_text("huit-americain", FR)


def test_bj3_toggle_a_2_on_a_5_in_words() -> None:
    """LC4's toggle ``cards.5.stack_with = ["5", "2"]``: the 5 takes 2s as answers."""
    en = rules_text("last-card", EN, ['cards.5.stack_with=["5", "2"]'])
    assert ("  5s: the next player draws 5 and loses their turn, unless they answer with the "
            "2s or the 5s, each adding its own draw") in en


def test_mm5_pe8_pass_on_in_words() -> None:
    """MM5, PE8 toggles: ``cards.8.pass_on = true``."""
    en = rules_text("mau-mau", EN, ["cards.8.pass_on=true"])
    assert ("  8s: the next player loses their turn, unless they play another 8 on it, which "
            "passes the skip on to the player after them (pass accepts the skip).") in en
    fr = rules_text("pesten", FR, ["cards.8.pass_on=true"])
    assert ("le joueur suivant passe son tour, sauf s’il pose lui aussi un 8" in fr
            and "c’est alors le joueur d’après qui passe son tour" in fr)
    assert "pass accepts" not in rules_text("mau-mau", EN)


def test_ts11_ts12_play_on_and_placings_in_words() -> None:
    """TS11: play goes on, the order of going out gives the placings; TS12: placings."""
    en = rules_text("tschau-sepp", EN)
    assert ("A player who plays their last card goes out and leaves the round; play goes on "
            "without them") in en
    assert "The round ends the moment a player plays their last card" not in en
    assert ("Scoring: each player scores their placing minus one as penalty points: 0 for "
            "the first out, 1 for the second, and so on.") in en
    assert ("A blocked round: the players still holding cards are placed by hand value, "
            "lowest first, tied players sharing the better place.") in en
    fr = rules_text("tschau-sepp", FR)
    assert f"L’ordre de sortie donne le classement{NB}: le premier sorti est 1er." in fr
    assert f"Décompte{NB}: chaque joueur marque sa place moins un en points de pénalité" in fr
    rules = load_rules("tschau-sepp")
    assert match_goal(rules)[0].startswith("Scoring: each player scores their placing")
    assert match_words(rules, EN) == "Target 10 · lowest wins"  # penalty points
    # the toggle play_on = false: the round ends at the first player out
    off = rules_text("tschau-sepp", EN, ["play_on=false"])
    assert "The round ends the moment a player goes out with the call" in off  # TS10: "Sepp"


def test_ts3_uc3_naming_starters_in_words() -> None:
    """TS3: the dealer names the suit of a starter jack; UC3: the first player names the
    suit of a starter joker (aces are redrawn, so they are not named)."""
    assert ("If it is one of the jacks, the dealer names the suit to follow (=s, =h…) before "
            "the first player's turn.") in rules_text("tschau-sepp", EN)
    assert ("If it is one of the jokers, the first player names the suit to follow (=s, "
            "=h…), then takes their turn.") in rules_text("uno-cards", EN)
    assert ("Si elle fait partie des valets, le donneur demande la couleur à suivre"
            in rules_text("tschau-sepp", FR))
    assert "names the suit to follow (=s" not in rules_text("crazy-eights", EN)


def test_again_penalty_of_one_card_in_french() -> None:
    """MM7, BJ7: « pioche 1 carte », not « 1 cartes »."""
    assert "il pioche 1 carte et son tour se termine" in rules_text("mau-mau", FR)
    assert "1 cartes" not in rules_text("black-jack", FR)
    assert "they draw 1 and the turn ends" in rules_text("mau-mau", EN)


@pytest.mark.parametrize("name", FAMILY)
def test_family_rules_read_in_french(name: str) -> None:
    """No English left in the French rules of a family preset (title and source apart)."""
    body = "\n".join(describe(load_rules(name), FR)[2:])
    for word in ("the", "player", "cards", "round", "unless", "draw"):
        assert f" {word} " not in body, (word, body)


# narration ---------------------------------------------------------------------------


def switch(*hands: str, starter: str = "5h", draws: str = "", more: list[str] | None = None
           ) -> Game:
    """A game of Switch with small hands (seat 1 plays first)."""
    size = len(hands[0].split())
    return stacked("switch", list(hands), starter, draws,
                   overrides=[f"hand_size={size}", "announce_last_card=false", *(more or [])])


def test_sw3_a_multi_card_play_is_said_card_by_card() -> None:
    """SW3: "plays 7♥ 7♠" (the top card last), "You play …" to its player."""
    def make() -> Game:
        return switch("3c 4c 5c", "7h 7s 9d", "6c 6d 6s", "9c Tc Jc")
    assert both(make, ["7h+7s"]) == [("Bob plays 7♥ 7♠", "Bob joue 7♥ 7♠")]
    assert both(make, ["7h+7s"], you=1) == [("You play 7♥ 7♠", "Vous jouez 7♥ 7♠")]


def test_sw8_several_aces_name_one_suit() -> None:
    """SW8: ``Ah+As=d`` is said once, with the suit named."""
    def make() -> Game:
        return switch("3c 4c 5c", "Ah As 9d", "6c 6d 6s", "9c Tc Jc")
    assert both(make, ["Ah+As=d"]) == [("Bob plays A♥ A♠ and names ♦",
                                        "Bob joue A♥ A♠ et demande ♦")]


def test_sw6_k_skip_cards_skip_k_players() -> None:
    """SW6: 8h+8s from seat 1 of 4 skips Cy and Dee; the one skipped hears "you"."""
    def make() -> Game:
        return switch("3c 4c 5c", "8h 8s 9d", "6c 6d 6s", "9c Tc Jc")
    assert both(make, ["8h+8s"]) == [(
        "Bob plays 8♥ 8♠ — 2 players lose their turn: Cy, Dee",
        f"Bob joue 8♥ 8♠ — 2 joueurs passent leur tour{NB}: Cy, Dee")]
    assert both(make, ["8h+8s"], you=3) == [(
        "Bob plays 8♥ 8♠ — 2 players lose their turn: Cy, you",
        f"Bob joue 8♥ 8♠ — 2 joueurs passent leur tour{NB}: Cy, vous")]


def test_sw6_skips_never_reach_the_player_who_laid_them() -> None:
    """SW6 with three players: 8h+8s skips the two others once each, said as two players."""
    g = stacked("switch", ["3c 4c 5c", "8h 8s 9d", "6c 6d 6s"], "5h",
                overrides=["hand_size=3", "announce_last_card=false"])
    assert said(g, "8h+8s", EN) == "Bob plays 8♥ 8♠ — 2 players lose their turn: Cy, Ana"
    assert g.to_play == 1


def test_sw7_two_reverses_leave_the_direction() -> None:
    """SW7: ``Jh+Js`` reverses twice: said as "the direction of play stays the same"."""
    def make() -> Game:
        return switch("3c 4c 5c", "Jh Js 9d", "6c 6d 6s", "9c Tc Jc")
    assert both(make, ["Jh+Js"]) == [(
        "Bob plays J♥ J♠ — the direction of play stays the same",
        "Bob joue V♥ V♠ — le sens du jeu ne change pas")]


def test_sw5_a_pick_up_answered_with_two_2s() -> None:
    """SW5: on a pending 2, ``2h+2s`` makes 6 for the next player."""
    def make() -> Game:
        return switch("3c 4c 5c", "2c 9c 9d", "2h 2s 6s", "9h Tc Jc", starter="6c")
    assert both(make, ["2c", "2h+2s"], you=3) == [
        ("Bob plays 2♣ — Cy must draw 2 or answer",
         "Bob joue 2♣ — Cy doit piocher 2 cartes ou contrer"),
        ("Cy plays 2♥ 2♠ — you must draw 6 or answer",
         "Cy joue 2♥ 2♠ — vous devez piocher 6 cartes ou contrer")]


def black_jack() -> Game:
    return stacked("black-jack", ["3c 4c Jd 5c", "2h 3h 4h 5h", "Js 6c 6d 6s", "2c 9c Tc Jh"],
                   "7h", "9d 9s Kd Kh 9h 3d 4d 5d 6h 7d 7c 7s",
                   overrides=["hand_size=4", "announce_last_card=false"])


def test_bj3_a_pick_up_grows_across_ranks() -> None:
    """BJ3: 2h, then Js, then 2c leaves 9 for the next player."""
    assert both(black_jack, ["2h", "Js", "2c"], you=0) == [
        ("Bob plays 2♥ — Cy must draw 2 or answer",
         "Bob joue 2♥ — Cy doit piocher 2 cartes ou contrer"),
        ("Cy plays J♠ — Dee must draw 7 or answer",
         "Cy joue V♠ — Dee doit piocher 7 cartes ou contrer"),
        ("Dee plays 2♣ — you must draw 9 or answer",
         "Dee joue 2♣ — vous devez piocher 9 cartes ou contrer")]


def test_bj4_a_red_jack_cancels_the_pick_up() -> None:
    """BJ4: a red jack on a pending pick-up voids it."""
    assert both(black_jack, ["2h", "Js", "2c", "Jd"], you=0)[-1] == (
        "You play J♦ — the pick-up is cancelled",
        "Vous jouez V♦ — les cartes à piocher sont annulées")
    g = black_jack()
    for move in ("2h", "Js", "2c"):
        g.apply(move)
    assert said(g, "Jd", EN) == "Ana plays J♦ — the pick-up is cancelled"
    assert g.pending == 0 and g.to_play == 1


def test_bj4_a_red_jack_without_a_pick_up_is_plain() -> None:
    """BJ4: with nothing pending, a red jack is a plain card: nothing is cancelled."""
    g = stacked("black-jack", ["3c 4c Jd 5c", "Jh 3h 4h 5h", "Js 6c 6d 6s", "2c 9c Tc 8h"],
                "7h", overrides=["hand_size=4", "announce_last_card=false"])
    assert said(g, "Jh", EN) == "Bob plays J♥"


def tschau_sepp() -> Game:
    """A starter jack: the dealer (Ana) names its suit before Bob plays."""
    return stacked("tschau-sepp", ["6c 7c 8c 9c Tc", "6d 7d 8d 9d Td", "6h 7h 8h 9h Th",
                                   "6s 7s 8s 9s Ts"], "Jh")


def test_ts3_the_dealer_names_the_suit_of_a_starter_jack() -> None:
    """TS3: ``=s`` is said "names ♠"; before it, the table says who names."""
    g = tschau_sepp()
    assert g.naming and g.to_play == 0
    assert "Ana names the suit of the starter first" in table_words(g, NAMES, EN)
    assert ("Ana demande d’abord la couleur de la carte de départ"
            in table_words(g, NAMES, FR))
    assert both(tschau_sepp, ["=s"]) == [("Ana names ♠", "Ana demande ♠")]
    assert both(tschau_sepp, ["=s"], you=0) == [("You name ♠", "Vous demandez ♠")]
    g.apply("=s")
    assert table_words(g, NAMES, EN)[1] == "Suit to follow: ♠"


def test_uc3_the_first_player_names_the_suit_of_a_starter_joker() -> None:
    """UC3: the first player names, then plays."""
    g = stacked("uno-cards", ["3c 4c 5c", "3d 4d 5d", "3h 4h 5h", "3s 4s 5s"], "X",
                overrides=["hand_size=3"])
    assert g.naming and g.to_play == 1
    assert said(g, "=d", EN) == "Bob names ♦"
    assert g.to_play == 1 and said(g, "3d", EN) == "Bob plays 3♦"


def test_name_and_multi_play_action_words() -> None:
    """The buttons and lists of legal actions: ``=s`` and ``7h+7s`` in words."""
    assert action_words(Action.parse("=s"), EN) == "name ♠"
    assert action_words(Action.parse("=s"), FR) == "demander ♠"
    assert action_words(Action.parse("7h+7s"), EN) == "7♥+7♠"
    assert action_words(Action.parse("Jh+Js=d!"), FR) == (
        "V♥+V♠, demande ♦, en annonçant sa dernière carte")
    assert str(read_action("V♥+V♠", FR)) == "Jh+Js"
    assert str(read_action("dh+ds=t", FR)) == "Qh+Qs=c"


def mau_mau_pass_on() -> Game:
    """MM5's toggle: an 8 may pass the skip on."""
    return stacked("mau-mau", ["9c Tc Jc Qc Kc", "8h 9h Th Qh Kh", "8s 9s Ts Qs Ks",
                               "7d 9d Td Qd Kd"], "7h", overrides=["cards.8.pass_on=true"])


def test_mm5_pe8_a_skip_that_may_be_passed_on() -> None:
    """MM5, PE8 toggles: the skipped player may pass the skip on with an 8, or ``pass``."""
    assert both(mau_mau_pass_on, ["8h", "8s", "pass"]) == [
        ("Bob plays 8♥ — Cy loses their turn, unless they pass the skip on with another 8",
         "Bob joue 8♥ — Cy passe son tour, sauf s’il pose lui aussi un 8"),
        ("Cy plays 8♠ — the skip passes on — Dee loses their turn, unless they pass the skip "
         "on with another 8",
         "Cy joue 8♠ — le tour sauté passe au joueur suivant — Dee passe son tour, sauf s’il "
         "pose lui aussi un 8"),
        ("Dee accepts the skip and loses their turn", "Dee accepte de passer son tour")]
    assert both(mau_mau_pass_on, ["8h", "pass"], you=2) == [
        ("Bob plays 8♥ — you lose your turn, unless you pass the skip on with another 8",
         "Bob joue 8♥ — vous passez votre tour, sauf si vous posez vous aussi un 8"),
        ("You accept the skip and lose your turn", "Vous acceptez de passer votre tour")]


def test_mm5_the_table_shows_a_skip_waiting() -> None:
    g = mau_mau_pass_on()
    g.apply("8h")
    assert "A skip waits: pass it on with another 8, or pass" in table_words(g, NAMES, EN)
    assert (f"Tour sauté en attente{NB}: un autre 8 le passe au joueur suivant, sinon "
            f"«{NB}passer{NB}»") in table_words(g, NAMES, FR)
    g.apply("pass")
    assert not any("skip" in line for line in table_words(g, NAMES, EN))


def test_sw6_with_pass_on_k_skips_fall_on_k_players() -> None:
    """``pass_on`` with ``multi_play``: a pass accepts the skip of k cards for k players."""
    g = stacked("switch", ["3c 4c 5c", "8h 8s 9d", "6c 6d 6s", "9c Tc Jc"], "5h",
                overrides=["hand_size=3", "announce_last_card=false", "cards.8.pass_on=true"])
    assert said(g, "8h+8s", EN) == (
        "Bob plays 8♥ 8♠ — Cy loses their turn, unless they pass the skip on with another 8")
    assert said(g, "pass", EN, you=3) == (
        "Cy accepts the skip and loses their turn — 1 player loses their turn: you")
    assert g.to_play == 0


def play_on() -> Game:
    """Tschau Sepp with two cards each and three players: Bob, then Cy go out."""
    return stacked("tschau-sepp", ["Ks 7c", "9h Kc", "Kh Kd"], "9d",
                   "6c 6d 6h 6s 7d 7h 7s 8c 8d 8h", overrides=["hand_size=2"])


def test_ts11_a_player_goes_out_with_a_placing_and_play_goes_on() -> None:
    """TS11: "goes out: 1st"; the round goes on; the last out ends it."""
    moves = ["9h!", "Kh!", "Ks!", "Kc!", "Kd!"]
    told = both(play_on, moves)
    assert told[3] == ("Bob plays K♣ — “Sepp!” — Bob goes out: 1st",
                       f"Bob joue R♣ — «{NB}Sepp{NB}!{NB}» — Bob n’a plus de cartes et sort, 1er")
    assert told[4] == ("Cy plays K♦ — “Sepp!” — Cy goes out: 2nd",
                       f"Cy joue R♦ — «{NB}Sepp{NB}!{NB}» — Cy n’a plus de cartes et sort, 2e")
    assert both(play_on, moves, you=1)[3][0] == "You play K♣ — “Sepp!” — you go out: 1st"
    assert told[0] == ("Bob plays 9♥ — “Tschau!”", f"Bob joue 9♥ — «{NB}Tschau{NB}!{NB}»")


def test_ts11_the_table_lists_the_players_out() -> None:
    g = play_on()
    for move in ("9h!", "Kh!", "Ks!", "Kc!"):
        g.apply(move)
    assert "Out of the round: Bob (1st)" in table_words(g, NAMES, EN)
    assert f"Sortis de la manche{NB}: Bob (1er)" in table_words(g, NAMES, FR)
    assert g.to_play == 2


def test_ts11_ts12_the_placings_at_the_end_of_a_round() -> None:
    """TS11, TS12: the round summary gives the placings, and each player's placing minus one."""
    g = play_on()
    for move in ("9h!", "Kh!", "Ks!", "Kc!", "Kd!"):
        g.apply(move)
    assert g.over and placings(g) == [3, 1, 2]
    en = round_summary(g, NAMES, EN)
    assert en[0] == "Round 1 is over: the placings are 1st Bob, 2nd Cy, 3rd Ana."
    assert en[1] == "Ana: 7♣ 7 = 7 · round +2 · total 2"
    fr = round_summary(g, NAMES, FR)
    assert fr[0] == f"Fin de la manche 1{NB}: classement 1er Bob, 2e Cy, 3e Ana."


def test_ts12_placings_without_play_on_rank_the_others_by_hand_value() -> None:
    """TS12's toggle play_on = false: the first out is 1st, the others follow by hand value,
    tied players sharing the better place."""
    g = stacked("tschau-sepp", ["Ks 7c", "9h Kc", "Kh 6d", "Kd 7s"], "9d",
                overrides=["hand_size=2", "play_on=false"])
    for move in ("9h!", "Kh!", "Kd!", "Ks!", "Kc!"):
        g.apply(move)
    assert g.over and g.out == 1
    assert placings(g) == [3, 1, 2, 3]  # Cy holds 6, Ana and Dee 7 each: they share 3rd
    assert g.round_points == [2, 0, 1, 2]  # TS12: the engine agrees
    assert round_summary(g, NAMES, EN)[0] == (
        "Round 1 is over: the placings are 1st Bob, 2nd Cy, 3rd Ana, 3rd Dee.")


def test_ordinals() -> None:
    assert [ordinal(n, EN) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"]
    assert [ordinal(n, FR) for n in (1, 2, 3)] == ["1er", "2e", "3e"]


def test_ts11_the_last_card_of_a_player_out_still_acts() -> None:
    """TS11: after going out on a 7, the next player draws (or answers): both are said."""
    def make() -> Game:
        return stacked("tschau-sepp", ["6s 7c", "9h 7s", "6h Kd"], "9d",
                       "6c 6d 8c 8d 8h 8s Qc Qd", overrides=["hand_size=2"])
    assert both(make, ["9h!", "6h!", "6s!", "7s!"])[-1] == (
        "Bob plays 7♠ — “Sepp!” — Bob goes out: 1st — Cy must draw 2 or answer",
        f"Bob joue 7♠ — «{NB}Sepp{NB}!{NB}» — Bob n’a plus de cartes et sort, 1er — Cy doit "
        "piocher 2 cartes ou contrer")


def test_lc8_the_pick_up_of_a_last_card_is_served() -> None:
    """LC8: a 2 played as the last card is still served: the next player takes it."""
    def make() -> Game:
        return stacked("last-card", ["3c 4h", "2h 9h"], "6h", "9s Kd",
                       overrides=["hand_size=2", "announce_last_card=false"])
    assert both(make, ["9h", "4h", "2h"])[-1] == (
        "Bob plays 2♥ — Bob goes out — Ana takes the pick-up: 2 cards",
        f"Bob joue 2♥ — Bob n’a plus de cartes — Ana pioche les cartes imposées{NB}: 2 cartes")
    assert both(make, ["9h", "4h", "2h"], you=0)[-1][0] == (
        "Bob plays 2♥ — Bob goes out — you take the pick-up: 9♠ K♦")


# the calls by their names (MM8, MM9, TS10, UC9, SW9, LC7, PE11) ------------------------


def mau_mau_calls() -> Game:
    """Mau-Mau, two players with two cards each: Bob says "Mau", then "Mau-Mau"."""
    return stacked("mau-mau", ["7c 8c", "9h Kh"], "9d", "7d 7h 7s 8d 8h 8s", dealer=0,
                   overrides=["hand_size=2"])


def test_mm8_mm9_the_calls_are_mau_and_mau_mau() -> None:
    """MM8 "Mau" with the play that leaves one card, MM9 "Mau-Mau" with the last card."""
    told = both(mau_mau_calls, ["9h!", "draw", "Kh!"])
    assert told[0] == ("Bob plays 9♥ — “Mau!”", f"Bob joue 9♥ — «{NB}Mau{NB}!{NB}»")
    assert told[2][0].startswith("Bob plays K♥ — “Mau-Mau!” — Bob goes out")
    assert told[2][1].startswith(f"Bob joue R♥ — «{NB}Mau-Mau{NB}!{NB}»")


@pytest.mark.parametrize(("name", "announce", "out"), [
    ("mau-mau", "Mau", "Mau-Mau"), ("tschau-sepp", "Tschau", "Sepp"), ("uno-cards", "Uno", None),
    ("last-card", "Last card", None), ("switch", "Last card", None),
    ("black-jack", "Last card", None), ("pesten", "Laatste kaart", None),
    ("huit-americain", "last card", None),
])
def test_the_calls_are_data_and_rules_show_names_them(name: str, announce: str,
                                                      out: str | None) -> None:
    """The names come from the rules (``last_card_call``, ``out_call``), never from the
    preset's name: the rules text says each call as the log does."""
    rules = load_rules(name)
    en = rules_text(name, EN)
    assert f"must announce it: “{announce}!”" in en
    if out is not None:
        assert f"must call “{out}!” (a trailing !" in en
    else:
        assert "must call" not in en
    house = load_rules("classic", ["announce_last_card=true", 'last_card_call="Knock"'])
    assert "must announce it: “Knock!”" in "\n".join(describe(house, EN))
    assert rules.last_card_call.lower() == announce.lower() or (
        not rules.last_card_call and announce == "last card")


def test_a_call_name_is_checked() -> None:
    with pytest.raises(RulesError, match=r"'last_card_call'.*at most 30 printable characters"):
        load_rules("classic", ['last_card_call="' + "x" * 31 + '"'])


# rules show: only what the deck has ----------------------------------------------------


def test_ha12_rules_show_says_nothing_of_jokers_the_deck_does_not_hold() -> None:
    """HA12: huit-americain's jokers are off by default (``jokers = 0``): the text names no
    joker, in the starter's redraws or the special cards, until ``jokers = 2``."""
    for _ in (EN, FR):
        text = rules_text("huit-americain", _).lower()
        assert "joker" not in text, text
    on = rules_text("huit-americain", EN, ["jokers=2"])
    assert "Jokers per deck: 2." in on and "Jokers: may be played on any card" in on
    assert "2s, 7s, 8s, 10s, jacks or jokers" in on


def test_hf11_one_point_a_card_is_said_once() -> None:
    assert "(1 point a card)" in rules_text("huit-fou", EN)
    assert "(1 point par carte)" in rules_text("huit-fou", FR)


def test_a_voluntary_draw_reads_as_a_choice() -> None:
    """CL5: a player may draw even when able to play; the text does not order a draw."""
    assert "If you cannot play, or would rather not, draw one card; your turn ends." in (
        rules_text("classic", EN))
    assert "Si vous ne pouvez pas jouer, ou ne le voulez pas, piochez une carte" in (
        rules_text("classic", FR))


def test_special_cards_off_lists_no_card_without_effect() -> None:
    text = rules_text("openspiel", EN)
    assert "no effect" not in text and "(special_cards = false" in text
    assert "(plus 1 more pass)" in text


def test_mm1_ts1_a_short_pack_is_listed_from_low_to_ace() -> None:
    assert "Decks of 32 cards (7, 8, 9, 10, jack, queen, king, ace)" in rules_text("mau-mau", EN)
    assert "Decks of 36 cards (6, 7, 8, 9, 10, jack, queen, king, ace)" in (
        rules_text("tschau-sepp", EN))
    assert "(7, 8, 9, 10, valet, dame, roi, as)" in rules_text("mau-mau", FR)


def test_a_plain_card_is_no_special_card_and_a_neutral_8_says_its_points() -> None:
    """Issue 35: an 8 that is neither wild nor names a suit still scores 50, and the rules
    say so; a card whose table does nothing, at its face value, is not listed."""
    neutral = ["cards.8.wild=false", "cards.8.name_suit=false"]
    assert "  8s: no effect, but each left in a hand counts 50 points." in describe(
        load_rules("crazy-eights", neutral), EN)
    assert f"  Les 8{NB}: sans effet, mais 50 points par carte restée en main." in describe(
        load_rules("crazy-eights", neutral), FR)
    lines = describe(load_rules("huit-americain", ["cards.7.skip=false"]), EN)
    assert not [line for line in lines if line.strip().startswith("7s")]
