package fabriclab.simulation.transport.uec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The UEC transport on a non-blocking 2-leaf, 4-spine fabric of 8 hosts at 100 Gb/s with 1 us links, 1000-byte
 * payloads and 64-byte headers: the invariants the other transports keep (conservation, no spurious timeout, lossless
 * with PFC, one run on every engine and thread count, one run per seed) and values derived by hand: the fabric's base
 * RTT, the permutation's completion time at line rate, the incast's bounded queue.
 */
class UecTransportInvariantTest {
    static final long G100 = 100_000_000_000L;
    static final LeafSpine FABRIC = new LeafSpine(8, 1, 2, 4, G100, G100, 1, Time.US, Time.US);
    static final int HOSTS = 8;
    static final int MTU = 1000;
    static final int HEADER = 64;
    static final int WIRE = MTU + HEADER;
    /**
     * The reference's base RTT of this fabric (host, leaf, spine, leaf, host: 4 links), by hand: per link twice 1 us
     * of propagation plus a 1064-byte packet and a 64-byte ACK at 100 Gb/s (85.12 + 5.12 ns): 4 x 2,090.24 ns.
     */
    static final long BASE_RTT_PS = 4 * (2 * Time.US + 85_120 + 5_120);
    /** Its BDP at 100 Gb/s: 12.5 B/ns x 8,360.96 ns. */
    static final long BDP_BYTES = 104_512;
    /** The trimming threshold, one BDP in whole packets: ceil(104,512 / 1064) = 99 packets. */
    static final long TRIM_THRESHOLD = 99L * WIRE;

    static SimulationConfig config(SwitchBuffer buffer, long seed) {
        return new SimulationConfig(MTU, HEADER, 1, buffer, Forwarding.ecmp(HashFunction.CRC32, 0), seed, 0, 0);
    }

    static SwitchBuffer uecBuffer(long bytes) {
        return UecTransport.switchBuffer(bytes, BDP_BYTES, WIRE);
    }

    static List<FlowSpec> incast(int senders, long bytes) {
        List<FlowSpec> flows = new ArrayList<>();
        for (int h = 0; h < senders; h++) {
            flows.add(new FlowSpec(h, HOSTS - 1, bytes, 0, 0, 1000 + h));
        }
        return flows;
    }

    static List<FlowSpec> permutation(long bytes) {
        List<FlowSpec> flows = new ArrayList<>();
        for (int h = 0; h < HOSTS; h++) {
            flows.add(new FlowSpec(h, (h + 4) % HOSTS, bytes, 0, 0, 1000 + h)); // every flow crosses the spines
        }
        return flows;
    }

    static List<FlowSpec> allToAll(long bytes) {
        List<FlowSpec> flows = new ArrayList<>();
        for (int h = 0; h < HOSTS; h++) {
            for (int d = 0; d < HOSTS; d++) {
                if (d != h) {
                    flows.add(new FlowSpec(h, d, bytes, 0, 0, 2000 + 8 * h + d));
                }
            }
        }
        return flows;
    }

    static SimulationResult run(List<FlowSpec> flows, UecTransport t, SwitchBuffer buffer, Pfc pfc, long seed) {
        return new Simulator(Scenario.builder(FABRIC.build(), config(buffer, seed)).flows(flows).transport(t).pfc(pfc)
                .build()).run();
    }

    @Test
    void theBaseRttIsTheReferencesRuleOnTheLongestPath() {
        assertEquals(BASE_RTT_PS, UecTransport.fabricBaseRttPs(FABRIC.build(), new int[] {0}, WIRE, 64));
    }

    /**
     * A permutation across the spines, every host sending and receiving one flow: with the packets sprayed the load
     * spreads over the 4 spines and each flow runs at line rate. Closed form of a flow's completion: its last packet
     * leaves the source (n - 1) packet times after the first, which then crosses 4 store-and-forward hops of 1 us and one
     * packet time each: (n - 1) x 85.12 ns + 4 x (1 us + 85.12 ns). EntropySpraying gets within 5 % of it for every flow.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(EntropySpraying.class)
    void aSprayedPermutationRunsAtLineRate(EntropySpraying spraying) {
        long bytes = 2_000_000;
        SimulationResult r = run(permutation(bytes), UecTransport.defaults().withSpraying(spraying), uecBuffer(16_000_000),
                null, 1);
        assertTrue(r.allCompleted());
        long packetPs = WIRE * 8L * 1000 / 100; // 85,120 ps at 100 Gb/s
        long ideal = (bytes / MTU - 1) * packetPs + 4 * (Time.US + packetPs);
        for (SimulationResult.FlowRecord f : r.flows()) {
            assertTrue(f.completionTimePs() >= ideal, "faster than line rate: " + f);
            assertTrue(f.completionTimePs() <= 1.05 * ideal, f.completionTimePs() + " ps against " + ideal + " ps: " + f);
        }
        assertEquals(0, r.droppedPackets());
        assertEquals(0, r.counter(TransportModel.TIMEOUTS));
    }

    /**
     * An incast of 7 senders into one host with trimming: the receiver's port holds at most the threshold of data plus
     * the trimmed headers ahead of it; those arrive at most 7 at a time (a header from each sender while the port drains
     * a whole packet: 7 x 64 B < 1064 B), so the queue stays within threshold + 7 x 64 B. Nothing is lost, no timeout
     * fires, every trimmed packet is NACKed and resent once, and the port stays busy: the makespan is within 3 % of the
     * closed form, all the payload in packets of 1064 B at 100 Gb/s.
     */
    @Test
    void trimmingBoundsTheIncastQueueWithoutTimeouts() {
        int senders = 7;
        long bytes = 1_000_000;
        SimulationResult r = run(incast(senders, bytes), UecTransport.defaults(), uecBuffer(16_000_000), null, 1);
        assertTrue(r.allCompleted());
        long trims = r.counter(UecTransport.TRIMS);
        assertTrue(trims > 0, "the incast trims");
        assertEquals(0, r.droppedPackets());
        assertEquals(0, r.counter(TransportModel.TIMEOUTS));
        assertEquals(trims, r.counter(TransportModel.NACKS));
        assertEquals(trims, r.counter(UecTransport.RETRANSMITS));
        long peak = 0;
        for (SimulationResult.QueueTrace q : r.queues()) {
            peak = Math.max(peak, q.peakBytes());
        }
        assertTrue(peak <= TRIM_THRESHOLD + senders * 64, "peak queue " + peak);
        assertTrue(peak > TRIM_THRESHOLD - WIRE, "a packet is trimmed only when it would take the queue above the"
                + " threshold: peak queue " + peak);
        double ideal = senders * (bytes / MTU) * WIRE * 8.0 / G100 * 1e12;
        assertTrue(r.lastDeliveryPs() <= 1.03 * ideal, r.lastDeliveryPs() + " ps against " + ideal);
    }

    /**
     * Conservation in lossy runs (trimming, or tail drops with trimming off and a 100 KB buffer): every copy a sender put
     * on the wire ended delivered, as a duplicate, trimmed (its header NACKed) or dropped; the payload injected is the
     * flows' plus what was resent; and injected - delivered - dropped - discarded, nothing being left in flight, is the
     * payload the switches cut. No timeout is spurious; every flow completes.
     */
    @ParameterizedTest(name = "trimming {0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void aLossyRunConservesPacketsAndBytes(boolean trimming) {
        List<FlowSpec> flows = new ArrayList<>(incast(7, 500_000));
        flows.addAll(allToAll(50_000));
        UecTransport t = UecTransport.defaults().withTrimming(trimming, 0);
        SimulationResult r = run(flows, t, uecBuffer(trimming ? 16_000_000 : 100_000), null, 3);
        assertTrue(r.allCompleted());
        long total = flows.stream().mapToLong(FlowSpec::bytes).sum();
        long packets = flows.stream().mapToLong(f -> (f.bytes() + MTU - 1) / MTU).sum();
        long resent = 0;
        long resentBytes = 0;
        long duplicates = 0;
        long dropped = 0;
        for (SimulationResult.FlowRecord f : r.flows()) {
            resent += f.retransmittedPackets();
            resentBytes += f.retransmittedBytes();
            duplicates += f.duplicatePackets();
            dropped += f.droppedPackets();
        }
        assertEquals(total, r.deliveredBytes());
        assertEquals(packets + resent, packets + duplicates + r.counter(UecTransport.TRIMMED_RECEIVED) + dropped);
        assertEquals(total + resentBytes, r.injectedBytes());
        assertEquals(r.counter(UecTransport.TRIMMED_BYTES),
                r.injectedBytes() - r.deliveredBytes() - r.droppedBytes() - r.discardedBytes());
        assertEquals(0, r.counter(TransportModel.SPURIOUS_TIMEOUTS));
        if (trimming) {
            assertTrue(r.counter(UecTransport.TRIMS) > 0);
        } else {
            assertTrue(r.droppedPackets() > 0 && r.counter(TransportModel.TIMEOUTS) > 0, "tail drops recovered by timeouts");
            assertEquals(0, r.counter(UecTransport.TRIMS));
        }
    }

    /**
     * With PFC (packet-level headroom, a buffer holding XOFF plus headroom per ingress port) and trimming off, nothing is
     * dropped or resent and no timeout fires. The timeout is set to 1 ms here: the default (15 us + 6 drains of one BDP,
     * 65 us on this fabric) is written for trimming switches, whose queues stay under a BDP; PFC lets queues and pauses
     * hold a packet longer than that, and the default then fires with nothing lost.
     */
    @Test
    void aLosslessFabricDropsNothingAndNeverTimesOut() {
        long headroom = PfcHeadroom.packetLevelBytes(G100, Time.US, WIRE);
        Pfc pfc = new Pfc(100_000, 80_000, headroom, 65535);
        List<FlowSpec> flows = new ArrayList<>(incast(7, 500_000));
        flows.addAll(allToAll(50_000));
        SimulationResult r = run(flows, UecTransport.defaults().withTrimming(false, 0).withRetransmissionTimeoutPs(Time.MS),
                uecBuffer(8 * (100_000 + headroom)), pfc, 1);
        assertTrue(r.allCompleted());
        long total = flows.stream().mapToLong(FlowSpec::bytes).sum();
        assertEquals(0, r.droppedPackets());
        assertEquals(0, r.controlDropped());
        assertEquals(0, r.counter(TransportModel.TIMEOUTS));
        assertEquals(0, r.counter(TransportModel.NACKS));
        assertEquals(total, r.injectedBytes(), "nothing resent");
        assertTrue(r.pfc().stream().mapToLong(SimulationResult.PortPfc::pausesSent).sum() > 0, "PFC paused");
    }

    /** Every counter, flow record and queue of a run. */
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
        return b.toString();
    }

    static Scenario mixed(long seed) {
        List<FlowSpec> flows = new ArrayList<>(incast(7, 300_000));
        flows.addAll(allToAll(30_000));
        return Scenario.builder(FABRIC.build(), config(uecBuffer(16_000_000), seed)).flows(flows)
                .transport(UecTransport.defaults()).build();
    }

    /** The parallel engine gives the same run (trims, NACKs, sprayed entropies) with 1, 2 and 3 threads. */
    @Test
    void theParallelEngineGivesTheSameRunWithOneToThreeThreads() {
        Scenario s = mixed(1);
        SimulationResult one = new Simulator(s).runParallel(1);
        assertTrue(one.allCompleted() && one.counter(UecTransport.TRIMS) > 0);
        String f = fingerprint(one);
        for (int threads = 2; threads <= 3; threads++) {
            assertEquals(f, fingerprint(new Simulator(s).runParallel(threads)), "threads = " + threads);
        }
    }

    /** One flow across the spines (no simultaneous events to order) is the same run in both engines. */
    @Test
    void aSingleFlowIsTheSameInBothEngines() {
        Scenario s = Scenario.builder(FABRIC.build(), config(uecBuffer(16_000_000), 1))
                .flows(List.of(new FlowSpec(0, 7, 1_000_000, 0, 0, 50_000))).transport(UecTransport.defaults()).build();
        SimulationResult seq = new Simulator(s).run();
        assertTrue(seq.allCompleted() && seq.controlPackets() > 0);
        assertEquals(fingerprint(seq), fingerprint(new Simulator(s).runParallel(3)));
    }

    /** A seed gives one run (byte for byte again); another seed sprays other entropies. */
    @Test
    void theSeedDecidesTheRun() {
        String a = fingerprint(new Simulator(mixed(1)).run());
        assertEquals(a, fingerprint(new Simulator(mixed(1)).run()));
        assertNotEquals(a, fingerprint(new Simulator(mixed(2)).run()));
    }
}
