package fabriclab.kernel.widgets;

import java.util.ArrayList;
import java.util.List;

/** A layout box: its children side by side ({@link #hbox}) or one below the other ({@link #vbox}). */
public final class Box extends Widget {
    private final List<Widget> children;

    private Box(String model, String view, List<Widget> children) {
        super(model, view);
        this.children = List.copyOf(children);
        List<String> refs = new ArrayList<>();
        for (Widget w : this.children) {
            refs.add(reference(w));
        }
        define("children", refs);
        define("box_style", "");
        open();
    }

    /** A box showing {@code children} side by side. */
    public static Box hbox(Widget... children) {
        return new Box("HBoxModel", "HBoxView", List.of(children));
    }

    /** A box showing {@code children} one below the other. */
    public static Box vbox(Widget... children) {
        return new Box("VBoxModel", "VBoxView", List.of(children));
    }

    /** The children, in order. */
    public List<Widget> children() {
        return children;
    }

    @Override
    public String toString() {
        return get("_model_name").toString().replace("Model", "") + children;
    }
}
