package fabriclab.simulation;

/** A data packet in flight (package-private runtime state). */
final class Packet {
    final FlowState flow;
    final int seq;
    final int payloadBytes;
    final int wireBytes;
    final int priority;
    boolean ecn;
    Port ingress; // port of the current node it arrived through

    Packet(FlowState flow, int seq, int payloadBytes, int wireBytes, int priority) {
        this.flow = flow;
        this.seq = seq;
        this.payloadBytes = payloadBytes;
        this.wireBytes = wireBytes;
        this.priority = priority;
    }
}
