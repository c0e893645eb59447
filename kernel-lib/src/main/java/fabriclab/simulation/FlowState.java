package fabriclab.simulation;

import fabriclab.loadbalancing.flow.FiveTuple;
import java.util.Arrays;
import java.util.BitSet;

/** Runtime state of one flow: the line-rate sender and the receiver (package-private). */
final class FlowState {
    final int id;
    final FlowSpec spec;
    final FiveTuple tuple;
    final int packets;
    final int[] ecmpChoice; // per switch, -1 = not yet hashed
    int nextSeq;
    long receivedBytes;
    final BitSet received = new BitSet();
    int highestSeq = -1;
    long reordered;
    long duplicates;
    long dropped;
    long droppedBytes;
    long ecnMarked;
    long completionPs = -1;

    FlowState(int id, FlowSpec spec, FiveTuple tuple, int mtu, int switches) {
        this.id = id;
        this.spec = spec;
        this.tuple = tuple;
        this.packets = (int) ((spec.bytes() + mtu - 1) / mtu);
        this.ecmpChoice = new int[switches];
        Arrays.fill(ecmpChoice, -1);
    }

    boolean hasMoreToSend() {
        return nextSeq < packets;
    }

    int payloadOf(int seq, int mtu) {
        return seq < packets - 1 ? mtu : (int) (spec.bytes() - (long) (packets - 1) * mtu);
    }
}
