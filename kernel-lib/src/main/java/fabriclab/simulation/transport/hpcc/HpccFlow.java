package fabriclab.simulation.transport.hpcc;

import fabriclab.fabric.Time;
import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Packet;
import fabriclab.simulation.transport.ReliableTransport;

/** Runtime of one HPCC queue pair: go-back-N, the telemetry echo at the receiver, the window at the sender (package-private). */
final class HpccFlow extends ReliableTransport {
    private final HpccTransport model;
    private final long baseRttPs;
    private final int mtuBytes;
    private final double maxWindowBytes;
    private final double minWindowBytes;
    private final double additiveIncreaseBytes;
    // sender
    /** W, bytes. */
    double windowBytes;
    /** W_c, bytes. */
    double referenceWindowBytes;
    /** U. */
    double utilisation = 1;
    int stage;
    /** lastUpdateSeq, or -1 before the first ACK with telemetry. */
    private int lastUpdateSeq = -1;
    /** The last telemetry the sender received (L), or null. */
    private Telemetry last;
    private long lastStartPs = -1;
    private int lastWireBytes;
    // receiver
    private Telemetry echo;
    // counters
    long updates;
    long fastReactions;
    long multiplicative;

    HpccFlow(Network net, FlowState flow, HpccTransport model, long baseRttPs) {
        super(net, flow, model.rc(), model.controlBytes() + model.intHeaderBytes(), model.ackPriority());
        this.model = model;
        addHeaderBytes(model.intHeaderBytes());
        this.baseRttPs = baseRttPs;
        this.mtuBytes = net.config.mtuBytes();
        double lineRate = net.hosts[flow.spec.source()].nic().link.rateBitsPerSecond;
        this.maxWindowBytes = lineRate * baseRttPs / 8e12;
        this.minWindowBytes = Math.min(maxWindowBytes, model.minRateBitsPerSecond() * baseRttPs / 8e12);
        this.additiveIncreaseBytes = model.additiveIncreaseBitsPerSecond() * baseRttPs / 8e12;
        this.windowBytes = maxWindowBytes;
        this.referenceWindowBytes = maxWindowBytes;
    }

    /** The rate R = W / T, bit/s. */
    private double rateBitsPerSecond() {
        return windowBytes * 8e12 / baseRttPs;
    }

    @Override
    protected boolean canSend() {
        if (!super.canSend()) {
            return false;
        }
        long inFlight = (long) (flow.nextSeq() - una) * mtuBytes;
        return inFlight <= 0 || inFlight < windowBytes;
    }

    @Override
    protected void onDataSent(Packet p, long now) {
        p.attach(new Telemetry(), 0);
        lastStartPs = now;
        lastWireBytes = p.wireBytes();
        nextSendPs = now + Time.serializationPs(p.wireBytes(), Math.max(1, Math.round(rateBitsPerSecond())));
    }

    @Override
    protected void onData(Packet p, long now) {
        if (p.attachment() instanceof Telemetry t) {
            echo = t; // the next ACK or NAK carries it back
        }
        super.onData(p, now);
    }

    @Override
    protected Object acknowledgementAttachment() {
        return echo;
    }

    @Override
    protected void onControl(Packet p, long now) {
        Telemetry t = p.kind() == Packet.ACK || p.kind() == Packet.NACK ? (Telemetry) p.attachment() : null;
        int seq = p.seq();
        super.onControl(p, now); // recycles p
        if (t != null) {
            react(seq, t);
        }
    }

    @Override
    protected void onOtherControl(Packet p, long now) {
    }

    @Override
    protected void onAcknowledged(long now) {
        wake();
    }

    /** NewAck of Algorithm 1 for an ACK acknowledging below {@code seq} with telemetry {@code t}. */
    private void react(int seq, Telemetry t) {
        if (lastUpdateSeq < 0) { // the first feedback: only its telemetry is kept
            last = t;
            lastUpdateSeq = flow.nextSeq();
            return;
        }
        boolean update = seq > lastUpdateSeq;
        // MeasureInflight
        double u = 0;
        long tau = 0;
        boolean measured = false;
        if (last != null && last.hops() == t.hops()) {
            for (int i = 0; i < t.hops(); i++) {
                long dt = t.timePs(i) - last.timePs(i);
                if (t.port(i) != last.port(i) || dt <= 0 || t.txBytes(i) < last.txBytes(i)) {
                    continue;
                }
                double ui = HpccTransport.hopUtilisation(t.queueBytes(i), last.queueBytes(i), t.txBytes(i), last.txBytes(i),
                        dt, t.rateBitsPerSecond(i), baseRttPs);
                if (!measured || ui > u) {
                    u = ui;
                    tau = dt;
                }
                measured = true;
            }
        }
        last = t;
        if (!update && !model.fastReaction()) {
            return;
        }
        if (measured) {
            utilisation = HpccTransport.smoothed(utilisation, u, tau, baseRttPs);
        }
        // ComputeWind
        boolean mult = model.multiplicative(utilisation, stage);
        double w = model.window(referenceWindowBytes, utilisation, stage, additiveIncreaseBytes, minWindowBytes, maxWindowBytes);
        if (update) {
            referenceWindowBytes = w;
            stage = mult ? 0 : stage + 1;
            lastUpdateSeq = flow.nextSeq();
            updates++;
        } else {
            fastReactions++;
        }
        if (mult) {
            multiplicative++;
        }
        double before = windowBytes;
        windowBytes = w;
        if (w > before) {
            if (lastStartPs >= 0) { // a faster rate: the next packet may start earlier
                advancePacing(lastStartPs + Time.serializationPs(lastWireBytes, Math.max(1, Math.round(rateBitsPerSecond()))));
            }
            wake();
        }
    }
}
