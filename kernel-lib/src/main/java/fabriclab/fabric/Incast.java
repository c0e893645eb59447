package fabriclab.fabric;

import fabriclab.Parameters;

/**
 * An incast: {@code senders} hosts each send {@code bytesPerSender} to one receiver, spread over
 * {@code qpsPerSender} queue pairs (flows with their own rate control), the many-to-one step of a
 * collective that fills a switch port (seed 002 section 3.1.2 and figure 7; seed 001's 7 x 1000-QP
 * experiment; seed 003 section 4.1). The one description of this traffic that the analytic bounds,
 * the fluid models and the packet simulator all take.
 *
 * <p>Sender {@code i} starts at {@code i * staggerPs} (0 = synchronized start, the worst case). Each
 * sender's NIC runs at {@code senderRateBitsPerSecond}, the receiver's port at {@code receiverRateBitsPerSecond}; the
 * offered load is {@code n r / R} ({@link #overload()}), congestion when above 1. {@link #topology}
 * places it on one switch: hosts {@code 0 .. n-1} are the senders, host {@code n} the receiver.
 *
 * <p>How each fidelity level reads the fields: the analytic bounds and the exact fluid queue use all
 * of them; the DCQCN and RTT fluid models treat every queue pair as backlogged for the whole run
 * (choose {@code bytesPerSender} larger than the run can carry), with the queue pairs of a sender
 * sharing its NIC; the packet simulator gives each queue pair its share of the bytes.
 *
 * @param senders number of senders n, 1 to 2^20
 * @param qpsPerSender queue pairs per sender, at least 1
 * @param bytesPerSender payload each sender sends [bytes], at least 1; {@code senders * bytesPerSender}
 *                       must fit a long
 * @param senderRateBitsPerSecond r, each sender's NIC rate [bit/s], positive
 * @param receiverRateBitsPerSecond R, the receiver's port rate [bit/s], positive
 * @param staggerPs start offset between consecutive senders [ps], not negative
 */
public record Incast(int senders, int qpsPerSender, long bytesPerSender, long senderRateBitsPerSecond, long receiverRateBitsPerSecond,
        long staggerPs) {
    /** Validates every field. */
    public Incast {
        Parameters.inRange("senders", senders, 1, 1 << 20);
        Parameters.atLeast("qpsPerSender", qpsPerSender, 1);
        Parameters.atLeast("bytesPerSender", bytesPerSender, 1L);
        if (bytesPerSender > Long.MAX_VALUE / senders) {
            throw new IllegalArgumentException("bytesPerSender must be at most Long.MAX_VALUE / senders = "
                    + Long.MAX_VALUE / senders + ", got " + bytesPerSender);
        }
        Parameters.atLeast("senderRateBitsPerSecond", senderRateBitsPerSecond, 1L);
        Parameters.atLeast("receiverRateBitsPerSecond", receiverRateBitsPerSecond, 1L);
        Parameters.atLeast("staggerPs", staggerPs, 0L);
        if (staggerPs > Long.MAX_VALUE / senders) {
            throw new IllegalArgumentException("staggerPs must be at most Long.MAX_VALUE / senders = "
                    + Long.MAX_VALUE / senders + ", got " + staggerPs);
        }
    }

    /**
     * A synchronized incast with one queue pair per sender and every link at the same rate.
     *
     * @param senders number of senders, 1 to 2^20
     * @param bytesPerSender payload per sender [bytes], at least 1
     * @param rateBitsPerSecond sender and receiver link rate [bit/s], positive
     */
    public static Incast of(int senders, long bytesPerSender, long rateBitsPerSecond) {
        Parameters.atLeast("rateBitsPerSecond", rateBitsPerSecond, 1L);
        return new Incast(senders, 1, bytesPerSender, rateBitsPerSecond, rateBitsPerSecond, 0);
    }

    /** The same incast with {@code n} senders (for sweeps over the incast degree). */
    public Incast withSenders(int n) {
        return new Incast(n, qpsPerSender, bytesPerSender, senderRateBitsPerSecond, receiverRateBitsPerSecond, staggerPs);
    }

    /** The same incast with sender {@code i} starting at {@code i * ps} [ps]. */
    public Incast withStagger(long ps) {
        return new Incast(senders, qpsPerSender, bytesPerSender, senderRateBitsPerSecond, receiverRateBitsPerSecond, ps);
    }

    /** Total queue pairs (flows): {@code senders * qpsPerSender}. */
    public long queuePairs() {
        return (long) senders * qpsPerSender;
    }

    /** Total payload of all senders [bytes]: {@code n M}. */
    public long totalBytes() {
        return senders * bytesPerSender;
    }

    /**
     * Start time of sender {@code i} [ps]: {@code i * staggerPs}.
     *
     * @param sender sender index in [0, senders)
     */
    public long startPs(int sender) {
        Parameters.inRange("sender", sender, 0, senders - 1);
        return sender * staggerPs;
    }

    /** Start offset between consecutive senders in seconds (for the fluid models, which count in seconds). */
    public double staggerS() {
        return Time.toSeconds(staggerPs);
    }

    /** Offered load {@code n r / R}: the receiver's port is congested when it exceeds 1. */
    public double overload() {
        return (double) senders * senderRateBitsPerSecond / receiverRateBitsPerSecond;
    }

    /** Host index of the receiver in {@link #topology}: {@code senders}. */
    public int receiver() {
        return senders;
    }

    /**
     * The incast on one switch: hosts {@code 0 .. n-1} are the senders, each on a link of
     * {@code senderRateBitsPerSecond}, host {@code n} the receiver on a link of {@code receiverRateBitsPerSecond}.
     *
     * @param propagationPs per-link propagation delay [ps], not negative
     */
    public Topology topology(long propagationPs) {
        long[] rates = new long[senders + 1];
        java.util.Arrays.fill(rates, senderRateBitsPerSecond);
        rates[senders] = receiverRateBitsPerSecond;
        return Topology.singleSwitch(rates, propagationPs);
    }
}
