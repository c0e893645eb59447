package fabriclab.simulation;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.PfcWatchdog;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.Parameters;
import fabriclab.container.DelayModel;
import fabriclab.fabric.Incast;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcDynamicThreshold;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Everything a packet-level run needs, as one immutable description: the fabric, the run
 * configuration, the flows and the order they may start in, the transport, PFC, link failures and
 * fabric jitter. A simulator ({@code new Simulator(scenario)}) is built from it and nothing changes the
 * simulator afterwards; the same scenario can be run any number of times (each new simulator is a fresh run,
 * and the same scenario always gives the same result). The scenario does not know the simulator. Build one with {@link #builder}, or with the
 * factories for the fixed workloads ({@link #incast}, {@link #permutation}) and then
 * {@link #toBuilder()} to change it.
 *
 * @param name description
 * @param topology the fabric
 * @param config run configuration (packet sizes, priorities, buffer and ECN marking, forwarding, seed, sampling)
 * @param flows the flows, indexed in list order (each on {@link FlowSpec#queuePairs()} queue pairs, numbered in
 *        flow-major order: {@link #firstQueuePair}), each starting at most at {@link #MAX_START_PS}
 * @param dependencies flows that wait for other flows to be completely received before they start
 * @param transport the transport every flow uses
 * @param pfc priority flow control in every switch, or null for none
 * @param failures links that fail during the run
 * @param fabricJitter extra random delay per switch-to-switch link crossing [s], or null for none; its support within
 *        [0, {@link LinkSpec#MAX_PROPAGATION_PS}]
 * @param routes flows pinned to a given path through the switches (the others follow {@link fabriclab.simulation.config.Forwarding})
 * @param pfcWatchdog PFC deadlock detection and recovery in every port, or null for none
 * @param hookPriority the priority a leaf gives to a packet it receives from a switch and forwards to a
 *        switch (a "hook" flow bouncing through the leaf, seed 003 section 4.1.4), or -1 for none
 * @param pfcDynamicThreshold alpha-based XOFF/XON of every switch's PFC in place of {@code pfc}'s static ones
 *        ({@link PfcDynamicThreshold}), or null for the static thresholds; needs {@code pfc}
 * @param tieOrder the order of simultaneous events on the sequential engine ({@link TieOrder#CANONICAL}, the engines'
 *        one rule, unless a builder says otherwise; the parallel engine runs {@link TieOrder#CANONICAL} only)
 */
public record Scenario(String name, Topology topology, SimulationConfig config, List<FlowSpec> flows,
        List<Dependency> dependencies, TransportModel transport, Pfc pfc, List<LinkFailure> failures,
        DelayModel fabricJitter, List<Route> routes, PfcWatchdog pfcWatchdog, int hookPriority,
        PfcDynamicThreshold pfcDynamicThreshold, TieOrder tieOrder) {
    /**
     * The latest start of a flow, 2^62 ps (53 days of simulated time): the rest of a long of picoseconds, as much again,
     * is the room its run has.
     */
    public static final long MAX_START_PS = 1L << 62;

    /**
     * Flow {@code flow} starts only when every flow in {@code predecessors} has been completely
     * received, all of its queue pairs (and not before its own {@link FlowSpec#startPs()}): the dependency of a
     * collective's step on the data of the step before. All of {@code flow}'s queue pairs start then.
     *
     * @param flow flow index
     * @param predecessors flow indices, none equal to {@code flow}
     */
    public record Dependency(int flow, List<Integer> predecessors) {
        /** Validates and copies. */
        public Dependency {
            Parameters.atLeast("flow", flow, 0);
            predecessors = List.copyOf(Parameters.noNullElements("predecessors", predecessors));
            for (int p : predecessors) {
                Parameters.atLeast("predecessors[]", p, 0);
                if (p == flow) {
                    throw new IllegalArgumentException("predecessors must not contain the flow itself (" + flow + ")");
                }
            }
        }
    }

    /**
     * Link {@code link} (index into {@code topology.links()}) fails in both directions at
     * {@code failPs}, and leaves every switch's routes at {@code reroutePs}. At {@code failPs}
     * packets queued for the link or propagating on it are dropped (and counted). At
     * {@code reroutePs} every switch recomputes its shortest-path candidates without the link and
     * ECMP re-hashes every flow over the remaining members. The two times model the two ways 002
     * section 3.3 contrasts:
     * <ul>
     *   <li>{@code reroutePs > failPs}: a detected failure (RoCE fabric): between failure and
     *       re-convergence the switches keep hashing flows onto the dead link and those packets are
     *       black-holed (dropped and counted at the dead port), so transports must recover them;</li>
     *   <li>{@code reroutePs <= failPs}: a predicted failure (GSE's FEC monitoring announces a link
     *       about to fail in PHY codes): traffic leaves the link before it dies and, given time to
     *       drain its queue, nothing is lost.</li>
     * </ul>
     * At equal times the failure comes first, then the reroute.
     *
     * @param link link index, not negative
     * @param failPs failure time [ps], not negative
     * @param reroutePs time the routes stop using the link [ps], not negative
     */
    public record LinkFailure(int link, long failPs, long reroutePs) {
        /** Validates. */
        public LinkFailure {
            Parameters.atLeast("link", link, 0);
            Parameters.atLeast("failPs", failPs, 0L);
            Parameters.atLeast("reroutePs", reroutePs, 0L);
        }
    }

    /**
     * Flow {@code flow} follows the given switches, in order, whatever the routing tables say (its
     * replies travel the same switches backwards); every queue pair of the flow does. This is how a path that shortest-path routing
     * would never choose is set up, such as a flow that bounces through a leaf after a link failure
     * (seed 003 figure 19). Consecutive switches must be joined by a link (the first one in link
     * order that is up is used); the first switch must be the source host's, the last the
     * destination host's (checked by the simulator); no switch may appear twice.
     *
     * @param flow flow index
     * @param switchNodes node indices of the switches on the path (topology numbering: hosts first)
     */
    public record Route(int flow, List<Integer> switchNodes) {
        /** Validates and copies. */
        public Route {
            Parameters.atLeast("flow", flow, 0);
            switchNodes = List.copyOf(Parameters.noNullElements("switchNodes", switchNodes));
            if (switchNodes.isEmpty()) {
                throw new IllegalArgumentException("switchNodes must name at least one switch, got none");
            }
            if (switchNodes.stream().distinct().count() != switchNodes.size()) {
                throw new IllegalArgumentException("switchNodes must not repeat a switch, got " + switchNodes);
            }
        }
    }

    /** Validates everything that can be checked without routing (paths are checked by the simulator). */
    public Scenario {
        Parameters.notBlank("name", name);
        Parameters.notNull("topology", topology);
        Parameters.notNull("config", config);
        flows = List.copyOf(Parameters.noNullElements("flows", flows));
        dependencies = List.copyOf(Parameters.noNullElements("dependencies", dependencies));
        Parameters.notNull("transport", transport);
        Parameters.notNull("tieOrder", tieOrder);
        failures = List.copyOf(Parameters.noNullElements("failures", failures));
        int hosts = topology.hosts();
        long queuePairTotal = 0;
        for (int i = 0; i < flows.size(); i++) {
            FlowSpec f = flows.get(i); // not null: checked above
            if (f.source() >= hosts || f.destination() >= hosts) {
                throw new IllegalArgumentException("flows[" + i + "] must use hosts in [0, " + hosts + "), got "
                        + f.source() + " -> " + f.destination());
            }
            if (f.startPs() > MAX_START_PS) {
                throw new IllegalArgumentException("flows[" + i + "].startPs must be at most 2^62 ps (" + MAX_START_PS
                        + ", 53 days: later starts leave a run no room in a long of picoseconds), got " + f.startPs());
            }
            if (f.priority() >= config.priorities()) {
                throw new IllegalArgumentException("flows[" + i + "].priority must be below config.priorities = "
                        + config.priorities() + ", got " + f.priority());
            }
            queuePairTotal += f.queuePairs();
        }
        if (queuePairTotal > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("flows must have at most " + (Integer.MAX_VALUE - 8)
                    + " queue pairs in all, got " + queuePairTotal);
        }
        for (Dependency d : dependencies) {
            Parameters.inRange("dependencies[].flow", d.flow(), 0, flows.size() - 1);
            for (int p : d.predecessors()) {
                Parameters.inRange("dependencies[].predecessors[]", p, 0, flows.size() - 1);
            }
        }
        config.bufferPlan().check(topology, config.buffer());
        // PFC's thresholds must fit the smallest switch buffer (the run's buffer when the plan gives none other)
        fabriclab.simulation.config.BufferPlan.Smallest smallest = config.bufferPlan().smallestShared(topology,
                config.buffer());
        String bufferName = config.bufferPlan().isEmpty() ? "buffer.sharedBytes"
                : "the shared buffer of switch " + smallest.switchName() + " (the smallest)";
        if (pfc != null) {
            long buffer = smallest.sharedBytes();
            if (pfc.xoffBytes() > buffer) {
                throw new IllegalArgumentException("pfc.xoffBytes must be at most " + bufferName + " = " + buffer + ", got "
                        + pfc.xoffBytes());
            }
            if (pfc.headroomBytes() > buffer - pfc.xoffBytes()) { // (not xoff + headroom: it may overflow)
                throw new IllegalArgumentException("pfc.headroomBytes must be at most " + bufferName + " - pfc.xoffBytes = "
                        + (buffer - pfc.xoffBytes()) + ", got " + pfc.headroomBytes());
            }
        }
        if (pfcDynamicThreshold != null) {
            if (pfc == null) {
                throw new IllegalArgumentException("pfcDynamicThreshold needs pfc (its headroom and pause time), got pfc = null");
            }
            long buffer = smallest.sharedBytes();
            if (pfcDynamicThreshold.xoffBytes(buffer) <= pfcDynamicThreshold.xonOffsetBytes()) {
                throw new IllegalArgumentException("pfcDynamicThreshold.xonOffsetBytes must be below alpha * " + bufferName
                        + " = " + pfcDynamicThreshold.xoffBytes(buffer) + " (else a paused port could never resume), got "
                        + pfcDynamicThreshold.xonOffsetBytes());
            }
        }
        for (LinkFailure l : failures) {
            Parameters.inRange("failures[].link", l.link(), 0, topology.links().size() - 1);
        }
        routes = List.copyOf(Parameters.noNullElements("routes", routes));
        java.util.Set<Integer> routed = new java.util.HashSet<>();
        for (Route r : routes) {
            Parameters.inRange("routes[].flow", r.flow(), 0, flows.size() - 1);
            if (!routed.add(r.flow())) {
                throw new IllegalArgumentException("routes must pin each flow at most once, flow " + r.flow() + " is pinned twice");
            }
            for (int n : r.switchNodes()) {
                Parameters.inRange("routes[].switchNodes[]", n, hosts, topology.nodes() - 1);
            }
        }
        Parameters.inRange("hookPriority", hookPriority, -1, config.priorities() - 1);
        if (fabricJitter != null && fabricJitter.support()[0] < 0) {
            throw new IllegalArgumentException("fabricJitter must not produce negative delays: its support starts at "
                    + fabricJitter.support()[0] + " s (use a mean of at least about 8 standard deviations)");
        }
        if (fabricJitter != null && !(fabricJitter.support()[1] <= LinkSpec.MAX_PROPAGATION_PS / (double) Time.S)) {
            throw new IllegalArgumentException("fabricJitter must add at most " + LinkSpec.MAX_PROPAGATION_PS / Time.S
                    + " s per link crossing (a link's longest propagation delay): its support ends at "
                    + fabricJitter.support()[1] + " s");
        }
    }

    /**
     * The queue-pair index of flow {@code flow}'s first queue pair: the number of queue pairs of the flows before it.
     * Queue pair q of the flow is {@code firstQueuePair(flow) + q}, the index the trace and observer callbacks and
     * {@link SimulationResult#queuePairs()} use; equal to {@code flow} when every flow has one queue pair. Takes
     * time linear in {@code flow}.
     *
     * @param flow flow index, 0 to {@code flows().size()} (the last gives {@link #queuePairCount()})
     */
    public int firstQueuePair(int flow) {
        Parameters.inRange("flow", flow, 0, flows.size());
        int first = 0;
        for (int i = 0; i < flow; i++) {
            first += flows.get(i).queuePairs();
        }
        return first;
    }

    /**
     * The queue-pair index of queue pair {@code qp} of flow {@code flow}: {@code firstQueuePair(flow) + qp}.
     *
     * @param flow flow index, 0 to {@code flows().size() - 1}
     * @param qp queue pair of the flow, 0 to {@code flows().get(flow).queuePairs() - 1}
     */
    public int queuePairIndex(int flow, int qp) {
        Parameters.inRange("flow", flow, 0, flows.size() - 1);
        Parameters.inRange("qp", qp, 0, flows.get(flow).queuePairs() - 1);
        return firstQueuePair(flow) + qp;
    }

    /**
     * A switch whose shared buffer PFC's static thresholds cannot keep lossless. Each ingress port holds up to
     * {@code xoffBytes} before it pauses its upstream, and then still receives what was already on its way
     * ({@link fabriclab.fabric.PfcHeadroom#packetLevelBytes} for its link's rate and delay). With all of the switch's
     * ports receiving into congested egresses at once it must hold the sum of these, {@code allPortsBytes}; with one,
     * the largest, {@code onePortBytes}. A buffer below {@code allPortsBytes} is overflowed, and packets dropped, by
     * enough senders outrunning their egresses; below {@code onePortBytes}, by one sender into a paused egress.
     *
     * @param switchName the switch's name (leaf1, spine3)
     * @param sharedBytes its shared buffer [bytes]
     * @param xoffBytes the PFC XOFF threshold [bytes]
     * @param ports the switch's ports (its links)
     * @param allPortsBytes XOFF plus what arrives after the PAUSE, summed over its ports [bytes]
     * @param onePortBytes the same for its port that needs the most [bytes]
     */
    public record PfcShortfall(String switchName, long sharedBytes, long xoffBytes, int ports, long allPortsBytes,
                               long onePortBytes) {
        /** Validates: a name, positive sizes, XOFF &le; one port's need &le; all ports' need. */
        public PfcShortfall {
            Parameters.notNull("switchName", switchName);
            Parameters.atLeast("sharedBytes", sharedBytes, 1L);
            Parameters.atLeast("xoffBytes", xoffBytes, 1L);
            Parameters.atLeast("ports", ports, 1);
            Parameters.atLeast("onePortBytes", onePortBytes, xoffBytes);
            Parameters.atLeast("allPortsBytes", allPortsBytes, onePortBytes);
        }
    }

    /**
     * The first switch (in index order) whose shared buffer static PFC cannot keep lossless with all its ports
     * receiving at once ({@link PfcShortfall}), or empty: always empty without PFC or with {@link #pfcDynamicThreshold}
     * (whose XOFF moves with the free buffer). A run with a shortfall still goes; its drops are counted by place.
     */
    public java.util.Optional<PfcShortfall> pfcShortfall() {
        if (pfc == null || pfcDynamicThreshold != null) {
            return java.util.Optional.empty();
        }
        int wire = config.mtuBytes() + config.headerBytes();
        int switches = topology.switches();
        long[] all = new long[switches];
        long[] one = new long[switches];
        int[] ports = new int[switches];
        for (LinkSpec l : topology.links()) {
            long need = pfc.xoffBytes() + fabriclab.fabric.PfcHeadroom.packetLevelBytes(l.rateBitsPerSecond(),
                    Math.min(l.propagationPs(), Time.S), wire);
            for (int node : new int[] {l.nodeA(), l.nodeB()}) {
                if (node >= topology.hosts()) {
                    int sw = node - topology.hosts();
                    all[sw] = all[sw] > Long.MAX_VALUE - need ? Long.MAX_VALUE : all[sw] + need;
                    one[sw] = Math.max(one[sw], need);
                    ports[sw]++;
                }
            }
        }
        for (int sw = 0; sw < switches; sw++) {
            long shared = config.bufferPlan().bufferOf(topology, sw, config.buffer()).sharedBytes();
            if (ports[sw] > 0 && shared < all[sw]) {
                return java.util.Optional.of(new PfcShortfall(topology.nodeName(topology.switchNode(sw)), shared,
                        pfc.xoffBytes(), ports[sw], all[sw], one[sw]));
            }
        }
        return java.util.Optional.empty();
    }

    /** The queue pairs of all the flows (each flow has at least one). */
    public int queuePairCount() {
        return firstQueuePair(flows.size());
    }

    /**
     * A builder for a scenario on {@code topology} with {@code config}: no flows yet, the
     * uncontrolled transport, no PFC, no failures, no jitter.
     */
    public static Builder builder(Topology topology, SimulationConfig config) {
        return new Builder(Parameters.notNull("topology", topology), Parameters.notNull("config", config));
    }

    /** A builder holding this scenario's settings. */
    public Builder toBuilder() {
        Builder b = new Builder(topology, config).name(name).transport(transport).pfc(pfc).fabricJitter(fabricJitter)
                .pfcWatchdog(pfcWatchdog).hookPriority(hookPriority).pfcDynamicThreshold(pfcDynamicThreshold).tieOrder(tieOrder);
        b.flows.addAll(flows);
        b.dependencies.addAll(dependencies);
        b.failures.addAll(failures);
        b.routes.addAll(routes);
        return b;
    }

    /**
     * This scenario with the run's seed {@code seed} ({@link SimulationConfig#seed()}: the draws of random marking,
     * spraying and, under the engines' one order of simultaneous events, the order of ties); every other setting kept.
     *
     * @param seed the run's seed, any value
     */
    public Scenario withSeed(long seed) {
        return new Scenario(name, topology, config.withSeed(seed), flows, dependencies, transport, pfc, failures, fabricJitter,
                routes, pfcWatchdog, hookPriority, pfcDynamicThreshold, tieOrder);
    }

    /**
     * This scenario with the order of simultaneous events {@code tieOrder} ({@link TieOrder}); every other setting kept.
     *
     * @param tieOrder the sequential engine's order of simultaneous events
     */
    public Scenario withTieOrder(TieOrder tieOrder) {
        return new Scenario(name, topology, config, flows, dependencies, transport, pfc, failures, fabricJitter,
                routes, pfcWatchdog, hookPriority, pfcDynamicThreshold, Parameters.notNull("tieOrder", tieOrder));
    }

    /** Collects a scenario's settings by name; {@link #build()} validates them. Not thread-safe. */
    public static final class Builder {
        private final Topology topology;
        private final SimulationConfig config;
        private String name;
        private final List<FlowSpec> flows = new ArrayList<>();
        private final List<Dependency> dependencies = new ArrayList<>();
        private TransportModel transport = TransportModel.uncontrolled();
        private Pfc pfc;
        private final List<LinkFailure> failures = new ArrayList<>();
        private DelayModel fabricJitter;
        private final List<Route> routes = new ArrayList<>();
        private PfcWatchdog pfcWatchdog;
        private int hookPriority = -1;
        private PfcDynamicThreshold pfcDynamicThreshold;
        private int queuePairs;
        private TieOrder tieOrder = TieOrder.CANONICAL;

        private Builder(Topology topology, SimulationConfig config) {
            this.topology = topology;
            this.config = config;
            this.name = topology.name();
        }

        /** A description for tables and figures (default: the topology's name). */
        public Builder name(String name) {
            this.name = Parameters.notBlank("name", name);
            return this;
        }

        /** Adds one flow; its index is the number of flows added before it. */
        public Builder flow(FlowSpec flow) {
            flows.add(Parameters.notNull("flow", flow));
            return this;
        }

        /** Adds flows in list order. */
        public Builder flows(List<FlowSpec> more) {
            for (FlowSpec f : Parameters.noNullElements("flows", more)) {
                flow(f);
            }
            return this;
        }

        /**
         * Adds collective {@code schedule} with rank r on host {@code hostOfRank[r]}: each transfer a flow (start 0,
         * priority 0, source port from {@code sourcePort}, asked once per transfer in the schedule's order) that
         * starts when the transfers it waits for have been received ({@link #startAfter}).
         *
         * @return the index of the collective's first flow; its transfer i is flow {@code first + i}
         */
        public int collective(fabriclab.collectives.CollectiveSchedule schedule, int[] hostOfRank,
                java.util.function.IntSupplier sourcePort) {
            Parameters.notNull("schedule", schedule);
            Parameters.notNull("hostOfRank", hostOfRank);
            Parameters.notNull("sourcePort", sourcePort);
            if (hostOfRank.length != schedule.ranks()) {
                throw new IllegalArgumentException("hostOfRank must have schedule.ranks() = " + schedule.ranks()
                        + " entries, got " + hostOfRank.length);
            }
            int first = flows.size();
            for (fabriclab.collectives.CollectiveSchedule.Transfer t : schedule.transfers()) {
                flow(new FlowSpec(hostOfRank[t.from()], hostOfRank[t.to()], t.bytes(), 0, 0, sourcePort.getAsInt()));
            }
            for (int i = 0; i < schedule.transfers().size(); i++) {
                int[] after = schedule.transfers().get(i).after().clone();
                if (after.length > 0) {
                    for (int k = 0; k < after.length; k++) {
                        after[k] += first;
                    }
                    startAfter(first + i, after);
                }
            }
            return first;
        }

        /** Flow {@code flow} waits until every flow in {@code predecessors} has been received; see {@link Dependency}. */
        public Builder startAfter(int flow, int... predecessors) {
            Parameters.notNull("predecessors", predecessors);
            dependencies.add(new Dependency(flow, Arrays.stream(predecessors).boxed().toList()));
            return this;
        }

        /** The transport every flow uses (default {@link TransportModel#uncontrolled()}). */
        public Builder transport(TransportModel model) {
            this.transport = Parameters.notNull("model", model);
            return this;
        }

        /**
         * Priority flow control (IEEE 802.1Qbb) in every switch, for every priority; null turns it
         * off. {@code xoffBytes + headroomBytes} must fit in the switch buffer (checked by {@link #build}).
         */
        public Builder pfc(Pfc pfc) {
            this.pfc = pfc;
            return this;
        }

        /** Link {@code link} fails at {@code timePs} (not negative) and leaves the routes at the same instant. */
        public Builder failLink(int link, long timePs) {
            Parameters.atLeast("timePs", timePs, 0L);
            return failLink(link, timePs, timePs);
        }

        /** Link {@code link} fails at {@code failPs} and leaves the routes at {@code reroutePs}; see {@link LinkFailure}. */
        public Builder failLink(int link, long failPs, long reroutePs) {
            failures.add(new LinkFailure(link, failPs, reroutePs));
            return this;
        }

        /**
         * Adds a random delay, drawn independently per packet and per link from {@code jitter}, to the
         * propagation delay of every switch-to-switch link (both directions), so that paths through
         * the fabric have the random one-way delays of the packet-container model (seed 002 section
         * 3.1.1, {@link DelayModel}); null for none. Links stay FIFO: a packet whose draw would
         * overtake the packet ahead of it on the same link arrives right after it instead. Host links
         * are not affected.
         *
         * @param jitter extra delay per link crossing [s]; its support must start at 0 or above
         */
        public Builder fabricJitter(DelayModel jitter) {
            this.fabricJitter = jitter;
            return this;
        }

        /** Pins flow {@code flow} to the switches {@code switchNodes} (node indices), in order; see {@link Route}. */
        public Builder route(int flow, int... switchNodes) {
            Parameters.notNull("switchNodes", switchNodes);
            routes.add(new Route(flow, Arrays.stream(switchNodes).boxed().toList()));
            return this;
        }

        /** PFC deadlock detection and recovery in every port (null: none); see {@link PfcWatchdog}. */
        public Builder pfcWatchdog(PfcWatchdog watchdog) {
            this.pfcWatchdog = watchdog;
            return this;
        }

        /**
         * Deadlock prevention of seed 003 section 4.1.4 (figures 20 and 21): a leaf (tier-0 switch)
         * moves every packet it receives from a switch and forwards to a switch (a flow bouncing
         * through it) to {@code priority}, so the second half of a bounced path uses other queues
         * than the first; -1 turns it off (the default).
         */
        public Builder hookPriority(int priority) {
            this.hookPriority = priority;
            return this;
        }

        /**
         * Alpha-based (shared-buffer) PFC thresholds in every switch in place of the static XOFF/XON of
         * {@link #pfc} (whose headroom and pause time still apply); null (the default) keeps the static ones.
         * See {@link PfcDynamicThreshold}.
         */
        public Builder pfcDynamicThreshold(PfcDynamicThreshold threshold) {
            this.pfcDynamicThreshold = threshold;
            return this;
        }

        /**
         * Splits every flow of the scenario, those added before and after this call, over {@code n} queue pairs when
         * it is built ({@link FlowSpec#withQueuePairs}), in place of each flow's own {@link FlowSpec#queuePairs()}.
         * Not calling it keeps each flow's own.
         *
         * @param n queue pairs per flow, 1 to {@link FlowSpec#MAX_QUEUE_PAIRS}, at most every flow's bytes (checked by
         *        {@link #build})
         */
        public Builder queuePairs(int n) {
            this.queuePairs = Parameters.inRange("queuePairs", n, 1, FlowSpec.MAX_QUEUE_PAIRS);
            return this;
        }

        /**
         * The order of simultaneous events on the sequential engine ({@link TieOrder}; default
         * {@link TieOrder#CANONICAL}, the engines' one rule).
         */
        public Builder tieOrder(TieOrder order) {
            this.tieOrder = Parameters.notNull("order", order);
            return this;
        }

        /** The immutable scenario; fails naming the first invalid setting. */
        public Scenario build() {
            List<FlowSpec> fs = flows;
            if (queuePairs > 0) {
                fs = new ArrayList<>(flows.size());
                for (int i = 0; i < flows.size(); i++) {
                    FlowSpec f = flows.get(i);
                    if (queuePairs > f.bytes()) {
                        throw new IllegalArgumentException("queuePairs must be at most the bytes of every flow (a byte per"
                                + " queue pair), flows[" + i + "] has " + f.bytes() + " B, got " + queuePairs);
                    }
                    fs.add(f.withQueuePairs(queuePairs));
                }
            }
            return new Scenario(name, topology, config, fs, dependencies, transport, pfc, failures, fabricJitter,
                    routes, pfcWatchdog, hookPriority, pfcDynamicThreshold, tieOrder);
        }
    }

    /**
     * Uncontrolled incast: {@code senders} hosts each send {@code bytesPerSender} at time 0 to one
     * receiver through a single switch; all links at {@code rateBitsPerSecond} with 1 us propagation. The same
     * as {@code incast(Incast.of(senders, bytesPerSender, rateBitsPerSecond), Time.US, config)}.
     *
     * @param senders number of senders n, at least 1
     * @param bytesPerSender payload per sender in bytes
     * @param rateBitsPerSecond link rate in bit/s
     * @param config run configuration (buffer, ECN, sampling)
     */
    public static Scenario incast(int senders, long bytesPerSender, long rateBitsPerSecond, SimulationConfig config) {
        return incast(Incast.of(senders, bytesPerSender, rateBitsPerSecond), Time.US, config);
    }

    /**
     * The packet-level reading of an {@link Incast} (the description the analytic bounds and the
     * fluid models take too): its single-switch topology ({@link Incast#topology}) with
     * {@code propagationPs} on every link; sender {@code i} starts at {@link Incast#startPs} and
     * splits its bytes over {@code qpsPerSender} flows (the first {@code bytesPerSender mod q} of them
     * carry one byte more), each on priority 0 with its own UDP source port
     * {@code 49152 + (31 i + n + 1021 q) mod 16384} (queue pair {@code q}; ECMP entropy).
     *
     * @param incast the traffic
     * @param propagationPs per-link propagation delay [ps], not negative
     * @param config run configuration (buffer, ECN, sampling)
     */
    public static Scenario incast(Incast incast, long propagationPs, SimulationConfig config) {
        Parameters.notNull("incast", incast);
        Parameters.atLeast("propagationPs", propagationPs, 0L);
        Parameters.notNull("config", config);
        int n = incast.senders();
        int q = incast.qpsPerSender();
        if (incast.bytesPerSender() < q) {
            throw new IllegalArgumentException("incast.bytesPerSender must give each of its " + q
                    + " queue pairs at least one byte, got " + incast.bytesPerSender());
        }
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < q; k++) {
                long bytes = incast.bytesPerSender() / q + (k < incast.bytesPerSender() % q ? 1 : 0);
                flows.add(new FlowSpec(i, n, bytes, incast.startPs(i), 0, 49152 + Math.floorMod(31 * i + n + 1021 * k, 16384)));
            }
        }
        return builder(incast.topology(propagationPs), config).name(n + "-to-1 incast").flows(flows).build();
    }

    /**
     * Random permutation traffic on a leaf-spine: every host sends {@code bytesPerFlow} at time 0 to
     * a distinct host other than itself (a uniformly random derangement drawn with {@code seed}),
     * with a random ephemeral UDP source port.
     *
     * @param fabric the leaf-spine, at least 2 hosts
     * @param bytesPerFlow payload per flow in bytes
     * @param seed seed of the permutation and ports
     * @param config run configuration
     */
    public static Scenario permutation(LeafSpine fabric, long bytesPerFlow, long seed, SimulationConfig config) {
        Parameters.notNull("fabric", fabric);
        Parameters.atLeast("bytesPerFlow", bytesPerFlow, 1L);
        int n = fabric.hosts();
        Parameters.atLeast("fabric.hosts()", n, 2);
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] perm = new int[n];
        boolean ok;
        do { // rejection sampling of a derangement (succeeds with probability about 1/e)
            for (int i = 0; i < n; i++) {
                perm[i] = i;
            }
            for (int i = n - 1; i > 0; i--) {
                int j = rnd.nextInt(i + 1);
                int tmp = perm[i];
                perm[i] = perm[j];
                perm[j] = tmp;
            }
            ok = Arrays.stream(perm).boxed().toList().stream().noneMatch(x -> perm[x] == x);
        } while (!ok);
        List<FlowSpec> flows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            flows.add(new FlowSpec(i, perm[i], bytesPerFlow, 0, 0, 49152 + rnd.nextInt(16384)));
        }
        return builder(fabric.build(), config).name("permutation on " + fabric.build().name()).flows(flows).build();
    }
}
