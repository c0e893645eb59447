package fabriclab.kernel.display;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * How numbers in tables are shown, like pandas' {@code display.precision}: at most
 * {@link #precision()} digits after the decimal point (default 6), trailing zeros dropped;
 * a nonzero value smaller in magnitude than {@code 10^-precision}, or of magnitude {@code 10^15} or
 * more, in scientific notation with {@code precision} significant digits. So a round-off residue such
 * as {@code -0.0000000000000017763568394002506} reads {@code -1.77636e-15} and {@code 39.99999999999999}
 * reads {@code 40}. Only the display changes, never the table.
 *
 * <p>Set it in a notebook with {@code fabriclab.kernel.display.DisplayOptions.setPrecision(3)}, or for
 * a whole kernel with the system property {@code fabriclab.display.precision}.
 */
public final class DisplayOptions {
    /** Digits after the decimal point when nothing else is set (pandas' default). */
    public static final int DEFAULT_PRECISION = 6;
    private static volatile int precision = Integer.getInteger("fabriclab.display.precision", DEFAULT_PRECISION);

    private DisplayOptions() {
    }

    /** Digits after the decimal point shown for table numbers. */
    public static int precision() {
        return precision;
    }

    /**
     * Sets the digits after the decimal point shown for table numbers.
     *
     * @param digits 0 to 17
     * @throws IllegalArgumentException when {@code digits} is outside 0..17
     */
    public static void setPrecision(int digits) {
        if (digits < 0 || digits > 17) {
            throw new IllegalArgumentException("precision must be 0 to 17 digits after the decimal point, was " + digits);
        }
        precision = digits;
    }

    /** {@code x} as a table shows it (see the class comment); NaN and infinities as Java writes them. */
    public static String format(double x) {
        if (Double.isNaN(x) || Double.isInfinite(x)) {
            return Double.toString(x);
        }
        if (x == 0) {
            return "0";
        }
        int p = precision;
        double abs = Math.abs(x);
        if (abs >= 1e15 || abs < Math.pow(10, -p)) {
            BigDecimal d = new BigDecimal(x).round(new MathContext(Math.max(1, p), RoundingMode.HALF_EVEN));
            String s = String.format(java.util.Locale.ROOT, "%." + Math.max(0, p - 1) + "e", d.doubleValue());
            int e = s.indexOf('e');
            String mantissa = trimZeros(s.substring(0, e));
            int exponent = Integer.parseInt(s.substring(e + 1));
            return mantissa + "e" + (exponent < 0 ? "-" : "+") + String.format(java.util.Locale.ROOT, "%02d", Math.abs(exponent));
        }
        String s = new BigDecimal(x).setScale(p, RoundingMode.HALF_EVEN).toPlainString();
        s = trimZeros(s);
        return s.equals("-0") ? "0" : s;
    }

    private static String trimZeros(String s) {
        if (s.indexOf('.') < 0) {
            return s;
        }
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        if (s.charAt(end - 1) == '.') {
            end--;
        }
        return s.substring(0, end);
    }
}
