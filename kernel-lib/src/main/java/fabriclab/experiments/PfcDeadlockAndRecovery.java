package fabriclab.experiments;

import fabriclab.simulation.Simulator;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.PfcWatchdog;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.Parameters;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcHeadroom;
import fabriclab.fabric.Tier;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.flowcontrol.DeadlockTopologies;
import fabriclab.flowcontrol.RoutedFlow;
import fabriclab.progress.Progress;
import java.util.ArrayList;
import java.util.List;

/**
 * The PFC deadlock of seed 003 (section 4.1.4, figures 18 to 21) at packet level, on the same
 * {@link Topology} and {@link RoutedFlow}s the buffer dependency analysis
 * ({@link fabriclab.flowcontrol.BufferDependencyGraph}) takes: by default
 * {@link DeadlockTopologies#huaweiWhitePaperClos} (4 leaves, 2 spines, links leaf3-spine1 and leaf4-spine2 failed)
 * and the four flows of figure 19 ({@link #figure19Flows}):
 * <ul>
 *   <li>A: leaf1, spine1, leaf2, spine2, leaf3 (bounced through leaf2);</li>
 *   <li>B: leaf2, spine2, leaf1, spine1, leaf4 (bounced through leaf1);</li>
 *   <li>C: leaf1, spine2, leaf3;</li>
 *   <li>D: leaf4, spine1, leaf2.</li>
 * </ul>
 * Each flow runs from the first host under its first leaf to the first host under its last leaf
 * (so A and C share a NIC), on its priority, pinned to its route ({@link Scenario.Route}). A and B
 * both cross leaf1 to spine1 and leaf2 to spine2, so those links are offered twice their rate; their
 * ingress queues (spine1 from leaf1, leaf2 from spine1, spine2 from leaf2, leaf1 from spine2) form
 * the cycle leaf1-spine1-leaf2-spine2 of figure 19. Three runs of the same flows:
 * <ol>
 *   <li>PFC only: once every queue of the cycle is paused by the next, nothing moves again;</li>
 *   <li>PFC with the deadlock watchdog of 003 section 4.1.3 ({@link PfcWatchdog}): the paused queues
 *       are declared deadlocked and ignore PFC during recovery, which breaks the cycle at the cost
 *       of drops (the flows have no retransmission, so a dropped packet is lost);</li>
 *   <li>PFC with hook flows re-prioritised (figures 20 and 21, {@link Scenario.Builder#hookPriority}):
 *       a leaf moves packets that bounce through it to {@link #HOOK_PRIORITY}, so the cycle never
 *       closes.</li>
 * </ol>
 * The settings the paper does not give are this experiment's parameters: flow size, switch buffer,
 * XOFF/XON, and the watchdog's periods (microseconds here, to keep runs short; products use tens of
 * milliseconds, which changes the time scale, not the mechanism).
 *
 * @param topology the fabric (a leaf-spine whose nodes are named "leaf1".., "spine1"..; hosts have one link)
 * @param flows the flows with their routes (node names, first and last a leaf) and priorities
 * @param flowBytes payload of each flow [bytes], at least 1
 * @param bufferBytes shared buffer of each switch [bytes]
 * @param pfc PFC thresholds (headroom included) on every switch
 * @param watchdog the watchdog of the second run
 * @param timeLimitPs simulated time of each run [ps], positive
 */
public record PfcDeadlockAndRecovery(Topology topology, List<RoutedFlow> flows, long flowBytes, long bufferBytes, Pfc pfc,
        PfcWatchdog watchdog, long timeLimitPs) {
    /** Priority a leaf moves bouncing packets to (003 figures 20 and 21). */
    public static final int HOOK_PRIORITY = 5;

    /** Validates and copies. */
    public PfcDeadlockAndRecovery {
        Parameters.notNull("topology", topology);
        flows = List.copyOf(Parameters.noNullElements("flows", flows));
        Parameters.atLeast("flows.size()", flows.size(), 1);
        for (RoutedFlow f : flows) {
            Parameters.inRange("flows[].priority", f.priority(), 0, 7);
            for (String node : f.route()) {
                if (!topology.hasNode(node) || topology.tier(node) == Tier.HOST) {
                    throw new IllegalArgumentException("flows[" + f.name() + "].route must name switches of the topology, got '"
                            + node + "'");
                }
            }
        }
        Parameters.atLeast("flowBytes", flowBytes, 1L);
        Parameters.notNull("pfc", pfc);
        Parameters.notNull("watchdog", watchdog);
        Parameters.atLeast("timeLimitPs", timeLimitPs, 1L);
        Parameters.atLeast("bufferBytes", bufferBytes, 1L);
        if (pfc.headroomBytes() > bufferBytes - pfc.xoffBytes()) { // (xoff + headroom may overflow a long)
            throw new IllegalArgumentException("bufferBytes must hold pfc.xoffBytes + pfc.headroomBytes = "
                    + ((double) pfc.xoffBytes() + pfc.headroomBytes()) + ", got " + bufferBytes);
        }
    }

    /** The four flows of 003 figure 19 on priority 3 (RoCE's usual lossless priority). */
    public static List<RoutedFlow> figure19Flows() {
        return List.of(
                new RoutedFlow("A (leaf1->leaf3, bounced)", List.of("leaf1", "spine1", "leaf2", "spine2", "leaf3"), 3),
                new RoutedFlow("B (leaf2->leaf4, bounced)", List.of("leaf2", "spine2", "leaf1", "spine1", "leaf4"), 3),
                new RoutedFlow("C (leaf1->leaf3)", List.of("leaf1", "spine2", "leaf3"), 3),
                new RoutedFlow("D (leaf4->leaf2)", List.of("leaf4", "spine1", "leaf2"), 3));
    }

    /**
     * The experiment on {@code topology} and {@code flows} with 4 MB flows, 1 MB switch buffers,
     * XOFF 20 KB / XON 10 KB with the packet-level headroom ({@link PfcHeadroom#packetLevelBytes})
     * of the topology's first link, a watchdog with 20 us detection and 20 us recovery (3 per 1 ms
     * disable PFC), 2 ms per run.
     */
    public static PfcDeadlockAndRecovery of(Topology topology, List<RoutedFlow> flows) {
        Parameters.notNull("topology", topology);
        LinkSpec l = topology.links().get(0);
        long headroom = PfcHeadroom.packetLevelBytes(l.rateBitsPerSecond(), l.propagationPs(), 1000);
        return new PfcDeadlockAndRecovery(topology, flows, 4_000_000, 1_000_000,
                new Pfc(20_000, 10_000, headroom, Pfc.MAX_QUANTA), new PfcWatchdog(20 * Time.US, 20 * Time.US, Time.MS, 3),
                2 * Time.MS);
    }

    /** {@link #of} on {@link DeadlockTopologies#huaweiWhitePaperClos} with one 100 Gb/s host per leaf and 1 us links, and {@link #figure19Flows}. */
    public static PfcDeadlockAndRecovery defaults() {
        return of(DeadlockTopologies.huaweiWhitePaperClos(1, 100_000_000_000L, Time.US), figure19Flows());
    }

    /** The three variants of the run. */
    public enum Variant {
        /** PFC only. */
        PFC,
        /** PFC and the deadlock watchdog. */
        WATCHDOG,
        /** PFC and hook flows re-prioritised at the leaf they bounce through. */
        HOOK_PRIORITY
    }

    /** The first host attached to switch {@code name}. */
    private int firstHostOf(String name) {
        int sw = topology.nodeIndex(name);
        for (LinkSpec l : topology.links()) {
            if (l.nodeB() == sw && l.nodeA() < topology.hosts()) {
                return l.nodeA();
            }
            if (l.nodeA() == sw && l.nodeB() < topology.hosts()) {
                return l.nodeB();
            }
        }
        throw new IllegalArgumentException("topology has no host under " + name);
    }

    /** The scenario of one variant. */
    public Scenario scenario(Variant variant) {
        Parameters.notNull("variant", variant);
        SimulationConfig config = SimulationConfig.builder().priorities(8).buffer(SwitchBuffer.shared(bufferBytes))
                .sampling(Time.US, (int) Math.min(100_000, timeLimitPs / Time.US + 1)).build();
        Scenario.Builder b = Scenario.builder(topology, config).name("003 deadlock, " + variant).pfc(pfc);
        for (int i = 0; i < flows.size(); i++) {
            RoutedFlow f = flows.get(i);
            List<String> route = f.route();
            int src = firstHostOf(route.get(0));
            int dst = firstHostOf(route.get(route.size() - 1));
            b.flow(new FlowSpec(src, dst, flowBytes, 0, f.priority(), 50_001 + i));
            b.route(i, route.stream().mapToInt(topology::nodeIndex).toArray());
        }
        if (variant == Variant.WATCHDOG) {
            b.pfcWatchdog(watchdog);
        } else if (variant == Variant.HOOK_PRIORITY) {
            b.hookPriority(HOOK_PRIORITY);
        }
        return b.build();
    }

    /**
     * What one variant did.
     *
     * @param variant the variant, not null
     * @param result the simulator's result, not null
     * @param deliveredBytes payload delivered per flow (flow order) [bytes], not null
     * @param completed flows that completed
     * @param lastDeliveryPs time of the last delivery of any flow [ps] (the deadlock's onset when nothing completes)
     * @param pausesSent PAUSE frames sent in the fabric, refreshes included
     * @param deadlocks deadlocks the watchdogs declared
     * @param droppedPackets packets dropped
     * @param cycleQueueBytes (not null, no null element) occupancy samples (every 1 us) of the four egress queues on the cycle:
     *        leaf1 to spine1, spine1 to leaf2, leaf2 to spine2, spine2 to leaf1 [bytes]
     */
    public record Result(Variant variant, SimulationResult result, long[] deliveredBytes, int completed, long lastDeliveryPs,
            long pausesSent, long deadlocks, long droppedPackets, List<long[]> cycleQueueBytes) {
        /** Validates: variant, result, deliveredBytes and cycleQueueBytes present, no null sample series. */
        public Result {
            Parameters.notNull("variant", variant);
            Parameters.notNull("result", result);
            Parameters.notNull("deliveredBytes", deliveredBytes);
            Parameters.noNullElements("cycleQueueBytes", cycleQueueBytes);
        }
    }

    /** Runs one variant. */
    public Result run(Variant variant) {
        Scenario s = scenario(variant);
        SimulationResult r = new Simulator(s).run(timeLimitPs, Progress.silent());
        String[][] cycle = {{"leaf1", "spine1"}, {"spine1", "leaf2"}, {"leaf2", "spine2"}, {"spine2", "leaf1"}};
        List<long[]> queues = new ArrayList<>();
        for (String[] c : cycle) {
            int from = topology.nodeIndex(c[0]) - topology.hosts();
            int to = topology.nodeIndex(c[1]);
            queues.add(r.queues().stream().filter(q -> q.switchIndex() == from && q.peerNode() == to).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("topology has no link " + c[0] + "-" + c[1]))
                    .occupancyBytes());
        }
        long[] delivered = r.flows().stream().mapToLong(SimulationResult.FlowRecord::deliveredBytes).toArray();
        int completed = (int) r.flows().stream().filter(SimulationResult.FlowRecord::completed).count();
        return new Result(variant, r, delivered, completed, r.lastDeliveryPs(), r.pausesSent(), r.deadlocks(),
                r.droppedPackets(), List.copyOf(queues));
    }
}
