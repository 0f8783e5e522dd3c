"""The session: seats and names, bot turns, undo, autosave and resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from eights import IllegalActionError, RecordError
from eights.session import Session


def play_until_human(session: Session) -> None:
    while session.bot_to_play:
        session.bot_move()


def test_seats_names_and_first_player(tmp_path: Path) -> None:
    s = Session.start("les-huit", 4, bots=["random", "greedy"], humans=2, names=["Ana"],
                      seed=1, save_dir=tmp_path, lang="fr")
    assert s.names == ["Ana", "Joueur 2", "Robot 1", "Robot 2"]
    assert [seat.player for seat in s.seats] == ["human", "human", "random", "greedy"]
    assert s.game.to_play == 0 and s.human_to_play
    assert s.path is not None and s.path.exists()
    with pytest.raises(IllegalActionError):
        s.bot_move()


def test_undo_takes_back_the_move_and_the_bot_replies(tmp_path: Path) -> None:
    s = Session.start("huit-americain", 3, bots=["greedy"], seed=7, save_dir=tmp_path)
    before = s.game.to_json()
    assert not s.can_undo
    s.play(s.legal()[0])
    play_until_human(s)
    assert s.can_undo
    assert s.undo()
    assert s.game.to_json() == before
    saved = json.loads(s.path.read_text("utf-8")) if s.path else {}
    assert saved["rounds"][0]["actions"] == []
    # the same move again gives the same bot replies (the bots' generator was restored)
    s.play(s.legal()[0])
    play_until_human(s)
    first = s.game.to_json()
    s.undo()
    s.play(s.legal()[0])
    play_until_human(s)
    assert s.game.to_json() == first


def test_no_undo_between_two_people(tmp_path: Path) -> None:
    s = Session.start("classic", 2, humans=2, seed=2, save_dir=tmp_path)
    s.play(s.legal()[0])
    assert not s.can_undo and not s.undo()


def test_every_action_is_saved_and_resume_continues_exactly(tmp_path: Path) -> None:
    s = Session.start("classic", 4, bots=["greedy", "random"], seed=11, save_dir=tmp_path)
    for _ in range(6):
        s.play(s.legal()[0])
        play_until_human(s)
    assert s.path is not None
    again = Session.resume(s.path)
    assert again.game.to_json() == s.game.to_json()
    assert again.names == s.names and [x.player for x in again.seats] == [
        x.player for x in s.seats]


def test_resume_refuses_a_record_without_seats(tmp_path: Path) -> None:
    s = Session.start("classic", 2, seed=3, save_dir=tmp_path)
    assert s.path is not None
    data = json.loads(s.path.read_text("utf-8"))
    data["meta"] = {}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), "utf-8")
    with pytest.raises(RecordError, match=r"meta\.seats"):
        Session.resume(bad)


def test_forget_save_removes_the_file(tmp_path: Path) -> None:
    s = Session.start("classic", 2, seed=3, save_dir=tmp_path)
    assert s.path is not None and s.path.exists()
    s.forget_save()
    assert not s.path.exists()


def test_bad_seating_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot sit at a table of 3"):
        Session.start("classic", 3, humans=4, save_dir=None)
    with pytest.raises(ValueError, match="unknown bot"):
        Session.start("classic", 3, bots=["nobody"], save_dir=None)
