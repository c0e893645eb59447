package fabriclab.simulation;

import fabriclab.fabric.Time;
import fabriclab.fabric.Pfc;
import fabriclab.simulation.event.EventHandler;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The GSE edge function of one leaf (package-private): source side (VOQs, container assembly,
 * requests, spraying of granted containers, local PFC) and destination side (grant clock per host
 * port, egress reordering). See {@link GseTransport} for the model.
 */
final class GseEdge implements SwitchNode.EdgeFunction {
    private final Simulator sim;
    private final SwitchNode sw;
    private final GseTransport g;
    private final GseEdge[] edgeOfHost;
    private final Map<Integer, Port> hostPort = new HashMap<>();
    private final Map<Long, Voq> voqs = new HashMap<>();
    private final Map<Long, Reorder> reorders = new HashMap<>();
    private final Map<Integer, Long> nextGrantPs = new HashMap<>();
    private final Map<Integer, int[]> roundRobin = new HashMap<>();
    private final Map<Integer, long[]> backlog = new HashMap<>(); // per local host: {bytes, paused 0/1, pause generation}
    private long heldBytes; // destination side: bytes waiting for reordering
    private long voqBytes;

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

    private static final class Container {
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

    private GseEdge(Simulator sim, SwitchNode sw, GseTransport g, GseEdge[] edgeOfHost) {
        this.sim = sim;
        this.sw = sw;
        this.g = g;
        this.edgeOfHost = edgeOfHost;
    }

    /** Attaches an edge to every switch with host ports. */
    static void install(Simulator sim, GseTransport g) {
        GseEdge[] edgeOfHost = new GseEdge[sim.topology.hosts()];
        for (SwitchNode sw : sim.switches) {
            GseEdge e = null;
            for (Port p : sw.ports) {
                if (p.peer instanceof Host h) {
                    if (e == null) {
                        e = new GseEdge(sim, sw, g, edgeOfHost);
                    }
                    e.hostPort.put(h.id, p);
                    e.backlog.put(h.id, new long[3]);
                    edgeOfHost[h.id] = e;
                }
            }
            sw.edge = e;
        }
    }

    @Override
    public boolean intercept(Packet p, long now) {
        if (!p.isData()) {
            return false;
        }
        int src = p.flow.spec.source();
        int dst = p.destination;
        boolean fromLocalHost = p.ingress != null && p.ingress.peer instanceof Host;
        boolean toLocalHost = hostPort.containsKey(dst);
        if (fromLocalHost && !toLocalHost) {
            enqueueAtSource(p, src, dst, now);
            return true;
        }
        if (!fromLocalHost && toLocalHost && p.tag instanceof Container c) {
            arriveAtDestination(p, c);
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
        sim.counters.merge("gse.voqPeakBytes", voqBytes, Math::max);
        long[] b = backlog.get(src);
        b[0] += p.wireBytes;
        if (b[1] == 0 && b[0] > g.localXoffBytes()) {
            b[1] = 1;
            pauseHost(src, b);
        }
        while (v.bytes >= g.containerBytes()) {
            close(v, now);
        }
        if (!v.packets.isEmpty() && !v.timerArmed) {
            v.timerArmed = true;
            sim.events.schedule(v.oldestPs + g.assemblyTimeoutPs(), assemblyTimer, v);
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
            sim.events.schedule(Math.max(now + 1, v.oldestPs + g.assemblyTimeoutPs()), assemblyTimer, v);
        }
    }

    /** Closes a container from the head of the VOQ and requests a grant for it. */
    private void close(Voq v, long now) {
        Container c = new Container(v, v.nextContainer++);
        while (!v.packets.isEmpty() && (c.packets.isEmpty()
                || c.payloadBytes + v.packets.peekFirst().payloadBytes <= g.containerBytes())) {
            Packet p = v.packets.pollFirst();
            p.tag = c;
            c.packets.add(p);
            c.payloadBytes += p.payloadBytes;
            c.wireBytes += p.wireBytes;
        }
        v.bytes -= c.payloadBytes;
        v.oldestPs = now;
        sim.count("gse.containers", 1);
        GseEdge dstEdge = edgeOfHost[v.dst];
        sim.events.schedule(now + g.controlLatencyPs(), dstEdge.requestArrival, c);
    }

    private final EventHandler grantArrival = (now, payload) -> sendContainer((Container) payload);

    private void sendContainer(Container c) {
        int dst = c.voq.dst;
        int[] cands = sw.routes[dst];
        long[] b = backlog.get(c.voq.src);
        b[0] -= c.wireBytes;
        voqBytes -= c.wireBytes;
        if (b[1] == 1 && b[0] < g.localXonBytes()) {
            b[1] = 0;
            b[2]++;
            Port hp = hostPort.get(c.voq.src);
            for (int pr = 0; pr < sim.config.priorities(); pr++) {
                hp.sendPause(pr, 0);
            }
        }
        if (cands == null) { // destination unreachable (failures)
            for (Packet p : c.packets) {
                sim.drop(p, null);
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

    private void pauseHost(int src, long[] b) {
        sim.count("gse.localPauses", 1);
        Port hp = hostPort.get(src);
        int quanta = 65535;
        for (int pr = 0; pr < sim.config.priorities(); pr++) {
            hp.sendPause(pr, quanta);
        }
        long gen = ++b[2];
        long refresh = Math.max(1, Pfc.quantaPs(quanta, hp.rateBps) / 2);
        sim.events.schedule(sim.now + refresh, new EventHandler() {
            @Override
            public void handle(long now, Object ignored) {
                if (b[1] == 1 && b[2] == gen) {
                    for (int pr = 0; pr < sim.config.priorities(); pr++) {
                        hp.sendPause(pr, quanta);
                    }
                    sim.events.schedule(now + refresh, this, null);
                }
            }
        }, null);
    }

    // ------------------------------------------------------------------ destination side

    /** A request reached this (destination) edge: grant at the host port's rate, first come first served. */
    private final EventHandler requestArrival = this::onRequest;

    private void onRequest(long now, Object payload) {
        Container c = (Container) payload;
        Port port = hostPort.get(c.voq.dst);
        long t = Math.max(now, nextGrantPs.getOrDefault(c.voq.dst, 0L));
        nextGrantPs.put(c.voq.dst, t + Time.serializationPs(c.wireBytes, port.rateBps));
        sim.count("gse.grants", 1);
        GseEdge srcEdge = edgeOfHost[c.voq.src];
        sim.events.schedule(t + g.controlLatencyPs(), srcEdge.grantArrival, c);
    }

    private void arriveAtDestination(Packet p, Container c) {
        heldBytes += p.wireBytes;
        sim.counters.merge("gse.reorderPeakBytes", heldBytes, Math::max);
        c.received++;
        if (c.received < c.packets.size()) {
            return;
        }
        long key = ((long) c.voq.src << 32) | c.voq.dst;
        Reorder r = reorders.computeIfAbsent(key, k -> new Reorder());
        if (c.number != r.next) {
            sim.count("gse.containersReordered", 1);
        }
        r.complete.put(c.number, c);
        Container ready;
        while ((ready = r.complete.remove(r.next)) != null) {
            r.next++;
            Port out = hostPort.get(ready.voq.dst);
            for (Packet q : ready.packets) {
                heldBytes -= q.wireBytes;
                q.tag = null;
                sw.admit(q, out);
            }
        }
    }
}
