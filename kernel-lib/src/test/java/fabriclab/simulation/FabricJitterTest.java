package fabriclab.simulation;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.fabric.Time;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.container.DelayModel;
import fabriclab.container.Reordering;
import fabriclab.fabric.LeafSpine;
import org.junit.jupiter.api.Test;

/**
 * Packet spraying with random path delays: the simulator's reorder count
 * against the packet-container model's closed form (fabriclab.container.Reordering).
 */
class FabricJitterTest {
    private static final long G100 = 100_000_000_000L;

    private static SimulationResult sprayOneFlow(DelayModel perLink, int packets, long seed) {
        // host 0 on leaf 0, host 1 on leaf 1, 8 spines, all 100G; 1000-byte packets every 80 ns
        LeafSpine ls = new LeafSpine(2, 1, 2, 8, G100, G100, 1, Time.US, Time.US);
        SimulationConfig c = new SimulationConfig(1000, 0, 1, SwitchBuffer.shared(50_000_000),
                Forwarding.sprayRoundRobin(), seed, 0, 0);
        return new Simulator(Scenario.builder(ls.build(), c).flow(FlowSpec.of(0, 1, 1000L * packets, 0)).fabricJitter(perLink).build()).run();
    }

    @Test
    void sprayedPacketsReorderAsThePacketContainerModelPredicts() {
        // Two jittered links per path (leaf->spine, spine->leaf), each N(1 us, 50 ns): path delay
        // N(2 us, (50 sqrt 2 ns)^2). Round robin over 8 spines puts packets of one path 640 ns apart,
        // 6.4 standard deviations of a delay difference, so FIFO links almost never bind and packets
        // behave as if their delays were independent: the RFC 4737 share of late packets is
        // Reordering.rfc4737ReorderedFraction(path delay, g = 80 ns, m = 1).
        int n = 40_000;
        double sigma = 50e-9;
        SimulationResult r = sprayOneFlow(new DelayModel.Normal(1e-6, sigma), n, 11);
        assertTrue(r.allCompleted());
        double simulated = r.flows().get(0).reorderedPackets() / (double) n;
        double analytic = Reordering.rfc4737ReorderedFraction(new DelayModel.Normal(2e-6, sigma * Math.sqrt(2)), 80e-9, 1);
        // binomial standard error sqrt(p(1-p)/n) ~ 0.0021 at p ~ 0.24; neighbouring indicators are
        // correlated, so allow 5 x 2 standard errors
        double se = Math.sqrt(analytic * (1 - analytic) / n);
        assertEquals(analytic, simulated, 10 * se, "analytic " + analytic + " simulated " + simulated);
        assertTrue(analytic > 0.1 && analytic < 0.4, "the check must sit in a regime with reordering: " + analytic);
    }

    @Test
    void withoutJitterEqualPathsKeepOrder() {
        SimulationResult r = sprayOneFlow(null, 2000, 1);
        assertEquals(0, r.flows().get(0).reorderedPackets());
    }

    @Test
    void rejectsJitterThatCanGoNegative() {
        LeafSpine ls = new LeafSpine(2, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
        Scenario.Builder b = Scenario.builder(ls.build(), SimulationConfig.defaults(SwitchBuffer.shared(1_000_000)))
                .flow(FlowSpec.of(0, 1, 1000, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> b.fabricJitter(new DelayModel.Normal(0, 1e-7)).build());
        assertTrue(e.getMessage().contains("fabricJitter"), e.getMessage());
        // N(1 us, 100 ns): support from 1 us - 8.5 x 100 ns = 150 ns, never negative: accepted
        assertEquals(new DelayModel.Normal(1e-6, 1e-7), b.fabricJitter(new DelayModel.Normal(1e-6, 1e-7)).build().fabricJitter());
    }
}
