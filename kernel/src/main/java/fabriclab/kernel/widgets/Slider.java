package fabriclab.kernel.widgets;

import java.util.Optional;
import java.util.function.Function;

/**
 * What the two sliders share: the slider models' state (ipywidgets' {@code IntSliderModel} and
 * {@code FloatSliderModel}: description, bounds, step, value, horizontal orientation, a readout in
 * {@code readoutFormat}, and {@code continuous_update} false, so that a value is reported when the reader lets go
 * of the handle, since each value may re-run a simulation), the check of the bounds, and the reading of the
 * numbers a front end sends.
 *
 * @param <T> {@link Integer} or {@link Double}
 */
public abstract sealed class Slider<T extends Number> extends ValueWidget<T> permits IntSlider, FloatSlider {
    private final Function<Number, T> convert;

    /**
     * Defines and opens a slider of model {@code modelName}; refuses bounds outside
     * {@code min <= value <= max} or a {@code step} that is not positive, naming the parameter.
     */
    Slider(String modelName, String viewName, Function<Number, T> convert, String description, T min, T max, T step,
            T value, String readoutFormat) {
        super(modelName, viewName);
        this.convert = convert;
        double lo = min.doubleValue();
        double hi = max.doubleValue();
        double v = value.doubleValue();
        if (!(lo <= hi)) {
            throw new IllegalArgumentException("min must be at most max = " + max + ", got " + min);
        }
        if (!(step.doubleValue() > 0)) {
            throw new IllegalArgumentException("step must be positive, got " + step);
        }
        if (!(lo <= v && v <= hi)) {
            throw new IllegalArgumentException("value must be in [" + min + ", " + max + "], got " + value);
        }
        define("description", description);
        define("disabled", false);
        define("min", min);
        define("max", max);
        define("step", step);
        define("value", value);
        define("orientation", "horizontal");
        define("readout", true);
        define("readout_format", readoutFormat);
        define("continuous_update", false);
        if (protocol() == WidgetProtocol.V2) {
            define("behavior", "drag-tap");
            define("description_allow_html", false);
        }
        open();
    }

    @Override
    protected final T fromState(Object stateValue) {
        return convert.apply((Number) stateValue);
    }

    @Override
    protected final Optional<Object> fromFrontEnd(String name, Object json) {
        return json instanceof Number n && (name.equals("value") || name.equals("min") || name.equals("max")
                || name.equals("step"))
                ? Optional.of(convert.apply(n))
                : super.fromFrontEnd(name, json);
    }
}
