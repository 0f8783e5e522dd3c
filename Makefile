# The two commands: `make play` and `make test`. Both create .venv when missing and
# install eights with every extra (.[all,test]).
#
#   make play   play in the terminal (needs only Python)
#   make test   as root: installs chromium and postgresql when missing, starts a private
#               PostgreSQL cluster, then `make check`; not as root, stops at once and says
#               what to install (see tools/test-env and docs/development.md)
#   make check  ruff, mypy --strict and pytest, without the system set-up
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PIP := $(BIN)/python -m pip --quiet --disable-pip-version-check

.PHONY: play test check lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(PIP) install -e '.[all,test]'
	$(BIN)/python -m eights.fast  # compile the kernel once, into numba's cache
	touch $(STAMP)

play: $(STAMP)
	$(BIN)/eights play

test:
	@tools/test-env $(MAKE) --no-print-directory check

check: lint typecheck pytest

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist worksteal src tests

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis
