package fabriclab.container.bench;

import fabriclab.container.DelayModel;
import fabriclab.container.PacketSizes;
import fabriclab.container.PathPolicy;
import fabriclab.container.ReorderSimulator;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Monte Carlo speed of the reorder simulation, in packets per second on one thread (speed goal:
 * at least 20 million packets per second per core for the streaming count). Scenario: 4 KB packets
 * back to back at 100GE (g = 327.68 ns), normal path delays with sigma = 1 us, 8 paths round robin.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class ReorderBench {
    private static final int PACKETS = 1_000_000;
    private static final int ANALYSED = 100_000;
    private static final DelayModel DELAY = new DelayModel.Normal(10e-6, 1e-6);
    private static final double GAP = 4096 * 8 / 100e9;

    private final ReorderSimulator perPacket = new ReorderSimulator(DELAY, GAP, 1, 8, PathPolicy.ROUND_ROBIN, false);
    private final ReorderSimulator containers = new ReorderSimulator(DELAY, GAP, 4, 8, PathPolicy.ROUND_ROBIN, false);
    private final PacketSizes fixed = PacketSizes.fixed(4096);
    private long seed;

    /** Streaming count, per-packet spraying (one delay draw per packet); score = packets/s. */
    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long streamingPerPacket() {
        return perPacket.run(PACKETS, seed++).invertedPairs();
    }

    /** Streaming count, containers of 4 packets (one delay draw per container); score = packets/s. */
    @Benchmark
    @OperationsPerInvocation(PACKETS)
    public long streamingContainers() {
        return containers.run(PACKETS, seed++).invertedPairs();
    }

    /** Full analysis with arrival sorting, extent and reorder buffer; score = packets/s. */
    @Benchmark
    @OperationsPerInvocation(ANALYSED)
    public long analysedContainers() {
        return containers.analyse(ANALYSED, fixed, seed++).maxBufferBytes();
    }
}
