package fabriclab.kernel.widgets;

import java.util.Optional;

/** A one-line text field. */
public final class Text extends ValueWidget<String> {
    /** A text field labelled {@code description} holding {@code value}; it reports its value when the reader presses Enter or leaves it. */
    public Text(String description, String value) {
        super("TextModel", "TextView");
        define("description", description);
        define("disabled", false);
        define("value", value);
        define("placeholder", "");
        define("continuous_update", false);
        if (protocol() == WidgetProtocol.V2) {
            define("description_allow_html", false);
        }
        open();
    }

    @Override
    protected String fromState(Object stateValue) {
        return (String) stateValue;
    }

    @Override
    protected Optional<Object> fromFrontEnd(String name, Object json) {
        return name.equals("value") && !(json instanceof String) ? Optional.empty() : super.fromFrontEnd(name, json);
    }
}
