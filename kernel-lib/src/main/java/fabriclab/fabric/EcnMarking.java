package fabriclab.fabric;

import fabriclab.Parameters;

/**
 * ECN marking by a WRED / RED profile: the probability that a switch (the DCQCN "congestion
 * point") marks a packet that joins a queue of {@code q} bytes. The one marking curve of the
 * library, used by the fluid models (on the continuous queue) and by the packet simulator (on the
 * occupancy of the packet's own (port, priority) queue just before it is admitted, at enqueue).
 *
 * <p>Source: 003 (intelligent lossless network white paper), ECN/WRED section and figure 23: below
 * the low threshold nothing is marked; between the low and the high threshold the probability rises
 * linearly from 0 to the maximum probability; above the high threshold every packet is marked.
 * The DCQCN fluid model of Zhu et al. (SIGCOMM 2015, equation 1) uses exactly this curve:
 * <pre>
 * p(q) = 0                                  q &le; Kmin
 *        (q - Kmin) / (Kmax - Kmin) * Pmax   Kmin &lt; q &le; Kmax
 *        1                                  q &gt; Kmax
 * </pre>
 * {@code Kmin = Kmax} gives a step (mark everything above K, DCTCP style); {@link #OFF} never marks.
 *
 * @param kMinBytes low threshold Kmin [bytes], not negative
 * @param kMaxBytes high threshold Kmax [bytes], at least Kmin
 * @param pMax marking probability reached at Kmax, in [0, 1]
 */
public record EcnMarking(double kMinBytes, double kMaxBytes, double pMax) {
    /** No marking at any queue length. */
    public static final EcnMarking OFF = new EcnMarking(Double.MAX_VALUE, Double.MAX_VALUE, 0);

    /** Validates 0 &le; Kmin &le; Kmax (finite) and Pmax in [0, 1]. */
    public EcnMarking {
        Parameters.nonNegative("kMinBytes", kMinBytes);
        Parameters.nonNegative("kMaxBytes", kMaxBytes);
        if (!(kMaxBytes >= kMinBytes)) {
            throw new IllegalArgumentException("kMaxBytes must be at least kMinBytes = " + kMinBytes + ", got " + kMaxBytes);
        }
        Parameters.inRange("pMax", pMax, 0.0, 1.0);
    }

    /** Whether this profile can ever mark. */
    public boolean enabled() {
        return kMaxBytes != Double.MAX_VALUE;
    }

    /**
     * Step marking at {@code kBytes} (Kmin = Kmax = K, Pmax 1): every packet that joins a queue above K bytes is
     * marked, none below, the marking DCTCP specifies (Alizadeh et al., SIGCOMM 2010, section 3.1).
     *
     * @param kBytes the threshold K [bytes], not negative
     */
    public static EcnMarking step(double kBytes) {
        Parameters.nonNegative("kBytes", kBytes);
        return new EcnMarking(kBytes, kBytes, 1.0);
    }

    /**
     * The DCQCN defaults of Zhu et al. (SIGCOMM 2015, section 5 / table of parameters):
     * Kmin 5 KB, Kmax 200 KB, Pmax 1%.
     */
    public static EcnMarking dcqcnDefaults() {
        return new EcnMarking(5_000, 200_000, 0.01);
    }

    /**
     * Marking probability at a queue of {@code queueBytes} bytes.
     *
     * @param queueBytes queue length [bytes], {@code >= 0}
     * @return probability in [0, 1]
     */
    public double probability(double queueBytes) {
        Parameters.nonNegative("queueBytes", queueBytes);
        return probabilityUnchecked(queueBytes);
    }

    /** As {@link #probability(double)} without the argument check (for inner loops); negative q gives 0. */
    public double probabilityUnchecked(double queueBytes) {
        if (Double.isNaN(queueBytes)) {
            throw new IllegalArgumentException("queueBytes must be a number (+-infinity allowed), got NaN");
        }
        if (queueBytes <= kMinBytes) {
            return 0.0;
        }
        if (queueBytes <= kMaxBytes) {
            return (queueBytes - kMinBytes) / (kMaxBytes - kMinBytes) * pMax;
        }
        return 1.0;
    }

    /**
     * Slope dp/dq of the linear part [1/byte]: {@code Pmax / (Kmax - Kmin)} (used by the
     * linearisation of the DCQCN fluid model).
     */
    public double slopePerByte() {
        if (!(kMaxBytes > kMinBytes)) {
            throw new IllegalStateException("slopePerByte needs kMaxBytes > kMinBytes, got a step at " + kMinBytes);
        }
        return pMax / (kMaxBytes - kMinBytes);
    }

    /**
     * The queue at which the linear part reaches probability {@code p} (the inverse of the ramp).
     *
     * @param p probability in [0, Pmax]
     * @return queue [bytes] in [Kmin, Kmax]
     */
    public double queueForProbability(double p) {
        Parameters.inRange("p", p, 0.0, pMax);
        if (p == 0) {
            return kMinBytes; // the ramp starts at Kmin (also when pMax = 0, where p / pMax is 0 / 0)
        }
        return kMinBytes + p / pMax * (kMaxBytes - kMinBytes);
    }
}
