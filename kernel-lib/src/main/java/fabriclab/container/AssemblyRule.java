package fabriclab.container;

/**
 * How the source edge (GSP) groups the packets of one (source edge, destination) queue into
 * fixed-length logical containers. Packets are never split.
 */
public enum AssemblyRule {
    /**
     * Seed 000 section 2.2.1: packets are added to the open container while they fit; a packet that
     * would overflow the container length C closes it and starts the next one. Every container holds
     * at most C bytes, and is short of C by less than the size of the packet that did not fit.
     */
    OVERFLOW_STARTS_NEXT,
    /**
     * Seed 002 section 3.3: container id = cumulative dequeued bytes / C (integer quotient), taken
     * here over the bytes dequeued before the packet, i.e. the packet's first byte decides. A
     * container holds the packets that start in the byte window [kC, (k+1)C); it can exceed C by up
     * to one packet minus one byte, and the long-run mean container load is exactly C.
     */
    CUMULATIVE_BYTES
}
