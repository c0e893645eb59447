package fabriclab.simulation.element;

import fabriclab.simulation.trace.QueueingObserver;
import fabriclab.simulation.trace.Trace;
import fabriclab.simulation.trace.DropReason;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Topology;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The runtime fabric of one run, built from a {@link Topology} and a {@link SimulationConfig}: host
 * NICs and switches joined by ports and links (each switch with its buffer and each switch port with its
 * queue limit from the configuration's {@link fabriclab.simulation.config.BufferPlan}), the run's clock and
 * event queue, its seeded random source (one per switch and per link under the canonical order of simultaneous
 * events, {@link #useCanonicalOrder}, {@link #elementRandom}), the workload, and the transport's per-run part. Elements reach
 * each other through it; it holds no counters of its own (each element owns its counters).
 */
public final class Network {
    public final Topology topology;
    public final SimulationConfig config;
    /**
     * The partition every node starts in (and stays in unless {@link #partition} spreads them): the run's
     * event queue, clock and packet pool.
     */
    public final Partition main;
    /** The run's shared random source of switches and links while ties keep scheduling order (else their own). */
    final SplittableRandom random;
    public final Node[] nodes;
    public final HostNic[] hosts;
    public final Switch[] switches;
    /** The two ports of each link of the topology, in link order. */
    final Port[][] linkPorts;
    Workload workload;
    /** The fabric's PFC, or null when off. */
    final Pfc pfc;
    /** Alpha-based thresholds replacing the static XOFF/XON of {@link #pfc}, or null. */
    final fabriclab.fabric.PfcDynamicThreshold pfcDynamic;
    QueueingObserver queueingObserver;
    /** Enqueue and drop trace sink, or null. */
    final Trace trace;

    /**
     * Packet {@code p} was lost at {@code port} of {@code node} (port null: no route): the node counts it at that
     * place, and the flow and the trace learn it. Called in {@code node}'s partition only.
     */
    void dropped(Packet p, Node node, Port port, DropReason reason) {
        node.countDrop(p, port, reason);
        node.part.countDrop(p);
        node.part.lastDropPs = node.part.now;
        p.flow.recordLoss(p, node.part.now);
        if (trace != null) {
            trace.dropped(node.id, port == null ? -1 : port.index, p.flow.id, p.isData(), p.wireBytes, reason, node.part.now);
        }
    }

    /**
     * Spreads the nodes over several partitions: node {@code n} (and its ports, links,
     * PFC state and the transport ends at a host) runs in {@code parts[partOf[n]]}. Every switch
     * and link keeps its own random source, derived from the seed and its id ({@link #elementRandom}), so no draw
     * depends on the partition.
     */
    public void partition(Partition[] parts, int[] partOf) {
        for (Node n : nodes) {
            n.part = parts[partOf[n.id]];
        }
        assignElements();
        for (FlowState f : workload.flows) {
            f.transport.source = hosts[f.spec.source()].part;
            f.transport.destination = hosts[f.spec.destination()].part;
        }
    }

    /** The run's flows and their dependencies. */
    public Workload workload() {
        return workload;
    }

    /** Sets the run's flows and their dependencies (once, before the run). */
    public void setWorkload(Workload workload) {
        this.workload = workload;
    }

    /** Reports every enqueue and drop to {@code observer} (null: none). */
    public void observeQueueing(QueueingObserver observer) {
        this.queueingObserver = observer;
    }

    /** The number of ports of each node, by node id. */
    public int[] portsOfNodes() {
        int[] ports = new int[nodes.length];
        for (Node n : nodes) {
            ports[n.id] = n.ports.size();
        }
        return ports;
    }

    /**
     * The first node with more lanes in the order of simultaneous events than it allows ({@link CanonicalOrder}: one
     * per port plus {@code messageLanes} for the transport's messages, at most {@code MAX_LANE - 1}), or null.
     */
    public Node nodeBeyondTheLanes(int messageLanes) {
        for (Node n : nodes) {
            if (n.ports.size() + messageLanes > CanonicalOrder.MAX_LANE - 1) {
                return n;
            }
        }
        return null;
    }

    /**
     * Applies the engines' one order of simultaneous events ({@link CanonicalOrder}) to the run on its one partition
     * (before the run): the sequential engine then gives the results the parallel engine gives. Every switch and link
     * gets its own random source ({@link #elementRandom}), as on the parallel engine, instead of the run's shared one.
     */
    public void useCanonicalOrder() {
        main.applyCanonicalOrder(portsOfNodes());
        assignElements();
    }

    /**
     * Gives every port and link its node's partition (and each link the key of its arrivals there), and every link
     * and switch its own random source.
     */
    private void assignElements() {
        for (Node n : nodes) {
            for (Port p : n.ports) {
                p.part = n.part;
                p.link.assign(n.part, elementRandom(config.seed(), 2L * nodes.length + (long) n.id * 4096 + p.index));
            }
            if (n instanceof Switch sw) {
                sw.random = elementRandom(config.seed(), n.id);
            }
        }
    }

    /** A random source of element {@code id} of a run seeded {@code seed}: a function of the two only (SplitMix64 finaliser). */
    public static SplittableRandom elementRandom(long seed, long id) {
        long z = seed + (id + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E559L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return new SplittableRandom(z ^ (z >>> 31));
    }

    public Network(Topology topology, SimulationConfig config) {
        this(topology, config, null, null);
    }

    /**
     * The fabric with {@code pfc} in every switch (null: off). Each port's elements (queue, link,
     * pause state, ingress accounting) are allocated together, so they sit close in memory.
     */
    public Network(Topology topology, SimulationConfig config, Pfc pfc, Trace trace) {
        this(topology, config, pfc, null, trace);
    }

    /** As above, with the switches' PFC pausing on {@code pfcDynamic}'s alpha-based thresholds (null: static). */
    public Network(Topology topology, SimulationConfig config, Pfc pfc, fabriclab.fabric.PfcDynamicThreshold pfcDynamic,
            Trace trace) {
        this.topology = topology;
        this.config = config;
        this.pfc = pfc;
        this.pfcDynamic = pfcDynamic;
        this.trace = trace;
        this.main = new Partition(config.seed());
        this.random = new SplittableRandom(config.seed());
        int hostCount = topology.hosts();
        nodes = new Node[topology.nodes()];
        hosts = new HostNic[hostCount];
        switches = new Switch[topology.switches()];
        for (int h = 0; h < hostCount; h++) {
            hosts[h] = new HostNic(this, h);
            nodes[h] = hosts[h];
        }
        fabriclab.simulation.config.BufferPlan plan = config.bufferPlan();
        plan.check(topology, config.buffer());
        fabriclab.simulation.config.SwitchBuffer[] buffers = new fabriclab.simulation.config.SwitchBuffer[switches.length];
        for (int s = 0; s < switches.length; s++) {
            buffers[s] = plan.bufferOf(topology, s, config.buffer());
            switches[s] = new Switch(this, hostCount + s, s, config.forwarding().hasherOf(s), buffers[s]);
            nodes[hostCount + s] = switches[s];
        }
        List<LinkSpec> links = topology.links();
        linkPorts = new Port[links.size()][];
        for (int li = 0; li < linkPorts.length; li++) {
            LinkSpec l = links.get(li);
            Node a = nodes[l.nodeA()];
            Node b = nodes[l.nodeB()];
            Port pa = new Port(this, a, a.ports.size(), l.rateBitsPerSecond(), l.propagationPs(), config.priorities());
            Port pb = new Port(this, b, b.ports.size(), l.rateBitsPerSecond(), l.propagationPs(), config.priorities());
            pa.link.to = b;
            pa.link.toPort = pb;
            pb.link.to = a;
            pb.link.toPort = pa;
            a.ports.add(pa);
            b.ports.add(pb);
            if (a instanceof Switch sa) {
                pa.queue.limitBytes = plan.queueLimitBytes(topology, sa.switchIndex, pa.index, b.id, buffers[sa.switchIndex]);
                pa.unmarked = !plan.marksEcn(topology, sa.switchIndex, b.id);
            }
            if (b instanceof Switch sb) {
                pb.queue.limitBytes = plan.queueLimitBytes(topology, sb.switchIndex, pb.index, a.id, buffers[sb.switchIndex]);
                pb.unmarked = !plan.marksEcn(topology, sb.switchIndex, a.id);
            }
            linkPorts[li] = new Port[] {pa, pb};
        }
        for (Switch sw : switches) {
            sw.shareIngressState();
        }
        Routing.install(this);
    }

    /** Link {@code link} goes down in both directions: queued and propagating packets are lost. */
    public void failLink(int link) {
        linkPorts[link][0].fail();
        linkPorts[link][1].fail();
    }

    /** Link {@code link} leaves the routes: every switch recomputes its tables and ECMP re-hashes every flow. */
    public void withdrawLink(int link) {
        linkPorts[link][0].withdrawn = true;
        linkPorts[link][1].withdrawn = true;
        Routing.install(this);
        for (FlowState f : workload.flows) {
            java.util.Arrays.fill(f.ecmpEgress, null);
            java.util.Arrays.fill(f.reverseEcmpEgress, null);
        }
    }
}
