#!/usr/bin/env python3
"""The joint law gcp train chooses (docs/multivariate.md, Sec. 12), against
comparator (a) and the joint t, on the outer splits of issue 34.

Reads the records of `bench/multi_benchmark.py --method mvgcp --out
bench/copula_law_results.jsonl` (gcp train choosing between the joint t
and the Gaussian copula of the one-target models; each split's law_copula
says which it kept) and, from bench/multi_results.jsonl, the product
(comparator (a), one-target models) and mvgcp (the joint t alone, at the
commits its record names) records of the same sets, and prints per set,
paired by split over the splits all three ran (mean ± SE):

  the laws kept (how many splits chose the copula), the chosen model's
  joint NLL against (a)'s and against the joint t's, its calibrated 95%
  joint region's coverage (and dequantized, for a lattice; also over all
  of the law record's splits where it ran more than the others), each target's
  RMSE over (a)'s (the mean of the per-split ratios), the cross-fitted
  joint NLLs of both laws on the training rows (what chose), and the
  train CPU seconds a split against (a)'s and the joint t's.

Usage: python3 bench/copula_law_table.py [--datasets slump,jura,edm]
"""
import argparse
import json
import math
import os
import statistics
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def load(path):
    out = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            out[(r["dataset"], r["method"])] = r
    return out


def mean_se(v):
    v = [x for x in v if x is not None and math.isfinite(x)]
    if not v:
        return "—"
    se = statistics.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else float("nan")
    return f"{statistics.fmean(v):+.3f} ± {se:.3f}" if len(v) > 1 else f"{v[0]:+.3f}"


def plain(v, digits=3):
    v = [x for x in v if x is not None and math.isfinite(x)]
    if not v:
        return "—"
    se = statistics.stdev(v) / math.sqrt(len(v)) if len(v) > 1 else float("nan")
    return f"{statistics.fmean(v):.{digits}f} ± {se:.{digits}f}"


def coverage(splits):
    """The calibrated 95% joint region's coverage over splits, and the
    dequantized targets' for a lattice."""
    cov = plain([s["cov95_joint_cal"] for s in splits])
    if splits[0].get("cov95_joint_cal_dq") is not None:
        cov += " (dq " + plain([s["cov95_joint_cal_dq"] for s in splits]) + ")"
    return cov


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", default="slump,jura,edm,wq,oes97")
    ap.add_argument("--laws", default=os.path.join(ROOT, "bench/copula_law_results.jsonl"))
    ap.add_argument("--base", default=os.path.join(ROOT, "bench/multi_results.jsonl"))
    args = ap.parse_args()
    laws, base = load(args.laws), load(args.base)
    print("| set | splits | copula kept on | joint NLL − (a) | − joint t | cal. 95% joint coverage | "
          "RMSE / (a) by target | CV NLL joint t, copula (training rows) | train CPU s: chosen, (a), joint t |")
    print("|" + " --- |" * 9)
    for name in args.datasets.split(","):
        rec = laws.get((name, "mvgcp"))
        if rec is None or "splits" not in rec:
            continue
        a = {s["split"]: s for s in base[(name, "product")]["splits"]}
        t = {s["split"]: s for s in base[(name, "mvgcp")]["splits"]}
        splits = [s for s in rec["splits"] if s["split"] in a and s["split"] in t]
        if not splits:
            continue
        targets = rec["targets"]
        chosen = [int(s.get("law_copula", 0)) for s in splits]
        d_a = [s["joint_nll"] - a[s["split"]]["joint_nll"] for s in splits]
        d_t = [s["joint_nll"] - t[s["split"]]["joint_nll"] for s in splits]
        cov = coverage(splits)
        if len(rec["splits"]) > len(splits):
            cov += f"; all {len(rec['splits'])}: " + coverage(rec["splits"])
        ratio = ", ".join(f"{statistics.fmean(s['rmse'][k] / a[s['split']]['rmse'][k] for s in splits):.3f}"
                          for k in targets)
        cv = (plain([s.get("law_cvnll_joint") for s in splits]) + ", "
              + plain([s.get("law_cvnll_copula") for s in splits]))
        cpu = (f"{statistics.fmean(s['train_cpu_seconds'] for s in splits):.1f}, "
               f"{statistics.fmean(a[s['split']]['train_cpu_seconds'] for s in splits):.1f}, "
               f"{statistics.fmean(t[s['split']]['train_cpu_seconds'] for s in splits):.1f}")
        print(f"| {name} | {len(splits)} | {sum(chosen)} | {mean_se(d_a)} (lower on {sum(x < 0 for x in d_a)}) | "
              f"{mean_se(d_t)} (lower on {sum(x < 0 for x in d_t)}) | {cov} | {ratio} | {cv} | {cpu} |")
        print(f"  {name} per split, law kept (1 copula): {''.join(map(str, chosen))}", file=sys.stderr)


if __name__ == "__main__":
    main()
