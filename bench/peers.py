#!/usr/bin/env python3
"""The CPU peers a user would pick instead of gcp, timed on gcp's benchmark shapes.

The same four-head GCP network (D inputs -> 4 heads x H hidden units, ReLU,
one output per head: m, beta = softplus, nu = softplus, alpha = 1 + softplus)
and the same weights in every framework that is installed:

  * PyTorch eager, and TorchScript (torch.jit.script of the same module);
  * ONNX Runtime (the PyTorch module exported to ONNX), plain and with
    IOBinding, for the prediction rows and the layer product;
  * JAX, jit-compiled, with a hand-written Adam step.

A framework that is not installed is skipped with a line that says so. Each
side runs on one thread (and on one core, with --cpu N); every figure is the
median of --rounds rounds. Before a peer is timed, its output is checked
against a float64 NumPy reference of the same computation (predictions:
m and the Student-t variance beta(nu+1)/((alpha-1)nu); the training step's
loss, the mean -ln t_{2alpha}(y | m, beta(nu+1)/(nu alpha)), before its
update, without dropout; the layer product), to float32 accuracy; a peer
that disagrees is reported, not timed.

The rows, with the go test benchmark each is compared with (float32):

  predict1   Predict, one row, D=13 H=50     BenchmarkPredict/D13H50
  predict256 PredictBatch, 256 rows          BenchmarkPredictBatch/D13H50
  step5      Step (Adam, dropout 0.1), batch 5     BenchmarkStep/D13H50/batch5
  step5000   Step, batch 5000                BenchmarkStep/D13H50/batch5000
  linear     Layer product 5000 x 90 -> 400 + ReLU  BenchmarkLinearForward/B5000D90n400

The gcp figures come from `go test -bench` run here (from the repository
root) or read from a file of its output (--go-file); gcp's column is the
kernel table models use (the first impl= of each benchmark that is not
generic, or --impl). The ratio column is the best peer's time over gcp's.

Usage:  python3 bench/peers.py [--quick] [--go-file FILE | --no-go] [--impl avx512] [--cpu 0]
Needs:  NumPy; and any of torch (Debian's python3-torch), onnxruntime, jax.
"""
import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import time

# One thread for every framework, set before any of them is imported.
for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(var, "1")
os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")

import numpy as np  # noqa: E402

D, H, HEADS = 13, 50, 4
LIN = (5000, 90, 400)  # rows, inputs, outputs of the layer product
LR, DROPOUT = 1e-4, 0.1


# --- the network and its float64 reference --------------------------------

def make_params(d=D, h=H, seed=1):
    """Glorot-uniform weights as gcp draws them (zero biases), float32."""
    r = np.random.default_rng(seed)
    lim1 = math.sqrt(6 / (d + h))
    lim2 = math.sqrt(6 / (h + 1))
    return {
        "w1": r.uniform(-lim1, lim1, (d, HEADS * h)).astype(np.float32),
        "b1": np.zeros(HEADS * h, np.float32),
        "w2": r.uniform(-lim2, lim2, (HEADS, h)).astype(np.float32),
        "b2": np.zeros(HEADS, np.float32),
    }


def softplus64(z):
    return np.where(z > 0, z + np.log1p(np.exp(-np.abs(z))), np.log1p(np.exp(-np.abs(z))))


def ref_heads(p, x):
    """The raw head outputs z (n x 4) in float64."""
    w1, b1 = p["w1"].astype(np.float64), p["b1"].astype(np.float64)
    hid = np.maximum(x.astype(np.float64) @ w1 + b1, 0).reshape(len(x), HEADS, -1)
    return np.einsum("nkh,kh->nk", hid, p["w2"].astype(np.float64)) + p["b2"].astype(np.float64)


def ref_predict(p, x):
    """m and the Student-t variance in float64."""
    z = ref_heads(p, x)
    m, beta, nu, am1 = z[:, 0], softplus64(z[:, 1]), softplus64(z[:, 2]), softplus64(z[:, 3])
    return m, beta * (nu + 1) / (am1 * nu)


def ref_loss(p, x, y):
    """The mean GCP loss in float64, without dropout."""
    z = ref_heads(p, x)
    m, beta, nu, alpha = z[:, 0], softplus64(z[:, 1]), softplus64(z[:, 2]), 1 + softplus64(z[:, 3])
    sigma = beta * (nu + 1) / nu
    lg = np.array([math.lgamma(a + 0.5) - math.lgamma(a) for a in alpha])
    logp = lg - 0.5 * np.log(2 * math.pi * sigma) - (alpha + 0.5) * np.log1p((y - m) ** 2 / (2 * sigma))
    return float(-logp.mean())


def ref_linear(x, w, b):
    return np.maximum(x.astype(np.float64) @ w.astype(np.float64) + b.astype(np.float64), 0)


def close(got, want, rel=1e-4, what=""):
    """Whether float32 results agree with the float64 reference: within rel
    of the largest reference magnitude (float32 carries 6e-8, and sums of a
    few hundred terms a few 1e-6)."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    err = np.max(np.abs(got - want)) / max(np.max(np.abs(want)), 1e-30)
    if not err <= rel:
        print(f"    {what}: off by {err:.2e} (relative) from the float64 reference: not timed")
        return False
    return True


# --- timing ------------------------------------------------------------------

def timed(fn, reps, rounds):
    """The median over rounds of the mean time of one call, in seconds."""
    for _ in range(max(3, reps // 10)):
        fn()
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(reps):
            fn()
        times.append((time.perf_counter() - t0) / reps)
    return statistics.median(times)


# --- the peers -----------------------------------------------------------------

def torch_peer(args, data):
    """PyTorch eager and TorchScript: {row: seconds per op} for each."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        print("PyTorch: not installed, skipped")
        return {}
    torch.set_num_threads(1)
    torch.manual_seed(1)
    p = data["params"]

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w1 = torch.nn.Parameter(torch.tensor(p["w1"]))
            self.b1 = torch.nn.Parameter(torch.tensor(p["b1"]))
            self.w2 = torch.nn.Parameter(torch.tensor(p["w2"]))
            self.b2 = torch.nn.Parameter(torch.tensor(p["b2"]))

        def heads(self, x, dropout: float):
            h = F.relu(torch.addmm(self.b1, x, self.w1))
            if dropout > 0:
                h = F.dropout(h, dropout, True)
            return (h.view(-1, 4, self.w2.shape[1]) * self.w2).sum(-1) + self.b2

        def forward(self, x):
            z = self.heads(x, 0.0)
            beta, nu, am1 = F.softplus(z[:, 1]), F.softplus(z[:, 2]), F.softplus(z[:, 3])
            return torch.stack([z[:, 0], beta * (nu + 1) / (am1 * nu)], 1)

        @torch.jit.export
        def loss(self, x, y, dropout: float):
            z = self.heads(x, dropout)
            m, beta, nu, alpha = z[:, 0], F.softplus(z[:, 1]), F.softplus(z[:, 2]), 1 + F.softplus(z[:, 3])
            sigma = beta * (nu + 1) / nu
            logp = torch.lgamma(alpha + 0.5) - torch.lgamma(alpha) - 0.5 * torch.log(2 * math.pi * sigma) \
                - (alpha + 0.5) * torch.log1p((y - m) ** 2 / (2 * sigma))
            return -logp.mean()

    out = {}
    for name, make in (("PyTorch eager", lambda: Net()), ("TorchScript", lambda: torch.jit.script(Net()))):
        res = {}
        net = make()
        with torch.inference_mode():
            ok = close(net(torch.tensor(data["x256"])).numpy().T, data["pred256"], what=f"{name} predictions")
        lx, lw, lb = (torch.tensor(data[k]) for k in ("lin_x", "lin_w", "lin_b"))
        ok_lin = close(F.relu(torch.addmm(lb, lx, lw)).numpy(), data["lin_ref"], what=f"{name} layer product")
        if ok:
            for row, key in (("predict1", "x1"), ("predict256", "x256")):
                x = torch.tensor(data[key])

                def once(x=x):
                    with torch.inference_mode():
                        return net(x)
                res[row] = timed(once, args.reps(row), args.rounds)
        if ok_lin and name == "PyTorch eager":
            with torch.inference_mode():
                res["linear"] = timed(lambda: F.relu(torch.addmm(lb, lx, lw)), args.reps("linear"), args.rounds)
        for row, batch in (("step5", 5), ("step5000", 5000)):
            x, y = torch.tensor(data[f"x{batch}"]), torch.tensor(data[f"y{batch}"])
            net = make()
            if not close(float(net.loss(x, y, 0.0)), data[f"loss{batch}"], what=f"{name} loss, batch {batch}"):
                continue
            opt = torch.optim.Adam(net.parameters(), lr=LR)

            def step(net=net, opt=opt, x=x, y=y):
                opt.zero_grad(set_to_none=True)
                net.loss(x, y, DROPOUT).backward()
                opt.step()
            res[row] = timed(step, args.reps(row), args.rounds)
        out[name] = res
    out["_torch"] = (torch, Net, F)
    return out


def onnx_peer(args, data, torch_parts):
    """ONNX Runtime, plain and with IOBinding, on the PyTorch module exported
    to ONNX: the prediction rows and the layer product."""
    try:
        import onnxruntime as ort
    except ImportError:
        print("ONNX Runtime: not installed, skipped")
        return {}
    if torch_parts is None:
        print("ONNX Runtime: needs PyTorch to export the model, skipped")
        return {}
    import io
    torch, Net, F = torch_parts
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL

    def session(module, example):
        buf = io.BytesIO()
        torch.onnx.export(module, example, buf, input_names=["x"], output_names=["y"],
                          dynamic_axes={"x": {0: "n"}, "y": {0: "n"}}, opset_version=13)
        return ort.InferenceSession(buf.getvalue(), opts, providers=["CPUExecutionProvider"])

    class Lin(torch.nn.Module):
        def forward(self, x):
            return F.relu(torch.addmm(torch.tensor(data["lin_b"]), x, torch.tensor(data["lin_w"])))

    pred = session(Net().eval(), torch.tensor(data["x1"]))
    lin = session(Lin(), torch.tensor(data["lin_x"]))
    if not close(pred.run(None, {"x": data["x256"]})[0].T, data["pred256"], what="ONNX Runtime predictions"):
        return {}
    plain, bound = {}, {}
    for row, key in (("predict1", "x1"), ("predict256", "x256")):
        x = data[key]
        plain[row] = timed(lambda x=x: pred.run(None, {"x": x}), args.reps(row), args.rounds)
        b = pred.io_binding()
        b.bind_cpu_input("x", x)
        b.bind_output("y", "cpu")
        bound[row] = timed(lambda b=b: pred.run_with_iobinding(b), args.reps(row), args.rounds)
    if close(lin.run(None, {"x": data["lin_x"]})[0], data["lin_ref"], what="ONNX Runtime layer product"):
        plain["linear"] = timed(lambda: lin.run(None, {"x": data["lin_x"]}), args.reps("linear"), args.rounds)
    return {"ONNX Runtime": plain, "ONNX Runtime IOBinding": bound}


def jax_peer(args, data):
    """JAX, jit-compiled: predictions, the layer product, and an Adam step."""
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        print("JAX: not installed, skipped")
        return {}
    jax.config.update("jax_platforms", "cpu")
    p0 = {k: jnp.asarray(v) for k, v in data["params"].items()}

    def heads(p, x, key, dropout):
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        if dropout > 0:
            keep = jax.random.bernoulli(key, 1 - dropout, h.shape)
            h = jnp.where(keep, h / (1 - dropout), 0)
        return (h.reshape(-1, HEADS, p["w2"].shape[1]) * p["w2"]).sum(-1) + p["b2"]

    @jax.jit
    def predict(p, x):
        z = heads(p, x, None, 0.0)
        beta, nu, am1 = jax.nn.softplus(z[:, 1]), jax.nn.softplus(z[:, 2]), jax.nn.softplus(z[:, 3])
        return jnp.stack([z[:, 0], beta * (nu + 1) / (am1 * nu)], 1)

    def loss(p, x, y, key, dropout):
        z = heads(p, x, key, dropout)
        m, beta, nu = z[:, 0], jax.nn.softplus(z[:, 1]), jax.nn.softplus(z[:, 2])
        alpha = 1 + jax.nn.softplus(z[:, 3])
        sigma = beta * (nu + 1) / nu
        lg = jax.scipy.special.gammaln
        logp = lg(alpha + 0.5) - lg(alpha) - 0.5 * jnp.log(2 * math.pi * sigma) \
            - (alpha + 0.5) * jnp.log1p((y - m) ** 2 / (2 * sigma))
        return -logp.mean()

    @jax.jit
    def step(p, m, v, t, x, y, key):
        """One Adam step (Kingma & Ba, Algorithm 1)."""
        g = jax.grad(loss)(p, x, y, key, DROPOUT)
        t = t + 1
        m = jax.tree_util.tree_map(lambda m, g: 0.9 * m + 0.1 * g, m, g)
        v = jax.tree_util.tree_map(lambda v, g: 0.999 * v + 0.001 * g * g, v, g)
        lr = LR * jnp.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
        p = jax.tree_util.tree_map(lambda p, m, v: p - lr * m / (jnp.sqrt(v) + 1e-8), p, m, v)
        return p, m, v, t

    lin = jax.jit(lambda x, w, b: jax.nn.relu(x @ w + b))
    res = {}
    if close(np.asarray(predict(p0, data["x256"])).T, data["pred256"], what="JAX predictions"):
        for row, key in (("predict1", "x1"), ("predict256", "x256")):
            x = jnp.asarray(data[key])
            res[row] = timed(lambda x=x: predict(p0, x).block_until_ready(), args.reps(row), args.rounds)
    lx, lw, lb = (jnp.asarray(data[k]) for k in ("lin_x", "lin_w", "lin_b"))
    if close(np.asarray(lin(lx, lw, lb)), data["lin_ref"], what="JAX layer product"):
        res["linear"] = timed(lambda: lin(lx, lw, lb).block_until_ready(), args.reps("linear"), args.rounds)
    for row, batch in (("step5", 5), ("step5000", 5000)):
        x, y = jnp.asarray(data[f"x{batch}"]), jnp.asarray(data[f"y{batch}"])
        if not close(float(loss(p0, x, y, None, 0.0)), data[f"loss{batch}"], what=f"JAX loss, batch {batch}"):
            continue
        state = [p0, jax.tree_util.tree_map(jnp.zeros_like, p0), jax.tree_util.tree_map(jnp.zeros_like, p0), 0,
                 jax.random.PRNGKey(1)]

        def once(state=state, x=x, y=y):
            state[4], key = jax.random.split(state[4])
            p, m, v, t = step(*state[:4], x, y, key)
            state[:4] = p, m, v, t
            jax.block_until_ready(p)
        res[row] = timed(once, args.reps(row), args.rounds)
    return {"JAX jit": res}


# --- gcp's figures -------------------------------------------------------------

GO_BENCH = {
    "predict1": r"BenchmarkPredict/D13H50/float32",
    "predict256": r"BenchmarkPredictBatch/D13H50/float32",
    "step5": r"BenchmarkStep/D13H50/batch5/float32",
    "step5000": r"BenchmarkStep/D13H50/batch5000/float32",
    "linear": r"BenchmarkLinearForward/B5000D90n400/float32",
}
OPS = {"predict1": 1, "predict256": 256, "step5": 5, "step5000": 5000, "linear": 2 * LIN[0] * LIN[1] * LIN[2]}
LABELS = {
    "predict1": "Predict, one row, D=13 H=50",
    "predict256": "PredictBatch, 256 rows",
    "step5": "Step (Adam, dropout 0.1), batch 5",
    "step5000": "Step, batch 5000",
    "linear": "Layer product 5000×90→400 + ReLU",
}


def go_figures(args):
    """{row: (seconds per op, impl)} from go test -bench output, medians."""
    if args.no_go:
        return {}
    if args.go_file:
        with open(args.go_file) as f:
            text = f.read()
    else:
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        pattern = "^Benchmark(Predict|PredictBatch|Step|LinearForward)$/^(D13H50|B5000D90n400)$/^(float32|batch5|batch5000)$/"
        cmd = ["go", "test", "-run", "^$", "-bench", pattern, "-benchtime", "0.2s" if args.quick else "0.5s",
               "-count", "2" if args.quick else "5", "."]
        print("running:", " ".join(cmd), file=sys.stderr)
        text = subprocess.run(cmd, cwd=root, capture_output=True, text=True, check=True).stdout
    runs = {}
    for line in text.splitlines():
        m = re.match(r"(Benchmark\S+?)(-\d+)?\s+\d+\s+([\d.]+) ns/op", line)
        if m:
            runs.setdefault(m.group(1), []).append(float(m.group(3)) * 1e-9)
    out = {}
    for row, prefix in GO_BENCH.items():
        impls = {}
        for name, ts in runs.items():
            rest = name[len(prefix):]
            if name.startswith(prefix) and re.fullmatch(r"(/float32)?/impl=\w+", rest):
                impls[rest.split("impl=")[1]] = statistics.median(ts)
        pick = args.impl or next((i for i in impls if i != "generic"), "generic")
        if pick in impls:
            out[row] = (impls[pick], pick)
    return out


def fmt(row, secs):
    """A figure in the unit its benchmark reports."""
    if row == "predict1":
        return f"{secs * 1e9:,.0f} ns" if secs < 1e-5 else f"{secs * 1e6:,.1f} µs"
    if row == "linear":
        return f"{OPS[row] / secs / 1e9:,.1f} GFLOP/s"
    return f"{OPS[row] / secs / 1e3:,.0f} k samples/s"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--go-file", help="read go test -bench output from this file")
    ap.add_argument("--no-go", action="store_true", help="time the peers only")
    ap.add_argument("--impl", help="gcp's kernel table to compare (default: the one models use)")
    ap.add_argument("--cpu", type=int, help="pin this process (and go test) to this core")
    args = ap.parse_args()
    scale = 0.1 if args.quick else 1
    reps = {"predict1": 2000, "predict256": 200, "step5": 500, "step5000": 5, "linear": 5}
    args.reps = lambda row: max(1, int(reps[row] * scale))
    if args.quick:
        args.rounds = min(args.rounds, 3)
    if args.cpu is not None:
        os.sched_setaffinity(0, {args.cpu})

    p = make_params()
    r = np.random.default_rng(2)
    data = {"params": p}
    for n in (1, 5, 256, 5000):
        data[f"x{n}"] = r.standard_normal((n, D)).astype(np.float32)
        data[f"y{n}"] = r.standard_normal(n).astype(np.float32)
    data["pred256"] = np.stack(ref_predict(p, data["x256"]))
    data["loss5"], data["loss5000"] = ref_loss(p, data["x5"], data["y5"]), ref_loss(p, data["x5000"], data["y5000"])
    data["lin_x"] = r.standard_normal((LIN[0], LIN[1])).astype(np.float32)
    data["lin_w"] = r.standard_normal((LIN[1], LIN[2])).astype(np.float32)
    data["lin_b"] = r.standard_normal(LIN[2]).astype(np.float32)
    data["lin_ref"] = ref_linear(data["lin_x"], data["lin_w"], data["lin_b"])

    peers = {}
    t = torch_peer(args, data)
    torch_parts = t.pop("_torch", None)
    peers.update(t)
    peers.update(onnx_peer(args, data, torch_parts))
    peers.update(jax_peer(args, data))
    gcp = go_figures(args)

    names = list(peers)
    impl = next((v[1] for v in gcp.values()), None)
    head = ["benchmark", f"gcp ({impl})" if impl else "gcp"] + names + ["gcp vs best peer"]
    print("| " + " | ".join(head) + " |")
    print("|" + " --- |" * len(head))
    for row in GO_BENCH:
        cells = [LABELS[row], fmt(row, gcp[row][0]) if row in gcp else "–"]
        best = None
        for n in names:
            s = peers[n].get(row)
            cells.append(fmt(row, s) if s else "–")
            if s and (best is None or s < best):
                best = s
        if best and row in gcp:
            ratio = best / gcp[row][0]
            cells.append(f"{ratio:.2f}× faster" if ratio >= 1 else f"{1 / ratio:.2f}× slower")
        else:
            cells.append("–")
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
