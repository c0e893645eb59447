package fabriclab.simulation.element;

import fabriclab.simulation.config.FlowSpec;
import fabriclab.loadbalancing.flow.FiveTuple;
import java.util.BitSet;

/**
 * Runtime state of one queue pair of a flow (a flow of one queue pair: the flow), {@code id} its runtime index: sender
 * bookkeeping, receiver record, its counters, routing memory. The mutable state is package-private: the transports
 * and the result read it through accessors and change it through the mutators, each named for what it records.
 */
public final class FlowState {
    public final int id;
    public final FlowSpec spec;
    public final FiveTuple tuple;
    final FiveTuple reverseTuple;
    public final int packets;
    // per switch, the egress port ECMP (or the current flowlet of adaptive routing) chose (source to destination),
    // null = not yet; empty unless ECMP or adaptive routing per flowlet
    final Port[] ecmpEgress;
    final Port[] reverseEcmpEgress; // per switch, for packets from destination to source
    // adaptive routing per flowlet: per switch, when the flow's previous packet passed it (each direction); else empty
    final long[] flowletLastPs;
    final long[] reverseFlowletLastPs;
    Port[] pinnedEgress; // per switch, the egress of a pinned route (null: not pinned)
    Port[] pinnedReverseEgress; // the same route backwards
    Transport transport;
    // sender
    int nextSeq;
    boolean queuedAtHost; // in the source NIC's ready list or pacing heap
    boolean paced; // in the pacing heap (its current entry has version pacingVersion)
    int pacingVersion;
    long startedPs = -1;
    // receiver
    long receivedBytes;
    final BitSet received = new BitSet();
    int highestSeq = -1;
    long reordered;
    long duplicates;
    long discardedBytes;
    long dropped;
    long droppedBytes;
    long controlDropped;
    long ecnMarked;
    long retransmitted;
    /** Payload bytes of the data packets the sender sent more than once. */
    long retransmittedBytes;
    /** Retransmission (local ACK) timeouts that fired at the sender. */
    long timeouts;
    /** Of {@link #timeouts}, those with no loss of this flow to explain them (classified at the end of the run). */
    long spuriousTimeouts;
    /** The queue pair went to the error state: its retry count was exhausted (it sends no more). */
    boolean failed;
    /** Receiver: data packets discarded because they arrived above the expected sequence number (go-back-N). */
    long outOfOrderDiscards;
    long completionPs = -1;
    long lastDeliveryPs = -1;
    /** Sender: when an acknowledgement covering every packet arrived; -1 before (or without acknowledgements). */
    long acknowledgedPs = -1;

    /**
     * A flow remembering a choice per switch among {@code switches} (0: none), and no flowlet times.
     */
    public FlowState(int id, FlowSpec spec, FiveTuple tuple, int mtu, int switches) {
        this(id, spec, tuple, mtu, switches, false);
    }

    /**
     * A flow remembering a choice per switch among {@code switches} (0: none) and, if {@code flowlets}, when its
     * previous packet passed each switch (adaptive routing per flowlet).
     */
    public FlowState(int id, FlowSpec spec, FiveTuple tuple, int mtu, int switches, boolean flowlets) {
        this.id = id;
        this.spec = spec;
        this.tuple = tuple;
        this.reverseTuple = new FiveTuple(tuple.destinationIp(), tuple.sourceIp(), tuple.destinationPort(), tuple.sourcePort(), tuple.protocol());
        this.packets = (int) ((spec.bytes() + mtu - 1) / mtu);
        this.ecmpEgress = new Port[switches];
        this.reverseEcmpEgress = new Port[switches];
        this.flowletLastPs = new long[flowlets ? switches : 0];
        this.reverseFlowletLastPs = new long[flowlets ? switches : 0];
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

    /** The transport running this queue pair's sender and receiver (set once, before the run). */
    public Transport transport() {
        return transport;
    }

    /** Sets the transport that runs this queue pair (once, before the run). */
    public void runBy(Transport transport) {
        this.transport = transport;
    }

    /**
     * Pins this queue pair to a route: per switch index, the egress port toward the destination ({@code egress})
     * and toward the source ({@code reverseEgress}); null entries for the switches off the route.
     */
    public void pin(Port[] egress, Port[] reverseEgress) {
        this.pinnedEgress = egress;
        this.pinnedReverseEgress = reverseEgress;
    }

    /** Whether the queue pair follows a pinned route (no ECMP or spraying). */
    public boolean pinned() {
        return pinnedEgress != null;
    }

    /** The sequence number of the next data packet the sender sends. */
    public int nextSeq() {
        return nextSeq;
    }

    /** Claims the next sequence number to send: returns it and moves past it. */
    public int takeNextSeq() {
        return nextSeq++;
    }

    /** Moves the sender back to sequence {@code seq} (go-back-N: a NACK or a timeout). */
    public void goBackTo(int seq) {
        nextSeq = seq;
    }

    /** When the flow started, ps (-1 before). */
    public long startedPs() {
        return startedPs;
    }

    /** Payload the receiver accepted (first copies), bytes. */
    public long receivedBytes() {
        return receivedBytes;
    }

    /** When the receiver had every byte, ps (-1 before). */
    public long completionPs() {
        return completionPs;
    }

    /** When the receiver last accepted payload, ps (-1 before). */
    public long lastDeliveryPs() {
        return lastDeliveryPs;
    }

    /** Sender: when an acknowledgement covering every packet arrived, ps; -1 before (or without acknowledgements). */
    public long acknowledgedPs() {
        return acknowledgedPs;
    }

    /** An acknowledgement covering every packet arrived at {@code timePs}. */
    public void acknowledgedAt(long timePs) {
        acknowledgedPs = timePs;
    }

    /** Data packets that arrived out of order at the receiver. */
    public long reordered() {
        return reordered;
    }

    /** Data packets the receiver already had when they arrived. */
    public long duplicates() {
        return duplicates;
    }

    /** A data packet the receiver already had arrived. */
    public void countDuplicate() {
        duplicates++;
    }

    /** Payload of the data packets the receiver discarded (duplicates and out-of-order discards), bytes. */
    public long discardedBytes() {
        return discardedBytes;
    }

    /** Data packets of this flow lost in the fabric. */
    public long dropped() {
        return dropped;
    }

    /** Payload of the data packets of this flow lost in the fabric, bytes. */
    public long droppedBytes() {
        return droppedBytes;
    }

    /** Control packets of this flow lost in the fabric. */
    public long controlDropped() {
        return controlDropped;
    }

    /** Data packets of this flow that arrived ECN-marked. */
    public long ecnMarked() {
        return ecnMarked;
    }

    /** Data packets the sender sent more than once. */
    public long retransmitted() {
        return retransmitted;
    }

    /** Payload of the data packets the sender sent more than once, bytes. */
    public long retransmittedBytes() {
        return retransmittedBytes;
    }

    /** The sender sent a data packet again, counting {@code payloadBytes} bytes of payload into {@link #retransmittedBytes()}. */
    public void countRetransmission(int payloadBytes) {
        retransmitted++;
        retransmittedBytes += payloadBytes;
    }

    /** Retransmission (local ACK) timeouts that fired at the sender. */
    public long timeouts() {
        return timeouts;
    }

    /** A retransmission timeout fired at the sender. */
    public void countTimeout() {
        timeouts++;
    }

    /** Of {@link #timeouts()}, those with no loss of this flow to explain them (classified at the end of the run). */
    public long spuriousTimeouts() {
        return spuriousTimeouts;
    }

    /** Sets the number of spurious timeouts (the end-of-run classification). */
    public void setSpuriousTimeouts(long spuriousTimeouts) {
        this.spuriousTimeouts = spuriousTimeouts;
    }

    /** Whether the queue pair went to the error state (its retry count was exhausted: it sends no more). */
    public boolean failed() {
        return failed;
    }

    /** The queue pair goes to the error state: its retry count is exhausted, it sends no more. */
    public void fail() {
        failed = true;
    }

    /** Receiver: data packets discarded because they arrived above the expected sequence number (go-back-N). */
    public long outOfOrderDiscards() {
        return outOfOrderDiscards;
    }

    /** Receiver: a data packet arrived above the expected sequence number and was discarded. */
    public void countOutOfOrderDiscard() {
        outOfOrderDiscards++;
    }

    public int payloadOf(int seq, int mtu) {
        return seq < packets - 1 ? mtu : (int) (spec.bytes() - (long) (packets - 1) * mtu);
    }
}
