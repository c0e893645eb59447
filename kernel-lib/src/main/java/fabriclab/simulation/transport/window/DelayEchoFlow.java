package fabriclab.simulation.transport.window;

import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Packet;
import fabriclab.simulation.transport.ReliableConnection;

/**
 * A windowed flow whose congestion signal is delay (TIMELY, Swift): the receiver echoes in each ACK or NAK the send
 * time of the data packet that arrived last, so that the sender's {@link #onFeedback} gets the round-trip time as
 * {@code now - echo}.
 */
abstract class DelayEchoFlow extends WindowedFlow {
    /** Receiver: the send time of the last data packet that arrived [ps], echoed by the next ACK. */
    private long echo;

    DelayEchoFlow(Network net, FlowState flow, ReliableConnection rc, int controlBytes, int ackPriority) {
        super(net, flow, rc, controlBytes, ackPriority);
    }

    @Override
    protected void onData(Packet p, long now) {
        echo = p.aux();
        super.onData(p, now);
    }

    @Override
    protected long ackAux() {
        return echo;
    }
}
