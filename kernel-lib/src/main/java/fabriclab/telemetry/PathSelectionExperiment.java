package fabriclab.telemetry;

import fabriclab.Parameters;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.SplittableRandom;

/**
 * Telemetry-driven path selection (seed 004) against per-flow ECMP and packet containers, on a
 * flow-level (fluid) model of a two-tier leaf-spine. Packet simulation cannot cover the seconds over
 * which 004's information pipeline works, so this model moves fluid: each flow offers a constant
 * {@code flowDemandGbps} for an exponentially distributed lifetime (mean {@code meanFlowDurationS}),
 * flows arrive as a Poisson process sized for an average uplink load {@code offeredLoad}, between a
 * uniformly random pair of different leaves.
 *
 * <p>Each time step of {@code stepS}: a link offered load λ above its capacity C carries C and gives
 * every flow on it the share C / λ. An uplink is offered the flows' demand; a downlink is offered what
 * the uplinks forward to it (each flow's part times its uplink's share), so a flow delivers its demand
 * times the product of its two shares and a byte dropped on the uplink is not offered, nor dropped,
 * again downstream (so the drop fraction stays within [0, 1]); the queue grows by
 * (λ - C) per second up to {@code bufferBytes} (excess dropped) and drains at C - λ; the forwarding
 * latency of a link is 2 us plus queue / C. Paths:
 * <ul>
 *   <li>{@link Policy#ECMP}: a uniformly random spine per flow (ideal hashing);</li>
 *   <li>{@link Policy#CONTAINERS}: the flow is split evenly over every spine (container spraying);</li>
 *   <li>{@link Policy#SCORE}: the spine whose announced up + down link scores ({@link PathQuality}) are
 *       lowest, or a uniformly random one among the {@code kBest} lowest.</li>
 * </ul>
 * <p>The information pipeline of 004, per link: hardware counters sampled every {@code sampleS}
 * (utilisation and mean queue, latency and its standard deviation over the window; queue at the
 * sample), the control plane reading the latest sample every {@code readS} into an exponentially
 * weighted average (weight {@code ewma} on the new sample), and an announcement every
 * {@code announceS} that sources use until the next one. The age of the information a decision uses
 * is the time since the newest sample in the announcement. With every interval equal to
 * {@code stepS} and {@code ewma} 1 the age is zero and the choice is the instantaneous best path.
 *
 * <p>Build one with {@link #builder()}, which names every setting and defaults all but the flow lifetime
 * to the scenario of {@link #paper(double)}.
 *
 * @param leaves leaves L, at least 2
 * @param spines spines S, at least 2
 * @param linkGbps capacity of every leaf-spine link [Gb/s]
 * @param flowDemandGbps rate each flow offers [Gb/s]
 * @param meanFlowDurationS mean flow lifetime [s]
 * @param offeredLoad mean offered load per uplink over capacity, in (0, 2]
 * @param bufferBytes queue limit per link [bytes]
 * @param sampleS counter sampling interval [s] (004: 0.1)
 * @param readS control-plane read interval [s] (004: 0.5), a multiple of nothing in particular
 * @param announceS announcement interval [s] (004: about 1)
 * @param ewma weight of the newest sample in the control plane's average, in (0, 1]
 * @param kBest SCORE picks uniformly among the k best spines, 1 to spines
 * @param quality the score
 * @param stepS time step [s], at most every interval above
 * @param durationS simulated time [s]
 */
public record PathSelectionExperiment(int leaves, int spines, double linkGbps, double flowDemandGbps,
        double meanFlowDurationS, double offeredLoad, double bufferBytes, double sampleS, double readS, double announceS,
        double ewma, int kBest, PathQuality quality, double stepS, double durationS) {
    /** Validates. */
    public PathSelectionExperiment {
        Parameters.atLeast("leaves", leaves, 2);
        Parameters.atLeast("spines", spines, 2);
        Parameters.positive("linkGbps", linkGbps);
        Parameters.positive("flowDemandGbps", flowDemandGbps);
        Parameters.positive("meanFlowDurationS", meanFlowDurationS);
        Parameters.inHalfOpenRange("offeredLoad", offeredLoad, 0.0, 2.0);
        Parameters.positive("bufferBytes", bufferBytes);
        Parameters.positive("stepS", stepS);
        atLeastStep("sampleS", sampleS, stepS);
        atLeastStep("readS", readS, stepS);
        atLeastStep("announceS", announceS, stepS);
        Parameters.inHalfOpenRange("ewma", ewma, 0.0, 1.0);
        Parameters.inRange("kBest", kBest, 1, spines);
        Parameters.notNull("quality", quality);
        Parameters.positive("durationS", durationS);
        if (durationS / stepS > 1e8) {
            throw new IllegalArgumentException("durationS / stepS must be at most 1e8 steps, got " + durationS / stepS);
        }
    }

    private static void atLeastStep(String name, double seconds, double stepS) {
        if (!(seconds >= stepS) || Double.isInfinite(seconds)) {
            throw new IllegalArgumentException(name + " must be a finite number >= stepS = " + stepS + " s, got " + seconds);
        }
    }

    /** Path policy. */
    public enum Policy {
        /** Random spine per flow. */
        ECMP,
        /** Even split over all spines. */
        CONTAINERS,
        /** Best announced score (or random among the k best). */
        SCORE
    }

    /**
     * 004's pipeline on 8 leaves x 4 spines of 400G, flows of 25G, 70% load, 1 MB buffers,
     * 20 s in 1 ms steps, strict best path, equal weights: {@code builder().meanFlowDurationS(s).build()}.
     *
     * @param meanFlowDurationS how long flows live (compare with the 1 s announcement interval)
     */
    public static PathSelectionExperiment paper(double meanFlowDurationS) {
        return builder().meanFlowDurationS(meanFlowDurationS).build();
    }

    /**
     * A builder with every setting named. Only {@link Builder#meanFlowDurationS} is required; the others
     * default to the scenario of {@link #paper(double)}: 004's information pipeline (counters sampled every
     * 0.1 s, read every 0.5 s, announced every 1 s) and, as this project's choices (004 gives no fabric or
     * workload), 8 leaves x 4 spines of 400 Gb/s links, flows of 25 Gb/s at 70% mean uplink load, 1 MB of
     * buffer per link, control-plane average weight 0.5, strict best path (kBest 1), {@link PathQuality#balanced()},
     * 1 ms steps for 20 s. {@link Builder#build()} validates like the constructor.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this experiment's settings, to change some of them. */
    public Builder toBuilder() {
        return new Builder().leaves(leaves).spines(spines).linkGbps(linkGbps).flowDemandGbps(flowDemandGbps)
                .meanFlowDurationS(meanFlowDurationS).offeredLoad(offeredLoad).bufferBytes(bufferBytes).sampleS(sampleS)
                .readS(readS).announceS(announceS).ewma(ewma).kBest(kBest).quality(quality).stepS(stepS)
                .durationS(durationS);
    }

    /**
     * Named settings of a {@link PathSelectionExperiment}; see {@link #builder()} for the defaults and the
     * record's parameters for units and ranges. Setters only record; {@link #build()} checks.
     */
    public static final class Builder {
        private int leaves = 8;
        private int spines = 4;
        private double linkGbps = 400;
        private double flowDemandGbps = 25;
        private Double meanFlowDurationS;
        private double offeredLoad = 0.7;
        private double bufferBytes = 1e6;
        private double sampleS = 0.1;
        private double readS = 0.5;
        private double announceS = 1.0;
        private double ewma = 0.5;
        private int kBest = 1;
        private PathQuality quality = PathQuality.balanced();
        private double stepS = 1e-3;
        private double durationS = 20;

        private Builder() {
        }

        /** Leaves L, at least 2 (default 8). */
        public Builder leaves(int leaves) {
            this.leaves = leaves;
            return this;
        }

        /** Spines S, at least 2 (default 4). */
        public Builder spines(int spines) {
            this.spines = spines;
            return this;
        }

        /** Capacity of every leaf-spine link [Gb/s] (default 400). */
        public Builder linkGbps(double linkGbps) {
            this.linkGbps = Parameters.finite("linkGbps", linkGbps); // the range is checked by build()
            return this;
        }

        /** Rate each flow offers [Gb/s] (default 25). */
        public Builder flowDemandGbps(double flowDemandGbps) {
            this.flowDemandGbps = Parameters.finite("flowDemandGbps", flowDemandGbps); // the range is checked by build()
            return this;
        }

        /** Mean flow lifetime [s]; required (compare it with the announcement interval). */
        public Builder meanFlowDurationS(double meanFlowDurationS) {
            this.meanFlowDurationS = Parameters.finite("meanFlowDurationS", meanFlowDurationS); // the range is checked by build()
            return this;
        }

        /** Mean offered load per uplink over capacity, in (0, 2] (default 0.7). */
        public Builder offeredLoad(double offeredLoad) {
            this.offeredLoad = Parameters.finite("offeredLoad", offeredLoad); // the range is checked by build()
            return this;
        }

        /** Queue limit per link [bytes] (default 1e6). */
        public Builder bufferBytes(double bufferBytes) {
            this.bufferBytes = Parameters.finite("bufferBytes", bufferBytes); // the range is checked by build()
            return this;
        }

        /** Counter sampling interval [s] (default and 004: 0.1). */
        public Builder sampleS(double sampleS) {
            this.sampleS = Parameters.finite("sampleS", sampleS); // the range is checked by build()
            return this;
        }

        /** Control-plane read interval [s] (default and 004: 0.5). */
        public Builder readS(double readS) {
            this.readS = Parameters.finite("readS", readS); // the range is checked by build()
            return this;
        }

        /** Announcement interval [s] (default and 004: 1). */
        public Builder announceS(double announceS) {
            this.announceS = Parameters.finite("announceS", announceS); // the range is checked by build()
            return this;
        }

        /** Weight of the newest sample in the control plane's average, in (0, 1] (default 0.5). */
        public Builder ewma(double ewma) {
            this.ewma = Parameters.finite("ewma", ewma); // the range is checked by build()
            return this;
        }

        /** SCORE picks uniformly among the k best spines, 1 to spines (default 1: the best). */
        public Builder kBest(int kBest) {
            this.kBest = kBest;
            return this;
        }

        /** The path-quality score (default {@link PathQuality#balanced()}). */
        public Builder quality(PathQuality quality) {
            this.quality = Parameters.notNull("quality", quality);
            return this;
        }

        /** Time step [s], at most every interval (default 1e-3). */
        public Builder stepS(double stepS) {
            this.stepS = Parameters.finite("stepS", stepS); // the range is checked by build()
            return this;
        }

        /** Simulated time [s] (default 20). */
        public Builder durationS(double durationS) {
            this.durationS = Parameters.finite("durationS", durationS); // the range is checked by build()
            return this;
        }

        /**
         * The experiment.
         *
         * @throws IllegalStateException if {@link #meanFlowDurationS} was not set
         * @throws IllegalArgumentException naming the first setting out of its range
         */
        public PathSelectionExperiment build() {
            if (meanFlowDurationS == null) {
                throw new IllegalStateException("meanFlowDurationS is required: set the mean flow lifetime [s] with "
                        + "meanFlowDurationS(seconds)");
            }
            return new PathSelectionExperiment(leaves, spines, linkGbps, flowDemandGbps, meanFlowDurationS, offeredLoad,
                    bufferBytes, sampleS, readS, announceS, ewma, kBest, quality, stepS, durationS);
        }
    }

    /** A copy with fresh information: every interval equal to the step and no averaging (age 0). */
    public PathSelectionExperiment fresh() {
        return toBuilder().sampleS(stepS).readS(stepS).announceS(stepS).ewma(1.0).build();
    }

    /** A copy picking randomly among the {@code k} best spines. */
    public PathSelectionExperiment withKBest(int k) {
        return toBuilder().kBest(k).build();
    }

    /** A copy with another announcement interval [s] (the read interval is capped at it). */
    public PathSelectionExperiment withAnnounce(double seconds) {
        return toBuilder().sampleS(Math.min(sampleS, seconds)).readS(Math.min(readS, seconds)).announceS(seconds).build();
    }

    /**
     * What a run measured (after a warm-up of the first 10% of the run).
     *
     * @param policy the policy
     * @param throughputFraction carried over offered bytes
     * @param dropFraction dropped over offered bytes
     * @param meanUplinkImbalance mean over steps of (most loaded uplink of a leaf / mean uplink of that leaf), leaves averaged
     * @param meanLatencyUs mean link latency weighted by carried load [us]
     * @param bestChoiceFraction share of SCORE decisions that picked a spine that was among the k best at that moment;
     *                           empty when the run made no such decision (ECMP, CONTAINERS)
     * @param herdingIndex mean over announcement intervals of the largest share of one spine among the new flows of a leaf
     *                     pair (1/S = even, 1 = all on one); empty when no interval had at least S new flows on a pair
     *                     (always for CONTAINERS, which pins no flow to a spine)
     * @param meanAgeS mean age of the information used by SCORE decisions [s]
     * @param timesS times of the load samples [s]
     * @param spineLoad per spine, load offered to leaf 0's uplink to it over capacity, at {@code timesS}
     */
    public record Result(Policy policy, double throughputFraction, double dropFraction, double meanUplinkImbalance,
            double meanLatencyUs, OptionalDouble bestChoiceFraction, OptionalDouble herdingIndex, double meanAgeS, double[] timesS,
            double[][] spineLoad) {
        /** Validates: fractions in [0, 1], other numbers finite and &gt;= 0, arrays of finite numbers. */
        public Result {
            Parameters.notNull("policy", policy);
            Parameters.inRange("throughputFraction", throughputFraction, 0, 1);
            Parameters.inRange("dropFraction", dropFraction, 0, 1);
            Parameters.nonNegative("meanUplinkImbalance", meanUplinkImbalance);
            Parameters.nonNegative("meanLatencyUs", meanLatencyUs);
            Parameters.notNull("bestChoiceFraction", bestChoiceFraction);
            if (bestChoiceFraction.isPresent()) {
                Parameters.inRange("bestChoiceFraction", bestChoiceFraction.getAsDouble(), 0, 1);
            }
            Parameters.notNull("herdingIndex", herdingIndex);
            if (herdingIndex.isPresent()) {
                Parameters.inRange("herdingIndex", herdingIndex.getAsDouble(), 0, 1);
            }
            Parameters.nonNegative("meanAgeS", meanAgeS);
            Parameters.finiteElements("timesS", timesS);
            Parameters.notNull("spineLoad", spineLoad);
            for (int s = 0; s < spineLoad.length; s++) {
                Parameters.finiteElements("spineLoad[" + s + "]", spineLoad[s]);
            }
        }
    }

    private static final class Flow {
        final int src;
        final int dst;
        final int spine; // -1: containers
        final double endS;

        Flow(int src, int dst, int spine, double endS) {
            this.src = src;
            this.dst = dst;
            this.spine = spine;
            this.endS = endS;
        }
    }

    /** Runs one policy with {@code seed}; {@code sink} gets progress. */
    public Result run(Policy policy, long seed, ProgressSink sink) {
        Parameters.notNull("policy", policy);
        Parameters.notNull("sink", sink);
        Run run = new Run(policy, seed);
        try (Progress progress = Progress.start("path selection, " + policy, run.steps, sink)) {
            for (long k = 0; k < run.steps; k++) {
                run.step(k);
                progress.step();
            }
        }
        return run.result();
    }

    /**
     * The information pipeline of every link: counters accumulated over a sampling window, the latest sample,
     * the control plane's weighted average of the samples it read, and the announced scores.
     */
    private final class Telemetry {
        private final int links;
        private final double[] winUtil;
        private final double[] winQueue;
        private final double[] winLat;
        private final double[] winLat2;
        private int winSteps;
        private final PathQuality.Factors[] sample;
        private final double[] sampleTime;
        private final double[][] avg;
        private final double[] avgTime;
        /** Announced score of every link. */
        final double[] announced;
        /** Time of the newest sample in the current announcement [s]. */
        double announcedSampleTime;

        Telemetry(int links) {
            this.links = links;
            winUtil = new double[links];
            winQueue = new double[links];
            winLat = new double[links];
            winLat2 = new double[links];
            sample = new PathQuality.Factors[links];
            sampleTime = new double[links];
            avg = new double[links][5];
            avgTime = new double[links];
            announced = new double[links];
        }

        /** The hardware samples every link at {@code t}: the window's means, the queue now; a new window starts. */
        void sample(double t, double[] queue) {
            for (int i = 0; i < links; i++) {
                double ml = winLat[i] / winSteps;
                double var = Math.max(0, winLat2[i] / winSteps - ml * ml);
                sample[i] = new PathQuality.Factors(Math.min(1, winUtil[i] / winSteps), queue[i], winQueue[i] / winSteps, ml,
                        Math.sqrt(var));
                sampleTime[i] = t;
                winUtil[i] = winQueue[i] = winLat[i] = winLat2[i] = 0;
            }
            winSteps = 0;
        }

        /** The control plane reads the latest samples into its weighted averages (nothing before the first sample). */
        void read() {
            if (sample[0] == null) {
                return;
            }
            for (int i = 0; i < links; i++) {
                PathQuality.Factors s = sample[i];
                double[] a = avg[i];
                double[] x = {s.utilisation(), s.queueBytes(), s.meanQueueBytes(), s.latencyS(), s.jitterS()};
                for (int j = 0; j < 5; j++) {
                    a[j] = avgTime[i] == 0 && a[j] == 0 ? x[j] : (1 - ewma) * a[j] + ewma * x[j];
                }
                avgTime[i] = sampleTime[i];
            }
        }

        /** Announces the averages' scores; false (nothing announced) before the first read. */
        boolean announce() {
            if (avgTime[0] <= 0) {
                return false;
            }
            for (int i = 0; i < links; i++) {
                double[] a = avg[i];
                announced[i] = quality.score(new PathQuality.Factors(Math.min(1, a[0]), a[1], a[2], a[3], a[4]));
            }
            announcedSampleTime = avgTime[0];
            return true;
        }

        /** Adds one step of link {@code i} (carried share of capacity, queue, latency) to the window. */
        void accumulate(int i, double utilisation, double queueBytes, double latencyS) {
            winUtil[i] += utilisation;
            winQueue[i] += queueBytes;
            winLat[i] += latencyS;
            winLat2[i] += latencyS * latencyS;
        }

        /** Ends a step of the window. */
        void endStep() {
            winSteps++;
        }
    }

    /** One run: the flows, the links' loads and queues, the telemetry, and the sums its result is made of. */
    private final class Run {
        final long steps;
        private final Policy policy;
        private final SplittableRandom rnd;
        private final int links;
        private final double capBytes;
        private final double demandBytes;
        private final double lambda; // flows / s
        private final long warm;
        private final int sampleEvery;
        private final int readEvery;
        private final int announceEvery;
        private final int every;
        private final double[] queue;
        private final double[] load;
        private final Telemetry telemetry;
        private final List<Flow> flows = new ArrayList<>();
        private double offered;
        private double carried;
        private double dropped;
        private double imbalanceSum;
        private double latencyWeighted;
        private double carriedForLatency;
        private long imbalanceSteps;
        private long decisions;
        private long bestDecisions;
        private double ageSum;
        private final int[][] newFlowsPerSpine;
        private double herdingSum;
        private long herdingCount;
        private final List<Double> times = new ArrayList<>();
        private final List<double[]> series = new ArrayList<>();

        Run(Policy policy, long seed) {
            this.policy = policy;
            this.rnd = new SplittableRandom(seed);
            links = 2 * leaves * spines; // up (l, s) = l * S + s; down (s, l) = L * S + s * L + l
            capBytes = linkGbps * 1e9 / 8;
            demandBytes = flowDemandGbps * 1e9 / 8;
            lambda = offeredLoad * leaves * spines * linkGbps / (meanFlowDurationS * flowDemandGbps);
            steps = Math.round(durationS / stepS);
            warm = steps / 10;
            sampleEvery = (int) Math.max(1, Math.round(sampleS / stepS));
            readEvery = (int) Math.max(1, Math.round(readS / stepS));
            announceEvery = (int) Math.max(1, Math.round(announceS / stepS));
            every = (int) Math.max(1, steps / 2000);
            queue = new double[links];
            load = new double[links];
            telemetry = new Telemetry(links);
            newFlowsPerSpine = new int[leaves * leaves][spines];
        }

        private int up(int leaf, int spine) {
            return leaf * spines + spine;
        }

        private int down(int spine, int leaf) {
            return leaves * spines + spine * leaves + leaf;
        }

        /** Time step {@code k}: telemetry on the state at its start, departures and arrivals, loads, queues, statistics. */
        void step(long k) {
            double t = k * stepS;
            boolean measured = k >= warm;
            if (k > 0 && k % sampleEvery == 0) {
                telemetry.sample(t, queue);
            }
            if (k > 0 && k % readEvery == 0) {
                telemetry.read();
            }
            if (k > 0 && k % announceEvery == 0 && telemetry.announce()) {
                closeHerdingInterval(measured);
            }
            flows.removeIf(f -> f.endS <= t);
            arrive(t);
            offerLoads();
            carry(measured);
            updateQueues(measured);
            telemetry.endStep();
            if (measured) {
                addImbalance();
            }
            if (k % every == 0) {
                recordSpineLoad(t);
            }
        }

        /** Herding of the announcement interval that ends: the largest spine share of each leaf pair's new flows. */
        private void closeHerdingInterval(boolean measured) {
            for (int[] row : newFlowsPerSpine) {
                int n = 0, max = 0;
                for (int c : row) {
                    n += c;
                    max = Math.max(max, c);
                }
                if (n >= spines && measured) {
                    herdingSum += max / (double) n;
                    herdingCount++;
                }
                java.util.Arrays.fill(row, 0);
            }
        }

        /** The step's Poisson arrivals, each between two different random leaves, on the policy's path. */
        private void arrive(double t) {
            int arrivals = poisson(rnd, lambda * stepS);
            for (int a = 0; a < arrivals; a++) {
                int src = rnd.nextInt(leaves);
                int dst = rnd.nextInt(leaves - 1);
                if (dst >= src) {
                    dst++;
                }
                int spine = choosePath(src, dst, t);
                if (spine >= 0) {
                    newFlowsPerSpine[src * leaves + dst][spine]++;
                }
                flows.add(new Flow(src, dst, spine, t + exponential(rnd, meanFlowDurationS)));
            }
        }

        /** The spine of a new flow from {@code src} to {@code dst}, or -1 for containers over every spine. */
        private int choosePath(int src, int dst, double t) {
            return switch (policy) {
                case ECMP -> rnd.nextInt(spines);
                case CONTAINERS -> -1;
                default -> chooseByScore(src, dst, t);
            };
        }

        /** SCORE: among the k best announced up + down scores; counts whether it was among the k best right now. */
        private int chooseByScore(int src, int dst, double t) {
            double[] sc = new double[spines];
            double[] now = new double[spines];
            for (int s = 0; s < spines; s++) {
                int up = up(src, s), down = down(s, dst);
                sc[s] = telemetry.announced[up] + telemetry.announced[down];
                now[s] = instantScore(up, load, queue, capBytes) + instantScore(down, load, queue, capBytes);
            }
            int spine = pickAmongBest(sc, kBest, rnd);
            decisions++;
            ageSum += t - telemetry.announcedSampleTime;
            if (rankOf(now, spine) < kBest) {
                bestDecisions++;
            }
            return spine;
        }

        /** Bytes per second flow {@code f} offers to spine {@code s}'s path: 0 off its path. */
        private double part(Flow f, int s) {
            if (f.spine >= 0) {
                return s == f.spine ? demandBytes : 0;
            }
            return demandBytes / spines;
        }

        /**
         * Uplinks carry the demand; a downlink receives what its uplinks forward (at most their capacity, shared in
         * proportion), so a byte dropped on the uplink is not offered again.
         */
        private void offerLoads() {
            java.util.Arrays.fill(load, 0);
            for (Flow f : flows) {
                if (f.spine >= 0) {
                    load[up(f.src, f.spine)] += demandBytes;
                } else {
                    for (int s = 0; s < spines; s++) {
                        load[up(f.src, s)] += demandBytes / spines;
                    }
                }
            }
            for (Flow f : flows) {
                for (int s = 0; s < spines; s++) {
                    if (f.spine >= 0 && s != f.spine) {
                        continue;
                    }
                    load[down(s, f.dst)] += part(f, s) * share(load[up(f.src, s)], capBytes);
                }
            }
        }

        /** Each flow's delivered rate, its demand times the shares of its links, added to the totals once warm. */
        private void carry(boolean measured) {
            for (Flow f : flows) {
                double rate = 0;
                for (int s = 0; s < spines; s++) {
                    if (f.spine >= 0 && s != f.spine) {
                        continue;
                    }
                    rate += part(f, s) * share(load[up(f.src, s)], capBytes) * share(load[down(s, f.dst)], capBytes);
                }
                if (measured) {
                    offered += demandBytes * stepS;
                    carried += rate * stepS;
                }
            }
        }

        /** Queues grow by (load - capacity) per second up to the buffer (the excess dropped); latency 2 us + queue / C. */
        private void updateQueues(boolean measured) {
            for (int i = 0; i < links; i++) {
                double q = queue[i] + (load[i] - capBytes) * stepS;
                if (q > bufferBytes) {
                    if (measured) {
                        dropped += q - bufferBytes;
                    }
                    q = bufferBytes;
                }
                queue[i] = Math.max(0, q);
                double lat = 2e-6 + queue[i] / capBytes;
                telemetry.accumulate(i, Math.min(load[i], capBytes) / capBytes, queue[i], lat);
                if (measured) {
                    latencyWeighted += lat * Math.min(load[i], capBytes);
                    carriedForLatency += Math.min(load[i], capBytes);
                }
            }
        }

        /** Most loaded over mean uplink of every leaf with traffic. */
        private void addImbalance() {
            for (int l = 0; l < leaves; l++) {
                double max = 0, sum = 0;
                for (int s = 0; s < spines; s++) {
                    max = Math.max(max, load[up(l, s)]);
                    sum += load[up(l, s)];
                }
                if (sum > 0) {
                    imbalanceSum += max / (sum / spines);
                    imbalanceSteps++;
                }
            }
        }

        /** Leaf 0's uplink loads over capacity at {@code t}. */
        private void recordSpineLoad(double t) {
            times.add(t);
            double[] row = new double[spines];
            for (int s = 0; s < spines; s++) {
                row[s] = load[s] / capBytes;
            }
            series.add(row);
        }

        Result result() {
            double[][] spineLoad = new double[spines][series.size()];
            for (int j = 0; j < series.size(); j++) {
                for (int s = 0; s < spines; s++) {
                    spineLoad[s][j] = series.get(j)[s];
                }
            }
            return new Result(policy, offered == 0 ? 1 : carried / offered, offered == 0 ? 0 : dropped / offered,
                    imbalanceSteps == 0 ? 1 : imbalanceSum / imbalanceSteps,
                    carriedForLatency == 0 ? 0 : 1e6 * latencyWeighted / carriedForLatency,
                    decisions == 0 ? OptionalDouble.empty() : OptionalDouble.of(bestDecisions / (double) decisions),
                    herdingCount == 0 ? OptionalDouble.empty() : OptionalDouble.of(herdingSum / herdingCount),
                    decisions == 0 ? 0 : ageSum / decisions,
                    times.stream().mapToDouble(Double::doubleValue).toArray(), spineLoad);
        }
    }

    private double instantScore(int link, double[] load, double[] queue, double capBytes) {
        double lat = 2e-6 + queue[link] / capBytes;
        return quality.score(new PathQuality.Factors(Math.min(1, load[link] / capBytes), queue[link], queue[link], lat, 0));
    }

    private static double share(double load, double cap) {
        return load <= cap ? 1 : cap / load;
    }

    /** Index of a spine chosen uniformly among the k lowest scores (ties broken by index). */
    static int pickAmongBest(double[] scores, int k, SplittableRandom rnd) {
        Integer[] idx = new Integer[scores.length];
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        java.util.Arrays.sort(idx, (a, b) -> {
            int c = Double.compare(scores[a], scores[b]);
            return c != 0 ? c : Integer.compare(a, b);
        });
        return idx[k == 1 ? 0 : rnd.nextInt(k)];
    }

    /** Number of spines with a strictly lower score than {@code s} (0 = among the best). */
    static int rankOf(double[] scores, int s) {
        int r = 0;
        for (double x : scores) {
            if (x < scores[s] - 1e-12) {
                r++;
            }
        }
        return r;
    }

    private static int poisson(SplittableRandom rnd, double mean) {
        double l = Math.exp(-mean);
        int k = 0;
        double p = rnd.nextDouble();
        while (p > l) {
            k++;
            p *= rnd.nextDouble();
        }
        return k;
    }

    private static double exponential(SplittableRandom rnd, double mean) {
        return -mean * Math.log(1 - rnd.nextDouble());
    }
}
