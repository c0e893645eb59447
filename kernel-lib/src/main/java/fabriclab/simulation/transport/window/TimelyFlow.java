package fabriclab.simulation.transport.window;

import fabriclab.congestion.TimelyUpdate;
import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;

/** Runtime of one TIMELY queue pair (package-private); see {@link TimelyTransport}. */
final class TimelyFlow extends DelayEchoFlow {
    private final TimelyTransport model;
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
