#!/usr/bin/env python3
"""Reference values for TestNormalScoreMpmath (copula_test.go): the normal
score u = Phi^-1(F(y)) of a predictive far into both tails.

Run from the repository root (needs python3 and mpmath; on Debian the
python3-mpmath package):

    python3 testdata/gen_normalscore.py

It writes testdata/normalscore_ref.csv. The predictives are fixed lists and
nothing is random, so rerunning reproduces the file byte for byte.

Three kinds of predictive, each given by the fields of the Go Prediction
that holds it:

  t      mean/alpha/beta/nu: the Student t of 2*alpha degrees of freedom,
         location mean and squared scale beta*(nu+1)/(nu*alpha) (the
         parameters are chosen so that the scale is exact in float64);
  mix    mean/scale/dof members, the uniform mixture (an ensemble's);
  logt   as t, of z = ln y (TransformLog): F(y) = F_t(ln y).

For each y the lower tail F(y) and the upper tail 1 - F(y) are evaluated
in mpmath (gen_mixture.small_tail: gen_studentt's betainc tails, each
computed directly where it is small), and u is the root of
ln Phi(u) = ln q for the smaller tail q (gen_normal_quantile's
lower_tail_root, on the log scale), negated for the upper tail. Where
that tail is below 1e-300 (float64 cannot hold it; the Go score takes its
logarithm there) the row is instead one of the deep rows below, or left
out. Inputs are IEEE doubles printed with repr (the Go test parses exactly
the inputs used here), u with 20 significant digits.

Deep rows (the lists DEEP_TS, DEEP_MIXES, DEEP_LOGTS; tails from 1e-300
down to about 1e-1e14): ln q of the smaller tail by log_tail, the
log-sum-exp of the members' for a mixture, and u the root of
ln Phi(u) = ln q (mpmath's exponent range holds q itself). log_tail takes
ln P(T > s) = ln f(s) + ln(L * integral_0^inf exp(ln f(s + L w) - ln f(s)) dw),
L = (nu + s^2)/((nu + 1) s) the scale on which the density falls, by
mpmath's quad, and where x = nu/(nu + s^2) < 1/2 also by the
hypergeometric form I_x(a, 1/2) = x^a (1-x)^(1/2) 2F1(a+1/2, 1; a+1; x) /
(a B(a, 1/2)) (DLMF 8.17.8), which must agree to 1e-25 relative; the
Gaussian's is ln(erfc(s/sqrt 2)/2) (by its asymptotic series beyond
s/sqrt 2 = 1e6). Every deep u is computed at two precisions, which must
agree to 1e-25 relative. A t of dof 2e30 is the t (the Go code too takes
the t's own log tail where it leaves the normal's range).

Rows: kind,params,y,u.
"""
import os
import sys

from mpmath import erfc, exp, hyp2f1, inf, log, log1p, loggamma, mp, mpf, pi, quad, sqrt

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_mixture import small_tail  # noqa: E402
from gen_normal_quantile import lower_tail_root  # noqa: E402
from gen_studentt import fmt  # noqa: E402

mp.dps = 60

# Student t predictives (mean, alpha, beta, nu) with scale sqrt(2*beta/alpha)
# exact: 1, 2, 0.5 and 3, at 3, 30, 200 and 0.5 degrees of freedom.
TS = [
    ((0.25, 1.5, 0.75, 1.0), [-1e100, -1e50, -1e10, -1e3, -10.0, -1.0, 0.0, 0.125, 3.0, 1e3, 1e10, 1e50, 1e99]),
    ((-2.0, 15.0, 30.0, 1.0), [-4e9, -1e6, -1e3, -40.0, -3.0, -2.0, 1.5, 20.0, 200.0, 1e4, 1e8, 3e9]),
    ((10.0, 100.0, 12.5, 1.0), [-30.0, -10.0, 0.0, 9.0, 10.5, 14.0, 20.0, 30.0, 40.0, 50.0, 60.0]),
    ((0.0, 0.25, 1.125, 1.0), [-1e300, -1e100, -1e10, -1.0, 1e-3, 2.0, 1e20, 1e200, 1e300]),
]

MIXES = [
    ([(0.0, 1.0, 5.0), (0.5, 2.0, 30.0), (-1.0, 0.5, 3.0)],
     [-1e50, -1e20, -1e5, -100.0, -5.0, -0.3, 0.0, 0.7, 4.0, 60.0, 1e4, 1e30, 1e60]),
    ([(1.0, 1.0, float("inf")), (1.2, 1.5, 12.0)],
     [-1e10, -1e4, -50.0, -8.0, 1.1, 9.0, 30.0, 1e3, 1e8, 1e20]),
]

# Log-Student-t predictives of y: the t of z = ln y.
LOGTS = [
    ((0.5, 1.5, 0.75, 1.0), [1e-300, 1e-100, 1e-10, 0.01, 1.0, 1.6487212707001282, 10.0, 1e10, 1e100, 1e300]),
    ((2.0, 15.0, 30.0, 1.0), [1e-150, 1e-30, 1e-3, 1.0, 7.0, 100.0, 1e10, 1e40, 1e150]),
]

INF = float("inf")

# Deep rows: tails below 1e-300 (and a few just above, for the switch).
# Student t predictives at dof 3, 30, 1e4, 1e12 and the Gaussian (dof 2e30,
# alpha 1e30: beta = alpha/2 makes the scale 1 exactly), and mean 0.5 or 0.
DEEP_TS = [
    ((0.5, 1.5, 0.75, 1.0), [-1.7976931348623157e308, -1e300, -1e200, -3e100, 1e101, 1e250, 1.7976931348623157e308]),
    ((0.0, 15.0, 7.5, 1.0), [-1e300, -1e100, -1e30, -1e11, 1e12, 1e50, 1.7976931348623157e308]),
    ((0.0, 5000.0, 2500.0, 1.0), [-1.7976931348623157e308, -1e100, -1e4, -1500.0, -300.0, -120.0, 90.0, 400.0, 3000.0, 1e10, 1e300]),
    ((0.0, 5e11, 2.5e11, 1.0), [-1e300, -1e10, -1e7, -1e5, -3000.0, -800.0, -40.0, 38.5, 45.0, 700.0, 1e4, 1e6, 3e8, 1e200]),
    ((0.0, 1e30, 5e29, 1.0), [-1e150, -1e7, -1e3, -40.0, 38.0, 39.0, 100.0, 1e5, 1e100]),
    # Scale 0.25: (y - m)/scale overflows float64 here, the score does not.
    ((-1e308, 1.5, 0.046875, 1.0), [1e308, 1.7976931348623157e308]),
]

DEEP_MIXES = [
    ([(0.0, 1.0, 3.0), (0.5, 2.0, 30.0), (-1.0, 0.5, 1e4)],
     [-1.7976931348623157e308, -1e300, -1e150, -1e120, 1e110, 1e200, 1e300]),
    ([(1.0, 1.0, INF), (1.2, 1.5, 1e12), (0.0, 0.5, 1e4)],
     [-1e100, -1e6, -300.0, -60.0, 60.0, 500.0, 1e4, 1e8, 1e200]),
    ([(0.0, 1.0, INF), (3.0, 2.0, INF)],
     [-1e150, -1e5, -100.0, -50.0, 80.0, 1e3, 1e6, 1e100]),
    # Every member's standardized residual overflows at +-MaxFloat64.
    ([(-1e308, 0.25, 3.0), (1e308, 0.5, 1e4)],
     [-1.7976931348623157e308, 1.7976931348623157e308]),
]

DEEP_LOGTS = [
    ((0.0, 5000.0, 2500.0, 1.0), [2.2250738585072014e-308, 1e-300, 1e-100, 1e50, 1e100, 1.7976931348623157e308]),
]


def log_erfc(x):
    """ln erfc(x) for x > 0: mpmath's erfc, and beyond x = 1e6 (where it
    fails, and the terms fall by 1e-12 each) the asymptotic series
    ln erfc(x) = -x^2 - ln(x sqrt(pi)) + ln(sum_k (-1)^k (2k-1)!!/(2x^2)^k)."""
    if x < 1e6:
        return log(erfc(x))
    total, term, k = mpf(1), mpf(1), 0
    while abs(term) > mpf(10) ** (-mp.dps - 5):
        k += 1
        term *= -(2 * k - 1) / (2 * x * x)
        total += term
    return -x * x - log(x * sqrt(pi)) + log(total)


def log_f(t, nu):
    """ln of the standard t density of nu degrees of freedom at t."""
    return loggamma((nu + 1) / 2) - loggamma(nu / 2) - log(nu * pi) / 2 - (nu + 1) / 2 * log1p(t * t / nu)


def log_tail_quad(s, nu):
    L = (nu + s * s) / ((nu + 1) * s)
    c = -(nu + 1) / 2

    def g(w):
        v = L * w
        return exp(c * log1p((2 * s * v + v * v) / (nu + s * s)))

    return log_f(s, nu) + log(L * quad(g, [0, 1, 10, 100, 1000, inf]))


def log_tail(s, nu):
    """ln P(T > s) for s > 0 (an mpf), nu an mpf or inf; see the module doc."""
    if nu == inf:
        return log_erfc(s / sqrt(2)) - log(2)
    v = log_tail_quad(s, nu)
    a = nu / 2
    x = nu / (nu + s * s)
    if x < mpf(1) / 2:
        h = (a * log(x) + log1p(-x) / 2 + log(hyp2f1(a + mpf(1) / 2, 1, a + 1, x)) - log(a)
             - (loggamma(a) + loggamma(mpf(1) / 2) - loggamma(a + mpf(1) / 2)) - log(2))
        assert abs(h - v) <= mpf(10) ** -25 * abs(h), (s, nu, h, v)
    return v


def log_side(st, nu, lower):
    """ln P(T <= st) (lower) or ln P(T > st) of the standard t."""
    if lower:
        st = -st
    if st > 0:
        return log_tail(st, nu)
    if st == 0:
        return log(mpf(1) / 2)
    return log(1 - exp(log_tail(-st, nu)))


def root_log(lq):
    """The u < 0 with ln Phi(u) = lq, by Newton's method on ln Phi (concave,
    so it converges monotonically) from the asymptotic start."""
    t = sqrt(-2 * lq)
    z = -t + log(t) / t
    for _ in range(200):
        lphi = log_erfc(-z / sqrt(2)) - log(2)
        step = (lphi - lq) / exp(-z * z / 2 - log(2 * pi) / 2 - lphi)
        z -= step
        if abs(step) <= mpf(10) ** (-mp.dps + 3) * abs(z):
            return z
    raise ValueError("root_log did not converge at %s" % lq)


def deep_score(members, y, logy):
    """u for the mixture of (mean, scale, nu) members at y (of z = ln y if
    logy), from the log of its smaller tail; None where that tail is above
    1e-290 (the shallow rows cover it) or where the members are mpfs."""
    z = log(mpf(y)) if logy else mpf(y)
    sts = [((z - mpf(m)) / mpf(sc), nu) for m, sc, nu in members]
    lower = sum(exp(log_side(st, nu, True)) for st, nu in sts) <= sum(exp(log_side(st, nu, False)) for st, nu in sts)
    lq = log(sum(exp(log_side(st, nu, lower)) for st, nu in sts) / len(sts))
    if lq > log(mpf(10) ** -290):
        return None
    u = root_log(lq)
    return u if lower else -u


def deep(members, y, logy):
    # ln f(s) takes loggamma((nu+1)/2) - loggamma(nu/2), which cancels
    # about log10(nu) digits: so many more are carried.
    extra = max([int(mp.log10(nu)) for _, _, nu in members if 1 < nu < INF] + [0])
    values = []
    for dps in (40 + extra, 60 + extra):
        with mp.workdps(dps):
            ms = [(m, sc, mpf(nu) if nu != INF else inf) for m, sc, nu in members]
            values.append(deep_score(ms, y, logy))
    a, b = values
    if b is None:
        return None
    assert abs(a - b) <= mpf(10) ** -25 * abs(b), (members, y, a, b)
    return b


def score(lower, upper):
    """Phi^-1(F) from the lower tail F and the upper tail 1 - F; None where
    the smaller is below 1e-300."""
    q = min(lower, upper)
    if q < mpf(10) ** -300:
        return None
    if q == mpf(1) / 2:
        return mpf(0)
    root = lower_tail_root(q)
    return root if lower <= upper else -root


def t_tails(s, nu):
    """(F(s), 1 - F(s)) of the standard t of nu degrees of freedom."""
    if s < 0:
        lo = small_tail(-s, nu)
        return lo, 1 - lo
    up = small_tail(s, nu)
    return 1 - up, up


def t_scale(alpha, beta, nu):
    return mp.sqrt(mpf(beta) * (mpf(nu) + 1) / (mpf(nu) * mpf(alpha)))


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    rows = []
    for kind, cases in (("t", TS), ("logt", LOGTS)):
        for (m, a, b, n), ys in cases:
            params = "%r/%r/%r/%r" % (m, a, b, n)
            sc = t_scale(a, b, n)
            for y in ys:
                z = mpf(y) if kind == "t" else log(mpf(y))
                u = score(*t_tails((z - mpf(m)) / sc, 2 * a))
                if u is not None:
                    rows.append("%s,%s,%r,%s" % (kind, params, y, fmt(u)))
    for cs, ys in MIXES:
        params = " ".join("%r/%r/%r" % c for c in cs)
        for y in ys:
            lo, up = mpf(0), mpf(0)
            for m, s, nu in cs:
                lk, uk = t_tails((mpf(y) - mpf(m)) / mpf(s), nu)
                lo, up = lo + lk, up + uk
            u = score(lo / len(cs), up / len(cs))
            if u is not None:
                rows.append("mix,%s,%r,%s" % (params, y, fmt(u)))
    for kind, cases in (("t", DEEP_TS), ("logt", DEEP_LOGTS)):
        for (m, a, b, n), ys in cases:
            params = "%r/%r/%r/%r" % (m, a, b, n)
            sc = t_scale(a, b, n)
            for y in ys:
                u = deep([(m, sc, 2 * a)], y, kind == "logt")
                if u is not None:
                    rows.append("%s,%s,%r,%s" % (kind, params, y, fmt(u)))
    for cs, ys in DEEP_MIXES:
        params = " ".join("%r/%r/%r" % c for c in cs)
        for y in ys:
            u = deep(cs, y, False)
            if u is not None:
                rows.append("mix,%s,%r,%s" % (params, y, fmt(u)))
    with open(os.path.join(here, "normalscore_ref.csv"), "w") as out:
        out.write("# Generated by testdata/gen_normalscore.py (mpmath, mp.dps = 60); do not edit.\n")
        out.write("kind,params,y,u\n")
        for r in rows:
            out.write(r + "\n")


if __name__ == "__main__":
    main()
