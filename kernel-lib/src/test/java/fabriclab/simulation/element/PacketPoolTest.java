package fabriclab.simulation.element;

import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.FlowSpec;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import fabriclab.loadbalancing.flow.FiveTuple;
import org.junit.jupiter.api.Test;

/** The packet pool hands out recycled packets last-in first-out, each indistinguishable from a new one. */
class PacketPoolTest {
    private static FlowState flow(int id, int source, int destination) {
        FlowSpec spec = new FlowSpec(source, destination, 5_000, 0, 0, 49152 + id);
        return new FlowState(id, spec, FiveTuple.roceV2(Simulator.hostAddress(source), Simulator.hostAddress(destination),
                spec.sourcePort()), 1000, 0);
    }

    /** Every field of {@code p} equals the constructor's for the same arguments. */
    private static void assertFresh(Packet expected, Packet p) {
        assertSame(expected.flow, p.flow);
        assertEquals(expected.kind, p.kind);
        assertEquals(expected.seq, p.seq);
        assertEquals(expected.payloadBytes, p.payloadBytes);
        assertEquals(expected.wireBytes, p.wireBytes);
        assertEquals(expected.priority, p.priority);
        assertEquals(expected.destination, p.destination);
        assertEquals(0, p.aux);
        assertFalse(p.ecn);
        assertNull(p.attachment);
        assertEquals(0, p.enqueuedPs);
        assertNull(p.ingress);
        assertEquals(-1, p.ingressPriority);
    }

    @Test
    void emptyPoolAllocatesAndRecycledPacketsComeBackLastInFirstOutAsNew() {
        Packet.Pool pool = new Packet.Pool();
        FlowState a = flow(0, 0, 1);
        FlowState b = flow(1, 2, 3);
        Packet first = pool.data(a, 3, 1000, 1064, 2);
        Packet second = pool.get(a, Packet.ACK, 4, 0, 64, 0, 0);
        assertNotSame(first, second);
        assertFresh(new Packet(a, 3, 1000, 1064, 2), first);
        // a packet's journey leaves marks on every mutable field
        first.priority = 5;
        first.aux = 77;
        first.ecn = true;
        first.enqueuedPs = 123;
        first.ingressPriority = 1;
        pool.recycle(second);
        pool.recycle(first);
        Packet again = pool.get(b, Packet.CNP, 9, 0, 64, 6, 2);
        assertSame(first, again); // the last recycled comes back first
        assertFresh(new Packet(b, Packet.CNP, 9, 0, 64, 6, 2), again);
        Packet data = pool.data(b, 1, 500, 564, 0);
        assertSame(second, data);
        assertFresh(new Packet(b, 1, 500, 564, 0), data);
        assertEquals(3, data.destination); // a data packet goes to its flow's destination
        assertNotSame(first, pool.data(a, 0, 1000, 1064, 0)); // empty again: a new packet
    }
}
