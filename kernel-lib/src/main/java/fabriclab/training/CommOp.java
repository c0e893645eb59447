package fabriclab.training;

import fabriclab.Parameters;

/**
 * One kind of collective a training iteration issues, as seen by one accelerator: what it is, over how
 * many ranks, how big, where in the iteration and how often.
 *
 * <p>Bytes each rank sends per operation, for a buffer of {@code S} bytes per rank over {@code p} ranks
 * with the bandwidth-optimal ring algorithms (Patarasuk and Yuan 2009; Thakur et al. 2005):
 * <pre>
 *   all-reduce      2 (p - 1)/p S   (a reduce-scatter then an all-gather)
 *   reduce-scatter    (p - 1)/p S
 *   all-gather        (p - 1)/p S   (S is the gathered size)
 *   send/recv               S       (p = 2, one direction)
 * </pre>
 *
 * @param name what it carries, e.g. "TP all-reduce (forward)"
 * @param primitive the collective
 * @param groupSize p, ranks per group (at least 2; 2 for send/recv)
 * @param bufferBytes S, bytes per rank per operation
 * @param perIteration operations per iteration per accelerator (of the stage that issues them)
 * @param onFabric true when the group spans servers (its traffic crosses the leaf-spine), false when it stays
 *        inside one server (NVLink)
 * @param when its place in the iteration, e.g. "forward, 2 per layer per micro-batch"
 */
public record CommOp(String name, Primitive primitive, int groupSize, double bufferBytes, int perIteration, boolean onFabric,
        String when) {

    /** The collective primitives of a training iteration. */
    /**
     * The largest buffer a collective may carry [bytes], 10^18 (an exabyte): far above any model's
     * gradients, and small enough that the bytes sent stay finite.
     */
    public static final double MAX_BUFFER_BYTES = 1e18;

    public enum Primitive {
        /** Every rank ends with the sum of all ranks' buffers. */
        ALL_REDUCE,
        /** Every rank ends with the sum of its 1/p share. */
        REDUCE_SCATTER,
        /** Every rank ends with every rank's 1/p share. */
        ALL_GATHER,
        /** One rank sends its buffer to one other (pipeline activations and their gradients). */
        SEND_RECV;

        /**
         * Bytes one rank sends in one operation (the ring closed forms of the class comment) [bytes].
         *
         * @param ranks p, at least 1 (1 sends nothing); send/recv ignores it
         * @param bufferBytes S, not negative
         */
        public double bytesSentPerRank(int ranks, double bufferBytes) {
            Parameters.atLeast("ranks", ranks, 1);
            Parameters.inRange("bufferBytes", bufferBytes, 0, MAX_BUFFER_BYTES);
            double share = (ranks - 1) / (double) ranks;
            return switch (this) {
                case ALL_REDUCE -> 2 * share * bufferBytes;
                case REDUCE_SCATTER, ALL_GATHER -> share * bufferBytes;
                case SEND_RECV -> bufferBytes;
            };
        }
    }

    /** Validates. */
    public CommOp {
        Parameters.notBlank("name", name);
        Parameters.notNull("primitive", primitive);
        Parameters.atLeast("groupSize", groupSize, 2);
        Parameters.nonNegative("bufferBytes", bufferBytes);
        Parameters.atLeast("perIteration", perIteration, 0);
        Parameters.notNull("when", when);
    }

    /** Bytes one rank sends per operation. */
    public double bytesSentPerRank() {
        return primitive.bytesSentPerRank(groupSize, bufferBytes);
    }

    /** Bytes one rank sends per iteration: perIteration x bytesSentPerRank. */
    public double bytesSentPerIteration() {
        return perIteration * bytesSentPerRank();
    }
}
