package fabriclab.simulation;

import fabriclab.loadbalancing.flow.FiveTuple;
import java.util.BitSet;

/** Runtime state of one flow: sender bookkeeping, receiver record, its counters, routing memory (package-private). */
final class FlowState {
    final int id;
    final FlowSpec spec;
    final FiveTuple tuple;
    final FiveTuple reverseTuple;
    final int packets;
    final Port[] ecmpEgress; // per switch, the egress port ECMP chose (source to destination), null = not yet; empty unless ECMP
    final Port[] reverseEcmpEgress; // per switch, for packets from destination to source
    Port[] pinnedEgress; // per switch, the egress of a pinned route (null: not pinned)
    Port[] pinnedReverseEgress; // the same route backwards
    Transport transport;
    // sender
    int nextSeq;
    boolean queuedAtHost; // in the source NIC's ready list or pacing heap
    boolean paced; // in the pacing heap (its current entry has version pacingVersion)
    int pacingVersion;
    long startedPs = -1;
    int pendingPredecessors;
    int[] successors = new int[0];
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
    long completionPs = -1;
    long lastDeliveryPs = -1;

    FlowState(int id, FlowSpec spec, FiveTuple tuple, int mtu, int switches) {
        this.id = id;
        this.spec = spec;
        this.tuple = tuple;
        this.reverseTuple = new FiveTuple(tuple.destinationIp(), tuple.sourceIp(), tuple.destinationPort(), tuple.sourcePort(), tuple.protocol());
        this.packets = (int) ((spec.bytes() + mtu - 1) / mtu);
        this.ecmpEgress = new Port[switches];
        this.reverseEcmpEgress = new Port[switches];
    }

    /** A packet of this flow was lost (data: counted with its payload; control: counted apart). */
    void packetDropped(Packet p) {
        if (!p.isData()) {
            controlDropped++;
            return;
        }
        dropped++;
        droppedBytes += p.payloadBytes;
    }

    int payloadOf(int seq, int mtu) {
        return seq < packets - 1 ? mtu : (int) (spec.bytes() - (long) (packets - 1) * mtu);
    }
}
