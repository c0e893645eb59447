"""Jupyter widgets at message level, as a front end sees them: a widget's comm_open and display_data, a
change sent as the front end sends it (a comm_msg on the shell channel, while no cell runs), the
kernel-side listener hearing it and interact's figure redrawn through update_display_data; comm_info,
request_state and comm_close. Run for the classic notebook's protocol (ipywidgets 6, chosen by the classic
front end's jupyter.widget.version comm) and for protocol 2.1 (ipywidgets 8, JupyterLab), chosen with
FABRICLAB_WIDGETS. Then a notebook with widgets executed by nbclient (as nbconvert and ./reproduce run it):
the widget state saved in its metadata, byte-identical on a rerun, and kept in the exported HTML."""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import nbformat
from nbclient import NotebookClient

from test_behaviour import KernelSession, TIMEOUT

VIEW = "application/vnd.jupyter.widget-view+json"


class WidgetSession(KernelSession):
    protocol = None
    classic = False

    @classmethod
    def setUpClass(cls):
        if cls.protocol is not None:
            cls.kernel_kwargs = {"env": {**os.environ, "FABRICLAB_WIDGETS": cls.protocol}}
        super().setUpClass()
        if cls.classic:
            # the classic notebook opens this comm as it connects, before any cell runs
            msg = cls.kc.session.msg("comm_open", {"comm_id": "version-0", "target_name": "jupyter.widget.version", "data": {}})
            cls.kc.shell_channel.send(msg)
            while True:
                m = cls.kc.get_iopub_msg(timeout=TIMEOUT)
                if (m["parent_header"].get("msg_id") == msg["header"]["msg_id"] and m["msg_type"] == "status"
                        and m["content"]["execution_state"] == "idle"):
                    break

    def comm_msg(self, comm_id, data):
        """Sends a comm_msg as a front end does; returns the iopub messages it caused (up to idle)."""
        msg = self.kc.session.msg("comm_msg", {"comm_id": comm_id, "data": data})
        self.kc.shell_channel.send(msg)
        return self.iopub_until_idle(msg["header"]["msg_id"])

    def ok(self, code):
        content, outputs = self.run_cell(code)
        self.assertEqual(content["status"], "ok", (content, outputs))
        return outputs

    def opened(self, outputs):
        return {m["content"]["comm_id"]: m for m in outputs if m["msg_type"] == "comm_open"}

    def state(self, open_msg):
        data = open_msg["content"]["data"]
        return data if self.classic else data["state"]

    def change(self, value):
        if self.classic:
            return {"method": "backbone", "sync_data": {"value": value}}
        return {"method": "update", "state": {"value": value}, "buffer_paths": []}

    def test_slider_interact_redraws_on_a_front_end_change(self):
        outputs = self.ok('var n = new IntSlider("senders", 1, 64, 8);\n'
                          'var heard = new ArrayList<Integer>();\n'
                          'n.observe(v -> heard.add(v));\n'
                          'var i = interact(() -> "senders=" + n.value(), n);')
        opens = self.opened(outputs)
        self.assertEqual(len(opens), 2, outputs)  # the slider, the box holding it
        slider_id = next(k for k, m in opens.items() if self.state(m)["_model_name"] == "IntSliderModel")
        slider = opens[slider_id]
        self.assertEqual(slider["content"]["target_name"], "jupyter.widget")
        self.assertEqual(self.state(slider)["value"], 8)
        box = next(m for m in opens.values() if self.state(m)["_model_name"] == "VBoxModel")
        self.assertEqual(self.state(box)["children"], ["IPY_MODEL_" + slider_id])
        if not self.classic:
            self.assertEqual(slider["metadata"], {"version": "2.1.0"})
            self.assertEqual(self.state(slider)["_model_module"], "@jupyter-widgets/controls")
        else:
            self.assertEqual(self.state(slider)["_model_module"], "jupyter-js-widgets")
        displays = [m for m in outputs if m["msg_type"] == "display_data"]
        self.assertEqual(len(displays), 2, outputs)
        view = displays[0]["content"]["data"][VIEW]
        self.assertEqual(view["model_id"], box["content"]["comm_id"])
        self.assertEqual(view["version_major"], 1 if self.classic else 2)
        figure = displays[1]["content"]
        self.assertEqual(figure["data"]["text/plain"], "senders=8")
        display_id = figure["transient"]["display_id"]

        # the front end moves the slider while no cell runs
        after = self.comm_msg(slider_id, self.change(20))
        updates = [m for m in after if m["msg_type"] == "update_display_data"]
        self.assertEqual(len(updates), 1, after)
        self.assertEqual(updates[0]["content"]["transient"]["display_id"], display_id)
        self.assertEqual(updates[0]["content"]["data"]["text/plain"], "senders=20")
        echoes = [m for m in after if m["msg_type"] == "comm_msg"]
        if not self.classic:
            self.assertEqual([m["content"]["data"]["method"] for m in echoes], ["echo_update"])
        else:
            self.assertEqual(echoes, [])
        self.assertEqual(self.result_text("n.value() + \" \" + heard"), "20 [20]")

    def test_code_changes_are_sent_as_updates_and_request_state_answered(self):
        outputs = self.ok('var c = new Checkbox("ECN", false);')
        (cid, _), = self.opened(outputs).items()
        outputs = self.ok("c.value(true);")
        updates = [m["content"] for m in outputs if m["msg_type"] == "comm_msg"]
        self.assertEqual(len(updates), 1, outputs)
        self.assertEqual(updates[0]["comm_id"], cid)
        self.assertEqual(updates[0]["data"]["method"], "update")
        self.assertEqual(updates[0]["data"]["state"], {"value": True})
        answer = self.comm_msg(cid, {"method": "request_state"})
        states = [m["content"]["data"] for m in answer if m["msg_type"] == "comm_msg"]
        self.assertEqual(states[0]["method"], "update")
        self.assertEqual(states[0]["state"]["value"], True)
        self.assertEqual(states[0]["state"]["_model_name"], "CheckboxModel")

    def test_comm_info_lists_the_widgets_until_closed(self):
        outputs = self.ok('var t = new Text("name", "incast");')
        (tid, _), = self.opened(outputs).items()
        msg_id = self.kc.comm_info(target_name="jupyter.widget")
        comms = self.shell_reply(msg_id)["content"]["comms"]
        self.assertEqual(comms[tid], {"target_name": "jupyter.widget"})
        outputs = self.ok("t.close();")
        self.assertEqual([m["content"]["comm_id"] for m in outputs if m["msg_type"] == "comm_close"], [tid])
        msg_id = self.kc.comm_info(target_name="jupyter.widget")
        self.assertNotIn(tid, self.shell_reply(msg_id)["content"]["comms"])

    def test_a_button_click_runs_its_action(self):
        outputs = self.ok('var clicks = new int[1];\nvar b = new Button("run");\nb.onClick(() -> clicks[0]++);')
        (bid, _), = self.opened(outputs).items()
        self.comm_msg(bid, {"method": "custom", "content": {"event": "click"}})
        self.assertEqual(self.result_text("clicks[0]"), "1")

    def test_output_printed_by_a_listener_goes_to_the_front_end_message(self):
        outputs = self.ok('var s = new IntSlider("x", 0, 10, 1);\ns.observe(v -> System.out.println("x is " + v));')
        (sid, _), = self.opened(outputs).items()
        after = self.comm_msg(sid, self.change(4))
        text = "".join(m["content"]["text"] for m in after if m["msg_type"] == "stream")
        self.assertEqual(text, "x is 4\n")


class ClassicProtocol(WidgetSession):
    """The Debian classic notebook's widgets (ipywidgets 6, jupyter-js-widgets 2.1), chosen by its version comm."""

    classic = True

    def test_classic_version_comm_is_answered(self):
        msg = self.kc.session.msg("comm_open", {"comm_id": "version-1", "target_name": "jupyter.widget.version", "data": {}})
        self.kc.shell_channel.send(msg)
        outputs = self.iopub_until_idle(msg["header"]["msg_id"])
        answers = [m["content"] for m in outputs if m["msg_type"] == "comm_msg"]
        self.assertEqual(answers, [{"comm_id": "version-1", "data": {"version": "~2.1.4"}}])

    def test_a_displayed_widget_is_placed_by_a_display_comm_message(self):
        outputs = self.ok('display(new IntSlider("y", 0, 5, 2));')
        msgs = [m["content"]["data"] for m in outputs if m["msg_type"] == "comm_msg"]
        self.assertEqual(msgs, [{"method": "display"}])
        displays = [m["content"]["data"] for m in outputs if m["msg_type"] == "display_data"]
        self.assertEqual(list(displays[0]), [VIEW])


class Protocol2(WidgetSession):
    """Widget protocol 2.1 (ipywidgets 8, @jupyter-widgets/controls 2.0.0), as current JupyterLab speaks it."""

    protocol = "8"


class NotebookExecution(unittest.TestCase):
    """A notebook with interact executed by nbclient (nbconvert --execute): nbclient opens no widget comm, so the
    kernel speaks protocol 2.1, whose comm_open nbclient reads; the widget state goes into the notebook's metadata,
    the figure stays a normal display output, and a second run writes the same bytes."""

    CELL = ('var senders = new IntSlider("senders", 2, 16, 7);\n'
            'var buffer = new Dropdown<>("buffer", List.of("1 MB", "32 MB"), "32 MB");\n'
            'interact(() -> "figure for " + senders.value() + " senders, " + buffer.value(), senders, buffer);')

    def execute(self, path):
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell(self.CELL, id="widgets")]
        nb.metadata["kernelspec"] = {"name": "fabriclab", "display_name": "Java (fabriclab)", "language": "java"}
        NotebookClient(nb, kernel_name="fabriclab", timeout=TIMEOUT, record_timing=False).execute()
        nbformat.write(nb, path)
        with open(path, "rb") as f:
            return f.read()

    def test_widget_state_is_saved_in_the_notebook_and_a_rerun_is_byte_identical(self):
        with tempfile.TemporaryDirectory() as d:
            first = self.execute(os.path.join(d, "a.ipynb"))
            second = self.execute(os.path.join(d, "b.ipynb"))
            self.assertEqual(first, second)
            nb = json.loads(first)
            widgets = nb["metadata"]["widgets"]["application/vnd.jupyter.widget-state+json"]
            self.assertEqual((widgets["version_major"], widgets["version_minor"]), (2, 0))
            state = widgets["state"]
            models = {m["model_name"]: (k, m) for k, m in state.items()}
            self.assertEqual(sorted(models), ["DropdownModel", "IntSliderModel", "VBoxModel"])
            slider_id, slider = models["IntSliderModel"]
            self.assertEqual(slider["model_module"], "@jupyter-widgets/controls")
            self.assertEqual(slider["model_module_version"], "2.0.0")
            self.assertEqual((slider["state"]["value"], slider["state"]["min"], slider["state"]["max"]), (7, 2, 16))
            self.assertEqual(models["DropdownModel"][1]["state"]["index"], 1)
            box_id, box = models["VBoxModel"]
            self.assertEqual(box["state"]["children"], ["IPY_MODEL_" + slider_id, "IPY_MODEL_" + models["DropdownModel"][0]])
            outputs = nb["cells"][0]["outputs"]
            self.assertEqual([o["output_type"] for o in outputs], ["display_data", "display_data"], outputs)
            self.assertEqual(outputs[0]["data"][VIEW], {"model_id": box_id, "version_major": 2, "version_minor": 0})
            self.assertEqual("".join(outputs[1]["data"]["text/plain"]), "figure for 7 senders, 32 MB")

            # the HTML export carries the state and the last figure as plain output
            subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", os.path.join(d, "a.ipynb")],
                           check=True, capture_output=True)
            with open(os.path.join(d, "a.html"), encoding="utf-8") as f:
                html = f.read()
            self.assertIn('<script type="application/vnd.jupyter.widget-state+json">', html)
            self.assertIn(box_id, html)
            self.assertIn("figure for 7 senders, 32 MB", html)


del WidgetSession

if __name__ == "__main__":
    unittest.main()
