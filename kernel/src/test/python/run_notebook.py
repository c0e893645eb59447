"""Executes one notebook with the fabriclab kernel through nbclient (what nbconvert --execute uses).

usage: run_notebook.py NOTEBOOK OUTPUT_DIR
Writes OUTPUT_DIR/NAME.ipynb (executed) and exits non-zero, printing the failing cell's error, when a
cell fails or when an output holds an error.
"""
import os
import sys
import time

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError


def main():
    path, out_dir = sys.argv[1], sys.argv[2]
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, kernel_name="fabriclab", timeout=1800, startup_timeout=120,
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
    images = sum(1 for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                 if "image/png" in o.get("data", {}))
    print(f"ok {os.path.basename(path)}: {len(nb.cells)} cells, {images} inline figures, {time.time() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
