package fabriclab.simulation.transport;

import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Packet;
import fabriclab.simulation.element.Transport;
import fabriclab.simulation.event.EventHandler;

/**
 * The reliable connection shared by the RoCE and CTCC transports, as RoCE NICs run reliable-connected queue
 * pairs (InfiniBand Architecture Specification vol. 1, section 9.7, whose transport RoCEv2 carries unchanged);
 * its settings and their sources are {@link ReliableConnection}'s.
 *
 * <p>Responder (receiver): keeps the expected sequence number (ePSN). A packet at the ePSN is delivered and the
 * ePSN advances. A cumulative ACK carrying the ePSN goes back when {@code ackEvery} packets (new or duplicate)
 * arrived since the last one, at once for a packet with AckReq (the last packet of each message, so of the flow),
 * and when a packet has waited {@code ackDelayPs} unacknowledged (one coalescing timer per queue pair). A packet
 * above the ePSN is discarded (counted as an out-of-order discard), and the first such packet per ePSN value gets
 * one sequence-error NAK carrying the ePSN. A packet below the ePSN is a duplicate: discarded, and acknowledged by
 * the same rules, so that a requester whose ACK was lost learns its progress. With
 * {@link ReliableConnection#outOfOrder()} set, the responder places packets out of order instead, by the rules of
 * {@link OutOfOrderPlacement}: the requester is the same, as ACKs stay cumulative and NAKs mean a persistent gap.
 *
 * <p>Requester (sender): sends sequence numbers in order from {@code nextSeq}; {@code una} is the oldest
 * unacknowledged one. An ACK advances {@code una}; a NAK for sequence {@code s} rewinds {@code nextSeq} to
 * {@code s}. The transport timer runs while packets are outstanding and restarts when an acknowledgement advances
 * {@code una}; when it reaches the local ACK timeout the requester rewinds to {@code una} and counts a timeout;
 * after {@code retryCount} consecutive timeouts without progress, the next moves the queue pair to the error state
 * ({@link FlowState#failed}: it sends nothing more and its flow never completes). Every sent packet at or below the
 * highest sequence sent before counts as a retransmission (packets and payload bytes).
 *
 * <p>At the end of the run ({@link #classifyTimeouts}) each timeout is checked against the flow's recorded losses
 * ({@link FlowState#lossExplains}): a timeout with no loss of a data packet at or above its {@code una}, nor of
 * an ACK or NAK, since the previous timeout is counted as spurious.
 */
public abstract class ReliableTransport extends Transport {
    final int ackEvery;
    final int ackBytes;
    final int ackPriority;
    final long rtoPs;
    private final long ackDelayPs;
    private final long messageBytes;
    private final int retryCount;
    private final int mtu;
    // requester
    /** The oldest unacknowledged sequence number (the subclasses' rate and window control read it). */
    protected int una;
    int highestSent = -1;
    long lastProgressPs;
    boolean rtoArmed;
    private boolean rtoCancelled;
    private int retries;
    private long[] timeoutAtPs = new long[0];
    private int[] timeoutUna = new int[0];
    // responder
    int expected;
    int nackedAt = -1;
    int sinceAck;
    private long oldestUnackedPs;
    private boolean ackTimerArmed;
    // out-of-order responder (null placement: in order)
    private final OutOfOrderPlacement placement;
    /** Sequence numbers placed at or above {@link #expected} (out-of-order responder only; bit i = sequence i). */
    private java.util.BitSet placed;
    /** The ePSN a pending reorder check was armed for, or -1 when none is pending. */
    private int reorderCheckAt = -1;
    private boolean reorderCheckCancelled;
    // counters
    long nacks;

    private final EventHandler rto = this::onRetransmissionTimer;
    private final EventHandler ackTimer = this::onAckTimer;
    private final EventHandler reorderCheck = this::onReorderCheck;

    public ReliableTransport(Network net, FlowState flow, ReliableConnection rc, int ackBytes, int ackPriority) {
        super(net, flow);
        this.ackEvery = rc.ackEvery();
        this.ackBytes = ackBytes;
        this.ackPriority = ackPriority;
        this.rtoPs = rc.localAckTimeoutPs();
        this.ackDelayPs = rc.ackDelayPs();
        this.messageBytes = rc.messageBytes();
        this.retryCount = rc.retryCount();
        this.mtu = net.config.mtuBytes();
        this.placement = rc.outOfOrder();
        this.placed = placement == null ? null : new java.util.BitSet();
    }

    @Override
    protected void onStart(long now) {
        lastProgressPs = now;
    }

    @Override
    protected boolean canSend() {
        return flow.nextSeq() < flow.packets && !flow.failed();
    }

    @Override
    protected int takeSequence() {
        return flow.takeNextSeq();
    }

    /** Whether packet {@code seq} carries AckReq: it holds the last byte of a message (messages of {@code messageBytes}). */
    final boolean ackRequested(int seq) {
        if (seq == flow.packets - 1) {
            return true;
        }
        long start = (long) seq * mtu;
        long end = start + mtu;
        return end / messageBytes > start / messageBytes;
    }

    @Override
    protected void onSent(Packet p, long now) {
        if (p.seq() <= highestSent) {
            flow.countRetransmission(p.payloadBytes());
        } else {
            if (una > highestSent) { // nothing was outstanding: the transport timer starts now
                lastProgressPs = now;
            }
            highestSent = p.seq();
        }
        if (!rtoArmed) {
            rtoArmed = true;
            source.events().schedule(Math.max(now + 1, lastProgressPs + rtoPs), rto, null);
        }
        onDataSent(p, now);
    }

    /** Hook for rate control: a data packet started transmission. */
    protected abstract void onDataSent(Packet p, long now);

    @Override
    protected void onData(Packet p, long now) {
        if (placement != null) {
            placeOutOfOrder(p, now);
        } else if (p.seq() == expected) {
            net.workload().deliver(p, now);
            expected++;
            received(p.seq(), now);
        } else if (p.seq() > expected) {
            flow.countOutOfOrderDiscard();
            net.workload().discard(p);
            if (nackedAt != expected) {
                nackedAt = expected;
                sendControl(Packet.NACK, expected, ackBytes, ackPriority, true, ackAux(), acknowledgementAttachment());
                nacks++;
            }
        } else {
            flow.countDuplicate();
            net.workload().discard(p);
            received(p.seq(), now);
        }
        onDataReceived(p, now);
        destination.packets.recycle(p); // consumed: the last use of p
    }

    /** The out-of-order responder ({@link OutOfOrderPlacement}); the caller reports the packet and recycles it. */
    private void placeOutOfOrder(Packet p, long now) {
        int seq = p.seq();
        if (seq < expected || placed.get(seq)) {
            flow.countDuplicate();
            net.workload().discard(p);
            received(seq, now);
            return;
        }
        if (seq - expected >= placement.windowPackets()) { // beyond the window: as the in-order responder
            flow.countOutOfOrderDiscard();
            net.workload().discard(p);
            nackExpected();
            return;
        }
        net.workload().deliver(p, now);
        placed.set(seq);
        if (seq == expected) {
            expected = placed.nextClearBit(expected);
            placed.clear(seq, expected); // (only the bits above the ePSN are kept)
            if (reorderCheckAt >= 0 && expected >= flow.packets) { // complete: the pending check will do nothing
                reorderCheckCancelled = true;
                destination.eventCancelled();
            }
        }
        if (reorderCheckAt < 0 && placed.nextSetBit(expected) >= 0) { // a gap below a placed packet
            armReorderCheck(now);
        }
        received(seq, now);
    }

    private void armReorderCheck(long now) {
        reorderCheckAt = expected;
        destination.events().schedule(now + placement.reorderTimeoutPs(), reorderCheck, null);
    }

    /**
     * The reorder timeout after a gap was seen: a gap still at the same ePSN is a loss (one NAK); if the ePSN moved and
     * a gap remains, the new one is checked a reorder timeout later.
     */
    private void onReorderCheck(long now, Object ignored) {
        int at = reorderCheckAt;
        reorderCheckAt = -1;
        if (reorderCheckCancelled) {
            reorderCheckCancelled = false;
            destination.cancelledEventFired();
            return;
        }
        if (placed.nextSetBit(expected) < 0) {
            return; // no gap left
        }
        if (expected == at) {
            nackExpected();
        } else {
            armReorderCheck(now);
        }
    }

    /** One sequence-error NAK per ePSN value. */
    private void nackExpected() {
        if (nackedAt != expected) {
            nackedAt = expected;
            sendControl(Packet.NACK, expected, ackBytes, ackPriority, true, ackAux(), acknowledgementAttachment());
            nacks++;
        }
    }

    /** The responder's acknowledgement rules for an accepted or duplicate packet {@code seq}. */
    private void received(int seq, long now) {
        if (++sinceAck >= ackEvery || ackRequested(seq)) {
            acknowledgeNow();
            return;
        }
        if (sinceAck == 1) {
            oldestUnackedPs = now;
            if (!ackTimerArmed) {
                ackTimerArmed = true;
                destination.events().schedule(now + ackDelayPs, ackTimer, null);
            }
        }
    }

    private void acknowledgeNow() {
        sinceAck = 0;
        sendControl(Packet.ACK, expected, ackBytes, ackPriority, true, ackAux(), acknowledgementAttachment());
    }

    /**
     * What the responder's next ACK or NAK carries back to the requester (HPCC: the in-band telemetry of the data
     * packet that arrived last); null, the default, for nothing.
     */
    protected Object acknowledgementAttachment() {
        return null;
    }

    /**
     * The value the responder writes into the {@link Packet#aux()} of the ACK or NAK it sends now (the congestion
     * signal a transport echoes to its sender: a timestamp, a count of ECN marks); 0 by default.
     */
    protected long ackAux() {
        return 0;
    }

    private void onAckTimer(long now, Object ignored) {
        ackTimerArmed = false;
        if (sinceAck == 0) {
            return;
        }
        if (now - oldestUnackedPs >= ackDelayPs) {
            acknowledgeNow();
        } else {
            ackTimerArmed = true;
            destination.events().schedule(oldestUnackedPs + ackDelayPs, ackTimer, null);
        }
    }

    /** Hook for the notification point: a data packet (in order or not) reached the receiver. */
    protected void onDataReceived(Packet p, long now) {
    }

    @Override
    protected void onControl(Packet p, long now) {
        switch (p.kind()) {
            case Packet.ACK -> acknowledge(p.seq(), now);
            case Packet.NACK -> {
                acknowledge(p.seq(), now);
                if (flow.nextSeq() > p.seq() && !flow.failed()) {
                    flow.goBackTo(p.seq());
                }
                onNack(now);
                wake();
            }
            default -> onOtherControl(p, now);
        }
        at(p).packets.recycle(p); // consumed: the last use of p
    }

    private void acknowledge(int seq, long now) {
        if (seq > una) {
            una = seq;
            lastProgressPs = now;
            retries = 0;
            if (una >= flow.packets && flow.acknowledgedPs() < 0) {
                flow.acknowledgedAt(now);
            }
            if (una >= flow.packets && rtoArmed && !rtoCancelled) { // complete: the pending timer will do nothing
                rtoCancelled = true;
                source.eventCancelled();
            }
            onAcknowledged(now);
        }
    }

    /** Hook: an ACK or NAK advanced {@link #una} (a window may open). */
    protected void onAcknowledged(long now) {
    }

    /** Hook: a NACK arrived (after the rewind). */
    protected void onNack(long now) {
    }

    /** Hook: a control packet other than ACK/NACK arrived (CNP, probe, probe reply). */
    protected abstract void onOtherControl(Packet p, long now);

    private void onRetransmissionTimer(long now, Object ignored) {
        rtoArmed = false;
        if (rtoCancelled) {
            rtoCancelled = false;
            source.cancelledEventFired();
            return;
        }
        if (una >= flow.packets || flow.failed() || una > highestSent) {
            return; // complete, failed, or nothing outstanding: the next packet sent starts the timer again
        }
        if (now - lastProgressPs >= rtoPs) {
            recordTimeout(now);
            source.progressAt(now); // a timeout acts (resends or fails the QP): the watchdog counts it
            if (retries >= retryCount) {
                flow.fail(); // retries exhausted: the queue pair goes to the error state
                return;
            }
            retries++;
            flow.goBackTo(una); // go back to the oldest unacknowledged packet
            lastProgressPs = now;
            onTimeout(now);
            wake(); // may send at once, and the first packet sent arms the timer
        }
        if (!rtoArmed) {
            rtoArmed = true;
            source.events().schedule(Math.max(now + 1, lastProgressPs + rtoPs), rto, null);
        }
    }

    private void recordTimeout(long now) {
        int n = (int) flow.timeouts();
        if (n == timeoutAtPs.length) {
            timeoutAtPs = java.util.Arrays.copyOf(timeoutAtPs, Math.max(4, 2 * n));
            timeoutUna = java.util.Arrays.copyOf(timeoutUna, timeoutAtPs.length);
        }
        timeoutAtPs[n] = now;
        timeoutUna[n] = una;
        flow.countTimeout();
    }

    /**
     * Counts the spurious timeouts of this flow into {@link FlowState#spuriousTimeouts()} (after the run, when every
     * loss is recorded): those no loss since the previous timeout (or the flow's start) explains.
     */
    public final void classifyTimeouts() {
        long spurious = 0;
        long since = Long.MIN_VALUE;
        for (int i = 0; i < flow.timeouts(); i++) {
            if (!flow.lossExplains(since, timeoutAtPs[i], timeoutUna[i])) {
                spurious++;
            }
            since = timeoutAtPs[i];
        }
        flow.setSpuriousTimeouts(spurious);
    }

    /** Hook: the retransmission timer fired and rewound the sender. */
    protected void onTimeout(long now) {
    }
}
