package fabriclab.loadbalancing.bench;

import fabriclab.loadbalancing.flow.FiveTuple;
import fabriclab.loadbalancing.flow.RoceJobTraffic;
import fabriclab.loadbalancing.flow.SourcePortPolicy;
import fabriclab.loadbalancing.hash.EcmpHasher;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.loadbalancing.hash.PathSelection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Flow hashing + ECMP member selection throughput, one thread. Speed goal: at least 50 million
 * flow hashes per second per core. Reported in operations (flows) per microsecond: 50 M/s = 50 ops/us.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(value = 1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class EcmpHashBench {
    private static final int FLOWS = 4096;

    /** Hash function under test. */
    @Param({"CRC16_CCITT", "CRC32", "CRC32C", "XOR16", "TOEPLITZ"})
    public String function;

    /** Selection method. */
    @Param({"MODULO", "HASH_THRESHOLD"})
    public String selection;

    private FiveTuple[] flows;
    private EcmpHasher hasher;

    /** Builds 4,096 RoCEv2 flows and the hasher. */
    @Setup
    public void setUp() {
        List<FiveTuple> f = RoceJobTraffic.of(64, 16, 4, SourcePortPolicy.RANDOM).flows(1);
        flows = f.toArray(new FiveTuple[0]);
        hasher = EcmpHasher.of(HashFunction.byName(function), 0x1234, 0, PathSelection.valueOf(selection));
    }

    /** Hash and select one of 64 members for 4,096 flows. */
    @Benchmark
    @OperationsPerInvocation(FLOWS)
    public int hashAndSelect() {
        int acc = 0;
        for (FiveTuple t : flows) {
            acc += hasher.path(t, 64);
        }
        return acc;
    }
}
