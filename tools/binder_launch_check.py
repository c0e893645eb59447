#!/usr/bin/env python3
"""Binder's launch contract, checked inside the image as its user (bin/test-binder runs it there).

Run by the image's Jupyter Python, with the image's environment only, as the image's user.
Usage: binder_launch_check.py IMAGE_CONFIG_JSON LEFT_OUT_FILE
  IMAGE_CONFIG_JSON: the image's ENV, USER, WORKDIR and CMD (written by tools/dockerfile_chroot.py);
  LEFT_OUT_FILE: pinned requirements this build could not install (one `name==version` a line): their
  commands are reported as not checked instead of failing.
Prints one line per check and closes with 'N passed, N failed'; exits 1 when a check failed.
"""
import asyncio
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from importlib import metadata

NOTEBOOK = "notebooks/00-quickstart.ipynb"
KERNEL = "fabriclab"
results = []


def check(name, ok, detail=""):
    results.append(bool(ok))
    print(f"{'PASS' if ok else 'FAIL'}  {name}" + (f": {detail}" if detail else ""), flush=True)
    return ok


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def shebang_interpreter(path):
    with open(path, "rb") as f:
        first = f.readline().decode(errors="replace").strip()
    return first[2:].split()[0] if first.startswith("#!") else None


def jupyter_commands():
    """{name: [paths in PATH order]} for every jupyter* command on PATH."""
    found, seen = {}, set()
    for directory in os.environ["PATH"].split(":"):
        if not os.path.isdir(directory) or os.path.realpath(directory) in seen:
            continue  # /bin is /usr/bin on Debian 12
        seen.add(os.path.realpath(directory))
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            if name.startswith("jupyter") and os.access(path, os.X_OK) and os.path.isfile(path):
                found.setdefault(name, []).append(path)
    return found


def check_environment(left_out):
    prefix = sys.prefix
    check("the checker runs as uid 1000", os.getuid() == 1000, f"uid {os.getuid()}")
    check("one Jupyter environment: a venv", sys.prefix != sys.base_prefix, f"prefix {prefix}")
    cfg = open(os.path.join(prefix, "pyvenv.cfg")).read()
    check("the venv does not see the system's site packages",
          "include-system-site-packages = false" in cfg)
    commands = jupyter_commands()
    required = ["jupyter", "jupyter-notebook", "jupyter-lab", "jupyter-server", "jupyterhub-singleuser"]
    skipped = {line.split("==")[0].strip().lower() for line in left_out}
    for name in required:
        if name == "jupyterhub-singleuser" and "jupyterhub" in skipped:
            print(f"SKIP  {name} on PATH: jupyterhub is not in this build (not in the local wheelhouse)")
            continue
        check(f"{name} on PATH", name in commands,
              commands.get(name, ["missing"])[0])
    interpreters = {}
    for name, paths in commands.items():
        for path in paths:
            interpreters[path] = shebang_interpreter(path)
    others = [p for p in interpreters if os.path.dirname(p) != os.path.join(prefix, "bin")]
    check("every jupyter command on PATH is in the environment's bin", not others,
          f"{len(interpreters)} commands in {prefix}/bin" if not others else f"elsewhere: {others}")
    distinct = set(interpreters.values())
    check("every jupyter command runs the same interpreter", len(distinct) == 1,
          ", ".join(sorted(str(d) for d in distinct)))
    interpreter = next(iter(distinct)) if len(distinct) == 1 else None
    check("that interpreter is this environment's python",
          interpreter is not None and os.path.dirname(interpreter) == os.path.join(prefix, "bin"),
          str(interpreter))
    versions = {}
    for dist in ["notebook", "jupyterlab", "jupyter_server", "jupyterhub", "ipywidgets",
                 "jupyterlab_widgets", "widgetsnbextension", "jupyter_client", "nbclient"]:
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
    print("      versions: " + ", ".join(f"{k} {v}" for k, v in versions.items() if v), flush=True)
    for dist in ["notebook", "jupyterlab", "ipywidgets", "jupyterlab_widgets"]:
        check(f"{dist} installed", versions[dist] is not None, str(versions[dist]))
    out = subprocess.run(["jupyter", "labextension", "list"], capture_output=True, text=True)
    text = out.stdout + out.stderr
    line = next((l for l in text.splitlines() if "@jupyter-widgets/jupyterlab-manager" in l), "")
    check("JupyterLab's widget manager extension enabled", "enabled" in line and "OK" in line,
          line.strip() or "not listed")
    out = subprocess.run(["jupyter", "kernelspec", "list", "--json"], capture_output=True, text=True)
    specs = json.loads(out.stdout)["kernelspecs"] if out.returncode == 0 else {}
    spec_dir = specs.get(KERNEL, {}).get("resource_dir", "")
    check("the Java kernel installed in the environment's data directory",
          spec_dir == os.path.join(prefix, "share/jupyter/kernels", KERNEL), spec_dir or "missing")


def check_home():
    home = os.environ["HOME"]
    probe = os.path.join(home, ".binder-write-probe")
    try:
        with open(probe, "w") as f:
            f.write("ok")
        os.remove(probe)
        writable = True
    except OSError as e:
        writable = False
        print(f"      {e}")
    check("HOME writable", writable, home)
    foreign = []
    for base, dirs, files in os.walk(home):
        for name in dirs + files:
            path = os.path.join(base, name)
            if os.lstat(path).st_uid != os.getuid():
                foreign.append(path)
    check("everything in HOME owned by the user", not foreign,
          f"{len(foreign)} not: {foreign[:3]}" if foreign else "")


class Server:
    """A Jupyter server started as a command, with a token of ours."""

    def __init__(self, argv, cwd):
        self.port = free_port()
        self.token = secrets.token_hex(16)
        kept, skip = [], False
        for arg in argv:  # the command's own address and port give way to ours
            if skip:
                skip = False
            elif arg in ("--port", "--ip"):
                skip = True
            elif not arg.startswith(("--port=", "--ip=", "--no-browser")):
                kept.append(arg)
        self.argv = kept + [f"--port={self.port}", "--ip=127.0.0.1", "--no-browser"]
        env = dict(os.environ, JUPYTER_TOKEN=self.token)
        self.log = open(f"/tmp/server-{self.port}.log", "w")
        self.proc = subprocess.Popen(self.argv, cwd=cwd, env=env, stdout=self.log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        self.base = f"http://127.0.0.1:{self.port}"

    def get(self, path, method="GET", body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Authorization": f"token {self.token}",
                                              "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def wait(self, timeout=180):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            try:
                if self.get("/api/status")[0] == 200:
                    return True
            except OSError:
                pass
            time.sleep(0.5)
        return False

    def stop(self):
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
            self.proc.wait(timeout=30)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.log.close()

    def tail(self, n=15):
        return "".join(open(self.log.name).readlines()[-n:])


async def run_notebook(server, kernel_id, cells, per_cell_timeout=300):
    """Each code cell as an execute_request on the kernel's websocket; returns (errors, rich outputs)."""
    from tornado.websocket import websocket_connect
    from tornado.httpclient import HTTPRequest
    session = uuid.uuid4().hex
    url = f"ws://127.0.0.1:{server.port}/api/kernels/{kernel_id}/channels?session_id={session}"
    ws = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {server.token}"}))
    errors, rich = [], 0
    for index, source in cells:
        msg_id = uuid.uuid4().hex
        await ws.write_message(json.dumps({
            "header": {"msg_id": msg_id, "username": "binder-test", "session": session,
                       "msg_type": "execute_request", "version": "5.3",
                       "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
            "parent_header": {}, "metadata": {}, "buffers": [], "channel": "shell",
            "content": {"code": source, "silent": False, "store_history": True,
                        "user_expressions": {}, "allow_stdin": False, "stop_on_error": True}}))
        replied = idle = False
        deadline = time.monotonic() + per_cell_timeout
        while not (replied and idle):
            left = deadline - time.monotonic()
            if left <= 0:
                errors.append(f"cell {index}: no reply in {per_cell_timeout} s")
                break
            raw = await asyncio.wait_for(ws.read_message(), timeout=left)
            if raw is None:
                errors.append(f"cell {index}: websocket closed")
                return errors, rich
            msg = json.loads(raw)
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind = msg["header"]["msg_type"]
            if kind == "execute_reply":
                replied = True
                if msg["content"].get("status") != "ok":
                    errors.append(f"cell {index}: {msg['content'].get('ename')}: "
                                  f"{msg['content'].get('evalue', '')[:200]}")
            elif kind == "error":
                errors.append(f"cell {index}: {msg['content'].get('ename')}")
            elif kind == "status" and msg["content"].get("execution_state") == "idle":
                idle = True
            elif kind in ("display_data", "execute_result"):
                data = msg["content"].get("data", {})
                if "image/png" in data or "text/html" in data or "image/svg+xml" in data:
                    rich += 1
    ws.close()
    return errors, rich


def check_binder_launch(config):
    """The command Binder (repo2docker) starts, and the notebook run through it."""
    argv = ["jupyter", "notebook", "--NotebookApp.default_url=/lab/"]
    server = Server(argv, config["workdir"])
    print(f"      started as uid {os.getuid()} in {config['workdir']}: {' '.join(server.argv)}", flush=True)
    try:
        started = time.monotonic()
        if not check("the server answers /api/status", server.wait(),
                     f"{time.monotonic() - started:.1f} s"):
            print(server.tail())
            return
        status, body = server.get("/api/kernelspecs")
        specs = json.loads(body).get("kernelspecs", {}) if status == 200 else {}
        display = specs.get(KERNEL, {}).get("spec", {}).get("display_name")
        check("GET /api/kernelspecs lists the Java kernel", display == "Java (fabriclab)",
              f"{sorted(specs)}; {KERNEL}: {display}")
        for path in ["/lab", f"/lab/tree/{NOTEBOOK}", "/tree"]:
            status, _ = server.get(path)
            check(f"GET {path}", status == 200, str(status))
        status, body = server.get(f"/api/contents/{NOTEBOOK}")
        if not check(f"GET /api/contents/{NOTEBOOK}", status == 200, str(status)):
            return
        notebook = json.loads(body)["content"]
        cells = [(i, "".join(c["source"]) if isinstance(c["source"], list) else c["source"])
                 for i, c in enumerate(notebook["cells"]) if c["cell_type"] == "code"]
        status, body = server.get("/api/sessions", "POST", {
            "path": NOTEBOOK, "name": os.path.basename(NOTEBOOK), "type": "notebook",
            "kernel": {"name": KERNEL}})
        if not check("POST /api/sessions starts the Java kernel", status == 201,
                     f"{status} {body[:200]!r}" if status != 201 else ""):
            print(server.tail())
            return
        session = json.loads(body)
        started = time.monotonic()
        errors, rich = asyncio.run(run_notebook(server, session["kernel"]["id"], cells))
        seconds = time.monotonic() - started
        check(f"{NOTEBOOK} executed through the server, every code cell without error", not errors,
              f"{len(cells)} code cells, {rich} figures/tables displayed, {seconds:.1f} s"
              + (f"; {errors[:3]}" if errors else ""))
        check(f"{NOTEBOOK} displayed figures or tables", rich > 0, str(rich))
        status, _ = server.get(f"/api/sessions/{session['id']}", "DELETE")
        check("DELETE the session", status == 204, str(status))
    finally:
        server.stop()


def check_singleuser(left_out):
    if any(l.lower().startswith("jupyterhub==") for l in left_out):
        print("SKIP  jupyterhub-singleuser --version: jupyterhub is not in this build "
              "(not in the local wheelhouse)")
        return
    out = subprocess.run(["jupyterhub-singleuser", "--version"], capture_output=True, text=True)
    check("jupyterhub-singleuser --version", out.returncode == 0, (out.stdout + out.stderr).strip())


def check_image_cmd(config):
    """The image's CMD, what `docker run` starts (port and address ours)."""
    server = Server(list(config["cmd"]), config["workdir"])
    try:
        print(f"      started as uid {os.getuid()} in {config['workdir']}: {' '.join(server.argv)}", flush=True)
        if not check("the image's CMD answers /api/status", server.wait()):
            print(server.tail())
            return
        status, _ = server.get("/lab")
        check("CMD: GET /lab", status == 200, str(status))
        status, body = server.get("/api/kernelspecs")
        check("CMD: /api/kernelspecs lists the Java kernel",
              status == 200 and KERNEL in json.loads(body).get("kernelspecs", {}))
        status, _ = server.get("/api/contents/" + os.path.basename(NOTEBOOK))
        check("CMD: the notebooks folder is the root", status == 200, str(status))
    finally:
        server.stop()


def main():
    config = json.load(open(sys.argv[1]))
    left_out = [l.strip() for l in open(sys.argv[2]) if l.strip()] if len(sys.argv) > 2 else []
    for line in left_out:
        print(f"SKIP  {line}: not installed in this build (not in the local wheelhouse; PyPI unreachable)")
    os.chdir(config["workdir"])
    check_environment(left_out)
    check_singleuser(left_out)
    check_binder_launch(config)
    check_image_cmd(config)
    check_home()
    passed, failed = results.count(True), results.count(False)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
