#!/usr/bin/env python3
"""The ceiling of a Gaussian copula over comparator (a)'s marginals (issue 34).

Comparator (a) of bench/multi_benchmark.py is d independent one-target GCP
models: its joint density is the product of its marginals. A Gaussian
copula c_R over the same marginals adds, per row, the log density

    log c_R(z) = −½ ln det R − ½ zᵀ(R⁻¹ − I)z,

z the row's normal scores. This script measures how much that adds on the
held-out rows, before anyone builds the law: with R constant (fitted on the
training rows) and with R(x) the joint GCP model's predicted correlation.

Per outer split (data/multi/splits, as multi_benchmark reads them):
  1. train (a), one zero-flag `gcp train` per target on the training rows
     (multi_benchmark's --method product), and the joint model, zero flags,
     `gcp train -target a,b,...` (--method mvgcp);
  2. `gcp predict -levels 0.95` of each on the training rows and on the test
     rows. A target's calibrated marginal is N(mean, sd²), sd =
     (hi95_cal − lo95_cal)/(2·1.959964), its normal score z = (y − mean)/sd;
     a logged target (train's summary says which; the interval's asymmetry
     is checked against it) has the Gaussian in ln y, z = (ln y − μ)/σ with
     μ, σ from ln lo, ln hi. The joint model's correlations are its
     corr:a:b columns; for a logged target those are the log-normal ones in
     original units, mapped back here to the correlation of Σ̃ in ln y
     (Corr's formulas in mvprediction.go inverted), with Σ̃_ii =
     σ_cal²/(s·(t_ν(0.975)/z(0.975))²), s and ν the calibrated region's
     from train's summary (calibratedVar in mvprediction.go);
  3. `gcp eval` of each on the test rows: (a)'s joint NLL is the sum of its
     models' NLL (as multi_benchmark's), the joint model's joint-NLL and
     joint-NLL-cal.
Then, as means over the TEST rows (natural log, per row):
  G_const          R = (1−λ)Ĉ + λI, Ĉ the correlation matrix of (a)'s
                   training-row scores, λ ∈ {0, 0.05, …, 1} by 5-fold
                   cross-validation of the copula likelihood on the training
                   rows' scores (test rows never read), applied to (a)'s test
                   scores;
  G_hybrid         R(x) of the joint model on (a)'s test scores;
  G_hybrid_shrunk  (1−λ)R(x) + λI, λ maximizing the mean copula log density
                   of (a)'s training scores under the joint model's R(x) of
                   the training rows (R(x) is not fitted to those scores,
                   so no cross-validation);
  G_self           R(x) on the joint model's own calibrated scores: the
                   Gaussian-copula counterpart of the joint model.
and the coverage of the 95% copula region zᵀR⁻¹z ≤ χ²_d(0.95) for const's,
hybrid's (and shrunk, self) R, and of the diagonal region zᵀz ≤ χ²_d(0.95).
"(a) + copula" = (a)'s joint NLL − G is an estimate: (a)'s NLL is of its
raw Student-t marginals, the copula's scores of its calibrated Gaussian
ones. Two exact figures beside it:
  a_cal_plus_*     the joint NLL of (a)'s calibrated Gaussian marginals
                   under the copula: their NLL (computed from the scores;
                   it equals the sum of eval's nll_cal) − G;
  *_t              the copulas refitted on scores of (a)'s own Student-t
                   marginals, z = Φ⁻¹(F_t(y)), F_t read from predict's
                   Student-t intervals at the levels erf(k·0.1/√2), k = 1..60
                   (linear in z between them, clamped at |z| = 6, counted),
                   so that (a)'s joint NLL − G_*_t is the joint NLL of (a)'s
                   marginals joined by the copula.
The training rows' scores are in-sample (the models saw those rows);
--crossfit K reruns the first K splits with the training scores (and R(x))
cross-fitted over 5 folds of the training rows (--crossfit-folds; oes97
needs 10, gcp train refusing 240 rows of 263 inputs), to see whether λ and
G move.

Cache: every model, prediction and eval output lies in
/tmp/copula/GOCOMMIT/NAME/splitI/ (GOCOMMIT the last commit touching Go
code), so that a crash resumes; the gcp processes run two at a time, each
with GOMAXPROCS=1.

Results: bench/copula_results.jsonl, one JSON line per data set (a later
run replaces the set's record).

Usage:
    python3 bench/copula_ceiling.py --datasets slump --n 2
    python3 bench/copula_ceiling.py --datasets jura --n 5 --crossfit 5
"""
import argparse
import concurrent.futures
import csv
import datetime
import json
import math
import os
import random
import re
import statistics
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import multi_benchmark as mb  # noqa: E402
from paper_tables import load as load_jsonl  # noqa: E402
from uci_benchmark import ROOT, git, git_go_version  # noqa: E402

Z975 = 1.959964
LAMBDAS = [k / 20 for k in range(21)]
CV_FOLDS = 5
CROSSFIT_FOLDS = [5]  # --crossfit-folds: oes97 needs 10 (gcp train refuses 240 rows of 263 inputs)
CACHE = "/tmp/copula"
WORKERS = 2
OUT = "bench/copula_results.jsonl"


# ---- linear algebra and distributions ----------------------------------

def cholesky(a):
    """The lower Cholesky factor of the symmetric matrix a, or None where a
    is not positive definite."""
    n = len(a)
    l = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            s = a[i][j] - sum(l[i][k] * l[j][k] for k in range(j))
            if i == j:
                if not s > 0:
                    return None
                l[i][i] = math.sqrt(s)
            else:
                l[i][j] = s / l[j][j]
    return l


def copula_terms(l, z):
    """(log c_R(z), zᵀR⁻¹z) from R's Cholesky factor l."""
    n = len(z)
    w = [0.0] * n
    for i in range(n):
        w[i] = (z[i] - sum(l[i][k] * w[k] for k in range(i))) / l[i][i]
    q = sum(v * v for v in w)
    logdet = 2 * sum(math.log(l[i][i]) for i in range(n))
    return -0.5 * logdet - 0.5 * (q - sum(v * v for v in z)), q


def shrink(r, lam):
    n = len(r)
    return [[(1 - lam) * r[i][j] + (lam if i == j else 0.0) for j in range(n)] for i in range(n)]


def correlation(rows):
    """The Pearson correlation matrix of rows (lists of d values)."""
    d, n = len(rows[0]), len(rows)
    m = [sum(r[j] for r in rows) / n for j in range(d)]
    c = [[sum((r[i] - m[i]) * (r[j] - m[j]) for r in rows) for j in range(d)] for i in range(d)]
    return [[c[i][j] / math.sqrt(c[i][i] * c[j][j]) for j in range(d)] for i in range(d)]


def mean_logc(rs, zs, lam):
    """Mean log copula density of the scores zs, row i under (1−λ)rs[i] + λI
    (rs a list of matrices, or one matrix for all rows), and the number of
    rows whose matrix was not positive definite (left out)."""
    total, bad, fixed = 0.0, 0, None
    if not isinstance(rs[0][0], list):
        fixed = cholesky(shrink(rs, lam))
        if fixed is None:
            return -math.inf, len(zs)
    for i, z in enumerate(zs):
        l = fixed or cholesky(shrink(rs[i], lam))
        if l is None:
            bad += 1
            continue
        total += copula_terms(l, z)[0]
    return total / max(1, len(zs) - bad), bad


def cv_lambda(zs, seed):
    """λ of (1−λ)Ĉ + λI chosen by CV_FOLDS-fold cross-validation of the
    copula log-likelihood on the scores zs; returns λ and the CV curve."""
    idx = list(range(len(zs)))
    random.Random(seed).shuffle(idx)
    folds = [idx[k::CV_FOLDS] for k in range(CV_FOLDS)]
    score = [0.0] * len(LAMBDAS)
    for k, held in enumerate(folds):
        hs = set(held)
        c = correlation([zs[i] for i in idx if i not in hs])
        for li, lam in enumerate(LAMBDAS):
            score[li] += mean_logc(c, [zs[i] for i in held], lam)[0] * len(held) / len(zs)
    best = max(range(len(LAMBDAS)), key=lambda li: (score[li], li))
    return LAMBDAS[best], score


def t_cdf(t, nu):
    """P(T ≤ t) of Student's t, via the regularized incomplete beta."""
    x = nu / (nu + t * t)
    p = 0.5 * betainc(nu / 2, 0.5, x)
    return 1 - p if t > 0 else p


def betainc(a, b, x):
    """I_x(a, b), by the continued fraction (Numerical Recipes' betacf)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    lnbt = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x)
    if x > (a + 1) / (a + b + 2):
        return 1 - betainc(b, a, 1 - x)
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / (d if abs(d) > tiny else tiny)
            c = 1 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return math.exp(lnbt) * h / a


def t_quantile(p, nu):
    if math.isinf(nu):
        return Z975 if p == 0.975 else None
    return mb.positive_quantile(lambda x: t_cdf(x, nu), p, 100)


# ---- running gcp, cached -------------------------------------------------

def atomic_write(path, text):
    with open(path + ".part", "w") as f:
        f.write(text)
    os.replace(path + ".part", path)


def cached_gcp(exe, args, cwd, out, with_stderr=False):
    """gcp's stdout (and stderr) for args, from cwd/out if there, else run
    and stored there (stderr in out + '.err')."""
    path = os.path.join(cwd, out)
    if not os.path.exists(path):
        stdout, stderr = mb.gcp(exe, args, cwd, with_stderr=True)
        atomic_write(path + ".err", stderr)
        atomic_write(path, stdout)
    with open(path) as f:
        text = f.read()
    if with_stderr:
        with open(path + ".err") as f:
            return text, f.read()
    return text


def model_job(exe, cwd, model, train_csv, pred_csvs, eval_csv, target_flag, grid=False):
    """Trains model (unless cached) from train_csv, then predicts each of
    pred_csvs at 0.95 (and, with grid, at the levels of PIT_GRID) and
    evaluates on eval_csv. Returns train's stderr, the predictions' texts
    (the grid's after the others) and eval's text."""
    if not os.path.exists(os.path.join(cwd, model)):
        part = "part_" + model
        _, err = mb.gcp(exe, ["train", "-data", train_csv, "-o", part, *target_flag], cwd, with_stderr=True)
        atomic_write(os.path.join(cwd, model + ".train.err"), err)
        os.replace(os.path.join(cwd, part), os.path.join(cwd, model))
    with open(os.path.join(cwd, model + ".train.err")) as f:
        train_err = f.read()
    preds = [cached_gcp(exe, ["predict", "-model", model, "-data", p, "-levels", "0.95"], cwd,
                        f"pred_{model}_{p}") for p in pred_csvs]
    if grid:
        lv = ",".join(repr(l) for l in pit_levels())
        preds += [cached_gcp(exe, ["predict", "-model", model, "-data", p, "-levels", lv], cwd,
                             f"predgrid_{model}_{p}") for p in pred_csvs]
    ev = cached_gcp(exe, ["eval", "-model", model, "-data", eval_csv], cwd, f"eval_{model}_{eval_csv}") \
        if eval_csv else None
    return train_err, preds, ev


# The Student-t marginal's PIT: its quantiles at u = Φ(±z), z = 0.1, 0.2,
# …, PIT_ZMAX, read from the central intervals of levels erf(z/√2); a
# target's score Φ⁻¹(F(y)) is the z of y interpolated linearly between
# them, clamped at ±PIT_ZMAX (counted).
PIT_ZMAX = 6.0
PIT_STEP = 0.1


def pit_z():
    return [k * PIT_STEP for k in range(1, round(PIT_ZMAX / PIT_STEP) + 1)]


def pit_levels():
    return [math.erf(z / math.sqrt(2)) for z in pit_z()]


def t_pit_scores(pred_text, ys):
    """Φ⁻¹ of the Student-t marginal's CDF at each y (see PIT_ZMAX), and
    how many were clamped. None for a row whose quantiles are not
    increasing: gcp predict's Student-t intervals of an ensemble whose
    member has an enormous scale (oes97: sd_student_t 1e42, α ≈ 1) come
    out as one point for every level, not the mixture's quantiles."""
    zs = pit_z()
    grid = [-z for z in reversed(zs)] + zs
    out, clamped = [], 0
    for (_, _, st, _), y in zip(mb.parse_predict(pred_text, len(zs)), ys):
        q = [lo for lo, _ in reversed(st)] + [hi for _, hi in st]
        if any(b < a for a, b in zip(q, q[1:])):
            out.append(None)
            continue
        if y <= q[0] or y >= q[-1]:
            clamped += 1
            out.append(grid[0] if y <= q[0] else grid[-1])
            continue
        k = next(i for i in range(1, len(q)) if y <= q[i])
        w = (y - q[k - 1]) / (q[k] - q[k - 1]) if q[k] > q[k - 1] else 0.5
        out.append(grid[k - 1] + w * (grid[k] - grid[k - 1]))
    return out, clamped


def logged_one(train_err):
    return any(line.startswith("target transform") and ": log:" in line for line in train_err.splitlines())


def logged_joint(train_err, names):
    line = next((l for l in train_err.splitlines() if l.startswith("target transform")), "")
    return [re.search(r"(?:^|[:;] )" + re.escape(t) + r" log \(", line) is not None for t in names]


def region_fit(train_err):
    """(s, ν) of the joint model's calibrated region, from train's summary."""
    m = re.search(r"fitted to the rows' Mahalanobis distances: (?:a t of ([0-9.e+]+) degrees of freedom|a Gaussian)"
                  r" with the corrected covariance ×([0-9.e+-]+)", train_err)
    if not m:
        return None
    return float(m.group(2)), (float(m.group(1)) if m.group(1) else math.inf)


def score(y, mean, lo, hi, logged, what):
    """(normal score, σ² of the Gaussian it is taken under) of y under a
    calibrated marginal."""
    if not all(math.isfinite(v) for v in (mean, lo, hi)):
        sys.exit(f"{what}: non-finite interval {lo}, {hi}")
    if logged:
        if y <= 0 or lo <= 0:
            sys.exit(f"{what}: logged target with y {y}, lo {lo}")
        mu, sigma = (math.log(lo) + math.log(hi)) / 2, (math.log(hi) - math.log(lo)) / (2 * Z975)
        return (math.log(y) - mu) / sigma, sigma * sigma
    sd = (hi - lo) / (2 * Z975)
    return (y - mean) / sd, sd * sd


def check_symmetry(rows, logged, what):
    """Checks that the intervals are those of the transform said: a Gaussian
    interval is symmetric about the mean, a logged one's mean is
    √(lo·hi)·e^(σ²/2)."""
    bad_sym = bad_log = 0.0
    for mean, lo, hi in rows:
        bad_sym = max(bad_sym, abs(mean - (lo + hi) / 2) / (hi - lo))
        if lo > 0:
            s = (math.log(hi) - math.log(lo)) / (2 * Z975)
            bad_log = max(bad_log, abs(math.log(mean) - (math.log(lo) + math.log(hi)) / 2 - s * s / 2))
        else:
            bad_log = math.inf
    if (logged and bad_log > 1e-3 and bad_sym < bad_log) or (not logged and bad_sym > 1e-3 and bad_log < bad_sym):
        sys.exit(f"{what}: intervals do not match the transform (logged {logged}: "
                 f"asymmetry {bad_sym:.3g}, log-normal mismatch {bad_log:.3g})")


def gauss_nll(y, z, var, logged):
    """−ln density of y under the calibrated Gaussian marginal whose score
    is z and variance var (in ln y, with the Jacobian, for a logged one)."""
    return 0.5 * z * z + 0.5 * math.log(2 * math.pi * var) + (math.log(y) if logged else 0.0)


def one_scores(pred_text, ys, logged, what):
    rows = [(float(r["mean"]), float(r["lo95_cal"]), float(r["hi95_cal"]))
            for r in csv.DictReader(pred_text.splitlines())]
    check_symmetry(rows, logged, what)
    return [score(y, *r, logged, what) for y, r in zip(ys, rows)]


def joint_scores(pred_text, ys, names, logged, fit, what, variances=False):
    """Per row: the joint model's normal scores and its correlation matrix
    in the modelled space (ln y for a logged target); with variances also
    each score's marginal variance."""
    rows = list(csv.DictReader(pred_text.splitlines()))
    d = len(names)
    for j, t in enumerate(names):
        check_symmetry([(float(r[f"mean:{t}"]), float(r[f"lo95_cal:{t}"]), float(r[f"hi95_cal:{t}"]))
                        for r in rows], logged[j], f"{what} {t}")
    k = None
    if any(logged):
        if fit is None:
            sys.exit(f"{what}: a logged target but no calibrated region in train's summary")
        s, nu = fit
        k = s * (t_quantile(0.975, nu) / Z975) ** 2  # calibrated variance over Σ̃_ii
    zs, rs, vs = [], [], []
    for r, y in zip(rows, ys):
        sc = [score(y[j], float(r[f"mean:{t}"]), float(r[f"lo95_cal:{t}"]), float(r[f"hi95_cal:{t}"]),
                    logged[j], f"{what} {t}") for j, t in enumerate(names)]
        zs.append([v[0] for v in sc])
        vs.append([v[1] for v in sc])
        m = [[1.0 if i == j else 0.0 for j in range(d)] for i in range(d)]
        for i in range(d):
            for j in range(i + 1, d):
                c = float(r[f"corr:{names[i]}:{names[j]}"])
                if logged[i] or logged[j]:
                    c = unlog_corr(c, sc[i][1] / k, sc[j][1] / k, logged[i], logged[j])
                m[i][j] = m[j][i] = c
        rs.append(m)
    return (zs, rs, vs) if variances else (zs, rs)


def unlog_corr(c, ai, aj, li, lj):
    """The correlation of Σ̃ in the modelled space from Corr in original
    units (mvprediction.go's Corr inverted), ai, aj the Σ̃ variances in z."""
    if li and lj:
        v = 1 + c * math.sqrt(math.expm1(ai) * math.expm1(aj))
        rho = math.log(v) / math.sqrt(ai * aj) if v > 0 else -1.0
    elif li:
        rho = c * math.sqrt(math.expm1(ai) / ai)
    else:
        rho = c * math.sqrt(math.expm1(aj) / aj)
    return max(-0.999, min(0.999, rho))


# ---- one split -------------------------------------------------------------

def prepare(name, header, train, test_rows, names, cwd):
    """Writes the split's CSVs (once) into cwd."""
    nf = len(header) - len(names)
    os.makedirs(cwd, exist_ok=True)
    files = {"train.csv": (header, train), "test.csv": (header, test_rows)}
    for j, t in enumerate(names):
        files[f"train_{j}.csv"] = (header[:nf] + [t], [r[:nf] + [r[nf + j]] for r in train])
        files[f"test_{j}.csv"] = (header[:nf] + [t], [r[:nf] + [r[nf + j]] for r in test_rows])
    for f, (h, rows) in files.items():
        if not os.path.exists(os.path.join(cwd, f)):
            mb.write_csv(os.path.join(cwd, f + ".part"), h, rows)
            os.replace(os.path.join(cwd, f + ".part"), os.path.join(cwd, f))


def split_jobs(exe, cwd, names, evaluate=True):
    """The split's model jobs: (key, function) with key 'joint' or j."""
    jobs = [("joint", lambda: model_job(exe, cwd, "joint.gcpm", "train.csv", ["train.csv", "test.csv"],
                                        "test.csv" if evaluate else None, ["-target", ",".join(names)]))]
    for j in range(len(names)):
        jobs.append((j, lambda j=j: model_job(exe, cwd, f"model_{j}.gcpm", f"train_{j}.csv",
                                              [f"train_{j}.csv", f"test_{j}.csv"],
                                              f"test_{j}.csv" if evaluate else None, [], grid=True)))
    return jobs


def analyse(name, split, names, train, test_rows, nf, out, extra=None):
    """The split's record from the jobs' outputs out[key] = (train stderr,
    [pred on train, pred on test], eval text). extra, for --crossfit,
    replaces the training rows' scores: {'a': [...], 'joint_r': [...]}."""
    d = len(names)
    ytr = [[float(r[nf + j]) for j in range(d)] for r in train]
    yte = [[float(r[nf + j]) for j in range(d)] for r in test_rows]
    rec = {"split": split, "n_train": len(train), "n_test": len(test_rows)}
    a_tr, a_te, logged_a, nll, nll_cal, a_gauss = [], [], [], {}, {}, 0.0
    t_tr, t_te, clamped, broken = [], [], 0, [0, 0]
    for j, t in enumerate(names):
        err, (ptr, pte, gtr, gte), ev = out[j]
        for g, yy, dest in ((gtr, ytr, t_tr), (gte, yte, t_te)):
            v, c = t_pit_scores(g, [y[j] for y in yy])
            dest.append(v)
            clamped += c if dest is t_te else 0
        lg = logged_one(err)
        logged_a.append(lg)
        a_tr.append([v[0] for v in one_scores(ptr, [y[j] for y in ytr], lg, f"{name}/{split} (a) {t} train")])
        te = one_scores(pte, [y[j] for y in yte], lg, f"{name}/{split} (a) {t} test")
        a_te.append([v[0] for v in te])
        a_gauss += statistics.fmean(gauss_nll(y[j], z, var, lg) for y, (z, var) in zip(yte, te))
        ev = mb.parse_eval(ev)
        nll[t], nll_cal[t] = ev["nll"], ev["nll_cal"]
    # a row whose t quantiles gcp could not give takes its calibrated score (counted)
    for k, (tt, aa) in enumerate(((t_tr, a_tr), (t_te, a_te))):
        for j in range(d):
            for i, v in enumerate(tt[j]):
                if v is None:
                    tt[j][i] = aa[j][i]
                    broken[k] += 1
    a_tr = [list(r) for r in zip(*a_tr)]
    a_te = [list(r) for r in zip(*a_te)]
    t_tr = [list(r) for r in zip(*t_tr)]
    t_te = [list(r) for r in zip(*t_te)]
    err, (ptr, pte), ev = out["joint"]
    logged_j = logged_joint(err, names)
    fit = region_fit(err)
    j_tr, r_tr = joint_scores(ptr, ytr, names, logged_j, fit, f"{name}/{split} joint train")
    j_te, r_te, j_var = joint_scores(pte, yte, names, logged_j, fit, f"{name}/{split} joint test", True)
    if extra:
        a_tr, r_tr, t_tr = extra["a"], extra["joint_r"], extra["t"]
    evj = dict(line.split() for line in ev.splitlines())
    rec["logged_a"] = [t for t, lg in zip(names, logged_a) if lg]
    rec["logged_joint"] = [t for t, lg in zip(names, logged_j) if lg]
    rec["region_s_nu"] = fit
    rec["a_nll"] = nll
    rec["a_joint_nll"] = sum(nll.values())
    rec["joint_nll"] = float(evj["joint-NLL"])
    rec["joint_nll_cal"] = float(evj["joint-NLL-cal"]) if "joint-NLL-cal" in evj else None
    rec["joint_cov95_cal"] = float(evj["joint-cov95-cal"])
    # the calibrated Gaussian marginals' NLL: eval's, and the scores' own (a check: they must agree)
    rec["a_nll_cal"] = nll_cal
    rec["a_joint_nll_cal"] = sum(nll_cal.values())
    rec["a_joint_nll_cal_scores"] = a_gauss
    rec["joint_marginals_nll_cal_scores"] = statistics.fmean(
        sum(gauss_nll(y[j], z[j], v[j], logged_j[j]) for j in range(d)) for y, z, v in zip(yte, j_te, j_var))
    # the scores' scale: mean z² per target, training (in-sample) and test rows
    rec["a_mean_z2_train"] = [statistics.fmean(z[j] ** 2 for z in a_tr) for j in range(d)]
    rec["a_mean_z2_test"] = [statistics.fmean(z[j] ** 2 for z in a_te) for j in range(d)]
    # G_const
    lam, curve = cv_lambda(a_tr, f"{name}/{split}/cv")
    c_hat = correlation(a_tr)
    rec["lambda_const"] = lam
    rec["cv_curve_const"] = curve
    r_const = shrink(c_hat, lam)
    rec["G_const"], _ = mean_logc(r_const, a_te, 0.0)
    rec["G_const_lambda0"], _ = mean_logc(c_hat, a_te, 0.0)
    rec["mean_abs_offdiag_C"] = statistics.fmean(abs(c_hat[i][j]) for i in range(d) for j in range(d) if i < j)
    # hybrid
    rec["G_hybrid"], rec["nonpd_hybrid"] = mean_logc(r_te, a_te, 0.0)
    tr_curve = [mean_logc(r_tr, a_tr, lam)[0] for lam in LAMBDAS]
    lam_h = LAMBDAS[max(range(len(LAMBDAS)), key=lambda li: (tr_curve[li], li))]
    rec["lambda_hybrid"] = lam_h
    rec["train_curve_hybrid"] = tr_curve
    rec["G_hybrid_shrunk"], _ = mean_logc(r_te, a_te, lam_h)
    rec["G_self"], rec["nonpd_self"] = mean_logc(r_te, j_te, 0.0)
    rec["mean_abs_offdiag_Rx"] = statistics.fmean(abs(r[i][j]) for r in r_te for i in range(d) for j in range(d)
                                                  if i < j)
    # 95% regions on the test rows
    q95 = mb.chi2_quantile(0.95, d)
    lc = cholesky(r_const)
    cov = {"const": 0, "hybrid": 0, "hybrid_shrunk": 0, "self": 0, "diag": 0, "self_diag": 0}
    for i, z in enumerate(a_te):
        cov["const"] += copula_terms(lc, z)[1] <= q95
        l = cholesky(r_te[i])
        cov["hybrid"] += l is not None and copula_terms(l, z)[1] <= q95
        cov["self"] += l is not None and copula_terms(l, j_te[i])[1] <= q95
        cov["hybrid_shrunk"] += copula_terms(cholesky(shrink(r_te[i], lam_h)), z)[1] <= q95
        cov["diag"] += sum(v * v for v in z) <= q95
        cov["self_diag"] += sum(v * v for v in j_te[i]) <= q95
    for k, v in cov.items():
        rec[f"cov95_{k}"] = v / len(a_te)
    for g in ("const", "hybrid", "hybrid_shrunk"):
        rec[f"a_plus_{g}"] = rec["a_joint_nll"] - rec[f"G_{g}"]
        rec[f"a_plus_{g}_minus_joint"] = rec[f"a_plus_{g}"] - rec["joint_nll"]
        # exact: the joint NLL of (a)'s calibrated Gaussian marginals under the copula
        rec[f"a_cal_plus_{g}"] = rec["a_joint_nll_cal_scores"] - rec[f"G_{g}"]
        rec[f"a_cal_plus_{g}_minus_joint"] = rec[f"a_cal_plus_{g}"] - rec["joint_nll"]
    rec["self_gauss_copula_nll"] = rec["joint_marginals_nll_cal_scores"] - rec["G_self"]
    # the same copulas over (a)'s own Student-t marginals, scores Φ⁻¹(F_t(y)):
    # (a)'s joint NLL − G_*_t is then that law's joint NLL, exactly but for
    # the PIT's interpolation
    rec["t_pit_clamped_test"] = clamped
    rec["t_pit_broken_train"], rec["t_pit_broken_test"] = broken
    lam_t, rec["cv_curve_const_t"] = cv_lambda(t_tr, f"{name}/{split}/cv")
    rec["lambda_const_t"] = lam_t
    r_const_t = shrink(correlation(t_tr), lam_t)
    rec["G_const_t"], _ = mean_logc(r_const_t, t_te, 0.0)
    rec["G_hybrid_t"], _ = mean_logc(r_te, t_te, 0.0)
    tr_curve_t = [mean_logc(r_tr, t_tr, lam)[0] for lam in LAMBDAS]
    rec["lambda_hybrid_t"] = LAMBDAS[max(range(len(LAMBDAS)), key=lambda li: (tr_curve_t[li], li))]
    rec["G_hybrid_shrunk_t"], _ = mean_logc(r_te, t_te, rec["lambda_hybrid_t"])
    lt = cholesky(r_const_t)
    rec["cov95_const_t"] = sum(copula_terms(lt, z)[1] <= q95 for z in t_te) / len(t_te)
    rec["cov95_hybrid_t"] = sum(copula_terms(cholesky(shrink(r_te[i], rec["lambda_hybrid_t"])), z)[1] <= q95
                                for i, z in enumerate(t_te)) / len(t_te)
    rec["cov95_diag_t"] = sum(sum(v * v for v in z) <= q95 for z in t_te) / len(t_te)
    for g in ("const", "hybrid", "hybrid_shrunk"):
        rec[f"a_plus_{g}_t"] = rec["a_joint_nll"] - rec[f"G_{g}_t"]
        rec[f"a_plus_{g}_t_minus_joint"] = rec[f"a_plus_{g}_t"] - rec["joint_nll"]
    rec["hybrid_minus_const_t"] = rec["G_hybrid_t"] - rec["G_const_t"]
    rec["hybrid_shrunk_minus_const_t"] = rec["G_hybrid_shrunk_t"] - rec["G_const_t"]
    rec["hybrid_minus_const"] = rec["G_hybrid"] - rec["G_const"]
    rec["hybrid_shrunk_minus_const"] = rec["G_hybrid_shrunk"] - rec["G_const"]
    return rec


def crossfit_extra(exe, name, split, header, train, names, cwd, pool):
    """The training rows' scores of (a) and R(x) of the joint model, each
    row predicted by models trained on the other folds of the training rows
    (CROSSFIT_FOLDS folds, seeded by name/split)."""
    nf, d = len(header) - len(names), len(names)
    idx = list(range(len(train)))
    random.Random(f"{name}/{split}/crossfit").shuffle(idx)
    folds = [sorted(idx[k::CROSSFIT_FOLDS[0]]) for k in range(CROSSFIT_FOLDS[0])]
    futures = {}
    for k, held in enumerate(folds):
        hs = set(held)
        sub = os.path.join(cwd, f"crossfit{k}" if CROSSFIT_FOLDS[0] == 5 else f"crossfit{k}of{CROSSFIT_FOLDS[0]}")
        # the fold's "test" rows are its held-out training rows
        prepare(name, header, [r for i, r in enumerate(train) if i not in hs], [train[i] for i in held], names, sub)
        for key, fn in split_jobs(exe, sub, names, evaluate=False):
            futures[(k, key)] = pool.submit(fn)
    a = [None] * len(train)
    rr = [None] * len(train)
    tt = [None] * len(train)
    for k, held in enumerate(folds):
        y = [[float(train[i][nf + j]) for j in range(d)] for i in held]
        per, per_t = [], []
        for j, t in enumerate(names):
            err, (_, pte, _, gte), _ = futures[(k, j)].result()
            per.append([v[0] for v in one_scores(pte, [v[j] for v in y], logged_one(err),
                                                 f"{name}/{split} crossfit {k} {t}")])
            tz = t_pit_scores(gte, [v[j] for v in y])[0]
            per_t.append([c if v is None else v for v, c in zip(tz, per[-1])])
        err, (_, pte), _ = futures[(k, "joint")].result()
        _, rs = joint_scores(pte, y, names, logged_joint(err, names), region_fit(err),
                             f"{name}/{split} crossfit {k} joint")
        for n, i in enumerate(held):
            a[i] = [per[j][n] for j in range(d)]
            tt[i] = [per_t[j][n] for j in range(d)]
            rr[i] = rs[n]
    return {"a": a, "joint_r": rr, "t": tt}


# ---- the runs ----------------------------------------------------------------

SUMMARY_KEYS = ["a_joint_nll", "a_joint_nll_cal", "a_joint_nll_cal_scores", "joint_nll", "joint_nll_cal",
                "joint_marginals_nll_cal_scores", "self_gauss_copula_nll",
                "a_cal_plus_const", "a_cal_plus_hybrid", "a_cal_plus_hybrid_shrunk",
                "a_cal_plus_const_minus_joint", "a_cal_plus_hybrid_minus_joint",
                "G_const_t", "G_hybrid_t", "G_hybrid_shrunk_t", "a_plus_const_t", "a_plus_hybrid_t",
                "a_plus_hybrid_shrunk_t", "a_plus_const_t_minus_joint", "a_plus_hybrid_t_minus_joint",
                "a_plus_hybrid_shrunk_t_minus_joint", "hybrid_minus_const_t", "hybrid_shrunk_minus_const_t",
                "lambda_const_t", "lambda_hybrid_t", "cov95_const_t", "cov95_hybrid_t", "cov95_diag_t",
                "t_pit_clamped_test", "t_pit_broken_train", "t_pit_broken_test", "joint_cov95_cal", "G_const", "G_const_lambda0", "G_hybrid",
                "G_hybrid_shrunk", "G_self", "a_plus_const", "a_plus_hybrid", "a_plus_hybrid_shrunk",
                "a_plus_const_minus_joint", "a_plus_hybrid_minus_joint", "a_plus_hybrid_shrunk_minus_joint",
                "hybrid_minus_const", "hybrid_shrunk_minus_const", "lambda_const", "lambda_hybrid",
                "cov95_const", "cov95_hybrid", "cov95_hybrid_shrunk", "cov95_self", "cov95_diag",
                "cov95_self_diag", "mean_abs_offdiag_C", "mean_abs_offdiag_Rx"]


def summarize(splits):
    return {k: mb.mean_se([s[k] for s in splits if s.get(k) is not None]) for k in SUMMARY_KEYS}


def go_commit():
    return git("log", "-1", "--format=%h", "--", "*.go", "go.mod", "go.sum")


def run_set(exe, name, n, crossfit, pool):
    header, rows = mb.read_table(name)
    tests = mb.read_splits(name, len(rows))[:n]
    d = mb.TARGETS[name]
    names = header[len(header) - d:]
    nf = len(header) - d
    base = os.path.join(CACHE, go_commit(), name)
    t0 = time.monotonic()
    cpu0 = mb.children_cpu()
    futures, cwds = [], []
    for i, test in enumerate(tests):
        _, _, train, test_rows = mb.split_rows(name, header, rows, test)
        cwd = os.path.join(base, f"split{i}")
        prepare(name, header, train, test_rows, names, cwd)
        futures.append({key: pool.submit(fn) for key, fn in split_jobs(exe, cwd, names)})
        cwds.append((cwd, train, test_rows))
    splits, cross = [], []
    for i, fut in enumerate(futures):
        cwd, train, test_rows = cwds[i]
        out = {k: f.result() for k, f in fut.items()}
        s = analyse(name, i, names, train, test_rows, nf, out)
        splits.append(s)
        print(f"  {name} split {i}: (a) {s['a_joint_nll']:.3f}, joint t {s['joint_nll']:.3f}; G const "
              f"{s['G_const']:.3f} (λ {s['lambda_const']}), hybrid {s['G_hybrid']:.3f}, shrunk "
              f"{s['G_hybrid_shrunk']:.3f} (λ {s['lambda_hybrid']}), self {s['G_self']:.3f}; cov95 const "
              f"{s['cov95_const']:.2f} hybrid {s['cov95_hybrid']:.2f} diag {s['cov95_diag']:.2f}",
              file=sys.stderr, flush=True)
        if i < crossfit:
            extra = crossfit_extra(exe, name, i, header, train, names, cwd, pool)
            c = analyse(name, i, names, train, test_rows, nf, out, extra)
            c["a_mean_z2_train_crossfit"] = c.pop("a_mean_z2_train")
            c["a_mean_z2_train_insample"] = s["a_mean_z2_train"]
            cross.append(c)
            print(f"    crossfit: G const {c['G_const']:.3f} (λ {c['lambda_const']}), shrunk "
                  f"{c['G_hybrid_shrunk']:.3f} (λ {c['lambda_hybrid']}); mean z² train in-sample "
                  f"{[round(v, 2) for v in s['a_mean_z2_train']]}, cross-fitted "
                  f"{[round(v, 2) for v in c['a_mean_z2_train_crossfit']]}", file=sys.stderr, flush=True)
    rec = {"dataset": name, "targets": names, "n": len(tests), "commit": git("rev-parse", "HEAD"),
           "go_commit": go_commit(),
           "dirty": bool(git("status", "--porcelain", "--untracked-files=no", "--", ".",
                             ":(exclude)bench/copula_results.jsonl")),
           "go": git_go_version(),
           "cpu": "2-core AMD EPYC Zen 4 VM, shared; GOMAXPROCS=1, two gcp processes at a time",
           "command": "gcp train -data TRAIN_j.csv -o MODEL_j.gcpm (per target j); gcp train -data TRAIN.csv "
                      "-target a,b,... -o JOINT.gcpm; gcp predict -model M -data {TRAIN,TEST}.csv -levels 0.95; "
                      "gcp eval -model M -data TEST.csv (zero flags)",
           "lambdas": LAMBDAS, "cv_folds": CV_FOLDS,
           "started": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
           "wall_seconds": round(time.monotonic() - t0, 1),
           "gcp_cpu_seconds_this_run": round(mb.children_cpu() - cpu0, 1),
           "splits": splits, "summary": summarize(splits)}
    if cross:
        rec["crossfit"] = {"folds": CROSSFIT_FOLDS[0], "splits": cross, "summary": summarize(cross),
                           "insample_same_splits": summarize(splits[:len(cross)])}
    return rec


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", default="slump")
    ap.add_argument("--n", type=int, default=mb.FULL_SPLITS)
    ap.add_argument("--crossfit", type=int, default=0, help="cross-fit the training scores on the first K splits")
    ap.add_argument("--crossfit-folds", type=int, default=5)
    ap.add_argument("--out", default=OUT)
    ap.add_argument("--render-only", action="store_true", help="print the tables from the results file")
    args = ap.parse_args()
    out = args.out if os.path.isabs(args.out) else os.path.join(ROOT, args.out)
    records = load_jsonl(out, key=lambda r: r["dataset"])
    CROSSFIT_FOLDS[0] = args.crossfit_folds
    if args.render_only:
        tables([records[k] for k in sorted(records, key=mb.DATASETS.index)])
        return
    os.environ["GOMAXPROCS"] = "1"
    os.makedirs(CACHE, exist_ok=True)
    exe = os.path.join(CACHE, "gcp")
    subprocess.run(["go", "build", "-o", exe, "./cmd/gcp"], cwd=ROOT, check=True)
    with concurrent.futures.ThreadPoolExecutor(WORKERS) as pool:
        for name in [s for s in args.datasets.split(",") if s]:
            records[name] = run_set(exe, name, args.n, args.crossfit, pool)
            with open(out + ".tmp", "w") as f:
                for k in sorted(records, key=mb.DATASETS.index):
                    f.write(json.dumps(records[k]) + "\n")
            os.replace(out + ".tmp", out)
            render(records[name])


def fmt(s, digits=3):
    if not s:
        return "—"
    se = f"{s['se']:.{digits}f}" if s.get("se") is not None else "—"
    return f"{s['mean']:.{digits}f} ± {se}"


def render(rec):
    s = rec["summary"]
    print(f"\n{rec['dataset']} ({rec['n']} splits):")
    for k in SUMMARY_KEYS:
        print(f"  {k:36s} {fmt(s[k])}")
    if "crossfit" in rec:
        print("  cross-fitted training scores (same splits: in-sample → cross-fitted):")
        for k in ("lambda_const", "G_const", "lambda_hybrid", "G_hybrid_shrunk", "cov95_const",
                  "lambda_const_t", "G_const_t", "lambda_hybrid_t", "G_hybrid_shrunk_t"):
            print(f"  {k:36s} {fmt(rec['crossfit']['insample_same_splits'][k])} → {fmt(rec['crossfit']['summary'][k])}")


def tables(recs):
    """The report's markdown tables, one row per set (mean ± SE over the
    splits; differences paired by split)."""
    cols = [("(a) joint NLL", "a_joint_nll"), ("joint t", "joint_nll"), ("G_const", "G_const"),
            ("λ const", "lambda_const"), ("G_hybrid", "G_hybrid"), ("G_hybrid_shrunk", "G_hybrid_shrunk"),
            ("λ hybrid", "lambda_hybrid"), ("G_self", "G_self"), ("hybrid − const", "hybrid_minus_const"),
            ("(a) − G_const", "a_plus_const"), ("… − joint t", "a_plus_const_minus_joint"),
            ("(a) − G_hybrid − joint t", "a_plus_hybrid_minus_joint")]
    tcols = [("G_const_t", "G_const_t"), ("λ", "lambda_const_t"), ("G_hybrid_t", "G_hybrid_t"),
             ("G_hybrid_shrunk_t", "G_hybrid_shrunk_t"), ("λ", "lambda_hybrid_t"),
             ("hybrid − const", "hybrid_minus_const_t"), ("(a) − G_const_t", "a_plus_const_t"),
             ("… − joint t", "a_plus_const_t_minus_joint"), ("(a) − G_hybrid_t − joint t", "a_plus_hybrid_t_minus_joint"),
             ("clamped test scores", "t_pit_clamped_test"), ("test scores without t quantiles", "t_pit_broken_test")]
    ccols = [("const", "cov95_const"), ("hybrid", "cov95_hybrid"), ("hybrid shrunk", "cov95_hybrid_shrunk"),
             ("diagonal", "cov95_diag"), ("self", "cov95_self"), ("self diagonal", "cov95_self_diag"),
             ("const (t scores)", "cov95_const_t"), ("hybrid (t)", "cov95_hybrid_t"), ("diagonal (t)", "cov95_diag_t"),
             ("joint t's calibrated region (eval)", "joint_cov95_cal")]
    for title, cs, src in (("Calibrated Gaussian scores", cols, "summary"), ("Student-t PIT scores", tcols, "summary"),
                           ("95% region coverage, test rows", ccols, "summary")):
        print(f"\n{title}\n\n| set | splits | " + " | ".join(c for c, _ in cs) + " |")
        print("|" + " --- |" * (len(cs) + 2))
        for r in recs:
            s = r[src]
            print(f"| {r['dataset']} | {r['n']} | " + " | ".join(fmt(s.get(k)) if k else "—" for _, k in cs) + " |")
    cf = [r for r in recs if "crossfit" in r]
    if cf:
        keys = ["lambda_const", "G_const", "lambda_hybrid", "G_hybrid_shrunk", "lambda_const_t", "G_const_t",
                "lambda_hybrid_t", "G_hybrid_shrunk_t"]
        print("\nIn-sample → cross-fitted training scores (same splits)\n\n| set | splits | " + " | ".join(keys) + " |")
        print("|" + " --- |" * (len(keys) + 2))
        for r in cf:
            c = r["crossfit"]
            print(f"| {r['dataset']} | {len(c['splits'])} | " + " | ".join(
                f"{fmt(c['insample_same_splits'].get(k))} → {fmt(c['summary'].get(k))}" for k in keys) + " |")


if __name__ == "__main__":
    main()
