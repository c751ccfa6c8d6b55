# Commands for a fresh clone:
#   make demo        set up .venv (first run only), then solve with built-in
#                    specs: a Hexiom level, three Sudoku, a Puzlogic level and
#                    a sliding puzzle, each answer verified before it is printed
#   make test        set up .venv (with pytest) and run the whole test suite
#   make test-fast   the same less the tests marked slow, browser, cluster,
#                    corpus or pzprjs (pyproject.toml): the core, in under three minutes
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test test-fast bench setup clean

setup: $(STAMP)

# -qq: pip shows errors only, so that the demo's first screen is the demo
$(STAMP): pyproject.toml
	@echo "setting up $(VENV) (first run only) ..."
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install -qq --upgrade pip setuptools wheel
	@$(BIN)/python -m pip install -qq -e '.[test]'
	@touch $(STAMP)

# solving first: the first screen shows answers, the list of specs is a hint at the end
demo: $(STAMP)
	$(BIN)/pzc solve hexiom specs/examples/hexiom/medium.txt --stats
	$(BIN)/pzc solve sudoku specs/examples/sudoku/grid9.txt specs/examples/sudoku/three.txt
	$(BIN)/pzc solve puzlogic specs/examples/puzlogic/level.json
	$(BIN)/pzc solve sliding specs/examples/sliding/goal.txt
	$(BIN)/pzc solve 'https://puzz.link/p?nurikabe/5/5/g5k2o1k3g'
	@echo "more: '$(BIN)/pzc specs' lists the built-in specs; '. $(BIN)/activate' puts pzc on your PATH"

test: $(STAMP)
	$(BIN)/python -m pytest -q

# pytest exits 5 when the marks leave no test to run: make fails then too
FAST_MARKS := not slow and not browser and not cluster and not corpus and not pzprjs

test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -m "$(FAST_MARKS)"

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
