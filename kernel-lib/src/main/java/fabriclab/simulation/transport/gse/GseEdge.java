package fabriclab.simulation.transport.gse;

import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.HostNic;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Packet;
import fabriclab.simulation.element.PfcIngress;
import fabriclab.simulation.element.Port;
import fabriclab.simulation.element.Switch;
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
 * per host port, containers kept until confirmed and resent after the resend timeout) and destination
 * side (grant clock per host port, confirmation of complete containers, duplicate discarding, egress
 * reordering); and the container spraying of the switches between the edges ({@link Spray}). Traffic
 * between two hosts of one leaf goes through both sides of that leaf's edge, with no fabric hop and no
 * control latency ({@link #latencyTo}). See
 * {@link GseTransport} for the model. Counters: containers, grants, containers completed out of
 * order, local pauses, peak VOQ and reordering bytes, containers and packets resent, duplicates
 * discarded, containers abandoned (no route), the longest loop from sending to confirmation.
 */
public final class GseEdge implements Switch.EdgeFunction {
    private final Network net;
    private final Switch sw;
    private final GseTransport g;
    /** What the run's edges share: per host its edge, port and local pause, per flow its VOQ. */
    private final Tables tables;
    /** This edge's place among the run's edges. */
    private final int index;
    /**
     * The event lane of each sending edge's messages at this edge, after the lanes of its ports: a permutation of
     * the edges drawn for this edge from the run's seed (set by {@link #drawMessageOrders}). Engines that order
     * simultaneous events by lane use it; the sequential engine orders them as scheduled.
     */
    private int[] laneOfSender;
    /** This edge's VOQs by (source host, destination host): each pair's one, which its flows share. */
    private final Map<Long, Voq> voqs = new HashMap<>();
    private final Map<Integer, int[]> roundRobin = new HashMap<>();
    /** The local pauses of this edge's hosts (for the count of pauses). */
    private final List<PfcIngress> localPauses = new ArrayList<>();
    private long heldBytes; // destination side: bytes waiting for reordering
    private long voqBytes;
    // counters
    long containers;
    long grants;
    long containersReordered;
    long voqPeakBytes;
    long reorderPeakBytes;
    long containersResent;
    long packetsResent;
    long resentPayloadBytes;
    long duplicatesDiscarded;
    long containersAbandoned;
    long requestsConfirmed;
    long rtoPeakPs;
    long confirmLoopPeakPs;

    private static final class Voq {
        final int src;
        final int dst;
        final ArrayDeque<Packet> packets = new ArrayDeque<>();
        long bytes;
        long oldestPs;
        int nextContainer;
        boolean timerArmed;
        /** Containers sent and not yet known to be confirmed, in the order of their (last) sending. */
        final ArrayDeque<Container> unconfirmed = new ArrayDeque<>();
        boolean resendArmed;
        /** Smoothed loop (sending to confirmation) and its mean deviation, ps; -1: no sample yet. */
        long srttPs = -1;
        long rttvarPs;
        /** The current resend timeout, ps: at least the transport's {@code resendTimeoutPs}. */
        long rtoPs;
        /**
         * The destination edge's reordering of this pair's containers (its field alone: in the parallel engine the
         * destination edge may be in another partition than the source edge, which owns the fields above).
         */
        Reorder reorder;

        Voq(int src, int dst) {
            this.src = src;
            this.dst = dst;
        }
    }

    /**
     * A packet container: packets of one VOQ sent on one path under one grant. The source edge keeps
     * it (what its packets were, {@link #ids}) until the destination edge confirms it; the destination
     * edge holds its arriving packets in {@link #slots} until it is complete and its turn comes.
     */
    static final class Container {
        final Voq voq;
        final int number;
        /** Per packet, in order: (flow id << 32) | sequence number; what a resend rebuilds. */
        final long[] ids;
        /**
         * Per packet: before the first sending the packets to send; then, at the destination edge, the
         * first copy of each packet that arrived and is not yet forwarded to the host.
         */
        final Packet[] slots;
        final long payloadBytes;
        final long wireBytes;
        /** Packets held at the destination edge (distinct places). */
        int received;
        /** All packets arrived at the destination edge (later copies are duplicates). */
        boolean complete;
        /** Times sent (1 = never resent). */
        int sends;
        /** Time of the last sending, ps. */
        long sentPs;
        /**
         * Time the confirmation reaches the source edge, ps (Long.MAX_VALUE: not yet confirmed). Written by the
         * destination edge, read by the source edge: in the parallel engine the two may be in different
         * partitions, and the source reads it only to ask whether it is at most its own time, which is true only
         * when it was written at least the control latency earlier, in an earlier window (the lookahead is at
         * most that latency); volatile, so the read is never torn.
         */
        volatile long confirmedAtPs = Long.MAX_VALUE;

        Container(Voq voq, int number, Packet[] packets, long payloadBytes, long wireBytes) {
            this.voq = voq;
            this.number = number;
            this.slots = packets;
            this.ids = new long[packets.length];
            for (int i = 0; i < packets.length; i++) {
                Packet p = packets[i];
                ids[i] = ((long) p.flow().id << 32) | (p.seq() & 0xFFFFFFFFL);
                p.attach(this, i);
            }
            this.payloadBytes = payloadBytes;
            this.wireBytes = wireBytes;
        }
    }

    /**
     * A pair's containers complete at the destination edge and not yet forwarded because an earlier one is missing:
     * a ring indexed by container number, holding numbers {@code next} to {@code next + ring.length - 1}.
     */
    private static final class Reorder {
        int next;
        Container[] ring = new Container[8];

        void put(Container c) {
            while (c.number - next >= ring.length) { // grow: keep each waiting container at its number's place
                Container[] bigger = new Container[2 * ring.length];
                for (Container w : ring) {
                    if (w != null) {
                        bigger[w.number & (bigger.length - 1)] = w;
                    }
                }
                ring = bigger;
            }
            ring[c.number & (ring.length - 1)] = c;
        }

        /** Removes and returns container {@code next} if it is complete, advancing {@code next}; else null. */
        Container takeNext() {
            int i = next & (ring.length - 1);
            Container c = ring[i];
            if (c == null || c.number != next) {
                return null;
            }
            ring[i] = null;
            next++;
            return c;
        }
    }

    /** Per host its edge, port at its edge and local pause; per flow its VOQ (each entry written by one edge only). */
    private static final class Tables {
        final GseEdge[] edgeOfHost;
        final Port[] portOfHost;
        final PfcIngress[] localPauseOfHost;
        /** Per destination host, the time its port is granted up to, ps (its edge's grant clock). */
        final long[] nextGrantPsOfHost;
        final Voq[] voqOfFlow;

        Tables(int hosts, int flows) {
            edgeOfHost = new GseEdge[hosts];
            portOfHost = new Port[hosts];
            localPauseOfHost = new PfcIngress[hosts];
            nextGrantPsOfHost = new long[hosts];
            voqOfFlow = new Voq[flows];
        }
    }

    private GseEdge(Network net, Switch sw, GseTransport g, Tables tables, int index) {
        this.net = net;
        this.index = index;
        this.sw = sw;
        this.g = g;
        this.tables = tables;
    }

    /** Attaches an edge to every switch with host ports; returns the edges. */
    static List<GseEdge> install(Network net, GseTransport g) {
        Tables tables = new Tables(net.topology.hosts(), net.workload().flows.size());
        List<GseEdge> edges = new ArrayList<>();
        Pfc local = new Pfc(g.localXoffBytes(), g.localXonBytes(), 0, Pfc.MAX_QUANTA);
        for (Switch sw : net.switches) {
            GseEdge e = null;
            for (Port p : sw.ports) {
                if (p.peer() instanceof HostNic h) {
                    if (e == null) {
                        e = new GseEdge(net, sw, g, tables, edges.size());
                        edges.add(e);
                    }
                    PfcIngress pause = new PfcIngress(p, local, net.config.priorities(), true);
                    e.localPauses.add(pause);
                    tables.portOfHost[h.id] = p;
                    tables.localPauseOfHost[h.id] = pause;
                    tables.edgeOfHost[h.id] = e;
                }
            }
            sw.attachEdge(e != null ? e : new Spray(sw));
        }
        return edges;
    }

    /**
     * Draws, for each edge, the order in which it takes simultaneous messages of the other edges when the engine
     * orders them by lane ({@link #message}): a permutation of the edges per receiving edge, from the run's seed.
     */
    static void drawMessageOrders(Network net, List<GseEdge> edges) {
        // An engine that orders by lane handles simultaneous messages at an edge in the order of their lanes. Were
        // that the sending edge's index, the same order at every edge, every source edge would send its containers
        // granted at one instant toward the lowest destination leaf first, all at once: an incast at the spines
        // that the sequential engine's order does not make. So each edge orders its senders by a permutation of
        // its own, drawn from the run's seed: no order is shared.
        for (GseEdge e : edges) {
            int[] lane = new int[edges.size()];
            for (int i = 0; i < lane.length; i++) {
                lane[i] = i;
            }
            java.util.SplittableRandom r = Network.elementRandom(net.config.seed(), (1L << 40) + e.sw.id);
            for (int i = lane.length - 1; i > 0; i--) { // Fisher-Yates
                int j = r.nextInt(i + 1);
                int t = lane[i];
                lane[i] = lane[j];
                lane[j] = t;
            }
            e.laneOfSender = lane;
        }
    }

    /**
     * The container spraying of a switch between the edges (a spine): a data packet of a container goes
     * to the shortest-path candidate {@code (container number + source host) mod candidates}, so all
     * packets of a container take one path and a pair's consecutive containers rotate over parallel
     * links; with a single candidate (one link per switch pair) the switch forwards as any other.
     */
    static final class Spray implements Switch.EdgeFunction {
        private final Switch sw;

        Spray(Switch sw) {
            this.sw = sw;
        }

        @Override
        public boolean intercept(Packet p, long now) {
            Container c = (Container) p.attachment();
            if (c == null || !p.isData() || p.flow().pinned()) {
                return false;
            }
            int[] cands = sw.routesTo(p.destination());
            if (cands == null || cands.length == 1) {
                return false; // the switch's own forwarding: one candidate, or unroutable
            }
            sw.admit(p, sw.ports.get(cands[(int) ((c.number + (long) c.voq.src) % cands.length)]));
            return true;
        }
    }

    /** Local pauses of this edge's hosts (pause assertions, not refreshes). */
    long localPauses() {
        long n = 0;
        for (PfcIngress p : localPauses) {
            n += p.pauseAssertions();
        }
        return n;
    }

    /**
     * Every data packet of one of this edge's hosts joins its VOQ, whatever its destination: a host of another edge
     * or a host of this one (whose containers go through the same request, grant and confirmation, with no fabric
     * hop, see {@link #sendContainer}). A packet of a container from another edge, for one of this edge's hosts, goes
     * to the destination side. Anything else (a packet passing through) is forwarded as by any switch.
     */
    @Override
    public boolean intercept(Packet p, long now) {
        if (!p.isData()) {
            return false;
        }
        if (p.ingress() != null && p.ingress().peer() instanceof HostNic) {
            enqueueAtSource(p, p.flow().spec.source(), p.destination(), now);
            return true;
        }
        if (p.attachment() != null && tables.edgeOfHost[p.destination()] == this) {
            arriveAtDestination(p, (Container) p.attachment(), now);
            return true;
        }
        return false;
    }

    /**
     * One-way latency of a request, grant or confirmation from this edge to edge {@code to} [ps]: the transport's
     * {@code controlLatencyPs} to another edge (its message crosses the fabric), 0 to itself (a container between
     * two hosts of this edge: the request and grant stay in the switch, whose processing takes no time in this
     * simulator, as its forwarding).
     */
    private long latencyTo(GseEdge to) {
        return to == this ? 0 : g.controlLatencyPs();
    }

    // ------------------------------------------------------------------ source side

    private void enqueueAtSource(Packet p, int src, int dst, long now) {
        Voq v = tables.voqOfFlow[p.flow().id];
        if (v == null) { // the flow's first packet: its pair's VOQ, new if the pair has none
            v = voqs.computeIfAbsent(((long) src << 32) | dst, k -> {
                Voq n = new Voq(src, dst);
                n.rtoPs = g.resendTimeoutPs();
                return n;
            });
            tables.voqOfFlow[p.flow().id] = v;
        }
        if (v.packets.isEmpty()) {
            v.oldestPs = now;
        }
        v.packets.addLast(p);
        v.bytes += p.payloadBytes();
        voqBytes += p.wireBytes();
        voqPeakBytes = Math.max(voqPeakBytes, voqBytes);
        tables.localPauseOfHost[src].admitted(p.priority(), p.wireBytes());
        while (v.bytes >= g.containerBytes()) {
            close(v, now);
        }
        if (!v.packets.isEmpty() && !v.timerArmed) {
            v.timerArmed = true;
            sw.partition().events().schedule(v.oldestPs + g.assemblyTimeoutPs(), assemblyTimer, v);
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
            sw.partition().events().schedule(Math.max(now + 1, v.oldestPs + g.assemblyTimeoutPs()), assemblyTimer, v);
        }
    }

    /** Closes a container from the head of the VOQ and requests a grant for it. */
    private void close(Voq v, long now) {
        int n = 0;
        long payload = 0;
        long wire = 0;
        for (Packet p : v.packets) {
            if (n > 0 && payload + p.payloadBytes() > g.containerBytes()) {
                break;
            }
            n++;
            payload += p.payloadBytes();
            wire += p.wireBytes();
        }
        Packet[] packets = new Packet[n];
        for (int i = 0; i < n; i++) {
            packets[i] = v.packets.pollFirst();
        }
        Container c = new Container(v, v.nextContainer++, packets, payload, wire);
        v.bytes -= c.payloadBytes;
        v.oldestPs = now;
        containers++;
        request(c, now);
    }

    /** Asks the destination edge for a grant for {@code c}. */
    private void request(Container c, long now) {
        GseEdge dstEdge = tables.edgeOfHost[c.voq.dst];
        message(dstEdge, now + latencyTo(dstEdge), dstEdge.requestArrival, c);
    }

    /**
     * Sends a control message (a request or a grant) about {@code c} to edge {@code to}, handled there by
     * {@code handler} at {@code timePs}, through this edge's partition (which may run {@code to} in another
     * thread). It goes on this edge's own lane at {@code to}, after the lanes of {@code to}'s ports, in {@code to}'s
     * own order of the edges, so that an engine ordering by lane handles simultaneous messages in one order
     * whatever the partitioning.
     */
    private void message(GseEdge to, long timePs, EventHandler handler, Container c) {
        sw.partition().deliverOnLane(timePs, handler, c, to.sw, to.sw.ports.size() + to.laneOfSender[index]);
    }

    private final EventHandler grantArrival = (now, payload) -> sendContainer((Container) payload, now);

    /**
     * A grant for {@code c} arrived: the container goes out on the next uplink of the spraying turn, the
     * first time with the host's packets, later as fresh copies of them (a resend), unless its confirmation
     * arrived while the resend waited for its grant. A container for a host of this edge takes no uplink: its
     * packets reach this edge's destination side at once ({@link #arriveAtDestination}: held until the container is
     * complete, confirmed, reordered and forwarded to the host port the grant reserved), as a container from another
     * edge reaches it after the fabric.
     */
    private void sendContainer(Container c, long now) {
        boolean first = c.sends == 0;
        if (first) {
            voqBytes -= c.wireBytes;
            tables.localPauseOfHost[c.voq.src].released(0, c.wireBytes);
        } else if (c.confirmedAtPs <= now) {
            return;
        }
        c.sends++;
        int dst = c.voq.dst;
        int[] cands = sw.routesTo(dst);
        if (cands == null) { // destination unreachable (the fabric is partitioned): dropped, not resent
            if (first) {
                for (int i = 0; i < c.slots.length; i++) {
                    sw.unroutable(c.slots[i]);
                    c.slots[i] = null;
                }
            }
            containersAbandoned++;
            return;
        }
        Port up = null; // null: a host of this edge, no fabric hop
        if (tables.edgeOfHost[dst] != this) {
            int[] rr = roundRobin.computeIfAbsent(dst, k -> new int[1]);
            int k = rr[0] % cands.length;
            rr[0] = k + 1;
            up = sw.ports.get(cands[k]);
        }
        if (first) {
            for (int i = 0; i < c.slots.length; i++) {
                Packet p = c.slots[i];
                c.slots[i] = null; // from now on the destination edge's places
                p.stamp(now); // the sending of its copy, for the confirmation loop at the destination edge
                transmit(p, c, up, now);
            }
        } else {
            containersResent++;
            int mtu = net.config.mtuBytes();
            int header = net.config.headerBytes();
            for (int i = 0; i < c.ids.length; i++) {
                FlowState f = net.workload().flows.get((int) (c.ids[i] >>> 32));
                int seq = (int) c.ids[i];
                int payload = f.payloadOf(seq, mtu);
                Packet p = sw.partition().packets.data(f, seq, payload, payload + header, f.spec.priority());
                p.attach(c, i);
                p.stamp(now);
                f.countRetransmission(0); // the resent payload: GseEdge's own count (resentPayloadBytes)
                packetsResent++;
                resentPayloadBytes += payload;
                transmit(p, c, up, now);
            }
        }
        c.sentPs = now;
        Voq v = c.voq;
        v.unconfirmed.addLast(c);
        if (!v.resendArmed) {
            v.resendArmed = true;
            sw.partition().events().schedule(now + v.rtoPs, resendTimer, v);
        }
    }

    /**
     * Packet {@code p} of container {@code c} leaves on uplink {@code up}, or, with none (a host of this edge), reaches
     * this edge's destination side.
     */
    private void transmit(Packet p, Container c, Port up, long now) {
        if (up != null) {
            sw.admit(p, up);
        } else {
            arriveAtDestination(p, c, now);
        }
    }

    private final EventHandler resendTimer = this::onResendTimer;

    /**
     * The resend timer of a VOQ: forgets the confirmed containers at the head of its unconfirmed list
     * (each one sent once is a sample of the loop), requests again every container sent at least the
     * current timeout ago and not confirmed, and re-arms for the oldest one left.
     */
    private void onResendTimer(long now, Object payload) {
        Voq v = (Voq) payload;
        v.resendArmed = false;
        ArrayDeque<Container> u = v.unconfirmed;
        while (!u.isEmpty()) {
            Container c = u.peekFirst();
            if (c.confirmedAtPs <= now) {
                u.pollFirst();
                if (c.sends == 1) { // Karn: the loop of a resent container is ambiguous
                    sample(v, c.confirmedAtPs - c.sentPs);
                }
            } else if (now - c.sentPs >= v.rtoPs) {
                u.pollFirst();
                request(c, now); // back in the list when it is sent again
            } else {
                break;
            }
        }
        if (!u.isEmpty()) {
            v.resendArmed = true;
            sw.partition().events().schedule(Math.max(now + 1, u.peekFirst().sentPs + v.rtoPs), resendTimer, v);
        }
    }

    /**
     * One loop sample {@code r} of VOQ {@code v} [ps]: srtt and rttvar as Jacobson and Karels (RFC 6298:
     * rttvar = 3/4 rttvar + 1/4 |srtt - r|, srtt = 7/8 srtt + 1/8 r; the first sample sets srtt = r,
     * rttvar = r / 2), and timeout = max(resendTimeoutPs, srtt + 4 rttvar), at most 1 s.
     */
    private void sample(Voq v, long r) {
        if (v.srttPs < 0) {
            v.srttPs = r;
            v.rttvarPs = r / 2;
        } else {
            v.rttvarPs = (3 * v.rttvarPs + Math.abs(v.srttPs - r)) / 4;
            v.srttPs = (7 * v.srttPs + r) / 8;
        }
        v.rtoPs = Math.min(GseTransport.MAX_TIME_PS, Math.max(g.resendTimeoutPs(), v.srttPs + 4 * v.rttvarPs));
        rtoPeakPs = Math.max(rtoPeakPs, v.rtoPs);
    }

    // ------------------------------------------------------------------ destination side

    /** A request reached this (destination) edge: grant at the host port's rate, first come first served. */
    private final EventHandler requestArrival = this::onRequest;

    private void onRequest(long now, Object payload) {
        Container c = (Container) payload;
        if (c.complete) { // a repeated request for a container this edge already holds: its confirmation answers it
            requestsConfirmed++;
            return;
        }
        int dst = c.voq.dst;
        Port port = tables.portOfHost[dst];
        long t = Math.max(now, tables.nextGrantPsOfHost[dst]);
        tables.nextGrantPsOfHost[dst] = t + Time.serializationPs(c.wireBytes, port.link.rateBitsPerSecond);
        grants++;
        GseEdge srcEdge = tables.edgeOfHost[c.voq.src];
        message(srcEdge, t + latencyTo(srcEdge), srcEdge.grantArrival, c);
    }

    /**
     * A packet of container {@code c} reached its destination edge: a duplicate (the container is complete, or
     * this place already holds a copy) is discarded; otherwise it is held until its container is complete,
     * which confirms the container to the source edge, and then until every earlier container of its
     * source-destination pair has been forwarded (egress reordering).
     */
    private void arriveAtDestination(Packet p, Container c, long now) {
        int i = p.attachmentIndex();
        if (c.complete || c.slots[i] != null) {
            duplicatesDiscarded++;
            p.flow().countDuplicate();
            net.workload().discard(p);
            sw.partition().packets.recycle(p); // consumed: the last use of p
            return;
        }
        c.slots[i] = p;
        heldBytes += p.wireBytes();
        reorderPeakBytes = Math.max(reorderPeakBytes, heldBytes);
        c.received++;
        if (c.received < c.slots.length) {
            return;
        }
        c.complete = true;
        c.confirmedAtPs = now + latencyTo(tables.edgeOfHost[c.voq.src]); // the confirmation reaches the source edge then
        // the loop of the copy whose packet completed the container (the packet carries its sending time: the
        // source's own record of its last sending may change in another partition of the parallel engine meanwhile)
        confirmLoopPeakPs = Math.max(confirmLoopPeakPs, c.confirmedAtPs - p.aux());
        Reorder r = c.voq.reorder;
        if (r == null) {
            r = c.voq.reorder = new Reorder();
        }
        if (c.number != r.next) {
            containersReordered++;
        }
        r.put(c);
        Container ready;
        Port out = tables.portOfHost[c.voq.dst];
        while ((ready = r.takeNext()) != null) {
            for (int k = 0; k < ready.slots.length; k++) {
                Packet q = ready.slots[k];
                ready.slots[k] = null;
                heldBytes -= q.wireBytes();
                q.detach();
                sw.admitReserved(q, out); // the grant reserved its place: never tail-dropped after confirmation
            }
        }
    }
}
