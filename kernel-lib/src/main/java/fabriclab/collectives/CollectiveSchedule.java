package fabriclab.collectives;

import fabriclab.Parameters;
import java.util.ArrayList;
import java.util.List;

/**
 * The point-to-point transfers of one collective among p ranks, with their step dependencies: what
 * a packet simulator has to move (000 figures 11 and 12 use AlltoAll and AllReduce).
 *
 * <ul>
 *   <li>AlltoAll: every rank sends S/p bytes to each of the p - 1 others, all at once (no
 *       dependencies): (p-1)/p S per rank.</li>
 *   <li>Ring AllReduce: 2(p - 1) steps; in step k rank r sends one chunk of S/p bytes to r + 1 (mod p);
 *       a rank's step-k send waits for the step k - 1 chunk it receives from r - 1 (it must reduce or
 *       forward it first): 2(p-1)/p S per rank.</li>
 *   <li>Recursive halving-doubling AllReduce (Rabenseifner; p a power of two): log2 p reduce-scatter
 *       steps in which rank r exchanges half of its current block with r XOR p/2, r XOR p/4, ...
 *       (S/2, S/4, ..., S/p bytes), then the mirror all-gather (S/p, ..., S/2): 2(p-1)/p S per rank;
 *       step k of rank r waits for the step k - 1 data it receives.</li>
 * </ul>
 * Reduction compute time is not modelled (a transfer starts as soon as its input arrived).
 *
 * @param collective the algorithm
 * @param ranks p
 * @param bufferBytes S, the data per rank [bytes]
 * @param transfers the transfers, in generation order; {@code after} are indices into this list
 */
public record CollectiveSchedule(Collective collective, int ranks, long bufferBytes, List<Transfer> transfers) {
    /**
     * One transfer.
     *
     * @param from sending rank
     * @param to receiving rank
     * @param bytes payload bytes, at least 1
     * @param step algorithm step (0-based)
     * @param after indices of the transfers that must have arrived before this one starts
     */
    public record Transfer(int from, int to, long bytes, int step, int[] after) {
        /** Validates: ranks, bytes and step &gt;= 0, {@code after} non-null (empty when the transfer waits for nothing). */
        public Transfer {
            Parameters.atLeast("from", from, 0);
            Parameters.atLeast("to", to, 0);
            Parameters.atLeast("bytes", bytes, 0);
            Parameters.atLeast("step", step, 0);
            Parameters.notNull("after", after);
        }
    }

    /**
     * The most transfers {@link #of} and {@link #pairwiseAllToAll} build: 2^24 (16,777,216), about 1 GB of heap; more
     * ranks are refused before any is built (a ring all-reduce of more than 2,896 ranks, an all-to-all of more than
     * 4,096).
     */
    public static final long MAX_TRANSFERS = 1L << 24;

    private static void checkTransfers(int ranks, int perRank, String what) {
        long n = (long) ranks * perRank;
        if (n > MAX_TRANSFERS) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "ranks must give at most %,d transfers"
                    + " (%s: %d per rank), got %d: %,d transfers", MAX_TRANSFERS, what, perRank, ranks, n));
        }
    }

    /** Validates and copies. */
    public CollectiveSchedule {
        Parameters.notNull("collective", collective);
        transfers = List.copyOf(Parameters.noNullElements("transfers", transfers));
    }

    /**
     * The schedule of {@code collective} for {@code ranks} ranks with {@code bufferBytes} per rank.
     *
     * @param collective the algorithm
     * @param ranks p, at least 2 (a power of two for halving-doubling), and at most as many as give
     *        {@link #MAX_TRANSFERS} transfers (p times {@link Collective#transfersPerRank})
     * @param bufferBytes S, at least p bytes (so that every chunk is at least 1 byte)
     */
    public static CollectiveSchedule of(Collective collective, int ranks, long bufferBytes) {
        Parameters.notNull("collective", collective);
        Parameters.atLeast("ranks", ranks, 2);
        Parameters.atLeast("bufferBytes", bufferBytes, (long) ranks);
        checkTransfers(ranks, collective.transfersPerRank(ranks), collective.toString());
        List<Transfer> t = new ArrayList<>();
        long chunk = bufferBytes / ranks;
        switch (collective) {
            case ALL_TO_ALL -> {
                for (int r = 0; r < ranks; r++) {
                    for (int d = 1; d < ranks; d++) {
                        t.add(new Transfer(r, (r + d) % ranks, chunk, 0, new int[0]));
                    }
                }
            }
            case RING_ALL_REDUCE -> {
                int steps = collective.transfersPerRank(ranks); // a transfer per rank and step
                for (int k = 0; k < steps; k++) {
                    for (int r = 0; r < ranks; r++) {
                        // the step k-1 transfer into r came from r-1: index (k-1)*p + (r-1 mod p)
                        int[] after = k == 0 ? new int[0] : new int[] {(k - 1) * ranks + Math.floorMod(r - 1, ranks)};
                        t.add(new Transfer(r, (r + 1) % ranks, chunk, k, after));
                    }
                }
            }
            case HALVING_DOUBLING_ALL_REDUCE -> {
                int steps = collective.transfersPerRank(ranks); // a transfer per rank and step (ranks a power of two)
                int logP = steps / 2;
                for (int k = 0; k < steps; k++) {
                    int distance = k < logP ? ranks >> (k + 1) : 1 << (k - logP);
                    long bytes = k < logP ? bufferBytes >> (k + 1) : bufferBytes >> (2 * logP - k);
                    for (int r = 0; r < ranks; r++) {
                        int partner = r ^ distance;
                        int[] after;
                        if (k == 0) {
                            after = new int[0];
                        } else { // the step k-1 transfer into r came from r's step-(k-1) partner
                            int prevDistance = k - 1 < logP ? ranks >> k : 1 << (k - 1 - logP);
                            after = new int[] {(k - 1) * ranks + (r ^ prevDistance)};
                        }
                        t.add(new Transfer(r, partner, Math.max(1, bytes), k, after));
                    }
                }
            }
            default -> throw new IllegalStateException();
        }
        return new CollectiveSchedule(collective, ranks, bufferBytes, t);
    }

    /**
     * Pairwise-exchange AlltoAll (HCCL's {@code pairwise} inter-server algorithm, as its HCCL_ALGO
     * documentation describes it: one peer per step, so that no receiver has several senders at
     * once): p - 1 steps; in step d (1-based) rank r sends S/p bytes to r + d (mod p); a rank's step-d
     * send waits for its own step d - 1 send and for the step d - 1 chunk it receives from r - d + 1.
     * Same bytes as {@link Collective#ALL_TO_ALL} at once: (p-1)/p S per rank.
     *
     * @param ranks p, at least 2, and at most as many as give {@link #MAX_TRANSFERS} transfers (p (p - 1))
     * @param bufferBytes S, at least p bytes
     */
    public static CollectiveSchedule pairwiseAllToAll(int ranks, long bufferBytes) {
        Parameters.atLeast("ranks", ranks, 2);
        Parameters.atLeast("bufferBytes", bufferBytes, (long) ranks);
        checkTransfers(ranks, ranks - 1, "pairwise all-to-all");
        List<Transfer> t = new ArrayList<>();
        long chunk = bufferBytes / ranks;
        for (int d = 1; d < ranks; d++) {
            for (int r = 0; r < ranks; r++) {
                int[] after = d == 1 ? new int[0]
                        : new int[] {(d - 2) * ranks + r, (d - 2) * ranks + Math.floorMod(r - (d - 1), ranks)};
                t.add(new Transfer(r, (r + d) % ranks, chunk, d - 1, after));
            }
        }
        return new CollectiveSchedule(Collective.ALL_TO_ALL, ranks, bufferBytes, t);
    }

    /** Bytes rank {@code r} sends in the whole collective. */
    public long bytesSentBy(int r) {
        Parameters.inRange("r", r, 0, ranks - 1);
        return transfers.stream().filter(x -> x.from() == r).mapToLong(Transfer::bytes).sum();
    }
}
