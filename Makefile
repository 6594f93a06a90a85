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
# exercises: only the teacher copies run under nbval (the student copies in exercises/release
# have no outputs and fail by design; tests/exercises checks them)
NOTEBOOKS := $(shell find notebooks exercises/source -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' 2>/dev/null | sort)

# the German catalog: texts are extracted from the code, translated in the .po, compiled to
# the .mo shipped in the package
LOCALE := kingdoms/locale

# The language of `make lab` and `make student-edition`: English, or German with `make lab-de`,
# `make student-edition-de` (or LANG=de on make's command line: `make lab LANG=de`).  Only a
# LANG given on make's command line counts: the shell's own LANG (C.UTF-8, de_DE.UTF-8 ...)
# is the locale of every program, not a choice of lessons, so `make lab` stays English with it;
# a LANG given on the command line is not passed on as the programs' locale (C.UTF-8 is)
ifeq ($(origin LANG),command line)
KINGDOMS_LANG := $(LANG)
override LANG := C.UTF-8
endif
KINGDOMS_LANG ?= en
ifeq ($(filter en de,$(KINGDOMS_LANG)),)
$(error LANG=$(KINGDOMS_LANG): the lessons are in LANG=en (English, the default) or LANG=de (German))
endif
# German JupyterLab: the settings overrides that choose the German language pack (installed by the
# notebook extra), read from this folder instead of the environment's own (never the user's settings)
LAB_DE_SETTINGS := binder/lab-de

.PHONY: catalogs lab lab-de student-edition-de test test-fast notebooks exercises student-edition app bench site handouts clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# .notebook-installed, .site-installed, .handouts-installed, .bench-installed: that extra
$(VENV)/.%-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$*]"
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[test,notebook]"
	touch $@

## make lab: JupyterLab on notebooks/index.ipynb, serving the whole checkout: the TEACHER edition
## (exercises/source too); students get `make student-edition`. LAB_ARGS="--no-browser --ip=0.0.0.0"
## when headless: the URL it prints opens the index (LabApp.default_url), not the Launcher.
## make lab-de (= make lab LANG=de): the same, German: JupyterLab's menus in German (its German
## language pack, through $(LAB_DE_SETTINGS)/overrides.json) on the German index notebooks/de/index.ipynb
LAB_URL := /lab/tree/notebooks/$(if $(filter de,$(KINGDOMS_LANG)),de/,)index.ipynb
LAB_LANGUAGE_ARGS := $(if $(filter de,$(KINGDOMS_LANG)),--LabApp.app_settings_dir="$(CURDIR)/$(LAB_DE_SETTINGS)",)
lab: $(VENV)/.notebook-installed
	$(BIN)/jupyter lab --ServerApp.root_dir="$(CURDIR)" --LabApp.default_url=$(LAB_URL) $(LAB_LANGUAGE_ARGS) --port=$(PORT) $(ROOT_FLAG) $(LAB_ARGS)

lab-de:
	$(MAKE) lab LANG=de

## make test: the whole suite — unit, property, notebooks (nbval), exercises, browser, Binder recipe
test: $(VENV)/.test-installed
	$(BIN)/python -m pytest $(NBVAL) tests notebooks exercises/source $(PYTEST_ARGS)

## make test-fast: the library tests only (no notebooks, browser or Binder), one process a core
## (pytest-xdist; --dist loadfile keeps a test file's module fixtures in one process);
## PYTEST_ARGS="-n0 --pdb" runs them in one process, as the debugger needs
test-fast: $(VENV)/.test-installed
	$(BIN)/python -m pytest tests -m "not slow and not browser" -n auto --dist loadfile $(PYTEST_ARGS)

## make notebooks: re-execute every notebook in place (seeded: outputs reproduce), then save every
## notebook (apps/ and exercises/ too) in the form JupyterLab opens unmodified (tools/notebook_format.py)
notebooks: $(VENV)/.test-installed
	for nb in $(NOTEBOOKS); do \
	  echo "executing $$nb"; \
	  $(BIN)/jupyter nbconvert --to notebook --execute --inplace "$$nb" || exit 1; \
	done
	$(BIN)/python tools/notebook_format.py

## make exercises: seal each self-check of the teacher copies exercises/source/<game>/ (the
## hints, encrypted, from their hidden tests), then write the student copies
## exercises/release/<game>/ (solutions and hidden tests stripped, outputs cleared; commit both)
exercises: $(VENV)/.notebook-installed
	$(BIN)/python -m kingdoms.exercises seal exercises/source
	rm -rf exercises/release
	$(BIN)/python -m kingdoms.exercises student exercises/source exercises/release

## make student-edition DEST=<folder>: what students may see, as a folder to publish (its own Binder
## repository) and DEST.zip: lessons (cells tagged teacher-only left out), class pages, the student
## copies of the exercises, a README for students, the kingdoms wheel and a Binder recipe.
## make student-edition-de (= make student-edition LANG=de): the German edition (default DEST
## build/student-edition-de): the German lessons, class pages and exercises (and the English
## notebooks they link to), a German README, JupyterLab in German on Binder
student-edition: DEST ?= build/student-edition$(if $(filter de,$(KINGDOMS_LANG)),-de,)
student-edition: $(VENV)/.notebook-installed
	$(BIN)/python tools/edition.py student "$(DEST)" --zip --language $(KINGDOMS_LANG) $(if $(BINDER),--binder $(BINDER),)

student-edition-de:
	$(MAKE) student-edition LANG=de $(if $(DEST),DEST="$(DEST)",)

## make app GAME=horse: the game's class page (apps/<game>.ipynb) as a Voila app: rules card,
## Stepper with seats, an odds chart, no code.  Without GAME: every game's page (a list).
APP_GAMES := $(basename $(notdir $(wildcard apps/*.ipynb)))
app: $(VENV)/.notebook-installed
	@if [ -n "$(GAME)" ] && [ ! -f "apps/$(GAME).ipynb" ]; then \
	  echo "no class page for GAME=$(GAME); the games are: $(APP_GAMES)"; exit 2; fi
	$(BIN)/voila $(if $(GAME),apps/$(GAME).ipynb,apps) --port=$(PORT) --no-browser $(LAB_ARGS)

## make site DEST=folder: the student edition as a static JupyterLite site (no server; Python runs
## in the browser), in English and German: its landing page offers both; the German edition is in
## DEST/de (JupyterLab in German) and its class pages in DEST/class-pages/de.  Copy DEST to any
## static host.  Needs npm and the package indexes (PyPI, npm).
site: DEST ?= build/site
## (English only while the checkout has no German index notebooks/de/index.ipynb)
GERMAN_LESSONS := $(wildcard notebooks/de/index.ipynb)
site: $(VENV)/.site-installed
	$(MAKE) student-edition LANG=en DEST=build/student-edition
	$(if $(GERMAN_LESSONS),$(MAKE) student-edition LANG=de DEST=build/student-edition-de,)
	$(BIN)/python tools/site.py build/student-edition $(DEST) $(if $(GERMAN_LESSONS),--german build/student-edition-de,)

## make bench: random-playout speed of every game beside OpenSpiel's Python block dominoes (and Kuhn poker), and more;
## then benchmarks/strength.py: the strong search bot (mcts-strong, 1 s of CPU a move) against random, the best
## heuristic and OpenSpiel's ISMCTSBot, 200 games a pairing (100 against ISMCTSBot) on 2 processes (days of CPU: every game is logged in
## benchmarks/results/strength.jsonl, and the next run goes on from there; HOURS=2 stops starting games after
## two hours).  make bench QUICK=1: the strength run's quick mode (40 games a pairing at 0.05 s of CPU a move,
## not logged; wall times measured in docs/bots.md)
bench: $(VENV)/.bench-installed
	$(BIN)/python benchmarks/bench.py
	$(BIN)/python benchmarks/strength.py --jobs 2 $(if $(QUICK),--quick,--log benchmarks/results/strength.jsonl) $(if $(HOURS),--hours $(HOURS),)

## make handouts: a printable PDF of one or two pages per lesson notebook (the tasks, the
## pictures, room to answer; no code, no teacher notes) in DEST (default build/handouts)
handouts: DEST ?= build/handouts
handouts: $(VENV)/.handouts-installed
	$(BIN)/python tools/handouts.py --dest "$(DEST)"

clean:
	rm -rf build artifacts .pytest_cache .hypothesis

## make catalogs: extract every text a person reads from kingdoms/, add the new ones to the German
## catalog kingdoms/locale/de/LC_MESSAGES/kingdoms.po (empty: translate them there, then run it
## again), drop the gone ones, and compile the .mo the package ships (tools/catalogs.py);
## tests/test_i18n.py fails on a text without its translation, other {placeholders}, or an old .mo
catalogs: $(VENV)/.test-installed
	$(BIN)/python tools/catalogs.py
