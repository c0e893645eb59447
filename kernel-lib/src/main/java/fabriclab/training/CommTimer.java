package fabriclab.training;

import fabriclab.Parameters;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;

/**
 * Times one communication step of a training iteration: a set of groups that run the same primitive at
 * the same time (e.g. the 8 DP all-reduces of a stage, one per TP rank), each rank holding
 * {@code bufferBytes}. Implementations: {@link #nicBound} (a non-blocking fabric),
 * {@link #hierarchical} (NVLink inside servers, a fabric timer between them), and in
 * the experiments package (Llama2Training) the leaf-spine estimate and the packet simulator.
 */
@FunctionalInterface
public interface CommTimer {

    /**
     * Seconds until every group has finished.
     *
     * @param primitive the collective, not null
     * @param hostGroups the concurrent groups, each the hosts of its ranks in rank order ({from, to} for send/recv);
     *        not null, no null group
     * @param bufferBytes S, bytes per rank
     */
    double seconds(CommOp.Primitive primitive, int[][] hostGroups, double bufferBytes);

    /** The checks of the library's timers: primitive and groups present, no null group. */
    private static void checkCall(CommOp.Primitive primitive, int[][] hostGroups) {
        Parameters.notNull("primitive", primitive);
        Parameters.notNull("hostGroups", hostGroups);
        for (int i = 0; i < hostGroups.length; i++) {
            Parameters.notNull("hostGroups[" + i + "]", hostGroups[i]);
        }
    }

    /**
     * The NIC bound of a non-blocking fabric: every rank sends its ring bytes
     * ({@link CommOp.Primitive#bytesSentPerRank}) through its own NIC at {@code nicBitsPerSecond}; the groups
     * use disjoint NICs, so the step takes as long as the largest group. Latency ignored.
     *
     * @param nicBitsPerSecond NIC rate per accelerator [bit/s], positive
     */
    static CommTimer nicBound(double nicBitsPerSecond) {
        Parameters.positive("nicBitsPerSecond", nicBitsPerSecond);
        return (primitive, groups, bytes) -> {
            checkCall(primitive, groups);
            double worst = 0;
            for (int[] g : groups) {
                worst = Math.max(worst, primitive.bytesSentPerRank(g.length, bytes) * 8 / nicBitsPerSecond);
            }
            return worst;
        };
    }

    /**
     * Two-level collectives, as NCCL runs them on servers with NVLink and one NIC per GPU: a group with
     * {@code k} ranks in each of {@code n} servers does its primitive inside each server over NVLink (for an
     * all-reduce: reduce-scatter, then all-gather at the end), and between servers as {@code k} concurrent
     * rings of {@code n} ranks ("rails": the j-th rank of every server), each on a {@code 1/k} share:
     * <pre>
     *   t = bytesSentPerRank(k, S) / intraServerBytesPerSecond  +  fabric time of the rails on S / k
     * </pre>
     * Each rank still sends the flat ring's bytes ({@code 2 (kn-1)/(kn) S} for an all-reduce), but only
     * {@code 2 (n-1)/n S/k} of them through its NIC. The rails of all concurrent groups go to {@code fabric}
     * together. A group inside one server uses NVLink only; a send/recv pair across servers goes to
     * {@code fabric} as it is.
     *
     * @param gpusPerServer hosts per server (hosts numbered server by server), at least 1
     * @param intraServerBytesPerSecond per-rank, one-direction bandwidth inside a server [bytes/s], positive
     * @param fabric times the rails between servers
     * @throws IllegalArgumentException (when timing) if a group has unequal numbers of ranks in its servers
     */
    static CommTimer hierarchical(int gpusPerServer, double intraServerBytesPerSecond, CommTimer fabric) {
        Parameters.atLeast("gpusPerServer", gpusPerServer, 1);
        Parameters.positive("intraServerBytesPerSecond", intraServerBytesPerSecond);
        Parameters.notNull("fabric", fabric);
        return (primitive, groups, bytes) -> {
            checkCall(primitive, groups);
            double intra = 0;
            List<int[]> rails = new ArrayList<>();
            int perServer = -1;
            for (int[] g : groups) {
                TreeMap<Integer, List<Integer>> byServer = new TreeMap<>();
                for (int h : g) {
                    byServer.computeIfAbsent(h / gpusPerServer, s -> new ArrayList<>()).add(h);
                }
                int n = byServer.size();
                int k = g.length / n;
                for (List<Integer> members : byServer.values()) {
                    if (members.size() != k) {
                        throw new IllegalArgumentException("hostGroups must have the same number of ranks in each of their "
                                + "servers, got " + Arrays.toString(g) + " with " + gpusPerServer + " GPUs per server");
                    }
                }
                if (perServer >= 0 && perServer != k && n > 1) {
                    throw new IllegalArgumentException("hostGroups must all have the same ranks per server, got "
                            + perServer + " and " + k);
                }
                if (n > 1) {
                    perServer = k;
                }
                if (primitive == CommOp.Primitive.SEND_RECV) {
                    if (n == 1) {
                        intra = Math.max(intra, bytes / intraServerBytesPerSecond);
                    } else {
                        rails.add(g);
                    }
                    continue;
                }
                if (k > 1) {
                    intra = Math.max(intra, primitive.bytesSentPerRank(k, bytes) / intraServerBytesPerSecond);
                }
                if (n > 1) {
                    List<List<Integer>> servers = new ArrayList<>(byServer.values());
                    for (int j = 0; j < k; j++) {
                        int[] rail = new int[n];
                        for (int s = 0; s < n; s++) {
                            rail[s] = servers.get(s).get(j);
                        }
                        rails.add(rail);
                    }
                }
            }
            if (rails.isEmpty()) {
                return intra;
            }
            double share = primitive == CommOp.Primitive.SEND_RECV ? bytes : bytes / perServer;
            return intra + fabric.seconds(primitive, rails.toArray(new int[0][]), share);
        };
    }

    /**
     * {@link #hierarchical} over a non-blocking fabric ({@link #nicBound}): the bandwidth bound of a layout.
     *
     * @param gpusPerServer hosts per server, at least 1
     * @param nicBitsPerSecond NIC rate per accelerator [bit/s], positive
     * @param intraServerBytesPerSecond per-rank, one-direction bandwidth inside a server [bytes/s], positive
     */
    static CommTimer nonBlocking(int gpusPerServer, double nicBitsPerSecond, double intraServerBytesPerSecond) {
        return hierarchical(gpusPerServer, intraServerBytesPerSecond, nicBound(nicBitsPerSecond));
    }
}
