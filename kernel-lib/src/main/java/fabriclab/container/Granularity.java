package fabriclab.container;

/**
 * The unit that is sprayed over paths (000 section 1 and 002 section 3.1.1 / figures 4 to 6).
 */
public enum Granularity {
    /** Per-flow ECMP: a whole flow (5-tuple) is one unit. */
    FLOW,
    /** Per-packet spraying: each packet is one unit. */
    PACKET,
    /** Cell spraying (figure 4): packets cut into fixed cells, each with its own header; last cell padded. */
    CELL,
    /** Packet aggregation (figure 5): packets packed into fixed-size frames with one shared header, padded. */
    FRAME,
    /** Packet containers (figure 6): logical fixed-length containers, no padding, a tag per packet. */
    CONTAINER
}
