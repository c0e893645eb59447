package fabriclab.experiments;

import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.PfcWatchdog;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcHeadroom;
import fabriclab.fabric.Time;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The 003 deadlock at packet level: it forms, it is permanent, the watchdog breaks it, hook re-prioritisation prevents it. */
class PfcDeadlockAndRecoveryTest {
    private static final PfcDeadlockAndRecovery E = PfcDeadlockAndRecovery.defaults();

    @Test
    void withPfcOnlyEveryFlowStopsForGoodWhilePausesKeepCirculating() {
        PfcDeadlockAndRecovery shortRun = new PfcDeadlockAndRecovery(E.topology(), E.flows(), E.flowBytes(), E.bufferBytes(), E.pfc(), E.watchdog(), Time.MS);
        PfcDeadlockAndRecovery.Result a = shortRun.run(PfcDeadlockAndRecovery.Variant.PFC);
        PfcDeadlockAndRecovery.Result b = E.run(PfcDeadlockAndRecovery.Variant.PFC); // twice as long
        assertEquals(0, a.completed());
        assertEquals(0, b.droppedPackets(), "PFC is lossless: nothing is dropped, the fabric just stops");
        // a permanent deadlock: doubling the time delivers not one byte more ...
        assertArrayEquals(a.deliveredBytes(), b.deliveredBytes());
        assertTrue(b.lastDeliveryPs() < Time.MS / 2, "deliveries stop early: " + b.lastDeliveryPs());
        // ... while the paused queues keep refreshing their PAUSE frames (every half pause time)
        assertTrue(b.pausesSent() > a.pausesSent(), b.pausesSent() + " vs " + a.pausesSent());
        // every queue on the cycle holds bytes it can never send
        for (long[] q : b.cycleQueueBytes()) {
            assertTrue(q[q.length - 1] > 0, Arrays.toString(q));
        }
        // conservation: what left the hosts is delivered or still in the frozen buffers
        SimulationResult r = b.result();
        assertEquals(r.injectedBytes(), r.deliveredBytes() + r.inFlightBytes());
    }

    @Test
    void theWatchdogDeclaresDeadlocksAndBreaksThemAtTheCostOfDrops() {
        PfcDeadlockAndRecovery.Result pfc = E.run(PfcDeadlockAndRecovery.Variant.PFC);
        PfcDeadlockAndRecovery.Result wd = E.run(PfcDeadlockAndRecovery.Variant.WATCHDOG);
        assertTrue(wd.deadlocks() >= 1);
        assertTrue(wd.droppedPackets() > 0, "ignoring PFC during recovery overflows downstream buffers");
        assertTrue(Arrays.stream(wd.deliveredBytes()).sum() > Arrays.stream(pfc.deliveredBytes()).sum());
        assertEquals(0, pfc.deadlocks());
    }

    @Test
    void hookFlowsOnAnotherPriorityNeverDeadlock() {
        PfcDeadlockAndRecovery.Result hook = E.run(PfcDeadlockAndRecovery.Variant.HOOK_PRIORITY);
        assertEquals(4, hook.completed());
        assertEquals(0, hook.droppedPackets());
        assertEquals(0, hook.deadlocks());
        for (long d : hook.deliveredBytes()) {
            assertEquals(E.flowBytes(), d);
        }
        // PFC still bounds every ingress counter, on both priorities, at XOFF + headroom (accounted
        // under the priority a packet arrived with, even where the leaf changed it)
        long bound = E.pfc().xoffBytes() + E.pfc().headroomBytes();
        for (SimulationResult.PortPfc p : hook.result().pfc()) {
            for (long peak : p.peakIngressBytes()) {
                assertTrue(peak <= bound, p.name() + " " + peak + " > " + bound);
            }
        }
    }

    @Test
    void pinnedRoutesAreCheckedAgainstTheTopology() {
        Scenario s = E.scenario(PfcDeadlockAndRecovery.Variant.PFC);
        int hosts = s.topology().hosts();
        // flow 0 (host 0 on leaf 1) pinned to start at leaf 2
        Scenario wrongStart = s.toBuilder().build();
        Scenario.Builder b = Scenario.builder(s.topology(), s.config()).flows(s.flows()).route(0, hosts + 1, hosts + 4, hosts + 2);
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> new Simulator(b.build()));
        assertTrue(x.getMessage().contains("routes[flow 0]"), x.getMessage());
        // leaf 1 to leaf 2 directly: no such link
        Scenario.Builder c = Scenario.builder(s.topology(), s.config()).flows(s.flows()).route(0, hosts, hosts + 1, hosts + 2);
        x = assertThrows(IllegalArgumentException.class, () -> new Simulator(c.build()));
        assertTrue(x.getMessage().contains("no link"), x.getMessage());
        assertThrows(IllegalArgumentException.class, () -> s.toBuilder().route(0, hosts, hosts).build());
        assertThrows(IllegalArgumentException.class, () -> s.toBuilder().hookPriority(8).build());
        assertTrue(wrongStart.routes().size() == 4);
    }

    @Test
    void badSettingsAreNamed() {
        Pfc pfc = new Pfc(20_000, 10_000, PfcHeadroom.packetLevelBytes(100_000_000_000L, Time.US, 1000), 65535);
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> new PfcDeadlockAndRecovery(E.topology(), E.flows(), 1, 10_000, pfc, E.watchdog(), Time.MS));
        assertTrue(x.getMessage().contains("bufferBytes"), x.getMessage());
        x = assertThrows(IllegalArgumentException.class, () -> new PfcDeadlockAndRecovery(E.topology(),
                java.util.List.of(new fabriclab.flowcontrol.RoutedFlow("X", java.util.List.of("leaf1", "host0"), 3)),
                1, 1_000_000, pfc, E.watchdog(), Time.MS));
        assertTrue(x.getMessage().contains("route"), x.getMessage());
        x = assertThrows(IllegalArgumentException.class, () -> new PfcWatchdog(0, 1, 1, 1));
        assertTrue(x.getMessage().contains("detectionPs"), x.getMessage());
    }
}
