package fabriclab.simulation.transport.window;

import fabriclab.congestion.TimelyUpdate;
import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Packet;

/** Runtime of one TIMELY queue pair (package-private); see {@link TimelyTransport}. */
final class TimelyFlow extends WindowedFlow {
    private final TimelyTransport model;
    /** Receiver: the send time of the last data packet that arrived, echoed by the next ACK. */
    private long echo;
    private int windowEnd = -1;
    private TimelyUpdate state;

    TimelyFlow(Network net, FlowState flow, TimelyTransport model) {
        super(net, flow, model.rc(), model.controlBytes(), model.ackPriority());
        this.model = model;
        this.state = TimelyUpdate.start(rateBitsPerSecond);
    }

    @Override
    double windowBytes() {
        return model.windowBytes() == 0 ? Double.POSITIVE_INFINITY : model.windowBytes() * (rateBitsPerSecond / lineRate);
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

    @Override
    void onFeedback(int ackSeq, long sentPs, int newlyAcked, boolean nack, long now) {
        if (windowEnd >= 0 && ackSeq < windowEnd) {
            return;
        }
        windowEnd = flow.nextSeq();
        double rttS = Math.max(1, now - sentPs) / 1e12;
        state = new TimelyUpdate(rateBitsPerSecond, state.lastRttS(), state.rttDiffS(), state.nonPositiveGradients())
                .next(model.params(), rttS);
        setRate(state.rateBitsPerSecond(), model.params().minRateBitsPerSecond());
    }
}
