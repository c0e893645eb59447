package fabriclab.experiments;

import fabriclab.experiments.testbed.Duan2024Testbed;
import fabriclab.Parameters;
import fabriclab.collectives.CollectiveSchedule;
import fabriclab.fabric.LeafSpine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A second method for 000 figures 11 and 12: the concurrent collectives as fluid flows whose rates are
 * max-min fair (progressive filling) on the links they cross, with ECMP paths, against the same
 * flows on an ideal fabric (only the host links limit). No congestion control, no PFC, no packets:
 * what per-flow hashing alone costs when the transport shares every link perfectly.
 *
 * <p>Paths: a flow from host h on leaf l to host h' on leaf l' crosses h's NIC link, one leaf-to-spine
 * link of l (spine and member drawn uniformly from the seed, the model of a 5-tuple hash), the
 * spine-to-l' link (a member drawn likewise when there are several), and h''s host link. A transfer is
 * split evenly over {@code queuePairs} flows, each hashed on its own; with persistent queue pairs a
 * (sender, receiver, queue pair) keeps its path for the whole collective, otherwise every transfer
 * draws anew. Dependencies as in {@link CollectiveSchedule}: a transfer starts when its predecessors
 * are received. Event-driven: rates are recomputed at every flow completion, and the run advances to
 * the next completion (exact for piecewise-constant max-min rates).
 *
 * <p><b>Bound (single 400G uplinks, per-flow ECMP alone cannot exceed 2x).</b> Let T* be the JCT of a
 * feasible schedule x(t) on the ideal fabric (rates limited by the 100G host links only). On the real
 * fabric with any single path per flow, consider y(t) = x(t/2)/2: every flow at half its ideal rate,
 * everything twice as slow, dependencies kept. Through any leaf uplink the flows all leave one leaf,
 * whose 8 hosts send at most 8 x 100G = 800G in x, so at most 400G in y; through any spine-to-leaf
 * link the flows all enter one leaf, whose 8 hosts receive at most 800G in x, so at most 400G in y.
 * A 400G link therefore never carries more than its capacity, whatever the hash put on it, and y
 * completes at 2 T*. So routing alone costs at most a factor 2 over the ideal fabric (GSE's spraying
 * reaches it within a few percent); the bound is tight (every flow of every leaf hashed onto one spine
 * gives exactly 2 for AlltoAll at once, see {@link #worstCaseRouting}). It needs a single fabric link
 * of at least half a leaf's host capacity: with 4 x 100G members one member can be asked for 800G,
 * and the same argument only gives 8x. A RoCE/GSE ratio above 2 on single 400G uplinks must come from
 * how the transport shares the links (rate cuts, pauses, retransmissions), not from the hash.
 *
 * @param fabric the leaf-spine
 * @param groups host of each rank of each job ({@code groups[g][r]})
 * @param queuePairs flows per transfer, at least 1
 * @param persistentQueuePairs true: a (sender, receiver, QP) keeps its path; false: every transfer hashes anew
 */
public record EcmpFluidJct(LeafSpine fabric, int[][] groups, int queuePairs, boolean persistentQueuePairs) {
    /** Validates. */
    public EcmpFluidJct {
        Parameters.notNull("fabric", fabric);
        Parameters.notNull("groups", groups);
        Parameters.atLeast("queuePairs", queuePairs, 1);
        for (int g = 0; g < groups.length; g++) {
            Parameters.notNull("groups[" + g + "]", groups[g]);
            for (int h : groups[g]) {
                Parameters.inRange("groups[" + g + "][]", h, 0, fabric.hosts() - 1);
            }
        }
    }

    /** The 8 jobs of 000 on {@code fabric}. */
    public static EcmpFluidJct duan2024(LeafSpine fabric, int queuePairs, boolean persistentQueuePairs) {
        return new EcmpFluidJct(fabric, Duan2024Testbed.jobGroups(), queuePairs, persistentQueuePairs);
    }

    /** The most hash draws {@link #duan2024Readings} averages (each draw is 16 fluid runs). */
    public static final int MAX_DRAWS = 1000;

    /**
     * 000's fluid reading for one algorithm, speedup and kind of uplinks: the RoCE-like fabric (per-flow ECMP,
     * one persistent queue pair per rank pair) against the ideal one, averaged over hash draws, and under the
     * adversarial hash.
     *
     * @param algorithm the collective algorithm
     * @param speedup leaf speedup, 1.5 or 2
     * @param uplinks the leaf-spine uplinks
     * @param meanRatio mean over the draws of (mean JCT / mean ideal JCT), finite, at least 1, at most 2 on single 400G uplinks
     * @param worstRatio the same under {@link #worstCaseRouting}, finite, positive
     */
    public record Duan2024Reading(Duan2024Testbed.Algorithm algorithm, double speedup, Duan2024Testbed.Uplinks uplinks,
            double meanRatio, double worstRatio) {
        /** Validates: settings present, a speedup of 000, ratios finite and positive. */
        public Duan2024Reading {
            Parameters.notNull("algorithm", algorithm);
            Duan2024Testbed.checkSpeedup(speedup);
            Parameters.notNull("uplinks", uplinks);
            Parameters.positive("meanRatio", meanRatio);
            Parameters.positive("worstRatio", worstRatio);
        }
    }

    /**
     * The fluid experiment of notebook 08: for each speedup (1.5, 2), algorithm and kind of uplinks (in enum order),
     * the 8 jobs of 000 with {@code bufferBytes} per rank, one persistent queue pair per rank pair, the ratio
     * averaged over the hash draws of seeds 1 to {@code draws} (summed in seed order, then divided).
     *
     * @param bufferBytes data per rank, 4096 bytes to {@link GseVsRoceJct#MAX_BUFFER_BYTES}
     * @param draws hash draws, 1 to {@link #MAX_DRAWS}
     */
    public static List<Duan2024Reading> duan2024Readings(long bufferBytes, int draws) {
        Parameters.inRange("bufferBytes", bufferBytes, 4096L, GseVsRoceJct.MAX_BUFFER_BYTES);
        Parameters.inRange("draws", draws, 1, MAX_DRAWS);
        List<Duan2024Reading> readings = new ArrayList<>();
        for (double speedup : new double[] {1.5, 2.0}) {
            for (Duan2024Testbed.Algorithm a : Duan2024Testbed.Algorithm.values()) {
                for (Duan2024Testbed.Uplinks u : Duan2024Testbed.Uplinks.values()) {
                    EcmpFluidJct m = duan2024(new Duan2024Testbed(speedup, u).leafSpine(), 1, true);
                    java.util.function.IntFunction<CollectiveSchedule> schedule = p -> a.schedule(p, bufferBytes);
                    double sum = 0;
                    for (long seed = 1; seed <= draws; seed++) {
                        sum += m.run(schedule, seed).ratio();
                    }
                    readings.add(new Duan2024Reading(a, speedup, u, sum / draws, m.worstCaseRouting(schedule).ratio()));
                }
            }
        }
        return readings;
    }

    /**
     * {@link #duan2024Readings} as a table named {@code name}: one row per algorithm and speedup, columns algorithm (lower
     * case), speedup, then the mean and worst-hash ratios of each kind of uplinks ("1x400G", "1x400G worst hash",
     * "4x100G", "4x100G worst hash").
     *
     * @param name the table's name, not blank
     * @param readings readings in the order of {@link #duan2024Readings} (the uplinks of one row consecutive), no null element
     */
    public static tech.tablesaw.api.Table duan2024Table(String name, List<Duan2024Reading> readings) {
        Parameters.notBlank("name", name);
        Parameters.noNullElements("readings", readings);
        Duan2024Testbed.Uplinks[] kinds = Duan2024Testbed.Uplinks.values();
        if (readings.size() % kinds.length != 0) {
            throw new IllegalArgumentException("readings must hold one reading per kind of uplinks for each row ("
                    + kinds.length + " per row), got " + readings.size());
        }
        tech.tablesaw.api.Table t = tech.tablesaw.api.Table.create(name, tech.tablesaw.api.StringColumn.create("algorithm"),
                tech.tablesaw.api.DoubleColumn.create("speedup"), tech.tablesaw.api.DoubleColumn.create("1x400G"),
                tech.tablesaw.api.DoubleColumn.create("1x400G worst hash"), tech.tablesaw.api.DoubleColumn.create("4x100G"),
                tech.tablesaw.api.DoubleColumn.create("4x100G worst hash"));
        for (int row = 0; row < readings.size(); row += kinds.length) {
            Duan2024Reading first = readings.get(row);
            t.stringColumn(0).append(first.algorithm().name().toLowerCase(java.util.Locale.ROOT));
            t.doubleColumn(1).append(first.speedup());
            for (int k = 0; k < kinds.length; k++) {
                Duan2024Reading r = readings.get(row + k);
                if (r.uplinks() != kinds[k] || r.algorithm() != first.algorithm() || r.speedup() != first.speedup()) {
                    throw new IllegalArgumentException("readings[" + (row + k) + "] must be " + first.algorithm() + " at "
                            + first.speedup() + " on " + kinds[k] + ", got " + r);
                }
                t.doubleColumn(2 + 2 * k).append(r.meanRatio());
                t.doubleColumn(3 + 2 * k).append(r.worstRatio());
            }
        }
        return t;
    }

    /**
     * Outcome of one fluid run.
     *
     * @param jctS completion time of each job [s]
     * @param idealJctS the same on the ideal fabric [s]
     */
    public record Result(double[] jctS, double[] idealJctS) {
        /** Validates: both arrays present, finite and of the same length. */
        public Result {
            Parameters.finiteElements("jctS", jctS);
            Parameters.finiteElements("idealJctS", idealJctS);
            if (jctS.length != idealJctS.length) {
                throw new IllegalArgumentException("jctS and idealJctS must have the same length, got " + jctS.length
                        + " and " + idealJctS.length);
            }
        }

        /** Mean JCT over the jobs [s]. */
        public double meanJctS() {
            return Arrays.stream(jctS).average().orElseThrow();
        }

        /** Mean ideal JCT [s]. */
        public double meanIdealJctS() {
            return Arrays.stream(idealJctS).average().orElseThrow();
        }

        /** Mean JCT over mean ideal JCT. */
        public double ratio() {
            return meanJctS() / meanIdealJctS();
        }
    }

    /** Runs every job's {@code schedule} at once with paths hashed from {@code seed}. */
    public Result run(java.util.function.IntFunction<CollectiveSchedule> schedule, long seed) {
        Parameters.notNull("schedule", schedule);
        return run(schedule, new SplittableRandom(seed), false);
    }

    /**
     * The adversarial hash: every flow of every leaf on its first link to spine 0, and from spine 0 on
     * its first link to the destination leaf (the worst case of the bound).
     */
    public Result worstCaseRouting(java.util.function.IntFunction<CollectiveSchedule> schedule) {
        Parameters.notNull("schedule", schedule);
        return run(schedule, null, true);
    }

    private Result run(java.util.function.IntFunction<CollectiveSchedule> schedule, SplittableRandom rnd, boolean worst) {
        int hosts = fabric.hosts();
        int leaves = fabric.leaves();
        int spines = fabric.spines();
        int members = fabric.parallelLinks();
        // directed links: host up [0, hosts), host down [hosts, 2 hosts), leaf->spine, spine->leaf
        int upBase = 2 * hosts;
        int downBase = upBase + leaves * spines * members;
        int links = downBase + leaves * spines * members;
        double[] cap = new double[links];
        for (int i = 0; i < 2 * hosts; i++) {
            cap[i] = fabric.hostRateBitsPerSecond();
        }
        for (int i = upBase; i < links; i++) {
            cap[i] = fabric.uplinkRateBitsPerSecond();
        }
        List<int[]> path = new ArrayList<>();
        List<Double> bits = new ArrayList<>();
        List<int[]> after = new ArrayList<>();
        List<Integer> groupOf = new ArrayList<>();
        for (int g = 0; g < groups.length; g++) {
            CollectiveSchedule s = schedule.apply(groups[g].length);
            Map<Long, int[]> kept = new HashMap<>();
            int[][] flowsOf = new int[s.transfers().size()][];
            Map<Long, Integer> lastOnQp = new HashMap<>();
            for (int ti = 0; ti < s.transfers().size(); ti++) {
                CollectiveSchedule.Transfer t = s.transfers().get(ti);
                int src = groups[g][t.from()];
                int dst = groups[g][t.to()];
                int ls = fabric.leafOf(src);
                int ld = fabric.leafOf(dst);
                flowsOf[ti] = new int[queuePairs];
                List<Integer> pre = new ArrayList<>();
                for (int a : t.after()) {
                    for (int f : flowsOf[a]) {
                        pre.add(f);
                    }
                }
                for (int q = 0; q < queuePairs; q++) {
                    long key = ((long) t.from() * 64 + t.to()) * 64 + q;
                    int[] p = persistentQueuePairs ? kept.get(key) : null;
                    if (p == null) {
                        if (ls == ld) {
                            p = new int[] {src, hosts + dst};
                        } else {
                            int spine = worst ? 0 : rnd.nextInt(spines);
                            int mUp = worst ? 0 : rnd.nextInt(members);
                            int mDown = worst ? 0 : rnd.nextInt(members);
                            p = new int[] {src, upBase + (ls * spines + spine) * members + mUp,
                                downBase + (ld * spines + spine) * members + mDown, hosts + dst};
                        }
                        if (persistentQueuePairs) {
                            kept.put(key, p);
                        }
                    }
                    List<Integer> a = new ArrayList<>(pre);
                    if (persistentQueuePairs) {
                        Integer last = lastOnQp.get(key);
                        if (last != null) {
                            a.add(last);
                        }
                        lastOnQp.put(key, path.size());
                    }
                    flowsOf[ti][q] = path.size();
                    path.add(p);
                    bits.add(8.0 * t.bytes() / queuePairs);
                    after.add(a.stream().mapToInt(Integer::intValue).toArray());
                    groupOf.add(g);
                }
            }
        }
        double[] real = simulate(cap, path, bits, after, groupOf, groups.length);
        double[] idealCap = cap.clone();
        for (int i = upBase; i < links; i++) {
            idealCap[i] = Double.POSITIVE_INFINITY;
        }
        double[] ideal = simulate(idealCap, path, bits, after, groupOf, groups.length);
        return new Result(real, ideal);
    }

    /** Event-driven fluid run with max-min fair rates; returns each group's completion time [s]. */
    static double[] simulate(double[] cap, List<int[]> path, List<Double> bits, List<int[]> after, List<Integer> groupOf,
            int groupCount) {
        int n = path.size();
        double[] left = new double[n];
        int[] pending = new int[n];
        List<List<Integer>> successors = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            left[i] = bits.get(i);
            successors.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            for (int a : after.get(i)) {
                pending[i]++;
                successors.get(a).add(i);
            }
        }
        boolean[] active = new boolean[n];
        boolean[] done = new boolean[n];
        for (int i = 0; i < n; i++) {
            active[i] = pending[i] == 0;
        }
        double now = 0;
        double[] jct = new double[groupCount];
        int remaining = n;
        while (remaining > 0) {
            double[] rate = maxMin(cap, path, active);
            double dt = Double.POSITIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                if (active[i]) {
                    dt = Math.min(dt, left[i] / rate[i]);
                }
            }
            if (!(dt < Double.POSITIVE_INFINITY)) {
                throw new IllegalStateException("no active flow can progress (dependency cycle?)");
            }
            now += dt;
            List<Integer> finished = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (active[i]) {
                    left[i] -= rate[i] * dt;
                    if (left[i] <= 1e-6 * bits.get(i)) {
                        finished.add(i);
                    }
                }
            }
            for (int i : finished) {
                active[i] = false;
                done[i] = true;
                remaining--;
                jct[groupOf.get(i)] = Math.max(jct[groupOf.get(i)], now);
                for (int s : successors.get(i)) {
                    if (--pending[s] == 0) {
                        active[s] = true;
                    }
                }
            }
        }
        return jct;
    }

    /** Max-min fair rates of the active flows by progressive filling. */
    static double[] maxMin(double[] cap, List<int[]> path, boolean[] active) {
        int n = path.size();
        double[] rate = new double[n];
        boolean[] frozen = new boolean[n];
        double[] used = new double[cap.length];
        int[] count = new int[cap.length];
        int unfrozen = 0;
        for (int i = 0; i < n; i++) {
            if (active[i]) {
                unfrozen++;
                for (int l : path.get(i)) {
                    count[l]++;
                }
            } else {
                frozen[i] = true;
            }
        }
        while (unfrozen > 0) {
            double share = Double.POSITIVE_INFINITY;
            int bottleneck = -1;
            for (int l = 0; l < cap.length; l++) {
                if (count[l] > 0 && cap[l] < Double.POSITIVE_INFINITY) {
                    double s = (cap[l] - used[l]) / count[l];
                    if (s < share) {
                        share = s;
                        bottleneck = l;
                    }
                }
            }
            for (int i = 0; i < n; i++) {
                if (!frozen[i] && contains(path.get(i), bottleneck)) {
                    frozen[i] = true;
                    unfrozen--;
                    rate[i] = share;
                    for (int l : path.get(i)) {
                        used[l] += share;
                        count[l]--;
                    }
                }
            }
        }
        return rate;
    }

    private static boolean contains(int[] a, int x) {
        for (int v : a) {
            if (v == x) {
                return true;
            }
        }
        return false;
    }
}
