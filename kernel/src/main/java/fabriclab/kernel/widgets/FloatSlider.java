package fabriclab.kernel.widgets;

import java.util.Optional;

/** A slider over real numbers from {@code min} to {@code max} in steps of {@code step}. */
public final class FloatSlider extends ValueWidget<Double> {
    /**
     * A slider labelled {@code description} over [{@code min}, {@code max}] in steps of {@code step}, at
     * {@code value}, reporting a value when the reader lets go of the handle.
     */
    public FloatSlider(String description, double min, double max, double step, double value) {
        super("FloatSliderModel", "FloatSliderView");
        if (!(min <= value && value <= max) || !(step > 0)) {
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
        define("readout_format", ".2f");
        define("continuous_update", false);
        if (protocol() == WidgetProtocol.V2) {
            define("behavior", "drag-tap");
            define("description_allow_html", false);
        }
        open();
    }

    @Override
    protected Double fromState(Object stateValue) {
        return ((Number) stateValue).doubleValue();
    }

    @Override
    protected Optional<Object> fromFrontEnd(String name, Object json) {
        return json instanceof Number n && (name.equals("value") || name.equals("min") || name.equals("max") || name.equals("step"))
                ? Optional.of(n.doubleValue())
                : super.fromFrontEnd(name, json);
    }
}
