# `make app`: set up and run the dashboard.  `make test`: set up, lint, check the docs and run the tests (what .ci/run calls).
# `make test-fast`: the unit tests only (pytest -m "not slow", a couple of minutes), for the edit-test loop.
# `make docs`: regenerate the docs' generated parts from results/ (sac docs) and build the site into site/.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8501

.PHONY: setup app test lanes test-fast lint docs docs-check format screenshots evaluate

# torch first, alone: its CPU build (plain `torch` from PyPI would pull a multi-GB CUDA build); then the
# package with its test, lint and docs tools (pyproject.toml owns every dependency and its pin).
# Then every installed module is compiled to bytecode once, on both cores (pip's own compile step, --no-compile,
# is one core): where PYTHONDONTWRITEBYTECODE is set (containers, CI images) Python never writes a .pyc on
# import, so each new process (a server, a test worker, a CLI command) would compile torch, transformers and
# sentence-transformers from source again (importing sentence-transformers took 2.4x as long that way here).
# Excluded: torch's own test helpers (one file is Python 3.12 syntax).
$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --no-compile torch==2.13.0
	$(PY) -m pip install --quiet --no-compile -e ".[dev]"
	$(PY) -m compileall -q -j 0 -x '/torch/testing/_internal/' $(VENV)/lib sac_core app_pages app.py >/dev/null
	$(PY) -W ignore -c "from sac_core.engine.metrics.ranking import ranx_scores as r; r({'q': {'a'}}, {'q': ['a']}, (1,))"  # compile ranx's numba kernels once (about a minute), not on a user's first import
	touch $(STAMP)

setup: $(STAMP)

app: setup  # the warm-up runs the app once as the server starts (sac_core/tooling/warm.py)
	$(PY) -m sac_core.tooling.warm http://127.0.0.1:$(PORT) >/dev/null 2>&1 &
	$(VENV)/bin/streamlit run app.py --server.address $(HOST) --server.port $(PORT)

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

format: setup
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# What CI runs (.ci/run): lint and the docs check side by side (one core each; --output-sync keeps their logs
# apart), then the two runs of the suite (`lanes`, unbuffered): the fast lane first, where a test doing a slow
# test's work (a model, a process, a server, AppTest) fails (tests/conftest.py), then the slow (integration) tests.
test: setup
	$(MAKE) -j2 --output-sync=target lint docs-check
	$(MAKE) lanes

lanes: setup
	$(PY) -m pytest -q -n 2 --dist loadfile -m "not slow"
	$(PY) -m pytest -q -n 2 --dist loadfile -m slow --durations=25

test-fast: setup
	$(PY) -m pytest -q -n 2 --dist loadfile -m "not slow"

# The README's and docs/'s generated tables, figures and pages against results/, and the site built offline
# (strict: a broken link or a missing page fails) into a throw-away folder.
docs-check: setup
	$(VENV)/bin/sac docs --check
	out="$$(mktemp -d)" && NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet --site-dir "$$out"; status=$$?; rm -rf "$$out"; exit $$status

docs: setup
	$(VENV)/bin/sac docs
	NO_MKDOCS_2_WARNING=1 $(VENV)/bin/mkdocs build --strict --quiet --site-dir site

# Regenerate the committed screenshots in docs/screenshots/ (headless Chromium; real data when SAC_DATA_DIR is set).
screenshots: setup
	$(VENV)/bin/sac screenshots --out docs/screenshots

evaluate: setup
	$(VENV)/bin/sac evaluate --protocol lbr-mini --datasets all --method baseline --out results/lbr-mini-baseline.csv
