package fabriclab.experiments.testbed;

import fabriclab.Parameters;
import fabriclab.collectives.Collective;
import fabriclab.collectives.CollectiveSchedule;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.fabric.EcnMarking;
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
        /**
         * NVIDIA ConnectX firmware values ({@link DcqcnParameters#nvidiaConnectX()}), run with every cut setting the
         * target rate (the transport's default; the firmware documents {@code clamp_tgt_rate} 0, {@link Recovery#NVIDIA}).
         */
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

    /**
     * The switches' ECN marking per port speed (Kmin, Kmax, Pmax of {@link EcnMarking} at each port), the switch
     * setting 000 does not give. Each value is cited:
     * <ul>
     *   <li>{@link #ZHU_UNSCALED}: Kmin 5 KB, Kmax 200 KB, Pmax 1% at every port whatever its speed: the values of Zhu
     *       et al., "Congestion Control for Large-Scale RDMA Deployments", SIGCOMM 2015, section 5 (their testbed ran
     *       40 Gb/s ConnectX-3 Pro NICs), as {@link EcnMarking#dcqcnDefaults()} and {@link DcqcnParameters#zhu2015()}
     *       hold them.</li>
     *   <li>{@link #ZHU_SCALED}: the same values read as written for 40 Gb/s ports and scaled with each port's rate
     *       (Kmin and Kmax times rate / 40 Gb/s, Pmax kept): 12.5 KB / 500 KB at 100 Gb/s, 50 KB / 2 MB at 400 Gb/s;
     *       thresholds grow with the port speed in the reference's per-speed map ({@link #NS3_REFERENCE}) and in HPCC's
     *       evaluation (Kmin and Kmax four times larger at 400 Gb/s than at 100 Gb/s: {@link DcqcnParameters#hpccSimulation()}).</li>
     *   <li>{@link #NS3_REFERENCE}: the RDMA reference simulator's per-speed map (aliyun/ns-3-alibabacloud, dev/qp,
     *       commit eb45e7f2, {@code simulation/examples/rdma-test/config_8to1.sh} lines 39-41, {@code KMAX_MAP},
     *       {@code KMIN_MAP}, {@code PMAX_MAP}, thresholds in KB of 1000 bytes, {@code scratch/common.h}): 25 Gb/s
     *       100/400 KB, 50 Gb/s 200/800 KB, 100 Gb/s 400/1600 KB, 200 Gb/s 300/1200 KB with Pmax 0.8, 400 Gb/s
     *       800/3200 KB, 1.6 Tb/s 600/2400 KB, Pmax 0.2 elsewhere; no other speed is defined.</li>
     *   <li>{@link #NVIDIA_SWITCH}: NVIDIA's switch default for RoCE (lossless) on the RoCE traffic class, ECN in absolute
     *       mode with Kmin 150 KB and Kmax 1500 KB at every port: NVIDIA Onyx User Manual v3.10.4100 LTS, "RoCE
     *       Commands", the {@code show roce} example ("Port congestion-control: Mode: ecn, absolute, Min : 150, Max :
     *       1500"), and the Cumulus Linux 5.x user guide, "RDMA over Converged Ethernet - RoCE", table "Default RoCE
     *       Mode Configuration" (ECN absolute threshold 150 - 1500 for traffic class 3). Neither page gives a marking
     *       probability at Kmax: Pmax = 100% here, the largest, stated as this library's choice.</li>
     * </ul>
     */
    public enum Marking {
        /** Zhu et al.'s 40G-era thresholds at every port. */
        ZHU_UNSCALED,
        /** Zhu et al.'s thresholds scaled from 40 Gb/s with each port's rate. */
        ZHU_SCALED,
        /** The reference simulator's thresholds per port speed. */
        NS3_REFERENCE,
        /** NVIDIA's switch default (Onyx, Cumulus Linux) for the RoCE class. */
        NVIDIA_SWITCH;

        /** Zhu et al.'s testbed port rate, the rate {@link #ZHU_SCALED} scales from [bit/s]. */
        public static final long ZHU_PORT_BITS_PER_SECOND = 40_000_000_000L;

        /** The speeds [bit/s] of {@link #NS3_REFERENCE}'s map, in its order. */
        private static final long[] NS3_RATES = {25_000_000_000L, 50_000_000_000L, 100_000_000_000L, 200_000_000_000L,
            400_000_000_000L, 1_600_000_000_000L};
        /** Its Kmin [KB] per speed. */
        private static final int[] NS3_KMIN_KB = {100, 200, 400, 300, 800, 600};
        /** Its Kmax [KB] per speed. */
        private static final int[] NS3_KMAX_KB = {400, 800, 1600, 1200, 3200, 2400};
        /** Its Pmax per speed. */
        private static final double[] NS3_PMAX = {0.2, 0.2, 0.2, 0.8, 0.2, 0.2};

        /**
         * The marking curve at a port of {@code portBitsPerSecond}.
         *
         * @param portBitsPerSecond the port's rate [bit/s], positive; for {@link #NS3_REFERENCE} one of the map's speeds
         * @throws IllegalArgumentException for a speed {@link #NS3_REFERENCE} does not define
         */
        public EcnMarking at(long portBitsPerSecond) {
            Parameters.atLeast("portBitsPerSecond", portBitsPerSecond, 1L);
            return switch (this) {
                case ZHU_UNSCALED -> EcnMarking.dcqcnDefaults();
                case ZHU_SCALED -> {
                    EcnMarking z = EcnMarking.dcqcnDefaults();
                    double f = (double) portBitsPerSecond / ZHU_PORT_BITS_PER_SECOND;
                    yield new EcnMarking(z.kMinBytes() * f, z.kMaxBytes() * f, z.pMax());
                }
                case NS3_REFERENCE -> {
                    for (int i = 0; i < NS3_RATES.length; i++) {
                        if (NS3_RATES[i] == portBitsPerSecond) {
                            yield new EcnMarking(NS3_KMIN_KB[i] * 1000.0, NS3_KMAX_KB[i] * 1000.0, NS3_PMAX[i]);
                        }
                    }
                    throw new IllegalArgumentException("portBitsPerSecond must be a speed of the reference's map "
                            + java.util.Arrays.toString(NS3_RATES) + " for NS3_REFERENCE, got " + portBitsPerSecond);
                }
                case NVIDIA_SWITCH -> new EcnMarking(150_000, 1_500_000, 1.0);
            };
        }

        /**
         * The port rate [bit/s] from which this profile's thresholds scale linearly with a port's rate, or 0 when they do
         * not (the same curve at every port, or a per-speed table).
         */
        public long scaledFromBitsPerSecond() {
            return this == ZHU_SCALED ? ZHU_PORT_BITS_PER_SECOND : 0;
        }

        /** A short label: "Zhu 5/200 KB unscaled", "Zhu scaled from 40G", "ns-3 reference", "NVIDIA 150/1500 KB". */
        public String label() {
            return switch (this) {
                case ZHU_UNSCALED -> "Zhu 5/200 KB unscaled";
                case ZHU_SCALED -> "Zhu scaled from 40G";
                case NS3_REFERENCE -> "ns-3 reference";
                case NVIDIA_SWITCH -> "NVIDIA 150/1500 KB";
            };
        }
    }

    /**
     * The DCQCN reaction and notification points' recovery values (alpha update, rate decrease, rate increase), each
     * cited where its parameter set is defined:
     * <ul>
     *   <li>{@link #NVIDIA_CLAMPED}: NVIDIA ConnectX values ({@link DcqcnParameters#nvidiaConnectX()}) with every cut
     *       setting the target rate (Zhu et al.'s reaction point), as {@link Dcqcn#NVIDIA_CONNECTX} runs;</li>
     *   <li>{@link #NVIDIA}: the same with NVIDIA's documented {@code clamp_tgt_rate} 0 and
     *       {@code clamp_tgt_rate_after_time_inc} 1 (a cut sets the target rate only after a rate increase);</li>
     *   <li>{@link #NS3_REFERENCE}: the reference simulator's configuration ({@link DcqcnParameters#ns3Reference()},
     *       {@code ClampTargetRate false});</li>
     * </ul>
     * R_HAI is 50 Mb/s in all three ({@code rpg_hai_rate} 50 and the reference's {@code RateHAI 50Mb/s}).
     */
    public enum Recovery {
        /** NVIDIA's values, every cut clamping the target rate. */
        NVIDIA_CLAMPED,
        /** NVIDIA's values with its documented clamp_tgt_rate 0. */
        NVIDIA,
        /** The reference simulator's configuration. */
        NS3_REFERENCE;

        /** The reaction point's parameters (their marking is replaced by a {@link Marking}). */
        public DcqcnParameters parameters() {
            return this == NS3_REFERENCE ? DcqcnParameters.ns3Reference() : DcqcnParameters.nvidiaConnectX();
        }

        /** Whether every cut sets the target rate to the current rate. */
        public boolean clampTargetRate() {
            return this == NVIDIA_CLAMPED;
        }

        /** R_HAI [bit/s]: 50 Mb/s. */
        public double hyperIncreaseBitsPerSecond() {
            return 50e6;
        }

        /** A short label: "NVIDIA, clamped", "NVIDIA", "ns-3 reference". */
        public String label() {
            return switch (this) {
                case NVIDIA_CLAMPED -> "NVIDIA, clamped";
                case NVIDIA -> "NVIDIA";
                case NS3_REFERENCE -> "ns-3 reference";
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
