package fabriclab.fabric;

import fabriclab.Parameters;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A two-tier leaf-spine (folded Clos) fabric of the kind both papers' AI clusters use: servers with
 * one or more NICs, each NIC on one leaf port; every leaf joined to every spine by
 * {@code parallelLinks} links.
 *
 * <p>NIC placement: NIC {@code j} of server {@code s} is host {@code g = s * nicsPerServer + j} and
 * sits on leaf {@code g / nicsPerLeaf()}, so a server's NICs are consecutive hosts and fill leaves
 * in order (no rail-optimised wiring; that is a later extension).
 *
 * <p>Leaf speedup (uplink over downlink capacity of a leaf):
 * {@code speedup = spines * parallelLinks * uplinkRate / (nicsPerLeaf * hostRate)}; 1 means
 * non-blocking (1:1), below 1 oversubscribed.
 *
 * @param servers number of servers, at least 1
 * @param nicsPerServer NICs per server, at least 1
 * @param leaves number of leaf switches, at least 1; must divide {@code servers * nicsPerServer}
 * @param spines number of spine switches, at least 1
 * @param hostRateBitsPerSecond NIC-to-leaf link rate in bit/s
 * @param uplinkRateBitsPerSecond leaf-to-spine link rate in bit/s
 * @param parallelLinks links between each leaf-spine pair, at least 1
 * @param hostPropagationPs NIC-to-leaf propagation delay in ps, 0 to {@link LinkSpec#MAX_PROPAGATION_PS}
 * @param fabricPropagationPs leaf-to-spine propagation delay in ps, 0 to {@link LinkSpec#MAX_PROPAGATION_PS}
 */
public record LeafSpine(int servers, int nicsPerServer, int leaves, int spines, long hostRateBitsPerSecond,
        long uplinkRateBitsPerSecond, int parallelLinks, long hostPropagationPs, long fabricPropagationPs) {
    /** Validates the sizes and rates. */
    public LeafSpine {
        Parameters.atLeast("servers", servers, 1);
        Parameters.atLeast("nicsPerServer", nicsPerServer, 1);
        Parameters.atLeast("leaves", leaves, 1);
        Parameters.atLeast("spines", spines, 1);
        Parameters.atLeast("hostRateBitsPerSecond", hostRateBitsPerSecond, 1L);
        Parameters.atLeast("uplinkRateBitsPerSecond", uplinkRateBitsPerSecond, 1L);
        Parameters.atLeast("parallelLinks", parallelLinks, 1);
        Parameters.inRange("hostPropagationPs", hostPropagationPs, 0L, LinkSpec.MAX_PROPAGATION_PS);
        Parameters.inRange("fabricPropagationPs", fabricPropagationPs, 0L, LinkSpec.MAX_PROPAGATION_PS);
        long nics = (long) servers * nicsPerServer;
        if (nics % leaves != 0) {
            throw new IllegalArgumentException("leaves must divide servers * nicsPerServer = " + nics + ", got " + leaves);
        }
        if (nics > 1 << 20) {
            throw new IllegalArgumentException("servers * nicsPerServer must be at most 2^20, got " + nics);
        }
        // the same bound on the fabric side, so that build() cannot be asked for billions of nodes or links
        Parameters.inRange("spines", spines, 1, 1 << 20);
        long uplinks = (long) leaves * spines * parallelLinks;
        if (uplinks > 1 << 22) {
            throw new IllegalArgumentException("leaves * spines * parallelLinks (the uplinks) must be at most 2^22, got "
                    + leaves + " * " + spines + " * " + parallelLinks + " = " + uplinks);
        }
    }

    /** The highest uplink rate {@link #withSpeedup} derives, bit/s (1 Pbit/s, as {@code IncastBounds}). */
    public static final double MAX_UPLINK_RATE = 1e15;

    /**
     * A leaf-spine whose uplink rate is derived from a target leaf speedup:
     * {@code uplinkRate = round(speedup * nicsPerLeaf * hostRate / (spines * parallelLinks))}.
     *
     * @param speedup uplink over downlink capacity of a leaf, positive, at most what gives an uplink rate of
     *        {@link #MAX_UPLINK_RATE}
     */
    public static LeafSpine withSpeedup(int servers, int nicsPerServer, int leaves, int spines, long hostRateBitsPerSecond,
            double speedup, int parallelLinks, long hostPropagationPs, long fabricPropagationPs) {
        Parameters.positive("speedup", speedup);
        Parameters.atLeast("leaves", leaves, 1);
        Parameters.atLeast("spines", spines, 1);
        Parameters.atLeast("parallelLinks", parallelLinks, 1);
        long nicsPerLeaf = (long) servers * nicsPerServer / leaves;
        double perSpeedup = nicsPerLeaf * (double) hostRateBitsPerSecond / ((double) spines * parallelLinks);
        double maxSpeedup = MAX_UPLINK_RATE / perSpeedup;
        if (speedup > maxSpeedup) {
            throw new IllegalArgumentException("speedup must be at most " + maxSpeedup + " (an uplink rate of at most "
                    + (long) MAX_UPLINK_RATE + " bit/s, 1 Pbit/s, for " + nicsPerLeaf + " NICs per leaf at "
                    + hostRateBitsPerSecond + " bit/s over " + spines + " spines x " + parallelLinks + " links), got " + speedup);
        }
        long up = Math.round(speedup * perSpeedup);
        return new LeafSpine(servers, nicsPerServer, leaves, spines, hostRateBitsPerSecond, up, parallelLinks,
                hostPropagationPs, fabricPropagationPs);
    }

    /** Total host NICs. */
    public int hosts() {
        return servers * nicsPerServer;
    }

    /** NICs (downlinks) per leaf. */
    public int nicsPerLeaf() {
        return hosts() / leaves;
    }

    /** Leaf holding host NIC {@code host}, 0 to {@code hosts() - 1}. */
    public int leafOf(int host) {
        Parameters.inRange("host", host, 0, hosts() - 1);
        return host / nicsPerLeaf();
    }

    /** Uplink over downlink capacity of a leaf. */
    public double speedup() {
        return (double) spines * parallelLinks * uplinkRateBitsPerSecond / ((double) nicsPerLeaf() * hostRateBitsPerSecond);
    }

    /** Switch index (not node index) of leaf {@code l}: leaves are switches 0..leaves-1. */
    public int leafSwitch(int l) {
        Parameters.inRange("l", l, 0, leaves - 1);
        return l;
    }

    /** Switch index of spine {@code s}: spines are switches leaves..leaves+spines-1. */
    public int spineSwitch(int s) {
        Parameters.inRange("s", s, 0, spines - 1);
        return leaves + s;
    }

    /**
     * Index in {@code build().links()} of the {@code parallel}-th link between leaf {@code leaf} and
     * spine {@code spine} (for {@code Scenario.Builder.failLink} in the packet simulator).
     */
    public int uplinkIndex(int leaf, int spine, int parallel) {
        Parameters.inRange("leaf", leaf, 0, leaves - 1);
        Parameters.inRange("spine", spine, 0, spines - 1);
        Parameters.inRange("parallel", parallel, 0, parallelLinks - 1);
        return hosts() + (leaf * spines + spine) * parallelLinks + parallel;
    }

    /**
     * The graph. Links are listed host links first (host order), then for each leaf, for each
     * spine, the parallel links, so a leaf's uplink ports are ordered by (spine, parallel index).
     */
    public Topology build() {
        int h = hosts();
        List<LinkSpec> links = new ArrayList<>();
        for (int g = 0; g < h; g++) {
            links.add(new LinkSpec(g, h + leafOf(g), hostRateBitsPerSecond, hostPropagationPs));
        }
        for (int l = 0; l < leaves; l++) {
            for (int s = 0; s < spines; s++) {
                for (int p = 0; p < parallelLinks; p++) {
                    links.add(new LinkSpec(h + l, h + leaves + s, uplinkRateBitsPerSecond, fabricPropagationPs));
                }
            }
        }
        List<Integer> tiers = new ArrayList<>(Collections.nCopies(leaves, 0));
        tiers.addAll(Collections.nCopies(spines, 1));
        return new Topology("leaf-spine " + leaves + "x" + spines + ", " + h + " hosts, speedup "
                + String.format(java.util.Locale.ROOT, "%.3g", speedup()), h, leaves + spines, links, tiers);
    }

    /**
     * A builder with named settings. Required: {@code servers}, {@code leaves}, {@code spines},
     * {@code hostRateBitsPerSecond} and either {@code uplinkRateBitsPerSecond} or {@code speedup}. Defaults: one NIC
     * per server, one link per leaf-spine pair, 1 us propagation on host and fabric links.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** Collects a leaf-spine's settings by name; {@link #build()} validates them. */
    public static final class Builder {
        private Integer servers;
        private int nicsPerServer = 1;
        private Integer leaves;
        private Integer spines;
        private Long hostRateBitsPerSecond;
        private Long uplinkRateBitsPerSecond;
        private Double speedup;
        private int parallelLinks = 1;
        private long hostPropagationPs = Time.US;
        private long fabricPropagationPs = Time.US;

        private Builder() {
        }

        /** Number of servers (required). */
        public Builder servers(int n) {
            this.servers = n;
            return this;
        }

        /** NICs per server, each on its own leaf port (default 1). */
        public Builder nicsPerServer(int n) {
            this.nicsPerServer = n;
            return this;
        }

        /** Number of leaf switches; must divide servers x NICs (required). */
        public Builder leaves(int n) {
            this.leaves = n;
            return this;
        }

        /** Number of spine switches (required). */
        public Builder spines(int n) {
            this.spines = n;
            return this;
        }

        /** NIC-to-leaf link rate [bit/s] (required). */
        public Builder hostRateBitsPerSecond(long bitsPerSecond) {
            this.hostRateBitsPerSecond = bitsPerSecond;
            return this;
        }

        /** Leaf-to-spine link rate [bit/s] (this or {@link #speedup}). */
        public Builder uplinkRateBitsPerSecond(long bitsPerSecond) {
            this.uplinkRateBitsPerSecond = bitsPerSecond;
            return this;
        }

        /** Leaf speedup, uplink over downlink capacity; sets the uplink rate as {@link LeafSpine#withSpeedup} does. */
        public Builder speedup(double s) {
            this.speedup = Parameters.positive("s (speedup)", s);
            return this;
        }

        /** Links between each leaf-spine pair (default 1). */
        public Builder parallelLinks(int n) {
            this.parallelLinks = n;
            return this;
        }

        /** NIC-to-leaf propagation delay [ps] (default 1 us). */
        public Builder hostPropagationPs(long ps) {
            this.hostPropagationPs = ps;
            return this;
        }

        /** Leaf-to-spine propagation delay [ps] (default 1 us). */
        public Builder fabricPropagationPs(long ps) {
            this.fabricPropagationPs = ps;
            return this;
        }

        /** The leaf-spine; fails naming the first missing or invalid setting. */
        public LeafSpine build() {
            String missing = servers == null ? "servers" : leaves == null ? "leaves" : spines == null ? "spines"
                    : hostRateBitsPerSecond == null ? "hostRateBitsPerSecond" : null;
            if (missing != null) {
                throw new IllegalStateException(missing + " is required: set it with " + missing + "(...)");
            }
            if ((uplinkRateBitsPerSecond == null) == (speedup == null)) {
                throw new IllegalStateException("set exactly one of uplinkRateBitsPerSecond(...) and speedup(...), got "
                        + (uplinkRateBitsPerSecond == null ? "neither" : "both"));
            }
            if (speedup != null) {
                return withSpeedup(servers, nicsPerServer, leaves, spines, hostRateBitsPerSecond, speedup, parallelLinks,
                        hostPropagationPs, fabricPropagationPs);
            }
            return new LeafSpine(servers, nicsPerServer, leaves, spines, hostRateBitsPerSecond, uplinkRateBitsPerSecond, parallelLinks,
                    hostPropagationPs, fabricPropagationPs);
        }
    }
}
