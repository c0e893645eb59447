package fabriclab.container;

import fabriclab.Parameters;
import java.util.SplittableRandom;

/**
 * Container assembly at the source edge: which container each packet of one (source edge,
 * destination) queue belongs to, and the steady-state distribution of the bytes per container.
 *
 * <p>Seed 000 section 2.2.1 (fixed-length containers per destination; all packets of a container take
 * one path) and seed 002 section 3.3 (container id from cumulative dequeued bytes). The container
 * length C must be at least the largest packet, since packets are never split.
 */
public final class ContainerAssembly {
    private ContainerAssembly() {
    }

    /**
     * Container id of each packet of a queue, in dequeue order (ids start at 0 and increase by 0 or 1
     * from packet to packet).
     *
     * @param rule assembly rule
     * @param packetBytes packet sizes in dequeue order, bytes, each in [1, C]
     * @param containerLength C, bytes
     * @return container id per packet
     */
    public static int[] assign(AssemblyRule rule, int[] packetBytes, int containerLength) {
        Parameters.notNull("rule", rule);
        Parameters.notNull("packetBytes", packetBytes);
        Parameters.atLeast("containerLength", containerLength, 1);
        int[] id = new int[packetBytes.length];
        long cumulative = 0;
        int open = 0;
        int fill = 0;
        for (int i = 0; i < packetBytes.length; i++) {
            int p = packetBytes[i];
            if (p < 1 || p > containerLength) {
                throw new IllegalArgumentException("packetBytes[" + i + "] must be in [1, containerLength=" + containerLength
                        + "] (packets are never split), got " + p);
            }
            if (rule == AssemblyRule.OVERFLOW_STARTS_NEXT) {
                if (fill + p > containerLength) {
                    open++;
                    fill = 0;
                }
                fill += p;
                id[i] = open;
            } else {
                id[i] = (int) (cumulative / containerLength);
            }
            cumulative += p;
        }
        return id;
    }

    /**
     * Bytes carried by each container, from {@link #assign}'s ids (length = last id + 1).
     */
    public static long[] containerBytes(int[] packetBytes, int[] containerIds) {
        Parameters.notNull("packetBytes", packetBytes);
        Parameters.notNull("containerIds", containerIds);
        if (packetBytes.length != containerIds.length) {
            throw new IllegalArgumentException("containerIds must have the length of packetBytes");
        }
        if (packetBytes.length == 0) {
            return new long[0];
        }
        long[] b = new long[containerIds[containerIds.length - 1] + 1];
        for (int i = 0; i < packetBytes.length; i++) {
            b[containerIds[i]] += packetBytes[i];
        }
        return b;
    }

    /**
     * Steady-state distribution of the bytes per container for i.i.d. packet sizes.
     *
     * <p>{@link AssemblyRule#OVERFLOW_STARTS_NEXT}: exact. A container starts with the packet that
     * overflowed the previous one, so the first-packet size s is a Markov chain. With h(x) the
     * probability that partial sums of packet sizes hit x exactly (h(0) = 1), a container that starts
     * with s reaches fill f with probability h(f - s) and closes there when the next packet p exceeds
     * C - f; the chain's stationary law nu is found by (lazy) power iteration, and
     * P(fill = f) = sum_s nu(s) h(f - s) P(P > C - f).
     *
     * <p>{@link AssemblyRule#CUMULATIVE_BYTES}: the load of window k is C + o_{k+1} - o_k, where o_k is
     * the offset of the first packet start in window k. o_k follows the stationary excess law
     * P(o = j) = P(P > j) / E[P] (renewal theorem, aperiodic sizes); consecutive offsets are taken as
     * independent (approximation, flagged {@code exact = false}, good when a container holds several
     * packets). For a single fixed size that divides C the load is C exactly (flagged exact).
     *
     * @param rule assembly rule
     * @param sizes packet-size distribution; its max must not exceed C
     * @param containerLength C, bytes (at most 2^24)
     */
    public static ContainerFill fillDistribution(AssemblyRule rule, PacketSizes sizes, int containerLength) {
        Parameters.notNull("rule", rule);
        Parameters.notNull("sizes", sizes);
        Parameters.inRange("containerLength", containerLength, 1, 1 << 24);
        if (containerLength < sizes.max()) {
            throw new IllegalArgumentException("containerLength must be >= the largest packet (" + sizes.max()
                    + " B) since packets are never split, got " + containerLength);
        }
        return rule == AssemblyRule.OVERFLOW_STARTS_NEXT ? overflowFill(sizes, containerLength) : cumulativeFill(sizes, containerLength);
    }

    /** h(x) for x = 0..C: probability that a partial sum of i.i.d. sizes equals x. */
    static double[] renewalMass(PacketSizes sizes, int c) {
        int[] s = sizes.support();
        double[] p = sizes.probabilities();
        double[] h = new double[c + 1];
        h[0] = 1.0;
        for (int x = 1; x <= c; x++) {
            double v = 0;
            for (int i = 0; i < s.length && s[i] <= x; i++) {
                v += p[i] * h[x - s[i]];
            }
            h[x] = v;
        }
        return h;
    }

    private static ContainerFill overflowFill(PacketSizes sizes, int c) {
        int[] s = sizes.support();
        double[] p = sizes.probabilities();
        int n = s.length;
        double[] h = renewalMass(sizes, c);
        double[] cumH = new double[c + 2]; // cumH[x+1] = sum_{y<=x} h(y)
        for (int x = 0; x <= c; x++) {
            cumH[x + 1] = cumH[x] + h[x];
        }
        // G[a][b] = P(container starting with s_a closes and the overflow packet is s_b) / pmf(s_b)
        double[][] g = new double[n][n];
        for (int a = 0; a < n; a++) {
            for (int b = 0; b < n; b++) {
                int hi = c - s[a];
                int lo = c - s[b] - s[a] + 1; // first residual x with s_a + x + s_b > c
                lo = Math.max(lo, 0);
                g[a][b] = hi < lo ? 0 : cumH[hi + 1] - cumH[lo];
            }
        }
        // power iteration on the first-packet-size chain; plain steps first (fast for aperiodic
        // chains), then lazy steps (nu + K nu) / 2, which converge for periodic ones too
        double[] nu = p.clone();
        double[] next = new double[n];
        for (int it = 0; it < 20_000; it++) {
            boolean lazy = it >= 200;
            java.util.Arrays.fill(next, 0);
            for (int a = 0; a < n; a++) {
                double na = nu[a];
                if (na == 0) {
                    continue;
                }
                double[] ga = g[a];
                for (int b = 0; b < n; b++) {
                    next[b] += na * ga[b];
                }
            }
            double norm = 0;
            for (int b = 0; b < n; b++) {
                next[b] *= p[b];
                if (lazy) {
                    next[b] = 0.5 * (nu[b] + next[b]);
                }
                norm += next[b];
            }
            double diff = 0;
            for (int b = 0; b < n; b++) {
                next[b] /= norm;
                diff += Math.abs(next[b] - nu[b]);
            }
            double[] t = nu;
            nu = next;
            next = t;
            if (diff < 1e-14) {
                break;
            }
        }
        double[] fill = new double[c + 1];
        for (int a = 0; a < n; a++) {
            if (nu[a] == 0) {
                continue;
            }
            for (int f = s[a]; f <= c; f++) {
                double hv = h[f - s[a]];
                if (hv != 0) {
                    fill[f] += nu[a] * hv;
                }
            }
        }
        double[] tail = new double[c + 1]; // tail[x] = P(P > x)
        int[] sup = sizes.support();
        double[] pr = sizes.probabilities();
        double acc = 0;
        int idx = sup.length - 1;
        for (int x = c; x >= 0; x--) {
            while (idx >= 0 && sup[idx] > x) {
                acc += pr[idx--];
            }
            tail[x] = acc;
        }
        double total = 0;
        for (int f = 0; f <= c; f++) {
            fill[f] *= tail[c - f];
            total += fill[f];
        }
        return compact(AssemblyRule.OVERFLOW_STARTS_NEXT, c, fill, 0, total, true);
    }

    private static ContainerFill cumulativeFill(PacketSizes sizes, int c) {
        int[] s = sizes.support();
        if (s.length == 1 && c % s[0] == 0) {
            return new ContainerFill(AssemblyRule.CUMULATIVE_BYTES, c, new int[] {c}, new double[] {1.0}, true);
        }
        int maxP = sizes.max();
        double mu = sizes.mean();
        double[] excess = new double[maxP];
        for (int j = 0; j < maxP; j++) {
            excess[j] = sizes.tail(j) / mu;
        }
        // load = C + d with d = o' - o, o and o' independent with law `excess`
        double[] d = new double[2 * maxP - 1]; // index d + maxP - 1
        for (int o = 0; o < maxP; o++) {
            if (excess[o] == 0) {
                continue;
            }
            for (int o2 = 0; o2 < maxP; o2++) {
                d[o2 - o + maxP - 1] += excess[o] * excess[o2];
            }
        }
        double total = 0;
        for (double v : d) {
            total += v;
        }
        return compact(AssemblyRule.CUMULATIVE_BYTES, c, d, c - (maxP - 1), total, false);
    }

    private static ContainerFill compact(AssemblyRule rule, int c, double[] mass, int offset, double total, boolean exact) {
        int count = 0;
        for (double v : mass) {
            if (v > 0) {
                count++;
            }
        }
        int[] b = new int[count];
        double[] pr = new double[count];
        int k = 0;
        for (int i = 0; i < mass.length; i++) {
            if (mass[i] > 0) {
                b[k] = i + offset;
                pr[k++] = mass[i] / total;
            }
        }
        return new ContainerFill(rule, c, b, pr, exact);
    }

    /**
     * Monte Carlo estimate of the container-load law: assembles {@code packets} i.i.d. packets and
     * returns the bytes of every complete container (the first and the last container are dropped to
     * remove start-up and truncation effects).
     */
    public static long[] simulateContainerBytes(AssemblyRule rule, PacketSizes sizes, int containerLength, int packets, long seed) {
        Parameters.notNull("sizes", sizes);
        Parameters.inRange("packets", packets, 1, 50_000_000); // an array of that many packets
        if (containerLength < sizes.max()) {
            throw new IllegalArgumentException("containerLength must be >= the largest packet (" + sizes.max()
                    + " B) since packets are never split, got " + containerLength);
        }
        int[] p = sizes.sample(new SplittableRandom(seed), packets);
        long[] all = containerBytes(p, assign(rule, p, containerLength));
        if (all.length <= 2) {
            return new long[0];
        }
        return java.util.Arrays.copyOfRange(all, 1, all.length - 1);
    }
}
