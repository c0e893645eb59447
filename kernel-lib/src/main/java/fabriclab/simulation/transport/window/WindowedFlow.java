package fabriclab.simulation.transport.window;

import fabriclab.fabric.Time;
import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Packet;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.ReliableTransport;

/**
 * The sender and receiver shared by DCTCP, TIMELY and Swift (package-private): the go-back-N reliable connection of
 * {@link ReliableTransport}, a pacing rate, a window of payload bytes in flight, and per-ACK feedback.
 *
 * <p>Sender: a data packet starts when fewer than {@link #windowBytes()} payload bytes (whole packets of the MTU,
 * {@code (nextSeq - una) x mtu}) are unacknowledged, or none is, and no earlier than its wire size at
 * {@link #rateBitsPerSecond} after the previous start. Every data packet carries its send time ({@link Packet#aux()}).
 * Receiver: each ACK or NAK carries {@link #ackAux()}, what the subclass echoes (the send time of the data packet
 * that triggered it, or the ECN marks since the previous ACK). Each ACK or NAK reaching the sender calls
 * {@link #onFeedback} with its cumulative sequence, its echo and the packets it newly acknowledged.
 */
abstract class WindowedFlow extends ReliableTransport {
    final double lineRate;
    final int mtuBytes;
    /** The pacing rate [bit/s]. */
    double rateBitsPerSecond;
    private long lastStartPs;
    private int lastWireBytes;
    /** Rate or window decreases (the run's counter). */
    long decreases;
    /** Rate or window increases (the run's counter). */
    long increases;

    WindowedFlow(Network net, FlowState flow, ReliableConnection rc, int controlBytes, int ackPriority) {
        super(net, flow, rc, controlBytes, ackPriority);
        this.lineRate = net.hosts[flow.spec.source()].nic().link.rateBitsPerSecond;
        this.rateBitsPerSecond = lineRate;
        this.mtuBytes = net.config.mtuBytes();
    }

    /** The window [payload bytes]; {@code Double.POSITIVE_INFINITY} for none. */
    abstract double windowBytes();

    /**
     * An ACK ({@code nack} false) or NAK reached the sender after the reliable connection handled it.
     *
     * @param ackSeq its cumulative sequence (every packet below it arrived)
     * @param echo its {@link Packet#aux()}
     * @param newlyAcked packets it acknowledged for the first time
     */
    abstract void onFeedback(int ackSeq, long echo, int newlyAcked, boolean nack, long now);

    @Override
    protected boolean canSend() {
        if (!super.canSend()) {
            return false;
        }
        long inFlight = (long) (flow.nextSeq() - una) * mtuBytes;
        return inFlight <= 0 || inFlight < windowBytes();
    }

    @Override
    protected void onDataSent(Packet pk, long now) {
        pk.stamp(now);
        lastStartPs = now;
        lastWireBytes = pk.wireBytes();
        nextSendPs = now + Time.serializationPs(pk.wireBytes(), Math.max(1, Math.round(rateBitsPerSecond)));
    }

    @Override
    protected void onControl(Packet p, long now) {
        byte kind = p.kind();
        if (kind != Packet.ACK && kind != Packet.NACK) {
            super.onControl(p, now);
            return;
        }
        int seq = p.seq();
        long echo = p.aux();
        int before = una;
        super.onControl(p, now); // recycles p
        onFeedback(seq, echo, Math.max(0, una - before), kind == Packet.NACK, now);
    }

    @Override
    protected void onAcknowledged(long now) {
        wake(); // the window may have opened
    }

    @Override
    protected void onOtherControl(Packet p, long now) {
    }

    /** Sets the pacing rate to {@code bps} within [{@code floor}, line rate]; a higher rate shortens a pending gap. */
    final void setRate(double bps, double floor) {
        double old = rateBitsPerSecond;
        rateBitsPerSecond = Math.max(floor, Math.min(lineRate, bps));
        if (rateBitsPerSecond < old) {
            decreases++;
        } else if (rateBitsPerSecond > old) {
            increases++;
            if (lastWireBytes > 0) {
                advancePacing(lastStartPs + Time.serializationPs(lastWireBytes, Math.max(1, Math.round(rateBitsPerSecond))));
            }
            wake(); // a rate-scaled window widens
        }
    }
}
