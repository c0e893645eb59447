package fabriclab.simulation.transport.window;

import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Packet;

/** Runtime of one DCTCP queue pair (package-private); see {@link DctcpTransport}. */
final class DctcpFlow extends WindowedFlow {
    private final DctcpTransport model;
    /** alpha, the estimate of the fraction of marked packets. */
    double alpha = 1;
    /** Receiver: marked data packets since the last ACK. */
    private long markedSinceAck;
    /** Sender: the window being measured ends when every packet below this is acknowledged; -1 before the first ACK. */
    private int windowEnd = -1;
    private long markedInWindow;
    private long ackedInWindow;
    /** In a reduction (the paper's CWR) until every packet below {@link #reductionEnd} is acknowledged. */
    private boolean reducing;
    private int reductionEnd;

    DctcpFlow(Network net, FlowState flow, DctcpTransport model) {
        super(net, flow, model.rc(), model.controlBytes(), model.ackPriority());
        this.model = model;
    }

    @Override
    double windowBytes() {
        return model.windowBytes() == 0 ? Double.POSITIVE_INFINITY : model.windowBytes() * (rateBitsPerSecond / lineRate);
    }

    @Override
    protected void onData(Packet p, long now) {
        if (p.ecnMarked()) {
            markedSinceAck++;
        }
        super.onData(p, now);
    }

    @Override
    protected long ackAux() {
        long m = markedSinceAck;
        markedSinceAck = 0;
        return m;
    }

    @Override
    void onFeedback(int ackSeq, long marked, int newlyAcked, boolean nack, long now) {
        markedInWindow += marked;
        ackedInWindow += Math.max(newlyAcked, marked > 0 ? 1 : 0);
        boolean newWindow = false;
        if (windowEnd < 0) {
            windowEnd = flow.nextSeq();
            markedInWindow = 0;
            ackedInWindow = 0;
        } else if (ackSeq >= windowEnd) {
            newWindow = true;
            double f = ackedInWindow == 0 ? 0 : Math.min(1.0, (double) markedInWindow / ackedInWindow);
            alpha = (1 - model.g()) * alpha + model.g() * f;
            windowEnd = flow.nextSeq();
            markedInWindow = 0;
            ackedInWindow = 0;
        }
        if (reducing && ackSeq >= reductionEnd) {
            reducing = false;
        }
        if (marked > 0 && !reducing) {
            setRate(rateBitsPerSecond * (1 - alpha / 2), model.minRateBitsPerSecond());
            reducing = true;
            reductionEnd = flow.nextSeq();
        }
        if (!reducing && newWindow) {
            setRate(rateBitsPerSecond + model.additiveIncreaseBitsPerSecond(), model.minRateBitsPerSecond());
        }
    }
}
