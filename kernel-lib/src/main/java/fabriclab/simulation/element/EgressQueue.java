package fabriclab.simulation.element;

/**
 * The egress queue of one port: one FIFO per priority, served by strict priority (0 first), with
 * the bytes it holds. The queue owns its byte count both ways: {@link #add} charges a packet's wire
 * bytes when it joins, {@link #release} returns them when the packet's last bit has left the port
 * (or when it is dropped from the queue), so a packet being transmitted still counts, as it still
 * occupies the buffer. Counters: peak occupancy, drops at this queue, ECN marks, and sampled
 * occupancy. Package-private runtime state of the simulator; no events of its own.
 */
public final class EgressQueue {
    /**
     * One FIFO per priority, as a list threaded through the packets ({@link Packet#next}): entry
     * {@code 2 pr} is the head of priority {@code pr} (null: empty), entry {@code 2 pr + 1} its tail. The
     * port's transmitter reads it directly. Threading the queue through the packets means that taking
     * the head touches only the packet about to be sent (which the link reads anyway) and this one
     * array, where a deque per priority touched the deque, its array and the array of deques.
     */
    final Packet[] fifos;
    /**
     * Per priority, the last packet of the express run at the head of its FIFO (packets {@link #addExpress} put ahead of
     * the queued data, in their own arrival order), or null when that run is empty.
     */
    private final Packet[] expressTails;
    /** Wire bytes held per priority, the packet in transmission included. */
    final long[] bytes;
    /**
     * Most wire bytes each priority may hold at a switch port (admission tail-drops above it; the switch's buffer's
     * per-queue limit or its plan's limit for this port); unlimited at a host.
     */
    long limitBytes = Long.MAX_VALUE;
    long peakBytes;
    /** Packets dropped at this queue (tail drop, black-holing, link failure), data and control. */
    long drops;
    long ecnMarks;
    // sampled occupancy (may stay null)
    long[] sampleBytes;
    int samples;

    EgressQueue(int priorities) {
        fifos = new Packet[2 * priorities];
        bytes = new long[priorities];
        expressTails = new Packet[priorities];
    }

    int priorities() {
        return bytes.length;
    }

    /** Appends {@code p} to its priority's FIFO and charges its wire bytes. */
    void add(Packet p) {
        Packet[] f = fifos;
        int h = 2 * p.priority;
        p.next = null;
        if (f[h] == null) {
            f[h] = p;
        } else {
            f[h + 1].next = p;
        }
        f[h + 1] = p;
        bytes[p.priority] += p.wireBytes;
        long total = totalBytes();
        if (total > peakBytes) {
            peakBytes = total;
        }
    }

    /**
     * Puts {@code p} ahead of every packet of its priority not itself put there by this method, behind those that were
     * (a strict-priority header queue inside the traffic class, as a trimming switch serves trimmed headers and control
     * packets: first come first served among them, all before the data); charges its wire bytes.
     */
    void addExpress(Packet p) {
        Packet[] f = fifos;
        int pr = p.priority;
        int h = 2 * pr;
        Packet after = expressTails[pr];
        if (after == null) {
            p.next = f[h];
            f[h] = p;
            if (f[h + 1] == null) {
                f[h + 1] = p;
            }
        } else {
            p.next = after.next;
            after.next = p;
            if (f[h + 1] == after) {
                f[h + 1] = p;
            }
        }
        expressTails[pr] = p;
        bytes[pr] += p.wireBytes;
        long total = totalBytes();
        if (total > peakBytes) {
            peakBytes = total;
        }
    }

    /** Wire bytes held over all priorities (summed when asked: a release then touches one counter). */
    long totalBytes() {
        long[] b = bytes;
        long t = b[0];
        for (int i = 1; i < b.length; i++) {
            t += b[i];
        }
        return t;
    }

    /** Wire bytes queued at {@code priority} (admitted, not yet sent). */
    long bytesOf(int priority) {
        return bytes[priority];
    }

    boolean isEmpty(int priority) {
        return fifos[2 * priority] == null;
    }

    /** Removes the head of {@code priority}'s FIFO (its bytes stay charged until {@link #release}). */
    Packet poll(int priority) {
        Packet[] f = fifos;
        int h = 2 * priority;
        Packet p = f[h];
        if (p != null) {
            if (expressTails[priority] == p) {
                expressTails[priority] = null; // the express run is empty again
            }
            Packet n = p.next;
            f[h] = n;
            if (n == null) {
                f[h + 1] = null;
            } else {
                p.next = null;
            }
        }
        return p;
    }

    /** Returns the wire bytes of a packet that left the port or was dropped from the queue. */
    void release(Packet p) {
        bytes[p.priority] -= p.wireBytes;
    }

    /** Records the current occupancy as the next sample, growing the sample array up to {@code max}. */
    public void sample(int max) {
        if (samples == sampleBytes.length) {
            sampleBytes = java.util.Arrays.copyOf(sampleBytes, Math.min(max, 2 * samples));
        }
        sampleBytes[samples++] = totalBytes();
    }

    /** Most wire bytes each priority of this queue may hold (a switch port's admission limit; Long.MAX_VALUE at a host). */
    public long limitBytes() {
        return limitBytes;
    }

    /** Highest occupancy seen at any enqueue, wire bytes (all priorities). */
    public long peakBytes() {
        return peakBytes;
    }

    /** Packets dropped at this queue (tail drop, black-holing, link failure), data and control. */
    public long drops() {
        return drops;
    }

    /** Packets ECN-marked at this queue. */
    public long ecnMarks() {
        return ecnMarks;
    }

    /** Starts sampling the occupancy, with room for {@code initialCapacity} samples before the array grows. */
    public void startSampling(int initialCapacity) {
        sampleBytes = new long[initialCapacity];
    }

    /** The occupancy samples taken so far, wire bytes (a copy; empty if the queue is not sampled). */
    public long[] sampledBytes() {
        return sampleBytes == null ? new long[0] : java.util.Arrays.copyOf(sampleBytes, samples);
    }
}
