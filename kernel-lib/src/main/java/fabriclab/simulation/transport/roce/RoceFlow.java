package fabriclab.simulation.transport.roce;

import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Packet;
import fabriclab.simulation.transport.ReliableTransport;
import fabriclab.fabric.Time;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.simulation.event.EventHandler;

/** Runtime of one RoCE queue pair: go-back-N plus the DCQCN reaction and notification points (package-private). */
final class RoceFlow extends ReliableTransport {
    private final RoceTransport model;
    private final DcqcnParameters p;
    private final double lineRate;
    // reaction point
    double rateBitsPerSecond;
    double targetBitsPerSecond;
    double alpha = 1;
    private int timerCount;
    private int byteCount;
    private long bytesSinceIncrease;
    private long lastCnpArrivalPs = Long.MIN_VALUE;
    private boolean recovering;
    private long alphaIdleSincePs = -1;
    private long lastStartPs;
    private int lastWireBytes;
    private int timerGeneration;
    private final long timerPs;
    private final long alphaPeriodPs;
    private final long byteCounter;
    private final boolean timerOnly;
    // notification point
    private long lastCnpSentPs = Long.MIN_VALUE;
    private final long tauPs;
    long cnpsSent;
    long cnpsReceived;
    long rateCuts;

    // sending window (DCQCN+w), or windowMaxBytes = 0 for none
    private final long windowMaxBytes;
    private final boolean windowScales;
    private final int mtuBytes;

    // the token bucket of RoceTransport.TokenBucket, or bucket = null for packet spacing
    private final RoceTransport.TokenBucket bucket;
    private final double bucketCapacity;
    private double tokens;
    private long tokensStampPs;

    private final EventHandler rateTimer = this::onRateTimer;
    private final EventHandler alphaTimer = this::onAlphaTimer;

    RoceFlow(Network net, FlowState flow, RoceTransport model) {
        super(net, flow, model.rc(), model.controlBytes(), model.ackPriority());
        this.model = model;
        this.p = model.dcqcn();
        this.lineRate = net.hosts[flow.spec.source()].nic().link.rateBitsPerSecond;
        this.rateBitsPerSecond = lineRate;
        this.targetBitsPerSecond = lineRate;
        this.timerPs = p == null ? 0 : Math.max(1, Math.round(p.timerS() * 1e12));
        this.alphaPeriodPs = p == null ? 0 : Math.max(1, Math.round(p.tauPrimeS() * 1e12));
        this.byteCounter = p == null ? 0 : Math.max(1, Math.round(p.byteCounterBytes()));
        this.timerOnly = p != null && p.byteCounterBytes() == DcqcnParameters.NO_BYTE_COUNTER;
        this.tauPs = p == null ? 0 : Math.max(1, Math.round(p.tauS() * 1e12));
        RoceTransport.Window w = model.window();
        this.windowMaxBytes = w == null ? 0 : w.maxBytes();
        this.windowScales = w != null && w.scalesWithRate();
        this.mtuBytes = net.config.mtuBytes();
        this.bucket = p == null ? null : model.tokenBucket();
        int fullPacket = mtuBytes + net.config.headerBytes();
        this.bucketCapacity = bucket == null ? 0 : bucket.capacityBytes(fullPacket);
        this.tokens = fullPacket;
        this.tokensStampPs = flow.spec.startPs();
    }

    @Override
    protected void onStart(long now) {
        super.onStart(now);
        if (bucket != null) { // the first turn waits for the quantum, from one packet's tokens at line rate
            tokensStampPs = now;
            nextSendPs = nextTurnPs();
        }
    }

    /** The window allows another packet: nothing in flight, or fewer payload bytes than W ({@link RoceTransport.Window}). */
    @Override
    protected boolean canSend() {
        if (!super.canSend()) {
            return false;
        }
        if (windowMaxBytes == 0) {
            return true;
        }
        long inFlight = (long) (flow.nextSeq() - una) * mtuBytes;
        if (inFlight <= 0) {
            return true;
        }
        double w = windowScales ? windowMaxBytes * (rateBitsPerSecond / lineRate) : windowMaxBytes;
        return inFlight < w;
    }

    @Override
    protected void onAcknowledged(long now) {
        if (windowMaxBytes != 0) {
            wake();
        }
    }

    @Override
    protected void onDataSent(Packet pk, long now) {
        if (p == null) {
            return;
        }
        lastStartPs = now;
        lastWireBytes = pk.wireBytes();
        if (bucket == null) {
            nextSendPs = now + Time.serializationPs(pk.wireBytes(), Math.max(1, Math.round(rateBitsPerSecond)));
        } else {
            if (!continuesBurst()) { // a new turn: the bucket fills for the time since its last refill
                refill(now);
            }
            tokens -= pk.wireBytes();
            keepsNic = tokens >= pk.wireBytes();
            nextSendPs = keepsNic ? now : nextTurnPs();
        }
        if (recovering) {
            bytesSinceIncrease += pk.wireBytes();
            while (bytesSinceIncrease >= byteCounter) {
                bytesSinceIncrease -= byteCounter;
                byteCount++;
                increase();
            }
        }
    }

    /** Tokens for the time since the last refill at the current rate, up to the capacity (the stamp stays while full). */
    private void refill(long now) {
        if (tokens < bucketCapacity) {
            tokens = Math.min(bucketCapacity, tokens + (now - tokensStampPs) * rateBitsPerSecond / 8e12);
            tokensStampPs = now;
        }
    }

    /** When the bucket, filling at the current rate from its last refill, holds the quantum for a new turn, ps. */
    private long nextTurnPs() {
        double missing = bucket.quantumBytes() - tokens;
        if (missing <= 0 || tokens >= bucketCapacity) {
            return tokensStampPs;
        }
        return tokensStampPs + (long) Math.ceil(missing * 8e12 / Math.max(1, rateBitsPerSecond));
    }

    /** The rate changed: a flow between turns gets its next turn at the new rate (a burst goes on). */
    private void rateChanged() {
        if (bucket == null || keepsNic || lastWireBytes == 0) {
            return;
        }
        long t = nextTurnPs();
        if (t < nextSendPs) {
            advancePacing(t);
        } else {
            nextSendPs = t; // later: the NIC re-paces the flow when it comes up
        }
    }

    // ------------------------------------------------------------ notification point (receiver)

    @Override
    protected void onDataReceived(Packet pk, long now) {
        if (p != null && pk.ecnMarked() && (lastCnpSentPs == Long.MIN_VALUE || now - lastCnpSentPs >= tauPs)) {
            lastCnpSentPs = now;
            cnpsSent++;
            sendControl(Packet.CNP, 0, model.controlBytes(), model.cnpPriority(), true, 0);
        }
    }

    // ------------------------------------------------------------ reaction point (sender)

    @Override
    protected void onOtherControl(Packet pk, long now) {
        if (pk.kind() != Packet.CNP || p == null) {
            return;
        }
        cnpsReceived++;
        if (alphaIdleSincePs >= 0) { // alpha kept decaying every tau' while the timers were idle
            alpha *= Math.pow(1 - p.g(), (double) ((now - alphaIdleSincePs) / alphaPeriodPs));
            alphaIdleSincePs = -1;
        }
        lastCnpArrivalPs = now;
        rateCuts++;
        if (model.clampTargetRate() || timerCount > 0 || byteCount > 0) { // else no increase since the last cut
            targetBitsPerSecond = rateBitsPerSecond;
        }
        rateBitsPerSecond = Math.max(p.minRateBitsPerSecond(), rateBitsPerSecond * (1 - alpha / 2));
        rateChanged();
        alpha = (1 - p.g()) * alpha + p.g();
        timerCount = 0;
        byteCount = 0;
        bytesSinceIncrease = 0;
        if (!recovering) {
            recovering = true;
            source.events().schedule(now + alphaPeriodPs, alphaTimer, null);
        }
        int gen = ++timerGeneration; // the rate-increase timer restarts at each CNP
        source.events().schedule(now + timerPs, rateTimer, gen);
    }

    private void onRateTimer(long now, Object gen) {
        if ((Integer) gen != timerGeneration || !recovering) {
            return;
        }
        timerCount++;
        increase();
        if (recovering && una < flow.packets) {
            source.events().schedule(now + timerPs, rateTimer, gen);
        }
    }

    private void onAlphaTimer(long now, Object ignored) {
        if (!recovering) {
            alphaIdleSincePs = now;
            return;
        }
        if (now - lastCnpArrivalPs >= alphaPeriodPs) {
            alpha = (1 - p.g()) * alpha;
        }
        if (una < flow.packets) {
            source.events().schedule(now + alphaPeriodPs, alphaTimer, null);
        } else {
            recovering = false;
        }
    }

    private void increase() {
        int f = p.fastRecoverySteps();
        if (timerOnly) {
            int stage = timerCount - 1; // timer events before this one since the cut
            if (stage == f) {
                targetBitsPerSecond = Math.min(lineRate, targetBitsPerSecond + p.rateAiBitsPerSecond());
            } else if (stage > f) {
                targetBitsPerSecond = Math.min(lineRate, targetBitsPerSecond + model.hyperIncreaseBitsPerSecond());
            } // else fast recovery: R_T unchanged
        } else if (Math.max(timerCount, byteCount) < f) {
            // fast recovery: R_T unchanged
        } else if (Math.min(timerCount, byteCount) > f) {
            targetBitsPerSecond = Math.min(lineRate, targetBitsPerSecond + (Math.min(timerCount, byteCount) - f) * model.hyperIncreaseBitsPerSecond());
        } else {
            targetBitsPerSecond = Math.min(lineRate, targetBitsPerSecond + p.rateAiBitsPerSecond());
        }
        rateBitsPerSecond = Math.min(lineRate, (targetBitsPerSecond + rateBitsPerSecond) / 2);
        if (bucket != null) {
            rateChanged();
        } else if (lastWireBytes > 0) {
            advancePacing(lastStartPs + Time.serializationPs(lastWireBytes, Math.max(1, Math.round(rateBitsPerSecond))));
        }
        if (windowScales) {
            wake(); // a higher rate widens the window
        }
        if (rateBitsPerSecond >= lineRate * (1 - 1e-9) && targetBitsPerSecond >= lineRate * (1 - 1e-9)) {
            rateBitsPerSecond = lineRate;
            recovering = false; // fully recovered: timers stop until the next CNP
        }
    }
}
