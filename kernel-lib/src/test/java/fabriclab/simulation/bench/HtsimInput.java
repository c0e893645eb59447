package fabriclab.simulation.bench;

import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Topology;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The input files of csg-htsim's {@code htsim_roce} (github.com/Broadcom/csg-htsim, commit 841d9e7; its fat-tree
 * file format is read by {@code FatTreeTopology::load} in {@code sim/datacenter/fat_tree_topology.cpp}, its connection
 * matrix by {@code ConnectionMatrix::load} in {@code connection_matrix.cpp}) written from one of fabriclab's scenarios:
 * the fabric from the scenario's {@link Topology}, the flows from the CSV that {@code bin/simulate --flows} writes.
 *
 * <p>The fabric: htsim builds fat trees of two or three tiers whose hosts are numbered in leaf order (host {@code h} on
 * leaf {@code h / Radix_Down} of tier 0), every leaf joined to every switch of tier 1 by {@code Bundle} parallel links,
 * one rate and one propagation delay per tier. So a two-tier leaf-spine of {@code L} leaves of {@code H} hosts and
 * {@code S} spines with {@code B} links per leaf-spine pair becomes {@code Nodes L*H}, {@code Podsize L*H} (one pod),
 * tier 0 {@code Radix_Down H}, {@code Radix_Up S*B} (and {@code Oversubscribed H/(S*B)} when that is above 1), tier 1
 * {@code Radix_Down L*B}, {@code Bundle B}: htsim then derives {@code L*H/oversub = L*S*B} leaf uplinks and
 * {@code L*S*B / (L*B) = S} spines. A single switch (fabriclab's incast) becomes one leaf of all the hosts with one
 * uplink to one spine that no flow uses ({@code Oversubscribed H}, as htsim requires of a leaf with {@code H}
 * downlinks and one uplink): every flow crosses that one switch. No switching latency ({@code Switch_Latency_ns 0}):
 * fabriclab's switches add none.
 *
 * <p>The flows: one connection per CSV row, {@code SRC->DST id K start T size S} with {@code K} the row's number from 1
 * (htsim refuses id 0), {@code T} the start in picoseconds (htsim reads it as a C {@code float}: starts that a float
 * does not hold exactly are refused) and {@code S} the flow's bytes (a C {@code int}).
 */
final class HtsimInput {
    private HtsimInput() {
    }

    /** One flow of a {@code --flows} CSV: source and destination hosts, payload bytes, start in picoseconds. */
    record Flow(int source, int destination, long bytes, long startPs) {
    }

    /**
     * The shape of a fabric as htsim's two-tier fat tree.
     *
     * @param hosts hosts, {@code leaves * hostsPerLeaf}
     * @param hostsPerLeaf hosts on each leaf
     * @param leaves leaves (tier 0)
     * @param spines spines (tier 1); 0 for a single switch, written with one unused spine
     * @param bundle parallel links per leaf-spine pair (1 for a single switch)
     * @param rateBitsPerSecond every link's rate, bit/s
     * @param hostLinkPs propagation delay of a host's link, ps
     * @param spineLinkPs propagation delay of a leaf-spine link, ps (that of a host's link for a single switch)
     */
    record FatTree(int hosts, int hostsPerLeaf, int leaves, int spines, int bundle, long rateBitsPerSecond,
            long hostLinkPs, long spineLinkPs) {
        /** Leaf-spine links of the fabric ({@code leaves * spines * bundle}; the unused spine's one link when 0 spines). */
        long uplinks() {
            return spines == 0 ? 1 : (long) leaves * spines * bundle;
        }
    }

    /**
     * Reads {@code t} as htsim's two-tier fat tree; fails, saying what does not fit, for any other fabric: switches
     * of tiers above 1, hosts not in leaf order, leaves of unequal size, leaf-spine pairs with unequal link counts,
     * links between two leaves or two spines, rates of other than whole Gb/s or more than one rate, delays of other
     * than whole nanoseconds or zero (htsim's file wants one per tier, not zero).
     */
    static FatTree shapeOf(Topology t) {
        int hosts = t.hosts();
        List<Integer> leafIds = new ArrayList<>();
        List<Integer> spineIds = new ArrayList<>();
        int[] position = new int[t.switches()]; // a switch's index among those of its tier
        for (int s = 0; s < t.switches(); s++) {
            int tier = t.tiers().get(s);
            if (tier == 0) {
                position[s] = leafIds.size();
                leafIds.add(s);
            } else if (tier == 1) {
                position[s] = spineIds.size();
                spineIds.add(s);
            } else {
                throw new IllegalArgumentException("topology must have switches of tiers 0 and 1 only (htsim's two-tier"
                        + " fat tree), got switch " + t.nodeName(t.switchNode(s)) + " of tier " + tier);
            }
        }
        int leaves = leafIds.size();
        int spines = spineIds.size();
        if (leaves == 0 || hosts % leaves != 0) {
            throw new IllegalArgumentException("topology must spread its " + hosts + " hosts evenly over its leaves, got "
                    + leaves + " leaves");
        }
        int perLeaf = hosts / leaves;
        long rate = -1;
        long hostPs = -1;
        long spinePs = -1;
        int[][] pairLinks = new int[leaves][Math.max(spines, 1)];
        for (LinkSpec l : t.links()) {
            if (rate == -1) {
                rate = l.rateBitsPerSecond();
            } else if (l.rateBitsPerSecond() != rate) {
                throw new IllegalArgumentException("topology must have one link rate (htsim's file is written with one),"
                        + " got " + rate + " and " + l.rateBitsPerSecond() + " bit/s");
            }
            int a = Math.min(l.nodeA(), l.nodeB());
            int b = Math.max(l.nodeA(), l.nodeB());
            if (a < hosts) {
                int sw = b - hosts;
                if (t.tiers().get(sw) != 0 || position[sw] != a / perLeaf) {
                    throw new IllegalArgumentException("topology must attach host h to leaf h / " + perLeaf
                            + " (htsim numbers hosts in leaf order), got host " + a + " on " + t.nodeName(b));
                }
                hostPs = same("host links' propagation", hostPs, l.propagationPs());
                continue;
            }
            int sa = a - hosts;
            int sb = b - hosts;
            if (t.tiers().get(sa).equals(t.tiers().get(sb))) {
                throw new IllegalArgumentException("topology must join leaves to spines only, got a link between "
                        + t.nodeName(a) + " and " + t.nodeName(b));
            }
            int leaf = t.tiers().get(sa) == 0 ? sa : sb;
            int spine = leaf == sa ? sb : sa;
            pairLinks[position[leaf]][position[spine]]++;
            spinePs = same("leaf-spine links' propagation", spinePs, l.propagationPs());
        }
        int bundle = spines == 0 ? 1 : pairLinks[0][0];
        for (int i = 0; i < leaves && spines > 0; i++) {
            for (int j = 0; j < spines; j++) {
                if (pairLinks[i][j] != bundle || bundle == 0) {
                    throw new IllegalArgumentException("topology must join every leaf to every spine by the same number"
                            + " of links, got " + pairLinks[0][0] + " between leaf 0 and spine 0 and " + pairLinks[i][j]
                            + " between leaf " + i + " and spine " + j);
                }
            }
        }
        if (spines == 0 && leaves != 1) {
            throw new IllegalArgumentException("topology without spines must be one switch, got " + leaves + " leaves");
        }
        if (spines > 0 && perLeaf % (spines * bundle) != 0) {
            throw new IllegalArgumentException("topology's leaves must have a whole multiple of their " + spines * bundle
                    + " uplinks as hosts (htsim's oversubscription is a whole number), got " + perLeaf + " hosts per leaf");
        }
        if (rate % 1_000_000_000L != 0) {
            throw new IllegalArgumentException("topology's link rate must be whole Gb/s (htsim's Downlink_speed_Gbps),"
                    + " got " + rate + " bit/s");
        }
        for (long ps : new long[] {hostPs, spines == 0 ? hostPs : spinePs}) {
            if (ps <= 0 || ps % 1000 != 0) {
                throw new IllegalArgumentException("topology's propagation delays must be whole nanoseconds above 0"
                        + " (htsim's Downlink_Latency_ns), got " + ps + " ps");
            }
        }
        return new FatTree(hosts, perLeaf, leaves, spines, bundle, rate, hostPs, spines == 0 ? hostPs : spinePs);
    }

    private static long same(String what, long seen, long value) {
        if (seen != -1 && seen != value) {
            throw new IllegalArgumentException("topology must have one " + what + " delay (htsim's file has one per"
                    + " tier), got " + seen + " and " + value + " ps");
        }
        return value;
    }

    /** The most ports htsim_roce gives a switch of tier 0 and of tier 1 (asserts in {@code FatTreeTopology::init_network}). */
    static final int MAX_LEAF_PORTS = 96;
    static final int MAX_SPINE_PORTS = 64;

    /**
     * Why htsim_roce (at 841d9e7) cannot build {@code f}, or null: {@code FatTreeTopology::init_network} asserts that a
     * switch of tier 0 has at most {@value #MAX_LEAF_PORTS} ports and one of tier 1 at most {@value #MAX_SPINE_PORTS}
     * (its {@code addPort(...) < 96} and {@code < 64}; the program stops on the assertion), so the leaf-spine of 16
     * hosts per leaf and 8 spines with 2 links per leaf is within reach up to 32 leaves (512 hosts), not at 1024 (64
     * leaves: 128 ports per spine) nor 3456 hosts.
     */
    static String htsimCannotBuild(FatTree f) {
        long spinePorts = f.spines() == 0 ? 1 : (long) f.leaves() * f.bundle();
        long leafPorts = f.hostsPerLeaf() + (f.spines() == 0 ? 1 : (long) f.spines() * f.bundle());
        if (spinePorts > MAX_SPINE_PORTS) {
            return "each spine would have " + spinePorts + " ports (" + f.leaves() + " leaves x " + f.bundle()
                    + " links), above htsim_roce's " + MAX_SPINE_PORTS + " (an assertion in FatTreeTopology::init_network)";
        }
        if (leafPorts > MAX_LEAF_PORTS) {
            return "each leaf would have " + leafPorts + " ports, above htsim_roce's " + MAX_LEAF_PORTS
                    + " (an assertion in FatTreeTopology::init_network)";
        }
        return null;
    }

    /** htsim's topology file for {@code f}, with {@code description} as its first comment line. */
    static String topologyFile(FatTree f, String description) {
        StringBuilder b = new StringBuilder();
        b.append("# ").append(description.replace('\n', ' ')).append('\n');
        b.append("# written by fabriclab.simulation.bench.HtsimInput from fabriclab's scenario; ").append(f.spines() == 0
                ? "one switch: one leaf of every host and one spine that no flow uses"
                : String.format(Locale.ROOT, "%d leaves x %d hosts, %d spines, %d link(s) per leaf-spine pair",
                        f.leaves(), f.hostsPerLeaf(), f.spines(), f.bundle())).append('\n');
        long gbps = f.rateBitsPerSecond() / 1_000_000_000L;
        int up = f.spines() == 0 ? 1 : f.spines() * f.bundle();
        int oversub = f.hostsPerLeaf() / up;
        b.append("Nodes ").append(f.hosts()).append('\n');
        b.append("Tiers 2\n");
        b.append("Podsize ").append(f.hosts()).append("\n\n");
        b.append("Tier 0\n");
        b.append("Downlink_speed_Gbps ").append(gbps).append('\n');
        b.append("Radix_Down ").append(f.hostsPerLeaf()).append('\n');
        b.append("Radix_Up ").append(up).append('\n');
        if (oversub != 1) {
            b.append("Oversubscribed ").append(oversub).append('\n');
        }
        b.append("Downlink_Latency_ns ").append(f.hostLinkPs() / 1000).append('\n');
        b.append("Switch_Latency_ns 0\n\n");
        b.append("Tier 1\n");
        b.append("Downlink_speed_Gbps ").append(gbps).append('\n');
        b.append("Radix_Down ").append(f.spines() == 0 ? 1 : f.leaves() * f.bundle()).append('\n');
        if (f.bundle() != 1) {
            b.append("Bundle ").append(f.bundle()).append('\n');
        }
        b.append("Downlink_Latency_ns ").append(f.spineLinkPs() / 1000).append('\n');
        b.append("Switch_Latency_ns 0\n");
        return b.toString();
    }

    /**
     * The flows of a {@code bin/simulate --flows} CSV (columns {@code flow,source,destination,bytes,start_ps,...}), in
     * its row order; fails naming the file and line on another header or a malformed row.
     */
    static List<Flow> readFlows(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).startsWith("flow,source,destination,bytes,start_ps,")) {
            throw new IllegalArgumentException(csv + " must start with bin/simulate --flows' header"
                    + " flow,source,destination,bytes,start_ps,..., got " + (lines.isEmpty() ? "an empty file" : lines.get(0)));
        }
        List<Flow> flows = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String[] c = lines.get(i).split(",");
            try {
                flows.add(new Flow(Integer.parseInt(c[1]), Integer.parseInt(c[2]), Long.parseLong(c[3]), Long.parseLong(c[4])));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(csv + " line " + (i + 1) + " must be a flow row, got " + lines.get(i), e);
            }
        }
        return flows;
    }

    /**
     * htsim's connection matrix of {@code flows} on {@code hosts} hosts (see the class comment); fails on a host out of
     * {@code [0, hosts)}, a source equal to its destination, bytes outside {@code [1, 2^31 - 1]} or a start a float
     * does not hold.
     */
    static String connectionMatrix(int hosts, List<Flow> flows) {
        StringBuilder b = new StringBuilder();
        b.append("Nodes ").append(hosts).append('\n');
        b.append("Connections ").append(flows.size()).append('\n');
        int id = 0;
        for (Flow f : flows) {
            id++;
            if (f.source() < 0 || f.source() >= hosts || f.destination() < 0 || f.destination() >= hosts
                    || f.source() == f.destination()) {
                throw new IllegalArgumentException("flow " + id + " must join two distinct hosts in [0, " + hosts + "), got "
                        + f.source() + " -> " + f.destination());
            }
            if (f.bytes() < 1 || f.bytes() > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("flow " + id + "'s bytes must be in [1, " + Integer.MAX_VALUE
                        + "] (htsim reads an int), got " + f.bytes());
            }
            if (f.startPs() < 0 || (long) (float) f.startPs() != f.startPs()) {
                throw new IllegalArgumentException("flow " + id + "'s start must be a time in ps at or above 0 that a float"
                        + " holds exactly (htsim reads it as one), got " + f.startPs());
            }
            b.append(f.source()).append("->").append(f.destination()).append(" id ").append(id).append(" start ")
                    .append(f.startPs()).append(" size ").append(f.bytes()).append('\n');
        }
        return b.toString();
    }
}
