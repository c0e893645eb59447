package fabriclab.validation;

import fabriclab.simulation.TieOrder;
import fabriclab.Parameters;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.Incast;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcDynamicThreshold;
import fabriclab.fabric.Time;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.roce.RoceTransport;
import fabriclab.loadbalancing.hash.HashFunction;

/**
 * The DCQCN+PFC incast that the RDMA model of HPCC's authors for ns-3 (aliyun/ns-3-alibabacloud, its
 * {@code scratch/NormalNetwork}) runs from the scenario files {@code tools/rdma-reference/scenarios/incastN/}, written
 * for this simulator: N senders each send 1,000,000 B at once to one receiver through one switch, every link
 * 100 Gb/s with 1 us of propagation delay; its outputs are the dataset {@code rdma-ns3-dcqcn-incast}.
 *
 * <p>Settings, the reference's on the left:
 * <ul>
 *   <li>Packets: 1000 B of payload and 52 B of headers on the wire; an ACK (60 B there, 64 B here) for every data
 *       packet, on the data's priority.</li>
 *   <li>Marking: Kmin 100 KB, Kmax 400 KB, Pmax 0.2 on the switch's egress queues ({@link #MARKING}). The reference
 *       decides at dequeue from the queue left behind, ours by default at enqueue from the queue found
 *       ({@link #scenario()}); {@link #scenario(SwitchBuffer.MarkingPoint)} with {@code DEQUEUE} marks as the reference
 *       does. The marking point decides how soon the senders hear of the queue: a packet marked at enqueue carries the
 *       mark to the receiver only after it has waited through the queue it found (8 us behind Kmin = 100 KB at
 *       100 Gb/s), so the senders cut later and the queue climbs further toward the PFC threshold.</li>
 *   <li>DCQCN reaction point ({@link #dcqcn}): g = 1/256, alpha updated every 55 us, rate-increase timer 55 us and no
 *       byte counter, 5 fast-recovery steps, R_AI 40 Mb/s, R_HAI 400 Mb/s, a 100 Mb/s floor. The reference flags the
 *       ACK of every marked packet as a CNP and its sender cuts at most every 4 us (a rate-decrease check when a CNP
 *       came since the last); here the receiver sends at most one CNP per flow per 4 us and the sender cuts on each.
 *       The reference's first CNP does not cut ({@code RateOnFirstCnp 1.0}); here it does.</li>
 *   <li>PFC ({@link #pfc}, {@link #PFC_THRESHOLD}): the reference's switch MMU pauses an ingress queue when its bytes
 *       beyond a 4 KiB reserve reach (2 MiB - 9 x 27,000 B headroom - 9 x 4 KiB reserve - shared bytes held) / 8,
 *       and resumes when they are 3 KiB below that; here alpha = 1/8 of (B - U) with B = that pool,
 *       {@link #sharedBufferBytes}, and U every byte held (the reserves included), and the counter includes the
 *       reserve: ours pauses about 4 KiB + N x 512 B earlier. Headroom 27,000 B per port in both. The reference's
 *       PAUSE holds until an explicit RESUME (the pause time is ignored); here a PAUSE carries the largest pause
 *       time (65,535 quanta, 335 us at 100 Gb/s, refreshed each half of it) and an XON ends it.</li>
 * </ul>
 *
 * @param senders N, 1 to 64
 */
public record RdmaReferenceIncast(int senders) {
    /** Payload of each sender, bytes (10^6). */
    public static final long BYTES_PER_SENDER = 1_000_000;
    /** Every link's rate, bit/s. */
    public static final long RATE_BPS = 100_000_000_000L;
    /** Every link's propagation delay, ps. */
    public static final long DELAY_PS = Time.US;
    /** Payload per packet, bytes. */
    public static final int MTU_BYTES = 1000;
    /** Headers per data packet on the wire, bytes (the reference's 52 B: Ethernet, IP, UDP, BTH). */
    public static final int HEADER_BYTES = 52;
    /** The reference's switch buffer, bytes (BUFFER_SIZE 2, MiB). */
    public static final long SWITCH_BUFFER_BYTES = 2L << 20;
    /** The reference's PFC headroom per switch port, bytes: 2 x rate x delay / 8 + 2 MTU. */
    public static final long HEADROOM_BYTES = 2 * RATE_BPS / 8 * DELAY_PS / Time.S + 2 * MTU_BYTES;
    /** The reference's per ingress queue reserve, bytes (4 KiB). */
    public static final long RESERVE_BYTES = 4 * 1024;
    /** The reference's ECN marking: Kmin 100 KB, Kmax 400 KB, Pmax 0.2. */
    public static final EcnMarking MARKING = new EcnMarking(100_000, 400_000, 0.2);
    /** The reference's dynamic PFC threshold at equal port and NIC speeds: alpha 1/8, resume 3 KiB below. */
    public static final PfcDynamicThreshold PFC_THRESHOLD = new PfcDynamicThreshold(1.0 / 8, 3 * 1024);
    /** R_HAI, bit/s. */
    public static final double HYPER_INCREASE_BPS = 400e6;

    /** Validates. */
    public RdmaReferenceIncast {
        Parameters.inRange("senders", senders, 1, 64);
    }

    /** The switch's ports: one per host, N senders and the receiver. */
    public int switchPorts() {
        return senders + 1;
    }

    /** B: the reference's buffer less every port's headroom and reserve, bytes (1,818,288 B for N = 8). */
    public long sharedBufferBytes() {
        return SWITCH_BUFFER_BYTES - switchPorts() * (HEADROOM_BYTES + RESERVE_BYTES);
    }

    /** The reference's DCQCN values (see the class comment; tau = its 4 us rate-decrease interval). */
    public static DcqcnParameters dcqcn() {
        return new DcqcnParameters(MARKING, 1.0 / 256, 4e-6, 55e-6, 55e-6, DcqcnParameters.NO_BYTE_COUNTER, 5, 40e6,
                4e-6, 100e6);
    }

    /** RoCE with {@link #dcqcn}, R_HAI 400 Mb/s, an ACK per packet, no window. */
    public static RoceTransport transport() {
        return RoceTransport.dcqcn(dcqcn()).withHyperIncrease(HYPER_INCREASE_BPS)
                .withReliableConnection(ReliableConnection.defaults().withAckEvery(1)).withClampTargetRate(false);
    }

    /** PFC: the reference's headroom, the longest pause time; the static XOFF/XON give way to {@link #PFC_THRESHOLD}. */
    public Pfc pfc() {
        long b = sharedBufferBytes();
        return new Pfc(b / 8, b / 8 - PFC_THRESHOLD.xonOffsetBytes(), HEADROOM_BYTES, Pfc.MAX_QUANTA);
    }

    /**
     * The scenario: hosts 0 to N-1 send to host N through switch node N+1 (the reference's numbering), all at 0; ECN
     * marks decided at enqueue (ours).
     */
    public Scenario scenario() {
        return scenario(SwitchBuffer.MarkingPoint.ENQUEUE);
    }

    /** The scenario with ECN marks decided at {@code markingPoint} (the reference's: {@code DEQUEUE}). */
    public Scenario scenario(SwitchBuffer.MarkingPoint markingPoint) {
        Parameters.notNull("markingPoint", markingPoint);
        SwitchBuffer buffer = new SwitchBuffer(sharedBufferBytes(), sharedBufferBytes(), MARKING).withEcnMarkingPoint(markingPoint);
        SimulationConfig config = new SimulationConfig(MTU_BYTES, HEADER_BYTES, 1, buffer,
                Forwarding.ecmp(HashFunction.CRC32, 7), 1, 10 * Time.US, 1000);
        return Scenario.incast(Incast.of(senders, BYTES_PER_SENDER, RATE_BPS), DELAY_PS, config).toBuilder()
                .transport(transport()).pfc(pfc()).pfcDynamicThreshold(PFC_THRESHOLD)
                .name(senders + "-to-1 DCQCN+PFC incast of the RDMA reference").tieOrder(TieOrder.SCHEDULING).build();
    }
}
