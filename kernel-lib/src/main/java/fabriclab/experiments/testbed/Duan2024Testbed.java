package fabriclab.experiments.testbed;

import fabriclab.Parameters;
import fabriclab.collectives.Collective;
import fabriclab.collectives.CollectiveSchedule;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Time;
import java.io.Serializable;

/**
 * The testbed of 000 section 3 (figures 11 and 12; Duan et al., China Mobile, "GSE vs RoCE", Telecommunications
 * Science 2024), the one place it is built: 4 servers (A-D) of 8 NICs
 * at 100GE; the 8 NICs of a server on one leaf (4 leaves of 8 x 100GE down); each leaf with one 400GE
 * port to each spine, used as one 400G link or as 4 x 100G members ({@link Uplinks}); 1 us links. The
 * leaf speedup (uplink over downlink capacity, 800G down) sets the spines: 1.5:1 is 3 spines (1200G up),
 * 2:1 is 4 (1600G up). The 8 jobs: job k is NIC k of the four servers, so each has 4 ranks on 4 leaves and
 * all its traffic crosses the spines. The settings the paper leaves unstated that the experiments vary on it are
 * the enums here: the uplinks, the collective {@link Algorithm} and the {@link Dcqcn} parameter set.
 *
 * @param speedup leaf speedup, 1.5 or 2 (000's two settings)
 * @param uplinks how each 400GE leaf-spine port is used, not null
 */
public record Duan2024Testbed(double speedup, Uplinks uplinks) implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Servers, one leaf each. */
    public static final int SERVERS = 4;
    /** NICs per server (one per GPU), and jobs. */
    public static final int NICS = 8;
    /** Rate of a NIC and of its host link [bit/s]. */
    public static final long NIC_BITS_PER_SECOND = 100_000_000_000L;
    /** Rate of one leaf-spine port [bit/s]. */
    public static final long UPLINK_PORT_BITS_PER_SECOND = 400_000_000_000L;

    /** How each 400GE leaf-spine port is used. */
    public enum Uplinks {
        /** One 400G link per leaf-spine pair. */
        SINGLE_400G(1, 400_000_000_000L),
        /** Four 100G members per leaf-spine pair, each flow hashed onto one member. */
        BREAKOUT_4X100G(4, 100_000_000_000L);

        /** Links per leaf-spine pair. */
        public final int members;
        /** Rate of one member [bit/s]. */
        public final long memberBitsPerSecond;

        Uplinks(int members, long memberBitsPerSecond) {
            this.members = members;
            this.memberBitsPerSecond = memberBitsPerSecond;
        }
    }

    /** The collective algorithms the vendor library can run. */
    public enum Algorithm {
        /** AlltoAll, every rank sends to all p - 1 peers at once. */
        ALL_TO_ALL_AT_ONCE(Collective.ALL_TO_ALL),
        /** AlltoAll by pairwise exchange, one peer per step (HCCL pairwise). */
        ALL_TO_ALL_PAIRWISE(Collective.ALL_TO_ALL),
        /** Ring AllReduce. */
        RING_ALL_REDUCE(Collective.RING_ALL_REDUCE),
        /** Recursive halving-doubling AllReduce (HCCL H-D_R). */
        HALVING_DOUBLING_ALL_REDUCE(Collective.HALVING_DOUBLING_ALL_REDUCE);

        /** The collective operation this algorithm computes (for the bandwidth bound and the paper's figure). */
        public final Collective collective;

        Algorithm(Collective collective) {
            this.collective = collective;
        }

        /** Its transfers for {@code ranks} ranks and {@code bufferBytes} per rank. */
        public CollectiveSchedule schedule(int ranks, long bufferBytes) {
            return this == ALL_TO_ALL_PAIRWISE ? CollectiveSchedule.pairwiseAllToAll(ranks, bufferBytes)
                    : CollectiveSchedule.of(collective, ranks, bufferBytes);
        }
    }

    /**
     * The DCQCN settings: two published parameter sets, and no DCQCN at all (PFC alone), the limit in which
     * congestion control costs nothing and only the hash, the links and PFC set the JCT.
     */
    public enum Dcqcn {
        /** Zhu et al. 2015. */
        ZHU_2015,
        /** NVIDIA ConnectX firmware defaults. */
        NVIDIA_CONNECTX,
        /** No DCQCN: no ECN marking, senders at line rate, PFC alone (a bracket, not a deployment). */
        OFF;

        /** The parameters, or null for {@link #OFF}. */
        public DcqcnParameters parameters() {
            return switch (this) {
                case ZHU_2015 -> DcqcnParameters.zhu2015();
                case NVIDIA_CONNECTX -> DcqcnParameters.nvidiaConnectX();
                case OFF -> null;
            };
        }

        /** A short label: "DCQCN Zhu", "DCQCN NVIDIA", "no DCQCN". */
        public String label() {
            return switch (this) {
                case ZHU_2015 -> "DCQCN Zhu";
                case NVIDIA_CONNECTX -> "DCQCN NVIDIA";
                case OFF -> "no DCQCN";
            };
        }
    }

    /** Validates both fields. */
    public Duan2024Testbed {
        checkSpeedup(speedup);
        Parameters.notNull("uplinks", uplinks);
    }

    /** 000's testbed at {@code speedup} with one 400G link per leaf-spine pair. */
    public static Duan2024Testbed of(double speedup) {
        return new Duan2024Testbed(speedup, Uplinks.SINGLE_400G);
    }

    /**
     * Checks a leaf speedup: only 000's 1.5 and 2.
     *
     * @return {@code speedup}
     * @throws IllegalArgumentException otherwise
     */
    public static double checkSpeedup(double speedup) {
        if (speedup != 1.5 && speedup != 2.0) {
            throw new IllegalArgumentException("speedup must be 1.5 or 2.0 (000's two settings), got " + speedup);
        }
        return speedup;
    }

    /** Number of spines: speedup x (8 x 100G down) / 400G per spine. */
    public int spines() {
        return (int) Math.round(speedup * NICS * 100 / 400.0);
    }

    /** The leaf-spine. */
    public LeafSpine leafSpine() {
        return new LeafSpine(SERVERS, NICS, SERVERS, spines(), NIC_BITS_PER_SECOND, uplinks.memberBitsPerSecond,
                uplinks.members, Time.US, Time.US);
    }

    /** The 8 jobs as host groups: rank r of job k (group k) is NIC k of server r, host {@code r x 8 + k}. */
    public static int[][] jobGroups() {
        int[][] groups = new int[NICS][SERVERS];
        for (int job = 0; job < NICS; job++) {
            for (int r = 0; r < SERVERS; r++) {
                groups[job][r] = r * NICS + job;
            }
        }
        return groups;
    }
}
