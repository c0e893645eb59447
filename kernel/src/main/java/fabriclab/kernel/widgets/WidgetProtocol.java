package fabriclab.kernel.widgets;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The two dialects of the Jupyter widget protocol the kernel speaks over comms of target
 * {@code jupyter.widget}: which JavaScript modules and versions a model names, what a
 * {@code comm_open} carries, how the front end reports a change, and what a widget's
 * {@code application/vnd.jupyter.widget-view+json} display holds.
 *
 * <ul>
 *   <li>{@link #CLASSIC}: the classic notebook's widgets of ipywidgets 6 (Debian's
 *       {@code jupyter-js-widgets} nbextension, front end 2.1.4). Models name module
 *       {@code jupyter-js-widgets}, version {@code ~2.1.4}; the {@code comm_open} data is the state itself;
 *       the front end sends changes as {@code {"method": "backbone", "sync_data": {...}}}; a view is
 *       placed by a {@code {"method": "display"}} comm message sent while the cell runs.
 *   <li>{@link #V2}: widget protocol 2.1 of ipywidgets 8 (current JupyterLab and Notebook 7). Models name
 *       {@code @jupyter-widgets/controls} 2.0.0 (the output widget {@code @jupyter-widgets/output} 1.0.0);
 *       the {@code comm_open} data is {@code {"state": {...}, "buffer_paths": []}} with metadata
 *       {@code {"version": "2.1.0"}}; the front end sends {@code {"method": "update", "state": {...}}}, which
 *       the kernel confirms with {@code echo_update}; a display holds {@code version_major} 2.
 * </ul>
 */
public enum WidgetProtocol {
    /** ipywidgets 6, the classic notebook's {@code jupyter-js-widgets} 2.1. */
    CLASSIC("jupyter-js-widgets", "~2.1.4", "jupyter-js-widgets", "~2.1.4", null, 1),
    /** Widget protocol 2.1 (ipywidgets 8, {@code @jupyter-widgets/controls} 2.0.0). */
    V2("@jupyter-widgets/controls", "2.0.0", "@jupyter-widgets/output", "1.0.0", "2.1.0", 2);

    /** The comm target of widget models. */
    public static final String TARGET = "jupyter.widget";
    /** The comm target on which the classic front end checks the kernel's widget version. */
    public static final String VERSION_TARGET = "jupyter.widget.version";
    /** The comm target on which a protocol 2 front end asks for every model's state at once. */
    public static final String CONTROL_TARGET = "jupyter.widget.control";
    /** The MIME type of a widget's view in display data. */
    public static final String VIEW_MIME = "application/vnd.jupyter.widget-view+json";
    /** What a state value refers to another widget by: this prefix and the widget's model id. */
    public static final String MODEL_REFERENCE = "IPY_MODEL_";

    private final String controlsModule;
    private final String controlsVersion;
    private final String outputModule;
    private final String outputVersion;
    private final String commVersion;
    private final int viewVersionMajor;

    WidgetProtocol(String controlsModule, String controlsVersion, String outputModule, String outputVersion, String commVersion,
            int viewVersionMajor) {
        this.controlsModule = controlsModule;
        this.controlsVersion = controlsVersion;
        this.outputModule = outputModule;
        this.outputVersion = outputVersion;
        this.commVersion = commVersion;
        this.viewVersionMajor = viewVersionMajor;
    }

    /**
     * The protocol named by {@code name}: {@code 6} or {@code classic} for {@link #CLASSIC}; {@code 8},
     * {@code 2}, {@code 2.1} or {@code lab} for {@link #V2}; empty for anything else.
     */
    public static Optional<WidgetProtocol> named(String name) {
        if (name == null) {
            return Optional.empty();
        }
        return switch (name.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "6", "classic", "ipywidgets6" -> Optional.of(CLASSIC);
            case "8", "2", "2.1", "2.1.0", "lab", "ipywidgets8", "v2" -> Optional.of(V2);
            default -> Optional.empty();
        };
    }

    /** The JavaScript module of the controls' models and views. */
    public String controlsModule() {
        return controlsModule;
    }

    /** The module version (a semver range for {@link #CLASSIC}) the controls' models ask for. */
    public String controlsVersion() {
        return controlsVersion;
    }

    /** The JavaScript module of the output widget. */
    String outputModule() {
        return outputModule;
    }

    String outputVersion() {
        return outputVersion;
    }

    /** The {@code version_major} of a widget view's display data. */
    public int viewVersionMajor() {
        return viewVersionMajor;
    }

    /** The {@code comm_open} data that creates a model with {@code state}. */
    public Map<String, Object> openData(Map<String, Object> state) {
        if (this == CLASSIC) {
            return new LinkedHashMap<>(state);
        }
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("state", new LinkedHashMap<>(state));
        data.put("buffer_paths", List.of());
        return data;
    }

    /** The {@code comm_open} metadata: the protocol version for {@link #V2}, nothing for {@link #CLASSIC}. */
    public Map<String, Object> openMetadata() {
        return commVersion == null ? Map.of() : Map.of("version", commVersion);
    }

    /** The comm message that sets {@code state} in the front end's model. */
    public Map<String, Object> updateMessage(Map<String, Object> state) {
        return stateMessage("update", state);
    }

    /**
     * The comm message that confirms a change the front end sent ({@code echo_update} of protocol 2.1), or
     * empty in {@link #CLASSIC}, whose front end is not sent its own changes back.
     */
    public Optional<Map<String, Object>> echoMessage(Map<String, Object> state) {
        return this == CLASSIC ? Optional.empty() : Optional.of(stateMessage("echo_update", state));
    }

    private Map<String, Object> stateMessage(String method, Map<String, Object> state) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("method", method);
        m.put("state", new LinkedHashMap<>(state));
        m.put(this == CLASSIC ? "buffers" : "buffer_paths", List.of());
        return m;
    }

    /**
     * The state a front end's comm message changes, or empty when the message changes none (a state request,
     * a custom message): {@code sync_data} of a {@code backbone} message in {@link #CLASSIC}, {@code state}
     * of an {@code update} in {@link #V2}. Either form is read in either protocol, so a front end of the other
     * version is still understood.
     */
    @SuppressWarnings("unchecked")
    public static Optional<Map<String, Object>> changedState(Map<String, Object> data) {
        Object method = data.get("method");
        Object state = "backbone".equals(method) ? data.get("sync_data") : "update".equals(method) ? data.get("state") : null;
        return state instanceof Map<?, ?> m ? Optional.of((Map<String, Object>) m) : Optional.empty();
    }

    /** A widget view's display data ({@code application/vnd.jupyter.widget-view+json}) for model {@code modelId}. */
    public Map<String, Object> viewData(String modelId) {
        Map<String, Object> view = new LinkedHashMap<>();
        view.put("model_id", modelId);
        view.put("version_major", viewVersionMajor);
        view.put("version_minor", 0);
        return view;
    }
}
