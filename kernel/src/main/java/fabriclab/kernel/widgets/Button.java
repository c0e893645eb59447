package fabriclab.kernel.widgets;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/** A button; the front end reports each click as a {@code custom} message {@code {"event": "click"}}. */
public final class Button extends Widget {
    private final List<Runnable> clickListeners = new CopyOnWriteArrayList<>();

    /** A button labelled {@code description}. */
    public Button(String description) {
        super("ButtonModel", "ButtonView");
        define("description", description);
        define("disabled", false);
        define("tooltip", "");
        define("icon", "");
        define("button_style", "");
        open();
    }

    /** Calls {@code action} on each click. */
    public Button onClick(Runnable action) {
        clickListeners.add(Objects.requireNonNull(action));
        return this;
    }

    /** Runs the click actions, as a click in the front end does. */
    public void click() {
        for (Runnable r : clickListeners) {
            r.run();
        }
    }

    @Override
    protected void custom(Map<String, Object> content) {
        if ("click".equals(content.get("event"))) {
            click();
        }
    }

    @Override
    public String toString() {
        return "Button(" + get("description") + ")";
    }
}
