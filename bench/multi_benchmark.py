#!/usr/bin/env python3
"""Run the multi-target benchmark of issue 34 on the Mulan sets in data/multi.

Data: data/multi/NAME.csv for NAME in slump, jura, edm, wq, atp1d and
oes97 (converted from Mulan's ARFF by bench/mulan_to_csv.py; the targets
are the last TARGETS[NAME] columns, see data/multi/README.md). Splits:
data/multi/splits/NAME_test_idx.txt, line i (i = 0..19) the 0-based data
rows of split i's test set, comma-separated; the training set is the rest.
They are random 90/10 partitions (n·9//10 rows to train) drawn once with a
fixed seed by `--make-splits` and committed, so that every method reads
the same ones; the script checks each line is a set of distinct rows in
range before using it.

Methods (--method):
  product   comparator (a) of issue 34: d independent one-dimensional GCP
            models, one per target and split, each trained and scored
            with zero flags:
                gcp train   -data TRAIN_j.csv -o MODEL_j.gcpm
                gcp predict -model MODEL_j.gcpm -data TEST_j.csv -levels GRID
                gcp eval    -model MODEL_j.gcpm -data TEST_j.csv
            where TRAIN_j/TEST_j hold the features and target j alone, last
            (so the default target; the other targets are not inputs).
  mvgcp     the multivariate GCP network, zero flags: gcp train -target
            a,b,c on the split's training rows, gcp eval and gcp predict
            on its test rows (run_mvgcp says which figures it records).
            gcp train keeps the joint network or the Gaussian copula of
            the one-target models by their cross-fitted joint NLLs on the
            training rows, the joint network only where no target's
            cross-fitted RMSE is more than 5% above its one-target
            model's: law_copula (1 for the copula), law_cvnll_joint,
            law_cvnll_copula, law_lambda, law_gain and law_rmse_ratio
            record the choice from its summary (joint_law).
  mvml      comparator (b), the full-covariance Gaussian network
            (Config{Targets: d, Loss: LossGaussianML}: the Cholesky factor
            of its covariance learned by maximum likelihood, no ν), zero
            flags but the method's: as mvgcp with gcp train -method ml
            -target a,b,c. Its joint-NLL is the Gaussian's.

Per split, for the product method (every figure on the test rows, in the
targets' original units unless said otherwise):
  rmse[t], nll[t], nll_cal[t], crps[t], crps_cal[t], cov95_cal[t]
            gcp eval's per-target RMSE, mean NLL of the Student-t
            predictive (an ensemble's mixture) and of the calibrated one
            N(mean, sd_corrected²), CRPS of each, and the calibrated 95%
            interval's coverage (eval prints 6 significant digits).
  joint_nll, joint_nll_cal
            the mean joint NLL of the product density: the product's log
            density is the sum of the marginals' at every row, so its mean
            over rows is the sum over targets of eval's mean NLL.
  energy_score, energy_score_cal, energy_score_std, energy_score_cal_std
            the energy score ES = E‖Y−y‖ − ½E‖Y−Y′‖ (Gneiting & Raftery
            2007; the CRPS for d = 1) of the product predictive, Student-t
            and calibrated, by Monte Carlo: each target's marginal is taken
            as the equal-weight points of its quantiles at (k−½)/K,
            k = 1..K (K = 200), read from gcp predict's central intervals
            at levels 1 − (2k−1)/K (the interval at level L has its ends at
            the (1∓L)/2 quantiles); M = 4000 pairs (Y, Y′) per row draw one
            point of each target's marginal independently, as a Latin
            hypercube (each of Y's and Y′'s coordinates takes every grid
            point M/K times, in an order shuffled by a random.Random seeded
            by "NAME/split/method"); the same draws serve both predictives.
            On slump's first split the grid's exact CRPS matched eval's to
            1e-4 relative (2.48938 against 2.48923, 5.01816 against
            5.0179), and over ten seeds the Monte Carlo's standard
            deviation was 0.4% of the score for one target and 0.3% for
            two (11 test rows; independent draws instead of the Latin
            hypercube, at M = 1000: 2%). _std divides each target by its
            training rows' standard deviation first, so that a target of
            large units does not dominate the norm.
  es1d[t], es1d_cal[t]
            the same Monte Carlo estimate for each target alone: it must
            agree with eval's CRPS and CRPS_calibrated up to the Monte Carlo
            error and the grid's truncated tails (a check of the above).
  cov95_rect_cal
            the share of test rows whose every target lies in its own
            calibrated 95% interval: the naive joint region of the product
            (the rectangle of the marginal 95% intervals), whose coverage
            falls below 0.95 as d grows; the issue compares the
            multivariate model's calibrated 95% joint region against it.
  cov95_rect_sidak_cal
            the same for the rectangle of per-target levels 0.95^(1/d),
            the product density's own 95% rectangle (exact if the targets
            were independent given the features).
  cov50_joint_cal, cov90_joint_cal, cov95_joint_cal
            the share of test rows inside the calibrated joint region of
            level 50/90/95%: for the product, the product of the
            calibrated marginals N(mean_j, sd_corrected_j²), whose region
            is Σ_j ((y_j − mean_j)/sd_corrected_j)² ≤ χ²_d(level) (the
            ellipsoid of a Gaussian with diagonal covariance; sd_corrected
            read from gcp predict); for mvgcp and mvml, gcp eval's
            joint-cov50/90/95-cal (the calibrated region N(m, c·Σ̃)).
  cov50_joint_cal_dq, cov90_joint_cal_dq, cov95_joint_cal_dq, cov95_cal_dq[t]
  (and for mvgcp and mvml cov50/90/95_joint_conformal_dq)
            only where a target lies on a lattice (edm, wq): the same
            coverages of the variable the model describes there, each test
            row's lattice targets dequantized DQ_COPIES = 20 times
            (dequantized_rows, the training rows' lattices by
            lattice_spacing); for mvgcp and mvml gcp eval on those copies.
            At the lattice points themselves (the keys above) a continuous
            region covers a point's whole cell or nothing, and a region of
            level p can cover far more than p of the points.
  seconds, train_seconds[t]
            the split's wall time and each training's.
  cpu_seconds, train_cpu_seconds
            user plus system CPU seconds of the gcp processes the split ran
            (getrusage of the finished children), in all and in gcp train
            alone: on a machine shared with other work, the wall times
            depend on the load and these do not (much).

The summary gives the mean and standard error over the splits of each.

Comparator (c) of issue 34, Meinert & Lavin's normal-inverse-Wishart
evidential network, is bench/mvder.py (PyTorch; --method mvder runs it
with the other options passed on): it imports this script's reader,
splits, runner loop, summary and table, and writes bench/mvder_results.jsonl;
its doc says which of the keys below its record has.

A set the command refuses (atp1d: 411 features and 303 training rows;
gcp train refuses a table with more inputs than rows) is recorded with
its error and no splits.

Results: bench/multi_results.jsonl, one JSON line per data set and method
(a later run replaces the earlier record of the same pair), with the
commit, whether the work tree had uncommitted changes, the command
template, the flags added to every gcp train (train_flags), the Go
version, the time it started and the wall time. --float64 adds -float64
to every gcp train: the records without train_flags trained with zero
flags when gcp train's default was float64, so --float64 reproduces
them; without it gcp train trains in float32 unless a column needs
float64.

How long (CPU seconds of `gcp train` a split, measured on a 2-core AMD
Zen 4 shared with other work; bench/multi_results.jsonl records each
run's): the product 3.1 (slump), 12.0 (jura) and 5.3 (edm), the joint
model 3.0, 8.6 and 3.8 (jura's compares the log of its skewed targets),
comparator (b) 3.1, 4.5 and 2.6; the three sets'
20 splits took half a minute to 6 minutes of wall time a set and method.
wq (14 targets, 954 training rows) and oes97 (16 targets, 300 rows ×
263 features) are far larger: on wq the joint model took 45 CPU seconds
a split and the product 126 (280 one-target models, 63 minutes of wall
time on the shared machine); on oes97 the joint model took 52, and the
product, 320 one-target models of about 40 s each, has not been run
(atp1d is refused at once).

Usage (relative paths are taken from the repository root):
    python3 bench/multi_benchmark.py [--datasets slump,jura,...] [--n N]
        [--method product] [--float64] [--out bench/multi_results.jsonl] [--render-only]
    python3 bench/multi_benchmark.py --make-splits   # once; refuses to overwrite
"""
import argparse
import csv
import datetime
import json
import math
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no bench/__pycache__ in the work tree from the imports below
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from paper_tables import load as load_jsonl  # noqa: E402
from uci_benchmark import ROOT, git, git_go_version  # noqa: E402

DATASETS = ["slump", "jura", "edm", "wq", "atp1d", "oes97"]
TARGETS = {"slump": 3, "jura": 3, "edm": 2, "wq": 14, "atp1d": 6, "oes97": 16}
FULL_SPLITS = 20
SPLIT_SEED = 34  # the number: random.Random(34) draws every set's splits
GRID = 200       # quantile points per marginal for the energy score
DRAWS = 4000     # Monte Carlo pairs (Y, Y') per test row


def read_table(name):
    """Returns the header and rows (lists of strings) of data/multi/NAME.csv."""
    with open(os.path.join(ROOT, "data", "multi", name + ".csv"), newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def splits_path(name):
    return os.path.join(ROOT, "data", "multi", "splits", name + "_test_idx.txt")


def make_splits(names):
    """Writes FULL_SPLITS random 90/10 test sets per data set; never overwrites."""
    os.makedirs(os.path.dirname(splits_path("x")), exist_ok=True)
    for name in names:
        path = splits_path(name)
        if os.path.exists(path):
            sys.exit(f"{path} exists: the splits are fixed once drawn; delete it by hand to redraw")
        n = len(read_table(name)[1])
        rng = random.Random(SPLIT_SEED)
        n_test = n - n * 9 // 10
        with open(path, "w") as f:
            for _ in range(FULL_SPLITS):
                f.write(",".join(str(i) for i in sorted(rng.sample(range(n), n_test))) + "\n")
        print(f"{path}: {FULL_SPLITS} splits of {n - n_test} training and {n_test} test rows")


def read_splits(name, n):
    """Returns the test row lists of data set name (n rows), checked."""
    out = []
    with open(splits_path(name)) as f:
        for lineno, line in enumerate(f, 1):
            idx = [int(v) for v in line.strip().split(",")]
            if len(set(idx)) != len(idx) or not all(0 <= i < n for i in idx):
                sys.exit(f"{splits_path(name)}:{lineno}: not a set of distinct rows in [0, {n})")
            out.append(idx)
    if len(out) != FULL_SPLITS:
        sys.exit(f"{splits_path(name)}: {len(out)} splits, want {FULL_SPLITS}")
    return out


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


class Refused(Exception):
    """gcp train refused the data (its message is the exception's)."""


# Flags added to every gcp train: ["-float64"] with --float64.
TRAIN_FLAGS = []


def gcp(exe, args, cwd, with_stderr=False):
    """Runs gcp with args in cwd (train with TRAIN_FLAGS added) and returns
    its stdout, or (stdout, stderr) with_stderr; a failure raises Refused
    with gcp's last stderr line for train, else stops the script."""
    if args[0] == "train":
        args = [*args, *TRAIN_FLAGS]
    r = subprocess.run([exe, *args], cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        msg = (r.stderr.strip().splitlines() or ["(no message)"])[-1]
        if args[0] == "train":
            raise Refused(msg)
        sys.exit(f"gcp {' '.join(args)} failed with status {r.returncode}: {msg}")
    return (r.stdout, r.stderr) if with_stderr else r.stdout


def grid_levels(d):
    """The -levels of predict: the quantile grid's central levels, then 0.95
    and the Šidák level 0.95^(1/d)."""
    levels = [1 - (2 * k - 1) / GRID for k in range(1, GRID // 2 + 1)]
    return levels + [0.95, 0.95 ** (1 / d)]


def parse_predict(text, nlevels):
    """Returns, per row, (mean, lo/hi pairs of the calibrated intervals,
    lo/hi pairs of the Student-t intervals, sd_corrected), each pair list
    in -levels order. The columns are located by position: mean, the calibrated
    pairs, the conformal pairs if any, sd_corrected, the Student-t pairs."""
    rows = list(csv.reader(text.splitlines()))
    head = rows[0]
    if head[0] != "mean" or "sd_corrected" not in head:
        sys.exit(f"gcp predict: unexpected header {head[:3]}")
    t0 = head.index("sd_corrected") + 1
    if head[t0 + 2 * nlevels] != "sd_student_t":
        sys.exit(f"gcp predict: {nlevels} levels, but the header has {t0 + 2 * nlevels} columns before sd_student_t")
    out = []
    for r in rows[1:]:
        v = [float(x) for x in r]
        cal = [(v[1 + 2 * i], v[2 + 2 * i]) for i in range(nlevels)]
        st = [(v[t0 + 2 * i], v[t0 + 1 + 2 * i]) for i in range(nlevels)]
        out.append((v[0], cal, st, v[t0 - 1]))
    return out


def parse_eval(text):
    """Returns gcp eval's measures: the KEY VALUE lines and, from its table,
    nll/nll_cal and the 95% coverages cov95/cov95_cal."""
    out, pred = {}, None
    names = {"student-t": "", "calibrated": "_cal", "conformal": "_conformal"}
    for line in text.splitlines():
        p = line.split()
        if len(p) == 2 and p[0] != "predictive":
            try:
                out[p[0]] = float(p[1])
            except ValueError:
                pass
        elif len(p) == 6 and p[0] in names:
            pred = names[p[0]]
            if p[1] != "-":
                out["nll" + pred] = float(p[1])
            p = p[2:]  # level, coverage, width, interval score, as the rows below it
        if pred is not None and len(p) == 4 and p[0] == "95%":
            out["cov95" + pred] = float(p[1])
        if line.startswith("PIT"):
            pred = None
    return out


def chi2_cdf(x, d):
    """P(χ²_d ≤ x): the regularized lower incomplete gamma P(d/2, x/2) by
    its power series (Abramowitz & Stegun 6.5.29), to 1e-15 relative."""
    if x <= 0:
        return 0.0
    a, z = d / 2, x / 2
    term = total = 1 / a
    k = 1
    while term > 1e-17 * total:
        term *= z / (a + k)
        total += term
        k += 1
    return math.exp(a * math.log(z) - z - math.lgamma(a)) * total


def positive_quantile(cdf, p, steps=200):
    """The p-quantile of a law on [0, ∞) with the CDF cdf, by bisection:
    the upper end doubles from 1 until it holds p, then steps halvings."""
    lo, hi = 0.0, 1.0
    while cdf(hi) < p:
        hi *= 2
    for _ in range(steps):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if cdf(mid) < p else (lo, mid)
    return (lo + hi) / 2


def chi2_quantile(p, d):
    """The p-quantile of χ²_d, by bisection on chi2_cdf."""
    return positive_quantile(lambda x: chi2_cdf(x, d), p)


DQ_COPIES = 20  # dequantized copies of each test row (lattice_spacing)


def lattice_spacing(values):
    """The spacing h of the lattice a + k·h on which values lie, or 0: the
    rule gcp train applies to each target (lattice.go), written again from
    its description: h is the smallest gap between distinct values divided
    by the first j = 1..10 that puts every value on the lattice (within
    1e-6 of h), provided the lattice has no more points between the smallest
    and the largest value than there are values."""
    u = sorted(set(values))
    if len(u) < 2:
        return 0.0
    gap = min(b - a for a, b in zip(u, u[1:]))
    span = u[-1] - u[0]
    for j in range(1, 11):
        points = round(span / (gap / j))
        if points > len(values):
            return 0.0
        h = span / points
        if all(abs((v - u[0]) / h - round((v - u[0]) / h)) <= 1e-6 for v in u):
            return h
    return 0.0


def dequantized_rows(test_rows, nf, quanta, seed):
    """DQ_COPIES copies of each test row, each target on a lattice of
    spacing h > 0 moved by h·(u − ½), u uniform on (0, 1) from a
    random.Random seeded by seed: the continuous variable that gcp train
    fits and calibrates on a lattice (lattice.go). A continuous region
    covers a lattice point's whole cell or none of it no matter where in
    the cell the point sits, so its coverage at the points can be far from
    its level (on edm, whose two targets take the values −1, 0 and 1, the
    calibrated 95% joint region held 0.99 of the test points); over these
    copies it is the coverage of the variable the region describes."""
    rng = random.Random(seed)
    out = []
    for r in test_rows:
        for _ in range(DQ_COPIES):
            c = list(r)
            for j, h in enumerate(quanta):
                if h > 0:
                    c[nf + j] = repr(float(r[nf + j]) + h * (rng.random() - 0.5))
            out.append(c)
    return out


JOINT_LEVELS = (50, 90, 95)  # the calibrated joint regions' levels, in percent


def quantile_points(pairs):
    """The grid's quantiles, ascending, from the first GRID/2 central
    intervals (levels 1 − (2k−1)/GRID)."""
    lo = [p[0] for p in pairs[:GRID // 2]]
    hi = [p[1] for p in pairs[:GRID // 2]]
    return sorted(lo + hi)


def energy_scores(y, points, scale, rng):
    """Monte Carlo energy scores of one test row under the product of
    marginals. y: the row's targets; points[kind][j]: target j's GRID
    quantile points under predictive kind; scale[j]: the divisor of the
    standardized score. Returns {kind: (es, es_std, [es of each target])}."""
    d = len(y)
    sums = {k: [0.0, 0.0, [0.0] * d] for k in points}  # ‖Y−y‖ − ½‖Y−Y′‖, standardized, per target
    draws = []  # per target, DRAWS/GRID copies of each grid point in random order: a Latin hypercube
    for _ in range(2 * d):
        idx = list(range(GRID)) * (DRAWS // GRID)
        rng.shuffle(idx)
        draws.append(idx)
    for m in range(DRAWS):
        a = [draws[j][m] for j in range(d)]
        b = [draws[d + j][m] for j in range(d)]
        for kind, q in points.items():
            s = sums[kind]
            e2 = f2 = es2 = fs2 = 0.0
            for j in range(d):
                ya, yb = q[j][a[j]], q[j][b[j]]
                e, f = ya - y[j], ya - yb
                e2 += e * e
                f2 += f * f
                es2 += (e / scale[j]) ** 2
                fs2 += (f / scale[j]) ** 2
                s[2][j] += abs(e) - 0.5 * abs(f)
            s[0] += math.sqrt(e2) - 0.5 * math.sqrt(f2)
            s[1] += math.sqrt(es2) - 0.5 * math.sqrt(fs2)
    return {k: (s[0] / DRAWS, s[1] / DRAWS, [v / DRAWS for v in s[2]]) for k, s in sums.items()}


def split_rows(name, header, rows, test):
    """The targets of data set name (their count and names, the last
    columns of header) and the training and test rows of a split whose
    test rows are the indices test."""
    d = TARGETS[name]
    test_set = set(test)
    train = [r for i, r in enumerate(rows) if i not in test_set]
    return d, header[len(header) - d:], train, [rows[i] for i in test]


def run_product(exe, name, split, header, rows, test, tmp):
    """Comparator (a) on one split: returns the split's record."""
    d, names, train, test_rows = split_rows(name, header, rows, test)
    nf = len(header) - d
    levels = grid_levels(d)
    lv = ",".join(repr(l) for l in levels)
    rec = {"split": split, "n_train": len(train), "n_test": len(test), "train_seconds": {}}
    for key in ("rmse", "nll", "nll_cal", "crps", "crps_cal", "cov95_cal"):
        rec[key] = {}
    preds = []
    t0, cpu0 = time.monotonic(), children_cpu()
    rec["train_cpu_seconds"] = 0.0
    for j, t in enumerate(names):
        tr, te, model = f"train_{j}.csv", f"test_{j}.csv", f"model_{j}.gcpm"  # in tmp, gcp's working folder
        write_csv(os.path.join(tmp, tr), header[:nf] + [t], [r[:nf] + [r[nf + j]] for r in train])
        write_csv(os.path.join(tmp, te), header[:nf] + [t], [r[:nf] + [r[nf + j]] for r in test_rows])
        t1, c1 = time.monotonic(), children_cpu()
        gcp(exe, ["train", "-data", tr, "-o", model], tmp)
        rec["train_seconds"][t] = round(time.monotonic() - t1, 2)
        rec["train_cpu_seconds"] += children_cpu() - c1
        preds.append(parse_predict(gcp(exe, ["predict", "-model", model, "-data", te, "-levels", lv], tmp),
                                   len(levels)))
        ev = parse_eval(gcp(exe, ["eval", "-model", model, "-data", te], tmp))
        for key, src in (("rmse", "RMSE"), ("nll", "nll"), ("nll_cal", "nll_cal"), ("crps", "CRPS"),
                         ("crps_cal", "CRPS_calibrated"), ("cov95_cal", "cov95_cal")):
            rec[key][t] = ev[src]
        print(f"    {name} split {split} {t}: RMSE {ev['RMSE']:.4g}, NLL {ev['nll']:.4g}, "
              f"{rec['train_seconds'][t]:.1f} s", file=sys.stderr, flush=True)
    ys = [[float(r[nf + j]) for j in range(d)] for r in test_rows]
    scale = [statistics.stdev(float(r[nf + j]) for r in train) or 1.0 for j in range(d)]
    rng = random.Random(f"{name}/{split}/product")
    es = {"t": [0.0, 0.0, [0.0] * d], "cal": [0.0, 0.0, [0.0] * d]}
    inside, inside_sidak = 0, 0
    r2 = {lv: chi2_quantile(lv / 100, d) for lv in JOINT_LEVELS}
    inside_joint = {lv: 0 for lv in JOINT_LEVELS}
    for i, y in enumerate(ys):
        q = sum(((yj - preds[j][i][0]) / preds[j][i][3]) ** 2 for j, yj in enumerate(y))
        for lv in JOINT_LEVELS:
            inside_joint[lv] += q <= r2[lv]
        pts = {"t": [quantile_points(preds[j][i][2]) for j in range(d)],
               "cal": [quantile_points(preds[j][i][1]) for j in range(d)]}
        for kind, (v, vs, per) in energy_scores(y, pts, scale, rng).items():
            es[kind][0] += v / len(ys)
            es[kind][1] += vs / len(ys)
            es[kind][2] = [a + b / len(ys) for a, b in zip(es[kind][2], per)]
        cal95 = [preds[j][i][1][-2] for j in range(d)]
        sidak = [preds[j][i][1][-1] for j in range(d)]
        inside += all(lo <= yj <= hi for (lo, hi), yj in zip(cal95, y))
        inside_sidak += all(lo <= yj <= hi for (lo, hi), yj in zip(sidak, y))
    quanta = [lattice_spacing([float(r[nf + j]) for r in train]) for j in range(d)]
    if any(quanta):
        dq_rows = dequantized_rows(test_rows, nf, quanta, f"{name}/{split}/dequantize")
        inside_dq = [0] * d
        inside_joint_dq = {lv: 0 for lv in JOINT_LEVELS}
        for k, row in enumerate(dq_rows):
            i = k // DQ_COPIES
            y = [float(row[nf + j]) for j in range(d)]
            q = sum(((yj - preds[j][i][0]) / preds[j][i][3]) ** 2 for j, yj in enumerate(y))
            for lv in JOINT_LEVELS:
                inside_joint_dq[lv] += q <= r2[lv]
            for j, yj in enumerate(y):
                lo, hi = preds[j][i][1][-2]
                inside_dq[j] += lo <= yj <= hi
        rec["cov95_cal_dq"] = {t: inside_dq[j] / len(dq_rows) for j, t in enumerate(names)}
        for lv in JOINT_LEVELS:
            rec[f"cov{lv}_joint_cal_dq"] = inside_joint_dq[lv] / len(dq_rows)
    rec["joint_nll"] = sum(rec["nll"].values())
    rec["joint_nll_cal"] = sum(rec["nll_cal"].values())
    rec["energy_score"], rec["energy_score_std"] = es["t"][0], es["t"][1]
    rec["energy_score_cal"], rec["energy_score_cal_std"] = es["cal"][0], es["cal"][1]
    rec["es1d"] = dict(zip(names, es["t"][2]))
    rec["es1d_cal"] = dict(zip(names, es["cal"][2]))
    rec["cov95_rect_cal"] = inside / len(ys)
    rec["cov95_rect_sidak_cal"] = inside_sidak / len(ys)
    for lv in JOINT_LEVELS:
        rec[f"cov{lv}_joint_cal"] = inside_joint[lv] / len(ys)
    rec["train_cpu_seconds"] = round(rec["train_cpu_seconds"], 2)
    rec["seconds"] = round(time.monotonic() - t0, 1)
    rec["cpu_seconds"] = round(children_cpu() - cpu0, 2)
    return rec


def children_cpu():
    """User plus system CPU seconds of this script's finished children."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_mvgcp(exe, name, split, header, rows, test, tmp):
    """The multivariate GCP network (run_joint)."""
    return run_joint(exe, name, split, header, rows, test, tmp, [])


def run_mvml(exe, name, split, header, rows, test, tmp):
    """Comparator (b), the full-covariance Gaussian network trained by
    maximum likelihood (run_joint with -method ml)."""
    return run_joint(exe, name, split, header, rows, test, tmp, ["-method", "ml"])


def run_joint(exe, name, split, header, rows, test, tmp, flags):
    """A model of several targets on one split, with zero flags but the
    method's (flags): gcp train -target a,b,c, gcp predict (the calibrated marginals' 95%
    intervals, for the rectangle) and gcp eval (per-target and joint
    lines). Returns the split's record with run_product's keys where the
    command has the figure: joint_nll is eval's joint-NLL (the
    multivariate t, or the ensemble's mixture of them); energy_score_cal
    is eval's energy-score, of the calibrated Gaussian N(mean,
    c·Σ̃), 200 Monte Carlo draws a row (the Student t's joint energy score
    and the standardized ones are not computed: None); cov95_joint_cal is
    the calibrated 95% joint region's coverage (eval's joint-cov95-cal),
    cov50/90_joint_cal the others, cov50/90/95_joint_conformal those of the
    conformal joint regions; joint_nll_cal is eval's joint-NLL-cal."""
    d, names, train, test_rows = split_rows(name, header, rows, test)
    nf = len(header) - d
    rec = {"split": split, "n_train": len(train), "n_test": len(test)}
    write_csv(os.path.join(tmp, "train.csv"), header, train)
    write_csv(os.path.join(tmp, "test.csv"), header, test_rows)
    t0, cpu0 = time.monotonic(), children_cpu()
    _, train_err = gcp(exe, ["train", "-data", "train.csv", "-target", ",".join(names), "-o", "model.gcpm", *flags],
                       tmp, with_stderr=True)
    rec["train_seconds"] = {",".join(names): round(time.monotonic() - t0, 2)}
    rec["train_cpu_seconds"] = round(children_cpu() - cpu0, 2)
    rec.update(joint_law(train_err))
    ev = {}
    for line in gcp(exe, ["eval", "-model", "model.gcpm", "-data", "test.csv"], tmp).splitlines():
        k, v = line.split()
        ev[k] = float(v)
    for key, src in (("rmse", "RMSE"), ("nll", "NLL"), ("crps", "CRPS"), ("cov95_cal", "cov95-cal")):
        rec[key] = {t: ev[f"{src}:{t}"] for t in names}
    for key in ("nll_cal", "crps_cal"):
        rec[key] = {t: None for t in names}
    pred = list(csv.DictReader(gcp(exe, ["predict", "-model", "model.gcpm", "-data", "test.csv",
                                         "-levels", f"0.95,{0.95 ** (1 / d)!r}"], tmp).splitlines()))
    sidak = percent_label(0.95 ** (1 / d), pred[0])
    inside = inside_sidak = 0
    for r, row in zip(pred, test_rows):
        y = [float(row[nf + j]) for j in range(d)]
        inside += all(float(r[f"lo95_cal:{t}"]) <= yj <= float(r[f"hi95_cal:{t}"]) for t, yj in zip(names, y))
        inside_sidak += all(float(r[f"lo{sidak}_cal:{t}"]) <= yj <= float(r[f"hi{sidak}_cal:{t}"])
                            for t, yj in zip(names, y))
    rec["joint_nll"], rec["joint_nll_cal"] = ev["joint-NLL"], ev.get("joint-NLL-cal")
    rec["energy_score"], rec["energy_score_std"] = None, None
    rec["energy_score_cal"], rec["energy_score_cal_std"] = ev["energy-score"], None
    rec["cov95_rect_cal"] = inside / len(pred)
    rec["cov95_rect_sidak_cal"] = inside_sidak / len(pred)
    for lv in (50, 90, 95):
        rec[f"cov{lv}_joint_cal"] = ev[f"joint-cov{lv}-cal"]
        rec[f"cov{lv}_joint_conformal"] = ev.get(f"joint-cov{lv}-conformal")
    quanta = [lattice_spacing([float(r[nf + j]) for r in train]) for j in range(d)]
    if any(quanta):
        write_csv(os.path.join(tmp, "test_dq.csv"), header,
                  dequantized_rows(test_rows, nf, quanta, f"{name}/{split}/dequantize"))
        dq = dict(line.split() for line in
                  gcp(exe, ["eval", "-model", "model.gcpm", "-data", "test_dq.csv"], tmp).splitlines())
        rec["cov95_cal_dq"] = {t: float(dq[f"cov95-cal:{t}"]) for t in names}
        for lv in JOINT_LEVELS:
            rec[f"cov{lv}_joint_cal_dq"] = float(dq[f"joint-cov{lv}-cal"])
            rec[f"cov{lv}_joint_conformal_dq"] = float(dq[f"joint-cov{lv}-conformal"]) \
                if f"joint-cov{lv}-conformal" in dq else None
    rec["seconds"] = round(time.monotonic() - t0, 1)
    rec["cpu_seconds"] = round(children_cpu() - cpu0, 2)
    return rec


def joint_law(train_err):
    """The joint law gcp train chose, from its summary's "joint law:" line
    (absent where it compared none): law_copula 1 for the Gaussian copula
    of the one-target models, 0 for the joint network, and the two laws'
    cross-fitted joint NLLs on the training rows (law_cvnll_joint,
    law_cvnll_copula), the copula's shrinkage λ and gain G, and the largest
    ratio over the targets of the joint network's cross-fitted RMSE to the
    one-target model's (law_rmse_ratio; the joint network is kept only where
    it is at most 1.05)."""
    m = re.search(r"^joint law: the (joint|copula) law: cross-fitted joint NLL (\S+) under the joint network, "
                  r"(\S+) under the Gaussian copula .*?; λ (\S+), the copula's gain (\S+) nats a row"
                  r"(?:; the joint network's RMSE at most (\S+)×)?", train_err, re.M)
    if not m:
        return {}
    rec = {"law_copula": float(m.group(1) == "copula"), "law_cvnll_joint": float(m.group(2)),
           "law_cvnll_copula": float(m.group(3)), "law_lambda": float(m.group(4)), "law_gain": float(m.group(5))}
    if m.group(6):
        rec["law_rmse_ratio"] = float(m.group(6))
    return rec


def percent_label(level, row):
    """The label predict gave the level (its exact decimal percentage), found
    among the columns of a row: the lo…_cal column nearest in value."""
    labels = {k[2:k.index("_cal")] for k in row if k.startswith("lo") and "_cal:" in k}
    return min(labels, key=lambda lab: abs(float(lab) - 100 * level))


# Each method's runner: (exe, name, split, header, rows, test rows, temp dir)
# -> the split's record, with at least the keys run_product gives.
METHODS = {"product": run_product, "mvgcp": run_mvgcp, "mvml": run_mvml}
# Methods issue 34 plans, not built yet: --method names them and stops.
PLANNED = {}

COMMANDS = {"product": "gcp train -data TRAIN_j.csv -o MODEL_j.gcpm; "
            "gcp predict -model MODEL_j.gcpm -data TEST_j.csv -levels GRID; "
            "gcp eval -model MODEL_j.gcpm -data TEST_j.csv (per target j)",
            "mvgcp": "gcp train -data TRAIN.csv -target a,b,c -o MODEL.gcpm; "
            "gcp eval -model MODEL.gcpm -data TEST.csv; "
            "gcp predict -model MODEL.gcpm -data TEST.csv -levels 0.95,SIDAK",
            "mvml": "gcp train -data TRAIN.csv -target a,b,c -method ml -o MODEL.gcpm; "
            "gcp eval -model MODEL.gcpm -data TEST.csv; "
            "gcp predict -model MODEL.gcpm -data TEST.csv -levels 0.95,SIDAK"}


def mean_se(values):
    values = [v for v in values if v is not None and math.isfinite(v)]
    if not values:
        return None
    se = statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else None
    return {"mean": statistics.fmean(values), "se": se, "n": len(values)}


def summarize(splits):
    out = {"splits": len(splits)}
    for key, v in splits[0].items():
        if isinstance(v, dict):
            out[key] = {t: mean_se([s[key][t] for s in splits]) for t in v}
        elif key not in ("split", "n_train", "n_test"):
            out[key] = mean_se([s.get(key) for s in splits])
    return out


def run_set(exe, name, n, method, first=0):
    header, rows = read_table(name)
    tests = read_splits(name, len(rows))[: n or FULL_SPLITS]
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    t0 = time.monotonic()
    splits, refused = [], None
    print(f"{name}: {len(rows)} rows, {TARGETS[name]} targets, {len(tests)} splits, method {method}",
          file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for i, test in enumerate(tests):
            if i < first:
                continue
            try:
                splits.append(METHODS[method](exe, name, i, header, rows, test, tmp))
            except Refused as e:
                refused = str(e)
                print(f"  {name}: refused: {refused}", file=sys.stderr, flush=True)
                break
            s = splits[-1]
            es = "ES (t) {:.4g}".format(s["energy_score"]) if s["energy_score"] is not None else \
                "ES (cal) {:.4g}".format(s["energy_score_cal"])
            joint = "".join(f", {what} {s[k]:.3f}" for k, what in (
                ("cov95_rect_cal", "rectangle cover95"), ("cov95_joint_cal", "joint region cover95"),
                ("cov95_joint", "joint region cover95 (t)"),
                ("cov95_joint_cal_dq", "dequantized joint region cover95")) if s.get(k) is not None)
            print(f"  {name} split {i}: joint NLL {s['joint_nll']:.4g}, {es}{joint}, {s['seconds']:.0f} s",
                  file=sys.stderr, flush=True)
    rec = {"dataset": name, "method": method, "command": COMMANDS.get(method), "n": n or None,
           "targets": header[len(header) - TARGETS[name]:], "commit": git("rev-parse", "HEAD"),
           "dirty": bool(git("status", "--porcelain", "--untracked-files=no", "--", ".",
                             ":(exclude)bench/multi_results.jsonl")),
           "go": git_go_version(), "cpus": os.cpu_count(), "started": started,
           "wall_seconds": round(time.monotonic() - t0, 1), "grid": GRID, "draws": DRAWS}
    if method in COMMANDS:  # a gcp method, not a script's
        rec["train_flags"] = TRAIN_FLAGS
    if refused:
        rec["refused"] = refused
    else:
        rec["splits"] = splits
        rec["summary"] = summarize(splits)
    return rec


def check_earlier(earlier, first):
    """Stops the run unless earlier, a record, holds splits 0 to first − 1."""
    ran = [s["split"] for s in (earlier or {}).get("splits", [])]
    if ran[:first] != list(range(first)):
        sys.exit(f"--from {first}: the record to extend holds splits {ran}, not 0 to {first - 1}")


def extend(earlier, rec, first):
    """Returns rec, a run of the splits from first on, preceded by the
    first splits of earlier, the record of the same set and method that
    ran them: its splits, summary and wall time those of all, and
    earlier_splits naming the commit, start and count of those it took."""
    check_earlier(earlier, first)
    if "splits" not in rec:
        return rec  # refused
    ran = [s["split"] for s in earlier["splits"]]
    rec["splits"] = earlier["splits"][:first] + rec["splits"]
    rec["summary"] = summarize(rec["splits"])
    rec["earlier_splits"] = {"n": first, "commit": earlier["commit"], "started": earlier["started"]}
    rec["wall_seconds"] = round(rec["wall_seconds"] + earlier["wall_seconds"] * first / len(ran), 1)
    return rec


def save(path, records):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        for key in sorted(records, key=lambda k: (DATASETS.index(k[0]), k[1])):
            f.write(json.dumps(records[key]) + "\n")
    os.replace(tmp, path)


def fmt(stat, digits=3):
    if not stat:
        return "—"
    se = f"{stat['se']:.{digits}f}" if stat.get("se") is not None else "—"
    return f"{stat['mean']:.{digits}g} ± {se}" if abs(stat["mean"]) >= 1000 else f"{stat['mean']:.{digits}f} ± {se}"


def render(records, names):
    print("\n| Data set | Method | Splits | Joint NLL (t) | Energy score (cal) | "
          "Joint cover 50/90/95% (cal) | 95% rectangle cover (cal) | Train CPU s/split | Wall s |")
    print("|" + " --- |" * 9)
    for key in sorted(records, key=lambda k: (DATASETS.index(k[0]), k[1])):
        if key[0] not in names:
            continue
        r = records[key]
        if "refused" in r:
            print(f"| {key[0]} | {key[1]} | refused: {r['refused']} |" + " — |" * 6)
            continue
        s = r["summary"]
        cov = " / ".join(f"{s[f'cov{lv}_joint_cal']['mean']:.3f}" if s.get(f"cov{lv}_joint_cal") else "—"
                         for lv in JOINT_LEVELS)
        if s.get("cov95_joint_cal_dq"):
            cov += " (dequantized " + " / ".join(f"{s[f'cov{lv}_joint_cal_dq']['mean']:.3f}"
                                                 for lv in JOINT_LEVELS) + ")"
        print(f"| {key[0]} | {key[1]} | {s['splits']} | {fmt(s['joint_nll'])} | {fmt(s['energy_score_cal'])} | "
              f"{cov} | {fmt(s['cov95_rect_cal'])} | {fmt(s.get('train_cpu_seconds'), 1)} | {r['wall_seconds']:.0f} |")
    print("\nPer-target RMSE (original units, mean ± SE over the splits):\n")
    for key in sorted(records, key=lambda k: (DATASETS.index(k[0]), k[1])):
        r = records[key]
        if key[0] in names and "summary" in r:
            print(f"- {key[0]}, {key[1]}: " + "; ".join(f"{t} {fmt(v)}" for t, v in r["summary"]["rmse"].items()))


# Methods run by a script of their own (PyTorch), which imports this one's
# reader, splits, runner loop, summary and table: --method passes the other
# options on.
SCRIPTS = {"mvder": "mvder.py"}


def run_script(script, args):
    """Runs bench/SCRIPT with this run's options, under the first of this
    Python and Debian's /usr/bin/python3 that imports torch; returns its
    exit status. Its results file is its own unless --out names one."""
    python = next((p for p in (sys.executable, "/usr/bin/python3")
                   if subprocess.run([p, "-c", "import torch"], capture_output=True).returncode == 0), None)
    if python is None:
        return f"--method {args.method} needs PyTorch: apt-get install -y python3-torch"
    cmd = [python, os.path.join(ROOT, "bench", script), "--datasets", args.datasets, "--n", str(args.n)]
    if args.out != "bench/multi_results.jsonl":
        cmd += ["--out", args.out]
    return subprocess.run(cmd + ["--render-only"] * args.render_only).returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", default=",".join(DATASETS), help="comma-separated subset of " + ",".join(DATASETS))
    ap.add_argument("--n", type=int, default=0, help="run only the first N splits")
    ap.add_argument("--from", dest="first", type=int, default=0,
                    help="run the splits from K on, after the first K of the --out file's record, which it extends")
    ap.add_argument("--method", default="product", help="one of " + ", ".join(METHODS))
    ap.add_argument("--out", default="bench/multi_results.jsonl")
    ap.add_argument("--float64", action="store_true",
                    help="train in float64 (adds -float64 to gcp train), as the records before the float32 default did")
    ap.add_argument("--make-splits", action="store_true", help="draw and write the splits (once), then stop")
    ap.add_argument("--render-only", action="store_true", help="print the table from the results file")
    args = ap.parse_args()
    names = [d for d in args.datasets.split(",") if d]
    for d in names:
        if d not in DATASETS:
            ap.error(f"unknown data set {d!r}: choose from {','.join(DATASETS)}")
    if args.method in PLANNED:
        sys.exit(f"--method {args.method}: {PLANNED[args.method]} is not built yet; "
                 f"add its runner to METHODS in bench/multi_benchmark.py once it is")
    if args.method in SCRIPTS:
        sys.exit(run_script(SCRIPTS[args.method], args))
    if args.method not in METHODS:
        ap.error(f"unknown method {args.method!r}: choose from {', '.join([*METHODS, *SCRIPTS, *PLANNED])}")
    if args.n < 0 or args.n > FULL_SPLITS:
        ap.error(f"--n must be in 0..{FULL_SPLITS}")
    if not 0 <= args.first < (args.n or FULL_SPLITS):
        ap.error("--from must lie below the number of splits run")
    if args.make_splits:
        make_splits(names)
        return
    if args.float64:
        TRAIN_FLAGS.append("-float64")
    out = args.out if os.path.isabs(args.out) else os.path.join(ROOT, args.out)
    records = load_jsonl(out, key=lambda r: (r["dataset"], r["method"]))
    if args.first:
        for name in names:
            check_earlier(records.get((name, args.method)), args.first)
    if not args.render_only:
        t0 = time.monotonic()
        with tempfile.TemporaryDirectory() as tmp:
            exe = os.path.join(tmp, "gcp")
            subprocess.run(["go", "build", "-o", exe, "./cmd/gcp"], cwd=ROOT, check=True)
            for name in names:
                rec = run_set(exe, name, args.n, args.method, args.first)
                if args.first:
                    rec = extend(records.get((name, args.method)), rec, args.first)
                records[(name, args.method)] = rec
                save(out, records)
        print(f"This run: {time.monotonic() - t0:.0f} s wall time including the build.", file=sys.stderr)
    render(records, names)


if __name__ == "__main__":
    main()
