package fabriclab.simulation;

/**
 * The order in which the sequential engine handles events that fall at the same instant of simulated time, a
 * setting of the {@link Scenario} ({@link Scenario#tieOrder()}).
 *
 * <p>Ties decide outcomes. When a packet reaches a port at the instant that port finishes sending one, or two ports'
 * packets reach a switch at once, the order of the two events decides which packet a full drop-tail queue keeps, and
 * with same-rate senders (whose packet times fall on one lattice) that decides per-flow results.
 */
public enum TieOrder {
    /**
     * The engines' one rule ({@link fabriclab.simulation.element.CanonicalOrder}, the default): at each instant a
     * node takes what arrives through its ports first, the ports in an order drawn for that node and instant from the
     * run's seed, then the transport's messages, then its own events; every switch and link draws from a random source
     * of its own. The result depends on the seed, the topology and the workload only, and the sequential and parallel
     * engines give the same result. A node may have at most {@link Simulator#PARALLEL_MAX_PORTS_PER_NODE} ports (with
     * GSE: ports plus the fabric's switches), one lane each.
     */
    CANONICAL,
    /**
     * The order the events were scheduled in (first scheduled, first handled), with one random source for the whole
     * run: the order of simulators that break ties by insertion, as ns-3's default scheduler and htsim do. It follows
     * the history of the event queue, so it is the sequential engine's only; the comparisons with outside simulators
     * run in their own order use it.
     */
    SCHEDULING
}
