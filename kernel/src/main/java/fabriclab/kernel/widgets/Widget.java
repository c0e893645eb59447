package fabriclab.kernel.widgets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A widget model kept in sync with its Jupyter front end over a comm of target {@code jupyter.widget}:
 * the kernel holds the state (a map of JSON values), sends each change it makes to the front end as an
 * {@code update}, and applies the changes the front end sends (a slider moved) without sending them back.
 * Listeners hear every change, from either side.
 *
 * <p>Show a widget with {@code display(widget)} or as a cell's last expression. The comm is opened when
 * the widget is created and closed by {@link #close()}.
 *
 * <p>Thread-safe: cell threads and the kernel's shell thread (front-end messages) may use a widget at once;
 * listeners run on the thread that made the change.
 */
public abstract class Widget {
    /** A change of one state property. */
    @FunctionalInterface
    public interface PropertyListener {
        /** Called after property {@code name} changed from {@code oldValue} to {@code newValue}. */
        void changed(String name, Object oldValue, Object newValue);
    }

    private final WidgetManager manager;
    private final WidgetProtocol protocol;
    private final String modelId;
    private final Map<String, Object> state = new LinkedHashMap<>();
    private final List<PropertyListener> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean open;

    /** A model {@code modelName} shown by view {@code viewName} of the protocol's controls module. */
    protected Widget(String modelName, String viewName) {
        this(modelName, viewName, false);
    }

    Widget(String modelName, String viewName, boolean outputModule) {
        manager = WidgetManager.current();
        protocol = manager.protocol();
        modelId = manager.nextModelId();
        String module = outputModule ? protocol.outputModule() : protocol.controlsModule();
        String version = outputModule ? protocol.outputVersion() : protocol.controlsVersion();
        state.put("_model_module", module);
        state.put("_model_module_version", version);
        state.put("_model_name", modelName);
        state.put("_view_module", module);
        state.put("_view_module_version", version);
        state.put("_view_name", viewName);
        state.put("_dom_classes", List.of());
        if (protocol == WidgetProtocol.CLASSIC) {
            state.put("msg_throttle", 1);
        }
    }

    /** Defines a property before the comm opens (in a constructor, before {@link #open()}). */
    protected final void define(String name, Object value) {
        synchronized (this) {
            if (open) {
                throw new IllegalStateException("define() after open(): use set()");
            }
            state.put(name, value);
        }
    }

    /** Opens the comm with the state defined so far (once; the last constructor calls it). */
    protected final void open() {
        synchronized (this) {
            if (open) {
                return;
            }
            open = true;
        }
        manager.register(this);
    }

    /** The model id: the comm id, and what other models refer to this one by. */
    public final String modelId() {
        return modelId;
    }

    /** The protocol this widget speaks. */
    public final WidgetProtocol protocol() {
        return protocol;
    }

    /** A copy of the whole state. */
    public final synchronized Map<String, Object> fullState() {
        return new LinkedHashMap<>(state);
    }

    /** The state property {@code name}, or null. */
    public final synchronized Object get(String name) {
        return state.get(name);
    }

    /** Sets state property {@code name}, sends the change to the front end and tells the listeners; no-op if equal. */
    public final void set(String name, Object value) {
        Object old;
        synchronized (this) {
            old = state.get(name);
            if (Objects.equals(old, value)) {
                return;
            }
            state.put(name, value);
        }
        send(protocol.updateMessage(single(name, value)));
        fire(name, old, value);
    }

    /** Listens to every property change. */
    public final void observe(PropertyListener listener) {
        listeners.add(Objects.requireNonNull(listener));
    }

    /** Closes the comm: the front end removes the widget's views. */
    public final void close() {
        manager.unregister(this);
    }

    /** A view's display data ({@code application/vnd.jupyter.widget-view+json}). */
    public final Map<String, Object> viewData() {
        return protocol.viewData(modelId);
    }

    /**
     * Called by the kernel as the widget is displayed in a cell: the classic front end places a view where
     * a {@code display} comm message tells it to.
     */
    public final void displaying() {
        if (protocol == WidgetProtocol.CLASSIC) {
            send(Map.of("method", "display"));
        }
    }

    /** How state property {@code name} sent by the front end is stored (a number as the property's type); empty to ignore it. */
    protected Optional<Object> fromFrontEnd(String name, Object json) {
        return Optional.ofNullable(json);
    }

    /** Called with a {@code custom} message's content from the front end. */
    protected void custom(Map<String, Object> content) {
    }

    /** Handles a comm message from the front end. */
    @SuppressWarnings("unchecked")
    final void receive(Map<String, Object> data) {
        Optional<Map<String, Object>> changes = WidgetProtocol.changedState(data);
        if (changes.isPresent()) {
            applyFrontEnd(changes.get());
            return;
        }
        Object method = data.get("method");
        if ("request_state".equals(method)) {
            send(protocol.updateMessage(fullState()));
        } else if ("custom".equals(method) && data.get("content") instanceof Map<?, ?> content) {
            custom((Map<String, Object>) content);
        }
    }

    private void applyFrontEnd(Map<String, Object> changes) {
        List<Object[]> fired = new ArrayList<>();
        Map<String, Object> applied = new LinkedHashMap<>();
        synchronized (this) {
            for (Map.Entry<String, Object> e : changes.entrySet()) {
                if (!state.containsKey(e.getKey()) || e.getKey().startsWith("_")) {
                    continue;
                }
                Optional<Object> value = fromFrontEnd(e.getKey(), e.getValue());
                if (value.isEmpty()) {
                    continue;
                }
                Object old = state.put(e.getKey(), value.get());
                applied.put(e.getKey(), value.get());
                if (!Objects.equals(old, value.get())) {
                    fired.add(new Object[] {e.getKey(), old, value.get()});
                }
            }
        }
        if (!applied.isEmpty()) {
            protocol.echoMessage(applied).ifPresent(this::send);
        }
        for (Object[] f : fired) {
            fire((String) f[0], f[1], f[2]);
        }
    }

    private void fire(String name, Object old, Object now) {
        for (PropertyListener l : listeners) {
            l.changed(name, old, now);
        }
    }

    private void send(Map<String, Object> data) {
        CommTransport t = manager.transport();
        if (open && t != null) {
            t.send(modelId, data);
        }
    }

    WidgetManager manager() {
        return manager;
    }

    private static Map<String, Object> single(String name, Object value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(name, value);
        return m;
    }

    /** The reference to {@code w} in another widget's state ({@code IPY_MODEL_} and its model id). */
    static String reference(Widget w) {
        return WidgetProtocol.MODEL_REFERENCE + w.modelId();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(" + modelId + ")";
    }
}
