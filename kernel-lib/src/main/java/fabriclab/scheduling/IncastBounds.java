package fabriclab.scheduling;

import fabriclab.Parameters;
import fabriclab.fabric.Incast;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Time;

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
 *
 * <p>Each bound is given on numbers and on an {@link Incast} (n senders of M bytes at r into a port
 * of R = the receiver's rate), the same object the fluid models and the packet simulator take.
 */
public final class IncastBounds {
    /** The ranges the bounds take, so that every bound is a finite number: bytes in (0, 1e18]. */
    public static final double MAX_BYTES = 1e18;

    /** Rates in [1 bit/s, 1e15 bit/s] (1 Pb/s). */
    public static final double MIN_RATE_BITS_PER_SECOND = 1;

    /** See {@link #MIN_RATE_BITS_PER_SECOND}. */
    public static final double MAX_RATE_BITS_PER_SECOND = 1e15;

    /** Times in [0, 1e6 s]. */
    public static final double MAX_SECONDS = 1e6;

    private IncastBounds() {
    }

    /** Grant scheme: egress backlog bound g + g C / r_min + C Delta / 8 [bytes]. */
    public static double grantEgressBacklogBytes(DgsqConfig config, double minSourceRateBitsPerSecond) {
        Parameters.notNull("config", config);
        Parameters.inRange("minSourceRateBitsPerSecond", minSourceRateBitsPerSecond, MIN_RATE_BITS_PER_SECOND, MAX_RATE_BITS_PER_SECOND);
        double g = config.grantBytes();
        double c = config.creditRateBitsPerSecond();
        return g + g * c / minSourceRateBitsPerSecond + c * config.jitterS() / 8.0;
    }

    /**
     * Grant scheme: completion bound when every request is in by {@code lastRequestS} and no source
     * is held back by its path rate: lastRequest + 8 (total - g) / C + d_max + 8 g / r_min + 8 B / R
     * where B is the backlog bound (the last chunk arrives, then the egress drains) [s]. A lower bound
     * is 8 total / R.
     */
    public static double grantCompletionBoundS(DgsqConfig config, double totalBytes, double lastRequestS,
                                               double minSourceRateBitsPerSecond) {
        Parameters.notNull("config", config);
        Parameters.inHalfOpenRange("totalBytes", totalBytes, 0, MAX_BYTES);
        Parameters.inRange("lastRequestS", lastRequestS, 0, MAX_SECONDS);
        Parameters.inRange("minSourceRateBitsPerSecond", minSourceRateBitsPerSecond, MIN_RATE_BITS_PER_SECOND, MAX_RATE_BITS_PER_SECOND);
        double g = config.grantBytes();
        return lastRequestS + 8.0 * Math.max(0, totalBytes - g) / config.creditRateBitsPerSecond() + config.maxGrantDelayS()
                + 8.0 * g / minSourceRateBitsPerSecond
                + 8.0 * grantEgressBacklogBytes(config, minSourceRateBitsPerSecond) / config.portRateBitsPerSecond();
    }

    /**
     * Grant scheme, equal split: growth rate of one source's buffer when its GPU produces at r and it
     * drains at its credit share C / n: max(0, r - C / n) / 8 [bytes/s] (until the message ends or the
     * source's local PFC towards its GPU fires, 002 figure 7).
     */
    public static double grantSourceBufferGrowthBytesPerS(int n, double gpuRateBitsPerSecond, double creditRateBitsPerSecond) {
        Parameters.atLeast("n", n, 1);
        Parameters.inRange("gpuRateBitsPerSecond", gpuRateBitsPerSecond, MIN_RATE_BITS_PER_SECOND, MAX_RATE_BITS_PER_SECOND);
        Parameters.inRange("creditRateBitsPerSecond", creditRateBitsPerSecond, MIN_RATE_BITS_PER_SECOND, MAX_RATE_BITS_PER_SECOND);
        return Math.max(0, gpuRateBitsPerSecond - creditRateBitsPerSecond / n) / 8.0;
    }

    /**
     * Grant scheme, equal split: time until a source's virtual queue reaches {@code thresholdBytes}
     * and its local PFC pauses its own GPU (002 section 3.1.2 and figure 7; the pause never crosses
     * the fabric): threshold / growth rate [s], +infinity when the credit share keeps up (r <= C / n).
     */
    public static double grantSourceLocalPfcTimeS(int n, double gpuRateBitsPerSecond, double creditRateBitsPerSecond,
                                                  double thresholdBytes) {
        Parameters.inHalfOpenRange("thresholdBytes", thresholdBytes, 0, MAX_BYTES);
        double growth = grantSourceBufferGrowthBytesPerS(n, gpuRateBitsPerSecond, creditRateBitsPerSecond);
        return growth > 0 ? thresholdBytes / growth : Double.POSITIVE_INFINITY;
    }

    /** PFC only: egress queue bound n (XOFF + r tau_p / 8) [bytes]. */
    public static double pfcEgressQueueBytes(int n, double xoffBytes, double senderRateBitsPerSecond, double pauseDelayS) {
        Parameters.atLeast("n", n, 1);
        Parameters.inHalfOpenRange("xoffBytes", xoffBytes, 0, MAX_BYTES);
        Parameters.inRange("senderRateBitsPerSecond", senderRateBitsPerSecond, MIN_RATE_BITS_PER_SECOND, MAX_RATE_BITS_PER_SECOND);
        Parameters.inRange("pauseDelayS", pauseDelayS, 0, MAX_SECONDS);
        return n * (xoffBytes + senderRateBitsPerSecond * pauseDelayS / 8.0);
    }

    /** No control: synchronized peak queue (buffer for zero loss) M (n - R / r), 0 if n r <= R [bytes]. */
    public static double noControlPeakQueueBytes(int n, double messageBytes, double senderRateBitsPerSecond, double portRateBitsPerSecond) {
        Parameters.atLeast("n", n, 1);
        Parameters.inHalfOpenRange("messageBytes", messageBytes, 0, MAX_BYTES);
        Parameters.inRange("senderRateBitsPerSecond", senderRateBitsPerSecond, MIN_RATE_BITS_PER_SECOND, MAX_RATE_BITS_PER_SECOND);
        Parameters.inRange("portRateBitsPerSecond", portRateBitsPerSecond, MIN_RATE_BITS_PER_SECOND, MAX_RATE_BITS_PER_SECOND);
        return Math.max(0, messageBytes * (n - portRateBitsPerSecond / senderRateBitsPerSecond));
    }

    /** Any scheme: completion lower bound max(8 n M / R, 8 M / r) [s]. */
    public static double completionLowerBoundS(int n, double messageBytes, double senderRateBitsPerSecond, double portRateBitsPerSecond) {
        Parameters.atLeast("n", n, 1);
        Parameters.inHalfOpenRange("messageBytes", messageBytes, 0, MAX_BYTES);
        Parameters.inRange("senderRateBitsPerSecond", senderRateBitsPerSecond, MIN_RATE_BITS_PER_SECOND, MAX_RATE_BITS_PER_SECOND);
        Parameters.inRange("portRateBitsPerSecond", portRateBitsPerSecond, MIN_RATE_BITS_PER_SECOND, MAX_RATE_BITS_PER_SECOND);
        return Math.max(8.0 * n * messageBytes / portRateBitsPerSecond, 8.0 * messageBytes / senderRateBitsPerSecond);
    }

    /**
     * Grant scheme on an incast: egress backlog bound g + g C / r + C Delta / 8 [bytes], r the
     * senders' NIC rate.
     *
     * @param config the grant scheduler; its port rate must be the incast's receiver rate
     * @param incast the incast
     */
    public static double grantEgressBacklogBytes(DgsqConfig config, Incast incast) {
        checkPort(config, incast);
        return grantEgressBacklogBytes(config, (double) incast.senderRateBitsPerSecond());
    }

    /**
     * Grant scheme on an incast: completion bound with every sender requesting at its start, so the
     * last request is in at {@code (n - 1) * stagger}, and n M bytes in total [s].
     *
     * @param config the grant scheduler; its port rate must be the incast's receiver rate
     * @param incast the incast
     */
    public static double grantCompletionBoundS(DgsqConfig config, Incast incast) {
        checkPort(config, incast);
        return grantCompletionBoundS(config, (double) incast.totalBytes(),
                Time.toSeconds(incast.startPs(incast.senders() - 1)), incast.senderRateBitsPerSecond());
    }

    /**
     * PFC only, on an incast: egress queue bound n (XOFF + r tau_p / 8) [bytes]; it holds for any
     * stagger (each ingress holds at most XOFF + r tau_p / 8 whenever its sender starts).
     *
     * @param incast the incast (n, r)
     * @param pfc the ingress PFC (XOFF)
     * @param pauseDelayS pause response time tau_p [s], not negative
     */
    public static double pfcEgressQueueBytes(Incast incast, Pfc pfc, double pauseDelayS) {
        Parameters.notNull("incast", incast);
        Parameters.notNull("pfc", pfc);
        return pfcEgressQueueBytes(incast.senders(), pfc.xoffBytes(), incast.senderRateBitsPerSecond(), pauseDelayS);
    }

    /**
     * No control, on an incast: the synchronized peak queue M (n - R / r), 0 if n r &lt;= R [bytes].
     * Exact for a synchronized start and an upper bound for any stagger (in any window of length u
     * one sender brings at most min(r u / 8, M), as in the synchronized case).
     */
    public static double noControlPeakQueueBytes(Incast incast) {
        Parameters.notNull("incast", incast);
        return noControlPeakQueueBytes(incast.senders(), incast.bytesPerSender(), incast.senderRateBitsPerSecond(),
                incast.receiverRateBitsPerSecond());
    }

    /**
     * Any scheme, on an incast: completion lower bound max(8 n M / R, (n - 1) stagger + 8 M / r) [s]
     * (all bytes must cross the port; the last sender starts at (n - 1) stagger and needs its own
     * serialization time). For a synchronized start this is {@link #completionLowerBoundS(int, double, double, double)}.
     */
    public static double completionLowerBoundS(Incast incast) {
        Parameters.notNull("incast", incast);
        double lastStart = Time.toSeconds(incast.startPs(incast.senders() - 1));
        return Math.max(8.0 * incast.senders() * incast.bytesPerSender() / incast.receiverRateBitsPerSecond(),
                lastStart + 8.0 * incast.bytesPerSender() / incast.senderRateBitsPerSecond());
    }

    private static void checkPort(DgsqConfig config, Incast incast) {
        Parameters.notNull("config", config);
        Parameters.notNull("incast", incast);
        if (config.portRateBitsPerSecond() != incast.receiverRateBitsPerSecond()) {
            throw new IllegalArgumentException("config.portRateBitsPerSecond must equal incast.receiverRateBitsPerSecond ("
                    + incast.receiverRateBitsPerSecond() + "), got " + config.portRateBitsPerSecond());
        }
    }
}
