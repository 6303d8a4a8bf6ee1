import numpy as np
import pandas as pd
import pytest

from sac_core.experiments.significance import compare_methods, flipped_queries, holm, permutation_test


def test_identical_scores_are_not_significant():
    a = np.array([0.1, 0.5, 0.9, 0.3])
    r = permutation_test(a, a.copy())
    assert r.p_value == 1.0 and (r.wins, r.ties, r.losses) == (0, 4, 0)


def test_exhaustive_small_case_by_hand():
    # differences +1, +1, +1: of the 8 sign patterns only the 2 all-same ones reach |mean| = 1,
    # so p ≈ 2/8 = 0.25 with enough resamples.
    r = permutation_test(np.zeros(3), np.ones(3), n_resamples=20_000)
    assert r.p_value == pytest.approx(0.25, abs=0.02)
    assert (r.wins, r.ties, r.losses) == (3, 0, 0)


def test_clear_improvement_is_significant_and_drm_direction():
    rng = np.random.default_rng(1)
    a = rng.uniform(0.4, 0.9, 200)
    b = a - 0.2  # lower DRM is better
    r = permutation_test(a, b, higher_is_better=False)
    assert r.p_value < 0.001 and r.wins == 200


def test_compare_methods_and_flips():
    per_query = pd.DataFrame(
        {
            "variant": ["base"] * 3 + ["sac"] * 3,
            "query_id": ["q0", "q1", "q2"] * 2,
            "dataset": ["d"] * 6,
            "k": [1] * 6,
            "drm": [1.0, 1.0, 0.0, 0.0, 1.0, 0.0],
            "precision": [0.0, 0.0, 0.5, 0.5, 0.0, 0.5],
            "recall": [0.0, 0.0, 1.0, 1.0, 0.0, 1.0],
        }
    )
    table = compare_methods(per_query, "base", "sac").set_index("metric")
    assert table.loc["drm", "wins"] == 1 and table.loc["drm", "ties"] == 2
    assert table.loc["drm", "mean_b"] == pytest.approx(1 / 3)
    flips = flipped_queries(per_query, "base", "sac", "drm", 1)
    assert flips["query_id"].tolist() == ["q0"] and flips["change"].tolist() == [-1.0]


@pytest.mark.parametrize("n", [4, 9, 13])
def test_enumerated_flips_give_scipys_exact_p_value(n):
    # at most 10,000 sign patterns: both enumerate every one, so the p-values are equal
    from scipy import stats

    diff = np.random.default_rng(n).normal(0.3, 1.0, n)
    ours = permutation_test(np.zeros(n), diff).p_value
    mean = lambda x, axis: np.mean(x, axis=axis)
    theirs = stats.permutation_test((diff,), mean, permutation_type="samples", vectorized=True).pvalue
    assert ours == pytest.approx(theirs, rel=1e-12)


def test_random_flips_agree_with_scipy_within_their_sampling_error():
    from scipy import stats

    diff = np.random.default_rng(7).normal(0.03, 0.5, 776)
    ours = permutation_test(np.zeros(776), diff).p_value
    mean = lambda x, axis: np.mean(x, axis=axis)
    theirs = stats.permutation_test((diff,), mean, permutation_type="samples", vectorized=True, random_state=0).pvalue
    assert abs(ours - theirs) < 4 * np.sqrt(theirs * (1 - theirs) / 10_000) * 2  # two independent estimates
    assert ours == permutation_test(np.zeros(776), diff).p_value  # seeded: the same on every call


def test_holm_by_hand_keeps_nan_and_caps_at_one():
    # sorted: 0.01 (x4), 0.02 (x3), 0.04 (x2), 0.30 (x1) -> 0.04, 0.06, 0.08, 0.30; running max keeps the order
    got = holm([0.04, float("nan"), 0.01, 0.30, 0.02])
    assert np.isnan(got[1])
    assert got[[0, 2, 3, 4]] == pytest.approx([0.08, 0.04, 0.30, 0.06])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])  # 0.5 x 2 = 1.0, then 0.6 x 1 -> max 1.0
    assert holm([0.03, 0.01]) == pytest.approx([0.03, 0.02])  # 0.01 x 2 = 0.02, 0.03 x 1 = 0.03
    assert len(holm([])) == 0


def test_holm_equals_statsmodels_on_random_families():
    from statsmodels.stats.multitest import multipletests

    rng = np.random.default_rng(3)
    for m in (1, 2, 7, 21, 60):
        p = rng.uniform(0, 0.2, m) ** rng.uniform(0.5, 3)
        p[rng.integers(0, m)] = p[0]  # a tie
        assert holm(p) == pytest.approx(multipletests(p, method="holm")[1], abs=1e-15)
