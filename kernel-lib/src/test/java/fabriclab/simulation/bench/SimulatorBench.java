package fabriclab.simulation.bench;

import fabriclab.simulation.Simulator;
import fabriclab.fabric.PfcHeadroom;
import fabriclab.simulation.config.Forwarding;
import fabriclab.fabric.Pfc;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.fabric.Time;
import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.LeafSpine;
import fabriclab.loadbalancing.hash.HashFunction;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Simulation speed: JMH reports the {@code packetHops} and {@code events} secondary results as
 * rates per second of wall time (one run of a fixed scenario per operation).
 * Scenarios: {@code incast} = 32-to-1 incast at 100G, 1 MB per sender, 4 MB buffer with WRED;
 * {@code incastPfc} = the same incast, shared 4 MB buffer, PFC with XOFF 50 KB, XON 25 KB, rule headroom;
 * {@code permutation} = 128 hosts on 8 leaves x 8 spines at 100G (speedup 1), 2 MB per flow, ECMP.
 * Run: {@code ./bench SimulatorBench -f 1 -wi 2 -i 3}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 3)
public class SimulatorBench {
    /** Which fixed scenario. */
    @Param({"incast", "incastPfc", "permutation"})
    public String scenario;

    private Scenario s;

    /** Counters JMH turns into per-second rates. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counters {
        /** Packet-hops simulated. */
        public long packetHops;
        /** Events handled. */
        public long events;

        /** Resets per iteration. */
        @Setup(Level.Iteration)
        public void reset() {
            packetHops = 0;
            events = 0;
        }
    }

    /** Builds the scenario. */
    @Setup
    public void setUp() {
        long g100 = 100_000_000_000L;
        if (scenario.equals("incast")) {
            SimulationConfig c = new SimulationConfig(1000, 0, 1, new SwitchBuffer(4_000_000, 4_000_000, new EcnMarking(100_000, 400_000, 0.2)),
                    Forwarding.sprayRandom(), 1, 0, 0);
            s = Scenario.incast(32, 1_000_000, g100, c);
        } else if (scenario.equals("incastPfc")) {
            s = Scenario.incast(32, 1_000_000, g100, SimulationConfig.defaults(SwitchBuffer.shared(4_000_000))).toBuilder()
                    .pfc(new Pfc(50_000, 25_000, PfcHeadroom.packetLevelBytes(g100, Time.US, 1000), 65535)).build();
        } else {
            SimulationConfig c = new SimulationConfig(1000, 0, 1, SwitchBuffer.shared(16_000_000),
                    Forwarding.ecmp(HashFunction.CRC32, 7), 1, 0, 0);
            s = Scenario.permutation(new LeafSpine(128, 1, 8, 8, g100, g100, 2, Time.US, Time.US), 2_000_000, 5, c);
        }
    }

    /** One whole run. */
    @Benchmark
    public SimulationResult run(Counters counters) {
        SimulationResult r = new Simulator(s).run();
        counters.packetHops += r.packetHops();
        counters.events += r.events();
        return r;
    }
}
