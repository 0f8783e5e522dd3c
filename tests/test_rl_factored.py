"""Factored actions (eights.rl.factored): a play one card at a time is the engine's whole play.

Every path of factored steps from a decision ends in a legal whole play, and every legal
whole play ends one (walked exhaustively at seeded positions of every preset and of
multi-card rules with one and two decks); the environments apply the whole plays, so a
round played by factored steps replays on the engine from its record; PettingZoo's
api_test and Gymnasium's check_env pass in the factored mode; the batched tables played by
factored steps give the rounds the same tables give played by whole codes."""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pytest
from gymnasium.spaces import Discrete
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from eights import Game, codes, load_rules, preset_names
from eights.engine.actions import Action
from eights.rl import EightsEnv, env, raw_env
from eights.rl.factored import (
    DONE,
    N_TOKENS,
    PLAY_SIZE,
    OnePlay,
    Plays,
    legal_mask,
    sequence,
    sequences,
    token_name,
)

MULTI = [("switch", 4, ()), ("black-jack", 3, ()), ("last-card", 4, ()),
         ("huit-americain", 4, ("multi_play=same-rank", "decks=2", "jokers=2"))]
"""Multi-card rules: one deck (8,487 codes) and two decks with jokers (42,937)."""
CASES = [(name, load_rules(name).default_players, ()) for name in preset_names()] + MULTI
DICT_WARNINGS = ("Observation space for each agent probably should be",
                 "Observation is not a NumPy array")


def finished_one(play: OnePlay) -> set[int]:
    """:func:`finished` walked with the one-table :class:`OnePlay`."""
    out: set[int] = set()
    for token in sorted(play.tokens):
        child = copy.deepcopy(play)
        whole = child.push(token)
        if whole >= 0:
            assert whole not in out, "two paths end in one play"
            out.add(whole)
        else:
            out |= finished_one(child)
    return out


def finished(plays: Plays) -> set[int]:
    """Every whole code a path of legal tokens from ``plays`` ends in (depth first)."""
    out: set[int] = set()
    for token in np.flatnonzero(plays.mask[0]):
        child = plays.copy()
        whole = int(child.push(np.array([token]), np.ones(1, dtype=np.bool_))[0])
        if whole >= 0:
            assert whole not in out, "two paths end in one play"
            out.add(whole)
        else:
            assert child.mask[0].any(), "a path that is not finished has no next step"
            out |= finished(child)
    return out


@pytest.mark.parametrize(("name", "players", "overrides"), CASES)
def test_the_paths_of_a_decision_are_its_legal_plays(name: str, players: int,
                                                     overrides: tuple[str, ...]) -> None:
    rules = load_rules(name, overrides)
    count = codes.action_count(rules, players)
    rng = np.random.default_rng(7)
    seen = multi = 0
    for seed in range(2):
        game = Game(rules, players, seed=seed)
        while not game.over and game.plays < 50:
            legal = {codes.action_code(a) for a in game.legal}
            plays = Plays(1, count)
            plays.start(np.ones(1, dtype=np.bool_), legal_mask(legal, count))
            assert finished(plays) == legal
            one = OnePlay()
            one.start(sorted(legal))
            assert finished_one(one) == legal and one.tokens == set(np.flatnonzero(plays.mask[0]))
            seen += 1
            multi += any(c >= codes.A_MULTI for c in legal)
            game.push(game.legal[int(rng.integers(len(game.legal)))])
    assert seen > 25
    if rules.multi_play.value != "none":
        assert multi > 0, "no decision offered a play of several cards"


def test_a_whole_play_in_steps() -> None:
    def steps(text: str) -> list[str]:
        return [token_name(t) for t in sequence(codes.action_code(Action.parse(text)))]

    assert steps("7h") == ["7h", "done"]
    assert steps("9h+9d=h") == ["9d", "9h", "=h", "done"]
    assert steps("8h=s!") == ["8h", "=s", "done!"]
    assert steps("7c+7s+7h") == ["7h", "7c", "7s", "done"]  # top first, then card order
    assert steps("=d") == ["=d"]
    assert steps("draw") == ["draw"]
    assert sequences(codes.N_SINGLE).shape == (codes.N_SINGLE, 4)
    assert token_name(DONE) == "done"
    with pytest.raises(ValueError, match="0 to 61"):
        token_name(N_TOKENS)


def test_forced_steps_are_taken_and_the_block_shows_the_play() -> None:
    table = raw_env("switch", 2, actions="factored")
    table.reset(seed=3)
    for _ in range(400):
        obs = table.observe(table.agent_selection)
        mask = obs["action_mask"]
        cards = [t for t in np.flatnonzero(mask) if t < 53]
        tops = {sequence(c)[0] for c in table.table.legal if c >= codes.A_MULTI}
        if tops:  # the top card of a play of several cards: more steps to come
            top = min(tops)
            assert top in cards
            table.step(int(top))
            block = table.observe(table.agent_selection)["observation"][-PLAY_SIZE:]
            assert block[top] == 1 and block.sum() == 1  # the top card, nothing under yet
            assert len(table.table.play.tokens) > 1  # forced steps were taken already
            return
        table.step(int(np.flatnonzero(mask)[0]))
    pytest.fail("no multi-card play met")


@pytest.mark.parametrize(("name", "players", "overrides"),
                         [*MULTI[:2], ("huit-americain", 4, ())])
def test_a_round_by_steps_replays_on_the_engine(name: str, players: int,
                                                overrides: tuple[str, ...]) -> None:
    rules = load_rules(name, overrides)

    def play(seed: int, tokens: list[int] | None) -> tuple[list[int], Game]:
        table = raw_env(rules, players, actions="factored")
        table.reset(seed=seed)
        rng = np.random.default_rng(seed)
        chosen: list[int] = []
        for _ in table.agent_iter():
            obs, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            token = tokens[len(chosen)] if tokens is not None else int(rng.choice(legal))
            assert token in legal
            chosen.append(token)
            table.step(token)
        game = table.table.game
        assert game is not None
        return chosen, game

    for seed in range(3):
        tokens, game = play(seed, None)
        again, twin = play(seed, tokens)
        assert again == tokens
        log = game.round_log()
        assert twin.round_log() == log and twin.round_points == game.round_points
        replay = Game(rules, players, seed=game.seed, dealer=game.dealer)
        for action in log.actions:
            replay.apply(action)  # apply: each whole play checked legal
        assert replay.over and replay.round_points == game.round_points
        assert [replay.hand(s) for s in range(players)] == [game.hand(s) for s in range(players)]
        assert len(tokens) >= len(log.actions)


@pytest.mark.parametrize("name", ["switch", "huit-americain"])
def test_api_test_and_check_env(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for message in DICT_WARNINGS:
            warnings.filterwarnings("ignore", message=message)
        api_test(env(name, actions="factored"), num_cycles=100)
        check_env(EightsEnv(name, 3, actions="factored"), skip_render_check=True)
    space = raw_env(name, actions="factored").action_space("player_0")
    assert isinstance(space, Discrete) and space.n == N_TOKENS


def test_gymnasium_by_steps() -> None:
    table = EightsEnv("switch", 3, actions="factored", opponents="greedy", max_steps=5)
    obs, _ = table.reset(seed=2)
    assert obs["observation"].shape == (codes.observation_size(3) + PLAY_SIZE,)
    rng = np.random.default_rng(0)
    decisions = partial = 0
    done = False
    while not done:
        before = table.table.live.plays + len(table.table.live.history)
        mask = table.action_masks()
        assert (mask == obs["action_mask"].astype(bool)).all()
        obs, reward, terminated, truncated, _ = table.step(int(rng.choice(np.flatnonzero(mask))))
        moved = table.table.live.plays + len(table.table.live.history) != before
        decisions += moved
        partial += not moved
        if not moved:
            assert reward == 0 and not terminated and not truncated
        done = terminated or truncated
    assert decisions <= 5


def test_an_illegal_token_is_named() -> None:
    table = raw_env("switch", 2, actions="factored")
    table.reset(seed=1)
    mask = table.observe(table.agent_selection)["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match=rf"token {bad} \({token_name(bad)}\) is not legal"):
        table.step(bad)
    with pytest.raises(ValueError, match="unknown actions 'cards'"):
        raw_env("switch", 2, actions="cards")


def test_batched_tables_by_steps_are_the_tables_by_codes() -> None:
    """FactoredTables over the kernel's tables, driven by random tokens, against the same
    tables driven by the whole codes that a one-table :class:`Plays` makes of the same
    tokens (the tables whose play is not finished held): the same masks of tokens, the
    same observations, rewards and ends, table by table."""
    from eights.fast.vector import TableBatch
    from eights.rl.factored import FactoredTables

    rules, players, batch = load_rules("switch"), 3, 6
    count = codes.action_count(rules, players)
    tables = FactoredTables(TableBatch(rules, players, batch, seed=4))
    whole = TableBatch(rules, players, batch, seed=4)
    obs, mask = tables.reset()
    wobs, wmask = whole.reset()
    refs = [Plays(1, count) for _ in range(batch)]
    one = np.ones(1, dtype=np.bool_)
    for b in range(batch):
        refs[b].start(one, wmask[b:b + 1])
    rng = np.random.default_rng(1)
    done = np.zeros(batch, dtype=np.bool_)
    held = ends = 0
    for _ in range(400):
        tokens = np.zeros(batch, dtype=np.int64)
        expected = np.zeros(batch, dtype=np.int64)
        for b in range(batch):
            assert np.array_equal(mask[b], refs[b].mask[0])
            assert np.array_equal(obs[b, :whole.observation_size], wobs[b])
            assert np.array_equal(obs[b, whole.observation_size:], refs[b].block[0])
            if not done[b]:
                tokens[b] = rng.choice(np.flatnonzero(mask[b]))
                expected[b] = refs[b].push(tokens[b:b + 1], one)[0]
        hold = ~done & (expected < 0)
        held += int(hold.sum())
        obs, mask, rewards, terminated = tables.step(tokens)
        wobs, wmask, wrewards, wterminated = whole.step(np.maximum(expected, 0), hold=hold)
        assert np.array_equal(rewards, wrewards) and np.array_equal(terminated, wterminated)
        assert not (terminated & hold).any() and not rewards[hold].any()
        for b in np.flatnonzero(~hold).tolist():
            refs[b].start(one, wmask[b:b + 1])
        listed = np.lexsort(whole.legal_codes(np.arange(batch))[::-1])
        pairs = np.stack(whole.legal_codes(np.arange(batch)))[:, listed]
        assert np.array_equal(pairs, np.stack(np.nonzero(wmask)))  # the masks, as pairs
        done = terminated | whole.truncated
        ends += int(terminated.sum())
    assert held > 50 and ends > 5
    with pytest.raises(ValueError, match=r"table 0: token 99 is not a token: tokens are 0 to 61"):
        tables.step(np.full(batch, 99))


def test_sb3_and_the_batched_env_take_factored_steps() -> None:
    from eights.rl import EightsVectorEnv
    from eights.rl.sb3 import EightsVecEnv

    envs = EightsVectorEnv("switch", 2, 4, actions="factored", opponents="greedy")
    obs, _ = envs.reset(seed=0)
    assert obs["action_mask"].shape == (4, N_TOKENS)
    assert obs["observation"].shape == (4, codes.observation_size(2) + PLAY_SIZE)
    assert envs.single_observation_space.contains(
        {"observation": obs["observation"][0], "action_mask": obs["action_mask"][0]})
    vec = EightsVecEnv("switch", 2, 4, seed=0, actions="factored")
    vec.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(150):
        masks = vec.action_masks()
        assert masks.any(axis=1).all()  # SB3's autoreset: every table has a decision
        choice = [rng.choice(np.flatnonzero(m)) for m in masks]
        rows, _, dones, _ = vec.step(np.array(choice))
        ended += int(dones.sum())
        assert all(vec.observation_space.contains(row) for row in np.asarray(rows))
    assert ended >= 1  # rounds ended, and the tables went on
