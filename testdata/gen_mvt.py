#!/usr/bin/env python3
"""Generate ../mvtcorrection_table.go and mvt_ref.csv for the multivariate t.

Run from anywhere (needs python3 and mpmath; on Debian: apt-get install
python3-mpmath):

    python3 testdata/gen_mvt.py

The script is deterministic: rerunning it rewrites both files byte for
byte. It takes a few seconds.

What it computes (docs/multivariate.md has the derivation).

c_d(nu), the scale factor of the corrected covariance: for R ~ chi^2_d it
solves E[R/(c nu + R)] = d/(nu + d).  With k = d/2, s = c nu/2 and
T = R/2 ~ Gamma(k, 1) the equation reads h_k(s) = nu/(nu + d), where

    h_k(s) = E[s/(s + T)] = e^s s^k Gamma(1 - k, s)

(Gamma the upper incomplete gamma function, mpmath's gammainc).  The
reference solves it at 40 digits with findroot in log s and checks the
closed form against direct quadrature of E[R/(c nu + R)] at a few points,
so that the table does not rest on the closed form alone.  A_d(a) =
a (1 - c_d(2a)); for d = 1 it is the paper's A(alpha) of Definition 3.1,
which the script checks against the defining equation Eq. (3.15).

The asymptotic series 1 - c_d(nu) = sum_j a_j nu^-j (nu -> infinity) is
obtained exactly in rational arithmetic: with x = 1/s the complement
E[T/(s+T)] has the asymptotic series sum_j (-1)^j (k)_{j+1} x^(j+1), the
equation E[T/(s+T)] = d/(nu + d) is solved for X = x nu/2 as a power
series in t = 1/nu by fixed-point iteration, and c = 1/X.  The script
checks the series against the 40-digit solution at nu = 1e4.

The log-density rows are the multivariate t density computed from S = L L^T
by mpmath's determinant and inverse (not by the Cholesky route the Go code
takes).  The region rows are quantiles of q/d ~ F(d, nu) (of q ~ chi^2_d for
nu = inf) by findroot on mpmath's regularised incomplete beta and gamma.
"""

import os
from fractions import Fraction

import mpmath as mp

mp.mp.dps = 40

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.normpath(os.path.join(HERE, "..", "mvtcorrection_table.go"))
MAX_D = 16
ASYM_TERMS = 8


def h(k, s):
    """E[s/(s+T)], T ~ Gamma(k, 1), in closed form."""
    return mp.exp(s) * s**k * mp.gammainc(1 - k, s)


def h_quad(k, s):
    """The same expectation by quadrature, independent of the closed form."""
    f = lambda t: s / (s + t) * t ** (k - 1) * mp.exp(-t) / mp.gamma(k)
    return mp.quad(f, [0, s, mp.inf])


def corr(d, nu):
    """c_d(nu) and 1 - c_d(nu) at 40 digits."""
    k = mp.mpf(d) / 2
    nu = mp.mpf(nu)
    with mp.workdps(60):
        target = nu / (nu + d)
        if d >= 3:
            c0 = (nu + d - 2) / (nu + d)
        else:
            c0 = nu / (nu + 2)
        u = mp.findroot(lambda u: mp.log(h(k, mp.exp(u)) / target), mp.log(c0 * nu / 2))
        c = 2 * mp.exp(u) / nu
        return +c, 1 - c


def asym_coefficients(d):
    """a_1..a_N of 1 - c_d(nu) = sum a_j nu^-j, exact."""
    k = Fraction(d, 2)
    n = ASYM_TERMS + 1

    def mul(a, b):
        out = [Fraction(0)] * n
        for i, x in enumerate(a):
            if x:
                for j, y in enumerate(b[: n - i]):
                    out[i + j] += x * y
        return out

    # 1/(1 + d t) as a series in t.
    geo = [Fraction((-d) ** j) for j in range(n)]
    X = geo[:]
    for _ in range(n + 1):
        # k x = 2k t/(1+dt) + sum_{j>=1} (-1)^(j+1) (k)_{j+1} x^(j+1), x = 2t X.
        acc = geo[:]
        power = X[:]  # X^(j+1), times (2t)^j below
        rising = k  # (k)_1
        for j in range(1, n):
            power = mul(power, X)
            rising *= k + j  # (k)_{j+1}
            coef = Fraction((-1) ** (j + 1)) * rising / k * 2**j
            for i in range(n - j):
                acc[i + j] += coef * power[i]
        X = acc
    # c = 1/X; 1 - c = 1 - 1/X.
    inv = [Fraction(0)] * n
    inv[0] = 1 / X[0]
    for i in range(1, n):
        inv[i] = -sum(X[j] * inv[i - j] for j in range(1, i + 1)) / X[0]
    return [-inv[j] for j in range(1, n)]


def check_asym(d, coefs):
    nu = mp.mpf(10) ** 4
    _, omc = corr(d, nu)
    series = sum(mp.mpf(a.numerator) / a.denominator * nu ** -(j + 1) for j, a in enumerate(coefs))
    err = abs(series / omc - 1)
    if err > 1e-20:  # the Go code switches to the series at nu = 1e4
        raise SystemExit(f"asymptotic series d={d}: relative error {mp.nstr(err, 3)} at nu=1e4")


def check_closed_form():
    for k, s in [(mp.mpf(1) / 2, mp.mpf("0.3")), (mp.mpf(1), mp.mpf(2)), (mp.mpf(3) / 2, mp.mpf(7)), (mp.mpf(4), mp.mpf("0.05"))]:
        a, b = h(k, s), h_quad(k, s)
        # Quadrature of the t^(k-1) endpoint singularity is good to about 1e-22.
        if abs(a / b - 1) > mp.mpf(10) ** -18:
            raise SystemExit(f"closed form disagrees with quadrature at k={k} s={s}: {a} {b}")


def check_definition_3_1():
    """d = 1: A_1(a) solves Eq. (3.15), F(a - A) = a/((2a+1)(a - A))."""
    for a in ["0.01", "0.7", "3", "250"]:
        a = mp.mpf(a)
        c, omc = corr(1, 2 * a)
        A = a * omc
        x = a - A
        F = mp.sqrt(mp.pi) / 2 * mp.exp(x) * mp.erfc(mp.sqrt(x)) / mp.sqrt(x)
        if abs(F / (a / ((2 * a + 1) * x)) - 1) > mp.mpf(10) ** -25:
            raise SystemExit(f"A_1 does not solve Eq. (3.15) at a={a}")


def check_known_values():
    for d, nu, want in [(2, 3, "0.67944"), (2, 5, "0.76138"), (2, 10, "0.85259"), (2, 30, "0.94082"), (3, 5, "0.78414"), (5, 5, "0.81935")]:
        c, _ = corr(d, nu)
        if abs(c - mp.mpf(want)) > 6e-6:
            raise SystemExit(f"c_{d}({nu}) = {c}, not {want}")


def g(x):
    return mp.nstr(x, 25, min_fixed=-1, max_fixed=-1) if x != 0 else "0"


def f17(x):
    return repr(float(x))


def corr_rows():
    rows = []
    nus = [mp.mpf(10) ** e for e in range(-12, 13, 2)] + [mp.mpf(v) for v in ["0.37", "1.5", "2.9", "4.1", "7", "13", "55", "320", "2500", "9000", "20000", "3e5"]]
    nus = sorted(set(float(v) for v in nus))
    for d in range(1, MAX_D + 1):
        for nu in nus:
            c, omc = corr(d, nu)
            rows.append(f"c,{d},{f17(nu)},{g(c)},{g(omc)}")
    return rows


def a_rows():
    rows = []
    for d in [1, 2, 3, 5, 8, 16]:
        for a in ["1e-9", "1e-4", "0.03", "0.5", "1", "2.5", "11", "97", "1e3", "1e6", "1e12"]:
            a = mp.mpf(a)
            _, omc = corr(d, 2 * a)
            rows.append(f"A,{d},{f17(a)},{g(a * omc)}")
    return rows


def logpdf(d, nu, L, m, y):
    nu = mp.mpf(nu)
    Lm = mp.matrix(d, d)
    idx = 0
    for i in range(d):
        for j in range(i + 1):
            Lm[i, j] = mp.mpf(L[idx])
            idx += 1
    S = Lm * Lm.T
    e = mp.matrix([mp.mpf(y[i]) - mp.mpf(m[i]) for i in range(d)])
    q = (e.T * mp.inverse(S) * e)[0]
    return (
        mp.loggamma((nu + d) / 2)
        - mp.loggamma(nu / 2)
        - mp.mpf(d) / 2 * mp.log(nu * mp.pi)
        - mp.log(mp.det(S)) / 2
        - (nu + d) / 2 * mp.log(1 + q / nu)
    )


def logpdf_rows():
    rng = mp.mpf(7)

    def rand():
        # A fixed linear congruential stream: deterministic, no numpy.
        nonlocal rng
        rng = (rng * 48271) % 2147483647
        return float(rng / 2147483647)

    rows = []
    for d in [1, 2, 3, 5, 8]:
        for nu, spread in [(0.3, 1), (3, 1), (11.5, 4), (1e6, 1), (4, 1e3)]:
            L = []
            for i in range(d):
                for j in range(i + 1):
                    v = rand() * 2 - 1
                    L.append(round(0.5 + rand() * 2, 6) if i == j else round(v, 6))
            m = [round(rand() * 4 - 2, 6) for _ in range(d)]
            y = [round(mi + spread * (rand() * 2 - 1), 6) for mi in m]
            want = logpdf(d, nu, L, m, y)
            rows.append(
                "logpdf,%d,%s,%s,%s,%s,%s" % (d, f17(nu), ";".join(map(f17, L)), ";".join(map(f17, m)), ";".join(map(f17, y)), g(want))
            )
    return rows


def bisect(f, lo, hi):
    """The root of the increasing f in [lo, hi], to the working precision."""
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(mid) < 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def content(a, b, q, n):
    """I_x(a, b), x = q/(q+n), from the side where mpmath's series converge."""
    x = q / (q + n)
    if x < mp.mpf(1) / 2:
        return mp.betainc(a, b, 0, x, regularized=True)
    return 1 - mp.betainc(b, a, 0, n / (q + n), regularized=True)


def quantile_rows():
    rows = []
    for d in [1, 2, 3, 5, 16]:
        a = mp.mpf(d) / 2
        for nu in [0.5, 3, 30, 300, "inf"]:
            for p in ["0.01", "0.5", "0.9", "0.95", "0.999"]:
                p = mp.mpf(p)
                if nu == "inf":
                    f = lambda u: mp.gammainc(a, 0, mp.exp(u) / 2, regularized=True) - p
                else:
                    b = mp.mpf(nu) / 2
                    n = mp.mpf(nu)
                    f = lambda u: content(a, b, mp.exp(u), n) - p
                u = bisect(f, mp.log(d) - 40, mp.log(d) + 60)
                rows.append(f"quantile,{d},{nu},{f17(p)},{g(mp.exp(u))}")
    return rows


def write_table():
    lines = [
        "// Code generated by testdata/gen_mvt.py; DO NOT EDIT.",
        "",
        "package gcp",
        "",
        "// mvtCorrAsym[d−1] holds a_1, …, a_%d of the asymptotic series" % ASYM_TERMS,
        "// 1 − c_d(ν) = Σ_j a_j ν^(−j) of the multivariate correction factor as",
        "// ν → ∞, computed in exact rational arithmetic and rounded once.",
        "var mvtCorrAsym = [%d][%d]float64{" % (MAX_D, ASYM_TERMS),
    ]
    for d in range(1, MAX_D + 1):
        coefs = asym_coefficients(d)[:ASYM_TERMS]
        check_asym(d, coefs)
        lines.append("\t{" + ", ".join(repr(float(c)) for c in coefs) + "},")
    lines.append("}")
    with open(TABLE, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")


def main():
    check_closed_form()
    check_definition_3_1()
    check_known_values()
    write_table()
    rows = corr_rows() + a_rows() + logpdf_rows() + quantile_rows()
    with open(os.path.join(HERE, "mvt_ref.csv"), "w", encoding="utf-8") as f:
        f.write("# Generated by testdata/gen_mvt.py (mpmath, 40 digits); do not edit.\n")
        f.write("# c,d,nu,c_d(nu),1-c_d(nu) | A,d,a,A_d(a) | logpdf,d,nu,L packed;…,m;…,y;…,ln t | quantile,d,nu,p,d*F^-1(p) (chi^2 for nu=inf)\n")
        for r in rows:
            f.write(r + "\n")


if __name__ == "__main__":
    main()
