"""Message catalogs: every string a player sees, in English and French.

English strings are the message ids; ``locale/fr/LC_MESSAGES/eights.po`` is
the French catalog, read with babel. Code that talks to players takes a
:class:`Translator` named ``_`` so babel's extractor finds the strings:

>>> _ = translator("fr")
>>> _("{name} plays {card}", name="Ana", card="7♥")
'Ana joue 7♥'
>>> _.plural("{n} card", "{n} cards", 3)
'3 cartes'

The French catalog keeps one voice, checked by ``tests/test_i18n.py``: a
no-break space (U+00A0) before ``: ; ! ?`` and inside ``« »``, the apostrophe
``’``; the stock is « la pioche », the discard pile « la défausse », a round
« une manche », a match « une partie »; a wild card « demande » a suit, and
« annoncer » is only the last-card call; court cards read ``R D V`` (see
:func:`eights.i18n.text.card_label`) while typed actions stay ``Kh Qh Jh``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["LANGUAGES", "Translator", "detect_language", "translator"]

LANGUAGES = ("en", "fr")
"""Languages with a catalog (English is the source language)."""


class Translator:
    """Looks messages up in one language's catalog and formats them."""

    def __init__(self, lang: str, singular: Mapping[str, str],
                 plural: Mapping[str, tuple[str, str]]) -> None:
        self.lang = lang
        self._singular = singular
        self._plural = plural

    def __call__(self, message: str, **values: Any) -> str:
        """The translation of ``message``, formatted with ``values``."""
        text = self._singular.get(message) or message
        return text.format(**values) if values else text

    def plural(self, singular: str, plural: str, n: int, **values: Any) -> str:
        """The singular or plural translation for ``n`` (also passed as ``n``)."""
        forms = self._plural.get(singular)
        if self.lang == "fr":
            text = (forms[1] if forms else plural) if n > 1 else (forms[0] if forms else singular)
        else:
            text = singular if n == 1 else plural
        return text.format(n=n, **values)

    def plural_forms(self, singular: str, plural: str) -> tuple[str, str]:
        """Both forms of a plural message, unformatted (for a page that picks one itself)."""
        return self._plural.get(singular, (singular, plural))

    def __repr__(self) -> str:
        return f"translator({self.lang!r})"


def detect_language(environ: Mapping[str, str] | None = None) -> str:
    """``fr`` or ``en`` from the usual locale variables (``LANG=fr_FR.UTF-8`` gives ``fr``)."""
    env = os.environ if environ is None else environ
    for key in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = env.get(key, "")
        if value:
            code = value.split(":")[0].split("_")[0].split(".")[0].lower()
            return code if code in LANGUAGES else "en"
    return "en"


@cache
def translator(lang: str | None = None) -> Translator:
    """The translator for ``lang`` (``en`` or ``fr``; ``None``: from the locale)."""
    code = detect_language() if lang is None else lang.lower()
    if code not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; languages are {', '.join(LANGUAGES)}")
    if code == "en":
        return Translator("en", {}, {})
    from babel.messages.pofile import read_po

    path = resources.files("eights") / "locale" / code / "LC_MESSAGES" / "eights.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=code)
    singular: dict[str, str] = {}
    plural: dict[str, tuple[str, str]] = {}
    for message in catalog:
        if not message.id or message.fuzzy:
            continue
        if isinstance(message.id, tuple):
            forms = message.string
            if isinstance(forms, tuple) and all(forms):
                plural[message.id[0]] = (forms[0], forms[1])
        elif isinstance(message.id, str) and message.string:
            singular[message.id] = str(message.string)
    return Translator(code, singular, plural)
