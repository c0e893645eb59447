package fabriclab.kernel.widgets;

import java.util.List;
import java.util.function.Supplier;

/**
 * A figure that follows its controls: {@link #interact} shows the controls and the figure, and
 * computes and redraws the figure each time a control's value changes (or a button is clicked).
 *
 * <pre>{@code
 * var senders = new IntSlider("senders", 2, 32, 8);
 * var buffer = new IntSlider("buffer KB", 64, 1024, 256);
 * interact(() -> queueChart(senders.value(), buffer.value() * 1024L), senders, buffer);
 * }</pre>
 */
public final class Interact {
    private Interact() {
    }

    /** The controls' box and the id of the display that shows the figure. */
    public record Interaction(Box controls, String displayId) {
        /** The controls, as {@code interact(VBox[IntSlider(senders = 7)])}: without the display's id. */
        @Override
        public String toString() {
            return "interact(" + controls + ")";
        }
    }

    /**
     * Shows {@code controls} one below the other, then {@code figure.get()} (a chart, a table, any value);
     * redraws the figure in place ({@code update_display_data}) with a new {@code figure.get()} after every
     * change of a control's value and every click of a button among the controls. A figure that throws
     * keeps the previous one shown and prints the error.
     */
    public static Interaction interact(Supplier<?> figure, Widget... controls) {
        WidgetManager manager = WidgetManager.current();
        Displays displays = manager.displays();
        Box box = Box.vbox(controls);
        displays.show(box);
        String id = displays.show(figure.get());
        Runnable redraw = () -> {
            Object next;
            try {
                next = figure.get();
            } catch (RuntimeException e) {
                System.err.println("interact: the figure failed: " + e);
                return;
            }
            displays.replace(id, next);
        };
        for (Widget w : List.of(controls)) {
            if (w instanceof ValueWidget<?> v) {
                v.observe(value -> redraw.run());
            } else if (w instanceof Button b) {
                b.onClick(redraw);
            }
        }
        return new Interaction(box, id);
    }
}
