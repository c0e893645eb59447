package fabriclab.flowcontrol;

import fabriclab.Parameters;

/**
 * A constant-rate arrival into a fluid queue: {@code rateBps} bit/s during [startS, endS).
 *
 * @param startS start time [s]
 * @param endS   end time [s], at least the start
 * @param rateBps arrival rate [bit/s]
 */
public record RateInterval(double startS, double endS, double rateBps) {
    /** Validates: finite non-negative times, end not before start, positive rate. */
    public RateInterval {
        Parameters.nonNegative("startS", startS);
        Parameters.nonNegative("endS", endS);
        if (endS < startS) {
            throw new IllegalArgumentException("endS must be >= startS (" + startS + "), got " + endS);
        }
        Parameters.positive("rateBps", rateBps);
    }

    /** Bytes carried: rate times duration / 8. */
    public double bytes() {
        return rateBps * (endS - startS) / 8.0;
    }

    /** The interval carrying {@code bytes} at {@code rateBps} from {@code startS}. */
    public static RateInterval ofBytes(double startS, double bytes, double rateBps) {
        Parameters.positive("bytes", bytes);
        Parameters.positive("rateBps", rateBps);
        return new RateInterval(startS, startS + 8.0 * bytes / rateBps, rateBps);
    }
}
