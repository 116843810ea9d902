"""Checks of bench/mvder.py's metric code against closed forms, run by
`python3 bench/mvder.py --selftest` (exit status 1 on a failure).

Each check compares with an independent value: a hand formula, a closed
form of a special case, or a Monte Carlo rate with its standard error.
"""
import math
import random
import statistics

import numpy as np
import torch

import mvder

T = torch.float64


def univariate_t_logpdf(x, loc, scale, nu):
    """The one-dimensional Student t's log density, written out by hand."""
    z = (x - loc) / scale
    return (math.lgamma((nu + 1) / 2) - math.lgamma(nu / 2) - 0.5 * math.log(nu * math.pi)
            - math.log(scale) - (nu + 1) / 2 * math.log1p(z * z / nu))


def check_t_logpdf_d1():
    """d = 1: the multivariate t's log density is the univariate t's."""
    for x, loc, scale, nu in ((0.3, -1.2, 0.7, 2.5), (5.0, 0.0, 1.0, 1.0), (-2.0, 0.5, 3.0, 30.0)):
        got = mvder.t_logpdf(torch.tensor([[x - loc]], dtype=T), torch.tensor([[[scale]]], dtype=T),
                             torch.tensor([nu], dtype=T)).item()
        want = univariate_t_logpdf(x, loc, scale, nu)
        # both in float64 from the same lgamma values: only rounding separates them
        assert abs(got - want) < 1e-12, (x, loc, scale, nu, got, want)


def check_t_logpdf_gaussian_limit():
    """ν → ∞: the t's log density tends to the Gaussian N(0, C·Cᵀ) at e."""
    C = torch.tensor([[[1.5, 0.0], [-0.4, 0.6]]], dtype=T)
    e = torch.tensor([[0.7, -0.2]], dtype=T)
    S = (C[0] @ C[0].T).numpy()
    v = e[0].numpy()
    want = -math.log(2 * math.pi) - 0.5 * math.log(np.linalg.det(S)) - 0.5 * v @ np.linalg.solve(S, v)
    got = mvder.t_logpdf(e, C, torch.tensor([1e6], dtype=T)).item()
    # the t's departure from the Gaussian is O(d²/ν), a few 1e-6 at ν = 1e6
    # (a larger ν loses more to the cancelling lgamma terms, each ~1e7)
    assert abs(got - want) < 2e-5, (got, want)


def check_paper_loss_is_t_nll():
    """Meinert & Lavin's loss, written in their log-determinant form, equals
    −log of the t that predictive() and t_logpdf give, less (d/2)·ln π."""
    g = torch.Generator().manual_seed(1)
    d = 3
    p = torch.randn(4, d * (d + 3) // 2 + 1, generator=g, dtype=T)
    y = torch.randn(4, d, generator=g, dtype=T)
    mu, L, nu = mvder.heads(p, d)
    ell = torch.log(torch.diagonal(L, dim1=1, dim2=2)).sum(1)
    e = y - mu
    paper = (torch.lgamma((nu - d + 1) / 2) - torch.lgamma((nu + 1) / 2) + d / 2 * torch.log(mvder.R + nu)
             - nu * ell + (nu + 1) / 2 * torch.logdet(L @ L.transpose(1, 2)
                                                      + e[:, :, None] * e[:, None, :] / (mvder.R + nu)[:, None, None]))
    nu_t, C = mvder.predictive(L, nu, d)
    ours = -mvder.t_logpdf(e, C, nu_t) - d / 2 * math.log(math.pi)
    # float64 rounding of logdet and of the triangular solve, on values of order 10
    assert torch.allclose(paper, ours, rtol=0, atol=1e-10), (paper, ours)
    lo, hi = float(nu.min()), float(nu.max())
    assert d + 1 < lo and hi < d + 11, (lo, hi)


def check_region_d2():
    """d = 2: P(q ≤ ρ) = 1 − (1 + ρ/ν)^(−ν/2), so the p-region's radius is
    ρ_p = ν((1−p)^(−2/ν) − 1); in_region must put that radius on the edge."""
    for nu in (2.3, 5.0, 40.0):
        for p in (0.5, 0.9, 0.95):
            rho = nu * ((1 - p) ** (-2 / nu) - 1)
            assert abs(mvder.f_cdf(rho / 2, 2, nu) - p) < 1e-12, (nu, p)
            assert mvder.in_region(rho * (1 - 1e-9), 2, nu, p) and not mvder.in_region(rho * (1 + 1e-9), 2, nu, p)


def check_region_d1():
    """d = 1: q = z² and P(|T| ≤ z) is closed for ν = 1 (Cauchy, (2/π)·atan z)
    and ν = 2 (z/√(2 + z²))."""
    for z in (0.1, 1.0, 4.5):
        assert abs(mvder.f_cdf(z * z, 1, 1) - 2 / math.pi * math.atan(z)) < 1e-12, z
        assert abs(mvder.f_cdf(z * z, 1, 2) - z / math.sqrt(2 + z * z)) < 1e-12, z


def check_sampler_regions():
    """Draws of a t (d = 3, ν = 4.5) fall in its p-regions at rate p, within
    4 binomial standard errors, and their covariance is ν/(ν−2)·S."""
    rng = np.random.default_rng(7)
    mu = np.array([1.0, -2.0, 0.5])
    C = np.array([[1.0, 0.0, 0.0], [0.8, 0.5, 0.0], [-0.3, 0.2, 2.0]])
    nu, m = 4.5, 20000
    ys = mvder.sample_t(mu, C, nu, m, rng)
    q = mvder.mahalanobis(torch.tensor(ys - mu), torch.tensor(C).expand(m, 3, 3)).numpy()
    for p in (0.5, 0.9, 0.95):
        rate = statistics.fmean(mvder.in_region(v, 3, nu, p) for v in q[:4000])
        se = math.sqrt(p * (1 - p) / 4000)
        assert abs(rate - p) < 4 * se, (p, rate)
    cov = np.cov(ys.T)
    want = nu / (nu - 2) * C @ C.T
    # a heavy-tailed t's sample covariance converges slowly (ν = 4.5: the
    # fourth moment exists only just): 10% of the largest entry
    assert np.abs(cov - want).max() < 0.1 * np.abs(want).max(), (cov, want)


def check_energy_score_gaussian():
    """d = 1 and ν → ∞: the energy score is the CRPS of N(m, s²),
    s·[z(2Φ(z) − 1) + 2φ(z) − 1/√π] with z = (y − m)/s."""
    rng = np.random.default_rng(3)
    for y, m, s in ((0.4, 0.0, 1.0), (3.0, 1.0, 0.5)):
        z = (y - m) / s
        phi = math.exp(-z * z / 2) / math.sqrt(2 * math.pi)
        crps = s * (z * math.erf(z / math.sqrt(2)) + 2 * phi - 1 / math.sqrt(math.pi))
        runs = [mvder.energy_score(np.array([y]), np.array([m]), np.array([[s]]), 1e9, np.array([2.0]), rng)
                for _ in range(20)]
        es = statistics.fmean(r[0] for r in runs)
        se = statistics.stdev(r[0] for r in runs) / math.sqrt(len(runs))
        assert abs(es - crps) < 4 * se + 1e-6, (y, m, s, es, crps, se)
        # the standardized score divides by scale 2: exactly half, draw for draw
        assert all(abs(r[1] - r[0] / 2) < 1e-12 for r in runs)


CHECKS = [check_t_logpdf_d1, check_t_logpdf_gaussian_limit, check_paper_loss_is_t_nll, check_region_d2,
          check_region_d1, check_sampler_regions, check_energy_score_gaussian]


def main():
    random.seed(0)
    failed = 0
    for check in CHECKS:
        try:
            check()
            print(f"ok   {check.__name__}")
        except AssertionError as e:
            failed += 1
            print(f"FAIL {check.__name__}: {e}")
    return 1 if failed else 0
