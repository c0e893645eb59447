package fabriclab.experiments;

import fabriclab.simulation.trace.Counter;
import fabriclab.Parameters;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.simulation.SimulationResult;
import java.io.Serializable;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * What one packet-level run of concurrent jobs on a leaf-spine measured, the same for every paper
 * experiment: the job completion time (JCT) of each group of hosts, how evenly the leaf uplinks were
 * loaded, ECN, drops, retransmissions, the PFC counters, and the transport's own counters by name.
 *
 * <p>JCT of a group is the completion time of its last flow; a group with a flow that did not complete within
 * the simulated horizon counts in {@link #unfinishedGroups()} and has no JCT ({@link #meanJctUs()} and
 * {@link #maxJctUs()} then fail).
 * Uplink balance is max over mean of the data packets sent on the leaf-to-spine queues (each member
 * of a bundle counted apart, the links named dead left out), 1 when no packet crossed an uplink.
 *
 * @param jctUs completion time of each group [us], finite, not negative; for an unfinished group, the last
 *        completion among its completed flows (0 if none)
 * @param unfinishedGroups groups with a flow that did not complete, 0 to {@code jctUs.length}
 * @param uplinkMaxOverMean max over mean of packets sent on the leaf uplinks, finite, not negative
 * @param ecnMarks packets ECN-marked, not negative
 * @param drops data packets dropped, not negative
 * @param retransmits data packets sent more than once, summed over the flows, not negative
 * @param pfc the PFC counters, not null
 * @param transportCounters the transport's counters by name (the simulator's {@link SimulationResult#counters()}), not null
 */
public record JobMetrics(double[] jctUs, int unfinishedGroups, double uplinkMaxOverMean, long ecnMarks, long drops, long retransmits,
        PfcCounters pfc, Map<String, Long> transportCounters) implements Serializable {
    private static final long serialVersionUID = 1L;

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
        transportCounters = Map.copyOf(Parameters.notNull("transportCounters", transportCounters));
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

    /** The value of {@code counter} in the run, 0 when the transport does not count it. */
    public long counter(Counter counter) {
        return transportCounters.getOrDefault(Parameters.notNull("counter", counter).name(), 0L);
    }

    /** Equal when every field is (the JCTs element by element). */
    @Override
    public boolean equals(Object o) {
        return o instanceof JobMetrics m && Arrays.equals(jctUs, m.jctUs) && unfinishedGroups == m.unfinishedGroups
                && uplinkMaxOverMean == m.uplinkMaxOverMean
                && ecnMarks == m.ecnMarks && drops == m.drops && retransmits == m.retransmits && pfc.equals(m.pfc)
                && transportCounters.equals(m.transportCounters);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(jctUs) + java.util.Objects.hash(unfinishedGroups, uplinkMaxOverMean, ecnMarks, drops, retransmits, pfc,
                transportCounters);
    }

    @Override
    public String toString() {
        return "JobMetrics[jctUs=" + Arrays.toString(jctUs) + ", unfinishedGroups=" + unfinishedGroups + ", uplinkMaxOverMean=" + uplinkMaxOverMean + ", ecnMarks="
                + ecnMarks + ", drops=" + drops + ", retransmits=" + retransmits + ", pfc=" + pfc + ", transportCounters="
                + transportCounters + "]";
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
                retransmits, PfcCounters.of(r), r.counters());
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
