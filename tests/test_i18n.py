"""Message catalogs: every player-facing string has a French translation that formats."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir

import eights
from eights import Card, load_rules, preset_names
from eights.i18n import detect_language, translator
from eights.i18n.explain import describe
from eights.i18n.text import card_words

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
    assert "Joueurs :" in text and "Décompte" in text
    # no English sentence left over (the title and source are data, not text)
    body = "\n".join(lines[2:])
    assert not re.search(r"\b(the|player|cards|round)\b", body), body
