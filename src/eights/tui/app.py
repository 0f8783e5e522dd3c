"""Placeholder: the Textual app is being written (see eights.tui)."""

from __future__ import annotations

from eights.i18n import Translator
from eights.session import Session


class EightsApp:
    def __init__(self, session: Session, _: Translator, speed: str = "normal") -> None:
        self.session = session

    def run(self) -> None:
        raise NotImplementedError
