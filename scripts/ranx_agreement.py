"""Rescore every committed run (results/*/runs/*.jsonl.gz) with today's metrics (Hit/MRR/nDCG
through ranx) and print, per sweep folder, the largest difference per metric from the committed
per_query.csv.gz.

    python scripts/ranx_agreement.py --data ../shared/legalbench-rag [--heldout ../heldout] [--out diffs.csv]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from sac_core.engine.data import write_csv
from sac_core.experiments.agreement import rescore_folder


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--heldout", type=Path, help="the held-out folder of results/methods-heldout (sac heldout)")
    parser.add_argument("--results", type=Path, default=Path("results"))
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    frames = []
    for folder in sorted(
        p for p in args.results.iterdir() if (p / "runs").is_dir() and (p / "per_query.csv.gz").is_file()
    ):
        data = args.heldout if folder.name == "methods-heldout" else args.data
        if data is None:
            print(f"{folder.name}: skipped (needs --heldout)", file=sys.stderr)
            continue
        table = rescore_folder(folder, data).assign(folder=folder.name)
        frames.append(table)
        print(f"{folder.name}: {len(table)} cells; max |difference| per metric:")
        print(table.drop(columns=["cell", "variant", "queries", "folder"]).max().to_string())
    diffs = pd.concat(frames, ignore_index=True)
    print("\nall committed runs, max |difference| per metric:")
    print(diffs.drop(columns=["cell", "variant", "queries", "folder"]).max().to_string())
    if args.out:
        write_csv(diffs, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
