#!/usr/bin/env python3
"""Reference values for studentt_test.go, computed with mpmath.

Run from the repository root (needs python3 and mpmath; on Debian the
python3-mpmath package):

    python3 testdata/gen_studentt.py

It writes testdata/studentt_ref.csv and testdata/incbeta_ref.csv. The grids
are fixed and nothing is random, so rerunning reproduces both files byte for
byte. Everything is evaluated at mp.dps = 60; inputs are IEEE doubles printed
with Python's repr (the shortest string that round-trips), so the Go test
parses exactly the inputs used here, and outputs are printed with 20
significant digits.

studentt_ref.csv, columns kind,dof,arg,value ('#' lines are comments):

  quantile  arg = p, value = the t with P(T <= t) = p (exactly 0 at p = 1/2,
            +-inf where |t| would exceed the largest double).
  cdf       arg = t, value = P(T <= t). The t values are each finite
            quantile row's value rounded to a double (so both tails are
            covered at the same probabilities) plus a fixed list of t from
            -1e300 to 1e300; rows whose CDF is below 1e-300 are left out
            (they would be subnormal or zero in float64), and where an upper
            bound on the tail (tail_bound) is below 1e-70 the CDF of t > 0
            is written as 1 (exact to the working precision; mpmath's
            betainc cannot resolve such tails of a large-dof t).

  dof runs over 0.1 0.5 1 2 2.5 3 5 10 30 100 1e3 1e4 1e5 1e6 and inf (the
  standard normal). For finite dof, with x = dof/(dof+t^2),
  y = t^2/(dof+t^2) and a = dof/2,
      P(T > |t|)  = I_x(a, 1/2)/2,   P(|T| < |t|) = I_y(1/2, a),
  each evaluated with mpmath.betainc, the tail where x < (a+1)/(a+5/2) and
  the central probability elsewhere (the other one is never below 0.007
  there, so 60 digits leave it exact to far beyond double precision). The
  quantile is the root in u = ln|t| of ln P(T > e^u) = ln q (q < 1/4) or of
  ln P(|T| < e^u) = ln(1-2q) (q >= 1/4), q = min(p, 1-p): a bracket is
  grown outwards from a normal-based guess, within the bounds
  (1-2q)/(2 f(0)) <= |t| <= t_A (t_A the quantile of the power-law tail that
  dominates the density; sqrt(-2 ln q) for the normal), bisected to width
  1e-6, and finished by mpmath's secant solver; every root is checked to lie
  in the bracket and to solve its equation to 1e-40.

incbeta_ref.csv, columns a,b,x,F: the continued fraction F of DLMF 8.17.22,
  I_x(a,b) = x^a (1-x)^b / (a B(a,b) F), at fixed fractions of the bound
  below which studentt.go uses it: x < 1 - 1/(2a+5) for b = 1/2 and a < 15,
  x < (a+1)/(a+b+2) otherwise, and for large a with b = 1/2 only at
  x <= e^-2, the only place studentt.go uses it there.
"""

import os

from mpmath import mp, mpf, betainc, beta, erf, erfc, exp, log, loggamma, findroot, inf, pi, sqrt

mp.dps = 60
HALF = mpf(1) / 2

DOFS = [0.1, 0.5, 1.0, 2.0, 2.5, 3.0, 5.0, 10.0, 30.0, 100.0, 1e3, 1e4, 1e5, 1e6, float("inf")]
PS = [1e-12, 1e-9, 1e-6, 1e-3, 0.01, 0.025, 0.1, 0.3, 0.5, 0.7, 0.9, 0.975, 0.99, 1 - 1e-6, 1 - 1e-12]
# Beyond the required range: deep lower tails and p next to 1/2 (tiny quantiles).
PS_EXTRA = [1e-300, 1e-100, 1e-30, 1e-20, 0.5 - 2.0**-54, 0.5 + 2.0**-53, 0.5 - 1e-8, 0.5 + 1e-8]
TS = [-1e300, -1e100, -1e10, -1e4, -100.0, -30.0, -10.0, -5.0, -3.0, -2.0, -1.0, -0.5, -0.1,
      -1e-5, -1e-200, 1e-200, 1e-5, 0.1, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 100.0, 1e4, 1e10,
      1e100, 1e300]


def probs(s, nu):
    """(P(T > s), P(|T| < s)) for s >= 0, each computed directly where small."""
    s = mpf(s)
    if nu == inf:
        z = s / sqrt(2)
        return erfc(z) / 2, erf(z)
    nu = mpf(nu)
    a = nu / 2
    x = nu / (nu + s * s)
    y = s * s / (nu + s * s)
    if x < (a + 1) / (a + mpf(5) / 2):
        tail = betainc(a, HALF, 0, x, regularized=True) / 2
        return tail, 1 - 2 * tail
    central = betainc(HALF, a, 0, y, regularized=True)
    return (1 - central) / 2, central


def tail_bound(s, nu):
    """An upper bound on P(T > s), s > 0: bounding (1-v)^(-1/2) by (1-x)^(-1/2)
    in the beta integral gives I_x(a, 1/2) <= x^a / (a B(a, 1/2) sqrt(1-x)).
    mpmath's betainc fails to converge far out in the tail of a large-dof t
    (below about 1e-1000); the bound tells those points apart beforehand."""
    s = mpf(s)
    if nu == inf:
        return exp(-s * s / 2) / 2
    nu = mpf(nu)
    a = nu / 2
    x = nu / (nu + s * s)
    y = s * s / (nu + s * s)
    return x**a / (2 * a * beta(a, HALF) * sqrt(y))


def cdf(t, nu):
    if t > 0 and tail_bound(t, nu) < mpf(10) ** -(mp.dps + 10):
        return mpf(1)  # exact to the working precision
    tail, _ = probs(abs(mpf(t)), nu)
    return tail if t < 0 else 1 - tail


def log_f0(nu):
    if nu == inf:
        return -log(2 * pi) / 2
    nu = mpf(nu)
    return loggamma((nu + 1) / 2) - loggamma(nu / 2) - log(nu * pi) / 2


def quantile(p, nu):
    p = mpf(p)
    if p == HALF:
        return mpf(0)
    q = min(p, 1 - p)
    central = q >= mpf(1) / 4
    lf0 = log_f0(nu)
    lo = log((1 - 2 * q) / 2) - lf0  # P(|T| < s) <= 2 f(0) s
    if nu == inf:
        hi = log(sqrt(-2 * log(q)))  # P(Z > s) <= exp(-s^2/2)/2
    else:
        n = mpf(nu)
        hi = (lf0 + (n - 1) / 2 * log(n) - log(q)) / n  # power-law tail bound
    if hi > 710:  # |t| > e^710 > largest double
        return inf if p > HALF else -inf

    def g(u):  # decreasing in u
        if not central and tail_bound(exp(u), nu) < q * mpf(10) ** -50:
            return log(tail_bound(exp(u), nu)) - log(q)  # far right of the root
        tail, cen = probs(exp(u), nu)
        if central:
            return log(1 - 2 * q) - log(cen)
        return log(tail) - log(q)

    # Start from the normal-based guess t^2 = nu expm1(z^2/(nu - 1/2)) (z the
    # normal quantile) and step outwards in doubling steps until the sign
    # changes, so that g is only evaluated near the root: far out in the tail
    # of a large-dof t, betainc underflows to values mpmath cannot resolve.
    with mp.workdps(mp.dps - int(mp.log10(q)) + 10):  # so that 2q - 1 keeps q's digits
        z = -sqrt(2) * mp.erfinv(2 * q - 1)
    if nu == inf:
        u = log(z)
    elif nu > 1:
        u = log(sqrt(nu * mp.expm1(z * z / (nu - HALF))))
    else:
        u = lo if central else hi
    u = min(max(u, lo), hi)
    step = mpf(1) / 100
    if g(u) > 0:
        a, b = u, min(u + step, hi)
        while b < hi and g(b) > 0:
            a, step = b, 2 * step
            b = min(b + step, hi)
    else:
        a, b = max(u - step, lo), u
        while a > lo and g(a) < 0:
            b, step = a, 2 * step
            a = max(a - step, lo)
    while b - a > mpf(10) ** -6:
        mid = (a + b) / 2
        if g(mid) > 0:
            a = mid
        else:
            b = mid
    u = findroot(g, (a + b) / 2)  # secant from the narrowed bracket
    assert a - mpf(10) ** -6 < u < b + mpf(10) ** -6 and abs(g(u)) < mpf(10) ** -40, (p, nu)
    t = exp(u)
    return t if p > HALF else -t


def fmt(v):
    if v == inf:
        return "inf"
    if v == -inf:
        return "-inf"
    return mp.nstr(v, 20, strip_zeros=False, min_fixed=-4, max_fixed=8)


def student_rows():
    rows = []
    for nu in DOFS:
        ts = []
        for p in PS + PS_EXTRA:
            t = quantile(p, nu)
            rows.append(("quantile", nu, p, fmt(t)))
            tf = float(t)
            if t not in (inf, -inf) and tf != 0 and abs(tf) <= 1.7e308:
                ts.append(tf)
        for t in ts + TS:
            if t < 0 and tail_bound(-t, nu) < mpf(10) ** -300:
                continue
            c = cdf(t, nu)
            if c >= mpf(10) ** -300:
                rows.append(("cdf", nu, t, fmt(c)))
    return rows


def cf_rows():
    rows = []
    near = [1e-6, 0.01, 0.3, 0.7, 0.95, 0.999]  # fractions of the bound
    far = [1e-6, 0.01, 0.1, 0.13]  # x <= e^-2: where studentt.go uses it for large a
    params = [(0.05, 0.5, near), (0.5, 0.05, near), (0.5, 0.5, near), (1.0, 3.0, near),
              (2.5, 0.5, near), (0.5, 7.5, near), (10.0, 10.0, near), (14.5, 0.5, near),
              (50.0, 0.5, far), (0.5, 50.0, near), (500000.0, 0.5, far), (0.5, 500000.0, near)]
    for a, b, fracs in params:
        # studentt.go evaluates I_x(a, 1/2) directly up to y (a + 5/2) = 1/2
        # when a < 15, beyond the textbook bound (a+1)/(a+b+2).
        bound = 1 - 0.5 / (a + 2.5) if b == 0.5 and a < 15 else (a + 1) / (a + b + 2)
        for frac in fracs:
            x = float(mpf(bound) * frac)
            if x <= 0:
                continue
            ma, mb, mx = mpf(a), mpf(b), mpf(x)
            i = betainc(ma, mb, 0, mx, regularized=True)
            f = mx**ma * (1 - mx) ** mb / (ma * beta(ma, mb) * i)
            rows.append((a, b, x, fmt(f)))
    return rows


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "studentt_ref.csv"), "w") as out:
        out.write("# Generated by testdata/gen_studentt.py (mpmath, mp.dps = 60); do not edit.\n")
        out.write("kind,dof,arg,value\n")
        for kind, nu, arg, val in student_rows():
            out.write("%s,%r,%r,%s\n" % (kind, nu, arg, val))
    with open(os.path.join(here, "incbeta_ref.csv"), "w") as out:
        out.write("# Generated by testdata/gen_studentt.py (mpmath, mp.dps = 60); do not edit.\n")
        out.write("a,b,x,F\n")
        for a, b, x, f in cf_rows():
            out.write("%r,%r,%r,%s\n" % (a, b, x, f))


if __name__ == "__main__":
    main()
