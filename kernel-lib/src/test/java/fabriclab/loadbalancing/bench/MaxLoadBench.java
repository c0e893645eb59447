package fabriclab.loadbalancing.bench;

import fabriclab.loadbalancing.analytics.BallsIntoBins;
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
 * Time of the exact max-load distribution. Speed goal: n <= 10,000 flows on m <= 1,024 paths in under
 * one second. The cost grows with the number of k values in the support, largest for few paths
 * (m = 3: about 400 values of k; m = 2 has a closed form), so the corners of the range are measured.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class MaxLoadBench {
    /** "n,m". */
    @Param({"10000,1024", "10000,64", "10000,16", "10000,3", "10000,2"})
    public String size;

    /** The full exact distribution (and its mean). */
    @Benchmark
    public double maxLoad() {
        String[] p = size.split(",");
        return BallsIntoBins.maxLoad(Integer.parseInt(p[0]), Integer.parseInt(p[1])).mean();
    }
}
