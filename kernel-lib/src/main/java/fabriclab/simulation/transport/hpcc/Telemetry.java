package fabriclab.simulation.transport.hpcc;

import fabriclab.Parameters;
import java.util.Arrays;

/**
 * The in-band telemetry a data packet collects on its way (HPCC's INT header, Li et al., SIGCOMM 2019; the
 * {@code IntHeader} of its ns-3 model): one record per switch egress port it leaves, in path order, each with the port's egress queue length,
 * its cumulative transmitted bytes, the time and the port's line rate, taken when the packet starts its transmission.
 * The receiver's ACK carries the packet's telemetry back to the sender. A record also names the port it describes,
 * so that the sender compares a hop only with an earlier record of the same port.
 *
 * <p>Mutable runtime state of one packet (package-private): the switches on its path append to it, then only the
 * sender reads it.
 */
final class Telemetry {
    private Object[] ports = new Object[4];
    private long[] queueBytes = new long[4];
    private long[] txBytes = new long[4];
    private long[] timePs = new long[4];
    private long[] rateBitsPerSecond = new long[4];
    private int hops;

    /** An empty record (a packet leaving its source NIC). */
    Telemetry() {
    }

    /**
     * Appends the record of one hop.
     *
     * @param port the egress port described (compared by identity)
     * @param queueBytes its egress queue, wire bytes, at least 0
     * @param txBytes its cumulative transmitted wire bytes, at least 0
     * @param timePs the time of the record, ps, at least 0
     * @param rateBitsPerSecond its line rate, bit/s, at least 1
     */
    void push(Object port, long queueBytes, long txBytes, long timePs, long rateBitsPerSecond) {
        Parameters.notNull("port", port);
        Parameters.atLeast("queueBytes", queueBytes, 0L);
        Parameters.atLeast("txBytes", txBytes, 0L);
        Parameters.atLeast("timePs", timePs, 0L);
        Parameters.atLeast("rateBitsPerSecond", rateBitsPerSecond, 1L);
        if (hops == ports.length) {
            int n = 2 * hops;
            ports = Arrays.copyOf(ports, n);
            this.queueBytes = Arrays.copyOf(this.queueBytes, n);
            this.txBytes = Arrays.copyOf(this.txBytes, n);
            this.timePs = Arrays.copyOf(this.timePs, n);
            this.rateBitsPerSecond = Arrays.copyOf(this.rateBitsPerSecond, n);
        }
        ports[hops] = port;
        this.queueBytes[hops] = queueBytes;
        this.txBytes[hops] = txBytes;
        this.timePs[hops] = timePs;
        this.rateBitsPerSecond[hops] = rateBitsPerSecond;
        hops++;
    }

    /** Hops recorded. */
    int hops() {
        return hops;
    }

    /** The port of hop {@code i} (0 = the first switch). */
    Object port(int i) {
        return ports[Parameters.inRange("i", i, 0, hops - 1)];
    }

    /** Queue length of hop {@code i}, wire bytes. */
    long queueBytes(int i) {
        return queueBytes[Parameters.inRange("i", i, 0, hops - 1)];
    }

    /** Cumulative transmitted bytes of hop {@code i}, wire bytes. */
    long txBytes(int i) {
        return txBytes[Parameters.inRange("i", i, 0, hops - 1)];
    }

    /** Time of hop {@code i}'s record, ps. */
    long timePs(int i) {
        return timePs[Parameters.inRange("i", i, 0, hops - 1)];
    }

    /** Line rate of hop {@code i}, bit/s. */
    long rateBitsPerSecond(int i) {
        return rateBitsPerSecond[Parameters.inRange("i", i, 0, hops - 1)];
    }
}
