package fabriclab.loadbalancing.flowlet;

import fabriclab.Parameters;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How well flowlet switching balances a set of concurrent flows over m equal paths.
 *
 * <p>Every flowlet of every flow takes an independent uniform path (an ideal hash of the 5-tuple
 * and a flowlet counter; per-flow ECMP is the limit of an infinite timeout). Time is cut into bins
 * of {@code binUs}; in each bin the imbalance is the packets on the fullest path over the mean,
 * {@code max_i P_i / (P / m)}; the result averages it over bins weighted by their packets.
 *
 * <p>For AI elephants whose only gaps are the compute phases, any timeout between the in-step packet
 * spacing and the compute gap gives one flowlet per step: within a step the paths are exactly those
 * of per-flow ECMP (re-drawn each step), so the imbalance equals
 * {@code E[max]/mean} of {@link fabriclab.loadbalancing.analytics.BallsIntoBins} and flowlets do not
 * help. Only a timeout below the packet spacing (per-packet spraying, which reorders) balances them.
 *
 * @param flowlets total flowlets over all flows
 * @param meanImbalance packet-weighted mean over bins of max path packets / mean path packets
 */
public record FlowletBalance(long flowlets, double meanImbalance) {
    /** Validates: flowlets &gt;= 0, meanImbalance finite and &gt;= 0. */
    public FlowletBalance {
        Parameters.atLeast("flowlets", flowlets, 0);
        Parameters.nonNegative("meanImbalance", meanImbalance);
    }

    /**
     * Simulates the flows (packet departure times in us, one array per flow).
     *
     * @param flows packet times of each flow, at least one flow
     * @param paths m, at least 1
     * @param timeoutUs flowlet timeout, us, >= 0 ({@code Double.MAX_VALUE} for per-flow ECMP)
     * @param binUs width of the time bins, us, > 0
     * @param seed path-choice seed; the same seed gives the same result
     */
    public static FlowletBalance simulate(List<double[]> flows, int paths, double timeoutUs, double binUs, long seed) {
        Parameters.noNullElements("flows", flows);
        if (flows.isEmpty()) {
            throw new IllegalArgumentException("flows must contain at least 1 flow, got 0");
        }
        Parameters.atLeast("paths", paths, 1);
        if (!(timeoutUs >= 0)) {
            throw new IllegalArgumentException("timeoutUs must be >= 0, got " + timeoutUs);
        }
        Parameters.positive("binUs", binUs);
        double end = 0;
        for (double[] f : flows) {
            Parameters.notNull("flow", f);
            if (f.length > 0) {
                end = Math.max(end, f[f.length - 1]);
            }
        }
        double binsExact = (Math.floor(end / binUs) + 1) * paths;
        if (binsExact > 50_000_000L) {
            throw new IllegalArgumentException("binUs is too small: (trace length / binUs) x paths must be <= 50,000,000, got "
                    + binsExact);
        }
        long binsLong = (long) Math.floor(end / binUs) + 1;
        int bins = (int) binsLong;
        int[] load = new int[bins * paths];
        SplittableRandom r = new SplittableRandom(seed);
        long flowlets = 0;
        for (double[] f : flows) {
            if (f.length == 0) {
                continue;
            }
            int[] id = Flowlets.split(f, timeoutUs);
            int current = -1;
            int path = 0;
            for (int i = 0; i < f.length; i++) {
                if (id[i] != current) {
                    current = id[i];
                    path = r.nextInt(paths);
                    flowlets++;
                }
                load[(int) (f[i] / binUs) * paths + path]++;
            }
        }
        double weighted = 0;
        long total = 0;
        for (int b = 0; b < bins; b++) {
            int sum = 0;
            int max = 0;
            for (int p = 0; p < paths; p++) {
                int v = load[b * paths + p];
                sum += v;
                max = Math.max(max, v);
            }
            if (sum > 0) {
                weighted += sum * (max / ((double) sum / paths));
                total += sum;
            }
        }
        if (total == 0) {
            throw new IllegalArgumentException("flows must contain at least 1 packet in all, got none");
        }
        return new FlowletBalance(flowlets, weighted / total);
    }
}
