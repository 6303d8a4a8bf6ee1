# `make app`: set up and run the dashboard.  `make test`: set up and run the tests.
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup app test evaluate

$(STAMP): requirements.txt pyproject.toml
	test -x $(PY) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -r requirements.txt
	$(PY) -m pip install --quiet --no-deps -e .
	touch $(STAMP)

setup: $(STAMP)

app: setup
	$(VENV)/bin/streamlit run app.py

test: setup
	$(PY) -m pytest -q

evaluate: setup
	$(VENV)/bin/sac evaluate --protocol lbr-mini --datasets all --method baseline --out results/lbr-mini-baseline.csv
