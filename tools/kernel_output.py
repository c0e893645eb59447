"""A cell printing N lines through kernelspecs, measured interleaved: stream messages, lines received,
seconds from execute_request to the idle status. usage: kernel_output.py ROUNDS LINES NAME=KERNELSPEC_DIR ..."""
import statistics
import sys
import time

from kernel_startup import spec_from
from jupyter_client.manager import KernelManager


def measure(spec, lines):
    km = KernelManager(kernel_name="fabriclab")
    km._kernel_spec = spec
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)
        kc.execute_interactive("1 + 1", timeout=120, output_hook=lambda m: None)
        t0 = time.perf_counter()
        msg_id = kc.execute(f'for (int i = 0; i < {lines}; i++) System.out.println("line " + i);')
        messages, text = 0, []
        while True:
            try:
                msg = kc.get_iopub_msg(timeout=60)
            except Exception:
                break  # nothing more within a minute
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "stream":
                messages += 1
                text.append(msg["content"]["text"])
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
        return messages, len("".join(text).splitlines()), time.perf_counter() - t0
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def main():
    rounds, lines = int(sys.argv[1]), int(sys.argv[2])
    variants = [(a.split("=", 1)[0], spec_from(a.split("=", 1)[1])) for a in sys.argv[3:]]
    seconds = {n: [] for n, _ in variants}
    for r in range(rounds):
        for name, spec in (variants if r % 2 == 0 else list(reversed(variants))):
            messages, received, s = measure(spec, lines)
            seconds[name].append(s)
            print(f"round {r + 1} {name}: {messages} stream messages, {received} of {lines} lines, {s:.2f} s", flush=True)
    for name, _ in variants:
        print(f"{name}: median {statistics.median(seconds[name]):.2f} s")


if __name__ == "__main__":
    main()
