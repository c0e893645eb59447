package fabriclab.collectives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.loadbalancing.analytics.EcmpMonteCarlo;
import org.junit.jupiter.api.Test;

class SynchronousCollectiveTest {
    @Test
    void twoNicsOnTwoPathsByHand() {
        // X_max = 2 with probability 1/2: the step then takes twice as long
        SynchronousCollective c = new SynchronousCollective(2, 1, 2, 100, 100);
        assertEquals(0.75, c.expectedUsableFraction(), 1e-12);
        assertEquals(1.5, c.expectedStepSlowdown(), 1e-12);
        assertEquals(1.5, c.expectedSlowestFlowSlowdown(), 1e-12);
        assertEquals(1.0, c.offeredLoad(), 0);
    }

    @Test
    void noSlowdownWhenOnePathCanCarryEverything() {
        // 4 NICs of 10G on paths of 100G: even all flows on one path fit, so T = B/R always
        SynchronousCollective c = new SynchronousCollective(4, 3, 8, 10, 100);
        assertEquals(1.0, c.expectedUsableFraction(), 1e-12);
        assertEquals(1.0, c.expectedSlowestFlowSlowdown(), 1e-12);
    }

    @Test
    void expectedUsableFractionAgreesWithMonteCarlo() {
        SynchronousCollective c = new SynchronousCollective(16, 4, 16, 400, 400);
        int trials = 4000;
        int[] x = EcmpMonteCarlo.maxCounts(c.flows(), c.paths(), trials, 17);
        double sum = 0;
        double sumSq = 0;
        for (int v : x) {
            double f = c.usableFraction(v);
            sum += f;
            sumSq += f * f;
        }
        double mean = sum / trials;
        double sd = Math.sqrt(sumSq / trials - mean * mean);
        assertEquals(c.expectedUsableFraction(), mean, 5 * sd / Math.sqrt(trials) + 1e-12);
        // by hand for a given X_max: 64 flows of 100G on 16 x 400G paths, 7 on the fullest path
        // T = max(7 B/(4 x 400), B/400) = 7B/1600, T_opt = max(16 B/(16 x 400), B/400) = B/400: fraction 4/7
        assertEquals(4.0 / 7, c.usableFraction(7), 1e-12);
        assertEquals(7 * 100 / 400.0, c.slowestFlowSlowdown(7), 1e-12);
    }

    @Test
    void qpScalingApproachesPerfectSpreading() {
        SynchronousCollective c = new SynchronousCollective(8, 1, 8, 400, 400);
        double previous = 0;
        for (int q : new int[] {1, 4, 16, 64, 256}) {
            double f = c.withQpsPerNic(q).expectedUsableFraction();
            assertTrue(f > previous, "q=" + q);
            previous = f;
        }
        // law of large numbers: X_max / q -> nics / m = 1, so the fraction tends to 1
        assertTrue(previous > 0.85 && previous < 1, "q=256 gives " + previous);
    }

    @Test
    void builderSettingsLandOnTheirComponents() {
        assertEquals(new SynchronousCollective(8, 3, 4, 100, 400), SynchronousCollective.builder()
                .nics(8).qpsPerNic(3).paths(4).nicRateGbps(100).pathCapacityGbps(400).build());
        // one QP per NIC unless told otherwise
        assertEquals(new SynchronousCollective(16, 1, 16, 400, 400), SynchronousCollective.builder()
                .nics(16).paths(16).nicRateGbps(400).pathCapacityGbps(400).build());
    }

    @Test
    void builderNamesTheMissingOrBadSetting() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> SynchronousCollective.builder().nics(8).paths(3).nicRateGbps(100).build());
        assertTrue(e.getMessage().startsWith("pathCapacityGbps is required"), e.getMessage());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> SynchronousCollective.builder()
                .nics(8).qpsPerNic(0).paths(3).nicRateGbps(100).pathCapacityGbps(400).build());
        assertEquals("qpsPerNic must be >= 1, got 0", bad.getMessage());
    }

    @Test
    void badInputsNameTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new SynchronousCollective(8, 1, 0, 400, 400))
                .getMessage().startsWith("paths"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new SynchronousCollective(8, 1, 8, -1, 400))
                .getMessage().startsWith("nicRateGbps"));
        SynchronousCollective c = new SynchronousCollective(8, 1, 8, 400, 400);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> c.usableFraction(9)).getMessage().startsWith("maxFlowsOnPath"));
    }
}
