package fabriclab.cli;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the command line writes a whole number of some unit: a count, a size in bytes, a rate in bit/s or a time in
 * picoseconds. The grammar is this command's own, not Java's number syntax (no {@code d} or {@code f} suffixes, no
 * hexadecimal, no {@code NaN} or {@code Infinity}):
 * <ul>
 *   <li>an integer ({@link #INTEGER}): an optional sign and decimal digits, optionally grouped by single underscores
 *       ({@code 1_000});</li>
 *   <li>a quantity ({@link #BYTES}, {@link #RATE}, {@link #TIME}): decimal digits, optionally grouped by single
 *       underscores, an optional decimal part ({@code .5}), an optional exponent ({@code e6}, {@code E-3}, at most 4
 *       digits), then optionally one of the quantity's units (blanks between number and unit are allowed). No sign.
 *       The number times its unit must be a whole number of the base unit (bytes, bit/s, ps); it is computed
 *       exactly (decimal arithmetic, no rounding).</li>
 * </ul>
 */
final class Quantity {
    private static final Pattern INTEGER_SYNTAX = Pattern.compile("[+-]?[0-9]+(?:_[0-9]+)*");
    private static final Pattern NUMBER_SYNTAX = Pattern.compile("[0-9]+(?:_[0-9]+)*(?:\\.[0-9]+)?(?:[eE][+-]?[0-9]{1,4})?");

    /** A signed integer without unit. */
    static final Quantity INTEGER = new Quantity("an integer", "", true, List.of(), List.of());
    /** A size: B, or KB, MB, GB, TB (powers of 1000, as the papers write them), or KiB, MiB, GiB, TiB; none: bytes. */
    static final Quantity BYTES = new Quantity("a size such as 2MB, 4MiB or 1500 (bytes)", "bytes", false,
            List.of(unit("B", 1), unit("KB", 1_000L), unit("MB", 1_000_000L), unit("GB", 1_000_000_000L),
                    unit("TB", 1_000_000_000_000L), unit("KiB", 1L << 10), unit("MiB", 1L << 20), unit("GiB", 1L << 30),
                    unit("TiB", 1L << 40)),
            List.of());
    /** A rate in bit/s: K, M, G, T (powers of 1000), each optionally followed by bps or b/s; none: bit/s. */
    static final Quantity RATE = new Quantity("a rate such as 100G or 25G (bit/s)", "bit/s", false,
            List.of(unit("b/s", 1), unit("Kb/s", 1_000L), unit("Mb/s", 1_000_000L), unit("Gb/s", 1_000_000_000L),
                    unit("Tb/s", 1_000_000_000_000L)),
            List.of(unit("bps", 1), unit("K", 1_000L), unit("Kbps", 1_000L), unit("M", 1_000_000L),
                    unit("Mbps", 1_000_000L), unit("G", 1_000_000_000L), unit("Gbps", 1_000_000_000L),
                    unit("T", 1_000_000_000_000L), unit("Tbps", 1_000_000_000_000L)));
    /** A time: ps, ns, us, ms or s; none: picoseconds. */
    static final Quantity TIME = new Quantity("a time such as 1us, 500ns or 10ms", "ps", false,
            List.of(unit("ps", 1), unit("ns", 1_000L), unit("us", 1_000_000L), unit("ms", 1_000_000_000L),
                    unit("s", 1_000_000_000_000L)),
            List.of());

    private record Unit(String suffix, long factor) {
    }

    private static Unit unit(String suffix, long factor) {
        return new Unit(suffix, factor);
    }

    /** What a value is, for messages: "a size such as 2MB, 4MiB or 1500 (bytes)". */
    private final String what;
    /** The base unit's name: "bytes", "bit/s", "ps". */
    private final String base;
    private final boolean integer;
    /** The units a value is written back in ({@link #show}), the base unit (factor 1) first. */
    private final List<Unit> shown;
    /** Every accepted unit suffix: those shown and their aliases. */
    private final Map<String, Long> factors = new LinkedHashMap<>();

    private Quantity(String what, String base, boolean integer, List<Unit> shown, List<Unit> aliases) {
        this.what = what;
        this.base = base;
        this.integer = integer;
        this.shown = shown;
        for (Unit u : shown) {
            factors.put(u.suffix, u.factor);
        }
        for (Unit u : aliases) {
            factors.put(u.suffix, u.factor);
        }
    }

    /**
     * Reads {@code text} in this quantity's grammar as a whole number of the base unit from {@code lo} to {@code hi}.
     *
     * @param option the option as written on the command line, for the message
     * @throws IllegalArgumentException naming {@code option}, {@code text} and what is accepted
     */
    long parse(String option, String text, long lo, long hi) {
        String t = text.strip();
        BigDecimal value;
        if (integer) {
            if (!INTEGER_SYNTAX.matcher(t).matches()) {
                throw new IllegalArgumentException(option + " must be " + what + ", got " + quote(text) + " (" + grammar()
                        + ")");
            }
            value = new BigDecimal(t.replace("_", ""));
        } else {
            Matcher m = NUMBER_SYNTAX.matcher(t);
            Long factor = m.lookingAt() ? factor(t.substring(m.end()).strip()) : null;
            if (factor == null) {
                throw new IllegalArgumentException(option + " must be " + what + ", got " + quote(text) + " (" + grammar()
                        + ")");
            }
            value = new BigDecimal(m.group().replace("_", "")).multiply(BigDecimal.valueOf(factor));
        }
        if (value.compareTo(BigDecimal.valueOf(lo)) < 0 || value.compareTo(BigDecimal.valueOf(hi)) > 0) {
            throw new IllegalArgumentException(option + " must be in [" + show(lo) + ", " + show(hi) + "], got " + t);
        }
        if (value.signum() != 0 && value.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException(option + " must be a whole number of " + base + ", got " + t + " ("
                    + value.stripTrailingZeros() + " " + base + ")");
        }
        return value.longValueExact();
    }

    private Long factor(String suffix) {
        return suffix.isEmpty() ? Long.valueOf(1) : factors.get(suffix);
    }

    /** The range as the help text writes it: "in [2, 64]", "in [1ps, 1s]", "at least 1ps". */
    String range(long lo, long hi) {
        return hi == Long.MAX_VALUE && !integer ? "at least " + show(lo) : "in [" + show(lo) + ", " + show(hi) + "]";
    }

    /**
     * {@code value} as the command line writes it, read back exactly by {@link #parse}: an integer as digits, a
     * quantity in the unit that gives the smallest whole number (16MB, 4MiB, 1064B, 100Gb/s, 1us).
     */
    String show(long value) {
        if (integer) {
            return Long.toString(value);
        }
        Unit best = shown.get(0);
        for (Unit u : shown) {
            if (value % u.factor == 0 && Math.abs(value / u.factor) < Math.abs(value / best.factor)) {
                best = u;
            }
        }
        return value / best.factor + best.suffix;
    }

    /** The grammar, for messages and the help text. */
    String grammar() {
        if (integer) {
            return "decimal digits with an optional sign, no decimal part or exponent";
        }
        List<String> units = new ArrayList<>(factors.keySet());
        return "decimal digits, an optional decimal part and exponent (1.5, 2e6, 2.5E-3), no sign, then one of the units "
                + String.join(", ", units) + "; no unit: " + base + "; the value must be a whole number of " + base;
    }

    private static String quote(String s) {
        return "\"" + s + "\"";
    }
}
