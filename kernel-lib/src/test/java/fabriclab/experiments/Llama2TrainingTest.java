package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.experiments.Llama2Fabric.Case;
import fabriclab.progress.Progress;
import fabriclab.training.Accelerator;
import fabriclab.training.CommOp;
import fabriclab.training.CommTimer;
import fabriclab.training.ParallelLayout;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class Llama2TrainingTest {
    private static final ParallelLayout TP8_DP4 = ParallelLayout.of(32, 8, 8, 1, 0, 1);

    @Test
    void aSingleJobOnANonBlockingFabricApproachesTheBandwidthBound() {
        Llama2Training t = Llama2Training.nonBlocking(4);
        int[][] rails = TP8_DP4.dataGroups(0); // 8 rings of 4, GPU k of every server
        double bound = 2 * 3 / 4.0 * 1e9 * 8 / 200e9;
        double gse = t.timer(Case.SINGLE_JOB, RoceOrGse.GSE, Llama2Training.Timing.PACKET, 1, 16L << 20)
                .seconds(CommOp.Primitive.ALL_REDUCE, rails, 1e9);
        assertTrue(gse >= bound && gse < 1.08 * bound, "GSE packet-level " + gse + " s vs bound " + bound + " s");
        assertEquals(bound, t.timer(Case.SINGLE_JOB, RoceOrGse.GSE, Llama2Training.Timing.BOUND, 1)
                .seconds(CommOp.Primitive.ALL_REDUCE, rails, 1e9), 1e-12);
        // the whole iteration then matches the non-blocking bound of the layout
        Llama2Training.Configuration p = new Llama2Training.Configuration(Case.SINGLE_JOB, RoceOrGse.GSE, TP8_DP4, 32, Accelerator.A100, 0.4);
        double fluid = t.evaluate(p, t.timer(Case.SINGLE_JOB, RoceOrGse.GSE, Llama2Training.Timing.BOUND, 1),
                Llama2Training.Timing.BOUND).samplesPerSecond();
        double ideal = t.evaluate(p, CommTimer.nonBlocking(8, 200e9, Llama2Training.NVLINK_BYTES_PER_SECOND),
                Llama2Training.Timing.BOUND).samplesPerSecond();
        assertEquals(ideal, fluid, 1e-9 * ideal);
    }

    @Test
    void fourLinksDownCostSprayingTheLostShareOfTheUplinks() {
        for (int spines : new int[] {2, 4, 8}) {
            Llama2Training t = Llama2Training.nonBlocking(spines);
            int[][] rails = TP8_DP4.dataGroups(0);
            double single = t.timer(Case.SINGLE_JOB, RoceOrGse.GSE, Llama2Training.Timing.BOUND, 1)
                    .seconds(CommOp.Primitive.ALL_REDUCE, rails, 1e9);
            double four = t.timer(Case.FOUR_LINKS_DOWN, RoceOrGse.GSE, Llama2Training.Timing.BOUND, 1)
                    .seconds(CommOp.Primitive.ALL_REDUCE, rails, 1e9);
            assertEquals(single * spines / (spines - 1.0), four, 1e-12, "spines " + spines);
            double roce = t.timer(Case.SINGLE_JOB, RoceOrGse.ROCE, Llama2Training.Timing.BOUND, 1)
                    .seconds(CommOp.Primitive.ALL_REDUCE, rails, 1e9);
            assertTrue(roce > single, "hashing collides: " + roce + " vs " + single);
        }
        // with spare uplink capacity (speedup 4/3 on 4 spines) losing one spine costs nothing
        Llama2Training spare = new Llama2Training(4, 4 / 3.0, Llama2Training.NVLINK_BYTES_PER_SECOND);
        assertEquals(spare.timer(Case.SINGLE_JOB, RoceOrGse.GSE, Llama2Training.Timing.BOUND, 1)
                .seconds(CommOp.Primitive.ALL_REDUCE, TP8_DP4.dataGroups(0), 1e9),
                spare.timer(Case.FOUR_LINKS_DOWN, RoceOrGse.GSE, Llama2Training.Timing.BOUND, 1)
                        .seconds(CommOp.Primitive.ALL_REDUCE, TP8_DP4.dataGroups(0), 1e9), 1e-9);
    }

    @Test
    void multipleJobsAreTwoHalfJobsAtOnce() {
        Llama2Training t = Llama2Training.nonBlocking(4);
        assertEquals(2, Llama2Training.job(Case.MULTIPLE_JOBS, TP8_DP4, 32).layout().dataParallel());
        assertEquals(16, Llama2Training.job(Case.MULTIPLE_JOBS, TP8_DP4, 32).globalBatch());
        String m = assertThrows(IllegalArgumentException.class, () -> Llama2Training.job(Case.MULTIPLE_JOBS,
                ParallelLayout.of(32, 8, 8, 4, 0, 4), 32)).getMessage();
        assertTrue(m.contains("layout.dataParallel must be even"), m);
        // with GSE the two jobs' rails do not share links, so each job runs as fast as alone: twice the samples/s of one
        Llama2Training.Configuration p = new Llama2Training.Configuration(Case.MULTIPLE_JOBS, RoceOrGse.GSE, TP8_DP4, 32, Accelerator.A100, 0.4);
        Llama2Training.Result r = t.evaluate(p, t.timer(Case.MULTIPLE_JOBS, RoceOrGse.GSE, Llama2Training.Timing.BOUND, 1),
                Llama2Training.Timing.BOUND);
        double alone = t.timeline(p, CommTimer.nonBlocking(8, 200e9, Llama2Training.NVLINK_BYTES_PER_SECOND)).samplesPerSecond();
        assertEquals(2 * alone, r.samplesPerSecond(), 1e-9 * alone);
    }

    @Test
    void gseWithALinkDownRunsOnThePacketSimulatorToo() {
        // GSE's edges resend what the path-blind grants overflow, so the row completes, and no faster
        // than with every link up
        Llama2Training t = Llama2Training.nonBlocking(4);
        var op = CommOp.Primitive.ALL_REDUCE;
        int[][] rails = {{0, 8, 16, 24}};
        double single = t.timer(Case.SINGLE_JOB, RoceOrGse.GSE, Llama2Training.Timing.PACKET, 1, 4L << 20).seconds(op, rails, 1 << 24);
        double down = t.timer(Case.ONE_LINK_DOWN, RoceOrGse.GSE, Llama2Training.Timing.PACKET, 1, 4L << 20).seconds(op, rails, 1 << 24);
        assertTrue(Double.isFinite(down) && down >= single, down + " vs " + single);
    }

    /**
     * With a link down on the non-blocking 4-spine fabric, leaf 0 receives through 3 of its 4 spine links, so the 8 rails'
     * all-reduce cannot take less than the spraying bound (4/3 of the single job's ideal); GSE's grants admit more than
     * that into the spines, and the PFC backstop pauses instead of dropping: every byte sent once, none resent.
     */
    @Test
    void gseWithALinkDownPausesInsteadOfDropping() {
        Llama2Training t = Llama2Training.nonBlocking(4);
        var op = CommOp.Primitive.ALL_REDUCE;
        int[][] rails = new int[8][4];
        for (int r = 0; r < 8; r++) {
            for (int s = 0; s < 4; s++) {
                rails[r][s] = s * 8 + r;
            }
        }
        double boundDown = t.timer(Case.ONE_LINK_DOWN, RoceOrGse.GSE, Llama2Training.Timing.BOUND, 1).seconds(op, rails, 1 << 24);
        double boundSingle = t.timer(Case.SINGLE_JOB, RoceOrGse.GSE, Llama2Training.Timing.BOUND, 1).seconds(op, rails, 1 << 24);
        assertEquals(4.0 / 3, boundDown / boundSingle, 0.02);
        Llama2Training.Configuration p = new Llama2Training.Configuration(Case.ONE_LINK_DOWN, RoceOrGse.GSE, ParallelLayout.of(32, 8, 1, 1, 0, 1), 32,
                Accelerator.H800, 0.45);
        Llama2Training.Result r = t.evaluate(p, t.timer(Case.ONE_LINK_DOWN, RoceOrGse.GSE, Llama2Training.Timing.PACKET, 1, 4L << 20),
                Llama2Training.Timing.PACKET);
        assertTrue(r.delivery().deliveredBytes() > 0);
        assertEquals(r.delivery().deliveredBytes(), r.delivery().sentBytes(), "GSE resent bytes with the PFC backstop");
        double down = t.timer(Case.ONE_LINK_DOWN, RoceOrGse.GSE, Llama2Training.Timing.PACKET, 1, 4L << 20).seconds(op, rails, 1 << 24);
        assertTrue(down >= boundDown * (1 - 1e-9), down + " s beats the bound " + boundDown + " s");
    }

    @Test
    void rejectsBadInputNamingTheParameter() {
        Llama2Training t = Llama2Training.nonBlocking(4);
        String m = assertThrows(IllegalArgumentException.class, () -> t.timer(Case.ONE_LINK_DOWN, RoceOrGse.GSE,
                Llama2Training.Timing.PACKET, 1, 1000)).getMessage();
        assertTrue(m.startsWith("packetReferenceBytes"), m);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Llama2Training(0, 1, 1e9)).getMessage().contains("spines"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Llama2Training.Configuration(Case.SINGLE_JOB, RoceOrGse.GSE,
                ParallelLayout.of(16, 8, 8, 1, 0, 1), 32, Accelerator.A100, 0.4)).getMessage().contains("layout must be for 32 GPUs"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Llama2Training.Configuration(Case.SINGLE_JOB, RoceOrGse.GSE,
                TP8_DP4, 0, Accelerator.A100, 0.4)).getMessage().contains("globalBatch"));
    }

    @Test
    void theSweepIsTheSameOnOneOrTwoThreads() throws InterruptedException {
        Llama2Training t = Llama2Training.nonBlocking(8);
        List<Llama2Training.Configuration> points = new ArrayList<>();
        for (Case row : Case.values()) {
            for (RoceOrGse f : RoceOrGse.values()) {
                for (ParallelLayout l : List.of(TP8_DP4, ParallelLayout.of(32, 8, 2, 2, 3, 2))) {
                    points.add(new Llama2Training.Configuration(row, f, l, 64, Accelerator.H800, 0.45));
                }
            }
        }
        List<Llama2Training.Result> one = t.sweep(points, Llama2Training.Timing.BOUND, 3, 1, Progress.silent());
        List<Llama2Training.Result> two = t.sweep(points, Llama2Training.Timing.BOUND, 3, 2, Progress.silent());
        assertEquals(Llama2Training.table("x", one).printAll(), Llama2Training.table("x", two).printAll());
        // as data: each point its own timer (what a Spark executor runs), the same results
        List<Llama2Training.Result> plan = new fabriclab.sweep.LocalThreads(2).run(
                t.sweepPlan(points, Llama2Training.Timing.BOUND, 3), Progress.silent());
        assertEquals(one, plan);
        // and the parameter records survive Java serialization (the executors ship them)
        Llama2Training.Point q = t.sweepPlan(points, Llama2Training.Timing.BOUND, 3).parameters().get(5);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(q);
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            assertEquals(q, in.readObject());
        } catch (java.io.IOException | ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Several seeds as one plan give each seed's own sweep: the same results, per seed in the order of the seeds given
     * (here a packet-simulated RoCE point, whose ECMP hashing the seed changes, and GSE's).
     */
    @Test
    void seedsAsOnePlanGiveEachSeedsOwnSweep() throws InterruptedException {
        Llama2Training t = Llama2Training.nonBlocking(4);
        List<Llama2Training.Configuration> points = List.of(
                new Llama2Training.Configuration(Case.SINGLE_JOB, RoceOrGse.ROCE, TP8_DP4, 32, Accelerator.A100, 0.4),
                new Llama2Training.Configuration(Case.SINGLE_JOB, RoceOrGse.GSE, TP8_DP4, 32, Accelerator.A100, 0.4));
        long[] seeds = {5, 2};
        java.util.Map<Long, List<Llama2Training.Result>> together = t.sweep(points, Llama2Training.Timing.PACKET, seeds,
                new fabriclab.sweep.LocalThreads(2), Progress.silent());
        assertEquals(List.of(5L, 2L), List.copyOf(together.keySet()));
        for (long seed : seeds) {
            assertEquals(t.sweep(points, Llama2Training.Timing.PACKET, seed, 1, Progress.silent()), together.get(seed));
        }
        fabriclab.sweep.SweepExecutor one = new fabriclab.sweep.LocalThreads(1);
        assertEquals("seeds must hold at least one seed, got none", assertThrows(IllegalArgumentException.class,
                () -> t.sweep(points, Llama2Training.Timing.PACKET, new long[0], one, Progress.silent())).getMessage());
        assertEquals("seeds must not repeat a seed, got 3 at indices 0 and 2", assertThrows(IllegalArgumentException.class,
                () -> t.sweep(points, Llama2Training.Timing.PACKET, new long[] {3, 4, 3}, one, Progress.silent())).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> t.sweep(points, Llama2Training.Timing.PACKET, (long[]) null, one,
                Progress.silent())).getMessage().contains("seeds"));
    }

    /**
     * TP 8 keeps the tensor-parallel all-reduces inside the servers (NVLink), so the fabric carries only the DP
     * all-reduce: 8 rings of 4 ranks, simulated once at the 1 MiB reference. A ring all-reduce sends 2 (n - 1) / n of
     * the buffer from each rank: 32 ranks x 1.5 MiB = 48 MiB delivered, each byte once on a lossless fabric, no timeout.
     * Timed by the bound, no packet run: all 0.
     */
    @Test
    void aRowCarriesTheDeliveryOfThePacketRunsItWasScaledFrom() {
        Llama2Training t = Llama2Training.nonBlocking(4);
        long total = 32L * 3 * (1 << 20) / 2;
        for (RoceOrGse f : RoceOrGse.values()) {
            Llama2Training.Configuration p = new Llama2Training.Configuration(Case.SINGLE_JOB, f, TP8_DP4, 32, Accelerator.A100, 0.4);
            Llama2Training.Result r = t.evaluate(p, t.timer(Case.SINGLE_JOB, f, Llama2Training.Timing.PACKET, 1, 1L << 20),
                    Llama2Training.Timing.PACKET);
            JobMetrics.DeliveryCounters d = r.delivery();
            assertEquals(total, d.deliveredBytes(), f.toString());
            assertEquals(total, d.sentBytes(), f.toString());
            assertEquals(0, d.timeouts(), f.toString());
            assertEquals(0, d.spuriousTimeouts(), f.toString());
            assertEquals(0, d.failedQueuePairs(), f.toString());
            // 32 NICs of 200 Gb/s at most
            assertTrue(d.goodputGbps() > 0 && d.goodputGbps() <= 32 * 200.0, f + ": " + d.goodputGbps());
            Llama2Training.Result bound = t.evaluate(p, t.timer(Case.SINGLE_JOB, f, Llama2Training.Timing.BOUND, 1),
                    Llama2Training.Timing.BOUND);
            assertEquals(JobMetrics.DeliveryCounters.NONE, bound.delivery());
            var table = Llama2Training.table("x", List.of(r, bound));
            assertEquals(List.of("goodput_gbps", "delivered_bytes", "sent_bytes", "retransmitted_bytes", "timeouts",
                    "spurious_timeouts", "failed_qps"), table.columnNames().subList(table.columnCount() - 7, table.columnCount()));
            assertEquals(total, table.longColumn("delivered_bytes").get(0));
            assertEquals(0L, table.longColumn("delivered_bytes").get(1));
        }
    }
}
