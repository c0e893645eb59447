package fabriclab.simulation;

import fabriclab.Parameters;
import fabriclab.loadbalancing.flow.FiveTuple;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import fabriclab.simulation.event.EventHandler;
import fabriclab.simulation.event.EventQueue;
import fabriclab.simulation.topology.LinkSpec;
import fabriclab.simulation.topology.Topology;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Packet-level discrete-event simulator of a switched fabric (issue 7, core).
 *
 * <p>Model. Time is a {@code long} in picoseconds ({@link Time}). Links are full duplex with a rate
 * and a propagation delay; a packet of {@code w} wire bytes occupies its egress port for
 * {@code ser = ceil(8 w / rate)} and reaches the next node {@code ser + propagation} after its
 * transmission started (store and forward: a switch forwards only whole packets). Switches are
 * output-queued with zero processing delay: an arriving packet is routed on the spot to an egress
 * port, admitted to that port's per-priority FIFO if the shared buffer and the per-queue limit
 * allow ({@link SwitchBuffer}; tail drop otherwise), ECN-marked by WRED at enqueue ({@link Wred}),
 * and served by strict priority. Buffer bytes are held from admission until the last bit leaves.
 * Hosts are NICs with one port; each runs a line-rate sender that sends its active flows' packets
 * round robin back to back (no congestion control, no retransmission) and a receiver that records
 * completion time, reordering and duplicates.
 *
 * <p>Routing: every switch forwards toward a destination host over all its shortest-path next hops
 * (BFS over the topology, hosts never transit) chosen by {@link Forwarding} (ECMP with
 * {@code fabriclab.loadbalancing.hash.EcmpHasher}, or per-packet spraying).
 *
 * <p>PFC ({@link #withPfc}, off by default): every switch port counts, per priority, the wire bytes
 * admitted from it and not yet sent on (ingress accounting); reaching XOFF sends a 64-byte PAUSE
 * upstream (arriving after its serialisation and the link's propagation, out of band of data),
 * refreshed every half pause time until the counter falls below XON, when a zero-quanta PAUSE
 * (XON) resumes the upstream at once. A paused egress queue (switch port or host NIC) starts no
 * new packet of that priority; other priorities continue. See {@link Pfc}.
 *
 * <p>Link failure ({@link #failLinkAt}): at the given time both directions of a link go down, packets
 * queued for it or on its wire are dropped (and counted); routes are recomputed at once or, to model a
 * detection delay, later (packets a switch still sends to the dead link are dropped at it), or
 * earlier (a predicted failure).
 *
 * <p>Performance: packets on a wire are held in a per-link FIFO (every packet on a link has the same
 * propagation delay), so the event queue holds at most two events per port, not one per packet.
 *
 * <p>Determinism: the event queue breaks time ties by scheduling order and every random choice
 * draws from one {@link SplittableRandom} seeded with {@link SimulationConfig#seed()}, so the same
 * inputs give identical results. A simulator runs once.
 *
 * <p>Flow 5-tuples: host {@code h} has address {@code 10.0.0.0 + h + 1}; flows are RoCEv2 (UDP to
 * 4791) from {@link FlowSpec#sourcePort()}.
 */
public final class Simulator {
    final Topology topology;
    final SimulationConfig config;
    final EventQueue events = new EventQueue(4096);
    final SplittableRandom random;
    final Node[] nodes;
    final SwitchNode[] switches;
    final List<FlowState> flows = new ArrayList<>();
    long now;
    long packetHops;
    long injectedBytes;
    long deliveredBytes;
    long droppedBytes;
    long droppedPackets;
    long ecnMarks;
    long completedFlows;
    long discardedBytes;
    long controlPackets;
    long controlDelivered;
    long controlDropped;
    Pfc pfc; // null: PFC off
    TransportModel transportModel = TransportModel.uncontrolled();
    QueueingObserver queueingObserver;
    /** Named counters of transports and edges (CNPs, containers, grants...), reported in the result. */
    final java.util.TreeMap<String, Long> counters = new java.util.TreeMap<>();

    void count(String name, long delta) {
        counters.merge(name, delta, Long::sum);
    }

    /** State transports share between flows of one run (e.g. CTCC's per-pair probe streams). */
    final Map<Long, Object> transportState = new HashMap<>();
    private boolean ran;
    private final Port[][] linkPorts;
    private final List<long[]> failures = new ArrayList<>();

    /**
     * Builds the runtime fabric and checks the input.
     *
     * @param topology the fabric
     * @param config run configuration
     * @param flowSpecs the flows (host indices below {@code topology.hosts()}, priority below
     *        {@code config.priorities()}, a path must exist)
     * @throws IllegalArgumentException naming the offending parameter
     */
    public Simulator(Topology topology, SimulationConfig config, List<FlowSpec> flowSpecs) {
        this.topology = Parameters.notNull("topology", topology);
        this.config = Parameters.notNull("config", config);
        Parameters.notNull("flowSpecs", flowSpecs);
        this.random = new SplittableRandom(config.seed());
        int hosts = topology.hosts();
        nodes = new Node[topology.nodes()];
        switches = new SwitchNode[topology.switches()];
        for (int h = 0; h < hosts; h++) {
            nodes[h] = new Host(this, h);
        }
        for (int s = 0; s < switches.length; s++) {
            SwitchNode sw = new SwitchNode(this, hosts + s, s, config.forwarding().hasherOf(s));
            switches[s] = sw;
            nodes[hosts + s] = sw;
        }
        linkPorts = new Port[topology.links().size()][];
        for (int li = 0; li < linkPorts.length; li++) {
            LinkSpec l = topology.links().get(li);
            Node a = nodes[l.nodeA()];
            Node b = nodes[l.nodeB()];
            Port pa = new Port(this, a, a.ports.size(), l.rateBps(), l.propagationPs(), config.priorities());
            Port pb = new Port(this, b, b.ports.size(), l.rateBps(), l.propagationPs(), config.priorities());
            pa.peer = b;
            pb.peer = a;
            pa.peerPort = pb;
            pb.peerPort = pa;
            a.ports.add(pa);
            b.ports.add(pb);
            linkPorts[li] = new Port[] {pa, pb};
        }
        computeRoutes();
        for (int i = 0; i < flowSpecs.size(); i++) {
            FlowSpec f = Parameters.notNull("flowSpecs[" + i + "]", flowSpecs.get(i));
            if (f.source() >= hosts || f.destination() >= hosts) {
                throw new IllegalArgumentException("flowSpecs[" + i + "] must use hosts in [0, " + hosts + "), got "
                        + f.source() + " -> " + f.destination());
            }
            if (f.priority() >= config.priorities()) {
                throw new IllegalArgumentException("flowSpecs[" + i + "].priority must be below config.priorities = "
                        + config.priorities() + ", got " + f.priority());
            }
            Node first = nodes[f.source()].ports.get(0).peer;
            if (first instanceof SwitchNode sw && sw.routes[f.destination()] == null) {
                throw new IllegalArgumentException("flowSpecs[" + i + "]: topology has no path from host " + f.source()
                        + " to host " + f.destination());
            }
            if (first instanceof Host && first.id != f.destination()) {
                throw new IllegalArgumentException("flowSpecs[" + i + "]: topology has no path from host " + f.source()
                        + " to host " + f.destination());
            }
            FiveTuple t = FiveTuple.roceV2(hostAddress(f.source()), hostAddress(f.destination()), f.sourcePort());
            flows.add(new FlowState(i, f, t, config.mtuBytes(), switches.length));
        }
    }

    /** IPv4 address of host {@code h} as used in flow 5-tuples: 10.0.0.0 + h + 1. */
    public static int hostAddress(int h) {
        return 0x0A000000 + h + 1;
    }

    Host host(int h) {
        return (Host) nodes[h];
    }

    /**
     * Every flow of the run uses {@code model} (default {@link TransportModel#uncontrolled()}).
     * Call before {@link #run}.
     */
    public Simulator withTransport(TransportModel model) {
        Parameters.notNull("model", model);
        if (ran) {
            throw new IllegalStateException("withTransport must be called before run");
        }
        this.transportModel = model;
        return this;
    }

    /** The runtime transport of one flow for the run's model (one branch per model). */
    private Transport newTransport(FlowState f) {
        if (transportModel instanceof TransportModel.Uncontrolled) {
            return new Transport.LineRate(this, f);
        }
        if (transportModel instanceof RoceTransport r) {
            return new RoceFlow(this, f, r);
        }
        if (transportModel instanceof CtccTransport c) {
            return new CtccFlow(this, f, c);
        }
        if (transportModel instanceof GseTransport) {
            return new Transport.LineRate(this, f); // hosts send at line rate; the GSE edges schedule
        }
        throw new IllegalArgumentException("unsupported transport model " + transportModel);
    }

    /**
     * Flow {@code flow} starts only when every flow in {@code predecessors} has been completely
     * received (and not before its own {@link FlowSpec#startPs()}): the dependency of a
     * collective's step on the data of the step before. Call before {@link #run}; cycles are
     * rejected when the run starts.
     *
     * @param flow flow index
     * @param predecessors flow indices, each different from {@code flow}
     */
    public Simulator startAfter(int flow, int... predecessors) {
        Parameters.inRange("flow", flow, 0, flows.size() - 1);
        Parameters.notNull("predecessors", predecessors);
        if (ran) {
            throw new IllegalStateException("startAfter must be called before run");
        }
        FlowState f = flows.get(flow);
        for (int pi : predecessors) {
            Parameters.inRange("predecessors[]", pi, 0, flows.size() - 1);
            if (pi == flow) {
                throw new IllegalArgumentException("predecessors must not contain the flow itself (" + flow + ")");
            }
            FlowState pre = flows.get(pi);
            pre.successors = Arrays.copyOf(pre.successors, pre.successors.length + 1);
            pre.successors[pre.successors.length - 1] = flow;
            f.pendingPredecessors++;
        }
        return this;
    }

    /**
     * Adds a random delay, drawn independently per packet and per link from {@code jitter}, to the
     * propagation delay of every switch-to-switch link (both directions), so that paths through the
     * fabric have the random one-way delays of the packet-container model (seed 002 section 3.1.1,
     * {@link fabriclab.container.DelayModel}). Links stay FIFO: a packet whose draw would overtake
     * the packet ahead of it on the same link arrives right after it instead. Host links are not
     * affected. Call before {@link #run}.
     *
     * @param jitter the extra delay per link crossing, seconds; it must not go negative (the
     *        model's support must start at 0 or above)
     */
    public Simulator withFabricJitter(fabriclab.container.DelayModel jitter) {
        Parameters.notNull("jitter", jitter);
        if (ran) {
            throw new IllegalStateException("withFabricJitter must be called before run");
        }
        if (jitter.support()[0] < 0) {
            throw new IllegalArgumentException("jitter must not produce negative delays: its support starts at "
                    + jitter.support()[0] + " s (use a mean of at least about 8 standard deviations)");
        }
        for (Node n : nodes) {
            if (n instanceof SwitchNode) {
                for (Port p : n.ports) {
                    if (p.peer instanceof SwitchNode) {
                        p.jitter = jitter;
                    }
                }
            }
        }
        return this;
    }

    /** Receives the queueing delay of every packet that leaves a switch egress queue. */
    @FunctionalInterface
    public interface QueueingObserver {
        /**
         * A packet starts its transmission from a switch egress queue.
         *
         * @param switchIndex the switch
         * @param port its egress port index
         * @param flow index of the packet's flow
         * @param data true for a data packet, false for a control packet
         * @param wireBytes the packet's size on the wire
         * @param queueingDelayPs time from joining the queue to starting transmission, ps
         * @param timePs the current time, ps
         */
        void dequeued(int switchIndex, int port, int flow, boolean data, int wireBytes, long queueingDelayPs, long timePs);
    }

    /** Calls {@code observer} for every packet leaving a switch queue (e.g. high-delay capture). Call before {@link #run}. */
    public Simulator observeQueueing(QueueingObserver observer) {
        this.queueingObserver = Parameters.notNull("observer", observer);
        return this;
    }

    void observeQueueing(SwitchNode sw, Port port, Packet p, long now) {
        queueingObserver.dequeued(sw.switchIndex, port.index, p.flow.id, p.isData(), p.wireBytes, now - p.enqueuedPs, now);
    }

    /** The flow's start event fired (its start time passed and its predecessors are complete). */
    void startFlow(FlowState f, long now) {
        f.startedPs = now;
        f.transport.onStart(now);
        host(f.spec.source()).wake(f);
    }

    /**
     * Delivers data packet {@code p} to the receiving application; returns false (and counts a
     * duplicate, discarding it) if that sequence was delivered before.
     */
    boolean deliver(Packet p, long now) {
        FlowState f = p.flow;
        if (f.received.get(p.seq)) {
            f.duplicates++;
            discard(p);
            return false;
        }
        f.received.set(p.seq);
        if (p.seq < f.highestSeq) {
            f.reordered++;
        } else {
            f.highestSeq = p.seq;
        }
        if (p.ecn) {
            f.ecnMarked++;
        }
        f.receivedBytes += p.payloadBytes;
        deliveredBytes += p.payloadBytes;
        if (f.receivedBytes == f.spec.bytes()) {
            f.completionPs = now;
            completedFlows++;
            f.transport.onCompleted(now);
            for (int s : f.successors) {
                FlowState next = flows.get(s);
                if (--next.pendingPredecessors == 0) {
                    events.schedule(Math.max(now, next.spec.startPs()), nodes[next.spec.source()], next);
                }
            }
        }
        return true;
    }

    /** A data packet reached its receiver but is not delivered (duplicate, or out of order under go-back-N). */
    void discard(Packet p) {
        p.flow.discardedBytes += p.payloadBytes;
        discardedBytes += p.payloadBytes;
    }

    /** The 5-tuple of flow {@code i} (as hashed by ECMP). */
    public FiveTuple tupleOf(int i) {
        return flows.get(Parameters.inRange("i", i, 0, flows.size() - 1)).tuple;
    }

    /**
     * Egress port indices switch {@code switchIndex} may use toward host {@code destination}, in
     * port order (the ECMP members); empty if there is no path.
     */
    public int[] candidatePorts(int switchIndex, int destination) {
        Parameters.inRange("switchIndex", switchIndex, 0, switches.length - 1);
        Parameters.inRange("destination", destination, 0, topology.hosts() - 1);
        int[] r = switches[switchIndex].routes[destination];
        return r == null ? new int[0] : r.clone();
    }

    private void computeRoutes() {
        int n = nodes.length;
        int hosts = topology.hosts();
        Map<String, int[]> interned = new HashMap<>();
        for (SwitchNode sw : switches) {
            sw.routes = new int[hosts][];
            sw.roundRobin = new int[hosts];
        }
        int[] dist = new int[n];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int d = 0; d < hosts; d++) {
            Arrays.fill(dist, -1);
            dist[d] = 0;
            queue.add(d);
            while (!queue.isEmpty()) {
                int u = queue.poll();
                if (u < hosts && u != d) {
                    continue; // hosts do not forward
                }
                for (Port p : nodes[u].ports) {
                    if (p.down || p.withdrawn) {
                        continue;
                    }
                    int v = p.peer.id;
                    if (dist[v] < 0) {
                        dist[v] = dist[u] + 1;
                        queue.add(v);
                    }
                }
            }
            final int dest = d;
            for (SwitchNode sw : switches) {
                if (dist[sw.id] < 0) {
                    continue;
                }
                int[] c = sw.ports.stream().filter(p -> !p.down && !p.withdrawn && dist[p.peer.id] == dist[sw.id] - 1
                        && (p.peer.id >= hosts || p.peer.id == dest)).mapToInt(p -> p.index).toArray();
                sw.routes[d] = c.length == 0 ? null : interned.computeIfAbsent(Arrays.toString(c), k -> c);
            }
        }
    }

    /**
     * Fails link {@code linkIndex} (index into {@code topology.links()}) in both directions at
     * {@code timePs} and reroutes at the same instant: {@code failLinkAt(linkIndex, timePs, timePs)}.
     *
     * @param linkIndex link index in [0, links)
     * @param timePs failure time in ps, not negative
     */
    public Simulator failLinkAt(int linkIndex, long timePs) {
        return failLinkAt(linkIndex, timePs, timePs);
    }

    /**
     * Fails link {@code linkIndex} (index into {@code topology.links()}) in both directions at
     * {@code failPs}, and withdraws it from every switch's routes at {@code reroutePs}. Call before
     * {@link #run}.
     *
     * <p>At {@code failPs} packets queued for the link or propagating on it are dropped (and counted).
     * At {@code reroutePs} every switch recomputes its shortest-path candidates without the link and
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
     *
     * @param linkIndex link index in [0, links)
     * @param failPs failure time in ps, not negative
     * @param reroutePs time the routes stop using the link in ps, not negative
     */
    public Simulator failLinkAt(int linkIndex, long failPs, long reroutePs) {
        Parameters.inRange("linkIndex", linkIndex, 0, linkPorts.length - 1);
        Parameters.atLeast("failPs", failPs, 0L);
        Parameters.atLeast("reroutePs", reroutePs, 0L);
        if (ran) {
            throw new IllegalStateException("failLinkAt must be called before run");
        }
        failures.add(new long[] {linkIndex, failPs, reroutePs});
        return this;
    }

    /**
     * Turns on priority flow control (IEEE 802.1Qbb) in every switch, for every priority: see
     * {@link Pfc} for the mechanism. Call before {@link #run}. Checked against the switch buffer:
     * {@code xoffBytes + headroomBytes} must fit in {@code buffer.sharedBytes} (a threshold above
     * the buffer could never protect it).
     *
     * @param pfc the thresholds
     * @throws IllegalArgumentException naming {@code pfc.xoffBytes} or {@code pfc.headroomBytes}
     */
    public Simulator withPfc(Pfc pfc) {
        Parameters.notNull("pfc", pfc);
        if (ran) {
            throw new IllegalStateException("withPfc must be called before run");
        }
        long buffer = config.buffer().sharedBytes();
        if (pfc.xoffBytes() > buffer) {
            throw new IllegalArgumentException("pfc.xoffBytes must be at most buffer.sharedBytes = " + buffer + ", got "
                    + pfc.xoffBytes());
        }
        if (pfc.xoffBytes() + pfc.headroomBytes() > buffer) {
            throw new IllegalArgumentException("pfc.headroomBytes must be at most buffer.sharedBytes - pfc.xoffBytes = "
                    + (buffer - pfc.xoffBytes()) + ", got " + pfc.headroomBytes());
        }
        this.pfc = pfc;
        return this;
    }

    void drop(Packet p, Port at) {
        if (at != null) {
            at.drops++;
        }
        if (!p.isData()) {
            controlDropped++;
            return;
        }
        p.flow.dropped++;
        p.flow.droppedBytes += p.payloadBytes;
        droppedBytes += p.payloadBytes;
        droppedPackets++;
    }

    private final EventHandler linkFailure = this::failLinkNow;
    private final EventHandler linkWithdrawal = this::withdrawLinkNow;

    private void failLinkNow(long timePs, Object payload) {
        Port[] ends = linkPorts[(Integer) payload];
        ends[0].fail();
        ends[1].fail();
    }

    private void withdrawLinkNow(long timePs, Object payload) {
        Port[] ends = linkPorts[(Integer) payload];
        ends[0].withdrawn = true;
        ends[1].withdrawn = true;
        computeRoutes();
        for (FlowState f : flows) {
            Arrays.fill(f.ecmpEgress, null);
            Arrays.fill(f.reverseEcmpEgress, null);
        }
    }

    /** Runs to completion with no progress reports; see {@link #run(long, ProgressSink)}. */
    public SimulationResult run() {
        return run(Long.MAX_VALUE, Progress.silent());
    }

    /**
     * Runs until no event is pending, simulated time would pass {@code timeLimitPs}, or the thread
     * is interrupted; the last two give a result marked partial. Reports progress (simulated time
     * against the limit, in microseconds) to {@code sink} when the limit is finite.
     *
     * @param timeLimitPs last simulated time to handle, ps, positive
     * @param sink progress sink ({@code Progress.silent()} for none)
     * @throws IllegalStateException if called twice
     */
    public SimulationResult run(long timeLimitPs, ProgressSink sink) {
        Parameters.atLeast("timeLimitPs", timeLimitPs, 1L);
        Parameters.notNull("sink", sink);
        if (ran) {
            throw new IllegalStateException("a Simulator runs once; build a new one");
        }
        ran = true;
        for (long[] fl : failures) { // at equal times the failure comes first, then the reroute
            events.schedule(Math.min(fl[1], fl[2]), fl[1] <= fl[2] ? linkFailure : linkWithdrawal, (int) fl[0]);
        }
        for (long[] fl : failures) {
            events.schedule(Math.max(fl[1], fl[2]), fl[1] <= fl[2] ? linkWithdrawal : linkFailure, (int) fl[0]);
        }
        checkAcyclic();
        if (transportModel instanceof GseTransport g) {
            GseEdge.install(this, g);
        }
        for (FlowState f : flows) {
            f.transport = newTransport(f);
        }
        for (FlowState f : flows) {
            if (f.pendingPredecessors == 0) {
                events.schedule(f.spec.startPs(), nodes[f.spec.source()], f);
            }
        }
        boolean sampling = config.samplePeriodPs() > 0 && config.maxSamples() > 0;
        if (sampling) {
            for (SwitchNode sw : switches) {
                for (Port p : sw.ports) {
                    p.sampleBytes = new long[Math.min(config.maxSamples(), 1024)];
                }
            }
            events.schedule(0, sampler, null);
        }
        boolean partial = false;
        long handled = 0;
        long nextCheck = CHECK_EVERY_EVENTS;
        boolean finite = timeLimitPs != Long.MAX_VALUE;
        long totalUs = finite ? Math.max(1, timeLimitPs / Time.US) : 0;
        long reportedUs = 0;
        try (Progress progress = Progress.start("packet simulation", totalUs, sink)) {
            while (true) {
                // all events of one instant at a time: handlers read the clock from now
                long t = events.peekTime();
                if (t > timeLimitPs || events.isEmpty()) {
                    partial = !events.isEmpty(); // stopped by the time limit
                    break;
                }
                now = t;
                handled += events.dispatchNextInstant(timeLimitPs);
                if (handled >= nextCheck) {
                    nextCheck = handled + CHECK_EVERY_EVENTS;
                    if (Thread.currentThread().isInterrupted()) {
                        partial = !events.isEmpty();
                        break;
                    }
                    if (finite) {
                        long us = now / Time.US;
                        if (us > reportedUs) {
                            progress.advance(Math.min(us, totalUs) - Math.min(reportedUs, totalUs));
                            reportedUs = us;
                        }
                    }
                }
            }
        }
        return result(partial, handled);
    }

    /** Events between two checks for an interrupt and progress reports. */
    private static final long CHECK_EVERY_EVENTS = 1 << 16;

    private void checkAcyclic() {
        int[] pending = new int[flows.size()];
        ArrayDeque<Integer> free = new ArrayDeque<>();
        for (FlowState f : flows) {
            pending[f.id] = f.pendingPredecessors;
            if (pending[f.id] == 0) {
                free.add(f.id);
            }
        }
        int seen = 0;
        while (!free.isEmpty()) {
            seen++;
            for (int s : flows.get(free.poll()).successors) {
                if (--pending[s] == 0) {
                    free.add(s);
                }
            }
        }
        if (seen != flows.size()) {
            throw new IllegalArgumentException("startAfter dependencies form a cycle; " + (flows.size() - seen)
                    + " flows could never start");
        }
    }

    private final EventHandler sampler = new EventHandler() {
        private int k;

        @Override
        public void handle(long timePs, Object payload) {
            for (SwitchNode sw : switches) {
                for (Port p : sw.ports) {
                    if (p.samples == p.sampleBytes.length) {
                        p.sampleBytes = Arrays.copyOf(p.sampleBytes, Math.min(config.maxSamples(), 2 * p.samples));
                    }
                    p.sampleBytes[p.samples++] = p.totalQueueBytes;
                }
            }
            k++;
            if (k < config.maxSamples() && !events.isEmpty()) {
                events.schedule((k) * config.samplePeriodPs(), this, null);
            }
        }
    };

    private SimulationResult result(boolean partial, long handled) {
        List<SimulationResult.FlowRecord> fr = new ArrayList<>(flows.size());
        for (FlowState f : flows) {
            fr.add(new SimulationResult.FlowRecord(f.id, f.spec, f.completionPs < 0 ? -1 : f.completionPs - f.startedPs,
                    f.receivedBytes, f.dropped, f.ecnMarked, f.reordered, f.duplicates, f.startedPs, f.retransmitted));
        }
        List<SimulationResult.QueueTrace> qs = new ArrayList<>();
        for (SwitchNode sw : switches) {
            for (Port p : sw.ports) {
                long[] s = p.sampleBytes == null ? new long[0] : Arrays.copyOf(p.sampleBytes, p.samples);
                qs.add(new SimulationResult.QueueTrace("switch " + sw.switchIndex + " port " + p.index + " -> node " + p.peer.id,
                        sw.switchIndex, p.index, p.peer.id, config.samplePeriodPs(), s, p.peakBytes, p.drops, p.ecnMarks,
                        p.txPackets, p.flowHeads, now == 0 ? 0 : Math.min(1.0, p.busyPs / (double) now)));
            }
        }
        List<SimulationResult.PortPfc> pp = new ArrayList<>();
        for (Node n : nodes) {
            for (Port p : n.ports) {
                String who = n instanceof SwitchNode sw ? "switch " + sw.switchIndex : "host " + n.id;
                pp.add(new SimulationResult.PortPfc(who + " port " + p.index + " -> node " + p.peer.id, n.id, p.index,
                        p.peer.id, p.pausesSent, p.xonSent, p.pausesReceived, p.xonReceived, p.pausedPsUpTo(now),
                        p.peakIngressBytes.clone(), p.firstPauseSentPs));
            }
        }
        long inFlight = injectedBytes - deliveredBytes - droppedBytes - discardedBytes;
        return new SimulationResult(now, partial, handled, packetHops, injectedBytes, deliveredBytes, droppedBytes,
                inFlight, droppedPackets, ecnMarks, List.copyOf(fr), List.copyOf(qs), List.copyOf(pp), discardedBytes,
                controlPackets, controlDropped, transportModel.toString(), java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(counters)));
    }
}
