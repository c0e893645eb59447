/**
 * Packet containers (PKTC) of Global Scheduling Ethernet: how packets are grouped into fixed-length
 * logical containers, how units (flows, packets, cells, aggregated frames, containers) are sprayed
 * over equal paths, the resulting per-path load variance, the reordering seen by the egress and the
 * overheads of the alternatives.
 *
 * <p>Sources: seed 000 (Duan et al., Telecommunications Science 2024, section 2.2.1: containers per
 * destination, one path per container, container-level reordering at the egress; section 3: 16 KB
 * containers, about 4 KB packets, 100GE) and seed 002 (Cheng et al., ZTE Technology Journal 2025,
 * section 3.1.1: cell cutting, packet aggregation, PKTC, load-variance and reorder derivations;
 * section 3.3: container id = cumulative dequeued bytes / container length).
 *
 * <p>Byte sizes are {@code int}/{@code long} bytes, times are seconds unless a name says otherwise.
 */
package fabriclab.container;
