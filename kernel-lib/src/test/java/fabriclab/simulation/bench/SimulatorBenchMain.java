package fabriclab.simulation.bench;

import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.progress.Progress;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.fabric.Time;
import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.LeafSpine;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.Locale;

/**
 * Bench command for the simulator's speed: runs each fixed scenario until the JIT has settled (warm-up: at least
 * {@value #MIN_WARMUP_RUNS} runs and {@value #WARMUP_SECONDS} s), then measured runs (at least {@value #MIN_RUNS} and
 * {@value #MEASURE_SECONDS} s), and prints (for the median run) simulated packet-hops and events per wall-clock second,
 * wall time and peak heap, with the interquartile range of the rate. The median of many short runs is what stays put
 * on a shared virtual machine, where a run now and then is slowed by other tenants. A measured run
 * includes building the simulator (routes, flows) as well as running it. The simulator is single-threaded: the
 * figures are for one core (the JIT compiles on other threads, almost all of it during warm-up).
 * Usage (from the project root, after {@code mvn -o -q -pl kernel-lib test-compile}):
 * {@code java -cp kernel-lib/target/test-classes:kernel-lib/target/classes:$(cat cp.txt)
 * fabriclab.simulation.bench.SimulatorBenchMain [hosts]} where {@code hosts} (default 128, a multiple
 * of 16) sizes the permutation: hosts / 16 leaves of 16 NICs, 8 spines, 100G, speedup 1, 2 MB per flow.
 */
public final class SimulatorBenchMain {
    private static final long G100 = 100_000_000_000L;
    private static final int MIN_RUNS = 7;
    private static final double MEASURE_SECONDS = 3.0;
    // measured on the 128-host permutation: a run takes about 8 runs (0.9 s) to reach its steady speed,
    // the first run is about 3.5x slower than the steady state, the third about 1.25x
    private static final int MIN_WARMUP_RUNS = 3;
    private static final double WARMUP_SECONDS = 3.0;

    private SimulatorBenchMain() {
    }

    /** Runs the scenarios. */
    public static void main(String[] args) {
        int hosts = args.length > 0 ? Integer.parseInt(args[0]) : 128;
        Scenario incast = Scenario.incast(32, 1_000_000, G100, new SimulationConfig(1000, 0, 1,
                new SwitchBuffer(4_000_000, 4_000_000, new EcnMarking(100_000, 400_000, 0.2)), Forwarding.sprayRandom(), 1, 0, 0));
        for (Scenario s : new Scenario[] {incast, permutation(hosts, 2_000_000)}) {
            long warmStart = System.nanoTime(); // warm-up (class loading, JIT)
            for (int i = 0; i < MIN_WARMUP_RUNS || System.nanoTime() - warmStart < WARMUP_SECONDS * 1e9; i++) {
                new Simulator(s).run();
            }
            double[] walls = new double[1000];
            int runs = 0;
            SimulationResult r = null;
            long peak = 0;
            long measureStart = System.nanoTime();
            while (runs < walls.length && (runs < MIN_RUNS || System.nanoTime() - measureStart < MEASURE_SECONDS * 1e9)) {
                resetPeaks();
                long t0 = System.nanoTime();
                r = new Simulator(s).run();
                walls[runs++] = (System.nanoTime() - t0) / 1e9;
                peak = Math.max(peak, peakHeap());
            }
            java.util.Arrays.sort(walls, 0, runs);
            double wall = walls[runs / 2];
            double hops = r.packetHops();
            System.out.println(String.format(Locale.ROOT,
                    "%-60s hops %,d  events %,d  wall %.3f s (median of %d runs, fastest %.3f s)  %.2f M packet-hops/s"
                    + " (quartiles %.2f to %.2f)  %.2f M events/s  peak heap %.0f MB  simulated %.1f us",
                    s.name(), r.packetHops(), r.events(), wall, runs, walls[0], hops / wall / 1e6,
                    hops / walls[(3 * runs) / 4] / 1e6, hops / walls[runs / 4] / 1e6,
                    r.events() / wall / 1e6, peak / 1e6, Time.toMicros(r.endPs())));
        }
        retainedVersusSimulatedTime(hosts);
    }

    /**
     * Memory goal: the simulator's state grows with flows and packets in flight, not with simulated
     * time. Runs the same permutation with flows of 2, 8 and 32 MB, stops each at three quarters of the time a sender
     * needs to emit its flow at line rate (so 1x, 4x and 16x the simulated time, every sender still sending, the
     * colliding queues as full as the run makes them), and prints the heap the simulator retains then: live heap
     * after a full collection with the simulator reachable, minus the live heap before it was built, beside the
     * bytes in flight (in queues and on wires) at that instant.
     */
    private static void retainedVersusSimulatedTime(int hosts) {
        for (long flowBytes : new long[] {2_000_000, 8_000_000, 32_000_000}) {
            long before = liveHeap();
            Simulator sim = new Simulator(permutation(hosts, flowBytes));
            long stopPs = 3 * flowBytes * Time.serializationPs(1, G100) / 4; // 3/4 of the line-rate sending time
            SimulationResult r = sim.run(stopPs, Progress.silent());
            long retained = liveHeap() - before;
            System.out.println(String.format(Locale.ROOT,
                    "permutation, %d hosts, %2d MB flows, stopped at %7.1f us (partial %s, %,11d packet-hops, %6.2f MB in flight,"
                    + " %6.2f MB dropped): retained heap %.1f MB",
                    hosts, flowBytes / 1_000_000, Time.toMicros(stopPs), r.partial(), r.packetHops(), r.inFlightBytes() / 1e6,
                    r.droppedBytes() / 1e6, retained / 1e6));
            java.lang.ref.Reference.reachabilityFence(sim);
        }
    }

    /** The bench's permutation: hosts / 16 leaves of 16 NICs, 8 spines, 100G, speedup 1, ECMP (CRC-32, seed 7). */
    private static Scenario permutation(int hosts, long flowBytes) {
        return Scenario.permutation(new LeafSpine(hosts, 1, hosts / 16, 8, G100, G100, 2, Time.US, Time.US), flowBytes, 5,
                new SimulationConfig(1000, 0, 1, SwitchBuffer.shared(16_000_000), Forwarding.ecmp(HashFunction.CRC32, 7), 1, 0, 0));
    }

    private static long liveHeap() {
        System.gc();
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** Collects garbage, then resets the peak usage of every memory pool (shared with {@link ClusterBenchMain}). */
    static void resetPeaks() {
        System.gc();
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            p.resetPeakUsage();
        }
    }

    /** Sum of the heap pools' peak usage since {@link #resetPeaks()} [bytes]. */
    static long peakHeap() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                sum += p.getPeakUsage().getUsed();
            }
        }
        return sum;
    }
}
