package fabriclab.simulation.transport.roce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.congestion.DcqcnParameters;
import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.ReliableConnection;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The DCQCN rate limiter as a token bucket with burst service ({@link RoceTransport.TokenBucket}, the NIC rule of the
 * RDMA reference) against timing worked out by hand, on one switch, 100 Gb/s links of 1 us, 1000-byte packets with no
 * header (P = 1000 B on the wire, 80 ns each), no ECN marking (so no CNP: every queue pair stays at line rate R).
 *
 * <p>With the reference's quantum Q = 4000 B: a queue pair's bucket starts with P tokens and gets its first turn when
 * it holds Q, (Q - P) x 8 / R = 240 ns after its start. A turn sends while the tokens stay at least P: 4000, 3000,
 * 2000, 1000 before the four packets, 0 after, so four packets (320 ns); in that time the bucket's rate R brings back
 * exactly Q, so a lone queue pair sends back to back: every packet 240 ns later than with packet spacing.
 *
 * <p>Two queue pairs on one NIC: the first takes the first turn at 240 ns (four packets, to 560 ns); the second has
 * waited since 0, so its bucket holds min(K, 1000 + 560 ns x R / 8) = K = 8000 B, the cap: eight packets. From then on
 * each turn is eight packets, as each bucket fills to the cap during the other's 640 ns. In slots of 80 ns from 240 ns,
 * the first pair sends 4 then 8 every 16 slots, the second 8 from slot 4 every 16: of 2 x 400 packets the first's last
 * starts at slot 799 (its 396 after the first turn are 49 turns of 8 and one of 4, from slot 12) and the second's at 795
 * (50 turns of 8 from slot 4). Spacing alternates single packets: slots 798 and 799 from 0 ns. So the last deliveries
 * move by 240 + 1 x 80 = +320 ns and 240 - 4 x 80 = -80 ns. (A bucket that kept no credit while waiting would give four
 * packets a turn.)
 */
class TokenBucketTest {
    static final long G100 = 100_000_000_000L;
    static final int N = 400;

    static SimulationResult run(int hosts, List<FlowSpec> flows, RoceTransport.TokenBucket bucket) {
        SimulationConfig c = new SimulationConfig(1000, 0, 1, new SwitchBuffer(10_000_000, 10_000_000, EcnMarking.OFF),
                Forwarding.sprayRandom(), 1, 0, 0);
        RoceTransport t = RoceTransport.dcqcn(DcqcnParameters.hpccSimulation())
                .withReliableConnection(ReliableConnection.defaults().withAckEvery(1)).withTokenBucket(bucket);
        return new Simulator(Scenario.builder(Topology.singleSwitch(hosts, G100, Time.US), c).flows(flows).transport(t).build())
                .run();
    }

    @Test
    void aLoneQueuePairWaitsForItsFirstQuantumThenSendsBackToBack() {
        List<FlowSpec> one = List.of(FlowSpec.of(0, 1, N * 1000L, 0));
        SimulationResult spaced = run(2, one, null);
        SimulationResult bucket = run(2, one, RoceTransport.TokenBucket.reference());
        assertTrue(bucket.allCompleted());
        assertEquals(240_000, bucket.flows().get(0).lastDeliveryPs() - spaced.flows().get(0).lastDeliveryPs());
    }

    @Test
    void twoQueuePairsOnOneNicTakeTurnsOfEightPacketsTheCapOfTheirBuckets() {
        List<FlowSpec> two = List.of(FlowSpec.of(0, 1, N * 1000L, 0), FlowSpec.of(0, 2, N * 1000L, 0));
        SimulationResult spaced = run(3, two, null);
        SimulationResult bucket = run(3, two, RoceTransport.TokenBucket.reference());
        assertTrue(bucket.allCompleted());
        long d0 = bucket.flows().get(0).lastDeliveryPs() - spaced.flows().get(0).lastDeliveryPs();
        long d1 = bucket.flows().get(1).lastDeliveryPs() - spaced.flows().get(1).lastDeliveryPs();
        assertEquals(Set.of(320_000L, -80_000L), Set.of(d0, d1), "moves of the two last deliveries, ps: " + d0 + ", " + d1);
    }

    /**
     * The bucket's state lives at the sending host: the parallel engine gives the sequential engine's run under the
     * engines' one order of simultaneous events.
     */
    @Test
    void bothEnginesGiveTheSameRunWithTheBucket() {
        SimulationConfig c = new SimulationConfig(1000, 0, 1, new SwitchBuffer(10_000_000, 10_000_000, EcnMarking.OFF),
                Forwarding.sprayRandom(), 1, 0, 0);
        RoceTransport t = RoceTransport.dcqcn(DcqcnParameters.hpccSimulation())
                .withReliableConnection(ReliableConnection.defaults().withAckEvery(1)).withTokenBucket(RoceTransport.TokenBucket.reference());
        List<FlowSpec> flows = List.of(FlowSpec.of(0, 2, N * 1000L, 0), FlowSpec.of(0, 3, N * 1000L, 0), FlowSpec.of(1, 2, N * 1000L, 0));
        Scenario s = Scenario.builder(Topology.singleSwitch(4, G100, Time.US), c).flows(flows).transport(t).build();
        SimulationResult sequential = new Simulator(s).run();
        SimulationResult parallel = new Simulator(s).runParallel(2);
        assertTrue(sequential.allCompleted());
        assertEquals(sequential.flows().stream().map(SimulationResult.FlowRecord::lastDeliveryPs).toList(),
                parallel.flows().stream().map(SimulationResult.FlowRecord::lastDeliveryPs).toList());
    }

    @Test
    void theCapacityIsTwiceTheLargerOfPacketAndQuantum() {
        assertEquals(8000, RoceTransport.TokenBucket.reference().capacityBytes(1052));
        assertEquals(20_000, new RoceTransport.TokenBucket(4000).capacityBytes(10_000));
    }

    @Test
    void refusesBadInput() {
        IllegalArgumentException q = assertThrows(IllegalArgumentException.class, () -> new RoceTransport.TokenBucket(10));
        assertTrue(q.getMessage().contains("quantumBytes") && q.getMessage().contains("10"), q.getMessage());
        IllegalArgumentException p = assertThrows(IllegalArgumentException.class,
                () -> RoceTransport.TokenBucket.reference().capacityBytes(0));
        assertTrue(p.getMessage().contains("packetWireBytes"), p.getMessage());
        IllegalArgumentException d = assertThrows(IllegalArgumentException.class,
                () -> RoceTransport.noCongestionControl().withTokenBucket(RoceTransport.TokenBucket.reference()));
        assertTrue(d.getMessage().contains("tokenBucket") && d.getMessage().contains("dcqcn"), d.getMessage());
    }
}
