package fabriclab.simulation.trace;

/** Why a packet was lost (the {@code reason} of {@link Trace#dropped}). */
public enum DropReason {
    /** The shared buffer or the (port, priority) limit was full at admission. */
    TAIL_DROP,
    /** Routed onto a failed link before the routes changed. */
    BLACK_HOLE,
    /** Queued for, being sent on, or propagating on a link when it failed. */
    LINK_FAILURE,
    /** No route to the destination. */
    NO_ROUTE
}
