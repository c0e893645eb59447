package fabriclab.simulation.element;

import fabriclab.simulation.trace.DropReason;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.fabric.EcnMarking;
import fabriclab.loadbalancing.hash.EcmpHasher;

/**
 * An output-queued switch: zero processing delay; an arriving packet is offered to the switch's
 * {@link EdgeFunction} if it has one (a GSE edge), else routed on the spot to an egress port chosen
 * by the run's {@link Forwarding} among the routing table's candidates, then admitted if the switch's shared
 * buffer and the egress queue's limit allow ({@link SwitchBuffer}, per switch and port by the run's
 * {@link fabriclab.simulation.config.BufferPlan}; tail drop otherwise), ECN-marked by the one
 * marking curve ({@link EcnMarking}) on the occupancy of its (port, priority) queue (at enqueue, the queue it
 * finds; or, with {@link SwitchBuffer.MarkingPoint#DEQUEUE}, when it starts its transmission, the queue it
 * leaves behind), accounted at its ingress port for PFC ({@link PfcIngress}), and queued. Buffer bytes are held
 * from admission until the last bit leaves. Counters: peak buffer use, packets black-holed on a
 * failed link before the routes changed, packets with no route.
 */
public final class Switch extends Node {
    public final int switchIndex;
    final EcmpHasher hasher;
    /** Per destination host: candidate egress port indices (null: unreachable); owned by {@link Routing}. */
    int[][] routes;
    private int[] roundRobin; // per destination host
    /** The random source of spraying and ECN marking: the run's, or this switch's own ({@link Network#elementRandom}) under the canonical order. */
    java.util.SplittableRandom random;
    long usedBytes;
    long peakUsedBytes;
    long blackholedPackets;
    long unroutablePackets;
    /** GSE edge functions of this switch, or null for a plain switch. */
    EdgeFunction edge;
    /** Called for every data packet admitted above Kmin (iQCN), or null. */
    CongestionPoint congestionPoint;
    /**
     * Packet trimming (null: off): a data packet that would take its (port, priority) queue above the threshold, or
     * find no room, is cut to a header and queued ahead of the data, as are the control packets of the run.
     */
    private Trimming trimming;
    /** Data packets this switch trimmed. */
    long trimmedPackets;
    /** Payload bytes this switch cut from the packets it trimmed. */
    long trimmedPayloadBytes;
    /** Tier of this switch in the topology (0 = leaf). */
    public final int tier;
    /** Priority given to packets bouncing through this leaf (switch to switch), or -1. */
    int hookPriority = -1;
    // the run's configuration, read at every packet: kept in fields to save the indirections
    private final Forwarding.Mode mode;
    /** The flowlet inactivity interval of adaptive routing per flowlet [ps]. */
    private final long flowletGapPs;
    private final long sharedBytes;
    private final EcnMarking marking;
    private final long kminBytes;
    /** 0, or the port rate the marking thresholds are written for (they scale with each port's rate). */
    private final long ecnReferenceRate;
    /** Whether ECN marks are decided as a packet leaves its queue ({@link SwitchBuffer.MarkingPoint#DEQUEUE}). */
    final boolean marksAtDequeue;
    /**
     * The PFC ingress counters of all this switch's ports, {@link PfcIngress#STRIDE} longs per
     * priority from each port's {@link PfcIngress#base()} (see {@link PfcIngress#share}); a packet
     * carries the index of its ingress port's counters ({@link Packet#ingressSlot}), so admission and
     * release account it here without touching the port or its accounting object.
     */
    private long[] ingressState;
    /** Counter value from which an unasserted counter may pause: XOFF (static PFC), MIN_VALUE (dynamic), MAX_VALUE (no PFC). */
    private final long pauseCheckFromBytes;
    /**
     * Counter value below which an asserted counter may resume: XON (static PFC), MAX_VALUE (dynamic thresholds, which
     * only {@link PfcIngress#crossedDown} can evaluate); while a pause holds, most departures leave the counter above XON
     * and need nothing more.
     */
    private final long resumeCheckBelowBytes;

    /**
     * Behaviour a transport attaches to a switch (the GSE source and destination edge; iQCN's record
     * of the CNPs passing through): sees every packet that arrives at the switch before forwarding.
     */
    public interface EdgeFunction {
        /** Returns true if the edge took the packet (it will forward or deliver it itself). */
        boolean intercept(Packet p, long now);
    }

    /**
     * A trimming switch's settings (Ultra Ethernet packet trimming): a data packet is trimmed when its (port, priority)
     * queue holds more than {@code thresholdBytes} with it, or when the buffer cannot admit it; the trimmed packet is
     * {@code headerWireBytes} on the wire and, like every control packet, joins the head of its queue behind the
     * headers already there.
     *
     * @param thresholdBytes queue occupancy above which data is trimmed, bytes, at least 1
     * @param headerWireBytes wire bytes of a trimmed packet, at least 1
     */
    public record Trimming(long thresholdBytes, int headerWireBytes) {
        /** Validates. */
        public Trimming {
            fabriclab.Parameters.atLeast("thresholdBytes", thresholdBytes, 1L);
            fabriclab.Parameters.atLeast("headerWireBytes", headerWireBytes, 1);
        }
    }

    /**
     * A transport's function at a switch's egress ports (HPCC's in-band telemetry): sees every data packet as it leaves
     * its egress queue to start its transmission, with what the port knows at that instant.
     */
    public interface EgressFunction {
        /**
         * Data packet {@code p} starts its transmission on {@code port} of switch {@code sw} at {@code now} (ps).
         *
         * @param queueBytes wire bytes left in the port's egress queue, all priorities, {@code p} not counted
         * @param txBytes wire bytes the port has finished transmitting since the run started, {@code p} not counted
         */
        void departing(Switch sw, Packet p, Port port, long queueBytes, long txBytes, long now);
    }

    /**
     * A transport's switch-side function at congested queues (iQCN): data packet {@code p} is
     * admitted to a queue holding more than Kmin bytes. (A congestion point that needs to see the
     * packets passing through, such as the CNPs of iQCN, attaches an {@link EdgeFunction} too.)
     */
    public interface CongestionPoint {
        void congested(Switch sw, Packet p, long now);
    }

    Switch(Network net, int id, int switchIndex, EcmpHasher hasher, SwitchBuffer b) {
        super(net, id);
        this.switchIndex = switchIndex;
        this.hasher = hasher;
        this.tier = net.topology.tiers().get(switchIndex);
        this.random = net.random;
        this.mode = net.config.forwarding().mode();
        this.flowletGapPs = net.config.forwarding().flowletGapPs();
        this.sharedBytes = b.sharedBytes();
        this.marking = b.ecnMarking();
        this.kminBytes = (long) Math.min(marking.kMinBytes(), (double) Long.MAX_VALUE);
        this.ecnReferenceRate = b.ecnReferenceRateBitsPerSecond();
        this.marksAtDequeue = b.ecnMarkingPoint() == SwitchBuffer.MarkingPoint.DEQUEUE;
        this.pauseCheckFromBytes = net.pfc == null ? Long.MAX_VALUE
                : net.pfcDynamic != null ? Long.MIN_VALUE : net.pfc.xoffBytes();
        this.resumeCheckBelowBytes = net.pfc == null || net.pfcDynamic != null ? Long.MAX_VALUE : net.pfc.xonBytes();
    }

    /**
     * Gathers the PFC ingress counters of this switch's ports (all attached, all zero) into one array
     * and returns it; the ports' accounting objects keep working on their part of it.
     */
    long[] shareIngressState() {
        int length = 0;
        for (Port p : ports) {
            length += PfcIngress.STRIDE * p.ingress.counters();
        }
        long[] shared = new long[length];
        int at = 0;
        for (Port p : ports) {
            p.ingress.share(shared, at);
            at += PfcIngress.STRIDE * p.ingress.counters();
        }
        ingressState = shared;
        return shared;
    }

    /** Shared buffer not in use [bytes] (read by alpha-based PFC thresholds). */
    long freeSharedBytes() {
        return sharedBytes - usedBytes;
    }

    /**
     * The egress port indices toward host {@code host}, in port order, or null if it is unreachable: the routing
     * table's own array, which the caller must not change.
     */
    public int[] routesTo(int host) {
        return routes[host];
    }

    /** Attaches a transport's edge function, which sees every packet arriving at this switch first (null: none). */
    public void attachEdge(EdgeFunction edge) {
        this.edge = edge;
    }

    /** Attaches a transport's congestion point, called for every data packet admitted above Kmin (null: none). */
    public void attachCongestionPoint(CongestionPoint congestionPoint) {
        this.congestionPoint = congestionPoint;
    }

    /** Attaches a transport's egress function to every port of this switch (null: none). */
    public void attachEgress(EgressFunction egress) {
        for (Port p : ports) {
            p.egress = egress;
        }
    }

    /** Turns packet trimming on at this switch with {@code trimming} (null: off). */
    public void attachTrimming(Trimming trimming) {
        this.trimming = trimming;
    }

    /** Data packets this switch trimmed. */
    public long trimmedPackets() {
        return trimmedPackets;
    }

    /** Payload bytes this switch cut from the packets it trimmed. */
    public long trimmedPayloadBytes() {
        return trimmedPayloadBytes;
    }

    /** Packets bouncing through this leaf (switch to switch) move to traffic class {@code priority} (-1: they keep theirs). */
    public void setHookPriority(int priority) {
        this.hookPriority = priority;
    }

    /** Installs a new routing table (at the start, and when a link is withdrawn). */
    void setRoutes(int[][] routes) {
        this.routes = routes;
        if (mode == Forwarding.Mode.SPRAY_ROUND_ROBIN || mode.adaptive()) { // (only they read it)
            this.roundRobin = new int[routes.length]; // spraying and tie-breaking restart their rotation with the new table
        }
    }

    @Override
    Packet nextToSend(Port port) {
        return null;
    }

    @Override
    void departed(Port port, Packet p) {
        usedBytes -= p.wireBytes;
        if (p.ingress != null) {
            int pr = p.ingressPriority;
            if (pr < 0) {
                pr = p.priority;
            } else {
                p.ingressPriority = -1; // the next switch accounts it under its new priority
            }
            // PfcIngress's release on this switch's shared array: the ingress object only when a pause is asserted
            int i = p.ingressSlot + PfcIngress.STRIDE * pr;
            long c = PfcIngress.free(ingressState, i, p.wireBytes);
            if (c < resumeCheckBelowBytes && PfcIngress.asserted(ingressState, i)) {
                p.ingress.ingress.crossedDown(pr, c);
            }
        }
    }

    @Override
    void receive(Packet p, long timePs) {
        if (edge != null && edge.intercept(p, timePs)) {
            return;
        }
        forward(p);
    }

    /** Routes {@code p} toward its destination host and offers it to the chosen egress port. */
    public void forward(Packet p) {
        if (p.flow.pinnedEgress != null && forwardPinned(p)) {
            return;
        }
        if (mode == Forwarding.Mode.ECMP) { // the flow's choice at this switch, remembered until routes change
            FlowState f = p.flow;
            boolean reverse = p.isReverse();
            if (p.entropy >= 0) { // a per-packet entropy value: hashed in place of the UDP source port, nothing remembered
                forwardByEntropy(p, f, reverse);
                return;
            }
            Port[] memo = reverse ? f.reverseEcmpEgress : f.ecmpEgress;
            Port out = memo[switchIndex];
            if (out == null) {
                int[] cands = routes[p.destination];
                if (cands == null) { // unreachable after a link failure
                    unroutable(p);
                    return;
                }
                int c = cands.length == 1 ? 0 : hasher.path(reverse ? f.reverseTuple : f.tuple, cands.length);
                out = ports.get(cands[c]);
                memo[switchIndex] = out;
            }
            admit(p, out);
            return;
        }
        if (mode.adaptive()) {
            forwardAdaptive(p);
            return;
        }
        int dst = p.destination;
        int[] cands = routes[dst];
        if (cands == null) { // unreachable after a link failure
            unroutable(p);
            return;
        }
        int choice;
        if (cands.length == 1) {
            choice = cands[0];
        } else if (mode == Forwarding.Mode.SPRAY_RANDOM) {
            choice = cands[random.nextInt(cands.length)];
        } else {
            int k = roundRobin[dst];
            roundRobin[dst] = k + 1 == cands.length ? 0 : k + 1;
            choice = cands[k];
        }
        admit(p, ports.get(choice));
    }

    /**
     * Adaptive routing ({@link Forwarding.Mode#ADAPTIVE_PACKET}, {@link Forwarding.Mode#ADAPTIVE_FLOWLET}): the
     * least-queued candidate for every packet, or for the first packet of each flowlet of the flow at this switch, which
     * the flowlet's later packets follow (the flow's choice is remembered per switch and direction, and forgotten when
     * the routes change).
     */
    private void forwardAdaptive(Packet p) {
        int dst = p.destination;
        int[] cands = routes[dst];
        if (cands == null) { // unreachable after a link failure
            unroutable(p);
            return;
        }
        if (mode == Forwarding.Mode.ADAPTIVE_PACKET) {
            admit(p, ports.get(cands.length == 1 ? cands[0] : leastQueued(dst, cands)));
            return;
        }
        FlowState f = p.flow;
        boolean reverse = p.isReverse();
        Port[] memo = reverse ? f.reverseEcmpEgress : f.ecmpEgress;
        long[] last = reverse ? f.reverseFlowletLastPs : f.flowletLastPs;
        long now = part.now;
        Port out = memo[switchIndex];
        if (out == null || fabriclab.loadbalancing.flowlet.Flowlets.startsNew(now - last[switchIndex], flowletGapPs)) {
            out = ports.get(cands.length == 1 ? cands[0] : leastQueued(dst, cands));
            memo[switchIndex] = out;
        }
        last[switchIndex] = now;
        admit(p, out);
    }

    /**
     * The candidate port toward {@code dst} whose egress queue holds the fewest wire bytes (all priorities, the packet in
     * transmission included); ties go to the first tied candidate from the one after the previous choice toward
     * {@code dst}, which then becomes the previous choice.
     */
    private int leastQueued(int dst, int[] cands) {
        int n = cands.length;
        int start = roundRobin[dst];
        if (start >= n) {
            start = 0;
        }
        int best = start;
        long bestBytes = ports.get(cands[start]).queue.totalBytes();
        for (int i = 1; i < n; i++) {
            int j = start + i < n ? start + i : start + i - n;
            long b = ports.get(cands[j]).queue.totalBytes();
            if (b < bestBytes) {
                best = j;
                bestBytes = b;
            }
        }
        roundRobin[dst] = best + 1 == n ? 0 : best + 1;
        return cands[best];
    }

    /**
     * ECMP for a packet carrying an entropy value: the five-tuple hashed is the flow's with the entropy value as its
     * UDP source port, as a switch hashes an Ultra Ethernet packet (the entropy travels in that field).
     */
    private void forwardByEntropy(Packet p, FlowState f, boolean reverse) {
        int[] cands = routes[p.destination];
        if (cands == null) {
            unroutable(p);
            return;
        }
        int c = 0;
        if (cands.length > 1) {
            fabriclab.loadbalancing.flow.FiveTuple t = reverse ? f.reverseTuple : f.tuple;
            c = hasher.path(new fabriclab.loadbalancing.flow.FiveTuple(t.sourceIp(), t.destinationIp(), p.entropy,
                    t.destinationPort(), t.protocol()), cands.length);
        }
        admit(p, ports.get(cands[c]));
    }

    /**
     * Forwards a packet of a pinned flow along its route (kept out of {@link #forward} so that the
     * common path stays small enough for the JIT to inline); false if the route does not pass here.
     */
    private boolean forwardPinned(Packet p) {
        FlowState f = p.flow;
        Port out = (p.isReverse() ? f.pinnedReverseEgress : f.pinnedEgress)[switchIndex];
        if (out == null) {
            return false;
        }
        if (hookPriority >= 0 && p.ingress != null && p.ingress.peer() instanceof Switch && out.peer() instanceof Switch) {
            p.ingressPriority = p.priority; // PFC still accounts it at its ingress under the priority it came with
            p.priority = hookPriority; // a hook flow bouncing through this leaf moves to the other priority
        }
        admit(p, out);
        return true;
    }

    /** A packet with no route to its destination is dropped. */
    public void unroutable(Packet p) {
        unroutablePackets++;
        net.dropped(p, this, null, DropReason.NO_ROUTE);
    }

    /**
     * Buffer admission (tail drop), ECN marking of data packets and ingress (PFC) accounting, then
     * the packet joins {@code out}'s queue of its priority.
     */
    public void admit(Packet p, Port out) {
        long q = out.queue.bytesOf(p.priority);
        int w = p.wireBytes;
        if (out.link.down) { // routed onto a failed link before the failure was detected: black-holed
            blackholedPackets++;
            out.queue.drops++;
            net.dropped(p, this, out, DropReason.BLACK_HOLE);
            return;
        }
        if (trimming != null) {
            admitTrimming(p, out, q, w);
            return;
        }
        if (usedBytes + w > sharedBytes || q + w > out.queue.limitBytes) {
            out.queue.drops++;
            net.dropped(p, this, out, DropReason.TAIL_DROP);
            return;
        }
        enqueueAdmitted(p, out, q, w, false);
    }

    /**
     * Admission at a trimming switch: an untrimmed data packet that fits under the trimming threshold and in the buffer
     * joins the tail; one that does not is trimmed to its header; a header (trimmed, or a control packet) joins the
     * head run of its queue, outside the queue's data limit (the reference's trimming queue keeps headers in a queue of
     * their own), unless the switch's shared buffer is full, when it is dropped.
     */
    private void admitTrimming(Packet p, Port out, long q, int w) {
        boolean header = p.kind != Packet.DATA || p.trimmed;
        if (!header) {
            boolean fits = usedBytes + w <= sharedBytes && q + w <= out.queue.limitBytes;
            if (fits && q + w <= trimming.thresholdBytes()) {
                enqueueAdmitted(p, out, q, w, false);
                return;
            }
            trimmedPackets++;
            trimmedPayloadBytes += p.payloadBytes;
            p.trim(trimming.headerWireBytes());
            w = p.wireBytes;
        }
        if (usedBytes + w > sharedBytes) { // headers have a queue of their own: only a full switch buffer drops one
            out.queue.drops++;
            net.dropped(p, this, out, DropReason.TAIL_DROP);
            return;
        }
        enqueueAdmitted(p, out, q, w, true);
    }

    /**
     * As {@link #admit}, for a packet whose egress buffer a grant reserved (a GSE destination edge
     * forwarding a reordered container to its host: the grants bound what that port holds): it is never
     * tail-dropped, even when the fabric-facing queues fill the shared buffer (its bytes still count in
     * it); on a failed link it is black-holed as any packet.
     */
    public void admitReserved(Packet p, Port out) {
        if (out.link.down) {
            blackholedPackets++;
            out.queue.drops++;
            net.dropped(p, this, out, DropReason.BLACK_HOLE);
            return;
        }
        enqueueAdmitted(p, out, out.queue.bytesOf(p.priority), p.wireBytes, false);
    }

    /**
     * ECN marking, buffer and ingress accounting of an admitted packet, then it joins {@code out}'s queue: at the tail,
     * or, a header at a trimming switch ({@code express}), ahead of the data and unmarked.
     */
    private void enqueueAdmitted(Packet p, Port out, long q, int w, boolean express) {
        if (!express) { // a header is not marked: it carries no data for the mark to slow down
            if (ecnReferenceRate != 0) { // thresholds scaled to out's rate: the curve read at q * reference / rate
                double scaled = (double) q * ecnReferenceRate / out.link.rateBitsPerSecond;
                if (p.kind == Packet.DATA && scaled > marking.kMinBytes()) {
                    congested(p, out, scaled);
                }
            } else if (p.kind == Packet.DATA && q > kminBytes) {
                congested(p, out, q);
            }
        }
        usedBytes += w;
        if (usedBytes > peakUsedBytes) {
            peakUsedBytes = usedBytes;
        }
        if (p.ingress != null) { // PfcIngress's admission on this switch's shared array: the object only near XOFF
            int k = p.ingressPriority();
            int i = p.ingressSlot + PfcIngress.STRIDE * k;
            long c = PfcIngress.hold(ingressState, i, w);
            if (c >= pauseCheckFromBytes && !PfcIngress.asserted(ingressState, i)) {
                p.ingress.ingress.crossedUp(k, c);
            }
        }
        p.enqueuedPs = part.now;
        if (express) {
            out.enqueueExpress(p);
        } else {
            out.enqueue(p);
        }
    }

    /**
     * A data packet admitted above Kmin, the queue read on the marking curve at {@code queueOnCurve} bytes: the
     * congestion point (iQCN) hears of it, and, with marking at enqueue, an unmarked packet is marked with the curve's
     * probability.
     */
    private void congested(Packet p, Port out, double queueOnCurve) {
        if (congestionPoint != null) {
            congestionPoint.congested(this, p, part.now);
        }
        if (!marksAtDequeue) {
            mark(p, out, queueOnCurve);
        }
    }

    /**
     * Data or control packet {@code p} leaves {@code out}'s queue to start its transmission, with marking at dequeue: a
     * data packet is marked on the curve read at the bytes its (port, priority) queue holds without it.
     */
    void departing(Packet p, Port out) {
        if (p.kind != Packet.DATA || p.trimmed) {
            return;
        }
        long left = out.queue.bytesOf(p.priority) - p.wireBytes;
        double onCurve = ecnReferenceRate != 0 ? (double) left * ecnReferenceRate / out.link.rateBitsPerSecond : left;
        if (onCurve > marking.kMinBytes()) {
            mark(p, out, onCurve);
        }
    }

    /** An unmarked packet is marked with the curve's probability at {@code queueOnCurve} bytes. */
    private void mark(Packet p, Port out, double queueOnCurve) {
        if (!p.ecn && !out.unmarked) {
            double prob = marking.probabilityUnchecked(queueOnCurve);
            if (prob >= 1 || random.nextDouble() < prob) {
                p.ecn = true;
                out.queue.ecnMarks++;
            }
        }
    }

    /** Packets this switch sent onto a failed link before its routes changed (each lost). */
    public long blackholedPackets() {
        return blackholedPackets;
    }
}
