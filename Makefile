# kingdoms — every set-up step is here; `make lab` and `make test` are all a newcomer needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8888
# JupyterLab refuses to run as root without --allow-root (containers, Binder-like boxes).
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)
LAB_ARGS ?=
PYTEST_ARGS ?=
NBVAL  := --nbval --nbval-sanitize-with nbval_sanitize.cfg
NOTEBOOKS := $(shell find notebooks exercises -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' 2>/dev/null | sort)

.PHONY: lab test test-fast notebooks exercises app bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.notebook-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[notebook]"
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test,notebook]"
	touch $@

$(VENV)/.bench-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[bench]"
	touch $@

## make lab: JupyterLab on notebooks/index.ipynb, serving the whole checkout (so links to exercises/ work);
## LAB_ARGS="--no-browser --ip=0.0.0.0" when headless
lab: $(VENV)/.notebook-installed
	$(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" notebooks/index.ipynb --port=$(PORT) $(ROOT_FLAG) $(LAB_ARGS)

## make test: the whole suite — unit, property, notebooks (nbval), exercises, browser, Binder recipe
test: $(VENV)/.test-installed
	$(BIN)/python -m pytest $(NBVAL) tests notebooks exercises $(PYTEST_ARGS)

## make test-fast: the library tests only (no notebooks, browser or Binder)
test-fast: $(VENV)/.test-installed
	$(BIN)/python -m pytest tests -m "not slow and not browser" $(PYTEST_ARGS)

## make notebooks: re-execute every notebook in place (seeded: outputs reproduce)
notebooks: $(VENV)/.test-installed
	for nb in $(NOTEBOOKS); do \
	  echo "executing $$nb"; \
	  $(BIN)/jupyter nbconvert --to notebook --execute --inplace "$$nb" || exit 1; \
	done

## make exercises: student versions (solutions and hidden tests stripped) into build/student-exercises
exercises: $(VENV)/.notebook-installed
	$(BIN)/python -m kingdoms.exercises student exercises build/student-exercises

## make app GAME=horse: the game's walkthrough as a Voila app (no code shown)
app: $(VENV)/.notebook-installed
	$(BIN)/voila notebooks/$(GAME)/walkthrough.ipynb --port=$(PORT) $(LAB_ARGS)

## make bench: random-playout speed of every game beside OpenSpiel's Python Kuhn poker, and more
bench: $(VENV)/.bench-installed
	$(BIN)/python benchmarks/bench.py

clean:
	rm -rf build artifacts .pytest_cache .hypothesis
