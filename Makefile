# Two commands for a newcomer: `make demo` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test test-slow clean

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
	$(BIN)/pytest -m slow

clean:
	rm -rf $(VENV) build *.egg-info
