package fabriclab.simulation.transport.gse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.Simulator;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Time;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.progress.Progress;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Traffic between two hosts of one leaf under GSE: scheduled by the destination port's grants like the traffic from
 * other leaves (VOQ, container, request, grant, confirmation), with no fabric hop. Packets of 4096 B and no header
 * (wire = payload), so a 16 KiB container is exactly 4 packets and one packet takes T = 4096 x 8 / 100G = 327.68 ns
 * on every 100G link; links of 1 us.
 */
class GseLocalTrafficTest {
    static final long G100 = 100_000_000_000L;
    static final int PACKET = 4096;
    /** One packet's serialisation at 100G, ps: 4096 x 8 bits / 1e11 bit/s = 327.68 ns. */
    static final long T = PACKET * 8L * Time.S / G100;
    /** Propagation delay of every link, ps. */
    static final long DELAY = Time.US;
    /** Packets per 16 KiB container. */
    static final int K = 16_384 / PACKET;

    static SimulationConfig config(long bufferBytes) {
        return new SimulationConfig(PACKET, 0, 1, SwitchBuffer.shared(bufferBytes), Forwarding.ecmp(HashFunction.CRC32, 0),
                1, 0, 0);
    }

    static SimulationResult run(LeafSpine fabric, long bufferBytes, List<FlowSpec> flows) {
        return new Simulator(Scenario.builder(fabric.build(), config(bufferBytes)).flows(flows).transport(GseTransport.defaults())
                .build()).run(100 * Time.MS, Progress.silent());
    }

    /**
     * Hosts 0 and 1 (leaf 0) and hosts 8 and 9 (leaf 1) each send 2 MiB to host 2 (leaf 0) from time 0: 400G offered
     * to a 100G port, with a 1 MB shared buffer per switch. Unscheduled at line rate, the two local senders alone
     * overfill the port (200G in, 100G out: the 1 MB fills in about 10 us) and their dropped packets were never
     * resent; scheduled, the port's one grant clock paces all four.
     *
     * <p>Expected, derived from the model: every flow completes with its 2 MiB delivered once, nothing dropped or
     * resent. The port is the bottleneck: 8 MiB x 8 / 100G = 671.09 us of serialisation, which cannot start before the
     * first container is assembled (K packet times plus the host link, 2.31 us) and ends a host link before the
     * receiver has it, so the last completion is at least 671.09 + 2.31 + 1 us; and the grant clock keeps the port
     * busy once requests queue, so at most about one unloaded remote loop later than that (request and grant 2 x 2 us,
     * container 1.31 us on the uplink, 2 x 1 us links, 0.33 us at the spine, under 10 us); 20 us is allowed. The
     * port's queue: a local container lands at the port at its grant time, a remote one 5.64 us after its grant
     * (grant 2 us, uplink 1.31 us, link 1 us, spine's last packet 0.33 us, link 1 us), up to one container's
     * serialisation more when the two remote senders' containers meet at an uplink (6.95 us): the port holds at most
     * the bytes granted in 6.95 us (100G x 6.95 us = 86.9 KB) plus the container the grant clock may run ahead and
     * the one in service, 119.6 KB, under 128 KiB, where the unscheduled traffic had filled the 1 MB buffer.
     */
    @Test
    void localAndRemoteSendersToOneHostShareItsGrantsAndNothingDrops() {
        LeafSpine ls = new LeafSpine(16, 1, 2, 2, G100, G100, 1, DELAY, DELAY);
        long bytes = 2L << 20;
        List<FlowSpec> flows = List.of(FlowSpec.of(0, 2, bytes, 0), FlowSpec.of(1, 2, bytes, 0), FlowSpec.of(8, 2, bytes, 0),
                FlowSpec.of(9, 2, bytes, 0));
        SimulationResult r = run(ls, 1_000_000, flows);
        assertTrue(r.allCompleted(), "not every flow completed");
        for (SimulationResult.FlowRecord f : r.flows()) {
            assertEquals(bytes, f.deliveredBytes(), "flow " + f.id());
            assertEquals(0, f.duplicatePackets());
            assertEquals(0, f.retransmittedPackets());
        }
        assertEquals(0, r.droppedPackets());
        assertEquals(4 * bytes, r.deliveredBytes());
        assertEquals(r.injectedBytes(), r.deliveredBytes());
        assertEquals(0, r.inFlightBytes());
        // every container, the local ones included, was requested and granted once
        assertEquals(4 * bytes / (K * PACKET), r.counter(GseTransport.CONTAINERS));
        assertEquals(r.counter(GseTransport.CONTAINERS), r.counter(GseTransport.GRANTS));
        assertEquals(0L, r.counter(GseTransport.CONTAINERS_RESENT));
        SimulationResult.QueueTrace port = r.queues().stream().filter(q -> q.peerNode() == 2).findFirst().orElseThrow();
        assertEquals(0, port.drops());
        assertTrue(port.peakBytes() <= 128 * 1024, "host port peak " + port.peakBytes());
        long serialisation = 4 * bytes * 8 * (Time.S / G100); // 10 ps per bit
        long last = 0;
        for (int i = 0; i < flows.size(); i++) {
            last = Math.max(last, r.completedAtPs(i));
        }
        assertTrue(last >= serialisation + K * T + 2 * DELAY, "last completion " + last);
        assertTrue(last <= serialisation + 20 * Time.US, "last completion " + last);
    }

    /** Hosts 0 and 1 under leaf 0 of a 4-host, 2-leaf fabric: nothing else runs. */
    static final LeafSpine EMPTY = new LeafSpine(4, 1, 2, 1, G100, G100, 1, DELAY, DELAY);

    /**
     * One local flow alone, n = 64 full containers (1 MiB, 256 packets). Derivation: the host sends back to back from
     * 0, packet i reaches the leaf at (i + 1) T + d (d the host link's delay). Container j closes when its last packet
     * arrives, at (K j + K) T + d (K - 1 = 3 packet times after its first, under the 1 us assembly timeout); its
     * request and grant take no time (no link crossed) and the port's grant clock is free then (the previous grant
     * advanced it by K T, to that very instant); the container is at once complete, confirmed and queued at the host
     * port, which finishes the previous container at that instant. So the port serialises without gap and the last
     * container, closed at n K T + d, reaches the host at n K T + d + K T + d: FCT = (n K + K) T + 2 d = 260 x 327.68
     * ns + 2 us = 87.1968 us, K - 1 packet times (the wait for a container's last packet) above a store-and-forward
     * switch's (n K + 1) T + 2 d.
     */
    @Test
    void aLocalFlowAloneCompletesInTheClosedFormTime() {
        int n = 64;
        long bytes = (long) n * K * PACKET;
        SimulationResult r = run(EMPTY, 32_000_000, List.of(FlowSpec.of(0, 1, bytes, 0)));
        assertTrue(r.allCompleted());
        assertEquals(87_196_800, (long) (n * K + K) * T + 2 * DELAY); // the figure stated above
        assertEquals((long) (n * K + K) * T + 2 * DELAY, r.completedAtPs(0));
        assertEquals(n, r.counter(GseTransport.CONTAINERS));
        assertEquals(n, r.counter(GseTransport.GRANTS));
        assertEquals(0, r.droppedPackets());
        assertEquals(bytes, r.deliveredBytes());
        // the loop from sending to confirmation of a local container is 0: no link, no control latency
        assertEquals(0L, r.counter(GseTransport.CONFIRM_LOOP_PEAK_PS));
    }

    /**
     * The same with m = 2 packets more: a partial last container. Its first packet reaches the leaf at (n K + 1) T + d
     * and finds the VOQ empty; the container closes at the assembly timeout, 1 us later (its second packet arrived
     * T after the first), when the port has finished the previous container (at (n K + K) T + d, 17 ns earlier) and
     * the grant clock is free: FCT = (n K + 1) T + d + 1 us + m T + d = 259 x 327.68 ns + 3 us = 87.86912 us.
     */
    @Test
    void aPartialLastContainerWaitsForTheAssemblyTimeout() {
        int n = 64;
        int m = 2;
        long bytes = (long) (n * K + m) * PACKET;
        SimulationResult r = run(EMPTY, 32_000_000, List.of(FlowSpec.of(0, 1, bytes, 0)));
        assertTrue(r.allCompleted());
        long assembly = GseTransport.defaults().assemblyTimeoutPs();
        long expected = (long) (n * K + 1) * T + DELAY + assembly + m * T + DELAY;
        assertEquals(87_869_120, expected);
        assertEquals(expected, r.completedAtPs(0));
        assertEquals(n + 1, r.counter(GseTransport.CONTAINERS));
        assertEquals(bytes, r.deliveredBytes());
    }

    /**
     * A local flow and the same flow across the spines give the same bytes, once each; and the local one, with no
     * fabric hop and no control latency, completes sooner. Checks that the local path delivers in order: the
     * receiver counts no reordered packet.
     */
    @Test
    void aLocalFlowIsDeliveredInOrderAndSoonerThanARemoteOne() {
        long bytes = 1L << 20;
        SimulationResult local = run(EMPTY, 32_000_000, List.of(FlowSpec.of(0, 1, bytes, 0)));
        SimulationResult remote = run(EMPTY, 32_000_000, List.of(FlowSpec.of(0, 2, bytes, 0)));
        assertTrue(local.allCompleted() && remote.allCompleted());
        assertEquals(bytes, local.deliveredBytes());
        assertEquals(bytes, remote.deliveredBytes());
        assertEquals(0, local.flows().get(0).reorderedPackets());
        assertTrue(local.completedAtPs(0) < remote.completedAtPs(0));
    }
}
