"""Robustness of the fabriclab kernel under real Jupyter messaging.

A cell that throws, a runaway cell stopped by an interrupt, a cell after a compile error, a message
with a bad HMAC signature, and a kernel whose parent process dies.
"""
import os
import queue
import subprocess
import sys
import time
import unittest

from jupyter_client.manager import start_new_kernel
from jupyter_client.session import Session

TIMEOUT = 60


class Robustness(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.km, cls.kc = start_new_kernel(kernel_name="fabriclab", startup_timeout=120)

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel(now=True)

    def run_cell(self, code, timeout=TIMEOUT):
        """Executes code; returns (reply content, list of iopub messages of this request)."""
        msg_id = self.kc.execute(code)
        reply = self.kc.get_shell_msg(timeout=timeout)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.kc.get_shell_msg(timeout=timeout)
        outputs = []
        while True:
            msg = self.kc.get_iopub_msg(timeout=timeout)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                break
            outputs.append(msg)
        return reply["content"], outputs

    def assert_alive(self):
        content, outputs = self.run_cell("21 * 2")
        self.assertEqual(content["status"], "ok")
        results = [m for m in outputs if m["msg_type"] == "execute_result"]
        self.assertEqual(results[0]["content"]["data"]["text/plain"], "42")

    def test_exception_then_next_cell(self):
        content, outputs = self.run_cell('throw new IllegalArgumentException("bad rate");')
        self.assertEqual(content["status"], "error")
        self.assertIn("bad rate", content["evalue"])
        self.assert_alive()

    def test_compile_error_then_next_cell(self):
        content, outputs = self.run_cell('int q = "not a number";')
        self.assertEqual(content["status"], "error")
        traceback = "\n".join(next(m for m in outputs if m["msg_type"] == "error")["content"]["traceback"])
        self.assertIn("incompatible types", traceback)
        self.assert_alive()

    def test_interrupt_stops_a_cpu_bound_loop(self):
        msg_id = self.kc.execute("long n = 0; while (true) { n++; }")
        # wait until the cell is running
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            msg = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "execute_input":
                break
        time.sleep(1.0)
        self.km.interrupt_kernel()
        reply = self.kc.get_shell_msg(timeout=TIMEOUT)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.kc.get_shell_msg(timeout=TIMEOUT)
        self.assertEqual(reply["content"]["status"], "error")
        self.assertIn("interrupt", reply["content"]["evalue"].lower())
        self.assert_alive()

    def test_bad_signature_is_rejected_and_kernel_survives(self):
        forged = Session(key=b"not-the-right-key", username="intruder")
        forged.send(self.kc.shell_channel.socket, "execute_request",
                    {"code": 'System.out.println("forged");', "silent": False, "store_history": True,
                     "user_expressions": {}, "allow_stdin": False, "stop_on_error": True})
        # no reply may come for the forged request
        with self.assertRaises(queue.Empty):
            while True:
                msg = self.kc.get_shell_msg(timeout=3)
                self.assertNotEqual(msg["parent_header"].get("session"), forged.session)
        self.assert_alive()


class ParentDeath(unittest.TestCase):
    LAUNCHER = (
        "import sys, time\n"
        "from jupyter_client.manager import KernelManager\n"
        "km = KernelManager(kernel_name='fabriclab')\n"
        "km.start_kernel()\n"
        "print(km.provisioner.process.pid, flush=True)\n"
        "time.sleep(600)\n"
    )

    def test_kernel_exits_when_parent_dies(self):
        """jupyter_client sets JPY_PARENT_PID to the launching process; SIGKILL that process."""
        parent = subprocess.Popen([sys.executable, "-c", self.LAUNCHER], stdout=subprocess.PIPE, text=True)
        kernel_pid = int(parent.stdout.readline().strip())
        time.sleep(3)
        self.assertTrue(pid_alive(kernel_pid), "kernel did not start")
        parent.kill()
        parent.wait()
        deadline = time.time() + 15
        while pid_alive(kernel_pid) and time.time() < deadline:
            time.sleep(0.2)
        alive = pid_alive(kernel_pid)
        if alive:
            os.kill(kernel_pid, 9)
        self.assertFalse(alive, "kernel still running 15 s after its parent died")


def pid_alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


if __name__ == "__main__":
    unittest.main()
