package fabriclab.workload;

import fabriclab.Parameters;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The ideal flow completion time: how long a flow takes alone on an empty fabric in the packet simulator's model,
 * the denominator of the FCT slowdown ({@link FctSlowdown}).
 *
 * <p>The model: the source NIC sends the flow's packets back to back ({@code ceil(bytes / mtu)} packets, all full but
 * the last, each with {@code header} bytes on the wire) onto a path of links, each with its rate and propagation
 * delay; switches are output-queued and store-and-forward with no processing delay, so a packet starts on the next
 * link when it has wholly arrived and that link is free; serialisation is {@link Time#serializationPs} (rounded up to
 * the picosecond). The flow completes when its last packet has wholly arrived at the destination, measured from its
 * start. For packets of one size {@code w} on links of rates {@code R_1..R_L}, packet {@code k} leaves link {@code j}
 * at {@code max_{i <= j} (sum_{m <= j} s_m + (k - 1) s_i) + sum_{m < j} d_m} with {@code s_m} its serialisation time
 * on link {@code m} and {@code d_m} the link's delay (a tandem of FIFO queues fed at time 0); the smaller last packet
 * then follows the recursion {@code D_j = max(D_{j-1} + d_{j-1}, D'_j) + s'_j} behind the full packet before it
 * ({@code D'_j}). With equal rates this is the serialisation of the whole flow on the first link, plus one full
 * packet's serialisation per further link (the last packet waits behind the full one before it at every hop), plus
 * the propagation delays. It is one way: unlike HPCC's standalone FCT it adds no base RTT.
 *
 * <p>The path: a fewest-hops path through the switches of the {@link Topology} (in a leaf-spine, 2 links within a
 * leaf and 4 across the spines; the first found, by link order, when several tie; in a regular fabric they have the
 * same rates and delays).
 */
public final class IdealFct {
    private IdealFct() {
    }

    /**
     * The ideal FCT of {@code bytes} over the links of rates {@code ratesBitsPerSecond} and delays {@code delaysPs}
     * (class comment), ps.
     *
     * @param bytes payload, 1 to 1e12
     * @param mtuBytes payload per packet, 1 to 2^20
     * @param headerBytes header per packet, 0 to 2^20 - mtu
     * @param ratesBitsPerSecond the path's link rates, source first, at least one, each positive
     * @param delaysPs the path's propagation delays, as many, each not negative
     */
    public static long onPath(long bytes, int mtuBytes, int headerBytes, long[] ratesBitsPerSecond, long[] delaysPs) {
        Parameters.inRange("bytes", bytes, 1L, 1_000_000_000_000L);
        Parameters.inRange("mtuBytes", mtuBytes, 1, 1 << 20);
        Parameters.inRange("headerBytes", headerBytes, 0, (1 << 20) - mtuBytes);
        Parameters.notNull("ratesBitsPerSecond", ratesBitsPerSecond);
        Parameters.notNull("delaysPs", delaysPs);
        int links = ratesBitsPerSecond.length;
        if (links == 0 || links > 1024) {
            throw new IllegalArgumentException("ratesBitsPerSecond must have 1 to 1024 links, got " + links);
        }
        if (delaysPs.length != links) {
            throw new IllegalArgumentException("delaysPs must have one delay per link (" + links + "), got " + delaysPs.length);
        }
        for (int j = 0; j < links; j++) {
            Parameters.atLeast("ratesBitsPerSecond[" + j + "]", ratesBitsPerSecond[j], 1L);
            Parameters.inRange("delaysPs[" + j + "]", delaysPs[j], 0L, Long.MAX_VALUE / (2L * links));
        }
        long full = (bytes - 1) / mtuBytes; // packets before the last, all full
        long lastPayload = bytes - full * mtuBytes;
        long[] s = new long[links];
        long[] sLast = new long[links];
        for (int j = 0; j < links; j++) {
            s[j] = Time.serializationPs(mtuBytes + headerBytes, ratesBitsPerSecond[j]);
            sLast[j] = Time.serializationPs(lastPayload + headerBytes, ratesBitsPerSecond[j]);
        }
        long prev = Long.MIN_VALUE; // D_{j-1} of the last packet
        long delayBefore = 0; // sum of the delays of links before j
        long serialSoFar = 0; // sum_{m <= j} s_m
        long sMaxBefore = 0; // max_{i <= j} s_i
        for (int j = 0; j < links; j++) {
            serialSoFar = Math.addExact(serialSoFar, s[j]);
            sMaxBefore = Math.max(sMaxBefore, s[j]);
            // departure of the last full packet (k = full) from link j; none when the flow is one packet
            long fullDeparts = full == 0 ? Long.MIN_VALUE
                    : Math.addExact(Math.addExact(serialSoFar, Math.multiplyExact(full - 1, sMaxBefore)), delayBefore);
            long arrives = j == 0 ? 0 : prev + delaysPs[j - 1];
            prev = Math.addExact(Math.max(arrives, fullDeparts), sLast[j]);
            delayBefore += delaysPs[j];
        }
        return Math.addExact(prev, delaysPs[links - 1]);
    }

    /**
     * The links of a fewest-hops path from host {@code source} to host {@code destination} through switches (class
     * comment), source first.
     *
     * @param topology the fabric
     * @param source a host of it
     * @param destination another host of it
     */
    public static List<LinkSpec> path(Topology topology, int source, int destination) {
        Parameters.notNull("topology", topology);
        Parameters.inRange("source", source, 0, topology.hosts() - 1);
        Parameters.inRange("destination", destination, 0, topology.hosts() - 1);
        if (source == destination) {
            throw new IllegalArgumentException("destination must differ from source, got " + source);
        }
        int[] via = tree(topology, adjacency(topology), source);
        return pathFromTree(topology, via, source, destination);
    }

    /** For each node the links at it, by link order. */
    private static List<List<Integer>> adjacency(Topology topology) {
        List<List<Integer>> adjacent = new ArrayList<>();
        for (int i = 0; i < topology.nodes(); i++) {
            adjacent.add(new ArrayList<>());
        }
        List<LinkSpec> links = topology.links();
        for (int l = 0; l < links.size(); l++) {
            adjacent.get(links.get(l).nodeA()).add(l);
            adjacent.get(links.get(l).nodeB()).add(l);
        }
        return adjacent;
    }

    /** Breadth-first search from host {@code source} through switches: the link each node was reached by, -1 if none. */
    private static int[] tree(Topology topology, List<List<Integer>> adjacent, int source) {
        int n = topology.nodes();
        List<LinkSpec> links = topology.links();
        int[] via = new int[n];
        Arrays.fill(via, -1);
        boolean[] seen = new boolean[n];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        queue.add(source);
        seen[source] = true;
        while (!queue.isEmpty()) {
            int u = queue.poll();
            if (u != source && u < topology.hosts()) {
                continue; // a host forwards nothing
            }
            for (int l : adjacent.get(u)) {
                LinkSpec k = links.get(l);
                int v = k.nodeA() == u ? k.nodeB() : k.nodeA();
                if (!seen[v]) {
                    seen[v] = true;
                    via[v] = l;
                    queue.add(v);
                }
            }
        }
        return via;
    }

    private static List<LinkSpec> pathFromTree(Topology topology, int[] via, int source, int destination) {
        List<LinkSpec> links = topology.links();
        if (via[destination] < 0) {
            throw new IllegalArgumentException("destination " + destination + " is not reachable from source " + source
                    + " in " + topology.name());
        }
        List<LinkSpec> path = new ArrayList<>();
        for (int v = destination; v != source; ) {
            LinkSpec k = links.get(via[v]);
            path.add(k);
            v = k.nodeA() == v ? k.nodeB() : k.nodeA();
        }
        Collections.reverse(path);
        return path;
    }

    /**
     * The ideal FCT of {@code flow} alone on {@code topology} with the packet sizes of {@code config}, ps: its whole
     * payload on one connection (queue pairs do not change it: one NIC sends them all) over {@link #path}.
     *
     * @param topology the fabric
     * @param config the run configuration (MTU and header)
     * @param flow the flow
     */
    public static long of(Topology topology, SimulationConfig config, FlowSpec flow) {
        Parameters.notNull("config", config);
        Parameters.notNull("flow", flow);
        return of(path(topology, flow.source(), flow.destination()), config, flow.bytes());
    }

    /**
     * The ideal FCT of each of {@code flows} alone on {@code topology} ({@link #of(Topology, SimulationConfig, FlowSpec)}),
     * ps, in the flows' order; one path search per source host.
     *
     * @param topology the fabric
     * @param config the run configuration (MTU and header)
     * @param flows the flows, each between hosts of the topology
     */
    public static long[] of(Topology topology, SimulationConfig config, List<FlowSpec> flows) {
        Parameters.notNull("topology", topology);
        Parameters.notNull("config", config);
        Parameters.noNullElements("flows", flows);
        Integer[] order = new Integer[flows.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
            FlowSpec f = flows.get(i);
            if (f.source() >= topology.hosts() || f.destination() >= topology.hosts()) {
                throw new IllegalArgumentException("flows[" + i + "] must be between hosts of the topology (0 to "
                        + (topology.hosts() - 1) + "), got " + f.source() + " -> " + f.destination());
            }
        }
        Arrays.sort(order, java.util.Comparator.comparingInt(i -> flows.get(i).source()));
        List<List<Integer>> adjacent = adjacency(topology);
        long[] ideal = new long[flows.size()];
        int[] via = null;
        int treeOf = -1;
        for (int i : order) {
            FlowSpec f = flows.get(i);
            if (f.source() != treeOf) {
                treeOf = f.source();
                via = tree(topology, adjacent, treeOf);
            }
            ideal[i] = of(pathFromTree(topology, via, f.source(), f.destination()), config, f.bytes());
        }
        return ideal;
    }

    /**
     * The ideal FCT of {@code bytes} over the links of {@code path} with the packet sizes of {@code config}, ps.
     *
     * @param path links from source to destination, at least one
     * @param config the run configuration (MTU and header)
     * @param bytes payload, 1 to 1e12
     */
    public static long of(List<LinkSpec> path, SimulationConfig config, long bytes) {
        Parameters.noNullElements("path", path);
        Parameters.notNull("config", config);
        if (path.isEmpty()) {
            throw new IllegalArgumentException("path must have at least one link, got none");
        }
        long[] rates = new long[path.size()];
        long[] delays = new long[path.size()];
        for (int j = 0; j < rates.length; j++) {
            rates[j] = path.get(j).rateBitsPerSecond();
            delays[j] = path.get(j).propagationPs();
        }
        return onPath(bytes, config.mtuBytes(), config.headerBytes(), rates, delays);
    }
}
