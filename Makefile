# Traveller: the front door. `make run` and `make test` work on a fresh machine that has
# Python 3.11 and the package index: they install uv, then everything from uv.lock.

PYTHON ?= python3
UV_VERSION := 0.13.8
TOOLS := .tools
UV := $(TOOLS)/bin/uv
VENV := .venv
BIN := $(VENV)/bin
export UV_PYTHON_DOWNLOADS := never
# Dagster's instance folder; dagster.yaml is copied there (its relative paths resolve
# against the current directory, the project folder when started through make).
export DAGSTER_HOME := $(CURDIR)/.dagster_home

.PHONY: install bytecode mdbtools chromium run test test-fast lint format bench dev sample clean \
	pg-start pg-stop dev-postgres

# Bridgemate .bws databases are read with Debian's mdbtools (mdb-export), not a Python package.
MDBTOOLS_HINT := reading .bws files needs mdbtools (mdb-export); install it with: apt-get install mdbtools
APT_INSTALL := env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mdbtools >/dev/null

$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet "uv==$(UV_VERSION)"

$(VENV)/.synced: $(UV) pyproject.toml uv.lock
	$(UV) sync --frozen --compile-bytecode --python $(PYTHON)
	touch $@

$(DAGSTER_HOME)/dagster.yaml: dagster.yaml
	mkdir -p $(DAGSTER_HOME)
	cp dagster.yaml $@

install: $(VENV)/.synced $(DAGSTER_HOME)/dagster.yaml mdbtools chromium bytecode  ## install everything from the lock file

# The project's own modules compiled as uv compiles the packages it installs: without their
# bytecode each run compiles every module it imports from source when bytecode is not
# written (PYTHONDONTWRITEBYTECODE), about a quarter of a second a process.
bytecode: $(VENV)/.synced
	$(VENV)/bin/python -m compileall -q pipelines assets

# Installs mdbtools when it is missing and apt-get can be used (as root, or sudo without a
# password); otherwise says what to install and carries on: .bws files are then rejected
# with the same message, every other format is read as usual.
mdbtools:
	@if command -v mdb-export >/dev/null 2>&1; then :; \
	elif ! command -v apt-get >/dev/null 2>&1; then \
	  echo "note: mdbtools is not installed and this machine has no apt-get; $(MDBTOOLS_HINT)"; \
	else \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; \
	  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; \
	  else sudo=none; fi; \
	  if [ "$$sudo" = none ]; then \
	    echo "note: mdbtools is not installed and installing it needs root; $(MDBTOOLS_HINT)"; \
	  else \
	    echo "installing mdbtools (reads Bridgemate .bws files)"; \
	    $$sudo $(APT_INSTALL) 2>/dev/null \
	      || { $$sudo apt-get update -qq >/dev/null && $$sudo $(APT_INSTALL); } \
	      || echo "note: mdbtools could not be installed; $(MDBTOOLS_HINT)"; \
	  fi; \
	fi

# The browser tests of the results site drive Debian's chromium through Playwright (its own
# browser download is not used). Installed like mdbtools: when missing and apt-get can be used;
# otherwise a note, and the browser tests are skipped with the same hint.
CHROMIUM_HINT := the browser tests of the results site need Debian's chromium; install it with: apt-get install chromium
CHROMIUM_INSTALL := env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null

chromium:
	@if command -v chromium >/dev/null 2>&1; then :; \
	elif ! command -v apt-get >/dev/null 2>&1; then \
	  echo "note: chromium is not installed and this machine has no apt-get; $(CHROMIUM_HINT)"; \
	else \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; \
	  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; \
	  else sudo=none; fi; \
	  if [ "$$sudo" = none ]; then \
	    echo "note: chromium is not installed and installing it needs root; $(CHROMIUM_HINT)"; \
	  else \
	    echo "installing chromium (browser tests of the results site)"; \
	    $$sudo $(CHROMIUM_INSTALL) 2>/dev/null \
	      || { $$sudo apt-get update -qq >/dev/null && $$sudo $(CHROMIUM_INSTALL); } \
	      || echo "note: chromium could not be installed; $(CHROMIUM_HINT)"; \
	  fi; \
	fi

run: install  ## run the main job on the bundled sample inbox -> data/warehouse.duckdb
	$(BIN)/traveller run

# The suite runs on every core, up to four processes (pytest-xdist): about 14 min on the
# 2-core development machine (December 2026; it is CPU-bound). `PYTEST_WORKERS=0 make test`
# runs it in one process.
PYTEST_WORKERS ?= auto
test: install  ## lint, then the whole test suite (the doctests of pipelines/laws included)
	$(BIN)/ruff check pipelines assets tests
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --maxprocesses=4

test-fast: install  ## lint, then the suite without the tests marked slow (the edit loop)
	$(BIN)/ruff check pipelines assets tests
	$(BIN)/python -m pytest -q -m "not slow" -n $(PYTEST_WORKERS) --maxprocesses=4

lint: install
	$(BIN)/ruff check pipelines assets tests

format: install
	$(BIN)/ruff format pipelines assets tests

bench: install  ## 1,000,000 results through validation, scoring and standings
	$(BIN)/traveller bench --results 1000000

dev: install  ## the Dagster UI on http://127.0.0.1:3000 (schedule and sensor included)
	$(BIN)/dagster dev -m pipelines.definitions

# A local PostgreSQL under .pg/ (the server binaries of the machine: PostgreSQL 15 at
# /usr/lib/postgresql/15/bin here; as root its commands run as the postgres user), for trying
# the PostgreSQL deployment of docs/deploy.md on one machine: 127.0.0.1:$(PG_PORT), trust
# authentication, database traveller. Never a server.
PG_PORT ?= 54320
PG_ENV := DAGSTER_PG_HOST=127.0.0.1 DAGSTER_PG_PORT=$(PG_PORT) DAGSTER_PG_USER=postgres \
	DAGSTER_PG_PASSWORD= DAGSTER_PG_DB=traveller \
	TRAVELLER_WAREHOUSE=postgresql://postgres@127.0.0.1:$(PG_PORT)/traveller

pg-start: install  ## start the local PostgreSQL under .pg/ (created the first time)
	$(BIN)/python -m pipelines.pg_local start .pg --port $(PG_PORT)

pg-stop:  ## stop the local PostgreSQL under .pg/
	$(BIN)/python -m pipelines.pg_local stop .pg

# The Dagster UI with Dagster's state and the warehouse on the local PostgreSQL
# (docs/deploy/dagster.postgres.yaml in .dagster_home_pg/): runs queued, several at once. The
# pools' limits are set first (docs/deploy.md: left to the default, runs starting together
# fail on PostgreSQL).
PG_DAGSTER := env DAGSTER_HOME=$(CURDIR)/.dagster_home_pg $(PG_ENV) $(BIN)/dagster
dev-postgres: pg-start  ## the Dagster UI on PostgreSQL (instance and warehouse), port 3000
	mkdir -p .dagster_home_pg
	cp docs/deploy/dagster.postgres.yaml .dagster_home_pg/dagster.yaml
	$(PG_DAGSTER) instance concurrency set event_standings 1
	$(PG_DAGSTER) instance concurrency set inbox 1
	$(PG_DAGSTER) dev -m pipelines.definitions

sample: install  ## regenerate the bundled sample inbox (seeded: same files every time)
	rm -rf pipelines/sample/inbox
	$(BIN)/traveller generate --out pipelines/sample/inbox --hand-records 1

clean:
	rm -rf $(VENV) $(TOOLS) data .dagster_home .dagster_home_pg .pytest_cache .ruff_cache .hypothesis
