package fabriclab;

/**
 * Argument checks shared by every public entry point of kernel-lib.
 *
 * <p>Each check fails with an {@link IllegalArgumentException} whose message names the parameter,
 * the value received and the allowed range, so that a notebook user sees at once what to change.
 * NaN is rejected by every numeric check.
 */
public final class Parameters {
    private Parameters() {
    }

    /** Requires {@code value > 0} and finite. Returns the value. */
    public static double positive(String name, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be a finite number > 0, got " + value);
        }
        return value;
    }

    /** Requires {@code value >= 0} and finite. Returns the value. */
    public static double nonNegative(String name, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be a finite number >= 0, got " + value);
        }
        return value;
    }

    /** Requires {@code lo <= value <= hi}. Returns the value. */
    public static double inRange(String name, double value, double lo, double hi) {
        if (!(value >= lo && value <= hi)) {
            throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "], got " + value);
        }
        return value;
    }

    /** Requires {@code lo < value <= hi} (for example a probability that may not be zero). */
    public static double inHalfOpenRange(String name, double value, double lo, double hi) {
        if (!(value > lo && value <= hi)) {
            throw new IllegalArgumentException(name + " must be in (" + lo + ", " + hi + "], got " + value);
        }
        return value;
    }

    /** Requires {@code value >= min}. Returns the value. */
    public static long atLeast(String name, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be >= " + min + ", got " + value);
        }
        return value;
    }

    /** Requires {@code value >= min}. Returns the value. */
    public static int atLeast(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be >= " + min + ", got " + value);
        }
        return value;
    }

    /** Checks {@code lo <= value <= hi} for a long (byte counts, picoseconds) and returns it. */
    public static long inRange(String name, long value, long lo, long hi) {
        if (value < lo || value > hi) {
            throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "], got " + value);
        }
        return value;
    }

    /** Requires {@code lo <= value <= hi}. Returns the value. */
    public static int inRange(String name, int value, int lo, int hi) {
        if (value < lo || value > hi) {
            throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "], got " + value);
        }
        return value;
    }

    /** Requires a finite value (not NaN, not infinite). Returns the value. */
    public static double finite(String name, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be a finite number, got " + value);
        }
        return value;
    }

    /** Requires a non-null reference. Returns it. */
    public static <T> T notNull(String name, T value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        return value;
    }

    /**
     * Requires a non-null list without null elements; the message names the first null element as
     * {@code name[i]}. Returns the list.
     */
    public static <T extends java.util.Collection<?>> T noNullElements(String name, T values) {
        notNull(name, values);
        int i = 0;
        for (Object v : values) {
            if (v == null) {
                throw new IllegalArgumentException(name + "[" + i + "] must not be null");
            }
            i++;
        }
        return values;
    }

    /**
     * Requires a non-null array of finite numbers; the message names the first bad element as
     * {@code name[i]}. Returns the array.
     */
    public static double[] finiteElements(String name, double[] values) {
        notNull(name, values);
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException(name + "[" + i + "] must be a finite number, got " + values[i]);
            }
        }
        return values;
    }

    /** Requires a non-null, non-blank string. Returns it. */
    public static String notBlank(String name, String value) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name (of the parameter checked) must be a non-empty string, got "
                    + (name == null ? "null" : "\"" + name + "\""));
        }
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must be a non-empty string, got " + (value == null ? "null" : "\"" + value + "\""));
        }
        return value;
    }
}
