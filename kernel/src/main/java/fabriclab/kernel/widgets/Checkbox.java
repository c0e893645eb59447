package fabriclab.kernel.widgets;

import java.util.Optional;

/** A checkbox: a yes/no choice. */
public final class Checkbox extends ValueWidget<Boolean> {
    /** A checkbox labelled {@code description}, ticked if {@code value}. */
    public Checkbox(String description, boolean value) {
        super("CheckboxModel", "CheckboxView");
        define("description", description);
        define("disabled", false);
        define("value", value);
        if (protocol() == WidgetProtocol.V2) {
            define("indent", true);
            define("description_allow_html", false);
        }
        open();
    }

    @Override
    protected Boolean fromState(Object stateValue) {
        return (Boolean) stateValue;
    }

    @Override
    protected Optional<Object> fromFrontEnd(String name, Object json) {
        return name.equals("value") && !(json instanceof Boolean) ? Optional.empty() : super.fromFrontEnd(name, json);
    }
}
