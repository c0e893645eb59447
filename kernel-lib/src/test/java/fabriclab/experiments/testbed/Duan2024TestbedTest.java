package fabriclab.experiments.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.experiments.testbed.Duan2024Testbed.Uplinks;
import fabriclab.fabric.LeafSpine;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class Duan2024TestbedTest {
    /** 8 x 100G down per leaf; speedup s asks s x 800G up, in 400G ports: 3 spines at 1.5, 4 at 2. */
    @Test
    void spinesCarryTheSpeedupTimesTheLeafsDownlinkCapacity() {
        for (double speedup : new double[] {1.5, 2.0}) {
            for (Uplinks u : Uplinks.values()) {
                Duan2024Testbed t = new Duan2024Testbed(speedup, u);
                LeafSpine ls = t.leafSpine();
                assertEquals((int) (speedup * 800 / 400), t.spines());
                assertEquals(32, ls.hosts());
                assertEquals(4, ls.leaves());
                double upBitsPerSecond = (double) ls.spines() * ls.parallelLinks() * ls.uplinkRateBitsPerSecond();
                assertEquals(speedup * 800e9, upBitsPerSecond, 1e-3, speedup + " " + u);
                assertEquals(speedup, ls.speedup(), 1e-12);
            }
        }
    }

    /** Job k is NIC k of every server: every host once, each job's ranks on four different leaves. */
    @Test
    void everyJobSpansTheFourLeavesAndEveryHostServesOneJob() {
        int[][] groups = Duan2024Testbed.jobGroups();
        assertEquals(8, groups.length);
        Set<Integer> hosts = new HashSet<>();
        for (int[] g : groups) {
            assertEquals(4, g.length);
            Set<Integer> leaves = new HashSet<>();
            for (int h : g) {
                assertTrue(hosts.add(h), "host " + h + " in two jobs");
                leaves.add(h / 8);
            }
            assertEquals(4, leaves.size());
        }
        assertEquals(32, hosts.size());
    }

    @Test
    void onlyThePapersTwoSpeedups() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Duan2024Testbed.of(1.75));
        assertTrue(e.getMessage().contains("speedup") && e.getMessage().contains("1.75"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Duan2024Testbed(2.0, null));
        assertThrows(IllegalArgumentException.class, () -> Duan2024Testbed.checkSpeedup(1.0));
    }
}
