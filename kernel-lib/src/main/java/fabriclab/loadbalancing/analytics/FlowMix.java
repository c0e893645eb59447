package fabriclab.loadbalancing.analytics;

import fabriclab.Parameters;
import java.util.Arrays;

/**
 * A mix of elephant and mice flows, all hashed per flow onto m equal paths: the AI-training case is
 * a few elephants, the classic datacenter case many mice (seed 000 section 1.2.1).
 *
 * @param elephants number of elephant flows, at least 0
 * @param elephantBytes size of each elephant, bytes, > 0
 * @param mice number of mice flows, at least 0
 * @param miceBytes size of each mouse, bytes, > 0
 */
public record FlowMix(int elephants, double elephantBytes, int mice, double miceBytes) {
    /** Validates counts (at least one flow) and sizes. */
    public FlowMix {
        Parameters.atLeast("elephants", elephants, 0);
        Parameters.atLeast("mice", mice, 0);
        Parameters.positive("elephantBytes", elephantBytes);
        Parameters.positive("miceBytes", miceBytes);
        if (elephants + mice < 1) {
            throw new IllegalArgumentException("elephants + mice must be >= 1 (the flow set must not be empty), got 0");
        }
    }

    /** Total bytes F. */
    public double totalBytes() {
        return elephants * elephantBytes + mice * miceBytes;
    }

    /** Flow sizes, elephants first. */
    public double[] sizes() {
        double[] s = new double[elephants + mice];
        Arrays.fill(s, 0, elephants, elephantBytes);
        Arrays.fill(s, elephants, s.length, miceBytes);
        return s;
    }

    /** Exact expected variance of path load in bytes^2 ({@link BallsIntoBins#expectedLoadVariance}). */
    public double expectedLoadVariance(int m) {
        Parameters.atLeast("m (paths)", m, 1);
        return (elephants * elephantBytes * elephantBytes + mice * miceBytes * miceBytes) * (1.0 / m) * (1 - 1.0 / m);
    }

    /**
     * Approximate {@code E[max path load] / (F/m)}: elephants placed exactly (the expected maximum
     * count of {@link BallsIntoBins#maxLoad}), mice as a fluid spread evenly (each path gets
     * {@code mice x miceBytes / m}). Stated approximation: ignores the mice's own fluctuation
     * (relative size {@code sqrt(m / mice)}) and the chance that the busiest path for mice differs; it
     * is a lower bound in expectation when mice are many, and exact when there are no mice.
     * {@link EcmpMonteCarlo#maxLoads} gives the exact value by simulation.
     */
    public double approximateMaxOverMean(int m) {
        Parameters.atLeast("m (paths)", m, 1);
        double elephantMax = elephants == 0 ? 0 : BallsIntoBins.maxLoad(elephants, m).mean() * elephantBytes;
        double mouseShare = mice * miceBytes / m;
        if (elephants == 0) {
            return mice == 0 ? 1 : BallsIntoBins.maxLoad(mice, m).meanMaxOverMean();
        }
        return (elephantMax + mouseShare) / (totalBytes() / m);
    }
}
