package fabriclab.loadbalancing.analytics;

import fabriclab.Parameters;
import fabriclab.loadbalancing.flow.FiveTuple;
import fabriclab.loadbalancing.flow.RoceJobTraffic;
import fabriclab.loadbalancing.flow.SourcePortPolicy;
import fabriclab.loadbalancing.hash.EcmpHasher;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.loadbalancing.hash.PathSelection;
import fabriclab.progress.ProgressSink;
import fabriclab.progress.Progress;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Monte Carlo of per-flow ECMP: the second method against which {@link BallsIntoBins} is checked,
 * and the way to measure real hash functions on real 5-tuples. Every method takes a seed; the same
 * seed gives the same samples.
 */
public final class EcmpMonteCarlo {
    private EcmpMonteCarlo() {
    }

    /**
     * Maximum flow count per path in each trial, flows placed independently and uniformly.
     *
     * @param n flows, at least 1
     * @param m paths, at least 1
     * @param trials at least 1
     * @param seed generator seed
     */
    /** The most path slots and trials a Monte Carlo run takes: (flows + paths) x trials &lt;= 2e9 steps, seconds to minutes. */
    public static final double MAX_WORK = 2e9;

    private static void checkWork(int flows, int m, int trials) {
        Parameters.inRange("m (paths)", m, 1, 1 << 24);
        Parameters.inRange("trials", trials, 1, 1 << 24);
        double work = ((double) flows + m) * trials;
        if (work > MAX_WORK) {
            throw new IllegalArgumentException("(flows + m (paths)) x trials must be <= " + MAX_WORK + ", got (" + flows + " + "
                    + m + ") x " + trials);
        }
    }

    public static int[] maxCounts(int n, int m, int trials, long seed) {
        Parameters.atLeast("n (flows)", n, 1);
        Parameters.atLeast("m (paths)", m, 1);
        Parameters.atLeast("trials", trials, 1);
        checkWork(n, m, trials);
        SplittableRandom r = new SplittableRandom(seed);
        int[] out = new int[trials];
        int[] c = new int[m];
        for (int t = 0; t < trials; t++) {
            java.util.Arrays.fill(c, 0);
            int max = 0;
            for (int i = 0; i < n; i++) {
                int v = ++c[r.nextInt(m)];
                if (v > max) {
                    max = v;
                }
            }
            out[t] = max;
        }
        return out;
    }

    /**
     * Maximum path load (in the sizes' unit) per trial, flows of the given sizes placed
     * independently and uniformly.
     */
    public static double[] maxLoads(double[] sizes, int m, int trials, long seed) {
        BallsIntoBins.checkSizes(sizes);
        Parameters.atLeast("m (paths)", m, 1);
        Parameters.atLeast("trials", trials, 1);
        checkWork(sizes.length, m, trials);
        SplittableRandom r = new SplittableRandom(seed);
        double[] out = new double[trials];
        double[] load = new double[m];
        for (int t = 0; t < trials; t++) {
            java.util.Arrays.fill(load, 0);
            for (double s : sizes) {
                load[r.nextInt(m)] += s;
            }
            double max = 0;
            for (double l : load) {
                max = Math.max(max, l);
            }
            out[t] = max;
        }
        return out;
    }

    /**
     * Maximum flow count per path with a real hash. Each trial builds the RoCEv2 flows of a job
     * ({@link RoceJobTraffic}: sourceNics x destinations x qpsPerNic 5-tuples, ports by
     * {@code policy}) in a trial-specific address block (10.a.b.0/24 sources, 10.128+.c.d.0/24
     * destinations, first QPN random) and hashes them onto m paths with {@code function}, a random
     * seed and the given selection. The flow count is n = sourceNics x destinations x qpsPerNic.
     *
     * @param progress receives one step per trial (use {@link Progress#silent()} in tests)
     */
    public static int[] maxCountsWithHash(HashFunction function, PathSelection selection, int sourceNics, int destinations,
                                          int qpsPerNic, SourcePortPolicy policy, int m, int trials, long seed,
                                          ProgressSink progress) {
        Parameters.notNull("function", function);
        Parameters.notNull("selection", selection);
        Parameters.notNull("policy", policy);
        Parameters.atLeast("m (paths)", m, 1);
        Parameters.atLeast("trials", trials, 1);
        checkWork(1, m, trials);
        Parameters.notNull("progress", progress);
        SplittableRandom r = new SplittableRandom(seed);
        int[] out = new int[trials];
        try (Progress p = Progress.start(function + " Monte Carlo", trials, progress)) {
            for (int t = 0; t < trials; t++) {
                int srcBase = 0x0A000000 | (r.nextInt(1 << 16) << 8);
                int dstBase = 0x0A800000 | (r.nextInt(1 << 16) << 8);
                RoceJobTraffic job = new RoceJobTraffic(sourceNics, destinations, qpsPerNic, policy, 0x100 + r.nextInt(1 << 12),
                        srcBase, dstBase);
                List<FiveTuple> flows = job.flows(r.nextLong());
                EcmpHasher h = EcmpHasher.of(function, r.nextInt(), 0, selection);
                int[] c = h.countPerPath(flows, m);
                int max = 0;
                for (int v : c) {
                    max = Math.max(max, v);
                }
                out[t] = max;
                p.step();
            }
        }
        return out;
    }
}
