package fabriclab.collectives;

import fabriclab.Parameters;
import fabriclab.loadbalancing.analytics.BallsIntoBins;
import fabriclab.loadbalancing.analytics.MaxLoadDistribution;

/**
 * What per-flow ECMP imbalance costs one step of a synchronous collective: every GPU waits for the
 * slowest transfer (seed 000 section 1: "the slowest GPU gates each iteration").
 *
 * <p>Model: {@code nics} NICs of rate R each send B bytes per step across a tier of m equal paths of
 * capacity c (for example a leaf's uplinks); each NIC spreads its B bytes over {@code qpsPerNic}
 * QPs (flows) of B/q bytes and rate R/q, and every flow is hashed onto a path independently and
 * uniformly, so the fullest path carries X_max flows (distribution {@link BallsIntoBins#maxLoad}).
 * With fluid, work-conserving sharing the step cannot end before either resource finishes its bytes,
 * and a schedule meeting that bound exists (each flow at constant rate), so
 * <pre>
 *   T     = max( X_max B / (q c),  B / R )                 (fullest path, or the NIC itself)
 *   T_opt = max( nics B / (m c),   B / R )                 (perfect spreading: per-packet spraying)
 * </pre>
 * The usable fraction of the ideal bisection bandwidth is {@code T_opt / T}; the slowdown of the
 * slowest flow relative to its own rate R/q is {@code max(1, X_max (R/q) / c)}. Real congestion
 * control only adds to T, so these are best cases for ECMP. Assumptions: receivers and the rest of
 * the fabric are not the bottleneck; all flows of a step start together and are the same size.
 *
 * <p>Build one with {@link #builder()}, which names every setting.
 *
 * @param nics sending NICs, at least 1
 * @param qpsPerNic QPs (flows) per NIC, at least 1
 * @param paths equal-cost paths m, at least 1
 * @param nicRateGbps NIC rate R, Gb/s, > 0
 * @param pathCapacityGbps capacity c of each path, Gb/s, > 0
 */
public record SynchronousCollective(int nics, int qpsPerNic, int paths, double nicRateGbps, double pathCapacityGbps) {
    /** Validates the parameters. */
    public SynchronousCollective {
        Parameters.atLeast("nics", nics, 1);
        Parameters.atLeast("qpsPerNic", qpsPerNic, 1);
        Parameters.atLeast("paths", paths, 1);
        Parameters.positive("nicRateGbps", nicRateGbps);
        Parameters.positive("pathCapacityGbps", pathCapacityGbps);
        if ((long) nics * qpsPerNic > 10_000_000L) {
            throw new IllegalArgumentException("nics x qpsPerNic must be <= 10,000,000 flows, got " + (long) nics * qpsPerNic);
        }
    }

    /**
     * A builder with every setting named: {@link Builder#nics}, {@link Builder#paths},
     * {@link Builder#nicRateGbps} and {@link Builder#pathCapacityGbps} are required; {@link Builder#qpsPerNic}
     * defaults to 1 (one flow per NIC).
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Named settings of a {@link SynchronousCollective}; units and ranges as the record's parameters. Setters
     * only record; {@link #build()} checks.
     */
    public static final class Builder {
        private Integer nics;
        private int qpsPerNic = 1;
        private Integer paths;
        private Double nicRateGbps;
        private Double pathCapacityGbps;

        private Builder() {
        }

        /** Sending NICs, at least 1; required. */
        public Builder nics(int nics) {
            this.nics = nics;
            return this;
        }

        /** QPs (flows) per NIC, at least 1 (default 1). */
        public Builder qpsPerNic(int qpsPerNic) {
            this.qpsPerNic = qpsPerNic;
            return this;
        }

        /** Equal-cost paths m across the tier (for example a leaf's uplinks), at least 1; required. */
        public Builder paths(int paths) {
            this.paths = paths;
            return this;
        }

        /** NIC rate R [Gb/s], &gt; 0; required. */
        public Builder nicRateGbps(double gbps) {
            this.nicRateGbps = Parameters.positive("nicRateGbps", gbps);
            return this;
        }

        /** Capacity c of each path [Gb/s], &gt; 0; required. */
        public Builder pathCapacityGbps(double gbps) {
            this.pathCapacityGbps = Parameters.positive("pathCapacityGbps", gbps);
            return this;
        }

        /**
         * The collective step.
         *
         * @throws IllegalStateException naming the first required setting that was not set
         * @throws IllegalArgumentException naming the first setting out of its range
         */
        public SynchronousCollective build() {
            required("nics", nics, "number of sending NICs");
            required("paths", paths, "number of equal-cost paths");
            required("nicRateGbps", nicRateGbps, "NIC rate [Gb/s]");
            required("pathCapacityGbps", pathCapacityGbps, "capacity of each path [Gb/s]");
            return new SynchronousCollective(nics, qpsPerNic, paths, nicRateGbps, pathCapacityGbps);
        }

        private static void required(String name, Object value, String what) {
            if (value == null) {
                throw new IllegalStateException(name + " is required: set the " + what + " with " + name + "(...)");
            }
        }
    }

    /** Number of flows n = nics x qpsPerNic. */
    public int flows() {
        return nics * qpsPerNic;
    }

    /** Rate of one flow r = R / q, Gb/s. */
    public double flowRateGbps() {
        return nicRateGbps / qpsPerNic;
    }

    /** Offered load over the tier, {@code nics R / (m c)} (1 = exactly non-blocking). */
    public double offeredLoad() {
        return nics * nicRateGbps / (paths * pathCapacityGbps);
    }

    /** Step time per gigabit a NIC sends, {@code max(X/(q c), 1/R)}, seconds per Gb. */
    private double stepTime(int maxFlowsOnPath) {
        return Math.max(maxFlowsOnPath / (qpsPerNic * pathCapacityGbps), 1 / nicRateGbps);
    }

    private double idealStepTime() {
        return Math.max(nics / (paths * pathCapacityGbps), 1 / nicRateGbps);
    }

    /**
     * {@code T_opt / T} for a given fullest-path flow count: the fraction of the ideal (perfectly
     * spread) bandwidth the step achieves, in (0, 1].
     *
     * @param maxFlowsOnPath X_max, 1..flows()
     */
    public double usableFraction(int maxFlowsOnPath) {
        Parameters.inRange("maxFlowsOnPath", maxFlowsOnPath, 1, flows());
        return Math.min(1, idealStepTime() / stepTime(maxFlowsOnPath));
    }

    /** Slowdown of the slowest flow, {@code max(1, X_max r / c)}, for a given X_max. */
    public double slowestFlowSlowdown(int maxFlowsOnPath) {
        Parameters.inRange("maxFlowsOnPath", maxFlowsOnPath, 1, flows());
        return Math.max(1, maxFlowsOnPath * flowRateGbps() / pathCapacityGbps);
    }

    /** The exact distribution of X_max under ideal random hashing. */
    public MaxLoadDistribution maxLoad() {
        return BallsIntoBins.maxLoad(flows(), paths);
    }

    /** {@code E[T_opt / T]}: expected usable fraction of the ideal bisection bandwidth. */
    public double expectedUsableFraction() {
        return maxLoad().expectation(x -> x == 0 ? 1 : usableFraction(x));
    }

    /** {@code E[T] / T_opt}: expected step-time inflation. */
    public double expectedStepSlowdown() {
        return maxLoad().expectation(x -> x == 0 ? 1 : stepTime(x) / idealStepTime());
    }

    /** {@code E[max(1, X_max r / c)]}: expected slowdown of the slowest flow. */
    public double expectedSlowestFlowSlowdown() {
        return maxLoad().expectation(x -> x == 0 ? 1 : slowestFlowSlowdown(x));
    }

    /** The same collective with another number of QPs per NIC (QP scaling). */
    public SynchronousCollective withQpsPerNic(int q) {
        return new SynchronousCollective(nics, q, paths, nicRateGbps, pathCapacityGbps);
    }
}
