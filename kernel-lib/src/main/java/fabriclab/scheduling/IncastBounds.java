package fabriclab.scheduling;

import fabriclab.Parameters;

/**
 * Network-calculus bounds for an incast of n sources with M bytes each at rate r into a port of
 * rate R, under grants (DGSQ), PFC only, and no control (002 section 3.1.2; 003 section 4.1).
 *
 * <p>Grants. The scheduler issues at most C (b - a) / 8 + g bytes of grants in any [a, b] (pacing at
 * C). A granted chunk reaches the egress within [d_min, d_max] and lasts 8 g / r, so the egress
 * arrival curve is alpha(tau) = C (tau + Delta) / 8 + g C / r + g with Delta = d_max - d_min; the
 * port offers the service curve beta(tau) = R tau / 8 with R >= C. The backlog bound is the
 * vertical deviation, sup(alpha - beta) = g + g C / r + C Delta / 8: it does not depend on n.
 *
 * <p>PFC only. Each ingress holds at most XOFF + r tau_p / 8 (tau_p = pause response time), so the
 * egress queue is bounded by n (XOFF + r tau_p / 8): linear in n.
 *
 * <p>No control. Synchronized arrivals: alpha(tau) = n r tau / 8 up to n M, peak M (n - R / r).
 */
public final class IncastBounds {
    private IncastBounds() {
    }

    /** Grant scheme: egress backlog bound g + g C / r_min + C Delta / 8 [bytes]. */
    public static double grantEgressBacklogBytes(DgsqConfig config, double minSourceRateBps) {
        Parameters.notNull("config", config);
        Parameters.positive("minSourceRateBps", minSourceRateBps);
        double g = config.grantBytes();
        double c = config.creditRateBps();
        return g + g * c / minSourceRateBps + c * config.jitterS() / 8.0;
    }

    /**
     * Grant scheme: completion bound when every request is in by {@code lastRequestS} and no source
     * is held back by its path rate: lastRequest + 8 (total - g) / C + d_max + 8 g / r_min + 8 B / R
     * where B is the backlog bound (the last chunk arrives, then the egress drains) [s]. A lower bound
     * is 8 total / R.
     */
    public static double grantCompletionBoundS(DgsqConfig config, double totalBytes, double lastRequestS,
                                               double minSourceRateBps) {
        Parameters.notNull("config", config);
        Parameters.positive("totalBytes", totalBytes);
        Parameters.nonNegative("lastRequestS", lastRequestS);
        Parameters.positive("minSourceRateBps", minSourceRateBps);
        double g = config.grantBytes();
        return lastRequestS + 8.0 * Math.max(0, totalBytes - g) / config.creditRateBps() + config.maxGrantDelayS()
                + 8.0 * g / minSourceRateBps
                + 8.0 * grantEgressBacklogBytes(config, minSourceRateBps) / config.portRateBps();
    }

    /**
     * Grant scheme, equal split: growth rate of one source's buffer when its GPU produces at r and it
     * drains at its credit share C / n: max(0, r - C / n) / 8 [bytes/s] (until the message ends or the
     * source's local PFC towards its GPU fires, 002 figure 7).
     */
    public static double grantSourceBufferGrowthBytesPerS(int n, double gpuRateBps, double creditRateBps) {
        Parameters.atLeast("n", n, 1);
        Parameters.positive("gpuRateBps", gpuRateBps);
        Parameters.positive("creditRateBps", creditRateBps);
        return Math.max(0, gpuRateBps - creditRateBps / n) / 8.0;
    }

    /**
     * Grant scheme, equal split: time until a source's virtual queue reaches {@code thresholdBytes}
     * and its local PFC pauses its own GPU (002 section 3.1.2 and figure 7; the pause never crosses
     * the fabric): threshold / growth rate [s], +infinity when the credit share keeps up (r <= C / n).
     */
    public static double grantSourceLocalPfcTimeS(int n, double gpuRateBps, double creditRateBps,
                                                  double thresholdBytes) {
        Parameters.positive("thresholdBytes", thresholdBytes);
        double growth = grantSourceBufferGrowthBytesPerS(n, gpuRateBps, creditRateBps);
        return growth > 0 ? thresholdBytes / growth : Double.POSITIVE_INFINITY;
    }

    /** PFC only: egress queue bound n (XOFF + r tau_p / 8) [bytes]. */
    public static double pfcEgressQueueBytes(int n, double xoffBytes, double senderRateBps, double pauseDelayS) {
        Parameters.atLeast("n", n, 1);
        Parameters.positive("xoffBytes", xoffBytes);
        Parameters.positive("senderRateBps", senderRateBps);
        Parameters.nonNegative("pauseDelayS", pauseDelayS);
        return n * (xoffBytes + senderRateBps * pauseDelayS / 8.0);
    }

    /** No control: synchronized peak queue (buffer for zero loss) M (n - R / r), 0 if n r <= R [bytes]. */
    public static double noControlPeakQueueBytes(int n, double messageBytes, double senderRateBps, double portRateBps) {
        Parameters.atLeast("n", n, 1);
        Parameters.positive("messageBytes", messageBytes);
        Parameters.positive("senderRateBps", senderRateBps);
        Parameters.positive("portRateBps", portRateBps);
        return Math.max(0, messageBytes * (n - portRateBps / senderRateBps));
    }

    /** Any scheme: completion lower bound max(8 n M / R, 8 M / r) [s]. */
    public static double completionLowerBoundS(int n, double messageBytes, double senderRateBps, double portRateBps) {
        Parameters.atLeast("n", n, 1);
        Parameters.positive("messageBytes", messageBytes);
        Parameters.positive("senderRateBps", senderRateBps);
        Parameters.positive("portRateBps", portRateBps);
        return Math.max(8.0 * n * messageBytes / portRateBps, 8.0 * messageBytes / senderRateBps);
    }
}
