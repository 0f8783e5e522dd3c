"""``eights play --plain`` driven as a subprocess: a whole round, bad input, end of input."""

from __future__ import annotations

import json
import os
import re
import selectors
import subprocess
import sys
import time
from pathlib import Path

import pytest

EIGHTS = [sys.executable, "-m", "eights.cli"]


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
    assert (driver.read_until_prompt() or "").startswith("4c is not allowed now. Legal: ")
    driver.send("p")  # pass is not allowed before drawing: the message says how to draw
    assert (driver.read_until_prompt() or "").startswith(
        "p (pass) is not allowed now; to draw, type d.")
    driver.send("7s!")  # classic has no announcement
    assert "You don’t hold 7s" in (driver.read_until_prompt() or "")
    driver.send("9d!")
    assert (driver.read_until_prompt() or "").startswith(
        "These rules have no last-card announcement: play 9d without “!”.")
    assert driver.close() == 0
    assert "Resume it with: eights play --resume" in driver.output


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
