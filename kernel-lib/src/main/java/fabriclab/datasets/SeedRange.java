package fabriclab.datasets;

import fabriclab.Parameters;
import java.util.List;
import java.util.Locale;

/**
 * A comparison row's model value as it comes out of each run behind it: one value per seed, and per value of an
 * unstated setting where the row has such an axis, each with a label ("seed 3", "2 QPs, seed 1").
 *
 * <p>The scorecard's hit rule asks every one of these values to meet the row's {@link Target}, not only the
 * median the row reports: {@link #meets(Target, double)} with the share {@link Scorecard#HIT_SHARE}.
 *
 * @param basis what the values are, e.g. "seeds 1-5, RoCE and GSE paired per seed"; not blank
 * @param labels one label per value, in the same order; not blank
 * @param values the model values, in the row's unit; at least one, each finite
 */
public record SeedRange(String basis, List<String> labels, List<Double> values) {
    /** Validates: basis not blank, as many labels as values, at least one value, every value finite. */
    public SeedRange {
        Parameters.notBlank("basis", basis);
        Parameters.notNull("labels", labels);
        Parameters.notNull("values", values);
        if (values.isEmpty()) {
            throw new IllegalArgumentException("values must hold at least one value, got none");
        }
        if (labels.size() != values.size()) {
            throw new IllegalArgumentException("labels must hold one label per value (" + values.size() + "), got "
                    + labels.size());
        }
        for (int i = 0; i < values.size(); i++) {
            Parameters.notNull("values[" + i + "]", values.get(i));
            Parameters.finite("values[" + i + "]", values.get(i));
            Parameters.notBlank("labels[" + i + "]", labels.get(i));
        }
        labels = List.copyOf(labels);
        values = List.copyOf(values);
    }

    /** The smallest value. */
    public double min() {
        return values.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
    }

    /** The largest value. */
    public double max() {
        return values.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
    }

    /** The median: the middle value, or the mean of the two middle values for an even count. */
    public double median() {
        return SeedRanges.median(values);
    }

    /** How many values meet {@code target} ({@link Target#met}). */
    public int inside(Target target) {
        Parameters.notNull("target", target);
        return (int) values.stream().filter(target::met).count();
    }

    /** The share of values that meet {@code target}, in [0, 1]. */
    public double shareInside(Target target) {
        return (double) inside(target) / values.size();
    }

    /**
     * Whether at least the share {@code share} (in (0, 1]) of the values meet {@code target}. With share 1, every
     * value must: the whole range lies within the target's tolerance.
     */
    public boolean meets(Target target, double share) {
        Parameters.inRange("share", share, Math.ulp(0.0), 1);
        return inside(target) >= Math.ceil(share * values.size() - 1e-9);
    }

    /** "min..max (k of n inside)" at four significant digits, or the value alone when all values are equal. */
    public String describe(Target target) {
        String range = min() == max() ? format(min()) + (values.size() > 1 ? " (all " + values.size() + ")" : "")
                : format(min()) + " to " + format(max());
        return range + ", " + inside(target) + " of " + values.size() + " inside";
    }

    private static String format(double v) {
        return String.format(Locale.ROOT, "%.4g", v);
    }
}
