# mlp_step_numpy.py — the NumPy side of bench/mlp_step.sh: one training step of the residual GELU MLP (forward +
# backward + SGD update), fp32, one thread, the step of bench/mlp_step.cpp written with NumPy (its products go to
# the BLAS that Debian's python3-numpy links: OpenBLAS when libopenblas0 is installed). A baseline only: the course
# never runs NumPy.
#
#   OPENBLAS_NUM_THREADS=1 /usr/bin/python3 bench/mlp_step_numpy.py --width 512 --hidden 2048 --layers 4 --batch 64
#
# Per block, x (B, D), W_in (F, D), W_out (D, F):  H = x·W_inᵀ, A = gelu(H), x' = x + A·W_outᵀ; loss = mean (x_L − T)²;
# backward with the formulas of dsml/block_kernels.h: dW_out = dYᵀ·A, dA = dY·W_out, dH = dA ⊙ gelu'(H),
# dW_in = dHᵀ·x, dx = dH·W_in + dY. Like the C++, gelu' recomputes tanh from H. NumPy hands a transposed operand to
# BLAS as a flag, so weights stay in the layout the core keeps them in. Inputs come from the LCG of the other two
# programs, so the first step's loss and gradient checksum match theirs up to float rounding.
import json
import os
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy loads OpenBLAS
import numpy as np  # noqa: E402


def parse_args(argv):
    opts = {"width": 512, "hidden": 2048, "layers": 4, "batch": 64, "repeats": 20, "warmup": 3}
    for key, value in zip(argv[0::2], argv[1::2]):
        name = key.lstrip("-")
        if name not in opts:
            sys.exit(f"unknown option {key} (--width --hidden --layers --batch --repeats --warmup)")
        opts[name] = int(value)
    if len(argv) % 2:
        sys.exit(f"{argv[-1]} needs a value")
    return opts


class Lcg:
    """The LCG of bench/mlp_step.cpp (Numerical Recipes constants), vectorised: after n steps from s the state is
    aⁿ·s + c·(1 + a + … + aⁿ⁻¹) mod 2³², and uint64 arithmetic wraps mod 2⁶⁴, a multiple of 2³²."""

    A, C, CHUNK = 1664525, 1013904223, 1 << 16

    def __init__(self, seed):
        self.state = np.uint64(seed)
        powers = np.cumprod(np.full(self.CHUNK, self.A, dtype=np.uint64))   # a¹ … aⁿ
        self.mult = powers
        self.add = np.cumsum(np.concatenate((np.ones(1, np.uint64), powers[:-1]))) * np.uint64(self.C)

    def uniform(self, count):
        """`count` values uniform in [−1, 1) from the top 24 bits of each state, as float32."""
        out = np.empty(count, dtype=np.float32)
        for start in range(0, count, self.CHUNK):
            n = min(self.CHUNK, count - start)
            states = (self.mult[:n] * self.state + self.add[:n]) & np.uint64(0xFFFFFFFF)
            self.state = states[-1]
            out[start:start + n] = ((states >> np.uint64(8)).astype(np.float64) / 16777216.0 * 2.0 - 1.0)
        return out

    def matrix(self, rows, cols, scale):
        return self.uniform(rows * cols).reshape(rows, cols) * np.float32(scale)   # row-major, as the others fill


GELU_C, GELU_K = np.float32(np.sqrt(2 / np.pi)), np.float32(0.044715)


def gelu(h):
    return np.float32(0.5) * h * (np.float32(1) + np.tanh(GELU_C * (h + GELU_K * h * h * h)))


def gelu_derivative(h):
    t = np.tanh(GELU_C * (h + GELU_K * h * h * h))
    return (np.float32(0.5) * (np.float32(1) + t) +
            np.float32(0.5) * h * (np.float32(1) - t * t) * GELU_C * (np.float32(1) + np.float32(3) * GELU_K * h * h))


def train_step(x0, target, blocks, lr):
    """One step; updates `blocks` [(W_in, W_out)] in place, returns (loss, grads)."""
    xs, hs, acts = [], [], []
    x = x0
    for w_in, w_out in blocks:
        xs.append(x)
        hs.append(x @ w_in.T)               # (B, F)
        acts.append(gelu(hs[-1]))
        x = x + acts[-1] @ w_out.T          # (B, D)
    diff = x - target
    loss = float(np.mean(diff * diff))
    dy = diff * np.float32(2.0 / diff.size)
    grads = [None] * len(blocks)
    for l in reversed(range(len(blocks))):
        w_in, w_out = blocks[l]
        d_w_out = dy.T @ acts[l]                          # (D, F)
        dh = (dy @ w_out) * gelu_derivative(hs[l])        # (B, F)
        d_w_in = dh.T @ xs[l]                             # (F, D)
        dy = dh @ w_in + dy                               # (B, D), plus the residual's identity path
        grads[l] = (d_w_in, d_w_out)
    for (w_in, w_out), (d_w_in, d_w_out) in zip(blocks, grads):
        w_in -= np.float32(lr) * d_w_in
        w_out -= np.float32(lr) * d_w_out
    return loss, grads


def main():
    o = parse_args(sys.argv[1:])
    D, F, L, B = o["width"], o["hidden"], o["layers"], o["batch"]
    rng = Lcg(12345)
    x0, target = rng.matrix(B, D, 1.0), rng.matrix(B, D, 1.0)
    blocks = []
    for _ in range(L):
        w_in = rng.matrix(F, D, np.float32(1) / np.sqrt(np.float32(D)))
        w_out = rng.matrix(D, F, np.float32(1) / np.sqrt(np.float32(F)))
        blocks.append((w_in, w_out))
    initial = [(w_in.copy(), w_out.copy()) for w_in, w_out in blocks]
    lr = 1e-3
    loss, grads = train_step(x0, target, blocks, lr)   # the check step
    checksum = sum(float(g_in.sum(dtype=np.float64)) + float(g_out.sum(dtype=np.float64)) for g_in, g_out in grads)
    blocks = initial
    for _ in range(1, o["warmup"]):
        train_step(x0, target, blocks, lr)
    times = []
    for _ in range(o["repeats"]):
        start = time.perf_counter()
        train_step(x0, target, blocks, lr)
        times.append(time.perf_counter() - start)
    times.sort()
    median = times[len(times) // 2]
    flops = 3.0 * 2.0 * B * D * F * 2.0 * L
    blas = ", ".join(blas_libraries()) or "unknown"
    print(json.dumps({"impl": "numpy", "numpy": np.__version__, "blas": blas,
                      "threads": int(os.environ["OPENBLAS_NUM_THREADS"]),
                      "width": D, "hidden": F, "layers": L, "batch": B, "repeats": o["repeats"],
                      "seconds_per_step": median, "min_seconds": times[0], "gflops": flops / median / 1e9,
                      "flops_per_step": flops, "loss": loss, "grad_checksum": checksum}))


def blas_libraries():
    """The BLAS NumPy loaded, as the directory of its mapped libblas (Debian's alternatives: openblas-pthread, blas
    for the reference BLAS), read from /proc/self/maps since threadpoolctl is not installed."""
    with open("/proc/self/maps") as maps:
        paths = {line.split()[-1] for line in maps if "libblas" in line or "libopenblas" in line}
    return sorted({os.path.basename(os.path.dirname(p)) for p in paths})


if __name__ == "__main__":
    main()
