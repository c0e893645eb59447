package fabriclab.kernel.widgets;

/** A slider over real numbers from {@code min} to {@code max} in steps of {@code step}. */
public final class FloatSlider extends Slider<Double> {
    /**
     * A slider labelled {@code description} over [{@code min}, {@code max}] in steps of {@code step}, at
     * {@code value}, reporting a value when the reader lets go of the handle.
     */
    public FloatSlider(String description, double min, double max, double step, double value) {
        super("FloatSliderModel", "FloatSliderView", Number::doubleValue, description, min, max, step, value, ".2f");
    }
}
