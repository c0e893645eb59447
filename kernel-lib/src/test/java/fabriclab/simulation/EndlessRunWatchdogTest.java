package fabriclab.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Time;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Partition;
import fabriclab.simulation.element.Transport;
import fabriclab.simulation.engine.SequentialEngine;
import fabriclab.simulation.event.EventHandler;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.TransportRun;
import org.junit.jupiter.api.Test;

/**
 * The watchdogs that bound runs the simulated-time watchdog cannot see: an instant that never ends (handlers that keep
 * scheduling events at the time being handled, so simulated time stands still) and events without progress (simulated
 * time creeps on, nothing is delivered).
 */
class EndlessRunWatchdogTest {
    static final long G100 = 100_000_000_000L;

    /** A sender that never sends: at its start it runs a timer that re-arms itself {@code stepPs} later, for ever. */
    record Spinning(long stepPs) implements TransportModel {
        @Override
        public TransportRun start(Network network) {
            return new TransportRun(network) {
                @Override
                public Transport newFlow(FlowState f) {
                    return new Transport(network, f) {
                        @Override
                        protected void onStart(long now) {
                            Partition at = source;
                            EventHandler spin = new EventHandler() {
                                @Override
                                public void handle(long t, Object payload) {
                                    at.events().schedule(t + stepPs, this, null);
                                }
                            };
                            at.events().schedule(now + stepPs, spin, null);
                        }

                        @Override
                        protected boolean canSend() {
                            return false;
                        }

                        @Override
                        protected int takeSequence() {
                            throw new IllegalStateException("never sends");
                        }
                    };
                }
            };
        }

        @Override
        public String parallelEngineLimitation() {
            return null;
        }
    }

    private static Scenario spinning(long stepPs) {
        LeafSpine fabric = new LeafSpine(4, 2, 2, 1, G100, G100, 1, Time.US, Time.US);
        return Scenario.builder(fabric.build(), SimulationConfig.defaults(SwitchBuffer.shared(1_000_000)))
                .flow(FlowSpec.of(0, 5, 10_000, 0)).flow(FlowSpec.of(1, 6, 10_000, 0)).transport(new Spinning(stepPs))
                .build();
    }

    @Test
    void anInstantThatNeverEndsIsStoppedOnBothEnginesNamingTheInstantAndItsEvents() {
        SimulationStalledException seq = assertThrows(SimulationStalledException.class,
                () -> new Simulator(spinning(0)).instantWatchdog(100_000).run());
        assertTrue(seq.getMessage().startsWith("the run stopped: simulated time stood still at t = 0.000000 us while"
                + " 100,000 events were handled at that instant"), seq.getMessage());
        assertTrue(seq.getMessage().contains("Flows started and incomplete: 2 of 2"), seq.getMessage());
        assertTrue(seq.result().endPs() == 0);
        for (int threads : new int[] {1, 2}) {
            SimulationStalledException par = assertThrows(SimulationStalledException.class,
                    () -> new Simulator(spinning(0)).instantWatchdog(100_000).runParallel(threads));
            assertTrue(par.getMessage().contains("simulated time stood still at t = 0.000000 us"), par.getMessage());
        }
    }

    @Test
    void theDefaultInstantLimitStopsTheRunToo() {
        // 2^24 + 64 x (nodes + ports + flows): bounded without any setting
        SimulationStalledException e = assertThrows(SimulationStalledException.class, () -> new Simulator(spinning(0)).run());
        assertTrue(e.getMessage().contains("simulated time stood still"), e.getMessage());
    }

    @Test
    void eventsWithoutProgressStopARunWhoseTimeCreepsOn() {
        // a step of 1 ps: the simulated-time watchdog (100 ms) would need 10^11 events; the event count stops it
        SimulationStalledException seq = assertThrows(SimulationStalledException.class,
                () -> new Simulator(spinning(1)).quietWatchdog(1_000_000).run());
        assertTrue(seq.getMessage().startsWith("the run stopped: more than 1,000,000 events were handled"), seq.getMessage());
        assertTrue(seq.result().endPs() < Time.US, "end " + seq.result().endPs());
        SimulationStalledException one = assertThrows(SimulationStalledException.class,
                () -> new Simulator(spinning(1)).quietWatchdog(1_000_000).runParallel(1));
        SimulationStalledException two = assertThrows(SimulationStalledException.class,
                () -> new Simulator(spinning(1)).quietWatchdog(1_000_000).runParallel(2));
        assertEquals(one.getMessage(), two.getMessage()); // the stop does not depend on the thread count
    }

    @Test
    void aRunThatProgressesIsNotStoppedByTheNewWatchdogs() {
        Scenario s = Scenario.builder(new LeafSpine(4, 2, 2, 1, G100, G100, 1, Time.US, Time.US).build(),
                SimulationConfig.defaults(SwitchBuffer.shared(1_000_000))).flow(FlowSpec.of(0, 5, 2_000_000, 0))
                .flow(FlowSpec.of(1, 5, 2_000_000, 0))
                .transport(fabriclab.simulation.transport.roce.RoceTransport.noCongestionControl()).build();
        // limits far below the run's events, yet deliveries keep coming and no instant holds many events
        SimulationResult r = new Simulator(s).instantWatchdog(1_000).quietWatchdog(100_000).run();
        assertTrue(r.allCompleted());
    }

    @Test
    void theEnginesBoundOneInstantOnTheirOwn() {
        Partition p = new Partition(1);
        long[] handled = {0};
        EventHandler spin = new EventHandler() {
            @Override
            public void handle(long t, Object payload) {
                handled[0]++;
                p.events().schedule(t, this, null);
            }
        };
        p.events().schedule(7, spin, null);
        SequentialEngine e = new SequentialEngine(p).instantEventLimit(5000);
        long r = e.run(Long.MAX_VALUE, Long.MAX_VALUE, 0, fabriclab.progress.Progress.silent());
        assertEquals(-5000 - 1, r); // stopped with events pending
        assertTrue(e.stalled());
        assertEquals(7, e.stuckInstant().timePs());
        assertEquals(5000, e.stuckInstant().events());
        assertEquals(java.util.Map.of("EndlessRunWatchdogTest", 1L), e.stuckInstant().handlers());
        assertEquals(5000, handled[0]);
    }

    @Test
    void limitsBelowOneAreRefusedNamingTheParameter() {
        Simulator s = new Simulator(spinning(0));
        assertEquals("limit must be >= 1, got 0",
                assertThrows(IllegalArgumentException.class, () -> s.instantWatchdog(0)).getMessage());
        assertEquals("limit must be >= 1, got -3",
                assertThrows(IllegalArgumentException.class, () -> s.quietWatchdog(-3)).getMessage());
    }
}
