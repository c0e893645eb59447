package fabriclab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.config.FlowSpec;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class PoissonTrafficTest {
    static final long G100 = 100_000_000_000L;

    @Test
    void offeredLoadOverALongWindowIsTheTarget() {
        FlowSizeDistribution ws = FlowSizeDistributionTest.websearch();
        int hosts = 64;
        double load = 0.3;
        // lambda = load R / (8 mean) per host; about 200,000 flows in the window
        double lambda = load * G100 / (8 * ws.meanBytes());
        long durationPs = (long) (200_000 / (hosts * lambda) * 1e12);
        GeneratedFlows g = new PoissonTraffic(ws, hosts, G100, load, durationPs, 0, IncastMix.off(), 3).generate();
        double offered = g.totalBytes() * 8.0 / (durationPs / 1e12) / (hosts * (double) G100);
        // compound Poisson: Var(total bytes) = expected flows x E[X^2], so the relative standard error of the offered
        // load is sqrt(E[X^2] / flows) / mean; allow 4 of them
        double flows = hosts * lambda * durationPs / 1e12;
        double relSe = Math.sqrt(FlowSizeDistributionTest.secondMoment(ws) / flows) / ws.meanBytes();
        assertTrue(Math.abs(offered / load - 1) < 4 * relSe, "offered " + offered + " vs " + load + ", 4 SE " + 4 * relSe);
        assertTrue(4 * relSe < 0.05, "the window is long enough for a few percent: " + 4 * relSe);
        // the count of arrivals is Poisson: within 4 sqrt of its mean
        assertTrue(Math.abs(g.size() - flows) < 4 * Math.sqrt(flows), g.size() + " vs " + flows);
        for (FlowSpec f : g.flows()) {
            assertTrue(f.source() != f.destination() && f.startPs() < durationPs && f.bytes() >= 1);
        }
    }

    @Test
    void sameSeedSameFlowsByteForByte() {
        FlowSizeDistribution fb = FlowSizeDistributionTest.fbHadoop();
        IncastMix incast = new IncastMix(8, 50_000, 100_000_000L);
        PoissonTraffic p = new PoissonTraffic(fb, 32, G100, 0.5, 1_000_000_000L, 0, incast, 42);
        String a = p.generate().toText();
        assertEquals(a, p.generate().toText());
        assertEquals(a, new PoissonTraffic(fb, 32, G100, 0.5, 1_000_000_000L, 0, incast, 42).generate().toText());
        assertNotEquals(a, new PoissonTraffic(fb, 32, G100, 0.5, 1_000_000_000L, 0, incast, 43).generate().toText());
    }

    @Test
    void incastBurstsAreMixedInWithoutChangingTheBackground() {
        FlowSizeDistribution ws = FlowSizeDistributionTest.websearch();
        long duration = 2_000_000_000L; // 2 ms
        IncastMix incast = new IncastMix(10, 64_000, 500_000_000L); // bursts at 0.5, 1, 1.5 ms
        GeneratedFlows with = new PoissonTraffic(ws, 16, G100, 0.4, duration, 0, incast, 9).generate();
        GeneratedFlows without = new PoissonTraffic(ws, 16, G100, 0.4, duration, 0, IncastMix.off(), 9).generate();
        assertEquals(3 * 10, with.incastFlows());
        assertEquals(3, incast.bursts(duration));
        String background = with.toText().lines().filter(l -> l.endsWith("poisson")).collect(Collectors.joining("\n"));
        assertEquals(without.toText().strip(), background);
        for (int b = 1; b <= 3; b++) {
            long at = b * 500_000_000L;
            Set<Integer> senders = new HashSet<>();
            Set<Integer> receivers = new HashSet<>();
            for (int i = 0; i < with.size(); i++) {
                FlowSpec f = with.flows().get(i);
                if (with.isIncast(i) && f.startPs() == at) {
                    senders.add(f.source());
                    receivers.add(f.destination());
                    assertEquals(64_000, f.bytes());
                }
            }
            assertEquals(10, senders.size(), "distinct senders");
            assertEquals(1, receivers.size());
            assertTrue(!senders.contains(receivers.iterator().next()));
        }
        for (int i = 1; i < with.size(); i++) {
            assertTrue(with.flows().get(i - 1).startPs() <= with.flows().get(i).startPs(), "in time order");
        }
    }

    @Test
    void aFlowCountEndsTheWindowAtTheLastFlow() {
        FlowSizeDistribution ws = FlowSizeDistributionTest.websearch();
        GeneratedFlows g = new PoissonTraffic(ws, 16, G100, 0.3, PoissonTraffic.MAX_DURATION_PS, 500, IncastMix.off(), 1)
                .generate();
        assertEquals(500, g.size());
        GeneratedFlows longer = new PoissonTraffic(ws, 16, G100, 0.3, PoissonTraffic.MAX_DURATION_PS, 600, IncastMix.off(), 1)
                .generate();
        assertEquals(g.toText(), longer.toText().lines().limit(500).collect(Collectors.joining("\n", "", "\n")));
    }

    @Test
    void refusesBadBoundsNamingThem() {
        FlowSizeDistribution ws = FlowSizeDistributionTest.websearch();
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new PoissonTraffic(ws, 16, G100, 0, 1_000_000, 0, IncastMix.off(), 1)).getMessage().startsWith("load"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new PoissonTraffic(ws, 16, G100, 1.5, 1_000_000, 0, IncastMix.off(), 1)).getMessage().startsWith("load"));
        assertTrue(assertThrows(IllegalArgumentException.class, // 16 hosts for 100 s: about 37 million flows
                () -> new PoissonTraffic(ws, 16, G100, 0.3, PoissonTraffic.MAX_DURATION_PS, 0, IncastMix.off(), 1))
                .getMessage().startsWith("durationPs"));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new PoissonTraffic(ws, 16, G100, 0.3, 1_000_000, 0, new IncastMix(16, 1, 1000), 1))
                .getMessage().startsWith("incast.senders"));
    }
}
