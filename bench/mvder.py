#!/usr/bin/env python3
"""Comparator (c) of issue 34: multivariate deep evidential regression.

The normal-inverse-Wishart (NIW) evidential network of N. Meinert and
A. Lavin, "Multivariate Deep Evidential Regression" (arXiv:2104.06135,
2021; Sec. 4 of the paper), run on the multi-target sets and splits of
bench/multi_benchmark.py, whose reader, splits, record summary and table
this script imports (no second copy). It is a benchmark comparator, not
part of the gcp library.

What is implemented, from the paper:
  - Heads. A network output p of d(d+3)/2 + 1 numbers per row gives the
    NIW parameters m = (μ0, L, ν): μ0 = p[0:d]; the lower-triangular L
    with L_jj = exp(ℓ_j) and L_jk = ℓ_jk (j > k) from the next d(d+1)/2
    outputs (their log-Cholesky parameterisation of Ψ = ν·L·Lᵀ); and
    ν = (d + 6) + 5·tanh(p_last), which for d = 2 is their ν = 8 + 5 tanh p6
    on (3, 13), generalised here to (d + 1, d + 11): the lower bound is
    theirs (ν > d + 1, so that E[Σ] exists), the width of 10 is theirs.
  - Their fix of the NIW over-parameterisation: κ is tied to ν by the
    constant κ = ν/r with r = 1 (their experiment's value).
  - Their loss L_NLL: the negative log of the NIW's predictive,
        lnΓ((ν−d+1)/2) − lnΓ((ν+1)/2) + (d/2)ln(r+ν) − ν·Σ_j ℓ_j
          + ((ν+1)/2)·ln|L·Lᵀ + (y−μ0)(y−μ0)ᵀ/(r+ν)|   (+ (d/2)ln π),
    which is exactly the multivariate Student t with ν_t = ν − d + 1
    degrees of freedom, location μ0 and scale S = (r+ν)/ν_t · L·Lᵀ; it is
    computed in that form (t_logpdf below; --selftest checks the two forms
    agree). With ν_t in (2, 12) the predictive always has a covariance.
What is left out: the evidence regulariser of Amini et al. (the paper
argues that it does not break the degeneracy and proposes the κ–ν coupling
instead, with no regulariser: so is this script); their network (two
hidden layers of 32, one input) is replaced by this benchmark's fixed one;
their epistemic/aleatoric split is not used (only the predictive is
scored).

Fixed configuration (not tuned, and never on the test rows): inputs and
targets standardised by the training rows' mean and standard deviation
(a constant column is divided by 1); one hidden layer of 50 ReLU units;
float64; Adam, learning rate 1e-3, minibatches of 32; early stopping on a
validation part of VAL_SHARE of the training rows (drawn per split by a
random.Random seeded "NAME/split/val"; never test rows): at most
MAX_EPOCHS epochs, stop after PATIENCE epochs without a better validation
NLL, keep the best epoch's weights (the model is trained on the other
training rows only, not refitted). torch.manual_seed(split) before each
training; one thread (torch.set_num_threads(1)).

Per split it writes multi_benchmark.py's record (test rows, original
units): rmse[t] (of μ0); nll[t] (the marginal t_{ν_t}(μ0_j, S_jj));
cov95[t] (the marginal 95% interval's coverage); joint_nll (the
multivariate t; standardisation's Jacobian Σ_j ln sd_j added back);
energy_score and energy_score_std (ES = E‖Y−y‖ − ½E‖Y−Y′‖ by Monte Carlo:
DRAWS independent pairs of draws of the row's t, numpy's generator seeded
from "NAME/split/mvder"; _std divides each target by the training rows'
standard deviation, as the product method does); cov50/90/95_joint (the
share of test rows inside the t's p-region q ≤ d·F⁻¹_{d,ν_t}(p), q the
Mahalanobis form under S: q/d ~ F(d, ν_t) for a t); cov95_rect and
cov95_rect_sidak (every target inside its marginal 95% or 0.95^(1/d)
interval); seconds (wall) and cpu_seconds (this process's CPU time) of the
split, training and scoring, train_cpu_seconds of its training alone;
epochs (the best epoch). The calibrated keys of the other methods
(joint_nll_cal, energy_score_cal, cov95_rect_cal, ...) are None: this
method has no calibration step; the table printed at the end adds a line
per set with its t regions' coverage.

Usage (needs PyTorch, numpy and mpmath: on Debian, apt-get install -y
python3-torch, then run it with /usr/bin/python3):
    python3 bench/mvder.py --selftest
    python3 bench/mvder.py [--datasets slump,jura,edm] [--n N]
        [--out bench/mvder_results.jsonl] [--render-only]
The table printed at the end shows this method beside the records of
bench/multi_results.jsonl (the other methods) for the same sets.
"""
import argparse
import math
import os
import random
import statistics
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import multi_benchmark as mb  # noqa: E402

try:
    import mpmath
    import numpy as np
    import torch
except ImportError as e:
    sys.exit(f"bench/mvder.py needs PyTorch, numpy and mpmath ({e}); on Debian: "
             "apt-get install -y python3-torch, then run it with /usr/bin/python3")

HIDDEN = 50
LR = 1e-3
BATCH = 32
MAX_EPOCHS = 2000
PATIENCE = 100
VAL_SHARE = 0.2
R = 1.0          # κ = ν / R, the paper's coupling; R = 1 as in their experiment
NU_SPAN = 5.0    # ν = d + 1 + NU_SPAN·(1 + tanh p): the paper's (3, 13) for d = 2
DRAWS = mb.DRAWS
METHOD = "mvder"
COMMAND = ("python3 bench/mvder.py: MLP(D-50-d(d+3)/2+1), NIW heads and loss of Meinert & Lavin "
           f"(r = {R:g}, nu in (d+1, d+11)), Adam {LR:g}, batch {BATCH}, early stopping on "
           f"{VAL_SHARE:.0%} of the training rows (patience {PATIENCE}, at most {MAX_EPOCHS} epochs)")
DTYPE = torch.float64


def heads(p, d):
    """The NIW parameters of the network outputs p (rows × d(d+3)/2+1):
    μ0 (rows × d), L (rows × d × d, lower, exp on the diagonal), ν (rows)."""
    mu = p[:, :d]
    rows, cols = torch.tril_indices(d, d)
    L = torch.zeros(p.shape[0], d, d, dtype=p.dtype)
    L[:, rows, cols] = p[:, d:d + len(rows)]
    diag = torch.arange(d)
    L[:, diag, diag] = torch.exp(L[:, diag, diag])
    nu = (d + 1 + NU_SPAN) + NU_SPAN * torch.tanh(p[:, -1])
    return mu, L, nu


def predictive(L, nu, d):
    """The NIW predictive's degrees of freedom ν_t = ν − d + 1 and the
    Cholesky factor C of its scale S = (r+ν)/ν_t·L·Lᵀ (κ = ν/r)."""
    nu_t = nu - d + 1
    return nu_t, torch.sqrt((R + nu) / nu_t)[:, None, None] * L


def t_logpdf(e, C, nu):
    """Log density of the multivariate t with nu degrees of freedom, scale
    C·Cᵀ (C lower triangular) at the residuals e = y − location (rows × d)."""
    d = e.shape[1]
    z = torch.linalg.solve_triangular(C, e[:, :, None], upper=False)[:, :, 0]
    q = (z * z).sum(1)
    logdet = torch.log(torch.diagonal(C, dim1=1, dim2=2)).sum(1)
    return (torch.lgamma((nu + d) / 2) - torch.lgamma(nu / 2) - d / 2 * torch.log(nu * math.pi)
            - logdet - (nu + d) / 2 * torch.log1p(q / nu))


def mahalanobis(e, C):
    z = torch.linalg.solve_triangular(C, e[:, :, None], upper=False)[:, :, 0]
    return (z * z).sum(1)


def f_cdf(f, d1, d2):
    """The F(d1, d2) law's distribution function at f ≥ 0 (mpmath's
    regularised incomplete beta function)."""
    x = d1 * f / (d1 * f + d2)
    return float(mpmath.betainc(d1 / 2, d2 / 2, 0, x, regularized=True))


def in_region(q, d, nu, p):
    """Whether Mahalanobis form q lies in the t's central p-region: q/d ~ F(d, ν)."""
    return f_cdf(q / d, d, nu) <= p


def sample_t(mu, C, nu, m, rng):
    """m draws (m × d) of the t(nu) with location mu and scale C·Cᵀ (numpy)."""
    z = rng.standard_normal((m, len(mu))) @ C.T
    return mu + z / np.sqrt(rng.chisquare(nu, m) / nu)[:, None]


def energy_score(y, mu, C, nu, scale, rng):
    """Monte Carlo energy score of row y under the t, in original units and
    with each coordinate divided by scale: (es, es_std)."""
    a, b = sample_t(mu, C, nu, DRAWS, rng), sample_t(mu, C, nu, DRAWS, rng)
    out = []
    for s in (1.0, scale):
        out.append(float(np.mean(np.linalg.norm((a - y) / s, axis=1))
                         - 0.5 * np.mean(np.linalg.norm((a - b) / s, axis=1))))
    return out


def standardize(train, cols):
    """Mean and standard deviation (1 for a constant column) of columns cols."""
    x = torch.tensor([[float(r[c]) for c in cols] for r in train], dtype=DTYPE)
    sd = x.std(0)
    return x.mean(0), torch.where(sd > 0, sd, torch.ones_like(sd))


def loss_fn(net, x, y, d):
    mu, L, nu = heads(net(x), d)
    nu_t, C = predictive(L, nu, d)
    return -t_logpdf(y - mu, C, nu_t).mean()


def train(x, y, d, seed, val_key):
    """Fits the network with early stopping on a validation part of the rows;
    returns the net (best validation epoch's weights) and that epoch."""
    torch.manual_seed(seed)
    n = x.shape[0]
    order = list(range(n))
    random.Random(val_key).shuffle(order)
    nval = max(1, round(VAL_SHARE * n))
    val, fit = torch.tensor(order[:nval]), torch.tensor(order[nval:])
    net = torch.nn.Sequential(torch.nn.Linear(x.shape[1], HIDDEN), torch.nn.ReLU(),
                              torch.nn.Linear(HIDDEN, d * (d + 3) // 2 + 1)).to(DTYPE)
    opt = torch.optim.Adam(net.parameters(), lr=LR)
    best, best_epoch, best_state = math.inf, 0, None
    for epoch in range(1, MAX_EPOCHS + 1):
        perm = fit[torch.randperm(len(fit))]
        for i in range(0, len(perm), BATCH):
            b = perm[i:i + BATCH]
            opt.zero_grad()
            loss_fn(net, x[b], y[b], d).backward()
            opt.step()
        with torch.no_grad():
            v = loss_fn(net, x[val], y[val], d).item()
        if v < best:
            best, best_epoch = v, epoch
            best_state = {k: t.clone() for k, t in net.state_dict().items()}
        elif epoch - best_epoch >= PATIENCE:
            break
    net.load_state_dict(best_state)
    return net, best_epoch


def run_split(_exe, name, split, header, rows, test, _tmp):
    """One split: trains on its training rows, scores its test rows; returns
    the record described in the module's doc (multi_benchmark's runner
    signature; the gcp executable and temporary folder are not used)."""
    d, names, train_rows, test_rows = mb.split_rows(name, header, rows, test)
    nf = len(header) - d
    t0, c0 = time.monotonic(), time.process_time()
    xm, xs = standardize(train_rows, range(nf))
    ym, ys = standardize(train_rows, range(nf, nf + d))

    def xy(part):
        x = torch.tensor([[float(v) for v in r[:nf]] for r in part], dtype=DTYPE)
        y = torch.tensor([[float(v) for v in r[nf:]] for r in part], dtype=DTYPE)
        return (x - xm) / xs, y

    x, y = xy(train_rows)
    c1 = time.process_time()
    net, epoch = train(x, (y - ym) / ys, d, split, f"{name}/{split}/val")
    train_cpu = time.process_time() - c1
    xt, yt = xy(test_rows)
    with torch.no_grad():
        mu, L, nu = heads(net(xt), d)
        nu_t, C = predictive(L, nu, d)
        mu = mu * ys + ym                  # original units: location, and
        C = ys[None, :, None] * C          # scale diag(sd)·S·diag(sd)
        e = yt - mu
        joint = t_logpdf(e, C, nu_t)
        q = mahalanobis(e, C)
        sjj = torch.diagonal(C @ C.transpose(1, 2), dim1=1, dim2=2)
        marg = [t_logpdf(e[:, j:j + 1], sjj[:, j].sqrt()[:, None, None], nu_t) for j in range(d)]
    scale = np.array([statistics.stdev(float(r[nf + j]) for r in train_rows) or 1.0 for j in range(d)])
    rng = np.random.default_rng(random.Random(f"{name}/{split}/{METHOD}").getrandbits(64))
    es = np.mean([energy_score(yt[i].numpy(), mu[i].numpy(), C[i].numpy(), nu_t[i].item(), scale, rng)
                  for i in range(len(test_rows))], axis=0)
    nt = len(test_rows)
    z2 = e * e / sjj
    inside = {p: [in_region(q[i].item(), d, nu_t[i].item(), p) for i in range(nt)] for p in (0.5, 0.9, 0.95)}
    marg_in = {p: [[in_region(z2[i, j].item(), 1, nu_t[i].item(), p) for j in range(d)] for i in range(nt)]
               for p in (0.95, 0.95 ** (1 / d))}
    rec = {"split": split, "n_train": len(train_rows), "n_test": nt, "epochs": epoch,
           "rmse": {t: math.sqrt(float((e[:, j] ** 2).mean())) for j, t in enumerate(names)},
           "nll": {t: -float(marg[j].mean()) for j, t in enumerate(names)},
           "cov95": {t: sum(r[j] for r in marg_in[0.95]) / nt for j, t in enumerate(names)},
           "joint_nll": -float(joint.mean()), "joint_nll_cal": None,
           "energy_score": float(es[0]), "energy_score_std": float(es[1]),
           "energy_score_cal": None, "energy_score_cal_std": None}
    for p in (0.5, 0.9, 0.95):
        rec[f"cov{round(100 * p)}_joint"] = sum(inside[p]) / nt
    rec["cov95_rect"] = sum(all(r) for r in marg_in[0.95]) / nt
    rec["cov95_rect_sidak"] = sum(all(r) for r in marg_in[0.95 ** (1 / d)]) / nt
    rec["cov95_rect_cal"] = rec["cov95_rect_sidak_cal"] = None
    rec["seconds"] = round(time.monotonic() - t0, 2)
    rec["cpu_seconds"] = round(time.process_time() - c0, 2)
    rec["train_cpu_seconds"] = round(train_cpu, 2)
    print(f"    {name} split {split}: joint NLL {rec['joint_nll']:.4g}, ES {rec['energy_score']:.4g}, "
          f"joint cover95 {rec['cov95_joint']:.3f}, best epoch {epoch}, {rec['cpu_seconds']:.1f} CPU s",
          file=sys.stderr, flush=True)
    return rec


def render(out, names):
    """multi_benchmark's table of this method beside bench/multi_results.jsonl's methods."""
    key = lambda r: (r["dataset"], r["method"])  # noqa: E731
    records = mb.load_jsonl(os.path.join(mb.ROOT, "bench", "multi_results.jsonl"), key=key)
    mine = mb.load_jsonl(out, key=key)
    records.update(mine)
    mb.render(records, names)
    print(f"\n{METHOD}'s t regions (no calibration step), coverage mean ± SE over the splits:\n")
    for (name, method), r in sorted(mine.items(), key=lambda kv: mb.DATASETS.index(kv[0][0])):
        if name in names and method == METHOD:
            s = r["summary"]
            print(f"- {name}: joint 50/90/95% " + " / ".join(mb.fmt(s[f"cov{p}_joint"]) for p in (50, 90, 95))
                  + f"; 95% rectangle {mb.fmt(s['cov95_rect'])}; Šidák rectangle {mb.fmt(s['cov95_rect_sidak'])}; "
                  f"CPU s/split {mb.fmt(s['cpu_seconds'], 2)} (training {mb.fmt(s['train_cpu_seconds'], 2)})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", default="slump,jura,edm", help="comma-separated subset of " + ",".join(mb.DATASETS))
    ap.add_argument("--n", type=int, default=0, help="run only the first N splits")
    ap.add_argument("--out", default="bench/mvder_results.jsonl")
    ap.add_argument("--render-only", action="store_true", help="print the table from the results files")
    ap.add_argument("--selftest", action="store_true", help="check the metric code against closed forms, then stop")
    args = ap.parse_args()
    torch.set_num_threads(1)
    if args.selftest:
        import mvder_selftest
        sys.exit(mvder_selftest.main())
    names = [s for s in args.datasets.split(",") if s]
    for s in names:
        if s not in mb.DATASETS:
            ap.error(f"unknown data set {s!r}: choose from {','.join(mb.DATASETS)}")
    if not 0 <= args.n <= mb.FULL_SPLITS:
        ap.error(f"--n must be in 0..{mb.FULL_SPLITS}")
    out = args.out if os.path.isabs(args.out) else os.path.join(mb.ROOT, args.out)
    if not args.render_only:
        mb.METHODS[METHOD] = run_split
        mb.COMMANDS[METHOD] = COMMAND
        records = mb.load_jsonl(out, key=lambda r: (r["dataset"], r["method"]))
        for name in names:
            rec = mb.run_set(None, name, args.n, METHOD)
            rec.update(go=None, torch=torch.__version__, draws=DRAWS, grid=None,
                       dirty=bool(mb.git("status", "--porcelain", "--untracked-files=no", "--", ".",
                                         ":(exclude)" + os.path.relpath(out, mb.ROOT))))
            rec["summary"]["cpu_seconds_total"] = sum(s["cpu_seconds"] for s in rec["splits"])
            records[(name, METHOD)] = rec
            mb.save(out, records)
    render(out, names)


if __name__ == "__main__":
    main()
