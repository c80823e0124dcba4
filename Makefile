# Two commands on a fresh machine with Python 3.11+ and make:
#   make demo   install into .venv, apply a sample patch to a scratch copy, show the result
#   make test   install into .venv with the test extra, run the whole suite and mypy --strict
#   make bench  install into .venv, run the benchmarks (benchmarks/run.py, robustness.py), print their tables
#   make test-all  the same as make test under every CPython >= 3.11 on PATH, one venv each
PYTHON ?= python3
INSTALL = $(BIN)/python -m pip install -q
VENV   := .venv
BIN    := $(VENV)/bin
DEMO   := .demo

.PHONY: demo test test-all bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

demo: $(BIN)/python
	@$(INSTALL) .
	@rm -rf $(DEMO) && cp -R fixtures/demo/project $(DEMO)
	@echo '$$ apply_patch -C $(DEMO) < fixtures/demo/broken.patch    # one chunk does not match'
	@$(BIN)/apply_patch -C $(DEMO) < fixtures/demo/broken.patch; echo "(exit code $$?)"
	@diff -r fixtures/demo/project $(DEMO) >/dev/null && echo '-> the scratch copy is byte for byte unchanged'
	@echo
	@echo '$$ apply_patch -C $(DEMO) < fixtures/demo/change.patch'
	@$(BIN)/apply_patch -C $(DEMO) < fixtures/demo/change.patch
	@echo
	@cd $(DEMO) && for f in $$(find . -type f | sort); do echo "==> $${f#./} <=="; cat "$$f"; echo; done

test: $(BIN)/python
	$(INSTALL) ".[test]"
	$(BIN)/pytest
	$(BIN)/mypy --strict apply_patch tests
	$(BIN)/lint-imports

# Every CPython >= 3.11 found on PATH as python3.N, each in its own .venv-3.N: install with
# the test extra, run the suite and mypy; then one line per version, and a failure if any
# failed. (With pyenv, make the versions visible first: `pyenv shell 3.11 3.12 3.13`.)
PYTHONS := $(shell for n in $$(seq 11 30); do if python3.$$n -c 'import sys; sys.exit(sys.implementation.name != "cpython")' >/dev/null 2>&1; then echo python3.$$n; fi; done)

test-all:
	@test -n "$(PYTHONS)" || { echo "make test-all: no python3.N (N >= 11) runs on this PATH"; exit 1; }
	@failed=""; summary=""; \
	for python in $(PYTHONS); do \
	  venv=.venv-$${python#python}; version=$$($$python -c 'import platform; print(platform.python_version())'); \
	  echo "== CPython $$version ($$python, $$venv)"; \
	  if { test -x $$venv/bin/python || $$python -m venv $$venv; } \
	     && $$venv/bin/python -m pip install -q ".[test]" \
	     && $$venv/bin/pytest -q && $$venv/bin/mypy --strict apply_patch tests && $$venv/bin/lint-imports; \
	  then summary="$$summary\n  CPython $$version: passed"; \
	  else summary="$$summary\n  CPython $$version: FAILED"; failed="$$failed $$version"; fi; \
	done; \
	printf "make test-all:$$summary\n"; test -z "$$failed"

# The reference executable is timed too when APPLY_PATCH_REFERENCE names it (DEVELOPERS.md);
# ROBUSTNESS_ARGS go to benchmarks/robustness.py (--quick: 8 cases per mistake).
bench: $(BIN)/python
	@$(INSTALL) .
	@$(BIN)/python benchmarks/run.py $(BENCH_ARGS)
	@echo
	@$(BIN)/python benchmarks/robustness.py $(ROBUSTNESS_ARGS)

clean:
	rm -rf $(VENV) .venv-3.* $(DEMO) build dist *.egg-info .pytest_cache .mypy_cache
