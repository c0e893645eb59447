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

class EventQueueTest {
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
}
