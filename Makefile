# Two commands set everything up on a fresh machine:
#   make demo   — run the product locally with zero configuration
#   make test   — lint, type-check and run the whole test suite
VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: demo test lint typecheck pytest install system-deps indico-deps indico clean

$(BIN)/.installed: pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -c constraints.txt -e ".[dev,local]"
	touch $@

install: $(BIN)/.installed

# apt-get installs the packages named in $$missing (or says what to install).
APT_MISSING = if [ -n "$$missing" ]; then \
	  if command -v apt-get >/dev/null; then \
	    $(SUDO) apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	  else \
	    echo "please install:$$missing"; \
	    case "$$missing" in *chromium*) $(BIN)/playwright install chromium;; esac; \
	  fi; \
	fi

# Chromium drives the portal; redis-server is the real Redis the tests use;
# tmux drives the terminal chat in its end-to-end test; PHP with these modules runs the
# test MRBS (tests/sites/mrbs.py, on the PostgreSQL of indico-deps).
system-deps:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	command -v redis-server >/dev/null || missing="$$missing redis-server"; \
	command -v tmux >/dev/null || missing="$$missing tmux"; \
	command -v php >/dev/null || missing="$$missing php8.2-cli"; \
	for m in pgsql intl mbstring xml; do \
	  php -m 2>/dev/null | grep -ix "$$m" >/dev/null || missing="$$missing php8.2-$$m"; \
	done; \
	$(APT_MISSING)

# PostgreSQL runs the test Indico, whose psycopg2 pin builds from source (libpq-dev, gcc,
# Python headers).
indico-deps:
	@missing=""; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v pg_config >/dev/null || missing="$$missing libpq-dev"; \
	command -v gcc >/dev/null || missing="$$missing gcc"; \
	$(PYTHON) -c 'import os,sysconfig,sys; sys.exit(not os.path.exists(sysconfig.get_paths()["include"]+"/Python.h"))' \
	  || missing="$$missing python3-dev"; \
	$(APT_MISSING)

demo: install system-deps
	$(BIN)/clubman demo

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: install
	$(BIN)/mypy app adapters bot core scenarios storage portal tests bench mcpserver

# Indico 3.2.9 (the real room booking server the Indico tests run) in its own venv.
indico: install indico-deps
	$(BIN)/python -m scripts.indico.stack install

# Two processes, each taking whole files (CI has two cores), the modules marked slow
# first (tests/conftest.py). PYTEST_WORKERS=0 runs one: README, "Tests".
PYTEST_WORKERS ?= 2

pytest: install system-deps indico
	$(BIN)/pytest -q -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder

# Indico's install (mostly downloads) runs beside ruff and mypy (mostly CPU): on a fresh
# clone, 341 s together where one after the other took 7 + 257 + 185 s.
test:
	$(MAKE) --no-print-directory -j3 --output-sync=target lint typecheck indico
	$(MAKE) --no-print-directory pytest

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache

# Mutation testing (mutmut) of the modules where a silent bug costs most, each against its
# own fast tests, in copies of the tree under .mutants/; by hand, not in CI (issue 31).
# `make mutants MODULES=core/browser/guard.py` mutates some of them.
.PHONY: mutants
mutants: install
	$(BIN)/python -m scripts.mutants $(MODULES)
