#!/usr/bin/env python3
"""Reference values of the CRPS for crps_test.go, by numerical integration in mpmath.

Run from the repository root (needs python3 and mpmath; on Debian the
python3-mpmath package):

    python3 testdata/gen_crps.py [--cache FILE]

With --cache, every value computed is also kept in FILE (JSON), and a rerun
takes the values it finds there instead of integrating again.

It writes testdata/crps_ref.csv. The distributions and outcomes are fixed
lists and nothing is random, so rerunning reproduces the file byte for byte.
Everything is evaluated at mp.dps = 20; inputs are IEEE doubles printed with
Python's repr (the shortest string that round-trips), so the Go test parses
exactly the inputs used here, and outputs are printed with 20 significant
digits. It takes a few minutes.

A distribution is the uniform mixture of K location-scale Student-t members
(mean, scale, dof), dof = inf the normal; K = 1 is a single Student t. Its
CRPS at y is the definition itself,

    CRPS(F, y) = int (F(x) - 1{x >= y})^2 dx
               = int_0^inf P(X > y + t)^2 dt + int_0^inf P(X < y - t)^2 dt,

each side integrated by mpmath's quad after the substitution t = e^u (u over
the whole line, which turns the tails' powers t^(-2 dof) into exponentials),
split at the logarithms of the distances from y of each member's mean and of
the points 2, 4, 8, ... scales either side of it. P(X beyond y +- t) is the mean of
the member tails of gen_studentt.py (mpmath's betainc, the tail and the
central probability each evaluated where it is small). No closed form enters
the values, which are tanh-sinh quadratures; the script fails unless each
agrees to 1e-13 relative with a second one: Gauss-Legendre quadrature for
the mixtures and for dof 1 and inf, and for a single Student t of any other
dof the closed form of its CRPS (Jordan, Kruger & Lerch 2019) evaluated in
mpmath.

Rows (columns kind,id,arg,value; '#' lines are comments):

  dist     id,K,members: the members of distribution id, "mean/scale/dof"
           separated by spaces.
  logdist  the same for the distribution of Y = e^Z, Z the mixture: a
           model with the log target transform (Gaussian members only: with
           a Student-t member P(Y > x) falls like (ln x)^-dof, and the CRPS
           is infinite).
  crps     arg = y, value = the CRPS at y.
"""

import json
import os
import sys

import mpmath

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gen_studentt import fmt, probs  # noqa: E402

from mpmath import beta, exp, gamma, inf, log, mp, mpf, pi, quad, sqrt  # noqa: E402

mp.dps = 20
INF = float("inf")
HALF = mpf(1) / 2

T_YS = [0.0, -1.7, 4.0, 300.0, -1e5]

# (name, members, outcomes y)
DISTS = [(f"t dof {nu!r}", [(0.0, 1.0, nu)], T_YS) for nu in [
    0.55, 0.6, 0.75, 1.0 - 3e-5, 1.0, 1.0 + 1e-7, 1.0 + 2e-4, 1.5, 2.2, 3.0, 5.0, 10.0, 30.0,
    100.0, 1e4, INF]] + [
    ("t shifted", [(1.5, 2.0, 3.0)], [1.5, -1.0, 9.0]),
    ("t narrow", [(-2.0, 0.001, 30.0)], [-2.0, -1.999, 5.0]),
    ("typical 5", [(-0.12, 1.0, 20.0), (0.05, 1.3, 60.0), (0.15, 1.9, 200.0),
                   (-0.02, 1.5, 700.0), (0.1, 1.2, 2000.0)], [0.0, 1.1, -4.0, 40.0]),
    ("typical 5 shifted", [(10.02, 0.31, 25.0), (10.11, 0.33, 41.0), (9.95, 0.29, 88.0),
                           (10.0, 0.35, 310.0), (10.07, 0.3, 1500.0)], [10.0, 9.0, 1e3]),
    ("normal 5", [(0.01, 1.0, INF), (-0.1, 1.1, INF), (0.12, 0.95, INF),
                  (0.0, 1.6, INF), (0.05, 1.25, INF)], [0.05, 2.5, -30.0]),
    ("small dof 5", [(0.2, 1.0, 2.3), (-0.1, 0.8, 2.9), (0.0, 1.1, 3.4),
                     (0.3, 0.9, 2.05), (-0.2, 1.2, 4.1)], [0.0, -3.0, 50.0]),
    ("apart", [(-10.0, 1.0, 5.0), (10.0, 0.5, 8.0)], [0.0, -10.0, 10.5, 100.0]),
    ("scales apart", [(0.0, 0.001, 4.0), (0.0, 10.0, 4.0)], [0.0, 0.002, -15.0]),
    ("heavy", [(0.0, 1.0, 0.75), (0.5, 2.0, 1.5), (-1.0, 0.5, 3.0)], [0.0, 7.0, -200.0]),
    ("heavy and normal", [(0.0, 1.0, 1.2), (3.0, 0.5, INF)], [1.5, 3.0, -20.0]),
    ("log normal", [(0.0, 1.0, INF)], [1.0, 0.2, 5.0, 50.0, -2.0], "log"),
    ("log normal wide", [(1.5, 2.5, INF)], [1.0, 100.0, 1e4, -1.0], "log"),
    ("log normal 3", [(0.0, 0.3, INF), (0.5, 0.4, INF), (-0.2, 0.35, INF)], [1.0, 3.0, 0.1, -0.5], "log"),
    ("twenty", [(0.05 * ((7 * i) % 20) - 0.5, 0.5 + 0.05 * ((3 * i) % 20), 3.0 + 10.0 * ((11 * i) % 20))
                for i in range(20)], [0.0, 2.0]),
]


def beyond(members, r, t, y=None, sign=1):
    """The mixture's probability of lying beyond y + t on one side, where
    r[k] is how far y lies beyond member k's mean towards that side. With
    y given, the mixture is that of ln Y (a log model): the probability
    that Y lies beyond y + sign*t."""
    total = mpf(0)
    for (mean, scale, nu), rk in zip(members, r):
        if y is None:
            u = (rk + t) / mpf(scale)
        else:
            x = mpf(y) + sign * t
            if x <= 0:  # Y > 0 always
                total += 1 if sign > 0 else 0
                continue
            u = sign * (log(x) - mean) / mpf(scale)
        if nu == INF and abs(u) > 1e6:
            tail = mpf(0)  # below e^-(5e11), and erfc's argument would overflow
        else:
            tail, _ = probs(abs(u), nu)
        total += tail if u >= 0 else 1 - tail
    return total / len(members)


def side(members, y, sign, method, logy=False):
    r = [sign * (mpf(y) - mpf(mean)) for mean, _, _ in members]
    cuts = set()
    for (mean, scale, _), rk in zip(members, r):
        if logy:
            # For Y = e^Z: the points e^(mean + j*scale), j = -8..8.
            for j in range(-8, 9):
                t = sign * (exp(mean + j * mpf(scale)) - mpf(y))
                if t > 0:
                    cuts.add(log(t))
            cuts.add(log(mpf(scale) * exp(mean)))
            continue
        # The member's mean, and points 2, 4, 8, ... scales either side of
        # it, out to twice y's distance: a geometric mesh, on which the
        # quadratures follow the member's transition however far from y it
        # lies.
        far = max(4, 2 * abs(rk) / mpf(scale))
        for d in [0] + [2**j for j in range(1, int(mpmath.log(far, 2)) + 2)]:
            for t in (-rk - d * mpf(scale), -rk + d * mpf(scale)):
                if t > 0:
                    cuts.add(log(t))
        cuts.add(log(mpf(scale)))
    # Beyond the last cut the integrand falls like exp(-(2 dof - 1) u) for
    # the smallest dof, below the first like exp(u): both are cut into
    # intervals of 2 (over a longer one Gauss-Legendre quadrature stops
    # converging on the slow fall of a heavy tail), up to where it has
    # fallen by e^-50 (at most 60 intervals: e^-60 for dof >= 0.75).
    # Gauss-Legendre, whose maps of infinite intervals go wrong here,
    # stops there: the infinite intervals beyond hold less than 1e-21 of
    # the side.
    nu = min(m[2] for m in members)
    steps = min(60, int(50 / (2 * (2 * nu - 1))) + 1)
    first, last = min(cuts), max(cuts)
    points = ([first - 2 * j for j in range(25, 0, -1)] + sorted(cuts) +
              [last + 2 * j for j in range(1, steps + 1)])
    if method == "tanh-sinh":
        points = [-inf] + points + [inf]
    if logy:
        f = lambda u: beyond(members, r, exp(u), y, sign) ** 2 * exp(u)  # noqa: E731
    else:
        f = lambda u: beyond(members, r, exp(u)) ** 2 * exp(u)  # noqa: E731
    return quad(f, points, method=method)


def crps(members, y, logy=False):
    """The CRPS at y by tanh-sinh quadrature, checked against Gauss-Legendre
    quadrature (mixtures, log models, and dof 1 and inf) or against the
    closed form (a single Student t of any other dof, which includes the
    heavy tails of dof near 1/2, too slow for Gauss-Legendre to follow to
    e^-60)."""
    v = side(members, y, 1, "tanh-sinh", logy) + side(members, y, -1, "tanh-sinh", logy)
    mean, scale, nu = members[0]
    if len(members) == 1 and nu not in (1.0, INF) and not logy:
        check, what = mpf(scale) * closed_form(nu, (mpf(y) - mean) / scale), "closed form"
    else:
        check = side(members, y, 1, "gauss-legendre", logy) + side(members, y, -1, "gauss-legendre", logy)
        what = "Gauss-Legendre"
    if abs(check - v) > mpf(10) ** -13 * v:
        raise SystemExit(f"{members} y={y}: tanh-sinh quadrature {v}, {what} {check}")
    return v


def closed_form(nu, z):
    """The Student t's CRPS at z in closed form (scale 1, location 0)."""
    nu, z = mpf(nu), mpf(z)
    tail, _ = probs(abs(z), nu)
    F = tail if z < 0 else 1 - tail
    f = gamma((nu + 1) / 2) / (sqrt(nu * pi) * gamma(nu / 2)) * (1 + z * z / nu) ** (-(nu + 1) / 2)
    return (z * (2 * F - 1) + 2 * f * (nu + z * z) / (nu - 1)
            - 2 * sqrt(nu) * beta(HALF, nu - HALF) / ((nu - 1) * beta(HALF, nu / 2) ** 2))


def main():
    cache_path = sys.argv[2] if len(sys.argv) == 3 and sys.argv[1] == "--cache" else None
    cache = {}
    if cache_path and os.path.exists(cache_path):
        with open(cache_path) as f:
            cache = json.load(f)
    here = os.path.dirname(os.path.abspath(__file__))
    lines = ["# Generated by testdata/gen_crps.py (mpmath, mp.dps = 20); do not edit.", "kind,id,arg,value"]
    for i, (name, members, ys, *kind) in enumerate(DISTS):
        kind = kind[0] if kind else ""
        lines.append(f"# {name}")
        lines.append(f"{kind}dist,{i},{len(members)}," + " ".join(f"{m!r}/{s!r}/{nu!r}" for m, s, nu in members))
        for y in ys:
            key = repr((kind, members, y))
            if key not in cache:
                cache[key] = fmt(crps(members, y, kind == "log"))
                if cache_path:
                    with open(cache_path, "w") as f:
                        json.dump(cache, f)
            lines.append(f"crps,{i},{y!r},{cache[key]}")
        print(name, file=sys.stderr, flush=True)
    with open(os.path.join(here, "crps_ref.csv"), "w") as out:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
