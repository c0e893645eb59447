package fabriclab.simulation;

import fabriclab.Parameters;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcHeadroom;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * The PFC deadlock of seed 003 (section 4.1.4, figures 18 to 21) at packet level. A leaf-spine
 * with 4 leaves and 2 spines, one host per leaf, 100 Gb/s links; links leaf3-spine1 and
 * leaf4-spine2 have failed. Four flows on priority 3, pinned to the paths of 003's figure 19:
 * <ul>
 *   <li>A: host 1 to host 3, bounced: leaf1, spine1, leaf2, spine2, leaf3;</li>
 *   <li>B: host 2 to host 4, bounced: leaf2, spine2, leaf1, spine1, leaf4;</li>
 *   <li>C: host 1 to host 3: leaf1, spine2, leaf3;</li>
 *   <li>D: host 4 to host 2: leaf4, spine1, leaf2.</li>
 * </ul>
 * A and B both cross leaf1 to spine1 and leaf2 to spine2, so those links are offered twice their
 * rate; their ingress queues (spine1 from leaf1, leaf2 from spine1, spine2 from leaf2, leaf1 from
 * spine2) form the cycle leaf1-spine1-leaf2-spine2 of figure 19. Three runs of the same flows:
 * <ol>
 *   <li>PFC only: once every queue of the cycle is paused by the next, nothing moves again;</li>
 *   <li>PFC with the deadlock watchdog of 003 section 4.1.3 ({@link PfcWatchdog}): the paused queues
 *       are declared deadlocked and ignore PFC during recovery, which breaks the cycle at the cost
 *       of drops (the flows have no retransmission, so a dropped packet is lost);</li>
 *   <li>PFC with hook flows re-prioritised (figures 20 and 21, {@link Scenario.Builder#hookPriority}):
 *       a leaf moves packets that bounce through it to priority 5, so the cycle never closes.</li>
 * </ol>
 * The settings the paper does not give are this experiment's parameters: flow size, switch buffer,
 * XOFF/XON, and the watchdog's periods (microseconds here, to keep runs short; products use tens of
 * milliseconds, which changes the time scale, not the mechanism).
 *
 * @param flowBytes payload of each of the four flows [bytes], at least 1
 * @param bufferBytes shared buffer of each switch [bytes]
 * @param pfc PFC thresholds (headroom included) on every switch
 * @param watchdog the watchdog of the second run
 * @param timeLimitPs simulated time of each run [ps], positive
 */
public record Deadlock003Experiment(long flowBytes, long bufferBytes, Pfc pfc, PfcWatchdog watchdog, long timeLimitPs) {
    /** Priority of the four flows (003's example uses a lossless priority; 3 is RoCE's usual one). */
    public static final int PRIORITY = 3;
    /** Priority a leaf moves bouncing packets to. */
    public static final int HOOK_PRIORITY = 5;
    /** Flow names, in flow order. */
    public static final List<String> FLOWS = List.of("A (leaf1->leaf3, bounced)", "B (leaf2->leaf4, bounced)",
            "C (leaf1->leaf3)", "D (leaf4->leaf2)");

    /** Validates. */
    public Deadlock003Experiment {
        Parameters.atLeast("flowBytes", flowBytes, 1L);
        Parameters.notNull("pfc", pfc);
        Parameters.notNull("watchdog", watchdog);
        Parameters.atLeast("timeLimitPs", timeLimitPs, 1L);
        if (pfc.xoffBytes() + pfc.headroomBytes() > bufferBytes) {
            throw new IllegalArgumentException("bufferBytes must hold pfc.xoffBytes + pfc.headroomBytes = "
                    + (pfc.xoffBytes() + pfc.headroomBytes()) + ", got " + bufferBytes);
        }
    }

    /**
     * 4 MB flows, 1 MB switch buffers, XOFF 20 KB / XON 10 KB with the packet-level headroom of a
     * 100 Gb/s link with 1 us propagation, a watchdog with 20 us detection and 20 us recovery (3 per
     * 1 ms disable PFC), 2 ms per run.
     */
    public static Deadlock003Experiment defaults() {
        long headroom = PfcHeadroom.packetLevelBytes(G100, Time.US, 1000);
        return new Deadlock003Experiment(4_000_000, 1_000_000, new Pfc(20_000, 10_000, headroom, Pfc.MAX_QUANTA),
                new PfcWatchdog(20 * Time.US, 20 * Time.US, Time.MS, 3), 2 * Time.MS);
    }

    private static final long G100 = 100_000_000_000L;

    /** The fabric: 4 leaves, 2 spines, one 100G host per leaf, 1 us links. */
    public static LeafSpine fabric() {
        return LeafSpine.builder().servers(4).leaves(4).spines(2).hostRateBps(G100).uplinkRateBps(G100).build();
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

    /** The scenario of one variant. */
    public Scenario scenario(Variant variant) {
        Parameters.notNull("variant", variant);
        LeafSpine ls = fabric();
        Topology t = ls.build();
        int leaf1 = t.switchNode(ls.leafSwitch(0));
        int leaf2 = t.switchNode(ls.leafSwitch(1));
        int leaf3 = t.switchNode(ls.leafSwitch(2));
        int leaf4 = t.switchNode(ls.leafSwitch(3));
        int spine1 = t.switchNode(ls.spineSwitch(0));
        int spine2 = t.switchNode(ls.spineSwitch(1));
        SimulationConfig config = SimulationConfig.builder().priorities(8).buffer(SwitchBuffer.shared(bufferBytes))
                .sampling(Time.US, (int) Math.min(100_000, timeLimitPs / Time.US + 1)).build();
        Scenario.Builder b = Scenario.builder(t, config).name("003 deadlock, " + variant)
                .flow(new FlowSpec(0, 2, flowBytes, 0, PRIORITY, 50_001))
                .flow(new FlowSpec(1, 3, flowBytes, 0, PRIORITY, 50_002))
                .flow(new FlowSpec(0, 2, flowBytes, 0, PRIORITY, 50_003))
                .flow(new FlowSpec(3, 1, flowBytes, 0, PRIORITY, 50_004))
                .route(0, leaf1, spine1, leaf2, spine2, leaf3)
                .route(1, leaf2, spine2, leaf1, spine1, leaf4)
                .route(2, leaf1, spine2, leaf3)
                .route(3, leaf4, spine1, leaf2)
                .failLink(ls.uplinkIndex(2, 0, 0), 0)
                .failLink(ls.uplinkIndex(3, 1, 0), 0)
                .pfc(pfc);
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
     * @param variant the variant
     * @param result the simulator's result
     * @param deliveredBytes payload delivered per flow (flow order) [bytes]
     * @param completed flows that completed
     * @param lastDeliveryPs time of the last delivery of any flow [ps] (the deadlock's onset when nothing completes)
     * @param pausesSent PAUSE frames sent in the fabric, refreshes included
     * @param deadlocks deadlocks the watchdogs declared
     * @param droppedPackets packets dropped
     * @param cycleQueueBytes occupancy samples (every 1 us) of the four egress queues on the cycle:
     *        leaf1 to spine1, spine1 to leaf2, leaf2 to spine2, spine2 to leaf1 [bytes]
     */
    public record Result(Variant variant, SimulationResult result, long[] deliveredBytes, int completed, long lastDeliveryPs,
            long pausesSent, long deadlocks, long droppedPackets, List<long[]> cycleQueueBytes) {
    }

    /** Runs one variant. */
    public Result run(Variant variant) {
        Scenario s = scenario(variant);
        SimulationResult r = s.simulator().run(timeLimitPs, fabriclab.progress.Progress.silent());
        LeafSpine ls = fabric();
        int hosts = ls.hosts();
        int[][] cycle = { // (switch index, peer node) of the four egress queues on the cycle
            {ls.leafSwitch(0), hosts + ls.spineSwitch(0)}, {ls.spineSwitch(0), hosts + ls.leafSwitch(1)},
            {ls.leafSwitch(1), hosts + ls.spineSwitch(1)}, {ls.spineSwitch(1), hosts + ls.leafSwitch(0)}};
        List<long[]> queues = new ArrayList<>();
        for (int[] c : cycle) {
            queues.add(r.queues().stream().filter(q -> q.switchIndex() == c[0] && q.peerNode() == c[1]).findFirst()
                    .orElseThrow().occupancyBytes());
        }
        long[] delivered = r.flows().stream().mapToLong(SimulationResult.FlowRecord::deliveredBytes).toArray();
        int completed = (int) r.flows().stream().filter(SimulationResult.FlowRecord::completed).count();
        return new Result(variant, r, delivered, completed, r.lastDeliveryPs(), r.pausesSent(), r.deadlocks(),
                r.droppedPackets(), List.copyOf(queues));
    }
}
