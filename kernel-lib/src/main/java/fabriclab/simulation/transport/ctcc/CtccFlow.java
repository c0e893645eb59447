package fabriclab.simulation.transport.ctcc;

import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Packet;
import fabriclab.simulation.transport.ReliableTransport;
import fabriclab.fabric.Time;
import fabriclab.congestion.RttControlParameters;
import fabriclab.simulation.event.EventHandler;
import java.util.ArrayList;
import java.util.List;

/** Runtime of one CTCC queue pair (package-private); see {@link CtccTransport}. */
final class CtccFlow extends ReliableTransport {
    private final CtccTransport model;
    private final RttControlParameters p;
    private final double lineRate;
    double rateBitsPerSecond;
    private long lastStartPs;
    private int lastWireBytes;
    private final PathProbe path;

    /** The probe stream of one source-destination pair, shared by its queue pairs. */
    static final class PathProbe implements EventHandler {
        final List<CtccFlow> members = new ArrayList<>();
        boolean running;
        long probes;
        long lastRttPs = -1;

        @Override
        public void handle(long now, Object ignored) {
            members.removeIf(f -> f.una >= f.flow.packets);
            if (members.isEmpty()) {
                running = false;
                return;
            }
            CtccFlow any = members.get(0);
            probes++;
            any.sendControl(Packet.PROBE, 0, any.model.controlBytes(), any.flow.spec.priority(), false, now);
            any.source.events().schedule(now + Math.max(1, Math.round(any.p.probeIntervalS() * 1e12)), this, null);
        }

        void reply(long rttPs) {
            lastRttPs = rttPs;
            for (CtccFlow f : members) {
                f.onRtt(rttPs);
            }
        }
    }

    CtccFlow(Network net, FlowState flow, CtccTransport model, PathProbe path) {
        super(net, flow, model.rc(), model.controlBytes(), model.replyPriority());
        this.model = model;
        this.p = model.params();
        this.lineRate = net.hosts[flow.spec.source()].nic().link.rateBitsPerSecond;
        this.rateBitsPerSecond = lineRate * model.initialRateFraction();
        this.path = path;
    }

    @Override
    protected void onStart(long now) {
        super.onStart(now);
        path.members.add(this);
        if (!path.running) {
            path.running = true;
            source.events().schedule(now, path, null);
        }
    }

    @Override
    protected void onDataSent(Packet pk, long now) {
        lastStartPs = now;
        lastWireBytes = pk.wireBytes();
        nextSendPs = now + Time.serializationPs(pk.wireBytes(), Math.max(1, Math.round(rateBitsPerSecond)));
    }

    @Override
    protected void onOtherControl(Packet pk, long now) {
        if (pk.kind() == Packet.PROBE) { // at the receiver: echo the send time, at high priority
            sendControl(Packet.PROBE_REPLY, 0, model.controlBytes(), model.replyPriority(), true, pk.aux());
        } else if (pk.kind() == Packet.PROBE_REPLY) {
            path.reply(now - pk.aux());
        }
    }

    @Override
    protected void onNack(long now) {
        setRate(rateBitsPerSecond / 2);
    }

    private void onRtt(long rttPs) {
        double r = rttPs / 1e12;
        double target = p.targetRttS();
        if (r > target) {
            setRate(rateBitsPerSecond * (1 - Math.min(p.maxDecrease(), p.beta() * (r - target) / r)));
        } else {
            setRate(rateBitsPerSecond + p.additiveIncreaseBitsPerSecond());
        }
    }

    private void setRate(double bps) {
        double old = rateBitsPerSecond;
        rateBitsPerSecond = Math.max(p.minRateBitsPerSecond(), Math.min(lineRate, bps));
        if (rateBitsPerSecond > old && lastWireBytes > 0) {
            advancePacing(lastStartPs + Time.serializationPs(lastWireBytes, Math.max(1, Math.round(rateBitsPerSecond))));
        }
    }
}
