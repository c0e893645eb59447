package fabriclab.scenarios;

import fabriclab.Parameters;
import fabriclab.collectives.Collective;
import fabriclab.collectives.CollectiveSchedule;
import fabriclab.fabric.Incast;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.BufferPlan;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.OutOfOrderPlacement;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.uec.UecTransport;
import fabriclab.workload.FlowSizeDistribution;
import fabriclab.workload.GeneratedFlows;
import fabriclab.workload.IncastMix;
import fabriclab.workload.PoissonTraffic;
import java.util.List;
import java.util.Locale;

/**
 * One packet-level run described by its settings, and the {@link Scenario} it stands for: a workload on a fabric, run
 * with a transport, every random draw from {@code seed}. {@link #defaults()} is the RoCE+PFC permutation of the
 * comparison with htsim (README, Benchmarks), the run of {@code bin/simulate} with no options.
 *
 * @param workload {@code permutation}, {@code incast}, {@code ring-allreduce}, {@code hd-allreduce}, or a standard
 *     flow-completion workload ({@link #STANDARD_WORKLOADS})
 * @param fabric the leaf-spine (the incast runs through one switch of {@code traffic.senders() + 1} hosts instead)
 * @param traffic what the workload sends
 * @param transport the transport, its forwarding, PFC and packet sizes
 * @param seed seed of the permutation, of the flows' source ports and of the run's random draws
 */
public record ScenarioSettings(String workload, Fabric fabric, Traffic traffic, Transport transport, long seed) {
    /** The standard flow-completion workloads: Poisson arrivals of flows with sizes from a distribution. */
    public static final List<String> STANDARD_WORKLOADS = List.of("websearch", "fb-hadoop", "cdf");
    /** Every workload, the standard ones last. */
    public static final List<String> WORKLOADS = List.of("permutation", "incast", "ring-allreduce", "hd-allreduce",
            "websearch", "fb-hadoop", "cdf");
    /** Seed of {@link #defaults()}. */
    public static final long DEFAULT_SEED = 5;

    /** Validates: the workload one of {@link #WORKLOADS}, the parts not null, a distribution for a standard workload. */
    public ScenarioSettings {
        Parameters.notNull("workload", workload);
        if (!WORKLOADS.contains(workload)) {
            throw new IllegalArgumentException("workload must be one of " + WORKLOADS + ", got \"" + workload + "\"");
        }
        Parameters.notNull("fabric", fabric);
        Parameters.notNull("traffic", traffic);
        Parameters.notNull("transport", transport);
        if (STANDARD_WORKLOADS.contains(workload) && traffic.distribution() == null) {
            throw new IllegalArgumentException("the standard workload " + workload + " needs a flow-size distribution");
        }
    }

    /** The RoCE+PFC permutation of 2 MB flows on 128 hosts of the htsim comparison, seed {@value #DEFAULT_SEED}. */
    public static ScenarioSettings defaults() {
        return new ScenarioSettings("permutation", Fabric.defaults(), Traffic.defaults(),
                Transport.defaults(TransportChoice.ROCE), DEFAULT_SEED);
    }

    /**
     * A standard flow-completion workload with {@code transport}'s defaults on a leaf-spine of {@code hosts}, the rest
     * of {@link #defaults()}: flows between random host pairs, sizes from the published distribution {@code workload}
     * names ({@link FlowSizeDistribution#PUBLISHED}), Poisson arrivals at {@code load} of each host link over
     * {@code durationPs}, no incast.
     */
    public static ScenarioSettings standard(String workload, double load, long durationPs, int hosts, int hostsPerLeaf,
            int spines, TransportChoice transport, long seed) {
        Parameters.notNull("workload", workload);
        Parameters.notNull("transport", transport);
        if (!FlowSizeDistribution.PUBLISHED.contains(workload)) {
            throw new IllegalArgumentException("workload must be one of " + FlowSizeDistribution.PUBLISHED + ", got \""
                    + workload + "\"");
        }
        return new ScenarioSettings(workload, Fabric.defaults().withLeafSpine(hosts, hostsPerLeaf, spines),
                Traffic.defaults().withArrivals(FlowSizeDistribution.published(workload), load, durationPs),
                Transport.defaults(transport), seed);
    }

    /**
     * The leaf-spine, and each switch's buffer and queue limits.
     *
     * @param hosts hosts of the leaf-spine, a multiple of {@code hostsPerLeaf}
     * @param hostsPerLeaf hosts attached to each leaf
     * @param spines spine switches
     * @param parallelLinks links between each leaf and each spine
     * @param rateBitsPerSecond rate of every link, bit/s
     * @param delayPs propagation delay of every link, ps
     * @param bufferBytes shared buffer of each switch that {@code bufferPlan} does not size otherwise, bytes
     * @param bufferPlan shared buffers of tiers and single switches (each entry's {@link SwitchBuffer#sharedBytes()};
     *     the transport gives their ECN marking, as for {@code bufferBytes}) and queue limits of ports; checked against
     *     the fabric when the scenario is built
     */
    public record Fabric(int hosts, int hostsPerLeaf, int spines, int parallelLinks, long rateBitsPerSecond, long delayPs,
            long bufferBytes, BufferPlan bufferPlan) {
        /** Validates: every count and size positive, the hosts a multiple of the hosts per leaf, a plan. */
        public Fabric {
            Parameters.atLeast("hostsPerLeaf", hostsPerLeaf, 1);
            Parameters.atLeast("hosts", hosts, 1);
            if (hosts % hostsPerLeaf != 0) {
                throw new IllegalArgumentException("hosts must be a multiple of hostsPerLeaf = " + hostsPerLeaf + ", got "
                        + hosts);
            }
            Parameters.atLeast("spines", spines, 1);
            Parameters.atLeast("parallelLinks", parallelLinks, 1);
            Parameters.atLeast("rateBitsPerSecond", rateBitsPerSecond, 1L);
            Parameters.atLeast("delayPs", delayPs, 1L);
            Parameters.atLeast("bufferBytes", bufferBytes, 1L);
            Parameters.notNull("bufferPlan", bufferPlan);
        }

        /** A fabric with {@code bufferBytes} in every switch ({@link BufferPlan#none()}). */
        public Fabric(int hosts, int hostsPerLeaf, int spines, int parallelLinks, long rateBitsPerSecond, long delayPs,
                long bufferBytes) {
            this(hosts, hostsPerLeaf, spines, parallelLinks, rateBitsPerSecond, delayPs, bufferBytes, BufferPlan.none());
        }

        /** 128 hosts, 16 per leaf, 8 spines, 2 parallel 100 Gb/s links of 1 us, 16 MB per switch. */
        public static Fabric defaults() {
            return new Fabric(128, 16, 8, 2, 100_000_000_000L, Time.US, 16_000_000L);
        }

        /** This fabric with {@code hosts}, {@code hostsPerLeaf} and {@code spines}. */
        public Fabric withLeafSpine(int hosts, int hostsPerLeaf, int spines) {
            return new Fabric(hosts, hostsPerLeaf, spines, parallelLinks, rateBitsPerSecond, delayPs, bufferBytes,
                    bufferPlan);
        }

        /** This fabric with {@code plan}'s switch buffers and queue limits. */
        public Fabric withBufferPlan(BufferPlan plan) {
            return new Fabric(hosts, hostsPerLeaf, spines, parallelLinks, rateBitsPerSecond, delayPs, bufferBytes, plan);
        }

        /** Leaf switches. */
        public int leaves() {
            return hosts / hostsPerLeaf;
        }
    }

    /**
     * What the workload sends. The fixed workloads read {@code flowBytes}, {@code senders}, {@code ranks} and
     * {@code queuePairs}; the standard ones the rest.
     *
     * @param flowBytes payload of each permutation flow, each incast sender or each all-reduce rank, bytes
     * @param senders incast senders
     * @param ranks ranks of each all-reduce group
     * @param queuePairs queue pairs of every flow
     * @param distribution a standard workload's flow-size distribution, or null
     * @param load a standard workload's offered load of each host link, in (0, 1]
     * @param flowCount a standard workload's most Poisson flows, or 0 for as many as arrive in the window
     * @param durationPs a standard workload's arrival window, ps
     * @param incast a standard workload's incast bursts ({@link IncastMix#off()} for none)
     */
    public record Traffic(long flowBytes, int senders, int ranks, int queuePairs, FlowSizeDistribution distribution,
            double load, int flowCount, long durationPs, IncastMix incast) {
        /** Validates: the counts positive (the flow count at least 0), the load in (0, 1], the incast bursts not null. */
        public Traffic {
            Parameters.atLeast("flowBytes", flowBytes, 1L);
            Parameters.atLeast("senders", senders, 1);
            Parameters.atLeast("ranks", ranks, 1);
            Parameters.atLeast("queuePairs", queuePairs, 1);
            if (!(load > 0 && load <= 1)) {
                throw new IllegalArgumentException("load must be in (0, 1], got " + load);
            }
            Parameters.atLeast("flowCount", flowCount, 0);
            Parameters.atLeast("durationPs", durationPs, 1L);
            Parameters.notNull("incast", incast);
        }

        /** 2 MB flows, 64 incast senders, 16 ranks, 1 queue pair; for arrivals load 0.3 over 1 ms, no incast. */
        public static Traffic defaults() {
            return new Traffic(2_000_000L, 64, 16, 1, null, 0.3, 0, Time.MS, IncastMix.off());
        }

        /** This traffic with arrivals of flows of {@code distribution} at {@code load} over {@code durationPs}. */
        public Traffic withArrivals(FlowSizeDistribution distribution, double load, long durationPs) {
            Parameters.notNull("distribution", distribution);
            return new Traffic(flowBytes, senders, ranks, queuePairs, distribution, load, flowCount, durationPs, incast);
        }
    }

    /**
     * How the packets go: the transport, the switches' forwarding and PFC, and the packets' sizes.
     *
     * @param choice the transport
     * @param connection the reliable connection of an acknowledged transport (the others ignore it)
     * @param forwarding {@code ecmp} (per flow, CRC-32), {@code spray} (per packet, round robin),
     *     {@code spray-random}, {@code adaptive} (adaptive routing per packet by egress queue depth) or
     *     {@code adaptive-flowlet} (per flowlet) ({@link Forwarding})
     * @param ecmpSeed seed of the ECMP hash
     * @param pfc PFC thresholds, or null for no PFC
     * @param mtuBytes payload per packet, bytes
     * @param headerBytes header per packet, bytes
     * @param flowletGapPs the flowlet inactivity interval of {@code adaptive-flowlet} [ps], at least 0
     * @param uec the settings of the UEC transport (its choice only), or null for {@link UecTransport#defaults()}
     */
    public record Transport(TransportChoice choice, ReliableConnection connection, String forwarding, int ecmpSeed,
            Pfc pfc, int mtuBytes, int headerBytes, long flowletGapPs, UecTransport uec) {
        /** The forwarding policies by name. */
        public static final List<String> FORWARDINGS = List.of("ecmp", "spray", "spray-random", "adaptive",
                "adaptive-flowlet");

        /** Validates: the choice, connection and a known forwarding given, the packet sizes in range. */
        public Transport {
            Parameters.notNull("choice", choice);
            Parameters.notNull("connection", connection);
            Parameters.notNull("forwarding", forwarding);
            if (!FORWARDINGS.contains(forwarding)) {
                throw new IllegalArgumentException("forwarding must be one of " + FORWARDINGS + ", got \"" + forwarding
                        + "\"");
            }
            Parameters.inRange("mtuBytes", mtuBytes, SimulationConfig.MIN_MTU_BYTES, SimulationConfig.MAX_MTU_BYTES);
            Parameters.inRange("headerBytes", headerBytes, 0, SimulationConfig.MAX_HEADER_BYTES);
            Parameters.atLeast("flowletGapPs", flowletGapPs, 0L);
            if (uec != null && choice != TransportChoice.UEC) {
                throw new IllegalArgumentException("uec must be null unless choice is uec, got settings with choice "
                        + choice);
            }
        }

        /** Settings with the default flowlet gap ({@link Forwarding#DLB_INACTIVITY_INTERVAL_PS}), UEC (if chosen) with its defaults. */
        public Transport(TransportChoice choice, ReliableConnection connection, String forwarding, int ecmpSeed,
                Pfc pfc, int mtuBytes, int headerBytes) {
            this(choice, connection, forwarding, ecmpSeed, pfc, mtuBytes, headerBytes,
                    Forwarding.DLB_INACTIVITY_INTERVAL_PS, null);
        }

        /** Settings with the given flowlet gap, UEC (if chosen) with its defaults. */
        public Transport(TransportChoice choice, ReliableConnection connection, String forwarding, int ecmpSeed,
                Pfc pfc, int mtuBytes, int headerBytes, long flowletGapPs) {
            this(choice, connection, forwarding, ecmpSeed, pfc, mtuBytes, headerBytes, flowletGapPs, null);
        }

        /** Settings with the default flowlet gap and the given UEC settings. */
        public Transport(TransportChoice choice, ReliableConnection connection, String forwarding, int ecmpSeed,
                Pfc pfc, int mtuBytes, int headerBytes, UecTransport uec) {
            this(choice, connection, forwarding, ecmpSeed, pfc, mtuBytes, headerBytes,
                    Forwarding.DLB_INACTIVITY_INTERVAL_PS, uec);
        }

        /** The transport's model: {@link TransportChoice#model}, or for UEC these settings' {@link #uec}. */
        public TransportModel model() {
            if (choice == TransportChoice.UEC && uec != null) {
                return uec;
            }
            return choice.model(connection);
        }

        /**
         * {@code choice} as it runs unless told otherwise: the published reliable connection with an ACK per packet
         * (CTCC: per {@link ReliableConnection#defaults()}'s count), ECMP with seed 7, {@link #htsimPfc} when the
         * transport runs with PFC, 1000-byte payload and 64-byte header.
         */
        public static Transport defaults(TransportChoice choice) {
            Parameters.notNull("choice", choice);
            ReliableConnection rc = ReliableConnection.defaults();
            ReliableConnection connection = new ReliableConnection(rc.messageBytes(),
                    choice == TransportChoice.CTCC ? rc.ackEvery() : 1, rc.ackDelayPs(), rc.localAckTimeoutExponent(),
                    rc.retryCount());
            int mtu = 1000;
            int header = 64;
            return new Transport(choice, connection, "ecmp", 7, choice.pfcByDefault() ? htsimPfc(mtu + header) : null, mtu,
                    header);
        }

        /** PFC of the htsim comparison for packets of {@code wireBytes}: XOFF 15 packets, XON 12,000 B, 65,535 quanta. */
        public static Pfc htsimPfc(long wireBytes) {
            Parameters.inRange("wireBytes", wireBytes, 1L, Long.MAX_VALUE / 15);
            return new Pfc(15L * wireBytes, Math.min(12_000, 15L * wireBytes), 0, Pfc.MAX_QUANTA);
        }
    }

    /** Whether {@link #workload} is a standard flow-completion workload ({@link #STANDARD_WORKLOADS}). */
    public boolean standard() {
        return STANDARD_WORKLOADS.contains(workload);
    }

    /** The collective of an all-reduce {@link #workload}: ring or halving-doubling. */
    public Collective collective() {
        return workload.equals("ring-allreduce") ? Collective.RING_ALL_REDUCE : Collective.HALVING_DOUBLING_ALL_REDUCE;
    }

    /**
     * A standard workload's arrivals: flows between random host pairs with sizes from the distribution, Poisson at the
     * load of each host link over the window, and the incast bursts ({@link PoissonTraffic}).
     *
     * @throws IllegalArgumentException when the arrivals are out of {@link PoissonTraffic}'s range
     */
    public PoissonTraffic arrivals() {
        if (!standard()) {
            throw new IllegalStateException("workload " + workload + " is not a standard workload");
        }
        return new PoissonTraffic(traffic.distribution(), fabric.hosts(), fabric.rateBitsPerSecond(), traffic.load(),
                traffic.durationPs(), traffic.flowCount(), traffic.incast(), seed);
    }

    /** The scenario of these settings, a standard workload's flows drawn from {@link #arrivals()}. */
    public Scenario scenario() {
        return scenario(standard() ? arrivals().generate() : null);
    }

    /**
     * The scenario of these settings: the fabric and the workload's flows, the transport's model, PFC and forwarding;
     * named by what it runs.
     *
     * @param drawn a standard workload's flows drawn from {@link #arrivals()}; null for the other workloads
     */
    public Scenario scenario(GeneratedFlows drawn) {
        if (standard() != (drawn != null)) {
            throw new IllegalArgumentException(standard() ? "drawn must be the flows of the standard workload " + workload
                    + ", got null" : "drawn must be null for the workload " + workload + ", got flows");
        }
        int packetWire = transport.mtuBytes() + transport.headerBytes();
        long bdp = transport.choice() == TransportChoice.UEC ? uecBdpBytes(packetWire) : 1;
        SwitchBuffer buffer = transport.choice().buffer(fabric.bufferBytes(), bdp, packetWire);
        Forwarding f = switch (transport.forwarding()) {
            case "ecmp" -> Forwarding.ecmp(HashFunction.CRC32, transport.ecmpSeed());
            case "spray" -> Forwarding.sprayRoundRobin();
            case "adaptive" -> Forwarding.adaptivePerPacket();
            case "adaptive-flowlet" -> Forwarding.adaptivePerFlowlet(transport.flowletGapPs());
            default -> Forwarding.sprayRandom();
        };
        BufferPlan plan = fabric.bufferPlan().mapBuffers(b -> transport.choice().buffer(b.sharedBytes(), bdp, packetWire));
        SimulationConfig config = new SimulationConfig(transport.mtuBytes(), transport.headerBytes(), 1, buffer, f, seed,
                0, 0, plan);
        Scenario base;
        String what;
        if (workload.equals("incast")) {
            base = Scenario.incast(Incast.of(traffic.senders(), traffic.flowBytes(), fabric.rateBitsPerSecond()),
                    fabric.delayPs(), config);
            what = traffic.senders() + "-to-1 incast of " + traffic.flowBytes() + " B per sender";
        } else {
            LeafSpine leafSpine = leafSpine(fabric);
            String where = fabric.hosts() + " hosts (" + fabric.leaves() + " leaves x " + fabric.hostsPerLeaf() + ", "
                    + fabric.spines() + " spines, " + fabric.parallelLinks() + " links per leaf-spine pair)";
            if (standard()) {
                IncastMix incast = traffic.incast();
                base = Scenario.builder(leafSpine.build(), config).flows(drawn.flows()).build();
                what = String.format(Locale.ROOT, "%s flow sizes (%s) at load %s, %d Poisson flows%s, on %s", workload,
                        traffic.distribution(), traffic.load(), drawn.size() - drawn.incastFlows(),
                        incast.on() ? String.format(Locale.ROOT, " and %d incast flows (%d senders of %d B every %s us)",
                                drawn.incastFlows(), incast.senders(), incast.bytesPerSender(),
                                micros(incast.periodPs())) : "", where);
            } else if (workload.equals("permutation")) {
                base = Scenario.permutation(leafSpine, traffic.flowBytes(), seed, config);
                what = "permutation of " + traffic.flowBytes() + " B flows on " + where;
            } else {
                base = collectives(leafSpine, config);
                what = (workload.equals("ring-allreduce") ? "ring" : "halving-doubling") + " all-reduce of "
                        + traffic.flowBytes() + " B per rank in " + fabric.hosts() / traffic.ranks() + " groups of "
                        + traffic.ranks() + " ranks on " + where;
            }
        }
        TransportModel model = transport.model();
        Pfc pfc = transport.pfc();
        String name = String.format(Locale.ROOT, "%s, %s, %s, %s", what, transport.choice(),
                pfc == null ? "no PFC" : "PFC XOFF " + pfc.xoffBytes() + " B XON " + pfc.xonBytes() + " B",
                transport.forwarding());
        if (transport.forwarding().equals("adaptive-flowlet")) {
            name += " (flowlet gap " + micros(transport.flowletGapPs()) + " us)";
        }
        OutOfOrderPlacement ooo = transport.connection().outOfOrder();
        if (ooo != null && transport.choice().acknowledged()) {
            name += ", out-of-order placement (window " + ooo.windowPackets() + " packets, reorder timeout "
                    + micros(ooo.reorderTimeoutPs()) + " us)";
        }
        if (traffic.queuePairs() > 1) {
            name += ", " + traffic.queuePairs() + " queue pairs per flow";
        }
        if (!plan.isEmpty()) {
            name += ", " + describe(plan);
        }
        return base.toBuilder().transport(model).pfc(pfc).name(name).queuePairs(traffic.queuePairs()).build();
    }

    /**
     * The BDP of this fabric for UEC's ECN marking, bytes: the line rate times the base RTT by the reference's rule
     * ({@link UecTransport#fabricBaseRttPs}) from host 0 (every fabric these settings build is symmetric).
     */
    private long uecBdpBytes(int packetWireBytes) {
        UecTransport u = transport.uec() != null ? transport.uec() : UecTransport.defaults();
        long rtt = u.baseRttPs() > 0 ? u.baseRttPs()
                : UecTransport.fabricBaseRttPs(topology(), new int[] {0}, packetWireBytes, u.controlBytes());
        return Math.max(1, Math.round(fabric.rateBitsPerSecond() / 8.0 * rtt / 1e12));
    }

    /**
     * The topology of these settings: the incast's single switch of {@code traffic.senders() + 1} hosts, or the
     * leaf-spine.
     */
    public Topology topology() {
        return topology(workload, fabric, traffic.senders());
    }

    /** The topology of {@code workload} on {@code fabric} ({@code senders}: the incast's senders). */
    public static Topology topology(String workload, Fabric fabric, int senders) {
        Parameters.notNull("workload", workload);
        Parameters.notNull("fabric", fabric);
        if (workload.equals("incast")) {
            return Incast.of(senders, 1, fabric.rateBitsPerSecond()).topology(fabric.delayPs());
        }
        return leafSpine(fabric).build();
    }

    private static LeafSpine leafSpine(Fabric fabric) {
        return new LeafSpine(fabric.hosts(), 1, fabric.leaves(), fabric.spines(), fabric.rateBitsPerSecond(),
                fabric.rateBitsPerSecond(), fabric.parallelLinks(), fabric.delayPs(), fabric.delayPs());
    }

    /** {@code plan} in words: the switch buffers, then the queue limits. */
    private static String describe(BufferPlan plan) {
        List<String> parts = new java.util.ArrayList<>();
        plan.tiers().forEach(t -> parts.add(t.tier().name().toLowerCase(Locale.ROOT) + " buffer " + t.buffer().sharedBytes()
                + " B"));
        plan.switches().forEach(s -> parts.add(s.name() + " buffer " + s.buffer().sharedBytes() + " B"));
        plan.tierPorts().forEach(t -> parts.add(t.tier().name().toLowerCase(Locale.ROOT) + " "
                + t.facing().name().toLowerCase(Locale.ROOT) + "link queues " + t.queueLimitBytes() + " B"));
        plan.ports().forEach(p -> parts.add(p.name() + " port " + p.port() + " queues " + p.queueLimitBytes() + " B"));
        return String.join(", ", parts);
    }

    /** Picoseconds as microseconds, the fewest decimals that are exact. */
    private static String micros(long ps) {
        return java.math.BigDecimal.valueOf(ps, 6).stripTrailingZeros().toPlainString();
    }

    /**
     * The collective of {@link #workload} in each of the {@code hosts / ranks} groups at once: rank r of group g on
     * host {@code r * groups + g}; each transfer of {@link CollectiveSchedule} a flow (source port drawn from
     * {@link #seed}) that starts when the transfers it waits for have arrived.
     */
    private Scenario collectives(LeafSpine leafSpine, SimulationConfig config) {
        int ranks = traffic.ranks();
        CollectiveSchedule schedule = CollectiveSchedule.of(collective(), ranks, traffic.flowBytes());
        int groups = fabric.hosts() / ranks;
        java.util.SplittableRandom ports = new java.util.SplittableRandom(seed);
        Scenario.Builder b = Scenario.builder(leafSpine.build(), config);
        for (int g = 0; g < groups; g++) {
            int[] hostOfRank = new int[ranks];
            for (int r = 0; r < ranks; r++) {
                hostOfRank[r] = r * groups + g;
            }
            b.collective(schedule, hostOfRank, () -> 49152 + ports.nextInt(16384));
        }
        return b.build();
    }
}
