package fabriclab.kernel.widgets;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A drop-down list: one of several options, each shown by its {@code toString()} (labels must differ).
 * The front end knows only the labels and which one is chosen: by label ({@code value}) in
 * {@link WidgetProtocol#CLASSIC}, by position ({@code index}) in {@link WidgetProtocol#V2}.
 *
 * @param <T> the options' type
 */
public final class Dropdown<T> extends ValueWidget<T> {
    private final List<T> options;
    private final List<String> labels = new ArrayList<>();

    /** A drop-down labelled {@code description} over {@code options}, with {@code value} chosen. */
    public Dropdown(String description, List<T> options, T value) {
        super("DropdownModel", "DropdownView");
        this.options = List.copyOf(options);
        for (T o : this.options) {
            String label = String.valueOf(o);
            if (labels.contains(label)) {
                throw new IllegalArgumentException("two options show as \"" + label + "\"");
            }
            labels.add(label);
        }
        int index = this.options.indexOf(value);
        if (index < 0) {
            throw new IllegalArgumentException(value + " is not one of " + labels);
        }
        define("description", description);
        define("disabled", false);
        define("_options_labels", List.copyOf(labels));
        define(valueProperty(), protocol() == WidgetProtocol.CLASSIC ? labels.get(index) : (Object) index);
        if (protocol() == WidgetProtocol.V2) {
            define("description_allow_html", false);
        }
        open();
    }

    /** The options, in order. */
    public List<T> options() {
        return options;
    }

    @Override
    protected String valueProperty() {
        return protocol() == WidgetProtocol.CLASSIC ? "value" : "index";
    }

    @Override
    protected T fromState(Object stateValue) {
        int i = stateValue instanceof Number n ? n.intValue() : labels.indexOf(String.valueOf(stateValue));
        return options.get(i);
    }

    @Override
    protected Object toState(T value) {
        int i = options.indexOf(value);
        if (i < 0) {
            throw new IllegalArgumentException(value + " is not one of " + labels);
        }
        return protocol() == WidgetProtocol.CLASSIC ? labels.get(i) : (Object) i;
    }

    @Override
    protected Optional<Object> fromFrontEnd(String name, Object json) {
        if (!name.equals(valueProperty())) {
            return super.fromFrontEnd(name, json);
        }
        if (json instanceof Number n && n.intValue() >= 0 && n.intValue() < options.size()) {
            return Optional.of(n.intValue());
        }
        return json instanceof String s && labels.contains(s) ? Optional.of(s) : Optional.empty();
    }
}
