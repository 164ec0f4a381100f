#!/usr/bin/env python3
"""xent_torch.py: PyTorch's cross-entropy, forward plus backward, eager and under torch.compile, on chapter 9's shapes: checked against a double-precision row, then timed (CSV on stdout)."""
import argparse
import os
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="128256x4096:bf16",
                    help="comma-separated VxM:dtype (dtype bf16 or f32)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--no-compile", action="store_true")
    ap.add_argument("--l2-mb", type=int, default=60)
    a = ap.parse_args()
    # Every run compiles from scratch: a cache that an earlier run left behind would hand this one the kernels it
    # chose for other shapes (torch.compile's times moved by up to 27 % between two runs with it on).
    for var in ("TORCHINDUCTOR_FX_GRAPH_CACHE", "TORCHINDUCTOR_AUTOGRAD_CACHE"):
        os.environ.setdefault(var, "0")
    try:
        import torch
        import torch.nn.functional as F
        assert torch.cuda.is_available()
    except Exception:
        print("# skipped: no PyTorch with CUDA")
        return 0
    print(f"# torch {torch.__version__}, {torch.cuda.get_device_name(0)}")
    print("V,M,dtype,impl,status,us_median,us_min,us_max,compile_s")

    def step(x, labels):
        loss = F.cross_entropy(x, labels, ignore_index=-100)
        (g,) = torch.autograd.grad(loss, x)
        return loss, g

    compiled = None if a.no_compile else torch.compile(step, dynamic=True)
    for spec in a.shapes.split(","):
        vm, dt = spec.split(":")
        V, M = (int(t) for t in vm.split("x"))
        dtype = torch.bfloat16 if dt == "bf16" else torch.float32
        es = 2 if dt == "bf16" else 4
        nbytes = V * M * es
        slots = min(256, max(1, -(-4 * a.l2_mb * 2**20 // nbytes)))
        gen = torch.Generator(device="cuda").manual_seed(7)
        pool = [(torch.rand(M, V, device="cuda", generator=gen) * 16 - 8).to(dtype).requires_grad_(True)
                for _ in range(slots)]
        labels = torch.randint(0, V, (M,), device="cuda", generator=gen)
        labels[1::16] = -100
        calls = max(slots, 4)
        for name, fn in (("torch_eager", step), ("torch_compile", compiled)):
            if fn is None:
                continue
            t0 = time.time()
            loss, g = fn(pool[0], labels)
            torch.cuda.synchronize()
            compile_s = time.time() - t0
            # check one counting row against double precision
            r = 0
            x64 = pool[0][r].double()
            cnt = int((labels != -100).sum())
            p = torch.softmax(x64, 0)
            p[labels[r]] -= 1
            want = p / cnt
            err = (g[r].double() - want).abs().max().item()
            tol = (1 / 64 if dt == "bf16" else 1e-4) * want.abs().max().item() + 1e-6 / cnt
            status = "ok" if err <= tol else f"wrong (max err {err:.3g})"
            for _ in range(2):
                fn(pool[0], labels)
            torch.cuda.synchronize()
            ts = []
            for _ in range(a.rounds):
                e0 = torch.cuda.Event(enable_timing=True)
                e1 = torch.cuda.Event(enable_timing=True)
                e0.record()
                for j in range(calls):
                    fn(pool[j % slots], labels)
                e1.record()
                e1.synchronize()
                ts.append(e0.elapsed_time(e1) * 1000 / calls)
            ts.sort()
            print(f"{V},{M},{dt},{name},{status},{ts[len(ts)//2]:.2f},{ts[0]:.2f},{ts[-1]:.2f},{compile_s:.1f}",
                  flush=True)
        del pool
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())
