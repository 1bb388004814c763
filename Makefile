# Two commands: `make run` serves the site on http://localhost:8000, `make test` runs every test.
VENV := .venv
PY := $(VENV)/bin/python
# The product's packages (requirements.txt), and on top of them the tests' and tools'
# (requirements-dev.txt): a change of requirements.txt redoes both, since DEV_STAMP
# is then older than STAMP.
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev
# Where `make run` listens: `make run HOST=0.0.0.0` serves the local network too (README). Set
# on the command line only: some shells export a HOST of their own.
HOST := localhost
PORT := 8000
MESSAGES_IGNORE := --ignore=.venv --ignore=tests --ignore=loadtest --ignore=bench --ignore=staticfiles --ignore=scripts

.PHONY: run test test-fast test-browser setup lint bench clean messages

$(STAMP): requirements.txt
	@test -x $(PY) || { PYTHON="$$(scripts/python.sh)" && "$$PYTHON" -m venv $(VENV); }
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	touch $(STAMP)

$(DEV_STAMP): $(STAMP) requirements-dev.txt
	$(PY) -m pip install -q -r requirements-dev.txt
	touch $(DEV_STAMP)

setup: $(DEV_STAMP)

run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py fill_puzzle_bank --target 3
	@# Periodic jobs run in-process without Redis; with REDIS_URL run Celery worker + beat (README).
	$(PY) manage.py run_jobs & JOBS=$$!; trap "kill $$JOBS" EXIT INT TERM; \
	  $(PY) manage.py runserver $(HOST):$(PORT)

# Lint and types first (a failure there is quick), then unit, view and socket tests, then
# browser tests in their own run (Playwright's sync API breaks async tests that run after
# it in the same process). Both runs are spread over parallel workers (pytest-xdist; each
# has its own test database and Redis database, tests/workers.py): most of a test's time is
# waiting on sockets, servers and Chromium, so more workers than cores still pay.
# PUZZLE_BANK_INLINE: no Celery worker runs in tests, so an empty bank generates inline.
TEST_WORKERS ?= 6
BROWSER_WORKERS ?= 4
PYTEST := PUZZLE_BANK_INLINE=1 $(PY) -m pytest -q --dist worksteal --durations=15
test: lint
	scripts/install-chromium.sh
	$(PYTEST) -m "not browser" -n $(TEST_WORKERS)
	$(PYTEST) -m browser -n $(BROWSER_WORKERS)

test-fast: $(DEV_STAMP)
	$(PYTEST) -m "not browser" -n $(TEST_WORKERS)

test-browser: $(DEV_STAMP)
	scripts/install-chromium.sh
	$(PYTEST) -m browser -n $(BROWSER_WORKERS)

# ruff (lint, then the format check), mypy with django-stubs over the whole tree, and the
# import contracts (import-linter: imports flow one way; settings in pyproject.toml).
# `ruff format .` and `ruff check --fix .` fix most of it.
lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy .
	$(VENV)/bin/lint-imports

bench: $(STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles

# The Dutch catalog (docs/operations.md, "Translations"): collect the strings after changing a template or
# a message, translate the new entries in locale/nl/LC_MESSAGES/django.po, then compile.
# Needs GNU gettext (apt-get install gettext) for makemessages; the compiled .mo is
# committed, so `make run` and `make test` need no gettext.
messages: $(STAMP)
	$(PY) manage.py makemessages -l nl --no-obsolete --no-location $(MESSAGES_IGNORE)
	$(PY) manage.py compilemessages -l nl
