"""Profile a few training steps of a CUDA extension model."""
import torch
import torch.cuda.profiler as profiler
from torch.cuda import nvtx


def cuda_major():
    return int(torch.version.cuda.split(".")[0])


def run(model, batch, steps=10):
    if torch.version.cuda is None:  # CPU or ROCm build
        print("no CUDA toolkit version")
    for step in range(steps):
        if step == 3:
            profiler.start()
        nvtx.range_push(f"step {step}")
        model(batch).sum().backward()
        nvtx.range_pop()
    torch.cuda.profiler.stop()
