package fabriclab.simulation.transport.uec;

import fabriclab.simulation.element.FlowState;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.element.Packet;
import fabriclab.simulation.element.Transport;
import fabriclab.simulation.event.EventHandler;
import java.util.BitSet;

/**
 * Runtime of one Ultra Ethernet flow (package-private): its sender (NSCC window, spraying, selective retransmission,
 * retransmission timer) and its receiver (out-of-order acceptance, selective ACKs, NACKs of trimmed packets); see
 * {@link UecTransport} and {@link Nscc}. The NSCC pseudocode it follows is section 3.6.13.5 of the specification.
 */
final class UecFlow extends Transport {
    private static final byte UNSENT = 0;
    private static final byte IN_FLIGHT = 1;
    private static final byte ACKED = 2;
    private static final byte TO_RESEND = 3;
    /** Data packet {@code aux} bit: the sender asks for an acknowledgement now (the specification's AR). */
    private static final long ACK_REQUEST = 1;
    /** Data packet {@code aux} bit: the packet is a retransmission ({@code pds.flags.retx}). */
    private static final long RETRANSMISSION = 2;
    /** Data packet {@code aux}: the sender's RCCC pull target sits above these flag bits. */
    private static final int TARGET_SHIFT = 2;

    private final UecTransport model;
    private final Nscc.Constants k;
    private final long rtoPs;
    private final int mtu;
    private final int headerBytes;
    private final EntropySource entropy;
    // sender: per packet
    private final byte[] state;
    private final long[] sentPs;
    private final byte[] copies;
    private final int[] sentEntropy;
    private int[] resend = new int[8];
    private int resendHead;
    private int resendCount;
    private int una;
    private int acked;
    private int highestSent = -1;
    private long inflight;
    // sender: NSCC state (section 3.6.13.4)
    private double cwnd;
    private double maxWnd;
    private long baseRtt;
    private double avgDelay;
    private long achievedBytes;
    private long receivedBytes;
    private long fiCount;
    private boolean increaseMode;
    private boolean triggerQa;
    private long qaEndPs;
    private long bytesToIgnore;
    private long bytesIgnored;
    private double incBytes;
    private long lastAdjustPs;
    private long lastDecreasePs;
    // sender: retransmission timer
    private boolean timerArmed;
    private boolean timerCancelled;
    /** Per packet, the timeouts it met since it was last acknowledged (it is never acknowledged before the last). */
    private final byte[] timedOut;
    private long[] timeoutAtPs = new long[0];
    private long[] timeoutSentPs = new long[0];
    private int[] timeoutSeq = new int[0];
    // sender: probe timer (uec.cpp: a probe 3 base RTTs after the last acknowledgement while data is still to be sent,
    // base RTT + target when all is sent; again every 5 base RTTs while unanswered)
    private boolean probeArmed;
    private boolean probeCancelled;
    private long probeAtPs = Long.MAX_VALUE;
    long probes;
    // receiver
    private final BitSet got = new BitSet();
    /** The received sequences some acknowledgement named or covered in its bitmap already. */
    private final BitSet covered = new BitSet();
    private int expected;
    private long payloadSinceAck;
    /** Wire bytes of the new, untrimmed data packets received (the specification's pdc.rcvd_bytes). */
    private long receivedWireBytes;
    /** Sender: the receiver's received bytes as the latest acknowledgement reported them. */
    private long reportedReceivedBytes;
    // counters
    long nacks;
    long headersReceived;
    long retransmits;
    long windowIncreases;
    long windowDecreases;
    long multiplicativeDecreases;
    long quickAdapts;
    // RCCC (Rccc), sender: credit held (wire bytes; may go below 0 by less than a packet), whether it is still the
    // speculative credit it started with, the cumulative credit received, when it last asked, the resend queue's bytes
    private final Rccc rccc;
    private final CreditPacer pacer;
    private final long maxCreditBytes;
    private long credit;
    private boolean speculating;
    private long pulled;
    private long lastRequestPs = Long.MIN_VALUE;
    private long resendWire;
    long creditRequests;
    // RCCC, receiver: the highest pull target heard (cumulative wire bytes), the credit granted so far, and whether the
    // flow is in its pacer's round robin or idle list
    private long highestTarget;
    private long latestPull;
    boolean inPull;
    boolean inSlowPull;

    private final EventHandler timer = this::onTimer;
    private final EventHandler probeTimer = this::onProbeTimer;

    UecFlow(Network net, FlowState flow, UecTransport model, Nscc.Constants k, long rtoPs, CreditPacer pacer,
            long bdpBytes) {
        super(net, flow);
        this.model = model;
        this.k = k;
        this.rtoPs = rtoPs;
        this.mtu = net.config.mtuBytes();
        this.headerBytes = net.config.headerBytes();
        this.entropy = new EntropySource(model.spraying(), model.entropies(), model.repsBufferSize(),
                Network.elementRandom(net.config.seed(), -2L - flow.id));
        int n = flow.packets;
        this.state = new byte[n];
        this.sentPs = new long[n];
        this.copies = new byte[n];
        this.sentEntropy = new int[n];
        this.timedOut = new byte[n];
        this.baseRtt = k.baseRttPs();
        this.maxWnd = k.maxWindowBytes();
        this.cwnd = maxWnd;
        this.rccc = model.rccc().enabled() ? model.rccc() : null;
        this.pacer = pacer;
        this.maxCreditBytes = Math.max(1, Math.round(model.rccc().maxCreditBdp() * bdpBytes));
        this.credit = Math.round(model.rccc().speculativeCreditBdp() * bdpBytes);
        this.speculating = true;
    }

    private int wireOf(int seq) {
        return flow.payloadOf(seq, mtu) + headerBytes;
    }

    @Override
    protected void onStart(long now) {
        lastAdjustPs = now;
        lastDecreasePs = now;
        if (rccc != null && credit <= 0) {
            requestCredit(now); // no speculative credit: ask for some before the first packet
        }
    }

    // ---------------------------------------------------------------- sender

    @Override
    protected boolean canSend() {
        if (flow.failed() || acked == flow.packets) {
            return false;
        }
        dropStaleResends();
        if (resendCount == 0 && flow.nextSeq() >= flow.packets) {
            return false;
        }
        if (rccc != null) {
            if (credit <= 0) {
                return false;
            }
            if (!rccc.senderWindow()) {
                return true;
            }
        }
        return inflight <= 0 || inflight + k.minWindowBytes() <= cwnd;
    }

    /** Removes from the head of the resend queue the packets acknowledged since they were queued. */
    private void dropStaleResends() {
        while (resendCount > 0 && state[resend[resendHead]] != TO_RESEND) {
            resendHead = (resendHead + 1) % resend.length;
            resendCount--;
        }
    }

    @Override
    protected int takeSequence() {
        dropStaleResends();
        if (resendCount > 0) {
            int seq = resend[resendHead];
            resendHead = (resendHead + 1) % resend.length;
            resendCount--;
            resendWire -= wireOf(seq);
            return seq;
        }
        return flow.takeNextSeq();
    }

    private void queueResend(int seq) {
        state[seq] = TO_RESEND;
        resendWire += wireOf(seq);
        if (resendCount == resend.length) {
            int[] bigger = new int[2 * resend.length];
            for (int i = 0; i < resendCount; i++) {
                bigger[i] = resend[(resendHead + i) % resend.length];
            }
            resend = bigger;
            resendHead = 0;
        }
        resend[(resendHead + resendCount) % resend.length] = seq;
        resendCount++;
    }

    @Override
    protected void onSent(Packet p, long now) {
        int seq = p.seq();
        boolean again = copies[seq] > 0;
        if (again) {
            flow.countRetransmission(p.payloadBytes());
            retransmits++;
        }
        if (copies[seq] < Byte.MAX_VALUE) {
            copies[seq]++;
        }
        state[seq] = IN_FLIGHT;
        sentPs[seq] = now;
        highestSent = Math.max(highestSent, seq);
        inflight += p.wireBytes();
        int e = entropy.next();
        sentEntropy[seq] = e;
        p.setEntropy(e);
        boolean ask = again || seq == flow.packets - 1 || cwnd - inflight < k.minWindowBytes();
        long target = 0;
        if (rccc != null) {
            credit -= p.wireBytes();
            target = pullTarget();
        }
        p.stamp((ask ? ACK_REQUEST : 0) | (again ? RETRANSMISSION : 0) | target << TARGET_SHIFT);
        if (!timerArmed) {
            timerArmed = true;
            source.events().schedule(now + rtoPs, timer, null);
        }
        if (!probeArmed) {
            armProbe(now + 3 * baseRtt);
        }
    }

    @Override
    protected void onControl(Packet p, long now) {
        if (p.kind() == Packet.CREDIT) { // at the sender: cumulative credit granted
            long granted = p.aux();
            source.packets.recycle(p);
            if (rccc != null && !flow.failed()) {
                stopSpeculating();
                if (granted > pulled) {
                    credit = Math.min(maxCreditBytes, credit + granted - pulled);
                    pulled = granted;
                }
                wake();
            }
            return;
        }
        if (p.kind() == Packet.PROBE) { // at the receiver: answered by an ACK of what arrived
            if (rccc != null) {
                heardTarget(p.aux(), now);
            }
            destination.packets.recycle(p);
            sendControl(Packet.ACK, expected, model.controlBytes(), model.ackPriority(), true, 0,
                    acknowledgement(-1, -1, false, false));
            return;
        }
        Acknowledgement a = (Acknowledgement) p.attachment();
        boolean nack = p.kind() == Packet.NACK;
        at(p).packets.recycle(p); // consumed: the last use of p
        if (a == null || flow.failed()) {
            return;
        }
        double before = cwnd;
        if (rccc != null) {
            stopSpeculating();
        }
        acknowledge(a, nack);
        long newly = Math.max(0, a.receivedBytes() - reportedReceivedBytes); // the ACK clock (section 3.6.13)
        reportedReceivedBytes = Math.max(reportedReceivedBytes, a.receivedBytes());
        inflight -= newly;
        if (nack) {
            onNack(a, now);
        } else {
            entropy.acknowledged(a.entropy(), a.marked());
            onAck(a, newly, now);
        }
        if (cwnd > before) {
            windowIncreases++;
        } else if (cwnd < before) {
            windowDecreases++;
        }
        if (acked == flow.packets && flow.acknowledgedPs() < 0) {
            flow.acknowledgedAt(now);
            if (timerArmed && !timerCancelled) {
                timerCancelled = true;
                source.eventCancelled();
            }
            if (probeArmed && !probeCancelled) {
                probeCancelled = true;
                source.eventCancelled();
            }
        } else if (highestSent >= una) {
            armProbe(now + (flow.nextSeq() < flow.packets ? 3 * baseRtt : baseRtt + k.targetPs()));
        }
        wake();
    }

    /** The next probe is due at {@code atPs} (the pending event, if later, is moved; if earlier, it waits). */
    private void armProbe(long atPs) {
        probeAtPs = atPs;
        if (!probeArmed) {
            probeArmed = true;
            source.events().schedule(atPs, probeTimer, null);
        }
    }

    /**
     * The probe timer: no acknowledgement came for its period while packets are outstanding, so the sender asks the
     * receiver for one (a control packet answered by an ACK of everything that arrived), as the reference does.
     */
    private void onProbeTimer(long now, Object ignored) {
        probeArmed = false;
        if (probeCancelled) {
            probeCancelled = false;
            source.cancelledEventFired();
            return;
        }
        if (acked == flow.packets || flow.failed() || highestSent < una) {
            return;
        }
        if (now < probeAtPs) {
            probeArmed = true;
            source.events().schedule(probeAtPs, probeTimer, null);
            return;
        }
        probes++;
        sendControl(Packet.PROBE, -1, model.controlBytes(), model.ackPriority(), false, rccc != null ? pullTarget() : 0);
        armProbe(now + 5 * baseRtt);
    }

    /**
     * Marks what {@code a} acknowledges: cumulatively, selectively and, unless it is a NACK, the packet it names. (The
     * bytes in flight follow the receiver's count instead, {@link Acknowledgement#receivedBytes()}.)
     */
    private void acknowledge(Acknowledgement a, boolean nack) {
        int cum = Math.min(a.cumulative(), flow.packets);
        for (int s = una; s < cum; s++) {
            ackOne(s);
        }
        long bits = a.selective();
        while (bits != 0) {
            int i = Long.numberOfTrailingZeros(bits);
            bits &= bits - 1;
            int s = a.selectiveBase() + i;
            if (s < flow.packets) {
                ackOne(s);
            }
        }
        if (!nack && a.sequence() >= 0 && a.sequence() < flow.packets) {
            ackOne(a.sequence());
        }
        while (una < flow.packets && state[una] == ACKED) {
            una++;
        }
    }

    private void ackOne(int s) {
        byte st = state[s];
        if (st == ACKED || st == UNSENT) {
            return;
        }
        if (st == TO_RESEND) {
            resendWire -= wireOf(s);
        }
        state[s] = ACKED; // a packet waiting to be resent is no longer resent (unmark_packet_for_rtx)
        acked++;
    }

    /** The RTT sample of the packet {@code a} names, or -1 when its copy is ambiguous (section 3.6.13.1). */
    private long rttSample(Acknowledgement a, long now) {
        int s = a.sequence();
        if (s < 0 || s >= flow.packets) {
            return -1;
        }
        boolean valid = (copies[s] == 1 && !a.retransmission()) || (copies[s] == 2 && a.retransmission());
        return valid ? now - sentPs[s] : -1;
    }

    /** NSCC.OnACK (section 3.6.13.5). */
    private void onAck(Acknowledgement a, long newly, long now) {
        bytesIgnored += newly;
        receivedBytes += newly;
        achievedBytes += newly;
        long rtt = rttSample(a, now);
        if (rtt < 0) {
            return;
        }
        updateBaseRtt(rtt);
        long delay = rtt - baseRtt;
        updateDelay(delay);
        boolean marked = a.marked();
        if (quickAdapt(false, marked, delay, now)) {
            return;
        }
        if (!marked && delay >= k.targetPs()) {
            incBytes += k.fairIncrease() * newly; // fair_increase
        } else if (!marked) {
            proportionalIncrease(newly, delay);
        } else if (delay >= k.targetPs()) {
            multiplicativeDecrease(now);
        } // marked and under the target: no change (the mark alone is a load-balancing signal)
        if (now - lastAdjustPs >= k.adjustPeriodPs() || receivedBytes > k.adjustBytes()) {
            fulfillAdjustment(now);
        }
        boundWindow();
    }

    /** NSCC.OnNACK for a trimmed packet, and the packet's retransmission (section 3.6.12.3, OnNACK). */
    private void onNack(Acknowledgement a, long now) {
        int s = a.sequence();
        if (s < 0 || s >= flow.packets || state[s] != IN_FLIGHT) {
            return; // acknowledged meanwhile, or already queued again
        }
        int w = wireOf(s);
        inflight -= w;
        queueResend(s);
        long rtt = rttSample(a, now);
        if (rtt >= 0) {
            updateBaseRtt(rtt);
        }
        updateDelay(k.baseRttPs()); // a trimmed packet met a queue of about the trimming threshold: config_base_rtt
        bytesIgnored += w;
        triggerQa = true;
        if (!quickAdapt(true, true, 0, now)) {
            cwnd = Math.max(cwnd - w, k.minWindowBytes());
        }
        boundWindow();
        if (rccc != null && credit <= 0) {
            requestCredit(now);
        }
    }

    private void updateBaseRtt(long rtt) {
        if (rtt < baseRtt) {
            baseRtt = Math.max(1, rtt);
            maxWnd = k.maxWindowFor(baseRtt);
        }
    }

    private void updateDelay(long delay) {
        double g = k.nscc().delayEwmaGain();
        avgDelay = g * Math.max(0, delay) + (1 - g) * avgDelay;
    }

    private void proportionalIncrease(long newly, long delay) {
        if (delay < Nscc.FAST_INCREASE_DELAY_PS) { // fast_increase
            fiCount += newly;
            if (fiCount > cwnd || increaseMode) {
                cwnd = Math.min(maxWnd, cwnd + newly * k.fastIncreaseScale());
                increaseMode = true;
                return;
            }
        } else {
            fiCount = 0;
        }
        increaseMode = false;
        incBytes += k.alphaPerPs() * newly * (k.targetPs() - delay);
    }

    private void multiplicativeDecrease(long now) {
        increaseMode = false;
        fiCount = 0;
        if (avgDelay > k.targetPs() && now - lastDecreasePs > baseRtt) {
            double factor = Math.max(1 - k.nscc().gamma() * (avgDelay - k.targetPs()) / avgDelay, Nscc.MAX_MD_JUMP);
            cwnd = Math.max(cwnd * factor, k.minWindowBytes());
            lastDecreasePs = now;
            multiplicativeDecreases++;
        }
    }

    private void fulfillAdjustment(long now) {
        cwnd += incBytes / cwnd;
        if (now - lastAdjustPs >= k.adjustPeriodPs()) {
            lastAdjustPs = now;
            cwnd += k.eta();
        }
        cwnd = Math.min(cwnd, maxWnd);
        incBytes = 0;
        receivedBytes = 0;
    }

    /** quick_adapt (section 3.6.13.6); true if it set the window or the bytes after one are still being ignored. */
    private boolean quickAdapt(boolean loss, boolean marked, long delay, long now) {
        if (!k.nscc().quickAdapt()) {
            return false;
        }
        boolean doneOrIgnore = false;
        if (bytesIgnored < bytesToIgnore && marked) {
            doneOrIgnore = true;
        } else if (now >= qaEndPs) {
            if (qaEndPs != 0 && (triggerQa || loss || delay > k.quickAdaptThresholdPs())
                    && achievedBytes < ((long) maxWnd >> k.nscc().quickAdaptGate())) {
                cwnd = Math.max(achievedBytes, k.minWindowBytes());
                bytesToIgnore = Math.max(0, inflight);
                bytesIgnored = 0;
                triggerQa = false;
                doneOrIgnore = true;
                quickAdapts++;
            }
            achievedBytes = 0;
            qaEndPs = now + baseRtt + k.targetPs();
        }
        if (doneOrIgnore) {
            incBytes = 0;
            receivedBytes = 0;
        }
        return doneOrIgnore;
    }

    private void boundWindow() {
        cwnd = Math.max(k.minWindowBytes(), Math.min(maxWnd, cwnd));
    }

    /**
     * The retransmission timer: every packet in flight for the timeout or longer is declared lost and queued again
     * (NSCC.OnInferredLoss: the window shrinks by its size); the timer then waits for the oldest packet still in flight.
     */
    private void onTimer(long now, Object ignored) {
        timerArmed = false;
        if (timerCancelled) {
            timerCancelled = false;
            source.cancelledEventFired();
            return;
        }
        if (acked == flow.packets || flow.failed()) {
            return;
        }
        long next = Long.MAX_VALUE;
        int lost = 0;
        long earliestSent = Long.MAX_VALUE;
        int lowestSeq = Integer.MAX_VALUE;
        for (int s = una; s <= highestSent; s++) {
            if (state[s] != IN_FLIGHT) {
                continue;
            }
            if (now - sentPs[s] >= rtoPs) {
                if (timedOut[s] >= model.retryCount()) {
                    recordTimeout(now, sentPs[s], s);
                    flow.fail(); // this packet exhausted its retries: the flow goes to the error state
                    source.progressAt(now);
                    return;
                }
                timedOut[s]++;
                lost++;
                earliestSent = Math.min(earliestSent, sentPs[s]);
                lowestSeq = Math.min(lowestSeq, s);
                int w = wireOf(s);
                inflight -= w;
                queueResend(s);
                cwnd = Math.max(cwnd - w, k.minWindowBytes()); // NSCC.OnInferredLoss
                bytesIgnored += w;
            } else {
                next = Math.min(next, sentPs[s] + rtoPs);
            }
        }
        if (lost > 0) {
            recordTimeout(now, earliestSent, lowestSeq);
            source.progressAt(now);
            windowDecreases++;
            if (rccc != null && credit <= 0) {
                requestCredit(now);
            }
            wake();
        }
        if (next != Long.MAX_VALUE) {
            timerArmed = true;
            source.events().schedule(next, timer, null);
        }
    }

    /**
     * Records a timeout at {@code now} that declared lost packets sent from {@code earliestSentPs} on, the lowest being
     * {@code lowestSeq}.
     */
    private void recordTimeout(long now, long earliestSentPs, int lowestSeq) {
        int n = (int) flow.timeouts();
        if (n == timeoutAtPs.length) {
            timeoutAtPs = java.util.Arrays.copyOf(timeoutAtPs, Math.max(4, 2 * n));
            timeoutSentPs = java.util.Arrays.copyOf(timeoutSentPs, timeoutAtPs.length);
            timeoutSeq = java.util.Arrays.copyOf(timeoutSeq, timeoutAtPs.length);
        }
        timeoutAtPs[n] = now;
        timeoutSentPs[n] = earliestSentPs;
        timeoutSeq[n] = lowestSeq;
        flow.countTimeout();
    }

    /**
     * Counts as spurious the timeouts no loss explains (after the run, when every loss is recorded): a timeout is
     * explained by a loss of an ACK or NACK of this flow, or of one of its data packets at or above the lowest it declared
     * lost, after the earliest of those was sent and before the timeout ({@link FlowState#lossExplains}).
     */
    void classifyTimeouts() {
        long spurious = 0;
        for (int i = 0; i < flow.timeouts(); i++) {
            if (!flow.lossExplains(timeoutSentPs[i] - 1, timeoutAtPs[i], timeoutSeq[i])) {
                spurious++;
            }
        }
        flow.setSpuriousTimeouts(spurious);
    }

    // ---------------------------------------------------------------- receiver

    @Override
    protected void onData(Packet p, long now) {
        int seq = p.seq();
        if (rccc != null) {
            if (p.trimmed()) { // it must come again: the receiver adds its bytes to the credit the flow needs
                highestTarget = Math.max(highestTarget, p.aux() >>> TARGET_SHIFT) + quantize(wireOf(seq));
                pacer.request(this, destination, now);
            } else {
                heardTarget(p.aux() >>> TARGET_SHIFT, now);
            }
        }
        if (p.trimmed()) {
            headersReceived++;
            nacks++;
            sendControl(Packet.NACK, seq, model.controlBytes(), model.ackPriority(), true, 0,
                    acknowledgement(seq, p));
            destination.packets.recycle(p);
            return;
        }
        boolean fresh = net.workload().deliver(p, now); // counts and discards a duplicate
        boolean ask = (p.aux() & ACK_REQUEST) != 0;
        if (fresh) {
            receivedWireBytes += p.wireBytes();
            got.set(seq);
            while (got.get(expected)) {
                expected++;
            }
            payloadSinceAck += p.payloadBytes();
        }
        if (!fresh || ask || p.ecnMarked() || payloadSinceAck >= model.ackEveryBytes() || expected == flow.packets) {
            payloadSinceAck = 0;
            sendControl(Packet.ACK, expected, model.controlBytes(), model.ackPriority(), true, 0,
                    acknowledgement(seq, p));
        }
        destination.packets.recycle(p); // consumed: the last use of p
    }

    /** The receiver's acknowledgement state, naming data packet {@code p} (sequence {@code seq}). */
    private Acknowledgement acknowledgement(int seq, Packet p) {
        return acknowledgement(seq, p.entropy(), p.ecnMarked(), (p.aux() & RETRANSMISSION) != 0);
    }

    /**
     * The receiver's acknowledgement naming sequence {@code seq} (-1: none). Its bitmap starts at the lowest received
     * sequence above the cumulative one that no acknowledgement covered yet (else at the 64 up to {@code seq}), so that
     * every packet that arrives is acknowledged by the next ACK or NACK (the reference's {@code sackBitmapBaseIdeal}
     * in {@code uec.cpp} chooses its base for the same reason).
     */
    private Acknowledgement acknowledgement(int seq, int entropyValue, boolean marked, boolean retransmission) {
        int base = firstUncovered();
        if (base < 0) {
            base = Math.max(expected, seq - 63);
        }
        long bits = 0;
        for (int i = got.nextSetBit(base); i >= 0 && i < base + 64; i = got.nextSetBit(i + 1)) {
            bits |= 1L << (i - base);
            covered.set(i);
        }
        if (seq >= 0) {
            covered.set(seq);
        }
        return new Acknowledgement(expected, base, bits, receivedWireBytes, seq, entropyValue, marked, retransmission);
    }

    /** The lowest received sequence above the cumulative one no acknowledgement covered, or -1. */
    private int firstUncovered() {
        int i = got.nextSetBit(expected);
        while (i >= 0 && covered.get(i)) {
            i = got.nextSetBit(covered.nextClearBit(i));
        }
        return i;
    }

    // ---------------------------------------------------------------- RCCC

    /** {@code bytes} rounded up to whole credit quanta ({@link Rccc#QUANTUM_BYTES}). */
    private static long quantize(long bytes) {
        return (bytes + Rccc.QUANTUM_BYTES - 1) / Rccc.QUANTUM_BYTES * Rccc.QUANTUM_BYTES;
    }

    /**
     * The sender's pull target (uet-htsim {@code computePullTarget}): the credit received so far plus the wire bytes it
     * still needs (its unsent and to-be-resent packets; at most the most credit it keeps and, with the sender window, the
     * NSCC window plus a packet) less the credit it holds, in whole quanta; while speculating with data left, at least
     * a packet.
     */
    private long pullTarget() {
        int unsent = flow.packets - flow.nextSeq();
        long need = resendWire + (unsent == 0 ? 0 : (long) (unsent - 1) * (mtu + headerBytes) + wireOf(flow.packets - 1));
        if (rccc.senderWindow()) {
            need = Math.min(need, (long) cwnd + mtu + headerBytes);
        }
        need = Math.min(need, maxCreditBytes) - credit;
        if (speculating && need < mtu + headerBytes && unsent > 0) {
            need = mtu + headerBytes;
        }
        return pulled + quantize(Math.max(0, need));
    }

    /** The sender's first acknowledgement, NACK or credit ends its speculation: unspent speculative credit is dropped. */
    private void stopSpeculating() {
        if (speculating) {
            speculating = false;
            credit = Math.min(credit, 0);
        }
    }

    /**
     * A sender without credit but with packets to send asks for credit with a probe carrying its pull target (the
     * reference's request to send), at most once per base RTT.
     */
    private void requestCredit(long now) {
        if (resendCount == 0 && flow.nextSeq() >= flow.packets) {
            return;
        }
        if (lastRequestPs != Long.MIN_VALUE && now - lastRequestPs < baseRtt) {
            return;
        }
        lastRequestPs = now;
        creditRequests++;
        sendControl(Packet.PROBE, -1, model.controlBytes(), model.ackPriority(), false, pullTarget());
    }

    /** At the receiver: a pull target {@code target} arrived; above the credit granted, the flow asks its pacer. */
    private void heardTarget(long target, long now) {
        if (target > highestTarget) {
            highestTarget = target;
            if (highestTarget > latestPull) {
                pacer.request(this, destination, now);
            }
        }
    }

    /** At the receiver: the credit this flow still asked for and was not granted (negative: granted beyond it). */
    long creditBacklog() {
        return highestTarget - latestPull;
    }

    /** At the receiver: whether every packet of the flow arrived. */
    boolean receivedAll() {
        return expected == flow.packets;
    }

    /** At the receiver: grants {@code bytes} of credit (nothing sent for 0); returns it. */
    long grant(long bytes, long now) {
        if (bytes <= 0) {
            return 0;
        }
        latestPull += bytes;
        sendControl(Packet.CREDIT, -1, model.controlBytes(), model.ackPriority(), true, latestPull);
        return bytes;
    }

    /** The entropy this flow's packet {@code seq} was last sent on (for tests). */
    int entropyOf(int seq) {
        return sentEntropy[seq];
    }

    long recycledEntropies() {
        return entropy.recycled;
    }

    long exploredEntropies() {
        return entropy.explored;
    }
}
