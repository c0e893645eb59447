package fabriclab.telemetry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.progress.Progress;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class PathSelectionExperimentTest {
    static PathSelectionExperiment small(double tau) {
        return new PathSelectionExperiment(4, 4, 400, 25, tau, 0.7, 1e6, 0.1, 0.5, 1.0, 0.5, 1, PathQuality.balanced(), 1e-3, 4);
    }

    @Test
    void zeroAgeReducesScoreChoiceToTheInstantaneousBestPath() {
        PathSelectionExperiment.Result r = small(0.1).fresh().run(PathSelectionExperiment.Policy.SCORE, 3, Progress.silent());
        assertEquals(0.0, r.meanAgeS(), 0);
        assertEquals(1.0, r.bestChoiceFraction(), 0);
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
        assertTrue(score.herdingIndex() > 0.9, "herding " + score.herdingIndex());
        assertTrue(score.throughputFraction() < ecmp.throughputFraction());
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
    void rejectsBadInput() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PathSelectionExperiment.paper(1).withKBest(9));
        assertTrue(e.getMessage().contains("kBest"));
        e = assertThrows(IllegalArgumentException.class, () -> new PathQuality(0, 0, 0, 0, 1, 1));
        assertTrue(e.getMessage().contains("wUtil"));
    }
}
