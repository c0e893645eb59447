package fabriclab.simulation.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.Simulator;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcHeadroom;
import fabriclab.fabric.Time;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.roce.RoceTransport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Invariants of the reliable connection, on a 2-leaf, 2-spine fabric of 8 hosts at 100 Gb/s:
 * <ul>
 *   <li>Lossless: with PFC whose headroom is {@link PfcHeadroom#packetLevelBytes} and a shared buffer that holds
 *       XOFF plus headroom for every ingress port, no packet (data or control) is dropped and no timeout fires, for
 *       1 to 10,000 queue pairs per sending host, in incast, permutation and all-to-all, with and without DCQCN;
 *       every flow completes; nothing is resent or discarded, so the bytes sent equal the bytes delivered.</li>
 *   <li>Goodput never exceeds line rate: at each receiver, payload delivered over the time from the first start
 *       to its last delivery is at most the link's rate (payload is less than the wire bytes the link carries).</li>
 *   <li>Lossy (PFC off, a 20 KB shared buffer): bytes are conserved (sent = delivered + dropped + discarded), no
 *       timeout is spurious (each is explained by a loss of the flow), and every flow ends, received completely or
 *       with its QP failed after its retries (synchronized retries into 20 KB buffers collapse, as incasts do).</li>
 * </ul>
 * Each holds for per-flow ECMP with the in-order responder, and for adaptive routing (per packet, and per flowlet with
 * a 2 us gap) with the out-of-order responder ({@link OutOfOrderPlacement#defaults()}), for 1 and 100 queue pairs.
 */
class ReliableConnectionInvariantTest {
    static final long G100 = 100_000_000_000L;
    static final LeafSpine FABRIC = new LeafSpine(8, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
    static final int HOSTS = 8;
    /** Payload each sending host writes in total, bytes (split over its queue pairs). */
    static final long BYTES_PER_HOST = 2_000_000;

    enum Pattern { INCAST, PERMUTATION, ALL_TO_ALL }

    /** Destinations of sending host {@code h}, or none if it does not send. */
    static int[] destinations(Pattern p, int h) {
        return switch (p) {
            case INCAST -> h == HOSTS - 1 ? new int[0] : new int[] {HOSTS - 1};
            case PERMUTATION -> new int[] {(h + 3) % HOSTS}; // crosses leaves for every host (4 hosts per leaf)
            case ALL_TO_ALL -> java.util.stream.IntStream.range(0, HOSTS).filter(d -> d != h).toArray();
        };
    }

    /** {@code qpsPerHost} queue pairs per sending host, spread round robin over its destinations, distinct UDP ports. */
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

    static SimulationResult run(Pattern p, int qps, boolean dcqcn, boolean lossless) {
        return run(p, qps, dcqcn, lossless, Routing.ECMP);
    }

    /** The switches' forwarding and the responder it pairs with. */
    enum Routing {
        ECMP(null, null),
        ADAPTIVE_PACKET(Forwarding.adaptivePerPacket(), OutOfOrderPlacement.defaults()),
        ADAPTIVE_FLOWLET(Forwarding.adaptivePerFlowlet(2 * Time.US), OutOfOrderPlacement.defaults());

        final Forwarding forwarding;
        final OutOfOrderPlacement placement;

        Routing(Forwarding forwarding, OutOfOrderPlacement placement) {
            this.forwarding = forwarding;
            this.placement = placement;
        }
    }

    static SimulationResult run(Pattern p, int qps, boolean dcqcn, boolean lossless, Routing routing) {
        int wire = 1000; // SimulationConfig.defaults: 1000-byte MTU, no header
        long headroom = PfcHeadroom.packetLevelBytes(G100, Time.US, wire);
        Pfc pfc = new Pfc(100_000, 80_000, headroom, 65535);
        int ports = 6; // a leaf: 4 hosts and 2 spines; a spine has 2
        long buffer = lossless ? ports * (pfc.xoffBytes() + headroom) : 20_000;
        RoceTransport t = dcqcn ? RoceTransport.dcqcn(DcqcnParameters.zhu2015()) : RoceTransport.noCongestionControl();
        if (routing.placement != null) {
            t = t.withReliableConnection(t.rc().withOutOfOrder(routing.placement));
        }
        SwitchBuffer sb = SwitchBuffer.shared(buffer);
        if (dcqcn) {
            sb = sb.withEcnMarking(DcqcnParameters.zhu2015().marking());
        }
        SimulationConfig config = SimulationConfig.defaults(sb);
        if (routing.forwarding != null) {
            config = config.withForwarding(routing.forwarding);
        }
        return new Simulator(Scenario.builder(FABRIC.build(), config).flows(flows(p, qps)).transport(t)
                .pfc(lossless ? pfc : null).build()).run();
    }

    static List<Arguments> lossless() {
        List<Arguments> a = new ArrayList<>();
        for (Pattern p : Pattern.values()) {
            for (int qps : new int[] {1, 100, 10_000}) {
                for (boolean dcqcn : new boolean[] {false, true}) {
                    a.add(Arguments.of(p, qps, dcqcn, Routing.ECMP));
                }
            }
        }
        for (Routing routing : List.of(Routing.ADAPTIVE_PACKET, Routing.ADAPTIVE_FLOWLET)) {
            for (Pattern p : Pattern.values()) {
                for (int qps : new int[] {1, 100}) {
                    for (boolean dcqcn : new boolean[] {false, true}) {
                        a.add(Arguments.of(p, qps, dcqcn, routing));
                    }
                }
            }
        }
        return a;
    }

    @ParameterizedTest(name = "{0}, {1} QPs per host, DCQCN {2}, {3}")
    @MethodSource("lossless")
    void aLosslessFabricDropsNothingAndNeverTimesOut(Pattern p, int qps, boolean dcqcn, Routing routing) {
        SimulationResult r = run(p, qps, dcqcn, true, routing);
        assertEquals(0, r.droppedPackets(), "drops");
        assertEquals(0, r.controlDropped(), "control drops");
        assertEquals(0, r.counter(TransportModel.TIMEOUTS), "timeouts");
        assertEquals(0, r.counter(TransportModel.NACKS), "NAKs");
        assertTrue(r.allCompleted());
        long total = flows(p, qps).stream().mapToLong(FlowSpec::bytes).sum();
        assertEquals(total, r.deliveredBytes());
        assertEquals(total, r.injectedBytes(), "nothing resent");
        assertEquals(0, r.discardedBytes());
        // the run ends with its flows: no timer of a completed queue pair keeps it going (DCQCN's timers stop within
        // its recovery, well under 1 ms here)
        assertTrue(r.endPs() - r.lastDeliveryPs() < Time.MS, "end " + r.endPs() + ", last delivery " + r.lastDeliveryPs());
        for (int d = 0; d < HOSTS; d++) {
            long bytes = 0;
            long last = -1;
            for (SimulationResult.FlowRecord f : r.flows()) {
                if (f.spec().destination() == d) {
                    bytes += f.deliveredBytes();
                    last = Math.max(last, f.lastDeliveryPs());
                }
            }
            if (bytes > 0) { // every flow starts at 0
                assertTrue(8.0 * bytes / Time.toSeconds(last) <= G100, "receiver " + d + " goodput above line rate");
            }
        }
    }

    @ParameterizedTest(name = "{0}, {1} QPs per host, DCQCN {2}, {3}")
    @MethodSource("lossless")
    void aLossyFabricConservesBytesAndExplainsEveryTimeout(Pattern p, int qps, boolean dcqcn, Routing routing) {
        if (qps == 10_000) {
            return; // 10,000 QPs of 1000 B each into 20 KB buffers: every timeout case is already in 100
        }
        SimulationResult r = run(p, qps, dcqcn, false, routing);
        assertEquals(r.injectedBytes(), r.deliveredBytes() + r.droppedBytes() + r.discardedBytes() + r.inFlightBytes());
        assertEquals(0, r.counter(TransportModel.SPURIOUS_TIMEOUTS), "spurious timeouts");
        // every flow ends: received completely, or its QP failed (both when the data arrived and every ACK was lost)
        long completed = r.flows().stream().filter(SimulationResult.FlowRecord::completed).count();
        assertTrue(completed + r.counter(TransportModel.FAILED_QPS) >= r.flows().size());
        assertTrue(r.counter(TransportModel.FAILED_QPS) == 0 || r.droppedPackets() + r.controlDropped() > 0);
    }
}
