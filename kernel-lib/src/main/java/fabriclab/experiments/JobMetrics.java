package fabriclab.experiments;

import fabriclab.simulation.trace.Counter;
import fabriclab.simulation.trace.Counters;
import fabriclab.Parameters;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.sweep.Columns;
import java.io.Serializable;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;

/**
 * What one packet-level run of concurrent jobs on a leaf-spine measured, the same for every paper
 * experiment: the job completion time (JCT) of each group of hosts, how evenly the leaf uplinks were
 * loaded, ECN, drops, retransmissions, the PFC counters, the transport's own counters by name, and what the
 * transport delivered against what it sent.
 *
 * <p>JCT of a group is the completion time of its last flow; a group with a flow that did not complete within
 * the simulated horizon counts in {@link #unfinishedGroups()} and has no JCT ({@link #meanJctUs()} and
 * {@link #maxJctUs()} then fail).
 * Uplink balance is max over mean of the data packets sent on the leaf-to-spine queues (each member
 * of a bundle counted apart, the links named dead left out), 1 when no packet crossed an uplink.
 *
 * <p>Delivery: {@link #deliveredBytes()} counts each payload byte once, when it first reaches its receiver (the
 * goodput bytes); {@link #sentBytes()} counts every payload byte the NICs (and GSE's resending edges) sent, each
 * retransmitted copy again. {@link #timeouts()}, {@link #spuriousTimeouts()} and {@link #failedQueuePairs()} are the
 * reliable connection's counters of RoCE and CTCC (local ACK timeouts, those that no loss of the flow explains, and
 * queue pairs that exhausted their retries); GSE does not count them (0).
 *
 * @param jctUs completion time of each group [us], finite, not negative; for an unfinished group, the last
 *        completion among its completed flows (0 if none)
 * @param unfinishedGroups groups with a flow that did not complete, 0 to {@code jctUs.length}
 * @param uplinkMaxOverMean max over mean of packets sent on the leaf uplinks, finite, not negative
 * @param ecnMarks packets ECN-marked, not negative
 * @param drops data packets dropped, not negative
 * @param retransmits data packets sent more than once, summed over the flows, not negative
 * @param pfc the PFC counters, not null
 * @param transportCounters the transport's counters (the simulator's {@link SimulationResult#counters()}), not
 *        null; {@link TransportModel#SPURIOUS_TIMEOUTS} not above {@link TransportModel#TIMEOUTS}
 * @param deliveredBytes payload bytes delivered to the receivers, first copies only (the simulator's
 *        {@link SimulationResult#deliveredBytes()}), not negative
 * @param sentBytes payload bytes sent, retransmitted copies counted again (the simulator's
 *        {@link SimulationResult#injectedBytes()}), at least {@code deliveredBytes}
 * @param dropPlaces the data packets dropped, by where ({@link DropPlaces}), not null
 */
public record JobMetrics(double[] jctUs, int unfinishedGroups, double uplinkMaxOverMean, long ecnMarks, long drops, long retransmits,
        PfcCounters pfc, Counters transportCounters, long deliveredBytes, long sentBytes, DropPlaces dropPlaces)
        implements Serializable {
    private static final long serialVersionUID = 4L;

    /** The same metrics with no drop located ({@link DropPlaces#NONE}). */
    public JobMetrics(double[] jctUs, int unfinishedGroups, double uplinkMaxOverMean, long ecnMarks, long drops, long retransmits,
            PfcCounters pfc, Counters transportCounters, long deliveredBytes, long sentBytes) {
        this(jctUs, unfinishedGroups, uplinkMaxOverMean, ecnMarks, drops, retransmits, pfc, transportCounters, deliveredBytes,
                sentBytes, DropPlaces.NONE);
    }

    /**
     * Data packets the fabric dropped on a leaf-spine, by the egress port that dropped them (each copy counted, every
     * reason; {@link SimulationResult#drops()}).
     *
     * @param hostEgress at the hosts' NIC ports, not negative
     * @param leafUplinks at the leaves' ports to the spines, not negative
     * @param spineDownlinks at the spines' ports to the leaves, not negative
     * @param leafDownlinks at the leaves' ports to the hosts, not negative
     * @param unrouted with no route (no port), not negative
     */
    public record DropPlaces(long hostEgress, long leafUplinks, long spineDownlinks, long leafDownlinks, long unrouted)
            implements Serializable {
        private static final long serialVersionUID = 1L;

        /** No drop located. */
        public static final DropPlaces NONE = new DropPlaces(0, 0, 0, 0, 0);

        /** Validates: counts not negative. */
        public DropPlaces {
            Parameters.atLeast("hostEgress", hostEgress, 0L);
            Parameters.atLeast("leafUplinks", leafUplinks, 0L);
            Parameters.atLeast("spineDownlinks", spineDownlinks, 0L);
            Parameters.atLeast("leafDownlinks", leafDownlinks, 0L);
            Parameters.atLeast("unrouted", unrouted, 0L);
        }

        /** Their sum [data packets]. */
        public long total() {
            return hostEgress + leafUplinks + spineDownlinks + leafDownlinks + unrouted;
        }

        /**
         * The data-packet drops of {@code r} by place on {@code ls}: hosts are nodes 0 to hosts - 1, switch i (leaves
         * first, then spines) is node hosts + i, and a leaf port's far end is read from {@code r}'s queue traces.
         */
        static DropPlaces of(SimulationResult r, LeafSpine ls) {
            int hosts = ls.hosts();
            java.util.Map<Long, Integer> peer = new java.util.HashMap<>();
            for (SimulationResult.QueueTrace q : r.queues()) {
                peer.put(((long) q.switchIndex()) << 32 | q.port(), q.peerNode());
            }
            long host = 0;
            long up = 0;
            long spine = 0;
            long down = 0;
            long unrouted = 0;
            for (SimulationResult.DropSite d : r.drops()) {
                long n = d.dataPackets();
                if (d.port() < 0) {
                    unrouted += n;
                } else if (d.node() < hosts) {
                    host += n;
                } else if (d.node() - hosts >= ls.leaves()) {
                    spine += n;
                } else {
                    Integer far = peer.get(((long) (d.node() - hosts)) << 32 | d.port());
                    if (far != null && far >= hosts) {
                        up += n;
                    } else {
                        down += n;
                    }
                }
            }
            return new DropPlaces(host, up, spine, down, unrouted);
        }
    }

    /**
     * PFC over the whole fabric.
     *
     * @param pauses PAUSE frames sent, not negative
     * @param pausedUs time paused summed over ports and priorities [us], finite, not negative
     * @param maxPortPausedUs the largest paused time of one port [us], finite, not negative
     * @param pausedPortShare share of the fabric's ports (host and switch) ever paused, in [0, 1]
     */
    public record PfcCounters(long pauses, double pausedUs, double maxPortPausedUs, double pausedPortShare)
            implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates every field. */
        public PfcCounters {
            Parameters.atLeast("pauses", pauses, 0L);
            Parameters.nonNegative("pausedUs", Parameters.finite("pausedUs", pausedUs));
            Parameters.nonNegative("maxPortPausedUs", Parameters.finite("maxPortPausedUs", maxPortPausedUs));
            Parameters.inRange("pausedPortShare", Parameters.finite("pausedPortShare", pausedPortShare), 0, 1);
        }

        /** The PFC counters of a simulation result. */
        public static PfcCounters of(SimulationResult r) {
            Parameters.notNull("r", r);
            long maxPaused = r.pfc().stream().mapToLong(SimulationResult.PortPfc::pausedPs).max().orElse(0);
            long pausedPorts = r.pfc().stream().filter(p -> p.pausedPs() > 0).count();
            return new PfcCounters(r.pausesSent(), Time.toMicros(r.pausedPs()), Time.toMicros(maxPaused),
                    r.pfc().isEmpty() ? 0 : (double) pausedPorts / r.pfc().size());
        }
    }

    /** Validates every field; copies the array and the map. */
    public JobMetrics {
        Parameters.notNull("jctUs", jctUs);
        if (jctUs.length == 0) {
            throw new IllegalArgumentException("jctUs must hold at least one group, got none");
        }
        for (int g = 0; g < jctUs.length; g++) {
            Parameters.nonNegative("jctUs[" + g + "]", jctUs[g]);
        }
        jctUs = jctUs.clone();
        Parameters.inRange("unfinishedGroups", unfinishedGroups, 0, jctUs.length);
        Parameters.nonNegative("uplinkMaxOverMean", Parameters.finite("uplinkMaxOverMean", uplinkMaxOverMean));
        Parameters.atLeast("ecnMarks", ecnMarks, 0L);
        Parameters.atLeast("drops", drops, 0L);
        Parameters.atLeast("retransmits", retransmits, 0L);
        Parameters.notNull("pfc", pfc);
        Parameters.notNull("transportCounters", transportCounters);
        long timeouts = transportCounters.get(TransportModel.TIMEOUTS);
        long spurious = transportCounters.get(TransportModel.SPURIOUS_TIMEOUTS);
        if (spurious > timeouts) {
            throw new IllegalArgumentException("transportCounters must count at most as many spurious timeouts as timeouts ("
                    + timeouts + "), got " + spurious);
        }
        Parameters.atLeast("deliveredBytes", deliveredBytes, 0L);
        Parameters.atLeast("sentBytes", sentBytes, deliveredBytes);
        Parameters.notNull("dropPlaces", dropPlaces);
    }

    /**
     * What the transport delivered against what it sent, and its reliable-connection counters, as one value for a
     * dataset row (see {@link DeliveryCounters}).
     *
     * <p>Goodput: {@code goodputGbps = 8 x deliveredBytes / lastCompletion} [Gb/s], where {@code lastCompletion} is the
     * run's last flow completion measured from time 0 (the largest group JCT, {@link #maxJctUs()}): the mean rate
     * at which the whole fabric handed new payload to the receivers while the jobs ran (summed over every flow, not
     * per NIC); 0 if the last completion is at time 0.
     *
     * @param deliveredBytes payload bytes delivered, first copies only [bytes], not negative
     * @param sentBytes payload bytes sent, retransmitted copies counted again [bytes], at least {@code deliveredBytes}
     * @param goodputGbps 8 x deliveredBytes / the run's last completion [Gb/s], finite, not negative
     * @param timeouts local ACK timeouts of the reliable connection ({@link TransportModel#TIMEOUTS}), not negative
     * @param spuriousTimeouts the timeouts that no loss of their flow explains ({@link TransportModel#SPURIOUS_TIMEOUTS}), 0 to
     *        {@code timeouts}
     * @param failedQueuePairs queue pairs that exhausted their retries ({@link TransportModel#FAILED_QPS}), not negative
     */
    public record DeliveryCounters(long deliveredBytes, long sentBytes, double goodputGbps, long timeouts, long spuriousTimeouts,
            long failedQueuePairs) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates every field. */
        public DeliveryCounters {
            Parameters.atLeast("deliveredBytes", deliveredBytes, 0L);
            Parameters.atLeast("sentBytes", sentBytes, deliveredBytes);
            Parameters.nonNegative("goodputGbps", Parameters.finite("goodputGbps", goodputGbps));
            Parameters.atLeast("timeouts", timeouts, 0L);
            Parameters.inRange("spuriousTimeouts", spuriousTimeouts, 0L, timeouts);
            Parameters.atLeast("failedQueuePairs", failedQueuePairs, 0L);
        }

        /**
         * Payload bytes sent beyond one delivered copy of each byte, {@code sentBytes - deliveredBytes} [bytes]: on a
         * run where every flow completed, the bytes of the retransmitted copies (go-back-N resends, GSE's resent
         * containers).
         */
        public long retransmittedBytes() {
            return sentBytes - deliveredBytes;
        }

        /**
         * {@code columns} followed by the delivery columns of a dataset row: {@code goodput_gbps} [Gb/s],
         * {@code delivered_bytes}, {@code sent_bytes}, {@code retransmitted_bytes} [bytes], then, unless
         * {@code hasTimeouts} says the table already has its {@code timeouts} column, {@code timeouts}, and
         * {@code spurious_timeouts}, {@code failed_qps}.
         */
        static <R> Columns<R> appendTo(Columns<R> columns, Function<? super R, DeliveryCounters> of, boolean hasTimeouts) {
            return appendTo(columns, of, hasTimeouts, "");
        }

        /** {@link #appendTo(Columns, Function, boolean)} with {@code scope} (what the counts cover) ending every unit. */
        static <R> Columns<R> appendTo(Columns<R> columns, Function<? super R, DeliveryCounters> of, boolean hasTimeouts,
                String scope) {
            Columns<R> c = columns
                    .doubleColumn("goodput_gbps", "Gb/s (8 x delivered bytes / last completion, all flows)" + scope,
                            r -> of.apply(r).goodputGbps())
                    .longColumn("delivered_bytes", "bytes (payload, first copies)" + scope, r -> of.apply(r).deliveredBytes())
                    .longColumn("sent_bytes", "bytes (payload, retransmissions included)" + scope, r -> of.apply(r).sentBytes())
                    .longColumn("retransmitted_bytes", "bytes (sent - delivered)" + scope, r -> of.apply(r).retransmittedBytes());
            if (!hasTimeouts) {
                c = c.longColumn("timeouts", "timeouts" + scope, r -> of.apply(r).timeouts());
            }
            return c.longColumn("spurious_timeouts", "timeouts" + scope, r -> of.apply(r).spuriousTimeouts())
                    .longColumn("failed_qps", "queue pairs" + scope, r -> of.apply(r).failedQueuePairs());
        }

        /** No packet-level run: every count and the goodput 0. */
        static final DeliveryCounters NONE = new DeliveryCounters(0, 0, 0, 0, 0, 0);

        /**
         * The runs taken together, one after the other: bytes and counters summed, goodput
         * {@code 8 x sum of delivered bytes / sum of the runs' last completions} [Gb/s]; {@link #NONE} without runs.
         *
         * @throws IllegalStateException if a run has a group that did not finish
         */
        static DeliveryCounters sum(Iterable<JobMetrics> runs) {
            long delivered = 0;
            long sent = 0;
            double us = 0;
            long timeouts = 0;
            long spurious = 0;
            long failed = 0;
            for (JobMetrics m : runs) {
                delivered += m.deliveredBytes();
                sent += m.sentBytes();
                us += m.maxJctUs();
                timeouts += m.timeouts();
                spurious += m.spuriousTimeouts();
                failed += m.failedQueuePairs();
            }
            return new DeliveryCounters(delivered, sent, us == 0 ? 0 : 8.0 * delivered / (us * 1e3), timeouts, spurious, failed);
        }
    }

    /** Completion time of each group [us] (a copy). */
    @Override
    public double[] jctUs() {
        return jctUs.clone();
    }

    /** Number of groups. */
    public int groups() {
        return jctUs.length;
    }

    /** Whether every group's last flow completed. */
    public boolean allFinished() {
        return unfinishedGroups == 0;
    }

    /**
     * Mean JCT over the groups [us].
     *
     * @throws IllegalStateException if a group did not finish
     */
    public double meanJctUs() {
        return Arrays.stream(finishedJctUs()).average().orElseThrow();
    }

    /**
     * The slowest group's JCT [us].
     *
     * @throws IllegalStateException if a group did not finish
     */
    public double maxJctUs() {
        return Arrays.stream(finishedJctUs()).max().orElseThrow();
    }

    private double[] finishedJctUs() {
        if (unfinishedGroups > 0) {
            throw new IllegalStateException(unfinishedGroups + " of " + jctUs.length
                    + " groups did not finish within the simulated horizon: no JCT to report");
        }
        return jctUs;
    }

    /** Local ACK timeouts of the reliable connection ({@link TransportModel#TIMEOUTS}; 0 for GSE). */
    public long timeouts() {
        return counter(TransportModel.TIMEOUTS);
    }

    /** Timeouts that no loss of their flow explains ({@link TransportModel#SPURIOUS_TIMEOUTS}), at most {@link #timeouts()}. */
    public long spuriousTimeouts() {
        return counter(TransportModel.SPURIOUS_TIMEOUTS);
    }

    /** Queue pairs that exhausted their retries and failed ({@link TransportModel#FAILED_QPS}). */
    public long failedQueuePairs() {
        return counter(TransportModel.FAILED_QPS);
    }

    /**
     * Goodput of the whole run: {@code 8 x deliveredBytes / lastCompletion} [Gb/s], where {@code lastCompletion} is
     * {@link #maxJctUs()}, the last flow completion measured from time 0; the sum over every flow of the payload first
     * delivered, divided by the time the jobs took. 0 if the last completion is at time 0.
     *
     * @throws IllegalStateException if a group did not finish (no last completion)
     */
    public double goodputGbps() {
        double us = maxJctUs();
        return us == 0 ? 0 : 8.0 * deliveredBytes / (us * 1e3);
    }

    /**
     * {@link #deliveredBytes()}, {@link #sentBytes()}, {@link #goodputGbps()} and the reliable connection's counters.
     *
     * @throws IllegalStateException if a group did not finish (no goodput)
     */
    public DeliveryCounters delivery() {
        return new DeliveryCounters(deliveredBytes, sentBytes, goodputGbps(), timeouts(), spuriousTimeouts(), failedQueuePairs());
    }

    /** The value of {@code counter} in the run, 0 when the transport does not count it. */
    public long counter(Counter counter) {
        return transportCounters.get(counter);
    }

    /** Equal when every field is (the JCTs element by element). */
    @Override
    public boolean equals(Object o) {
        return o instanceof JobMetrics m && Arrays.equals(jctUs, m.jctUs) && unfinishedGroups == m.unfinishedGroups
                && uplinkMaxOverMean == m.uplinkMaxOverMean
                && ecnMarks == m.ecnMarks && drops == m.drops && retransmits == m.retransmits && pfc.equals(m.pfc)
                && transportCounters.equals(m.transportCounters) && deliveredBytes == m.deliveredBytes
                && sentBytes == m.sentBytes && dropPlaces.equals(m.dropPlaces);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(jctUs) + java.util.Objects.hash(unfinishedGroups, uplinkMaxOverMean, ecnMarks, drops, retransmits, pfc,
                transportCounters, deliveredBytes, sentBytes, dropPlaces);
    }

    @Override
    public String toString() {
        return "JobMetrics[jctUs=" + Arrays.toString(jctUs) + ", unfinishedGroups=" + unfinishedGroups + ", uplinkMaxOverMean=" + uplinkMaxOverMean + ", ecnMarks="
                + ecnMarks + ", drops=" + drops + ", retransmits=" + retransmits + ", pfc=" + pfc + ", transportCounters="
                + transportCounters + ", deliveredBytes=" + deliveredBytes + ", sentBytes=" + sentBytes + ", dropPlaces=" + dropPlaces + "]";
    }

    /**
     * The metrics of a run of concurrent jobs on a leaf-spine.
     *
     * @param r the simulation result, not null
     * @param leafSpine the leaf-spine simulated, not null
     * @param topology the topology built from it ({@code leafSpine.build()}), not null
     * @param groupOfFlow group of each flow, indexed by flow id (one entry per flow), each in [0, groups)
     * @param groups number of groups, 1 to the number of flows
     * @param deadLinks link indices (into {@code topology.links()}) left out of the uplink balance
     */
    public static JobMetrics of(SimulationResult r, LeafSpine leafSpine, Topology topology, int[] groupOfFlow, int groups,
            int[] deadLinks) {
        Parameters.notNull("r", r);
        Parameters.notNull("leafSpine", leafSpine);
        Parameters.notNull("topology", topology);
        Parameters.notNull("groupOfFlow", groupOfFlow);
        if (groupOfFlow.length != r.flows().size()) {
            throw new IllegalArgumentException("groupOfFlow must have one entry per flow (" + r.flows().size() + "), got "
                    + groupOfFlow.length);
        }
        Parameters.inRange("groups", groups, 1, Math.max(1, groupOfFlow.length));
        Parameters.notNull("deadLinks", deadLinks);
        for (int i = 0; i < deadLinks.length; i++) {
            Parameters.inRange("deadLinks[" + i + "]", deadLinks[i], 0, topology.links().size() - 1);
        }
        double[] jct = new double[groups];
        boolean[] unfinished = new boolean[groups];
        long retransmits = 0;
        for (SimulationResult.FlowRecord f : r.flows()) {
            long done = r.completedAtPs(f.id());
            int g = Parameters.inRange("groupOfFlow[" + f.id() + "]", groupOfFlow[f.id()], 0, groups - 1);
            if (done < 0) {
                unfinished[g] = true;
            } else {
                jct[g] = Math.max(jct[g], Time.toMicros(done));
            }
            retransmits += f.retransmittedPackets();
        }
        int unfinishedGroups = 0;
        for (boolean u : unfinished) {
            unfinishedGroups += u ? 1 : 0;
        }
        return new JobMetrics(jct, unfinishedGroups, uplinkMaxOverMean(r, leafSpine, topology, deadLinks), r.ecnMarks(), r.droppedPackets(),
                retransmits, PfcCounters.of(r), r.counters(), r.deliveredBytes(), r.injectedBytes(), DropPlaces.of(r, leafSpine));
    }

    /** Max over mean of packets sent on the leaf-to-spine queues other than those of {@code deadLinks}; 1 without traffic. */
    static double uplinkMaxOverMean(SimulationResult r, LeafSpine ls, Topology topology, int[] deadLinks) {
        int hosts = ls.hosts();
        Set<Long> dead = new HashSet<>(); // (leaf switch index, spine node) of each dead uplink
        for (int link : deadLinks) {
            LinkSpec l = topology.links().get(link);
            int leaf = Math.min(l.nodeA(), l.nodeB());
            dead.add(((long) (leaf - hosts)) << 32 | Math.max(l.nodeA(), l.nodeB()));
        }
        long[] up = r.queues().stream().filter(q -> q.switchIndex() < ls.leaves() && q.peerNode() >= hosts + ls.leaves()
                        && !dead.contains(((long) q.switchIndex()) << 32 | q.peerNode()))
                .mapToLong(SimulationResult.QueueTrace::txPackets).toArray();
        double mean = Arrays.stream(up).average().orElse(1);
        double max = Arrays.stream(up).max().orElse(1);
        return mean == 0 ? 1 : max / mean;
    }
}
