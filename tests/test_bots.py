"""Bots: legal in every preset, greedy plays as documented, and a bot sees only its observation."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Literal

import pytest

from eights import Action, Game, Observation, Rules, load_rules, preset_names
from eights.bots import BOTS, Bot, GreedyBot, ISMCTSBot, RandomBot, make_bot, parse_bot_spec
from eights.session import Session
from stacked import stacked


@pytest.mark.parametrize("name", preset_names())
@pytest.mark.parametrize("bot", ["greedy", "random", "expert", "ismcts:iterations=8"])
def test_every_bot_plays_legal_actions_in_every_preset(name: str, bot: str) -> None:
    rules = load_rules(name)
    for n in range(rules.players[0], min(rules.players[1], 5) + 1):
        player = make_bot(bot)
        game = Game(rules, n, seed=n)
        rng = random.Random(n)
        for _ in range(3):
            while not game.over:
                seat = game.to_move
                legal = game.legal_actions()
                choice = player.choose(game.observe(seat), legal, rng)
                assert choice in legal
                game.apply(choice)
            if game.match_over:
                break
            game.next_round()


AWKWARD: dict[str, Callable[[Game], bool]] = {
    "pending stack (HF3, HA6)": lambda g: g.pending > 0 and any(
        a.card is not None for a in g.legal_actions()),
    "the 10 plays again (HA11)": lambda g: g.again,
    "LH5 take or pass": lambda g: g.replace,
    "last-card announcement (HA13)": lambda g: any(a.announce for a in g.legal_actions()),
    "teams (LH, 4 players)": lambda g: g.teams,
}


@pytest.mark.parametrize("bot", ["greedy", "random", "expert", "ismcts:iterations=30"])
def test_every_bot_is_legal_at_the_awkward_moments(bot: str) -> None:
    found: dict[str, int] = dict.fromkeys(AWKWARD, 0)
    player = make_bot(bot)
    rng = random.Random(3)
    for name, n in [("huit-fou", 3), ("huit-americain", 3), ("les-huit", 4), ("les-huit", 2)]:
        for seed in range(6):
            game = Game(name, n, seed=seed)
            while not game.over:
                legal = game.legal_actions()
                moments = [m for m, test in AWKWARD.items() if test(game)]
                if moments and len(legal) > 1 and found[moments[0]] < 6:
                    choice = player.choose(game.observe(game.to_move), legal, rng)
                    assert choice in legal, (name, moments, choice, legal)
                    for m in moments:
                        found[m] += 1
                game.apply(rng.choice(legal))
    assert all(found.values()), found  # every kind of moment was met


class SpyBot:
    """Records what it is given, then plays like greedy."""

    name = "spy"

    def __init__(self) -> None:
        self.seen: list[tuple[object, tuple[Action, ...]]] = []

    def choose(self, observation: Observation, legal: Sequence[Action],
               rng: random.Random) -> Action:
        self.seen.append((observation, tuple(legal)))
        return GreedyBot().choose(observation, legal, rng)


def reachable_types(value: object, depth: int = 0) -> set[type]:
    """Types reachable through an observation's fields and containers."""
    found: set[type] = {type(value)}
    if depth > 6:
        return found
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if not isinstance(value, Rules):
                found |= reachable_types(getattr(value, f.name), depth + 1)
    elif isinstance(value, (tuple, list)):
        for item in value:
            found |= reachable_types(item, depth + 1)
    return found


def test_a_bot_receives_only_its_observation() -> None:
    session = Session.start("huit-americain", 3, bots=["greedy"], humans=1, seed=5,
                            save_dir=None)
    spy = SpyBot()
    session.seats[1].bot = spy
    for _ in range(400):
        if session.game.over:
            break
        if session.human_to_play:
            session.play(session.legal()[0])
        else:
            seat = session.game.to_move
            expected = session.game.observe(seat)
            before = len(spy.seen)
            session.bot_move()
            if seat == 1:
                assert len(spy.seen) == before + 1
                observation, legal = spy.seen[-1]
                assert observation == expected
    assert spy.seen
    for observation, legal in spy.seen:
        assert type(observation) is Observation
        assert Game not in reachable_types(observation)
        assert observation.revealed is None or observation.round_over
        assert set(legal) == set(observation.legal)  # nothing beyond what it may know


def test_greedy_sheds_the_costliest_card_and_keeps_its_eight() -> None:
    g = stacked("huit-americain", ["Kh 3h 8s Qc", "2c 4d 5d 9c"], "5h", dealer=1,
                overrides=["hand_size=4"])
    choice = GreedyBot().choose(g.observe(0), g.legal_actions(), random.Random(0))
    assert str(choice) == "Kh"


def test_greedy_plays_an_eight_only_when_nothing_else_and_names_its_longest_suit() -> None:
    g = stacked("classic", ["8s 3c 5c 9h", "2c 4d 5d 9c"], "Kd", overrides=["hand_size=4"])
    choice = GreedyBot().choose(g.observe(1), g.legal_actions(), random.Random(0))
    assert g.to_play == 1 and str(choice) in {"4d", "5d"}
    g = stacked("classic", ["2d 4d 5d 7d", "8s 3c 5c 9h"], "Kh", overrides=["hand_size=4"])
    assert g.to_play == 1
    assert str(GreedyBot().choose(g.observe(1), g.legal_actions(), random.Random(0))) == "9h"
    g = stacked("classic", ["2d 4d 5d 7d", "8s 3c 5c 9d"], "Kh", overrides=["hand_size=4"])
    assert str(GreedyBot().choose(g.observe(1), g.legal_actions(), random.Random(0))) == "8s=c"


def test_greedy_answers_a_forced_draw_and_announces_its_last_card() -> None:
    g = stacked("huit-fou", ["2h 9c", "2s Kd"], "7h", dealer=1, overrides=["hand_size=2"])
    g.apply("2h")
    assert [str(a) for a in g.legal_actions()] == ["2s", "draw"]
    assert str(GreedyBot().choose(g.observe(1), g.legal_actions(), random.Random(0))) == "2s"
    g = stacked("huit-americain", ["4h 9h", "3c Kd"], "5h", dealer=1, overrides=["hand_size=2"])
    assert str(GreedyBot().choose(g.observe(0), g.legal_actions(), random.Random(0))) == "9h!"


def test_greedy_declines_the_les_huit_extra_card() -> None:
    g = stacked("les-huit", ["4h 9h 3s", "3c Kd 5s"], "5h", dealer=1, overrides=["hand_size=3"])
    g.apply(GreedyBot().choose(g.observe(0), g.legal_actions(), random.Random(0)))
    assert [str(a) for a in g.legal_actions()] == ["take", "pass"]
    assert str(GreedyBot().choose(g.observe(0), g.legal_actions(), random.Random(0))) == "pass"


def test_bot_specs() -> None:
    assert parse_bot_spec("Greedy") == ("greedy", {})
    assert parse_bot_spec("x:n=3:t=0.5:mode=fast") == ("x", {"n": 3, "t": 0.5, "mode": "fast"})
    assert isinstance(make_bot("random"), RandomBot)
    with pytest.raises(ValueError,
                       match="unknown bot 'clever'; bots are expert, greedy, ismcts, learned, random"):
        make_bot("clever")
    with pytest.raises(ValueError, match="rollout must be expert or greedy or random, not 'smart'"):
        make_bot("ismcts:rollout=smart")
    with pytest.raises(ValueError, match="tree must be own or all or none, not 'mind-reading'"):
        make_bot("ismcts:tree=mind-reading")
    with pytest.raises(ValueError, match="prior must be expert or learned or none"):
        make_bot("ismcts:prior=oracle")
    with pytest.raises(ValueError, match="epsilon must be between 0 and 1, not 2"):
        make_bot("ismcts:epsilon=2")
    with pytest.raises(ValueError, match="z must be 0 or more, not -1"):
        make_bot("ismcts:z=-1")
    with pytest.raises(ValueError, match="infer must be model or rules or none, not 'all'"):
        make_bot("ismcts:infer=all")
    with pytest.raises(ValueError, match="see must be worlds or all, not 'cards'"):
        make_bot("ismcts:see=cards")
    with pytest.raises(ValueError, match="epsilon is the share of random moves in greedy"):
        make_bot("ismcts:epsilon=0.1")
    with pytest.raises(ValueError, match="rollout=expert plays in the compiled search or on"):
        make_bot("ismcts:kernel=rollout")
    with pytest.raises(ValueError, match="expert block must be 0 or more, not -1"):
        make_bot("expert:block=-1")
    with pytest.raises(ValueError, match="is not key=value"):
        make_bot("greedy:fast")


@pytest.mark.parametrize(("spec", "message"), [
    ("expert:depth=2", "bot 'expert' has no option 'depth'; its options are block, follow, points, "
                       "reserve, suit"),
    ("greedy:depth=3", "bot 'greedy' has no option 'depth'; it takes no options"),
    ("ismcts:iterations=abc", "bot 'ismcts': option iterations must be a whole number, not 'abc'"),
    ("ismcts:iterations=2.5", "bot 'ismcts': option iterations must be a whole number, not '2.5'"),
    ("ismcts:time=soon", "bot 'ismcts': option time must be a number, not 'soon'"),
    ("expert:block=", "bot 'expert': option block must be a number, not ''"),
    ("ismcts:time=1:time=2", "bot 'ismcts': option time is given twice"),
])
def test_bot_spec_errors_name_the_option_the_value_and_what_is_allowed(spec: str, message: str) -> None:
    with pytest.raises(ValueError) as caught:
        make_bot(spec)
    assert str(caught.value).startswith(message), str(caught.value)


def test_bot_spec_values_take_the_declared_types() -> None:
    name, options = parse_bot_spec("ismcts:iterations=10:time=1:c=0.5:seed=7:rollout=random")
    assert (name, options) == ("ismcts", {"iterations": 10, "time": 1, "c": 0.5, "seed": 7,
                                          "rollout": "random"})
    assert [type(options[k]) for k in ("iterations", "c", "rollout")] == [int, float, str]
    bot = make_bot("ismcts:iterations=10:c=0.5:rollout=random")
    assert isinstance(bot, ISMCTSBot)
    assert (bot.iterations, bot.c, bot.rollout) == (10, 0.5, "random")
    # a number where the bot wants a word stays the word it was written as
    with pytest.raises(ValueError, match="rollout must be expert or greedy or random, not '3'"):
        make_bot("ismcts:rollout=3")


def test_bot_options_follow_a_registered_factorys_signature(monkeypatch: pytest.MonkeyPatch) -> None:
    def picky(depth: int = 2, style: Literal["calm", "wild"] = "calm", loud: bool = False) -> Bot:
        return GreedyBot()

    monkeypatch.setitem(BOTS, "picky", picky)
    assert parse_bot_spec("picky:depth=3:style=wild:loud=yes") == (
        "picky", {"depth": 3, "style": "wild", "loud": True})
    with pytest.raises(ValueError, match="option style must be calm or wild, not 'odd'"):
        make_bot("picky:style=odd")
    with pytest.raises(ValueError, match="option loud must be true or false, not 'maybe'"):
        make_bot("picky:loud=maybe")
    with pytest.raises(ValueError, match="has no option 'width'; its options are depth, loud, style"):
        make_bot("picky:width=1")
