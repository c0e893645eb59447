package fabriclab.simulation.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcHeadroom;
import fabriclab.fabric.Time;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.ReliableConnectionInvariantTest.Pattern;
import fabriclab.simulation.transport.hpcc.HpccTransport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The invariants of {@link ReliableConnectionInvariantTest} for HPCC, on the same 2-leaf, 2-spine fabric of 8 hosts:
 * lossless under PFC (no drop, no timeout, every flow complete, nothing resent, goodput at most line rate), and on a
 * lossy fabric (20 KB buffers) bytes conserved, no spurious timeout, every flow complete or failed; with 1 and 100
 * queue pairs per host in incast, permutation and all-to-all.
 */
class HpccInvariantTest {
    static SimulationResult run(Pattern p, int qps, boolean lossless) {
        int wire = 1000;
        long headroom = PfcHeadroom.packetLevelBytes(ReliableConnectionInvariantTest.G100, Time.US, wire);
        Pfc pfc = new Pfc(100_000, 80_000, headroom, 65535);
        long buffer = lossless ? 6 * (pfc.xoffBytes() + headroom) : 20_000;
        return new Simulator(Scenario.builder(ReliableConnectionInvariantTest.FABRIC.build(),
                SimulationConfig.defaults(SwitchBuffer.shared(buffer))).flows(ReliableConnectionInvariantTest.flows(p, qps))
                .transport(HpccTransport.defaults()).pfc(lossless ? pfc : null).build()).run();
    }

    static List<Arguments> cases() {
        List<Arguments> a = new ArrayList<>();
        for (Pattern p : Pattern.values()) {
            for (int qps : new int[] {1, 100}) {
                a.add(Arguments.of(p, qps));
            }
        }
        return a;
    }

    @ParameterizedTest(name = "{0}, {1} QPs per host")
    @MethodSource("cases")
    void aLosslessFabricDropsNothingAndNeverTimesOut(Pattern p, int qps) {
        SimulationResult r = run(p, qps, true);
        assertEquals(0, r.droppedPackets(), "drops");
        assertEquals(0, r.controlDropped(), "control drops");
        assertEquals(0, r.counter(TransportModel.TIMEOUTS), "timeouts");
        assertEquals(0, r.counter(TransportModel.NACKS), "NAKs");
        assertTrue(r.allCompleted());
        long total = ReliableConnectionInvariantTest.flows(p, qps).stream().mapToLong(FlowSpec::bytes).sum();
        assertEquals(total, r.deliveredBytes());
        assertEquals(total, r.injectedBytes(), "nothing resent");
        assertTrue(r.counter(HpccTransport.UPDATES) > 0, "the control loop ran");
        assertTrue(r.endPs() - r.lastDeliveryPs() < Time.MS);
        for (int d = 0; d < ReliableConnectionInvariantTest.HOSTS; d++) {
            long bytes = 0;
            long last = -1;
            for (SimulationResult.FlowRecord f : r.flows()) {
                if (f.spec().destination() == d) {
                    bytes += f.deliveredBytes();
                    last = Math.max(last, f.lastDeliveryPs());
                }
            }
            if (bytes > 0) {
                assertTrue(8.0 * bytes / Time.toSeconds(last) <= ReliableConnectionInvariantTest.G100, "receiver " + d);
            }
        }
    }

    @ParameterizedTest(name = "{0}, {1} QPs per host")
    @MethodSource("cases")
    void aLossyFabricConservesBytesAndExplainsEveryTimeout(Pattern p, int qps) {
        SimulationResult r = run(p, qps, false);
        assertEquals(r.injectedBytes(), r.deliveredBytes() + r.droppedBytes() + r.discardedBytes() + r.inFlightBytes());
        assertEquals(0, r.counter(TransportModel.SPURIOUS_TIMEOUTS), "spurious timeouts");
        long completed = r.flows().stream().filter(SimulationResult.FlowRecord::completed).count();
        assertTrue(completed + r.counter(TransportModel.FAILED_QPS) >= r.flows().size());
        assertTrue(r.counter(TransportModel.FAILED_QPS) == 0 || r.droppedPackets() + r.controlDropped() > 0);
    }
}
