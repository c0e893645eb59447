package fabriclab.experiments.testbed;

/**
 * The two Ethernet fabrics 000 compares (section 3) and 002 table 1 sets side by side: RoCE (per-flow ECMP on the
 * 5-tuple, PFC and DCQCN) or GSE (packet containers, grants from the egress port and container spraying).
 */
public enum RoceOrGse {
    /** ECMP + PFC + DCQCN. */
    ROCE,
    /** Containers + grants + spraying. */
    GSE
}
