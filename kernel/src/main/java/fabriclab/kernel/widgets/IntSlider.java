package fabriclab.kernel.widgets;

/** A slider over whole numbers from {@code min} to {@code max} in steps of {@code step}. */
public final class IntSlider extends Slider<Integer> {
    /** A slider labelled {@code description} over [{@code min}, {@code max}], step 1, at {@code value}. */
    public IntSlider(String description, int min, int max, int value) {
        this(description, min, max, 1, value);
    }

    /**
     * A slider labelled {@code description} over [{@code min}, {@code max}] in steps of {@code step}, at
     * {@code value}, reporting a value when the reader lets go of the handle.
     */
    public IntSlider(String description, int min, int max, int step, int value) {
        super("IntSliderModel", "IntSliderView", Number::intValue, description, min, max, step, value, "d");
    }
}
