package fabriclab.simulation;

import fabriclab.simulation.trace.Trace;
import fabriclab.simulation.trace.DropReason;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Time;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The queue trace sources agree with the elements' own counters. */
class TraceTest {
    /** Counts what a trace saw, per (node, port) and per drop reason. */
    static final class Counting implements Trace {
        final Map<Long, Long> enqueued = new HashMap<>();
        final Map<Long, Long> drops = new HashMap<>();
        final Map<DropReason, Long> reasons = new EnumMap<>(DropReason.class);
        long dataDrops;
        long controlDrops;
        long dequeued;
        long lastTime;
        boolean timeOrdered = true;

        private void time(long t) {
            timeOrdered &= t >= lastTime;
            lastTime = t;
        }

        @Override
        public void enqueued(int node, int port, int flow, boolean data, int wireBytes, long queueBytes, long timePs) {
            enqueued.merge(((long) node << 32) | port, 1L, Long::sum);
            time(timePs);
        }

        @Override
        public void dequeued(int switchIndex, int port, int flow, boolean data, int wireBytes, long queueingDelayPs, long timePs) {
            dequeued++;
            time(timePs);
        }

        @Override
        public void dropped(int node, int port, int flow, boolean data, int wireBytes, DropReason reason, long timePs) {
            drops.merge(((long) node << 32) | (port & 0xffffffffL), 1L, Long::sum);
            reasons.merge(reason, 1L, Long::sum);
            if (data) {
                dataDrops++;
            } else {
                controlDrops++;
            }
            time(timePs);
        }
    }

    @Test
    void tailDropsEnqueuesAndDequeuesMatchTheQueueCounters() {
        SimulationConfig c = SimulationConfig.builder().buffer(SwitchBuffer.shared(60_000)).build();
        Scenario s = Scenario.incast(6, 200_000, 100_000_000_000L, c);
        Counting t = new Counting();
        SimulationResult r = new Simulator(s, t).run();
        assertTrue(r.droppedPackets() > 0);
        assertEquals(r.droppedPackets(), t.dataDrops);
        assertEquals(Map.of(DropReason.TAIL_DROP, r.droppedPackets()), t.reasons);
        long switchNode = s.topology().switchNode(0);
        long dequeues = 0;
        for (SimulationResult.QueueTrace q : r.queues()) {
            long key = (switchNode << 32) | q.port();
            // every packet admitted to a queue was transmitted by the end of a complete run
            assertEquals(q.txPackets(), t.enqueued.getOrDefault(key, 0L), q.name());
            assertEquals(q.drops(), t.drops.getOrDefault(key, 0L), q.name());
            dequeues += q.txPackets();
        }
        assertEquals(dequeues, t.dequeued);
        assertTrue(t.timeOrdered);
    }

    @Test
    void failuresAreReportedWithTheirReason() {
        LeafSpine ls = LeafSpine.builder().servers(8).leaves(2).spines(2).hostRateBitsPerSecond(100_000_000_000L)
                .uplinkRateBitsPerSecond(100_000_000_000L).build();
        Scenario s = Scenario.permutation(ls, 400_000, 3, SimulationConfig.builder().buffer(SwitchBuffer.shared(10_000_000)).build())
                .toBuilder().failLink(ls.uplinkIndex(0, 0, 0), 10 * Time.US, 20 * Time.US).build();
        Counting t = new Counting();
        SimulationResult r = new Simulator(s, t).run();
        assertEquals(r.droppedPackets(), t.dataDrops);
        assertEquals(r.controlDropped(), t.controlDrops);
        assertTrue(t.reasons.getOrDefault(DropReason.LINK_FAILURE, 0L)
                + t.reasons.getOrDefault(DropReason.BLACK_HOLE, 0L) > 0, t.reasons.toString());
        assertEquals(r.counter(SimulationResult.BLACKHOLED_PACKETS),
                t.reasons.getOrDefault(DropReason.BLACK_HOLE, 0L));
    }
}
