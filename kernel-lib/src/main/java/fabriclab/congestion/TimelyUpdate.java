package fabriclab.congestion;

import fabriclab.Parameters;

/**
 * TIMELY's rate computation at one RTT sample (Mittal et al., "TIMELY: RTT-based Congestion Control for the
 * Datacenter", SIGCOMM 2015, algorithm 1), as a pure function of the sender's state, shared by the fluid model
 * ({@link RttFluidModel}) and the packet simulator's TIMELY transport. With the sample r, the previous sample
 * r_prev and the parameters of {@link RttControlParameters}:
 * <pre>
 * d = r - r_prev (0 at the first sample); diff = (1 - ewma) diff + ewma d; g = diff / minRTT
 * r &lt; T_low:            R + delta
 * r &gt; T_high:           R (1 - min(maxDecrease, beta (1 - T_high / r)))
 * g &lt;= 0:              R + n delta, n = {@value #HYPER_MULTIPLIER} once the run of non-positive gradients reaches
 *                       haiThreshold (hyper-active increase), else 1
 * otherwise:           R (1 - min(maxDecrease, beta g))
 * </pre>
 * The run of non-positive gradients restarts at every sample outside the gradient-increase case. The result is not
 * clamped: the caller bounds it by its floor and line rate.
 *
 * @param rateBitsPerSecond R after the sample [bit/s]
 * @param lastRttS the sample, the next call's r_prev [s]; 0 before the first, else positive
 * @param rttDiffS the EWMA of the RTT difference [s]
 * @param nonPositiveGradients consecutive samples with a non-positive gradient in the gradient band, at least 0
 */
public record TimelyUpdate(double rateBitsPerSecond, double lastRttS, double rttDiffS, int nonPositiveGradients) {
    /** TIMELY's hyper-active increase multiplier N (Mittal et al., algorithm 1: N = 5). */
    public static final int HYPER_MULTIPLIER = 5;

    /** Validates. */
    public TimelyUpdate {
        if (!Double.isFinite(rateBitsPerSecond)) {
            throw new IllegalArgumentException("rateBitsPerSecond must be finite, got " + rateBitsPerSecond);
        }
        Parameters.nonNegative("lastRttS", lastRttS);
        if (!Double.isFinite(rttDiffS)) {
            throw new IllegalArgumentException("rttDiffS must be finite, got " + rttDiffS);
        }
        Parameters.atLeast("nonPositiveGradients", nonPositiveGradients, 0);
    }

    /** A sender at {@code rateBitsPerSecond} that has seen no sample. */
    public static TimelyUpdate start(double rateBitsPerSecond) {
        return new TimelyUpdate(rateBitsPerSecond, 0, 0, 0);
    }

    /**
     * The state after the sample {@code rttS} under TIMELY's rule with {@code p} (its rule field is not read).
     *
     * @param rttS the RTT sample [s], positive
     */
    public TimelyUpdate next(RttControlParameters p, double rttS) {
        Parameters.notNull("p", p);
        Parameters.positive("rttS", rttS);
        double d = lastRttS == 0 ? 0 : rttS - lastRttS;
        double diff = (1 - p.ewma()) * rttDiffS + p.ewma() * d;
        double gradient = diff / p.minRttS();
        double r = rateBitsPerSecond;
        int run = nonPositiveGradients;
        if (rttS < p.tLowS()) {
            r = r + p.additiveIncreaseBitsPerSecond();
            run = 0;
        } else if (rttS > p.tHighS()) {
            r = r * (1 - Math.min(p.maxDecrease(), p.beta() * (1 - p.tHighS() / rttS)));
            run = 0;
        } else if (gradient <= 0) {
            run++;
            int step = run >= p.haiThreshold() ? HYPER_MULTIPLIER : 1;
            r = r + step * p.additiveIncreaseBitsPerSecond();
        } else {
            run = 0;
            r = r * (1 - Math.min(p.maxDecrease(), p.beta() * gradient));
        }
        return new TimelyUpdate(r, rttS, diff, run);
    }
}
