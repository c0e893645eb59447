package fabriclab.experiments;

import fabriclab.simulation.Simulator;
import fabriclab.Parameters;
import fabriclab.collectives.Collective;
import fabriclab.collectives.CollectiveSchedule;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.experiments.testbed.Duan2024Testbed.Marking;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.fabric.EcnMarking;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.PfcDynamicThreshold;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.progress.Progress;
import fabriclab.scenarios.TransportChoice;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.trace.QueueingObserver;
import fabriclab.simulation.transport.OutOfOrderPlacement;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.uec.UecTransport;
import fabriclab.simulation.transport.gse.GseTransport;
import fabriclab.simulation.transport.roce.RoceTransport;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.config.SwitchBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The one packet-level run behind every JCT experiment: concurrent jobs on a leaf-spine, RoCE or GSE,
 * measured as {@link JobMetrics}.
 *
 * <p>Switches and NICs (000's testbed, also used for 002's): 4096-byte packets without header overhead, 32 MB
 * shared buffer per switch, ECMP on the 5-tuple (CRC-32, per-switch seeds from one seed drawn after the
 * jobs' source ports). RoCE: go-back-N with DCQCN ({@link FabricSettings#dcqcn()}) and its WRED marking, PFC on
 * every switch; GSE: {@link GseTransport#defaults()}, no ECN, no fabric PFC. Horizon 10 s of simulated time.
 */
final class JobSimulation {
    /** Shared buffer per switch [bytes]. */
    static final long BUFFER_BYTES = 32_000_000;
    /** Simulated horizon [ps]. */
    static final long HORIZON_PS = 10 * Time.S;
    /** Lowest ephemeral UDP source port; ports are drawn in [49152, 65536). */
    private static final int FIRST_EPHEMERAL_PORT = 49152;
    private static final int EPHEMERAL_PORTS = 16384;

    private JobSimulation() {
    }

    /**
     * How the fabric runs.
     *
     * @param fabric RoCE or GSE, not null
     * @param dcqcn DCQCN and its WRED marking (RoCE only), or null for RoCE without congestion control (no marking, PFC alone)
     * @param pfc PFC thresholds (RoCE; GSE too when {@code gseFabricPfc}), not null
     * @param pfcDynamicThreshold the dynamic PFC threshold replacing XOFF/XON, or null for the static one
     * @param gseFabricPfc GSE only: PFC on the fabric's ports as a lossless backstop under the grants (a switch queue that
     *        reaches XOFF pauses its upstream instead of dropping), for a core with less capacity than the grants
     *        admit, such as a leaf-spine with links down and no spare uplinks
     * @param marking the switches' ECN marking per port speed ({@link Marking}) in place of {@code dcqcn.marking()}, or
     *        null for {@code dcqcn.marking()} at every port
     * @param clampTargetRate whether every DCQCN cut sets the target rate to the current rate (true, Zhu et al.'s
     *        reaction point) or only a cut after a rate increase ({@link RoceTransport#clampTargetRate()})
     * @param transport RoCE only: another congestion control in place of DCQCN ({@link TransportChoice#HPCC},
     *        {@code DCTCP}, {@code TIMELY}, {@code SWIFT}: its model with an ACK per packet, its switch marking from
     *        {@link TransportChoice#buffer}, PFC when {@link TransportChoice#pfcByDefault}), or null for DCQCN as
     *        {@code dcqcn} says; or {@link TransportChoice#UEC} ({@link UecTransport#defaults()} or {@code uec}, its
     *        switches trimming and marking as {@link UecTransport#switchBuffer} says for the fabric's BDP, no PFC)
     * @param routing how the switches choose among equal-cost egresses (not GSE, whose edges spray): null for ECMP on the
     *        5-tuple; {@link Forwarding.Mode#ADAPTIVE_PACKET} or {@link Forwarding.Mode#ADAPTIVE_FLOWLET} (flowlet gap
     *        {@link Forwarding#DLB_INACTIVITY_INTERVAL_PS}) for switch adaptive routing, the RoCE NICs then placing
     *        packets out of order ({@link OutOfOrderPlacement#defaults()})
     * @param uec the UEC transport's settings when {@code transport} is {@link TransportChoice#UEC}, null for its defaults
     */
    record FabricSettings(RoceOrGse fabric, DcqcnParameters dcqcn, Pfc pfc, PfcDynamicThreshold pfcDynamicThreshold,
            boolean gseFabricPfc, Marking marking, boolean clampTargetRate, TransportChoice transport, Forwarding.Mode routing,
            UecTransport uec) {
        FabricSettings {
            Parameters.notNull("fabric", fabric);
            Parameters.notNull("pfc", pfc);
            if (transport != null && (fabric != RoceOrGse.ROCE || !transport.forwardedBySwitches()
                    || !(transport.acknowledged() || transport == TransportChoice.UEC) || transport == TransportChoice.CTCC)) {
                throw new IllegalArgumentException("transport must be null or one of hpcc, dctcp, timely, swift, dcqcn, roce, uec"
                        + " on RoCE, got " + transport + " on " + fabric);
            }
            if (routing != null && (fabric != RoceOrGse.ROCE || !(routing == Forwarding.Mode.ECMP || routing.adaptive()))) {
                throw new IllegalArgumentException("routing must be null, ECMP or adaptive on RoCE, got " + routing + " on " + fabric);
            }
            if (uec != null && transport != TransportChoice.UEC) {
                throw new IllegalArgumentException("uec must be null unless transport is uec, got " + transport);
            }
        }

        /** DCQCN as {@code dcqcn} says (no other transport). */
        FabricSettings(RoceOrGse fabric, DcqcnParameters dcqcn, Pfc pfc, PfcDynamicThreshold pfcDynamicThreshold,
                boolean gseFabricPfc, Marking marking, boolean clampTargetRate) {
            this(fabric, dcqcn, pfc, pfcDynamicThreshold, gseFabricPfc, marking, clampTargetRate, null, null, null);
        }

        /** A copy running {@code choice} in place of DCQCN (RoCE). */
        FabricSettings withTransport(TransportChoice choice) {
            return new FabricSettings(fabric, dcqcn, pfc, pfcDynamicThreshold, gseFabricPfc, marking, clampTargetRate, choice,
                    routing, null);
        }

        /** A copy running UEC with {@code settings} in place of DCQCN (RoCE fabric: switches forwarding the transport). */
        FabricSettings withUec(UecTransport settings) {
            return new FabricSettings(fabric, dcqcn, pfc, pfcDynamicThreshold, gseFabricPfc, marking, clampTargetRate,
                    TransportChoice.UEC, routing, Parameters.notNull("settings", settings));
        }

        /** A copy whose switches choose egresses by {@code mode} (RoCE). */
        FabricSettings withRouting(Forwarding.Mode mode) {
            return new FabricSettings(fabric, dcqcn, pfc, pfcDynamicThreshold, gseFabricPfc, marking, clampTargetRate, transport,
                    Parameters.notNull("mode", mode), uec);
        }

        /** A copy with GSE's PFC backstop on the fabric's ports on or off (GSE). */
        FabricSettings withGseFabricPfc(boolean on) {
            return new FabricSettings(fabric, dcqcn, pfc, pfcDynamicThreshold, on, marking, clampTargetRate, transport, routing,
                    uec);
        }

        /** Marking {@code dcqcn.marking()} at every port, every cut setting the target rate. */
        FabricSettings(RoceOrGse fabric, DcqcnParameters dcqcn, Pfc pfc, PfcDynamicThreshold pfcDynamicThreshold,
                boolean gseFabricPfc) {
            this(fabric, dcqcn, pfc, pfcDynamicThreshold, gseFabricPfc, null, true);
        }

        /** Without the GSE backstop. */
        FabricSettings(RoceOrGse fabric, DcqcnParameters dcqcn, Pfc pfc, PfcDynamicThreshold pfcDynamicThreshold) {
            this(fabric, dcqcn, pfc, pfcDynamicThreshold, false);
        }

        /** The first reading of 000: Zhu et al.'s DCQCN, static XOFF 1 MB, XON 0.9 MB, headroom 100 KB. */
        static FabricSettings firstReading(RoceOrGse fabric) {
            return new FabricSettings(fabric, DcqcnParameters.zhu2015(), new Pfc(1_000_000, 900_000, 100_000, Pfc.MAX_QUANTA),
                    null);
        }
    }

    /**
     * The jobs' flows, added in two steps so that their source ports are drawn before the ECMP seed:
     * {@link #drawPorts} draws from the run's random stream, the step it returns adds the flows.
     */
    @FunctionalInterface
    interface JobFlows {
        /** Draws the flows' source ports from {@code rnd}; returns what adds the flows to a scenario. */
        Placement drawPorts(SplittableRandom rnd);
    }

    /** Adds drawn flows to a scenario. */
    @FunctionalInterface
    interface Placement {
        /** Adds the flows and their dependencies; returns the group of each flow, indexed by flow id. */
        int[] addTo(Scenario.Builder scenario);
    }

    /** A random ephemeral UDP source port. */
    static int sourcePort(SplittableRandom rnd) {
        return FIRST_EPHEMERAL_PORT + rnd.nextInt(EPHEMERAL_PORTS);
    }

    /**
     * Every group runs {@code collective} over its hosts (rank r = {@code groups[g][r]}), all from time 0, each
     * transfer one queue pair with its own source port (drawn in group, transfer order).
     */
    static JobFlows collectives(int[][] groups, Collective collective, long bufferBytes) {
        return rnd -> {
            CollectiveSchedule[] schedules = new CollectiveSchedule[groups.length];
            int transfers = 0;
            for (int g = 0; g < groups.length; g++) {
                schedules[g] = CollectiveSchedule.of(collective, groups[g].length, bufferBytes);
                transfers += schedules[g].transfers().size();
            }
            int[] ports = new int[transfers];
            for (int i = 0; i < transfers; i++) {
                ports[i] = sourcePort(rnd);
            }
            int flows = transfers;
            return scenario -> {
                int[] groupOf = new int[flows];
                int[] next = {0};
                for (int g = 0; g < groups.length; g++) {
                    int first = scenario.collective(schedules[g], groups[g], () -> ports[next[0]++]);
                    Arrays.fill(groupOf, first, first + schedules[g].transfers().size(), g);
                }
                return groupOf;
            };
        };
    }

    /**
     * Simulates {@code jobs} on {@code leafSpine} as {@code settings} say, seeded by {@code seed} (source ports,
     * then the ECMP seed, and the WRED draws).
     *
     * @param leafSpine the fabric
     * @param settings RoCE or GSE and their parameters
     * @param seed the run's seed
     * @param jobs the flows
     * @param groups number of groups the flows belong to
     * @param deadLinks links left out of the uplink balance (indices into {@code leafSpine.build().links()})
     * @param setup adds failures or other settings to the scenario before it runs
     */
    static JobMetrics run(LeafSpine leafSpine, FabricSettings settings, long seed, JobFlows jobs, int groups, int[] deadLinks,
            Consumer<Scenario.Builder> setup) {
        Run run = simulate(leafSpine, settings, seed, jobs, setup, null);
        return JobMetrics.of(run.result(), leafSpine, run.topology(), run.groupOf(), groups, deadLinks);
    }

    /**
     * A simulated run: its result, the topology it ran on and the group of each flow.
     *
     * @param result the simulator's result
     * @param topology the fabric built
     * @param groupOf the group of each flow, by flow id
     */
    record Run(SimulationResult result, Topology topology, int[] groupOf) {
    }

    /**
     * The one set-up behind {@link #run}: the flows on {@code leafSpine}, the transport, PFC, buffers and forwarding as
     * {@code settings} say, {@code setup} applied, simulated to {@link #HORIZON_PS}; {@code observer} (may be null) sees
     * every packet leave a switch egress queue.
     */
    static Run simulate(LeafSpine leafSpine, FabricSettings settings, long seed, JobFlows jobs, Consumer<Scenario.Builder> setup,
            QueueingObserver observer) {
        SplittableRandom rnd = new SplittableRandom(seed);
        Placement placement = jobs.drawPorts(rnd);
        boolean roce = settings.fabric() == RoceOrGse.ROCE;
        EcnMarking wred = roce && settings.dcqcn() != null ? settings.dcqcn().marking() : EcnMarking.OFF;
        SwitchBuffer buffer = new SwitchBuffer(BUFFER_BYTES, BUFFER_BYTES, wred);
        if (roce && settings.dcqcn() != null && settings.marking() != null) {
            buffer = markingBuffer(settings.marking(), leafSpine);
        }
        Topology topology = leafSpine.build();
        TransportChoice other = settings.transport();
        UecTransport uec = other == TransportChoice.UEC ? (settings.uec() != null ? settings.uec() : UecTransport.defaults()) : null;
        if (uec != null) {
            buffer = UecTransport.switchBuffer(BUFFER_BYTES, uecBdpBytes(uec, topology, leafSpine), PACKET_BYTES);
        } else if (other != null) {
            buffer = other.buffer(BUFFER_BYTES);
        }
        int ecmpSeed = rnd.nextInt();
        Forwarding.Mode routing = settings.routing() == null ? Forwarding.Mode.ECMP : settings.routing();
        Forwarding forwarding = switch (routing) {
            case ADAPTIVE_PACKET -> Forwarding.adaptivePerPacket();
            case ADAPTIVE_FLOWLET -> Forwarding.adaptivePerFlowlet(Forwarding.DLB_INACTIVITY_INTERVAL_PS);
            default -> Forwarding.ecmp(HashFunction.CRC32, ecmpSeed);
        };
        SimulationConfig c = new SimulationConfig(PACKET_BYTES, 0, 1, buffer, forwarding, seed, 0, 0);
        Scenario.Builder scenario = Scenario.builder(topology, c);
        int[] groupOf = placement.addTo(scenario);
        ReliableConnection connection = routing.adaptive()
                ? ReliableConnection.defaults().withOutOfOrder(OutOfOrderPlacement.defaults()) : ReliableConnection.defaults();
        if (uec != null) {
            scenario.transport(uec);
        } else if (roce && other != null) {
            scenario.transport(other.model(connection.withAckEvery(1)));
            if (other.pfcByDefault()) {
                scenario.pfc(settings.pfc()).pfcDynamicThreshold(settings.pfcDynamicThreshold());
            }
        } else if (roce) {
            RoceTransport model = settings.dcqcn() == null ? RoceTransport.noCongestionControl()
                    : RoceTransport.dcqcn(settings.dcqcn()).withClampTargetRate(settings.clampTargetRate());
            scenario.transport(routing.adaptive() ? model.withReliableConnection(connection) : model)
                    .pfc(settings.pfc())
                    .pfcDynamicThreshold(settings.pfcDynamicThreshold());
        } else {
            scenario.transport(GseTransport.defaults());
            if (settings.gseFabricPfc()) {
                scenario.pfc(settings.pfc()).pfcDynamicThreshold(settings.pfcDynamicThreshold());
            }
        }
        setup.accept(scenario);
        Simulator sim = observer == null ? new Simulator(scenario.build()) : new Simulator(scenario.build(), observer);
        SimulationResult r = sim.run(HORIZON_PS, Progress.silent());
        return new Run(r, topology, groupOf);
    }

    /** Packet size of every run [bytes], without header overhead. */
    static final int PACKET_BYTES = 4096;

    /**
     * UEC's BDP on {@code leafSpine}, bytes: the host line rate times the base RTT by the reference simulator's rule
     * ({@link UecTransport#fabricBaseRttPs} from every host) unless {@code uec} gives one.
     */
    static long uecBdpBytes(UecTransport uec, Topology topology, LeafSpine leafSpine) {
        int[] hosts = java.util.stream.IntStream.range(0, topology.hosts()).toArray();
        long rtt = uec.baseRttPs() > 0 ? uec.baseRttPs()
                : UecTransport.fabricBaseRttPs(topology, hosts, PACKET_BYTES, uec.controlBytes());
        return Math.max(1, Math.round(leafSpine.hostRateBitsPerSecond() / 8.0 * rtt / 1e12));
    }

    /**
     * The shared buffer of every switch marking as {@code marking} says at each port of {@code leafSpine}: a profile
     * that scales linearly with the port rate as the simulator's scaled thresholds
     * ({@link SwitchBuffer#withEcnScaledFromRate}), any other with the curve of the fabric's one port rate.
     *
     * @throws IllegalArgumentException if the profile is not linear in the rate and the fabric's links run at more than
     *         one rate (the simulator holds one curve per switch, scaled or not)
     */
    static SwitchBuffer markingBuffer(Marking marking, LeafSpine leafSpine) {
        Parameters.notNull("marking", marking);
        Parameters.notNull("leafSpine", leafSpine);
        if (marking.scaledFromBitsPerSecond() != 0) {
            return new SwitchBuffer(BUFFER_BYTES, BUFFER_BYTES, marking.at(marking.scaledFromBitsPerSecond()))
                    .withEcnScaledFromRate(marking.scaledFromBitsPerSecond());
        }
        long host = leafSpine.hostRateBitsPerSecond();
        long fabric = leafSpine.uplinkRateBitsPerSecond();
        if (host != fabric && !marking.at(host).equals(marking.at(fabric))) {
            throw new IllegalArgumentException("marking " + marking + " gives different curves at " + host + " and " + fabric
                    + " bit/s and does not scale linearly; the leafSpine must run every link at one rate for it, got "
                    + host + " and " + fabric + " bit/s");
        }
        return new SwitchBuffer(BUFFER_BYTES, BUFFER_BYTES, marking.at(host));
    }

    /** A setup that takes {@code links} down from time 0 (routes already avoiding them). */
    static Consumer<Scenario.Builder> linksDownFromStart(int[] links) {
        return scenario -> {
            for (int link : links) {
                scenario.failLink(link, 0, 0);
            }
        };
    }
}
