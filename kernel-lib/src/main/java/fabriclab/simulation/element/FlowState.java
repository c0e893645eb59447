package fabriclab.simulation.element;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.loadbalancing.flow.FiveTuple;
import java.util.BitSet;

/** Runtime state of one queue pair of a flow (a flow of one queue pair: the flow), {@code id} its runtime index: sender bookkeeping, receiver record, its counters, routing memory (package-private). */
public final class FlowState {
    public final int id;
    public final FlowSpec spec;
    public final FiveTuple tuple;
    final FiveTuple reverseTuple;
    public final int packets;
    final Port[] ecmpEgress; // per switch, the egress port ECMP chose (source to destination), null = not yet; empty unless ECMP
    final Port[] reverseEcmpEgress; // per switch, for packets from destination to source
    public Port[] pinnedEgress; // per switch, the egress of a pinned route (null: not pinned)
    public Port[] pinnedReverseEgress; // the same route backwards
    public Transport transport;
    // sender
    public int nextSeq;
    boolean queuedAtHost; // in the source NIC's ready list or pacing heap
    boolean paced; // in the pacing heap (its current entry has version pacingVersion)
    int pacingVersion;
    public long startedPs = -1;
    // receiver
    public long receivedBytes;
    final BitSet received = new BitSet();
    int highestSeq = -1;
    public long reordered;
    public long duplicates;
    public long discardedBytes;
    public long dropped;
    public long droppedBytes;
    public long controlDropped;
    public long ecnMarked;
    public long retransmitted;
    /** Payload bytes of the data packets the sender sent more than once. */
    public long retransmittedBytes;
    /** Retransmission (local ACK) timeouts that fired at the sender. */
    public long timeouts;
    /** Of {@link #timeouts}, those with no loss of this flow to explain them (classified at the end of the run). */
    public long spuriousTimeouts;
    /** The queue pair went to the error state: its retry count was exhausted (it sends no more). */
    public boolean failed;
    /** Receiver: data packets discarded because they arrived above the expected sequence number (go-back-N). */
    public long outOfOrderDiscards;
    public long completionPs = -1;
    public long lastDeliveryPs = -1;
    /** Sender: when an acknowledgement covering every packet arrived; -1 before (or without acknowledgements). */
    public long acknowledgedPs = -1;

    public FlowState(int id, FlowSpec spec, FiveTuple tuple, int mtu, int switches) {
        this.id = id;
        this.spec = spec;
        this.tuple = tuple;
        this.reverseTuple = new FiveTuple(tuple.destinationIp(), tuple.sourceIp(), tuple.destinationPort(), tuple.sourcePort(), tuple.protocol());
        this.packets = (int) ((spec.bytes() + mtu - 1) / mtu);
        this.ecmpEgress = new Port[switches];
        this.reverseEcmpEgress = new Port[switches];
    }

    /** Losses of this flow that can explain a retransmission timeout: time [ps] and sequence (-1: an ACK or NAK). */
    private long[] lossTimes = new long[0];
    private int[] lossSeqs = new int[0];
    private int losses;

    /**
     * Records the loss of packet {@code p} of this flow at {@code timePs} if it can leave the sender waiting for an
     * acknowledgement: a data packet, an ACK or a NAK (synchronized: switches in several threads of the parallel
     * engine may lose packets of one flow).
     */
    public synchronized void recordLoss(Packet p, long timePs) {
        if (!p.isData() && p.kind != Packet.ACK && p.kind != Packet.NACK) {
            return;
        }
        if (losses == lossTimes.length) {
            lossTimes = java.util.Arrays.copyOf(lossTimes, Math.max(4, 2 * losses));
            lossSeqs = java.util.Arrays.copyOf(lossSeqs, lossTimes.length);
        }
        lossTimes[losses] = timePs;
        lossSeqs[losses] = p.isData() ? p.seq : -1;
        losses++;
    }

    /**
     * Whether a loss recorded with {@link #recordLoss} explains a timeout at {@code timePs} whose oldest
     * unacknowledged sequence was {@code una}: a loss after {@code sincePs} (the previous timeout, or the start) and
     * at most at {@code timePs}, of an ACK or NAK or of a data packet at or above {@code una}.
     */
    public synchronized boolean lossExplains(long sincePs, long timePs, int una) {
        for (int i = 0; i < losses; i++) {
            if (lossTimes[i] > sincePs && lossTimes[i] <= timePs && (lossSeqs[i] < 0 || lossSeqs[i] >= una)) {
                return true;
            }
        }
        return false;
    }

    /** A packet of this flow was lost (data: counted with its payload; control: counted apart). */
    public void packetDropped(Packet p) {
        if (!p.isData()) {
            controlDropped++;
            return;
        }
        dropped++;
        droppedBytes += p.payloadBytes;
    }

    public int payloadOf(int seq, int mtu) {
        return seq < packets - 1 ? mtu : (int) (spec.bytes() - (long) (packets - 1) * mtu);
    }
}
