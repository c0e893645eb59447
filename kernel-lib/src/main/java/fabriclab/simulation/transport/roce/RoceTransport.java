package fabriclab.simulation.transport.roce;

import fabriclab.simulation.trace.Counter;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.TransportRun;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.fabric.Time;
import fabriclab.Parameters;
import fabriclab.congestion.DcqcnParameters;

/**
 * RoCEv2 reliable-connection transport for the packet simulator: one flow is one queue pair doing
 * an RDMA write of {@link fabriclab.simulation.config.FlowSpec#bytes()} in MTU packets, with go-back-N loss recovery
 * (the reliable connection of {@link ReliableConnection}: coalesced cumulative ACKs, AckReq per message, one
 * NAK per sequence gap, the local ACK timeout for a lost tail) and, optionally, DCQCN.
 *
 * <p><b>DCQCN</b> (Zhu et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015,
 * section 3; seeds 000 section 1.2.2 and 003 describe the same algorithm) at its three points:
 * <ul>
 *   <li>Congestion point: the switch's WRED marks data packets at enqueue
 *       ({@link fabriclab.simulation.config.SwitchBuffer#wred()}; use {@code dcqcn.marking()} for the published Kmin/Kmax/Pmax).</li>
 *   <li>Notification point: the receiving NIC answers a marked data packet with a CNP
 *       ({@code cnpBytes} on the wire, priority {@code cnpPriority}), at most one per flow per
 *       {@code tau}.</li>
 *   <li>Reaction point: the sending NIC's rate limiter (current rate R_C, target R_T, alpha, start at
 *       line rate). On a CNP: R_T = R_C, R_C = R_C (1 - alpha/2), alpha = (1 - g) alpha + g, and the
 *       increase state is reset. Every tau' without a CNP: alpha = (1 - g) alpha. Rate-increase events
 *       come from a timer (every T) and a byte counter (every B bytes sent), counted as i_T and i_B:
 *       while max(i_T, i_B) &lt; F, fast recovery R_C = (R_T + R_C)/2; when both exceed F, hyper
 *       increase R_T += i R_HAI (i = min(i_T, i_B) - F); otherwise additive increase
 *       R_T += R_AI; then R_C = (R_T + R_C)/2. Rates stay within [minRate, line rate]. The
 *       increase machinery runs only after the first CNP (a flow at line rate has nothing to
 *       recover).</li>
 * </ul>
 * The rate limiter spaces packet starts by wire size / R_C; a rate change applies from the next packet. Waiting
 * beyond that spacing (behind the NIC's other queue pairs, or paused by PFC) earns no credit, and the NIC serves the
 * queue pairs its rate limiter lets send round robin, one packet each: the rule of HPCC's ns-3 model as published
 * ({@code QpAvail}). With {@code tokenBucket} ({@link TokenBucket}) the rate limiter is instead a token bucket that
 * keeps filling while the queue pair waits, and the NIC serves bursts: the default of the copy of that model the
 * project's RDMA reference runs (aliyun/ns-3-alibabacloud, {@code DWRR}).
 *
 * <p>Usage: {@code new Simulator(Scenario.builder(topology, config).flows(flows).transport(RoceTransport.dcqcn(
 * DcqcnParameters.zhu2015())).pfc(pfc).build()).run()}, with the config's buffer marking with
 * {@code dcqcn.marking()}.
 *
 * @param dcqcn DCQCN parameters (published defaults: {@link DcqcnParameters#zhu2015()}), or null for no congestion control
 * @param hyperIncreaseBitsPerSecond R_HAI [bit/s], positive (not part of {@link DcqcnParameters}; default 50 Mb/s, the
 *        rpg_hai_rate default NVIDIA documents for ConnectX NICs)
 * @param rc the reliable connection: messages, ACK coalescing, local ACK timeout and retries
 *        ({@link ReliableConnection#defaults()}: HCCL's and NCCL's documented values)
 * @param controlBytes wire bytes of an ACK, NACK or CNP (default 64, a minimum Ethernet frame), 64..1500
 * @param ackPriority priority of ACKs and NACKs (usually the data priority), 0..7
 * @param cnpPriority priority of CNPs (deployments give CNPs a high priority), 0..7
 * @param iqcn iQCN (seed 003 section 4.2.5): a switch that admits a flow's data packet into a queue above
 *        Kmin sends the sender a CNP itself when no CNP of that flow (from the receiver or a switch) was
 *        sent for longer than the rate-increase timer T, so the sender does not raise its rate while
 *        its queue is still congested (needs {@code dcqcn})
 * @param window the sending window ({@link Window}), or null for none (the rate limiter alone, as NICs run DCQCN)
 * @param clampTargetRate whether every rate cut sets the target rate R_T to the current rate R_C (true, Zhu et al.'s
 *        reaction point); false sets R_T only at a cut that follows a rate increase, so a run of cuts with no increase
 *        between them keeps the target of before the run and fast recovery climbs back towards it (the
 *        {@code clamp_tgt_rate} 0 of Mellanox NICs and {@code ClampTargetRate false} of HPCC's ns-3 DCQCN)
 * @param tokenBucket the DCQCN rate limiter as a token bucket with burst service ({@link TokenBucket}), or null for
 *        packet spacing by wire size / R_C with one packet per turn (the default)
 */
public record RoceTransport(DcqcnParameters dcqcn, double hyperIncreaseBitsPerSecond, ReliableConnection rc,
        int controlBytes, int ackPriority, int cnpPriority, boolean iqcn, Window window, boolean clampTargetRate,
        TokenBucket tokenBucket) implements TransportModel {

    /**
     * The sending NIC's rate limiter as a token bucket, with the NIC's service of queue pairs as deficit round robin:
     * the rule of {@code RdmaEgressQueue} in {@code qbb-net-device.cc} ({@code TxDequeueMode DWRR}, its default,
     * {@code TokenPerRound} 4000 B) and of {@code RdmaQueuePair::TokenBucket} in {@code rdma-queue-pair.h} of
     * aliyun/ns-3-alibabacloud (commit eb45e7f), the copy of HPCC's ns-3 model the project's RDMA reference runs.
     * The model as HPCC's authors published it spaces packets by wire size / R_C instead ({@code QpAvail}; this
     * simulator's default, {@code tokenBucket} null).
     *
     * <p>Each queue pair's bucket holds tokens k (bytes): k starts at one full packet's wire bytes P, fills at the current
     * rate R_C, k(t) = min(K, k(t0) + (t - t0) R_C / 8), up to K = 2 max(P, Q), and may go negative (a packet is taken
     * whole). A data packet's wire bytes leave the bucket as it starts. The NIC goes round robin over the queue pairs
     * with k at least the quantum Q; the one it picks sends packet after packet while k stays at least the wire bytes
     * of its last packet, without refilling in between (the bucket's time since its last refill is counted at the next
     * turn), then the turn passes on. So a queue pair that waits (behind others, or paused by PFC) keeps up to K of
     * credit, where the spacing rule keeps none. A rate change acts on the time the bucket next reaches Q. Applies
     * with DCQCN only (without it a queue pair runs at line rate either way).
     *
     * @param quantumBytes Q, the tokens a queue pair needs for a new turn [bytes], 64..1,000,000 (the reference's
     *        {@code TokenPerRound}, 4000)
     */
    public record TokenBucket(int quantumBytes) {
        /** The reference's {@code TokenPerRound}, bytes. */
        public static final int REFERENCE_QUANTUM_BYTES = 4000;

        /** Validates. */
        public TokenBucket {
            Parameters.inRange("quantumBytes", quantumBytes, 64, 1_000_000);
        }

        /** The reference's bucket: Q = {@value #REFERENCE_QUANTUM_BYTES} B. */
        public static TokenBucket reference() {
            return new TokenBucket(REFERENCE_QUANTUM_BYTES);
        }

        /** K = 2 max(P, Q) for a full packet of {@code packetWireBytes} P, bytes. */
        public long capacityBytes(int packetWireBytes) {
            Parameters.inRange("packetWireBytes", packetWireBytes, 1, 1_000_000);
            return 2L * Math.max(packetWireBytes, quantumBytes);
        }
    }

    /**
     * A sending window on top of the rate limiter ("DCQCN+w" of Li et al., "HPCC: High Precision Congestion
     * Control", SIGCOMM 2019, section 5.1, which adds one to DCQCN): a queue pair keeps at most W payload bytes
     * unacknowledged, counted as whole packets of the MTU ({@code (nextSeq - una) * mtu}); a packet may always
     * start when nothing is in flight. With {@code scalesWithRate} the window follows the current rate,
     * W = W_max * R_C / line rate (the variable window of HPCC's simulator, {@code VAR_WIN 1} in its
     * configuration), so a cut by DCQCN also shrinks what is in flight. HPCC's evaluation sets W_max to the
     * fabric's largest base RTT times the line rate (one BDP).
     *
     * @param maxBytes W_max [bytes], at least 1
     * @param scalesWithRate whether W follows R_C / line rate
     */
    public record Window(long maxBytes, boolean scalesWithRate) {
        /** Validates. */
        public Window {
            Parameters.atLeast("maxBytes", maxBytes, 1L);
        }
    }

    /** Validates. */
    public RoceTransport {
        Parameters.positive("hyperIncreaseBitsPerSecond", hyperIncreaseBitsPerSecond);
        Parameters.notNull("rc", rc);
        Parameters.inRange("controlBytes", controlBytes, 64, 1500);
        Parameters.inRange("ackPriority", ackPriority, 0, 7);
        Parameters.inRange("cnpPriority", cnpPriority, 0, 7);
        if (iqcn && dcqcn == null) {
            throw new IllegalArgumentException("iqcn needs dcqcn (iQCN adds CNPs to DCQCN), got dcqcn = null");
        }
        if (tokenBucket != null && dcqcn == null) {
            throw new IllegalArgumentException("tokenBucket needs dcqcn (it is DCQCN's rate limiter), got dcqcn = null and"
                    + " tokenBucket = " + tokenBucket);
        }
    }

    /** The same with every cut setting the target rate ({@code clampTargetRate} true). */
    public RoceTransport(DcqcnParameters dcqcn, double hyperIncreaseBitsPerSecond, ReliableConnection rc,
            int controlBytes, int ackPriority, int cnpPriority, boolean iqcn, Window window) {
        this(dcqcn, hyperIncreaseBitsPerSecond, rc, controlBytes, ackPriority, cnpPriority, iqcn, window, true);
    }

    /** The same with packet spacing ({@code tokenBucket} null). */
    public RoceTransport(DcqcnParameters dcqcn, double hyperIncreaseBitsPerSecond, ReliableConnection rc,
            int controlBytes, int ackPriority, int cnpPriority, boolean iqcn, Window window, boolean clampTargetRate) {
        this(dcqcn, hyperIncreaseBitsPerSecond, rc, controlBytes, ackPriority, cnpPriority, iqcn, window, clampTargetRate,
                null);
    }

    /** DCQCN with {@code p}; the default reliable connection; 64-byte control frames on priority 0. */
    public static RoceTransport dcqcn(DcqcnParameters p) {
        return new RoceTransport(Parameters.notNull("p", p), 50e6, ReliableConnection.defaults(), 64, 0, 0, false, null);
    }

    /** Go-back-N RoCE without congestion control (line rate, PFC or loss decide). */
    public static RoceTransport noCongestionControl() {
        return new RoceTransport(null, 50e6, ReliableConnection.defaults(), 64, 0, 0, false, null);
    }

    /** A copy with CNPs (and ACKs/NACKs if {@code alsoAcks}) on another priority. */
    public RoceTransport withControlPriority(int priority, boolean alsoAcks) {
        return new RoceTransport(dcqcn, hyperIncreaseBitsPerSecond, rc, controlBytes, alsoAcks ? priority : ackPriority,
                priority, iqcn, window, clampTargetRate, tokenBucket);
    }

    /** A copy with another hyper-increase step R_HAI [bit/s]. */
    public RoceTransport withHyperIncrease(double bps) {
        return new RoceTransport(dcqcn, bps, rc, controlBytes, ackPriority, cnpPriority, iqcn, window, clampTargetRate, tokenBucket);
    }

    /** A copy with another reliable connection (timeout, retries, ACK coalescing, message size). */
    public RoceTransport withReliableConnection(ReliableConnection c) {
        return new RoceTransport(dcqcn, hyperIncreaseBitsPerSecond, c, controlBytes, ackPriority, cnpPriority, iqcn, window, clampTargetRate, tokenBucket);
    }

    /** A copy acknowledging every {@code ackEvery} packets. */
    public RoceTransport withAckEvery(int ackEvery) {
        return withReliableConnection(rc.withAckEvery(ackEvery));
    }

    /** A copy with iQCN on or off. */
    public RoceTransport withIqcn(boolean on) {
        return new RoceTransport(dcqcn, hyperIncreaseBitsPerSecond, rc, controlBytes, ackPriority, cnpPriority, on, window, clampTargetRate, tokenBucket);
    }

    /** A copy with sending window {@code w} ({@link Window}), or none for null. */
    public RoceTransport withWindow(Window w) {
        return new RoceTransport(dcqcn, hyperIncreaseBitsPerSecond, rc, controlBytes, ackPriority, cnpPriority, iqcn, w, clampTargetRate, tokenBucket);
    }

    /** A copy whose cuts set the target rate always ({@code true}) or only after an increase; see {@code clampTargetRate}. */
    public RoceTransport withClampTargetRate(boolean clamp) {
        return new RoceTransport(dcqcn, hyperIncreaseBitsPerSecond, rc, controlBytes, ackPriority, cnpPriority, iqcn, window,
                clamp, tokenBucket);
    }

    /**
     * A copy whose DCQCN rate limiter is token bucket {@code b} with burst service ({@link TokenBucket}; the RDMA
     * reference's NIC), or packet spacing for null (the default).
     */
    public RoceTransport withTokenBucket(TokenBucket b) {
        return new RoceTransport(dcqcn, hyperIncreaseBitsPerSecond, rc, controlBytes, ackPriority, cnpPriority, iqcn, window,
                clampTargetRate, b);
    }

    /** CNPs the notification points (receivers) sent. */
    public static final Counter CNPS = new Counter("dcqcn.cnp", Counter.Unit.PACKETS, "CNPs sent by receivers");
    /** DCQCN rate cuts at the reaction points (senders). */
    public static final Counter RATE_CUTS = new Counter("dcqcn.rateCuts", Counter.Unit.EVENTS,
            "rate cuts at the senders");
    /** CNPs iQCN's switch-side congestion points sent. */
    public static final Counter IQCN_CNPS = new Counter("iqcn.cnp", Counter.Unit.PACKETS, "CNPs sent by switches (iQCN)");

    /** One run of this transport (the simulator's internal types). */
    @Override
    public TransportRun start(Network network) {
        return new RoceRun(network, this);
    }

    /** The parallel engine runs go-back-N and DCQCN (state at the two hosts), not iQCN (a switch's shared CNP counter). */
    @Override
    public String parallelEngineLimitation() {
        return iqcn ? "iQCN (a switch's CNP counter is shared by every flow through it, read with no delay)" : null;
    }

    /** The local ACK timeout of {@link #rc()}: the watchdog waits for it before calling a run stalled. */
    @Override
    public long recoveryTimeoutPs() {
        return rc.localAckTimeoutPs();
    }
}
