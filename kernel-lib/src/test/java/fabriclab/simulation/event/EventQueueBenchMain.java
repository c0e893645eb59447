package fabriclab.simulation.event;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Bench command: the classic "hold" model (poll the earliest event, schedule one at its time plus a
 * delay) on the simulator's {@link EventQueue} (time slots in a heap) and on the 4-ary heap of events
 * it replaced ({@link HeapEventQueue}), in one JVM run, interleaved, same delay sequence. Two delay
 * shapes: "spread" (serialisation times, propagation delays with a few picoseconds of spread, rare
 * far timers: most pending events have distinct times, the slot queue's worst case) and "lattice"
 * (the packet simulator's usual case: equal packet sizes and link rates put every event on a lattice
 * of 80 ns, 93% of the delays exactly one serialisation time, as measured on the 128-host
 * permutation bench). Prints nanoseconds per hold (one poll plus one schedule) and the ratio, for
 * several queue sizes.
 * Run: {@code ./bench --main fabriclab.simulation.event.EventQueueBenchMain}.
 */
public final class EventQueueBenchMain {
    private EventQueueBenchMain() {
    }

    /** Runs the bench. */
    public static void main(String[] args) {
        int holds = 4_000_000;
        long[] spread = new long[1 << 16];
        long[] lattice = new long[1 << 16];
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < spread.length; i++) {
            int k = rnd.nextInt(100);
            spread[i] = k < 45 ? 80_000L : k < 60 ? 327_680L : k < 97 ? 1_000_000L + 80_000L * rnd.nextInt(4) + rnd.nextInt(8)
                    : 55_000_000L + rnd.nextInt(1_000_000);
            k = rnd.nextInt(100);
            lattice[i] = k < 93 ? 80_000L : k < 98 ? 160_000L : k < 99 ? 240_000L : 1_040_000L;
        }
        EventHandler h = (t, p) -> { };
        for (String shape : new String[] {"spread", "lattice"}) {
            long[] delays = shape.equals("spread") ? spread : lattice;
            for (int pending : new int[] {200, 6_000, 100_000}) {
                bench(shape, delays, pending, holds, h);
            }
        }
    }

    private static void bench(String shape, long[] delays, int pending, int holds, EventHandler h) {
        double bestHeap = Double.MAX_VALUE;
        double bestSlots = Double.MAX_VALUE;
        long sink = 0;
        for (int rep = 0; rep < 5; rep++) {
            HeapEventQueue heap = new HeapEventQueue();
            long t0 = System.nanoTime();
            for (int i = 0; i < pending; i++) {
                heap.schedule(delays[i & (delays.length - 1)], h, null);
            }
            for (int i = 0; i < holds; i++) {
                heap.poll();
                heap.schedule(heap.polledTime() + delays[(i + pending) & (delays.length - 1)], h, null);
            }
            bestHeap = Math.min(bestHeap, (System.nanoTime() - t0) / (double) holds);
            sink += heap.polledTime();
            EventQueue slots = new EventQueue();
            t0 = System.nanoTime();
            for (int i = 0; i < pending; i++) {
                slots.schedule(delays[i & (delays.length - 1)], h, null);
            }
            for (int i = 0; i < holds; i++) {
                slots.poll();
                slots.schedule(slots.polledTime() + delays[(i + pending) & (delays.length - 1)], h, null);
            }
            bestSlots = Math.min(bestSlots, (System.nanoTime() - t0) / (double) holds);
            sink -= slots.polledTime(); // same events in the same order: the last times agree
        }
        System.out.println(String.format(Locale.ROOT,
                "%-7s delays, pending %,7d   4-ary heap %6.1f ns/hold   slot queue %6.1f ns/hold   ratio %.2fx%s", shape, pending, bestHeap,
                bestSlots, bestHeap / bestSlots, sink == 0 ? "" : "   (MISMATCH)"));
    }
}
