#!/usr/bin/env python3
"""Write the reference tables special_ref.csv and correction_ref.csv.

Run from anywhere (needs python3 and mpmath; on Debian: apt-get install
python3-mpmath):

    python3 testdata/gen_special.py

The output is deterministic: the sample points come from fixed formulas (no
random numbers) and every value is computed twice, at DPS and at DPS + 20
significant digits; the script fails unless both agree to 30 digits.
It takes about a minute.

Both tables have the columns name,x,want: the Go function name, its float64
argument (printed with %.17g, so it reads back exactly) and the exact value
rounded to 25 significant digits.  Values outside the normal float64 range
are left out.  special_test.go reads them.

correction_ref.csv holds A(alpha) and alpha - A(alpha) (paper: Definition 3.1).  They are
found by solving Eq. (3.15) for A directly, bracketed by the bounds of
Lemma 3.1, at points that are not nodes of gen_correction.py's fit;
gen_correction.py instead inverts the explicit map alpha(x).  The closed form
of F in Eq. (3.16) is checked against its defining integral first.
"""

import math
import os

import mpmath as mp

DPS = 40
GOLDEN = 0.6180339887498949  # frac(k * GOLDEN) spreads points without randomness
MIN_NORMAL = 2.2250738585072014e-308  # smallest normal float64
MAX_FLOAT = 1.7976931348623157e308
HERE = os.path.dirname(os.path.abspath(__file__))


def spread(n, lo, hi, log=False):
    """n deterministic, well spread float64 points in [lo, hi] (log-uniform if log)."""
    out = []
    for k in range(1, n + 1):
        u = (k * GOLDEN) % 1.0
        if log:
            out.append(10.0 ** (math.log10(lo) + u * (math.log10(hi) - math.log10(lo))))
        else:
            out.append(lo + u * (hi - lo))
    return out


def extra_digits(x):
    """Working digits to add for x: differences like lgamma(x + 1/2) - lgamma(x)
    cancel about log10(x) digits at large x, and x + 1/2 must stay exact."""
    return 10 + max(0, int(abs(math.log10(abs(x))))) if x != 0 else 10


def erfcx(x):
    # U(1/2, 1/2, x^2)/sqrt(pi) = exp(x^2) erfc(x) for x > 0; mpmath's erfc
    # cannot take x = 1e300, the confluent hypergeometric U can.
    if x > 0:
        return mp.hyperu(0.5, 0.5, x * x) / mp.sqrt(mp.pi)
    return mp.exp(x * x) * mp.erfc(x)


FUNCS = {
    "Digamma": lambda x: mp.digamma(x),
    "Erfcx": erfcx,
    "digammaHalfStep": lambda x: mp.digamma(x + mp.mpf(1) / 2) - mp.digamma(x),
    "lgammaHalfStep": lambda x: mp.loggamma(x + mp.mpf(1) / 2) - mp.loggamma(x),
    "softplus": lambda x: mp.log1p(mp.exp(x)),
    "sigmoid": lambda x: 1 / (1 + mp.exp(-x)),
    "expTaylor": lambda x: mp.exp(x),
    "log1pEstrin": lambda x: mp.log1p(x),
    "studentTLogX": lambda r: -mp.log1p(r * r),
}


def F(x):
    """F of Eq. (3.16) in closed form."""
    s = mp.sqrt(x)
    return mp.sqrt(mp.pi) / 2 * mp.exp(x) * mp.erfc(s) / s


def check_closed_form():
    for x in (mp.mpf("0.01"), mp.mpf(1), mp.mpf(10)):
        integral = mp.quad(lambda z: mp.exp(-z * z / 2) / (2 * x + z * z), [-mp.inf, 0, mp.inf])
        assert abs(integral / mp.sqrt(2 * mp.pi) / F(x) - 1) < mp.mpf(10) ** (-30), x


def correction_a(alpha):
    """A(alpha): root of (2 alpha + 1)(alpha - A) F(alpha - A) = alpha (Eq. (3.15))."""

    def h(a):
        x = alpha - a  # x F(x), written so that x = 0 at the bracket's end is fine
        return (2 * alpha + 1) * mp.sqrt(mp.pi * x) / 2 * mp.exp(x) * mp.erfc(mp.sqrt(x)) - alpha

    lo = 2 * alpha / (2 * alpha + 3)  # Lemma 3.1, item 3
    hi = min(alpha, 1)
    return mp.findroot(h, (lo, hi), solver="anderson")


def correction_pair(alpha, extra):
    with mp.workdps(mp.mp.dps + extra):
        alpha = mp.mpf(alpha)
        a = correction_a(alpha)
        return +a, +(alpha - a)


def evaluate(name, x):
    """Value of FUNCS[name] at float x, checked at two precisions."""
    values = []
    for dps in (DPS, DPS + 20):
        with mp.workdps(dps + extra_digits(x)):
            values.append(FUNCS[name](mp.mpf(x)))
    agree(values, (name, x))
    return values[1]


def agree(values, what):
    a, b = values
    assert abs(a - b) <= mp.mpf(10) ** (-30) * max(abs(b), mp.mpf(10) ** (-300)), what


def row(name, x, v):
    assert mp.isfinite(v), (name, x)
    return "%s,%.17g,%s" % (name, x, mp.nstr(v, 25))


def digamma_points():
    root = 1.4616321449683622  # positive zero of digamma, rounded
    xs = [1e-300, 1e-100, 1e-20, 1e-8, 0.25, 0.5, 1.0, 2.0, 9.999999999999998, 10.0, 10.000000000000002, 1e300]
    xs += [root * (1 + d) for d in (-1e-3, -1e-8, -1e-13, 0.0, 1e-13, 1e-8, 1e-3)]
    xs += spread(80, 1e-300, 1e300, log=True) + spread(150, 0.0, 30.0)
    for n in (1, 2, 3, 4, 5, 50, 99):
        xs += [-n + d for d in (-1e-5, -1e-10, 1e-10, 1e-5)]
    xs += [-1e-300, -1e-8, -0.5, -99.5]
    xs += [x for x in spread(120, -100.0, 0.0) if x != round(x)]
    return xs


def erfcx_points():
    xs = [-26.0, -5.0, -1e-8, 0.0, 1e-300, 1e-8, 0.5, 11.999999999999998, 12.0, 26.0, 1e20, 1e300]
    return xs + spread(250, -26.0, 30.0) + spread(60, 1e-300, 1e300, log=True)


def half_step_points():
    xs = [1e-8, 0.5, 1.0, 9.999999999999998, 10.0, 10.000000000000002, 1e300]
    return xs + spread(150, 1e-8, 1e300, log=True) + spread(100, 1e-8, 25.0)


def softplus_points():
    xs = [0.0, 1e-300, 1e-8, 1.0, 36.0, 37.0, 40.0, 700.0, 745.0, 1e3, 1e300]
    xs += [-x for x in xs[1:]]
    return xs + spread(60, -50.0, 50.0)


def exp_points():
    """expTaylor's domain (-708, 709): its ends, zero, tiny arguments, the
    edges of its reduced argument |r| <= ln(2)/2 (where k changes), and a
    spread over the whole range and over the body."""
    ln2 = math.log(2)
    xs = [-707.9999999999999, -700.0, -1e-300, -1e-16, 0.0, 1e-300, 1e-16, 1e-8, 1.0, 700.0, 708.9999999999999]
    for k in (-1000, -3, -1, 0, 1, 2, 1000):
        edge = (k + 0.5) * ln2
        xs += [math.nextafter(edge, -math.inf), edge, math.nextafter(edge, math.inf)]
    return xs + spread(300, -708.0, 709.0) + spread(200, -40.0, 5.0)


def log1p_points():
    """log1pEstrin's domain (-1, inf): near -1, the edges of its reduction
    (sqrt(2)/2 - 1, sqrt(2) - 1, 1 + x = 2, 2**53), tiny arguments, and
    spreads over [-1, 4] and, log-uniform, up to 1e300."""
    xs = [-1 + 2.0**-53, -0.999999, -0.5, -1e-8, -1e-20, -1e-300, 1e-300, 1e-20, 1e-8, 0.5, 1.0, 1e300]
    for edge in (math.sqrt(2) / 2 - 1, math.sqrt(2) - 1, 1.0, 2.0**53):
        xs += [math.nextafter(edge, -math.inf), edge, math.nextafter(edge, math.inf)]
    return xs + spread(300, -0.9999, 4.0) + spread(100, 1e-300, 1e300, log=True) + [-x for x in spread(60, 1e-300, 0.9, log=True)]


def log_x_points():
    """The Student-t tail's ln x = -ln(1 + r^2) at r = s/sqrt(nu) (betaArgs):
    both sides of its branches at r = 1 and r = 2**500, tiny r where 1 + r^2
    rounds to 1, a spread over [0.01, 10], where the rounding of r^2 weighs
    most, and a log-uniform one up to 1e300."""
    xs = [1e-150, 1e-20, 1e-8, 1e-4, 0.5, 2.0, 1e8, 1e150, 1e300]
    for edge in (1.0, 2.0**500):
        xs += [math.nextafter(edge, 0), edge, math.nextafter(edge, math.inf)]
    return xs + spread(300, 0.01, 10.0) + spread(100, 1e-150, 1e300, log=True)


def correction_points():
    xs = [1e-9, 1e-6, 0.5, 2.0, 1e8, 1e12]
    for edge in (0.0625, 1.0, 256.0):  # where CorrectionA switches approximations
        xs += [math.nextafter(edge, 0), edge, math.nextafter(edge, math.inf)]
    return xs + spread(600, 1e-9, 1e12, log=True)


def write(path, header, lines):
    with open(os.path.join(HERE, path), "w", encoding="utf-8") as f:
        f.write("".join("# %s\n" % h for h in header))
        f.write("name,x,want\n")
        f.write("".join(line + "\n" for line in lines))


def main():
    mp.mp.dps = DPS
    check_closed_form()
    sets = [
        ("Digamma", digamma_points()),
        ("Erfcx", erfcx_points()),
        ("digammaHalfStep", half_step_points()),
        ("lgammaHalfStep", half_step_points()),
        ("softplus", softplus_points()),
        ("sigmoid", softplus_points()),
        ("expTaylor", exp_points()),
        ("log1pEstrin", log1p_points()),
        ("studentTLogX", log_x_points()),
    ]
    lines = []
    for name, xs in sets:
        for x in xs:
            v = evaluate(name, x)
            # Results outside the normal range (softplus(-745) underflows)
            # cannot be compared relatively;
            # special_test.go checks them in closed form.
            if MIN_NORMAL <= abs(v) <= MAX_FLOAT:
                lines.append(row(name, x, v))
    write(
        "special_ref.csv",
        ["Generated by testdata/gen_special.py (mpmath, %d and %d digits); do not edit." % (DPS, DPS + 20)],
        lines,
    )

    lines = []
    for alpha in correction_points():
        extra = 20 + 2 * int(abs(math.log10(alpha)))
        pairs = [correction_pair(alpha, extra), correction_pair(alpha, extra + 20)]
        agree([p[0] for p in pairs], ("CorrectionA", alpha))
        agree([p[1] for p in pairs], ("correctionGap", alpha))
        lines += [row("CorrectionA", alpha, pairs[1][0]), row("correctionGap", alpha, pairs[1][1])]
    write(
        "correction_ref.csv",
        [
            "Generated by testdata/gen_special.py (mpmath, %d+ digits); do not edit." % DPS,
            "A(alpha) of paper Definition 3.1, solved from Eq. (3.15) at points that are not fit nodes.",
        ],
        lines,
    )


if __name__ == "__main__":
    main()
