package fabriclab.experiments.testbed;

import fabriclab.Parameters;
import java.util.Arrays;
import java.util.Locale;

/**
 * A quantity over seeds (or any sample): the median (the middle value, or the mean of the two middle values), lowest and highest.
 *
 * @param median the median
 * @param min the lowest value
 * @param max the highest value
 */
public record Spread(double median, double min, double max) {
    /** Validates min <= median <= max, all finite. */
    public Spread {
        Parameters.finite("median", median);
        Parameters.finite("min", min);
        Parameters.finite("max", max);
        if (!(min <= median && median <= max)) {
            throw new IllegalArgumentException("min <= median <= max must hold, got " + min + ", " + median + ", " + max);
        }
    }

    /** The spread of {@code values}, not empty, finite. */
    public static Spread of(double[] values) {
        Parameters.notNull("values", values);
        if (values.length == 0) {
            throw new IllegalArgumentException("values must not be empty");
        }
        Parameters.finiteElements("values", values);
        double[] x = values.clone();
        Arrays.sort(x);
        int n = x.length;
        return new Spread(n % 2 == 1 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2, x[0], x[n - 1]);
    }

    /** "median (min-max)" with {@code format} (e.g. "%.2f") for each number; "median" alone when all are equal. */
    public String format(String format) {
        Parameters.notBlank("format", format);
        String m = String.format(Locale.ROOT, format, median);
        return min == max ? m : m + " (" + String.format(Locale.ROOT, format, min) + "-" + String.format(Locale.ROOT, format, max) + ")";
    }
}
