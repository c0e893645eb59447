"""See bin/kernel-startup: launch-to-first-kernel_info-reply time of kernelspecs, measured interleaved."""
import json
import os
import statistics
import sys
import time

from jupyter_client.kernelspec import KernelSpec
from jupyter_client.manager import KernelManager


def spec_from(directory):
    with open(os.path.join(directory, "kernel.json")) as f:
        return KernelSpec(resource_dir=os.path.abspath(directory), **json.load(f))


LATER_CELLS = 10


def first_reply_seconds(spec):
    """Seconds from launching the kernel process to its first kernel_info_reply, to the reply of a
    first cell (`1 + 1`, which waits for the JShell session), and the median of the next LATER_CELLS
    trivial cells, each from execute_request sent to execute_reply received (the per-cell overhead)."""
    km = KernelManager(kernel_name="fabriclab")
    km._kernel_spec = spec
    t0 = time.perf_counter()
    km.start_kernel(cwd=os.getcwd())
    kc = km.client()
    kc.start_channels()
    try:
        msg_id = kc.kernel_info()  # queued by ZeroMQ until the kernel binds its socket
        while True:
            reply = kc.get_shell_msg(timeout=120)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        info = time.perf_counter() - t0
        msg_id = kc.execute("1 + 1")
        while True:
            reply = kc.get_shell_msg(timeout=120)
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        first = time.perf_counter() - t0
        later = []
        for i in range(LATER_CELLS):
            t1 = time.perf_counter()
            msg_id = kc.execute(f"{i} + 1")
            while kc.get_shell_msg(timeout=120)["parent_header"].get("msg_id") != msg_id:
                pass
            later.append(time.perf_counter() - t1)
        return info, first, statistics.median(later)
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def main():
    rounds = int(sys.argv[1])
    variants = [(a.split("=", 1)[0], spec_from(a.split("=", 1)[1])) for a in sys.argv[2:]]
    times = {name: [] for name, _ in variants}
    cells = {name: [] for name, _ in variants}
    later = {name: [] for name, _ in variants}
    for r in range(rounds):
        order = variants if r % 2 == 0 else list(reversed(variants))  # interleaved, alternating order
        for name, spec in order:
            info, cell, next_cells = first_reply_seconds(spec)
            times[name].append(info)
            cells[name].append(cell)
            later[name].append(next_cells)
        print(f"round {r + 1}: " + ", ".join(f"{n} {times[n][-1]:.2f} s / {cells[n][-1]:.2f} s / {later[n][-1] * 1000:.0f} ms"
                                             for n, _ in variants), flush=True)
    base = variants[0][0]
    for name, _ in variants:
        xs = times[name]
        ratios = [x / b for x, b in zip(xs, times[base])]
        print(f"{name}: first kernel_info reply after median {statistics.median(xs):.2f} s "
              f"(min {min(xs):.2f}, max {max(xs):.2f}, n={len(xs)}); per-round ratio to {base}: "
              f"median {statistics.median(ratios):.2f}")
    for name, _ in variants:
        xs = cells[name]
        ratios = [x / b for x, b in zip(xs, cells[base])]
        print(f"{name}: first cell (1 + 1) answered after median {statistics.median(xs):.2f} s "
              f"(min {min(xs):.2f}, max {max(xs):.2f}); per-round ratio to {base}: median {statistics.median(ratios):.2f}")
    for name, _ in variants:
        xs = later[name]
        print(f"{name}: a later trivial cell answered in median {statistics.median(xs) * 1000:.0f} ms "
              f"(min {min(xs) * 1000:.0f}, max {max(xs) * 1000:.0f} ms; median of {LATER_CELLS} cells per round)")


if __name__ == "__main__":
    main()
