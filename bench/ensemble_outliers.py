#!/usr/bin/env python3
"""Compare a GCP ensemble's AUC_corr with the single GCP network's under 5% outliers.

The target of the ensembles issue: with 5% outliers (the paper's protocol,
`gcp repro -outliers 0.05`: 50 random 95/5 folds, the appendix's
hyperparameters per data set, seed 1), the ensemble's AUC_corr is at or
below the single GCP's on every data set. For each of the five data sets it
runs

    gcp repro -data data/uci/NAME.csv -method gcp -outliers 0.05 -members K -json

and stores the result as one JSON line in bench/results_membersK.jsonl (a
new run of a data set replaces its old line). The single network's row is
read from bench/results.jsonl, written by bench/paper_tables.py with the
same folds, outliers and seed. It prints both AUC_corr (mean ± std over the
folds, and the standard error std/√50) side by side with the verdict, and
exits with status 1 if any data set misses.

Usage: python3 bench/ensemble_outliers.py [--members 5] [--datasets ...] [--render-only]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time

from paper_tables import load  # the same JSON-lines results and keys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATASETS = ["boston", "concrete", "power", "yacht", "kin8nm"]
OUTLIERS, FOLDS, SEED = 0.05, 50, 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--members", type=int, default=5)
    ap.add_argument("--datasets", default=",".join(DATASETS))
    ap.add_argument("--render-only", action="store_true")
    args = ap.parse_args()
    path = os.path.join(ROOT, "bench", f"results_members{args.members}.jsonl")
    ours = load(path)
    single = load(os.path.join(ROOT, "bench", "results.jsonl"))
    sets = [d for d in args.datasets.split(",") if d]
    if not args.render_only:
        with tempfile.TemporaryDirectory() as tmp:
            exe = os.path.join(tmp, "gcp")
            subprocess.run(["go", "build", "-o", exe, "./cmd/gcp"], cwd=ROOT, check=True)
            for ds in sets:
                cmd = [exe, "repro", "-data", f"data/uci/{ds}.csv", "-method", "gcp", "-outliers", str(OUTLIERS),
                       "-folds", str(FOLDS), "-seed", str(SEED), "-members", str(args.members), "-json"]
                t0 = time.monotonic()
                r = json.loads(subprocess.run(cmd, cwd=ROOT, check=True, capture_output=True, text=True).stdout)
                r.update(dataset=ds, method="gcp", outliers=OUTLIERS, folds=FOLDS, seed=SEED, members=args.members,
                         seconds=round(time.monotonic() - t0, 1))
                ours[(ds, "gcp", OUTLIERS, FOLDS, SEED)] = r
                print(f"{ds}: AUC_corr {r['auc_corr']['mean']:.4g} in {r['seconds']} s", file=sys.stderr, flush=True)
                with open(path, "w") as f:
                    for v in ours.values():
                        f.write(json.dumps(v) + "\n")
    print(f"\n**AUC_corr with 5% outliers** (`gcp repro -outliers 0.05`, {FOLDS} folds, seed {SEED}; mean ± std over folds)\n")
    print(f"| Data set | GCP, 1 network | GCP, {args.members} members | Verdict | Time |")
    print("| --- | --- | --- | --- | --- |")
    ok = True
    for ds in sets:
        k = (ds, "gcp", OUTLIERS, FOLDS, SEED)
        s, e = single.get(k), ours.get(k)
        if not s or not e:
            print(f"| {ds} | {'—' if not s else s['auc_corr']['mean']} | {'not run' if not e else e['auc_corr']['mean']} | — | — |")
            continue
        a, b = s["auc_corr"], e["auc_corr"]
        good = b["mean"] <= a["mean"]
        ok = ok and good
        se = lambda m: m["std"] / math.sqrt(FOLDS)
        print(f"| {ds} | {a['mean']:.4g} ± {a['std']:.3g} (SE {se(a):.2g}) | {b['mean']:.4g} ± {b['std']:.3g} "
              f"(SE {se(b):.2g}) | {'PASS' if good else 'FAIL'} | {e['seconds']} s |")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
