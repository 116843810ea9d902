#!/usr/bin/env python3
"""Reference values for TestCellLogProbFarTail (autofit_multiscale_test.go).

Run from the repository root (needs python3 and mpmath; on Debian the
python3-mpmath package):

    python3 testdata/gen_celltail.py

It writes testdata/celltail_ref.csv: rows dof,a,b,lnp with lnp the natural
log of the probability that a standard Student t of dof degrees of freedom
(dof = inf: the standard normal) falls in the cell (a, b), the cell of a
lattice target's value written in the predictive's standard units. The
cells lie far in a tail, where the probability is below the smallest
normal double (about 2.2e-308) or near it, so that a difference of two
float64 CDFs would lose it. The probability is the integral of the density
over (a, b) by mpmath's tanh-sinh quadrature at mp.dps = 50, the interval
cut where the density has fallen by e^1, e^5 and e^20 from the cell's edge
nearest the mean (so each piece is smooth on its own scale); no CDF enters,
so the reference does not rest on betainc, which cannot resolve such tails
of a large-dof t. Inputs are IEEE doubles printed with repr, outputs with
17 significant digits. Nothing is random: rerunning rewrites the file byte
for byte.
"""
import os
import mpmath as mp

mp.mp.dps = 50

# (dof, near edge, width): each cell is written for the upper tail,
# (near, near + width), and mirrored, (-near - width, -near).
CASES = [
    ("inf", 30.0, 1.0),   # the CDF difference still holds (a check of both ways agreeing)
    ("inf", 37.5, 0.5),
    ("inf", 40.0, 0.01),
    ("inf", 40.0, 3.0),
    ("inf", 100.0, 2.0),
    ("inf", 1e3, 0.1),
    ("inf", 1e5, 10.0),
    ("1000", 60.0, 1.0),
    ("1000", 200.0, 5.0),
    ("100000", 40.0, 1.0),
    ("100000", 45.0, 0.2),
    ("30", 1e12, 1e11),
    ("5", 1e70, 1e69),
]


def logpdf(dof):
    if dof == "inf":
        return lambda x: -x * x / 2 - mp.log(2 * mp.pi) / 2
    nu = mp.mpf(dof)
    c = mp.loggamma((nu + 1) / 2) - mp.loggamma(nu / 2) - mp.log(nu * mp.pi) / 2
    return lambda x: c - (nu + 1) / 2 * mp.log1p(x * x / nu)


def cell(dof, a, b):
    lf = logpdf(dof)
    a, b = mp.mpf(a), mp.mpf(b)
    near = a if a > 0 else -b
    width = b - a
    top = lf(near)
    # The decay rate at the near edge, -(ln f)'(near).
    if dof == "inf":
        rate = near
    else:
        nu = mp.mpf(dof)
        rate = (nu + 1) * near / (nu + near * near)
    cuts = [near] + [near + k / rate for k in (1, 5, 20) if k / rate < width] + [near + width]
    total = mp.mpf(0)
    for lo, hi in zip(cuts, cuts[1:]):
        total += mp.quad(lambda x: mp.exp(lf(x) - top), [lo, hi])
    return top + mp.log(total)


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "celltail_ref.csv")
    with open(out, "w") as f:
        f.write("# testdata/gen_celltail.py: dof,a,b,lnp = ln P(a < T < b), T standard t (dof inf: normal)\n")
        for dof, near, width in CASES:
            a, b = near, near + width
            lp = cell(dof, a, b)
            for lo, hi in ((a, b), (-b, -a)):
                f.write("%s,%r,%r,%s\n" % (dof, lo, hi, mp.nstr(lp, 17, min_fixed=-mp.inf, max_fixed=mp.inf)))
    print("wrote", out)


if __name__ == "__main__":
    main()
