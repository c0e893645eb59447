package fabriclab.simulation;

import fabriclab.fabric.Time;
import fabriclab.fabric.Pfc;
import fabriclab.Parameters;
import fabriclab.loadbalancing.flow.FiveTuple;
import fabriclab.notebook.Progress;
import fabriclab.notebook.ProgressSink;
import fabriclab.simulation.event.EventHandler;
import fabriclab.simulation.event.EventQueue;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Topology;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * allow ({@link SwitchBuffer}; tail drop otherwise), ECN-marked by WRED at enqueue ({@link fabriclab.fabric.EcnMarking}),
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
 * <p>Structure, along the packet's path: a host NIC ({@link HostNic}) generates packets; each port
 * ({@link Port}) serves its {@link EgressQueue} by strict priority onto its {@link Link}
 * (serialisation, propagation, jitter, failure), held back by the {@link PauseState} its peer
 * controls; a switch ({@link Switch}) forwards with the tables of {@link Routing}, admits, marks and
 * accounts ingress bytes for PFC ({@link PfcIngress}). Each element owns its counters. The flows and
 * their dependencies live in the {@link Workload}; the transport's per-run part
 * ({@link TransportRun}) creates each flow's endpoints; the result is assembled from the elements'
 * counters after the run. This class holds the run's description until it runs, and the event loop.
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
    private final Network net;
    private final List<FlowState> flows = new ArrayList<>();
    private TransportModel transportModel = TransportModel.uncontrolled();
    private final List<long[]> failures = new ArrayList<>();
    private fabriclab.container.DelayModel jitter;
    private boolean ran;

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
        Parameters.notNull("topology", topology);
        Parameters.notNull("config", config);
        Parameters.notNull("flowSpecs", flowSpecs);
        this.net = new Network(topology, config);
        int hosts = topology.hosts();
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
            Node first = net.hosts[f.source()].nic().peer();
            if ((first instanceof Switch sw && sw.routes[f.destination()] == null)
                    || (first instanceof HostNic && first.id != f.destination())) {
                throw new IllegalArgumentException("flowSpecs[" + i + "]: topology has no path from host " + f.source()
                        + " to host " + f.destination());
            }
            FiveTuple t = FiveTuple.roceV2(hostAddress(f.source()), hostAddress(f.destination()), f.sourcePort());
            flows.add(new FlowState(i, f, t, config.mtuBytes(), net.switches.length));
        }
        net.workload = new Workload(net, flows);
    }

    /** IPv4 address of host {@code h} as used in flow 5-tuples: 10.0.0.0 + h + 1. */
    public static int hostAddress(int h) {
        return 0x0A000000 + h + 1;
    }

    private void notRun(String method) {
        if (ran) {
            throw new IllegalStateException(method + " must be called before run");
        }
    }

    /**
     * Every flow of the run uses {@code model} (default {@link TransportModel#uncontrolled()}).
     * Call before {@link #run}.
     */
    public Simulator withTransport(TransportModel model) {
        Parameters.notNull("model", model);
        notRun("withTransport");
        this.transportModel = model;
        return this;
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
        notRun("startAfter");
        for (int pi : predecessors) {
            Parameters.inRange("predecessors[]", pi, 0, flows.size() - 1);
            if (pi == flow) {
                throw new IllegalArgumentException("predecessors must not contain the flow itself (" + flow + ")");
            }
        }
        net.workload.addDependency(flow, predecessors);
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
        notRun("withFabricJitter");
        if (jitter.support()[0] < 0) {
            throw new IllegalArgumentException("jitter must not produce negative delays: its support starts at "
                    + jitter.support()[0] + " s (use a mean of at least about 8 standard deviations)");
        }
        this.jitter = jitter;
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
        net.queueingObserver = Parameters.notNull("observer", observer);
        return this;
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
        Parameters.inRange("switchIndex", switchIndex, 0, net.switches.length - 1);
        Parameters.inRange("destination", destination, 0, net.topology.hosts() - 1);
        int[] r = net.switches[switchIndex].routes[destination];
        return r == null ? new int[0] : r.clone();
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
        Parameters.inRange("linkIndex", linkIndex, 0, net.linkPorts.length - 1);
        Parameters.atLeast("failPs", failPs, 0L);
        Parameters.atLeast("reroutePs", reroutePs, 0L);
        notRun("failLinkAt");
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
        notRun("withPfc");
        long buffer = net.config.buffer().sharedBytes();
        if (pfc.xoffBytes() > buffer) {
            throw new IllegalArgumentException("pfc.xoffBytes must be at most buffer.sharedBytes = " + buffer + ", got "
                    + pfc.xoffBytes());
        }
        if (pfc.xoffBytes() + pfc.headroomBytes() > buffer) {
            throw new IllegalArgumentException("pfc.headroomBytes must be at most buffer.sharedBytes - pfc.xoffBytes = "
                    + (buffer - pfc.xoffBytes()) + ", got " + pfc.headroomBytes());
        }
        net.pfc = pfc;
        return this;
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
        EventHandler linkFailure = (t, link) -> net.failLink((Integer) link);
        EventHandler linkWithdrawal = (t, link) -> net.withdrawLink((Integer) link);
        for (long[] fl : failures) { // at equal times the failure comes first, then the reroute
            net.events.schedule(Math.min(fl[1], fl[2]), fl[1] <= fl[2] ? linkFailure : linkWithdrawal, (int) fl[0]);
        }
        for (long[] fl : failures) {
            net.events.schedule(Math.max(fl[1], fl[2]), fl[1] <= fl[2] ? linkWithdrawal : linkFailure, (int) fl[0]);
        }
        net.workload.checkAcyclic();
        if (jitter != null) {
            for (Switch sw : net.switches) {
                for (Port p : sw.ports) {
                    if (p.peer() instanceof Switch) {
                        p.link.jitter = jitter;
                    }
                }
            }
        }
        net.installIngressAccounting();
        net.transport = transportModel.start(net);
        for (FlowState f : flows) {
            f.transport = net.transport.newFlow(f);
        }
        net.workload.scheduleStarts();
        SimulationConfig config = net.config;
        if (config.samplePeriodPs() > 0 && config.maxSamples() > 0) {
            for (Switch sw : net.switches) {
                for (Port p : sw.ports) {
                    p.queue.sampleBytes = new long[Math.min(config.maxSamples(), 1024)];
                }
            }
            net.events.schedule(0, new Sampler(), null);
        }
        return SimulationResult.of(net, transportModel, loop(timeLimitPs, sink));
    }

    /** Events between two checks for an interrupt and progress reports. */
    private static final long CHECK_EVERY_EVENTS = 1 << 16;

    /** The event loop; returns the events handled, negative if the run stopped with events pending. */
    private long loop(long timeLimitPs, ProgressSink sink) {
        boolean partial = false;
        long handled = 0;
        long nextCheck = CHECK_EVERY_EVENTS;
        boolean finite = timeLimitPs != Long.MAX_VALUE;
        long totalUs = finite ? Math.max(1, timeLimitPs / Time.US) : 0;
        long reportedUs = 0;
        var events = net.events;
        try (Progress progress = Progress.start("packet simulation", totalUs, sink)) {
            while (true) {
                // all events of one instant at a time: handlers read the clock from now
                long t = events.peekTime();
                if (t > timeLimitPs || events.isEmpty()) {
                    partial = !events.isEmpty(); // stopped by the time limit
                    break;
                }
                net.now = t;
                handled += events.dispatchNextInstant(timeLimitPs);
                if (handled >= nextCheck) {
                    nextCheck = handled + CHECK_EVERY_EVENTS;
                    if (Thread.currentThread().isInterrupted()) {
                        partial = !events.isEmpty();
                        break;
                    }
                    if (finite) {
                        long us = net.now / Time.US;
                        if (us > reportedUs) {
                            progress.advance(Math.min(us, totalUs) - Math.min(reportedUs, totalUs));
                            reportedUs = us;
                        }
                    }
                }
            }
        }
        return partial ? -handled - 1 : handled;
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
            if (k < max && !net.events.isEmpty()) {
                net.events.schedule(k * net.config.samplePeriodPs(), this, null);
            }
        }
    }
}
