package fabriclab.simulation.config;

import fabriclab.Parameters;
import fabriclab.fabric.Tier;
import fabriclab.fabric.Topology;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Which {@link SwitchBuffer} each switch has and how much each of its egress queues may hold, where they differ from
 * the run's one buffer ({@link SimulationConfig#buffer()}). Fabrics mix switch models (leaves and spines of different
 * ASICs, each with its own shared buffer) and configure queue limits per port (a switch vendor's buffer profile is
 * bound to ports and queues, as SONiC's {@code BUFFER_QUEUE} table binds a profile to {@code Ethernet0|3}); this plan
 * says so for a run:
 * <ul>
 *   <li>a switch's buffer: the {@link SwitchOverride} naming it, else the {@link TierBuffer} of its tier, else the
 *       run's buffer;</li>
 *   <li>the limit of each (port, priority) queue of a switch port: the {@link PortLimit} naming the port, else the
 *       {@link TierPortLimit} of the switch's tier and the port's {@link Facing}, else the switch buffer's
 *       {@link SwitchBuffer#perQueueLimitBytes()}.</li>
 * </ul>
 * Every packet still needs room in its switch's shared buffer too; the shared-buffer dynamic PFC thresholds read
 * each switch's own shared buffer. The empty plan ({@link #none()}) gives every switch the run's buffer.
 *
 * <p>Ports are numbered per switch in the order of the topology's links that touch it (0 first), as
 * {@code SimulationResult}'s queues and drop sites number them.
 *
 * @param tiers buffers of every switch of a tier, each tier at most once
 * @param switches buffers of single switches by node name, each switch at most once
 * @param tierPorts queue limits of the ports of a tier's switches facing one way, each (tier, facing) at most once
 * @param ports queue limits of single ports, each (switch, port) at most once
 * @param unmarked the (tier, facing) port groups that never ECN-mark, each at most once: switches configured with ECN
 *        on some ports only (the UEC reference simulator turns it off on the leaves' ports to hosts when receivers
 *        grant credit: {@code main_uec.cpp}, {@code set_ecn_parameters(true, !receiver_driven, ...)}, and
 *        {@code fat_tree_topology.cpp}, {@code alloc_queue})
 */
public record BufferPlan(List<TierBuffer> tiers, List<SwitchOverride> switches, List<TierPortLimit> tierPorts,
        List<PortLimit> ports, List<TierPorts> unmarked) {
    private static final BufferPlan NONE = new BufferPlan(List.of(), List.of(), List.of(), List.of(), List.of());

    /**
     * The ports of {@code tier}'s switches that face {@code facing}, e.g. every leaf's host ports.
     *
     * @param tier a switch tier (not {@link Tier#HOST})
     * @param facing the ports' direction
     */
    public record TierPorts(Tier tier, Facing facing) {
        /** Validates: a switch tier, a facing. */
        public TierPorts {
            switchTier("tier", tier);
            Parameters.notNull("facing", facing);
        }
    }

    /** No port group without ECN: every port marks as its switch's buffer says. */
    public BufferPlan(List<TierBuffer> tiers, List<SwitchOverride> switches, List<TierPortLimit> tierPorts,
            List<PortLimit> ports) {
        this(tiers, switches, tierPorts, ports, List.of());
    }

    /** Which way a switch port faces: toward the hosts or toward the higher tiers. */
    public enum Facing {
        /** Toward a host or a switch of a lower tier (a leaf's host ports, a spine's leaf ports). */
        DOWN,
        /** Toward a switch of a higher tier (a leaf's spine ports). */
        UP
    }

    /**
     * Every switch of {@code tier} has {@code buffer}.
     *
     * @param tier a switch tier (not {@link Tier#HOST})
     * @param buffer the buffer of each of those switches
     */
    public record TierBuffer(Tier tier, SwitchBuffer buffer) {
        /** Validates: a switch tier, a buffer. */
        public TierBuffer {
            switchTier("tier", tier);
            Parameters.notNull("buffer", buffer);
        }
    }

    /**
     * The switch named {@code name} (its node name, e.g. {@code "spine3"}) has {@code buffer}.
     *
     * @param name node name of a switch, not blank
     * @param buffer its buffer
     */
    public record SwitchOverride(String name, SwitchBuffer buffer) {
        /** Validates: a name, a buffer. */
        public SwitchOverride {
            Parameters.notBlank("name", name);
            Parameters.notNull("buffer", buffer);
        }
    }

    /**
     * Each (port, priority) queue of the ports of {@code tier}'s switches that face {@code facing} holds at most
     * {@code queueLimitBytes} (tail drop above), e.g. every leaf's host ports.
     *
     * @param tier a switch tier (not {@link Tier#HOST})
     * @param facing the ports' direction
     * @param queueLimitBytes limit of each queue of those ports [bytes], at least 1 (one packet: checked with the
     *        run's packet size), at most each of those switches' shared buffer (checked with the topology)
     */
    public record TierPortLimit(Tier tier, Facing facing, long queueLimitBytes) {
        /** Validates: a switch tier, a facing, a positive limit. */
        public TierPortLimit {
            switchTier("tier", tier);
            Parameters.notNull("facing", facing);
            Parameters.atLeast("queueLimitBytes", queueLimitBytes, 1L);
        }
    }

    /**
     * Each (port, priority) queue of port {@code port} of switch {@code name} holds at most {@code queueLimitBytes}
     * (tail drop above).
     *
     * @param name node name of a switch, not blank
     * @param port the port's index on that switch, at least 0 (below its port count: checked with the topology)
     * @param queueLimitBytes limit of each queue of the port [bytes], at least 1 (one packet: checked with the run's
     *        packet size), at most the switch's shared buffer (checked with the topology)
     */
    public record PortLimit(String name, int port, long queueLimitBytes) {
        /** Validates: a name, a port index, a positive limit. */
        public PortLimit {
            Parameters.notBlank("name", name);
            Parameters.atLeast("port", port, 0);
            Parameters.atLeast("queueLimitBytes", queueLimitBytes, 1L);
        }
    }

    /** Validates and copies: no null elements, no tier, switch, (tier, facing) or port given twice. */
    public BufferPlan {
        tiers = List.copyOf(Parameters.noNullElements("tiers", tiers));
        switches = List.copyOf(Parameters.noNullElements("switches", switches));
        tierPorts = List.copyOf(Parameters.noNullElements("tierPorts", tierPorts));
        ports = List.copyOf(Parameters.noNullElements("ports", ports));
        unmarked = List.copyOf(Parameters.noNullElements("unmarked", unmarked));
        once("tiers", tiers.stream().map(t -> t.tier().name()).toList());
        once("switches", switches.stream().map(SwitchOverride::name).toList());
        once("tierPorts", tierPorts.stream().map(t -> t.tier() + " " + t.facing()).toList());
        once("ports", ports.stream().map(p -> p.name() + " port " + p.port()).toList());
        once("unmarked", unmarked.stream().map(t -> t.tier() + " " + t.facing()).toList());
    }

    /** The empty plan: every switch has the run's buffer and its queue limit at every port. */
    public static BufferPlan none() {
        return NONE;
    }

    /** Whether this plan changes nothing. */
    public boolean isEmpty() {
        return tiers.isEmpty() && switches.isEmpty() && tierPorts.isEmpty() && ports.isEmpty() && unmarked.isEmpty();
    }

    /** This plan with every switch of {@code tier} given {@code buffer} (fails if the plan gives that tier already). */
    public BufferPlan withTier(Tier tier, SwitchBuffer buffer) {
        return new BufferPlan(plus(tiers, new TierBuffer(tier, buffer)), switches, tierPorts, ports, unmarked);
    }

    /** This plan with switch {@code name} given {@code buffer} (fails if the plan gives that switch already). */
    public BufferPlan withSwitch(String name, SwitchBuffer buffer) {
        return new BufferPlan(tiers, plus(switches, new SwitchOverride(name, buffer)), tierPorts, ports, unmarked);
    }

    /** This plan with the queues of {@code tier}'s ports facing {@code facing} limited to {@code queueLimitBytes}. */
    public BufferPlan withPortLimit(Tier tier, Facing facing, long queueLimitBytes) {
        return new BufferPlan(tiers, switches, plus(tierPorts, new TierPortLimit(tier, facing, queueLimitBytes)), ports,
                unmarked);
    }

    /** This plan with the queues of port {@code port} of switch {@code name} limited to {@code queueLimitBytes}. */
    public BufferPlan withPortLimit(String name, int port, long queueLimitBytes) {
        return new BufferPlan(tiers, switches, tierPorts, plus(ports, new PortLimit(name, port, queueLimitBytes)),
                unmarked);
    }

    /**
     * This plan with the ports of {@code tier}'s switches that face {@code facing} never ECN-marking (fails if the
     * plan names that group already).
     */
    public BufferPlan withoutEcnMarking(Tier tier, Facing facing) {
        return new BufferPlan(tiers, switches, tierPorts, ports, plus(unmarked, new TierPorts(tier, facing)));
    }

    /**
     * Whether the port of switch {@code switchIndex} of {@code topology} whose link leads to node {@code peerNode} may
     * ECN-mark: false for a port of a group in {@link #unmarked}.
     */
    public boolean marksEcn(Topology topology, int switchIndex, int peerNode) {
        Parameters.notNull("topology", topology);
        Parameters.inRange("switchIndex", switchIndex, 0, topology.switches() - 1);
        Parameters.inRange("peerNode", peerNode, 0, topology.nodes() - 1);
        if (unmarked.isEmpty()) {
            return true;
        }
        int node = topology.switchNode(switchIndex);
        Tier tier = topology.tier(node);
        Facing facing = facing(topology, node, peerNode);
        for (TierPorts t : unmarked) {
            if (t.tier() == tier && t.facing() == facing) {
                return false;
            }
        }
        return true;
    }

    /**
     * This plan's switch buffers passed through {@code f} (the queue limits unchanged): a plan of buffer sizes given
     * the marking of a transport, for example.
     */
    public BufferPlan mapBuffers(UnaryOperator<SwitchBuffer> f) {
        Parameters.notNull("f", f);
        return new BufferPlan(tiers.stream().map(t -> new TierBuffer(t.tier(), f.apply(t.buffer()))).toList(),
                switches.stream().map(s -> new SwitchOverride(s.name(), f.apply(s.buffer()))).toList(), tierPorts, ports,
                unmarked);
    }

    /**
     * The buffer of switch {@code switchIndex} of {@code topology}: its {@link SwitchOverride}, else its tier's
     * {@link TierBuffer}, else {@code runBuffer}.
     */
    public SwitchBuffer bufferOf(Topology topology, int switchIndex, SwitchBuffer runBuffer) {
        Parameters.notNull("topology", topology);
        Parameters.inRange("switchIndex", switchIndex, 0, topology.switches() - 1);
        Parameters.notNull("runBuffer", runBuffer);
        if (isEmpty()) {
            return runBuffer;
        }
        int node = topology.switchNode(switchIndex);
        String name = topology.nodeName(node);
        for (SwitchOverride s : switches) {
            if (s.name().equals(name)) {
                return s.buffer();
            }
        }
        Tier tier = topology.tier(node);
        for (TierBuffer t : tiers) {
            if (t.tier() == tier) {
                return t.buffer();
            }
        }
        return runBuffer;
    }

    /**
     * The limit of each (port, priority) queue of port {@code port} of switch {@code switchIndex}, whose link leads to
     * node {@code peerNode} [bytes]: its {@link PortLimit}, else the {@link TierPortLimit} of the switch's tier and
     * the port's facing, else {@code switchBuffer.perQueueLimitBytes()} ({@code switchBuffer}: the switch's buffer,
     * {@link #bufferOf}).
     */
    public long queueLimitBytes(Topology topology, int switchIndex, int port, int peerNode, SwitchBuffer switchBuffer) {
        Parameters.notNull("topology", topology);
        Parameters.inRange("switchIndex", switchIndex, 0, topology.switches() - 1);
        Parameters.atLeast("port", port, 0);
        Parameters.inRange("peerNode", peerNode, 0, topology.nodes() - 1);
        Parameters.notNull("switchBuffer", switchBuffer);
        if (tierPorts.isEmpty() && ports.isEmpty()) {
            return switchBuffer.perQueueLimitBytes();
        }
        int node = topology.switchNode(switchIndex);
        String name = topology.nodeName(node);
        for (PortLimit p : ports) {
            if (p.port() == port && p.name().equals(name)) {
                return p.queueLimitBytes();
            }
        }
        Tier tier = topology.tier(node);
        Facing facing = facing(topology, node, peerNode);
        for (TierPortLimit t : tierPorts) {
            if (t.tier() == tier && t.facing() == facing) {
                return t.queueLimitBytes();
            }
        }
        return switchBuffer.perQueueLimitBytes();
    }

    /**
     * Which way the port of switch node {@code switchNode} whose link leads to node {@code peerNode} faces:
     * {@link Facing#DOWN} toward a host or a lower tier, {@link Facing#UP} toward a higher tier, null toward a switch
     * of the same tier (such a port takes no {@link TierPortLimit}).
     */
    public static Facing facing(Topology topology, int switchNode, int peerNode) {
        Parameters.notNull("topology", topology);
        Parameters.inRange("switchNode", switchNode, topology.hosts(), topology.nodes() - 1);
        Parameters.inRange("peerNode", peerNode, 0, topology.nodes() - 1);
        Tier own = topology.tier(switchNode);
        Tier peer = topology.tier(peerNode);
        if (!peer.isSwitch() || peer.level() < own.level()) {
            return Facing.DOWN;
        }
        return peer.level() > own.level() ? Facing.UP : null;
    }

    /**
     * Checks this plan against {@code topology} with the run's buffer {@code runBuffer}: every tier has switches (and
     * every {@link TierPortLimit} ports facing its way), every name is a switch's, every port exists, and every queue
     * limit is at most the shared buffer of each switch it applies to. Messages name the entry as
     * {@code bufferPlan.<list>[i].<field>}, its value and what is allowed.
     *
     * @throws IllegalArgumentException at the first entry that does not fit
     */
    public void check(Topology topology, SwitchBuffer runBuffer) {
        Parameters.notNull("topology", topology);
        Parameters.notNull("runBuffer", runBuffer);
        if (isEmpty()) {
            return;
        }
        for (int i = 0; i < tiers.size(); i++) {
            String why = tierProblem(topology, tiers.get(i).tier());
            if (why != null) {
                throw new IllegalArgumentException("bufferPlan.tiers[" + i + "].tier " + why + ", got " + tiers.get(i).tier());
            }
        }
        for (int i = 0; i < switches.size(); i++) {
            String why = switchProblem(topology, switches.get(i).name());
            if (why != null) {
                throw new IllegalArgumentException("bufferPlan.switches[" + i + "].name " + why + ", got \""
                        + switches.get(i).name() + "\"");
            }
        }
        for (int i = 0; i < tierPorts.size(); i++) {
            TierPortLimit t = tierPorts.get(i);
            String why = tierPortsProblem(topology, t.tier(), t.facing());
            if (why != null) {
                throw new IllegalArgumentException("bufferPlan.tierPorts[" + i + "] " + why + ", got " + t.tier() + " "
                        + t.facing());
            }
            why = tierLimitProblem(topology, runBuffer, t.tier(), t.queueLimitBytes());
            if (why != null) {
                throw new IllegalArgumentException("bufferPlan.tierPorts[" + i + "].queueLimitBytes " + why + ", got "
                        + t.queueLimitBytes());
            }
        }
        for (int i = 0; i < unmarked.size(); i++) {
            TierPorts t = unmarked.get(i);
            String why = tierPortsProblem(topology, t.tier(), t.facing());
            if (why != null) {
                throw new IllegalArgumentException("bufferPlan.unmarked[" + i + "] " + why + ", got " + t.tier() + " "
                        + t.facing());
            }
        }
        for (int i = 0; i < ports.size(); i++) {
            PortLimit p = ports.get(i);
            String why = switchProblem(topology, p.name());
            if (why != null) {
                throw new IllegalArgumentException("bufferPlan.ports[" + i + "].name " + why + ", got \"" + p.name() + "\"");
            }
            why = portProblem(topology, p.name(), p.port());
            if (why != null) {
                throw new IllegalArgumentException("bufferPlan.ports[" + i + "].port " + why + ", got " + p.port());
            }
            why = switchLimitProblem(topology, runBuffer, p.name(), p.queueLimitBytes());
            if (why != null) {
                throw new IllegalArgumentException("bufferPlan.ports[" + i + "].queueLimitBytes " + why + ", got "
                        + p.queueLimitBytes());
            }
        }
    }

    /** The smallest shared buffer of any switch of {@code topology} under this plan [bytes], and whose it is. */
    public Smallest smallestShared(Topology topology, SwitchBuffer runBuffer) {
        Parameters.notNull("topology", topology);
        Parameters.notNull("runBuffer", runBuffer);
        if (isEmpty() || topology.switches() == 0) {
            return new Smallest(runBuffer.sharedBytes(), topology.switches() == 0 ? "" : topology.nodeName(topology.hosts()));
        }
        long least = Long.MAX_VALUE;
        int at = -1;
        for (int s = 0; s < topology.switches(); s++) {
            long b = bufferOf(topology, s, runBuffer).sharedBytes();
            if (b < least) {
                least = b;
                at = s;
            }
        }
        return new Smallest(least, topology.nodeName(topology.switchNode(at)));
    }

    /**
     * A smallest shared buffer and the switch that has it.
     *
     * @param sharedBytes the buffer [bytes]
     * @param switchName the switch's node name (empty for a topology without switches)
     */
    public record Smallest(long sharedBytes, String switchName) {
        /** Validates: a positive size, a name. */
        public Smallest {
            Parameters.atLeast("sharedBytes", sharedBytes, 1L);
            Parameters.notNull("switchName", switchName);
        }
    }

    /**
     * Why {@code tier} is no tier of {@code topology}'s switches, written to follow the entry's name ("must be a tier
     * of ..."), or null if it is one.
     */
    public static String tierProblem(Topology topology, Tier tier) {
        Parameters.notNull("topology", topology);
        Parameters.notNull("tier", tier);
        Set<Tier> present = new java.util.TreeSet<>();
        for (int level : topology.tiers()) {
            present.add(Tier.ofLevel(level));
        }
        if (!present.contains(tier)) {
            return "must be a tier of topology \"" + topology.name() + "\" (its switch tiers: " + names(present) + ")";
        }
        return null;
    }

    /**
     * Why {@code tier}'s switches of {@code topology} have no port facing {@code facing} (or the tier is none of its),
     * written to follow the entry's name, or null if they have such ports.
     */
    public static String tierPortsProblem(Topology topology, Tier tier, Facing facing) {
        String why = tierProblem(topology, tier);
        Parameters.notNull("facing", facing);
        if (why != null) {
            return why;
        }
        Set<Facing> faced = new HashSet<>();
        int hosts = topology.hosts();
        for (fabriclab.fabric.LinkSpec l : topology.links()) {
            for (int end = 0; end < 2; end++) {
                int node = end == 0 ? l.nodeA() : l.nodeB();
                int peer = end == 0 ? l.nodeB() : l.nodeA();
                if (node >= hosts && topology.tier(node) == tier) {
                    Facing f = facing(topology, node, peer);
                    if (f != null) {
                        faced.add(f);
                    }
                }
            }
        }
        return faced.contains(facing) ? null : "must be ports of topology \"" + topology.name() + "\": its "
                + tier.name().toLowerCase(java.util.Locale.ROOT) + " switches have no port facing "
                + facing.name().toLowerCase(java.util.Locale.ROOT);
    }

    /** Why {@code name} is no switch of {@code topology} (following the entry's name), or null. */
    public static String switchProblem(Topology topology, String name) {
        Parameters.notNull("topology", topology);
        Parameters.notNull("name", name);
        if (topology.hasNode(name) && topology.tier(name).isSwitch()) {
            return null;
        }
        int n = topology.switches();
        String known = n == 0 ? "none" : n <= 8 ? String.join(", ", topology.nodeNames().subList(topology.hosts(),
                topology.nodes())) : topology.nodeName(topology.hosts()) + " ... " + topology.nodeName(topology.nodes() - 1);
        return "must name a switch of topology \"" + topology.name() + "\" (its switches: " + known + ")";
    }

    /** Number of ports of switch node {@code node}: the links that touch it. */
    public static int portCount(Topology topology, int node) {
        Parameters.notNull("topology", topology);
        Parameters.inRange("node", node, 0, topology.nodes() - 1);
        int n = 0;
        for (fabriclab.fabric.LinkSpec l : topology.links()) {
            if (l.nodeA() == node) {
                n++;
            }
            if (l.nodeB() == node) {
                n++;
            }
        }
        return n;
    }

    /** Why switch {@code name} has no port {@code port}, or is no switch (following the entry's name), or null. */
    public static String portProblem(Topology topology, String name, int port) {
        String notSwitch = switchProblem(topology, name);
        if (notSwitch != null) {
            return notSwitch;
        }
        int count = portCount(topology, topology.nodeIndex(name));
        return port >= 0 && port < count ? null : "must be a port of " + name + ", in [0, " + (count - 1) + "]";
    }

    /**
     * Why queue limit {@code bytes} exceeds the shared buffer of a switch of {@code tier} under this plan with the run's
     * buffer {@code runBuffer} (following the entry's name), or null.
     */
    public String tierLimitProblem(Topology topology, SwitchBuffer runBuffer, Tier tier, long bytes) {
        Parameters.notNull("tier", tier);
        return limitProblem(topology, runBuffer, tier, null, bytes);
    }

    /**
     * Why queue limit {@code bytes} exceeds the shared buffer of switch {@code name} under this plan with the run's
     * buffer {@code runBuffer} (following the entry's name), or null.
     */
    public String switchLimitProblem(Topology topology, SwitchBuffer runBuffer, String name, long bytes) {
        Parameters.notNull("name", name);
        return limitProblem(topology, runBuffer, null, name, bytes);
    }

    private String limitProblem(Topology topology, SwitchBuffer runBuffer, Tier tier, String name, long bytes) {
        Parameters.notNull("topology", topology);
        Parameters.notNull("runBuffer", runBuffer);
        for (int s = 0; s < topology.switches(); s++) {
            int node = topology.switchNode(s);
            if (tier != null ? topology.tier(node) == tier : topology.nodeName(node).equals(name)) {
                long shared = bufferOf(topology, s, runBuffer).sharedBytes();
                if (bytes > shared) {
                    return "must be at most the shared buffer of " + topology.nodeName(node) + ", " + shared + " B";
                }
            }
        }
        return null;
    }

    private static String names(Set<Tier> tiers) {
        return String.join(", ", tiers.stream().map(t -> t.name().toLowerCase(java.util.Locale.ROOT)).toList());
    }

    private static Tier switchTier(String name, Tier tier) {
        Parameters.notNull(name, tier);
        if (!tier.isSwitch()) {
            throw new IllegalArgumentException(name + " must be a switch tier (LEAF, SPINE or CORE), got " + tier);
        }
        return tier;
    }

    private static void once(String name, List<String> keys) {
        Set<String> seen = new HashSet<>();
        for (String k : keys) {
            if (!seen.add(k)) {
                throw new IllegalArgumentException(name + " must give each entry once, got " + k + " twice");
            }
        }
    }

    private static <E> List<E> plus(List<E> list, E e) {
        List<E> r = new ArrayList<>(list);
        r.add(e);
        return r;
    }
}
