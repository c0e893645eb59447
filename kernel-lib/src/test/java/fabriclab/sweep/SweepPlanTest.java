package fabriclab.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SweepPlanTest {
    /** A point: its index in a list of n. */
    public record Point(int index, int n) implements java.io.Serializable {
    }

    /** Squares the index. */
    public static final class Square implements SweepTask<Point, Long> {
        static final AtomicInteger RUNS = new AtomicInteger();

        public Square() {
        }

        @Override
        public Long run(Point p) {
            RUNS.incrementAndGet();
            return (long) p.index() * p.index();
        }

        @Override
        public void validate(Point p) {
            if (p.index() < 0) {
                throw new IllegalArgumentException("index must be >= 0, got " + p.index());
            }
        }
    }

    /** Squares the index, but point i finishes only after point i + 1 did: the reverse of the list's order. */
    public static final class SquareInReverse implements SweepTask<Point, Long> {
        static CountDownLatch[] finished;
        static final List<Integer> ORDER = Collections.synchronizedList(new ArrayList<>());

        public SquareInReverse() {
        }

        @Override
        public Long run(Point p) {
            try {
                if (p.index() + 1 < p.n() && !finished[p.index() + 1].await(30, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("point " + (p.index() + 1) + " never finished");
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            ORDER.add(p.index());
            finished[p.index()].countDown();
            return (long) p.index() * p.index();
        }
    }

    /** Not instantiable by name. */
    public static final class NoDefaultConstructor implements SweepTask<Point, Long> {
        public NoDefaultConstructor(int x) {
        }

        @Override
        public Long run(Point p) {
            return 0L;
        }
    }

    private static List<Point> points(int n) {
        List<Point> ps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ps.add(new Point(i, n));
        }
        return ps;
    }

    @Test
    void resultsComeInTheOrderOfTheParametersWhateverTheFinishingOrder() throws InterruptedException {
        SquareInReverse.finished = new CountDownLatch[8];
        for (int i = 0; i < 8; i++) {
            SquareInReverse.finished[i] = new CountDownLatch(1);
        }
        SquareInReverse.ORDER.clear();
        // one thread per point, so that every point can wait for the next one
        List<Long> results = new LocalThreads(8).run(new SweepPlan<>("squares", SquareInReverse.class, points(8)), Progress.silent());
        List<Long> expected = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            expected.add((long) i * i);
        }
        assertEquals(List.of(7, 6, 5, 4, 3, 2, 1, 0), SquareInReverse.ORDER);
        assertEquals(expected, results);
        assertEquals(expected, new LocalThreads(1).run(new SweepPlan<>("squares", Square.class, points(8)), Progress.silent()));
    }

    @Test
    void progressCountsEveryRun() throws InterruptedException {
        List<Progress.State> states = Collections.synchronizedList(new ArrayList<>());
        ProgressSink sink = states::add;
        new LocalThreads(2).run(new SweepPlan<>("squares", Square.class, points(5)), sink);
        Progress.State last = states.get(states.size() - 1);
        assertTrue(last.finished());
        assertEquals(5, last.done());
        assertEquals(5, last.total());
        assertEquals("squares", last.label());
    }

    @Test
    void anInvalidRecordIsRejectedBeforeAnyRunWithItsIndex() {
        Square.RUNS.set(0);
        List<Point> ps = points(3);
        ps.add(new Point(-2, 3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SweepPlan<>("squares", Square.class, ps));
        assertEquals("squares: parameters[3] = Point[index=-2, n=3] is invalid: index must be >= 0, got -2", e.getMessage());
        assertEquals(0, Square.RUNS.get());
        ps.set(3, null);
        assertEquals("parameters[3] must not be null",
                assertThrows(IllegalArgumentException.class, () -> new SweepPlan<>("squares", Square.class, ps)).getMessage());
    }

    @Test
    void aTaskClassMustBeInstantiableByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SweepPlan<>("x", NoDefaultConstructor.class, points(1)));
        assertEquals("task fabriclab.sweep.SweepPlanTest$NoDefaultConstructor has no public no-argument constructor; "
                + "a sweep task must be a public class with a public no-argument constructor", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SweepPlan<>(" ", Square.class, points(1)));
        assertThrows(IllegalArgumentException.class, () -> new LocalThreads(0));
    }

    @Test
    void theSettingChoosesLocalThreadsUnlessAMasterIsGiven() {
        assertEquals(new LocalThreads(3), SweepExecutors.forMaster("threads", 3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SweepExecutors.forMaster("spark://127.0.0.1:7077", 2));
        assertTrue(e.getMessage().startsWith("master must be \"threads\" or a master URL a sweep executor on the classpath accepts "
                + "(none is: for spark:// or local[N] use the fabriclab-spark module"), e.getMessage());
        assertTrue(e.getMessage().endsWith("got \"spark://127.0.0.1:7077\""), e.getMessage());
    }
}
