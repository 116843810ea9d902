#!/usr/bin/env python3
"""Reference values for normalgamma_test.go, computed with mpmath.

Run from the repository root (needs python3 and mpmath; Debian: python3-mpmath):

    python3 testdata/gen_normalgamma.py > testdata/normalgamma_mpmath.txt

The output is deterministic (fixed grids, no randomness), so rerunning the
script reproduces the table byte for byte. Every quantity is evaluated from
the paper's own formulas (Gurevich & Stuke, "Gradient conjugate priors and
multi-layer neural networks") at mp.dps = 60 and printed with 20 significant
digits; inputs are IEEE doubles, printed with Python's repr (shortest
round-trip form), so the Go test parses exactly the inputs used here.

Record kinds (one per line, whitespace separated; '#' starts a comment):

  grad  m nu alpha beta y  logpred dm dalpha dbeta dnu  ln1pu psihalf halfw alphav
        logpred = ln t_{2a}(y | m, b(n+1)/(n a))  (Eq. (2.11), Practical approach 2.1)
        dm, dalpha, dbeta, dnu = Eq. (3.4), Eq. (3.5), Eq. (3.6),
        Eq. (3.7); the last four columns are the terms the test builds its
        error magnitudes from: ln(1+u), Psi(a+1/2)-Psi(a), w/2 and a*v, with
        u = (y-m)^2/(2 sigma), sigma = b(n+1)/n (Eq. (3.3)), w = 1/(1+u),
        v = u/(1+u).
  gradinf  the same columns, for |y-m| up to 1e300, where u overflows a
        double (the implementation's documented large-residual limit).
  var   nu alpha beta  var varcorr gap
        var = sigma/(a-1) (Eq. (2.17), +inf for a <= 1),
        varcorr = sigma/(a-A(a)) (Eq. (2.18)), gap = a-A(a), with A
        the root of Eq. (3.15), F from Eq. (3.16).
  post  m nu alpha beta y  m' nu' alpha' beta'           (Eq. (2.7))
  kl    pm pnu palpha pbeta  qm qnu qalpha qbeta  kl scale
        kl = D_KL(p || q) by Eq. (2.9) (p in the role of the primed
        posterior, q of the prior); scale = sum of the absolute values of the
        terms of Eq. (2.9), each log-gamma counted on its own.
  cdf   m nu alpha beta y  cdf
  quant m nu alpha beta prob  q
        The predictive t_{2a}(y | m, s^2), s^2 = sigma/a, through the
        regularized incomplete beta function.

Self-checks run before anything is printed: A(a) satisfies the bounds of
Lemma 3.1 item 3, Eq. (2.9) agrees with a direct numerical
integration of Eq. (2.8) for two pairs (mp.quad in two
dimensions), the gradient columns agree with numerical derivatives of logpred
(Lemma 2.1), and every quantile inverts its CDF.
"""

import sys

import mpmath
from mpmath import mp, mpf

mp.dps = 60
DIGITS = 20


def s(x):
    """Format a reference value with DIGITS significant digits."""
    return mpmath.nstr(mpf(x), DIGITS)


def r(x):
    """Format an input double exactly (shortest round-trip repr)."""
    assert isinstance(x, float)
    return repr(x)


def sigma_of(nu, beta):
    nu, beta = mpf(nu), mpf(beta)
    return beta * (nu + 1) / nu


# ---------------------------------------------------------------- gradient


def log_predictive(m, nu, alpha, beta, y):
    m, nu, alpha, beta, y = map(mpf, (m, nu, alpha, beta, y))
    sg = sigma_of(nu, beta)
    u = (y - m) ** 2 / (2 * sg)
    return (mpmath.loggamma(alpha + mpf(1) / 2) - mpmath.loggamma(alpha)
            - mpmath.log(2 * mp.pi * sg) / 2 - (alpha + mpf(1) / 2) * mpmath.log1p(u))


def grad_terms(m, nu, alpha, beta, y):
    """Eq. (3.4)..Eq. (3.7), written exactly as in the paper."""
    m, nu, alpha, beta, y = map(mpf, (m, nu, alpha, beta, y))
    half = mpf(1) / 2
    sg = sigma_of(nu, beta)
    d = m - y
    u = d * d / (2 * sg)
    dm = (alpha + half) / (sg + d * d / 2) * d
    psihalf = mpmath.digamma(alpha + half) - mpmath.digamma(alpha)
    ln1pu = mpmath.log1p(u)
    dalpha = ln1pu - psihalf
    dbeta = ((alpha + half) / (1 + u) - alpha) / beta
    dnu = ((alpha + half) / (sg + d * d / 2) * d * d - 1) / (2 * nu * (nu + 1))
    w = 1 / (1 + u)
    v = u / (1 + u)
    return dm, dalpha, dbeta, dnu, ln1pu, psihalf, w / 2, alpha * v


ALPHAS = [1e-3, 0.1, 0.5, 1.0, 2.0, 7.5, 100.0, 1e4, 1e6]
NUS = [1e-8, 1e-3, 0.5, 1.0, 30.0, 1e8]
BETAS = [1e-6, 0.01, 1.0, 1e3, 1e6]
RESIDUALS = [0.0, 1e-8, 1e-3, 0.3, 1.0, 3.0, 50.0, 1e4, 1e20, 1e150]
MS = [0.0, 1.5, -2250.0, 0.1]


def grad_rows():
    rows = []
    for ia, a in enumerate(ALPHAS):
        for ir, res in enumerate(RESIDUALS):
            for inu, nu in enumerate(NUS):
                b = BETAS[(ia + ir + inu) % len(BETAS)]
                m = MS[(ia + 2 * ir + inu) % len(MS)]
                sign = -1.0 if (ia + ir + inu) % 2 else 1.0
                rows.append((m, nu, a, b, m + sign * res))
    # Every corner of the parameter box, both signs of a huge residual.
    for a in (ALPHAS[0], ALPHAS[-1]):
        for nu in (NUS[0], NUS[-1]):
            for b in (BETAS[0], BETAS[-1]):
                for y in (0.0, 1e150, -1e150):
                    rows.append((0.0, nu, a, b, y))
    return rows


def grad_overflow_rows():
    """Residuals whose u = (y-m)^2/(2 sigma) overflows a double (> 1.8e308)."""
    rows = []
    for a, nu, b in [(1e-3, 1e-8, 1e6), (1.0, 1.0, 1.0), (7.5, 1e8, 1e-6), (1e6, 0.5, 3.0)]:
        for y in (1e200, -1e250, 1e300):
            rows.append((0.0, nu, a, b, y))
    return rows


# ---------------------------------------------------------------- A(alpha)


def xF(x):
    """x F(x) with F from Eq. (3.16)."""
    rx = mpmath.sqrt(x)
    return mpmath.sqrt(mp.pi) / 2 * rx * mpmath.exp(x) * mpmath.erfc(rx)


def gap(alpha):
    """alpha - A(alpha): the root x of x F(x) = alpha/(2 alpha + 1).

    Eq. (3.15) multiplied by (alpha - A); x F(x) increases from 0 to 1/2,
    so the root is unique. Bisection in the bracket of Lemma 3.1,
    item 3: max(alpha-1, 0) < x < alpha - 2 alpha/(2 alpha + 3).
    """
    a = mpf(alpha)
    target = a / (2 * a + 1)
    hi = a - 2 * a / (2 * a + 3)
    lo = max(a - 1, hi * mpf(10) ** -40)
    assert xF(lo) < target < xF(hi), alpha
    for _ in range(400):
        mid = (lo + hi) / 2 if hi < 2 * lo else mpmath.sqrt(lo * hi)
        if xF(mid) < target:
            lo = mid
        else:
            hi = mid
        if hi - lo < hi * mpf(10) ** -50:
            break
    x = (lo + hi) / 2
    A = a - x
    # Lemma 3.1, item 3.
    assert 2 * a / (2 * a + 3) < A < min(a, 1), alpha
    return x


VAR_ALPHAS = [1e-6, 1e-5, 1e-4, 1e-3, 0.01, 0.05, 0.1, 0.3, 0.5, 0.9, 1.0, 1.0000001,
              1.5, 2.0, 3.0, 5.0, 10.0, 30.0, 100.0, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8]
VAR_NUBETA = [(1.0, 1.0), (1e-8, 3.0), (1e8, 1e-6), (0.25, 1e6), (7.0, 0.02)]


def var_rows():
    out = []
    for i, a in enumerate(VAR_ALPHAS):
        nu, b = VAR_NUBETA[i % len(VAR_NUBETA)]
        sg = sigma_of(nu, b)
        x = gap(a)
        var = sg / (mpf(a) - 1) if a > 1 else mp.inf
        out.append("var %s %s %s  %s %s %s" % (r(nu), r(a), r(b), s(var), s(sg / x), s(x)))
    return out


# ---------------------------------------------------------------- posterior


POST = [
    (0.0, 1.0, 1.0, 1.0, 0.5),
    (1.5, 0.01, 0.3, 2.0, -4.0),
    (-3.0, 1e6, 50.0, 1e-3, 7.0),
    (2.0, 1e-8, 1e6, 1e6, 2.0),
    (0.25, 3.0, 2.0, 0.5, 1e150),
    (1e10, 0.5, 0.001, 1e-6, -1e10),
]


def post(m, nu, a, b, y):
    m, nu, a, b, y = map(mpf, (m, nu, a, b, y))
    return ((nu * m + y) / (nu + 1), nu + 1, a + mpf(1) / 2,
            b + nu / (nu + 1) * (y - m) ** 2 / 2)


def post_rows():
    out = []
    for row in POST:
        out.append("post %s  %s" % (" ".join(map(r, row)), " ".join(map(s, post(*row)))))
    return out


# ---------------------------------------------------------------- KL


def kl_terms(p, q):
    """Terms of Eq. (2.9), primed = p (posterior), nonprimed = q."""
    pm, pn, pa, pb = map(mpf, p)
    qm, qn, qa, qb = map(mpf, q)
    return [
        pa / pb * (qm - pm) ** 2 * qn / 2,
        qn / pn / 2,
        -mpmath.log(qn / pn) / 2,
        -mpf(1) / 2,
        -qa * mpmath.log(qb / pb),
        mpmath.loggamma(qa),
        -mpmath.loggamma(pa),
        -(qa - pa) * mpmath.digamma(pa),
        (qb - pb) * pa / pb,
    ]


def kl_closed(p, q):
    return mpmath.fsum(kl_terms(p, q))


def log_ng(mu, tau, m, nu, a, b):
    """ln of Eq. (2.1)."""
    return (a * mpmath.log(b) + mpmath.log(nu) / 2 - mpmath.loggamma(a)
            - mpmath.log(2 * mp.pi) / 2 + (a - mpf(1) / 2) * mpmath.log(tau)
            - b * tau - nu * tau * (mu - m) ** 2 / 2)


def kl_integral(p, q):
    """Eq. (2.8) by two-dimensional quadrature.

    With mu = pm + z / sqrt(pnu tau) the inner integral has a standard normal
    weight; tau runs over (0, inf) with the Gamma(pa, pb) weight. The
    integrand is ln p - ln q of Eq. (2.1) (log_ng), with the
    tau-independent normalizing constants hoisted out of the loop.
    """
    pm, pn, pa, pb = map(mpf, p)
    qm, qn, qa, qb = map(mpf, q)
    half = mpf(1) / 2
    cp = log_ng(pm, 1, pm, pn, pa, pb) + pb  # ln p at tau = 1, mu = pm, less -pb*tau
    cq = log_ng(qm, 1, qm, qn, qa, qb) + qb
    gnorm = pa * mpmath.log(pb) - mpmath.loggamma(pa)
    snorm = -mpmath.log(2 * mp.pi) / 2

    def f(tau, z):
        mu = pm + z / mpmath.sqrt(pn * tau)
        lt = mpmath.log(tau)
        lp = cp + (pa - half) * lt - pb * tau - pn * tau * (mu - pm) ** 2 / 2
        lq = cq + (qa - half) * lt - qb * tau - qn * tau * (mu - qm) ** 2 / 2
        # p(mu, tau) dmu = Gamma(tau; pa, pb) N(z; 0, 1) dz
        dens = mpmath.exp(gnorm + (pa - 1) * lt - pb * tau + snorm - z * z / 2)
        return dens * (lp - lq)

    mode = (pa - 1) / pb if pa > 1 else pa / pb
    return mpmath.quad(f, [0, mode, 4 * mode + 10 / pb, mp.inf], [-mp.inf, 0, mp.inf])


KL_PAIRS = []
for (q, y) in [((0.0, 1.0, 1.0, 1.0), 0.7), ((1.5, 0.2, 3.0, 0.5), -2.0),
               ((-1.0, 40.0, 0.05, 2.0), 10.0), ((0.0, 1e-8, 1e6, 1e6), 5.0),
               ((2.0, 1e8, 2.0, 1e-6), 2.0)]:
    pm, pn, pa, pb = (float(v) for v in post(q[0], q[1], q[2], q[3], y))
    KL_PAIRS.append(((pm, pn, pa, pb), q))
KL_PAIRS += [
    ((0.0, 1.0, 1.0, 1.0), (0.0, 1.0, 1.0, 1.0)),
    ((0.3, 2.0, 4.0, 1.5), (-0.2, 0.7, 2.5, 3.0)),
    ((1.0, 0.5, 0.7, 0.1), (1.0, 0.5, 3.0, 0.1)),
]
KL_INTEGRAL_CHECKED = [KL_PAIRS[0], KL_PAIRS[6]]


def kl_rows():
    out = []
    for p, q in KL_PAIRS:
        t = kl_terms(p, q)
        out.append("kl %s  %s  %s %s" % (" ".join(map(r, p)), " ".join(map(r, q)),
                                          s(mpmath.fsum(t)), s(mpmath.fsum(abs(v) for v in t))))
    return out


# ---------------------------------------------------------------- Student t


def t_cdf(z, df):
    """CDF of the standard Student t with df degrees of freedom.

    P(T < -|z|) = I_x(df/2, 1/2)/2 with x = df/(df+z^2); for |z| < sqrt(df)
    the complement 1 - I_{1-x}(1/2, df/2) is used, so that 1 - x =
    z^2/(df+z^2) is not lost to cancellation near z = 0.
    """
    z, df = mpf(z), mpf(df)
    if z == 0:
        return mpf(1) / 2
    z2 = z * z
    if z2 < df:
        tail = (1 - mpmath.betainc(mpf(1) / 2, df / 2, 0, z2 / (df + z2), regularized=True)) / 2
    else:
        tail = mpmath.betainc(df / 2, mpf(1) / 2, 0, df / (df + z2), regularized=True) / 2
    return tail if z < 0 else 1 - tail


def pred_cdf(m, nu, a, b, y):
    scale = mpmath.sqrt(sigma_of(nu, b) / mpf(a))
    return t_cdf((mpf(y) - mpf(m)) / scale, 2 * mpf(a))


def t_quantile(prob, df):
    prob = mpf(prob)
    if prob == mpf(1) / 2:
        return mpf(0)
    lo, hi = mpf(-1), mpf(1)
    while t_cdf(lo, df) > prob:
        lo *= 2
    while t_cdf(hi, df) < prob:
        hi *= 2
    for _ in range(400):
        mid = (lo + hi) / 2
        if t_cdf(mid, df) < prob:
            lo = mid
        else:
            hi = mid
        if hi - lo < mpf(10) ** -45 * (1 + abs(hi)):
            break
    return (lo + hi) / 2


def pred_quantile(m, nu, a, b, prob):
    scale = mpmath.sqrt(sigma_of(nu, b) / mpf(a))
    return mpf(m) + scale * t_quantile(prob, 2 * mpf(a))


CDF = [
    (0.0, 1.0, 1.0, 1.0, 0.0),
    (0.0, 1.0, 1.0, 1.0, 1.3),
    (1.5, 0.5, 2.5, 0.7, -1.0),
    (-3.0, 4.0, 0.6, 2.0, 40.0),
    (10.0, 1e-3, 50.0, 0.05, 9.0),
    (0.0, 2.0, 3.0, 1.5, -25.0),
    (0.0, 1e6, 1e4, 1e4, 2.0),
]
QUANT = [
    (0.0, 1.0, 1.0, 1.0, 0.5),
    (0.0, 1.0, 1.0, 1.0, 0.975),
    (1.5, 0.5, 2.5, 0.7, 0.1),
    (-3.0, 4.0, 0.6, 2.0, 0.999),
    (10.0, 1e-3, 50.0, 0.05, 0.3),
    (0.0, 2.0, 3.0, 1.5, 1e-6),
    (0.0, 1e6, 1e4, 1e4, 0.8),
]


def cdf_rows():
    return ["cdf %s  %s" % (" ".join(map(r, row)), s(pred_cdf(*row))) for row in CDF]


def quant_rows():
    out = []
    for row in QUANT:
        q = pred_quantile(*row)
        # The quantile inverts the CDF.
        assert abs(pred_cdf(row[0], row[1], row[2], row[3], q) - mpf(row[4])) < mpf(10) ** -40
        out.append("quant %s  %s" % (" ".join(map(r, row)), s(q)))
    return out


# ---------------------------------------------------------------- checks


def self_checks():
    # Eq. (2.9) against Eq. (2.8).
    with mpmath.workdps(20):
        for p, q in KL_INTEGRAL_CHECKED:
            ci = kl_integral(p, q)
            cc = kl_closed(p, q)
            assert abs(ci - cc) < mpf(10) ** -15 * (1 + abs(cc)), (p, q, ci, cc)
            sys.stderr.write("KL closed form %s vs integral %s\n" % (mpmath.nstr(cc, 18), mpmath.nstr(ci, 18)))
    # Lemma 2.1: the gradient columns are -d(logpred).
    for row in [(0.3, 0.7, 1.3, 2.1, -0.4), (1.0, 5.0, 0.2, 0.01, 3.0)]:
        m, nu, a, b, y = row
        g = grad_terms(*row)[:4]
        fd = [
            -mpmath.diff(lambda x: log_predictive(x, nu, a, b, y), m),
            -mpmath.diff(lambda x: log_predictive(m, nu, x, b, y), a),
            -mpmath.diff(lambda x: log_predictive(m, nu, a, x, y), b),
            -mpmath.diff(lambda x: log_predictive(m, x, a, b, y), nu),
        ]
        for gi, fi in zip(g, fd):
            assert abs(gi - fi) < mpf(10) ** -40 * (1 + abs(gi)), (row, gi, fi)


def main():
    self_checks()
    out = []
    out.append("# Generated by testdata/gen_normalgamma.py (mpmath %s, mp.dps = %d); do not edit."
               % (mpmath.__version__, mp.dps))
    out.append("# Rerun: python3 testdata/gen_normalgamma.py > testdata/normalgamma_mpmath.txt")
    out.append("# grad m nu alpha beta y  logpred dm dalpha dbeta dnu  ln1pu psihalf halfw alphav")
    for row in grad_rows():
        vals = [log_predictive(*row)] + list(grad_terms(*row))
        out.append("grad %s  %s" % (" ".join(map(r, row)), " ".join(map(s, vals))))
    out.append("# gradinf: as grad, for residuals whose u overflows in float64")
    for row in grad_overflow_rows():
        vals = [log_predictive(*row)] + list(grad_terms(*row))
        out.append("gradinf %s  %s" % (" ".join(map(r, row)), " ".join(map(s, vals))))
    out.append("# var nu alpha beta  var varcorr gap")
    out += var_rows()
    out.append("# post m nu alpha beta y  m' nu' alpha' beta'")
    out += post_rows()
    out.append("# kl pm pnu palpha pbeta  qm qnu qalpha qbeta  kl scale"
               " (rows 1 and 7 checked against a 2-D quadrature of Eq. (2.8))")
    out += kl_rows()
    out.append("# cdf m nu alpha beta y  cdf")
    out += cdf_rows()
    out.append("# quant m nu alpha beta prob  q")
    out += quant_rows()
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
