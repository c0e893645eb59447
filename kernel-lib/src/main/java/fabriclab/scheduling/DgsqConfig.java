package fabriclab.scheduling;

import fabriclab.Parameters;

/**
 * The destination port's grant scheduler (DGSQ, 000 section 2; 002 section 3.1.2).
 *
 * @param portRateBitsPerSecond     R, egress port rate [bit/s]
 * @param creditRateBitsPerSecond   C, total credit rate handed out [bit/s], 0 < C <= R
 * @param grantBytes      g, bytes per grant (one credit)
 * @param minGrantDelayS  smallest delay from issuing a grant to the first granted byte reaching the
 *                        egress (grant travel + source reaction + data path) [s]
 * @param maxGrantDelayS  largest such delay [s]; the spread max - min is the jitter Delta
 * @param policy          how the credit is split among sources
 */
public record DgsqConfig(double portRateBitsPerSecond, double creditRateBitsPerSecond, double grantBytes, double minGrantDelayS,
                         double maxGrantDelayS, GrantPolicy policy) {
    /** Validates 0 < C <= R, g > 0, 0 <= min delay <= max delay. */
    public DgsqConfig {
        Parameters.positive("portRateBitsPerSecond", portRateBitsPerSecond);
        Parameters.positive("creditRateBitsPerSecond", creditRateBitsPerSecond);
        if (creditRateBitsPerSecond > portRateBitsPerSecond) {
            throw new IllegalArgumentException("creditRateBitsPerSecond must be <= portRateBitsPerSecond (" + portRateBitsPerSecond + "), got "
                    + creditRateBitsPerSecond);
        }
        Parameters.positive("grantBytes", grantBytes);
        Parameters.nonNegative("minGrantDelayS", minGrantDelayS);
        Parameters.nonNegative("maxGrantDelayS", maxGrantDelayS);
        if (maxGrantDelayS < minGrantDelayS) {
            throw new IllegalArgumentException("maxGrantDelayS must be >= minGrantDelayS (" + minGrantDelayS
                    + "), got " + maxGrantDelayS);
        }
        Parameters.notNull("policy", policy);
    }

    /** Delay jitter Delta = max - min [s]. */
    public double jitterS() {
        return maxGrantDelayS - minGrantDelayS;
    }
}
