package fabriclab.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.Simulator;
import fabriclab.fabric.Topology;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.transport.roce.RoceTransport;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FctSlowdownTest {
    /** A light Poisson run on the 8-host leaf-spine of {@link IdealFctTest} (RoCE, no congestion control). */
    static Run lightRun(IncastMix incast) {
        Topology t = IdealFctTest.FABRIC.build();
        GeneratedFlows g = new PoissonTraffic(FlowSizeDistributionTest.websearch(), 8, IdealFctTest.G100, 0.05,
                2_000_000_000L, 0, incast, 4).generate();
        SimulationResult r = new Simulator(Scenario.builder(t, IdealFctTest.CONFIG).flows(g.flows())
                .transport(RoceTransport.noCongestionControl()).build()).run();
        return new Run(t, g, r, IdealFct.of(t, IdealFctTest.CONFIG, g.flows()));
    }

    record Run(Topology topology, GeneratedFlows flows, SimulationResult result, long[] ideal) {
        boolean[] incast() {
            boolean[] b = new boolean[flows.size()];
            for (int i = 0; i < b.length; i++) {
                b[i] = flows.isIncast(i);
            }
            return b;
        }
    }

    @Test
    void noFlowBeatsItsIdealOnALightlyLoadedFabric() {
        Run run = lightRun(IncastMix.off());
        assertTrue(run.flows().size() >= 5, "flows: " + run.flows().size());
        for (int i = 0; i < run.flows().size(); i++) {
            SimulationResult.FlowRecord f = run.result().flows().get(i);
            assertTrue(f.completed());
            double slowdown = (double) f.completionTimePs() / run.ideal()[i];
            assertTrue(slowdown >= 1 - 1e-9, "flow " + i + ": slowdown " + slowdown);
        }
        boolean[] all = new boolean[run.flows().size()];
        Arrays.fill(all, true);
        FctSlowdown s = FctSlowdown.of(run.result(), run.ideal(), FctSlowdown.decileEdges(FlowSizeDistributionTest.websearch()), all);
        assertEquals(run.flows().size(), s.all().flows());
        assertEquals(run.flows().size(), s.bins().stream().mapToInt(FctSlowdown.Bin::flows).sum());
        assertTrue(s.all().p50().getAsDouble() >= 1 && s.all().p50().getAsDouble() <= s.all().p95().getAsDouble()
                && s.all().p95().getAsDouble() <= s.all().p99().getAsDouble());
        assertTrue(s.table().contains("all sizes"));
    }

    @Test
    void anEmptyBinHasNoPercentilesAndAFlowFasterThanItsIdealIsRefused() {
        Run run = lightRun(IncastMix.off());
        boolean[] all = new boolean[run.flows().size()];
        Arrays.fill(all, true);
        // an edge above every flow: the last bin holds none, so its percentiles are absent, not 0
        FctSlowdown s = FctSlowdown.of(run.result(), run.ideal(), new long[] {Long.MAX_VALUE - 1}, all);
        FctSlowdown.Bin last = s.bins().get(1);
        assertEquals(0, last.flows());
        assertTrue(last.p50().isEmpty() && last.p95().isEmpty() && last.p99().isEmpty());
        assertTrue(s.table().lines().anyMatch(l -> l.startsWith("> ") && l.endsWith("-")), s.table());
        // an ideal above a flow's completion time would make a slowdown below 1: refused, naming the parameter
        long[] ideal = run.ideal().clone();
        ideal[0] = run.result().flows().get(0).completionTimePs() + 1;
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> FctSlowdown.of(run.result(), ideal, new long[0], all));
        assertTrue(e.getMessage().startsWith("idealPs[0] must be at most flow 0's completion time"), e.getMessage());
        // a bin of no flows with a percentile, or of flows with a percentile below 1, is refused
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new FctSlowdown.Bin(0, 10, 0,
                java.util.OptionalDouble.of(0), java.util.OptionalDouble.of(0), java.util.OptionalDouble.of(0)));
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new FctSlowdown.Bin(0, 10, 3,
                java.util.OptionalDouble.of(0.5), java.util.OptionalDouble.of(1), java.util.OptionalDouble.of(1)));
    }

    @Test
    void decileEdgesOfWebsearch() {
        // 10% lies inside the first segment (0 to 10 KB for 15%): 10000 * 10 / 15; 20% is the point 20 KB; 50% lies
        // on 50-80 KB (40% to 53%): 50000 + 30000 * 10 / 13; 90% is the point 5 MB
        long[] e = FctSlowdown.decileEdges(FlowSizeDistributionTest.websearch());
        assertEquals(9, e.length);
        assertEquals(Math.round(10000 * 10 / 15.0), e[0]);
        assertEquals(20000, e[1]);
        assertEquals(Math.round(50000 + 30000 * 10 / 13.0), e[4]);
        assertEquals(5_000_000, e[8]);
    }

    @Test
    void percentileIsHpccsIndexRule() {
        double[] s = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertEquals(6, FctSlowdown.percentile(s, 0.5)); // index floor(10 * 0.5) = 5
        assertEquals(10, FctSlowdown.percentile(s, 0.95)); // index 9
        assertEquals(10, FctSlowdown.percentile(s, 0.99));
    }

    @Test
    void fctFileRoundTrip(@TempDir Path dir) throws Exception {
        Run run = lightRun(new IncastMix(3, 20_000, 700_000_000L));
        Path f = dir.resolve("fct.txt");
        HpccFctFile.write(f, run.result(), run.ideal(), run.incast());
        List<HpccFctFile.Line> lines = HpccFctFile.read(f);
        assertEquals(run.flows().size(), lines.size());
        long lastEnd = -1;
        boolean[] seen = new boolean[run.flows().size()];
        for (HpccFctFile.Line l : lines) {
            // find the flow by its endpoints, size and start (ns)
            int match = -1;
            for (int i = 0; i < run.flows().size(); i++) {
                FlowSpec s = run.flows().flows().get(i);
                if (!seen[i] && s.source() == l.sourceHost() && s.destination() == l.destinationHost() && s.bytes() == l.bytes()
                        && Math.round(run.result().flows().get(i).startedPs() / 1000.0) == l.startNs()) {
                    match = i;
                    break;
                }
            }
            assertTrue(match >= 0, "line " + l.text());
            seen[match] = true;
            SimulationResult.FlowRecord r = run.result().flows().get(match);
            assertEquals(Math.round(r.completionTimePs() / 1000.0), l.fctNs());
            assertEquals(Math.round(run.ideal()[match] / 1000.0), l.standaloneFctNs());
            assertEquals(run.flows().isIncast(match) ? 200 : 100, l.destinationPort());
            assertEquals(r.spec().sourcePort(), l.sourcePort());
            long end = r.startedPs() + r.completionTimePs();
            assertTrue(end >= lastEnd, "in order of completion");
            lastEnd = end;
        }
        assertTrue(lines.stream().anyMatch(l -> l.destinationPort() == 200));
    }

    @Test
    void hpccIpsOfHosts() {
        assertEquals(0x0b000001L, HpccFctFile.ip(0)); // 11.0.0.1
        assertEquals(0x0b000101L, HpccFctFile.ip(1)); // 11.0.1.1
        assertEquals(0x0b010201L, HpccFctFile.ip(258)); // 11.1.2.1
        assertEquals(258, HpccFctFile.host(0x0b010201L));
        assertEquals("0b010201 0b000001 7 100 10 0 5 3", new HpccFctFile.Line(0x0b010201L, 0x0b000001L, 7, 100, 10, 0, 5, 3).text());
    }
}
