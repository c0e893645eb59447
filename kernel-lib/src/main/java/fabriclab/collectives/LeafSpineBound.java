package fabriclab.collectives;

import fabriclab.Parameters;
import fabriclab.fabric.LeafSpine;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A fluid, step-synchronous estimate of a collective's completion time on a leaf-spine with some uplinks
 * down: fast enough to sweep, and the reference the packet simulator is compared with.
 *
 * <p>A collective is a sequence of steps; in each step every flow of the step ({@link Flow}) moves its bytes,
 * and the step lasts as long as its most loaded link needs: {@code max over links (bytes on the link x 8 /
 * link rate)}; the steps run one after the other (a ring step waits for the data of the step before), so
 * the collective takes the sum. Links: each host's NIC link in both directions, each leaf-spine link in
 * both directions; links down carry nothing. A flow between hosts of one leaf uses only its NIC links.
 * How a flow between leaves uses the spines:
 * <ul>
 *   <li>{@link Routing#SPRAY} (GSE's container spraying, ideal): its bytes split evenly over every up link
 *       of its source leaf to a spine that still reaches the destination leaf, and at that spine evenly
 *       over its up links down to the destination leaf;</li>
 *   <li>{@link Routing#ECMP} (RoCE): the whole flow hashed onto one of those links, uniformly at random,
 *       drawn from the seed; every step is a new draw (every transfer a new queue pair, as in
 *       the 000 experiment GseVsRoceJct); the estimate is the mean over {@code draws} draws.</li>
 * </ul>
 * On a non-blocking fabric with SPRAY a ring collective meets the NIC bound
 * {@code steps x chunk x 8 / NIC rate} exactly. Not modelled: congestion control, PFC, queueing,
 * latency, stragglers between steps (which the packet simulator has).
 *
 * @param fabric the leaf-spine
 * @param failedUplinks indices of failed leaf-spine links ({@link LeafSpine#uplinkIndex})
 */
public record LeafSpineBound(LeafSpine fabric, int[] failedUplinks) {

    /** How flows between leaves use the spines. */
    public enum Routing {
        /** Even split over every usable path (ideal spraying). */
        SPRAY,
        /** One random usable path per flow (hashing). */
        ECMP
    }

    /**
     * One flow of a step.
     *
     * @param from source host
     * @param to destination host
     * @param bytes bytes moved
     */
    public record Flow(int from, int to, double bytes) {
        /** Validates: leaf indices not negative, bytes finite and not negative. */
        public Flow {
            Parameters.atLeast("from", from, 0);
            Parameters.atLeast("to", to, 0);
            Parameters.nonNegative("bytes", Parameters.finite("bytes", bytes));
        }
    }

    /** Most ECMP draws {@link #seconds} averages (the estimate's work grows with draws x steps x flows). */
    public static final int MAX_DRAWS = 1 << 16;

    /** Validates and copies: the failed links must be leaf-spine links, and every leaf pair must keep a path. */
    public LeafSpineBound {
        Parameters.notNull("fabric", fabric);
        Parameters.notNull("failedUplinks", failedUplinks);
        failedUplinks = failedUplinks.clone();
        int first = fabric.hosts();
        int links = fabric.leaves() * fabric.spines() * fabric.parallelLinks();
        for (int i = 0; i < failedUplinks.length; i++) {
            Parameters.inRange("failedUplinks[" + i + "]", failedUplinks[i], first, first + links - 1);
        }
        boolean[] down = down(fabric, failedUplinks);
        for (int a = 0; a < fabric.leaves(); a++) {
            for (int b = 0; b < fabric.leaves(); b++) {
                if (a != b && usableSpines(fabric, down, a, b).length == 0) {
                    throw new IllegalArgumentException("failedUplinks must leave every pair of leaves a spine, but leaves "
                            + a + " and " + b + " have none left");
                }
            }
        }
    }

    private static boolean[] down(LeafSpine f, int[] failed) {
        boolean[] d = new boolean[f.leaves() * f.spines() * f.parallelLinks()];
        for (int link : failed) {
            d[link - f.hosts()] = true;
        }
        return d;
    }

    private static int alive(LeafSpine f, boolean[] down, int leaf, int spine) {
        int n = 0;
        for (int k = 0; k < f.parallelLinks(); k++) {
            n += down[(leaf * f.spines() + spine) * f.parallelLinks() + k] ? 0 : 1;
        }
        return n;
    }

    private static int[] usableSpines(LeafSpine f, boolean[] down, int a, int b) {
        List<Integer> s = new ArrayList<>();
        for (int spine = 0; spine < f.spines(); spine++) {
            if (alive(f, down, a, spine) > 0 && alive(f, down, b, spine) > 0) {
                s.add(spine);
            }
        }
        return s.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * The steps of a ring over each group, all groups at once: {@code steps} steps in which rank r of every
     * group sends {@code chunkBytes} to rank r + 1 (mod p). A ring all-reduce of S bytes per rank is
     * {@code 2 (p - 1)} steps of S/p, a reduce-scatter or an all-gather {@code p - 1} steps of S/p.
     *
     * @param groups host groups, each of at least 2 hosts
     * @param steps number of steps, at least 1 (the steps share one list of flows, so any count fits in memory)
     * @param chunkBytes bytes per send, not negative
     * @return the steps, unmodifiable
     */
    public static List<List<Flow>> ringSteps(int[][] groups, int steps, double chunkBytes) {
        Parameters.notNull("groups", groups);
        Parameters.atLeast("steps", steps, 1);
        Parameters.nonNegative("chunkBytes", chunkBytes);
        List<Flow> one = new ArrayList<>();
        for (int g = 0; g < groups.length; g++) {
            int[] hosts = Parameters.notNull("groups[" + g + "]", groups[g]);
            Parameters.atLeast("groups[" + g + "].length", hosts.length, 2);
            for (int r = 0; r < hosts.length; r++) {
                one.add(new Flow(hosts[r], hosts[(r + 1) % hosts.length], chunkBytes));
            }
        }
        return java.util.Collections.nCopies(steps, List.copyOf(one)); // every step the same flows: one list, not steps copies
    }

    /**
     * The estimated completion time of {@code steps} [s].
     *
     * @param steps the steps, each a list of flows between hosts of the fabric
     * @param routing SPRAY or ECMP
     * @param seed seed of the ECMP draws (unused by SPRAY)
     * @param draws ECMP draws to average, in [1, {@link #MAX_DRAWS}] (SPRAY uses 1)
     */
    public double seconds(List<List<Flow>> steps, Routing routing, long seed, int draws) {
        Parameters.notNull("steps", steps);
        Parameters.notNull("routing", routing);
        Parameters.inRange("draws", draws, 1, MAX_DRAWS);
        int k = 0;
        for (List<Flow> step : steps) {
            int j = 0;
            for (Flow f : Parameters.notNull("steps[" + k + "]", step)) {
                String name = "steps[" + k + "][" + j + "]";
                Parameters.notNull(name, f);
                Parameters.inRange(name + ".from", f.from(), 0, fabric.hosts() - 1);
                Parameters.inRange(name + ".to", f.to(), 0, fabric.hosts() - 1);
                j++;
            }
            k++;
        }
        boolean[] down = down(fabric, failedUplinks);
        int[][][] usable = new int[fabric.leaves()][fabric.leaves()][];
        for (int a = 0; a < fabric.leaves(); a++) {
            for (int b = 0; b < fabric.leaves(); b++) {
                usable[a][b] = a == b ? new int[0] : usableSpines(fabric, down, a, b);
            }
        }
        int n = routing == Routing.SPRAY ? 1 : draws;
        SplittableRandom rnd = new SplittableRandom(seed);
        int par = fabric.parallelLinks();
        int uplinks = fabric.leaves() * fabric.spines() * par;
        double host = fabric.hostRateBitsPerSecond();
        double up = fabric.uplinkRateBitsPerSecond();
        double total = 0;
        for (int draw = 0; draw < n; draw++) {
            for (List<Flow> step : steps) {
                double[] tx = new double[fabric.hosts()];
                double[] rx = new double[fabric.hosts()];
                double[] toSpine = new double[uplinks];
                double[] fromSpine = new double[uplinks];
                for (Flow f : step) {
                    tx[f.from()] += f.bytes();
                    rx[f.to()] += f.bytes();
                    int a = fabric.leafOf(f.from());
                    int b = fabric.leafOf(f.to());
                    if (a == b) {
                        continue;
                    }
                    int[] spines = usable[a][b];
                    if (routing == Routing.SPRAY) {
                        int links = 0;
                        for (int s : spines) {
                            links += alive(fabric, down, a, s);
                        }
                        for (int s : spines) {
                            double onSpine = f.bytes() * alive(fabric, down, a, s) / links;
                            spread(toSpine, down, a, s, f.bytes() / links);
                            spread(fromSpine, down, b, s, onSpine / alive(fabric, down, b, s));
                        }
                    } else {
                        int[] upLinks = linksTo(down, a, spines);
                        int chosen = upLinks[rnd.nextInt(upLinks.length)];
                        toSpine[chosen] += f.bytes();
                        int s = (chosen / par) % fabric.spines();
                        int[] downLinks = linksTo(down, b, new int[] {s});
                        fromSpine[downLinks[rnd.nextInt(downLinks.length)]] += f.bytes();
                    }
                }
                double worst = Math.max(Arrays.stream(tx).max().orElse(0), Arrays.stream(rx).max().orElse(0)) * 8 / host;
                worst = Math.max(worst, Math.max(Arrays.stream(toSpine).max().orElse(0), Arrays.stream(fromSpine).max().orElse(0))
                        * 8 / up);
                total += worst;
            }
        }
        return total / n;
    }

    private void spread(double[] load, boolean[] down, int leaf, int spine, double bytesPerLink) {
        int par = fabric.parallelLinks();
        for (int k = 0; k < par; k++) {
            int i = (leaf * fabric.spines() + spine) * par + k;
            if (!down[i]) {
                load[i] += bytesPerLink;
            }
        }
    }

    private int[] linksTo(boolean[] down, int leaf, int[] spines) {
        int par = fabric.parallelLinks();
        List<Integer> l = new ArrayList<>();
        for (int s : spines) {
            for (int k = 0; k < par; k++) {
                int i = (leaf * fabric.spines() + s) * par + k;
                if (!down[i]) {
                    l.add(i);
                }
            }
        }
        return l.stream().mapToInt(Integer::intValue).toArray();
    }
}
