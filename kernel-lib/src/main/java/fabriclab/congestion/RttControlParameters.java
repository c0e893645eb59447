package fabriclab.congestion;

import fabriclab.Parameters;

/**
 * Parameters of the RTT-based rate control of {@link RttFluidModel}: CTCC (001) or TIMELY's
 * gradient rule. Units: seconds and bits per second.
 *
 * <p>CTCC rule at each probe with measured RTT r: if r &gt; target, R := R (1 - min(maxDecrease,
 * beta (r - target) / r)); otherwise R := R + additiveIncrease. A NACK (the bottleneck dropped
 * since the last probe) gives R := R / 2 instead. 001 publishes no parameter values; the defaults of
 * {@link #ctcc()} are this project's choices (see there).
 *
 * <p>TIMELY rule (Mittal et al. SIGCOMM 2015, algorithm 1): d = r - r_prev,
 * diff := (1 - ewma) diff + ewma d, gradient = diff / minRtt; r &lt; T_low: R += delta;
 * r &gt; T_high: R *= 1 - beta (1 - T_high / r); gradient &lt;= 0: R += n delta with n = 5 after
 * {@code haiThreshold} consecutive non-positive gradients, else 1; otherwise R *= 1 - beta gradient
 * (at most {@code maxDecrease}).
 *
 * @param rule which rule
 * @param probeIntervalS time between a flow's probes / rate updates [s], {@code > 0}
 * @param targetRttS CTCC target RTT [s], {@code > 0}
 * @param additiveIncreaseBitsPerSecond additive step delta per probe [bit/s], {@code > 0}
 * @param beta multiplicative-decrease gain, in (0, 1]
 * @param maxDecrease largest fractional decrease per probe, in (0, 1)
 * @param tLowS TIMELY T_low [s], {@code > 0}
 * @param tHighS TIMELY T_high [s], {@code > T_low}
 * @param ewma TIMELY EWMA weight of the RTT difference, in (0, 1]
 * @param minRttS TIMELY gradient normalisation minRTT [s], {@code > 0}
 * @param haiThreshold TIMELY consecutive non-positive gradients before hyper-active increase,
 *                     {@code >= 1}
 * @param minRateBitsPerSecond rate floor [bit/s], {@code >= 0}
 */
public record RttControlParameters(RttRule rule, double probeIntervalS, double targetRttS, double additiveIncreaseBitsPerSecond,
                                   double beta, double maxDecrease, double tLowS, double tHighS, double ewma,
                                   double minRttS, int haiThreshold, double minRateBitsPerSecond) {
    /** Validates every field. */
    public RttControlParameters {
        Parameters.notNull("rule", rule);
        Parameters.positive("probeIntervalS", probeIntervalS);
        Parameters.positive("targetRttS", targetRttS);
        Parameters.positive("additiveIncreaseBitsPerSecond", additiveIncreaseBitsPerSecond);
        Parameters.inHalfOpenRange("beta", beta, 0.0, 1.0);
        Parameters.inHalfOpenRange("maxDecrease", maxDecrease, 0.0, 1.0);
        if (maxDecrease >= 1) {
            throw new IllegalArgumentException("maxDecrease must be < 1, got " + maxDecrease);
        }
        Parameters.positive("tLowS", tLowS);
        Parameters.positive("tHighS", tHighS);
        if (!(tHighS > tLowS)) {
            throw new IllegalArgumentException("tHighS must be > tLowS (" + tLowS + "), got " + tHighS);
        }
        Parameters.inHalfOpenRange("ewma", ewma, 0.0, 1.0);
        Parameters.positive("minRttS", minRttS);
        Parameters.atLeast("haiThreshold", haiThreshold, 1);
        Parameters.nonNegative("minRateBitsPerSecond", minRateBitsPerSecond);
    }

    /**
     * CTCC defaults (this project's choices; 001 gives none): probe every 10 us, target RTT 15 us
     * (10 us of queueing above a 5 us base RTT, a Swift-like target), additive increase 1 Mb/s per
     * probe (small enough that 7,000 queue pairs add 7 Gb/s, 7% of a 100G port, per probe
     * interval), beta 0.8 and at most 50% decrease per probe (Swift's values), floor 1 Mb/s. The
     * TIMELY fields carry TIMELY's defaults and are unused by this rule.
     *
     * <p>Consequence outside the incast these values were chosen for: a cut rate comes back only at
     * delta / probe interval = 1e11 bit/s^2 (1 s from 0 to 100G), and every probe in flight while the RTT
     * is above target cuts again (no once-per-RTT limit), so one queue episode can take a line-rate flow
     * to a few Gb/s or the floor. A flow of B bytes restarting near 0 on an empty path then needs about
     * sqrt(16 B / 1e11) s: in notebook 14 (WebSearch, load 0.3) flows above 2 MB take about 30 times
     * their ideal (CtccTransportTest pins both steps).
     */
    public static RttControlParameters ctcc() {
        return new RttControlParameters(RttRule.CTCC_TARGET, 10e-6, 15e-6, 1e6, 0.8, 0.5,
                50e-6, 500e-6, 0.875, 20e-6, 5, 1e6);
    }

    /**
     * TIMELY defaults of Mittal et al. (SIGCOMM 2015, section 5 / table 1): delta 10 Mb/s,
     * beta 0.8, EWMA weight 0.875, T_low 50 us, T_high 500 us, minRTT 20 us, hyper-active increase
     * after 5 non-positive gradients; rate updates every 10 us here (TIMELY updates per completion
     * event, about one per RTT at line rate). Floor 1 Mb/s.
     */
    public static RttControlParameters timely() {
        return new RttControlParameters(RttRule.TIMELY_GRADIENT, 10e-6, 15e-6, 10e6, 0.8, 0.5,
                50e-6, 500e-6, 0.875, 20e-6, 5, 1e6);
    }

    /** A copy with another additive increase per probe [bit/s]. */
    public RttControlParameters withAdditiveIncrease(double bps) {
        return new RttControlParameters(rule, probeIntervalS, targetRttS, bps, beta, maxDecrease, tLowS, tHighS,
                ewma, minRttS, haiThreshold, minRateBitsPerSecond);
    }

    /** A copy with another probe interval [s]. */
    public RttControlParameters withProbeInterval(double seconds) {
        return new RttControlParameters(rule, seconds, targetRttS, additiveIncreaseBitsPerSecond, beta, maxDecrease, tLowS,
                tHighS, ewma, minRttS, haiThreshold, minRateBitsPerSecond);
    }

    /** A copy with another target RTT [s]. */
    public RttControlParameters withTargetRtt(double seconds) {
        return new RttControlParameters(rule, probeIntervalS, seconds, additiveIncreaseBitsPerSecond, beta, maxDecrease, tLowS,
                tHighS, ewma, minRttS, haiThreshold, minRateBitsPerSecond);
    }
}
