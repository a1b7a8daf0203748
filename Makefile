# make run  - set up on first use, then start the table on the embedded database
# make test - set up on first use, then lint, type-check and run the whole suite
# make fast - the tests that need no PostgreSQL, Redis or browser and are not slow
# make native - compile the games' rules with mypyc into build/native (test does it first; run
#               serves on the pure rules at once and compiles in the background for its next start)
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
PIP    := $(BIN)/python -m pip install --quiet --disable-pip-version-check
RUN_STAMP  := $(VENV)/.run-installed
TEST_STAMP := $(VENV)/.test-installed
# the compiled rules: rebuilt when a compiled module's source (or a game's list of them) changes
NATIVE_STAMP := build/native/.built
NATIVE_SOURCES := $(shell PYTHONPATH=src LUDOTECA_PURE=1 $(BIN)/python -m ludoteca.native --sources 2>/dev/null)

.PHONY: run test fast lint typecheck pytest coverage bench browser nginx system clean native

# `make run` installs what running needs; `make test` and `make bench` add their tools on top.
$(VENV)/.created:
	@echo "setting up $(VENV) on first use (installing dependencies; this takes a minute or two)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(PIP) --upgrade pip
	@touch $@

$(RUN_STAMP): pyproject.toml $(VENV)/.created
	@echo "installing ludoteca into $(VENV)"
	@$(PIP) -e .
	@touch $@

$(TEST_STAMP): pyproject.toml $(RUN_STAMP)
	@echo "installing the test and benchmark tools into $(VENV)"
	@$(PIP) -e '.[dev,research]'
	@touch $@

# mypyc comes with mypy; without it or a C compiler the rules stay pure Python (one line says so)
$(NATIVE_STAMP): $(NATIVE_SOURCES) $(wildcard src/ludoteca/native/*.py) | $(RUN_STAMP)
	@$(BIN)/python -c 'import mypyc' 2>/dev/null || $(PIP) -e '.[native]'
	@echo "compiling the games' rules with mypyc (build/native/build.log)"
	@LUDOTECA_PURE=1 $(BIN)/python -m ludoteca.native && touch $@ || true

native: $(NATIVE_STAMP)

# the first start never waits for the compiler: serve the pure rules now, compile them in a
# detached process (build/native/background.log), and the next start uses them
run: $(RUN_STAMP)
	@$(MAKE) --no-print-directory --question $(NATIVE_STAMP) 2>/dev/null || \
	  $(BIN)/python -m ludoteca.native --background $(MAKE) --no-print-directory native
	$(BIN)/ludoteca serve

# Debian's Chromium for the browser tests (playwright cannot download browsers here).
browser:
	@test -x /usr/bin/chromium || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

# Debian's nginx for the deployment tests (tests/deploy/test_nginx.py runs its own nginx as a child
# process with its own prefix and port; it does not use the system's nginx service).
nginx:
	@command -v nginx >/dev/null || test -x /usr/sbin/nginx || { \
	  echo "installing Debian's nginx for the deployment tests"; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq nginx >/dev/null; }

lint: $(TEST_STAMP)
	$(BIN)/ruff check src tests bench docs
	$(BIN)/ruff format --check src tests bench docs

typecheck: $(TEST_STAMP)
	$(BIN)/mypy src/ludoteca

# the suite on two processes, then alone the few tests that judge server processes' timing under
# kills and pauses (the `solo` mark), so that the other process's load never skews them
# (pytest's status 5 is "no test selected": PYTEST_ARGS may select tests of one part only); each
# run ends with its slowest tests, the place to look when the suite nears its 20 minutes
pytest: $(TEST_STAMP) $(NATIVE_STAMP) browser nginx
	$(BIN)/python -m pytest -n 2 -m "not solo" --durations=15 $(PYTEST_ARGS) || [ $$? = 5 ]
	$(BIN)/python -m pytest -m solo --durations=15 $(PYTEST_ARGS) || [ $$? = 5 ]

# lint, types, compiling the rules and installing Chromium/nginx side by side (two at a time: they
# use different cores, or wait on the network), after the tools are installed; then the suite
test: $(TEST_STAMP)
	@$(MAKE) --no-print-directory -j2 --output-sync=target lint typecheck native system
	@$(MAKE) --no-print-directory pytest

# Chromium, then nginx: one apt-get at a time
system:
	@$(MAKE) --no-print-directory browser
	@$(MAKE) --no-print-directory nginx

# the fast lane: no PostgreSQL, Redis or Chromium needed (tests/conftest.py marks the tests that do),
# on two processes; under a minute on an idle two-core machine (tests/conftest.py, the slow marker)
FAST := not browser and not postgres and not redis and not slow
fast: $(TEST_STAMP) $(NATIVE_STAMP)
	$(BIN)/python -m pytest -q -n 2 -m "$(FAST)" $(PYTEST_ARGS)

# branch coverage of the engine and server packages over the suite without the browser
coverage: $(TEST_STAMP)
	$(BIN)/python -m pytest -q --ignore=tests/web --cov-branch \
	  --cov=ludoteca.core --cov=ludoteca.games --cov=ludoteca.bots --cov=ludoteca.server

bench: $(TEST_STAMP) $(NATIVE_STAMP)
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache build
