# Two commands on a fresh machine with Python 3.11+ and make:
#   make demo   install into .venv, apply a sample patch to a scratch copy, show the result
#   make test   install into .venv with the test extra, run the whole suite and mypy --strict
#   make bench  install into .venv, run the benchmarks (benchmarks/run.py, robustness.py), print their tables
PYTHON ?= python3
# setuptools reuses build/ between installs: a module moved or removed would linger in it
# and be installed again, so every install starts from an empty build/.
INSTALL = rm -rf build && $(BIN)/python -m pip install -q
VENV   := .venv
BIN    := $(VENV)/bin
DEMO   := .demo

.PHONY: demo test bench tables clean

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

# After a change to grammar/apply_patch.lark: rebuild the LALR tables the parser runs.
tables: $(BIN)/python
	@$(INSTALL) .  # lark, to build the tables
	$(BIN)/python -m apply_patch.format._tablegen grammar/apply_patch.lark apply_patch/format/_tables.py

# The reference executable is timed too when APPLY_PATCH_REFERENCE names it (DEVELOPERS.md);
# ROBUSTNESS_ARGS go to benchmarks/robustness.py (--quick: 8 cases per mistake).
bench: $(BIN)/python
	@$(INSTALL) .
	@$(BIN)/python benchmarks/run.py $(BENCH_ARGS)
	@echo
	@$(BIN)/python benchmarks/robustness.py $(ROBUSTNESS_ARGS)

clean:
	rm -rf $(VENV) $(DEMO) build dist *.egg-info .pytest_cache .mypy_cache
