package fabriclab.datasets;

import fabriclab.Parameters;

/**
 * A published number as the paper states it: a point, a bound, a band or an unsigned magnitude.
 *
 * <p>Every form has a stated interval of accepted model values and a relative {@link #tolerance()}. The
 * {@link #relativeDifference(double) relative difference} of a model value {@code m} is 0 inside the
 * stated interval and otherwise {@code (m - e) / |e|}, where {@code e} is the nearest end of the interval
 * (for a {@link Magnitude}, {@code |m|} takes the place of {@code m}). When that end is 0 the absolute
 * difference {@code m - e} is used instead, in the row's unit. A model value {@linkplain #met meets} the
 * target when the absolute relative difference is at most the tolerance.
 *
 * <ul>
 * <li>{@link Point}: "about 97.98 Gb/s"; the interval is the single value.</li>
 * <li>{@link LowerBound}: "above 10 MB throughout", "an order of magnitude" (at least 10x).</li>
 * <li>{@link UpperBound}: "no loss" (at most 0 packets), "sum of credit rates at most R".</li>
 * <li>{@link Band}: two statements of the same quantity that disagree ("GSE's JCT is about 1/3 of
 * RoCE's", and "3.5x better"): the interval between them.</li>
 * <li>{@link Magnitude}: a difference stated without its sign ("a deviation of 1.3%"): compared with
 * the model's absolute value.</li>
 * </ul>
 *
 * <p>The form, the value(s) and the tolerance are written in a comparison dataset's {@code target},
 * {@code published}, {@code published_high} and {@code tolerance} columns and read back by
 * {@link #of(String, double, double, double)}.
 */
public sealed interface Target permits Target.Point, Target.LowerBound, Target.UpperBound, Target.Band, Target.Magnitude {
    /** Tolerance of a point or a magnitude when none is given: 15% of the published value. */
    double DEFAULT_TOLERANCE = 0.15;

    /** The form's label in the {@code target} column: point, lower-bound, upper-bound, band or magnitude. */
    String form();

    /** The published value (a band's low end). */
    double published();

    /** A band's high end; for the other forms the same as {@link #published()}. */
    double publishedHigh();

    /** Relative tolerance in [0, 1]. */
    double tolerance();

    /**
     * Distance of {@code model} outside the stated interval, relative to the nearest end (absolute when
     * that end is 0); 0 inside. Signed: negative below the interval, positive above.
     *
     * @throws IllegalArgumentException if {@code model} is not finite
     */
    double relativeDifference(double model);

    /** Whether {@code |relativeDifference(model)| <= tolerance()}. */
    default boolean met(double model) {
        return Math.abs(relativeDifference(model)) <= tolerance();
    }

    /**
     * The same form and published value(s) with another relative tolerance.
     *
     * @param tolerance relative tolerance in [0, 1]
     */
    default Target withTolerance(double tolerance) {
        return of(form(), published(), publishedHigh(), tolerance);
    }

    /** The target in words (six significant digits), e.g. "at least 10", "3 to 3.5 \u00b1 15%", "|x| = 1.3 \u00b1 15%". */
    String describe();

    /** A point with the default 15% tolerance. */
    static Point point(double value) {
        return new Point(value, DEFAULT_TOLERANCE);
    }

    /** A point with the given relative tolerance in [0, 1]. */
    static Point point(double value, double tolerance) {
        return new Point(value, tolerance);
    }

    /** A strict lower bound: met when the model is at least {@code value}. */
    static LowerBound atLeast(double value) {
        return new LowerBound(value, 0);
    }

    /** A strict upper bound: met when the model is at most {@code value}. */
    static UpperBound atMost(double value) {
        return new UpperBound(value, 0);
    }

    /** A band with the default 15% tolerance on its ends (each end is itself an "about" value). */
    static Band band(double low, double high) {
        return new Band(low, high, DEFAULT_TOLERANCE);
    }

    /** An unsigned magnitude with the default 15% tolerance. */
    static Magnitude magnitude(double value) {
        return new Magnitude(value, DEFAULT_TOLERANCE);
    }

    /**
     * The target written as {@code form}, {@code published}, {@code publishedHigh}, {@code tolerance}
     * (the columns of a comparison dataset).
     *
     * @throws IllegalArgumentException for an unknown form, or values its constructor rejects, or a
     *     {@code publishedHigh} different from {@code published} for a form that is not a band
     */
    static Target of(String form, double published, double publishedHigh, double tolerance) {
        Target t = switch (Parameters.notBlank("form", form)) {
            case "point" -> new Point(published, tolerance);
            case "lower-bound" -> new LowerBound(published, tolerance);
            case "upper-bound" -> new UpperBound(published, tolerance);
            case "band" -> new Band(published, publishedHigh, tolerance);
            case "magnitude" -> new Magnitude(published, tolerance);
            default -> throw new IllegalArgumentException(
                    "form must be one of point, lower-bound, upper-bound, band, magnitude, got \"" + form + "\"");
        };
        if (t.publishedHigh() != publishedHigh) {
            throw new IllegalArgumentException("publishedHigh must equal published (" + published + ") for a "
                    + form + ", got " + publishedHigh);
        }
        return t;
    }

    /**
     * About a value: the stated interval is the value itself.
     *
     * @param published the published value, in the row's unit
     * @param tolerance relative tolerance in [0, 1]
     */
    record Point(double published, double tolerance) implements Target {
        /** Validates: finite value, tolerance in [0, 1]. */
        public Point {
            Parameters.finite("published", published);
            Parameters.inRange("tolerance", tolerance, 0, 1);
        }

        @Override
        public String form() {
            return "point";
        }

        @Override
        public double publishedHigh() {
            return published;
        }

        @Override
        public double relativeDifference(double model) {
            return outside(Parameters.finite("model", model), published, published);
        }

        @Override
        public String describe() {
            return format(published) + toleranceText(tolerance);
        }
    }

    /**
     * At least a value ("above 10 MB throughout").
     *
     * @param published the bound, in the row's unit
     * @param tolerance relative tolerance in [0, 1] below the bound (0: strict)
     */
    record LowerBound(double published, double tolerance) implements Target {
        /** Validates: finite bound, tolerance in [0, 1]. */
        public LowerBound {
            Parameters.finite("published", published);
            Parameters.inRange("tolerance", tolerance, 0, 1);
        }

        @Override
        public String form() {
            return "lower-bound";
        }

        @Override
        public double publishedHigh() {
            return published;
        }

        @Override
        public double relativeDifference(double model) {
            return outside(Parameters.finite("model", model), published, Double.POSITIVE_INFINITY);
        }

        @Override
        public String describe() {
            return "at least " + format(published) + toleranceText(tolerance);
        }
    }

    /**
     * At most a value ("no loss": at most 0).
     *
     * @param published the bound, in the row's unit
     * @param tolerance relative tolerance in [0, 1] above the bound (0: strict)
     */
    record UpperBound(double published, double tolerance) implements Target {
        /** Validates: finite bound, tolerance in [0, 1]. */
        public UpperBound {
            Parameters.finite("published", published);
            Parameters.inRange("tolerance", tolerance, 0, 1);
        }

        @Override
        public String form() {
            return "upper-bound";
        }

        @Override
        public double publishedHigh() {
            return published;
        }

        @Override
        public double relativeDifference(double model) {
            return outside(Parameters.finite("model", model), Double.NEGATIVE_INFINITY, published);
        }

        @Override
        public String describe() {
            return "at most " + format(published) + toleranceText(tolerance);
        }
    }

    /**
     * Between two values: two statements of one quantity that disagree.
     *
     * @param published the low end, in the row's unit
     * @param publishedHigh the high end, above the low end
     * @param tolerance relative tolerance in [0, 1] outside either end
     */
    record Band(double published, double publishedHigh, double tolerance) implements Target {
        /** Validates: finite ends with {@code published < publishedHigh}, tolerance in [0, 1]. */
        public Band {
            Parameters.finite("published", published);
            Parameters.finite("publishedHigh", publishedHigh);
            if (!(publishedHigh > published)) {
                throw new IllegalArgumentException("publishedHigh must be > published (" + published + "), got "
                        + publishedHigh);
            }
            Parameters.inRange("tolerance", tolerance, 0, 1);
        }

        @Override
        public String form() {
            return "band";
        }

        @Override
        public double relativeDifference(double model) {
            return outside(Parameters.finite("model", model), published, publishedHigh);
        }

        @Override
        public String describe() {
            return format(published) + " to " + format(publishedHigh) + toleranceText(tolerance);
        }
    }

    /**
     * A difference stated without its sign: compared with the model value's absolute value.
     *
     * @param published the stated size, at least 0, in the row's unit
     * @param tolerance relative tolerance in [0, 1]
     */
    record Magnitude(double published, double tolerance) implements Target {
        /** Validates: finite value >= 0, tolerance in [0, 1]. */
        public Magnitude {
            Parameters.nonNegative("published", published);
            Parameters.inRange("tolerance", tolerance, 0, 1);
        }

        @Override
        public String form() {
            return "magnitude";
        }

        @Override
        public double publishedHigh() {
            return published;
        }

        @Override
        public double relativeDifference(double model) {
            return outside(Math.abs(Parameters.finite("model", model)), published, published);
        }

        @Override
        public String describe() {
            return "|x| = " + format(published) + toleranceText(tolerance);
        }
    }

    private static double outside(double m, double low, double high) {
        if (m < low) {
            return low == 0 ? m - low : (m - low) / Math.abs(low);
        }
        if (m > high) {
            return high == 0 ? m - high : (m - high) / Math.abs(high);
        }
        return 0;
    }

    private static String toleranceText(double tolerance) {
        return tolerance == 0 ? "" : " \u00b1 " + format(100 * tolerance) + "%";
    }

    private static String format(double v) {
        String s = String.format(java.util.Locale.ROOT, "%.6g", v);
        if (s.contains("e") || !s.contains(".")) {
            return s;
        }
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
