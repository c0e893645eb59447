package fabriclab.kernel.widgets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WidgetsTest {
    /** One message the kernel would publish. */
    record Sent(String type, String commId, Map<String, Object> data, Map<String, Object> metadata) {
    }

    static final class Recording implements CommTransport {
        final List<Sent> sent = new ArrayList<>();

        @Override
        public void open(String commId, String target, Map<String, Object> data, Map<String, Object> metadata) {
            assertEquals("jupyter.widget", target);
            sent.add(new Sent("comm_open", commId, data, metadata));
        }

        @Override
        public void send(String commId, Map<String, Object> data) {
            sent.add(new Sent("comm_msg", commId, data, Map.of()));
        }

        @Override
        public void close(String commId) {
            sent.add(new Sent("comm_close", commId, Map.of(), Map.of()));
        }

        @Override
        public String parentMessageId() {
            return "request-7";
        }

        @Override
        public void clearOutput(boolean wait) {
            sent.add(new Sent("clear_output", "", Map.of("wait", wait), Map.of()));
        }

        Sent last() {
            return sent.get(sent.size() - 1);
        }
    }

    private final Recording transport = new Recording();

    private WidgetManager manager(WidgetProtocol p) {
        WidgetManager m = new WidgetManager(transport, p);
        WidgetManager.install(m);
        return m;
    }

    @AfterEach
    void reset() {
        WidgetManager.install(new WidgetManager(null, null));
    }

    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void slidersRefuseBoundsNamingTheParameterAndOpenNothing() {
        manager(WidgetProtocol.CLASSIC);
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new IntSlider("n", 0, 10, 11));
        assertEquals("value must be in [0, 10], got 11", e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new IntSlider("n", 5, 1, 1, 3));
        assertEquals("min must be at most max = 1, got 5", e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new FloatSlider("K", 0, 1, Double.NaN, 0.5));
        assertEquals("step must be positive, got NaN", e.getMessage());
        e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new FloatSlider("K", 0, 1, 0.1, Double.NaN));
        assertEquals("value must be in [0.0, 1.0], got NaN", e.getMessage());
        assertEquals(0, transport.sent.size());
    }

    @Test
    void classicSliderOpensWithItsStateAsTheData() {
        manager(WidgetProtocol.CLASSIC);
        IntSlider s = new IntSlider("senders", 2, 32, 8);
        assertEquals(1, transport.sent.size());
        Sent open = transport.sent.get(0);
        assertEquals("comm_open", open.type());
        assertEquals(s.modelId(), open.commId());
        assertEquals(Map.of(), open.metadata());
        assertEquals("jupyter-js-widgets", open.data().get("_model_module"));
        assertEquals("~2.1.4", open.data().get("_model_module_version"));
        assertEquals("IntSliderModel", open.data().get("_model_name"));
        assertEquals("IntSliderView", open.data().get("_view_name"));
        assertEquals(8, open.data().get("value"));
        assertEquals(2, open.data().get("min"));
        assertEquals(32, open.data().get("max"));
        assertEquals("senders", open.data().get("description"));
    }

    @Test
    void protocol2SliderOpensWithStateAndBufferPathsAndTheVersionInMetadata() {
        manager(WidgetProtocol.V2);
        IntSlider s = new IntSlider("buffer KB", 64, 1024, 64, 256);
        Sent open = transport.sent.get(0);
        assertEquals(Map.of("version", "2.1.0"), open.metadata());
        assertEquals(List.of(), open.data().get("buffer_paths"));
        @SuppressWarnings("unchecked")
        Map<String, Object> state = (Map<String, Object>) open.data().get("state");
        assertEquals("@jupyter-widgets/controls", state.get("_model_module"));
        assertEquals("2.0.0", state.get("_model_module_version"));
        assertEquals(256, state.get("value"));
        assertEquals(64, state.get("step"));
        assertEquals(Map.of("model_id", s.modelId(), "version_major", 2, "version_minor", 0), s.viewData());
    }

    @Test
    void aChangeFromCodeIsSentAsAnUpdateAndHeard() {
        manager(WidgetProtocol.CLASSIC);
        IntSlider s = new IntSlider("n", 0, 10, 3);
        List<Integer> heard = new ArrayList<>();
        s.observe(heard::add);
        s.value(5);
        assertEquals(List.of(5), heard);
        assertEquals(new Sent("comm_msg", s.modelId(), map("method", "update", "state", map("value", 5), "buffers", List.of()), Map.of()),
                transport.last());
        int before = transport.sent.size();
        s.value(5); // unchanged: nothing sent, nothing heard
        assertEquals(before, transport.sent.size());
        assertEquals(List.of(5), heard);
    }

    @Test
    void aClassicFrontEndChangeIsAppliedHeardAndNotSentBack() {
        WidgetManager m = manager(WidgetProtocol.CLASSIC);
        IntSlider s = new IntSlider("n", 0, 10, 3);
        List<Integer> heard = new ArrayList<>();
        s.observe(heard::add);
        int before = transport.sent.size();
        // JSON numbers arrive as doubles
        assertTrue(m.frontEndMessage(s.modelId(), map("method", "backbone", "sync_data", map("value", 7.0))));
        assertEquals(7, s.value());
        assertEquals(List.of(7), heard);
        assertEquals(before, transport.sent.size());
    }

    @Test
    void aProtocol2FrontEndChangeIsEchoed() {
        WidgetManager m = manager(WidgetProtocol.V2);
        FloatSlider s = new FloatSlider("K_min", 0, 1, 0.05, 0.2);
        m.frontEndMessage(s.modelId(), map("method", "update", "state", map("value", 0.45), "buffer_paths", List.of()));
        assertEquals(0.45, s.value());
        assertEquals(map("method", "echo_update", "state", map("value", 0.45), "buffer_paths", List.of()), transport.last().data());
    }

    @Test
    void requestStateIsAnsweredWithTheWholeState() {
        WidgetManager m = manager(WidgetProtocol.V2);
        Checkbox c = new Checkbox("PFC", true);
        m.frontEndMessage(c.modelId(), map("method", "request_state"));
        Map<String, Object> reply = transport.last().data();
        assertEquals("update", reply.get("method"));
        assertEquals(c.fullState(), reply.get("state"));
        assertEquals(true, c.fullState().get("value"));
    }

    @Test
    void aButtonClickArrivesAsACustomMessage() {
        WidgetManager m = manager(WidgetProtocol.CLASSIC);
        Button b = new Button("run");
        int[] clicks = {0};
        b.onClick(() -> clicks[0]++);
        m.frontEndMessage(b.modelId(), map("method", "custom", "content", map("event", "click")));
        assertEquals(1, clicks[0]);
    }

    @Test
    void aDropdownSyncsTheLabelInClassicAndTheIndexInProtocol2() {
        WidgetManager classic = manager(WidgetProtocol.CLASSIC);
        Dropdown<Integer> d = new Dropdown<>("MTU", List.of(1024, 4096, 9000), 4096);
        assertEquals(List.of("1024", "4096", "9000"), d.fullState().get("_options_labels"));
        assertEquals("4096", d.fullState().get("value"));
        classic.frontEndMessage(d.modelId(), map("method", "backbone", "sync_data", map("value", "9000")));
        assertEquals(9000, d.value());

        WidgetManager v2 = manager(WidgetProtocol.V2);
        Dropdown<String> e = new Dropdown<>("fabric", List.of("GSE", "RoCE"), "RoCE");
        assertEquals(1, e.fullState().get("index"));
        v2.frontEndMessage(e.modelId(), map("method", "update", "state", map("index", 0.0)));
        assertEquals("GSE", e.value());
        e.value("RoCE");
        assertEquals(map("method", "update", "state", map("index", 1), "buffer_paths", List.of()), transport.last().data());
    }

    @Test
    void aBoxRefersToItsChildrenByModelId() {
        manager(WidgetProtocol.CLASSIC);
        Text t = new Text("name", "incast");
        Checkbox c = new Checkbox("ECN", false);
        Box b = Box.hbox(t, c);
        assertEquals(List.of("IPY_MODEL_" + t.modelId(), "IPY_MODEL_" + c.modelId()), b.fullState().get("children"));
        assertEquals("HBoxModel", b.fullState().get("_model_name"));
        // children opened before the box
        assertEquals(b.modelId(), transport.last().commId());
    }

    @Test
    void closeSendsCommCloseOnceAndForgetsTheWidget() {
        WidgetManager m = manager(WidgetProtocol.CLASSIC);
        Text t = new Text("x", "");
        assertEquals(List.of(t.modelId()), m.openComms());
        t.close();
        t.close();
        assertEquals(1, transport.sent.stream().filter(s -> s.type().equals("comm_close")).count());
        assertEquals(List.of(), m.openComms());
        assertTrue(!m.frontEndMessage(t.modelId(), map("method", "request_state")));
    }

    @Test
    void modelIdsAreNumberedPerManagerSoARerunGetsTheSameIds() throws Exception {
        WidgetManager first = manager(null);
        IntSlider a = new IntSlider("a", 0, 9, 1);
        Checkbox b = new Checkbox("b", true);
        // the name-based UUIDs of "fabriclab.widget.1" and "fabriclab.widget.2", dashes removed
        java.security.MessageDigest md5 = java.security.MessageDigest.getInstance("MD5");
        for (Object[] expected : new Object[][] {{a, 1}, {b, 2}}) {
            byte[] h = md5.digest(("fabriclab.widget." + expected[1]).getBytes(java.nio.charset.StandardCharsets.UTF_8));
            h[6] = (byte) ((h[6] & 0x0f) | 0x30); // version 3
            h[8] = (byte) ((h[8] & 0x3f) | 0x80); // IETF variant
            StringBuilder hex = new StringBuilder();
            for (byte x : h) {
                hex.append(String.format("%02x", x));
            }
            assertEquals(hex.toString(), ((Widget) expected[0]).modelId());
        }
        assertEquals(List.of(a.modelId(), b.modelId()), first.openComms());
        manager(null); // a new kernel session numbers from 1 again
        assertEquals(a.modelId(), new IntSlider("a", 0, 9, 1).modelId());
        assertTrue(!a.modelId().equals(b.modelId()));
    }

    @Test
    void aClientThatOpensNoWidgetCommGetsProtocol2AsNbclientReadsIt() {
        WidgetManager m = manager(null);
        assertEquals(WidgetProtocol.V2, m.protocol());
        IntSlider s = new IntSlider("senders", 2, 16, 7);
        Sent open = transport.last();
        // nbclient stores content.data.state of comm_open (and of updates) as the notebook's widget state
        assertEquals(s.fullState(), open.data().get("state"));
        assertEquals("@jupyter-widgets/controls", ((Map<?, ?>) open.data().get("state")).get("_model_module"));
        s.value(9);
        assertEquals(map("value", 9), transport.last().data().get("state"));
    }

    @Test
    void theClassicVersionCommIsAnsweredAndChoosesTheProtocolWhenNoneIsConfigured() {
        WidgetManager m = manager(null);
        assertTrue(m.frontEndOpened("v1", "jupyter.widget.version"));
        assertEquals(new Sent("comm_msg", "v1", Map.of("version", "~2.1.4"), Map.of()), transport.last());
        assertEquals(WidgetProtocol.CLASSIC, m.protocol());
        m.frontEndOpened("c1", "jupyter.widget.control");
        assertEquals(WidgetProtocol.V2, m.protocol());
        WidgetManager configured = manager(WidgetProtocol.CLASSIC);
        configured.frontEndOpened("c2", "jupyter.widget.control");
        assertEquals(WidgetProtocol.CLASSIC, configured.protocol());
    }

    @Test
    void outputCapturesByTheRequestBeingHandled() {
        manager(WidgetProtocol.CLASSIC);
        Output o = new Output();
        List<Object> seen = new ArrayList<>();
        o.capture(() -> seen.add(o.get("msg_id")));
        assertEquals(List.of("request-7"), seen);
        assertEquals("", o.get("msg_id"));
    }

    @Test
    void interactRedrawsTheFigureOnEveryChange() {
        WidgetManager m = manager(WidgetProtocol.CLASSIC);
        List<String> shown = new ArrayList<>();
        m.displays(new Displays() {
            @Override
            public String show(Object value) {
                shown.add("show " + value);
                return "d" + shown.size();
            }

            @Override
            public void replace(String displayId, Object value) {
                shown.add("replace " + displayId + " " + value);
            }
        });
        IntSlider a = new IntSlider("a", 0, 10, 2);
        Checkbox twice = new Checkbox("twice", false);
        Interact.Interaction i = Interact.interact(() -> a.value() * (twice.value() ? 2 : 1), a, twice);
        assertEquals("d2", i.displayId());
        m.frontEndMessage(a.modelId(), map("method", "backbone", "sync_data", map("value", 3)));
        m.frontEndMessage(twice.modelId(), map("method", "backbone", "sync_data", map("value", true)));
        assertEquals(List.of("show VBox[IntSlider(a = 2), Checkbox(twice = false)]", "show 2", "replace d2 3", "replace d2 6"), shown);
    }

    @Test
    void protocolNames() {
        assertEquals(WidgetProtocol.CLASSIC, WidgetProtocol.named("6").orElseThrow());
        assertEquals(WidgetProtocol.V2, WidgetProtocol.named("8").orElseThrow());
        assertTrue(WidgetProtocol.named("7").isEmpty());
    }
}
