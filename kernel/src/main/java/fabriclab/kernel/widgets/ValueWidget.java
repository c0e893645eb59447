package fabriclab.kernel.widgets;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * A widget with a value the reader changes in the front end (a slider's position, a checkbox's tick).
 *
 * @param <T> the value's Java type
 */
public abstract class ValueWidget<T> extends Widget {
    /** A model {@code modelName} shown by view {@code viewName}. */
    protected ValueWidget(String modelName, String viewName) {
        super(modelName, viewName);
    }

    /** The state property that holds the value. */
    protected String valueProperty() {
        return "value";
    }

    /** The value held in the state as its Java value. */
    protected abstract T fromState(Object stateValue);

    /** The Java value as held in the state. */
    protected Object toState(T value) {
        return value;
    }

    /** The current value. */
    public final T value() {
        return fromState(get(valueProperty()));
    }

    /** Sets the value (the front end's views follow); listeners hear it if it changed. */
    public final void value(T value) {
        set(valueProperty(), toState(Objects.requireNonNull(value)));
    }

    /** Calls {@code listener} with the new value after each change, from the front end or from code. */
    public final void observe(Consumer<? super T> listener) {
        Objects.requireNonNull(listener);
        observe((name, oldValue, newValue) -> {
            if (name.equals(valueProperty())) {
                listener.accept(fromState(newValue));
            }
        });
    }

    /** Sets the label shown next to the control. */
    public final void description(String text) {
        set("description", text);
    }

    /** Whether the reader may change the value. */
    public final void disabled(boolean disabled) {
        set("disabled", disabled);
    }

    @Override
    public String toString() {
        Object d = get("description");
        return getClass().getSimpleName() + "(" + (d == null || d.toString().isEmpty() ? "" : d + " = ") + value() + ")";
    }
}
