package fabriclab.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.progress.Progress;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import static fabriclab.TestArguments.rejects;

class PathSelectionExperimentTest {
    static PathSelectionExperiment small(double tau) {
        return new PathSelectionExperiment(4, 4, 400, 25, tau, 0.7, 1e6, 0.1, 0.5, 1.0, 0.5, 1, PathQuality.balanced(), 1e-3, 4);
    }

    @Test
    void zeroAgeReducesScoreChoiceToTheInstantaneousBestPath() {
        PathSelectionExperiment.Result r = small(0.1).fresh().run(PathSelectionExperiment.Policy.SCORE, 3, Progress.silent());
        assertEquals(0.0, r.meanAgeS(), 0);
        assertEquals(1.0, r.bestChoiceFraction().getAsDouble(), 0);
    }

    @Test
    void containersSpreadEveryLeafEvenlyAndLoseNothingBelowCapacity() {
        // every flow is split over all spines, so every uplink of a leaf carries exactly the same load
        // (max / mean = 1), and at 70% mean load no link is overloaded unless one leaf's arrivals
        // exceed capacity: carried / offered must be (almost) 1
        PathSelectionExperiment.Result r = small(1).run(PathSelectionExperiment.Policy.CONTAINERS, 3, Progress.silent());
        assertEquals(1.0, r.meanUplinkImbalance(), 1e-9);
        assertTrue(r.throughputFraction() > 0.99, "throughput " + r.throughputFraction());
        assertTrue(r.throughputFraction() <= 1 + 1e-12);
    }

    @Test
    void staleStrictBestHerdsShortFlows() {
        // flows living 0.1 s against a 1 s announcement: every source sends its new flows to the same
        // announced best spine until the next announcement (herding index near 1), worse than ECMP
        PathSelectionExperiment e = small(0.1);
        PathSelectionExperiment.Result score = e.run(PathSelectionExperiment.Policy.SCORE, 3, Progress.silent());
        PathSelectionExperiment.Result ecmp = e.run(PathSelectionExperiment.Policy.ECMP, 3, Progress.silent());
        assertTrue(score.herdingIndex().getAsDouble() > 0.9, "herding " + score.herdingIndex());
        assertTrue(score.throughputFraction() < ecmp.throughputFraction());
    }

    /**
     * Conservation: every offered byte is delivered, dropped once, or still queued, so on an overloaded fabric with
     * small buffers (150% load, 10 KB) drops plus delivered bytes stay within the offered bytes plus
     * what the queues can hold, and no drop fraction exceeds 1.
     */
    @Test
    void overloadedFabricNeverDropsMoreThanItIsOffered() {
        PathSelectionExperiment e = new PathSelectionExperiment(4, 4, 400, 25, 0.1, 1.5, 1e4, 0.1, 0.5, 1.0, 0.5, 1,
                PathQuality.balanced(), 1e-3, 4);
        for (PathSelectionExperiment.Policy p : PathSelectionExperiment.Policy.values()) {
            PathSelectionExperiment.Result r = e.run(p, 5, Progress.silent());
            assertTrue(r.dropFraction() > 0.05, p + " should drop at 150% load, got " + r.dropFraction());
            assertTrue(r.dropFraction() <= 1, p + " drop fraction " + r.dropFraction());
            assertTrue(r.throughputFraction() + r.dropFraction() <= 1 + 1e-3,
                    p + ": delivered " + r.throughputFraction() + " + dropped " + r.dropFraction() + " exceed the offered bytes");
        }
    }

    /** "No decision" is said with an empty OptionalDouble, not with NaN. */
    @Test
    void policiesWithoutScoreDecisionsReportNoBestChoiceFraction() {
        PathSelectionExperiment e = small(1);
        assertTrue(e.run(PathSelectionExperiment.Policy.ECMP, 3, Progress.silent()).bestChoiceFraction().isEmpty());
        PathSelectionExperiment.Result containers = e.run(PathSelectionExperiment.Policy.CONTAINERS, 3, Progress.silent());
        assertTrue(containers.bestChoiceFraction().isEmpty());
        assertTrue(containers.herdingIndex().isEmpty());
    }

    @Test
    void picksAmongTheKBest() {
        double[] s = {3, 1, 2, 5};
        assertEquals(1, PathSelectionExperiment.pickAmongBest(s, 1, new SplittableRandom(1)));
        SplittableRandom rnd = new SplittableRandom(2);
        for (int i = 0; i < 100; i++) {
            int p = PathSelectionExperiment.pickAmongBest(s, 2, rnd);
            assertTrue(p == 1 || p == 2);
        }
        assertEquals(0, PathSelectionExperiment.rankOf(s, 1));
        assertEquals(3, PathSelectionExperiment.rankOf(s, 3));
    }

    @Test
    void builderDefaultsAreThePaperScenarioAsDocumented() {
        // the documented defaults, spelled out: 8 x 4 leaf-spine of 400G, 25G flows, 70% load, 1 MB, 004's
        // 0.1 / 0.5 / 1 s pipeline, average weight 0.5, strict best, equal weights, 1 ms steps, 20 s
        PathSelectionExperiment documented = new PathSelectionExperiment(8, 4, 400, 25, 0.3, 0.7, 1e6, 0.1, 0.5, 1.0, 0.5, 1,
                new PathQuality(1, 1, 1, 1, 1e6, 100e-6), 1e-3, 20);
        assertEquals(documented, PathSelectionExperiment.builder().meanFlowDurationS(0.3).build());
        assertEquals(documented, PathSelectionExperiment.paper(0.3));
    }

    @Test
    void everyBuilderSettingLandsOnItsComponent() {
        PathQuality q = new PathQuality(2, 0, 1, 0, 5e5, 50e-6);
        PathSelectionExperiment built = PathSelectionExperiment.builder()
                .leaves(3).spines(5).linkGbps(100).flowDemandGbps(10).meanFlowDurationS(2).offeredLoad(0.4)
                .bufferBytes(2e6).sampleS(0.02).readS(0.04).announceS(0.08).ewma(0.25).kBest(2).quality(q)
                .stepS(0.01).durationS(3).build();
        assertEquals(new PathSelectionExperiment(3, 5, 100, 10, 2, 0.4, 2e6, 0.02, 0.04, 0.08, 0.25, 2, q, 0.01, 3), built);
        assertEquals(built, built.toBuilder().build());
    }

    @Test
    void copiesChangeOnlyWhatTheySay() {
        PathSelectionExperiment p = small(0.1);
        assertEquals(new PathSelectionExperiment(4, 4, 400, 25, 0.1, 0.7, 1e6, 1e-3, 1e-3, 1e-3, 1.0, 1, PathQuality.balanced(), 1e-3, 4),
                p.fresh());
        assertEquals(new PathSelectionExperiment(4, 4, 400, 25, 0.1, 0.7, 1e6, 0.1, 0.5, 1.0, 0.5, 3, PathQuality.balanced(), 1e-3, 4),
                p.withKBest(3));
        assertEquals(new PathSelectionExperiment(4, 4, 400, 25, 0.1, 0.7, 1e6, 0.01, 0.01, 0.01, 0.5, 1, PathQuality.balanced(), 1e-3, 4),
                p.withAnnounce(0.01));
        assertEquals(new PathSelectionExperiment(4, 4, 400, 25, 0.1, 0.7, 1e6, 0.1, 0.5, 2.0, 0.5, 1, PathQuality.balanced(), 1e-3, 4),
                p.withAnnounce(2.0));
    }

    @Test
    void builderNamesWhatIsMissingOrOutOfRange() {
        IllegalStateException missing = assertThrows(IllegalStateException.class, () -> PathSelectionExperiment.builder().build());
        assertTrue(missing.getMessage().contains("meanFlowDurationS is required"), missing.getMessage());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PathSelectionExperiment.builder().meanFlowDurationS(1).offeredLoad(2.5).build());
        assertEquals("offeredLoad must be in (0.0, 2.0], got 2.5", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> PathSelectionExperiment.builder().meanFlowDurationS(1).readS(1e-4).build());
        assertEquals("readS must be a finite number >= stepS = 0.001 s, got 1.0E-4", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> PathSelectionExperiment.builder().meanFlowDurationS(1).sampleS(Double.NaN).build());
        assertTrue(e.getMessage().startsWith("sampleS must be"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> PathSelectionExperiment.builder().meanFlowDurationS(-1).build());
        assertEquals("meanFlowDurationS must be a finite number > 0, got -1.0", e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> PathSelectionExperiment.builder().meanFlowDurationS(1).quality(null).build());
        assertEquals("quality must not be null", e.getMessage());
    }

    @Test
    void rejectsBadInput() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PathSelectionExperiment.paper(1).withKBest(9));
        assertTrue(e.getMessage().contains("kBest"));
        e = assertThrows(IllegalArgumentException.class, () -> new PathQuality(0, 0, 0, 0, 1, 1));
        assertTrue(e.getMessage().contains("wUtil"));
    }

    @Test
    void nonFiniteAnnounceAndSampleIntervalsAreRejected() {
        rejects("announceS", () -> PathSelectionExperiment.paper(0.1).toBuilder().announceS(Double.NaN).build());
        rejects("sampleS", () -> PathSelectionExperiment.paper(0.1).toBuilder()
                .sampleS(Double.POSITIVE_INFINITY).build());
    }
}
