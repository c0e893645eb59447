package fabriclab.simulation;

import fabriclab.simulation.engine.SequentialEngine;
import fabriclab.simulation.transport.TransportRun;
import fabriclab.simulation.trace.QueueingObserver;
import fabriclab.simulation.trace.Trace;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.HostNic;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Node;
import fabriclab.simulation.element.Port;
import fabriclab.simulation.element.Switch;
import fabriclab.simulation.element.Workload;
import fabriclab.simulation.engine.ParallelEngine;
import fabriclab.simulation.engine.ParallelRunStats;
import fabriclab.fabric.Time;
import fabriclab.fabric.Pfc;
import fabriclab.Parameters;
import fabriclab.loadbalancing.flow.FiveTuple;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import fabriclab.simulation.event.EventHandler;
import fabriclab.fabric.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Packet-level discrete-event simulator of a switched fabric.
 *
 * <p>Model. Time is a {@code long} in picoseconds ({@link Time}). Links are full duplex with a rate
 * and a propagation delay; a packet of {@code w} wire bytes occupies its egress port for
 * {@code ser = ceil(8 w / rate)} and reaches the next node {@code ser + propagation} after its
 * transmission started (store and forward: a switch forwards only whole packets). Switches are
 * output-queued with zero processing delay: an arriving packet is routed on the spot to an egress
 * port, admitted to that port's per-priority FIFO if the shared buffer and the per-queue limit
 * allow ({@link fabriclab.simulation.config.SwitchBuffer}; tail drop otherwise), ECN-marked by WRED at enqueue ({@link fabriclab.fabric.EcnMarking}),
 * and served by strict priority. Buffer bytes are held from admission until the last bit leaves.
 * Hosts are NICs with one port; each runs a line-rate sender that sends its active flows' packets
 * round robin back to back (no congestion control, no retransmission) and a receiver that records
 * completion time, reordering and duplicates.
 *
 * <p>Routing: every switch forwards toward a destination host over all its shortest-path next hops
 * (BFS over the topology, hosts never transit) chosen by {@link Forwarding} (ECMP with
 * {@code fabriclab.loadbalancing.hash.EcmpHasher}, or per-packet spraying).
 *
 * <p>PFC ({@link Scenario#pfc()}, off by default): every switch port counts, per priority, the wire bytes
 * admitted from it and not yet sent on (ingress accounting); reaching XOFF sends a 64-byte PAUSE
 * upstream (arriving after its serialisation and the link's propagation, out of band of data),
 * refreshed every half pause time until the counter falls below XON, when a zero-quanta PAUSE
 * (XON) resumes the upstream at once. A paused egress queue (switch port or host NIC) starts no
 * new packet of that priority; other priorities continue. See {@link Pfc}.
 *
 * <p>Link failure ({@link Scenario.LinkFailure}): at the given time both directions of a link go down, packets
 * queued for it or on its wire are dropped (and counted); routes are recomputed at once or, to model a
 * detection delay, later (packets a switch still sends to the dead link are dropped at it), or
 * earlier (a predicted failure).
 *
 * <p>Structure, along the packet's path: a host NIC ({@link HostNic}) generates packets; each port
 * ({@link Port}) serves its {@link fabriclab.simulation.element.EgressQueue} by strict priority onto its {@link fabriclab.simulation.element.Link}
 * (serialisation, propagation, jitter, failure), held back by the {@link fabriclab.simulation.element.PauseState} its peer
 * controls; a switch ({@link Switch}) forwards with the tables of {@link fabriclab.simulation.element.Routing}, admits, marks and
 * accounts ingress bytes for PFC ({@link fabriclab.simulation.element.PfcIngress}). Each element owns its counters. The flows and
 * their dependencies live in the {@link Workload}; the transport's per-run part
 * ({@link TransportRun}) creates each flow's endpoints; the result is assembled from the elements'
 * counters after the run. This class builds the elements from the scenario when it is constructed,
 * and runs the event loop.
 *
 * <p>Performance: packets on a wire are held in a per-link FIFO (every packet on a link has the same
 * propagation delay), so the event queue holds at most two events per port, not one per packet.
 *
 * <p>Determinism: every random choice draws from sources seeded with {@link SimulationConfig#seed()}, and
 * simultaneous events follow the scenario's {@link TieOrder}, so the same inputs give identical results. A simulator
 * runs once, either on this sequential engine ({@link #run()}) or on the parallel engine ({@link #runParallel(int)}),
 * whose results are identical for every thread count. Both engines order simultaneous events at a node by one
 * documented rule ({@link TieOrder#CANONICAL}, the default; {@link fabriclab.simulation.element.CanonicalOrder}: a
 * node's arrivals before its own events, its ports in an order drawn per instant from the seed) and give each switch
 * and link its own random source, so the two engines give the same results. A scenario built with
 * {@link TieOrder#SCHEDULING} runs on the sequential engine only, in the order its events were scheduled (which follows
 * the history of the event queue) with one random source: the order of ns-3 and htsim, which the comparisons with them
 * use.
 *
 * <p>Flow 5-tuples: host {@code h} has address {@code 10.0.0.0 + h + 1}; flows are RoCEv2 (UDP to
 * 4791) from {@link FlowSpec#sourcePort()}, queue pair q of a flow from {@link FlowSpec#queuePairSourcePort}.
 *
 * <p>Queue pairs: every queue pair of a flow ({@link FlowSpec#queuePairs()}) is a connection of its own in the run,
 * numbered in flow-major order (flow 0's queue pairs, then flow 1's, ...: {@link Scenario#firstQueuePair}); the
 * trace and observer callbacks name a packet's queue pair by that index.
 */
public final class Simulator {
    private final Scenario scenario;
    private final Network net;
    /** The transport's part of this run (its switch functions, shared state and counters). */
    private final TransportRun transportRun;
    private final List<FlowState> flows = new ArrayList<>();
    private final boolean observed;
    private boolean ran;
    private long stallLimitPs = DEFAULT_STALL_LIMIT_PS;
    private int instantEventLimit; // 0: the default for the run (StallReport.instantEventLimit)
    private long quietEventLimit; // 0: the default for the run (StallReport.quietEventLimit)
    private ParallelRunStats parallelStats;

    /**
     * Builds the runtime fabric of {@code scenario}: elements, routes, flows and their dependencies,
     * the transport's per-run part.
     *
     * @param scenario what to run
     * @throws IllegalArgumentException if a flow has no path, the dependencies form a cycle, or under
     *         {@link TieOrder#CANONICAL} a node has more ports than the rule's lanes ({@link #PARALLEL_MAX_PORTS_PER_NODE})
     */
    public Simulator(Scenario scenario) {
        this(scenario, null);
    }

    /**
     * As {@link #Simulator(Scenario)}, with a trace sink that sees every packet leaving a switch
     * egress queue (e.g. the high-delay capture of seed 004), and, if it is a {@link Trace}, every
     * enqueue and drop too.
     *
     * @param scenario what to run
     * @param observer the trace sink, or null for none
     */
    public Simulator(Scenario scenario, QueueingObserver observer) {
        this.scenario = Parameters.notNull("scenario", scenario);
        Topology topology = scenario.topology();
        SimulationConfig config = scenario.config();
        this.net = new Network(topology, config, scenario.pfc(), scenario.pfcDynamicThreshold(),
                observer instanceof Trace t ? t : null);
        net.observeQueueing(observer);
        this.observed = observer != null;
        List<FlowSpec> specs = scenario.flows();
        // a flow remembers its choice per switch only under ECMP and adaptive routing per flowlet (the others choose
        // per packet)
        Forwarding.Mode mode = config.forwarding().mode();
        boolean flowlets = mode == Forwarding.Mode.ADAPTIVE_FLOWLET;
        int ecmpMemo = mode == Forwarding.Mode.ECMP || flowlets ? net.switches.length : 0;
        int[] firstQueuePair = new int[specs.size() + 1];
        for (int i = 0; i < specs.size(); i++) {
            FlowSpec f = specs.get(i);
            Node first = net.hosts[f.source()].nic().peer();
            if ((first instanceof Switch sw && sw.routesTo(f.destination()) == null)
                    || (first instanceof HostNic && first.id != f.destination())) {
                throw new IllegalArgumentException("flows[" + i + "]: topology has no path from host " + f.source()
                        + " to host " + f.destination());
            }
            firstQueuePair[i] = flows.size();
            for (int q = 0; q < f.queuePairs(); q++) { // each queue pair a runtime flow of its own
                FlowSpec qp = f.queuePairs() == 1 ? f : f.queuePair(q);
                FiveTuple t = FiveTuple.roceV2(hostAddress(qp.source()), hostAddress(qp.destination()), qp.sourcePort());
                flows.add(new FlowState(flows.size(), qp, t, config.mtuBytes(), ecmpMemo, flowlets));
            }
        }
        firstQueuePair[specs.size()] = flows.size();
        net.setWorkload(new Workload(net, flows, firstQueuePair));
        for (Scenario.Dependency d : scenario.dependencies()) {
            net.workload().addDependency(d.flow(), d.predecessors().stream().mapToInt(Integer::intValue).toArray());
        }
        net.workload().checkAcyclic();
        for (Scenario.Route r : scenario.routes()) {
            for (int q = firstQueuePair[r.flow()]; q < firstQueuePair[r.flow() + 1]; q++) {
                pin(r.flow(), flows.get(q), r.switchNodes());
            }
        }
        if (scenario.hookPriority() >= 0) {
            for (Switch sw : net.switches) {
                if (sw.tier == 0) {
                    sw.setHookPriority(scenario.hookPriority());
                }
            }
        }
        if (scenario.pfcWatchdog() != null) {
            for (Node n : net.nodes) {
                for (Port p : n.ports) {
                    p.pause.watch(scenario.pfcWatchdog());
                }
            }
        }
        if (scenario.fabricJitter() != null) {
            for (Switch sw : net.switches) {
                for (Port p : sw.ports) {
                    if (p.peer() instanceof Switch) {
                        p.link.setJitter(scenario.fabricJitter());
                    }
                }
            }
        }
        this.transportRun = scenario.transport().start(net);
        if (scenario.tieOrder() == TieOrder.CANONICAL) {
            int lanes = transportRun.messageLanes();
            Node n = net.nodeBeyondTheLanes(lanes);
            if (n != null) {
                throw new IllegalArgumentException("scenario.tieOrder CANONICAL (the default) allows at most "
                        + PARALLEL_MAX_PORTS_PER_NODE + " ports per node (with GSE: ports plus switches), one lane each;"
                        + " node " + n.id + " has " + n.ports.size() + (lanes > 0 ? " ports and the fabric " + lanes
                        + " switches" : " ports") + ": build the scenario with tieOrder(TieOrder.SCHEDULING)");
            }
        }
        for (FlowState f : flows) {
            f.runBy(transportRun.newFlow(f));
        }
    }

    /** Pins queue pair {@code f} of flow {@code flow} to the switches {@code path} (node indices), both ways; fails naming a missing link. */
    private void pin(int flow, FlowState f, List<Integer> path) {
        Node first = net.hosts[f.spec.source()].nic().peer();
        Node last = net.hosts[f.spec.destination()].nic().peer();
        if (first.id != path.get(0) || last.id != path.get(path.size() - 1)) {
            throw new IllegalArgumentException("routes[flow " + flow + "] must start at the source host's switch (node "
                    + first.id + ") and end at the destination host's switch (node " + last.id + "), got " + path);
        }
        Port[] egress = new Port[net.switches.length];
        Port[] reverseEgress = new Port[net.switches.length];
        for (int i = 0; i < path.size(); i++) {
            Switch sw = (Switch) net.nodes[path.get(i)];
            int next = i + 1 < path.size() ? path.get(i + 1) : f.spec.destination();
            int previous = i > 0 ? path.get(i - 1) : f.spec.source();
            egress[sw.switchIndex] = portToward(sw, next, flow, path);
            reverseEgress[sw.switchIndex] = portToward(sw, previous, flow, path);
        }
        f.pin(egress, reverseEgress);
    }

    private static Port portToward(Switch sw, int node, int flow, List<Integer> path) {
        for (Port p : sw.ports) {
            if (p.peer().id == node && !p.link.isDown()) {
                return p;
            }
        }
        throw new IllegalArgumentException("routes[flow " + flow + "]: no link from node " + sw.id + " to node " + node
                + " on the path " + path);
    }

    /** The scenario this simulator runs. */
    public Scenario scenario() {
        return scenario;
    }

    /** The largest host index {@link #hostAddress} maps into 10.0.0.0/8 (10.255.255.254, below the broadcast address). */
    public static final int MAX_HOST_INDEX = 0x00FFFFFD;

    /**
     * IPv4 address of host {@code h} as used in flow 5-tuples: 10.0.0.0 + h + 1.
     *
     * @param h host index, 0 to {@link #MAX_HOST_INDEX} (10.0.0.1 to 10.255.255.254)
     */
    public static int hostAddress(int h) {
        Parameters.inRange("h", h, 0, MAX_HOST_INDEX);
        return 0x0A000000 + h + 1;
    }

    /**
     * The 5-tuple of queue pair {@code i} (as hashed by ECMP), {@code i} a queue-pair index
     * ({@link Scenario#firstQueuePair}; equal to the flow index when every flow has one queue pair).
     */
    public FiveTuple tupleOf(int i) {
        return flows.get(Parameters.inRange("i", i, 0, flows.size() - 1)).tuple;
    }

    /**
     * Egress port indices switch {@code switchIndex} may use toward host {@code destination}, in
     * port order (the ECMP members); empty if there is no path.
     */
    public int[] candidatePorts(int switchIndex, int destination) {
        Parameters.inRange("switchIndex", switchIndex, 0, net.switches.length - 1);
        Parameters.inRange("destination", destination, 0, net.topology.hosts() - 1);
        int[] r = net.switches[switchIndex].routesTo(destination);
        return r == null ? new int[0] : r.clone();
    }

    /**
     * The progress watchdog's default limit: 100 ms of simulated time. It is far above the other waits of a run
     * that progresses in this repository's models: GSE's resend timeout (100 us), a PFC pause (65535 quanta are
     * 33.5 ms at 1 Gb/s) or a PFC watchdog's detection. RoCE's and CTCC's local ACK timeout (4.29 s by default,
     * {@code ReliableConnection.defaults()}; 1.05 ms with {@code withLocalAckTimeoutExponent(8)}) is not held
     * to this limit: the transport's recovery timeout is added to it (see {@link #progressWatchdog}).
     */
    public static final long DEFAULT_STALL_LIMIT_PS = 100 * Time.MS;

    /**
     * The most ports a node may have on the parallel engine ({@link #runParallel(long, ProgressSink, int)}; with GSE,
     * its ports plus a lane per switch): each has a lane in the canonical order of simultaneous events.
     */
    public static final int PARALLEL_MAX_PORTS_PER_NODE = fabriclab.simulation.engine.ParallelEngine.MAX_PORTS_PER_NODE;

    /**
     * Sets the progress watchdog (before the run; default {@link #DEFAULT_STALL_LIMIT_PS}): either engine stops a run
     * in which a flow has started and not completed, events still flow, and for longer than {@code limitPs} plus
     * the fabric's grace no payload was delivered and no flow started, and the run throws a
     * {@link SimulationStalledException} that names the incomplete flows, the ports that dropped or were paused,
     * and the failed links. The grace is twice the sum, over every link, of its propagation delay and the
     * serialisation of one full packet ({@code mtuBytes + headerBytes}) at its rate: no packet's round trip takes
     * longer, so slow or long links do not trip the watchdog; the transport's recovery timeout
     * ({@code TransportModel.recoveryTimeoutPs()}, RoCE's local ACK timeout) is added, so a flow waiting for its
     * retransmission timer is not called stalled. A run with a finite time limit is watched too.
     *
     * @param limitPs simulated time without progress, ps, 1 to {@code Long.MAX_VALUE} ({@code Long.MAX_VALUE}: no
     *        watchdog)
     * @return this simulator
     */
    public Simulator progressWatchdog(long limitPs) {
        this.stallLimitPs = Parameters.atLeast("limitPs", limitPs, 1L);
        return this;
    }

    /**
     * Sets the watchdog's bound on one instant (before the run; default {@code 2^24 + 64 x (nodes + ports + queue
     * pairs)}, about 10 s of the sequential engine on a small fabric): a run that handles more than {@code limit}
     * events at one simulated time with more still scheduled at it never gets past that time, so it stops and
     * throws a {@link SimulationStalledException} naming the
     * instant, the kinds of event pending at it and the flows whose packets they carry. Without it such a run would
     * never end, since simulated time, which the {@link #progressWatchdog} watches, stands still.
     *
     * @param limit events at one instant, 1 to {@code Integer.MAX_VALUE} ({@code Integer.MAX_VALUE}: unbounded)
     * @return this simulator
     */
    public Simulator instantWatchdog(int limit) {
        this.instantEventLimit = Parameters.atLeast("limit", limit, 1);
        return this;
    }

    /**
     * The watchdog's limit for a run that keeps dropping packets with nothing delivered: the progress watchdog's limit
     * with the fabric's grace but without the transport's recovery timeout (the flows are sending, not waiting for a
     * timer); none when the scenario fails links, whose reroute may leave every flow sending into a dead link for
     * longer.
     */
    private long droppingLimitPs() {
        return scenario.failures().isEmpty() ? StallReport.limitPs(net, stallLimitPs, 0) : Long.MAX_VALUE;
    }

    /** The watchdog's limit on events without progress for this run: as set, else the default for the fabric. */
    private long quietEventLimit() {
        return quietEventLimit > 0 ? quietEventLimit : StallReport.quietEventLimit(net, flows.size());
    }

    /**
     * Sets the watchdog's limit on events without progress (before the run; default {@code 2^27 + 2^18 x queue
     * pairs + 2^10 x (nodes + ports)}): a run in which a flow has started and not completed, and more than
     * {@code limit} events were handled since a flow last started or payload was last delivered, stops with a
     * {@link SimulationStalledException}. It bounds the work of a run whose simulated time advances while nothing
     * gets anywhere (probes or timers running while every flow waits for a long retransmission timeout, over and
     * over). The default is above the timers a queue pair runs while it waits out one local ACK timeout at the
     * default exponent (DCQCN's two 55 us timers over 4.29 s: about 156,000 events).
     *
     * @param limit events, 1 to {@code Long.MAX_VALUE} ({@code Long.MAX_VALUE}: none)
     * @return this simulator
     */
    public Simulator quietWatchdog(long limit) {
        this.quietEventLimit = Parameters.atLeast("limit", limit, 1L);
        return this;
    }

    /** The watchdog's bound on one instant for this run: as set, else the default for the fabric and the flows. */
    private int instantEventLimit() {
        return instantEventLimit > 0 ? instantEventLimit : StallReport.instantEventLimit(net, flows.size());
    }

    /** Runs to completion with no progress reports; see {@link #run(long, ProgressSink)}. */
    public SimulationResult run() {
        return run(Long.MAX_VALUE, Progress.silent());
    }

    /**
     * Runs until no event is pending, simulated time would pass {@code timeLimitPs}, or the thread
     * is interrupted; the last two give a result marked partial. Reports progress to {@code sink}:
     * simulated time against the limit, in microseconds, when the limit is finite, else the payload
     * delivered against that of all the flows, in megabytes (10^6 B, rounded up).
     *
     * @param timeLimitPs last simulated time to handle, ps, positive
     * @param sink progress sink ({@code Progress.silent()} for none)
     * @throws IllegalStateException if called twice
     */
    public SimulationResult run(long timeLimitPs, ProgressSink sink) {
        Parameters.atLeast("timeLimitPs", timeLimitPs, 1L);
        Parameters.notNull("sink", sink);
        if (ran) {
            throw new IllegalStateException("a Simulator runs once; build a new one (new Simulator(scenario))");
        }
        if (scenario.tieOrder() == TieOrder.CANONICAL) {
            net.useCanonicalOrder();
        }
        ran = true;
        EventHandler linkFailure = (t, link) -> net.failLink((Integer) link);
        EventHandler linkWithdrawal = (t, link) -> net.withdrawLink((Integer) link);
        for (Scenario.LinkFailure f : scenario.failures()) { // at equal times the failure comes first, then the reroute
            boolean failFirst = f.failPs() <= f.reroutePs();
            net.main.events().schedule(Math.min(f.failPs(), f.reroutePs()), failFirst ? linkFailure : linkWithdrawal, f.link());
        }
        for (Scenario.LinkFailure f : scenario.failures()) {
            boolean failFirst = f.failPs() <= f.reroutePs();
            net.main.events().schedule(Math.max(f.failPs(), f.reroutePs()), failFirst ? linkWithdrawal : linkFailure, f.link());
        }
        net.workload().scheduleStarts();
        SimulationConfig config = net.config;
        if (config.samplePeriodPs() > 0 && config.maxSamples() > 0) {
            for (Switch sw : net.switches) {
                for (Port p : sw.ports) {
                    p.queue.startSampling(Math.min(config.maxSamples(), 1024));
                }
            }
            net.main.events().schedule(0, new Sampler(), null);
        }
        long limit = StallReport.limitPs(net, stallLimitPs, scenario.transport().recoveryTimeoutPs());
        SequentialEngine engine = new SequentialEngine(net.main).instantEventLimit(instantEventLimit())
                .droppingLimit(droppingLimitPs()).quietEventLimit(quietEventLimit());
        long loop = engine.run(timeLimitPs, limit, net.workload().totalPayloadMb(), sink);
        SimulationResult r = SimulationResult.of(net, scenario.flows(), transportRun, scenario.transport(), loop, net.main.now());
        if (engine.stalled()) {
            throw engine.stuckInstant() != null ? StallReport.stuck(net, flows, r, engine.stuckInstant())
                    : engine.stalledDropping() ? StallReport.stalled(net, flows, r, stallLimitPs, droppingLimitPs(), true)
                    : engine.stalledQuiet() ? StallReport.quiet(net, flows, r, quietEventLimit())
                    : StallReport.stalled(net, flows, r, stallLimitPs, limit);
        }
        return r;
    }

    /** Runs to completion on the parallel engine; see {@link #runParallel(long, ProgressSink, int)}. */
    public SimulationResult runParallel(int threads) {
        return runParallel(Long.MAX_VALUE, Progress.silent(), threads);
    }

    /**
     * Runs on the parallel engine ({@code ParallelEngine}): the fabric is partitioned over
     * {@code threads} threads (a leaf with its hosts, or a spine, stays in one), which advance in
     * windows of the smallest link propagation delay and exchange the packets and PAUSE frames that
     * cross between partitions at a barrier after each window, with no rollback.
     *
     * <p>Determinism: simultaneous events are handled in a canonical order, per node by (lane, scheduling
     * order) where lane k holds the events arriving through its port k (GSE's requests and grants: a lane per
     * sending edge after the ports') and the last lane the node's own, and
     * every switch and link draws from its own random source derived from the seed; so the result is
     * byte-identical for every thread count, {@code threads = 1} included (the same partitioned engine
     * on one thread), and to the sequential engine's ({@link #run(long, ProgressSink)}) under the same rule,
     * {@link TieOrder#CANONICAL}, the scenario's default.
     *
     * <p>Supported: the transports that declare it ({@link fabriclab.simulation.transport.TransportModel#parallelEngineLimitation()}: line rate,
     * RoCE with DCQCN but not iQCN, CTCC, GSE with a positive control latency, which bounds the windows as the link
     * delays do), ECMP, spraying and
     * pinned routes, PFC with its watchdog and dynamic thresholds, WRED marking, flow dependencies where each
     * predecessor completes at the host its successor starts at (ring and halving-doubling collectives).
     * Dependencies across hosts, link failures, queue sampling, fabric jitter, an attached observer or trace
     * and iQCN are rejected, as is a link without propagation delay: they act between nodes with no delay,
     * which the windows need.
     *
     * <p>Figures of the run (windows, events and messages per window, time at barriers):
     * {@link #parallelStats()}.
     *
     * @param timeLimitPs last simulated time to handle, ps, positive
     * @param sink progress sink ({@code Progress.silent()} for none): simulated time against a finite limit, else the
     *        payload delivered against that of all the flows (MB), as {@link #run(long, ProgressSink)}, after each window
     * @param threads threads (= partitions), 1 to 256
     * @throws IllegalArgumentException naming a feature of the scenario the parallel engine does not support, or a
     *         scenario in {@link TieOrder#SCHEDULING}
     * @throws IllegalStateException if the simulator ran before
     */
    public SimulationResult runParallel(long timeLimitPs, ProgressSink sink, int threads) {
        Parameters.atLeast("timeLimitPs", timeLimitPs, 1L);
        Parameters.notNull("sink", sink);
        Parameters.inRange("threads", threads, 1, 256);
        if (ran) {
            throw new IllegalStateException("a Simulator runs once; build a new one (new Simulator(scenario))");
        }
        if (scenario.tieOrder() != TieOrder.CANONICAL) {
            throw new IllegalArgumentException("the parallel engine runs scenario.tieOrder CANONICAL only, got "
                    + scenario.tieOrder() + ": run it with the sequential engine, run(), or build the scenario with"
                    + " tieOrder(TieOrder.CANONICAL)");
        }
        String limitation = parallelEngineLimitation(scenario, observed);
        if (limitation != null) {
            throw new IllegalArgumentException("the parallel engine does not support " + limitation
                    + "; run it with the sequential engine, run()");
        }
        ParallelEngine engine = new ParallelEngine(net, transportRun, threads);
        ran = true;
        net.workload().scheduleStarts();
        long limit = StallReport.limitPs(net, stallLimitPs, scenario.transport().recoveryTimeoutPs());
        long loop = engine.instantEventLimit(instantEventLimit()).droppingLimit(droppingLimitPs())
                .quietEventLimit(quietEventLimit()).run(timeLimitPs, limit, sink);
        parallelStats = engine.stats();
        SimulationResult r = SimulationResult.of(net, scenario.flows(), transportRun, scenario.transport(), loop, engine.endPs());
        if (engine.stalled()) {
            throw engine.stuckInstant() != null ? StallReport.stuck(net, flows, r, engine.stuckInstant())
                    : engine.stalledDropping() ? StallReport.stalled(net, flows, r, stallLimitPs, droppingLimitPs(), true)
                    : engine.stalledQuiet() ? StallReport.quiet(net, flows, r, quietEventLimit())
                    : StallReport.stalled(net, flows, r, stallLimitPs, limit);
        }
        return r;
    }

    /**
     * The first feature of {@code s} the parallel engine cannot run, described, or null: what acts between nodes
     * with no delay (the list in {@link #runParallel(long, ProgressSink, int)}), then what the transport declares.
     */
    private static String parallelEngineLimitation(Scenario s, boolean observed) {
        if (observed) {
            return "a queueing observer or trace (one sink called from every thread)";
        }
        String crossHost = crossHostDependency(s);
        if (crossHost != null) {
            return crossHost;
        }
        if (!s.failures().isEmpty()) {
            return "link failures (" + s.failures().size() + "; every switch's routes change at once)";
        }
        if (s.config().samplePeriodPs() > 0 && s.config().maxSamples() > 0) {
            return "queue sampling (samplePeriodPs = " + s.config().samplePeriodPs() + "; one sampler reads every switch)";
        }
        if (s.fabricJitter() != null) {
            return "fabric jitter (a negative draw could arrive before the lookahead)";
        }
        return s.transport().parallelEngineLimitation();
    }

    /**
     * The first flow dependency of {@code s} whose predecessor completes at another host than the one its
     * successor starts at, described, or null if there is none. A completion happens at the predecessor's
     * destination host and starts the successor at once: at its own host that is one of the host's events (a ring
     * or halving-doubling step starts where the previous step's data arrived); at another host it would act
     * between nodes with no delay.
     */
    private static String crossHostDependency(Scenario s) {
        for (Scenario.Dependency d : s.dependencies()) {
            int host = s.flows().get(d.flow()).source();
            for (int p : d.predecessors()) {
                int end = s.flows().get(p).destination();
                if (end != host) {
                    return "flow dependencies across hosts (flow " + d.flow() + " starts at host " + host + " after flow "
                            + p + ", which completes at host " + end + ": a completion would start a flow at another host"
                            + " with no delay)";
                }
            }
        }
        return null;
    }

    /** The figures of the parallel engine's run; empty before {@link #runParallel} or after {@link #run}. */
    public java.util.Optional<ParallelRunStats> parallelStats() {
        return java.util.Optional.ofNullable(parallelStats);
    }

    /** Samples the occupancy of every switch egress queue every {@code samplePeriodPs}. */
    private final class Sampler implements EventHandler {
        private int k;

        @Override
        public void handle(long timePs, Object payload) {
            int max = net.config.maxSamples();
            for (Switch sw : net.switches) {
                for (Port p : sw.ports) {
                    p.queue.sample(max);
                }
            }
            k++;
            if (k < max && !net.main.events().isEmpty()) {
                net.main.events().schedule(k * net.config.samplePeriodPs(), this, null);
            }
        }
    }
}
