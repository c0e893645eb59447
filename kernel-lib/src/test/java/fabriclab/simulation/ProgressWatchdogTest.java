package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Time;
import fabriclab.progress.Progress;
import fabriclab.simulation.command.SimulateOptions;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.roce.RoceTransport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The progress watchdog of both engines, on the runs of issue 39 that never ended. */
class ProgressWatchdogTest {
    static final long G100 = 100_000_000_000L;

    private static Scenario cli(String... args) {
        List<String> a = new java.util.ArrayList<>(List.of("--hosts", "16", "--hosts-per-leaf", "4", "--spines", "2"));
        a.addAll(List.of(args));
        return SimulateOptions.parse(a).scenario();
    }

    /** Spraying with PFC off and a buffer of one packet (1000 + 64 B): reordering and loss, go-back-N never catches up. */
    private static Scenario sprayTinyBuffer() {
        return cli("--forwarding", "spray", "--pfc", "off", "--buffer", "1064");
    }

    @Test
    void sprayingIntoAOnePacketBufferStopsNamingFlowsAndDroppingPorts() {
        SimulationStalledException e = assertThrows(SimulationStalledException.class,
                () -> sprayTinyBuffer().simulator().progressWatchdog(2 * Time.MS).run());
        assertTrue(e.getMessage().contains("Flows started and incomplete: 16 of 16: flow 0 (host 0 -> host"), e.getMessage());
        assertTrue(e.getMessage().contains("Ports that dropped: switch"), e.getMessage());
        SimulationResult r = e.result();
        assertTrue(r.partial());
        assertFalse(r.allCompleted());
        assertTrue(r.droppedPackets() > 0);
        assertTrue(r.endPs() > 2 * Time.MS, "end " + r.endPs()); // not before the limit
    }

    @Test
    void theParallelEngineStopsTheSameRunTheSameWayForEveryThreadCount() {
        SimulationStalledException one = assertThrows(SimulationStalledException.class,
                () -> sprayTinyBuffer().simulator().progressWatchdog(2 * Time.MS).runParallel(1));
        SimulationStalledException two = assertThrows(SimulationStalledException.class,
                () -> sprayTinyBuffer().simulator().progressWatchdog(2 * Time.MS).runParallel(2));
        assertEquals(one.getMessage(), two.getMessage());
        assertEquals(one.result().endPs(), two.result().endPs());
        assertTrue(one.getMessage().contains("Ports that dropped: switch"), one.getMessage());
    }

    @Test
    void roceTowardAHostWhoseOnlyLinkFailedStopsAtTheDefaultLimitNamingTheLink() {
        // LeafSpine lists the host links first: link 2 is host 2's only link
        LeafSpine fabric = new LeafSpine(4, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
        Scenario s = Scenario.builder(fabric.build(), SimulationConfig.defaults(SwitchBuffer.shared(10_000_000)))
                .flow(FlowSpec.of(0, 2, 2_000_000, 0)).transport(RoceTransport.noCongestionControl())
                .failLink(2, 10 * Time.US).build();
        SimulationStalledException e = assertThrows(SimulationStalledException.class, () -> s.simulator().run());
        assertTrue(e.getMessage().contains("flow 0 (host 0 -> host 2"), e.getMessage());
        assertTrue(e.getMessage().contains("Failed links: host 2 port 0"), e.getMessage());
        // the default limit, 100 ms, passed after the last delivery (before 10 us plus a round trip)
        assertTrue(e.result().endPs() > Simulator.DEFAULT_STALL_LIMIT_PS, "end " + e.result().endPs());
        assertTrue(e.result().endPs() < Simulator.DEFAULT_STALL_LIMIT_PS + 2 * Time.MS, "end " + e.result().endPs());
    }

    @Test
    void ctccAtOneGigabitStopsWithoutDrops() {
        SimulationStalledException e = assertThrows(SimulationStalledException.class,
                () -> cli("--transport", "ctcc", "--rate", "1Gb/s").simulator().progressWatchdog(2 * Time.MS).run());
        assertTrue(e.getMessage().contains("Ports that dropped: none"), e.getMessage());
        assertTrue(e.result().flows().stream().mapToLong(SimulationResult.FlowRecord::retransmittedPackets).sum() > 0);
    }

    @Test
    void gseWithATwoKilobyteBufferStops() {
        SimulationStalledException e = assertThrows(SimulationStalledException.class,
                () -> cli("--transport", "gse", "--buffer", "2KB", "--pfc", "off").simulator().progressWatchdog(2 * Time.MS).run());
        assertTrue(e.getMessage().contains("Flows started and incomplete: "), e.getMessage());
        assertFalse(e.result().allCompleted());
    }

    @Test
    void anIdleGapBeforeALaterFlowIsNotAStall() {
        // flow 1 starts 5 ms after flow 0 is done: nothing is in progress in between, so a 1 ms watchdog keeps still
        LeafSpine fabric = new LeafSpine(4, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
        SimulationResult r = Scenario.builder(fabric.build(), SimulationConfig.defaults(SwitchBuffer.shared(10_000_000)))
                .flow(FlowSpec.of(0, 2, 100_000, 0)).flow(FlowSpec.of(1, 3, 100_000, 5 * Time.MS))
                .transport(RoceTransport.noCongestionControl()).build().simulator().progressWatchdog(Time.MS).run();
        assertTrue(r.allCompleted());
        assertFalse(r.partial());
        assertTrue(r.endPs() > 5 * Time.MS);
    }

    @Test
    void aLimitBelowOnePicosecondIsRefused() {
        Simulator sim = sprayTinyBuffer().simulator();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sim.progressWatchdog(0));
        assertTrue(e.getMessage().contains("limitPs") && e.getMessage().contains("0"), e.getMessage());
    }
}
