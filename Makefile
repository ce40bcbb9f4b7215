# Two commands on a fresh machine: `make run` (the site with a demo federation) and `make test` (every test).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup run test lint demo migrate worker beat bench clean messages lock

setup: $(STAMP)

# The venv's own pip (Python 3.11's) installs the pinned versions (requirements/test.txt: the site's dependencies and
# the test tools), then the project itself, whose ranges the pins already satisfy; --no-compile leaves the bytecode to
# the first import (CI starts from a clean checkout: compiling every installed package took a third of the install).
$(STAMP): requirements/test.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile -r requirements/test.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile --no-deps -e .
	touch $(STAMP)

# The pins, after a change of the ranges in pyproject.toml (which stay for people): pip-compile keeps every pin the
# ranges still allow and resolves the rest, for Python 3.11 on Linux (the venv's and the image's). It reads PyPI
# alone: a machine's pip may add a local index or a folder of wheels, and the pins must install without them.
# requirements/main.txt is the image's (the site's dependencies), test.txt adds the test tools with the same pins,
# bench.txt adds the benchmarks' to test.txt's. Every pin to the newest release allowed: make lock LOCK_ARGS=--upgrade
LOCK_ARGS ?=
COMPILE := env -u PIP_FIND_LINKS -u PIP_INDEX_URL -u PIP_EXTRA_INDEX_URL -u PIP_CONSTRAINT PIP_CONFIG_FILE=/dev/null \
	CUSTOM_COMPILE_COMMAND="make lock" $(BIN)/pip-compile --quiet --allow-unsafe --strip-extras --no-emit-index-url \
	--no-emit-find-links
lock: setup
	$(COMPILE) $(LOCK_ARGS) --output-file requirements/main.txt pyproject.toml
	$(COMPILE) $(LOCK_ARGS) --extra test -c requirements/main.txt --output-file requirements/test.txt pyproject.toml
	$(COMPILE) $(LOCK_ARGS) --extra test --extra bench -c requirements/test.txt --output-file requirements/bench.txt \
		pyproject.toml

migrate: setup
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py seed_demo --if-empty

run: demo
	$(BIN)/python manage.py runserver 127.0.0.1:8000

# The whole suite in two processes (pytest-xdist; the machines have two cores), each test file whole in one of
# them so that what a module builds once (the crawl's federation) is built once, the longest files first
# (tests/conftest.py; --no-loadscope-reorder keeps that order). One process: make test PYTEST_ARGS=
PYTEST_ARGS ?= -n 2 --dist loadfile --no-loadscope-reorder

test: setup
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/lint-imports
	$(BIN)/python manage.py check
	$(BIN)/python manage.py makemigrations --check --dry-run

worker: setup
	$(BIN)/celery -A adlg_site worker --loglevel=info --concurrency=2

beat: setup
	$(BIN)/celery -A adlg_site beat --loglevel=info

bench: setup
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements/bench.txt
	$(BIN)/python bench/engine.py
	$(BIN)/python bench/replay.py
	$(BIN)/python bench/pairing.py
	$(BIN)/python bench/live_load.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .ruff_cache

# The French catalogue after a change of words: collect every marked text, then fill the new ones in
# locale/fr/LC_MESSAGES/django.po (a test fails on an empty or fuzzy entry) and compile.
messages: setup
	$(BIN)/python manage.py makemessages -l fr --no-location --no-obsolete
	$(BIN)/python manage.py compilemessages -l fr --ignore=.venv
