"""The session: seats and names, bot turns, undo, autosave and resume."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from eights import IllegalActionError, RecordError
from eights.engine.actions import DRAW
from eights.i18n import translator
from eights.session import Session, count_words
from stacked import stacked


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


def test_resume_rebuilds_the_undo_stack_of_the_round(tmp_path: Path) -> None:
    s = Session.start("huit-americain", 3, bots=["greedy"], seed=7, save_dir=tmp_path)
    before: list[dict[str, Any]] = []
    for _ in range(4):
        if s.game.over:
            break
        before.append(s.game.to_json())
        s.play(s.legal()[0])
        play_until_human(s)
    assert s.path is not None and s.game.round == 1
    again = Session.resume(s.path)
    assert again.can_undo and again.undo_depth == len(before)
    for state in reversed(before):  # each of the person's moves, back to the deal
        assert again.undo()
        assert again.game.to_json() == state
        assert Session.resume(s.path).game.to_json() == state  # the save follows
    assert not again.can_undo
    # after an undo, the bots answer as a game resumed at that point would
    there = Session.resume(s.path)
    there.path = None
    for session in (again, there):
        session.play(session.legal()[-1])
        play_until_human(session)
    assert there.game.to_json() == again.game.to_json()


def test_the_story_tells_the_match_as_the_log_told_it(tmp_path: Path) -> None:
    s = Session.start("huit-fou", 3, bots=["greedy", "random"], seed=5, save_dir=tmp_path)
    _ = translator("en")
    told = [_("Round {n}: {dealer} deals.", n=1, dealer=s.names[s.game.dealer])]
    mine: list[int] = []
    for _turn in range(5):
        if s.game.over:
            break
        mine.append(len(told))
        told.append(s.describe(s.play(s.legal()[0]), _))
        while s.bot_to_play:
            told.append(s.describe(s.bot_move(), _))
    assert s.path is not None
    story = Session.resume(s.path).story(_)
    assert [line.text for line in story] == told
    assert [k for k, line in enumerate(story) if line.undoable] == mine
    assert all(line.text.startswith("You ") for line in story if line.undoable)
    assert not any(line.text.startswith("Player ") for line in story)


def test_a_person_against_bots_is_you_in_the_log(tmp_path: Path) -> None:
    s = Session.start("classic", 2, bots=["greedy"], seed=1, save_dir=None)
    _ = translator("en")
    hand = s.game.hand(0)
    step = s.play("draw")
    [card] = [c for c in s.game.hand(0) if c not in hand]
    assert s.describe(step, _) == f"You draw {card.pretty()}"
    assert Session.start("classic", 2, humans=2, seed=1, save_dir=None).you is None
    two = Session.start("classic", 2, humans=2, seed=1, save_dir=None)
    assert two.describe(two.play("draw"), _) == "Player 1 draws 1 card"


@pytest.mark.parametrize("you", [0, 1])
def test_overflow_points_and_reshuffles_are_told(you: int) -> None:
    """HF9 with a hand limit of 3: the forced draw overflows back to the attacker as points."""
    from eights.bots import RandomBot
    from eights.engine.actions import Action
    from eights.session import Seat
    from stacked import stacked

    game = stacked("huit-fou", ["5c 7c 3d", "4h 9c 7s"], "9h", "5h",
                   overrides=["hand_size=3", "hand_limit=3"])
    attacker = game.to_play
    assert attacker is not None
    seats = [Seat("Ana"), Seat("Ben")]
    seats[1 - you] = Seat(seats[1 - you].name, "random", RandomBot())
    s = Session(game, seats, path=None, bot_seed="0")
    _ = translator("en")
    told = []
    for text in ("4h", "draw"):
        action = Action.parse(text)
        step = s.play(action) if s.human_to_play else s.bot_play(s.bot_turn(), action)
        told.append(s.describe(step, _))
    if you == attacker:
        assert told == ["You play 4♥ — Ana must draw 4",
                        "Ana draws 0 cards — you take 5♥ back — "
                        "you score 3 penalty points (overflow)"]
    else:
        assert told == ["Ben plays 4♥ — you must draw 4",
                        "You draw no card — Ben takes 1 card back — "
                        "Ben scores 3 penalty points (overflow)"]


def test_a_reshuffle_is_told() -> None:
    s = Session.start("classic", 2, bots=["random"], seed=5, save_dir=None)
    _ = translator("en")
    told: list[str] = []
    while not any("shuffled into a new stock" in line for line in told):
        assert not s.game.over and len(told) < 500
        if s.bot_to_play:
            step = s.bot_move()
        else:  # the person draws whenever allowed: the stock runs out
            legal = s.legal()
            step = s.play(DRAW if DRAW in legal else legal[0])
        told.append(s.describe(step, _))
    assert told[-1].endswith("the discard pile is shuffled into a new stock")


def test_count_words_tells_a_seat_out_by_its_place() -> None:
    """TS11: under play_on a seat out of the round is told by its place, the others by
    their cards."""
    game = stacked("tschau-sepp", ["6h 9h", "Qc Kd", "Qd Kc"], "9s", "Qs Ks", dealer=2,
                   overrides=["hand_size=2"])
    for action in ("9h!", "draw", "draw", "6h!"):
        game.apply(action)
    obs = game.observe(1)
    assert obs.finished == (0,)
    words = [count_words(obs, s, translator("en")) for s in range(3)]
    assert words == ["Out: place 1", "3 cards", "3 cards"]
    assert count_words(obs, 0, translator("fr")) == "Sorti\u00a0: place 1"


def test_a_french_save_resumed_in_english_renames_the_seats_named_by_default(
        tmp_path: Path) -> None:
    """Issue 35: "Robot 1" of a French game is "Bot 1" in English; a chosen name stays."""
    session = Session.start("classic", 4, bots=["greedy"], humans=2, names=["Ana"], seed=3,
                            save_dir=tmp_path, lang="fr")
    assert session.names == ["Ana", "Joueur 2", "Robot 1", "Robot 2"]
    assert session.path is not None
    assert Session.resume(session.path, "en").names == ["Ana", "Player 2", "Bot 1", "Bot 2"]
    assert Session.resume(session.path).names == session.names  # no language: as saved
    assert session.resume_command() == f"eights play --resume {session.path}"
