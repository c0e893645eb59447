"""%maven in a real kernel session: an artifact from Maven Central becomes usable in the same cell;
a missing artifact and an unreachable repository are readable cell errors, and the kernel lives on.

Uses a fresh local repository (FABRICLAB_MAVEN_LOCAL) so the artifact is really downloaded.
"""
import os
import tempfile
import time
import unittest

from jupyter_client.manager import start_new_kernel

TIMEOUT = 180


class MavenMagic(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.local = tempfile.mkdtemp(prefix="fabriclab-m2-")
        env = dict(os.environ, FABRICLAB_MAVEN_LOCAL=cls.local)
        cls.km, cls.kc = start_new_kernel(kernel_name="fabriclab", startup_timeout=120, env=env)

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel(now=True)

    def run_cell(self, code):
        reply = self.kc.execute_interactive(code, timeout=TIMEOUT, output_hook=self.collect)
        return reply["content"]

    def collect(self, msg):
        self.outputs.append(msg)

    def setUp(self):
        self.outputs = []

    def text(self, kind):
        parts = []
        for m in self.outputs:
            if m["msg_type"] == "stream" and kind == "stream":
                parts.append(m["content"]["text"])
            elif m["msg_type"] == "execute_result" and kind == "result":
                parts.append(m["content"]["data"]["text/plain"])
            elif m["msg_type"] == "error" and kind == "error":
                parts.append(m["content"]["ename"] + ": " + m["content"]["evalue"])
        return "".join(parts)

    def test_1_artifact_from_maven_central_is_usable_in_the_same_cell(self):
        content = self.run_cell('%maven org.apache.commons:commons-text:1.12.0\n'
                                'org.apache.commons.text.WordUtils.capitalizeFully("global scheduling ethernet")')
        self.assertEqual(content["status"], "ok", self.text("error"))
        self.assertIn("commons-text-1.12.0.jar", self.text("stream"))
        self.assertIn("commons-lang3-3.14.0.jar", self.text("stream"))
        self.assertEqual(self.text("result"), "Global Scheduling Ethernet")
        self.assertTrue(os.path.isdir(os.path.join(self.local, "org", "apache", "commons", "commons-text")))

    def test_2_missing_artifact_is_a_readable_error(self):
        content = self.run_cell("%maven org.fabriclab.nonexistent:no-such-artifact:9.9.9")
        self.assertEqual(content["status"], "error")
        self.assertIn("org.fabriclab.nonexistent:no-such-artifact:9.9.9", content["evalue"])
        self.setUp()
        self.assertEqual(self.run_cell("6 * 7")["status"], "ok")
        self.assertEqual(self.text("result"), "42")

    def test_3_unreachable_repository_is_a_readable_error(self):
        start = time.time()
        content = self.run_cell("%mavenRepo nowhere http://127.0.0.1:9/maven2\n"
                                "%maven org.fabriclab.nonexistent:no-such-artifact:9.9.9")
        self.assertEqual(content["status"], "error")
        self.assertIn("127.0.0.1:9", content["evalue"])
        self.assertLess(time.time() - start, 60)


if __name__ == "__main__":
    unittest.main()
