# `make run` and `make test` are the only two commands a newcomer needs: both create or refresh
# .venv from pyproject.toml first, so nothing is ever installed by hand.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck unit venv clean system-packages

venv: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Python >= 3.11 is required (set PYTHON=...)"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/python -m api.local

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict core

unit: $(STAMP)
	$(BIN)/pytest -q

test: system-packages lint typecheck unit

# Debian packages the tests need, installed only when missing (CI runs as root):
# chromium for the browser tests (tests/web; Playwright's own browser download does not work
# here) and unmunch (hunspell-tools) for the word-list build test.
SYSTEM_PACKAGES := /usr/bin/chromium:chromium /usr/bin/unmunch:hunspell-tools
system-packages:
	@missing=""; for entry in $(SYSTEM_PACKAGES); do \
		test -x "$${entry%%:*}" || missing="$$missing $${entry##*:}"; done; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing; \
	fi

# The Lambda package of one stage (STAGE=dev|prod) in dist/, built by zappa in its own pinned
# virtualenv (build/venv-deploy, from infra/requirements-deploy.txt): see docs/deploy.md.
STAGE ?= dev
.PHONY: package
package: $(STAMP)
	$(BIN)/python infra/package.py --stage $(STAGE)

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache .hypothesis
