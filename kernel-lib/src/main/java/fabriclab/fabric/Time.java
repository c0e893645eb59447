package fabriclab.fabric;

import fabriclab.Parameters;

/**
 * Simulated time: a {@code long} count of picoseconds.
 *
 * <p>Why picoseconds: serialisation times must be exact integers or rounding error accumulates
 * over millions of packets and breaks byte-exact checks. One byte takes 8e12 / R ps at R bit/s:
 * 320 ps at 25G, 80 ps at 100G, 40 ps at 200G, 20 ps at 400G, 10 ps at 800G, all integers, whereas
 * in nanoseconds a byte at 100G is 0.08 ns. A signed 64-bit picosecond clock lasts 2^63 ps, about
 * 106 days of simulated time, far beyond any fabric experiment.
 */
public final class Time {
    /** Picoseconds per nanosecond. */
    public static final long NS = 1_000L;
    /** Picoseconds per microsecond. */
    public static final long US = 1_000_000L;
    /** Picoseconds per millisecond. */
    public static final long MS = 1_000_000_000L;
    /** Picoseconds per second. */
    public static final long S = 1_000_000_000_000L;

    private Time() {
    }

    /**
     * Time to serialise {@code bytes} onto a link of {@code rateBitsPerSecond} bit/s, in picoseconds, rounded
     * up: {@code ceil(8 bytes 1e12 / rate)}. Exact (no rounding) whenever 8e12 is a multiple of the
     * rate, as for every standard Ethernet speed from 1G to 800G.
     *
     * @param bytes bytes on the wire, 0 to 2^20
     * @param rateBitsPerSecond link rate in bit/s, positive
     */
    public static long serializationPs(long bytes, long rateBitsPerSecond) {
        if (bytes < 0 || bytes > (1L << 20)) {
            Parameters.inRange("bytes", (double) bytes, 0, 1 << 20);
        }
        if (rateBitsPerSecond <= 0) {
            Parameters.positive("rateBitsPerSecond", rateBitsPerSecond);
        }
        long num = bytes * 8L * S; // < 2^20 * 2^3 * 2^40 = 2^63
        long q = num / rateBitsPerSecond; // ceiling without num + rate - 1, which overflows for rates near Long.MAX_VALUE
        return num % rateBitsPerSecond == 0 ? q : q + 1;
    }

    /** Picoseconds as (double) microseconds. */
    public static double toMicros(long ps) {
        return ps / (double) US;
    }

    /** Picoseconds as (double) seconds. */
    public static double toSeconds(long ps) {
        return ps / (double) S;
    }

    /** The most microseconds {@link #micros} converts: the largest time a {@code long} of picoseconds holds. */
    public static final double MAX_MICROS = Long.MAX_VALUE / (double) US;

    /**
     * Microseconds as picoseconds, rounded to the nearest picosecond.
     *
     * @param us microseconds, 0 to {@link #MAX_MICROS} (about 9.2e6, 106 days)
     */
    public static long micros(double us) {
        Parameters.inRange("us", us, 0, MAX_MICROS);
        return Math.round(us * US);
    }
}
