# Taverna's habits: `make test` installs what it needs and runs the tests.
PY ?= python3
VENV ?= .venv
# make serve PORT=8080 (HOST=0.0.0.0: every address)
HOST ?= 127.0.0.1
PORT ?= 8000
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: install serve test check lint format typecheck bench replay-example clean chromium redis

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

serve: $(STAMP)
	$(BIN)/taverna serve --host $(HOST) --port $(PORT)

# the browser tests drive Debian's Chromium (installed once, never downloaded by Playwright)
chromium:
	./scripts/ensure-chromium.sh

# the tests of several nodes and of bot workers start redis-servers of their own
redis:
	./scripts/ensure-redis.sh

test: $(STAMP) chromium redis
	$(BIN)/pytest

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
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
