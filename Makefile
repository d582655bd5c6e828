# The two commands: `make run` and `make test`. Each sets itself up on a fresh machine.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
# Where `make run` serves the API: `make run ADDR=0.0.0.0:9000`.
ADDR   ?= 127.0.0.1:8000

.PHONY: run test lint typecheck bench install clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	mkdir -p var
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py seed_demo --quiet --base-url http://$(ADDR)
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py serve --addr $(ADDR)    # DEBUG defaults to off everywhere else

test: $(STAMP)
	mkdir -p var
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports    # the import contracts of pyproject.toml (DESIGN §4)
	$(BIN)/mypy            # strict types on the rules engine ([tool.mypy] in pyproject.toml)
	GUTS_CELERY_QUEUE=guts-test $(BIN)/python -m pytest -n 2 --dist loadgroup $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy    # files and strictness: [tool.mypy] in pyproject.toml

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'    # the peers of bench/command_cost.py
	$(BIN)/python bench/command_cost.py
	$(BIN)/python bench/evaluators.py
	$(BIN)/python bench/event_store.py
	$(BIN)/python bench/deals.py
	$(BIN)/python bench/auth.py
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/timeouts.py
	$(BIN)/python bench/tournament.py
	$(BIN)/python bench/proofs.py

clean:
	rm -rf $(VENV) var
