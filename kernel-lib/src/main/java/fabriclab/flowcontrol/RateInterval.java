package fabriclab.flowcontrol;

import fabriclab.Parameters;

/**
 * A constant-rate arrival into a fluid queue: {@code rateBitsPerSecond} bit/s during [startS, endS).
 *
 * @param startS start time [s]
 * @param endS   end time [s], at least the start
 * @param rateBitsPerSecond arrival rate [bit/s]
 */
public record RateInterval(double startS, double endS, double rateBitsPerSecond) {
    /** Validates: finite non-negative times, end not before start, positive rate. */
    public RateInterval {
        Parameters.nonNegative("startS", startS);
        Parameters.nonNegative("endS", endS);
        if (endS < startS) {
            throw new IllegalArgumentException("endS must be >= startS (" + startS + "), got " + endS);
        }
        Parameters.positive("rateBitsPerSecond", rateBitsPerSecond);
    }

    /** Bytes carried: rate times duration / 8. */
    public double bytes() {
        return rateBitsPerSecond * (endS - startS) / 8.0;
    }

    /** The interval carrying {@code bytes} at {@code rateBitsPerSecond} from {@code startS}. */
    public static RateInterval ofBytes(double startS, double bytes, double rateBitsPerSecond) {
        Parameters.inHalfOpenRange("bytes", bytes, 0, 1e18); // 1e18: an exabyte keeps the end time finite
        Parameters.positive("rateBitsPerSecond", rateBitsPerSecond);
        return new RateInterval(startS, startS + 8.0 * bytes / rateBitsPerSecond, rateBitsPerSecond);
    }
}
