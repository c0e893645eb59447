package fabriclab.simulation.transport;

import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Packet;
import fabriclab.simulation.element.Transport;
import fabriclab.simulation.event.EventHandler;

/**
 * Go-back-N reliability shared by the RoCE and CTCC transports (package-private), as RoCE NICs do
 * it for reliable-connected queue pairs (InfiniBand Architecture Specification vol. 1, chapter 9.7,
 * whose transport RoCEv2 carries unchanged).
 *
 * <p>Receiver: keeps the expected sequence number (ePSN). A packet at the ePSN is delivered and the
 * ePSN advances; every {@code ackEvery}-th delivered packet and the last one are acknowledged with a
 * cumulative ACK carrying the new ePSN. A packet above the ePSN is discarded, and the first such
 * packet per ePSN value triggers one NACK carrying the ePSN (a sequence error NAK). A packet below
 * the ePSN is a duplicate: discarded, and re-acknowledged so that a sender whose ACK was lost can
 * finish.
 *
 * <p>Sender: sends sequence numbers in order from {@code nextSeq}; {@code una} is the oldest
 * unacknowledged one. An ACK advances {@code una}; a NACK for sequence {@code s} rewinds
 * {@code nextSeq} to {@code s} (everything from the gap on is sent again). A retransmission timer
 * (timeout {@code rtoPs}, re-armed on every ACK that advances {@code una}) rewinds to {@code una} when
 * the tail of a flow is lost and no NACK can come. Every sent packet below the highest sequence
 * sent before counts as a retransmission.
 */
public abstract class ReliableTransport extends Transport {
    final int ackEvery;
    final int ackBytes;
    final int ackPriority;
    final long rtoPs;
    // sender
    public int una;
    int highestSent = -1;
    long lastProgressPs;
    boolean rtoArmed;
    // receiver
    int expected;
    int nackedAt = -1;
    int sinceAck;
    // counters
    public long nacks;
    public long timeouts;

    private final EventHandler rto = this::onRetransmissionTimer;

    public ReliableTransport(Network net, FlowState flow, ReliableConnection rc, int ackBytes, int ackPriority) {
        super(net, flow);
        this.ackEvery = rc.ackEvery();
        this.ackBytes = ackBytes;
        this.ackPriority = ackPriority;
        this.rtoPs = rc.localAckTimeoutPs();
    }

    @Override
    protected void onStart(long now) {
        lastProgressPs = now;
    }

    @Override
    protected boolean canSend() {
        return flow.nextSeq < flow.packets;
    }

    @Override
    protected int takeSequence() {
        return flow.nextSeq++;
    }

    @Override
    protected void onSent(Packet p, long now) {
        if (p.seq <= highestSent) {
            flow.retransmitted++;
        } else {
            highestSent = p.seq;
        }
        if (!rtoArmed) {
            rtoArmed = true;
            source.events.schedule(now + rtoPs, rto, null);
        }
        onDataSent(p, now);
    }

    /** Hook for rate control: a data packet started transmission. */
    protected abstract void onDataSent(Packet p, long now);

    @Override
    protected void onData(Packet p, long now) {
        if (p.seq == expected) {
            net.workload.deliver(p, now);
            expected++;
            sinceAck++;
            if (sinceAck >= ackEvery || expected == flow.packets) {
                sinceAck = 0;
                sendControl(Packet.ACK, expected, ackBytes, ackPriority, true, 0);
            }
        } else if (p.seq > expected) {
            net.workload.discard(p);
            if (nackedAt != expected) {
                nackedAt = expected;
                sendControl(Packet.NACK, expected, ackBytes, ackPriority, true, 0);
                nacks++;
            }
        } else {
            flow.duplicates++;
            net.workload.discard(p);
            if (expected == flow.packets) {
                sendControl(Packet.ACK, expected, ackBytes, ackPriority, true, 0);
            }
        }
        onDataReceived(p, now);
        destination.packets.recycle(p); // consumed: the last use of p
    }

    /** Hook for the notification point: a data packet (in order or not) reached the receiver. */
    protected void onDataReceived(Packet p, long now) {
    }

    @Override
    protected void onControl(Packet p, long now) {
        switch (p.kind) {
            case Packet.ACK -> acknowledge(p.seq, now);
            case Packet.NACK -> {
                acknowledge(p.seq, now);
                if (flow.nextSeq > p.seq) {
                    flow.nextSeq = p.seq;
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
        }
    }

    /** Hook: a NACK arrived (after the rewind). */
    protected void onNack(long now) {
    }

    /** Hook: a control packet other than ACK/NACK arrived (CNP, probe, probe reply). */
    protected abstract void onOtherControl(Packet p, long now);

    private void onRetransmissionTimer(long now, Object ignored) {
        rtoArmed = false;
        if (una >= flow.packets) {
            return;
        }
        if (now - lastProgressPs >= rtoPs) {
            flow.nextSeq = una; // go back to the oldest unacknowledged packet
            timeouts++;
            lastProgressPs = now;
            onTimeout(now);
            wake();
        }
        rtoArmed = true;
        source.events.schedule(Math.max(now + 1, lastProgressPs + rtoPs), rto, null);
    }

    /** Hook: the retransmission timer fired and rewound the sender. */
    protected void onTimeout(long now) {
    }
}
