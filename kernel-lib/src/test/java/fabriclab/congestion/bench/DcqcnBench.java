package fabriclab.congestion.bench;

import fabriclab.congestion.Bottleneck;
import fabriclab.congestion.DcqcnFluidModel;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.congestion.DcqcnSweeps;
import fabriclab.congestion.FlowClass;
import fabriclab.congestion.FluidMetrics;
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
import tech.tablesaw.api.Table;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Speed goals of the fluid model: (1) 2 flows, 100 ms simulated at 1 us steps, under 100 ms wall;
 * (2) 7,000 flows as one class as fast as one flow (20 ms simulated, 1 us steps);
 * (3) a 100-point (N, tau*) phase-margin sweep under 10 s.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Djava.awt.headless=true")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class DcqcnBench {
    private final DcqcnParameters zhu = DcqcnParameters.zhu2015();
    private final Bottleneck port40 = Bottleneck.of(40e9);
    private final Bottleneck port100 = Bottleneck.of(100e9);

    /** Goal 1: 2 flows at 40G, 100 ms at 1 us (100,000 RK4 steps). */
    @Benchmark
    public FluidMetrics twoFlows100ms() {
        return DcqcnFluidModel.of(zhu, port40, 2).simulate(0.1, 1e-6, 1e-3, Progress.silent()).metrics();
    }

    /** Goal 2, reference: one flow at 100G, 20 ms at 1 us. */
    @Benchmark
    public FluidMetrics oneFlow20ms() {
        return DcqcnFluidModel.of(zhu, port100, 1).simulate(0.02, 1e-6, 1e-3, Progress.silent()).metrics();
    }

    /** Goal 2: 7 x 1000 QPs as one class at 100G, 20 ms at 1 us. */
    @Benchmark
    public FluidMetrics incast7000AsOneClass20ms() {
        return new DcqcnFluidModel(zhu, port100, List.of(FlowClass.incast("qps", 7, 1000)))
                .simulate(0.02, 1e-6, 1e-3, Progress.silent()).metrics();
    }

    /** Goal 3: phase margin at 10 flow counts x 10 delays (100 points), one thread. */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @Warmup(iterations = 1)
    @Measurement(iterations = 3)
    public Table stabilitySweep100() throws InterruptedException {
        return DcqcnSweeps.stability(zhu, port100, new int[]{1, 2, 3, 5, 8, 10, 15, 20, 25, 30},
                new double[]{2e-6, 4e-6, 10e-6, 20e-6, 30e-6, 40e-6, 50e-6, 60e-6, 80e-6, 100e-6},
                Progress.silent());
    }
}
