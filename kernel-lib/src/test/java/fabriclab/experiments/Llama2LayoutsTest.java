package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.experiments.Llama2Fabric.Case;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.training.Accelerator;
import fabriclab.training.CommTimer;
import fabriclab.training.ParallelLayout;
import fabriclab.training.ParallelLayout.Placement;
import fabriclab.training.TrainingJob;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class Llama2LayoutsTest {
    private static final ParallelLayout TP8_ACROSS = ParallelLayout.of(32, 8, 8, 1, 1, 8, Placement.DATA_FIRST);

    @Test
    void theLayoutsAreTheOnesTheModelAndTheGpusAllow() {
        for (int b : new int[] {32, 64, 128, 256}) {
            List<ParallelLayout> ls = Llama2Layouts.layouts(b);
            assertEquals(ls.size(), new HashSet<>(ls).size(), "distinct");
            Set<String> seen = new HashSet<>();
            for (ParallelLayout l : ls) {
                new TrainingJob(Llama2Training.model(), l, b); // TP divides 40 heads, PP 40 layers, B fills the micro-batches
                assertEquals(32, l.tensorParallel() * l.pipelineParallel() * l.dataParallel());
                assertTrue(l.zeroStage() != 3 || l.pipelineParallel() == 1, l.label());
                assertTrue(l.microBatches() <= Llama2Training.MAX_MICRO_BATCHES);
                if (l.placement() == Placement.TENSOR_FIRST) {
                    assertFalse(Llama2Layouts.tensorAcrossServers(l), l.label()); // TP at most 8 on 8-GPU servers
                } else {
                    assertTrue(l.tensorParallel() > 1 && l.dataParallel() > 1, l.label());
                }
                seen.add("TP" + l.tensorParallel() + " PP" + l.pipelineParallel());
            }
            // every TP x PP with TP PP <= 32 among {1, 2, 4, 8}^2: 16 pairs less TP 8 x PP 8
            assertEquals(15, seen.size(), "b = " + b + ": " + seen);
        }
        // B = 32, TP 1, PP 1, DP 32: one micro-batch of one sample; TP 8, PP 4, DP 1: 32 micro-batches of 1, 16 of 2, 8 of 4
        List<ParallelLayout> l32 = Llama2Layouts.layouts(32);
        assertEquals(3, l32.stream().filter(l -> l.tensorParallel() == 1 && l.pipelineParallel() == 1).count()); // ZeRO 0, 1, 3
        assertEquals(Set.of(32, 16, 8), l32.stream().filter(l -> l.tensorParallel() == 8 && l.pipelineParallel() == 4 && l.zeroStage() == 0)
                .map(ParallelLayout::microBatches).collect(java.util.stream.Collectors.toSet()));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Llama2Layouts.layouts(48)).getMessage().contains("globalBatch"));
    }

    @Test
    void dataFirstPutsTensorParallelismAcrossServersOnlyWhenAStageSpansServers() {
        assertTrue(Llama2Layouts.tensorAcrossServers(TP8_ACROSS));
        assertTrue(Llama2Layouts.tensorAcrossServers(ParallelLayout.of(32, 8, 2, 2, 0, 8, Placement.DATA_FIRST))); // stage of 16
        assertFalse(Llama2Layouts.tensorAcrossServers(ParallelLayout.of(32, 8, 2, 4, 0, 4, Placement.DATA_FIRST))); // stage of 8
        assertFalse(Llama2Layouts.tensorAcrossServers(ParallelLayout.of(32, 8, 8, 1, 1, 8)));
    }

    /**
     * TP 8 across 4 servers on a non-blocking fabric: each of the 4 L all-reduces per micro-batch takes the NVLink part
     * over the 2 GPUs of a server (S at 200 GB/s) plus the rail part over 4 servers (2 x 3/4 x S/2 at 25 GB/s), S = s h 2.
     */
    @Test
    void tensorParallelTimeAcrossServersFollowsTheClosedForm() {
        Llama2Training t = Llama2Training.nonBlocking(4);
        Llama2Training.Configuration p = new Llama2Training.Configuration(Case.SINGLE_JOB, RoceOrGse.GSE, TP8_ACROSS, 32, Accelerator.H20, 0.421);
        Llama2Training.Result r = t.evaluate(p, CommTimer.nonBlocking(8, 200e9, 200e9), Llama2Training.Timing.BOUND);
        double s = 4096.0 * 5120 * 2; // one sample's layer output, bf16 [bytes]
        double allReduce = s / 200e9 + 2 * 3 / 4.0 * s / 2 / 25e9;
        int microBatches = 8; // B / DP = 32 / 4, one sample each
        assertEquals(microBatches * 4 * 40 * allReduce, r.tensorSeconds(), 1e-9 * r.tensorSeconds());
        // TP blocks compute: the iteration is at least compute + TP of stage 0
        assertTrue(r.iterationSeconds() >= r.computeSeconds() + r.tensorSeconds() - 1e-12);
        double compute = 32 * Llama2Training.model().trainingFlopsPerSample() / (32 * 148e12 * 0.421); // F_sample B / (GPUs peak e)
        assertEquals(compute, r.computeSeconds(), 1e-9 * compute);
        // the same layout in Megatron's order keeps TP on NVLink: 4 x 40 x 8 all-reduces of 2 x 7/8 S at 200 GB/s
        Llama2Training.Result inside = t.evaluate(new Llama2Training.Configuration(Case.SINGLE_JOB, RoceOrGse.GSE,
                ParallelLayout.of(32, 8, 8, 1, 1, 8), 32, Accelerator.H20, 0.421), CommTimer.nonBlocking(8, 200e9, 200e9),
                Llama2Training.Timing.BOUND);
        assertEquals(8 * 4 * 40 * 2 * 7 / 8.0 * s / 200e9, inside.tensorSeconds(), 1e-9 * inside.tensorSeconds());
    }

    @Test
    void onTheLeafSpineBoundSprayingGainsWhenTensorParallelismCrossesServers() {
        Llama2Training t = Llama2Training.nonBlocking(4);
        List<Llama2Training.Configuration> pts = List.of(
                new Llama2Training.Configuration(Case.SINGLE_JOB, RoceOrGse.ROCE, TP8_ACROSS, 32, Accelerator.H20, 0.421),
                new Llama2Training.Configuration(Case.SINGLE_JOB, RoceOrGse.GSE, TP8_ACROSS, 32, Accelerator.H20, 0.421));
        List<Llama2Training.Gain> g = Llama2Training.gains(List.of(
                t.evaluate(pts.get(0), t.timer(Case.SINGLE_JOB, RoceOrGse.ROCE, Llama2Training.Timing.BOUND, 1), Llama2Training.Timing.BOUND),
                t.evaluate(pts.get(1), t.timer(Case.SINGLE_JOB, RoceOrGse.GSE, Llama2Training.Timing.BOUND, 1), Llama2Training.Timing.BOUND)));
        // GSE meets the non-blocking bound (4 spines x 400G carry a leaf's 8 x 200G), RoCE's hashing can only be slower
        double ideal = t.evaluate(pts.get(1), CommTimer.nonBlocking(8, 200e9, Llama2Training.NVLINK_BYTES_PER_SECOND),
                Llama2Training.Timing.BOUND).samplesPerSecond();
        assertEquals(ideal, g.get(0).gse().samplesPerSecond(), 1e-9 * ideal);
        assertTrue(g.get(0).gainPercent() > 0, "gain " + g.get(0).gainPercent());
        // two 16-GPU jobs keep the order: DP 2 each, data-first
        assertEquals(new ParallelLayout(16, 8, 8, 1, 2, 1, 8, Placement.DATA_FIRST), Llama2Training.job(Case.MULTIPLE_JOBS, TP8_ACROSS, 32).layout());
    }

    private static Llama2Training.Gain pair(double roce, double gse) {
        Llama2Training.Configuration c = new Llama2Training.Configuration(Case.SINGLE_JOB, RoceOrGse.ROCE, TP8_ACROSS, 32, Accelerator.H20, 0.5);
        Llama2Training.Configuration d = new Llama2Training.Configuration(Case.SINGLE_JOB, RoceOrGse.GSE, TP8_ACROSS, 32, Accelerator.H20, 0.5);
        return new Llama2Training.Gain(
                new Llama2Training.Result(c, Llama2Training.Timing.BOUND, roce, 1, 1, 0, 0, 0.1, JobMetrics.DeliveryCounters.NONE),
                new Llama2Training.Result(d, Llama2Training.Timing.BOUND, gse, 1, 1, 0, 0, 0.1, JobMetrics.DeliveryCounters.NONE));
    }

    @Test
    void theVerdictCountsLevelGainAndBoth() {
        Llama2Layouts.Target target = new Llama2Layouts.Target(2.66, 0.10, 40, 58);
        // level 2.66 +-10% = [2.394, 2.926]; gain = gse / roce - 1
        Llama2Training.Gain both = pair(2.7, 2.7 * 1.5);      // level, 50%
        Llama2Training.Gain levelOnly = pair(2.5, 2.5 * 1.1); // level, 10%
        Llama2Training.Gain gainOnly = pair(6.0, 6.0 * 1.45); // 2.26x the level, 45%
        Llama2Training.Gain neither = pair(10, 11);           // 10%
        Llama2Layouts.Verdict v = Llama2Layouts.verdict("g", List.of(both, levelOnly, gainOnly, neither), target);
        assertEquals(4, v.pairs());
        assertEquals(2, v.levelMet());
        assertEquals(2, v.gainMet());
        assertEquals(1, v.both());
        assertEquals(50, v.maxGainAtLevelPercent(), 1e-9);
        assertEquals(2.7 / 2.66, v.minLevelRatioInBand(), 1e-12);
        assertEquals(2.5, v.minRoceSamplesPerSecond(), 0);
        assertEquals(50, v.maxGainPercent(), 1e-9);
        Llama2Layouts.Verdict none = Llama2Layouts.verdict("g", List.of(neither), target);
        assertEquals(-1, none.maxGainAtLevelPercent(), 0);
        assertEquals(-1, none.minLevelRatioInBand(), 0);
        assertEquals(List.of(both, levelOnly), Llama2Layouts.nearest(List.of(neither, gainOnly, levelOnly, both), target, 2));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new Llama2Layouts.Target(2.66, 0.1, 58, 40)).getMessage()
                .contains("gainHighPercent"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Llama2Layouts.verdict("g", List.of(), target)).getMessage()
                .contains("pairs"));
        assertEquals(4, Llama2Layouts.table("t", List.of(both, levelOnly, gainOnly, neither)).rowCount());
    }

    @Test
    void theEfficienciesAreThePublishedOnes() {
        assertEquals(List.of(0.213, Llama2Training.llama2PretrainingMfu(), 0.552), Llama2Layouts.EFFICIENCIES);
    }

    private static Llama2Training.Result result(Llama2Training.Configuration c, RoceOrGse f, double samplesPerSecond) {
        Llama2Training.Configuration p = new Llama2Training.Configuration(c.row(), f, c.layout(), c.globalBatch(), c.accelerator(),
                c.efficiency());
        return new Llama2Training.Result(p, Llama2Training.Timing.PACKET, samplesPerSecond, 32 / samplesPerSecond, 1, 0, 0, 0.1,
                new JobMetrics.DeliveryCounters(0, 0, 0, 0, 0, 0));
    }

    @Test
    void overSeedsCountsTheSeedsThatMeetTheLevelTheBandAndBoth() {
        // row 1's target: 2.66 samples/s within 10%, gain 40-58%. Seed 1: RoCE 2.6 (-2.3%), GSE 3.9 (+50%): both.
        // Seed 2: RoCE 3.0 (+12.8%), GSE 3.9 (+30%): neither. A point that only seed 1 has is dropped.
        Llama2Training.Configuration a = new Llama2Training.Configuration(Case.SINGLE_JOB, RoceOrGse.ROCE, TP8_ACROSS, 32,
                Accelerator.H20, 0.421);
        Llama2Training.Configuration b = new Llama2Training.Configuration(Case.SINGLE_JOB, RoceOrGse.ROCE, TP8_ACROSS, 32,
                Accelerator.H20, 0.213);
        java.util.Map<Long, List<Llama2Training.Gain>> bySeed = java.util.Map.of(
                2L, List.of(new Llama2Training.Gain(result(a, RoceOrGse.ROCE, 3.0), result(a, RoceOrGse.GSE, 3.9))),
                1L, List.of(new Llama2Training.Gain(result(a, RoceOrGse.ROCE, 2.6), result(a, RoceOrGse.GSE, 3.9)),
                        new Llama2Training.Gain(result(b, RoceOrGse.ROCE, 2.0), result(b, RoceOrGse.GSE, 2.9))));
        List<Llama2Layouts.SeedVerdict> v = Llama2Layouts.overSeeds(bySeed, row -> new Llama2Layouts.Target(2.66, 0.10, 40, 58));
        assertEquals(1, v.size());
        Llama2Layouts.SeedVerdict s = v.get(0);
        assertEquals(a, s.point());
        assertEquals(2, s.seeds());
        assertEquals(List.of("seed 1", "seed 2"), s.roce().labels());
        assertEquals(2.6, s.roce().min(), 1e-12);
        assertEquals(3.0, s.roce().max(), 1e-12);
        assertEquals(2.8, s.roce().median(), 1e-12);   // the mean of the two middle values
        assertEquals(30.0, s.gainPercent().min(), 1e-9);   // 3.9 / 3.0 - 1
        assertEquals(50.0, s.gainPercent().max(), 1e-9);   // 3.9 / 2.6 - 1
        assertEquals(1, s.levelMet());
        assertEquals(1, s.gainMet());
        assertEquals(1, s.both());
        // the dataset holds every seed's pairs with a seed column
        tech.tablesaw.api.Table t = Llama2Layouts.dataset(bySeed, "test").table();
        assertEquals(3, t.rowCount());
        assertEquals(List.of(1L, 1L, 2L), t.longColumn("seed").asList());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Llama2Layouts.overSeeds(java.util.Map.of(), r -> null))
                .getMessage().startsWith("bySeed"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Llama2Layouts.overSeeds(bySeed, r -> null))
                .getMessage().startsWith("targets"));
    }
}
