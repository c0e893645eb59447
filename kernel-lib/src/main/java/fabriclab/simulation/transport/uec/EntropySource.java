package fabriclab.simulation.transport.uec;

import java.util.SplittableRandom;

/**
 * A sender's choice of entropy values (package-private runtime state of one flow): oblivious, a uniform draw per packet;
 * or REPS, a ring of the entropies of packets acknowledged without an ECN mark, each reused once, oldest first, and a
 * draw when none is left (uet-htsim {@code buffer_reps.cpp}: a ring of {@code repsBufferSize} entries, a new entropy
 * overwriting the oldest entry when it is full).
 */
final class EntropySource {
    private final EntropySpraying spraying;
    private final int entropies;
    private final SplittableRandom random;
    /** REPS: the ring of recycled entropies; {@code valid[i]} while entry i is unused. */
    private final int[] ring;
    private final boolean[] valid;
    /** Next entry to write; the oldest valid entry is found from here onwards. */
    private int head;
    private int fresh;
    long recycled;
    long explored;

    EntropySource(EntropySpraying spraying, int entropies, int ringSize, SplittableRandom random) {
        this.spraying = spraying;
        this.entropies = entropies;
        this.random = random;
        this.ring = new int[spraying == EntropySpraying.REPS ? ringSize : 0];
        this.valid = new boolean[ring.length];
    }

    /** The entropy of the next data packet, 0..entropies - 1. */
    int next() {
        if (fresh > 0) {
            for (int k = 0; k < ring.length; k++) { // the oldest valid entry: the first valid one from head onwards
                int i = (head + k) % ring.length;
                if (valid[i]) {
                    valid[i] = false;
                    fresh--;
                    recycled++;
                    return ring[i];
                }
            }
        }
        explored++;
        return random.nextInt(entropies);
    }

    /** A packet sent on {@code entropy} was acknowledged, ECN-marked or not (REPS keeps only unmarked ones). */
    void acknowledged(int entropy, boolean marked) {
        if (spraying != EntropySpraying.REPS || marked || entropy < 0) {
            return;
        }
        if (!valid[head]) {
            fresh++;
        }
        ring[head] = entropy;
        valid[head] = true;
        head = (head + 1) % ring.length;
    }
}
