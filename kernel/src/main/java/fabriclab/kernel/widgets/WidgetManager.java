package fabriclab.kernel.widgets;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The kernel's widget models, by comm id, and the protocol they speak: opens a comm for each widget
 * created, and gives each comm message from the front end to its widget.
 *
 * <p>The protocol is configured ({@link #configure}, from the system property {@code fabriclab.widgets} or
 * the environment variable {@code FABRICLAB_WIDGETS}: {@code 6} or {@code 8}), or else chosen by the front
 * end's last comm on a widget target: {@code jupyter.widget.version}, which the classic notebook opens as it
 * connects to the kernel (before any cell runs), chooses {@link WidgetProtocol#CLASSIC};
 * {@code jupyter.widget.control} (JupyterLab, Notebook 7) chooses {@link WidgetProtocol#V2}. A client that
 * opens neither (nbclient executing a notebook for nbconvert, which reads only protocol 2's
 * {@code comm_open}) gets {@link WidgetProtocol#V2}. Widgets already created keep the protocol they were
 * created with.
 *
 * <p>Model ids are numbered: the n-th widget of a manager has the id {@link #modelId(long) modelId(n)}, so a
 * notebook executed twice gets the same ids (its widget views and saved widget state byte-identical).
 *
 * <p>Thread-safe: cells create widgets on their threads, the shell thread delivers the front end's messages.
 */
public final class WidgetManager {
    private static volatile WidgetManager current = new WidgetManager(null, null);

    private final CommTransport transport;
    private volatile Displays displays = Displays.NONE;
    private volatile WidgetProtocol protocol;
    private volatile boolean configured;
    private final Map<String, Widget> widgets = new LinkedHashMap<>();
    private final AtomicLong created = new AtomicLong();

    /** A manager sending through {@code transport} ({@code null}: widgets work but nothing is sent). */
    public WidgetManager(CommTransport transport, WidgetProtocol protocol) {
        this.transport = transport;
        this.configured = protocol != null;
        this.protocol = protocol == null ? WidgetProtocol.V2 : protocol;
    }

    /** The manager of the running kernel (a manager that sends nothing outside a kernel). */
    public static WidgetManager current() {
        return current;
    }

    /** Makes {@code manager} the one new widgets register with. */
    public static void install(WidgetManager manager) {
        current = manager;
    }

    /**
     * The protocol configured by the system property {@code fabriclab.widgets} or else the environment variable
     * {@code FABRICLAB_WIDGETS}; {@code null} when neither names one (see {@link WidgetProtocol#named}).
     */
    public static WidgetProtocol configuredProtocol() {
        String p = System.getProperty("fabriclab.widgets");
        if (p == null) {
            p = System.getenv("FABRICLAB_WIDGETS");
        }
        return WidgetProtocol.named(p).orElse(null);
    }

    /**
     * The model id of a manager's {@code n}-th widget (from 1): 32 hexadecimal digits, the name-based
     * (version 3) UUID of {@code "fabriclab.widget." + n}, without dashes, shaped like the ids ipykernel's
     * widgets get.
     */
    public static String modelId(long n) {
        return UUID.nameUUIDFromBytes(("fabriclab.widget." + n).getBytes(StandardCharsets.UTF_8)).toString().replace("-", "");
    }

    /** The model id of the next widget created. */
    String nextModelId() {
        return modelId(created.incrementAndGet());
    }

    /** The protocol new widgets speak. */
    public WidgetProtocol protocol() {
        return protocol;
    }

    /** Sets the protocol new widgets speak, and keeps it whatever front end connects. */
    public void configure(WidgetProtocol p) {
        protocol = p;
        configured = true;
    }

    /** Where {@link Interact} shows and redraws figures. */
    public void displays(Displays d) {
        displays = d;
    }

    Displays displays() {
        return displays;
    }

    CommTransport transport() {
        return transport;
    }

    void register(Widget w) {
        synchronized (widgets) {
            widgets.put(w.modelId(), w);
        }
        if (transport != null) {
            transport.open(w.modelId(), WidgetProtocol.TARGET, w.protocol().openData(w.fullState()), w.protocol().openMetadata());
        }
    }

    void unregister(Widget w) {
        boolean removed;
        synchronized (widgets) {
            removed = widgets.remove(w.modelId()) != null;
        }
        if (removed && transport != null) {
            transport.close(w.modelId());
        }
    }

    /** The widget of comm {@code commId}, if open. */
    public Optional<Widget> widget(String commId) {
        synchronized (widgets) {
            return Optional.ofNullable(widgets.get(commId));
        }
    }

    /** The open widget comms' ids, in the order they were opened. */
    public List<String> openComms() {
        synchronized (widgets) {
            return new ArrayList<>(widgets.keySet());
        }
    }

    /**
     * Answers a {@code comm_open} from the front end: whether the comm is kept open. A classic front end's
     * {@code jupyter.widget.version} comm is answered with the widget version the kernel's models ask for; a
     * protocol 2 front end's {@code jupyter.widget.control} comm is refused (the front end then asks each model
     * for its state). Either, when no protocol was configured, sets the protocol of widgets created later.
     */
    public boolean frontEndOpened(String commId, String target) {
        if (WidgetProtocol.VERSION_TARGET.equals(target)) {
            if (!configured) {
                protocol = WidgetProtocol.CLASSIC;
            }
            if (transport != null) {
                transport.send(commId, Map.of("version", WidgetProtocol.CLASSIC.controlsVersion()));
            }
            return true;
        }
        if (WidgetProtocol.CONTROL_TARGET.equals(target) && !configured) {
            protocol = WidgetProtocol.V2;
        }
        return false;
    }

    /** Gives a front end's comm message to its widget; false when no widget has that comm. */
    public boolean frontEndMessage(String commId, Map<String, Object> data) {
        Optional<Widget> w = widget(commId);
        w.ifPresent(widget -> widget.receive(data));
        return w.isPresent();
    }

    /** Forgets a widget whose comm the front end closed (no {@code comm_close} is sent back). */
    public void frontEndClosed(String commId) {
        synchronized (widgets) {
            widgets.remove(commId);
        }
    }
}
