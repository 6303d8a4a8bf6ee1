"""The Curves page's one sentence on which code and data made a sweep (issue 45: no more three lines of
"commit … (working tree unknown)")."""

from __future__ import annotations

import pandas as pd

from sac_core.dashboard import curves


def test_three_commits_and_an_unknown_working_tree_are_one_plain_sentence():
    table = pd.DataFrame({
        "cell": ["a", "b", "c", "d"], "sac_version": "0.1.0", "data_digest": "62b076e9cbdb",
        "git_commit": ["d9c704e30201aa", "40342f506511bb", "afc7f9aa209bcc", "afc7f9aa209bcc"], "git_dirty": "",
    })  # fmt: skip
    lines = curves.provenance(table)
    assert lines == [
        "Computed by sac-dashboard 0.1.0, commits d9c704e30201, 40342f506511 and afc7f9aa209b on data 62b076e9cbdb "
        "(4 cells); whether the code had uncommitted changes was not recorded."
    ]
    assert "working tree unknown" not in lines[0]
    dirty = table.assign(git_dirty=["no", "yes", "no", "no"])
    assert curves.provenance(dirty)[0].endswith("(4 cells); some with uncommitted changes.")
    clean = table.assign(git_dirty="no", git_commit="1a2b3c4d5e6f7a8b")
    assert curves.provenance(clean) == [
        "Computed by sac-dashboard 0.1.0, commit 1a2b3c4d5e6f on data 62b076e9cbdb (4 cells)."
    ]
