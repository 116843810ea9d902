#!/usr/bin/env python3
"""Reference values for TestCopulaCondRefMpmath and
TestCopulaCondRefFarMpmath (copula_conditional_ref_test.go): the
conditional marginal of a Gaussian copula,

    G(y) = Phi((u(y) - mu)/sigma),  u(y) = Phi^-1(F(y)),

F a Student-t predictive (or one of z = ln y), under the score map (mu, sigma)
that conditioning a bivariate copula of correlation rho on target 0 at y0
makes: mu = rho*u0, sigma = sqrt(1 - rho^2), u0 the score of y0 under
target 0's marginal.

Run from the repository root (needs python3 and mpmath; on Debian the
python3-mpmath package):

    python3 testdata/gen_copula_conditional.py

It writes testdata/copula_conditional_ref.csv. The cases are fixed lists and
nothing is random, so rerunning reproduces the file byte for byte. Inputs
are IEEE doubles printed with repr (the Go test parses exactly the inputs
used here); everything else is evaluated at mp.dps = 50 (the moments at 30)
and printed with 20 significant digits.

A marginal is kind/m/s/nu: gauss (the normal N(m, s^2): u = (y - m)/s),
t (the Student t of nu degrees of freedom, location m, scale s) or logt
(that t of z = ln y). Every case's s is a power of two, so that the Go
Prediction (Alpha = nu/2, Beta = Alpha*s^2/2, Nu = 1) has exactly this scale.

The t's tail P(T > t), t >= 0, is taken from its logarithm two ways, which
must agree to 1e-30 relative: for t >= 1 the hypergeometric form
I_x(a, 1/2) = x^a (1-x)^(1/2) 2F1(a+1/2, 1; a+1; x)/(a B(a, 1/2)), x =
nu/(nu + t^2) (DLMF 8.17.8), which holds its logarithm however small the
tail, and mpmath's betainc (1/2 I_x(nu/2, 1/2), for tails above 1e-900);
for t < 1 the central probability I_y(1/2, nu/2), y = t^2/(nu + t^2)
(betainc, which keeps a small t's digits), and 1/2 - the quad of the
density over [0, t]. The second route is skipped inside the moments'
quadratures, which are checked by their own two routes. Phi^-1 of a probability given by its
logarithm is the root of ln Phi(u) = ln q (Newton on the concave ln Phi).

Rows (kind,id,a,b,c,d; '#' lines are comments; '-' is an unused field):

  case      id, obs (target 0's marginal), y0, rho, base (target 1's
            marginal, whose conditional G is): the Go test builds the
            bivariate copula of these and conditions on target 0 at y0.
  map       id, u0, mu, sigma: the score of y0 and the derived map.
  cdf       id, y, G(y).
  logpdf    id, y, ln g(y) = ln f(y) - ln sigma - (w^2 - u^2)/2, w = (u - mu)/sigma;
            checked against the numerical derivative of G (mpmath's diff).
  quantile  id, q, y with G(y) = q (u(y) = mu + sigma Phi^-1(q)), dy/du =
            phi(u)/f(y) there (the Go test's tolerance scales with it).
            Checked by G(y) = q.
  mean/var  id, G's mean and variance in y (in z = ln y for logt: the rows
            zmean/zvar), "inf" for the variance where it does not exist
            (a t of nu dof has moments of order k < nu/sigma^2 under G).
            Each is computed two ways, which must agree to 1e-15 relative:
            over the score, E[h] = int h(Q(mu + sigma z)) phi(z) dz,
            Q = F^-1 o Phi, and over y, E[h] = int h(y) g(y) dy, in
            x = asinh((y - m)/s) (mpmath's quad on subintervals).
"""

import os
import sys

from mpmath import (betainc, beta, diff, erfc, exp, hyp2f1, inf, isinf, log, log1p,
                    loggamma, mp, mpf, pi, quad, sqrt)

mp.dps = 50
HALF = mpf(1) / 2
INF = float("inf")
MAXF = mpf(1.7976931348623157e308)
CHECK = [True]  # check each tail by a second route (off inside the moments' quadratures)

# The base marginals of target 1 (kind, m, s, nu) and the score maps
# (rho, y0) that give (mu, sigma) = (0, 1), (1.3, 0.6), (-2, 0.9), (8, 0.5)
# from target 0 ~ N(0, 1), whose score is y0 itself.
BASES = [("t", 0.25, 2.0, 3.0), ("t", -1.0, 0.5, 5.0), ("t", 10.0, 1.0, 30.0),
         ("t", 0.0, 1.0, 1.8), ("logt", 0.5, 0.5, 30.0)]
RHO_08 = 0.8
RHO_09 = 0.4358898943540674  # sqrt(0.19): sigma 0.9
RHO_05 = 0.8660254037844386  # sqrt(0.75): sigma 0.5
MAPS = [(0.0, 0.7), (RHO_08, 1.625), (RHO_09, -2 / RHO_09), (RHO_05, 8 / RHO_05)]
QS = [1e-10, 0.025, 0.5, 0.975, 1 - 1e-10]

# Far cases: y0 whose score is 30 and beyond (obs, y0, rho, base). Only the
# median of G is a reference here (and G and ln g at it).
FAR = [
    (("gauss", 0.0, 1.0, INF), 30.0, 0.5, ("t", 10.0, 1.0, 30.0)),
    (("gauss", 0.0, 1.0, INF), -40.0, 0.6, ("t", 10.0, 1.0, 30.0)),
    (("gauss", 0.0, 1.0, INF), 1000.0, 0.01, ("t", 0.25, 2.0, 3.0)),
    (("gauss", 0.0, 1.0, INF), 1e6, 1e-5, ("logt", 0.5, 0.5, 30.0)),
    (("t", 0.25, 2.0, 3.0), 1e100, 0.5, ("t", 10.0, 1.0, 30.0)),
    (("t", 0.25, 2.0, 3.0), -1e200, 0.5, ("t", 10.0, 1.0, 30.0)),
    (("t", 0.25, 2.0, 3.0), 1e100, 0.7, ("t", -1.0, 0.5, 5.0)),
    (("logt", 0.0, 0.5, 1e4), 1e-300, 0.1, ("t", -1.0, 0.5, 5.0)),
    (("logt", 0.0, 0.5, 1e4), 1e300, 0.3, ("logt", 0.0, 0.5, 1e4)),
]


def fmt(v):
    if isinf(v):
        return "inf" if v > 0 else "-inf"
    return mp.nstr(v, 20, strip_zeros=False, min_fixed=-4, max_fixed=8)


def log_tail_hyp(t, nu):
    a = nu / 2
    x = nu / (nu + t * t)
    return (a * log(x) + log1p(-x) / 2 + log(hyp2f1(a + HALF, 1, a + 1, x)) - log(a)
            - log(beta(a, HALF)) - log(2))


def log_tail(t, nu):
    """ln P(T > t) of the standard t of nu dof (nu = inf: the normal), t >= 0."""
    t = mpf(t)
    if nu == inf:
        return log(erfc(t / sqrt(2)) / 2)
    nu = mpf(nu)
    x = nu / (nu + t * t)
    hyp = log_tail_hyp(t, nu) if t >= 1 else None
    bi = None
    if t < 1:
        # near the centre from the central probability P(|T| < t) =
        # I_y(1/2, nu/2), y = t^2/(nu + t^2), which keeps a small t's digits
        yc = t * t / (nu + t * t)
        bi = log((1 - betainc(HALF, nu / 2, 0, yc, regularized=True)) / 2)
        if CHECK[0]:
            q = log(HALF - quad(lambda v: exp(log_f(v, nu)), [0, t]))
            assert abs(q - bi) <= mpf(10) ** -30 * max(1, abs(bi)), (t, nu, q, bi)
    elif CHECK[0] and hyp > -2000:
        b = betainc(nu / 2, HALF, 0, x, regularized=True) / 2
        if b > mpf(10) ** -900:
            bi = log(b)
    if hyp is not None and bi is not None:
        assert abs(hyp - bi) <= mpf(10) ** -30 * max(1, abs(bi)), (t, nu, hyp, bi)
    return hyp if hyp is not None else bi


def log_sides(t, nu):
    """(ln P(T <= t), ln P(T > t)), each formed where it is small."""
    t = mpf(t)
    if t >= 0:
        up = log_tail(t, nu)
        return log(-mp.expm1(up)), up
    lo = log_tail(-t, nu)
    return lo, log(-mp.expm1(lo))


def log_f(t, nu):
    """ln of the standard t density (the normal's for nu = inf)."""
    if nu == inf:
        return -t * t / 2 - log(2 * pi) / 2
    nu = mpf(nu)
    return loggamma((nu + 1) / 2) - loggamma(nu / 2) - log(nu * pi) / 2 - (nu + 1) / 2 * log1p(t * t / nu)


def log_phi_cdf(v):
    """ln Phi(v)."""
    return log(erfc(-v / sqrt(2)) / 2)


def phi_inv_log(lq):
    """The u with ln Phi(u) = lq (lq < 0)."""
    if lq > log(HALF):
        return -phi_inv_log(log(-mp.expm1(lq)))
    if lq == log(HALF):
        return mpf(0)
    t = sqrt(-2 * lq)
    z = -t + log(t) / t if lq < -3 else mpf(-0.5)
    for _ in range(300):
        lp = log_phi_cdf(z)
        step = (lp - lq) / exp(-z * z / 2 - log(2 * pi) / 2 - lp)
        z -= step
        if abs(step) <= mpf(10) ** (-mp.dps + 5) * max(1, abs(z)):
            return z
    raise ValueError("phi_inv_log did not converge at %s" % lq)


class Marginal:
    def __init__(self, kind, m, s, nu):
        self.kind, self.m, self.s = kind, mpf(m), mpf(s)
        self.nu = inf if nu == INF else mpf(nu)
        self.spec = "%s/%r/%r/%r" % (kind, m, s, nu)

    def z(self, y):
        return log(mpf(y)) if self.kind == "logt" else mpf(y)

    def y(self, z):
        return exp(z) if self.kind == "logt" else z

    def score(self, y):
        """u(y) = Phi^-1(F(y)) from the smaller tail."""
        t = (self.z(y) - self.m) / self.s
        if self.kind == "gauss":
            return t
        lo, up = log_sides(t, self.nu)
        return phi_inv_log(lo) if lo <= up else -phi_inv_log(up)

    def log_density(self, y):
        """ln f(y), with the Jacobian -ln y for logt."""
        z = self.z(y)
        v = log_f((z - self.m) / self.s, self.nu) - log(self.s)
        return v - z if self.kind == "logt" else v

    def quantile_z(self, v):
        """z with u = v: F^-1(Phi(v)) in the modelled target."""
        if v == 0:
            return self.m
        lq = log_phi_cdf(-abs(v))  # the smaller tail, ln Phi(-|v|)
        t = t_tail_root(lq, self.nu)
        return self.m + self.s * (t if v > 0 else -t)


def t_tail_root(lq, nu):
    """t > 0 with ln P(T > t) = lq (lq < ln 1/2), by bisection on ln t then
    Newton (d ln P/d ln t = -t f(t)/P(T > t))."""
    if nu == inf:
        return -phi_inv_log(lq)
    g = lambda x: log_tail(exp(x), nu) - lq  # decreasing in x = ln t
    a, b = mpf(-1), mpf(1)
    while g(b) > 0:
        a, b = b, 2 * b
    while g(a) < 0:
        a, b = 2 * a, a
    while b - a > mpf(1) / 1000:
        mid = (a + b) / 2
        if g(mid) > 0:
            a = mid
        else:
            b = mid
    x = (a + b) / 2
    for _ in range(100):
        t = exp(x)
        lt = log_tail(t, nu)
        step = (lt - lq) / (-t * exp(log_f(t, nu) - lt))
        x -= step
        if abs(step) <= mpf(10) ** (-mp.dps + 6) * max(1, abs(x)):
            assert a - mpf(1) / 100 < x < b + mpf(1) / 100, (lq, nu, x, a, b)
            return exp(x)
    raise ValueError("t_tail_root did not converge at %s" % lq)


class Conditional:
    def __init__(self, obs, y0, rho, base):
        self.obs, self.y0, self.rho, self.base = obs, y0, rho, base
        self.u0 = obs.score(y0)
        self.mu = mpf(rho) * self.u0
        self.sigma = sqrt(1 - mpf(rho) ** 2)

    def cdf(self, y):
        return mp.ncdf((self.base.score(y) - self.mu) / self.sigma)

    def log_pdf(self, y):
        u = self.base.score(y)
        w = (u - self.mu) / self.sigma
        return self.base.log_density(y) - log(self.sigma) - (w * w - u * u) / 2

    def quantile(self, q):
        """(y, dy/du) at G(y) = q."""
        q = mpf(q)
        if q < HALF:
            w = phi_inv_log(log(q))
        else:
            w = -phi_inv_log(log(1 - q))
        v = self.mu + self.sigma * w
        z = self.base.quantile_z(v)
        y = self.base.y(z)
        lf = self.base.log_density(y)
        dydu = exp(-v * v / 2 - log(2 * pi) / 2 - lf)
        return y, dydu, v

    def moment_over_score(self, h):
        """int h(Q(mu + sigma z)) phi(z) dz over |z| <= 60 (the rest is below
        e^-180 of it even for the heaviest case here, nu/sigma^2 = 2.2)."""
        b = self.base
        f = lambda z: h(b.quantile_z(self.mu + self.sigma * z)) * exp(-z * z / 2) / sqrt(2 * pi)
        return quad(f, [-60, -40, -30, -20, -10, -5, -2, 0, 2, 5, 10, 20, 30, 40, 60])

    def moment_over_target(self, h):
        """int h(z) g(z) dz over the modelled target z (g in z), in x with
        z = m + s sinh(x), which turns the t's algebraic tails into
        exponential ones."""
        b = self.base

        def f(x):
            t = mp.sinh(x)
            z = b.m + b.s * t
            lo, up = log_sides(t, b.nu)
            u = phi_inv_log(lo) if lo <= up else -phi_inv_log(up)
            w = (u - self.mu) / self.sigma
            return h(z) * mp.cosh(x) * exp(log_f(t, b.nu) - log(self.sigma) - (w * w - u * u) / 2)

        med = mp.asinh((b.quantile_z(self.mu) - b.m) / b.s)
        pts = [-inf, -800, -400, -200, -100, -50, -20, -10, -5, -2, 0, 2, 5, 10, 20, 50, 100, 200, 400, 800, inf]
        pts = sorted(set(pts + [med + c for c in (-2, -1, -0.5, 0, 0.5, 1, 2)]))
        return quad(f, pts)

    def moments(self):
        """(mean, variance) of G in the modelled target; variance inf where
        it does not exist."""
        b = self.base
        k_max = b.nu / self.sigma ** 2  # moments of order k < nu/sigma^2
        CHECK[0] = False
        with mp.workdps(30):
            m1 = self.moment_over_score(lambda z: z)
            m1b = self.moment_over_target(lambda z: z)
            assert abs(m1 - m1b) <= mpf(10) ** -15 * max(abs(m1), b.s), ("mean", b.spec, m1, m1b)
            if k_max <= 2:
                CHECK[0] = True
                return m1, mpf(inf)
            v = self.moment_over_score(lambda z: (z - m1) ** 2)
            vb = self.moment_over_target(lambda z: (z - m1) ** 2)
            assert abs(v - vb) <= mpf(10) ** -15 * v, ("var", b.spec, v, vb)
        CHECK[0] = True
        return m1, v


def rows_of(cid, c, far):
    out = ["case,%s,%s,%r,%r,%s" % (cid, c.obs.spec, c.y0, c.rho, c.base.spec),
           "map,%s,%s,%s,%s,-" % (cid, fmt(c.u0), fmt(c.mu), fmt(c.sigma))]
    ys = []
    for q in ([0.5] if far else QS):
        y, dydu, v = c.quantile(q)
        assert abs(y) <= MAXF, (cid, q, y)  # every case's quantiles fit in float64
        # G(y) = q at the root (a check of the whole chain)
        gq = c.cdf(y)
        assert abs(gq - q) <= mpf(10) ** -30 * min(q, 1 - mpf(q)), (cid, q, gq)
        out.append("quantile,%s,%r,%s,%s,-" % (cid, q, fmt(y), fmt(dydu)))
        ys.append(float(y))
    b = c.base
    if not far:
        for k in (-3, 0, 3):
            ys.append(float(b.y(b.m + k * b.s)))
    for y in ys:
        if y <= 0 and b.kind == "logt":
            continue
        out.append("cdf,%s,%r,%s,-,-" % (cid, y, fmt(c.cdf(y))))
        lp = c.log_pdf(y)
        if not far:
            # the density is G's derivative: mpmath's numerical diff of G
            with mp.workdps(70):
                num = diff(c.cdf, mpf(y))
            assert abs(log(num) - lp) <= mpf(10) ** -25 * max(1, abs(lp)), (cid, y, lp, log(num))
        out.append("logpdf,%s,%r,%s,-,-" % (cid, y, fmt(lp)))
    if not far:
        m1, v = c.moments()
        names = ("zmean", "zvar") if b.kind == "logt" else ("mean", "var")
        out.append("%s,%s,%s,-,-,-" % (names[0], cid, fmt(m1)))
        out.append("%s,%s,%s,-,-,-" % (names[1], cid, fmt(v)))
    return out


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    only = sys.argv[1:]  # ids to print (for a quick look); the file needs all
    rows = []
    gauss = Marginal("gauss", 0.0, 1.0, INF)
    n = 0
    for kind, m, s, nu in BASES:
        for rho, y0 in MAPS:
            cid = "a%d" % n
            n += 1
            if only and cid not in only:
                continue
            rows += rows_of(cid, Conditional(gauss, y0, rho, Marginal(kind, m, s, nu)), False)
    for k, (obs, y0, rho, base) in enumerate(FAR):
        cid = "f%d" % k
        if only and cid not in only:
            continue
        rows += rows_of(cid, Conditional(Marginal(*obs), y0, rho, Marginal(*base)), True)
    if only:
        print("\n".join(rows))
        return
    with open(os.path.join(here, "copula_conditional_ref.csv"), "w") as out:
        out.write("# Generated by testdata/gen_copula_conditional.py (mpmath, mp.dps = 50); do not edit.\n")
        out.write("kind,id,a,b,c,d\n")
        for r in rows:
            out.write(r + "\n")


if __name__ == "__main__":
    main()
