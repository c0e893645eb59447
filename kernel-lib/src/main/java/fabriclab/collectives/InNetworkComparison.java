package fabriclab.collectives;

import fabriclab.Parameters;
import fabriclab.collectives.AllReduceLatency.Algorithm;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.analysis.solvers.BrentSolver;

/**
 * Seed 003's OpenFOAM comparison (section 6.1) in the alpha-beta model of {@link AllReduceLatency}: in-network
 * aggregation on Ethernet against host-based recursive halving-doubling on the same Ethernet (RoCEv2) and on
 * InfiniBand, for a mix of AllReduce sizes on N nodes. The InfiniBand model is the Ethernet one with another switch
 * latency; both share the host overhead {@code o}.
 *
 * <p>Mean AllReduce time of the mix ({@code w_i} the share of AllReduces of {@code S_i} bytes):
 * {@code T_x = sum_i w_i T_x(S_i)}. The ratio this class is about does not depend on the AllReduce share of the
 * job, which 003 does not state:
 * <pre>
 *   R(o) = (T_in-network - T_IB) / (T_RoCE - T_in-network)
 * </pre>
 * (003: a 1.3% deviation from InfiniBand over a 12% reduction against RoCEv2, so |R| = 0.108). Every time is
 * linear in {@code o}: halving-doubling pays {@code b = 2 log2 N} host overheads, in-network aggregation one, so
 * {@code R(o) = (A - (b - 1) o) / (D + (b - 1) o)} with {@code A = T_in(0) - T_IB(0)} and
 * {@code D = T_RoCE(0) - T_in(0)}; R falls monotonically towards -1 as {@code o} grows when Ethernet's switch
 * latency exceeds InfiniBand's (then {@code A + D > 0}).
 *
 * @param ethernet the Ethernet fabric (its host overhead is replaced by the one asked for)
 * @param infinibandSwitchLatencyS InfiniBand's switch latency [s], at least 0 (003: about 90 ns)
 * @param nodes N, a power of two from 2 to {@link AllReduceLatency#MAX_NODES}
 * @param messageBytes the AllReduce sizes of the mix [bytes], not empty, each in [0, BandwidthBound.MAX_BYTES]
 * @param weights the share of each size, as many as sizes, each in [0, 1], summing to 1 (within 1e-9)
 */
public record InNetworkComparison(AllReduceLatency ethernet, double infinibandSwitchLatencyS, int nodes,
        List<Double> messageBytes, List<Double> weights) {
    /** Validates; the lists are copied. */
    public InNetworkComparison {
        Parameters.notNull("ethernet", ethernet);
        Parameters.nonNegative("infinibandSwitchLatencyS", Parameters.finite("infinibandSwitchLatencyS", infinibandSwitchLatencyS));
        Parameters.inRange("nodes", nodes, 2, AllReduceLatency.MAX_NODES);
        if (Integer.bitCount(nodes) != 1) {
            throw new IllegalArgumentException("nodes must be a power of two (halving-doubling), got " + nodes);
        }
        Parameters.noNullElements("messageBytes", messageBytes);
        Parameters.noNullElements("weights", weights);
        if (messageBytes.isEmpty() || messageBytes.size() != weights.size()) {
            throw new IllegalArgumentException("messageBytes and weights must be equally long and not empty, got "
                    + messageBytes.size() + " and " + weights.size());
        }
        double sum = 0;
        for (int i = 0; i < weights.size(); i++) {
            Parameters.inRange("messageBytes[" + i + "]", messageBytes.get(i), 0, BandwidthBound.MAX_BYTES);
            sum += Parameters.inRange("weights[" + i + "]", weights.get(i), 0, 1);
        }
        if (Math.abs(sum - 1) > 1e-9) {
            throw new IllegalArgumentException("weights must sum to 1, got " + sum);
        }
        messageBytes = List.copyOf(messageBytes);
        weights = List.copyOf(weights);
    }

    /** The largest host overhead the solver searches [s]: 1 ms, far above any NIC's or MPI stack's. */
    public static final double MAX_HOST_OVERHEAD_S = 1e-3;

    private double mean(AllReduceLatency m, Algorithm a) {
        double t = 0;
        for (int i = 0; i < weights.size(); i++) {
            t += weights.get(i) * m.seconds(a, nodes, messageBytes.get(i));
        }
        return t;
    }

    /**
     * The mean AllReduce times of the mix at host overhead {@code hostOverheadS}: {RoCEv2 (halving-doubling on
     * Ethernet), in-network on Ethernet, halving-doubling on InfiniBand} [s].
     *
     * @param hostOverheadS per-message host overhead [s], 0 to {@link #MAX_HOST_OVERHEAD_S}
     */
    public double[] meanSeconds(double hostOverheadS) {
        Parameters.inRange("hostOverheadS", hostOverheadS, 0, MAX_HOST_OVERHEAD_S);
        AllReduceLatency e = ethernet.toBuilder().hostOverheadS(hostOverheadS).build();
        AllReduceLatency ib = e.toBuilder().switchLatencyS(infinibandSwitchLatencyS).build();
        return new double[] {mean(e, Algorithm.HALVING_DOUBLING), mean(e, Algorithm.IN_NETWORK),
                mean(ib, Algorithm.HALVING_DOUBLING)};
    }

    /**
     * R(o) = (T_in-network - T_IB) / (T_RoCE - T_in-network) at host overhead {@code hostOverheadS} (negative: in-network
     * Ethernet faster than InfiniBand); fails if in-network aggregation is not faster than RoCEv2 there (the ratio's
     * denominator would not be positive).
     *
     * @param hostOverheadS per-message host overhead [s], 0 to {@link #MAX_HOST_OVERHEAD_S}
     */
    public double gapOverReduction(double hostOverheadS) {
        double[] t = meanSeconds(hostOverheadS);
        if (!(t[0] > t[1])) {
            throw new IllegalStateException("in-network aggregation is not faster than RoCEv2 at hostOverheadS = "
                    + hostOverheadS + " (" + t[1] + " s against " + t[0] + " s): the ratio has no meaning");
        }
        return (t[1] - t[2]) / (t[0] - t[1]);
    }

    /**
     * The host overheads in [0, {@link #MAX_HOST_OVERHEAD_S}] at which |R(o)| equals {@code magnitude}, ascending
     * (none, one or two: R is monotone, so {@code R = -magnitude} and {@code R = +magnitude} have at most one root
     * each), found with Brent's method to 1e-15 s.
     *
     * @param magnitude |R| sought, in (0, 10]
     */
    public List<Double> hostOverheadsForGapMagnitude(double magnitude) {
        Parameters.inRange("magnitude", magnitude, Double.MIN_NORMAL, 10);
        List<Double> roots = new ArrayList<>();
        for (double sign : new double[] {-1, 1}) {
            double target = sign * magnitude;
            double lo = gapOverReduction(0) - target;
            double hi = gapOverReduction(MAX_HOST_OVERHEAD_S) - target;
            if (lo == 0) {
                roots.add(0.0);
            } else if (lo * hi < 0) {
                roots.add(new BrentSolver(1e-15, 1e-15).solve(1000, o -> gapOverReduction(o) - target, 0,
                        MAX_HOST_OVERHEAD_S));
            }
        }
        roots.sort(null);
        return List.copyOf(roots);
    }
}
