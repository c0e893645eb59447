"""Executes one notebook with the fabriclab kernel through nbclient (what nbconvert --execute uses).

usage: run_notebook.py NOTEBOOK OUTPUT_DIR [--compare [--other-jdk]]
Writes OUTPUT_DIR/NAME.ipynb (executed) and exits non-zero, printing the failing cell's error, when a
cell fails or when an output holds an error. With --compare it also fails when the fresh outputs differ
from the outputs committed in NOTEBOOK (./reproduce writes them back), naming the cells that differ: the
figures and tables a reader sees in the repository must be what the code gives. --other-jdk: the kernel runs
on another JDK than the one the notebook was committed with (bin/test-kernel-jdk), so the Java version in
metadata.language_info may differ; every output must still be the same.
"""
import json
import os
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError


def describe(outputs):
    """A short, readable digest of a cell's outputs (images by size, text by its first line)."""
    parts = []
    for o in outputs:
        kind = o.get("output_type")
        if kind == "stream":
            parts.append(f"stream {o.get('name')}: {o.get('text', '')[:120]!r}")
        elif kind == "error":
            parts.append(f"error {o.get('ename')}: {o.get('evalue', '')[:120]!r}")
        else:
            data = o.get("data", {})
            parts.append(kind + " " + ", ".join(
                f"{k} ({len(v) if isinstance(v, str) else len(json.dumps(v))} chars: {str(v)[:60]!r})" for k, v in sorted(data.items())))
    return "\n      ".join(parts) or "(no output)"


def differences(committed, fresh, other_jdk=False):
    """Cells whose outputs or execution count differ between the committed and the fresh notebook."""
    problems = []
    if len(committed.cells) != len(fresh.cells):
        return [f"{len(committed.cells)} cells committed, {len(fresh.cells)} executed"]
    for i, (a, b) in enumerate(zip(committed.cells, fresh.cells)):
        if a.cell_type != "code":
            continue
        if a.get("execution_count") != b.get("execution_count") or a.get("outputs") != b.get("outputs"):
            problems.append(f"cell {i} (id {a.get('id')}), execution_count {a.get('execution_count')} vs {b.get('execution_count')}:\n"
                            f"    committed: {describe(a.get('outputs', []))}\n    fresh:     {describe(b.get('outputs', []))}")
    info_a, info_b = dict(committed.metadata.get("language_info", {})), dict(fresh.metadata.get("language_info", {}))
    if other_jdk:
        info_a.pop("version", None)
        info_b.pop("version", None)
    if info_a != info_b:
        problems.append(f"metadata.language_info {committed.metadata.get('language_info')} vs {fresh.metadata.get('language_info')}")
    return problems


def main():
    path, out_dir = sys.argv[1], sys.argv[2]
    compare = "--compare" in sys.argv[3:]
    nb = nbformat.read(path, as_version=4)
    committed = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, kernel_name="fabriclab", timeout=1800, startup_timeout=120, record_timing=False,
                            resources={"metadata": {"path": os.path.dirname(os.path.abspath(path))}})
    start = time.time()
    try:
        client.execute()
    except CellExecutionError as e:
        print(f"FAILED {path}: {e}", file=sys.stderr)
        return 1
    finally:
        os.makedirs(out_dir, exist_ok=True)
        nbformat.write(nb, os.path.join(out_dir, os.path.basename(path)))
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if o.get("output_type") == "error"]
    if errors:
        print(f"FAILED {path}: error outputs: {errors}", file=sys.stderr)
        return 1
    if compare:
        problems = differences(committed, nb, other_jdk="--other-jdk" in sys.argv[3:])
        if problems:
            print(f"FAILED {path}: the committed outputs differ from a fresh execution (run ./reproduce {path} and "
                  f"commit the notebook):\n  " + "\n  ".join(problems), file=sys.stderr)
            return 1
    images = sum(1 for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                 if "image/png" in o.get("data", {}))
    print(f"ok {os.path.basename(path)}: {len(nb.cells)} cells, {images} inline figures, {time.time() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
