"""``eights play --plain`` driven as a subprocess: a whole round, bad input, end of input."""

from __future__ import annotations

import io
import json
import os
import re
import selectors
import shlex
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

from eights.bots import make_bot
from eights.engine.actions import DRAW, PASS, Action
from eights.engine.cards import Suit
from eights.i18n import translator
from eights.plain import run_plain
from eights.session import Seat, Session
from stacked import stacked

EIGHTS = [sys.executable, "-m", "eights.cli"]
NB = "\u00a0"


def env_for(tmp_path: Path, lang: str = "en") -> dict[str, str]:
    env = dict(os.environ)
    env["EIGHTS_DATA_DIR"] = str(tmp_path)
    env["LANG"] = "fr_FR.UTF-8" if lang == "fr" else "en_US.UTF-8"
    env.pop("LC_ALL", None)
    env.pop("LANGUAGE", None)
    env["PYTHONIOENCODING"] = "utf-8"
    return env


class Driver:
    """Talks to a running ``eights play --plain`` like a person at a terminal."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen([*EIGHTS, "play", "--plain", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        assert self.proc.stdout is not None
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.proc.stdout, selectors.EVENT_READ)
        self.output = ""

    def read_until_prompt(self, timeout: float = 30.0) -> str | None:
        """Everything up to the next question; ``None`` when the program ended."""
        assert self.proc.stdout is not None
        start = len(self.output)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            tail = self.output[start:]
            if tail.endswith("> ") or tail.endswith("round. "):
                return tail
            if not self.selector.select(timeout=0.5):
                continue
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.output += chunk.decode("utf-8")
        raise AssertionError("no prompt within the time limit:\n" + self.output[-2000:])

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((line + "\n").encode("utf-8"))
        self.proc.stdin.flush()

    def close(self) -> int:
        assert self.proc.stdin is not None
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self.proc.stdin.close()
        self.output += self.proc.stdout.read().decode("utf-8")
        err = self.proc.stderr.read().decode("utf-8")
        code = self.proc.wait(timeout=30)
        assert not err, err
        return code


@pytest.mark.parametrize("rules", ["huit-americain", "les-huit"])
def test_a_whole_round_in_plain_lines(tmp_path: Path, rules: str) -> None:
    driver = Driver(["-r", rules, "-n", "3", "--seed", "12", "--bots", "greedy,random"],
                    env_for(tmp_path))
    turns = 0
    while True:
        screen = driver.read_until_prompt()
        assert screen is not None, driver.output[-2000:]
        if screen.endswith("round. "):
            break
        legal = [line for line in screen.splitlines() if line.startswith("Legal: ")][-1]
        actions = legal.removeprefix("Legal: ").split()
        driver.send(actions[0])
        turns += 1
        assert turns < 500
    assert "Round 1 is over" in driver.output
    assert "total" in driver.output
    assert driver.close() == 0  # end of input at the next-round question: saved, clean exit
    saved = list(tmp_path.glob("*.json"))
    assert len(saved) == 1
    record = json.loads(saved[0].read_text("utf-8"))
    assert record["format"] == "eights-record/1"
    assert [s["player"] for s in record["meta"]["seats"]] == ["human", "greedy", "random"]
    assert f"Game saved: {saved[0]}" in driver.output


def test_malformed_and_illegal_input_are_explained_and_asked_again(tmp_path: Path) -> None:
    driver = Driver(["--seed", "3", "-n", "3"], env_for(tmp_path))
    screen = driver.read_until_prompt()
    assert screen is not None
    driver.send("nonsense")
    again = driver.read_until_prompt()
    assert again is not None
    assert again.startswith("“nonsense” is not an action. Legal: ")
    driver.send("Qz")
    assert (driver.read_until_prompt() or "").startswith("“Qz” is not an action")
    driver.send("7h")  # well formed, not in this hand
    assert (driver.read_until_prompt() or "").startswith("You don’t hold 7h. Legal: ")
    driver.send("4c")  # in this hand, but it does not follow A♦
    assert (driver.read_until_prompt() or "").startswith(
        "4♣ matches neither the suit nor the rank of the up-card, A♦. Legal: ")
    driver.send("p")  # pass is not allowed before drawing: the message says how to draw
    assert (driver.read_until_prompt() or "").startswith(
        "p (pass) is not allowed now; to draw, type d.")
    driver.send("7s!")  # classic has no announcement
    assert "You don’t hold 7s" in (driver.read_until_prompt() or "")
    driver.send("9d!")
    assert (driver.read_until_prompt() or "").startswith(
        "These rules have no last-card announcement: play 9d without “!”.")
    assert driver.close() == 0
    # the command as it was typed here (python -m eights.cli), not an eights off the PATH
    assert f"Resume it with: {shlex.quote(sys.executable)} -m eights.cli play --resume " in \
        driver.output


def test_end_of_input_saves_and_exits_cleanly_and_resume_continues(tmp_path: Path) -> None:
    first = subprocess.run([*EIGHTS, "play", "--plain", "--seed", "8", "-n", "2"], input=b"draw\n",
                           capture_output=True, env=env_for(tmp_path), timeout=60)
    assert first.returncode == 0, first.stderr
    [saved] = tmp_path.glob("*.json")
    text = first.stdout.decode("utf-8")
    assert f"Game saved: {saved}" in text
    record = json.loads(saved.read_text("utf-8"))
    before = sum(len(r["actions"]) for r in record["rounds"])
    second = subprocess.run([*EIGHTS, "play", "--plain", "--resume", str(saved)], input=b"",
                            capture_output=True, env=env_for(tmp_path), timeout=60)
    assert second.returncode == 0, second.stderr
    resumed = second.stdout.decode("utf-8")
    drew = re.search(r"> (You draw \S+\nBot 1 .*)\n", text)
    assert drew is not None
    assert "Round 1: Bot 1 deals.\n" + drew.group(1) in resumed  # the round so far, again
    after = json.loads(saved.read_text("utf-8"))
    assert sum(len(r["actions"]) for r in after["rounds"]) >= before
    assert after["rounds"][0]["actions"][:before] == record["rounds"][0]["actions"][:before]


def test_french_plain_mode(tmp_path: Path) -> None:
    result = subprocess.run([*EIGHTS, "play", "--plain", "--seed", "3", "-n", "3"], input=b"xx\n",
                            capture_output=True, env=env_for(tmp_path, "fr"), timeout=60)
    text = result.stdout.decode("utf-8")
    assert "votre main" in text and "Coups possibles" in text
    assert "«\u00a0xx\u00a0» n’est pas un coup" in text
    assert "Partie enregistrée" in text


def test_bad_flags_exit_2_with_a_message(tmp_path: Path) -> None:
    for args, message in [(["--lang", "de"], "languages are en, fr"),
                          (["--bots", "clever"], "unknown bot 'clever'"),
                          (["--humans", "9"], "cannot sit at a table of 4"),
                          (["--resume", str(tmp_path / "missing.json")], "cannot read record")]:
        result = subprocess.run([*EIGHTS, "play", "--plain", *args], input=b"",
                                capture_output=True, env=env_for(tmp_path), timeout=60)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert message in result.stderr.decode("utf-8"), (args, result.stderr)


def hand_and_legal(screen: str) -> tuple[list[str], list[str]]:
    hand = [line for line in screen.splitlines() if ", your hand: " in line][-1]
    legal = [line for line in screen.splitlines() if line.startswith("Legal: ")][-1]
    return hand.split(": ", 1)[1].split(), legal.removeprefix("Legal: ").split()


def test_keys_of_the_full_screen_and_a_wild_card_without_its_suit(tmp_path: Path) -> None:
    driver = Driver(["--seed", "3", "-n", "3"], env_for(tmp_path))  # classic: 8d in hand
    screen = driver.read_until_prompt()
    assert screen is not None and "8d=h" in hand_and_legal(screen)[1]
    driver.send("8d")  # a wild card without its suit: the suit is asked
    question = driver.read_until_prompt()
    assert question is not None and question.endswith(
        "8♦ names a suit: which one? (c=♣ d=♦ h=♥ s=♠, Enter: back)\n> ")
    driver.send("x")
    assert (driver.read_until_prompt() or "").startswith("“x” is not a suit you may name")
    driver.send("")  # back to the choice of a card: nothing was played
    assert (driver.read_until_prompt() or "").endswith("> ")
    driver.send("8d")
    driver.read_until_prompt()
    driver.send("h")
    after = driver.read_until_prompt()
    assert after is not None and after.startswith("You play 8♦ and name ♥")
    _hand, legal = hand_and_legal(after)
    assert "draw" in legal
    driver.send("d")  # d draws, as on the full screen, and names the card drawn
    drawn = driver.read_until_prompt()
    assert drawn is not None
    assert re.match(r"You draw (10|[2-9AJQK])[♣♦♥♠]\n", drawn), drawn
    assert driver.close() == 0
    record = json.loads(next(tmp_path.glob("*.json")).read_text("utf-8"))
    assert record["rounds"][0]["actions"][0] == "8d=h"
    assert "draw" in record["rounds"][0]["actions"]


def test_an_announcement_that_does_not_apply_says_why(tmp_path: Path) -> None:
    driver = Driver(["-r", "huit-americain", "--seed", "3", "-n", "3"], env_for(tmp_path))
    screen = driver.read_until_prompt()
    assert screen is not None
    hand, legal = hand_and_legal(screen)
    play = next(a for a in legal if a[0].isdigit() or a[0] in "AJQK")
    driver.send(play + "!")  # seven cards: no announcement yet
    assert (driver.read_until_prompt() or "").startswith(
        f"Announce (“!”) only with your last card but one, the play that leaves you one card; "
        f"you hold {len(hand)} cards. Play {play} without “!”.")
    assert driver.close() == 0


def test_french_suit_keys_in_plain_mode(tmp_path: Path) -> None:
    driver = Driver(["--seed", "3", "-n", "3"], env_for(tmp_path, "fr"))
    driver.read_until_prompt()
    driver.send("8d")
    question = driver.read_until_prompt()
    assert question is not None and "(t=♣ k=♦ c=♥ p=♠, Entrée\u00a0: retour)" in question
    driver.send("k")  # k: carreau
    after = driver.read_until_prompt()
    assert after is not None and after.startswith("Vous jouez 8♦ et demandez ♦")
    assert driver.close() == 0


# ---------------------------------------------------------------------- the family, in process


def plain_game(rules: str, hands: Sequence[str], starter: str, draws: str = "", *,
               dealer: int, overrides: Sequence[str] = (), before: Sequence[str] = (),
               lines: Sequence[str] = (), lang: str = "en") -> tuple[str, Session]:
    """``run_plain`` on a stacked deck (tests/stacked.py): the person in seat 0 against
    greedy bots, ``before`` applied first, then ``lines`` typed; returns what was printed."""
    game = stacked(rules, hands, starter, draws, dealer=dealer, overrides=overrides)
    for action in before:
        game.apply(action)
    seats = [Seat("Player")] + [Seat(f"Bot {s}", "greedy", make_bot("greedy"))
                                for s in range(1, len(hands))]
    session = Session(game, seats, path=None, bot_seed="stacked")
    out = io.StringIO()
    typed = io.StringIO("".join(line + "\n" for line in lines))
    assert run_plain(session, translator(lang), typed, out) == 0
    return out.getvalue(), session


def answers(text: str) -> list[str]:
    """The line printed right after each line typed (what the program answered)."""
    return [part.splitlines()[0] for part in text.split("> ")[1:] if part.strip()]


def test_sw3_several_cards_typed_and_refused_plays_explained() -> None:
    """SW3: ``7c+7h+7s`` plays three 7s, 7s on top; a refused multi-card play says why and
    names the legal plays."""
    text, session = plain_game(
        "switch", ["7h 7c 7s Kd 9c", "3c 4c 5c 6c 9d"], "5h", dealer=1,
        overrides=["hand_size=5"],
        lines=["7h+Kd", "7c+7s", "7s+7h", "7h+7h", "=s", "7c+7h+7s"])
    assert ("Several cards of one rank go down as one play, the last one on top: 7h+7s "
            "(Ah+As=d names a suit).") in text
    legal = "7h 7h+7c 7h+7s 7h+7s+7c 7c+7h+7s draw"
    assert f"Legal: {legal}" in text
    assert answers(text)[:5] == [
        f"The cards of one play must be of one rank: 7h+Kd is not allowed. Legal: {legal}",
        f"None of the cards under the top one can be played on the up-card. Legal: {legal}",
        "7s+7h: a card under the top one must be playable now; with these cards play 7h+7s",
        f"You don’t hold 7h. Legal: {legal}",
        f"=s names a suit only for a wild starter, before the first play. Legal: {legal}",
    ]
    assert session.game.history[0] == (0, Action.parse("7c+7h+7s"))


def test_one_card_at_a_time_where_the_rules_say_so() -> None:
    text, session = plain_game("classic", ["7h 7s Kd 9c Qc", "3c 4c 5c 6c 9d"], "5h", dealer=1,
                               overrides=["hand_size=5"], lines=["7h+7s"])
    assert answers(text)[0].startswith(
        "These rules play one card at a time: 7h+7s is not allowed. Legal: 7h draw")
    assert not session.game.history


def test_sw8_sw9_aces_typed_without_their_suit_ask_for_it() -> None:
    """SW8: ``Ah+As!`` asks the suit for the top ace; SW9: the call stays."""
    text, session = plain_game("switch", ["Ah As Kd", "3c 4c 5c"], "5h", dealer=1,
                               overrides=["hand_size=3"], lines=["Ah+As!", "d"])
    assert "A♠ names a suit: which one? (c=♣ d=♦ h=♥ s=♠, Enter: back)" in text
    assert session.game.history[0] == (0, Action.parse("Ah+As=d!"))


def test_ts3_the_dealer_types_the_suit_of_a_starter_jack() -> None:
    text, session = plain_game("tschau-sepp", ["6c 7d 9h Qs Kc", "6d 9c Td Qh Ks"], "Jh",
                               dealer=0, lines=["6c", "=s"])
    assert "The starter J♥ is wild: name the suit to follow (=c =d =h =s).\n" \
           "Legal: =c =d =h =s\n" in text
    assert answers(text)[0] == ("Name the suit to follow of the wild starter J♥ first. "
                                "Legal: =c =d =h =s")
    assert session.game.history[0] == (0, Action.name(Suit.SPADES))


def test_mm5_a_skip_waiting_is_told_and_accepted() -> None:
    text, session = plain_game(
        "mau-mau", ["8c 9d Tc Qs Ks", "7d 9s Td Jc Ad", "8h 9c Qc Kh Ah"], "9h", dealer=1,
        overrides=["cards.8.pass_on=true"], before=["8h"], lines=["9d", "p"])
    assert ("A skip falls on you: pass it on with another eight, or p to miss your turn.\n"
            "Legal: 8c pass\n") in text
    assert answers(text)[0] == ("A skip falls on you: only another eight passes it on. "
                                "Legal: 8c pass")
    assert session.game.history[1] == (0, PASS)


def test_ts10_ts12_calls_typed_and_the_placings_at_the_end() -> None:
    """TS10: ``9h!`` announces the last card, ``6h!`` calls going out; TS11, TS12: the
    others play on and the summary gives the placings."""
    text, session = plain_game("tschau-sepp", ["6h 9h", "Qc Kd", "Qd Kc"], "9s", "Qs Ks",
                               dealer=2, overrides=["hand_size=2"], lines=["9h!", "6h!"])
    game = session.game
    assert game.over and game.finished[0] == 0
    assert "Round 1 is over: the placings are 1st Player, 2nd " in text
    assert "Out: place 1" not in text  # the person is not asked again once out


def test_mm5_a_skip_without_a_card_to_pass_it_on() -> None:
    text, session = plain_game(
        "mau-mau", ["9d Tc Qs Ks Kd", "7d 9s Td Jc Ad", "8h 9c Qc Kh Ah"], "9h", dealer=1,
        overrides=["cards.8.pass_on=true"], before=["8h"], lines=["p"])
    assert "A skip falls on you: p to miss your turn.\nLegal: pass\n" in text
    assert session.game.history[1] == (0, PASS)


# ---------------------------------------------------------------------- refusals say why


def test_a_card_that_matches_nothing_says_so() -> None:
    """``Tc`` on 5♥: neither its suit nor its rank (CL3), said with the legal actions."""
    text, _session = plain_game("classic", ["Tc 5c Th 9s Qs", "3c 4c 6c 7c 9d"], "5h",
                                dealer=1, overrides=["hand_size=5"], lines=["Tc"])
    assert answers(text)[0] == ("10♣ matches neither the suit nor the rank of the up-card, 5♥. "
                                "Legal: 5c Th draw")


def test_a_suit_named_with_a_card_that_is_not_wild_says_which_cards_name_one() -> None:
    """``Th=s``: the 10 names no suit; only the 8s do (CL3: from the rules, not the preset)."""
    text, _session = plain_game("classic", ["Tc 5c Th 9s Qs", "3c 4c 6c 7c 9d"], "5h",
                                dealer=1, overrides=["hand_size=5"], lines=["Th=s"])
    assert answers(text)[0] == ("10♥ names no suit: it is not wild here; only 8s name a suit. "
                                "Legal: 5c Th draw")
    text, _session = plain_game("mau-mau", ["Tc 9c Th 9s Qs", "7c 8c 9d Kc Ac"], "9h",
                                dealer=1, lines=["Th=s"])
    assert answers(text)[0].startswith(
        "10♥ names no suit: it is not wild here; only jacks name a suit.")


def test_a_suit_that_is_not_one_is_named_and_the_suits_listed() -> None:
    text, session = plain_game("classic", ["8d 5c Th 9s Qs", "3c 4c 6c 7c 9d"], "5h",
                               dealer=1, overrides=["hand_size=5"], lines=["8d=z", "8d=hearts"])
    assert answers(text)[0] == ("“z” is not a suit. Name one with =c =d =h =s, or by its name: "
                                "clubs, diamonds, hearts, spades.")
    assert session.game.history[0] == (0, Action.parse("8d=h"))


def test_suit_names_in_french_and_english_answer_the_suit_question() -> None:
    text, session = plain_game("classic", ["8d 5c Th 9s Qs", "3c 4c 6c 7c 9d"], "5h",
                               dealer=1, overrides=["hand_size=5"], lines=["8d", "cœur"])
    assert "8♦ names a suit: which one?" in text
    assert session.game.history[0] == (0, Action.parse("8d=h"))
    text, session = plain_game("classic", ["8d 5c Th 9s Qs", "3c 4c 6c 7c 9d"], "5h",
                               dealer=1, overrides=["hand_size=5"], lines=["8d", "Spades"])
    assert session.game.history[0] == (0, Action.parse("8d=s"))


def test_a_card_that_does_not_follow_a_named_suit_says_the_suit_and_who_named_it() -> None:
    text, _session = plain_game("classic", ["Tc 5c Th 9s Qs", "3c 8s 6c 7c 9d"], "5h",
                                dealer=0, overrides=["hand_size=5"], lines=["Th"])
    assert answers(text)[0] == ("10♥ matches neither the suit to follow, ♣ (named with 8♠), "
                                "nor the rank eight. Legal: 5c Tc draw")


def test_a_card_that_does_not_answer_a_forced_draw_says_so() -> None:
    """HF7: only a 2 answers a pending 2."""
    text, _session = plain_game("huit-fou", ["2h 5h 9s", "2c 3d 4d"], "5c", dealer=0,
                                overrides=["hand_size=3"], lines=["5h"])
    assert answers(text)[0] == ("5♥ does not answer the forced draw of 2 cards waiting for you. "
                                "Legal: 2h draw")


def test_a_finished_match_is_not_offered_to_resume(tmp_path: Path) -> None:
    """The match is over: the game is saved, and no "Resume it with" follows."""
    game = stacked("classic", ["5c", "9d"], "5h", dealer=1, overrides=["hand_size=1", "target=1"])
    seats = [Seat("Player"), Seat("Bot 1", "greedy", make_bot("greedy"))]
    session = Session(game, seats, path=tmp_path / "done.json", bot_seed="stacked")
    out = io.StringIO()
    assert run_plain(session, translator("en"), io.StringIO("5c\n"), out) == 0
    assert session.game.match_over
    text = out.getvalue()
    assert f"Game saved: {tmp_path / 'done.json'}" in text
    assert "Resume it with" not in text
    unfinished = Session(stacked("classic", ["5c 6c", "9d 9s"], "5h", dealer=1,
                                 overrides=["hand_size=2"]), seats, path=tmp_path / "on.json",
                         bot_seed="stacked")
    out = io.StringIO()
    assert run_plain(unfinished, translator("en"), io.StringIO(""), out) == 0
    assert f"Resume it with: eights play --resume {tmp_path / 'on.json'}" in out.getvalue()


def test_refusals_and_suit_names_in_french() -> None:
    """French codes throughout: the hand, the legal plays and what is typed (t k c p, R D V,
    piocher); the English letters where they do not clash (s, h, d)."""
    text, session = plain_game("classic", ["8d 5c Th 9s Qs", "3c 4c 6c 7c 9d"], "5h",
                               dealer=1, overrides=["hand_size=5"], lang="fr",
                               lines=["9s", "Th=s", "8d=z", "Dt", "8k=cœur"])
    assert f"Player, votre main{NB}: 5t 8k 10c 9p Dp\n" in text
    assert f"Tapez une carte (7c), d pour piocher, p pour passer{NB}; une carte qui change la " \
        f"couleur, tapée seule (8c), fait demander laquelle.\n" in text
    legal = f"Coups possibles{NB}: 5t 8k=t 8k=k 8k=c 8k=p 10c piocher"
    assert answers(text)[:4] == [
        f"9♠ n’est ni de la couleur ni de la valeur de la carte du dessus, 5♥. {legal}",
        f"10♥ ne demande pas de couleur{NB}: elle ne se pose pas sur tout ici{NB}; seuls les "
        f"8 demandent une couleur. {legal}",
        f"«{NB}z{NB}» n’est pas une couleur. Demandez-en une avec =t =k =c =p, ou par son "
        f"nom{NB}: trèfle, carreau, cœur, pique.",
        f"Vous n’avez pas Dt en main. {legal}",
    ]
    assert session.game.history[0] == (0, Action.parse("8d=h"))


def test_french_words_leave_and_take_back() -> None:
    """``quitter`` leaves and ``annuler`` takes back, as ``quit`` and ``undo`` do; ``Dt``
    (dame de trèfle) and ``piocher`` play."""
    text, session = plain_game("classic", ["Qc 5d 9h", "3c 4c 6c"], "Qh", "2s 2d",
                               dealer=1, overrides=["hand_size=3"], lang="fr",
                               lines=["Dt", "annuler", "piocher", "quitter", "5k"])
    assert answers(text) == ["Vous jouez D♣", "Votre dernier coup est repris.",
                             "Vous piochez 2♠"]  # nothing is read after quitter
    assert session.game.history[0] == (0, DRAW)


@pytest.mark.parametrize(("rules", "lang", "line"), [
    ("mau-mau", "en", "Type a card (9h), d to draw, p to pass; a wild card alone (Jh) asks for "
                      "the suit."),
    ("switch", "fr", f"Plusieurs cartes de même valeur se jouent en un coup, la dernière "
                     f"dessus{NB}: 7c+7p (Ac+Ap=k demande une couleur)."),
    ("classic", "en", "Type a card (7h), d to draw, p to pass."),
])
def test_the_examples_are_the_cards_of_these_rules(rules: str, lang: str, line: str) -> None:
    """Issue 35: with jacks wild the help names a jack, not an 8 (and classic's 8s made plain
    name no wild card at all); in French, in French letters."""
    overrides = ["hand_size=3"] + (["cards.8.wild=false", "cards.8.name_suit=false"]
                                   if rules == "classic" else [])
    text, _session = plain_game(rules, ["9c Tc 8d", "Ac Kc Qc"], "9h", dealer=1,
                                overrides=overrides, lang=lang)
    assert line in text.splitlines()
