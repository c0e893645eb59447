package fabriclab.scheduling;

import fabriclab.Parameters;
import fabriclab.flowcontrol.FluidQueue;

/**
 * Outcome of a {@link DgsqSimulator} run.
 *
 * @param config        the scheduler
 * @param demandBytes   each source's demand
 * @param grantTimesS   issue time of each grant, non-decreasing [s]
 * @param grantSource   source index of each grant
 * @param grantBytes    bytes of each grant
 * @param egress        exact egress-queue trajectory
 */
public record DgsqResult(DgsqConfig config, double[] demandBytes, double[] grantTimesS, int[] grantSource,
                         double[] grantBytes, FluidQueue.Trajectory egress) {

    /** Validates: every array finite, one grant time, source and size per grant, each source a demand index. */
    public DgsqResult {
        Parameters.notNull("config", config);
        Parameters.finiteElements("demandBytes", demandBytes);
        Parameters.finiteElements("grantTimesS", grantTimesS);
        Parameters.notNull("grantSource", grantSource);
        Parameters.finiteElements("grantBytes", grantBytes);
        Parameters.notNull("egress", egress);
        if (grantSource.length != grantTimesS.length || grantBytes.length != grantTimesS.length) {
            throw new IllegalArgumentException("grantTimesS, grantSource and grantBytes must have one entry per grant, got "
                    + grantTimesS.length + ", " + grantSource.length + " and " + grantBytes.length);
        }
        for (int k = 0; k < grantSource.length; k++) {
            Parameters.inRange("grantSource[" + k + "]", grantSource[k], 0, demandBytes.length - 1);
        }
    }

    /** Largest egress queue [bytes]. */
    public double maxEgressQueueBytes() {
        return egress.maxQueueBytes();
    }

    /** Time the last byte leaves the egress port [s]. */
    public double completionS() {
        return egress.completionS();
    }

    /**
     * Bytes still waiting in source {@code i}'s virtual queue at time t (demand minus bytes granted
     * before t) [bytes]: the distributed buffering of 002 section 3.1.2.
     */
    public double sourceBacklogBytes(int i, double t) {
        Parameters.inRange("i", i, 0, demandBytes.length - 1);
        Parameters.finite("t", t);
        double b = demandBytes[i];
        for (int k = 0; k < grantTimesS.length && grantTimesS[k] < t; k++) {
            if (grantSource[k] == i) {
                b -= grantBytes[k];
            }
        }
        return Math.max(0, b);
    }

    /** Sum of all sources' backlogs at time t [bytes]. */
    public double totalSourceBacklogBytes(double t) {
        Parameters.finite("t", t);
        double b = 0;
        for (double d : demandBytes) {
            b += d;
        }
        for (int k = 0; k < grantTimesS.length && grantTimesS[k] < t; k++) {
            b -= grantBytes[k];
        }
        return Math.max(0, b);
    }

    /**
     * Credit rate c_i of each source over [t, t + window): granted bytes * 8 / window [bit/s]. Their
     * sum is the check sum c_i <= C <= R of 002 section 3.1.2.
     */
    public double[] creditRatesBitsPerSecond(double t, double windowS) {
        Parameters.finite("t", t);
        Parameters.positive("windowS", windowS);
        double[] c = new double[demandBytes.length];
        for (int k = 0; k < grantTimesS.length; k++) {
            if (grantTimesS[k] >= t && grantTimesS[k] < t + windowS) {
                c[grantSource[k]] += grantBytes[k] * 8.0 / windowS;
            }
        }
        return c;
    }

    /**
     * Largest total credit rate over any window of {@code windowS} starting at a grant: at most
     * C + 8 g / window by the pacing (the last grant of the window may start just before its end).
     */
    public double maxCreditRateBitsPerSecond(double windowS) {
        Parameters.positive("windowS", windowS);
        double best = 0;
        int hi = 0;
        double sum = 0;
        for (int lo = 0; lo < grantTimesS.length; lo++) {
            while (hi < grantTimesS.length && grantTimesS[hi] < grantTimesS[lo] + windowS) {
                sum += grantBytes[hi++];
            }
            best = Math.max(best, sum * 8.0 / windowS);
            sum -= grantBytes[lo];
        }
        return best;
    }
}
