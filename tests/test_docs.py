"""The documentation says what the code does: every rule ID cited in the code and the
tests is defined in docs/rules.md, the links between documents resolve, the README's
Python example and commands run, and the house-rules guide lists every rules field."""

from __future__ import annotations

import doctest
import re
import shlex
import tomllib
from dataclasses import MISSING, fields
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
import typer.main
from typer.testing import CliRunner

from eights.cli import app
from eights.engine.rules import CardRule, Rules, load_rules

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RULES_DOC = DOCS / "rules.md"
CONTRACT = ROOT.parent / "shared" / "RULES.md"
"""The shared contract docs/rules.md copies (beside the clone, when it is there)."""

PREFIXES = "HF|HA|CL|LH|CE|MM|SW|BJ|LC|PE|TS|UC"
CITED = re.compile(rf"\b(?:{PREFIXES})\d+\b")
DEFINED = re.compile(rf"^- ((?:{PREFIXES})\d+)\b", re.MULTILINE)
SEED_PREFIXES = ("HF", "HA", "CL", "LH")

runner = CliRunner()


def _defined_ids(text: str) -> list[str]:
    return DEFINED.findall(text)


def _cited_ids() -> dict[str, set[str]]:
    """Rule IDs cited in the package, the presets, the tests and the benchmarks."""
    cited: dict[str, set[str]] = {}
    files = [*(ROOT / "src" / "eights").rglob("*.py"), *(ROOT / "src" / "eights").rglob("*.toml"),
             *(ROOT / "tests").glob("*.py"), *(ROOT / "benchmarks").glob("*.py")]
    for path in files:
        for rule_id in CITED.findall(path.read_text("utf-8")):
            cited.setdefault(rule_id, set()).add(str(path.relative_to(ROOT)))
    return cited


def test_every_rule_id_cited_in_code_and_tests_is_defined_in_docs_rules() -> None:
    defined = set(_defined_ids(RULES_DOC.read_text("utf-8")))
    cited = _cited_ids()
    assert {"HF9", "HA7", "CL5", "LH4"} <= cited.keys()  # the scan reaches the presets and tests
    missing = {rule_id: sorted(paths) for rule_id, paths in cited.items() if rule_id not in defined}
    assert not missing, f"rule IDs cited but not defined in docs/rules.md: {missing}"


def test_docs_rules_defines_each_rule_once_and_in_order() -> None:
    ids = _defined_ids(RULES_DOC.read_text("utf-8"))
    assert len(ids) == len(set(ids)), "a rule ID is defined twice"
    by_prefix: dict[str, list[int]] = {}
    for rule_id in ids:
        by_prefix.setdefault(rule_id[:2], []).append(int(rule_id[2:]))
    assert set(SEED_PREFIXES) <= by_prefix.keys()
    for prefix, numbers in by_prefix.items():
        assert numbers == list(range(1, len(numbers) + 1)), f"{prefix} rules are not 1..n"


def test_docs_rules_holds_the_whole_shared_contract() -> None:
    doc = RULES_DOC.read_text("utf-8")
    assert "repository's copy of the rules contract" in doc
    # The contract's headings for the four seeds, and its Decisions, are always there.
    for heading in ("## `huit-fou`", "## `huit-americain`", "## `classic`", "## `les-huit`",
                    "## The family", "*Decision"):
        assert heading in doc
    if CONTRACT.is_file():  # CI and the working machines have shared/ beside the clone
        contract = CONTRACT.read_text("utf-8")
        assert contract.strip() in doc, "docs/rules.md differs from shared/RULES.md"
        assert set(_defined_ids(contract)) == set(_defined_ids(doc))


# --------------------------------------------------------------------------- links


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text("utf-8"), flags=re.DOTALL)
    return {_slug(m) for m in re.findall(r"^#+ (.+)$", text, re.MULTILINE)}


MARKDOWN = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted(DOCS.glob("*.md"))]


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_between_documents_resolve(path: Path) -> None:
    text = re.sub(r"```.*?```", "", path.read_text("utf-8"), flags=re.DOTALL)
    links = re.findall(r"\]\(([^)\s]+)\)", text)
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue  # a web address
        target, _, anchor = link.partition("#")
        file = (path.parent / target).resolve() if target else path
        assert file.exists(), f"{path.name}: link to {link} (no such file)"
        if anchor:
            assert anchor in _anchors(file), f"{path.name}: link to {link} (no such heading)"


def test_readme_links_into_every_doc() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    for name in ("rules", "house-rules", "bots", "protocol", "benchmarks", "architecture",
                 "development"):
        assert f"(docs/{name}.md)" in readme


# --------------------------------------------------------------------------- the README runs


def _blocks(path: Path, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", path.read_text("utf-8"),
                      re.MULTILINE | re.DOTALL)


def test_readme_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    blocks = _blocks(ROOT / "README.md", "python")
    assert blocks, "the README has a Python example"
    monkeypatch.chdir(tmp_path)
    for code in blocks:
        assert len(code.splitlines()) <= 25, "the Python example is about twenty lines"
        exec(compile(code, "README.md", "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out
    assert re.search(r"^\[\d+, \d+, \d+\] \[\d+, \d+, \d+\]$", out, re.MULTILINE), out


def test_architecture_examples_run() -> None:
    result = doctest.testfile(str(DOCS / "architecture.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def _commands(path: Path) -> list[list[str]]:
    """The ``eights`` command lines of a document's shell examples, as words."""
    commands = []
    for block in _blocks(path, "sh"):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith("eights "):
                commands.append(shlex.split(line)[1:])
    return commands


def _command(words: list[str]) -> tuple[Any, list[str]]:
    """The (click) command a command line names, and its remaining words."""
    command: Any = typer.main.get_command(app)
    while hasattr(command, "commands") and words and words[0] in command.commands:
        command, words = command.commands[words[0]], words[1:]
    return command, words


@pytest.mark.parametrize("name", ["README.md", "docs/house-rules.md", "docs/bots.md",
                                  "docs/scaling.md"])
def test_commands_in_the_docs_name_real_commands_and_options(name: str) -> None:
    commands = _commands(ROOT / name)
    assert len(commands) >= 3
    for words in commands:
        command, rest = _command(words)
        assert not hasattr(command, "commands"), f"eights {' '.join(words)}: no such command"
        options = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}
        for word in rest:
            if word.startswith("-"):
                assert word.split("=")[0] in options, f"eights {' '.join(words)}: unknown {word}"


def test_readme_rules_commands_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands that print and exit run as written, on the README's house.toml."""
    readme = ROOT / "README.md"
    house = next(b for b in _blocks(readme, "toml") if b.startswith("# house.toml"))
    (tmp_path / "house.toml").write_text(house, "utf-8")
    monkeypatch.chdir(tmp_path)
    ran = 0
    for words in _commands(readme):
        if words[0] in ("rules", "demo"):
            result = runner.invoke(app, words)
            assert result.exit_code == 0, f"eights {' '.join(words)}: {result.output}"
            ran += 1
    assert ran >= 3
    shown = runner.invoke(app, ["rules", "show", "house.toml"]).output
    assert shown.startswith("Our kitchen table (house)") and "Jokers per deck: 2." in shown


# --------------------------------------------------------------------------- house rules


def _field_tables(text: str) -> tuple[dict[str, str], dict[str, str]]:
    """Field rows (name -> default cell) of the guide: the table fields, then the card fields."""
    section = text[text.index("## Every field"):text.index("## Examples")]
    table_part, card_part = section.split("### What each card does")
    row = re.compile(r"^\| `(\w+)` \| ([^|]*) \|", re.MULTILINE)
    return dict(row.findall(table_part)), dict(row.findall(card_part))


def _toml_text(value: Any) -> str | None:
    """A default as the guide writes it, for the fields with a one-word value."""
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if isinstance(value, Enum):
        return f'`"{value.value}"`'
    if isinstance(value, int):
        return f"`{value}`"
    if isinstance(value, str):
        return f'`"{value}"`' if value else '`""`'
    if isinstance(value, frozenset) and not value:
        return "`[]`"
    return None


def test_house_rules_guide_lists_every_field_with_its_default() -> None:
    guide = (DOCS / "house-rules.md").read_text("utf-8")
    table_rows, card_rows = _field_tables(guide)
    rules_fields = {f.name: f for f in fields(Rules) if f.init and "file_key" not in f.metadata}
    assert set(table_rows) == (rules_fields.keys() - {"cards"}) | {"extends"}
    assert set(card_rows) == {f.name for f in fields(CardRule)}
    plain = Rules()
    for name, cell in table_rows.items():
        if name in ("extends", "name"):
            continue
        expected = _toml_text(getattr(plain, name))
        if expected is not None:
            assert cell.strip() == expected, f"{name}: the guide says {cell.strip()}"
    for f in fields(CardRule):
        expected = _toml_text(f.default if f.default is not MISSING else None)
        if expected is not None:
            assert card_rows[f.name].strip() == expected, f"cards.{f.name}"


def test_house_rules_examples_load() -> None:
    examples = _blocks(DOCS / "house-rules.md", "toml")
    assert len(examples) >= 4
    for text in examples:
        table = tomllib.loads(text)
        assert "extends" in table
        load_rules(table)  # a RulesError here is a wrong example


def test_docs_rules_names_each_seed_preset_by_its_title_and_source() -> None:
    doc = RULES_DOC.read_text("utf-8")
    for name in ("huit-fou", "huit-americain", "classic", "les-huit"):
        rules = load_rules(name)
        assert f"| `{name}` | {rules.title} | {rules.source} |" in doc
        assert "seed" not in rules.source.lower()  # players never see an internal seed number


def test_docs_rules_header_says_every_family_preset_ships() -> None:
    """The header names each family preset as shipping (none "planned"), and each is a
    preset that loads and has its tests file."""
    header = RULES_DOC.read_text("utf-8").split("# The rules the engine must play")[0]
    header = " ".join(header.replace("\n>", " ").split())
    assert "planned" not in header and "not yet" not in header
    from eights.engine.rules import preset_names
    for name, prefix in (("crazy-eights", "ce"), ("mau-mau", "mm"), ("switch", "sw"),
                         ("black-jack", "bj"), ("last-card", "lc"), ("pesten", "pe"),
                         ("tschau-sepp", "ts"), ("uno-cards", "uc")):
        assert f"`{name}` ({prefix.upper()})" in header
        assert name in preset_names() and (ROOT / "tests" / f"test_rules_{prefix}.py").is_file()
        assert prefix in header.split("test_rules_{")[1].split("}")[0].split(",")
    assert len(preset_names()) == 13 and "shows thirteen presets" in header
