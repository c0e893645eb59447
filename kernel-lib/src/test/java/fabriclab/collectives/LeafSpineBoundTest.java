package fabriclab.collectives;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Time;
import java.util.List;
import org.junit.jupiter.api.Test;

class LeafSpineBoundTest {
    /** 4 leaves of 8 x 200G, 4 spines at 400G: non-blocking. */
    private static final LeafSpine FABRIC = new LeafSpine(4, 8, 4, 4, 200_000_000_000L, 400_000_000_000L, 1, Time.US, Time.US);

    /** 8 rings of 4 ranks, rank r on leaf r (GPU k of each server). */
    private static int[][] rails() {
        int[][] g = new int[8][4];
        for (int k = 0; k < 8; k++) {
            for (int r = 0; r < 4; r++) {
                g[k][r] = r * 8 + k;
            }
        }
        return g;
    }

    @Test
    void sprayingOnANonBlockingFabricMeetsTheNicBound() {
        double s = 64e6;
        List<List<LeafSpineBound.Flow>> steps = LeafSpineBound.ringSteps(rails(), 6, s / 4);
        double t = new LeafSpineBound(FABRIC, new int[0]).seconds(steps, LeafSpineBound.Routing.SPRAY, 1, 1);
        assertEquals(new BandwidthBound(4, 200).seconds(Collective.RING_ALL_REDUCE, s), t, 1e-12);
    }

    @Test
    void aSpineDownCostsItsShareOfTheUplinksWhenSpraying() {
        double s = 64e6;
        List<List<LeafSpineBound.Flow>> steps = LeafSpineBound.ringSteps(rails(), 6, s / 4);
        int[] spine0 = new int[4];
        for (int leaf = 0; leaf < 4; leaf++) {
            spine0[leaf] = FABRIC.uplinkIndex(leaf, 0, 0);
        }
        double all = new LeafSpineBound(FABRIC, new int[0]).seconds(steps, LeafSpineBound.Routing.SPRAY, 1, 1);
        // 8 flows of a leaf on 3 x 400G instead of 4: 4/3 of the NIC-bound time
        assertEquals(all * 4 / 3, new LeafSpineBound(FABRIC, spine0).seconds(steps, LeafSpineBound.Routing.SPRAY, 1, 1), 1e-12);
        // one link down: leaf 0 sends on 3 links and receives from spine 0 nowhere: the same 4/3 on leaf 0
        double one = new LeafSpineBound(FABRIC, new int[] {FABRIC.uplinkIndex(0, 0, 0)}).seconds(steps,
                LeafSpineBound.Routing.SPRAY, 1, 1);
        assertEquals(all * 4 / 3, one, 1e-12);
    }

    @Test
    void hashingIsNeverFasterThanSprayingAndIsDeterministic() {
        List<List<LeafSpineBound.Flow>> steps = LeafSpineBound.ringSteps(rails(), 6, 16e6);
        LeafSpineBound b = new LeafSpineBound(FABRIC, new int[0]);
        double spray = b.seconds(steps, LeafSpineBound.Routing.SPRAY, 1, 1);
        double ecmp = b.seconds(steps, LeafSpineBound.Routing.ECMP, 7, 32);
        assertTrue(ecmp > 1.3 * spray, "8 flows hashed on 4 uplinks collide: " + ecmp / spray);
        assertEquals(ecmp, b.seconds(steps, LeafSpineBound.Routing.ECMP, 7, 32));
        // flows inside one leaf never touch the spines
        List<List<LeafSpineBound.Flow>> local = List.of(List.of(new LeafSpineBound.Flow(0, 1, 25e6)));
        assertEquals(25e6 * 8 / 200e9, b.seconds(local, LeafSpineBound.Routing.ECMP, 1, 4), 1e-15);
    }

    @Test
    void rejectsBadInputNamingTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new LeafSpineBound(FABRIC, new int[] {3})).getMessage()
                .contains("failedUplinks[0]"));
        LeafSpine two = new LeafSpine(4, 8, 4, 1, 200_000_000_000L, 1_600_000_000_000L, 1, Time.US, Time.US);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new LeafSpineBound(two, new int[] {two.uplinkIndex(0, 0, 0)}))
                .getMessage().contains("leaves 0 and 1 have none left"));
        LeafSpineBound b = new LeafSpineBound(FABRIC, new int[0]);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.seconds(List.of(List.of(new LeafSpineBound.Flow(0, 99, 1))),
                LeafSpineBound.Routing.SPRAY, 1, 1)).getMessage().contains("steps[0][0].to"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.seconds(List.of(), LeafSpineBound.Routing.ECMP, 1, 0))
                .getMessage().contains("draws"));
    }

    @Test
    void aLongRingIsOneSharedStepNotACopyPerStep() {
        List<List<LeafSpineBound.Flow>> steps = LeafSpineBound.ringSteps(new int[][] {{0, 1, 2}}, Integer.MAX_VALUE, 10);
        assertEquals(Integer.MAX_VALUE, steps.size());
        // ring of 3: 0 -> 1, 1 -> 2, 2 -> 0, each 10 bytes
        assertEquals(List.of(new LeafSpineBound.Flow(0, 1, 10), new LeafSpineBound.Flow(1, 2, 10), new LeafSpineBound.Flow(2, 0, 10)),
                steps.get(Integer.MAX_VALUE - 1));
    }
}
