package fabriclab.scheduling;

import fabriclab.Parameters;

/**
 * One source of an incast under DGSQ: its virtual queue for the destination port holds
 * {@code demandBytes} from {@code requestTimeS} on.
 *
 * @param demandBytes   bytes to send to the destination port
 * @param linkRateBitsPerSecond   the source's rate into the fabric [bit/s]
 * @param pathRateBitsPerSecond   bottleneck rate of the intermediate links on its path [bit/s]; grants to this
 *                      source are paced so it never receives more than this rate
 * @param requestTimeS  time the request reaches the destination's scheduler [s]
 */
public record GrantSource(double demandBytes, double linkRateBitsPerSecond, double pathRateBitsPerSecond, double requestTimeS) {
    /** Validates every field. */
    public GrantSource {
        Parameters.positive("demandBytes", demandBytes);
        Parameters.positive("linkRateBitsPerSecond", linkRateBitsPerSecond);
        Parameters.positive("pathRateBitsPerSecond", pathRateBitsPerSecond);
        Parameters.nonNegative("requestTimeS", requestTimeS);
    }
}
