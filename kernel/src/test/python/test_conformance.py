"""The jupyter_kernel_test conformance suite against the installed fabriclab kernel.

Run with the kernelspec installed in JUPYTER_PATH / JUPYTER_DATA_DIR:
    /usr/bin/python3 -m unittest -v test_conformance
"""
import unittest

import jupyter_kernel_test


class FabriclabKernelTests(jupyter_kernel_test.KernelTests):
    kernel_name = "fabriclab"
    language_name = "java"
    file_extension = ".jshell"

    code_hello_world = 'System.out.println("hello, world");'
    code_stderr = 'System.err.println("oops");'

    completion_samples = [
        {"text": "Math.absE", "matches": {"absExact("}},
        {"text": "fabriclab.notebook.Fig", "matches": {"Figures"}},
    ]
    complete_code_samples = ["1 + 1", "int x = 1;", "void f() { }", "%jars /dev/null"]
    incomplete_code_samples = ["for (int i = 0; i < 3; i++) {", "int y = (1 +", "class A {"]
    invalid_code_samples = ["int x = 1 +;)"]

    code_execute_result = [
        {"code": "6 * 7", "result": "42"},
        {"code": "\"fab\" + \"ric\"", "result": "fabric"},
        {"code": "java.util.List.of(1, 2)", "result": "[1, 2]"},
    ]
    code_display_data = [
        {"code": 'display("shown");', "mime": "text/plain"},
        {"code": 'display(tech.tablesaw.api.Table.create("t", tech.tablesaw.api.IntColumn.create("n", 1, 2)));',
         "mime": "text/html"},
        {"code": 'var c = fabriclab.notebook.Figures.xy("t", "x [s]", "y [1]"); c.addSeries("s", new double[]{0, 1}, new double[]{1, 2}); display(c);',
         "mime": "image/png"},
    ]
    code_inspect_sample = "Math.abs"

    supported_history_operations = ("tail", "range", "search")
    code_history_pattern = "*6 * 7*"

    code_page_something = None
    code_generate_error = 'throw new IllegalStateException("deliberate");'

    def test_fabriclab_error_is_readable(self):
        self.flush_channels()
        reply, output_msgs = self.execute_helper(code='fabriclab.Parameters.positive("rate", -1)')
        self.assertEqual(reply["content"]["status"], "error")
        self.assertIn("rate must be", reply["content"]["evalue"])
        errors = [m for m in output_msgs if m["msg_type"] == "error"]
        self.assertEqual(len(errors), 1)
        self.assertIn("rate must be", "\n".join(errors[0]["content"]["traceback"]))


if __name__ == "__main__":
    unittest.main()
