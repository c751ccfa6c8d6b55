# Two commands for a fresh clone:
#   make demo   set up .venv and solve a built-in Hexiom level and some Sudoku
#   make test   set up .venv and run the tests
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test bench setup clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip setuptools wheel
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/pzc specs
	@echo
	$(BIN)/pzc solve hexiom pzc/specs/examples/hexiom/medium.txt --stats
	$(BIN)/pzc solve sudoku pzc/specs/examples/sudoku/grid9.txt pzc/specs/examples/sudoku/three.txt
	$(BIN)/pzc solve puzlogic pzc/specs/examples/puzlogic/level.json
	$(BIN)/pzc solve sliding pzc/specs/examples/sliding/goal.txt

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
