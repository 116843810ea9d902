#!/usr/bin/env python3
"""Reference values for mixture_test.go, computed with mpmath.

Run from the repository root (needs python3 and mpmath; on Debian the
python3-mpmath package):

    python3 testdata/gen_mixture.py

It writes testdata/mixture_ref.csv. The mixtures are fixed lists and nothing
is random, so rerunning reproduces the file byte for byte. Everything is
evaluated at mp.dps = 50; inputs are IEEE doubles printed with Python's repr
(the shortest string that round-trips), so the Go test parses exactly the
inputs used here, and outputs are printed with 20 significant digits.

A mixture is K location-scale Student-t members (mean, scale, dof), dof =
inf the normal, with the uniform weights 1/K. The member tails are the
Student-t tails of gen_studentt.py (mpmath's betainc, each of the tail and
the central probability evaluated where it is small), so this file and
studentt_ref.csv share one definition, except above dof 1e7, where the tail
is mpmath's quad of the density (quad_tail); a member tail below 1e-900
(bounded by gen_studentt.tail_bound; mpmath's betainc cannot resolve tails
below about 1e-1000) is taken as 0, which no row here can see: every
quantile is decided by tails above 1e-320 (at a root in the gap between
far-apart members, by the balance of two such tails) and every cdf row is
at least 1e-300.

Rows (columns kind,id,arg,value; '#' lines are comments):

  mixture   id,K,components: the members of mixture id, "mean/scale/dof"
            separated by spaces.
  cdf       arg = y, value = F(y) = (1/K) sum P(T_k <= (y - mean_k)/scale_k).
  logpdf    arg = y, value = ln((1/K) sum f_k(y)), f_k the member densities
            in y; evaluated directly in mpmath (no log-sum-exp needed at 50
            digits and mpmath's unbounded exponent range).
  quantile  arg = p, value = the y with F(y) = p, or for p > 1/2 with the
            upper tail Q(y) = (1/K) sum P(T_k > (y - mean_k)/scale_k) = 1 - p
            (so that 1 - 1e-10 keeps its tail), solved for as a difference
            of tails (see quantile). The root is bracketed by bisection in
            the order of the doubles (64 halvings) and refined by the
            Illinois method to 1e-30 of the bracket (mpmath's findroot
            divides by zero once its iterates coincide), then checked to
            shrink the residual to 1e-25 of its values at the bracket.

The cdf and logpdf points of each mixture are its quantiles (rounded to
doubles) and the extra points listed with it (means, points between
members); the logpdf points also far tails, from 1e5 to 1e300 scales away
from every mean.
"""

import os
import struct
import sys

from mpmath import exp, inf, log, loggamma, mp, mpf, pi, quad

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_studentt import fmt, probs, tail_bound  # noqa: E402

mp.dps = 50
INF = float("inf")

PS = [1e-10, 1e-6, 0.001, 0.025, 0.1, 0.5, 0.9, 0.975, 0.999, 1 - 1e-6, 1 - 1e-10]

# (name, members, extra cdf/logpdf points, logpdf-only points)
MIXTURES = [
    ("K1 dof 0.5", [(0.0, 1.0, 0.5)], [3.0], [1e6, 1e300]),
    ("K1 dof 3", [(1.5, 2.0, 3.0)], [-1.0], [2e6 + 1.5, -1e300]),
    ("K1 dof 30", [(-2.0, 0.5, 30.0)], [0.0], [5e5]),
    ("K1 dof 1e8", [(0.0, 1.0, 1e8)], [1.0], [1e6]),
    ("K1 normal", [(3.0, 0.25, INF)], [2.0], [2.5e5 + 3.0]),
    ("typical 5a", [(-0.12, 1.0, 20.0), (0.05, 1.3, 60.0), (0.15, 1.9, 200.0),
                    (-0.02, 1.5, 700.0), (0.1, 1.2, 2000.0)], [0.0, 0.3], [1.9e6]),
    ("typical 5b", [(10.02, 0.31, 25.0), (10.11, 0.33, 41.0), (9.95, 0.29, 88.0),
                    (10.0, 0.35, 310.0), (10.07, 0.3, 1500.0)], [10.0], [-3e5]),
    ("typical 5 normal", [(0.01, 1.0, INF), (-0.1, 1.1, INF), (0.12, 0.95, INF),
                          (0.0, 1.6, INF), (0.05, 1.25, INF)], [0.05], [1.6e6]),
    ("typical 16", [(0.3 * ((7 * i) % 16 / 15.0 - 0.5), 1.0 + ((5 * i) % 16) / 15.0,
                     20.0 * 100.0 ** (((3 * i) % 16) / 15.0)) for i in range(16)], [0.0], [-2e6]),
    ("heavy", [(0.0, 1.0, 0.5), (0.5, 2.0, 1.0), (-1.0, 0.5, 2.0), (0.2, 1.0, 30.0)], [0.1], [1e300]),
    ("heavy and normal", [(0.0, 1.0, 0.5), (0.0, 1.0, INF)], [0.0], [-1e6]),
    ("cauchy pair", [(-3.0, 1.0, 1.0), (3.0, 1.0, 1.0)], [0.0], [1e300]),
    ("far apart t", [(0.0, 1.0, 5.0), (1e6, 1.0, 3.0)], [5e5, 1e6], [-1e6]),
    ("far apart t, three", [(-1e6, 2.0, 4.0), (0.0, 1.0, 2.5), (1e6, 0.5, 6.0)], [-5e5, 5e5], [3e6]),
    ("far apart normal and t", [(0.0, 1.0, INF), (1e6, 1.0, 4.0)], [1.0, 1e6], [-1e6]),
    ("scales 1e6 apart", [(0.0, 1e-3, 10.0), (0.5, 1e3, 10.0)], [0.0, 0.5], [1e9]),
    ("scales and means", [(-1e3, 1e-3, INF), (0.0, 1.0, 2.5), (1e3, 1e3, 50.0)], [-1e3, 1e3], [1e9]),
    ("dof extremes", [(0.0, 1.0, 0.5), (0.3, 1.0, 1e8), (-0.2, 1.0, INF), (0.1, 1.5, 20.0)], [0.0], [1e6]),
    ("large dof and normal", [(0.0, 1.0, 1e8), (0.02, 1.0, INF), (-0.01, 1.1, 1e6)], [0.0], [1e6]),
    ("narrow among wide", [(0.0, 10.0, 5.0), (3.0, 0.01, 50.0), (-2.0, 5.0, 100.0)], [3.0], [1e7]),
    ("skewed", [(0.0, 1.0, 4.0), (2.0, 0.3, 40.0), (4.0, 0.3, 40.0), (6.0, 0.3, 40.0)], [2.0], [1e6]),
    ("offset means", [(1e6, 1.0, 30.0), (1e6 + 0.5, 2.0, 300.0), (1e6 - 0.3, 1.5, 3000.0)], [1e6], [2e6]),
    ("negative offset", [(-5e3, 2.0, 15.0), (-5e3 + 1.0, 1.0, 150.0)], [-5e3], [-1e7]),
    ("tiny scales", [(1e-9, 1e-12, 25.0), (2e-9, 2e-12, 250.0)], [1.5e-9], [1.0]),
    ("huge scales", [(0.0, 1e200, 4.0), (1e200, 2e200, 40.0)], [5e199], [1e300]),
    ("half-integer dof", [(0.0, 1.0, 2.5), (0.0, 1.0, 7.5), (0.0, 1.0, 29.5)], [0.5], [1e5]),
    ("sixteen mixed", [(((-1) ** i) * 10.0 ** ((i % 7) - 3), 10.0 ** ((i % 5) - 2),
                        [0.5, 2.0, 30.0, 1e3, INF][i % 5]) for i in range(16)], [0.0], [1e4]),
    ("two members, one a near copy", [(0.0, 1.0, 20.0), (1e-12, 1.0, 20.0)], [0.0], [3.0]),
    ("normal pair", [(-1.0, 1.0, INF), (1.0, 1.0, INF)], [0.0], [30.0]),
    ("t with dof 1e6", [(0.0, 1.0, 1e6), (0.1, 1.2, 1e3)], [0.0], [1e3]),
]


def quad_tail(s, nu):
    """P(T > s), s >= 0, by mpmath's quad of the density: for dof above
    1e7, where betainc(nu/2, 1/2, x) with x within 1e-6 of 1 needs millions
    of hypergeometric terms. (It agrees with probs to 1e-44 at dof 1e6.)"""
    n = mpf(nu)
    c = loggamma((n + 1) / 2) - loggamma(n / 2) - log(n * pi) / 2
    return quad(lambda t: exp(c - (n + 1) / 2 * log(1 + t * t / n)), [s, s + 1, s + 10, inf])


def small_tail(a, nu):
    """P(T > a) for a >= 0 (an mpf), with the member tails of
    gen_studentt.probs (quad_tail above dof 1e7); a tail bounded below
    1e-900 is 0."""
    if a == 0:
        return mpf(1) / 2
    if tail_bound(a, nu) < mpf(10) ** -900:
        return mpf(0)
    if 1e7 < nu < INF:
        return quad_tail(a, nu)
    t, _ = probs(a, nu)
    return t


def standardized(y, c):
    return (mpf(y) - mpf(c[0])) / mpf(c[1])


def split(cs, y):
    """(small, n): small = the sum of the members' lower tails P(T <= s)
    where s < 0 minus their upper tails P(T > s) where s >= 0, n = the
    number of the latter; K F(y) = small + n and K Q(y) = K - n - small,
    with every tail kept however small against the integers."""
    small, n = mpf(0), 0
    for c in cs:
        st = standardized(y, c)
        if st < 0:
            small += small_tail(-st, c[2])
        else:
            small -= small_tail(st, c[2])
            n += 1
    return small, n


def lower(cs, y):
    """F(y)."""
    small, n = split(cs, y)
    return (small + n) / len(cs)


def log_density(cs, y):
    total = mpf(0)
    for m, scale, nu in cs:
        s = standardized(y, (m, scale, nu))
        if nu == INF:
            lf = -s * s / 2 - log(2 * pi) / 2
        else:
            n = mpf(nu)
            lf = loggamma((n + 1) / 2) - loggamma(n / 2) - log(n * pi) / 2 - (n + 1) / 2 * log(1 + s * s / n)
        total += exp(lf) / mpf(scale)
    return log(total / len(cs))


def order(x):
    """The double x as an integer that preserves the order of doubles."""
    b = struct.unpack("<q", struct.pack("<d", x))[0]
    return b if b >= 0 else -(b & 0x7FFFFFFFFFFFFFFF)


def from_order(i):
    if i < 0:
        i = (-i) | -0x8000000000000000
    return struct.unpack("<d", struct.pack("<q", i))[0]


def quantile(cs, p):
    """The y solving F(y) = p (p <= 1/2) or Q(y) = 1 - p, as an mpf.

    The equation is taken as a residual increasing in y, K F(y) - K p =
    small + n - K p or K (1-p) - K Q(y) = small + n - K + K (1-p) (split),
    which keeps the difference of two tiny tails when the root lies in the
    gap between far-apart members, where F - 1/2 is far below 1e-50."""
    k = len(cs)
    if p <= 0.5:
        offset = -k * mpf(p)
    else:
        offset = k * (1 - mpf(p)) - k  # 1 - p is exact for a double above 1/2

    def g(y):
        small, n = split(cs, y)
        return (n + offset) + small  # the integers first: exact, then the tails

    lo, hi = order(-1.7e308), order(1.7e308)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if g(from_order(mid)) < 0:
            lo = mid
        else:
            hi = mid
    a, b = mpf(from_order(lo)), mpf(from_order(hi))
    ga, gb = g(a), g(b)
    y = illinois(g, a, b)
    assert a <= y <= b and abs(g(y)) <= mpf(10) ** -25 * max(abs(ga), abs(gb)), (cs, p, g(y))
    return y


def illinois(g, a, b):
    """The root of the increasing g in [a, b] (g(a) < 0 <= g(b)) by the
    Illinois variant of regula falsi, to 1e-30 of the bracket's width (two
    neighbouring doubles, so 1e-46 relative: above the 50-digit
    resolution), or until 500 steps."""
    ga, gb = g(a), g(b)
    width = b - a
    side = 0
    for _ in range(500):
        if b - a <= mpf(10) ** -30 * width or ga == gb:
            break
        c = b - gb * (b - a) / (gb - ga)
        if not a < c < b:
            c = (a + b) / 2
        gc = g(c)
        if gc == 0:
            return c
        if gc < 0:
            a, ga = c, gc
            if side == -1:
                gb /= 2
            side = -1
        else:
            b, gb = c, gc
            if side == 1:
                ga /= 2
            side = 1
    return a if abs(ga) < abs(gb) else b


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    rows = []
    for ident, (name, cs, extra, far) in enumerate(MIXTURES):
        print("mixture %d: %s" % (ident, name), file=sys.stderr, flush=True)
        members = " ".join("%r/%r/%r" % c for c in cs)
        rows.append("# %s" % name)
        rows.append("mixture,%d,%d,%s" % (ident, len(cs), members))
        points = []
        for p in PS:
            y = quantile(cs, p)
            rows.append("quantile,%d,%r,%s" % (ident, p, fmt(y)))
            points.append(float(y))
        for y in points + extra:
            f = lower(cs, y)
            if f >= mpf(10) ** -300:
                rows.append("cdf,%d,%r,%s" % (ident, y, fmt(f)))
        for y in points + extra + far:
            rows.append("logpdf,%d,%r,%s" % (ident, y, fmt(log_density(cs, y))))
    with open(os.path.join(here, "mixture_ref.csv"), "w") as out:
        out.write("# Generated by testdata/gen_mixture.py (mpmath, mp.dps = 50); do not edit.\n")
        out.write("kind,id,arg,value\n")
        for r in rows:
            out.write(r + "\n")


if __name__ == "__main__":
    main()
