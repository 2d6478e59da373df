# Taverna's habits: `make test` installs what it needs and runs the tests.
PY ?= python3
VENV ?= .venv
# make serve PORT=8080 (HOST=0.0.0.0: every address)
HOST ?= 127.0.0.1
PORT ?= 8000
BIN := $(VENV)/bin
# everything: the club, its tests and tools (.[dev])
STAMP := $(VENV)/.installed
# enough to serve: the club and mypyc (.[engines]), some 5 s of CPU less to install
SERVE_STAMP := $(VENV)/.installed-serve

.PHONY: install packages engines serve test durations test-pure check lint format typecheck bench replay-example clean chromium redis

# the pip bundled with Python 3.11 (23.2) installs .[dev] in 31 s of CPU, the current one
# in 19 s: its upgrade (2 s) pays
$(VENV)/pyvenv.cfg:
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(STAMP): pyproject.toml | $(VENV)/pyvenv.cfg
	$(BIN)/pip install -q -e '.[dev]'
	touch $(SERVE_STAMP) $(STAMP)

$(SERVE_STAMP): pyproject.toml | $(VENV)/pyvenv.cfg
	$(BIN)/pip install -q -e '.[engines]'
	touch $(SERVE_STAMP)

install: $(STAMP) engines

# the Python packages alone (no compiled build): what `make check` needs
packages: $(STAMP)

# the engines compiled by mypyc when a C compiler is there (again only when their source
# changed; taverna/native.py), else the pure-Python package as it is; waits for a build
# under way (make serve's) instead of racing it
engines: $(STAMP)
	$(BIN)/python scripts/build_engines.py

# the club at once, on the pure-Python engines while the compiled ones are made beside
# it (log: taverna/games/_compiled.log); its next start runs them
serve: $(SERVE_STAMP)
	$(BIN)/python scripts/build_engines.py --background
	$(BIN)/taverna serve --host $(HOST) --port $(PORT)

# the browser tests drive Debian's Chromium (installed once, never downloaded by Playwright)
chromium:
	./scripts/ensure-chromium.sh

# the tests of several nodes and of bot workers start redis-servers of their own
redis:
	./scripts/ensure-redis.sh

# the processes the tests run on (pytest-xdist): most tests wait on servers, browsers and
# databases, so more than the cores (make test JOBS=1: one process, in order)
JOBS ?= 4
XDIST = $(if $(filter-out 0 1,$(JOBS)),-n $(JOBS) --dist loadgroup --no-loadscope-reorder)

# every test on the build in use (compiled when it could be), and the rules on the
# pure-Python source too (both builds are the same game): the rules on the source run
# while the compiled build is made (the compiler keeps one core busy), then the suite
test: $(STAMP) chromium redis
	$(MAKE) --no-print-directory -j2 --output-sync=target engines test-pure PURE_JOBS=2
	$(BIN)/pytest $(XDIST)

RULES_TESTS := $(wildcard tests/test_*_rules.py tests/test_*_properties.py) \
	tests/test_golden_records.py tests/test_dealing.py tests/test_mus_hands.py \
	tests/test_mus_senas.py tests/test_plugin_game.py tests/test_doctests.py

# the time each test takes, kept in tests/durations.json: make test hands out the longest first
durations: $(STAMP) engines chromium redis
	$(BIN)/pytest $(XDIST) --store-durations

PURE_JOBS ?= $(JOBS)
test-pure: $(STAMP)
	TAVERNA_ENGINES=python $(BIN)/pytest $(if $(filter-out 0 1,$(PURE_JOBS)),-n $(PURE_JOBS)) \
		-m "not browser" $(RULES_TESTS)

check: $(STAMP)
	$(BIN)/ruff check taverna tests
	$(BIN)/ruff format --check taverna tests
	$(BIN)/mypy

format: $(STAMP)
	$(BIN)/ruff format taverna tests
	$(BIN)/ruff check --fix taverna tests

bench: $(STAMP)
	$(BIN)/taverna bench dominoes --seconds 3
	$(BIN)/taverna bench cards --seconds 3
	$(BIN)/taverna bench mus --seconds 3

replay-example: $(STAMP)
	$(BIN)/taverna replay taverna/examples/dominoes-2p.json

clean:
	-$(BIN)/python scripts/build_engines.py --clean
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
