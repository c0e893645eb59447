package fabriclab.simulation;

import fabriclab.Parameters;

/**
 * ECN marking by WRED on an egress queue, as configured for DCQCN (seed DIGEST, DCQCN "switch
 * marking" point; Zhu et al. SIGCOMM 2015): a packet entering a queue holding {@code q} bytes is
 * marked with probability 0 if {@code q <= Kmin}, {@code Pmax (q - Kmin) / (Kmax - Kmin)} if
 * {@code Kmin < q < Kmax}, and 1 if {@code q >= Kmax}. Here {@code q} is the occupancy of the
 * packet's own (port, priority) queue just before it is admitted, and marking happens at enqueue.
 *
 * @param kminBytes lower threshold in bytes, not negative
 * @param kmaxBytes upper threshold in bytes, at least {@code kminBytes}
 * @param pmax marking probability just below {@code Kmax}, in [0, 1]
 */
public record Wred(long kminBytes, long kmaxBytes, double pmax) {
    /** Marking disabled. */
    public static final Wred OFF = new Wred(Long.MAX_VALUE - 1, Long.MAX_VALUE, 0);

    /** Validates the thresholds. */
    public Wred {
        Parameters.atLeast("kminBytes", kminBytes, 0L);
        Parameters.atLeast("kmaxBytes", kmaxBytes, kminBytes);
        Parameters.inRange("pmax", pmax, 0, 1);
    }

    /** The marking curve of the congestion models ({@code fabriclab.congestion}), thresholds rounded to bytes. */
    public static Wred of(fabriclab.congestion.WredMarking m) {
        Parameters.notNull("m", m);
        return new Wred(Math.round(m.kMinBytes()), Math.round(m.kMaxBytes()), m.pMax());
    }

    /** Whether this configuration can ever mark. */
    public boolean enabled() {
        return kmaxBytes != Long.MAX_VALUE;
    }

    /** Marking probability for a queue of {@code queueBytes} bytes. */
    public double probability(long queueBytes) {
        if (queueBytes <= kminBytes) {
            return 0;
        }
        if (queueBytes >= kmaxBytes) {
            return 1;
        }
        return pmax * (queueBytes - kminBytes) / (double) (kmaxBytes - kminBytes);
    }
}
