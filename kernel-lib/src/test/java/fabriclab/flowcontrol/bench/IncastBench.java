package fabriclab.flowcontrol.bench;

import fabriclab.fabric.Incast;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Topology;
import fabriclab.flowcontrol.BufferDependencyGraph;
import fabriclab.flowcontrol.FluidQueue;
import fabriclab.flowcontrol.PfcIncastSimulator;
import fabriclab.flowcontrol.RoutedFlow;
import fabriclab.scheduling.DgsqConfig;
import fabriclab.scheduling.DgsqResult;
import fabriclab.scheduling.DgsqSimulator;
import fabriclab.scheduling.GrantPolicy;
import fabriclab.scheduling.GrantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of the incast models at notebook sizes: a 1000-sender fluid incast, a 512-source DGSQ run
 * (2048 grants), a 512-sender PFC incast, and the cycle search of a 32-leaf x 16-spine fabric with
 * every leaf pair and spine as a flow (about 16k flows).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Djava.awt.headless=true")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class IncastBench {
    private List<GrantSource> sources;
    private DgsqSimulator dgsq;
    private Topology fabric;
    private List<RoutedFlow> flows;

    /** Builds the inputs once. */
    @Setup
    public void setUp() {
        sources = new ArrayList<>();
        for (int i = 0; i < 512; i++) {
            sources.add(new GrantSource(64e3, 100e9, 100e9, 0));
        }
        dgsq = new DgsqSimulator(new DgsqConfig(100e9, 100e9, 16e3, 2e-6, 3e-6, GrantPolicy.EQUAL));
        fabric = new LeafSpine(32, 1, 32, 16, 100_000_000_000L, 100_000_000_000L, 1, 0, 0).build();
        flows = new ArrayList<>();
        for (int a = 1; a <= 32; a++) {
            for (int b = 1; b <= 32; b++) {
                for (int s = 1; a != b && s <= 16; s++) {
                    flows.add(new RoutedFlow("f" + a + "_" + b + "_" + s, List.of("leaf" + a, "spine" + s, "leaf" + b), 3));
                }
            }
        }
    }

    /** Exact fluid incast, 1000 senders. */
    @Benchmark
    public FluidQueue.Trajectory fluidIncast1000() {
        return FluidQueue.incast(Incast.of(1000, 64_000, 100_000_000_000L).withStagger(10_000L), 4e6);
    }

    /** DGSQ request/grant incast, 512 sources. */
    @Benchmark
    public DgsqResult dgsq512() {
        return dgsq.run(sources, 42);
    }

    /** Time-stepped PFC incast, 512 senders. */
    @Benchmark
    public PfcIncastSimulator.Result pfc512() {
        return new PfcIncastSimulator(Incast.of(512, 64_000, 100_000_000_000L),
                new Pfc(20_000, 15_000, 16_200, Pfc.MAX_QUANTA), 1.29e-6, 0.645e-6).run(100);
    }

    /** Buffer dependency graph and cycle search, 32 x 16 leaf-spine, all leaf pairs over all spines. */
    @Benchmark
    public int deadlockSearch() {
        return BufferDependencyGraph.build(fabric, flows).cycles().size();
    }
}
