#!/usr/bin/env python3
"""Reproduce the paper's Tables 6.1 and 6.2 with `gcp repro` and compare.

Runs `gcp repro -json` for the five UCI data sets of data/uci, the methods
GCP, ML, ML_Bayes, DPD and the Bayesian comparators PBP and SVGD
(package bayes), on clean data (Table 6.1) and with 5% outliers
(Table 6.2), each with the paper's appendix
hyperparameters (the command's defaults for these files, with the
deviation documented in cmd/gcp/appendix.go), 50 folds and one seed.
Every run's JSON object is appended to a results file, so an interrupted
run resumes and the tables can be re-rendered without re-running
anything.

It then prints the two "paper vs this library" tables in Markdown, the
issue's targets with PASS, FAIL or "PASS within the paper's rounding" (a
mean above the bar computed from the printed table but not above the
largest bar the unrounded table could give), and the wall time of the
GCP runs (the sum of their "seconds": each run uses every core). The
exit status is 1 if any target is FAIL.

The paper's numbers are in bench/paper_tables.json, transcribed from the
LaTeX source of the two tables (values are mean±std over 50 folds, rounded
to two decimals by the paper).

Usage (from the repository root):
    python3 bench/paper_tables.py [--folds 50] [--seed 1]
        [--methods gcp,ml,ml_bayes,dpd,pbp,svgd] [--results bench/results.jsonl]
        [--render-only]
"""
import argparse
import json
import math
import os
import subprocess
import sys

DATASETS = ["boston", "concrete", "power", "yacht", "kin8nm"]
NAMES = {"boston": "Boston", "concrete": "Concrete", "power": "Power",
         "yacht": "Yacht", "kin8nm": "Kin8nm"}
METHODS = ["gcp", "ml", "ml_bayes", "dpd", "pbp", "svgd"]
ROWS = [("GCP", "gcp", "auc"), ("GCP_corr", "gcp", "auc_corr"),
        ("ML", "ml", "auc"), ("ML_Bayes", "ml_bayes", "auc"),
        ("DPD", "dpd", "auc"), ("SVGD", "svgd", "auc"), ("PBP", "pbp", "auc")]
# BAYES are the Bayesian comparators of package bayes (issue #14): each
# must be within the bar on at least BAYES_MIN_CELLS of its 10 RMSE and AUC
# cells per table, and far behind GCP_corr with outliers.
BAYES = [("PBP", "pbp"), ("SVGD", "svgd")]
BAYES_MIN_CELLS = 8
TABLES = [(0.0, "tableSqErrorBostonConcrete", "Table 6.1, clean"),
          (0.05, "tableSqErrorBostonConcreteOutliers", "Table 6.2, 5% outliers")]


# ROUNDING marks a mean above the bar computed from the paper's printed
# values but within the bar those values admit before rounding.
ROUNDING = "PASS within the paper's rounding"


def verdict(ok):
    return "PASS" if ok else "FAIL"


def key(r):
    return (r["dataset"], r["method"], float(r["outliers"]), int(r["folds"]), int(r["seed"]))


def load(path, key=key):
    """Returns the JSON objects of the JSON-lines file at path (none if it
    does not exist yet), by key(object)."""
    out = {}
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    out[key(r)] = r
    return out


def run_all(args, results):
    exe = os.path.join(os.environ.get("TMPDIR", "/tmp"), "gcp-paper-tables")
    subprocess.run(["go", "build", "-o", exe, "./cmd/gcp"], check=True)
    for outliers, _, _ in TABLES:
        for ds in DATASETS:
            for method in args.methods:
                k = (ds, method, outliers, args.folds, args.seed)
                if k in results:
                    continue
                cmd = [exe, "repro", "-data", f"data/uci/{ds}.csv", "-method", method,
                       "-folds", str(args.folds), "-outliers", str(outliers),
                       "-seed", str(args.seed), "-json"]
                print(" ".join(cmd[1:]), file=sys.stderr, flush=True)
                r = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
                results[key(r)] = r
                with open(args.results, "a") as f:
                    f.write(json.dumps(r) + "\n")


def cell(stat):
    return f"{stat['mean']:.2f} ± {stat['std']:.2f}"


def paper_cell(v):
    return f"{v[0]:.2f} ± {v[1]:.2f}"


def judge(paper_cell, got):
    """Returns the verdict of a mean against a paper cell [mean, std]: PASS
    at or below mean + 2 standard errors over 50 folds; ROUNDING above it
    but within the largest bar the printed (rounded) table admits; FAIL
    otherwise. Also returns both bars."""
    mean, std = paper_cell
    # The paper rounds to 2 decimals, so a bar is never below the largest
    # value that rounds to it.
    bar = max(mean + 2 * std / math.sqrt(50), mean + 0.005)
    # The largest mean + 2 standard errors the printed table admits: mean
    # and std each up to 0.005 above their print.
    loose = mean + 0.005 + 2 * (std + 0.005) / math.sqrt(50)
    status = "PASS" if got <= bar else ROUNDING if got <= loose else "FAIL"
    return status, bar, loose


def render(args, results, paper):
    checks = []
    for outliers, label, title in TABLES:
        print(f"\n**{title}**: RMSE and AUC, mean ± std over {args.folds} folds, seed {args.seed}\n")
        print("| Data set | Method | RMSE, paper | RMSE, gcp | AUC, paper | AUC, gcp |")
        print("| --- | --- | --- | --- | --- | --- |")
        for ds in DATASETS:
            p = paper[label][ds]
            for name, method, auc in ROWS:
                if name not in p:
                    continue  # the paper gives no GCP_corr row for clean data
                r = results.get((ds, method, outliers, args.folds, args.seed))
                ours_rmse = cell(r["rmse"]) if r else "—"
                ours_auc = cell(r[auc]) if r and r.get(auc) else "—"
                print(f"| {NAMES[ds]} | {name} | {paper_cell(p[name]['rmse'])} | {ours_rmse} "
                      f"| {paper_cell(p[name]['auc'])} | {ours_auc} |")
        target_row = "GCP" if outliers == 0 else "GCP_corr"
        for ds in DATASETS:
            r = results.get((ds, "gcp", outliers, args.folds, args.seed))
            if not r:
                continue
            pv = paper[label][ds][target_row]
            for metric, auc in (("rmse", "rmse"), ("auc", "auc" if outliers == 0 else "auc_corr")):
                mean, std = pv[metric]
                got = r[auc]["mean"]
                status, bar, loose = judge(pv[metric], got)
                d = 3 if status == "PASS" else 4  # enough digits to show the miss
                text = (f"{title}: {NAMES[ds]} {target_row} {metric.upper()} "
                        f"{got:.{d}f} {'≤' if status == 'PASS' else '>'} paper {mean:.2f} + 2·{std:.2f}/√50 = {bar:.{d}f}")
                if status != "PASS":
                    text += f"; the largest bar the printed table admits is {loose:.4f}"
                checks.append((status, text))
        for name, method in (b for b in BAYES if b[1] in args.methods):
            cells, misses = 0, []
            for ds in DATASETS:
                r = results.get((ds, method, outliers, args.folds, args.seed))
                for metric in ("rmse", "auc"):
                    if not r:
                        misses.append(f"{NAMES[ds]} {metric.upper()} not run")
                        continue
                    status, bar, _ = judge(paper[label][ds][name][metric], r[metric]["mean"])
                    if status == "FAIL":
                        misses.append(f"{NAMES[ds]} {metric.upper()} {r[metric]['mean']:.3f} > {bar:.3f}")
                    else:
                        cells += 1
            checks.append((verdict(cells >= BAYES_MIN_CELLS),
                           f"{title}: {name} within the bar on {cells} of 10 cells (target ≥ {BAYES_MIN_CELLS})"
                           + (f"; misses: {', '.join(misses)}" if misses else "")))
        if outliers > 0:
            for ds in DATASETS:
                g = results.get((ds, "gcp", outliers, args.folds, args.seed))
                m = results.get((ds, "ml", outliers, args.folds, args.seed))
                if g and m:
                    checks.append((verdict(g["auc_corr"]["mean"] < m["auc"]["mean"]),
                                   f"{NAMES[ds]}, outliers: AUC GCP_corr {g['auc_corr']['mean']:.3f} < ML {m['auc']['mean']:.3f}"))
                if g:
                    checks.append((verdict(g["auc_corr"]["mean"] <= g["auc"]["mean"]),
                                   f"{NAMES[ds]}, outliers: AUC GCP_corr {g['auc_corr']['mean']:.3f} ≤ GCP {g['auc']['mean']:.3f}"))
                for name, method in (b for b in BAYES if b[1] in args.methods):
                    b = results.get((ds, method, outliers, args.folds, args.seed))
                    if g and b:
                        # The paper's finding: the Bayesian methods are much
                        # worse than GCP_corr with outliers, in RMSE and AUC.
                        worse = b["rmse"]["mean"] > g["rmse"]["mean"] and b["auc"]["mean"] > g["auc_corr"]["mean"]
                        checks.append((verdict(worse),
                                       f"{NAMES[ds]}, outliers: {name} RMSE {b['rmse']['mean']:.3f}, AUC {b['auc']['mean']:.3f} "
                                       f"above GCP_corr's {g['rmse']['mean']:.3f}, {g['auc_corr']['mean']:.3f}"))
    print("\n**Targets**\n")
    for status, text in checks:
        print(f"- {status}: {text}")
    for method in args.methods:
        runs = [r for r in results.values() if r["method"] == method and r["folds"] == args.folds and r["seed"] == args.seed]
        if runs:
            total = sum(r["seconds"] for r in runs)
            print(f"\n{method} ({len(runs)} runs of {args.folds} folds): {total:.0f} s wall time in all.")
    return all(status != "FAIL" for status, _ in checks)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--folds", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--results", default="bench/results.jsonl")
    ap.add_argument("--render-only", action="store_true")
    args = ap.parse_args()
    args.methods = args.methods.split(",")
    with open(os.path.join(os.path.dirname(__file__), "paper_tables.json")) as f:
        paper = json.load(f)
    results = load(args.results)
    if not args.render_only:
        run_all(args, results)
    sys.exit(0 if render(args, results, paper) else 1)


if __name__ == "__main__":
    main()
