package fabriclab.sweep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.progress.Progress;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordedRunsTest {
    public enum Fabric { ROCE, GSE }

    /** A point with an enum and a seed. */
    public record Point(Fabric fabric, long seed) implements Serializable {
    }

    /** A nested record. */
    public record Counters(long drops, double pausedUs) implements Serializable {
    }

    /** A result with the kinds of fields the experiments' results hold. */
    public record Result(Point point, double meanUs, double tiny, double nan, long big, Counters counters, List<Double> steps,
            Map<String, Long> byPlace, Fabric winner) implements Serializable {
    }

    /** Deterministic in its point; counts its runs. */
    public static final class Task implements SweepTask<Point, Result> {
        static final AtomicInteger RUNS = new AtomicInteger();

        public Task() {
        }

        @Override
        public Result run(Point p) {
            RUNS.incrementAndGet();
            double x = 1.0 / (3 + p.seed()) + (p.fabric() == Fabric.GSE ? 0.1 : 0.2);
            Map<String, Long> places = new TreeMap<>();
            places.put("spine down", p.seed() * 7);
            places.put("leaf up", p.seed());
            return new Result(p, x * 1e3, Double.MIN_VALUE * p.seed(), Double.NaN, Long.MAX_VALUE - p.seed(),
                    new Counters(p.seed() * 3, x / 7), List.of(x, x * x, 0.1 + 0.2), places, Fabric.values()[(int) (p.seed() % 2)]);
        }
    }

    private static SweepPlan<Point, Result> plan(int n) {
        List<Point> ps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ps.add(new Point(i % 2 == 0 ? Fabric.ROCE : Fabric.GSE, i + 1));
        }
        return new SweepPlan<>("toy sweep (" + n + " runs)", Task.class, ps);
    }

    @Test
    void checkGivesTheFullSweepsResultsComputingOneRunInN(@TempDir Path dir) throws Exception {
        SweepPlan<Point, Result> plan = plan(10);
        List<Result> full = new LocalThreads(2).run(plan, Progress.silent());
        new RecordedRunsExecutor(new LocalThreads(2), SweepRuns.RECORD, dir).run(plan, Progress.silent());
        Task.RUNS.set(0);
        List<Progress.State> states = Collections.synchronizedList(new ArrayList<>());
        List<Result> checked = new RecordedRunsExecutor(new LocalThreads(2), SweepRuns.check(4), dir).run(plan, states::add);
        int expected = 0;
        for (int i = 0; i < 10; i++) {
            expected += SweepRuns.check(4).computes(i) ? 1 : 0;
        }
        assertEquals(expected, Task.RUNS.get(), "the runs check:4 chooses, and no other");
        assertTrue(expected >= 1 && expected < 10, "some runs computed, not all: " + expected);
        // equal as values (NaN included: records compare doubles by their bits), element for element
        assertEquals(full, checked);
        Progress.State last = states.get(states.size() - 1);
        assertTrue(last.finished());
        assertEquals(10, last.done());
        assertEquals(10, last.total());
        assertEquals(plan.label(), last.label());
    }

    /** An executor that runs on local threads and reports no progress at all. */
    private static final class Mute implements SweepExecutor {
        @Override
        public <P extends Serializable, R extends Serializable> List<R> run(SweepPlan<P, R> plan,
                fabriclab.progress.ProgressSink sink) throws InterruptedException {
            return new LocalThreads(1).run(plan, Progress.silent());
        }

        @Override
        public String describe() {
            return "mute";
        }
    }

    @Test
    void theCheckedSweepsBarEndsFullWhateverItsExecutorReports(@TempDir Path dir) throws Exception {
        SweepPlan<Point, Result> plan = plan(9);
        new RecordedRunsExecutor(new LocalThreads(1), SweepRuns.RECORD, dir).run(plan, Progress.silent());
        List<Progress.State> states = Collections.synchronizedList(new ArrayList<>());
        new RecordedRunsExecutor(new Mute(), SweepRuns.check(4), dir).run(plan, states::add);
        Progress.State last = states.get(states.size() - 1);
        assertTrue(last.finished() && last.done() == 9 && last.total() == 9, last.toString());
    }

    @Test
    void recordingTheSameSweepTwiceGivesTheSameBytes(@TempDir Path a, @TempDir Path b) throws Exception {
        SweepPlan<Point, Result> plan = plan(5);
        Path fa = RecordedRuns.of(plan, new LocalThreads(1).run(plan, Progress.silent())).write(a);
        Path fb = RecordedRuns.of(plan, new LocalThreads(3).run(plan, Progress.silent())).write(b);
        assertEquals(fa.getFileName(), fb.getFileName());
        assertArrayEquals(Files.readAllBytes(fa), Files.readAllBytes(fb));
        List<String> lines = Files.readAllLines(fa, StandardCharsets.UTF_8);
        assertEquals(6, lines.size(), "a first line and one line per run");
        assertTrue(lines.get(1).contains("\"meanUs\":"), lines.get(1));
        assertTrue(lines.get(1).contains("0.30000000000000004"), "doubles in their exact shortest form: " + lines.get(1));
    }

    @Test
    void aRunThatNoLongerGivesItsRecordedResultFailsTheCheck(@TempDir Path dir) throws Exception {
        SweepPlan<Point, Result> plan = plan(6);
        new RecordedRunsExecutor(new LocalThreads(1), SweepRuns.RECORD, dir).run(plan, Progress.silent());
        Path f = dir.resolve(RecordedRuns.fileName(plan));
        List<String> lines = new ArrayList<>(Files.readAllLines(f, StandardCharsets.UTF_8));
        // run 3 (point GSE, seed 4: 12 drops; computed under check:2, not under check:3) recorded with one drop more
        assertTrue(SweepRuns.check(2).computes(3) && !SweepRuns.check(3).computes(3));
        lines.set(4, lines.get(4).replace("\"drops\":12", "\"drops\":13"));
        assertNotEquals(Files.readAllLines(f, StandardCharsets.UTF_8), lines, "the edit applies");
        Files.write(f, lines, StandardCharsets.UTF_8);
        SweepException e = assertThrows(SweepException.class,
                () -> new RecordedRunsExecutor(new LocalThreads(1), SweepRuns.check(2), dir).run(plan, Progress.silent()));
        assertEquals(3, e.index());
        assertTrue(e.getMessage().contains("\"drops\":13") && e.getMessage().contains("\"drops\":12"), e.getMessage());
        // a run not computed under check:3 is taken from the record as it is
        List<Result> replayed = new RecordedRunsExecutor(new LocalThreads(1), SweepRuns.check(3), dir).run(plan, Progress.silent());
        assertEquals(13, replayed.get(3).counters().drops());
    }

    @Test
    void aSweepWithoutARecordOrWithOtherPointsIsRefused(@TempDir Path dir) throws Exception {
        IllegalStateException missing = assertThrows(IllegalStateException.class,
                () -> new RecordedRunsExecutor(new LocalThreads(1), SweepRuns.check(4), dir).run(plan(4), Progress.silent()));
        assertTrue(missing.getMessage().contains("has no recorded runs") && missing.getMessage().contains("./reproduce"),
                missing.getMessage());
        new RecordedRunsExecutor(new LocalThreads(1), SweepRuns.RECORD, dir).run(plan(4), Progress.silent());
        // another point list (5 runs) has another file: never the 4-run record
        assertNotEquals(RecordedRuns.fileName(plan(4)), RecordedRuns.fileName(plan(5)));
        assertThrows(IllegalStateException.class,
                () -> new RecordedRunsExecutor(new LocalThreads(1), SweepRuns.check(4), dir).run(plan(5), Progress.silent()));
        // a record renamed onto another sweep's name is refused for its contents
        Files.move(dir.resolve(RecordedRuns.fileName(plan(4))), dir.resolve(RecordedRuns.fileName(plan(5))));
        IllegalStateException other = assertThrows(IllegalStateException.class,
                () -> new RecordedRunsExecutor(new LocalThreads(1), SweepRuns.check(4), dir).run(plan(5), Progress.silent()));
        assertTrue(other.getMessage().contains("holds another sweep"), other.getMessage());
    }

    /** As {@link Task}, but its runs are not worth recording. */
    public static final class Cheap implements SweepTask<Point, Result> {
        public Cheap() {
        }

        @Override
        public Result run(Point p) {
            return new Task().run(p);
        }

        @Override
        public boolean recorded(Point p) {
            return false;
        }
    }

    @Test
    void aSweepNotWorthRecordingIsComputedInFullAndNeverRecorded(@TempDir Path dir) throws Exception {
        SweepPlan<Point, Result> plan = new SweepPlan<>("cheap", Cheap.class, plan(6).parameters());
        new RecordedRunsExecutor(new LocalThreads(1), SweepRuns.RECORD, dir).run(plan, Progress.silent());
        assertEquals(0, Files.list(dir).count(), "nothing recorded");
        Task.RUNS.set(0);
        List<Result> checked = new RecordedRunsExecutor(new LocalThreads(1), SweepRuns.check(4), dir).run(plan, Progress.silent());
        assertEquals(6, Task.RUNS.get(), "every run computed, no record needed");
        assertEquals(new LocalThreads(1).run(plan(6), Progress.silent()), checked);
    }

    @Test
    void aResultJsonCannotHoldIsRefusedWhenRecorded() {
        SweepPlan<Point, Opaque> plan = new SweepPlan<>("opaque", OpaqueTask.class, List.of(new Point(Fabric.GSE, 1)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RecordedRuns.of(plan, List.of(new OpaqueTask().run(new Point(Fabric.GSE, 1)))));
        assertTrue(e.getMessage().contains("opaque"), e.getMessage());
    }

    /** A result whose field is an interface: JSON cannot say which class to read back. */
    public record Opaque(Serializable anything) implements Serializable {
    }

    /** Gives an {@link Opaque}. */
    public static final class OpaqueTask implements SweepTask<Point, Opaque> {
        public OpaqueTask() {
        }

        @Override
        public Opaque run(Point p) {
            return new Opaque(new Counters(1, 2));
        }
    }

    @Test
    void theConfiguredExecutorFollowsTheSetting() {
        String before = System.getProperty(SweepRuns.PROPERTY);
        try {
            System.setProperty(SweepRuns.PROPERTY, "check:2");
            SweepExecutor checking = SweepExecutors.configured(1);
            assertTrue(checking instanceof RecordedRunsExecutor r && r.runs().equals(SweepRuns.check(2))
                    && r.delegate() instanceof LocalThreads && r.directory().endsWith(Path.of("datasets", "runs")),
                    checking.describe());
            System.setProperty(SweepRuns.PROPERTY, "replay");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SweepExecutors.configured(1));
            assertTrue(e.getMessage().startsWith(SweepRuns.PROPERTY + " must be run, record, check"), e.getMessage());
            System.setProperty(SweepRuns.PROPERTY, "run");
            assertTrue(SweepExecutors.configured(1) instanceof LocalThreads);
        } finally {
            if (before == null) {
                System.clearProperty(SweepRuns.PROPERTY);
            } else {
                System.setProperty(SweepRuns.PROPERTY, before);
            }
        }
    }

    @Test
    void theSettingIsParsedOrRefusedByName() {
        assertEquals(SweepRuns.RUN, SweepRuns.parse("FABRICLAB_SWEEP_RUNS", " run "));
        assertEquals(SweepRuns.RECORD, SweepRuns.parse("FABRICLAB_SWEEP_RUNS", "record"));
        assertEquals(SweepRuns.check(SweepRuns.DEFAULT_CHECK_EVERY), SweepRuns.parse("FABRICLAB_SWEEP_RUNS", "check"));
        assertEquals(SweepRuns.check(1), SweepRuns.parse("FABRICLAB_SWEEP_RUNS", "CHECK:1"));
        for (String bad : new String[] {"", "check:0", "check:-2", "check:x", "replay", "check:1000001"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SweepRuns.parse("FABRICLAB_SWEEP_RUNS", bad));
            assertTrue(e.getMessage().startsWith("FABRICLAB_SWEEP_RUNS must be run, record, check or check:N")
                    && e.getMessage().contains("\"" + bad + "\""), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> new SweepRuns(SweepRuns.Mode.RECORD, 2));
        assertTrue(SweepRuns.RUN.computes(7) && SweepRuns.RECORD.computes(7) && SweepRuns.check(1).computes(7));
    }

    @Test
    void checkComputesAboutOneRunInNAndEveryLevelOfAPeriodicFactor() {
        for (int n : new int[] {2, 4, 7}) {
            int chosen = 0;
            int[] byResidue = new int[10];
            for (int i = 0; i < 100_000; i++) {
                if (SweepRuns.check(n).computes(i)) {
                    chosen++;
                    byResidue[i % 10]++;
                }
            }
            assertEquals(1.0 / n, chosen / 100_000.0, 0.1 / n, "check:" + n);
            for (int r = 0; r < 10; r++) { // points in lists of periods 2, 5 and 10 (fabrics, seeds): each level checked
                assertEquals(1.0 / n, byResidue[r] / 10_000.0, 0.15 / n, "check:" + n + ", index = " + r + " mod 10");
            }
        }
        assertTrue(SweepRuns.check(4).computes(0), "run 0 always");
    }
}
