package fabriclab.simulation.transport.uec;

import fabriclab.Parameters;
import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.Time;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.element.Network;
import fabriclab.simulation.trace.Counter;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.TransportRun;

/**
 * The Ultra Ethernet transport (UEC specification 1.0): packet spraying over entropy values, NSCC windows, packet
 * trimming at the switches, selective acknowledgement and retransmission, out-of-order acceptance at the receivers.
 *
 * <ul>
 *   <li>Sender: sends while the wire bytes in flight plus a full packet fit in the NSCC window ({@link Nscc}; section
 *       3.6.13.5, {@code NSCC.CanSend}); each data packet carries an entropy value from its {@link EntropySpraying} over
 *       {@code entropies} values and asks for an immediate acknowledgement when the window is then nearly full, when it
 *       is the flow's last new packet, or a retransmission. Packets NACKed or timed out are resent first. A packet in
 *       flight longer than the retransmission timeout is declared lost and resent (one timeout counted per firing that
 *       resends); a packet that times out once more after {@code retryCount} timeouts fails the flow.</li>
 *   <li>Switches: under ECMP forwarding they hash the packet's entropy in place of its UDP source port (a new path per
 *       entropy); with {@code trimming}, a data packet that would take its queue above {@code trimThresholdBytes} (or
 *       find no buffer) is cut to {@code trimmedWireBytes} and queued, like the control packets, ahead of the data.</li>
 *   <li>Receiver: accepts every new packet whatever its order; acknowledges with a cumulative sequence, a 64-packet
 *       selective-acknowledgement bitmap above it and the packet that triggered it (its ECN mark, entropy and whether it
 *       was a retransmission) once {@code ackEveryBytes} of payload arrived since the last ACK, at once for a marked
 *       packet, a duplicate or a packet asking for it; NACKs every trimmed packet at once.</li>
 * </ul>
 *
 * <p>Defaults ({@link #defaults()}), from the reference simulator ultraethernet/uet-htsim ({@code htsim/sim}):
 * REPS over 64 entropies ({@code datacenter/main_uec.cpp}, {@code path_entropy_size = 64}) with a ring of 8
 * ({@code buffer_reps.cpp}, {@code repsBufferSize}); trimming on at a threshold of one BDP
 * ({@code main_uec.cpp}, {@code DEFAULT_TRIMMING_QUEUESIZE_FACTOR = 1}) to 64-byte headers ({@code trimsize = 64});
 * ACK after 16,384 bytes ({@code uec.cpp}, {@code _bytes_unacked_threshold}); 64-byte ACKs and NACKs
 * ({@code uecpacket.h}, {@code ACKSIZE}); retransmission timeout 15 us plus 6 drain times of the trimming threshold at
 * line rate ({@code main_uec.cpp}, {@code _min_rto}); the fabric's base RTT by {@code main_uec.cpp}'s
 * {@code calculate_rtt} (twice the propagation of the longest shortest path plus a full packet's and an ACK's
 * serialization on each of its links; the specification's {@code config_base_rtt}, section 3.6.13.3). The switches mark
 * ECN at dequeue on a linear curve from 20 % to 80 % of a BDP ({@code main_uec.cpp}, {@link #ecnMarking}). The retry
 * count (7) is this project's, as the RoCE transports' ({@code ReliableConnection}). Receiver credits (RCCC) are off by
 * default, as in the reference; {@link #withRccc} turns them on ({@link Rccc}).
 *
 * @param spraying how senders choose entropies
 * @param entropies entropy values a sender sprays over, 1..65536
 * @param repsBufferSize entropies REPS keeps for reuse, 1..1024
 * @param nscc the window's settings
 * @param trimming whether the switches trim
 * @param trimThresholdBytes queue bytes above which a switch trims, at least 0; 0 for one BDP of the fabric
 * @param trimmedWireBytes wire bytes of a trimmed packet, 1..1500
 * @param ackEveryBytes the receiver acknowledges once this much payload arrived since its last ACK, at least 1
 * @param controlBytes wire bytes of an ACK or NACK, 1..1500
 * @param ackPriority priority of ACKs and NACKs, 0..7
 * @param retransmissionTimeoutPs ps, 0 for the default (15 us + 6 x trimming threshold at line rate), at most 10 s
 * @param retryCount timeouts a packet may meet and be resent; its next fails the flow, 0..100
 * @param baseRttPs the fabric's base RTT, ps, 0 for the default (the longest path of the run's sources), at most 1 s
 * @param rccc receiver credits ({@link Rccc}; {@link Rccc#off()}: NSCC alone, the default)
 */
public record UecTransport(EntropySpraying spraying, int entropies, int repsBufferSize, Nscc nscc, boolean trimming,
        long trimThresholdBytes, int trimmedWireBytes, long ackEveryBytes, int controlBytes, int ackPriority,
        long retransmissionTimeoutPs, int retryCount, long baseRttPs, Rccc rccc) implements TransportModel {
    /** Data packets trimmed at the switches. */
    public static final Counter TRIMS = new Counter("uec.trims", Counter.Unit.PACKETS, "data packets trimmed at switches");
    /** Payload bytes cut from trimmed packets. */
    public static final Counter TRIMMED_BYTES = new Counter("uec.trimmed.bytes", Counter.Unit.BYTES,
            "payload bytes cut from trimmed packets at switches");
    /** Trimmed headers that reached their receivers (each answered by a NACK). */
    public static final Counter TRIMMED_RECEIVED = new Counter("uec.trimmed.received", Counter.Unit.PACKETS,
            "trimmed headers that reached their receivers");
    /** Packets resent (after a NACK or a timeout). */
    public static final Counter RETRANSMITS = new Counter("uec.retransmits", Counter.Unit.PACKETS,
            "data packets the senders resent");
    /** Window increases (an acknowledgement that left the window larger). */
    public static final Counter WINDOW_INCREASES = new Counter("uec.window.increases", Counter.Unit.EVENTS,
            "NSCC window increases at the senders");
    /** Window decreases (an acknowledgement, NACK or timeout that left the window smaller). */
    public static final Counter WINDOW_DECREASES = new Counter("uec.window.decreases", Counter.Unit.EVENTS,
            "NSCC window decreases at the senders");
    /** Multiplicative decreases. */
    public static final Counter MULTIPLICATIVE_DECREASES = new Counter("uec.md", Counter.Unit.EVENTS,
            "NSCC multiplicative decreases at the senders");
    /** Quick adapts that set the window. */
    public static final Counter QUICK_ADAPTS = new Counter("uec.quick.adapts", Counter.Unit.EVENTS,
            "NSCC quick adapts that set the window");
    /** Entropies reused (REPS). */
    public static final Counter RECYCLED_ENTROPIES = new Counter("uec.entropies.recycled", Counter.Unit.PACKETS,
            "data packets sent on a recycled entropy (REPS)");
    /** Credit packets the receivers sent (RCCC). */
    public static final Counter CREDITS = new Counter("uec.credits", Counter.Unit.PACKETS,
            "credit packets the receivers' pacers sent (RCCC)");
    /** Credit the receivers granted, wire bytes (RCCC). */
    public static final Counter CREDIT_BYTES = new Counter("uec.credit.bytes", Counter.Unit.BYTES,
            "credit the receivers granted, wire bytes (RCCC)");
    /** Credit requests (probes carrying a pull target) senders without credit sent (RCCC). */
    public static final Counter CREDIT_REQUESTS = new Counter("uec.credit.requests", Counter.Unit.PACKETS,
            "requests for credit from senders that had none (RCCC)");
    /** Entropies drawn at random. */
    public static final Counter EXPLORED_ENTROPIES = new Counter("uec.entropies.explored", Counter.Unit.PACKETS,
            "data packets sent on an entropy drawn at random");

    /** Validates. */
    public UecTransport {
        Parameters.notNull("spraying", spraying);
        Parameters.inRange("entropies", entropies, 1, 65536);
        Parameters.inRange("repsBufferSize", repsBufferSize, 1, 1024);
        Parameters.notNull("nscc", nscc);
        Parameters.inRange("trimThresholdBytes", trimThresholdBytes, 0L, 1L << 40);
        Parameters.inRange("trimmedWireBytes", trimmedWireBytes, 1, 1500);
        Parameters.inRange("ackEveryBytes", ackEveryBytes, 1L, 1L << 40);
        Parameters.inRange("controlBytes", controlBytes, 1, 1500);
        Parameters.inRange("ackPriority", ackPriority, 0, 7);
        Parameters.inRange("retransmissionTimeoutPs", retransmissionTimeoutPs, 0L, 10 * Time.S);
        Parameters.inRange("retryCount", retryCount, 0, 100);
        Parameters.inRange("baseRttPs", baseRttPs, 0L, Time.S);
        Parameters.notNull("rccc", rccc);
    }

    /** NSCC alone ({@link Rccc#off()}). */
    public UecTransport(EntropySpraying spraying, int entropies, int repsBufferSize, Nscc nscc, boolean trimming,
            long trimThresholdBytes, int trimmedWireBytes, long ackEveryBytes, int controlBytes, int ackPriority,
            long retransmissionTimeoutPs, int retryCount, long baseRttPs) {
        this(spraying, entropies, repsBufferSize, nscc, trimming, trimThresholdBytes, trimmedWireBytes, ackEveryBytes,
                controlBytes, ackPriority, retransmissionTimeoutPs, retryCount, baseRttPs, Rccc.off());
    }

    /** The reference simulator's defaults (see the class comment). */
    public static UecTransport defaults() {
        return new UecTransport(EntropySpraying.REPS, 64, 8, Nscc.defaults(), true, 0, 64, 16_384, 64, 0, 0, 7, 0, Rccc.off());
    }

    /** A copy spraying by {@code s}. */
    public UecTransport withSpraying(EntropySpraying s) {
        return new UecTransport(s, entropies, repsBufferSize, nscc, trimming, trimThresholdBytes, trimmedWireBytes,
                ackEveryBytes, controlBytes, ackPriority, retransmissionTimeoutPs, retryCount, baseRttPs, rccc);
    }

    /** A copy over {@code n} entropy values. */
    public UecTransport withEntropies(int n) {
        return new UecTransport(spraying, n, repsBufferSize, nscc, trimming, trimThresholdBytes, trimmedWireBytes,
                ackEveryBytes, controlBytes, ackPriority, retransmissionTimeoutPs, retryCount, baseRttPs, rccc);
    }

    /** A copy with NSCC settings {@code n}. */
    public UecTransport withNscc(Nscc n) {
        return new UecTransport(spraying, entropies, repsBufferSize, n, trimming, trimThresholdBytes, trimmedWireBytes,
                ackEveryBytes, controlBytes, ackPriority, retransmissionTimeoutPs, retryCount, baseRttPs, rccc);
    }

    /** A copy with trimming on or off, at {@code thresholdBytes} (0: one BDP). */
    public UecTransport withTrimming(boolean on, long thresholdBytes) {
        return new UecTransport(spraying, entropies, repsBufferSize, nscc, on, thresholdBytes, trimmedWireBytes,
                ackEveryBytes, controlBytes, ackPriority, retransmissionTimeoutPs, retryCount, baseRttPs, rccc);
    }

    /** A copy acknowledging every {@code bytes} of payload. */
    public UecTransport withAckEveryBytes(long bytes) {
        return new UecTransport(spraying, entropies, repsBufferSize, nscc, trimming, trimThresholdBytes, trimmedWireBytes,
                bytes, controlBytes, ackPriority, retransmissionTimeoutPs, retryCount, baseRttPs, rccc);
    }

    /** A copy with receiver credits {@code r} ({@link Rccc#off()}: NSCC alone). */
    public UecTransport withRccc(Rccc r) {
        return new UecTransport(spraying, entropies, repsBufferSize, nscc, trimming, trimThresholdBytes, trimmedWireBytes,
                ackEveryBytes, controlBytes, ackPriority, retransmissionTimeoutPs, retryCount, baseRttPs, r);
    }

    /** A copy with retransmission timeout {@code ps} (0: the default). */
    public UecTransport withRetransmissionTimeoutPs(long ps) {
        return new UecTransport(spraying, entropies, repsBufferSize, nscc, trimming, trimThresholdBytes, trimmedWireBytes,
                ackEveryBytes, controlBytes, ackPriority, ps, retryCount, baseRttPs, rccc);
    }

    /**
     * A copy with the fabric's base RTT {@code ps} (0: derived from the run's longest path), as the reference
     * simulator's {@code calculate_rtt} gives it from the host link rate even where a degraded link makes a path slower.
     */
    public UecTransport withBaseRttPs(long ps) {
        return new UecTransport(spraying, entropies, repsBufferSize, nscc, trimming, trimThresholdBytes, trimmedWireBytes,
                ackEveryBytes, controlBytes, ackPriority, retransmissionTimeoutPs, retryCount, ps, rccc);
    }

    /**
     * The reference simulator's ECN marking for a fabric whose BDP is {@code bdpBytes}: a linear curve from 20 % to
     * 80 % of a BDP, every packet marked above ({@code main_uec.cpp}: {@code ecn_low = 0.2 bdp}, {@code ecn_high =
     * 0.8 bdp}, in whole packets of {@code packetWireBytes}; {@code compositequeue.cpp} marks on dequeue).
     */
    public static EcnMarking ecnMarking(long bdpBytes, int packetWireBytes) {
        Parameters.atLeast("bdpBytes", bdpBytes, 1L);
        Parameters.atLeast("packetWireBytes", packetWireBytes, 1);
        double packets = Math.ceil((double) bdpBytes / packetWireBytes);
        double low = Math.ceil(packets * 0.2) * packetWireBytes;
        double high = Math.max(low, Math.ceil(packets * 0.8) * packetWireBytes);
        return new EcnMarking(low, high, 1.0);
    }

    /** A switch buffer of {@code bytes} marking on {@link #ecnMarking} at dequeue, as the reference's switches do. */
    public static SwitchBuffer switchBuffer(long bytes, long bdpBytes, int packetWireBytes) {
        return SwitchBuffer.shared(bytes).withEcnMarking(ecnMarking(bdpBytes, packetWireBytes))
                .withEcnMarkingPoint(SwitchBuffer.MarkingPoint.DEQUEUE);
    }

    /**
     * The fabric's base RTT by the reference simulator's rule ({@code main_uec.cpp}, {@code calculate_rtt}), ps: over the
     * shortest paths (fewest links) from {@code sources} to every host, the largest sum over the path's links of twice
     * the propagation delay plus the serialization of a {@code dataWireBytes} packet and a {@code ackWireBytes}
     * acknowledgement at the link's rate. A run of this transport uses it from its flows' sources unless
     * {@link #baseRttPs} is given.
     */
    public static long fabricBaseRttPs(fabriclab.fabric.Topology topology, int[] sources, int dataWireBytes,
            int ackWireBytes) {
        Parameters.notNull("topology", topology);
        Parameters.notNull("sources", sources);
        for (int s : sources) {
            Parameters.inRange("sources[i]", s, 0, topology.hosts() - 1);
        }
        Parameters.inRange("dataWireBytes", dataWireBytes, 1, 1 << 20);
        Parameters.inRange("ackWireBytes", ackWireBytes, 1, 1 << 20);
        return UecRun.longestBaseRttPs(topology, sources, dataWireBytes, ackWireBytes);
    }

    @Override
    public TransportRun start(Network network) {
        return new UecRun(network, this);
    }

    /** The parallel engine runs UEC: its state is at the hosts and its switches' trimming at each switch. */
    @Override
    public String parallelEngineLimitation() {
        return null;
    }

    @Override
    public long recoveryTimeoutPs() {
        return retransmissionTimeoutPs > 0 ? retransmissionTimeoutPs : Time.S; // the derived timeout is far below 1 s
    }
}
