package fabriclab.simulation.element;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SwitchBuffer;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

class EgressQueueTest {
    /** Host 0 sends to host 1 through one switch; 3 priorities. */
    static Rig rig() {
        return new Rig(Topology.singleSwitch(2, Rig.G100, Time.US), Rig.config(3, SwitchBuffer.shared(1_000_000), 1),
                List.of(FlowSpec.of(0, 1, 100_000, 0)));
    }

    @Test
    void fifoPerPriorityAndBytesChargedOnAddReturnedOnRelease() {
        Rig r = rig();
        EgressQueue q = new EgressQueue(3);
        Packet a = r.data(0, 0, 100, 2);
        Packet b = r.data(0, 1, 200, 0);
        Packet c = r.data(0, 2, 300, 0);
        Packet d = r.data(0, 3, 400, 1);
        for (Packet p : List.of(a, b, c, d)) {
            q.add(p);
        }
        assertArrayEquals(new long[] {500, 400, 100}, q.bytes);
        assertEquals(1000, q.totalBytes());
        // FIFO within a priority
        assertSame(b, q.poll(0));
        // taking a packet out to transmit it does not return its bytes: it still occupies the buffer
        assertEquals(1000, q.totalBytes());
        assertArrayEquals(new long[] {500, 400, 100}, q.bytes);
        q.release(b);
        assertArrayEquals(new long[] {300, 400, 100}, q.bytes);
        assertEquals(800, q.totalBytes());
        assertSame(c, q.poll(0));
        assertTrue(q.isEmpty(0));
        assertNull(q.poll(0));
        assertSame(d, q.poll(1));
        assertSame(a, q.poll(2));
        for (Packet p : List.of(c, d, a)) {
            q.release(p);
        }
        assertArrayEquals(new long[] {0, 0, 0}, q.bytes);
        assertEquals(0, q.totalBytes());
    }

    @Test
    void peakIsTheHighestTotalEverHeld() {
        Rig r = rig();
        EgressQueue q = new EgressQueue(2);
        Packet a = r.data(0, 0, 1000, 0);
        Packet b = r.data(0, 1, 700, 1);
        Packet c = r.data(0, 2, 500, 0);
        q.add(a);
        q.add(b); // 1700
        q.poll(0);
        q.release(a); // 700
        q.add(c); // 1200: below the earlier peak
        assertEquals(1200, q.totalBytes());
        assertEquals(1700, q.peakBytes);
        Packet d = r.data(0, 3, 600, 1);
        q.add(d); // 1800: a new peak
        assertEquals(1800, q.peakBytes);
    }

    @Test
    void samplesGrowTheArrayUpToMaxAndNoFurther() {
        Rig r = rig();
        EgressQueue q = new EgressQueue(1);
        q.sampleBytes = new long[2];
        int max = 5; // the array grows 2 -> 4 -> 5 (doubling, capped at max)
        for (int k = 0; k < max; k++) {
            q.add(r.data(0, k, 100, 0));
            q.sample(max);
        }
        assertEquals(max, q.samples);
        assertEquals(max, q.sampleBytes.length);
        assertArrayEquals(new long[] {100, 200, 300, 400, 500}, q.sampleBytes);
    }

    @Test
    void thePortServesPrioritiesStrictlyAndFifoWithinOne() {
        // the switch's port toward host 1 is busy with packet 0 (priority 2) when the others join:
        // after it, every priority-0 packet goes before any priority-1 packet, then priority 2
        Rig r = rig();
        Switch sw = r.net.switches[0];
        Port out = sw.ports.get(1);
        int[][] order = {{0, 2}, {1, 2}, {2, 1}, {3, 0}, {4, 1}, {5, 0}}; // {seq, priority}
        r.at(0, () -> {
            for (int[] o : order) {
                sw.admit(r.data(0, o[0], 1000, o[1]), out);
            }
        });
        r.runAll();
        int[] seqs = r.arrivalsAt(1).stream().mapToInt(a -> a.packet().seq).toArray();
        assertArrayEquals(new int[] {0, 3, 5, 2, 4, 1}, seqs);
        // back to back at 80 ns per 1000 B at 100G, plus 1 us of propagation
        for (int k = 0; k < seqs.length; k++) {
            assertEquals((k + 1) * 80 * Time.NS + Time.US, r.arrivalsAt(1).get(k).timePs());
        }
        assertEquals(0, out.queue.totalBytes());
        assertEquals(6000, out.queue.peakBytes);
    }
}
