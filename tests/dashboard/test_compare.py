"""sac_core.dashboard.compare: which indexes Compare shows, and what building them costs."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from sac_core.dashboard import compare
from sac_core.dashboard import compare as state
from sac_core.engine.data import load_benchmark
from sac_core.engine.summaries import SummaryConfig
from sac_core.experiments import RunConfig
from sac_core.experiments.catalogue import default_keys, has_questions

DEMO = ("demo_nda", "demo_privacy")


def test_compare_columns_one_sac_column_for_the_extractive_provider():
    base = RunConfig(summary=SummaryConfig(provider="extractive"))
    cols = state.compare_columns(base)
    assert [c.name.split(":")[0] for c in cols] == ["Baseline", "SAC extractive", "Recommended"]
    assert [c.config.method for c in cols] == ["baseline", "sac", "baseline"]
    llm = state.compare_columns(RunConfig(summary=SummaryConfig(provider="file")))
    assert [c.name.split(":")[0] for c in llm] == ["Baseline", "SAC generic", "Recommended"]  # issue 45
    assert llm[1].config.summary.prompt == "generic" and llm[2].config.method == "baseline" and llm[2].config.stages


def test_pending_cost_is_zero_without_the_openai_provider(demo_dir, tmp_path):
    bench = load_benchmark(demo_dir, DEMO, "full")
    cols = state.compare_columns(RunConfig(summary=SummaryConfig(provider="file")))
    assert state.pending_cost(bench, cols, demo_dir, tmp_path).documents == 0


def test_a_wrong_document_hit_is_explained_with_both_documents_and_cosines(demo_dir, embed_cache):
    from sac_core.dashboard import views
    from sac_core.experiments import Workspace

    bench = load_benchmark(demo_dir, DEMO, "full")
    cols = state.compare_columns(RunConfig(protocol="full", datasets=DEMO, summary=SummaryConfig(provider="file")))
    ws = Workspace.open(bench, cols, demo_dir, embed_cache)
    query = ws.queries["demo_nda/1"]
    results = ws.search(query.text, 3, query)
    wrong = state.wrong_hits(results)
    assert wrong and all(h.chunk.file_path not in query.gold_files for _, _, h in wrong)
    name, rank, hit = next(w for w in wrong if w[0] == "Baseline")
    why = state.explain_wrong_hit(ws, name, rank, hit, query, query.text)
    assert why.summary_source == "SAC generic"  # the baseline has none: SAC's are shown
    assert all(s for s in why.summaries)
    facts = dict((f, (a, b)) for f, a, b in why.facts)
    assert facts["parties"][0] != facts["parties"][1]  # near-identical NDAs differ in their parties
    wrong_cos, gold_cos = why.without_summary
    assert gold_cos is not None and -1 <= wrong_cos <= 1
    assert wrong_cos == pytest.approx(hit.score, abs=1e-4)  # the baseline ranked it by exactly this cosine
    with_wrong, with_gold = why.with_summary
    assert with_gold is not None and with_wrong is not None and with_gold > with_wrong  # the summary tips it
    html = views.wrong_hit_html(why)
    assert 'class="sac-differs"' in html and html.count("<tr") == 2 + 4 + 2


def test_the_user_picks_two_to_five_methods_and_the_url_keeps_them():
    base = RunConfig(summary=SummaryConfig(provider="file"))
    assert state.parse_methods("baseline,doc-aware", base) == ("baseline", "doc-aware")
    assert state.parse_methods("doc-aware", base) == ("baseline", "sac-generic", "recommended")  # one: default
    assert state.parse_methods("nope,<script>,baseline,sac-prior", base) == ("baseline", "sac-prior")
    many = ",".join(state.method_choices(base))
    assert len(state.parse_methods(many, base)) == state.MAX_COLUMNS
    cols = state.compare_columns(base, ["doc-aware", "baseline"])
    assert [c.name for c in cols] == ["Document-aware", "Baseline"]
    job = state.index_job(cols[0], Path("d"), Path("c"))
    plain = state.index_job(cols[1], Path("d"), Path("c"))
    assert job.label == "Document-aware (on the Baseline index)"  # it builds the baseline's index …
    sac = state.index_job(state.compare_columns(base, ["sac-expert"])[0], Path("d"), Path("c"))
    assert sac.label == "SAC expert"  # a name a reader knows, never the variant id (sac-file-expert-150)
    assert job.key.startswith(plain.key + "-") and job.key != plain.key  # … and what the signals precompute


def test_a_folder_without_questions_has_no_default_column_that_learns_from_them():
    """An ingested corpus has no labelled questions: Recommended (clause exemplars learned from them)
    is no default column there, so Compare, Map and `sac index` open what the data allows."""
    base = RunConfig()
    assert "recommended" in compare.default_methods(base)
    empty = SimpleNamespace(queries=[])
    assert compare.default_methods(base, empty) == ("baseline", "sac-generic")  # type: ignore[arg-type]
    names = [c.name for c in compare.compare_columns(base, bench=empty)]  # type: ignore[arg-type]
    assert names[0] == "Baseline" and names[1].startswith("SAC") and len(names) == 2
    # one owner of the rule: `sac index` asks the catalogue the same question
    assert default_keys(base, empty) == ("baseline", "sac-generic")  # type: ignore[arg-type]
    assert has_questions(None) and not has_questions(empty)  # type: ignore[arg-type]
