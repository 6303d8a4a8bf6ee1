"""sac_core.dashboard.selection: the Compare selection to and from URL parameters."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sac_core.dashboard import selection as state


def test_parse_selection_defaults_and_values():
    assert state.parse_selection({}) == state.Selection(None, None, "", state.K_DEFAULT)
    sel = state.parse_selection({"dataset": "cuad", "q": "cuad/12", "text": "who pays?", "k": "16"})
    assert sel == state.Selection("cuad", "cuad/12", "who pays?", 16)


@pytest.mark.parametrize(("raw", "k"), [("0", 1), ("-3", 1), ("65", 64), ("1000", 64), ("abc", 4), ("", 4), ("8", 8)])
def test_parse_selection_clamps_or_ignores_bad_k(raw, k):
    assert state.parse_selection({"k": raw}).k == k


def test_parse_selection_takes_first_of_repeated_values_and_truncates_text():
    sel = state.parse_selection({"q": ["maud/1", "maud/2"], "text": "x" * 900, "dataset": "  "})
    assert sel.query_id == "maud/1"
    assert sel.text == "x" * state.MAX_TEXT
    assert sel.dataset is None


def test_selection_params_round_trip_and_leave_out_empty_values():
    sel = state.Selection("cuad", "cuad/3", "", 8)
    params = state.selection_params(sel)
    assert params == {"dataset": "cuad", "q": "cuad/3", "k": "8"}
    assert state.parse_selection(params) == sel
    free = state.Selection(None, None, "free words", 2)
    assert state.parse_selection(state.selection_params(free)) == free
    assert set(state.selection_params(free)) <= {"dataset", "q", "text", "k"}  # never a path or a key


QUERIES = {"cuad": ["cuad/0", "cuad/1"], "maud": ["maud/0", "maud/7"]}


def test_reconcile_a_known_query_sets_its_dataset():
    sel = state.reconcile(state.Selection("cuad", "maud/7", "", 4), QUERIES)
    assert (sel.dataset, sel.query_id) == ("maud", "maud/7")


def test_reconcile_unknown_query_takes_the_datasets_first_query():
    sel = state.reconcile(state.Selection("maud", "maud/999", "", 4), QUERIES)
    assert (sel.dataset, sel.query_id) == ("maud", "maud/0")


def test_reconcile_unknown_everything_takes_the_first_dataset_and_keeps_k_and_text():
    sel = state.reconcile(state.Selection("nope", None, "hello", 9), QUERIES)
    assert sel == state.Selection("cuad", "cuad/0", "hello", 9)
    assert state.reconcile(sel, {}).query_id is None


PARAM_VALUES = st.one_of(st.text(max_size=600), st.lists(st.text(max_size=50), max_size=3))
PARAMS = st.dictionaries(
    st.sampled_from(["k", "q", "dataset", "text", "other", ""]) | st.text(max_size=5), PARAM_VALUES
)
QUERY_MAPS = st.dictionaries(st.text(max_size=10), st.lists(st.text(max_size=10), max_size=4), max_size=4)


@settings(max_examples=1000, deadline=None)
@given(PARAMS)
def test_any_url_parameters_give_a_valid_selection(params):
    sel = state.parse_selection(params)
    assert state.K_MIN <= sel.k <= state.K_MAX
    assert len(sel.text) <= state.MAX_TEXT
    again = state.parse_selection(state.selection_params(sel))
    assert again == sel or (again.dataset, again.query_id) == (sel.dataset, sel.query_id)


@settings(max_examples=1000, deadline=None)
@given(PARAMS, QUERY_MAPS)
def test_reconcile_always_lands_on_a_known_query_or_none(params, queries):
    sel = state.reconcile(state.parse_selection(params), queries)
    if not queries:
        assert sel.dataset is None and sel.query_id is None
        return
    assert sel.dataset in queries
    assert sel.query_id in queries[sel.dataset] or (sel.query_id is None and not queries[sel.dataset])
