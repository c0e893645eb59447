package fabriclab.simulation.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import static fabriclab.TestArguments.refused;

class EventQueueTest {
    /** The span of the queue's timing wheel (8,192 buckets of 1,024 ps): delays around it cross from far to near. */
    private static final long WHEEL_REACH_PS = 8_192L * 1_024L;

    record Ev(long time, int order) {
    }

    @Test
    void pollsInTimeOrderWithTiesInSchedulingOrder() {
        // independent reference: a stable sort of (time, insertion order)
        SplittableRandom rnd = new SplittableRandom(7);
        EventQueue q = new EventQueue(2);
        List<Ev> all = new ArrayList<>();
        List<Ev> polled = new ArrayList<>();
        EventHandler h = (t, p) -> polled.add((Ev) p);
        int order = 0;
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < 400; i++) {
                Ev e = new Ev(rnd.nextInt(100), order++); // many ties
                all.add(e);
                q.schedule(e.time() + 1000L * round, h, e);
            }
            for (int i = 0; i < 300; i++) {
                assertTrue(q.poll());
                q.polledHandler().handle(q.polledTime(), q.polledPayload());
            }
        }
        while (q.poll()) {
            q.polledHandler().handle(q.polledTime(), q.polledPayload());
        }
        assertFalse(q.poll());
        assertEquals(all.size(), polled.size());
        // times never decrease, equal times keep insertion order
        for (int i = 1; i < polled.size(); i++) {
            Ev a = polled.get(i - 1);
            Ev b = polled.get(i);
            long ta = a.time() + 1000L * (a.order() / 400);
            long tb = b.time() + 1000L * (b.order() / 400);
            assertTrue(ta < tb || (ta == tb && a.order() < b.order()), "order broken at " + i);
        }
    }

    @Test
    void matchesStableSortWhenAllScheduledFirst() {
        SplittableRandom rnd = new SplittableRandom(11);
        EventQueue q = new EventQueue();
        List<Ev> all = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            Ev e = new Ev(rnd.nextInt(500), i);
            all.add(e);
            q.schedule(e.time(), (t, p) -> { }, e);
        }
        List<Ev> sorted = new ArrayList<>(all);
        sorted.sort(Comparator.comparingLong(Ev::time)); // List.sort is stable
        for (Ev e : sorted) {
            assertTrue(q.poll());
            assertEquals(e, q.polledPayload());
            assertEquals(e.time(), q.polledTime());
        }
        assertTrue(q.isEmpty());
        assertEquals(Long.MAX_VALUE, q.peekTime());
    }

    @Test
    void rejectsNegativeTimeNamingIt() {
        EventQueue q = new EventQueue();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> q.schedule(-1, (t, p) -> { }, null));
        assertTrue(e.getMessage().contains("timePs"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new EventQueue(0));
        assertTrue(e.getMessage().contains("initialCapacity"), e.getMessage());
    }

    @Test
    void rejectsAnEventBeforeTheCurrentTime() {
        EventQueue q = new EventQueue();
        q.schedule(500, (t, p) -> { }, null);
        q.schedule(900, (t, p) -> { }, null);
        assertTrue(q.poll());
        q.schedule(500, (t, p) -> { }, null); // at the current time: allowed, after the pending ones of time 500
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> q.schedule(499, (t, p) -> { }, null));
        assertTrue(e.getMessage().contains("timePs") && e.getMessage().contains("500"), e.getMessage());
    }

    /**
     * Differential check against the former 4-ary heap ({@link HeapEventQueue}): random interleavings
     * of schedule, peek, poll and pollUntil with delays shaped like the simulator's (serialisation times that
     * tie, propagation, far timers, zero delay), and the same (time, handler, payload) sequence out.
     */
    @Test
    void pollsExactlyLikeTheHeapItReplaced() {
        for (long seed = 1; seed <= 20; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            EventQueue q = new EventQueue(1 + rnd.nextInt(8));
            HeapEventQueue ref = new HeapEventQueue(1 + rnd.nextInt(8));
            EventHandler[] handlers = {(t, p) -> { }, (t, p) -> { }, (t, p) -> { }};
            long now = 0;
            int id = 0;
            for (int step = 0; step < 60_000; step++) {
                int op = rnd.nextInt(10);
                if (op < 5 || q.isEmpty()) {
                    long delay = switch (rnd.nextInt(6)) {
                        case 0 -> 0;
                        case 1 -> 80_000L * (1 + rnd.nextInt(3)); // serialisation: many equal times
                        case 2 -> 1_000_000L + rnd.nextInt(3);    // propagation
                        case 3 -> rnd.nextLong(1L << 40);         // far timers
                        case 4 -> WHEEL_REACH_PS * (1 + rnd.nextInt(2)) + rnd.nextInt(20_000) - 10_000; // the wheel's edge
                        default -> rnd.nextInt(1000);
                    };
                    EventHandler h = handlers[rnd.nextInt(3)];
                    Integer payload = id++;
                    q.schedule(now + delay, h, payload);
                    ref.schedule(now + delay, h, payload);
                } else {
                    assertEquals(ref.peekTime(), q.peekTime());
                    assertFalse(q.pollUntil(ref.peekTime() - 1)); // not due yet: the queue is unchanged
                    assertTrue(rnd.nextBoolean() ? q.poll() : q.pollUntil(ref.peekTime()));
                    assertTrue(ref.poll());
                    assertEquals(ref.polledTime(), q.polledTime(), "seed " + seed + " step " + step);
                    assertEquals(ref.polledPayload(), q.polledPayload(), "seed " + seed + " step " + step);
                    assertTrue(ref.polledHandler() == q.polledHandler());
                    now = q.polledTime();
                }
                assertEquals(ref.size(), q.size());
            }
            while (ref.poll()) {
                assertTrue(q.poll());
                assertEquals(ref.polledTime(), q.polledTime());
                assertEquals(ref.polledPayload(), q.polledPayload());
            }
            assertFalse(q.poll());
            assertEquals(ref.scheduledCount(), q.scheduledCount());
        }
    }

    /**
     * Times that wrap the timing wheel several times, fall on bucket edges, share buckets, or lie near
     * {@link Long#MAX_VALUE} leave in time order with ties in scheduling order, while the queue is being
     * drained and refilled (the same sequence as the former heap).
     */
    @Test
    void ordersTimesAcrossTheWheelsWrapAndUpToTheLargestTime() {
        SplittableRandom rnd = new SplittableRandom(11);
        EventQueue q = new EventQueue();
        HeapEventQueue ref = new HeapEventQueue(16);
        EventHandler h = (t, p) -> { };
        int id = 0;
        long now = 0;
        for (int round = 0; round < 200; round++) {
            for (int k = 0; k < 50; k++) {
                long t = switch (rnd.nextInt(4)) {
                    case 0 -> now + 1_024L * rnd.nextInt(3 * 8_192);           // bucket edges over three spans
                    case 1 -> now + rnd.nextInt(2_048);                         // two events per bucket and ties
                    case 2 -> Long.MAX_VALUE - rnd.nextInt(5_000);              // the largest times
                    default -> now + WHEEL_REACH_PS - 1 + rnd.nextInt(3);       // one bucket short of, at, past the reach
                };
                q.schedule(t, h, id);
                ref.schedule(t, h, id);
                id++;
            }
            for (int k = 0; k < 40 && ref.poll(); k++) {
                assertTrue(q.poll());
                assertEquals(ref.polledTime(), q.polledTime(), "round " + round);
                assertEquals(ref.polledPayload(), q.polledPayload(), "round " + round);
                now = q.polledTime();
            }
            if (now > Long.MAX_VALUE / 2) {
                break;
            }
        }
        while (ref.poll()) {
            assertTrue(q.poll());
            assertEquals(ref.polledTime(), q.polledTime());
            assertEquals(ref.polledPayload(), q.polledPayload());
        }
        assertFalse(q.poll());
        assertEquals(Long.MAX_VALUE, q.peekTime());
    }

    /** What a handler of the differential dispatch test needs: the queue it schedules into. */
    private interface Scheduler {
        void schedule(long timePs, EventHandler handler, Object payload);
    }

    /**
     * A small event-driven process, the same for both queues: each event is logged, and a generator seeded
     * by its id decides whether it schedules up to two more, at the same instant or later (serialisation-like
     * ties, propagation, far timers); ids are given in handling order, so any difference in order shows.
     */
    private static final class Process {
        final List<long[]> log = new ArrayList<>();
        final Scheduler q;
        int nextId;
        final EventHandler handler = this::handle;

        Process(Scheduler q) {
            this.q = q;
        }

        private void handle(long t, Object p) {
            int id = (Integer) p;
            log.add(new long[] {t, id});
            SplittableRandom r = new SplittableRandom(id * 0x9E3779B97F4A7C15L);
            int children = log.size() < 150_000 ? r.nextInt(4) : 0; // 1.5 on average: the process grows to the cap
            for (int c = 0; c < children; c++) {
                long delay = switch (r.nextInt(6)) {
                    case 0 -> 0; // same instant: joins the FIFO being dispatched
                    case 1 -> 80_000L * (1 + r.nextInt(3));
                    case 2 -> 1_000_000L + r.nextInt(3);
                    case 3 -> r.nextLong(1L << 30);
                    case 4 -> WHEEL_REACH_PS + r.nextInt(20_000) - 10_000;
                    default -> r.nextInt(1000);
                };
                q.schedule(t + delay, handler, nextId++);
            }
        }

        void seed(int events) {
            for (int i = 0; i < events; i++) {
                q.schedule(80_000L * (i % 7), handler, nextId++);
            }
        }
    }

    /**
     * {@link EventQueue#dispatchNextInstant} handles events exactly in the order of polling the former heap
     * ({@link HeapEventQueue}) one event at a time, with handlers that schedule more events, many of them at
     * the instant being dispatched; and it honours the time limit.
     */
    @Test
    void dispatchesInstantsExactlyLikePollingTheHeap() {
        EventQueue q = new EventQueue(4);
        HeapEventQueue ref = new HeapEventQueue(4);
        Process a = new Process(q::schedule);
        Process b = new Process(ref::schedule);
        a.seed(200);
        b.seed(200);
        long limit = 3_000_000_000L;
        long dispatched = 0;
        int n;
        while ((n = q.dispatchNextInstant(limit)) > 0) {
            dispatched += n;
            assertTrue(q.polledTime() <= limit);
        }
        while (ref.peekTime() <= limit && ref.poll()) {
            ref.polledHandler().handle(ref.polledTime(), ref.polledPayload());
        }
        assertEquals(b.log.size(), a.log.size());
        assertEquals(a.log.size(), dispatched);
        assertTrue(a.log.size() > 10_000, "the process should run a while: " + a.log.size());
        for (int i = 0; i < a.log.size(); i++) {
            assertEquals(b.log.get(i)[0], a.log.get(i)[0], "time of event " + i);
            assertEquals(b.log.get(i)[1], a.log.get(i)[1], "id of event " + i);
        }
        assertEquals(ref.size(), q.size());
        assertEquals(ref.peekTime(), q.peekTime());
        assertTrue(q.isEmpty() || q.peekTime() > limit);
        assertEquals(0, q.dispatchNextInstant(limit)); // nothing due: the queue is unchanged
        assertEquals(ref.size(), q.size());
        // the rest, without a limit
        while (q.dispatchNextInstant(Long.MAX_VALUE) > 0) {
            assertTrue(q.polledTime() > limit);
        }
        while (ref.poll()) {
            ref.polledHandler().handle(ref.polledTime(), ref.polledPayload());
        }
        assertEquals(b.log.size(), a.log.size());
        for (int i = 0; i < a.log.size(); i++) {
            assertEquals(b.log.get(i)[1], a.log.get(i)[1], "id of event " + i);
        }
        assertTrue(q.isEmpty());
    }

    @Test
    void anEventTimeThatWrapsSaysSo() {
        EventQueue q = new EventQueue();
        q.schedule(Long.MAX_VALUE - 10, (t, p) -> { }, null);
        q.poll();
        long wrapped = Long.MAX_VALUE - 10 + 20;
        refused(() -> q.schedule(wrapped, (t, p) -> { }, null), "timePs", "2^63 - 1 ps", "wrapped", "" + wrapped);
    }
}
