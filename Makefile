# The two commands: `make play` and `make test`. Both create .venv when it is missing.
#
#   make play   play in the terminal (needs only Python): installs eights with what playing
#               needs, the tui and fast extras (textual; numba for the search bot's kernel),
#               with uv (installed first into .venv when it is not on PATH; pip where uv
#               cannot be had, or with UV=no: see tools/install-venv), then runs
#               `eights play $(ARGS)`; the kernel compiles in the background under the game
#               the first time
#   make test   installs every extra (.[all,test], with pip) and compiles the kernel, then, as root:
#               installs chromium and postgresql when missing, starts a private PostgreSQL
#               cluster, then `make check`; not as root, stops at once and says what to
#               install (see tools/test-env and docs/development.md)
#   make check  ruff, mypy --strict and pytest, without the system set-up
#   make path   prints the directory of .venv's commands (eights): add it to PATH
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PLAY_EXTRAS := tui,fast
PLAY_STAMP := $(VENV)/.installed-play
STAMP := $(VENV)/.installed
ARGS ?=

.PHONY: play path test check lint typecheck pytest bench clean

# what playing needs, with the installer's progress (uv: about 10 s from the package registry)
$(PLAY_STAMP): pyproject.toml
	PYTHON=$(PYTHON) tools/install-venv $(VENV) $(PLAY_EXTRAS)
	touch $@

# everything, the kernel compiled into numba's cache; it covers play's install too
$(STAMP): pyproject.toml
	PYTHON=$(PYTHON) tools/install-venv --pip --quiet $(VENV) all,test
	@echo '== make: compiling the kernel into the numba cache'
	$(BIN)/python -m eights.fast
	touch $@ $(PLAY_STAMP)

play: $(PLAY_STAMP)
	@echo '== make: starting eights play (run it again later as $(BIN)/eights, or see make path)'
	$(BIN)/eights play $(ARGS)

path:
	@echo '$(abspath $(BIN))'

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
