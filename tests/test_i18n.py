"""Message catalogs: every player-facing string has a French translation that formats."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

import eights
from eights import Action, Card, NotationError, Suit, load_rules, preset_names
from eights.i18n import detect_language, translator
from eights.i18n.explain import describe
from eights.i18n.text import (
    action_code,
    action_words,
    card_label,
    card_words,
    describe_move,
    read_action,
    round_summary,
    suit_key,
    suit_keys,
    table_words,
)
from eights.tui.cards import face_lines
from stacked import stacked

SRC = Path(eights.__file__).parent
KEYWORDS = {"_": None, "plural": (1, 2)}


def extracted() -> list[str | tuple[str, ...]]:
    out: list[str | tuple[str, ...]] = []
    for _file, _line, message, _comments, _context in extract_from_dir(
            str(SRC), keywords=KEYWORDS, method_map=[("**.py", "python")]):
        out.append(message)
    return out


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_message_has_a_french_translation_with_the_same_fields() -> None:
    fr = translator("fr")
    messages = extracted()
    assert len(messages) > 100
    for message in messages:
        if isinstance(message, tuple):
            one, many = message
            assert fr._plural.get(one), f"no French plural for {one!r}"
            for form in fr._plural[one]:
                assert fields(form) == fields(many), (message, form)
        else:
            assert fr._singular.get(message), f"no French translation for {message!r}"
            assert fields(fr._singular[message]) == fields(message), message


@pytest.mark.parametrize(("env", "lang"), [
    ({"LANG": "fr_FR.UTF-8"}, "fr"), ({"LANG": "en_GB.UTF-8"}, "en"), ({}, "en"),
    ({"LC_ALL": "fr_CA.UTF-8", "LANG": "en_US.UTF-8"}, "fr"), ({"LANG": "de_DE.UTF-8"}, "en"),
    ({"LANGUAGE": "fr:en"}, "fr"),
])
def test_the_language_comes_from_the_locale(env: dict[str, str], lang: str) -> None:
    assert detect_language(env) == lang


def test_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="languages are en, fr"):
        translator("de")


@pytest.mark.parametrize(("card", "en", "fr"), [
    ("Qh", "queen of hearts", "dame de cœur"), ("Jd", "jack of diamonds", "valet de carreau"),
    ("Kc", "king of clubs", "roi de trèfle"), ("As", "ace of spades", "as de pique"),
    ("7h", "seven of hearts", "sept de cœur"),
])
def test_card_names_use_the_french_words(card: str, en: str, fr: str) -> None:
    assert card_words(Card.parse(card), translator("en")) == en
    assert card_words(Card.parse(card), translator("fr")) == fr


def test_plurals_follow_each_language() -> None:
    en, fr = translator("en"), translator("fr")
    assert en.plural("{n} card", "{n} cards", 1) == "1 card"
    assert en.plural("{n} card", "{n} cards", 0) == "0 cards"
    assert fr.plural("{n} card", "{n} cards", 0) == "0 carte"
    assert fr.plural("{n} card", "{n} cards", 2) == "2 cartes"


@pytest.mark.parametrize("name", preset_names())
def test_rules_read_in_french_for_every_preset(name: str) -> None:
    lines = describe(load_rules(name), translator("fr"))
    text = "\n".join(lines)
    assert "Joueurs\u00a0:" in text and "Décompte" in text
    # no English sentence left over (the title and source are data, not text)
    body = "\n".join(lines[2:])
    assert not re.search(r"\b(the|player|cards|round)\b", body), body


def french_catalog() -> list[tuple[str, str]]:
    """Every (English id, French text) pair of the catalog, plural forms joined."""
    path = SRC / "locale" / "fr" / "LC_MESSAGES" / "eights.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale="fr")
    pairs: list[tuple[str, str]] = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        texts = message.string if isinstance(message.string, tuple) else (message.string,)
        pairs.append((" | ".join(str(i) for i in ids), " | ".join(str(t or "") for t in texts)))
    return pairs


def test_french_keeps_annonce_for_the_last_card_and_demande_for_a_suit() -> None:
    """« Annoncer » is the last-card call (HA13); a wild card « demande » a suit."""
    pairs = french_catalog()
    assert len(pairs) > 200
    for english, french in pairs:
        if "annonc" in french.lower():
            assert "announc" in english.lower(), (
                f"{french!r} says « annonce » but {english!r} is not the last-card call: "
                "name a suit with « demander »")
        if re.search(r"\bnam(e|es|ing)\b.*\bsuit\b|\bnam(e|es|ing) \{suit\}", english, re.I):
            assert "demand" in french.lower(), f"{english!r} names a suit: say « demande », not {french!r}"


def test_french_uses_one_word_for_each_thing() -> None:
    """The stock is « la pioche » (never « talon »), a round « une manche », a match « une partie »."""
    for english, french in french_catalog():
        assert "talon" not in french, f"{french!r}: the stock is « la pioche »"
        if re.search(r"\bstock\b", english, re.I):
            assert "pioche" in french.lower(), f"{english!r}: the stock is « la pioche », not {french!r}"
        if re.search(r"\bround", english, re.I):
            assert "manche" in french.lower(), f"{english!r}: a round is « une manche », not {french!r}"
        if re.search(r"\bthe match\b|^Match\b|\bmatch is\b", english, re.I):
            assert "partie" in french.lower(), f"{english!r}: a match is « une partie », not {french!r}"


def test_french_typography() -> None:
    """A no-break space (U+00A0) before : ; ! ? and inside « », and the typographic apostrophe."""
    for _english, french in french_catalog():
        assert not re.search(r"[ \u202f][:;!?»]|«[ \u202f]", french), (
            f"{french!r}: put a no-break space (U+00A0) before : ; ! ? » and after «")
        assert not re.search(r"[^\s(\[{][;!?](?=\s|$)|[^\s(\[{]:(?=\s|$)", french), (
            f"{french!r}: French puts a no-break space (U+00A0) before : ; ! ?")
        assert "'" not in french, f"{french!r}: write the apostrophe as ’"
        assert '"' not in french, f"{french!r}: quote with « » (no-break spaces inside)"


@pytest.mark.parametrize(("card", "en", "fr"), [
    ("Kh", "K♥", "R♥"), ("Qs", "Q♠", "D♠"), ("Jd", "J♦", "V♦"), ("Tc", "10♣", "10♣"),
    ("Ah", "A♥", "A♥"), ("7s", "7♠", "7♠"), ("X", "🃏", "🃏"),
])
def test_card_labels_use_the_letters_players_write(card: str, en: str, fr: str) -> None:
    assert card_label(Card.parse(card), translator("en")) == en
    assert card_label(Card.parse(card), translator("fr")) == fr


def test_terminal_card_faces_use_the_french_court_letters() -> None:
    assert face_lines(Card.parse("Qd"), _=translator("fr")) == ["D    ", "    ♦"]
    assert face_lines(Card.parse("Jc"), big=True, _=translator("fr")) == ["V      ", "   ♣   ", "      V"]
    assert face_lines(Card.parse("Qd"), _=translator("en")) == ["Q    ", "    ♦"]
    assert face_lines(Card.parse("Th"), _=translator("fr")) == ["10   ", "    ♥"]


def test_narration_shows_cards_as_each_language_writes_them() -> None:
    game = stacked("classic", ["Jd 5s 6s", "Kd 8c 3c"], "9d", overrides=["hand_size=3"])
    names = ["Ana", "Bob"]
    fr, en = translator("fr"), translator("en")
    said = []
    for text in ("Kd", "Jd", "8c=h"):
        step = game.apply(Action.parse(text))
        said.append((describe_move(game, names, step, fr), describe_move(game, names, step, en)))
    assert said == [("Bob joue R♦", "Bob plays K♦"), ("Ana joue V♦", "Ana plays J♦"),
                    ("Bob joue 8♣ et demande ♥", "Bob plays 8♣ and names ♥")]
    assert table_words(game, names, fr)[:2] == ["Carte du dessus\u00a0: 8♣ (huit de trèfle)",
                                                 "Couleur demandée\u00a0: ♥"]
    assert action_words(Action.parse("Qh=s!"), fr) == (
        "D♥, demande ♠, en annonçant sa dernière carte")
    assert action_words(Action.parse("Qh=s!"), en) == "Q♥, naming ♠ and announce the last card"


def test_round_summary_counts_french_cards_with_french_letters() -> None:
    game = stacked("classic", ["Kd Qh", "Qd Ks"], "9d", overrides=["hand_size=2"])
    for text in ("Qd", "Kd", "Ks"):
        game.apply(Action.parse(text))
    assert game.over
    lines = round_summary(game, ["Ana", "Bob"], translator("fr"))
    assert lines[0] == "Fin de la manche 1\u00a0: Bob n’a plus de cartes."
    assert lines[1].startswith("Ana\u00a0: D♥ 10 = 10 · manche")
    assert round_summary(game, ["Ana", "Bob"], translator("en"))[1].startswith("Ana: Q♥ 10 = 10")


@pytest.mark.parametrize(("typed", "action"), [
    ("Qh", "Qh"), ("Dh", "Qh"), ("v♦", "Jd"), ("R♠", "Ks"), ("dh=s!", "Qh=s!"), ("10♣", "Tc"),
    ("pioche", "draw"), ("Passer", "pass"), ("prendre", "take"), ("draw", "draw"),
    ("Dt", "Qc"), ("8c=t", "8h=c"), ("8k=p", "8d=s"), ("Tt", "Tc"), ("=p", "=s"),
])
def test_french_players_may_type_the_letters_they_read(typed: str, action: str) -> None:
    """French courts R D V and suits t k c p (c is cœur); d h s and the symbols too."""
    assert str(read_action(typed, translator("fr"))) == action


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_action_reads_back_as_its_language_writes_it(lang: str) -> None:
    _ = translator(lang)
    for text in ("Qc", "Td", "8h=s", "5c!", "Jh+Js=d!", "X", "=h", "draw", "pass", "take"):
        action = Action.parse(text)
        assert read_action(action_code(action, _), _) == action, action_code(action, _)


def test_english_input_is_the_canonical_notation_only() -> None:
    assert str(read_action("Qh", translator("en"))) == "Qh"
    with pytest.raises(NotationError, match="malformed action 'Dh'"):
        read_action("Dh", translator("en"))
    with pytest.raises(NotationError, match="malformed action 'Dz'"):
        read_action("Dz", translator("fr"))  # the error names what was typed


def test_suit_keys_in_french_with_the_english_ones_where_free() -> None:
    fr, en = translator("fr"), translator("en")
    assert [suit_key(s, fr) for s in Suit] == ["t", "k", "c", "p"]
    assert [suit_key(s, en) for s in Suit] == ["c", "d", "h", "s"]
    keys = suit_keys(fr)
    assert {k: keys[k] for k in "tkcpdhs"} == {
        "t": Suit.CLUBS, "k": Suit.DIAMONDS, "c": Suit.HEARTS, "p": Suit.SPADES,
        "d": Suit.DIAMONDS, "h": Suit.HEARTS, "s": Suit.SPADES}
    assert keys["♣"] is Suit.CLUBS
    assert suit_keys(en)["c"] is Suit.CLUBS and "t" not in suit_keys(en)


def test_french_catalog_defines_each_message_once() -> None:
    """A message written twice (two branches adding the same words) is read as one by babel,
    the later translation silently winning: ``msgfmt --check`` calls it a fatal error."""
    path = SRC / "locale" / "fr" / "LC_MESSAGES" / "eights.po"
    seen: dict[tuple[str, str], int] = {}
    context = ""
    lines = path.read_text("utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        if line.startswith("msgctxt "):
            context = line
        elif line.startswith("msgid ") and line != 'msgid ""':
            key = (context, line)
            assert key not in seen, f"{line} (line {number}) is defined again (first at line {seen[key]})"
            seen[key] = number
            context = ""
        elif line.startswith('msgid ""'):
            # a message on several lines: its key is the lines that follow it
            following = []
            for more in lines[number:]:
                if not more.startswith('"'):
                    break
                following.append(more)
            if following:
                key = (context, "\n".join(following))
                assert key not in seen, f"the message at line {number} is defined again (first " \
                                        f"at line {seen[key]})"
                seen[key] = number
            context = ""
    assert len(seen) > 200
