# Two commands for a newcomer: `make demo` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test test-slow test-nojit lint clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# One stamp per set of extras, so `make demo` and `make test` each install what they need.
# Tests use the bench peers too: OpenSpiel is the oracle of the exploitability cross-check.
$(VENV)/.stamp-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[dev,bench,distributed]"
	touch $@

$(VENV)/.stamp-demo: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

demo: $(VENV)/.stamp-demo
	$(BIN)/vcfr demo

test: $(VENV)/.stamp-test
	$(BIN)/pytest -n 2

test-slow: $(VENV)/.stamp-test
	$(BIN)/pytest -n 2 -m slow

# Every numba kernel must also run as plain Python: under NUMBA_DISABLE_JIT the interpreter checks
# what compiled code lets pass (bounds, types numba would coerce). The fast game and solver tests.
test-nojit: $(VENV)/.stamp-test
	NUMBA_DISABLE_JIT=1 $(BIN)/pytest -n 2 tests/game tests/solver -m "not slow and not jit_only"

# The check CI runs: ruff's lint rules and its formatter, as configured in pyproject.toml.
lint: $(VENV)/.stamp-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

clean:
	rm -rf $(VENV) build *.egg-info
