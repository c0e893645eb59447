package fabriclab.container;

import fabriclab.Parameters;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Monte Carlo of reordering: a stream of packets sent every g seconds, grouped into units of m
 * packets (m = 1: per-packet spraying; m > 1: containers), each unit on a path chosen by a policy
 * and given an independent delay from a {@link DelayModel}; packets of one unit keep their spacing.
 * With {@code fifoPaths} a unit may not overtake an earlier unit on the same path (arrival =
 * max(own, previous arrival on that path)); without it, the paper's model (fully independent delays)
 * is simulated, which {@link Reordering}'s formulas describe exactly.
 *
 * <p>{@link #run} counts the events in one pass (no sorting); {@link #analyse} also orders the
 * arrivals to measure RFC 4737 reorder extent and the egress reorder buffer (RFC 5236 style buffer
 * occupancy) in packets, bytes and containers. Same seed, same result.
 *
 * <p>Build one with {@link #builder()}, which names every setting.
 *
 * @param delay per-unit path delay
 * @param gap send gap between consecutive packets g, seconds
 * @param packetsPerContainer m, at least 1
 * @param paths N, at least 1
 * @param policy {@link PathPolicy#ROUND_ROBIN} or {@link PathPolicy#RANDOM}
 * @param fifoPaths whether a path delivers units in order
 */
public record ReorderSimulator(DelayModel delay, double gap, int packetsPerContainer, int paths, PathPolicy policy, boolean fifoPaths) {
    /** Validates. */
    public ReorderSimulator {
        Parameters.notNull("delay", delay);
        Parameters.nonNegative("gap", gap);
        Parameters.atLeast("packetsPerContainer (m)", packetsPerContainer, 1);
        Parameters.atLeast("paths", paths, 1);
        Parameters.notNull("policy", policy);
        if (policy != PathPolicy.ROUND_ROBIN && policy != PathPolicy.RANDOM) {
            throw new IllegalArgumentException("policy must be ROUND_ROBIN or RANDOM for the reorder simulation, got " + policy);
        }
    }

    /**
     * A builder with every setting named: {@link Builder#delay}, {@link Builder#gap} and {@link Builder#paths}
     * are required; {@link Builder#packetsPerContainer} defaults to 1 (per-packet spraying),
     * {@link Builder#policy} to {@link PathPolicy#ROUND_ROBIN} and {@link Builder#fifoPaths} to false (the
     * paper's model: every unit's delay independent of the others).
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Named settings of a {@link ReorderSimulator}; units and ranges as the record's parameters. Setters only
     * record; {@link #build()} checks.
     */
    public static final class Builder {
        private DelayModel delay;
        private Double gap;
        private int packetsPerContainer = 1;
        private Integer paths;
        private PathPolicy policy = PathPolicy.ROUND_ROBIN;
        private boolean fifoPaths = false;

        private Builder() {
        }

        /** Per-unit path delay; required. */
        public Builder delay(DelayModel delay) {
            this.delay = Parameters.notNull("delay", delay);
            return this;
        }

        /** Send gap g between consecutive packets [s], &gt;= 0 (327.68 ns: 4 KB back to back at 100 Gb/s); required. */
        public Builder gap(double seconds) {
            this.gap = Parameters.finite("gap", seconds); // the range is checked by build()
            return this;
        }

        /** Packets per container m, at least 1 (default 1: per-packet spraying). */
        public Builder packetsPerContainer(int m) {
            this.packetsPerContainer = m;
            return this;
        }

        /** Paths N, at least 1; required. */
        public Builder paths(int paths) {
            this.paths = paths;
            return this;
        }

        /** {@link PathPolicy#ROUND_ROBIN} (default) or {@link PathPolicy#RANDOM}. */
        public Builder policy(PathPolicy policy) {
            this.policy = Parameters.notNull("policy", policy);
            return this;
        }

        /** Whether a path delivers units in order (default false: independent delays). */
        public Builder fifoPaths(boolean fifoPaths) {
            this.fifoPaths = fifoPaths;
            return this;
        }

        /**
         * The simulator.
         *
         * @throws IllegalStateException naming the first required setting that was not set
         * @throws IllegalArgumentException naming the first setting out of its range
         */
        public ReorderSimulator build() {
            if (delay == null) {
                throw new IllegalStateException("delay is required: set the per-unit path delay model with delay(...)");
            }
            if (gap == null) {
                throw new IllegalStateException("gap is required: set the send gap between packets [s] with gap(...)");
            }
            if (paths == null) {
                throw new IllegalStateException("paths is required: set the number of paths with paths(...)");
            }
            return new ReorderSimulator(delay, gap, packetsPerContainer, paths, policy, fifoPaths);
        }
    }

    /**
     * Counts from one streaming pass.
     *
     * @param packets packets simulated
     * @param invertedPairs consecutive pairs (k, k+1) with arrival(k+1) &lt; arrival(k)
     * @param boundaries container boundaries (consecutive pairs in different units)
     * @param invertedBoundaries of those, the inverted ones
     * @param earlyPackets packets that arrive before some earlier-sent packet (the mirror of RFC 4737's
     *     late packets; see {@link Reordering#earlyPacketFraction})
     */
    public record Counts(long packets, long invertedPairs, long boundaries, long invertedBoundaries, long earlyPackets) {
        /** invertedPairs / (packets - 1). */
        public double pairRate() {
            return packets < 2 ? 0 : (double) invertedPairs / (packets - 1);
        }

        /** invertedBoundaries / boundaries. */
        public double boundaryRate() {
            return boundaries == 0 ? 0 : (double) invertedBoundaries / boundaries;
        }

        /** earlyPackets / packets. */
        public double earlyFraction() {
            return packets == 0 ? 0 : (double) earlyPackets / packets;
        }
    }

    /** Simulates {@code packets} packets in one pass, O(1) memory per path. */
    public Counts run(long packets, long seed) {
        Parameters.inRange("packets", packets, 1L, 100_000_000L); // about 10 s of simulation at most
        SplittableRandom rng = new SplittableRandom(seed);
        double[] lastOnPath = new double[paths];
        Arrays.fill(lastOnPath, Double.NEGATIVE_INFINITY);
        final int m = packetsPerContainer;
        final boolean roundRobin = policy == PathPolicy.ROUND_ROBIN;
        final boolean fifo = fifoPaths;
        final double g = gap;
        // packet 0 opens the first unit
        double unitDelay = delay.sample(rng);
        int path = roundRobin || paths == 1 ? 0 : rng.nextInt(paths);
        int rr = paths == 1 ? 0 : 1;
        double prevArrival = unitDelay;
        if (fifo) {
            lastOnPath[path] = prevArrival;
        }
        double runningMax = prevArrival;
        long inverted = 0, boundaries = 0, invertedBoundaries = 0, reordered = 0;
        int pos = 1; // position of the next packet inside its unit
        for (long i = 1; i < packets; i++) {
            boolean first = pos == m;
            if (first) {
                pos = 0;
                unitDelay = delay.sample(rng);
                if (roundRobin) {
                    path = rr;
                    rr = rr + 1 == paths ? 0 : rr + 1;
                } else {
                    path = paths == 1 ? 0 : rng.nextInt(paths);
                }
            }
            pos++;
            double a = i * g + unitDelay;
            if (fifo) {
                if (a < lastOnPath[path]) {
                    a = lastOnPath[path];
                }
                lastOnPath[path] = a;
            }
            boolean inv = a < prevArrival;
            if (inv) {
                inverted++;
            }
            if (first) {
                boundaries++;
                if (inv) {
                    invertedBoundaries++;
                }
            }
            if (a < runningMax) {
                reordered++;
            } else {
                runningMax = a;
            }
            prevArrival = a;
        }
        return new Counts(packets, inverted, boundaries, invertedBoundaries, reordered);
    }

    /**
     * Full analysis of one run, from the arrival order.
     *
     * @param packets packets simulated
     * @param counts the streaming counts of the same run
     * @param meanExtent mean RFC 4737 reorder extent over reordered packets (arrival positions between
     *     the first later-sent packet that arrived earlier and this one); 0 if none
     * @param rfc4737Reordered RFC 4737 reordered (late) packets: arrive after a higher sequence number
     * @param maxExtent largest extent
     * @param maxBufferPackets most packets the egress held at once to restore order
     * @param maxBufferBytes most bytes held at once
     * @param maxBufferContainers most distinct containers with held packets at once
     * @param bufferOccupancyPackets histogram: entry k = number of arrivals after which k packets were
     *     held (RFC 5236 reorder buffer-occupancy density, unnormalised)
     */
    public record Analysis(long packets, Counts counts, double meanExtent, long rfc4737Reordered, int maxExtent, int maxBufferPackets, long maxBufferBytes,
                           int maxBufferContainers, long[] bufferOccupancyPackets) {
        /** Validates: counts and histogram not null, counts and extents &gt;= 0. */
        public Analysis {
            Parameters.atLeast("packets", packets, 0);
            Parameters.notNull("counts", counts);
            Parameters.nonNegative("meanExtent", meanExtent);
            Parameters.atLeast("rfc4737Reordered", rfc4737Reordered, 0);
            Parameters.atLeast("maxExtent", maxExtent, 0);
            Parameters.atLeast("maxBufferPackets", maxBufferPackets, 0);
            Parameters.atLeast("maxBufferBytes", maxBufferBytes, 0);
            Parameters.atLeast("maxBufferContainers", maxBufferContainers, 0);
            Parameters.notNull("bufferOccupancyPackets", bufferOccupancyPackets);
        }

        /** Buffer-occupancy histogram (a copy): entry k = arrivals after which k packets were held. */
        @Override
        public long[] bufferOccupancyPackets() {
            return bufferOccupancyPackets.clone();
        }

        /** rfc4737Reordered / packets. */
        public double rfc4737Fraction() {
            return (double) rfc4737Reordered / packets;
        }

        /** Smallest buffer, packets, that suffices after a fraction q of arrivals. */
        public int bufferQuantilePackets(double q) {
            Parameters.inRange("q", q, 0, 1);
            long total = 0;
            for (long c : bufferOccupancyPackets) {
                total += c;
            }
            long acc = 0;
            for (int k = 0; k < bufferOccupancyPackets.length; k++) {
                acc += bufferOccupancyPackets[k];
                if (acc >= q * total) {
                    return k;
                }
            }
            return bufferOccupancyPackets.length - 1;
        }
    }

    /**
     * Simulates {@code packets} packets with sizes from {@code sizes} and analyses the arrival order.
     * Arrival times are ordered at 1 ps resolution (ties keep sending order).
     *
     * @param packets at most 2^24
     */
    public Analysis analyse(int packets, PacketSizes sizes, long seed) {
        Parameters.inRange("packets", packets, 1, 1 << 24);
        Parameters.notNull("sizes", sizes);
        Counts counts = run(packets, seed);
        // regenerate the same arrivals (same generator sequence as run)
        SplittableRandom rng = new SplittableRandom(seed);
        double[] arr = new double[packets];
        double[] lastOnPath = new double[paths];
        Arrays.fill(lastOnPath, Double.NEGATIVE_INFINITY);
        int m = packetsPerContainer;
        double unitDelay = 0;
        int path = 0, rr = 0;
        double min = Double.POSITIVE_INFINITY;
        for (int i = 0; i < packets; i++) {
            if (i % m == 0) {
                unitDelay = delay.sample(rng);
                if (policy == PathPolicy.ROUND_ROBIN) {
                    path = rr;
                    rr = rr + 1 == paths ? 0 : rr + 1;
                } else {
                    path = paths == 1 ? 0 : rng.nextInt(paths);
                }
            }
            double a = i * gap + unitDelay;
            if (fifoPaths) {
                a = Math.max(a, lastOnPath[path]);
                lastOnPath[path] = a;
            }
            arr[i] = a;
            min = Math.min(min, a);
        }
        SplittableRandom sizeRng = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
        int[] bytes = sizes.sample(sizeRng, packets);
        long[] key = new long[packets];
        for (int i = 0; i < packets; i++) {
            long ps = Math.round((arr[i] - min) * 1e12);
            if (ps >= (1L << 39)) {
                throw new IllegalArgumentException("arrival spread exceeds 0.5 s; use fewer packets or a smaller gap");
            }
            key[i] = (ps << 24) | i;
        }
        Arrays.sort(key);
        int[] order = new int[packets];
        for (int k = 0; k < packets; k++) {
            order[k] = (int) (key[k] & 0xFFFFFF);
        }
        // extent (RFC 4737): prefix maxima of sequence numbers in arrival order
        int[] prefixMax = new int[packets];
        long extentSum = 0;
        long extentCount = 0;
        int maxExtent = 0;
        for (int k = 0; k < packets; k++) {
            int s = order[k];
            if (k > 0 && s < prefixMax[k - 1]) {
                int lo = 0, hi = k - 1; // first position with prefixMax > s
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (prefixMax[mid] > s) {
                        hi = mid;
                    } else {
                        lo = mid + 1;
                    }
                }
                int e = k - lo;
                extentSum += e;
                extentCount++;
                maxExtent = Math.max(maxExtent, e);
            }
            prefixMax[k] = k == 0 ? s : Math.max(prefixMax[k - 1], s);
        }
        // egress reorder buffer
        boolean[] arrived = new boolean[packets];
        int[] heldPerContainer = new int[(packets + m - 1) / m];
        int next = 0, heldPackets = 0, heldContainers = 0, maxPk = 0, maxCt = 0;
        long heldBytes = 0, maxBytes = 0;
        long[] hist = new long[16];
        for (int k = 0; k < packets; k++) {
            int s = order[k];
            arrived[s] = true;
            heldPackets++;
            heldBytes += bytes[s];
            if (heldPerContainer[s / m]++ == 0) {
                heldContainers++;
            }
            while (next < packets && arrived[next]) {
                heldPackets--;
                heldBytes -= bytes[next];
                if (--heldPerContainer[next / m] == 0) {
                    heldContainers--;
                }
                next++;
            }
            maxPk = Math.max(maxPk, heldPackets);
            maxBytes = Math.max(maxBytes, heldBytes);
            maxCt = Math.max(maxCt, heldContainers);
            if (heldPackets >= hist.length) {
                hist = Arrays.copyOf(hist, Math.max(hist.length * 2, heldPackets + 1));
            }
            hist[heldPackets]++;
        }
        hist = Arrays.copyOf(hist, maxPk + 1);
        return new Analysis(packets, counts, extentCount == 0 ? 0 : (double) extentSum / extentCount, extentCount, maxExtent, maxPk, maxBytes, maxCt, hist);
    }
}
