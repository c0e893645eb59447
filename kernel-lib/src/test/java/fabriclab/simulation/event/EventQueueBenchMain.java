package fabriclab.simulation.event;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Bench command: the classic "hold" model (poll the earliest event, schedule one at its time plus a
 * delay) on the simulator's {@link EventQueue} (radix heap) and on the 4-ary heap it replaced
 * ({@link HeapEventQueue}), in one JVM run, interleaved, same delay sequence. Delays are shaped like
 * the packet simulator's: equal serialisation times (ties), propagation delays, rare far timers.
 * Prints nanoseconds per hold (one poll plus one schedule) and the ratio, for several queue sizes.
 * Run: {@code ./bench --main fabriclab.simulation.event.EventQueueBenchMain}.
 */
public final class EventQueueBenchMain {
    private EventQueueBenchMain() {
    }

    /** Runs the bench. */
    public static void main(String[] args) {
        int holds = 4_000_000;
        long[] delays = new long[1 << 16];
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < delays.length; i++) {
            int k = rnd.nextInt(100);
            delays[i] = k < 45 ? 80_000L : k < 60 ? 327_680L : k < 97 ? 1_000_000L + 80_000L * rnd.nextInt(4)
                    : 55_000_000L + rnd.nextInt(1_000_000);
        }
        EventHandler h = (t, p) -> { };
        for (int pending : new int[] {200, 6_000, 100_000}) {
            double bestHeap = Double.MAX_VALUE;
            double bestRadix = Double.MAX_VALUE;
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
                EventQueue radix = new EventQueue();
                t0 = System.nanoTime();
                for (int i = 0; i < pending; i++) {
                    radix.schedule(delays[i & (delays.length - 1)], h, null);
                }
                for (int i = 0; i < holds; i++) {
                    radix.poll();
                    radix.schedule(radix.polledTime() + delays[(i + pending) & (delays.length - 1)], h, null);
                }
                bestRadix = Math.min(bestRadix, (System.nanoTime() - t0) / (double) holds);
                sink -= radix.polledTime(); // same events in the same order: the last times agree
            }
            System.out.println(String.format(Locale.ROOT,
                    "pending %,7d   4-ary heap %6.1f ns/hold   radix heap %6.1f ns/hold   ratio %.2fx%s", pending, bestHeap,
                    bestRadix, bestHeap / bestRadix, sink == 0 ? "" : "   (MISMATCH)"));
        }
    }
}
