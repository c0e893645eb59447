package fabriclab.fabric;

import fabriclab.Parameters;

/**
 * The dynamic (alpha-based, shared-buffer) PFC threshold that data-centre switches ship as their
 * default lossless buffer profile, next to the static XOFF of {@link Pfc}: an ingress port's
 * counter may grow to {@code alpha} times the shared buffer still free, so the threshold falls as
 * the switch fills. (SONiC's buffer profiles, for example, take {@code dynamic_th} = k with
 * alpha = 2^k, k from -6 to 3; Dell Enterprise SONiC documents that range; Juniper documents per-queue
 * alpha values for PFC in the same sense.)
 *
 * <p>Equations, with B the switch's shared buffer [bytes], U the bytes it holds (every port), c an
 * ingress port's counter (bytes held that arrived through that port, one priority):
 * <ul>
 *   <li>XOFF (pause) when {@code c >= alpha (B - U)};</li>
 *   <li>XON (resume) when {@code c < alpha (B - U) - xonOffsetBytes}.</li>
 * </ul>
 * Fixed point: with n ingress counters congested equally (U = n c, nothing else held), pausing sets
 * in at {@code c* = alpha B / (1 + n alpha)} ({@link #settledXoffBytes}): one congested port may take
 * alpha/(1+alpha) of the buffer (1/2 at alpha 1, 1/9 at alpha 1/8), and the more ports congest,
 * the earlier each pauses. The headroom and the pause time stay those of the run's {@link Pfc}; its
 * static XOFF/XON are not used while a dynamic threshold is set.
 *
 * @param alpha the factor on the free shared buffer, 2^-6 to 2^3
 * @param xonOffsetBytes hysteresis: resume this many bytes below the current XOFF [bytes], not negative
 */
public record PfcDynamicThreshold(double alpha, long xonOffsetBytes) {
    /** Smallest alpha switches offer (2^-6). */
    public static final double MIN_ALPHA = 1.0 / 64;
    /** Largest alpha switches offer (2^3). */
    public static final double MAX_ALPHA = 8;

    /** Validates. */
    public PfcDynamicThreshold {
        Parameters.inRange("alpha", alpha, MIN_ALPHA, MAX_ALPHA);
        Parameters.atLeast("xonOffsetBytes", xonOffsetBytes, 0L);
    }

    /**
     * The threshold of SONiC-style profile value {@code k}: alpha = 2^k.
     *
     * @param k the profile's {@code dynamic_th}, -6 to 3
     * @param xonOffsetBytes hysteresis [bytes], not negative
     */
    public static PfcDynamicThreshold ofExponent(int k, long xonOffsetBytes) {
        Parameters.inRange("k", k, -6, 3);
        return new PfcDynamicThreshold(Math.scalb(1.0, k), xonOffsetBytes);
    }

    /** Current XOFF threshold [bytes] when {@code freeSharedBytes} of the shared buffer are free: {@code alpha * free}. */
    public double xoffBytes(long freeSharedBytes) {
        return alpha * Math.max(0, freeSharedBytes);
    }

    /** Whether counter {@code counterBytes} asks for a pause when {@code freeSharedBytes} are free: c &ge; alpha free. */
    public boolean pausesAt(double counterBytes, long freeSharedBytes) {
        Parameters.finite("counterBytes", counterBytes);
        return counterBytes >= xoffBytes(freeSharedBytes);
    }

    /** Whether a paused counter lets the upstream resume: c &lt; alpha free - xonOffset. */
    public boolean resumesAt(double counterBytes, long freeSharedBytes) {
        Parameters.finite("counterBytes", counterBytes);
        return counterBytes < xoffBytes(freeSharedBytes) - xonOffsetBytes;
    }

    /**
     * Counter at which each of {@code congestedPorts} equally loaded ingress counters pauses when they
     * are all the switch holds: {@code alpha B / (1 + n alpha)} [bytes].
     *
     * @param sharedBytes B [bytes], at least 1
     * @param congestedPorts n, at least 1
     */
    public double settledXoffBytes(long sharedBytes, int congestedPorts) {
        Parameters.atLeast("sharedBytes", sharedBytes, 1L);
        Parameters.atLeast("congestedPorts", congestedPorts, 1);
        return alpha * sharedBytes / (1 + congestedPorts * alpha);
    }
}
