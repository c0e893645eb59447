"""See `./bench kernel-latency`: per-cell latency of the fabriclab kernel against ipykernel, in one run.

Usage: kernel_latency.py FABRICLAB_KERNELSPEC_DIR [N=60] [WARMUP=30] [ROUNDS=3]

Prints, for each kernel, the median time of N trivial cells (execute_request sent to execute_reply received)
after WARMUP such cells, the two kernels' cells interleaved one by one, and the ratio of the medians; then, in
the fabriclab kernel, the time of a cell defining 40 short methods against a cell defining one; then the time
from an interrupt sent during a fresh kernel's first cell to that cell's reply, over ROUNDS fresh kernels.
"""
import json
import os
import statistics
import subprocess
import sys
import time

from jupyter_client.kernelspec import KernelSpec, KernelSpecManager
from jupyter_client.manager import KernelManager


def spec_from(directory):
    with open(os.path.join(directory, "kernel.json")) as f:
        return KernelSpec(resource_dir=os.path.abspath(directory), **json.load(f))


def start(spec, name):
    km = KernelManager(kernel_name=name)
    km._kernel_spec = spec
    km.start_kernel(cwd=os.getcwd(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    kc = km.client()
    kc.start_channels()
    return km, kc


def stop(km, kc):
    kc.stop_channels()
    km.shutdown_kernel(now=True)


def wait_reply(kc, msg_id, timeout=300):
    while True:
        reply = kc.get_shell_msg(timeout=timeout)
        if reply["parent_header"].get("msg_id") == msg_id:
            return reply


def drain_iopub(kc):
    while True:
        try:
            kc.get_iopub_msg(timeout=0)
        except Exception:
            return


def timed_cell(kc, code):
    """Seconds from execute_request sent to execute_reply received, and the reply."""
    drain_iopub(kc)
    t0 = time.perf_counter()
    reply = wait_reply(kc, kc.execute(code))
    return time.perf_counter() - t0, reply


def ok(reply, what):
    if reply["content"]["status"] != "ok":
        sys.exit(f"kernel-latency: {what} failed: {reply['content']}")


def cpu_seconds(km):
    """CPU time (user + system) the kernel's process has used so far."""
    with open(f"/proc/{km.provisioner.process.pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def methods_cell(n, tag):
    return "\n".join(f"int m{tag}_{i}(int x) {{ return x + {i}; }}" for i in range(n))


def first_cell_interrupt(spec):
    """A fresh kernel: its first cell (which waits for the JShell session) is sent as soon as kernel_info is
    answered, an interrupt 0.1 s later; seconds from the interrupt sent to the cell's reply, and its status."""
    km, kc = start(spec, "fabriclab")
    try:
        wait_reply(kc, kc.kernel_info(), timeout=120)
        msg_id = kc.execute("1 + 1")
        time.sleep(0.1)
        t0 = time.perf_counter()
        km.interrupt_kernel()
        reply = wait_reply(kc, msg_id, timeout=120)
        return time.perf_counter() - t0, reply["content"].get("ename", reply["content"]["status"])
    finally:
        stop(km, kc)


def main():
    spec_dir = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    warmup = int(sys.argv[3]) if len(sys.argv) > 3 else 30
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    ours = spec_from(spec_dir)
    python = KernelSpecManager().get_kernel_spec("python3")
    print(f"fabriclab kernel: {spec_dir} ({ours.argv[0]}); ipykernel: {python.resource_dir}; "
          f"load average {os.getloadavg()[0]:.1f}", flush=True)
    kernels = {"fabriclab": start(ours, "fabriclab"), "ipykernel": start(python, "python3")}
    try:
        for name, (km, kc) in kernels.items():
            wait_reply(kc, kc.kernel_info(), timeout=120)
            for i in range(warmup):
                _, reply = timed_cell(kc, f"{i} + 1")
                ok(reply, f"{name} warm-up cell")
        times = {name: [] for name in kernels}
        cpu = {name: -cpu_seconds(km) for name, (km, kc) in kernels.items()}
        for i in range(n):
            order = list(kernels.items()) if i % 2 == 0 else list(reversed(kernels.items()))
            for name, (km, kc) in order:
                seconds, reply = timed_cell(kc, f"{i} + 1")
                ok(reply, f"{name} cell")
                times[name].append(seconds)
        for name, (km, kc) in kernels.items():
            cpu[name] += cpu_seconds(km)
        med = {name: statistics.median(xs) for name, xs in times.items()}
        for name, xs in times.items():
            q = statistics.quantiles(xs, n=4)
            print(f"{name}: a later trivial cell ({{i}} + 1) answered in median {med[name] * 1000:.1f} ms "
                  f"(quartiles {q[0] * 1000:.1f} to {q[2] * 1000:.1f} ms; {n} cells after {warmup} of warm-up); "
                  f"process CPU {cpu[name] / n * 1000:.1f} ms per cell")
        print(f"ratio fabriclab / ipykernel: {med['fabriclab'] / med['ipykernel']:.2f}", flush=True)

        km, kc = kernels["fabriclab"]
        one, forty = [], []
        for r in range(rounds):
            seconds, reply = timed_cell(kc, methods_cell(1, f"a{r}"))
            ok(reply, "one-method cell")
            one.append(seconds)
            seconds, reply = timed_cell(kc, methods_cell(40, f"b{r}"))
            ok(reply, "40-method cell")
            forty.append(seconds)
        print(f"fabriclab: a cell defining 1 method {statistics.median(one) * 1000:.0f} ms, 40 methods "
              f"{statistics.median(forty) * 1000:.0f} ms (medians of {rounds}); ratio "
              f"{statistics.median(forty) / statistics.median(one):.1f}", flush=True)
    finally:
        for km, kc in kernels.values():
            stop(km, kc)

    answered = []
    for r in range(rounds):
        seconds, status = first_cell_interrupt(ours)
        answered.append(seconds)
        print(f"first-cell interrupt, fresh kernel {r + 1}: cell answered {seconds * 1000:.0f} ms after the interrupt ({status})",
              flush=True)
    print(f"fabriclab: an interrupt during a fresh kernel's first cell answered in median {statistics.median(answered) * 1000:.0f} ms "
          f"(min {min(answered) * 1000:.0f}, max {max(answered) * 1000:.0f}; load average {os.getloadavg()[0]:.1f})")


if __name__ == "__main__":
    main()
