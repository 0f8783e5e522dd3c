"""The ``eights`` command line (typer)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from eights.actions import Action, Kind
from eights.errors import EightsError, RecordError, RulesError
from eights.explain import describe
from eights.game import Game
from eights.record import ReplayError, load_record, replay
from eights.rules import Rules, load_rules, preset_names
from eights.simulate import simulate as run_simulation

app = typer.Typer(
    help="Crazy Eights and its family: rules as data, replayable records, simulation.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
rules_app = typer.Typer(help="List and explain rule sets.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")

RulesOpt = Annotated[str, typer.Option("--rules", "-r", help="Preset name or rules file.")]
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", help="Override a rules field: key=value (TOML value), repeatable."),
]


def _fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _rules(spec: str, overrides: list[str] | None) -> Rules:
    try:
        return load_rules(spec, overrides or [])
    except RulesError as exc:
        _fail(str(exc))


def _players(rules: Rules, players: int | None) -> int:
    n = rules.default_players if players is None else players
    try:
        rules.check_players(n)
    except RulesError as exc:
        _fail(str(exc))
    return n


def describe_action(game: Game, seat: int, action: Action, before: list[int]) -> str:
    """One line in words for an action just applied (``before``: hand sizes before it)."""
    who = f"Seat {seat}"
    after = [len(h) for h in game.hands]
    gained = after[seat] - before[seat]
    if action.kind is Kind.PLAY:
        assert action.card is not None
        text = f"{who} plays {action.card.pretty()}"
        if action.suit is not None:
            text += f" and names {action.suit.symbol}"
        if action.announce:
            text += " (last card!)"
        if game.over and game.out == seat:
            text += " and goes out"
        elif gained > 0:
            text += f", then draws {gained} (penalty)"
        return text
    if action.kind is Kind.DRAW:
        others = [f"seat {s} takes {after[s] - before[s]} back" for s in range(game.n)
                  if s != seat and after[s] > before[s]]
        text = f"{who} draws {gained} card{'s' if gained != 1 else ''}"
        return text + (f" ({', '.join(others)})" if others else "")
    if action.kind is Kind.TAKE:
        return f"{who} takes the top card of the stock"
    previous = game.history[-2] if len(game.history) > 1 else None
    if previous is not None and previous[0] == seat and previous[1].kind is Kind.PLAY:
        return f"{who} does not take a card"
    if previous is not None and previous[0] == seat and previous[1].kind is Kind.DRAW:
        return f"{who} keeps the card and passes"
    return f"{who} passes"


def _round_summary(game: Game) -> list[str]:
    lines: list[str] = []
    if game.out is not None:
        lines.append(f"Round {game.round} over: seat {game.out} went out.")
    else:
        lines.append(f"Round {game.round} over: blocked, nobody went out.")
    assert game.round_points is not None
    for s in range(game.n):
        hand = " ".join(c.pretty() for c in game.hand(s)) or "-"
        lines.append(f"  seat {s}: {hand:<40} value {game.hand_value(s):>3}  "
                     f"round {game.round_points[s]:>+4}  total {game.scores[s]:>4}")
    if game.match_over:
        assert game.winners is not None
        lines.append(f"Match over after {game.round} rounds; winner(s): "
                     + ", ".join(f"seat {s}" for s in game.winners))
    return lines


@app.command()
def demo(
    rules: RulesOpt = "classic",
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the deal and the bots.")] = None,
    set_: SetOpt = None,
) -> None:
    """Watch a whole round between random bots, move by move."""
    rules_obj = _rules(rules, set_)
    n = _players(rules_obj, players)
    if seed is None:
        seed = random.SystemRandom().randrange(10**6)
    game = Game(rules_obj, n, seed=seed)
    rng = random.Random(seed)
    typer.echo(f"{rules_obj.title}: {n} random bots, seed {seed} "
               f"(again: eights demo -r {rules} -n {n} --seed {seed})")
    typer.echo(f"Dealer: seat {game.dealer}. Starter: {game.up_card.pretty()}.")
    while not game.over:
        seat = game.to_move
        legal = game.legal_actions()
        action = legal[int(rng.random() * len(legal))]
        before = [len(h) for h in game.hands]
        game.apply(action)
        line = describe_action(game, seat, action, before)
        if not game.over:
            line += f"   [up {game.up_card.pretty()}"
            if game.suit >= 0 and game.suit != (game.up_card & 3):
                line += f", suit {'♣♦♥♠'[game.suit]}"
            if game.pending:
                line += f", {game.pending} to draw"
            line += "]"
        typer.echo(line)
    for line in _round_summary(game):
        typer.echo(line)


@rules_app.command("list")
def rules_list() -> None:
    """The presets: name, title, players and source."""
    rows = [load_rules(name) for name in preset_names()]
    width = max(len(r.name) for r in rows)
    for r in rows:
        typer.echo(f"{r.name:<{width}}  {r.title:<24} {r.players[0]}-{r.players[1]} players"
                   f"  {r.source}")


@rules_app.command("show")
def rules_show(
    spec: Annotated[str, typer.Argument(help="Preset name or rules file.")],
    set_: SetOpt = None,
    as_toml: Annotated[bool, typer.Option("--toml", help="Print every field as TOML.")] = False,
) -> None:
    """Explain a rule set in plain English (generated from its data)."""
    rules_obj = _rules(spec, set_)
    if as_toml:
        typer.echo(_to_toml(rules_obj.to_table()))
        return
    for line in describe(rules_obj):
        typer.echo(line)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(value)


def _to_toml(table: dict[str, Any]) -> str:
    lines = [f"{k} = {_toml_value(v)}" for k, v in table.items() if not isinstance(v, dict)]
    lines.append("\n[points]")
    lines += [f'"{k}" = {v}' for k, v in table["points"].items()]
    for rank, body in table["cards"].items():
        lines.append(f'\n[cards."{rank}"]')
        lines += [f"{k} = {_toml_value(v)}" for k, v in body.items()]
    return "\n".join(lines)


@app.command("replay")
def replay_cmd(
    file: Annotated[Path, typer.Argument(help="An eights-record/1 JSON file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the final state as JSON.")] = False,
    trace: Annotated[bool, typer.Option(help="Print one JSON line per decision.")] = False,
) -> None:
    """Replay a game record; exit 1 on an illegal action, 2 on a malformed record."""
    try:
        record = load_record(file)
    except RecordError as exc:
        _fail(str(exc))

    def step(game: Game, r: int, i: int, action: Action) -> None:
        if trace:
            typer.echo(json.dumps({"round": r + 1, "index": i, "to_play": game.to_play,
                                   "legal": [str(a) for a in game.legal_actions()],
                                   "action": str(action)}))

    try:
        if as_json or trace:
            game = replay(record, step)
        else:
            game = _narrated_replay(record)
    except ReplayError as exc:
        _fail(str(exc), 1)
    except RecordError as exc:
        _fail(str(exc))
    except EightsError as exc:
        _fail(str(exc))
    if as_json or trace:
        typer.echo(json.dumps(game.to_json(), ensure_ascii=False))
    elif not game.over:
        typer.echo(f"(record ends in round {game.round} with seat {game.to_play} to play)")


def _narrated_replay(record: Any) -> Game:
    """Replay printing each move in words and each round's result."""
    state: dict[str, Any] = {}

    def step(game: Game, r: int, i: int, action: Action) -> None:
        if "last" in state:
            _flush(state)
        if i == 0:
            typer.echo(f"Round {r + 1}: dealer seat {game.dealer}, starter {game.up_card.pretty()}")
        state["last"] = (game, game.to_move, action, [len(h) for h in game.hands])

    game = replay(record, step)
    if "last" in state:
        _flush(state)
    return game


def _flush(state: dict[str, Any]) -> None:
    game, seat, action, before = state.pop("last")
    typer.echo(describe_action(game, seat, action, before))
    if game.over:
        for line in _round_summary(game):
            typer.echo(line)


@app.command()
def simulate(
    rules: RulesOpt = "classic",
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players.")] = None,
    games: Annotated[int | None, typer.Option(help="Whole matches to play.")] = None,
    rounds: Annotated[int | None, typer.Option(help="Rounds to play (instead of --games).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of every deal and bot choice.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the numbers as JSON.")] = False,
    set_: SetOpt = None,
) -> None:
    """Play many matches between random bots and print statistics."""
    rules_obj = _rules(rules, set_)
    n = _players(rules_obj, players)
    if games is None and rounds is None:
        games = 100
    if games is not None and rounds is not None:
        _fail("give --games or --rounds, not both")
    for label, value in (("--games", games), ("--rounds", rounds)):
        if value is not None and value < 1:
            _fail(f"{label} must be 1 or more, not {value}")
    result = run_simulation(rules_obj, n, games=games, rounds=rounds, seed=seed)
    data = result.to_json()
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    dpr = data["decisions_per_round"]
    typer.echo(f"{rules_obj.title}, {n} players, seed {seed}: {data['matches']} matches, "
               f"{data['rounds']} rounds, {data['decisions']} decisions "
               f"in {data['seconds']:.2f}s")
    if data["rounds_per_match"]:
        rpm = data["rounds_per_match"]
        typer.echo(f"rounds per match:    mean {rpm['mean']:.2f}  p10 {rpm['p10']:.0f}  "
                   f"median {rpm['p50']:.0f}  p90 {rpm['p90']:.0f}  max {rpm['max']:.0f}")
    typer.echo(f"decisions per round: mean {dpr['mean']:.1f}  p10 {dpr['p10']:.0f}  "
               f"median {dpr['p50']:.0f}  p90 {dpr['p90']:.0f}  max {dpr['max']:.0f}")
    typer.echo(f"blocked rounds:      {data['blocked_rounds']} "
               f"({100 * data['blocked_rounds'] / data['rounds']:.1f}%)")
    typer.echo("seat  round wins  match wins  mean points/round")
    for s in range(n):
        typer.echo(f"{s:>4}  {data['round_wins_by_seat'][s]:>10.1f}  "
                   f"{data['match_wins_by_seat'][s]:>10.1f}  "
                   f"{data['mean_points_by_seat'][s]:>17.2f}")
    typer.echo(f"throughput: {data['rounds_per_second']:.0f} rounds/s, "
               f"{data['decisions_per_second']:.0f} decisions/s")


def main() -> None:  # pragma: no cover - console entry
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
