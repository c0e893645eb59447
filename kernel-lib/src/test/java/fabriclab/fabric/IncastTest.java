package fabriclab.fabric;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IncastTest {
    private static final long G100 = 100_000_000_000L;
    private static final long G25 = 25_000_000_000L;

    private static void fails(String name, Runnable r) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, r::run);
        assertTrue(e.getMessage().contains(name), e.getMessage());
    }

    /** 001's incast: 7 senders x 1000 queue pairs at 100G into one 100G port, offered load 7. */
    @Test
    void derivedQuantitiesOfTheSevenToOneIncast() {
        Incast in = new Incast(7, 1000, 64_000, G100, G100, 0);
        assertEquals(7000, in.queuePairs());
        assertEquals(7 * 64_000, in.totalBytes());
        assertEquals(7.0, in.overload(), 0);
        assertEquals(7, in.receiver());
        assertEquals(0, in.startPs(6));
        Incast wider = in.withSenders(64);
        assertEquals(64, wider.senders());
        assertEquals(in.qpsPerSender(), wider.qpsPerSender());
    }

    /** Stagger: sender i starts at i times the stagger; 16 x 25G into 100G is 4 times overloaded. */
    @Test
    void staggerAndRates() {
        Incast in = new Incast(16, 1, 1_000, G25, G100, 2 * Time.US);
        assertEquals(30 * Time.US, in.startPs(15));
        assertEquals(2e-6, in.staggerS(), 1e-21);
        assertEquals(4.0, in.overload(), 0);
    }

    /** The incast's topology: senders 0..n-1 at r, the receiver n at R, all on one switch. */
    @Test
    void topologyPutsTheReceiverLast() {
        Topology t = new Incast(3, 2, 1_000, G25, G100, 0).topology(Time.US);
        assertEquals(4, t.hosts());
        assertEquals(1, t.switches());
        for (LinkSpec l : t.links()) {
            assertEquals(t.switchNode(0), l.nodeB());
            assertEquals(l.nodeA() == 3 ? G100 : G25, l.rateBitsPerSecond());
            assertEquals(Time.US, l.propagationPs());
        }
    }

    @Test
    void badInputNamesTheParameter() {
        fails("senders", () -> Incast.of(0, 1, G100));
        fails("qpsPerSender", () -> new Incast(2, 0, 1, G100, G100, 0));
        fails("bytesPerSender", () -> Incast.of(2, 0, G100));
        fails("bytesPerSender", () -> Incast.of(4, Long.MAX_VALUE / 2, G100));
        fails("senderRateBitsPerSecond", () -> new Incast(2, 1, 1, -1, G100, 0));
        fails("receiverRateBitsPerSecond", () -> new Incast(2, 1, 1, G100, 0, 0));
        fails("staggerPs", () -> Incast.of(2, 1, G100).withStagger(-1));
        fails("sender", () -> Incast.of(2, 1, G100).startPs(2));
        fails("propagationPs", () -> Incast.of(2, 1, G100).topology(-1));
    }
}
