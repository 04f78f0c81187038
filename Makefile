# Two commands on a fresh machine: `make run` (the bot) and `make test` (the whole suite).
# Each creates .venv and installs into it from the hash-pinned lock files when they are missing or newer than
# the last install. Needs Python >= 3.11 and make; pip-tools only for `make lock`.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
BABEL_KEYWORDS := -k N_ -k C_:1c,2 -k plural:1,2

.PHONY: run console test lint lock messages book puzzles clean

run: $(INSTALLED)
	@$(BIN)/python -m bot

console: $(INSTALLED)  # options: make console ARGS="--as O --level 5"
	@$(BIN)/python -m bot --console $(ARGS)

test: $(INSTALLED)
	$(BIN)/python -m pytest -q

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

$(INSTALLED): requirements-dev.txt pyproject.toml setup.py engine/mnk/_mnk_c.c engine/ultimate/_ultimate_c.c \
		engine/ultimate/_ultimate_board.h engine/ultimate/_ultimate_prove.h engine/connect_four/_connect_four_c.c
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python >= 3.11 is needed (set PYTHON=...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements-dev.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	@touch $@

# Regenerate the lock files from pyproject.toml (the source of the dependencies).
lock:
	$(PYTHON) -m piptools compile --quiet --generate-hashes --strip-extras --allow-unsafe --no-emit-index-url \
		--no-emit-find-links -o requirements.txt pyproject.toml
	$(PYTHON) -m piptools compile --quiet --generate-hashes --strip-extras --allow-unsafe --no-emit-index-url \
		--no-emit-find-links --extra test --extra dev -o requirements-dev.txt pyproject.toml

# Extract the messages into bot/i18n/locale/ttt.pot and merge them into every catalog (then translate the new ones).
messages: $(INSTALLED)
	$(BIN)/pybabel -q extract -F babel.cfg $(BABEL_KEYWORDS) --no-location --sort-output \
		--project ttt-bot --copyright-holder "ttt-bot developers" -o bot/i18n/locale/ttt.pot .
	$(BIN)/pybabel -q update -D ttt -i bot/i18n/locale/ttt.pot -d bot/i18n/locale --width 120 --ignore-pot-creation-date

# Rebuild the 5x5 opening book from scratch with the engine's own solver (about 3 min on one core).
book: $(INSTALLED)
	$(BIN)/python -m engine.mnk.book_build --game 5x5 --plies 6

# Rebuild the shipped puzzles (engine/puzzles/data/*.json) from self-play, proved by the engine (two processes),
# then fit their ratings from the tries of levels 1-8.
puzzles: $(INSTALLED)
	$(BIN)/python -m engine.puzzles.build --jobs 2
	$(BIN)/python -m bot.puzzles.fit --jobs 2

clean:
	rm -rf $(VENV)
