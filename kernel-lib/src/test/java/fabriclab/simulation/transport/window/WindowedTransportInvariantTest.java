package fabriclab.simulation.transport.window;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcHeadroom;
import fabriclab.fabric.Time;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.TransportModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The invariants every go-back-N transport keeps (those of {@code ReliableConnectionInvariantTest} for RoCE), for
 * DCTCP, TIMELY+w and Swift on a 2-leaf, 2-spine fabric of 8 hosts at 100 Gb/s, 1 us links:
 * <ul>
 *   <li>Lossless: PFC with packet-level headroom and a buffer that holds XOFF plus headroom for every ingress port
 *       drops nothing, no timeout fires, every flow completes, nothing is resent, and no receiver's goodput exceeds
 *       its line rate.</li>
 *   <li>Lossy (PFC off, 20 KB of buffer): bytes are conserved, no timeout is spurious, every flow ends.</li>
 *   <li>The parallel engine gives the same run with 1, 2 and 3 threads.</li>
 * </ul>
 */
class WindowedTransportInvariantTest {
    static final long G100 = 100_000_000_000L;
    static final LeafSpine FABRIC = new LeafSpine(8, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
    static final int HOSTS = 8;
    static final long BYTES_PER_HOST = 2_000_000;
    /** One BDP of the longest path: 8 us of base RTT at 100 Gb/s. */
    static final long BDP_BYTES = 100_000;

    enum Pattern { INCAST, PERMUTATION, ALL_TO_ALL }

    static int[] destinations(Pattern p, int h) {
        return switch (p) {
            case INCAST -> h == HOSTS - 1 ? new int[0] : new int[] {HOSTS - 1};
            case PERMUTATION -> new int[] {(h + 3) % HOSTS};
            case ALL_TO_ALL -> java.util.stream.IntStream.range(0, HOSTS).filter(d -> d != h).toArray();
        };
    }

    static List<FlowSpec> flows(Pattern p, int qpsPerHost) {
        List<FlowSpec> flows = new ArrayList<>();
        long perQp = Math.max(1000, BYTES_PER_HOST / qpsPerHost);
        for (int h = 0; h < HOSTS; h++) {
            int[] dst = destinations(p, h);
            for (int q = 0; q < (dst.length == 0 ? 0 : qpsPerHost); q++) {
                flows.add(new FlowSpec(h, dst[q % dst.length], perQp, 0, 0, (1024 + q) % 65536));
            }
        }
        return flows;
    }

    static TransportModel transport(String name) {
        return switch (name) {
            case "dctcp" -> DctcpTransport.hpccSimulation(BDP_BYTES);
            case "timely+w" -> TimelyTransport.hpccSimulation(BDP_BYTES);
            case "swift" -> SwiftTransport.defaults(BDP_BYTES / 1000.0);
            default -> throw new IllegalArgumentException(name);
        };
    }

    static Scenario scenario(Pattern p, int qps, String transport, boolean lossless) {
        long headroom = PfcHeadroom.packetLevelBytes(G100, Time.US, 1000);
        Pfc pfc = new Pfc(100_000, 80_000, headroom, 65535);
        long buffer = lossless ? 6 * (pfc.xoffBytes() + headroom) : 20_000;
        // DCTCP marks at 20 KB here (its 300 KB of HPCC's runs is above this small buffer's PFC threshold)
        SwitchBuffer sb = SwitchBuffer.shared(buffer).withEcnMarking(transport.equals("dctcp") ? EcnMarking.step(20_000) : EcnMarking.OFF);
        return Scenario.builder(FABRIC.build(), SimulationConfig.defaults(sb)).flows(flows(p, qps)).transport(transport(transport))
                .pfc(lossless ? pfc : null).build();
    }

    static List<Arguments> cases() {
        List<Arguments> a = new ArrayList<>();
        for (String t : List.of("dctcp", "timely+w", "swift")) {
            for (Pattern p : Pattern.values()) {
                for (int qps : new int[] {1, 100}) {
                    a.add(Arguments.of(t, p, qps));
                }
            }
        }
        return a;
    }

    @ParameterizedTest(name = "{0}, {1}, {2} QPs per host")
    @MethodSource("cases")
    void aLosslessFabricDropsNothingAndNeverTimesOut(String t, Pattern p, int qps) {
        SimulationResult r = new Simulator(scenario(p, qps, t, true)).run();
        assertEquals(0, r.droppedPackets(), "drops");
        assertEquals(0, r.controlDropped(), "control drops");
        assertEquals(0, r.counter(TransportModel.TIMEOUTS), "timeouts");
        assertEquals(0, r.counter(TransportModel.NACKS), "NAKs");
        assertTrue(r.allCompleted());
        long total = flows(p, qps).stream().mapToLong(FlowSpec::bytes).sum();
        assertEquals(total, r.deliveredBytes());
        assertEquals(total, r.injectedBytes(), "nothing resent");
        assertTrue(r.endPs() - r.lastDeliveryPs() < Time.MS);
        for (int d = 0; d < HOSTS; d++) {
            long bytes = 0;
            long last = -1;
            for (SimulationResult.FlowRecord f : r.flows()) {
                if (f.spec().destination() == d) {
                    bytes += f.deliveredBytes();
                    last = Math.max(last, f.lastDeliveryPs());
                }
            }
            if (bytes > 0) {
                assertTrue(8.0 * bytes / Time.toSeconds(last) <= G100, "receiver " + d + " goodput above line rate");
            }
        }
    }

    @ParameterizedTest(name = "{0}, {1}, {2} QPs per host")
    @MethodSource("cases")
    void aLossyFabricConservesBytesAndExplainsEveryTimeout(String t, Pattern p, int qps) {
        SimulationResult r = new Simulator(scenario(p, qps, t, false)).run();
        assertEquals(r.injectedBytes(), r.deliveredBytes() + r.droppedBytes() + r.discardedBytes() + r.inFlightBytes());
        assertEquals(0, r.counter(TransportModel.SPURIOUS_TIMEOUTS), "spurious timeouts");
        long completed = r.flows().stream().filter(SimulationResult.FlowRecord::completed).count();
        assertTrue(completed + r.counter(TransportModel.FAILED_QPS) >= r.flows().size());
    }

    static List<Arguments> transports() {
        return List.of(Arguments.of("dctcp"), Arguments.of("timely+w"), Arguments.of("swift"));
    }

    /** Every counter, flow record, queue and PFC port of a run, arrays by value. */
    static String fingerprint(SimulationResult r) {
        StringBuilder b = new StringBuilder();
        b.append(r.endPs()).append(' ').append(r.events()).append(' ').append(r.packetHops()).append(' ')
                .append(r.injectedBytes()).append(' ').append(r.deliveredBytes()).append(' ').append(r.droppedPackets())
                .append(' ').append(r.ecnMarks()).append(' ').append(r.controlPackets()).append(' ').append(r.counters())
                .append('\n');
        r.flows().forEach(f -> b.append(f).append('\n'));
        for (SimulationResult.QueueTrace q : r.queues()) {
            b.append(q.name()).append(' ').append(Arrays.toString(q.occupancyBytes())).append(' ').append(q.peakBytes())
                    .append(' ').append(q.ecnMarks()).append(' ').append(q.txPackets()).append('\n');
        }
        for (SimulationResult.PortPfc p : r.pfc()) {
            b.append(p.name()).append(' ').append(p.pausesSent()).append(' ').append(p.pausedPs()).append('\n');
        }
        return b.toString();
    }

    /**
     * The parallel engine's run is the same with 1, 2 and 3 threads (as {@code ParallelEngineTest} checks for the other
     * transports; it agrees with the sequential engine only where no simultaneous events decide the order).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void theParallelEngineGivesTheSameRunWithOneToThreeThreads(String t) {
        Scenario s = scenario(Pattern.ALL_TO_ALL, 4, t, true);
        SimulationResult one = new Simulator(s).runParallel(1);
        assertTrue(one.allCompleted() && one.controlPackets() > 0);
        String f = fingerprint(one);
        for (int threads = 2; threads <= 3; threads++) {
            assertEquals(f, fingerprint(new Simulator(s).runParallel(threads)), "threads = " + threads);
        }
    }

    /** One flow across the spines (no simultaneous events to order) is the same run in both engines. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("transports")
    void aSingleFlowIsTheSameInBothEngines(String t) {
        SimulationConfig c = SimulationConfig.defaults(SwitchBuffer.shared(16_000_000).withEcnMarking(EcnMarking.step(20_000)));
        Scenario s = Scenario.builder(FABRIC.build(), c).flows(List.of(new FlowSpec(0, 7, 1_000_000, 0, 0, 50_000)))
                .transport(transport(t)).build();
        SimulationResult seq = new Simulator(s).run();
        assertTrue(seq.allCompleted() && seq.controlPackets() > 0);
        assertEquals(fingerprint(seq), fingerprint(new Simulator(s).runParallel(3)));
    }
}
