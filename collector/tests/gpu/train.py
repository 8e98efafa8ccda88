"""A small PyTorch training loop for collector/tests/gpu/run.sh: an MLP on random data, each step
inside NVTX ranges (step > forward, backward, optimizer). Prints one JSON line with the NVTX ranges
it opened (exact counts the capture must hold) and the time of the timed steps:
  {"ranges": {"step": S, "forward": S, "backward": S, "optimizer": S}, "loopMs": MS, "kernels": K?}

  python train.py [--steps 300] [--warmup 20] [--profile]

--profile counts the GPU kernels of the same run with torch.profiler (CUPTI through Kineto); it
cannot run under nvtx-capture (CUPTI takes one subscriber), so run.sh runs it separately and
compares its kernel count with the capture's. The loop is deterministic (fixed shapes, no cuDNN
autotuning), so both runs launch the same kernels.
"""
import argparse
import json
import time

import torch


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()

    torch.manual_seed(0)
    torch.backends.cudnn.benchmark = False
    device = torch.device("cuda")
    model = torch.nn.Sequential(
        torch.nn.Linear(256, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512), torch.nn.ReLU(), torch.nn.Linear(512, 10)
    ).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = torch.nn.CrossEntropyLoss()
    data = torch.randn(64, 256, device=device)
    target = torch.randint(0, 10, (64,), device=device)
    ranges = {"step": 0, "forward": 0, "backward": 0, "optimizer": 0}

    def push(name: str) -> None:
        torch.cuda.nvtx.range_push(name)
        ranges[name] += 1

    def step() -> None:
        push("step")
        push("forward")
        loss = loss_fn(model(data), target)
        torch.cuda.nvtx.range_pop()
        push("backward")
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.cuda.nvtx.range_pop()
        push("optimizer")
        optimizer.step()
        torch.cuda.nvtx.range_pop()
        torch.cuda.nvtx.range_pop()

    profiler = None
    if args.profile:
        profiler = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA])
        profiler.__enter__()
    for _ in range(args.warmup):
        step()
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(args.steps):
        step()
    torch.cuda.synchronize()
    loop_ms = (time.perf_counter() - start) * 1000.0
    result = {"ranges": ranges, "loopMs": round(loop_ms, 3)}
    if profiler is not None:
        profiler.__exit__(None, None, None)
        events = profiler.events()
        result["kernels"] = sum(1 for e in events if getattr(e, "device_type", None) == torch.autograd.DeviceType.CUDA
                                and "memcpy" not in e.name.lower() and "memset" not in e.name.lower())
    print(json.dumps(result))


if __name__ == "__main__":
    main()
