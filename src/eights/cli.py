"""The ``eights`` command line (typer).

``pip install eights`` is enough for every command but four: ``play`` (full
screen) and ``replay --view`` need the ``tui`` extra, ``serve`` the ``server``
extra, ``tournament`` and ``simulate --plot`` the ``lab`` extra (and ``--ray``, on
both, the ``ray`` extra). Those
libraries are imported inside the commands, and a missing one is reported with
the ``pip install`` that brings it.
"""

from __future__ import annotations

import importlib
import json
import math
import os
import random
import shlex
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperArgument, TyperGroup, TyperOption

from eights import __version__
from eights.bots import Bot, check_table, make_bot
from eights.bots.blas import limit_process
from eights.engine.actions import Action
from eights.engine.errors import EightsError, RecordError, RulesError
from eights.engine.game import Game, Step
from eights.engine.record import Record, ReplayError, load_record, replay
from eights.engine.rules import Rules, load_rules, preset_names
from eights.i18n import Translator, translator
from eights.i18n.explain import describe
from eights.i18n.text import card_label, describe_move, round_summary
from eights.lab.analysis import variant_lines
from eights.lab.parallel import WorkersError
from eights.lab.simulate import simulate as run_simulation
from eights.plain import run_plain
from eights.session import Session, default_save_dir
from eights.tui import SPEEDS


def _no_flag_types(params: list[Any]) -> list[Any]:
    """Typer's help gives a flag a type column (``<bool>``) as if it took a value; a flag
    (``--plain``, ``--json``, ``--help``) shows none. A required argument reads as its
    metavar in the usage line (``eights train [OPTIONS] RULES``, not Typer's ``{RULES}``)."""
    for param in params:
        if isinstance(param, TyperOption) and param.is_flag:
            param.metavar = ""  # the help's type column shows the metavar when one is set
        elif (isinstance(param, TyperArgument) and param.required and param.nargs == 1
              and param.metavar):
            setattr(param, "get_usage_pieces", lambda ctx, name=param.metavar: [name])  # noqa: B010
    return params


class _Group(TyperGroup):
    """The command groups (``eights``, ``eights rules``): their help, and each command's,
    shows flags without a type. (Typer's context and parameter types are those of its own
    copy of click, hence ``Any``.)"""

    def get_params(self, ctx: Any) -> list[Any]:
        return _no_flag_types(super().get_params(ctx))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            _no_flag_types(command.get_params(ctx))
        return command


app = typer.Typer(
    cls=_Group,
    help="Crazy Eights and its family: rules as data, replayable records, simulation.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
rules_app = typer.Typer(cls=_Group, help="List and explain rule sets.", no_args_is_help=True)
app.add_typer(rules_app, name="rules")


def _print_version(value: bool) -> None:
    if value:
        typer.echo(f"eights {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    # Every command is a process of eights' own: NumPy's models (the learned bot, the belief
    # model) decide one position at a time, where OpenBLAS's extra threads only wait; its
    # workers (tournament, simulate, the server's bots) inherit the limit. A count the user
    # chose (OPENBLAS_NUM_THREADS...) is kept (eights.bots.blas).
    limit_process()

RulesOpt = Annotated[str, typer.Option("--rules", "-r", help="Preset name or rules file.")]
SetOpt = Annotated[
    list[str] | None,
    typer.Option("--set", help="Override a rules field: key=value (TOML value), repeatable."),
]


def _fail(message: str, code: int = 2) -> NoReturn:
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def _write_json(target: Path, data: Any, *, ensure_ascii: bool = True) -> bool:
    """Write ``data`` as JSON to the file ``target``, or to standard output for ``-`` (then
    True: the JSON is the command's whole output)."""
    text = json.dumps(data, indent=1, ensure_ascii=ensure_ascii)
    if str(target) == "-":
        typer.echo(text)
        return True
    try:
        target.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        _fail(f"cannot write {str(target)!r}: {exc}")
    return False


EXTRAS: dict[str, tuple[str, ...]] = {
    "tui": ("textual",),
    "server": ("fastapi", "uvicorn", "sqlalchemy", "alembic", "orjson", "pydantic"),
    "lab": ("openskill", "matplotlib"),
    "fast": ("numba",),
    "rl": ("pettingzoo", "gymnasium"),
    "openspiel": ("pyspiel",),
    "ray": ("ray",),
    "train": ("torch",),
}
"""The optional libraries of each extra (``pip install 'eights[extra]'``)."""


def _need(extra: str, command: str, *modules: str, instead: str = "") -> None:
    """Stop (exit 1) with the ``pip install`` to run when a library of ``extra`` is missing
    (``instead``: what works without it)."""
    for module in modules or EXTRAS[extra]:
        try:
            importlib.import_module(module)
        except ImportError:
            _fail(f"{command} needs the {extra} extra ({module} is not installed): "
                  f"{install_advice(extra)}" + (f" ({instead})" if instead else ""), 1)


def install_advice(extra: str, package: Path | None = None, cwd: Path | None = None,
                   executable: str | None = None) -> str:
    """The ``pip install`` that brings ``extra`` into the environment that runs eights:
    ``pip install 'eights[server]'``, or from a clone (eights installed from its source
    tree, as ``make`` does) ``pip install -e '.[server]'`` (the clone's path when run from
    elsewhere); the environment's own pip by its path where ``pip`` on the PATH is
    another (``.venv/bin/pip`` under ``make play``)."""
    package = Path(__file__).resolve().parent if package is None else package
    cwd = Path.cwd().resolve() if cwd is None else cwd
    root = package.parent.parent  # src/eights -> the clone
    pyproject = root / "pyproject.toml"
    clone = (package.parent.name == "src" and pyproject.is_file()
             and 'name = "eights"' in pyproject.read_text("utf-8"))
    if clone:
        where = "." if root == cwd else str(root)
        target = f"-e {shlex.quote(f'{where}[{extra}]')}"
    else:
        target = shlex.quote(f"eights[{extra}]")
    pip = Path(sys.executable if executable is None else executable).parent / "pip"
    found = shutil.which("pip")
    if not pip.exists() or (found is not None and Path(found).resolve() == pip.resolve()):
        return f"pip install {target}"
    return f"{shlex.quote(_shown(pip, cwd))} install {target}"


def _shown(path: Path, cwd: Path) -> str:
    """``path`` relative to ``cwd`` where it lies inside it, else absolute."""
    try:
        return str(path.relative_to(cwd))
    except ValueError:
        return str(path)


def _check_output(path: Path, option: str, *, directory: bool = False) -> None:
    """Stop now, before a long run, when ``path`` plainly cannot be written."""
    if directory:
        if path.exists() and not path.is_dir():
            _fail(f"{option} {str(path)!r} is a file, not a directory")
    elif path.is_dir():
        _fail(f"{option} {str(path)!r} is a directory; give a file name")
    elif not path.parent.is_dir():
        _fail(f"{option} {str(path)!r}: there is no directory {str(path.parent)!r}")


def _count(n: int, word: str, words: str | None = None) -> str:
    """``1 round``, ``2 rounds``: English counts in the lab reports."""
    return f"{n} {word if n == 1 else words or word + 's'}"


QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
JobsOpt = Annotated[int | None, typer.Option(
    "--jobs", "-j", help="Worker processes (default 1: this process); with --ray, the Ray "
                         "tasks run at once (default: one per CPU of the cluster; with "
                         "--ray local, the CPUs of the Ray started here). The results do not "
                         "depend on it.")]
RayOpt = Annotated[str | None, typer.Option(
    "--ray", metavar="ADDRESS", help="Play on a Ray cluster (the ray extra): local (start one "
                                     "on this machine), auto (the cluster this machine "
                                     "joined), or the head's host:6379.")]


def _check_parallel(command: str, jobs: int | None, ray: str | None) -> None:
    """Stop before a run whose --jobs is bad, or whose --ray needs a missing extra."""
    if jobs is not None and jobs < 1:
        _fail(f"--jobs must be 1 or more, not {jobs}")
    if ray is not None:
        _need("ray", f"{command} --ray")


@contextmanager
def progress(description: str, *, quiet: bool = False) -> Iterator[Callable[[int, int], None]]:
    """A progress bar with the time left on standard error, fed ``(done, total)``.

    Shown when standard error is a terminal and not ``quiet``; ``EIGHTS_PROGRESS=1``
    shows it anyway (logs, tests), ``EIGHTS_PROGRESS=0`` never. Redrawn at most ten
    times a second, so a fast loop may report every step.
    """
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    forced = os.environ.get("EIGHTS_PROGRESS", "")
    console = Console(stderr=True, force_terminal=True if forced == "1" else None)
    if quiet or forced == "0" or not (forced == "1" or console.is_terminal):
        yield lambda done, total: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("elapsed,"), TimeRemainingColumn(),
               TextColumn("left"))
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=None)
        shown = 0.0

        def update(done: int, total: int) -> None:
            nonlocal shown
            now = time.monotonic()
            if now - shown >= 0.1 or done >= total:
                shown = now
                bar.update(task, completed=done, total=total)

        yield update


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


LangOpt = Annotated[
    str | None,
    typer.Option("--lang", help="Language: en or fr (default: from the locale, LANG)."),
]


def _translator(lang: str | None) -> Translator:
    try:
        return translator(lang)
    except ValueError as exc:
        _fail(str(exc))


def _seat_names(n: int, _: Translator) -> list[str]:
    return [_("Seat {n}", n=s) for s in range(n)]


@app.command()
def demo(
    rules: RulesOpt = "classic",
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players.")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the deal and the bots.")] = None,
    lang: LangOpt = None,
    set_: SetOpt = None,
) -> None:
    """Watch a whole round between random bots, move by move."""
    _ = _translator(lang)
    rules_obj = _rules(rules, set_)
    n = _players(rules_obj, players)
    if seed is None:
        seed = random.SystemRandom().randrange(10**6)
    game = Game(rules_obj, n, seed=seed)
    rng = random.Random(seed)
    names = _seat_names(n, _)
    typer.echo(_("{title}: {n} random bots, seed {seed} (again: eights demo -r {rules} -n {n} "
                 "--seed {seed})", title=rules_obj.title, n=n, seed=seed, rules=rules))
    typer.echo(_("Dealer: {name}. Starter: {card}.", name=names[game.dealer],
                 card=card_label(game.up_card, _)))
    while not game.over:
        legal = game.legal_actions()
        action = legal[int(rng.random() * len(legal))]
        typer.echo(describe_move(game, names, game.apply(action), _))
    for line in round_summary(game, names, _):
        typer.echo(line)


@app.command()
def play(
    rules: RulesOpt = "classic",
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players.")] = None,
    bots: Annotated[str, typer.Option(help="Bots for the other seats, comma-separated "
                                           "(random, greedy, expert, ismcts, learned; options "
                                           "after colons: ismcts:time=0.5, "
                                           "learned:model=PATH), repeated as needed.")]
    = "greedy",
    humans: Annotated[int, typer.Option(help="People sharing this screen (hot-seat).")] = 1,
    seed: Annotated[int | None, typer.Option(help="Seed of the deal and the bots.")] = None,
    lang: LangOpt = None,
    name: Annotated[list[str] | None, typer.Option(
        "--name", help="Your name (repeat for each person with --humans).")] = None,
    plain: Annotated[bool, typer.Option(help="Plain lines on stdin/stdout, no full screen.")]
    = False,
    resume: Annotated[Path | None, typer.Option(help="Continue a saved game.")] = None,
    speed: Annotated[str, typer.Option(help="Bot pace: slow, normal, fast or instant.")]
    = "normal",
    set_: SetOpt = None,
) -> None:
    """Play a match against bots (and friends on the same screen)."""
    _ = _translator(lang)  # every option is checked before the session writes its save file
    if speed not in SPEEDS:
        _fail(f"unknown speed {speed!r}; speeds are {', '.join(SPEEDS)}")
    if not plain:
        _need("tui", "eights play", instead="or play in plain lines: eights play --plain")
    if resume is not None:
        try:
            session = Session.resume(resume, _.lang)
        except (EightsError, ValueError) as exc:
            _fail(str(exc))
    else:
        rules_obj = _rules(rules, set_)
        n = _players(rules_obj, players)
        specs = _bot_list(bots)
        try:
            for spec in specs:  # a bot that cannot play this table fails now, not at its turn
                check_table(make_bot(spec), rules_obj, n)
            session = Session.start(rules_obj, n, bots=specs, humans=humans, names=name or (),
                                    seed=seed, save_dir=default_save_dir(), lang=_.lang)
        except (EightsError, ValueError) as exc:
            _fail(str(exc))
    session.program = invoked_as()
    if plain:
        raise typer.Exit(run_plain(session, _, sys.stdin, sys.stdout))
    from eights.fast.cache import stop_warming, warm_in_background
    from eights.tui.app import EightsApp

    warm_in_background()  # a cold kernel compiles under the game; search rolls out on the engine meanwhile
    tui = EightsApp(session, _, speed=speed)
    try:
        tui.run()
    finally:
        stop_warming()  # a compile not done by now is started again next time
    session = tui.session  # the match played last (n starts a new one)
    if session.path is not None and session.path.exists():
        typer.echo(_("Game saved: {path}", path=session.path))
        command = session.resume_command()
        if command is not None and not session.game.match_over:
            typer.echo(_("Resume it with: {command}", command=command))


def invoked_as(argv: list[str] | None = None, orig_argv: list[str] | None = None) -> str:
    """How this ``eights`` command was typed, to print a command that works where it was
    started (the resume line): ``eights`` where that is on the PATH, else the path as typed
    (``.venv/bin/eights`` under ``make play``), or ``python -m eights.cli``."""
    argv = sys.argv if argv is None else argv
    orig = getattr(sys, "orig_argv", []) if orig_argv is None else orig_argv
    if "-m" in orig[1:-1]:  # python -m eights.cli …
        module = orig[orig.index("-m", 1) + 1]
        return f"{shlex.quote(orig[0])} -m {module}"
    typed = argv[0] if argv and argv[0] and not argv[0].startswith("-") else "eights"
    name = Path(typed).name
    if name == typed:  # found on the PATH
        return shlex.quote(name)
    found = shutil.which(name)
    if found is not None and Path(found).resolve() == Path(typed).resolve():
        return shlex.quote(name)  # a path to what the PATH finds anyway
    return shlex.quote(typed)


@rules_app.command("list")
def rules_list() -> None:
    """The presets: name, title, players and source."""
    rows = [load_rules(name) for name in preset_names()]
    width = max(len(r.name) for r in rows)
    title_width = max(len(r.title) for r in rows)
    for r in rows:
        counts = f"{r.players[0]}-{r.players[1]}"
        typer.echo(f"{r.name:<{width}}  {r.title:<{title_width}}  {counts:>5} players  {r.source}")


@rules_app.command("show")
def rules_show(
    spec: Annotated[str, typer.Argument(metavar="SPEC", help="Preset name or rules file.")],
    set_: SetOpt = None,
    as_toml: Annotated[bool, typer.Option("--toml", help="Print every field as TOML.")] = False,
    lang: LangOpt = None,
) -> None:
    """Explain a rule set in plain words (generated from its data)."""
    _ = _translator(lang)
    rules_obj = _rules(spec, set_)
    if as_toml:
        typer.echo(_to_toml(rules_obj.to_table()))
        return
    for line in describe(rules_obj, _):
        typer.echo(line)


@rules_app.command("schema")
def rules_schema_cmd() -> None:
    """Print the JSON Schema of rules files, for an editor that checks a file as it is typed."""
    from eights.engine.schema import rules_schema

    typer.echo(json.dumps(rules_schema(), indent=2, ensure_ascii=False))


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
    file: Annotated[Path, typer.Argument(metavar="FILE", help="An eights-record/1 JSON file.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the final state as JSON.")] = False,
    trace: Annotated[bool, typer.Option(help="Print one JSON line per decision.")] = False,
    lang: LangOpt = None,
    view: Annotated[bool, typer.Option("--view", help="Step through it full-screen (← →).")]
    = False,
) -> None:
    """Replay a game record; exit 1 on an illegal action, 2 on a malformed record."""
    _ = _translator(lang)
    if view:
        _need("tui", "eights replay --view")
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
        if view:
            from eights.tui.replay import ReplayApp

            ReplayApp(record, _).run()  # replays the record first: errors are caught below
            return
        if as_json or trace:
            game = replay(record, step)
        else:
            game = _narrated_replay(record, _)
    except ReplayError as exc:
        _fail(str(exc), 1)
    except RecordError as exc:
        _fail(str(exc))
    except EightsError as exc:
        _fail(str(exc))
    if as_json or trace:
        typer.echo(json.dumps(game.to_json(), ensure_ascii=False))
    elif not game.over:
        typer.echo(_("(the record ends in round {n} with seat {seat} to play)", n=game.round,
                     seat=game.to_play))


def _narrated_replay(record: Record, _: Translator) -> Game:
    """Replay printing each move in words and each round's result."""
    seats = record.meta.get("seats")
    names = ([str(s.get("name", "?")) for s in seats] if isinstance(seats, list)
             and len(seats) == record.players and all(isinstance(s, dict) for s in seats)
             else _seat_names(record.players, _))

    def step(game: Game, r: int, i: int, action: Action) -> None:
        if i == 0:
            typer.echo(_("Round {n}: {name} deals, starter {card}", n=r + 1,
                         name=names[game.dealer], card=card_label(game.up_card, _)))

    def done(game: Game, r: int, i: int, made: Step) -> None:
        typer.echo(describe_move(game, names, made, _))
        if game.over:
            for line in round_summary(game, names, _):
                typer.echo(line)

    game = replay(record, step, done)
    return game


@app.command("review", short_help="Mark every decision of a seat with the search, from what it saw.")
def review_cmd(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="An eights-record/1 JSON file.")],
    seat: Annotated[list[int] | None, typer.Option(
        "--seat", metavar="N", help="A seat to review (repeatable; default: the seats people held, as the "
                       "record's meta says, else seat 0).")] = None,
    all_seats: Annotated[bool, typer.Option("--all", help="Review every seat.")] = False,
    json_file: Annotated[Path | None, typer.Option(
        "--json", help="Write the review as JSON to this file ('-': print it instead).")]
    = None,
    quality: Annotated[str, typer.Option(
        help="fast, normal or deep: worlds the search samples per decision.")] = "normal",
    seed: Annotated[int, typer.Option(help="Seed of the sampled worlds.")] = 0,
    lang: LangOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Mark every decision of a seat with the search: best, good, inaccuracy, mistake,
    blunder; exit 1 on an illegal action, 2 on a malformed record or a bad option."""
    from eights.lab.review import QUALITIES, ReviewError, people_seats, positions, review_seats

    _ = _translator(lang)
    if seat and all_seats:
        _fail("give --seat or --all, not both")
    if quality not in QUALITIES:
        _fail(f"--quality must be {', '.join(QUALITIES)}, not {quality!r}")
    if json_file is not None and str(json_file) != "-":
        _check_output(json_file, "--json")
    try:
        record = load_record(file)
    except RecordError as exc:
        _fail(str(exc))
    seats = (list(range(record.players)) if all_seats else seat if seat
             else people_seats(record.meta, record.players))
    try:
        found = positions(record, seats)
        with progress("decisions", quiet=quiet) as advance:
            result = review_seats(found, seats, quality=quality, seed=seed, on_progress=advance)
    except ReviewError as exc:
        _fail(str(exc))
    except ReplayError as exc:
        _fail(str(exc), 1)
    except EightsError as exc:
        _fail(str(exc))
    if json_file is not None and _write_json(json_file, result.to_json(), ensure_ascii=False):
        return
    _print_review(record, result.seats, _)


def _print_review(record: Record, reviewed: Any, _: Translator) -> None:
    """The review in words, marks in colour where the output is a terminal."""
    from rich.console import Console
    from rich.markup import escape

    from eights.i18n.advice import (
        MARK_STYLES,
        decision_mistake,
        decision_words,
        meaning_words,
        move_words,
        summary_words,
    )

    console = Console(highlight=False, soft_wrap=True)
    raw = record.meta.get("seats")
    names = ([str(s.get("name", "?")) for s in raw] if isinstance(raw, list)
             and len(raw) == record.players and all(isinstance(s, dict) for s in raw)
             else None)  # a record with no names: the seats' numbers alone
    for k, seat_review in enumerate(reviewed):
        if k:
            console.print()
        summary = summary_words(seat_review.accuracy, seat_review.mean_loss,
                                seat_review.counts(), _)
        console.print(escape(
            _("Seat {seat}: {summary}", seat=seat_review.seat, summary=summary) if names is None
            else _("{name} (seat {seat}): {summary}", name=names[seat_review.seat],
                   seat=seat_review.seat, summary=summary)))
        if not seat_review.decisions:
            console.print(escape(_("No decision to review: this seat never had a choice.")))
            continue
        for d in seat_review.decisions:
            console.print(f"  [{MARK_STYLES[d.mark]}]{escape(decision_words(d, _))}[/]")
        worst = seat_review.worst()
        if worst:
            console.print(escape(_("The largest mistakes:")))
            for d in worst:
                console.print("  " + escape(_("{where}: {words}",
                                              where=move_words(d.move, d.round, _),
                                              words=decision_mistake(d, _))))
        else:
            console.print(escape(_("No mistake: every move was best, as good as the best, or good.")))
    if any(s.decisions for s in reviewed):
        console.print(escape(meaning_words(_)))


@app.command()
def simulate(
    rules: RulesOpt = "classic",
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players.")] = None,
    games: Annotated[int | None, typer.Option(
        help="Whole matches to play (default: 100 when --rounds is not given).")] = None,
    rounds: Annotated[int | None, typer.Option(help="Rounds to play (instead of --games).")] = None,
    seed: Annotated[int, typer.Option(help="Seed of every deal and bot choice.")] = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the numbers as JSON.")] = False,
    bots: Annotated[str | None, typer.Option(help="Bots, comma-separated, repeated over the seats "
                                                  "(default: random).")] = None,
    plot: Annotated[Path | None, typer.Option(help="Write PNG charts to this directory.")] = None,
    set_: SetOpt = None,
    quiet: QuietOpt = False,
    engine: Annotated[str | None, typer.Option(
        help="fast: the compiled kernel plays --rounds N (random and greedy bots; the default "
             "where the rules allow); reference: the engine move by move (every statistic, "
             "--games).")] = None,
    jobs: JobsOpt = None,
    ray: RayOpt = None,
) -> None:
    """Play many matches between bots and print statistics and variant analysis."""
    _check_parallel("eights simulate", jobs, ray)
    rules_obj = _rules(rules, set_)
    n = _players(rules_obj, players)
    seats = _bots_for_seats(bots, n)
    if engine not in (None, "fast", "reference"):
        _fail(f"--engine {engine!r}: give fast or reference")
    matches = games is not None or rounds is None
    if games is None and rounds is None:
        games = 100
    if games is not None and rounds is not None:
        _fail("give --games or --rounds, not both")
    for label, value in (("--games", games), ("--rounds", rounds)):
        if value is not None and value < 1:
            _fail(f"{label} must be 1 or more, not {value}")
    if plot is not None:
        _need("lab", "eights simulate --plot", "matplotlib")
        _check_output(plot, "--plot", directory=True)
    fast = _fast_engine(engine, rules_obj, n, seats, matches=matches)
    try:
        with progress("matches" if games is not None else "rounds", quiet=quiet) as advance:
            result = run_simulation(rules_obj, n, games=games, rounds=rounds, seed=seed,
                                    bots=seats, engine="fast" if fast else "reference",
                                    jobs=jobs, ray=ray, on_progress=advance)
    except WorkersError as exc:
        _fail(str(exc), 1)
    data = result.to_json()
    if plot is not None:
        from eights.lab.analysis import write_plots

        try:
            paths = write_plots(data, plot)
        except OSError as exc:
            _fail(f"cannot write the charts to {str(plot)!r}: {exc}")
        typer.echo(f"charts: {', '.join(str(p) for p in paths)}", err=True)
    if as_json:
        typer.echo(json.dumps(data, indent=2))
        return
    dpr = data["decisions_per_round"]
    played = data["matches"] > 0  # the fast engine's --rounds plays rounds, no match
    typer.echo(f"{rules_obj.title}, {n} players, seed {seed}: "
               + (f"{_count(data['matches'], 'match', 'matches')}, " if played else "")
               + f"{_count(data['rounds'], 'round')}, "
               f"{_count(data['decisions'], 'decision')} in {data['seconds']:.2f}s CPU, "
               f"{data['wall_seconds']:.2f}s elapsed ({data['engine']} engine)")
    if data["rounds_per_match"]:
        rpm = data["rounds_per_match"]
        typer.echo(f"rounds per match:    mean {rpm['mean']:.2f}  p10 {rpm['p10']:.0f}  "
                   f"median {rpm['p50']:.0f}  p90 {rpm['p90']:.0f}  max {rpm['max']:.0f}")
    typer.echo(f"decisions per round: mean {dpr['mean']:.1f}  p10 {dpr['p10']:.0f}  "
               f"median {dpr['p50']:.0f}  p90 {dpr['p90']:.0f}  max {dpr['max']:.0f}")
    typer.echo(f"blocked rounds:      {data['blocked_rounds']} "
               f"({100 * data['blocked_rounds'] / data['rounds']:.1f}%)")
    typer.echo("seat  round wins  " + ("match wins  " if played else "") + "mean points/round")
    for s in range(n):
        typer.echo(f"{s:>4}  {data['round_wins_by_seat'][s]:>10.1f}  "
                   + (f"{data['match_wins_by_seat'][s]:>10.1f}  " if played else "")
                   + f"{data['mean_points_by_seat'][s]:>17.2f}")
    for line in variant_lines(data):
        typer.echo(line)
    typer.echo(f"throughput: {data['rounds_per_second']:.0f} rounds/s, "
               f"{data['decisions_per_second']:.0f} decisions/s")


def _fast_engine(engine: str | None, rules: Rules, n: int, seats: list[Bot] | None, *,
                 matches: bool) -> bool:
    """Whether ``simulate`` runs on the fast engine (else the reference engine).

    ``--engine fast`` that cannot be honoured stops (exit 2, naming the field, the
    option or the bot; exit 1 with the ``pip install`` when numba is missing). Without
    ``--engine`` the fast engine is the default for ``--rounds`` where the rules and the
    bots allow; otherwise one line on standard error says why the reference engine plays
    (whole matches, ``--games``, are the reference engine's: the report names it)."""
    if engine == "reference" or (engine is None and matches):
        return False
    explicit = engine == "fast"

    def refuse(why: str) -> None:
        if explicit:
            _fail(f"--engine fast: {why}")
        typer.echo(f"simulate: {why}; using the reference engine", err=True)

    if matches:
        refuse("the fast engine plays rounds (--rounds N), not whole matches (--games)")
        return False
    names = {b.name for b in seats} if seats else {"random"}
    other = sorted(names - {"random", "greedy"})
    if other:
        refuse(f"the fast engine plays the random and greedy bots only, not {other[0]!r}")
        return False
    if explicit:
        _need("fast", "eights simulate --engine fast",
              instead="--engine reference works without it")
    else:
        try:
            importlib.import_module("numba")
        except ImportError:
            refuse(f"the fast engine needs numba, which is not installed "
                   f"({install_advice('fast')})")
            return False
    from eights.fast import KernelUnsupported, check_supported

    try:
        check_supported(rules, n)
    except KernelUnsupported as exc:
        refuse(str(exc).removesuffix("; use the reference engine"))
        return False
    return True


def _bot_list(text: str, option: str = "--bots") -> list[str]:
    """The bot specs of a comma-separated option; an empty entry (``greedy,,expert``, a
    trailing comma) is refused, naming it."""
    names = [b.strip() for b in text.split(",")]
    if not any(names):
        _fail(f"{option} needs bot names, e.g. {option} greedy,random")
    for i, name in enumerate(names):
        if not name:
            _fail(f"{option} {text!r}: entry {i + 1} is empty; give bot names separated by "
                  "commas, e.g. greedy,expert")
    return names


def _bots_for_seats(spec: str | None, n: int) -> list[Bot] | None:
    """``--bots a,b``: one bot per seat, the list repeated over the seats."""
    if spec is None:
        return None
    names = _bot_list(spec)
    try:
        return [make_bot(names[s % len(names)]) for s in range(n)]
    except ValueError as exc:
        _fail(str(exc))


@app.command("tournament")
def tournament_cmd(
    rules: RulesOpt = "classic",
    players: Annotated[int | None, typer.Option("--players", "-n", help="Number of players.")] = None,
    bots: Annotated[str, typer.Option(help="Bots to compare, comma-separated (at most one per "
                                           "seat; repeated when fewer).")] = "greedy,random",
    deals: Annotated[int, typer.Option(help="Deals, each replayed with the bots rotated "
                                            "through the seats.")] = 100,
    jobs: JobsOpt = None,
    ray: RayOpt = None,
    seed: Annotated[int, typer.Option(help="Seed of the deals and the bots.")] = 0,
    seats: Annotated[str | None, typer.Option(
        help="Seats each bot holds, comma-separated, e.g. 1,3 for one ismcts against three "
             "experts (default: the bots take the seats in turn).")] = None,
    json_file: Annotated[Path | None, typer.Option(
        "--json", help="Write every number as JSON to this file ('-': print it instead).")]
    = None,
    set_: SetOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Duplicate tournament between bots: standings, ratings and head-to-head."""
    _need("lab", "eights tournament", "openskill")
    _check_parallel("eights tournament", jobs, ray)
    from eights.lab.tournament import standings_table
    from eights.lab.tournament import tournament as run_tournament

    rules_obj = _rules(rules, set_)
    n = _players(rules_obj, players)
    if json_file is not None and str(json_file) != "-":
        _check_output(json_file, "--json")
    specs = _bot_list(bots)
    lineup: list[int] | None = None
    if seats is not None:
        try:
            lineup = [int(k) for k in seats.split(",")]
        except ValueError:
            _fail(f"--seats {seats!r} is not a comma-separated list of seat counts, e.g. 1,3")
    try:
        with progress("rounds", quiet=quiet) as advance:
            result = run_tournament(rules_obj, n, specs, deals, jobs=jobs, ray=ray, seed=seed,
                                    seats=lineup, on_progress=advance)
    except WorkersError as exc:
        _fail(str(exc), 1)
    except (ValueError, EightsError) as exc:
        _fail(str(exc))
    if json_file is not None and _write_json(json_file, result.to_json()):
        return
    typer.echo(standings_table(result))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every interface).")]
    = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on (1 to 65535).", min=1,
                                      max=65535)] = 8000,
    db: Annotated[str | None, typer.Option(
        help="Database URL (default: SQLite file server.sqlite3 in the data directory; "
             "postgresql://user:password@host/name for PostgreSQL).")] = None,
    bot_delay: Annotated[float, typer.Option(help="Seconds a bot waits before it moves.")] = 0.6,
    address_limit: Annotated[int | None, typer.Option(
        help="Let one client address hold N open tables and N connections and make N "
             "create/join requests and N record requests a second (defaults: 5 tables, 20 "
             "connections, 2 and 1 a second); for load tests from one machine.")] = None,
    waiting_idle: Annotated[float, typer.Option(
        help="Seconds a waiting table may stay with nobody at it before it is closed (one "
             "nobody ever came to: 120 s at most).")]
    = 600.0,
    bot_workers: Annotated[int | None, typer.Option(
        help="Processes search bots think in (their own pool, below the server's priority); "
             "moves beyond them wait their turn within the bot's wait. Default: the "
             "processors less one (at most 8), shared out among --processes.")] = None,
    bot_pool: Annotated[str, typer.Option(
        help="processes (default) or threads: where search bots think. Threads share the "
             "GIL with the event loop (see docs/benchmarks.md).")] = "processes",
    trusted_proxy: Annotated[list[str] | None, typer.Option(
        help="A proxy (address or network, e.g. 127.0.0.1 or 10.0.0.0/8) whose "
             "X-Forwarded-For is believed; repeat for several. Without it the header is "
             "ignored, so a client cannot pose as other addresses.")] = None,
    testing_fixed_seeds: Annotated[bool, typer.Option(
        "--testing-fixed-seeds", envvar="EIGHTS_TESTING_FIXED_SEEDS",
        help="FOR TESTS ONLY: let POST /api/tables take a 'seed' (whoever knows it knows every "
             "hand). Off by default: tables are dealt from secure randomness.")] = False,
    processes: Annotated[int, typer.Option(
        help="Run N server processes on a PostgreSQL --db, behind HAProxy (on PATH) listening "
             "on --host/--port; their logs go to the data directory's cluster/ folder.")] = 1,
    unix_socket: Annotated[Path | None, typer.Option(
        help="Listen on this Unix socket instead of --host/--port, for a proxy on this "
             "machine: whoever opens it is taken for the proxy (its X-Forwarded-For is "
             "believed), so keep it in a directory only the proxy can enter. eights serve "
             "--processes starts its servers so.")] = None,
) -> None:
    """Play online: serve tables of people and bots (HTTP and WebSockets)."""
    _need("server", "eights serve")
    if processes != 1:
        if trusted_proxy or unix_socket is not None:
            _fail("--processes N runs its servers on private sockets that its HAProxy alone "
                  "reaches (and that HAProxy sets X-Forwarded-For): --trusted-proxy and "
                  "--unix-socket are for one process behind your own proxy")
        if bot_workers is None and processes > 1:  # the machine's share of each process
            from eights.server.thinking import default_workers

            bot_workers = max(1, default_workers() // processes)
        _serve_processes(processes, host=host, port=port, db=db, args=[
            "--bot-delay", str(bot_delay), "--waiting-idle", str(waiting_idle),
            *(["--bot-workers", str(bot_workers)] if bot_workers is not None else []),
            "--bot-pool", bot_pool,
            *(["--address-limit", str(address_limit)] if address_limit is not None else []),
            *(["--testing-fixed-seeds"] if testing_fixed_seeds else [])])
        return
    import dataclasses
    import gc
    import ipaddress
    import logging

    from sqlalchemy.exc import ArgumentError

    from eights.server import Limits, create_app, default_db_url
    from eights.server.cluster import watch_supervisor
    from eights.server.listen import Server, uvicorn_config

    if bot_delay < 0:
        _fail("--bot-delay must be 0 or more seconds")
    if waiting_idle <= 0:
        _fail("--waiting-idle must be more than 0 seconds")
    if bot_workers is not None and bot_workers < 1:
        _fail("--bot-workers must be 1 or more")
    if bot_pool not in ("processes", "threads"):
        _fail(f"--bot-pool must be processes or threads, not {bot_pool!r}")
    limits = Limits(waiting_idle=waiting_idle)
    if address_limit is not None:
        if address_limit < 1:
            _fail("--address-limit must be 1 or more")
        limits = dataclasses.replace(
            limits, tables_per_address=address_limit, connections_per_address=address_limit,
            requests_per_second=float(address_limit), request_burst=address_limit,
            records_per_second=max(limits.records_per_second, float(address_limit)),
            record_burst=max(limits.record_burst, address_limit),
            sockets_per_address=max(limits.sockets_per_address, address_limit + 40),
            tables=max(limits.tables, address_limit), connections=max(limits.connections,
                                                                       address_limit))
    proxies = trusted_proxy or []
    for proxy in proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            if proxy != "*":
                _fail(f"--trusted-proxy {proxy!r} is not an address or a network "
                      "(e.g. 127.0.0.1, 10.0.0.0/8, or * for any)")
    url = db or default_db_url()
    shown = _shown_url(url)
    try:
        server_app = create_app(url, bot_delay=bot_delay, limits=limits,
                                testing_fixed_seeds=testing_fixed_seeds, bot_workers=bot_workers,
                                bot_pool="threads" if bot_pool == "threads" else "processes")
    except (ArgumentError, ValueError) as exc:
        _fail(f"cannot use the database {shown!r}: {exc}")
    except ImportError as exc:
        _fail(f"cannot use the database {shown!r}: {exc} (PostgreSQL needs a driver: "
              "pip install 'psycopg[binary]')")
    _check_claim(url)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s:     %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)
    logging.getLogger("alembic.runtime.migration").setLevel(logging.INFO)
    where = f"unix socket {unix_socket}" if unix_socket else f"http://{host}:{port}"
    typer.echo(f"eights server on {where}  (database: {shown})")
    if testing_fixed_seeds:
        typer.echo("warning: --testing-fixed-seeds: tables take a 'seed', so their hands can be "
                   "known; for tests only", err=True)
    # A server holds many long-lived objects (connections, tables): scanning them in full
    # collections every few seconds cost pauses of 0.1-0.3 s under load (the p99 latency).
    # Start-up's objects are never scanned again, and young objects are collected less often.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 100)
    watch_supervisor()  # started by eights serve --processes: stop when it is gone
    server = Server(uvicorn_config(server_app, host=host, port=port, limits=limits,
                                           trusted_proxies=proxies, log_level="info",
                                           unix_socket=str(unix_socket) if unix_socket
                                           else None))
    server.run()
    if not server.started:  # the port is taken, say (uvicorn said why)
        raise typer.Exit(3)


def _serve_processes(processes: int, *, host: str, port: int, db: str | None,
                     args: list[str]) -> None:
    """``eights serve --processes N``: N servers and HAProxy, until Ctrl-C, SIGTERM or
    SIGHUP."""
    import shutil
    import signal

    from eights.server import data_dir
    from eights.server.cluster import Cluster, ClusterError

    if processes < 1:
        _fail("--processes must be 1 or more")
    if db is None or not db.startswith(("postgresql", "postgres:")):
        _fail("--processes N needs a PostgreSQL --db (postgresql://user:password@host/name): "
              "a SQLite file is served by one process")
    haproxy = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin")
    if haproxy is None:
        _fail("--processes N puts HAProxy in front of the processes, and haproxy is not on "
              "PATH: install it (Debian: apt-get install haproxy)")
    logs = data_dir() / "cluster"
    stopping = False

    def stop(signum: int, _frame: object) -> None:
        """SIGTERM (systemd, docker stop, kill) and SIGHUP stop as Ctrl-C does; once."""
        nonlocal stopping
        if not stopping:
            stopping = True
            raise KeyboardInterrupt(signal.Signals(signum).name)

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, stop)
    try:  # (stopped while starting, the cluster stops what it started)
        cluster = Cluster(db, processes, log_dir=logs, serve_args=args, haproxy=haproxy,
                          host=host, port=port)
    except (ClusterError, ValueError) as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        return
    typer.echo(f"eights on http://{host}:{port}: {processes} processes (sockets in "
               f"{cluster.runtime}) behind HAProxy; logs in {logs}")
    try:
        cluster.supervise()
        typer.echo("HAProxy exited: stopping", err=True)
    except KeyboardInterrupt:
        pass
    finally:
        stopping = True
        cluster.stop()


def _shown_url(url: str) -> str:
    """A database URL as it may be shown: without the part before ``@`` (the password)."""
    return url.split("@")[-1] if "@" in url else url


def _check_claim(url: str) -> None:
    """Fail now, with the reason, when another server serves this database (the server
    claims it again as it starts: this is only the early, readable refusal)."""
    from sqlalchemy.exc import SQLAlchemyError

    from eights.server.store import DatabaseInUse, Store, Unreachable

    try:
        store = Store(url)
    except ValueError as exc:  # a URL the server refuses (a SQLite URI file name)
        _fail(str(exc))
    try:
        store.claim()
        store.revision()  # a database that cannot be read is said now, not in a traceback
    except (DatabaseInUse, ValueError) as exc:
        _fail(str(exc))
    except (SQLAlchemyError, Unreachable) as exc:
        _fail(f"cannot reach the database {_shown_url(url)!r}: {str(exc).splitlines()[0]}")
    finally:
        store.close()


db_app = typer.Typer(help="The server's database: its schema revision and upgrades.",
                     no_args_is_help=True)
app.add_typer(db_app, name="db")

_DB_URL = typer.Option(help="Database URL (default: the SQLite file eights serve uses; "
                            "postgresql://user:password@host/name for PostgreSQL).")


@contextmanager
def _database(db: str | None, doing: str) -> Iterator[tuple[Any, str]]:
    """The store of ``db`` (default: the server's) and its URL as shown; a failure to reach
    or read it ends the command with ``cannot DOING the database 'URL': why``."""
    _need("server", f"eights db {doing}")
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from eights.server import default_db_url
    from eights.server.store import Store

    url = db or default_db_url()
    shown = _shown_url(url)
    try:
        store = Store(url)
        try:
            yield store, shown
        finally:
            store.close()
    except (ArgumentError, SQLAlchemyError, ImportError, ValueError) as exc:
        _fail(f"cannot {doing} the database {shown!r}: {str(exc).splitlines()[0]}")


@db_app.command("upgrade", short_help="Bring the database schema to this version's newest "
                                       "revision.")
def db_upgrade(db: Annotated[str | None, _DB_URL] = None) -> None:
    """Bring the database schema to this version's newest revision (the server does it too
    as it starts, under a lock; run this before starting several processes)."""
    with _database(db, "upgrade") as (store, shown):
        before = store.revision()
        store.migrate()
        after = store.revision()
    if before == after:
        typer.echo(f"{shown}: already at revision {after}")
    else:
        typer.echo(f"{shown}: upgraded from {before or 'an empty database'} to revision {after}")


@db_app.command("revision")
def db_revision(db: Annotated[str | None, _DB_URL] = None) -> None:
    """Print the database's schema revision and the newest one this version knows."""
    with _database(db, "read") as (store, shown):
        current = store.revision()
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from eights.server.store import MIGRATIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    head = ScriptDirectory.from_config(config).get_current_head()
    state = "up to date" if current == head else "needs: eights db upgrade"
    typer.echo(f"{shown}: revision {current or '(empty)'}; newest {head} ({state})")


@app.command(short_help="Train a learned bot for a rule set and a player count.")
def train(
    rules: Annotated[str, typer.Argument(metavar="RULES",
                                         help="Preset name or rules file (house rules).")],
    players: Annotated[int | None, typer.Option(
        "--players", "-n", help="Number of players.",
        show_default="the rules' default_players, said when the run starts")] = None,
    hours: Annotated[float, typer.Option(
        help="Hours the whole run takes, every phase included (with --resume: in all).")]
    = 1.0,
    seed: Annotated[int, typer.Option(help="Seed of every random choice of the run.")] = 0,
    out: Annotated[Path | None, typer.Option(
        help="Directory of the checkpoint, the model and the learning curve "
             "(default: RULES-Np).")] = None,
    resume: Annotated[bool, typer.Option(help="Go on from the checkpoint in --out.")] = False,
    start: Annotated[str, typer.Option(
        help="The model to start from: family (the shipped family model, at the expert's "
             "level from the first move), none (random weights) or a model file.")]
    = "family",
    samples: Annotated[int | None, typer.Option(
        help="Stop after this many decisions learned from (repeatable runs: the time "
             "limit depends on the machine).")] = None,
    algorithm: Annotated[str, typer.Option(
        help="pg (policy gradient with action masks, the default) or dmc (Deep "
             "Monte-Carlo).")] = "pg",
    eval_every: Annotated[float, typer.Option(
        help="Minutes between two measurements against the expert (0: none).")] = 5.0,
    eval_deals: Annotated[int | None, typer.Option(
        help="Duplicate deals of each measurement against the expert.",
        show_default="100, or 40 for a run under a quarter of an hour")] = None,
    teacher: Annotated[str, typer.Option(
        help="A bot the network imitates before self-play, or none (self-play from random "
             "weights).")] = "expert",
    teacher_decisions: Annotated[int, typer.Option(
        help="The teacher's decisions to imitate (fewer when --hours runs out).")] = 500_000,
    refine: Annotated[str | None, typer.Option(
        help="A stronger, slower teacher the imitated network is then fitted to, such as "
             "ismcts:iterations=2000 (its rounds are kept in OUT/refine and reused by a run "
             "started again).")] = None,
    refine_decisions: Annotated[int, typer.Option(
        help="The refining teacher's decisions to fit (rounded up to thousands).")] = 60_000,
    jobs: Annotated[int, typer.Option(
        "--jobs", "-j", help="Processes playing the refining teacher's rounds (the model does "
                             "not depend on it).")] = 1,
    quiet: Annotated[bool, typer.Option(help="No progress.")] = False,
    set_: SetOpt = None,
) -> None:
    """Train a learned bot for a rule set and player count: by default it starts from the
    family model (which plays every table at the expert's level), imitates a teacher on these
    rules (and, with --refine, a stronger one), then learns by self-play; the model kept is
    the one that measured best against the expert, the starting model included."""
    started = time.perf_counter() - _process_age()  # --hours counts from the process's start
    _need("train", "eights train")
    _need("fast", "eights train")
    _need("lab", "eights train", "matplotlib", "openskill")
    rules_obj = _rules(rules, set_)
    n = _players(rules_obj, players)
    folder = out if out is not None else Path(f"{rules_obj.name}-{n}p")
    checkpoint = folder / "checkpoint.pt"
    if not resume and checkpoint.exists():  # said before PyTorch loads (seconds)
        _fail(f"{str(folder)!r} holds a checkpoint already: --resume to go on, or "
              "another --out")
    from eights.learn.train import ALGORITHMS, Config, Trainer, save_curve

    if algorithm not in ALGORITHMS:
        _fail(f"unknown algorithm {algorithm!r}; algorithms: {', '.join(ALGORITHMS)}")
    if not hours > 0 or not math.isfinite(hours):
        _fail(f"--hours must be positive, not {hours}")
    if samples is not None and samples < 1:
        _fail(f"--samples must be 1 or more, not {samples}")
    if eval_every < 0:
        _fail(f"--eval-every must be 0 or more minutes, not {eval_every}")
    if eval_deals is None:
        eval_deals = 100 if hours >= 0.25 or samples is not None else 40
    if eval_deals < 1:
        _fail(f"--eval-deals must be 1 or more, not {eval_deals}")
    if teacher_decisions < 1:
        _fail(f"--teacher-decisions must be 1 or more, not {teacher_decisions}")
    if refine_decisions < 1 or jobs < 1:
        _fail(f"--refine-decisions and --jobs must be 1 or more, not {refine_decisions} and "
              f"{jobs}")
    if refine is not None and teacher == "none":
        _fail("--refine refines an imitated network: it needs a --teacher, not none")
    for option, spec in (("--teacher", teacher), ("--refine", refine)):
        if spec is None or spec == "none":
            continue
        try:
            check = getattr(make_bot(spec), "check_table", None)
            if check is not None:  # a bot that plays only some tables says why not this one
                check(rules_obj, n)
        except ValueError as exc:
            _fail(f"{option} {spec!r}: {exc}")
    init: str | None = None if start == "none" else start
    if init not in (None, "family"):
        from eights.bots.learned import Model

        try:
            if not Model.load(init).family:
                _fail(f"--start {start!r}: a model of one rule set (format 1); start from a "
                      f"family model (family, or one eights train wrote), or none")
        except ValueError as exc:
            _fail(f"--start {start!r}: {exc}")
        init = str(Path(init).resolve())
    command = "eights train " + " ".join(sys.argv[2:]) if sys.argv[1:2] == ["train"] else ""
    changes: dict[str, Any] = {"hours": hours, "samples": samples, "command": command,
                               "jobs": jobs,
               "eval_every": eval_every * 60, "eval_deals": eval_deals}
    if players is None:
        typer.echo(f"players: {n} (the default of {rules_obj.name}; --players to change)")
    if resume:
        if not checkpoint.exists():
            _fail(f"--resume: no checkpoint {str(checkpoint)!r} (start without --resume)")
        trainer = Trainer.load(checkpoint, **changes)
        if trainer.rules != rules_obj or trainer.players != n:
            _fail(f"--resume: the checkpoint in {str(folder)!r} trains "
                  f"{trainer.rules.name} with {trainer.players} players, not these rules "
                  f"with {n}")
    else:
        _check_output(folder, "--out", directory=True)
        try:
            trainer = Trainer(Config(rules_obj.to_table(), n, seed=seed, algorithm=algorithm,
                                     teacher=None if teacher == "none" else teacher,
                                     teacher_decisions=teacher_decisions, refine=refine,
                                     refine_decisions=refine_decisions, init=init,
                                     teacher_lr=3e-4 if init is not None else 1e-3,
                                     **changes))
        except ValueError as exc:
            _fail(str(exc))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot  # now, not in the run's last seconds (the curve's picture)

    with _training_progress(trainer, quiet) as report:
        result = trainer.run(report, checkpoint, started=started)
    curve = folder / "curve.png"
    if result.curve:
        save_curve(result.curve, curve, f"{rules_obj.title}, {n} players", n)
    typer.echo(f"trained {result.seconds / 60:.1f} min in all:")
    for phase in result.phases:
        typer.echo("  " + _phase_line(phase))
    if result.selfplay_skipped:
        typer.echo(f"  self-play: none ({result.selfplay_skipped})")
    if result.curve:
        kept = result.curve[result.best]
        which = "the starting model" if kept.get("start") else "the tuned model"
        typer.echo(f"kept {which}: {kept['win_share']:.3f} [{kept['low']:.3f}, "
                   f"{kept['high']:.3f}] against the expert ({int(kept['rounds'])} rounds, "
                   f"seed {trainer.config.eval_seed}; level with the experts at {1 / n:.3f}, one "
                   f"seat in {n}); curve: {curve}")
        last = result.curve[-1]
        if "vs_start" in last:
            d = last["vs_start"]
            verdict = ("beyond the noise" if d["low"] > 0 or d["high"] < 0
                       else "within the noise: the starting model is kept")
            typer.echo(f"  the tuned network against the starting model on the same "
                       f"{trainer.config.eval_deals} deals: {d['difference']:+.3f} "
                       f"[{d['low']:+.3f}, {d['high']:+.3f}], {verdict}")
    model = (folder / "model.npz").resolve()
    sets = "".join(f" --set {shlex.quote(item)}" for item in set_ or [])
    typer.echo(f"model: {model} (play it: eights play -r {shlex.quote(rules)}{sets} -n {n} "
               f"--bots {shlex.quote(f'learned:model={model}')})")


def _phase_line(phase: dict[str, Any]) -> str:
    """One phase of a training run, for its summary."""
    name, seconds = phase["phase"], phase["seconds"]
    if name == "measure":
        what = "starting model" if phase.get("start") else "network"
        return f"measure ({what}): {phase['win_share']:.3f} against the expert, {seconds:.0f} s"
    if name == "imitate":
        return (f"imitate: {phase['decisions']:,} decisions of {phase['teacher']} played, "
                f"{seconds:.0f} s")
    if name == "fit":
        return (f"fit: {phase['samples']:,} samples, agreement {phase['agreement']:.3f}, "
                f"{seconds:.0f} s")
    if name == "refine":
        return f"refine: {phase['decisions']:,} decisions, {seconds:.0f} s"
    if name == "self-play":
        return f"self-play: {phase['samples']:,} decisions learned from, {seconds:.0f} s"
    return f"{name}: {phase.get('skipped', '')} {seconds:.0f} s".strip()


def _process_age() -> float:
    """Seconds since this process started (Linux's ``/proc``; 0 where it cannot be read),
    so that a time limit counts the interpreter's start and the imports too."""
    try:
        stat = Path("/proc/self/stat").read_text("utf-8").rsplit(")", 1)[1].split()
        uptime = float(Path("/proc/uptime").read_text("utf-8").split()[0])
        return max(0.0, uptime - int(stat[19]) / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


PROGRESS_EVERY = 30.0
"""Seconds between two progress lines when the output is not a terminal."""


def _progress_fields(p: Any) -> tuple[str, str, str]:
    """Where a training run stands: how far its phase is, the time left in all, the last
    measurement (each "" where there is none)."""
    if p.phase in ("imitate", "refine"):
        done = f"{int(p.phase_done):,} of {int(p.phase_total):,} decisions"
    elif p.phase == "fit":
        done = f"{int(p.phase_done):,} of {int(p.phase_total):,} samples"
    elif p.phase == "measure":
        done = f"{int(p.phase_done):,} of {int(p.phase_total):,} rounds against the expert"
    elif p.phase == "self-play":
        done = f"{p.samples:,} decisions learned from"
    else:
        done = "starting"
    left = f"{_clock(p.left)} left in all" if math.isfinite(p.left) else ""
    vs = ""
    if p.curve:
        c = p.curve[-1]
        vs = f"vs expert {c['win_share']:.2f} [{c['low']:.2f}, {c['high']:.2f}]"
    return done, left, vs


def _fitted(fields: list[str], width: int) -> str:
    """``fields`` joined by commas, as many as fit in ``width`` columns, whole: a field is
    never cut (the first, if it alone is too wide, is cut after a word, with an ellipsis)."""
    text = ""
    for field in fields:
        joined = f"{text}, {field}" if text else field
        if len(joined) > width:
            break
        text = joined
    if not text and fields:
        words = fields[0].split(" ")
        while words and len(" ".join(words)) + 1 > width:
            words.pop()
        text = " ".join(words) + "…" if words else ""
    return text


def _progress_text(p: Any) -> str:
    """Where a training run stands, as a line: its phase, how far, the time left, the last
    measurement."""
    return f"{p.phase or 'start'}: " + ", ".join(f for f in _progress_fields(p) if f)


def _bar_text(p: Any, width: int) -> str:
    """The text beside the progress bar (which shows how far the phase is), in ``width``
    columns at most: the time left first, then how far, then the last measurement, as many
    whole as fit."""
    done, left, vs = _progress_fields(p)
    return _fitted([f for f in (left, done, vs) if f], width)


def _clock(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


@contextmanager
def _training_progress(trainer: Any, quiet: bool) -> Iterator[Callable[[Any], None]]:
    """Progress of a training run: a bar on a terminal (the phase, how far it is, the time
    left in all); otherwise a line on standard error every :data:`PROGRESS_EVERY` seconds
    (and at each new phase)."""
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TextColumn

    forced = os.environ.get("EIGHTS_PROGRESS", "")
    console = Console(stderr=True, force_terminal=True if forced == "1" else None)
    title = f"training {trainer.rules.name} {trainer.players}p"
    if quiet:
        yield lambda p: None
        return
    if forced == "0" or not (forced == "1" or console.is_terminal):
        every = float(os.environ.get("EIGHTS_PROGRESS_EVERY", PROGRESS_EVERY))
        last_time, last_phase = -math.inf, ""

        def line(p: Any) -> None:
            nonlocal last_time, last_phase
            now = time.monotonic()
            if now - last_time < every and p.phase == last_phase:
                return
            last_time, last_phase = now, p.phase
            print(f"{title}: {_progress_text(p)}", file=sys.stderr, flush=True)

        yield line
        return
    bar_width = 16
    columns = (TextColumn("{task.description}"), BarColumn(bar_width=bar_width),
               TextColumn("{task.fields[text]}"))
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(title, total=1.0, text="")
        shown = 0.0

        def update(p: Any) -> None:
            nonlocal shown
            now = time.monotonic()
            if now - shown < 0.2:
                return
            shown = now
            done = p.phase_done / p.phase_total if p.phase_total else 0.0
            description = f"{title} {p.phase}"
            room = console.width - len(description) - bar_width - 3  # the columns' spaces
            bar.update(task, completed=min(1.0, done), description=description,
                       text=_bar_text(p, room))

        yield update


@app.command("compile", short_help="Compile the kernel (numba) into its cache now, not at its first use.")
def compile_cmd(
    nice: Annotated[int, typer.Option("--nice", min=0, help="Lower this process's priority "
                                      "by N first (0: not at all).")] = 0,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the last line, not "
                                        "each step and function.")] = False,
) -> None:
    """Compile the kernel (numba) ahead of its first use: the batched environment, search and
    fast simulation then start in a second. Minutes, once; python -m eights.fast does the
    same."""
    _need("fast", "eights compile")
    from eights.fast.__main__ import main as compile_main

    compile_main([f"--nice={nice}", *(["--quiet"] if quiet else [])])


def main() -> None:  # pragma: no cover - console entry
    app()


if __name__ == "__main__":  # pragma: no cover
    main()
