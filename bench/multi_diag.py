#!/usr/bin/env python3
"""Inner-split diagnosis of the joint model of several targets against
comparator (a), the product of one-target models (issue 34).

Runs `gcp splits -inner` (the outer test rows are never read: each outer
training split holds out a tenth of its rows, drawn from -seed, and trains
on the rest) on data/multi/NAME.csv:

  product   gcp splits -inner -data NAME_t.csv -splits data/multi/splits/NAME_test_idx.txt
            -json -n N -seed S, one per target t (NAME_t.csv: the features and t
            alone, as bench/multi_benchmark.py's product trains)
  VARIANT   gcp splits -inner -data data/multi/NAME.csv -target a,b,c -json -n N
            -seed S FLAGS, FLAGS a variant's gcp train flags ("" = zero flags)

and prints, per variant, mean ± SE over the splits of each target's RMSE and
marginal NLL of the t (the product's `nll`, the joint model's `NLL:t`) and
of the joint NLL (the product's: the sum of its targets' NLLs), then each
figure's difference from the product, paired over the splits.

    python3 bench/multi_diag.py --set slump --n 20 --seeds 1 \
        --variant zero= --variant fixed='-lr 0.001 -dropout 0.1 -hidden 50'

Set GCP to the gcp binary (default: gcp on PATH). Results are cached in
--cache (one JSON lines file per run), so a variant is trained once.
"""
import argparse
import csv
import json
import math
import os
import shlex
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def mean_se(v):
    m = sum(v) / len(v)
    if len(v) < 2:
        return m, float("nan")
    return m, math.sqrt(sum((x - m) ** 2 for x in v) / (len(v) - 1) / len(v))


def run(args, cache, key):
    path = os.path.join(cache, key + ".jsonl")
    if not os.path.exists(path):
        env = dict(os.environ, GOMAXPROCS=os.environ.get("GOMAXPROCS", "1"))
        out = subprocess.run([os.environ.get("GCP", "gcp")] + args, capture_output=True, text=True, env=env, check=True).stdout
        with open(path + ".tmp", "w") as f:
            f.write(out)
        os.replace(path + ".tmp", path)
    with open(path) as f:
        return [json.loads(line) for line in f if '"split"' in line]


def product(name, targets, nf, n, seed, cache, flags):
    rows = list(csv.reader(open(os.path.join(ROOT, "data", "multi", name + ".csv"))))
    per = {}
    for j, t in enumerate(targets):
        data = os.path.join(cache, f"{name}_{t}.csv")
        with open(data, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            for r in rows:
                w.writerow(r[:nf] + [r[nf + j]])
        key = f"{name}_product_{t}_n{n}_s{seed}_{flags.replace(' ', '')}"
        per[t] = run(["splits", "-inner", "-data", data, "-splits", os.path.join(ROOT, "data", "multi", "splits", name + "_test_idx.txt"),
                      "-json", "-n", str(n), "-seed", str(seed)] + shlex.split(flags), cache, key)
    return [{"rmse": {t: per[t][i]["rmse"] for t in targets}, "nll": {t: per[t][i]["nll"] for t in targets},
             "joint": sum(per[t][i]["nll"] for t in targets), "info": {t: (per[t][i]["lr"], per[t][i]["dropout"], per[t][i]["hidden"], per[t][i]["scale_weighting"], per[t][i]["epoch"], per[t][i]["mean_epoch"]) for t in targets}}
            for i in range(len(per[targets[0]]))]


def joint(name, targets, n, seed, cache, label, flags):
    key = f"{name}_{label}_n{n}_s{seed}"
    res = run(["splits", "-inner", "-data", os.path.join(ROOT, "data", "multi", name + ".csv"), "-target", ",".join(targets),
               "-json", "-n", str(n), "-seed", str(seed)] + shlex.split(flags), cache, key)
    return [{"rmse": {t: r["RMSE:" + t] for t in targets}, "nll": {t: r["NLL:" + t] for t in targets}, "joint": r["joint-NLL"],
             "info": (r.get("lr"), r.get("dropout"), r.get("epoch"), r.get("mean_epoch"))} for r in res]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", default="slump")
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--variant", action="append", default=[], help="label=flags")
    ap.add_argument("--product-flags", default="")
    ap.add_argument("--cache", default="/tmp/multi_diag")
    ap.add_argument("--info", action="store_true", help="print each split's chosen settings")
    a = ap.parse_args()
    os.makedirs(a.cache, exist_ok=True)
    header = next(csv.reader(open(os.path.join(ROOT, "data", "multi", a.set + ".csv"))))
    d = {"slump": 3, "jura": 3, "edm": 2, "wq": 14}[a.set]
    nf, targets = len(header) - d, header[-d:]
    seeds = [int(s) for s in a.seeds.split(",")]
    prod = [r for s in seeds for r in product(a.set, targets, nf, a.n, s, a.cache, a.product_flags)]
    runs = [("product", prod)]
    for v in a.variant:
        label, flags = v.split("=", 1)
        runs.append((label, [r for s in seeds for r in joint(a.set, targets, a.n, s, a.cache, label, flags)]))
    short = [t[:10] for t in targets]
    print(f"{a.set}, seeds {a.seeds}, {len(prod)} inner splits; mean ± SE over splits; Δ paired against the product")
    print("| variant | " + " | ".join(f"RMSE {t}" for t in short) + " | " + " | ".join(f"NLL {t}" for t in short) + " | joint NLL |")
    print("|---" * (2 * d + 2) + "|")
    for label, res in runs:
        cells = []
        for what in ("rmse", "nll"):
            for t in targets:
                m, se = mean_se([r[what][t] for r in res])
                cells.append(f"{m:.3f} ± {se:.3f}")
        m, se = mean_se([r["joint"] for r in res])
        cells.append(f"{m:.3f} ± {se:.3f}")
        print(f"| {label} | " + " | ".join(cells) + " |")
        if label != "product":
            cells = []
            for t in targets:
                # RMSE ratio of the pooled mean squared errors over the splits
                cells.append(f"×{math.sqrt(sum(r['rmse'][t] ** 2 for r in res) / sum(p['rmse'][t] ** 2 for p in prod)):.3f}")
            for t in targets:
                m, se = mean_se([r["nll"][t] - p["nll"][t] for r, p in zip(res, prod)])
                cells.append(f"{m:+.3f} ± {se:.3f}")
            m, se = mean_se([r["joint"] - p["joint"] for r, p in zip(res, prod)])
            cells.append(f"{m:+.3f} ± {se:.3f}")
            print(f"| Δ {label} | " + " | ".join(cells) + " |")
    if a.info:
        for label, res in runs:
            print(label)
            for i, r in enumerate(res):
                print(" ", i, r["info"])


if __name__ == "__main__":
    main()
