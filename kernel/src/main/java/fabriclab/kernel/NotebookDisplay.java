package fabriclab.kernel;

import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import java.util.UUID;

/**
 * The {@code display} and {@code updateDisplay} functions of notebook code (same names and
 * meaning as IJava's), bound to the running kernel.
 */
public final class NotebookDisplay {
    private static volatile FabriclabKernel kernel;
    /** The id {@link #display} returned last (the very object), so a cell ending in {@code display(x);} shows no id. */
    private static volatile String lastId;

    private NotebookDisplay() {
    }

    static void attach(FabriclabKernel k) {
        kernel = k;
    }

    /** Whether a kernel is running and a cell is executing (so display output has somewhere to go). */
    public static boolean isActive() {
        FabriclabKernel k = kernel;
        return k != null && k.isExecuting();
    }

    private static FabriclabKernel kernel() {
        FabriclabKernel k = kernel;
        if (k == null) {
            throw new IllegalStateException("display() works only inside the fabriclab Jupyter kernel");
        }
        return k;
    }

    /** Shows {@code o} now, in its richest form; returns the display id for {@link #updateDisplay}. */
    public static String display(Object o) {
        return display(o, new String[0]);
    }

    /** Shows {@code o} as the given MIME types (e.g. "image/svg+xml"); returns the display id. */
    public static String display(Object o, String... as) {
        FabriclabKernel k = kernel();
        DisplayData data = render(k, o, as);
        String id = data.hasDisplayId() ? data.getDisplayId() : UUID.randomUUID().toString();
        data.setDisplayId(id);
        k.display(data);
        lastId = id;
        return id;
    }

    /** Replaces what display {@code id} shows with {@code o}. */
    public static void updateDisplay(String id, Object o) {
        updateDisplay(id, o, new String[0]);
    }

    /** Replaces what display {@code id} shows with {@code o} rendered as the given MIME types. */
    public static void updateDisplay(String id, Object o, String... as) {
        FabriclabKernel k = kernel();
        DisplayData data = render(k, o, as);
        data.setDisplayId(id);
        k.updateDisplay(data);
    }

    /** {@code o} as display data: a widget as its view, anything else by the kernel's renderer. */
    private static DisplayData render(FabriclabKernel k, Object o, String... as) {
        if (o instanceof fabriclab.kernel.widgets.Widget w && as.length == 0) {
            return WidgetComms.displayData(w);
        }
        return as.length == 0 ? k.getRenderer().render(o) : k.getRenderer().renderAs(o, as);
    }

    /** Whether {@code value} is the very string {@link #display} returned last. */
    static boolean isDisplayId(Object value) {
        return value != null && value == lastId;
    }

    /** Shows raw display data with a given display id (used by the progress bar). */
    static void show(String id, DisplayData data, boolean update) {
        FabriclabKernel k = kernel();
        data.setDisplayId(id);
        if (update) {
            k.updateDisplay(data);
        } else {
            k.display(data);
        }
    }
}
