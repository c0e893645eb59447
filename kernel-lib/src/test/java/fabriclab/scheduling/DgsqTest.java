package fabriclab.scheduling;

import fabriclab.fabric.Incast;
import fabriclab.fabric.Pfc;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static fabriclab.TestArguments.rejects;

class DgsqTest {
    private static final double G100 = 100e9;

    private static List<GrantSource> equalSources(int n, double bytes) {
        List<GrantSource> s = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            s.add(new GrantSource(bytes, G100, G100, 0));
        }
        return s;
    }

    @Test
    void egressQueueNeverExceedsTheNetworkCalculusBoundOnRandomTraffic() {
        // property test: 200 seeds, random n, sizes, rates, request times, delays, policy
        SplittableRandom meta = new SplittableRandom(20261122L);
        for (int trial = 0; trial < 200; trial++) {
            int n = 2 + meta.nextInt(60);
            double rPort = G100;
            double c = rPort * (0.5 + 0.5 * meta.nextDouble());
            double g = 1024 * (1 + meta.nextInt(16));
            double dmin = 1e-6 * meta.nextDouble();
            double dmax = dmin + 5e-6 * meta.nextDouble();
            GrantPolicy pol = GrantPolicy.values()[meta.nextInt(3)];
            DgsqConfig cfg = new DgsqConfig(rPort, c, g, dmin, dmax, pol);
            List<GrantSource> src = new ArrayList<>();
            double rMin = Double.POSITIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                double link = meta.nextBoolean() ? 100e9 : 25e9 + 75e9 * meta.nextDouble();
                rMin = Math.min(rMin, link);
                double path = link * (0.3 + 0.7 * meta.nextDouble());
                src.add(new GrantSource(1e3 + 200e3 * meta.nextDouble(), link, path, 20e-6 * meta.nextDouble()));
            }
            DgsqResult res = new DgsqSimulator(cfg).run(src, meta.nextLong());
            double bound = IncastBounds.grantEgressBacklogBytes(cfg, rMin);
            assertTrue(res.maxEgressQueueBytes() <= bound * (1 + 1e-9) + 1e-6,
                    "trial " + trial + ": queue " + res.maxEgressQueueBytes() + " > bound " + bound);
            // conservation: every demanded byte is granted exactly once and delivered (no loss)
            double demand = src.stream().mapToDouble(GrantSource::demandBytes).sum();
            assertEquals(demand, Arrays.stream(res.grantBytes()).sum(), 1e-6 * demand);
            assertEquals(demand, res.egress().deliveredBytes(), 1e-6 * demand);
            // 002 section 3.1.2: sum c_i <= C (+ one grant per window from the window's edge)
            double w = 50e-6;
            assertTrue(res.maxCreditRateBitsPerSecond(w) <= c + 8 * g / w + 1e-3);
        }
    }

    @Test
    void boundIsIndependentOfNAndQueueStaysBelowItForLargeIncast() {
        DgsqConfig cfg = new DgsqConfig(G100, G100, 4096, 2e-6, 3e-6, GrantPolicy.EQUAL);
        double b = IncastBounds.grantEgressBacklogBytes(cfg, G100);
        // g + g C / r + C Delta / 8 = 4096 + 4096 + 1e11 * 1e-6 / 8 = 20692 B
        assertEquals(4096 + 4096 + 12_500, b, 1e-6);
        for (int n : new int[] {8, 512}) {
            DgsqResult res = new DgsqSimulator(cfg).run(equalSources(n, 64e3), 7);
            assertTrue(res.maxEgressQueueBytes() <= b);
            double lower = IncastBounds.completionLowerBoundS(n, 64e3, G100, G100);
            double upper = IncastBounds.grantCompletionBoundS(cfg, n * 64e3, 0, G100);
            assertTrue(res.completionS() >= lower - 1e-12 && res.completionS() <= upper + 1e-12,
                    res.completionS() + " not in [" + lower + ", " + upper + "]");
        }
    }

    @Test
    void equalPolicySplitsCreditEquallyAndDemandPolicyFinishesTogether() {
        DgsqConfig eq = new DgsqConfig(G100, G100, 1000, 1e-6, 1e-6, GrantPolicy.EQUAL);
        DgsqResult r = new DgsqSimulator(eq).run(equalSources(4, 100e3), 1);
        // first 40 us: 400 grants in total, 100 each -> c_i = C / 4 each
        double[] c = r.creditRatesBitsPerSecond(0, 32e-6);
        for (double ci : c) {
            assertEquals(G100 / 4, ci, 1e-6 * G100);
        }
        // demand-weighted: sources of 100 KB and 300 KB get credit 1:3 and finish at the same time
        DgsqConfig dw = new DgsqConfig(G100, G100, 1000, 1e-6, 1e-6, GrantPolicy.DEMAND_WEIGHTED);
        List<GrantSource> s = List.of(new GrantSource(100e3, G100, G100, 0), new GrantSource(300e3, G100, G100, 0));
        DgsqResult d = new DgsqSimulator(dw).run(s, 1);
        double[] cd = d.creditRatesBitsPerSecond(0, 20e-6);
        assertEquals(3.0, cd[1] / cd[0], 0.05);
        // path pacing: a source with a 10G path never gets more than 10G of credit
        DgsqConfig pw = new DgsqConfig(G100, G100, 1000, 1e-6, 1e-6, GrantPolicy.EQUAL);
        DgsqResult p = new DgsqSimulator(pw).run(List.of(new GrantSource(100e3, G100, 10e9, 0),
                new GrantSource(100e3, G100, G100, 0)), 1);
        assertTrue(p.creditRatesBitsPerSecond(0, 10e-6)[0] <= 10e9 + 8 * 1000 / 10e-6);
    }

    @Test
    void sameSeedSameResult() {
        DgsqConfig cfg = new DgsqConfig(G100, 0.9 * G100, 2048, 1e-6, 4e-6, GrantPolicy.EQUAL);
        DgsqResult a = new DgsqSimulator(cfg).run(equalSources(20, 50e3), 99);
        DgsqResult b = new DgsqSimulator(cfg).run(equalSources(20, 50e3), 99);
        assertArrayEquals(a.egress().queueBytes(), b.egress().queueBytes());
        assertArrayEquals(a.egress().timesS(), b.egress().timesS());
    }

    @Test
    void sourcesHoldTheBacklog() {
        DgsqConfig cfg = new DgsqConfig(G100, G100, 1000, 1e-6, 1e-6, GrantPolicy.EQUAL);
        DgsqResult r = new DgsqSimulator(cfg).run(equalSources(10, 100e3), 3);
        // at t = 40 us the port granted 40 us * 100G / 8 = 500 KB (+1 grant at t=40 is excluded)
        assertEquals(1e6 - 500e3, r.totalSourceBacklogBytes(40e-6), 1000 + 1e-6);
        assertEquals(50e3, r.sourceBacklogBytes(0, 40e-6), 1000 + 1e-6);
    }

    @Test
    void closedFormBoundsForPfcAndNoControl() {
        assertEquals(64e3 * (512 - 1), IncastBounds.noControlPeakQueueBytes(512, 64e3, G100, G100), 1e-6);
        assertEquals(0, IncastBounds.noControlPeakQueueBytes(3, 64e3, 25e9, G100));
        assertEquals(512 * (20e3 + 12.5e3), IncastBounds.pfcEgressQueueBytes(512, 20e3, G100, 1e-6), 1e-6);
        assertEquals((100e9 - 100e9 / 8) / 8, IncastBounds.grantSourceBufferGrowthBytesPerS(8, G100, G100), 1e-3);
        // 8 GPUs at 100G sharing a 100G port: each source buffer grows at 87.5G / 8 = 10.9375 GB/s,
        // so a 1 MB local threshold fires after 1e6 / 10.9375e9 s = 91.43 us
        assertEquals(1e6 / 10.9375e9, IncastBounds.grantSourceLocalPfcTimeS(8, G100, G100, 1e6), 1e-15);
        assertEquals(Double.POSITIVE_INFINITY, IncastBounds.grantSourceLocalPfcTimeS(1, G100, G100, 1e6));
    }

    /**
     * The bounds on an {@link Incast} are the closed forms with n, M, r, R read from it: the same
     * numbers as the scalar forms (synchronized), and with a stagger the completion lower bound moves
     * to the last sender's start plus its own serialization.
     */
    @Test
    void boundsOnAnIncastObject() {
        Incast in = Incast.of(512, 64_000, 100_000_000_000L);
        assertEquals(64e3 * (512 - 1), IncastBounds.noControlPeakQueueBytes(in), 1e-6);
        assertEquals(512 * (20e3 + 12.5e3), IncastBounds.pfcEgressQueueBytes(in, Pfc.thresholds(20_000, 15_000), 1e-6),
                1e-6);
        assertEquals(8 * 512 * 64e3 / G100, IncastBounds.completionLowerBoundS(in), 1e-15);
        // 4 senders of 64 KB staggered by 10 us: the port needs 4 x 5.12 us = 20.48 us, the last
        // sender starts at 30 us and needs 5.12 us
        Incast staggered = Incast.of(4, 64_000, 100_000_000_000L).withStagger(10_000_000L);
        assertEquals(30e-6 + 5.12e-6, IncastBounds.completionLowerBoundS(staggered), 1e-15);
        DgsqConfig cfg = new DgsqConfig(G100, G100, 16e3, 2e-6, 3e-6, GrantPolicy.EQUAL);
        assertEquals(16e3 + 16e3 + G100 * 1e-6 / 8, IncastBounds.grantEgressBacklogBytes(cfg, in), 1e-6);
        assertEquals(IncastBounds.grantCompletionBoundS(cfg, 512 * 64e3, 0, G100), IncastBounds.grantCompletionBoundS(cfg, in),
                0);
        assertEquals(IncastBounds.grantCompletionBoundS(cfg, 4 * 64e3, 30e-6, G100),
                IncastBounds.grantCompletionBoundS(cfg, staggered), 1e-18);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> IncastBounds.grantEgressBacklogBytes(cfg, Incast.of(4, 64_000, 25_000_000_000L)));
        assertTrue(e.getMessage().contains("config.portRateBitsPerSecond"));
    }

    /** Running an incast is running its senders as grant sources requesting at their start times. */
    @Test
    void incastRunEqualsItsGrantSources() {
        DgsqConfig cfg = new DgsqConfig(G100, G100, 16e3, 2e-6, 3e-6, GrantPolicy.EQUAL);
        Incast in = Incast.of(16, 64_000, 100_000_000_000L).withStagger(1_000_000L);
        List<GrantSource> sources = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            sources.add(new GrantSource(64e3, G100, G100, i * 1e-6));
        }
        DgsqResult a = new DgsqSimulator(cfg).run(in, 5);
        DgsqResult b = new DgsqSimulator(cfg).run(sources, 5);
        assertArrayEquals(b.grantTimesS(), a.grantTimesS(), 1e-18);
        assertEquals(b.completionS(), a.completionS(), 1e-15);
        assertEquals(b.maxEgressQueueBytes(), a.maxEgressQueueBytes(), 1e-6);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DgsqSimulator(cfg).run(Incast.of(4, 64_000, 25_000_000_000L), 1));
        assertTrue(e.getMessage().contains("incast.receiverRateBitsPerSecond"));
    }

    @Test
    void badInput() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DgsqConfig(G100, 2 * G100, 1000, 0, 0, GrantPolicy.EQUAL));
        assertTrue(e.getMessage().contains("creditRateBitsPerSecond"));
        e = assertThrows(IllegalArgumentException.class,
                () -> new DgsqConfig(G100, G100, 1000, 2e-6, 1e-6, GrantPolicy.EQUAL));
        assertTrue(e.getMessage().contains("maxGrantDelayS"));
        e = assertThrows(IllegalArgumentException.class, () -> new GrantSource(1, -1, 1, 0));
        assertTrue(e.getMessage().contains("linkRateBitsPerSecond"));
        DgsqSimulator sim = new DgsqSimulator(new DgsqConfig(G100, G100, 1000, 0, 0, GrantPolicy.EQUAL));
        e = assertThrows(IllegalArgumentException.class, () -> sim.run(List.of(), 1));
        assertTrue(e.getMessage().contains("sources"));
    }

    @Test
    void aVanishingGrantIsRejectedUpFront() {
        rejects("grantBytes", () -> new DgsqSimulator(new DgsqConfig(100e9, 100e9, 1e-300, 0, 0,
                GrantPolicy.values()[0])).run(Incast.of(4, 1_000_000, 100_000_000_000L), 1));
    }
}
