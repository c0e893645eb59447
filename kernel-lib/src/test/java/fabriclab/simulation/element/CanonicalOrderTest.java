package fabriclab.simulation.element;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.event.EventHandler;
import fabriclab.simulation.event.EventQueue;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The engines' canonical order of simultaneous events, on a keyed event queue as their partitions use it. */
class CanonicalOrderTest {
    private static final long SEED = 1;

    /** A keyed queue in the canonical order, as a partition of either engine has. */
    private static EventQueue canonicalQueue(int initialCapacity) {
        CanonicalOrder order = new CanonicalOrder(SEED);
        order.activate(new int[0]); // no port counts: every lane but the own one is a port's, drawn
        return EventQueue.keyed(initialCapacity, order, CanonicalOrder.OWN_LANE, CanonicalOrder.MAX_KEY);
    }

    /**
     * The rule's rank of an event of lane {@code lane} of {@code node} at {@code time}, written out from the rule
     * (own lane last, arriving lanes by the draw, then by lane): the reference the tests sort by.
     */
    private static long rank(long time, long key) {
        long node = key >>> CanonicalOrder.LANE_BITS;
        int lane = (int) (key & CanonicalOrder.MAX_LANE);
        return lane == CanonicalOrder.OWN_LANE ? Long.MAX_VALUE : CanonicalOrder.draw(SEED, time, node, lane) * 4096 + lane;
    }

    record Keyed(long time, long key, int order) {
    }

    @Test
    void canonicalQueueGivesEachNodeItsEventsOfAnInstantInTheRulesOrderWithEqualKeysInSchedulingOrder() {
        // independent reference: a stable sort of (time, node, rank) over the insertion order, read per (time, node); the
        // queue may interleave different nodes as it likes but must give every node exactly that sequence, and the
        // instants in time order. Instants of about 400 events with few keys (many equal ones: sorted), of about
        // 3,000 with keys over the whole range (the radix sort's passes over every byte; nodes beyond the check),
        // of about 10 (the comparison sort, or none), of about 4 events of 1,000 nodes (mostly left as they are),
        // and of 2 events of 3 nodes
        long[][] shapes = {{50, 30, 4}, {7, CanonicalOrder.MAX_NODE + 1, CanonicalOrder.MAX_LANE + 1}, {2_000, 30, 4},
            {5_000, 1_000, 4}, {10_000, 3, 3}};
        for (long[] shape : shapes) {
            for (boolean byPoll : new boolean[] {false, true}) { // dispatchNextInstant, or poll() one event at a time
                SplittableRandom rnd = new SplittableRandom(11);
                EventQueue q = canonicalQueue(2);
                List<Keyed> all = new ArrayList<>();
                List<Keyed> handled = new ArrayList<>();
                EventHandler h = (t, p) -> handled.add((Keyed) p);
                for (int i = 0; i < 20_000; i++) {
                    Keyed e = new Keyed(rnd.nextLong(shape[0]), CanonicalOrder.key(rnd.nextLong(shape[1]), (int) rnd.nextLong(shape[2])), i);
                    all.add(e);
                    q.scheduleKeyed(e.time(), h, e, e.key());
                }
                if (byPoll) {
                    while (q.poll()) {
                        q.polledHandler().handle(q.polledTime(), q.polledPayload());
                        assertEquals(handled.get(handled.size() - 1).key(), q.currentKey());
                    }
                } else {
                    while (q.dispatchNextInstant(Long.MAX_VALUE) > 0) {
                        assertEquals(handled.get(handled.size() - 1).key(), q.currentKey());
                    }
                }
                String what = "instants of " + shape[0] + " times, " + shape[1] + " nodes, " + shape[2] + " lanes"
                        + (byPoll ? ", polled" : ", dispatched");
                assertEquals(all.size(), handled.size(), what);
                for (int i = 1; i < handled.size(); i++) {
                    assertTrue(handled.get(i - 1).time() <= handled.get(i).time(), what + ": time order at " + i);
                }
                all.sort(Comparator.comparingLong(Keyed::time).thenComparingLong(e -> e.key() >>> CanonicalOrder.LANE_BITS)
                        .thenComparingLong(e -> rank(e.time(), e.key()))); // List.sort is stable
                assertEquals(byTimeAndNode(all), byTimeAndNode(handled), what);
            }
        }
    }

    /** The events of each (time, node), in the order of {@code events}. */
    private static java.util.Map<List<Long>, List<Keyed>> byTimeAndNode(List<Keyed> events) {
        java.util.Map<List<Long>, List<Keyed>> m = new java.util.HashMap<>();
        for (Keyed e : events) {
            m.computeIfAbsent(List.of(e.time(), e.key() >>> CanonicalOrder.LANE_BITS), k -> new ArrayList<>()).add(e);
        }
        return m;
    }

    @Test
    void canonicalQueueAppendsWhatAHandlerSchedulesForItsInstantAfterThePendingEventsOnTheOwnLaneOfItsNode() {
        EventQueue q = canonicalQueue(4);
        List<String> log = new ArrayList<>();
        EventHandler child = (t, p) -> log.add(p + "@" + t + " key " + q.currentKey());
        EventHandler parent = (t, p) -> {
            log.add(p + "@" + t);
            q.schedule(t, child, p + "'"); // same instant: after every event pending at the instant's start
            q.schedule(t + 5, child, p + "''"); // later instant: in key order there (node of p, its own lane: last)
        };
        long own1 = CanonicalOrder.key(1, CanonicalOrder.OWN_LANE);
        long own2 = CanonicalOrder.key(2, CanonicalOrder.OWN_LANE);
        q.scheduleKeyed(10, parent, "b", CanonicalOrder.key(2, 1));
        q.scheduleKeyed(10, parent, "a", CanonicalOrder.key(1, 3));
        q.scheduleKeyed(15, child, "c", CanonicalOrder.key(2, 1)); // node 2 lane 1: before node 2's own lane at 15
        q.scheduleKeyed(15, child, "d", CanonicalOrder.key(1, 7));
        q.scheduleKeyed(20, child, "f", CanonicalOrder.key(3, 2));
        q.scheduleKeyed(20, child, "e", CanonicalOrder.key(3, 1));
        while (q.dispatchNextInstant(Long.MAX_VALUE) > 0) {
            continue;
        }
        // at 10 and 15 each node has one arriving lane, then its own events: the instants keep their scheduling order
        // (at 15: c, d, then what b and a scheduled); at 20 node 3 has two arriving lanes: the draws order them
        boolean eFirst = rank(20, CanonicalOrder.key(3, 1)) < rank(20, CanonicalOrder.key(3, 2));
        String e = "e@20 key " + CanonicalOrder.key(3, 1);
        String f = "f@20 key " + CanonicalOrder.key(3, 2);
        assertEquals(List.of("b@10", "a@10", "b'@10 key " + own2, "a'@10 key " + own1,
                "c@15 key " + CanonicalOrder.key(2, 1), "d@15 key " + CanonicalOrder.key(1, 7), "b''@15 key " + own2,
                "a''@15 key " + own1, eFirst ? e : f, eFirst ? f : e), log);
    }

    @Test
    void canonicalQueueNeedsKeysAndTheFifoQueueTakesNone() {
        EventHandler h = (t, p) -> { };
        IllegalStateException x = assertThrows(IllegalStateException.class, () -> canonicalQueue(1).schedule(0, h, null));
        assertTrue(x.getMessage().contains("scheduleKeyed"), x.getMessage());
        assertThrows(IllegalStateException.class, () -> new EventQueue(1).scheduleKeyed(0, h, null, 0));
        assertThrows(IllegalArgumentException.class, () -> CanonicalOrder.key(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> CanonicalOrder.key(0, CanonicalOrder.MAX_LANE + 1));
        assertThrows(IllegalArgumentException.class, () -> canonicalQueue(1).scheduleKeyed(0, h, null, -1));
        assertFalse(new EventQueue(1).isKeyed());
        assertTrue(canonicalQueue(1).isKeyed());
    }

    @Test
    void aNodesOwnEventsComeAfterItsArrivalsAndItsPortsTakeTurnsFirstAcrossInstants() {
        // an own event scheduled before the arrivals of its instant still runs after them; over many instants each of
        // four ports comes first about a quarter of the time (a fixed order would give one port every instant)
        int ports = 4;
        int instants = 40_000;
        int[] first = new int[ports];
        EventQueue q = canonicalQueue(8);
        List<Long> handled = new ArrayList<>();
        EventHandler h = (t, p) -> handled.add((Long) p);
        for (long t = 1; t <= instants; t++) {
            q.scheduleKeyed(t, h, -1L, CanonicalOrder.key(9, CanonicalOrder.OWN_LANE));
            for (int lane = 0; lane < ports; lane++) {
                q.scheduleKeyed(t, h, (long) lane, CanonicalOrder.key(9, lane));
            }
        }
        while (q.dispatchNextInstant(Long.MAX_VALUE) > 0) {
            continue;
        }
        for (int i = 0; i < instants; i++) {
            List<Long> one = handled.subList(i * (ports + 1), (i + 1) * (ports + 1));
            assertEquals(-1L, one.get(ports), "the own event last at instant " + (i + 1));
            first[(int) (long) one.get(0)]++;
        }
        for (int lane = 0; lane < ports; lane++) {
            // binomial(40,000, 1/4): standard deviation 86.6; 5 of them
            assertEquals(instants / 4.0, first[lane], 5 * Math.sqrt(instants * 0.25 * 0.75), "port " + lane + " first");
        }
    }

    @Test
    void theDrawIsAFunctionOfSeedTimeNodeAndLaneBelowTheOwnLanes() {
        java.util.Set<Long> seen = new java.util.HashSet<>();
        for (int lane = 0; lane < 64; lane++) {
            long d = CanonicalOrder.draw(SEED, 1_000, 3, lane);
            assertEquals(d, CanonicalOrder.draw(SEED, 1_000, 3, lane));
            assertTrue(d >= 0 && d < (1L << 27) - 1, "draw " + d);
            seen.add(d);
        }
        assertEquals(64, seen.size(), "64 lanes, 27-bit draws: no tie expected");
        assertTrue(CanonicalOrder.draw(SEED, 1_000, 3, 0) != CanonicalOrder.draw(SEED + 1, 1_000, 3, 0)
                || CanonicalOrder.draw(SEED, 1_000, 3, 1) != CanonicalOrder.draw(SEED + 1, 1_000, 3, 1));
    }
}
