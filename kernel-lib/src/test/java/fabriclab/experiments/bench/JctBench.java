package fabriclab.experiments.bench;

import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.collectives.Collective;
import fabriclab.experiments.GseVsRoceJct;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one point of the GSE-vs-RoCE JCT sweep: the 8 jobs of 000 section 3 running a 1 MiB AlltoAll on the
 * 1.5:1 fabric, RoCE or GSE (one packet simulation per call). Run: {@code ./bench 'JctBench' -f 1 -wi 2 -i 3}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Djava.awt.headless=true")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class JctBench {
    /** The fabric simulated. */
    @Param({"ROCE", "GSE"})
    public RoceOrGse fabric;

    private final GseVsRoceJct experiment = new GseVsRoceJct(1.5);

    /** One 1 MiB AlltoAll of the 8 jobs, seed 1. */
    @Benchmark
    public GseVsRoceJct.Result allToAll1MiB() {
        return experiment.run(Collective.ALL_TO_ALL, 1L << 20, fabric, 1);
    }
}
