package fabriclab.congestion;

import fabriclab.fabric.EcnMarking;
import fabriclab.Parameters;

import java.util.Arrays;
import java.util.Optional;

/**
 * WRED/ECN profiles per traffic priority (802.1p priority 0..7), as in the queue plan of 003
 * (intelligent lossless network white paper, figure 23): each lossless queue has its own
 * (Kmin, Kmax, Pmax); priorities without a profile are not ECN-marked.
 *
 * <p>Immutable: {@link #with(int, EcnMarking)} returns a new instance.
 */
public final class PriorityWred {
    /** Number of 802.1p priorities. */
    public static final int PRIORITIES = 8;

    private final EcnMarking[] profiles;

    private PriorityWred(EcnMarking[] profiles) {
        this.profiles = profiles;
    }

    /** No priority is marked. */
    public static PriorityWred none() {
        return new PriorityWred(new EcnMarking[PRIORITIES]);
    }

    /**
     * The plan recommended for RoCE in 003: RDMA traffic on priority 3 with the DCQCN defaults
     * ({@link EcnMarking#dcqcnDefaults()}); other priorities unmarked.
     */
    public static PriorityWred roceDefault() {
        return none().with(3, EcnMarking.dcqcnDefaults());
    }

    /**
     * A copy with {@code profile} on {@code priority}.
     *
     * @param priority 0..7
     * @param profile the profile, not null
     */
    public PriorityWred with(int priority, EcnMarking profile) {
        Parameters.inRange("priority", priority, 0, PRIORITIES - 1);
        Parameters.notNull("profile", profile);
        EcnMarking[] copy = Arrays.copyOf(profiles, PRIORITIES);
        copy[priority] = profile;
        return new PriorityWred(copy);
    }

    /** The profile of {@code priority} (0..7), empty where that priority is not marked. */
    public Optional<EcnMarking> profile(int priority) {
        Parameters.inRange("priority", priority, 0, PRIORITIES - 1);
        return Optional.ofNullable(profiles[priority]);
    }

    /**
     * Marking probability of a packet of {@code priority} when its queue holds {@code queueBytes}.
     *
     * @return probability in [0, 1]; 0 for an unmarked priority
     */
    public double probability(int priority, double queueBytes) {
        return profile(priority).map(w -> w.probability(queueBytes)).orElseGet(() -> {
            Parameters.nonNegative("queueBytes", queueBytes);
            return 0.0;
        });
    }
}
