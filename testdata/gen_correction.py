#!/usr/bin/env python3
"""Generate ../correction_table.go, the coefficient tables behind correctionA.

Run from anywhere (needs python3 and mpmath; on Debian: apt-get install
python3-mpmath):

    python3 testdata/gen_correction.py

The script is deterministic: rerunning it rewrites correction_table.go byte
for byte. It takes about ten seconds.

What it computes (paper: Definition 3.1, Eq. (3.15), Eq. (3.16), Lemma 3.1).
With x = alpha - A(alpha) the defining equation Eq. (3.15) reads
G(x) = alpha/(2 alpha + 1), where G(x) = x F(x) = (sqrt(pi)/2) sqrt(x) erfcx(sqrt(x))
increases from 0 to 1/2.  So alpha(x) = G(x)/(1 - 2 G(x)) is explicit and
x(alpha) = alpha - A(alpha) is found by a secant solve in log x at
50 significant digits.  Two smooth, bounded shapes are approximated:

  q(alpha) = (alpha - A(alpha))/alpha**2   for alpha < 1   (q(0) = 4/pi, Eq. (3.18))
  p(alpha) = alpha (1 - A(alpha))          for alpha >= 1  (p(inf) = 3/2, Eq. (3.18))

q on [0, 2**CORR_PIECE_MIN_EXP) is one polynomial in y = 2 alpha/2**CORR_PIECE_MIN_EXP - 1.
On [2**CORR_PIECE_MIN_EXP, 2**CORR_ASYM_EXP) each binade is cut into
2**SUB_BITS equal pieces, each carrying a degree-DEGREE polynomial in the
local coordinate y in [-1, 1), read straight from the float64 bits in Go.
The polynomials are Chebyshev interpolants converted to the monomial basis,
which is well conditioned here: the monomial coefficients fall off by a
factor 10 or more per degree, so Horner's rule in float64 is accurate.
For alpha >= 2**CORR_ASYM_EXP, p is the asymptotic series in w = 1/alpha,
obtained exactly (rational arithmetic) by inverting the asymptotic series
of erfc (Abramowitz & Stegun 7.1.23), as in the proof of Lemma A.2.

Every piece is checked at CHECKS_PER_PIECE equally spaced points, ends
included, none of them an interpolation node; the script fails unless the approximation error, measured on the quantities the
Go code returns (A and alpha - A), stays below MAX_REL_ERR.  The Go tests
check the result again against testdata/correction_ref.csv, which
gen_special.py computes by a different method at different points.
"""

import os
from fractions import Fraction

import mpmath as mp

mp.mp.dps = 50

CORR_PIECE_MIN_EXP = -4  # pieces start at alpha = 2**-4
CORR_ASYM_EXP = 8  # asymptotic series from alpha = 2**8
SUB_BITS = 2  # 4 pieces per binade
DEGREE = 11  # polynomial degree on every piece
ASYM_TERMS = 10  # terms of the asymptotic series of p
MAX_REL_ERR = 2e-16  # bound on the approximation error, incl. coefficient rounding
CHECKS_PER_PIECE = 33

OUT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "correction_table.go"))


def G(x):
    """x F(x) of Eq. (3.16) in closed form."""
    s = mp.sqrt(x)
    return mp.sqrt(mp.pi) / 2 * s * mp.exp(x) * mp.erfc(s)


def alpha_of_gap(x):
    g = G(x)
    return g / (1 - 2 * g)


def gap(alpha):
    """alpha - A(alpha): inverts alpha(x) with a secant solve in log x."""
    alpha = mp.mpf(alpha)
    # 1 - 2 G(x) ~ 1/(2x) cancels about 2 log10(alpha) digits: add them back.
    target = mp.mpf(10) ** (5 - mp.mp.dps)
    extra = 10 + 2 * int(mp.log10(max(alpha, 1)))
    with mp.workdps(mp.mp.dps + extra):
        if alpha < 1:
            x0 = 4 / mp.pi * alpha**2
        else:
            x0 = alpha - 1 + mp.mpf(3) / (2 * alpha)
        lx = mp.findroot(lambda t: mp.log(alpha_of_gap(mp.exp(t)) / alpha), mp.log(x0))
        x = mp.exp(lx)
        assert abs(alpha_of_gap(x) / alpha - 1) < target, alpha
    return +x


def q_shape(alpha):
    if alpha == 0:
        return 4 / mp.pi  # the limit, Eq. (3.18)
    return gap(alpha) / alpha**2


def p_shape(alpha):
    return alpha * (1 - alpha + gap(alpha))


def chebyshev_monomial(f, lo, hi):
    """Degree-DEGREE Chebyshev interpolant of f on [lo, hi] in y in [-1, 1], monomial basis."""
    n = DEGREE + 1
    half = mp.mpf(1) / 2
    nodes = [mp.cos(mp.pi * (k + half) / n) for k in range(n)]
    values = [f((hi - lo) / 2 * y + (hi + lo) / 2) for y in nodes]
    cheb = [2 * mp.fsum(values[k] * mp.cos(mp.pi * j * (k + half) / n) for k in range(n)) / n for j in range(n)]
    cheb[0] /= 2
    basis = [[mp.mpf(1)], [mp.mpf(0), mp.mpf(1)]]
    for j in range(2, n):
        t = [mp.mpf(0)] + [2 * c for c in basis[j - 1]]
        for i, c in enumerate(basis[j - 2]):
            t[i] -= c
        basis.append(t)
    mono = [mp.mpf(0)] * n
    for j in range(n):
        for i, c in enumerate(basis[j]):
            mono[i] += cheb[j] * c
    return [float(c) for c in mono]


def horner(coefs, y):
    s = mp.mpf(0)
    for c in reversed(coefs):
        s = s * y + mp.mpf(c)
    return s


def output_errors(alpha, approx, exact, kind):
    """Relative errors of (A, alpha - A) caused by using approx instead of exact."""
    if kind == "q":
        g = alpha**2 * exact
        return abs(approx - exact) / exact, alpha**2 * abs(approx - exact) / (alpha - g)
    tail = exact / alpha  # 1 - A
    d = abs(approx - exact) / alpha
    return d / (1 - tail), d / (alpha - 1 + tail)


def fit_piece(lo, hi, kind):
    f = q_shape if kind == "q" else p_shape
    coefs = chebyshev_monomial(f, lo, hi)
    worst = mp.mpf(0)
    for k in range(CHECKS_PER_PIECE):
        y = -1 + mp.mpf(2 * k) / (CHECKS_PER_PIECE - 1)
        alpha = (hi - lo) / 2 * y + (hi + lo) / 2
        if alpha == 0:
            continue  # A(0) = 0 needs no approximation
        worst = max(worst, *output_errors(alpha, horner(coefs, y), f(alpha), kind))
    assert worst < MAX_REL_ERR, (lo, hi, worst)
    return coefs, worst


def double_factorial(n):
    r = 1
    while n > 1:
        r *= n
        n -= 2
    return r


def series_mul(a, b, n):
    c = [Fraction(0)] * n
    for i, x in enumerate(a[:n]):
        for j, y in enumerate(b[: n - i]):
            c[i + j] += x * y
    return c


def series_inv(a, n):
    b = [Fraction(0)] * n
    b[0] = 1 / a[0]
    for k in range(1, n):
        b[k] = -sum(a[j] * b[k - j] for j in range(1, k + 1)) / a[0]
    return b


def series_compose(a, b, n):
    """a(b(w)) for b(0) = 0."""
    out = [Fraction(0)] * n
    power = [Fraction(1)] + [Fraction(0)] * (n - 1)
    for k in range(n):
        out = [o + a[k] * p for o, p in zip(out, power)]
        power = series_mul(power, b, n)
    return out


def asymptotic_p(terms):
    """Exact coefficients c_k of p(alpha) ~ sum c_k alpha**-k as alpha -> inf."""
    n = terms + 3
    # G(x) ~ sum (-1)^k (2k-1)!! / 2^(k+1) u^k, u = 1/x (A&S 7.1.23).
    g = [Fraction((-1) ** k * double_factorial(2 * k - 1), 2 ** (k + 1)) for k in range(n)]
    one_minus_2g = [1 - 2 * g[0]] + [-2 * c for c in g[1:]]
    w_of_u = series_mul(one_minus_2g, series_inv(g, n), n)  # w = 1/alpha = u - u^2 + ...
    u_of_w = [Fraction(0), 1 / w_of_u[1]] + [Fraction(0)] * (n - 2)
    for k in range(2, n):
        u_of_w[k] = -series_compose(w_of_u, u_of_w, n)[k] / w_of_u[1]
    # x = 1/u = (1/w) * 1/(u/w) = alpha - 1 + p/alpha.
    x_times_w = series_inv(u_of_w[1:] + [Fraction(0)], n)
    assert x_times_w[0] == 1 and x_times_w[1] == -1
    return x_times_w[2 : 2 + terms]


def check_asymptotic(coefs):
    worst = mp.mpf(0)
    for alpha in [mp.mpf(2) ** CORR_ASYM_EXP * f for f in (1, 1.3, 2, 7, 64, 4096)]:
        w = 1 / alpha
        approx = horner([float(c) for c in coefs], w)
        worst = max(worst, *output_errors(alpha, approx, p_shape(alpha), "p"))
    assert worst < MAX_REL_ERR, worst
    return worst


def go_row(coefs):
    return "{" + ", ".join(repr(float(c)) for c in coefs) + "},"


def main():
    piece_min = mp.mpf(2) ** CORR_PIECE_MIN_EXP
    small, worst = fit_piece(mp.mpf(0), piece_min, "q")
    pieces = []
    for e in range(CORR_PIECE_MIN_EXP, CORR_ASYM_EXP):
        for j in range(2**SUB_BITS):
            lo = mp.mpf(2) ** e * (1 + mp.mpf(j) / 2**SUB_BITS)
            hi = mp.mpf(2) ** e * (1 + mp.mpf(j + 1) / 2**SUB_BITS)
            coefs, err = fit_piece(lo, hi, "q" if e < 0 else "p")
            pieces.append((lo, hi, "q" if e < 0 else "p", coefs))
            worst = max(worst, err)
    asym = asymptotic_p(ASYM_TERMS)
    for c in asym:
        assert float(c) == c, c  # dyadic rationals: exact in float64
    worst = max(worst, check_asymptotic(asym))

    shift = 52 - SUB_BITS
    base = (1023 + CORR_PIECE_MIN_EXP) << SUB_BITS
    lines = [
        "// Code generated by testdata/gen_correction.py; DO NOT EDIT.",
        "",
        "package gcp",
        "",
        "// Tables for correctionA and correctionGap (paper: Definition 3.1, Eq. (3.16)).",
        "// Worst approximation error of A(α) and α−A(α) found by the generator,",
        "// coefficient rounding included: %s (relative)." % mp.nstr(worst, 3),
        "",
        "const (",
        "\t// corrPieceMin is where the piecewise polynomials start; below it",
        "\t// corrSmall is used.",
        "\tcorrPieceMin = 0x1p%d" % CORR_PIECE_MIN_EXP,
        "\t// corrAsymMin is where the asymptotic series corrAsym takes over.",
        "\tcorrAsymMin = 0x1p%d" % CORR_ASYM_EXP,
        "\t// A float64 α in [corrPieceMin, corrAsymMin) with bits b lies in piece",
        "\t// b>>corrPieceShift − corrPieceBase (%d pieces per binade); its local" % 2**SUB_BITS,
        "\t// coordinate is y = (b&corrPieceMask)·corrPieceScale − 1 ∈ [−1, 1).",
        "\tcorrPieceShift = %d" % shift,
        "\tcorrPieceBase  = %d" % base,
        "\tcorrPieceMask  = 1<<corrPieceShift - 1",
        "\tcorrPieceScale = 0x1p-%d" % (shift - 1),
        ")",
        "",
        "// corrSmall approximates q(α) = (α−A(α))/α² on [0, corrPieceMin] as a",
        "// polynomial in y = 2α/corrPieceMin − 1; q(0) = 4/π (paper: Eq. (3.18)).",
        "var corrSmall = [%d]float64%s" % (DEGREE + 1, go_row(small)[:-1]),
        "",
        "// corrPieces[i] approximates, as a polynomial in the local coordinate y,",
        "// q(α) = (α−A(α))/α² on the pieces below α = 1 and p(α) = α(1−A(α)) on",
        "// the pieces from α = 1 on.",
        "var corrPieces = [%d][%d]float64{" % (len(pieces), DEGREE + 1),
    ]
    for lo, hi, kind, coefs in pieces:
        lines.append("\t// α ∈ [%s, %s): %s(α)" % (mp.nstr(lo, 17), mp.nstr(hi, 17), kind))
        lines.append("\t" + go_row(coefs))
    lines += [
        "}",
        "",
        "// corrAsym holds the exact coefficients c_k of the asymptotic series",
        "// p(α) = α(1−A(α)) ~ Σ c_k α^−k, α → ∞; c_0 = 3/2 (paper: Eq. (3.18)).",
        "var corrAsym = [%d]float64{" % len(asym),
    ]
    width = max(len(repr(float(c))) for c in asym) + 2  # gofmt aligns the comments
    for c in asym:
        lines.append("\t%s// %s" % ((repr(float(c)) + ",").ljust(width), c))
    lines += ["}", ""]
    with open(OUT, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))
    print("wrote %s; worst relative approximation error %s" % (OUT, mp.nstr(worst, 3)))


if __name__ == "__main__":
    main()
