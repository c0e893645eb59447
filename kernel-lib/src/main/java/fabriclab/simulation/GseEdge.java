package fabriclab.simulation;

import fabriclab.fabric.Pfc;
import fabriclab.fabric.Time;
import fabriclab.simulation.event.EventHandler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The GSE edge function of one leaf (package-private): source side (VOQs, container assembly,
 * requests, spraying of granted containers, local pause of its hosts through a {@link PfcIngress}
 * per host port) and destination side (grant clock per host port, egress reordering). See
 * {@link GseTransport} for the model. Counters: containers, grants, containers completed out of
 * order, local pauses, peak VOQ and reordering bytes.
 */
final class GseEdge implements Switch.EdgeFunction {
    private final Network net;
    private final Switch sw;
    private final GseTransport g;
    private final GseEdge[] edgeOfHost;
    private final Map<Integer, Port> hostPort = new HashMap<>();
    private final Map<Long, Voq> voqs = new HashMap<>();
    private final Map<Long, Reorder> reorders = new HashMap<>();
    private final Map<Integer, Long> nextGrantPs = new HashMap<>();
    private final Map<Integer, int[]> roundRobin = new HashMap<>();
    /** Per local host: its bytes waiting at this edge, which pause the host above the local XOFF. */
    private final Map<Integer, PfcIngress> localPause = new HashMap<>();
    private long heldBytes; // destination side: bytes waiting for reordering
    private long voqBytes;
    // counters
    long containers;
    long grants;
    long containersReordered;
    long voqPeakBytes;
    long reorderPeakBytes;

    private static final class Voq {
        final int src;
        final int dst;
        final ArrayDeque<Packet> packets = new ArrayDeque<>();
        long bytes;
        long oldestPs;
        int nextContainer;
        boolean timerArmed;

        Voq(int src, int dst) {
            this.src = src;
            this.dst = dst;
        }
    }

    /** A packet container: packets of one VOQ sent on one path under one grant. */
    static final class Container {
        final Voq voq;
        final int number;
        final List<Packet> packets = new ArrayList<>(4);
        long payloadBytes;
        long wireBytes;
        int received;

        Container(Voq voq, int number) {
            this.voq = voq;
            this.number = number;
        }
    }

    private static final class Reorder {
        int next;
        final Map<Integer, Container> complete = new HashMap<>();
    }

    private GseEdge(Network net, Switch sw, GseTransport g, GseEdge[] edgeOfHost) {
        this.net = net;
        this.sw = sw;
        this.g = g;
        this.edgeOfHost = edgeOfHost;
    }

    /** Attaches an edge to every switch with host ports; returns the edges. */
    static List<GseEdge> install(Network net, GseTransport g) {
        GseEdge[] edgeOfHost = new GseEdge[net.topology.hosts()];
        List<GseEdge> edges = new ArrayList<>();
        Pfc local = new Pfc(g.localXoffBytes(), g.localXonBytes(), 0, Pfc.MAX_QUANTA);
        for (Switch sw : net.switches) {
            GseEdge e = null;
            for (Port p : sw.ports) {
                if (p.peer() instanceof HostNic h) {
                    if (e == null) {
                        e = new GseEdge(net, sw, g, edgeOfHost);
                        edges.add(e);
                    }
                    e.hostPort.put(h.id, p);
                    e.localPause.put(h.id, new PfcIngress(p, local, net.config.priorities(), true));
                    edgeOfHost[h.id] = e;
                }
            }
            sw.edge = e;
        }
        return edges;
    }

    /** Local pauses of this edge's hosts (pause assertions, not refreshes). */
    long localPauses() {
        long n = 0;
        for (PfcIngress p : localPause.values()) {
            n += p.pauseAssertions;
        }
        return n;
    }

    @Override
    public boolean intercept(Packet p, long now) {
        if (!p.isData()) {
            return false;
        }
        int src = p.flow.spec.source();
        int dst = p.destination;
        boolean fromLocalHost = p.ingress != null && p.ingress.peer() instanceof HostNic;
        boolean toLocalHost = hostPort.containsKey(dst);
        if (fromLocalHost && !toLocalHost) {
            enqueueAtSource(p, src, dst, now);
            return true;
        }
        if (!fromLocalHost && toLocalHost && p.container != null) {
            arriveAtDestination(p, p.container);
            return true;
        }
        return false;
    }

    // ------------------------------------------------------------------ source side

    private void enqueueAtSource(Packet p, int src, int dst, long now) {
        long key = ((long) src << 32) | dst;
        Voq v = voqs.computeIfAbsent(key, k -> new Voq(src, dst));
        if (v.packets.isEmpty()) {
            v.oldestPs = now;
        }
        v.packets.addLast(p);
        v.bytes += p.payloadBytes;
        voqBytes += p.wireBytes;
        voqPeakBytes = Math.max(voqPeakBytes, voqBytes);
        localPause.get(src).admitted(p.priority, p.wireBytes);
        while (v.bytes >= g.containerBytes()) {
            close(v, now);
        }
        if (!v.packets.isEmpty() && !v.timerArmed) {
            v.timerArmed = true;
            net.main.events.schedule(v.oldestPs + g.assemblyTimeoutPs(), assemblyTimer, v);
        }
    }

    private final EventHandler assemblyTimer = this::onAssemblyTimer;

    private void onAssemblyTimer(long now, Object payload) {
        Voq v = (Voq) payload;
        v.timerArmed = false;
        if (!v.packets.isEmpty() && now - v.oldestPs >= g.assemblyTimeoutPs()) {
            close(v, now);
        }
        if (!v.packets.isEmpty()) {
            v.timerArmed = true;
            net.main.events.schedule(Math.max(now + 1, v.oldestPs + g.assemblyTimeoutPs()), assemblyTimer, v);
        }
    }

    /** Closes a container from the head of the VOQ and requests a grant for it. */
    private void close(Voq v, long now) {
        Container c = new Container(v, v.nextContainer++);
        while (!v.packets.isEmpty() && (c.packets.isEmpty()
                || c.payloadBytes + v.packets.peekFirst().payloadBytes <= g.containerBytes())) {
            Packet p = v.packets.pollFirst();
            p.container = c;
            c.packets.add(p);
            c.payloadBytes += p.payloadBytes;
            c.wireBytes += p.wireBytes;
        }
        v.bytes -= c.payloadBytes;
        v.oldestPs = now;
        containers++;
        GseEdge dstEdge = edgeOfHost[v.dst];
        net.main.events.schedule(now + g.controlLatencyPs(), dstEdge.requestArrival, c);
    }

    private final EventHandler grantArrival = (now, payload) -> sendContainer((Container) payload);

    private void sendContainer(Container c) {
        int dst = c.voq.dst;
        int[] cands = sw.routes[dst];
        voqBytes -= c.wireBytes;
        localPause.get(c.voq.src).released(0, c.wireBytes);
        if (cands == null) { // destination unreachable (failures)
            for (Packet p : c.packets) {
                sw.unroutable(p);
            }
            return;
        }
        int[] rr = roundRobin.computeIfAbsent(dst, k -> new int[1]);
        int k = rr[0] % cands.length;
        rr[0] = k + 1;
        Port up = sw.ports.get(cands[k]);
        for (Packet p : c.packets) {
            sw.admit(p, up);
        }
    }

    // ------------------------------------------------------------------ destination side

    /** A request reached this (destination) edge: grant at the host port's rate, first come first served. */
    private final EventHandler requestArrival = this::onRequest;

    private void onRequest(long now, Object payload) {
        Container c = (Container) payload;
        Port port = hostPort.get(c.voq.dst);
        long t = Math.max(now, nextGrantPs.getOrDefault(c.voq.dst, 0L));
        nextGrantPs.put(c.voq.dst, t + Time.serializationPs(c.wireBytes, port.link.rateBitsPerSecond));
        grants++;
        GseEdge srcEdge = edgeOfHost[c.voq.src];
        net.main.events.schedule(t + g.controlLatencyPs(), srcEdge.grantArrival, c);
    }

    private void arriveAtDestination(Packet p, Container c) {
        heldBytes += p.wireBytes;
        reorderPeakBytes = Math.max(reorderPeakBytes, heldBytes);
        c.received++;
        if (c.received < c.packets.size()) {
            return;
        }
        long key = ((long) c.voq.src << 32) | c.voq.dst;
        Reorder r = reorders.computeIfAbsent(key, k -> new Reorder());
        if (c.number != r.next) {
            containersReordered++;
        }
        r.complete.put(c.number, c);
        Container ready;
        while ((ready = r.complete.remove(r.next)) != null) {
            r.next++;
            Port out = hostPort.get(ready.voq.dst);
            for (Packet q : ready.packets) {
                heldBytes -= q.wireBytes;
                q.container = null;
                sw.admit(q, out);
            }
        }
    }
}
