package fabriclab.simulation;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.fabric.Time;
import fabriclab.fabric.EcnMarking;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * WRED marking inside the simulator against the queue computed by hand: one 100G sender into a 30G
 * receiver port. Packet k (1000 B, k = 0..N-1) reaches the switch at t1 + 80 ns k; the 30G port
 * finishes one packet every ceil(8000 / 30e9 s) = 266,667 ps, so when packet k arrives the queue holds
 * q_k = (k - floor(80,000 k / 266,667)) packets, counting the one in service. No arrival coincides
 * with a departure: gcd(80,000, 266,667) = 1, so 80,000 k = 266,667 j needs k >= 266,667 > N.
 */
class EcnMarkingTest {
    static final int N = 2000;

    static long queueBefore(int k) {
        return (k - (80_000L * k) / 266_667L) * 1000L;
    }

    static SimulationResult run(EcnMarking wred, long seed) {
        return run(new SwitchBuffer(10_000_000, 10_000_000, wred), seed);
    }

    static SimulationResult run(SwitchBuffer buffer, long seed) {
        Topology t = Topology.singleSwitch(new long[] {100_000_000_000L, 30_000_000_000L}, Time.US);
        SimulationConfig c = new SimulationConfig(1000, 0, 1, buffer, Forwarding.sprayRandom(), seed, 0, 0);
        return new Simulator(Scenario.builder(t, c).flows(List.of(FlowSpec.of(0, 1, N * 1000L, 0))).build()).run();
    }

    @Test
    void stepMarkingMarksExactlyThePacketsThatFindTheQueueAboveK() {
        long k = 400_500;
        long expected = 0;
        for (int i = 0; i < N; i++) {
            if (queueBefore(i) > k) {
                expected++;
            }
        }
        SimulationResult r = run(new EcnMarking(k, k, 1.0), 1);
        assertTrue(expected > 100 && expected < N - 100, "scenario must straddle K: " + expected);
        assertEquals(expected, r.ecnMarks());
        assertEquals(expected, r.flows().get(0).ecnMarkedPackets());
    }

    @Test
    void linearMarkingMatchesTheExpectedCountWithinFiveSigma() {
        EcnMarking wred = new EcnMarking(100_000, 2_000_000, 0.5);
        double mean = 0;
        double var = 0;
        for (int i = 0; i < N; i++) {
            double p = wred.probability(queueBefore(i));
            mean += p;
            var += p * (1 - p);
        }
        SimulationResult r = run(wred, 2026);
        assertEquals(mean, r.ecnMarks(), 5 * Math.sqrt(var), "mean " + mean + " sd " + Math.sqrt(var));
    }

    /**
     * Thresholds written for 120 Gb/s ports and scaled to the 30 Gb/s port: Kmin and Kmax times 30/120, so a step
     * at K marks exactly the packets that find the queue above K/4 (counted by hand as above).
     */
    @Test
    void thresholdsScaledToThePortRateMarkAsTheScaledStep() {
        long k = 1_602_000;
        long expected = 0;
        for (int i = 0; i < N; i++) {
            if (queueBefore(i) > k / 4) {
                expected++;
            }
        }
        SimulationResult r = run(new SwitchBuffer(10_000_000, 10_000_000, new EcnMarking(k, k, 1.0))
                .withEcnScaledFromRate(120_000_000_000L), 1);
        assertTrue(expected > 100 && expected < N - 100, "scenario must straddle K/4: " + expected);
        assertEquals(expected, r.ecnMarks());
    }
}
