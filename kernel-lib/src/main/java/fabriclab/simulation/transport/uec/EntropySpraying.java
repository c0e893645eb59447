package fabriclab.simulation.transport.uec;

/**
 * How a sender chooses the entropy value of each data packet (the switches hash it to pick among equal-cost ports).
 */
public enum EntropySpraying {
    /** Oblivious spraying: an entropy value drawn uniformly at random for every packet. */
    OBLIVIOUS("oblivious"),
    /**
     * Recycled entropy packet spraying (REPS; Bonato et al., "REPS: Recycled Entropy Packet EntropySpraying for Adaptive Load
     * Balancing and Failure Mitigation", 2024): the entropy of every packet acknowledged without an ECN mark is kept in a
     * small ring buffer and reused, oldest first, by the next packet; with none to reuse the sender explores an entropy
     * at random (uet-htsim {@code uec_mp.cpp}, {@code UecMpReps}, without its freezing mode).
     */
    REPS("reps");

    private final String optionName;

    EntropySpraying(String optionName) {
        this.optionName = optionName;
    }

    /** Its name on the command line: {@code oblivious} or {@code reps}. */
    public String optionName() {
        return optionName;
    }

    /** The spraying named {@code name} on the command line. */
    public static EntropySpraying named(String name) {
        fabriclab.Parameters.notNull("name", name);
        for (EntropySpraying s : values()) {
            if (s.optionName.equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("name must be oblivious or reps, got \"" + name + "\"");
    }

    @Override
    public String toString() {
        return optionName;
    }
}
