"""The fabriclab kernel behaves like ipykernel where notebooks and clients rely on it.

Each test talks to the real kernel through jupyter_client: output of a 100,000-line cell (every line,
in order, in few messages), stop_on_error (queued cells answered "aborted"), System.exit in a cell,
history, forward references in a cell, imports keeping the variables, error names and frames, table number precision, and the
smaller protocol points (execution count of silent cells, replies' status, is_complete, display ids,
arrays, output of background threads, interrupting a parallel stream, the project's location).

Run with the kernelspec installed in JUPYTER_PATH:  /usr/bin/python3 -m unittest -v test_behaviour
"""
import datetime
import os
import queue
import re
import tempfile
import time
import unittest

from jupyter_client.manager import start_new_kernel

TIMEOUT = 120


def chain(prefix, n):
    """n one-line methods: each calls the next one (a forward reference) and adds 1; the last returns x."""
    return "".join(f"int {prefix}{i}(int x) {{ return {f'{prefix}{i + 1}(x) + 1' if i + 1 < n else 'x'}; }}\n"
                   for i in range(n))


class KernelSession(unittest.TestCase):
    """One kernel for the class; helpers that collect a request's messages."""

    kernel_kwargs = {}

    @classmethod
    def setUpClass(cls):
        cls.km, cls.kc = start_new_kernel(kernel_name="fabriclab", startup_timeout=TIMEOUT, **cls.kernel_kwargs)

    @classmethod
    def tearDownClass(cls):
        cls.kc.stop_channels()
        cls.km.shutdown_kernel(now=True)

    def shell_reply(self, msg_id, timeout=TIMEOUT):
        reply = self.kc.get_shell_msg(timeout=timeout)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = self.kc.get_shell_msg(timeout=timeout)
        return reply

    def iopub_until_idle(self, msg_id, timeout=TIMEOUT):
        outputs = []
        while True:
            msg = self.kc.get_iopub_msg(timeout=timeout)
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
                return outputs
            outputs.append(msg)

    def run_cell(self, code, timeout=TIMEOUT, **kwargs):
        """Executes code; returns (reply content, iopub messages of this request)."""
        msg_id = self.kc.execute(code, **kwargs)
        outputs = self.iopub_until_idle(msg_id, timeout)
        return self.shell_reply(msg_id, timeout)["content"], outputs

    def result_text(self, code):
        content, outputs = self.run_cell(code)
        self.assertEqual(content["status"], "ok", content)
        results = [m for m in outputs if m["msg_type"] == "execute_result"]
        self.assertEqual(len(results), 1, outputs)
        return results[0]["content"]["data"]["text/plain"]

    def error_of(self, code):
        content, outputs = self.run_cell(code)
        self.assertEqual(content["status"], "error", content)
        errors = [m["content"] for m in outputs if m["msg_type"] == "error"]
        self.assertEqual(len(errors), 1, outputs)
        return content, errors[0]


class Output(KernelSession):
    def test_100000_lines_arrive_all_in_order_in_few_messages(self):
        lines = 100_000
        content, outputs = self.run_cell(
            f'for (int i = 0; i < {lines}; i++) System.out.println("line " + i + " of a long cell");')
        self.assertEqual(content["status"], "ok")
        streams = [m for m in outputs if m["msg_type"] == "stream"]
        self.assertTrue(all(m["content"]["name"] == "stdout" for m in streams))
        text = "".join(m["content"]["text"] for m in streams)
        expected = "".join(f"line {i} of a long cell\n" for i in range(lines))
        self.assertEqual(len(text.splitlines()), lines)
        self.assertEqual(text, expected)  # nothing lost, nothing reordered, nothing split inside a character
        # ipykernel sends this as 2 messages; one per line (100,000) is what must not happen
        self.assertLess(len(streams), 200, f"{len(streams)} stream messages for {lines} lines")

    def test_multibyte_characters_are_never_cut(self):
        content, outputs = self.run_cell(
            'for (int i = 0; i < 20000; i++) System.out.print("\u00e9\u4e2d\U0001F600");')
        self.assertEqual(content["status"], "ok")
        text = "".join(m["content"]["text"] for m in outputs if m["msg_type"] == "stream")
        self.assertEqual(text, "\u00e9\u4e2d\U0001F600" * 20000)

    def test_stdout_and_display_keep_their_order(self):
        content, outputs = self.run_cell('System.out.println("before"); display("shown"); System.out.println("after");')
        kinds = [(m["msg_type"], m["content"].get("text", m["content"].get("data", {}).get("text/plain")))
                 for m in outputs if m["msg_type"] in ("stream", "display_data")]
        self.assertEqual(kinds, [("stream", "before\n"), ("display_data", "shown"), ("stream", "after\n")])

    def test_output_of_a_background_thread_after_its_cell_reaches_the_notebook(self):
        msg_id = self.kc.execute(
            'new Thread(() -> { try { Thread.sleep(700); } catch (InterruptedException e) { }'
            ' System.out.println("late output"); }).start();')
        self.iopub_until_idle(msg_id)
        self.shell_reply(msg_id)
        deadline = time.time() + 20
        seen = ""
        while time.time() < deadline and "late output" not in seen:
            try:
                msg = self.kc.get_iopub_msg(timeout=1)
            except queue.Empty:
                continue
            if msg["msg_type"] == "stream":
                seen += msg["content"]["text"]
                self.assertEqual(msg["parent_header"].get("msg_id"), msg_id)
        self.assertIn("late output", seen)


class StopOnError(KernelSession):
    def test_cells_queued_after_a_failing_cell_are_aborted(self):
        first = self.kc.execute('Thread.sleep(500); throw new IllegalStateException("first cell fails");')
        queued = [self.kc.execute(f'System.out.println("must not run {i}");') for i in range(3)]
        replies = {}
        ran = ""
        while not all(m in replies for m in [first] + queued):
            reply = self.kc.get_shell_msg(timeout=TIMEOUT)
            replies[reply["parent_header"].get("msg_id")] = reply["content"]
        self.assertEqual(replies[first]["status"], "error")
        self.assertEqual(replies[first]["ename"], "java.lang.IllegalStateException")
        for q in queued:
            self.assertEqual(replies[q]["status"], "aborted")
        while True:
            try:
                msg = self.kc.get_iopub_msg(timeout=2)
            except queue.Empty:
                break
            if msg["msg_type"] == "stream":
                ran += msg["content"]["text"]
        self.assertNotIn("must not run", ran)
        # the next cell, sent after the error, runs
        self.assertEqual(self.result_text("1 + 1"), "2")

    def test_without_stop_on_error_queued_cells_run(self):
        first = self.kc.execute('Thread.sleep(300); throw new IllegalStateException("fails");', stop_on_error=False)
        second = self.kc.execute("40 + 2")
        self.assertEqual(self.shell_reply(first)["content"]["status"], "error")
        self.assertEqual(self.shell_reply(second)["content"]["status"], "ok")


class Errors(KernelSession):
    def test_system_exit_is_an_error_and_the_kernel_lives_on(self):
        self.run_cell("int kept = 41;")
        for code in ("System.exit(0);", "Runtime.getRuntime().exit(3);", "Runtime.getRuntime().halt(1);"):
            content, error = self.error_of(code)
            self.assertEqual(error["ename"], "java.lang.SecurityException")
            self.assertIn("System.exit", error["evalue"])
        self.assertEqual(self.result_text("kept + 1"), "42")

    def test_system_exit_through_a_method_reference_is_an_error(self):
        content, error = self.error_of("java.util.function.IntConsumer quit = System::exit;\nquit.accept(4);")
        self.assertEqual(error["ename"], "java.lang.SecurityException")
        content, error = self.error_of("class Quitter { void quit() { Runtime.getRuntime().halt(5); } }\nnew Quitter().quit();")
        self.assertEqual(error["ename"], "java.lang.SecurityException")
        self.assertEqual(self.result_text("6 * 7"), "42")

    def test_system_exit_from_a_parallel_stream_worker_is_an_error(self):
        content, error = self.error_of(
            "java.util.stream.IntStream.range(0, 64).parallel().forEach(i -> { if (i == 40) System.exit(2); });")
        self.assertEqual(error["ename"], "java.lang.SecurityException")
        self.assertEqual(self.result_text("6 * 7"), "42")

    def test_error_name_is_the_java_exception_class(self):
        content, error = self.error_of('throw new IllegalArgumentException("bad rate");')
        self.assertEqual(content["ename"], "java.lang.IllegalArgumentException")
        self.assertEqual(error["ename"], "java.lang.IllegalArgumentException")
        self.assertEqual(error["evalue"], "bad rate")

    def test_frames_name_the_cell_and_line_not_the_repl(self):
        content, _ = self.run_cell("int depth(int n) {\n  if (n == 0) throw new RuntimeException(\"bottom\");\n"
                                   "  return depth(n - 1);\n}")
        count = content["execution_count"]
        content, error = self.error_of("int x = 1;\ndepth(2);")
        tb = "\n".join(error["traceback"])
        self.assertIn(f"at depth (cell {count}, line 2)", tb)
        self.assertIn(f"at depth (cell {count}, line 3)", tb)
        self.assertIn(f"cell {content['execution_count']}, line 2", tb)
        self.assertNotIn("REPL", tb)
        self.assertNotIn("#", tb)
        self.assertNotIn("jdk.jshell", tb)

    def test_npe_message_has_no_repl_names(self):
        content, error = self.error_of("String sn = null;\nsn.length()")
        self.assertEqual(error["ename"], "java.lang.NullPointerException")
        self.assertIn('"sn" is null', error["evalue"])
        self.assertNotIn("REPL", error["evalue"] + "\n".join(error["traceback"]))
        self.assertNotIn("$JShell", error["evalue"])

    def test_compile_error_has_no_empty_location(self):
        content, error = self.error_of("int q = undefinedName + 1;")
        self.assertEqual(error["ename"], "CompilationException")
        tb = "\n".join(error["traceback"])
        self.assertIn("undefinedName", tb)
        self.assertIn(f"cell {content['execution_count']}, line 1", tb)
        for line in tb.splitlines():
            self.assertNotEqual(line.strip(), "location: class")

    def test_compile_error_names_the_cell_line_after_other_statements(self):
        for code, line in (("int a1 = 1;\nint b1 = \"x\";", 2), ("int a2 = 1;\n\nint b2 = \"x\";", 3),
                           ("\n\nint b3 = \"x\";", 3), ("int a4 = 1;\nint b4 = a4 +\n  \"x\".nothing();", 3)):
            content, error = self.error_of(code)
            self.assertEqual(error["ename"], "CompilationException")
            tb = "\n".join(error["traceback"])
            self.assertIn(f"cell {content['execution_count']}, line {line})", tb, code)

    def assert_points_at(self, tb, place, line, name):
        """tb has a line ending with place, then the source line, then a caret under name."""
        rows = re.sub(r"\x1b\[[0-9;]*m", "", tb).splitlines()
        at = [i for i, row in enumerate(rows) if row.endswith(place)]
        self.assertTrue(at, f"no line ending with {place!r} in\n{tb}")
        source, caret = rows[at[0] + 1], rows[at[0] + 2]
        self.assertEqual(source.strip(), line)
        self.assertEqual(caret.strip(), "^")
        self.assertEqual(caret.index("^"), source.index(name))

    def test_undefined_name_in_a_method_body_points_at_its_line(self):
        content, error = self.error_of('int first = 1;\n\nvoid greet() {\n  String s = "ghost"; // ghost\n'
                                       '  System.out.println(s + ghost);\n}')
        self.assertEqual(error["ename"], "CompilationException")
        self.assertEqual(error["evalue"], "cannot find symbol: variable ghost")
        self.assert_points_at("\n".join(error["traceback"]), f"(cell {content['execution_count']}, line 5)",
                              "System.out.println(s + ghost);", "ghost)")

    def test_undefined_name_in_a_class_body_points_at_its_line(self):
        content, error = self.error_of("class Box {\n  int size() { return 2 * missingSize; }\n}")
        self.assert_points_at("\n".join(error["traceback"]), f"(cell {content['execution_count']}, line 2)",
                              "int size() { return 2 * missingSize; }", "missingSize")

    def test_calling_a_method_with_an_undefined_name_names_it_and_points_at_the_name(self):
        defined, _ = self.error_of("int pad = 0;\nvoid launch(int n) {\n  liftOff(n);\n}")
        content, error = self.error_of("int pad2 = 1;\nlaunch(3);")
        self.assertEqual(error["ename"], "UnresolvedReferenceException")
        self.assertEqual(error["evalue"], "cannot use method launch(int) because it refers to undefined method liftOff(int)")
        self.assertNotIn("  ", error["evalue"])
        tb = "\n".join(error["traceback"])
        self.assertIn(f"at cell {content['execution_count']}, line 2", tb)
        self.assert_points_at(tb, f"(cell {defined['execution_count']}, line 3)", "liftOff(n);", "liftOff")

    def test_an_error_in_the_thirtieth_method_of_a_cell_points_at_its_line(self):
        cell = chain("chainB", 29) + "int chainB29(int x) {\n  String s = x;\n  return 0;\n}\n" + chain("chainC", 10)
        content, error = self.error_of(cell)
        self.assertEqual(error["ename"], "CompilationException")
        self.assertIn("incompatible types", error["evalue"])
        self.assert_points_at("\n".join(error["traceback"]), f"(cell {content['execution_count']}, line 31)",
                              "String s = x;", "x;")

    def test_stack_overflow_is_trimmed(self):
        self.run_cell("int forever(int n) { return forever(n + 1) + 1; }")
        content, error = self.error_of("forever(0)")
        self.assertEqual(error["ename"], "java.lang.StackOverflowError")
        self.assertLess(len(error["traceback"]), 50)
        self.assertIn("repeated", "\n".join(error["traceback"]))


class Declarations(KernelSession):
    def test_method_calling_one_defined_later_in_the_cell(self):
        self.assertEqual(self.result_text("int twice(int x) { return plus(x, x); }\n"
                                          "int plus(int a, int b) { return a + b; }\n"
                                          "twice(21)"), "42")

    def test_mutually_recursive_methods_in_one_cell(self):
        self.assertEqual(self.result_text("boolean isEven(int n) { return n == 0 || isOdd(n - 1); }\n"
                                          "boolean isOdd(int n) { return n != 0 && isEven(n - 1); }\n"
                                          "isEven(10) + \" \" + isOdd(7)"), "true true")

    def test_class_referring_to_a_later_class(self):
        self.assertEqual(self.result_text("class Outer1 { Inner1 inner = new Inner1(); }\n"
                                          "class Inner1 { int v = 7; }\n"
                                          "new Outer1().inner.v"), "7")

    def test_a_reference_never_defined_is_an_error(self):
        content, error = self.error_of("void lonely() { nowhere(); }")
        self.assertIn("nowhere", "\n".join(error["traceback"]))

    def test_forty_methods_in_one_cell_call_forward_and_are_redefined_later(self):
        self.run_cell(chain("chainA", 40))
        # chainA0(x) = chainA1(x) + 1 = ... = chainA39(x) + 39
        self.assertEqual(self.result_text("chainA0(5)"), "44")
        self.run_cell("int chainA39(int x) { return 2 * x; }")
        self.assertEqual(self.result_text("chainA0(5)"), "49")


class ImportsInLaterCells(KernelSession):
    """Adding an import never changes an existing variable (as in ipykernel), even when JShell recompiles the
    snippets that declared the variables before it. A kernel of its own for each sequence: an import already made
    earlier in the session would leave nothing to recompile."""

    def test_imports_in_later_cells_and_below_a_declaration_keep_the_variables(self):
        first = self.result_text('import fabriclab.notebook.*;\n'
                                 'PaperComparison cmp = PaperComparison.of("x", "outside reference");\nint k = 5;\n"a " + cmp')
        self.assertRegex(first, r"^a fabriclab\.notebook\.PaperComparison@\w+$")
        cmp = first[2:]
        self.assertEqual(self.result_text('import java.util.concurrent.*;\n"b " + cmp + " " + k'), f"b {cmp} 5")
        self.assertEqual(self.result_text('import fabriclab.sweep.*;\n"c " + cmp + " " + k'), f"c {cmp} 5")
        d = self.result_text('PaperComparison cmp2 = PaperComparison.of("y", "outside reference");\n'
                             'import fabriclab.progress.*;\n"d " + cmp2 + " " + k')
        self.assertRegex(d, r"^d fabriclab\.notebook\.PaperComparison@\w+ 5$")
        cmp2 = d[2:-2]
        self.assertEqual(self.result_text('"e " + cmp2 + " " + cmp + " " + k'), f"e {cmp2} {cmp} 5")


class ImportCellBetweenTwoCells(KernelSession):
    def test_an_import_cell_between_two_cells_keeps_the_variables(self):
        first = self.result_text('import fabriclab.notebook.*;\n'
                                 'PaperComparison early = PaperComparison.of("x", "outside reference");\n'
                                 'List<String> names = new ArrayList<>(List.of("kept"));\n"" + early')
        content, _ = self.run_cell('import fabriclab.sweep.*;\nimport fabriclab.progress.*;\n// and one more\nimport java.io.*;')
        self.assertEqual(content["status"], "ok", content)
        self.assertEqual(self.result_text('early + " " + names'), f"{first} [kept]")


class Tables(KernelSession):
    TABLE = ('tech.tablesaw.api.Table.create("t", tech.tablesaw.api.DoubleColumn.create("x", '
             '39.99999999999999, -0.0000000000000017763568394002506, 0.125, 1234567.891234567))')

    def html_cells(self):
        content, outputs = self.run_cell(self.TABLE)
        html = next(m for m in outputs if m["msg_type"] == "execute_result")["content"]["data"]["text/html"]
        import re
        return [re.sub("<[^>]+>", "", c) for c in re.findall(r"<td[^>]*>.*?</td>", html)]

    def test_doubles_are_shown_with_pandas_like_precision(self):
        self.assertEqual(self.html_cells(), ["40", "-1.77636e-15", "0.125", "1234567.891235"])

    def test_precision_is_configurable(self):
        self.run_cell("fabriclab.kernel.display.DisplayOptions.setPrecision(2);")
        try:
            self.assertEqual(self.html_cells(), ["40", "-1.8e-15", "0.12", "1234567.89"])
        finally:
            self.run_cell("fabriclab.kernel.display.DisplayOptions.setPrecision(6);")

    def test_text_form_uses_the_same_precision(self):
        text = self.result_text(self.TABLE)
        self.assertIn("-1.77636e-15", text)
        self.assertNotIn("39.9999", text)


class Protocol(KernelSession):
    def test_silent_and_unstored_cells_leave_the_execution_count(self):
        before = self.run_cell("1")[0]["execution_count"]
        silent, outputs = self.run_cell("2", silent=True)
        self.assertEqual(silent["execution_count"], before)
        self.assertFalse([m for m in outputs if m["msg_type"] in ("execute_input", "execute_result")])
        unstored = self.run_cell("3", store_history=False)[0]
        self.assertEqual(unstored["execution_count"], before)
        self.assertEqual(self.run_cell("4")[0]["execution_count"], before + 1)

    def test_history_tail_range_and_search(self):
        self.run_cell("int historyMarker = 5;")
        self.run_cell("historyMarker * 2")
        msg_id = self.kc.history(hist_access_type="tail", n=2, output=True, raw=True)
        reply = self.shell_reply(msg_id)["content"]
        self.assertEqual(reply["status"], "ok")
        self.assertEqual([h[2][0] for h in reply["history"]], ["int historyMarker = 5;", "historyMarker * 2"])
        self.assertEqual(reply["history"][1][2][1], "10")
        session, line = reply["history"][1][0], reply["history"][1][1]
        msg_id = self.kc.history(hist_access_type="range", session=session, start=line, stop=line + 1, output=False, raw=True)
        self.assertEqual(self.shell_reply(msg_id)["content"]["history"], [[session, line, "historyMarker * 2"]])
        msg_id = self.kc.history(hist_access_type="search", pattern="*historyMarker =*", output=False, raw=True)
        found = self.shell_reply(msg_id)["content"]["history"]
        self.assertEqual([h[2] for h in found], ["int historyMarker = 5;"])

    def test_comm_info_reply_has_status(self):
        msg_id = self.kc.comm_info()
        reply = self.shell_reply(msg_id)["content"]
        self.assertEqual(reply["status"], "ok")
        self.assertEqual(reply["comms"], {})

    def test_is_complete_wants_the_declaration_after_an_annotation(self):
        for code, status in (("@Deprecated", "incomplete"), ("@SuppressWarnings(\"unused\")", "incomplete"),
                             ("@Deprecated\nvoid old() { }", "complete"), ("int x = 1;", "complete")):
            msg_id = self.kc.is_complete(code)
            self.assertEqual(self.shell_reply(msg_id)["content"]["status"], status, code)

    def test_display_as_last_line_shows_no_id(self):
        content, outputs = self.run_cell('display("only this");')
        self.assertEqual([m["msg_type"] for m in outputs if m["msg_type"] not in ("execute_input", "status")], ["display_data"])
        content, outputs = self.run_cell('String id = display("x"); id')
        self.assertEqual(len([m for m in outputs if m["msg_type"] == "execute_result"]), 1)

    def test_arrays_show_their_elements(self):
        self.assertEqual(self.result_text("new int[]{1, 2, 3}"), "[1, 2, 3]")
        self.assertEqual(self.result_text("new double[][]{{0.5}, {1, 2}}"), "[[0.5], [1.0, 2.0]]")
        self.assertEqual(self.result_text('new String[]{"a", null}'), "[a, null]")

    def test_interrupting_a_parallel_stream_stops_its_workers(self):
        msg_id = self.kc.execute(
            "java.util.stream.IntStream.range(0, 64).parallel().forEach(i -> { long n = 0; while (true) { n++; } });")
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            msg = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "execute_input":
                break
        time.sleep(1.0)
        self.km.interrupt_kernel()
        self.assertEqual(self.shell_reply(msg_id)["content"]["status"], "error")
        time.sleep(1.0)
        busy = self.result_text(
            "Thread.getAllStackTraces().entrySet().stream().filter(e -> e.getKey() != Thread.currentThread())"
            ".filter(e -> java.util.Arrays.stream(e.getValue()).anyMatch(f -> f.getClassName().startsWith(\"REPL.\")))"
            ".count()")
        self.assertEqual(busy, "0")

    def test_inspect_shows_javadoc_of_kernel_lib(self):
        code = "fabriclab.Parameters.positive"
        msg_id = self.kc.inspect(code, len(code))
        reply = self.shell_reply(msg_id)["content"]
        self.assertEqual(reply["status"], "ok")
        self.assertTrue(reply["found"])
        text = reply["data"]["text/plain"]
        self.assertIn("positive(", text)
        self.assertGreater(len(text.splitlines()), 1, "signature only, no Javadoc: " + text)

    def test_inspect_renders_javadoc_as_markdown_without_raw_tags(self):
        code = "fabriclab.fabric.Pfc"
        msg_id = self.kc.inspect(code, len(code))
        reply = self.shell_reply(msg_id)["content"]
        self.assertTrue(reply["found"])
        md = reply["data"]["text/markdown"]
        plain = reply["data"]["text/plain"]
        for text in (md, plain):
            for raw in ("<p>", "<ul>", "<li>", "{@link", "{@code", "&ge;", "&lt;", "@param"):
                self.assertNotIn(raw, text)
        self.assertIn("`xoffBytes`", md)  # {@code xoffBytes}
        self.assertIn("- pause when the counter reaches `xoffBytes` (counter \u2265 XOFF)", md)  # <li>{@link #pausesAt pause}
        self.assertIn("counter \u2265 XOFF", plain)
        self.assertIn("**Parameters:**", md)
        # a paragraph is one line (the browser wraps it), not the source's hard-wrapped lines
        self.assertIn("the one description of PFC that the analytic bounds", plain)


class PackageCompletion(KernelSession):
    """Package names complete from the JDK's modules and the class path, also after import and for jars added later."""

    def complete(self, code):
        msg_id = self.kc.complete(code, len(code))
        reply = self.shell_reply(msg_id)["content"]
        self.assertEqual(reply["status"], "ok")
        self.assertEqual(reply["cursor_end"], len(code))
        return reply["matches"], reply["cursor_start"]

    def test_jdk_packages(self):
        self.assertEqual(self.complete("java.util.conc"), (["concurrent"], len("java.util.")))
        matches, start = self.complete("var x = java.util.concurrent.at")
        self.assertEqual(matches, ["atomic"])

    def test_packages_after_import_and_of_the_projects_jars(self):
        matches, start = self.complete("import tech.tablesaw.a")
        self.assertEqual([m for m in matches if m in ("aggregate", "analytic", "api")], ["aggregate", "analytic", "api"])
        self.assertEqual(start, len("import tech.tablesaw."))
        self.assertEqual(self.complete("fabriclab.noteb"), (["notebook"], len("fabriclab.")))
        matches, start = self.complete("import fabr")
        self.assertIn("fabriclab", matches)
        self.assertEqual(start, len("import "))

    def test_a_directory_added_with_classpath_completes(self):
        classes = self.result_text(
            'var dir = java.nio.file.Files.createTempDirectory("pkgs");\n'
            'var src = dir.resolve("Hi.java");\n'
            'java.nio.file.Files.writeString(src, "package zzlater.inner; public class Hi { }");\n'
            'javax.tools.ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", dir.resolve("classes").toString(), src.toString());\n'
            'dir.resolve("classes").toString()')
        self.assertEqual(self.complete("zzlater.in")[0], [])
        content, _ = self.run_cell(f"%classpath {classes}")
        self.assertEqual(content["status"], "ok", content)
        self.assertEqual(self.complete("zzlater.in"), (["inner"], len("zzlater.")))


class Interrupts(KernelSession):
    """An interrupt stops the cell it was meant for, whenever it comes, and no later one."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        # the first cell warms the compiler up (seconds): the loops below must be running when interrupted
        msg_id = cls.kc.execute("int warm = 1;")
        reply = cls.kc.get_shell_msg(timeout=TIMEOUT)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = cls.kc.get_shell_msg(timeout=TIMEOUT)

    def wait_for_input(self, msg_id):
        deadline = time.time() + TIMEOUT
        while time.time() < deadline:
            msg = self.kc.get_iopub_msg(timeout=TIMEOUT)
            if msg["parent_header"].get("msg_id") == msg_id and msg["msg_type"] == "execute_input":
                return

    def test_interrupt_right_after_execute_stops_the_cell(self):
        self.assertEqual(self.result_text("1 + 1"), "2")  # warm
        for delay in (0.0, 0.02, 0.1):
            msg_id = self.kc.execute('Thread.sleep(30000); "ran to the end"')
            time.sleep(delay)
            started = time.time()
            self.km.interrupt_kernel()
            reply = self.shell_reply(msg_id, timeout=15)["content"]
            self.assertEqual(reply["status"], "error", f"interrupt {delay} s after execute")
            self.assertEqual(reply["ename"], "Interrupted")
            self.assertLess(time.time() - started, 10)

    def test_cells_interrupted_back_to_back_each_stop(self):
        # each execute and its interrupt are sent the moment the previous cell's reply is read: the kernel may
        # still be finishing that cell, and the interrupt must stop the new cell, not be taken for the old one
        for i in range(12):
            msg_id = self.kc.execute('Thread.sleep(30000); "ran to the end"')
            time.sleep((0.0, 0.02, 0.005)[i % 3])
            started = time.time()
            self.km.interrupt_kernel()
            reply = self.shell_reply(msg_id, timeout=15)["content"]
            self.assertEqual(reply["status"], "error", f"cell {i}")
            self.assertEqual(reply["ename"], "Interrupted", f"cell {i}")
            self.assertLess(time.time() - started, 10, f"cell {i}")

    def test_interrupt_while_idle_does_not_stop_the_next_cell(self):
        self.km.interrupt_kernel()
        time.sleep(0.5)
        self.assertEqual(self.result_text("20 + 22"), "42")

    def test_interrupt_error_names_where_the_cell_was(self):
        msg_id = self.kc.execute("int spin = 0;\nwhile (true) {\n  spin++;\n}")
        self.wait_for_input(msg_id)
        time.sleep(1.0)
        self.km.interrupt_kernel()
        reply = self.shell_reply(msg_id)["content"]
        self.assertEqual(reply["ename"], "Interrupted")
        self.assertEqual(reply["evalue"], "the cell was interrupted")
        tb = "\n".join(reply["traceback"])
        self.assertIn("the cell was interrupted", tb)
        self.assertRegex(tb, rf"cell {reply['execution_count']}, line [234]")

    def test_cell_catching_everything_is_still_stopped(self):
        msg_id = self.kc.execute("long k = 0;\nwhile (true) { try { k++; } catch (Throwable t) { } }")
        self.wait_for_input(msg_id)
        time.sleep(1.0)
        started = time.time()
        self.km.interrupt_kernel()
        self.assertEqual(self.shell_reply(msg_id)["content"]["status"], "error")
        self.assertLess(time.time() - started, 10)
        self.assertEqual(self.result_text("k > 0"), "true")

    def test_interrupted_parallel_stream_answers_fast_and_leaves_no_busy_thread(self):
        msg_id = self.kc.execute(
            "java.util.stream.IntStream.range(0, 64).parallel().forEach(i -> { long n = 0; while (true) { n++; } });")
        self.wait_for_input(msg_id)
        time.sleep(1.0)
        started = time.time()
        self.km.interrupt_kernel()
        self.assertEqual(self.shell_reply(msg_id)["content"]["status"], "error")
        self.assertLess(time.time() - started, 3)
        time.sleep(0.5)
        # CPU time of the kernel process over two seconds after the interrupt: about idle (the JIT may still
        # compile), not workers spinning on (2 s of CPU per second on this 2-core machine)
        pid = self.km.provisioner.process.pid
        before = cpu_seconds(pid)
        time.sleep(2.0)
        self.assertLess(cpu_seconds(pid) - before, 0.6)


class SkewedClientClock(KernelSession):
    """Whether an interrupt stops a cell is decided by the kernel alone (the order in which it received the
    two, on its own clock), never by comparing the date in the client's execute request with the interrupt's
    (sent by the Jupyter server or, here, the kernel manager): a browser clock minutes behind or ahead
    changes nothing."""

    skew = None  # set per test: added to the date in the header of each execute request

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        session = cls.kc.session
        original = session.msg_header

        def header(msg_type):
            h = original(msg_type)
            if msg_type == "execute_request" and cls.skew is not None:
                h["date"] = h["date"] + cls.skew
            return h

        session.msg_header = header
        msg_id = cls.kc.execute("int warm = 1;")
        reply = cls.kc.get_shell_msg(timeout=TIMEOUT)
        while reply["parent_header"].get("msg_id") != msg_id:
            reply = cls.kc.get_shell_msg(timeout=TIMEOUT)

    def tearDown(self):
        type(self).skew = None

    def test_client_clock_behind_a_cell_run_after_an_interrupt_runs(self):
        for minutes in (-5, 5):
            type(self).skew = datetime.timedelta(minutes=minutes)
            self.km.interrupt_kernel()
            time.sleep(0.5)
            self.assertEqual(self.result_text("20 + 22"), "42", f"client clock {minutes} min off")

    def test_client_clock_ahead_or_behind_an_interrupt_right_after_execute_stops_the_cell(self):
        for minutes in (5, -5):
            for delay in (0.0, 0.02):
                type(self).skew = datetime.timedelta(minutes=minutes)
                msg_id = self.kc.execute('Thread.sleep(30000); "ran to the end"')
                time.sleep(delay)
                started = time.time()
                self.km.interrupt_kernel()
                reply = self.shell_reply(msg_id, timeout=15)["content"]
                self.assertEqual(reply["status"], "error", f"client clock {minutes} min off, interrupt {delay} s after")
                self.assertEqual(reply["ename"], "Interrupted")
                self.assertLess(time.time() - started, 10)
        type(self).skew = None
        self.assertEqual(self.result_text("6 * 7"), "42")


class FreshKernelInterrupt(unittest.TestCase):
    """In a fresh kernel the first cell waits for the JShell session: an interrupt then still stops it, and is
    answered at once, not when the session is ready (seconds later)."""

    def test_interrupt_while_the_session_starts_stops_the_first_cell(self):
        for delay in (0.3, 1.5):
            km, kc = start_new_kernel(kernel_name="fabriclab", startup_timeout=TIMEOUT)
            try:
                msg_id = kc.execute('Thread.sleep(30000); "ran to the end"')
                time.sleep(delay)
                started = time.time()
                km.interrupt_kernel()
                reply = kc.get_shell_msg(timeout=20)
                while reply["parent_header"].get("msg_id") != msg_id:
                    reply = kc.get_shell_msg(timeout=20)
                self.assertEqual(reply["content"]["status"], "error", f"interrupt {delay} s after the first execute")
                self.assertEqual(reply["content"]["ename"], "Interrupted")
                self.assertLess(time.time() - started, 1.0, f"interrupt {delay} s after the first execute")
            finally:
                kc.stop_channels()
                km.shutdown_kernel(now=True)


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class ProjectLocation(KernelSession):
    """A kernel started outside the checkout, without FABRICLAB_HOME, finds the datasets through the
    location bin/install-kernel writes into the kernelspec (FABRICLAB_CHECKOUT)."""

    root = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", ".."))
    env = {k: v for k, v in os.environ.items() if k != "FABRICLAB_HOME"}
    env["FABRICLAB_CHECKOUT"] = root
    kernel_kwargs = {"cwd": tempfile.gettempdir(), "env": env}

    def test_datasets_found_from_elsewhere(self):
        self.assertEqual(self.result_text("fabriclab.project.ProjectPaths.root().toString()"), self.root)
        self.assertEqual(self.result_text("java.nio.file.Path.of(\"\").toAbsolutePath().toString()"),
                         os.path.realpath(tempfile.gettempdir()))


class Shutdown(unittest.TestCase):
    def test_shutdown_reply_has_status(self):
        km, kc = start_new_kernel(kernel_name="fabriclab", startup_timeout=TIMEOUT)
        try:
            msg_id = kc.shutdown()  # sent on the control channel, answered there
            reply = kc.get_control_msg(timeout=TIMEOUT)
            while reply["parent_header"].get("msg_id") != msg_id:
                reply = kc.get_control_msg(timeout=TIMEOUT)
            self.assertEqual(reply["content"]["status"], "ok")
            self.assertFalse(reply["content"]["restart"])
        finally:
            kc.stop_channels()
            km.shutdown_kernel(now=True)


if __name__ == "__main__":
    unittest.main()
