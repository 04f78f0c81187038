# Two commands on a fresh machine: `make run` (the bot) and `make test` (the whole suite).
# `make run` creates .venv with the runtime lock only (requirements.txt: about 155 MB); `make test` and `make lint`
# add the development lock (requirements-dev.txt: the test and benchmark stack, about 670 MB in all). Each installs
# from the hash-pinned lock files when they are missing or newer than its stamp. Needs Python >= 3.11 and make;
# pip-tools only for `make lock`.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.runtime
INSTALLED := $(VENV)/.installed
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
KERNELS := setup.py engine/mnk/_mnk_c.c engine/ultimate/_ultimate_c.c engine/ultimate/_ultimate_board.h \
	engine/ultimate/_ultimate_prove.h engine/connect_four/_connect_four_c.c engine/gomoku/_gomoku_c.c \
	engine/gomoku/_gomoku_board.h
BABEL_KEYWORDS := -k N_ -k C_:1c,2 -k plural:1,2

.PHONY: run console test lint lock messages books book puzzles clean

run: $(RUNTIME)
	@$(BIN)/python -m bot

console: $(RUNTIME)  # options: make console ARGS="--as O --level 5"
	@$(BIN)/python -m bot --console $(ARGS)

test: $(INSTALLED)
	$(BIN)/python -m pytest -q

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The runtime: the bot's dependencies, then the bot and the engine with their C kernels, built by the hash-pinned
# setuptools of requirements-build.txt (no build isolation: nothing unpinned is fetched).
$(RUNTIME): requirements.txt requirements-build.txt pyproject.toml $(KERNELS)
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11) and "Python >= 3.11 is needed (set PYTHON=...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(PIP) --require-hashes -r requirements-build.txt -r requirements.txt
	$(PIP) --no-deps --no-build-isolation -e .
	@touch $@

# The development stack on top: tests, benchmarks, linters.
$(INSTALLED): $(RUNTIME) requirements-dev.txt
	$(PIP) --require-hashes -r requirements-build.txt -r requirements-dev.txt
	@touch $@

# Regenerate the lock files from pyproject.toml (the source of the dependencies).
lock:
	$(PYTHON) -m piptools compile --quiet --generate-hashes --strip-extras --allow-unsafe --no-emit-index-url \
		--no-emit-find-links -o requirements.txt pyproject.toml
	$(PYTHON) -m piptools compile --quiet --generate-hashes --strip-extras --allow-unsafe --no-emit-index-url \
		--no-emit-find-links --extra test --extra dev -o requirements-dev.txt pyproject.toml
	$(PYTHON) -m piptools compile --quiet --generate-hashes --strip-extras --allow-unsafe --no-emit-index-url \
		--no-emit-find-links --only-build-deps --all-build-deps -o requirements-build.txt pyproject.toml

# Extract the messages into bot/i18n/locale/ttt.pot and merge them into every catalog (then translate the new ones).
messages: $(RUNTIME)
	$(BIN)/pybabel -q extract -F babel.cfg $(BABEL_KEYWORDS) --no-location --sort-output \
		--project ttt-bot --copyright-holder "ttt-bot developers" -o bot/i18n/locale/ttt.pot .
	$(BIN)/pybabel -q update -D ttt -i bot/i18n/locale/ttt.pot -d bot/i18n/locale --width 120 --ignore-pot-creation-date

# Rebuild the opening books from scratch, each printing its build time: 5x5's with the engine's own solver (about
# 3 min on one core), Connect Four's from BitBully's 12-ply database (a test requirement; seconds). `make book`: alias.
books: $(INSTALLED)
	$(BIN)/python -m engine.mnk.book_build --game 5x5 --plies 6
	$(BIN)/python -m engine.connect_four.book_build

book: books

# Rebuild the shipped puzzles (engine/puzzles/data/*.json) from self-play, proved by the engine (two processes),
# then fit the ratings of the registered games' sets from the tries of levels 1-8.
puzzles: $(RUNTIME)
	$(BIN)/python -m engine.puzzles.build --jobs 2
	$(BIN)/python -m bot.puzzles.fit --jobs 2

clean:
	rm -rf $(VENV)
