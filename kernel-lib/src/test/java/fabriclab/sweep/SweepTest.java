package fabriclab.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import static fabriclab.TestArguments.refused;

class SweepTest {
    private record Point(int index, long seed) {
    }

    /** A pure function of the point whose duration varies, so that the points finish out of order. */
    private static double experiment(Point p) {
        try {
            Thread.sleep((p.index() * 7L) % 5);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
        SplittableRandom r = new SplittableRandom(p.seed());
        double sum = 0;
        for (int i = 0; i < 1000; i++) {
            sum += r.nextDouble();
        }
        return sum;
    }

    private static List<Point> points(int n) {
        return IntStream.range(0, n).mapToObj(i -> new Point(i, 1000L + i)).toList();
    }

    @Test
    void resultsComeInTheOrderOfThePointsWhateverTheThreadCount() throws InterruptedException {
        List<Point> points = points(60);
        List<Double> sequential = new ArrayList<>();
        for (Point p : points) {
            sequential.add(experiment(p));
        }
        List<Double> one = Sweep.run("one thread", points, SweepTest::experiment, 1, Progress.silent());
        List<Double> four = Sweep.run("four threads", points, SweepTest::experiment, 4, Progress.silent());
        assertEquals(sequential, one);
        assertEquals(sequential, four);
    }

    @Test
    void runsThePointsConcurrently() throws InterruptedException {
        // the four points wait for each other: the sweep ends only if four of them run at once
        CyclicBarrier barrier = new CyclicBarrier(4);
        Function<Integer, Integer> meet = i -> {
            try {
                barrier.await(20, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("the points did not run concurrently", e);
            }
            return i * i;
        };
        assertEquals(List.of(0, 1, 4, 9), Sweep.run("barrier", List.of(0, 1, 2, 3), meet, 4, Progress.silent()));
    }

    @Test
    void reportsOneStepPerPointAndFinishes() throws InterruptedException {
        List<Progress.State> states = Collections.synchronizedList(new ArrayList<>());
        Sweep.run("counted", points(25), SweepTest::experiment, 3, states::add);
        Progress.State first = states.get(0);
        Progress.State last = states.get(states.size() - 1);
        assertEquals("counted", first.label());
        assertEquals(0, first.done());
        assertEquals(25, first.total());
        assertTrue(last.finished());
        assertEquals(25, last.done());
    }

    @Test
    void noPointsGiveNoResults() throws InterruptedException {
        List<Progress.State> states = new ArrayList<>();
        assertEquals(List.of(), Sweep.run("empty", List.<Point>of(), SweepTest::experiment, 2, states::add));
        assertTrue(states.get(states.size() - 1).finished());
    }

    @Test
    void aFailingPointFailsTheSweepNamingThePoint() {
        List<Point> points = points(10);
        IllegalStateException boom = new IllegalStateException("boom");
        SweepException e = assertThrows(SweepException.class, () -> Sweep.run("failing", points, p -> {
            if (p.index() == 3) {
                throw boom;
            }
            return p.index();
        }, 2, Progress.silent()));
        assertEquals(3, e.index());
        assertEquals(points.get(3), e.point());
        assertEquals(boom, e.getCause());
        assertTrue(e.getMessage().startsWith("failing: points[3] = Point[index=3, seed=1003] failed: "), e.getMessage());
        assertTrue(e.getMessage().endsWith("boom"), e.getMessage());
    }

    @Test
    void aNullResultIsAFailure() {
        SweepException e = assertThrows(SweepException.class,
                () -> Sweep.run("nulls", List.of("a", "b"), s -> s.equals("b") ? null : s, 1, Progress.silent()));
        assertEquals(1, e.index());
        assertNull(e.getCause());
        assertTrue(e.getMessage().contains("points[1] = b"), e.getMessage());
    }

    @Test
    void interruptingTheCallerStopsTheSweep() throws Exception {
        int threads = 2;
        AtomicInteger started = new AtomicInteger();
        AtomicInteger interruptedPoints = new AtomicInteger();
        CountDownLatch running = new CountDownLatch(threads);
        Function<Integer, Integer> slow = i -> {
            started.incrementAndGet();
            running.countDown();
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                interruptedPoints.incrementAndGet();
                throw new IllegalStateException("interrupted", e);
            }
            return i;
        };
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                Sweep.run("slow", IntStream.range(0, 100).boxed().toList(), slow, threads, Progress.silent());
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
        caller.start();
        assertTrue(running.await(20, TimeUnit.SECONDS));
        long t0 = System.nanoTime();
        caller.interrupt();
        caller.join(10_000);
        assertFalse(caller.isAlive(), "the sweep did not return after the interrupt");
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5));
        assertInstanceOf(InterruptedException.class, outcome.get());
        // the running points were interrupted, and no further point started
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (interruptedPoints.get() < threads && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(threads, interruptedPoints.get());
        Thread.sleep(200);
        assertEquals(threads, started.get());
    }

    @Test
    void badArgumentsAreNamed() {
        Function<Integer, Integer> id = i -> i;
        ProgressSink silent = Progress.silent();
        List<Integer> ok = List.of(1, 2);
        assertEquals("threads must be in [1, 1024], got 0",
                assertThrows(IllegalArgumentException.class, () -> Sweep.run("x", ok, id, 0, silent)).getMessage());
        assertEquals("points[1] must not be null", assertThrows(IllegalArgumentException.class,
                () -> Sweep.run("x", java.util.Arrays.asList(1, null), id, 1, silent)).getMessage());
        assertEquals("points must not be null",
                assertThrows(IllegalArgumentException.class, () -> Sweep.run("x", null, id, 1, silent)).getMessage());
        assertEquals("experiment must not be null",
                assertThrows(IllegalArgumentException.class, () -> Sweep.run("x", ok, null, 1, silent)).getMessage());
        assertEquals("sink must not be null",
                assertThrows(IllegalArgumentException.class, () -> Sweep.run("x", ok, id, 1, null)).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Sweep.run(" ", ok, id, 1, silent)).getMessage()
                .startsWith("label must be a non-empty string"));
    }

    @Test
    void aSweepRefusesMoreThreadsThanItsLimit() {
        refused(() -> Sweep.run("x", java.util.List.of(1, 2), p -> p, Integer.MAX_VALUE,
                fabriclab.progress.Progress.silent()), "threads", "" + Integer.MAX_VALUE, "1024");
        refused(() -> new LocalThreads(Sweep.MAX_THREADS + 1), "threads", "1025");
    }
}
