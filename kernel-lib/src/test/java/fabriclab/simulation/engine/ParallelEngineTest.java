package fabriclab.simulation.engine;

import fabriclab.simulation.TieOrder;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.ctcc.CtccTransport;
import fabriclab.simulation.transport.gse.GseTransport;
import fabriclab.simulation.transport.roce.RoceTransport;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.congestion.DcqcnParameters;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Time;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.progress.Progress;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The parallel engine gives byte-identical results whatever its thread count (a full serialisation
 * of every counter, flow record, queue and port compared), including random choices (spraying at
 * random, WRED marking) and PFC frames between partitions; the sequential engine under the same order of
 * simultaneous events ({@code TieOrder.CANONICAL}, the scenario's default) gives the same results on every scenario here (all but
 * the count of events, which differs by construction: the sequential engine carries a link's packets with one event
 * per busy wire, this engine with one per packet); without it, the sequential engine agrees where no simultaneous
 * events decide the outcome; it rejects what it cannot run.
 */
class ParallelEngineTest {
    private static final long G100 = 100_000_000_000L;
    private static final int MTU = 1000;
    private static final int HEADER = 64;

    /** Every field of {@code r}, arrays by value (a record's toString prints arrays by identity). */
    static String fingerprint(SimulationResult r) {
        return r.events() + " " + fingerprintOfTheRun(r);
    }

    /** {@link #fingerprint} without the count of events, which depends on the engine (see the class comment). */
    static String fingerprintOfTheRun(SimulationResult r) {
        StringBuilder b = new StringBuilder();
        b.append(r.endPs()).append(' ').append(r.partial()).append(' ').append(r.packetHops())
                .append(' ').append(r.injectedBytes()).append(' ').append(r.deliveredBytes()).append(' ').append(r.droppedBytes())
                .append(' ').append(r.inFlightBytes()).append(' ').append(r.droppedPackets()).append(' ').append(r.ecnMarks())
                .append(' ').append(r.discardedBytes()).append(' ').append(r.controlPackets()).append(' ')
                .append(r.controlDropped()).append(' ').append(r.transport()).append(' ').append(r.counters()).append('\n');
        r.flows().forEach(f -> b.append(f).append('\n'));
        for (SimulationResult.QueueTrace q : r.queues()) {
            b.append(q.name()).append(' ').append(Arrays.toString(q.occupancyBytes())).append(' ').append(q.peakBytes())
                    .append(' ').append(q.drops()).append(' ').append(q.ecnMarks()).append(' ').append(q.txPackets())
                    .append(' ').append(q.flowHeads()).append(' ').append(Double.doubleToLongBits(q.utilisation())).append('\n');
        }
        for (SimulationResult.PortPfc p : r.pfc()) {
            b.append(p.name()).append(' ').append(p.pausesSent()).append(' ').append(p.xonSent()).append(' ')
                    .append(p.pausesReceived()).append(' ').append(p.xonReceived()).append(' ').append(p.pausedPs()).append(' ')
                    .append(Arrays.toString(p.peakIngressBytes())).append(' ').append(p.firstPauseSentPs()).append(' ')
                    .append(p.deadlocks()).append('\n');
        }
        return b.toString();
    }

    private static LeafSpine fabric(int hosts) {
        return new LeafSpine(hosts, 1, hosts / 8, 4, G100, G100, 2, Time.US, Time.US);
    }

    /** RoCE + PFC (XOFF low enough to pause inside the fabric), an ACK per packet, per-flow ECMP. */
    private static Scenario roce(int hosts) {
        return roce(hosts, new SimulationConfig(MTU, HEADER, 1, SwitchBuffer.shared(16_000_000),
                Forwarding.ecmp(HashFunction.CRC32, 7), 1, 0, 0));
    }

    private static Scenario roce(int hosts, SimulationConfig c) {
        return Scenario.permutation(fabric(hosts), 300_000, 5, c).toBuilder()
                .transport(RoceTransport.noCongestionControl().withAckEvery(1))
                .pfc(new Pfc(15 * (MTU + HEADER), 12_000, 0, Pfc.MAX_QUANTA)).build();
    }

    /** Line-rate senders spraying each packet at random over the spines, a small shared buffer (drops). */
    private static Scenario sprayRandom(int hosts) {
        SimulationConfig c = new SimulationConfig(MTU, HEADER, 1, SwitchBuffer.shared(12_000),
                Forwarding.sprayRandom(), 3, 0, 0);
        return Scenario.permutation(fabric(hosts), 200_000, 9, c);
    }

    /** DCQCN with WRED marking (random draws at every switch) and PFC, an incast across the spines. */
    private static Scenario dcqcn(int hosts) {
        return dcqcn(hosts, SwitchBuffer.MarkingPoint.ENQUEUE);
    }

    private static Scenario dcqcn(int hosts, SwitchBuffer.MarkingPoint point) {
        DcqcnParameters p = DcqcnParameters.zhu2015();
        SimulationConfig c = new SimulationConfig(MTU, HEADER, 1,
                SwitchBuffer.shared(4_000_000).withEcnMarking(p.marking()).withEcnMarkingPoint(point),
                Forwarding.ecmp(HashFunction.CRC32, 3), 11, 0, 0);
        List<FlowSpec> flows = new java.util.ArrayList<>();
        for (int i = 8; i < hosts; i++) { // every host of the other leaves sends to host 0
            flows.add(new FlowSpec(i, 0, 150_000, 0, 0, 49152 + i));
        }
        return Scenario.builder(fabric(hosts).build(), c).flows(flows).transport(RoceTransport.dcqcn(p))
                .pfc(new Pfc(30 * (MTU + HEADER), 20_000, 0, Pfc.MAX_QUANTA)).build();
    }

    private static void sameForEveryThreadCount(Scenario s, Function<SimulationResult, Boolean> exercised) {
        Simulator one = new Simulator(s);
        SimulationResult r1 = one.runParallel(1);
        assertTrue(r1.allCompleted() || r1.droppedPackets() > 0, "run did not finish");
        assertTrue(exercised.apply(r1), "the scenario does not exercise what it should");
        String f1 = fingerprint(r1);
        SimulationResult sequential = new Simulator(s).run();
        assertEquals(fingerprintOfTheRun(r1), fingerprintOfTheRun(sequential), "the sequential engine under the same rule");
        for (int threads = 2; threads <= 4; threads++) {
            Simulator sim = new Simulator(s);
            SimulationResult r = sim.runParallel(threads);
            assertEquals(f1, fingerprint(r), "threads = " + threads);
            ParallelRunStats st = sim.parallelStats().orElseThrow();
            assertEquals(threads, st.threads());
            assertEquals(r.events(), st.events());
            assertTrue(st.messages() > 0, "no event crossed between partitions");
            assertTrue(st.eventParallelism() >= 1 && st.eventParallelism() <= threads, "parallelism " + st.eventParallelism());
            assertEquals(r.events(), Arrays.stream(st.partitionEvents()).sum());
        }
    }

    @Test
    void rocePfcIsTheSameWithOneTwoThreeAndFourThreads() {
        sameForEveryThreadCount(roce(64), r -> r.pausesSent() > 0 && r.allCompleted());
    }

    @Test
    void randomSprayingWithDropsIsTheSameWithOneTwoThreeAndFourThreads() {
        sameForEveryThreadCount(sprayRandom(64), r -> r.droppedPackets() > 0 && r.flows().stream().anyMatch(
                f -> f.reorderedPackets() > 0));
    }

    @Test
    void dcqcnWithWredMarkingIsTheSameWithOneTwoThreeAndFourThreads() {
        sameForEveryThreadCount(dcqcn(32), r -> r.ecnMarks() > 0 && r.counter(RoceTransport.CNPS) > 0
                && r.allCompleted());
    }

    @Test
    void dcqcnMarkingAtDequeueIsTheSameWithOneTwoThreeAndFourThreads() {
        sameForEveryThreadCount(dcqcn(32, SwitchBuffer.MarkingPoint.DEQUEUE),
                r -> r.ecnMarks() > 0 && r.counter(RoceTransport.CNPS) > 0 && r.allCompleted());
    }

    /**
     * GSE (the edges' containers, requests, grants and reordering), line-rate hosts, containers sprayed over the
     * spines, a shared buffer of {@code bufferBytes} per switch.
     */
    private static Scenario gse(int hosts, long bufferBytes) {
        SimulationConfig c = new SimulationConfig(MTU, HEADER, 1, SwitchBuffer.shared(bufferBytes),
                Forwarding.sprayRoundRobin(), 3, 0, 0);
        return Scenario.permutation(fabric(hosts), 300_000, 5, c).toBuilder().transport(GseTransport.defaults()).build();
    }

    /** CTCC: pacing at a rate set by the RTT of probe packets, a probe stream per host pair, go-back-N, PFC. */
    @Test
    void ctccIsTheSameWithOneTwoThreeAndFourThreads() {
        Scenario s = roce(64).toBuilder().transport(CtccTransport.of(fabriclab.congestion.RttControlParameters.ctcc())).build();
        sameForEveryThreadCount(s, r -> r.allCompleted() && r.controlPackets() > 0);
    }

    /** One CTCC flow across the spines (its probes and their replies included) is the same run in both engines. */
    @Test
    void aSingleCtccFlowIsTheSameInBothEngines() {
        SimulationConfig c = new SimulationConfig(MTU, HEADER, 1, SwitchBuffer.shared(16_000_000),
                Forwarding.ecmp(HashFunction.CRC32, 7), 1, 0, 0);
        Scenario s = Scenario.builder(fabric(32).build(), c).flows(List.of(new FlowSpec(0, 31, 1_000_000, 0, 0, 50_000)))
                .transport(CtccTransport.of(fabriclab.congestion.RttControlParameters.ctcc())).build();
        SimulationResult seq = new Simulator(s).run();
        SimulationResult par = new Simulator(s).runParallel(3);
        assertTrue(seq.allCompleted() && seq.controlPackets() > 0);
        assertEquals(fingerprint(seq), fingerprint(par));
    }

    @Test
    void gseIsTheSameWithOneTwoThreeAndFourThreads() {
        sameForEveryThreadCount(gse(64, 16_000_000), r -> r.allCompleted() && r.droppedPackets() == 0
                && r.counter(GseTransport.CONTAINERS_REORDERED) > 0 && r.counter(GseTransport.GRANTS) > 0);
    }

    /**
     * A fabric buffer small enough to drop containers: the source edges resend them after their timeout, and a
     * source edge reads whether a container was confirmed by a destination edge of another partition.
     */
    @Test
    void gseResendingLostContainersIsTheSameWithOneTwoThreeAndFourThreads() {
        sameForEveryThreadCount(gse(64, 200_000), r -> r.droppedPackets() > 0
                && r.counter(GseTransport.CONTAINERS_RESENT) > 0
                && r.counter(GseTransport.DUPLICATES_DISCARDED) > 0);
    }

    /**
     * GSE with traffic within the leaves: on each of 4 leaves, three hosts send 200 KB to the leaf's first host and a
     * host of the next leaf sends 200 KB to it too. The local containers' requests, grants and confirmations stay in
     * their edge (no latency, no message between partitions), the remote ones cross; the port's one grant clock takes
     * both, whatever the partitioning.
     */
    @Test
    void gseWithTrafficWithinTheLeavesIsTheSameWithOneTwoThreeAndFourThreads() {
        SimulationConfig c = new SimulationConfig(MTU, HEADER, 1, SwitchBuffer.shared(1_000_000),
                Forwarding.sprayRoundRobin(), 3, 0, 0);
        List<FlowSpec> flows = new java.util.ArrayList<>();
        for (int leaf = 0; leaf < 4; leaf++) {
            for (int h = 1; h <= 3; h++) {
                flows.add(new FlowSpec(8 * leaf + h, 8 * leaf, 200_000, 0, 0, 49152 + flows.size()));
            }
            flows.add(new FlowSpec(8 * ((leaf + 1) % 4) + 4, 8 * leaf, 200_000, 0, 0, 49152 + flows.size()));
        }
        Scenario s = Scenario.builder(fabric(32).build(), c).flows(flows).transport(GseTransport.defaults()).build();
        sameForEveryThreadCount(s, r -> r.allCompleted() && r.droppedPackets() == 0
                && r.counter(GseTransport.GRANTS) == r.counter(GseTransport.CONTAINERS)
                && r.deliveredBytes() == 16 * 200_000L);
    }

    /** One GSE flow within a leaf is the same run in both engines. */
    @Test
    void aSingleGseFlowWithinALeafIsTheSameInBothEngines() {
        SimulationConfig c = new SimulationConfig(MTU, HEADER, 1, SwitchBuffer.shared(16_000_000),
                Forwarding.sprayRoundRobin(), 1, 0, 0);
        Scenario s = Scenario.builder(fabric(32).build(), c).flows(List.of(new FlowSpec(0, 7, 1_000_000, 0, 0, 50_000)))
                .transport(GseTransport.defaults()).build();
        SimulationResult seq = new Simulator(s).run();
        SimulationResult par = new Simulator(s).runParallel(3);
        assertTrue(seq.allCompleted());
        assertTrue(seq.counter(GseTransport.GRANTS) > 0);
        assertEquals(fingerprint(seq), fingerprint(par));
    }

    /**
     * GSE's simultaneous messages at an edge in an order of the edge's own: 128 hosts (16 leaves of 8), 300 KB flows,
     * 800 KB buffers. Every edge grants and sends at the same instants (the hosts start together), so the order in
     * which an edge takes the grants of one instant decides where its containers go first. Ordered by the sending
     * edge's index at every edge, every leaf sent toward the same destination leaf at once and the spines dropped 864
     * packets; with a permutation per edge the parallel engine drops none, as the sequential engine, and both
     * complete every flow.
     */
    @Test
    void gseEdgesDoNotAllTakeSimultaneousGrantsInOneOrder() {
        SimulationConfig c = new SimulationConfig(MTU, HEADER, 1, SwitchBuffer.shared(800_000),
                Forwarding.ecmp(HashFunction.CRC32, 7), 5, 0, 0);
        LeafSpine f = new LeafSpine(128, 1, 16, 4, G100, G100, 2, Time.US, Time.US);
        Scenario s = Scenario.permutation(f, 300_000, 5, c).toBuilder().transport(GseTransport.defaults()).build();
        SimulationResult seq = new Simulator(s).run();
        SimulationResult par = new Simulator(s).runParallel(2);
        assertEquals(0, seq.droppedPackets());
        assertEquals(0, par.droppedPackets());
        assertTrue(seq.allCompleted() && par.allCompleted());
    }

    /**
     * One GSE flow across the spines: nothing is simultaneous at a node in a way the two orders resolve
     * differently, so both engines give the same run (requests and grants are events of the sequential engine and
     * messages between partitions of the parallel one), and every container goes through the request-grant loop.
     */
    @Test
    void aSingleGseFlowIsTheSameInBothEngines() {
        SimulationConfig c = new SimulationConfig(MTU, HEADER, 1, SwitchBuffer.shared(16_000_000),
                Forwarding.sprayRoundRobin(), 1, 0, 0);
        Scenario s = Scenario.builder(fabric(32).build(), c).flows(List.of(new FlowSpec(0, 31, 1_000_000, 0, 0, 50_000)))
                .transport(GseTransport.defaults()).build();
        SimulationResult seq = new Simulator(s).run();
        SimulationResult par = new Simulator(s).runParallel(3);
        assertTrue(seq.allCompleted());
        // the host's packets reach its edge 85.12 ns apart, so a container closes at its assembly timeout (1 us after
        // its first packet) with 1 + floor(1 us / 85.12 ns) = 12 packets (12,000 B, under the 16 KB limit)
        long ser = (MTU + HEADER) * 8 * Time.S / G100;
        long perContainer = 1 + Time.US / ser;
        assertEquals((1000 + perContainer - 1) / perContainer, seq.counter(GseTransport.CONTAINERS));
        assertEquals(fingerprint(seq), fingerprint(par));
    }

    /**
     * A collective of {@code ranks} ranks spread over the leaves (rank r on host {@code r * hosts / ranks}), each
     * transfer a flow that starts when the transfers it waits for have arrived.
     */
    private static Scenario collective(fabriclab.collectives.CollectiveSchedule schedule, int hosts, Scenario base) {
        int[] hostOfRank = new int[schedule.ranks()];
        for (int r = 0; r < hostOfRank.length; r++) {
            hostOfRank[r] = r * hosts / hostOfRank.length;
        }
        int[] port = {49152};
        Scenario.Builder b = Scenario.builder(base.topology(), base.config()).transport(base.transport()).pfc(base.pfc());
        b.collective(schedule, hostOfRank, () -> port[0]++);
        return b.build();
    }

    /**
     * Ring and halving-doubling all-reduce, each step a flow that waits for the data that arrived at its sender:
     * every dependency ends at the host where its successor starts, so the parallel engine runs them, the same on
     * every thread count, under RoCE+PFC and under GSE.
     */
    @Test
    void collectivesWhoseStepsStartWhereTheirDataArrivedAreTheSameWithOneTwoThreeAndFourThreads() {
        for (fabriclab.collectives.Collective c : List.of(fabriclab.collectives.Collective.RING_ALL_REDUCE,
                fabriclab.collectives.Collective.HALVING_DOUBLING_ALL_REDUCE)) {
            fabriclab.collectives.CollectiveSchedule schedule = fabriclab.collectives.CollectiveSchedule.of(c, 16, 1_600_000);
            for (Scenario base : List.of(roce(64), gse(64, 16_000_000))) {
                Scenario s = collective(schedule, 64, base);
                sameForEveryThreadCount(s, r -> r.allCompleted()
                        && r.flows().stream().anyMatch(f -> f.startedPs() > 0)); // later steps waited for earlier ones
            }
        }
    }

    @Test
    void aTimeLimitStopsEveryThreadAtTheSameTime() {
        Scenario s = roce(32);
        String f1 = fingerprint(new Simulator(s).runParallel(20 * Time.US, Progress.silent(), 1));
        SimulationResult r2 = new Simulator(s).runParallel(20 * Time.US, Progress.silent(), 2);
        assertTrue(r2.partial());
        assertTrue(r2.endPs() <= 20 * Time.US);
        assertEquals(f1, fingerprint(r2));
    }

    /**
     * An incast through one switch, RoCE + PFC: the receiver's link never idles, so the last byte arrives at
     * 2 x propagation + (packets + 1) x serialisation (the first packet's two hops, then one packet per
     * serialisation time), in both engines.
     */
    @Test
    void incastCompletesAtTheAnalyticIdealInBothEngines() {
        int senders = 16;
        long bytes = 500_000;
        SimulationConfig c = new SimulationConfig(MTU, HEADER, 1, SwitchBuffer.shared(16_000_000),
                Forwarding.ecmp(HashFunction.CRC32, 7), 1, 0, 0);
        Scenario s = Scenario.incast(senders, bytes, G100, c).toBuilder()
                .transport(RoceTransport.noCongestionControl().withAckEvery(1))
                .pfc(new Pfc(15 * (MTU + HEADER), 12_000, 0, Pfc.MAX_QUANTA)).build();
        long packets = senders * ((bytes + MTU - 1) / MTU);
        long ser = (MTU + HEADER) * 8 * Time.S / G100; // 85,120 ps, exact
        long ideal = 2 * Time.US + (packets + 1) * ser;
        SimulationResult seq = new Simulator(s).run();
        SimulationResult par = new Simulator(s).runParallel(2);
        assertTrue(par.pausesSent() > 0);
        long lastSeq = 0;
        long lastPar = 0;
        for (int f = 0; f < senders; f++) {
            lastSeq = Math.max(lastSeq, seq.completedAtPs(f));
            lastPar = Math.max(lastPar, par.completedAtPs(f));
        }
        assertEquals(ideal, lastSeq);
        assertEquals(ideal, lastPar);
        assertEquals(seq.deliveredBytes(), par.deliveredBytes());
        assertEquals(seq.packetHops(), par.packetHops());
    }

    /**
     * One flow across the spines: every event is the same in both engines, the ties included. At a switch,
     * packet k arrives at the instant packet k - 1 finishes leaving (same rates, store and forward); the
     * sequential engine handles the arrival first because it scheduled it first (a propagation delay before,
     * against a serialisation), and the canonical order too, because a node's own events (the end of a
     * transmission) come after those arriving through its ports. So the flow, the packets, the events, the
     * times and the peak occupancies are equal: the three switches of the data path each hold two packets at
     * their peak (k arrived before k - 1 left).
     */
    @Test
    void aSingleFlowIsTheSameInBothEnginesTheTiesOfAnArrivalAndADepartureIncluded() {
        SimulationConfig c = new SimulationConfig(MTU, HEADER, 1, SwitchBuffer.shared(16_000_000),
                Forwarding.ecmp(HashFunction.CRC32, 7), 1, 0, 0);
        Scenario s = Scenario.builder(fabric(32).build(), c).flows(List.of(new FlowSpec(0, 31, 1_000_000, 0, 0, 50_000)))
                .transport(RoceTransport.noCongestionControl()).build();
        SimulationResult seq = new Simulator(s).run();
        SimulationResult par = new Simulator(s).runParallel(3);
        assertEquals(seq.flows(), par.flows());
        assertEquals(seq.endPs(), par.endPs());
        assertEquals(seq.events(), par.events());
        assertEquals(seq.packetHops(), par.packetHops());
        int ties = 0;
        for (int i = 0; i < seq.queues().size(); i++) {
            SimulationResult.QueueTrace a = seq.queues().get(i);
            SimulationResult.QueueTrace b = par.queues().get(i);
            assertEquals(a.txPackets(), b.txPackets(), a.name());
            assertEquals(a.peakBytes(), b.peakBytes(), a.name());
            if (a.peakBytes() == 2 * (MTU + HEADER)) {
                ties++;
            }
        }
        assertEquals(3, ties); // the three switches of the data path
    }

    @Test
    void rejectsWhatActsBetweenNodesWithoutDelay() {
        Scenario base = roce(32);
        int end = base.flows().get(0).destination();
        int other = end == base.flows().get(1).source() ? 2 : 1; // a flow that does not start where flow 0 ends
        assertRejected(base.toBuilder().startAfter(other, 0).build(), "flow dependencies across hosts");
        assertRejected(collective(fabriclab.collectives.CollectiveSchedule.pairwiseAllToAll(8, 80_000), 32, base),
                "flow dependencies across hosts"); // a rank's next send waits for its previous one to arrive
        assertRejected(base.toBuilder().failLink(0, Time.US).build(), "link failures");
        assertRejected(roce(32, base.config().withSampling(Time.US, 10)), "queue sampling");
        assertRejected(base.toBuilder().transport(RoceTransport.dcqcn(DcqcnParameters.zhu2015()).withIqcn(true)).build(),
                "iQCN");
        assertRejected(base.toBuilder().transport(GseTransport.defaults().withControlLatencyPs(0)).build(),
                "controlLatencyPs = 0");
        Simulator observed = new Simulator(base, (sw, port, flow, data, w, d, t) -> { });
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> observed.runParallel(2));
        assertTrue(x.getMessage().contains("observer"), x.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Simulator(base).runParallel(0));
        assertThrows(IllegalArgumentException.class, () -> new Simulator(base).runParallel(257));
    }

    private static void assertRejected(Scenario s, String feature) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> new Simulator(s).runParallel(2));
        assertTrue(x.getMessage().contains(feature), x.getMessage());
    }
}
