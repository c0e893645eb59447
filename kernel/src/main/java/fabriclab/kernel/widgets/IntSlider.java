package fabriclab.kernel.widgets;

import java.util.Optional;

/** A slider over whole numbers from {@code min} to {@code max} in steps of {@code step}. */
public final class IntSlider extends ValueWidget<Integer> {
    /** A slider labelled {@code description} over [{@code min}, {@code max}], step 1, at {@code value}. */
    public IntSlider(String description, int min, int max, int value) {
        this(description, min, max, 1, value);
    }

    /**
     * A slider labelled {@code description} over [{@code min}, {@code max}] in steps of {@code step}, at
     * {@code value}. It reports a value when the reader lets go of the handle ({@code continuous_update} false):
     * each value may re-run a simulation.
     */
    public IntSlider(String description, int min, int max, int step, int value) {
        super("IntSliderModel", "IntSliderView");
        if (min > max || step <= 0 || value < min || value > max) {
            throw new IllegalArgumentException("need min <= value <= max and step > 0: " + min + " " + value + " " + max + " " + step);
        }
        define("description", description);
        define("disabled", false);
        define("min", min);
        define("max", max);
        define("step", step);
        define("value", value);
        define("orientation", "horizontal");
        define("readout", true);
        define("readout_format", "d");
        define("continuous_update", false);
        if (protocol() == WidgetProtocol.V2) {
            define("behavior", "drag-tap");
            define("description_allow_html", false);
        }
        open();
    }

    @Override
    protected Integer fromState(Object stateValue) {
        return ((Number) stateValue).intValue();
    }

    @Override
    protected Optional<Object> fromFrontEnd(String name, Object json) {
        return json instanceof Number n && (name.equals("value") || name.equals("min") || name.equals("max") || name.equals("step"))
                ? Optional.of(n.intValue())
                : super.fromFrontEnd(name, json);
    }
}
