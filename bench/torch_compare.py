#!/usr/bin/env python3
"""PyTorch peer for gcp's benchmarks: the same four-head GCP network on CPU.

Runs with Debian's python3-torch (apt-get install python3-torch) on one
thread and prints a Markdown table of

  * single-sample prediction latency (D=13, H=50): the four heads fused into
    one network (one [D x 4H] layer, one block-diagonal output via einsum),
    under torch.inference_mode(), with the links and the Student-t variance
    beta(nu+1)/((alpha-1)nu) -- the best PyTorch can do for this model;
  * training-step throughput (samples/s) at batch 5 and 5000: forward,
    the GCP loss -ln t_{2alpha}(y | m, beta(nu+1)/(nu alpha)), backward and an
    Adam step, with dropout 0.1 before the output, as in gcp's BenchmarkStep.

Compare with:  go test -run '^$' -bench 'Predict/D13H50|Step/D13H50' -benchmem
Usage:         python3 bench/torch_compare.py [--quick]
"""
import math
import sys
import time

import torch
import torch.nn.functional as F

torch.set_num_threads(1)
torch.manual_seed(1)

D, H, HEADS = 13, 50, 4


class GCPNet(torch.nn.Module):
    """Four heads (m, beta, nu, alpha), each D -> H (ReLU) -> 1, fused."""

    def __init__(self, dropout=0.0):
        super().__init__()
        self.hidden = torch.nn.Linear(D, HEADS * H)
        self.out_w = torch.nn.Parameter(torch.randn(HEADS, H) * 0.1 / math.sqrt(H))
        self.out_b = torch.nn.Parameter(torch.tensor([0.0, 0.5413, 0.5413, 0.5413]))
        self.dropout = dropout

    def forward(self, x):
        h = F.relu(self.hidden(x))
        if self.dropout > 0:
            h = F.dropout(h, self.dropout, self.training)
        z = torch.einsum("bkh,kh->bk", h.view(-1, HEADS, H), self.out_w) + self.out_b
        m = z[:, 0]
        beta = F.softplus(z[:, 1])
        nu = F.softplus(z[:, 2])
        alpha = 1 + F.softplus(z[:, 3])
        return m, alpha, beta, nu


def gcp_loss(m, alpha, beta, nu, y):
    sigma = beta * (nu + 1) / nu
    u = (y - m) ** 2 / (2 * sigma)
    logp = torch.lgamma(alpha + 0.5) - torch.lgamma(alpha) - 0.5 * torch.log(2 * math.pi * sigma) \
        - (alpha + 0.5) * torch.log1p(u)
    return -logp.mean()


def best_of(fn, reps, rounds=5):
    """The fastest mean time per call over several rounds, in seconds."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        best = min(best, (time.perf_counter() - t0) / reps)
    return best


def predict_latency(reps):
    net = GCPNet().eval()
    x = torch.randn(1, D)

    def once():
        with torch.inference_mode():
            m, alpha, beta, nu = net(x)
            var = beta * (nu + 1) / ((alpha - 1) * nu)
            return m, var

    for _ in range(100):
        once()
    return best_of(once, reps)


def step_throughput(batch, reps):
    net = GCPNet(dropout=0.1).train()
    opt = torch.optim.Adam(net.parameters(), lr=1e-4)
    x, y = torch.randn(batch, D), torch.randn(batch)

    def once():
        opt.zero_grad(set_to_none=True)
        loss = gcp_loss(*net(x), y)
        loss.backward()
        opt.step()

    for _ in range(10):
        once()
    return batch / best_of(once, reps, rounds=3)


def main():
    quick = "--quick" in sys.argv
    lat = predict_latency(200 if quick else 5000)
    s5 = step_throughput(5, 100 if quick else 2000)
    s5000 = step_throughput(5000, 3 if quick else 30)
    print(f"PyTorch {torch.__version__}, {torch.get_num_threads()} thread")
    print("| PyTorch CPU, one thread | value |")
    print("| --- | --- |")
    print(f"| Predict, single sample, D=13 H=50 | {lat * 1e9:,.0f} ns/op |")
    print(f"| Step, batch 5, Adam | {s5:,.0f} samples/s |")
    print(f"| Step, batch 5000, Adam | {s5000:,.0f} samples/s |")


if __name__ == "__main__":
    main()
