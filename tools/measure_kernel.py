"""See bin/measure-kernel."""
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

import nbformat
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
extra_flags = sys.argv[2:]

spec_dir = KernelSpecManager().get_kernel_spec("fabriclab").resource_dir
if extra_flags:  # a temporary kernelspec with the extra JVM flags, so the installed one is untouched
    tmp = tempfile.mkdtemp()
    os.makedirs(os.path.join(tmp, "kernels"))
    shutil.copytree(spec_dir, os.path.join(tmp, "kernels", "fabriclab"), symlinks=True)
    kj = os.path.join(tmp, "kernels", "fabriclab", "kernel.json")
    spec = json.load(open(kj))
    spec["argv"][1:1] = extra_flags
    json.dump(spec, open(kj, "w"))
    os.environ["JUPYTER_PATH"] = tmp
    os.environ["JUPYTER_DATA_DIR"] = tmp

notebook = os.environ.get("FABRICLAB_MEASURE_NOTEBOOK", "notebooks/00-quickstart.ipynb")
nb = nbformat.read(notebook, as_version=4)
code = [c.source for c in nb.cells if c.cell_type == "code"]


def peak_rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


starts, totals, peaks = [], [], []
for i in range(runs):
    t0 = time.perf_counter()
    km = KernelManager(kernel_name="fabriclab")
    km.start_kernel(cwd=os.path.abspath("notebooks"))
    kc = km.client()
    kc.start_channels()
    kc.wait_for_ready(timeout=120)
    t_ready = time.perf_counter()
    for src in code:
        reply = kc.execute_interactive(src, timeout=600, output_hook=lambda msg: None)
        if reply["content"]["status"] != "ok":
            sys.exit(f"cell failed: {reply['content'].get('evalue')}")
    pid = km.provisioner.process.pid
    peak = peak_rss_mb(pid)
    kc.stop_channels()
    km.shutdown_kernel(now=False)
    t_end = time.perf_counter()
    starts.append(t_ready - t0)
    totals.append(t_end - t0)
    peaks.append(peak)
    print(f"run {i + 1}: start {starts[-1]:.2f} s, quickstart end-to-end {totals[-1]:.2f} s, peak RSS {peak:.0f} MB", flush=True)


def summary(name, xs, unit):
    print(f"{name}: median {statistics.median(xs):.2f} {unit} (min {min(xs):.2f}, max {max(xs):.2f}, n={len(xs)})")


print("flags:", " ".join(extra_flags) or "(kernel.json defaults)")
summary("kernel start", starts, "s")
summary(f"{os.path.basename(notebook)} end-to-end", totals, "s")
summary("kernel peak RSS", peaks, "MB")
