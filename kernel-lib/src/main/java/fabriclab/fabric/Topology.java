package fabriclab.fabric;

import fabriclab.Parameters;
import java.util.ArrayList;
import java.util.List;

/**
 * A fabric as a graph: nodes {@code 0 .. hosts-1} are hosts (one per NIC), nodes
 * {@code hosts .. hosts+switches-1} are switches, joined by full-duplex {@link LinkSpec}s (parallel
 * links allowed). Hosts must have exactly one link (a NIC has one port). Immutable.
 *
 * @param name a short description ("leaf-spine 4x2, 32 hosts")
 * @param hosts number of host NICs, at least 1
 * @param switches number of switches, at least 0
 * @param links the links
 * @param tiers tier of each switch (0 = leaf/ToR, 1 = spine, ...), length {@code switches}
 */
public record Topology(String name, int hosts, int switches, List<LinkSpec> links, List<Integer> tiers) {
    /** Validates node indices and that every host has exactly one link. */
    public Topology {
        Parameters.notBlank("name", name);
        Parameters.atLeast("hosts", hosts, 1);
        Parameters.atLeast("switches", switches, 0);
        links = List.copyOf(Parameters.notNull("links", links));
        tiers = List.copyOf(Parameters.notNull("tiers", tiers));
        if (tiers.size() != switches) {
            throw new IllegalArgumentException("tiers must have one entry per switch (" + switches + "), got " + tiers.size());
        }
        int nodes = hosts + switches;
        int[] hostLinks = new int[hosts];
        for (LinkSpec l : links) {
            if (l.nodeA() >= nodes || l.nodeB() >= nodes) {
                throw new IllegalArgumentException("links must join nodes in [0, " + nodes + "), got " + l);
            }
            if (l.nodeA() < hosts) {
                hostLinks[l.nodeA()]++;
            }
            if (l.nodeB() < hosts) {
                hostLinks[l.nodeB()]++;
            }
        }
        for (int h = 0; h < hosts; h++) {
            if (hostLinks[h] != 1) {
                throw new IllegalArgumentException("links must give host " + h + " exactly one link (one NIC port), got " + hostLinks[h]);
            }
        }
    }

    /** Number of nodes (hosts + switches). */
    public int nodes() {
        return hosts + switches;
    }

    /** Node index of switch {@code s}. */
    public int switchNode(int s) {
        return hosts + s;
    }

    /**
     * A single switch with {@code hosts} hosts, each on its own link (the incast topology).
     *
     * @param hosts number of hosts, at least 2
     * @param rateBps host link rate in bit/s
     * @param propagationPs per-link propagation delay in ps
     */
    public static Topology singleSwitch(int hosts, long rateBps, long propagationPs) {
        Parameters.atLeast("hosts", hosts, 2);
        List<LinkSpec> links = new ArrayList<>();
        for (int h = 0; h < hosts; h++) {
            links.add(new LinkSpec(h, hosts, rateBps, propagationPs));
        }
        return new Topology("single switch, " + hosts + " hosts", hosts, 1, links, List.of(0));
    }

    /**
     * A single switch whose hosts have individual link rates (e.g. n senders at r and one receiver
     * at R), all with the same propagation delay.
     *
     * @param ratesBps one rate per host, at least 2 hosts
     * @param propagationPs per-link propagation delay in ps
     */
    public static Topology singleSwitch(long[] ratesBps, long propagationPs) {
        Parameters.notNull("ratesBps", ratesBps);
        Parameters.atLeast("ratesBps.length", ratesBps.length, 2);
        int n = ratesBps.length;
        List<LinkSpec> links = new ArrayList<>();
        for (int h = 0; h < n; h++) {
            links.add(new LinkSpec(h, n, ratesBps[h], propagationPs));
        }
        return new Topology("single switch, " + n + " hosts", n, 1, links, List.of(0));
    }
}
