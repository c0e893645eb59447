package fabriclab.validation;

import fabriclab.simulation.TieOrder;
import fabriclab.simulation.Simulator;
import fabriclab.Parameters;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.fabric.Time;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcDynamicThreshold;
import fabriclab.fabric.Topology;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.hpcc.HpccTransport;
import fabriclab.simulation.transport.roce.RoceTransport;
import fabriclab.workload.FlowSizeDistribution;
import fabriclab.workload.GeneratedFlows;
import fabriclab.workload.IdealFct;
import fabriclab.workload.IncastMix;
import fabriclab.workload.PoissonTraffic;

/**
 * HPCC's ns-3 evaluation of DCQCN with a window ("DCQCN+w") under the standard workloads, as far as this simulator
 * can express it, so that the published FCT-slowdown curves (dataset {@code hpcc-fct-slowdown-30pct}) can be set beside
 * ours. The settings are those of Li et al., "HPCC: High Precision Congestion Control" (SIGCOMM 2019, section 5.1) and
 * of the authors' simulation scripts (repository alibaba-edu/High-Precision-Congestion-Control, commit 9f4be2a9:
 * {@code simulation/run.py}, {@code mix/fat.txt}) and results page (hpcc-group.github.io, {@code results.md}):
 * <ul>
 *   <li><b>Fabric.</b> HPCC: a three-tier fat tree of 320 servers, 16 per ToR (20 ToRs), every ToR with four 400 Gb/s
 *       links to the aggregation layer and the aggregation to 16 cores, 1 us per link, 32 MB of buffer per switch.
 *       Here: a two-tier leaf-spine of the same hosts and the same leaf capacity, 20 leaves of 16 hosts at
 *       100 Gb/s and one 400 Gb/s link from each leaf to each of 4 spines (1:1), 1 us per link, 32 MB per switch.
 *       A flow between pods in HPCC's tree crosses 6 links, here at most 4, so the base RTT is about 8 us here and
 *       12 us there; the slowdown divides by each flow's own standalone FCT on its own fabric, which takes that
 *       difference out of the uncongested part, not out of the queueing.</li>
 *   <li><b>Packets.</b> 1000 bytes of payload; 50 bytes of headers per data packet (HPCC's results page); ACKs and
 *       CNPs of 64 bytes (an Ethernet minimum frame; HPCC's page states 60), an ACK per data packet
 *       ({@code L2_ACK_INTERVAL 1}) on the data's priority ({@code ACK_HIGH_PRIO 0} for DCQCN+w).</li>
 *   <li><b>DCQCN.</b> {@link DcqcnParameters#hpccSimulation()} with R_HAI 200 Mb/s, ECN thresholds scaled with the
 *       port rate ({@link SwitchBuffer#withEcnScaledFromRate}: Kmin 400 KB, Kmax 1600 KB at 100 Gb/s and four times
 *       that at 400 Gb/s, Pmax 0.2).</li>
 *   <li><b>Window.</b> W_max = the fabric's largest base RTT by HPCC's rule ({@link #baseRttPs}) times the host rate
 *       (their {@code GLOBAL_T 1}), scaled with the current rate ({@code VAR_WIN 1}): {@link RoceTransport.Window}.</li>
 *   <li><b>PFC.</b> Dynamic thresholds, alpha = 1/8 of the free buffer (HPCC's host-facing ports; its faster ports get a
 *       larger alpha, which one alpha per switch here cannot give), 3 KB of hysteresis (its resume offset); headroom
 *       3 x rate x delay of the fastest link (150 KB at 400 Gb/s, 1 us).</li>
 *   <li><b>FCT and slowdown.</b> HPCC's: from the flow's start to the sender's receipt of the ACK of its last byte
 *       ({@link SimulationResult.FlowRecord#acknowledgedPs}), over its standalone FCT ({@link #standaloneFctPs}).</li>
 *   <li><b>Workload.</b> Poisson arrivals of flows between random host pairs at {@code load} of every host link over the
 *       arrival window ({@link PoissonTraffic}), sizes from the published distribution; every flow runs to completion.
 *       HPCC runs for seconds of simulated time; here the window is a parameter (a few milliseconds) and the seeds give
 *       the spread.</li>
 * </ul>
 * What the two simulators share and do not is listed in notebook 14 with the comparison.
 *
 * @param workload {@code websearch} or {@code fb-hadoop}
 * @param load offered load of each host link, in (0, 1]
 * @param durationPs the arrival window, ps, in [1 us, 1 s]
 * @param seed the seed of the flows, the hashes and the marking draws
 * @param fabric the leaf-spine (the default) or HPCC's own fat tree
 */
public record HpccEvaluation(String workload, double load, long durationPs, long seed, FabricTopology fabric)
        implements java.io.Serializable {

    /** The fabric a run uses. */
    public enum FabricTopology {
        /** Our two-tier leaf-spine of the same hosts and leaf capacity ({@link HpccEvaluation#leafSpine()}). */
        LEAF_SPINE,
        /** HPCC's own three-tier fat tree, link for link as its {@code mix/fat.txt} ({@link HpccEvaluation#fatTree()}). */
        FAT_TREE
    }

    /** On the leaf-spine ({@link FabricTopology#LEAF_SPINE}). */
    public HpccEvaluation(String workload, double load, long durationPs, long seed) {
        this(workload, load, durationPs, seed, FabricTopology.LEAF_SPINE);
    }

    /** A copy on {@code f}. */
    public HpccEvaluation on(FabricTopology f) {
        return new HpccEvaluation(workload, load, durationPs, seed, Parameters.notNull("f", f));
    }
    /** Hosts of the fabric (HPCC's 320 servers). */
    public static final int HOSTS = 320;
    /** Hosts per leaf (HPCC's 16 per ToR). */
    public static final int HOSTS_PER_LEAF = 16;
    /** Spines: four 400 Gb/s uplinks per leaf, as HPCC's ToRs have. */
    public static final int SPINES = 4;
    /** Host link rate, bit/s. */
    public static final long HOST_RATE = 100_000_000_000L;
    /** Leaf-spine link rate, bit/s. */
    public static final long UPLINK_RATE = 400_000_000_000L;
    /** Propagation delay of every link, ps. */
    public static final long DELAY_PS = Time.US;
    /** Shared buffer per switch, bytes (HPCC's 32 MB at 100 Gb/s hosts). */
    public static final long BUFFER_BYTES = 32_000_000L;
    /** Payload per packet, bytes. */
    public static final int MTU_BYTES = 1000;
    /** Headers per data packet, bytes. */
    public static final int HEADER_BYTES = 50;
    /** R_HAI of HPCC's DCQCN at 100 Gb/s, bit/s. */
    public static final double HYPER_INCREASE_BPS = 200e6;

    /** Validates as stated on the record. */
    public HpccEvaluation {
        Parameters.notNull("workload", workload);
        if (!FlowSizeDistribution.PUBLISHED.contains(workload)) {
            throw new IllegalArgumentException("workload must be one of " + FlowSizeDistribution.PUBLISHED + ", got \""
                    + workload + "\"");
        }
        Parameters.inHalfOpenRange("load", load, 0, 1);
        Parameters.inRange("durationPs", durationPs, Time.US, Time.S);
        Parameters.notNull("fabric", fabric);
    }

    /** The shortest arrival window {@link #forSteps} chooses, ps (5 ms). */
    public static final long MIN_WINDOW_PS = 5 * Time.MS;

    /**
     * The evaluation whose window expects at least {@code 1.2 x 100 x flowsPerStep} flows, so that each 1% step of
     * HPCC's analysis ({@link fabriclab.workload.FctSteps}) holds about {@code flowsPerStep} or more, and whose p99 is
     * then an order statistic below the step's largest when {@code flowsPerStep} is at least 100 (the window is at
     * least {@link #MIN_WINDOW_PS}, and a whole number of microseconds).
     *
     * @param flowsPerStep flows wanted per 1% step, in [1, 1000]
     * @throws IllegalArgumentException naming {@code load} if even the longest window, 1 s, expects fewer flows
     */
    public static HpccEvaluation forSteps(String workload, double load, int flowsPerStep, long seed) {
        Parameters.inRange("flowsPerStep", flowsPerStep, 1, 1000);
        HpccEvaluation probe = new HpccEvaluation(workload, load, Time.S, seed);
        double perSecond = HOSTS * load * HOST_RATE / (8 * FlowSizeDistribution.published(probe.workload()).meanBytes());
        double windowUs = Math.ceil(1.2 * 100 * flowsPerStep / perSecond * 1e6); // in double: no overflow at a tiny load
        if (windowUs * Time.US > Time.S) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "load must start at least %d flows"
                    + " (1.2 x 100 x flowsPerStep %d) within the longest window, 1 s, got %s, which starts %.3g flows"
                    + " a second on %d hosts of %d bit/s; a higher load or a smaller flowsPerStep", 120 * flowsPerStep,
                    flowsPerStep, load, perSecond, HOSTS, HOST_RATE));
        }
        long window = (long) windowUs * Time.US;
        return new HpccEvaluation(workload, load, Math.max(MIN_WINDOW_PS, window), seed, FabricTopology.LEAF_SPINE);
    }

    /**
     * HPCC's settings beside ours, one row per setting (columns {@code setting}, {@code hpcc_ns3}, {@code ours}): the
     * facts of the class comment, ours written from this class's constants.
     */
    public static tech.tablesaw.api.Table settingsTable() {
        DcqcnParameters d = DcqcnParameters.hpccSimulation();
        String[][] rows = {
            {"fabric", "3-tier fat tree: 320 hosts, 16 per ToR, 4 x 400 Gb/s up per ToR, 1 us links, 32 MB per switch",
                String.format(java.util.Locale.ROOT, "2-tier leaf-spine: %d hosts, %d per leaf, %d spines x %d Gb/s per leaf, %d us links, %d MB per switch",
                        HOSTS, HOSTS_PER_LEAF, SPINES, UPLINK_RATE / 1_000_000_000L, DELAY_PS / Time.US, BUFFER_BYTES / 1_000_000)},
            {"longest path", "6 links, base RTT 12.24 us (HPCC's rule: 2 x 6 us + a 1000 B payload per link)",
                String.format(java.util.Locale.ROOT, "4 links, base RTT %.1f us (HPCC's rule)", maxBaseRttPs() / 1e6)},
            {"DCQCN marking", "Kmin 400 KB, Kmax 1600 KB, Pmax 0.2 at 100 Gb/s; x4 at 400 Gb/s",
                String.format(java.util.Locale.ROOT, "Kmin %.0f KB, Kmax %.0f KB, Pmax %.1f at %d Gb/s; scaled with the port rate",
                        d.marking().kMinBytes() / 1e3, d.marking().kMaxBytes() / 1e3, d.marking().pMax(), HOST_RATE / 1_000_000_000L)},
            {"DCQCN reaction point", "g 1/256; alpha every 1 us; a cut at most every 4 us if a CNP came; T 300 us, no byte counter; F 1; "
                + "R_AI 20 Mb/s, R_HAI 200 Mb/s; floor 1 Gb/s",
                String.format(java.util.Locale.ROOT, "g 1/%.0f; alpha every %.0f us; a cut on each CNP, at most one CNP per %.0f us; T %.0f us, no byte counter; "
                        + "F %d; R_AI %.0f Mb/s, R_HAI %.0f Mb/s; floor %.0f Gb/s", 1 / d.g(), d.tauPrimeS() * 1e6, d.tauS() * 1e6,
                        d.timerS() * 1e6, d.fastRecoverySteps(), d.rateAiBitsPerSecond() / 1e6, HYPER_INCREASE_BPS / 1e6,
                        d.minRateBitsPerSecond() / 1e9)},
            {"window", "one BDP of the longest path, times rate / line rate",
                String.format(java.util.Locale.ROOT, "the same rule: %,d B times rate / line rate", windowBytes())},
            {"packets and ACKs", "1000 B payload, 50 B headers; an ACK per packet on the data's priority",
                String.format(java.util.Locale.ROOT, "%d B payload, %d B headers, 64 B ACKs; an ACK per packet on the data's priority",
                        MTU_BYTES, HEADER_BYTES)},
            {"PFC", "dynamic threshold, 1/8 of the free buffer at host ports, more at faster ports",
                "dynamic threshold, 1/8 of the free buffer at every port"},
            {"workload", "Poisson flows between random host pairs at 0.3 of each host link, seconds of simulated time",
                "the same; a window giving about 100 flows per 1% step (forSteps), 3 seeds"},
            {"FCT and slowdown", "start to the sender's receipt of the last byte's ACK, over base RTT + bytes with headers at the "
                + "slowest rate (at least 1)", "the same"},
        };
        tech.tablesaw.api.StringColumn s = tech.tablesaw.api.StringColumn.create("setting");
        tech.tablesaw.api.StringColumn h = tech.tablesaw.api.StringColumn.create("hpcc_ns3");
        tech.tablesaw.api.StringColumn o = tech.tablesaw.api.StringColumn.create("ours");
        for (String[] r : rows) {
            s.append(r[0]);
            h.append(r[1]);
            o.append(r[2]);
        }
        return tech.tablesaw.api.Table.create("HPCC's evaluation and ours", s, h, o);
    }

    /** The leaf-spine ({@link #HOSTS} hosts, {@link #SPINES} spines, one 400 Gb/s link per leaf-spine pair). */
    public static LeafSpine leafSpine() {
        return new LeafSpine(HOSTS, 1, HOSTS / HOSTS_PER_LEAF, SPINES, HOST_RATE, UPLINK_RATE, 1, DELAY_PS, DELAY_PS);
    }

    /** Pods of HPCC's fat tree: 4 ToRs and 4 aggregation switches each. */
    public static final int PODS = 5;
    /** Core switches of HPCC's fat tree. */
    public static final int CORES = 16;

    /**
     * HPCC's fat tree as its {@code mix/fat.txt} wires it: 320 hosts, 16 under each of 20 ToRs (host h under ToR h / 16)
     * at 100 Gb/s; 5 pods of 4 ToRs and 4 aggregation switches, every ToR linked to the 4 of its pod; aggregation
     * switch j of every pod linked to cores 4j..4j+3; every switch link 400 Gb/s; every link 1 us.
     */
    public static Topology fatTree() {
        int tors = HOSTS / HOSTS_PER_LEAF;
        int aggs = PODS * 4;
        int tor0 = HOSTS;
        int agg0 = tor0 + tors;
        int core0 = agg0 + aggs;
        java.util.List<fabriclab.fabric.LinkSpec> links = new java.util.ArrayList<>();
        for (int h = 0; h < HOSTS; h++) {
            links.add(new fabriclab.fabric.LinkSpec(h, tor0 + h / HOSTS_PER_LEAF, HOST_RATE, DELAY_PS));
        }
        for (int t = 0; t < tors; t++) {
            for (int j = 0; j < 4; j++) {
                links.add(new fabriclab.fabric.LinkSpec(tor0 + t, agg0 + 4 * (t / 4) + j, UPLINK_RATE, DELAY_PS));
            }
        }
        for (int a = 0; a < aggs; a++) {
            for (int c = 0; c < 4; c++) {
                links.add(new fabriclab.fabric.LinkSpec(agg0 + a, core0 + 4 * (a % 4) + c, UPLINK_RATE, DELAY_PS));
            }
        }
        java.util.List<Integer> tiers = new java.util.ArrayList<>();
        for (int i = 0; i < tors; i++) {
            tiers.add(0);
        }
        for (int i = 0; i < aggs; i++) {
            tiers.add(1);
        }
        for (int i = 0; i < CORES; i++) {
            tiers.add(2);
        }
        return new Topology("HPCC's fat tree: 320 hosts, 20 ToRs, 20 aggregation, 16 cores", HOSTS, tors + aggs + CORES,
                links, tiers);
    }

    /** The topology of this run's {@link #fabric}. */
    public Topology topology() {
        return fabric == FabricTopology.FAT_TREE ? fatTree() : leafSpine().build();
    }

    /**
     * The base RTT between two hosts on {@code topology} by HPCC's rule (its {@code scratch/third.cc}), ps: twice the
     * delays of the links of a shortest path plus one {@link #MTU_BYTES}-byte payload's serialization on each of them
     * (no headers, no ACK).
     */
    public static long baseRttPs(Topology topology, int source, int destination) {
        long rtt = 0;
        for (fabriclab.fabric.LinkSpec l : IdealFct.path(topology, source, destination)) {
            rtt += 2 * l.propagationPs() + Time.serializationPs(MTU_BYTES, l.rateBitsPerSecond());
        }
        return rtt;
    }

    /**
     * A flow's standalone FCT by HPCC's rule on {@code topology}, ps: {@link #baseRttPs} plus its bytes with a header
     * per packet ({@link #HEADER_BYTES} on each of ceil(bytes / {@link #MTU_BYTES}) packets) at the host rate. For a
     * flow of less than a packet this is above what the flow alone takes (the base RTT counts a whole payload per
     * link), so HPCC's analysis, which counts a slowdown below 1 as 1, reads such flows at 1 on an idle path.
     *
     * @param bytes the flow's size, in [1, 2^40]
     */
    public static long standaloneFctPs(Topology topology, int source, int destination, long bytes) {
        Parameters.inRange("bytes", bytes, 1L, 1L << 40);
        long packets = (bytes - 1) / MTU_BYTES + 1;
        return baseRttPs(topology, source, destination) + Math.round((bytes + packets * HEADER_BYTES) * 8e12 / HOST_RATE);
    }

    /** {@link #baseRttPs(Topology, int, int)} on the leaf-spine ({@link #leafSpine}), ps. */
    public static long baseRttPs(int source, int destination) {
        return baseRttPs(leafSpine().build(), source, destination);
    }

    /** The largest {@link #baseRttPs} of the leaf-spine (two hosts under different leaves), ps. */
    public static long maxBaseRttPs() {
        return baseRttPs(0, HOSTS - 1);
    }

    /** W_max of DCQCN+w by HPCC's rule on the leaf-spine: {@link #maxBaseRttPs} times the host rate, bytes (rounded down). */
    public static long windowBytes() {
        return bdpBytes(maxBaseRttPs());
    }

    /** {@code rttPs} times the host rate, bytes (rounded down). */
    private static long bdpBytes(long rttPs) {
        return Math.multiplyExact(rttPs, HOST_RATE) / 8_000_000_000_000L;
    }

    /** {@link #standaloneFctPs(Topology, int, int, long)} on the leaf-spine, ps. */
    public static long standaloneFctPs(int source, int destination, long bytes) {
        return standaloneFctPs(leafSpine().build(), source, destination, bytes);
    }

    /** The transport: RoCE with HPCC's DCQCN, its R_HAI, an ACK per packet and the rate-scaled window of the leaf-spine. */
    public static RoceTransport dcqcnWithWindow() {
        return dcqcnWithWindow(windowBytes());
    }

    /** The same with a window of {@code windowBytes} (one BDP of the fabric's longest path by HPCC's rule). */
    public static RoceTransport dcqcnWithWindow(long windowBytes) {
        Parameters.atLeast("windowBytes", windowBytes, 1L);
        return RoceTransport.dcqcn(DcqcnParameters.hpccSimulation()).withHyperIncrease(HYPER_INCREASE_BPS)
                .withReliableConnection(ReliableConnection.defaults().withAckEvery(1))
                .withWindow(new RoceTransport.Window(windowBytes, true));
    }

    /** W_max on this run's fabric: its longest base RTT by HPCC's rule times the host rate, bytes. */
    public long fabricWindowBytes() {
        Topology t = topology();
        return bdpBytes(Math.max(baseRttPs(t, 0, HOSTS - 1), baseRttPs(t, 0, HOSTS_PER_LEAF)));
    }

    /** The flows of this run (Poisson arrivals over the window, drawn from {@link #seed}). */
    public GeneratedFlows flows() {
        return new PoissonTraffic(FlowSizeDistribution.published(workload), HOSTS, HOST_RATE, load, durationPs, 0,
                IncastMix.off(), seed).generate();
    }

    /** The scenario: {@link #topology}, the settings above, {@link #flows}, DCQCN+w with {@link #fabricWindowBytes}. */
    public Scenario scenario() {
        return scenario(HpccScheme.DCQCN_W);
    }

    /** The scenario of {@code scheme}: its transport with {@link #fabricWindowBytes} and its switches' marking. */
    public Scenario scenario(HpccScheme scheme) {
        Parameters.notNull("scheme", scheme);
        SwitchBuffer buffer = new SwitchBuffer(BUFFER_BYTES, BUFFER_BYTES, scheme.marking()).withEcnScaledFromRate(HOST_RATE);
        SimulationConfig config = new SimulationConfig(MTU_BYTES, HEADER_BYTES, 1, buffer,
                Forwarding.ecmp(HashFunction.CRC32, 7), seed, 0, 0);
        long headroom = 3 * UPLINK_RATE / 8 * DELAY_PS / Time.S;
        Pfc pfc = new Pfc(BUFFER_BYTES / 8, BUFFER_BYTES / 8 - 3_000, headroom, Pfc.MAX_QUANTA);
        return Scenario.builder(topology(), config).flows(flows().flows()).transport(scheme == HpccScheme.HPCC_INT ? hpccInt()
                        : scheme == HpccScheme.HPCC_PINT ? hpccPint() : scheme.transport(fabricWindowBytes())).pfc(pfc)
                .pfcDynamicThreshold(new PfcDynamicThreshold(1.0 / 8, 3_000))
                .name(String.format(java.util.Locale.ROOT, "HPCC's evaluation on %s: %s at load %s, %s, seed %d",
                        fabric == FabricTopology.FAT_TREE ? "its fat tree" : "a leaf-spine", workload, load, scheme.label(), seed))
                .tieOrder(TieOrder.SCHEDULING).build();
    }

    /**
     * HPCC with INT as the authors' published figures run it ({@link HpccTransport#publishedFigures()}: eta 0.99,
     * maxStage 0, the 42-byte INT header, an ACK per packet on the data's priority), T the longest base RTT of this
     * run's fabric by HPCC's rule ({@code GLOBAL_T 1}, as {@link #fabricWindowBytes}).
     */
    public HpccTransport hpccInt() {
        Topology t = topology();
        return HpccTransport.publishedFigures()
                .withBaseRtt(Math.max(baseRttPs(t, 0, HOSTS - 1), baseRttPs(t, 0, HOSTS_PER_LEAF)));
    }

    /**
     * HPCC with PINT as the authors' published figures run it: {@link #hpccInt()} with the
     * {@value HpccScheme#PINT_HEADER_BYTES}-byte PINT digest in place of the INT header ({@link HpccScheme#HPCC_PINT}).
     */
    public HpccTransport hpccPint() {
        return hpccInt().withIntHeaderBytes(HpccScheme.PINT_HEADER_BYTES);
    }

    /**
     * One run and, per flow, its ideal completion time ({@link IdealFct}: the same flow alone on the empty fabric, to
     * its last delivery) and its standalone FCT by HPCC's rule ({@link #standaloneFctPs}), the denominator of HPCC's
     * slowdown.
     *
     * @param result the simulation's result
     * @param idealPs each flow's ideal completion time to the last delivery, ps
     * @param standalonePs each flow's standalone FCT by HPCC's rule, ps
     */
    public record Result(SimulationResult result, long[] idealPs, long[] standalonePs) {
        /** Validates: one of each per flow. */
        public Result {
            Parameters.notNull("result", result);
            Parameters.notNull("idealPs", idealPs);
            Parameters.notNull("standalonePs", standalonePs);
            if (idealPs.length != result.flows().size() || standalonePs.length != result.flows().size()) {
                throw new IllegalArgumentException("idealPs and standalonePs must have one entry per flow ("
                        + result.flows().size() + "), got " + idealPs.length + " and " + standalonePs.length);
            }
        }

        /**
         * Flow {@code i}'s slowdown as HPCC's simulator and analysis define it: from its start to the sender's receipt of
         * the ACK of its last byte, over {@link #standalonePs}; NaN when it did not complete.
         */
        public double slowdown(int i) {
            Parameters.inRange("i", i, 0, idealPs.length - 1);
            SimulationResult.FlowRecord f = result.flows().get(i);
            if (f.acknowledgedPs() < 0) {
                return Double.NaN;
            }
            return (double) (f.acknowledgedPs() - f.spec().startPs()) / standalonePs[i];
        }
    }

    /**
     * The way back of a 64-byte ACK from {@code destination} to {@code source} on the empty fabric, ps: each link's
     * delay and serialization, over the two host links, and the two leaf-spine links when the hosts are under
     * different leaves.
     */
    public static long ackReturnPs(int source, int destination) {
        Parameters.inRange("source", source, 0, HOSTS - 1);
        Parameters.inRange("destination", destination, 0, HOSTS - 1);
        long host = DELAY_PS + Time.serializationPs(64, HOST_RATE);
        long up = DELAY_PS + Time.serializationPs(64, UPLINK_RATE);
        return 2 * host + (source / HOSTS_PER_LEAF == destination / HOSTS_PER_LEAF ? 0 : 2 * up);
    }

    /** Runs {@link #scenario()} (DCQCN+w). */
    public Result run() {
        return run(HpccScheme.DCQCN_W);
    }

    /** Runs {@link #scenario(HpccScheme)}. */
    public Result run(HpccScheme scheme) {
        Scenario s = scenario(scheme);
        SimulationResult r = new Simulator(s).run();
        long[] ideal = IdealFct.of(s.topology(), s.config(), s.flows());
        long[] standalone = new long[ideal.length];
        for (int i = 0; i < ideal.length; i++) {
            fabriclab.simulation.config.FlowSpec f = s.flows().get(i);
            standalone[i] = standaloneFctPs(s.topology(), f.source(), f.destination(), f.bytes());
        }
        return new Result(r, ideal, standalone);
    }
}
