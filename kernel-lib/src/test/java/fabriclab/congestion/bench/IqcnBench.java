package fabriclab.congestion.bench;

import fabriclab.congestion.Bottleneck;
import fabriclab.congestion.DcqcnFluidModel;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.congestion.FluidMetrics;
import fabriclab.fabric.EcnMarking;
import fabriclab.progress.Progress;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Cost of the iQCN option: the notebook 03 case (10 flows, Pmax 0.1 %, 100 Gb/s, 20 ms at
 * 1 us steps) with and without iQCN. Goal: iQCN on costs at most about 10 % more than off.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Djava.awt.headless=true")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class IqcnBench {
    private final DcqcnFluidModel model = DcqcnFluidModel.of(
            DcqcnParameters.zhu2015().withMarking(new EcnMarking(5e3, 200e3, 0.001)), Bottleneck.of(100e9), 10);

    /** iQCN off. */
    @Benchmark
    public FluidMetrics tenFlows20msOff() {
        return model.simulate(0.02, 1e-6, 1e-3, Progress.silent()).metrics();
    }

    /** iQCN on. */
    @Benchmark
    public FluidMetrics tenFlows20msIqcn() {
        return model.withIqcn(true).simulate(0.02, 1e-6, 1e-3, Progress.silent()).metrics();
    }
}
