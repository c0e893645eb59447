package fabriclab.container;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import static fabriclab.TestArguments.rejects;

class OverheadModelTest {
    private static final OverheadModel M = OverheadModel.defaults();

    @Test
    void cellEfficiencyIsPayloadOverPaddedCells() {
        // 4096 B = 16 cells of 256 + 16 B; 257 B = 2 cells, the second nearly empty
        assertEquals(4096.0 / (16 * 272), M.cells(PacketSizes.fixed(4096)).efficiency(), 1e-12);
        assertEquals(257.0 / (2 * 272), M.cells(PacketSizes.fixed(257)).efficiency(), 1e-12);
        assertEquals(8.0 * (2 * 272 - 257) / 100e9, M.cells(PacketSizes.fixed(257)).meanAddedLatency(), 1e-18);
        // reassembly of 2 cells with jitter sigma waits sigma / sqrt(pi) on average
        OverheadModel j = M.withPathDelaySigma(1e-6);
        assertEquals(8.0 * (2 * 272 - 257) / 100e9 + 1e-6 / Math.sqrt(Math.PI), j.cells(PacketSizes.fixed(257)).meanAddedLatency(), 1e-12);
    }

    @Test
    void containerEfficiencyIsOneTagPerPacketAndNoWaiting() {
        OverheadModel.Cost c = M.containers(PacketSizes.fixed(4096));
        assertEquals(4096.0 / 4100, c.efficiency(), 1e-15);
        assertEquals(32 / 100e9, c.meanAddedLatency(), 1e-20);
        assertEquals(0, c.stdAddedLatency(), 0);
    }

    @Test
    void aggregationClosedFormMatchesSimulation() {
        PacketSizes p = PacketSizes.fixed(4096);
        OverheadModel.Cost exact = M.aggregation(p, 0.5);
        double lambda = 0.5 * 100e9 / (8 * 4096);
        double pad = 8.0 * 64 / 100e9;
        assertEquals(3 / (2 * lambda) + pad, exact.meanAddedLatency(), 1e-15); // n = 4: (n-1)/(2 lambda)
        assertEquals(Math.sqrt(3.0 * 11 / 12) / lambda, exact.stdAddedLatency(), 1e-15);
        assertEquals(16384.0 / (16384 + 64), exact.efficiency(), 1e-15);
        OverheadModel.Cost mc = M.aggregationMonteCarlo(p, 0.5, 0, 40_000, 1);
        // 10,000 frames, per-packet wait sd/mean about 0.9: 5 sigma of a frame-correlated mean is below 5%
        assertEquals(exact.meanAddedLatency(), mc.meanAddedLatency(), 0.05 * exact.meanAddedLatency());
        assertEquals(exact.stdAddedLatency(), mc.stdAddedLatency(), 0.05 * exact.stdAddedLatency());
        assertEquals(exact.efficiency(), mc.efficiency(), 1e-3);
    }

    @Test
    void aggregationEfficiencyForUniformSizesMatchesFillLaw() {
        PacketSizes u = PacketSizes.uniform(64, 1500);
        double exact = ContainerAssembly.fillDistribution(AssemblyRule.OVERFLOW_STARTS_NEXT, u, 16384).mean() / (16384 + 64);
        OverheadModel.Cost mc = M.aggregationMonteCarlo(u, 0.5, 0, 200_000, 2);
        assertEquals(exact, mc.efficiency(), 0.002);
        OverheadModel.Cost withTimeout = M.aggregationMonteCarlo(u, 0.05, 1e-6, 100_000, 2);
        assertTrue(withTimeout.meanAddedLatency() <= 1e-6 + 8.0 * (16384 + 64) / 100e9, "a timeout caps the wait");
        assertTrue(withTimeout.efficiency() < mc.efficiency(), "timeouts send part-filled frames");
    }

    @Test
    void badInputsNameTheParameter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> M.aggregation(PacketSizes.uniform(64, 1500), 0.5));
        assertTrue(e.getMessage().contains("sizes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> M.aggregation(PacketSizes.fixed(4096), 0));
        assertTrue(e.getMessage().contains("load"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new OverheadModel(0, 16, 16384, 64, 4, 100e9, 0));
        assertTrue(e.getMessage().contains("cellPayloadBytes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> M.withPathDelaySigma(-1));
        assertTrue(e.getMessage().contains("pathDelaySigma"), e.getMessage());
    }

    @Test
    void aggregationAtAVanishingLoadWaitsCorrespondinglyLongOrIsRejected() {
        // the wait moments scale as 1 / lambda, lambda = load R / (8 P): std(load) = std(1) / load exactly
        OverheadModel m = OverheadModel.defaults();
        PacketSizes p = PacketSizes.fixed(256);
        var one = m.aggregation(p, 1);
        var tiny = m.aggregation(p, 1e-300);
        assertTrue(one.stdAddedLatency() > 0, "a frame holds several 256 B packets");
        assertEquals(one.stdAddedLatency() * 1e300, tiny.stdAddedLatency(), 1e-12 * tiny.stdAddedLatency());
        assertTrue(Double.isFinite(tiny.meanAddedLatency()) && tiny.meanAddedLatency() > one.meanAddedLatency());
        rejects("load", () -> m.aggregation(p, Double.MIN_VALUE));
    }
}
