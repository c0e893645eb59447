package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Time;
import fabriclab.progress.Progress;
import fabriclab.cli.SimulateOptions;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.roce.RoceTransport;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The progress watchdog of both engines, on runs that would otherwise never end. */
class ProgressWatchdogTest {
    static final long G100 = 100_000_000_000L;

    private static Scenario cli(String... args) {
        List<String> a = new java.util.ArrayList<>(List.of("--hosts", "16", "--hosts-per-leaf", "4", "--spines", "2"));
        a.addAll(List.of(args));
        return SimulateOptions.parse(a).settings().scenario();
    }

    /** Spraying with PFC off and a buffer of one packet (1000 + 64 B): reordering and loss, go-back-N never catches up. */
    private static Scenario sprayTinyBuffer() {
        return cli("--forwarding", "spray", "--pfc", "off", "--buffer", "1064");
    }

    @Test
    void sprayingIntoAOnePacketBufferEndsWithEveryTimeoutExplainedByALoss() {
        // go-back-N recovers by NAKs and, for lost tails, by the local ACK timeout; nothing stalls for the watchdog
        SimulationResult r = new Simulator(sprayTinyBuffer()).progressWatchdog(2 * Time.MS).run();
        assertTrue(r.droppedPackets() > 0);
        assertEquals(0, r.counter(fabriclab.simulation.transport.TransportModel.SPURIOUS_TIMEOUTS));
        assertEquals(r.flows().size(), r.flows().stream().filter(SimulationResult.FlowRecord::completed).count()
                + r.counter(fabriclab.simulation.transport.TransportModel.FAILED_QPS));
    }

    /** GSE with a 2 KB buffer and PFC off: containers never fit, so it is refused before the run. */
    private static Scenario gseTinyBuffer() {
        return cli("--transport", "gse", "--buffer", "2KB", "--pfc", "off");
    }

    @Test
    void theParallelEngineStopsTheSameRunTheSameWayForEveryThreadCount() {
        // senders that never send, their timers re-armed every microsecond: no progress for the watchdog's 2 ms
        java.util.function.Supplier<Scenario> stuck = () -> Scenario.builder(
                new LeafSpine(4, 2, 2, 1, G100, G100, 1, Time.US, Time.US).build(),
                SimulationConfig.defaults(SwitchBuffer.shared(1_000_000))).flow(FlowSpec.of(0, 5, 10_000, 0))
                .transport(new EndlessRunWatchdogTest.Spinning(Time.US)).build();
        SimulationStalledException one = assertThrows(SimulationStalledException.class,
                () -> new Simulator(stuck.get()).progressWatchdog(2 * Time.MS).runParallel(1));
        SimulationStalledException two = assertThrows(SimulationStalledException.class,
                () -> new Simulator(stuck.get()).progressWatchdog(2 * Time.MS).runParallel(2));
        assertEquals(one.getMessage(), two.getMessage());
        assertEquals(one.result().endPs(), two.result().endPs());
        assertTrue(one.getMessage().contains("Flows started and incomplete: 1 of 1"), one.getMessage());
    }

    @Test
    void roceTowardAHostWhoseOnlyLinkFailedFailsItsQueuePairAfterItsRetries() {
        // LeafSpine lists the host links first: link 2 is host 2's only link
        LeafSpine fabric = new LeafSpine(4, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
        RoceTransport roce = RoceTransport.noCongestionControl();
        Scenario s = Scenario.builder(fabric.build(), SimulationConfig.defaults(SwitchBuffer.shared(10_000_000)))
                .flow(FlowSpec.of(0, 2, 2_000_000, 0)).transport(roce).failLink(2, 10 * Time.US).build();
        SimulationResult r = new Simulator(s).run();
        // the first expiry, then one per retry; the QP fails at the last (IB spec 9.7.6.1)
        int expiries = roce.rc().retryCount() + 1;
        assertEquals(expiries, r.counter(fabriclab.simulation.transport.TransportModel.TIMEOUTS));
        assertEquals(0, r.counter(fabriclab.simulation.transport.TransportModel.SPURIOUS_TIMEOUTS));
        assertEquals(1, r.counter(fabriclab.simulation.transport.TransportModel.FAILED_QPS));
        assertFalse(r.allCompleted());
        long timeout = roce.rc().localAckTimeoutPs(); // 4.096 us x 2^20
        assertEquals(4_096_000L * (1L << 20), timeout);
        assertTrue(r.endPs() >= expiries * timeout && r.endPs() < expiries * timeout + 20 * Time.US, "end " + r.endPs());
    }

    @Test
    void aWatchdogShorterThanTheLocalAckTimeoutLetsTheTimeoutAct() {
        // the watchdog's limit (1 us) grows by the transport's timeout (t = 8: 1.05 ms): the QP's one expiry fails it
        // (retry count 0) before the watchdog would call the run stalled
        LeafSpine fabric = new LeafSpine(4, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
        RoceTransport roce = RoceTransport.noCongestionControl().withReliableConnection(
                fabriclab.simulation.transport.ReliableConnection.defaults().withLocalAckTimeoutExponent(8).withRetryCount(0));
        SimulationResult r = new Simulator(Scenario.builder(fabric.build(), SimulationConfig.defaults(SwitchBuffer.shared(10_000_000)))
                .flow(FlowSpec.of(0, 2, 2_000_000, 0)).transport(roce).failLink(2, 10 * Time.US).build()).progressWatchdog(Time.US).run();
        assertEquals(1, r.counter(fabriclab.simulation.transport.TransportModel.FAILED_QPS));
        assertEquals(1, r.counter(fabriclab.simulation.transport.TransportModel.TIMEOUTS));
    }

    @Test
    void ctccAtOneGigabitCompletesWithoutASpuriousTimeout() {
        SimulationResult r = new Simulator(cli("--transport", "ctcc", "--rate", "1Gb/s")).progressWatchdog(2 * Time.MS).run();
        assertTrue(r.allCompleted());
        assertEquals(0, r.counter(fabriclab.simulation.transport.TransportModel.SPURIOUS_TIMEOUTS));
    }

    @Test
    void gseWithABufferSmallerThanAContainerIsRefusedBeforeTheRun() {
        // 16 KB of payload in packets of 1000 + 64 B: 17 packets, 17,472 B on the wire
        IllegalArgumentException cli = assertThrows(IllegalArgumentException.class, ProgressWatchdogTest::gseTinyBuffer);
        assertTrue(cli.getMessage().startsWith("--buffer must hold a GSE container with --transport gse: at least"
                + " 17472 B") && cli.getMessage().endsWith("got 2KB"), cli.getMessage());
        Scenario s = Scenario.builder(new LeafSpine(4, 2, 2, 1, G100, G100, 1, Time.US, Time.US).build(),
                SimulationConfig.defaults(SwitchBuffer.shared(2_000))).flow(FlowSpec.of(0, 5, 100_000, 0))
                .transport(fabriclab.simulation.transport.gse.GseTransport.defaults()).build();
        IllegalArgumentException api = assertThrows(IllegalArgumentException.class, () -> new Simulator(s));
        assertTrue(api.getMessage().startsWith("containerBytes must fit a switch's buffer: a container of 16384 B is"
                + " 16384 B on the wire (packets of mtuBytes 1000 + headerBytes 0)"), api.getMessage());
    }

    @Test
    void anIdleGapBeforeALaterFlowIsNotAStall() {
        // flow 1 starts 5 ms after flow 0 is done: nothing is in progress in between, so a 1 ms watchdog keeps still
        LeafSpine fabric = new LeafSpine(4, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
        SimulationResult r = new Simulator(Scenario.builder(fabric.build(), SimulationConfig.defaults(SwitchBuffer.shared(10_000_000)))
                .flow(FlowSpec.of(0, 2, 100_000, 0)).flow(FlowSpec.of(1, 3, 100_000, 5 * Time.MS))
                .transport(RoceTransport.noCongestionControl()).build()).progressWatchdog(Time.MS).run();
        assertTrue(r.allCompleted());
        assertFalse(r.partial());
        assertTrue(r.endPs() > 5 * Time.MS);
    }

    @Test
    void aLimitBelowOnePicosecondIsRefused() {
        Simulator sim = new Simulator(cli());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sim.progressWatchdog(0));
        assertTrue(e.getMessage().contains("limitPs") && e.getMessage().contains("0"), e.getMessage());
    }
}
