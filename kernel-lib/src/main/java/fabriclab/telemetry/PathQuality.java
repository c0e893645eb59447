package fabriclab.telemetry;

import fabriclab.Parameters;

/**
 * The path-quality score of seed 004 (dynamic intelligent path selection): a weighted sum of the three
 * factors 004 names, each normalised, lower is better:
 * <pre>
 *   score = wUtil * u + wQueue * (q_inst + q_mean) / (2 Q_ref) + wLatency * latency / L_ref + wJitter * jitter / L_ref
 * </pre>
 * with u the bandwidth utilisation in [0, 1], q the queue depth in bytes (instantaneous and mean over the
 * sampling window), latency the mean forwarding latency and jitter its standard deviation over the window.
 * 004 gives the factors but no formula or weights: the weighted sum and the references Q_ref and L_ref
 * are this project's choices, the weights are the user's.
 *
 * @param wUtil weight of utilisation, not negative
 * @param wQueue weight of queue depth, not negative
 * @param wLatency weight of latency, not negative
 * @param wJitter weight of jitter, not negative
 * @param queueRefBytes Q_ref [bytes], positive
 * @param latencyRefS L_ref [s], positive
 */
public record PathQuality(double wUtil, double wQueue, double wLatency, double wJitter, double queueRefBytes,
        double latencyRefS) {
    /** Validates; at least one weight must be positive. */
    public PathQuality {
        Parameters.nonNegative("wUtil", wUtil);
        Parameters.nonNegative("wQueue", wQueue);
        Parameters.nonNegative("wLatency", wLatency);
        Parameters.nonNegative("wJitter", wJitter);
        Parameters.positive("queueRefBytes", queueRefBytes);
        Parameters.positive("latencyRefS", latencyRefS);
        if (wUtil + wQueue + wLatency + wJitter <= 0) {
            throw new IllegalArgumentException("at least one of wUtil, wQueue, wLatency, wJitter must be positive");
        }
    }

    /** Equal weights, Q_ref 1 MB, L_ref 100 us. */
    public static PathQuality balanced() {
        return new PathQuality(1, 1, 1, 1, 1e6, 100e-6);
    }

    /**
     * One link's measured factors.
     *
     * @param utilisation carried over capacity in the window, [0, 1]
     * @param queueBytes instantaneous queue at the sample [bytes]
     * @param meanQueueBytes mean queue over the window [bytes]
     * @param latencyS mean forwarding latency over the window [s]
     * @param jitterS standard deviation of the latency over the window [s]
     */
    public record Factors(double utilisation, double queueBytes, double meanQueueBytes, double latencyS, double jitterS) {
        /** Validates. */
        public Factors {
            Parameters.inRange("utilisation", utilisation, 0.0, 1.0);
            Parameters.nonNegative("queueBytes", queueBytes);
            Parameters.nonNegative("meanQueueBytes", meanQueueBytes);
            Parameters.nonNegative("latencyS", latencyS);
            Parameters.nonNegative("jitterS", jitterS);
        }
    }

    /** The score of one link (lower is better); a path's score is the sum over its links. */
    public double score(Factors f) {
        Parameters.notNull("f", f);
        return wUtil * f.utilisation() + wQueue * (f.queueBytes() + f.meanQueueBytes()) / (2 * queueRefBytes)
                + wLatency * f.latencyS() / latencyRefS + wJitter * f.jitterS() / latencyRefS;
    }
}
