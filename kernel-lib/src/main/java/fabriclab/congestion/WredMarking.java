package fabriclab.congestion;

import fabriclab.Parameters;

/**
 * ECN marking probability of a WRED / RED profile as a function of the queue length, as the
 * switch (the DCQCN "congestion point") applies it.
 *
 * <p>Source: 003 (intelligent lossless network white paper), ECN/WRED section and figure 23: below
 * the low threshold nothing is marked; between the low and the high threshold the probability rises
 * linearly from 0 to the maximum probability; above the high threshold every packet is marked.
 * The DCQCN fluid model of Zhu et al. (SIGCOMM 2015, equation 1) uses exactly this curve:
 * {@code p(q) = 0} for {@code q <= Kmin}, {@code (q - Kmin)/(Kmax - Kmin) * Pmax} for
 * {@code Kmin < q <= Kmax}, {@code 1} for {@code q > Kmax}.
 *
 * @param kMinBytes low threshold Kmin [bytes], {@code >= 0}
 * @param kMaxBytes high threshold Kmax [bytes], {@code > Kmin}
 * @param pMax marking probability reached at Kmax, in (0, 1]
 */
public record WredMarking(double kMinBytes, double kMaxBytes, double pMax) {

    /** Validates Kmin >= 0, Kmax > Kmin (finite), Pmax in (0, 1]. */
    public WredMarking {
        Parameters.nonNegative("kMinBytes", kMinBytes);
        Parameters.positive("kMaxBytes", kMaxBytes);
        if (!(kMaxBytes > kMinBytes)) {
            throw new IllegalArgumentException("kMaxBytes must be > kMinBytes (" + kMinBytes + "), got " + kMaxBytes);
        }
        Parameters.inHalfOpenRange("pMax", pMax, 0.0, 1.0);
    }

    /**
     * The DCQCN defaults of Zhu et al. (SIGCOMM 2015, section 5 / table of parameters):
     * Kmin 5 KB, Kmax 200 KB, Pmax 1%.
     */
    public static WredMarking dcqcnDefaults() {
        return new WredMarking(5_000, 200_000, 0.01);
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
    double probabilityUnchecked(double queueBytes) {
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
     * linearisation of {@link DcqcnStability}).
     */
    public double slopePerByte() {
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
        return kMinBytes + p / pMax * (kMaxBytes - kMinBytes);
    }
}
