package fabriclab.simulation.transport.window;

import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;

/** Runtime of one Swift queue pair (package-private); see {@link SwiftTransport}. */
final class SwiftFlow extends DelayEchoFlow {
    private final SwiftTransport model;
    private final int hops;
    private final double packetBits;
    /** The congestion window [packets]. */
    double cwnd;
    private long lastDecreasePs = Long.MIN_VALUE;
    private long lastRttPs;

    SwiftFlow(Network net, FlowState flow, SwiftTransport model) {
        super(net, flow, model.rc(), model.controlBytes(), model.ackPriority());
        this.model = model;
        this.hops = WindowedRun.switchHops(net, flow.spec.source(), flow.spec.destination());
        this.cwnd = model.maxCwnd();
        this.packetBits = 8.0 * (net.config.mtuBytes() + net.config.headerBytes());
    }

    @Override
    double windowBytes() {
        return Math.ceil(cwnd) * mtuBytes;
    }

    @Override
    void onFeedback(int ackSeq, long sentPs, int newlyAcked, boolean nack, long now) {
        long rttPs = Math.max(1, now - sentPs);
        lastRttPs = rttPs;
        double old = cwnd;
        double c = cwnd;
        boolean canDecrease = lastDecreasePs == Long.MIN_VALUE || now - lastDecreasePs >= rttPs;
        if (nack) {
            if (canDecrease) {
                c = c * (1 - model.maxMdf());
            }
        } else {
            double delayS = rttPs / 1e12;
            double target = model.targetUnchecked(hops, c);
            if (delayS < target) {
                c = c >= 1 ? c + model.ai() / c * newlyAcked : c + model.ai() * newlyAcked;
            } else if (canDecrease) {
                c = c * Math.max(1 - model.beta() * (delayS - target) / delayS, 1 - model.maxMdf());
            }
        }
        apply(c, old, now);
    }

    @Override
    protected void onTimeout(long now) {
        boolean canDecrease = lastDecreasePs == Long.MIN_VALUE || lastRttPs == 0 || now - lastDecreasePs >= lastRttPs;
        if (canDecrease) {
            apply(cwnd * (1 - model.maxMdf()), cwnd, now);
        }
    }

    private void apply(double c, double old, long now) {
        cwnd = Math.max(model.minCwnd(), Math.min(model.maxCwnd(), c));
        if (cwnd < old) {
            lastDecreasePs = now;
            decreases++;
        } else if (cwnd > old) {
            increases++;
        }
        // below one packet, one packet per RTT / cwnd; otherwise line rate within the window
        double rate = cwnd >= 1 || lastRttPs == 0 ? lineRate : packetBits * cwnd / (lastRttPs / 1e12);
        double before = rateBitsPerSecond;
        long d = decreases;
        long u = increases;
        setRate(rate, 1.0);
        decreases = d; // the counters count window changes, not the pacing that follows them
        increases = u;
        if (cwnd > old && rateBitsPerSecond == before) {
            wake(); // a wider window
        }
    }
}
