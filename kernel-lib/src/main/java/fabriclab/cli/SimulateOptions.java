package fabriclab.cli;

import fabriclab.collectives.Collective;
import fabriclab.collectives.CollectiveSchedule;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Time;
import fabriclab.fabric.Topology;
import fabriclab.scenarios.ScenarioSettings;
import fabriclab.scenarios.TransportChoice;
import fabriclab.simulation.config.BufferPlan;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.OutOfOrderPlacement;
import fabriclab.simulation.transport.ReliableConnection;
import fabriclab.simulation.transport.uec.UecTransport;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import fabriclab.simulation.TieOrder;
import java.util.List;
import java.util.Locale;

/**
 * The options of {@link SimulateCommand}: one packet-level run described on a command line, validated, and read
 * once into a {@link SimulateRun} (the scenario's {@link ScenarioSettings}, the engine, the outputs). The defaults are the RoCE+PFC scenario of the comparison with
 * htsim (README, Benchmarks): a leaf-spine of {@code hosts / 16} leaves of 16 hosts and 8 spines, 2
 * parallel 100G links per leaf-spine pair, 1 us per link, 1000 B payload + 64 B header per packet, a
 * permutation of 2 MB flows (seed 5), RoCE go-back-N with an ACK per packet and no congestion control,
 * PFC with XOFF 15 packets (15,960 B) and XON 12,000 B, per-flow ECMP (CRC-32, seed 7), a 16 MB shared
 * buffer per switch.
 *
 * <p>Each option is declared once below, as an {@link Option}: its name, the kind and range of its value, its
 * default, the workloads or transports it applies to, its checks against the other options and its help text.
 * Parsing ({@link #parse}), validation, the usage text ({@link #usage}) and the command line of a re-started JVM
 * ({@link SimulateRun#args}) are derived from those declarations. Numbers are
 * written in the command's own grammar ({@link Quantity}, not Java's: no {@code 1d}, {@code 100f}, hexadecimal,
 * {@code NaN}): sizes in B, KB, MB, GB, TB (powers of 10, as the papers write them) or KiB, MiB, GiB, TiB; rates in
 * bit/s with K, M, G or T; times in ps, ns, us, ms or s; a plain number is bytes, bit/s or picoseconds.
 */
public final class SimulateOptions {
    /** The standard flow-completion workloads: Poisson arrivals of flows with sizes from a distribution. */
    static final List<String> STANDARD_WORKLOADS = ScenarioSettings.STANDARD_WORKLOADS;
    /** The workloads of fixed flows: each sender's bytes given by {@code --flow-bytes}. */
    private static final List<String> FIXED_WORKLOADS = List.of("permutation", "incast", "ring-allreduce", "hd-allreduce");
    /** The workloads on a leaf-spine: all but the incast, which is one switch. */
    private static final List<String> LEAF_SPINE_WORKLOADS = List.of("permutation", "ring-allreduce", "hd-allreduce",
            "websearch", "fb-hadoop", "cdf");
    private static final List<String> ALL_REDUCES = List.of("ring-allreduce", "hd-allreduce");
    /** The transports whose receivers acknowledge data. */
    private static final List<TransportChoice> ACKED_TRANSPORTS = TransportChoice.where(TransportChoice::acknowledged);
    /** The transports whose packets the switches forward by {@code --forwarding} (traffic within a leaf has one path). */
    private static final List<TransportChoice> FORWARDED_TRANSPORTS =
            TransportChoice.where(TransportChoice::forwardedBySwitches);
    /** The transports that run without PFC unless {@code --pfc} gives thresholds. */
    private static final List<TransportChoice> PFC_OFF_TRANSPORTS = TransportChoice.where(t -> !t.pfcByDefault());
    /** The reliable connection's published settings: the defaults of the options that set it. */
    private static final ReliableConnection RC = ReliableConnection.defaults();
    /** The out-of-order receiver's settings: the defaults of the options that set it. */
    private static final OutOfOrderPlacement OOO = OutOfOrderPlacement.defaults();
    /** The forwarding policies of adaptive routing, whose receivers place out of order unless told otherwise. */
    private static final List<String> ADAPTIVE_FORWARDINGS = List.of("adaptive", "adaptive-flowlet");

    static final Option<String> WORKLOAD = Option.of("--workload",
            Option.choice(ScenarioSettings.WORKLOADS))
            .byDefault("permutation")
            .help("permutation: every host sends one flow to a distinct other host (a random derangement); incast:"
                    + " --senders hosts to one receiver through one switch; ring-allreduce, hd-allreduce: a ring or"
                    + " halving-doubling all-reduce in every group of --ranks hosts at once, each step a flow that starts"
                    + " when the data it waits for has arrived (the makespan is the job's completion time); websearch,"
                    + " fb-hadoop, cdf: the standard flow-completion workload, flows between random host pairs with Poisson"
                    + " arrivals at --load, sizes from the web-search (DCTCP, SIGCOMM 2010) or Facebook Hadoop (Roy et al.,"
                    + " SIGCOMM 2015) distribution as HPCC's simulator distributes them (datasets/published/), or from --cdf;"
                    + " prints the FCT slowdown by flow size");
    static final Option<Long> HOSTS = Option.of("--hosts", Option.number(Quantity.INTEGER, "N", 2, 1 << 20))
            .byDefault("128").onlyWith(WORKLOAD, LEAF_SPINE_WORKLOADS)
            .check((v, hosts) -> hosts % v.get(SimulateOptions.HOSTS_PER_LEAF) == 0 ? null
                    : "must be a multiple of --hosts-per-leaf = " + v.get(SimulateOptions.HOSTS_PER_LEAF))
            .help("hosts of the leaf-spine, a multiple of --hosts-per-leaf");
    static final Option<Long> HOSTS_PER_LEAF = Option.of("--hosts-per-leaf", Option.number(Quantity.INTEGER, "N", 1, 4096))
            .byDefault("16").onlyWith(WORKLOAD, LEAF_SPINE_WORKLOADS)
            .help("hosts attached to each leaf");
    static final Option<Long> SPINES = Option.of("--spines", Option.number(Quantity.INTEGER, "N", 1, 4096))
            .byDefault("8").onlyWith(WORKLOAD, LEAF_SPINE_WORKLOADS)
            .help("spine switches");
    static final Option<Long> PARALLEL_LINKS = Option.of("--parallel-links", Option.number(Quantity.INTEGER, "N", 1, 64))
            .byDefault("2").onlyWith(WORKLOAD, LEAF_SPINE_WORKLOADS)
            .help("links between each leaf and each spine");
    static final Option<Long> RATE = Option.of("--rate",
            Option.number(Quantity.RATE, "R", 1_000_000L, 10_000_000_000_000L))
            .byDefault("100G")
            .help("rate of every link, bit/s: 25G, 100G, 400G");
    static final Option<Long> DELAY = Option.of("--delay", Option.number(Quantity.TIME, "T", 1, 1_000_000_000_000L))
            .byDefault("1us")
            .help("propagation delay of every link: 500ns, 1us");
    static final Option<Long> FLOW_BYTES = Option.of("--flow-bytes",
            Option.number(Quantity.BYTES, "S", 1, 1_000_000_000_000L))
            .byDefault("2MB").byDefault(WORKLOAD, List.of("incast"), "4MB").onlyWith(WORKLOAD, FIXED_WORKLOADS)
            .check((v, bytes) -> ALL_REDUCES.contains(v.get(WORKLOAD)) && bytes < v.get(SimulateOptions.RANKS)
                    ? "must be at least --ranks = " + v.get(SimulateOptions.RANKS) + " for an all-reduce (a chunk per rank)"
                    : null)
            .help("payload of each flow (permutation), of each sender (incast) or of each rank (the all-reduce's"
                    + " buffer, at least --ranks bytes)");
    static final Option<Long> SENDERS = Option.of("--senders", Option.number(Quantity.INTEGER, "N", 1, 65_536))
            .byDefault("64").onlyWith(WORKLOAD, List.of("incast"))
            .help("incast senders");
    static final Option<Long> RANKS = Option.of("--ranks", Option.number(Quantity.INTEGER, "N", 2, 1 << 20))
            .byDefault("16").onlyWith(WORKLOAD, ALL_REDUCES)
            .check((v, ranks) -> v.get(HOSTS) % ranks == 0 ? null
                    : "must divide --hosts = " + v.get(HOSTS) + " (one group per " + ranks + " hosts)")
            .check((v, ranks) -> v.get(WORKLOAD).equals("hd-allreduce") && Long.bitCount(ranks) != 1
                    ? "must be a power of two for hd-allreduce" : null)
            .check((v, ranks) -> SimulateOptions.tooManyTransfers(v, ranks))
            .help("ranks of each all-reduce group: --hosts / N groups at once, rank r of group g on host r * groups + g,"
                    + " so each group spreads over the leaves");
    static final Option<Long> QPS = Option.of("--qps", Option.number(Quantity.INTEGER, "N", 1, FlowSpec.MAX_QUEUE_PAIRS))
            .byDefault("1").onlyWith(WORKLOAD, FIXED_WORKLOADS)
            .check((v, qps) -> qps > SimulateOptions.smallestFlowBytes(v)
                    ? "must be at most the payload of the smallest flow, " + SimulateOptions.smallestFlowText(v)
                            + " (each queue pair carries at least one byte)"
                    : null)
            .help("queue pairs of every flow: its bytes split evenly over N connections (the first bytes mod N carry a"
                    + " byte more), queue pair q from UDP source port (the flow's + q) mod 65536, all started together,"
                    + " served round robin a packet at a time by the sending NIC; a flow is complete when all are");
    static final Option<String> CDF = Option.of("--cdf", Option.text("FILE"))
            .onlyWith(WORKLOAD, List.of("cdf"))
            .check((v, file) -> SimulateOptions.unreadableCdf(file))
            .help("the flow-size distribution, in the layout of HPCC's traffic_gen files: one point per line, size in bytes"
                    + " and cumulative percent of flows (the last 100), linear between points");
    static final Option<Double> LOAD = Option.of("--load", Option.fraction("L", 0, 1))
            .byDefault("0.3").onlyWith(WORKLOAD, STANDARD_WORKLOADS)
            .help("offered load of each host link: each host starts flows at load x --rate / (8 x mean flow size) per second");
    static final Option<Long> FLOW_COUNT = Option.of("--flow-count",
            Option.number(Quantity.INTEGER, "N", 1, fabriclab.workload.PoissonTraffic.MAX_FLOWS))
            .onlyWith(WORKLOAD, STANDARD_WORKLOADS)
            .help("stop the arrivals after N flows (the window then ends at the last one's start)");
    static final Option<Long> DURATION = Option.of("--duration",
            Option.number(Quantity.TIME, "T", 1, fabriclab.workload.PoissonTraffic.MAX_DURATION_PS))
            .onlyWith(WORKLOAD, STANDARD_WORKLOADS)
            .check((v, t) -> SimulateOptions.tooManyArrivals(v))
            .help("window of the arrivals: 2ms (default 1ms, or 100s with --flow-count); at most about "
                    + (long) (fabriclab.workload.PoissonTraffic.MAX_FLOWS * 0.9) + " flows expected");
    static final Option<Long> INCAST_SENDERS = Option.of("--incast-senders",
            Option.number(Quantity.INTEGER, "N", 0, 65_535))
            .byDefault("0").onlyWith(WORKLOAD, STANDARD_WORKLOADS)
            .check((v, n) -> n > v.get(HOSTS) - 1 ? "must be at most --hosts - 1 = " + (v.get(HOSTS) - 1) : null)
            .help("incast mixed in: every --incast-period, N random hosts each send --incast-bytes to one random other"
                    + " host (0: none)");
    static final Option<Long> INCAST_BYTES = Option.of("--incast-bytes",
            Option.number(Quantity.BYTES, "S", 1, fabriclab.workload.IncastMix.MAX_BYTES_PER_SENDER))
            .byDefault("64KB").onlyWith(WORKLOAD, STANDARD_WORKLOADS)
            .help("payload of each incast sender's flow");
    static final Option<Long> INCAST_PERIOD = Option.of("--incast-period",
            Option.number(Quantity.TIME, "T", fabriclab.workload.IncastMix.MIN_PERIOD_PS,
                    fabriclab.workload.PoissonTraffic.MAX_DURATION_PS))
            .byDefault("100us").onlyWith(WORKLOAD, STANDARD_WORKLOADS)
            .check((v, period) -> SimulateOptions.tooManyIncastFlows(v))
            .help("time between incast bursts, the first at T");
    static final Option<Long> SEED = Option.of("--seed",
            Option.number(Quantity.INTEGER, "N", Long.MIN_VALUE, Long.MAX_VALUE))
            .byDefault("5")
            .help("seed of the permutation, of the flows' source ports and of the run's random draws (spraying at"
                    + " random, ECN marking)");
    static final Option<TransportChoice> TRANSPORT = Option.of("--transport",
            Option.choice(List.of(TransportChoice.values()), TransportChoice::optionName))
            .byDefaultValue(TransportChoice.ROCE)
            .help(String.join("; ", java.util.Arrays.stream(TransportChoice.values())
                    .map(t -> t.optionName() + ": " + t.description()).toList())
                    + "; " + String.join(" and ", PFC_OFF_TRANSPORTS.stream().map(TransportChoice::optionName).toList())
                    + " run without PFC unless --pfc gives thresholds");
    static final Option<Long> ACK_EVERY = Option.of("--ack-every",
            Option.number(Quantity.INTEGER, "N", ReliableConnection.MIN_ACK_EVERY, 65_536))
            .byDefault("1").byDefault(TRANSPORT, List.of(TransportChoice.CTCC), Long.toString(RC.ackEvery()))
            .onlyWith(TRANSPORT, ACKED_TRANSPORTS)
            .help("an ACK per N data packets");
    static final Option<Long> ACK_TIMEOUT_EXPONENT = Option.of("--ack-timeout-exponent",
            Option.number(Quantity.INTEGER, "T", ReliableConnection.MIN_LOCAL_ACK_TIMEOUT_EXPONENT,
                    ReliableConnection.MAX_LOCAL_ACK_TIMEOUT_EXPONENT))
            .byDefaultValue((long) RC.localAckTimeoutExponent()).onlyWith(TRANSPORT, ACKED_TRANSPORTS)
            .help(String.format(Locale.ROOT, "local ACK timeout 4.096 us x 2^T (%d: %.2f s, the default of"
                    + " HCCL_RDMA_TIMEOUT and NCCL_IB_TIMEOUT; 8: %.2f ms)", RC.localAckTimeoutExponent(),
                    RC.localAckTimeoutPs() / 1e12, RC.withLocalAckTimeoutExponent(8).localAckTimeoutPs() / 1e9));
    static final Option<Long> RETRY_COUNT = Option.of("--retry-count",
            Option.number(Quantity.INTEGER, "N", 0, ReliableConnection.MAX_RETRY_COUNT))
            .byDefaultValue((long) RC.retryCount()).onlyWith(TRANSPORT, ACKED_TRANSPORTS)
            .help("retries after a timeout before a queue pair fails (" + RC.retryCount() + ": HCCL's and NCCL's default)");
    static final Option<Long> MESSAGE_BYTES = Option.of("--message-bytes",
            Option.number(Quantity.BYTES, "S", ReliableConnection.MIN_MESSAGE_BYTES, 1L << 40))
            .byDefaultValue(RC.messageBytes()).onlyWith(TRANSPORT, ACKED_TRANSPORTS)
            .help("bytes per message (RDMA write); its last packet asks for an ACK (" + Quantity.BYTES.show(RC.messageBytes())
                    + ": NCCL's write per step)");
    static final Option<Long> ACK_DELAY = Option.of("--ack-delay",
            Option.number(Quantity.TIME, "T", ReliableConnection.MIN_ACK_DELAY_PS, Time.S))
            .byDefaultValue(RC.ackDelayPs()).onlyWith(TRANSPORT, ACKED_TRANSPORTS)
            .help("the receiver acknowledges a packet at most this long after it arrived (ACK coalescing), at most "
                    + Quantity.TIME.show(Time.S));
    /** The UEC transport's defaults (the reference simulator's; {@code UecTransport}). */
    private static final UecTransport UEC = UecTransport.defaults();
    private static final List<TransportChoice> UEC_ONLY = List.of(TransportChoice.UEC);
    static final Option<String> UEC_SPRAYING = Option.of("--uec-spraying", Option.choice(List.of("reps", "oblivious")))
            .byDefault(UEC.spraying().optionName()).onlyWith(TRANSPORT, UEC_ONLY)
            .help("how UEC senders choose each packet's entropy: reps (reuse the entropies of packets acknowledged without"
                    + " ECN, a ring of " + UEC.repsBufferSize() + ", as uet-htsim's REPS; else one at random) or oblivious"
                    + " (at random per packet); with --forwarding ecmp the switches hash it");
    static final Option<Long> UEC_ENTROPIES = Option.of("--uec-entropies",
            Option.number(Quantity.INTEGER, "N", 1, 65_536))
            .byDefaultValue((long) UEC.entropies()).onlyWith(TRANSPORT, UEC_ONLY)
            .help("entropy values a UEC sender sprays over (" + UEC.entropies() + ": uet-htsim's main_uec.cpp; 1: one"
                    + " path per flow, as ECMP)");
    static final Option<String> UEC_TRIMMING = Option.of("--uec-trimming", Option.choice(List.of("on", "off")))
            .byDefault("on").onlyWith(TRANSPORT, UEC_ONLY)
            .help("on: switches trim a data packet above --uec-trim-threshold to a 64 B header sent ahead of the data"
                    + " (uet-htsim's default); off: they drop it at the buffer's limit");
    static final Option<Long> UEC_TRIM_THRESHOLD = Option.of("--uec-trim-threshold",
            Option.number(Quantity.BYTES, "S", 0, 1L << 40))
            .byDefault("0").onlyWith(UEC_TRIMMING, List.of("on"))
            .help("queue bytes above which a switch trims (0: one BDP of the fabric, uet-htsim's"
                    + " DEFAULT_TRIMMING_QUEUESIZE_FACTOR)");
    static final Option<Long> UEC_TARGET_DELAY = Option.of("--uec-target-delay",
            Option.number(Quantity.TIME, "T", 0, Time.S))
            .byDefault("0").onlyWith(TRANSPORT, UEC_ONLY)
            .help("NSCC's target queueing delay (0: 0.75 x the fabric's base RTT with trimming, 1 x without; UEC 1.0"
                    + " section 3.6.13.3 and uet-htsim)");
    static final Option<String> UEC_QUICK_ADAPT = Option.of("--uec-quick-adapt", Option.choice(List.of("on", "off")))
            .byDefault("on").onlyWith(TRANSPORT, UEC_ONLY)
            .help("NSCC's quick adapt (the window set to the bytes acknowledged in the last base RTT + target after a"
                    + " trimmed packet or a delay above 4 x target)");
    static final Option<Long> UEC_ACK_BYTES = Option.of("--uec-ack-bytes",
            Option.number(Quantity.BYTES, "S", 1, 1L << 40))
            .byDefaultValue(UEC.ackEveryBytes()).onlyWith(TRANSPORT, UEC_ONLY)
            .help("a UEC receiver acknowledges once S of payload arrived since its last ACK (at once for a marked packet"
                    + " or one asking for it; " + Quantity.BYTES.show(UEC.ackEveryBytes()) + ": uet-htsim's uec.cpp)");
    static final Option<String> UEC_RCCC = Option.of("--uec-rccc", Option.choice(List.of("off", "on", "only")))
            .byDefault(UEC.rccc().optionName()).onlyWith(TRANSPORT, UEC_ONLY)
            .help("receiver credits (RCCC, UEC 1.0 section 3.6.14): off (NSCC alone, uet-htsim's default), on (each"
                    + " receiver's pacer grants its senders 4 MSS of credit at a time at 0.99 of its line rate, a sender"
                    + " sends while it holds credit and NSCC's window allows; 1.5 BDP of speculative credit at the start;"
                    + " uet-htsim's -receiver_cc) or only (credit alone, no NSCC window; -receiver_cc_only)");
    static final Option<String> FORWARDING = Option.of("--forwarding",
            Option.choice(ScenarioSettings.Transport.FORWARDINGS))
            .byDefault("ecmp").onlyWith(WORKLOAD, LEAF_SPINE_WORKLOADS).onlyWith(TRANSPORT, FORWARDED_TRANSPORTS)
            .help("ecmp: per flow (CRC-32 hash); spray: per packet, round robin; spray-random: per packet, at random;"
                    + " adaptive: adaptive routing per packet, to the equal-cost port whose egress queue holds the fewest"
                    + " bytes (the local queue occupancy NVIDIA Spectrum adaptive routing and Broadcom-based dynamic load"
                    + " balancing read), ties to the next port in rotation; adaptive-flowlet: the same at the first packet"
                    + " of each flowlet, a flowlet ending after --flowlet-gap without a packet of its flow");
    static final Option<Long> FLOWLET_GAP = Option.of("--flowlet-gap",
            Option.number(Quantity.TIME, "T", 1, Time.S))
            .byDefaultValue(fabriclab.simulation.config.Forwarding.DLB_INACTIVITY_INTERVAL_PS)
            .onlyWith(FORWARDING, List.of("adaptive-flowlet"))
            .help("flowlet inactivity interval of adaptive-flowlet (256us: Juniper Apstra's default DLB policy; htsim's"
                    + " -ar_sticky_delta default is 10us)");
    static final Option<String> PLACEMENT = Option.of("--placement", Option.choice(List.of("in-order", "out-of-order")))
            .byDefault("in-order").byDefault(FORWARDING, ADAPTIVE_FORWARDINGS, "out-of-order")
            .onlyWith(TRANSPORT, ACKED_TRANSPORTS)
            .help("the receiving NIC: in-order (go-back-N: a packet above the expected one is discarded and NAKed);"
                    + " out-of-order (packets placed at their sequence number within --reorder-window, cumulative ACKs,"
                    + " a NAK only for a gap still open after --reorder-timeout: NVIDIA's out-of-order data placement,"
                    + " ConnectX-5 and later)");
    static final Option<Long> REORDER_WINDOW = Option.of("--reorder-window",
            Option.number(Quantity.INTEGER, "N", 1, OutOfOrderPlacement.MAX_WINDOW_PACKETS))
            .byDefaultValue((long) OOO.windowPackets()).onlyWith(PLACEMENT, List.of("out-of-order"))
            .help("packets the out-of-order receiver accepts from the expected one on (not published by NVIDIA: this"
                    + " project's setting)");
    static final Option<Long> REORDER_TIMEOUT = Option.of("--reorder-timeout",
            Option.number(Quantity.TIME, "T", 1, Time.S))
            .byDefaultValue(OOO.reorderTimeoutPs()).onlyWith(PLACEMENT, List.of("out-of-order"))
            .help("how long a gap may stay open at the out-of-order receiver before it is NAKed (not published by"
                    + " NVIDIA: this project's setting)");
    static final Option<Long> ECMP_SEED = Option.of("--ecmp-seed",
            Option.number(Quantity.INTEGER, "N", Integer.MIN_VALUE, Integer.MAX_VALUE))
            .byDefault("7").onlyWith(FORWARDING, List.of("ecmp"))
            .help("seed of the ECMP hash");
    static final Option<Pfc> PFC = Option.of("--pfc", new PfcKind())
            .byDefault("default").byDefault(TRANSPORT, PFC_OFF_TRANSPORTS, "off")
            .help("PFC thresholds: off; default (XOFF 15 packets of --mtu + --header, XON 12000 B or XOFF if less); or"
                    + " XOFF,XON, two sizes, 1 B <= XON <= XOFF");
    static final Option<Long> BUFFER = Option.of("--buffer", Option.number(Quantity.BYTES, "S", 64, 1L << 40))
            .byDefault("16MB")
            .check((v, buffer) -> buffer < SimulateOptions.wireBytes(v)
                    ? "must hold a packet: at least --mtu + --header = " + SimulateOptions.wireBytes(v) + "B" : null)
            .check((v, buffer) -> v.get(SimulateOptions.PFC) != null && buffer < v.get(SimulateOptions.PFC).xoffBytes()
                    ? "must be at least the PFC XOFF threshold of --pfc " + SimulateOptions.pfcText(v) + " = "
                            + v.get(SimulateOptions.PFC).xoffBytes() + " B (a larger --buffer, a smaller XOFF with --pfc"
                            + " XOFF,XON, or --pfc off)"
                    : null)
            .check((v, buffer) -> v.get(SimulateOptions.TRANSPORT) == TransportChoice.GSE
                    && buffer < SimulateOptions.gseContainerWireBytes(v)
                    ? "must hold a GSE container with --transport gse: at least "
                            + SimulateOptions.gseContainerWireBytes(v) + " B (" + SimulateOptions.GSE_CONTAINER_BYTES
                            + " B of payload in packets of --mtu + --header); a container that never fits is never sent"
                    : null)
            .help("shared buffer of each switch, at least a packet (with --transport gse, a container)");
    static final Option<BufferPlan> SWITCH_BUFFER = Option.of("--switch-buffer", BufferPlanKind.switchBuffers())
            .check((v, plan) -> SimulateOptions.switchBufferProblem(v, plan))
            .help("shared buffer of the switches of a tier (leaf, spine, core) or of one switch by name (leaf1, spine3),"
                    + " in place of --buffer: leaf=16MB,spine=32MB,spine1=64MB (a switch's own entry over its tier's); each"
                    + " at least a packet and at least the PFC XOFF; the transport's ECN marking as for --buffer");
    static final Option<BufferPlan> PORT_LIMIT = Option.of("--port-limit", BufferPlanKind.portLimits())
            .check((v, plan) -> SimulateOptions.portLimitProblem(v, plan))
            .help("most bytes each egress queue of some switch ports may hold (tail drop above, and the switch's shared"
                    + " buffer still applies): TIER:down (ports toward hosts or a lower tier, e.g. leaf:down, every"
                    + " leaf's host ports), TIER:up (ports toward a higher tier) or SWITCH:PORT (port PORT of one switch,"
                    + " numbered from 0 in the order the fabric's links reach it: a leaf's hosts first, then its uplinks)"
                    + ": leaf:down=200KB,leaf1:0=50KB (a port's own entry over its tier's); each at least a packet and at"
                    + " most its switch's shared buffer (without it each queue may fill its switch's shared buffer)");
    static final Option<Long> MTU = Option.of("--mtu",
            Option.number(Quantity.BYTES, "S", SimulationConfig.MIN_MTU_BYTES, SimulationConfig.MAX_MTU_BYTES))
            .byDefault("1000")
            .help("payload per packet");
    static final Option<Long> HEADER = Option.of("--header",
            Option.number(Quantity.BYTES, "S", 0, SimulationConfig.MAX_HEADER_BYTES))
            .byDefault("64")
            .help("header per packet");
    static final Option<Long> THREADS = Option.of("--threads", Option.number(Quantity.INTEGER, "N", 0, 256))
            .byDefault("0")
            .check((v, threads) -> threads >= 1 ? SimulateOptions.tooManyPortsForParallel(v) : null)
            .help("0: the sequential engine; N >= 1: the parallel engine on N threads (it also prints its windows,"
                    + " events per window, messages between partitions, parallelism and barrier waits)");
    static final Option<String> TIE_ORDER = Option.of("--tie-order", Option.choice(List.of("scheduling", "canonical")))
            .byDefault("canonical").onlyWith(THREADS, List.of(0L))
            .check((v, order) -> order.equals("canonical") ? tooManyPortsForCanonicalOrder(v) : null)
            .help("the sequential engine's order of simultaneous events: canonical (the engines' one rule, which the"
                    + " parallel engine also applies: at each instant a node takes what arrives through its ports,"
                    + " the ports in an order drawn from --seed, then its own events; switches and links draw from"
                    + " random sources of their own; the same results as --threads N) or scheduling (the order they"
                    + " were scheduled in, which follows the history of the event queue, as ns-3 and htsim order"
                    + " theirs; one random source)");
    static final Option<Long> TIME_LIMIT = Option.of("--time-limit",
            Option.number(Quantity.TIME, "T", 1, Long.MAX_VALUE))
            .help("stop at this simulated time: 10ms");
    static final Option<String> FLOWS = Option.of("--flows", Option.text("FILE"))
            .check((v, file) -> SimulateOptions.unwritable(file))
            .help("write one CSV line per flow to FILE (checked before the run; a failure to write it is an error)");
    static final Option<String> FCT = Option.of("--fct", Option.text("FILE"))
            .check((v, file) -> SimulateOptions.unwritable(file))
            .check((v, file) -> SimulateOptions.sameFile(file, v.get(SimulateOptions.FLOWS))
                    ? "must name another file than --flows " + v.get(SimulateOptions.FLOWS) + " (one would overwrite the other)"
                    : null)
            .help("write the completion times in the layout of HPCC's fct.txt to FILE (source and destination IP in hex,"
                    + " ports, size, start, FCT and ideal FCT in ns; destination port 100 for Poisson flows, 200 for"
                    + " incast flows), which HPCC's analysis/fct_analysis.py reads");
    static final Option<String> JIT = Option.of("--jit", Option.choice(List.of("auto", "short", "long")))
            .byDefault("auto")
            .help("the JVM profile: short (C1 only), long (tiered with C2) or auto (by the estimated packet-hops)");
    static final Option<Boolean> QUIET = Option.of("--quiet", Option.flag())
            .byDefault("false")
            .help("no progress lines on standard error");

    /** Every option, in the order of the usage text. */
    static final List<Option<?>> ALL = List.of(WORKLOAD, HOSTS, HOSTS_PER_LEAF, SPINES, PARALLEL_LINKS, RATE, DELAY,
            FLOW_BYTES, SENDERS, RANKS, QPS, CDF, LOAD, FLOW_COUNT, DURATION, INCAST_SENDERS, INCAST_BYTES, INCAST_PERIOD,
            SEED, TRANSPORT, ACK_EVERY, ACK_TIMEOUT_EXPONENT, RETRY_COUNT,
            MESSAGE_BYTES, ACK_DELAY, UEC_SPRAYING, UEC_ENTROPIES, UEC_TRIMMING, UEC_TRIM_THRESHOLD, UEC_TARGET_DELAY,
            UEC_QUICK_ADAPT, UEC_ACK_BYTES, UEC_RCCC, FORWARDING, FLOWLET_GAP, PLACEMENT, REORDER_WINDOW, REORDER_TIMEOUT, ECMP_SEED, PFC,
            BUFFER, SWITCH_BUFFER, PORT_LIMIT, MTU, HEADER, THREADS, TIE_ORDER,
            TIME_LIMIT, FLOWS, FCT, JIT, QUIET);

    private SimulateOptions() {
    }

    /** The flow-size distribution of a standard workload: the published one it names, or {@code --cdf}'s file. */
    static fabriclab.workload.FlowSizeDistribution distribution(Option.Values v) {
        return distributionOf(v.get(WORKLOAD), v.get(CDF));
    }

    /** {@link #distribution(Option.Values)} of {@code --workload w} and {@code --cdf cdf} (null when not given). */
    private static fabriclab.workload.FlowSizeDistribution distributionOf(String w, String cdf) {
        if (w.equals("cdf") && cdf == null) {
            throw new IllegalArgumentException("--workload cdf needs --cdf FILE");
        }
        try {
            return w.equals("cdf") ? fabriclab.workload.FlowSizeDistribution.read(Path.of(cdf))
                    : fabriclab.workload.FlowSizeDistribution.published(w);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException((w.equals("cdf") ? "--cdf " + cdf : "--workload " + w)
                    + ": cannot read the flow-size distribution: " + e.getMessage(), e);
        }
    }

    /** The arrival window [ps]: {@code --duration}, else 100 s with {@code --flow-count}, else 1 ms. */
    private static long durationPs(Option.Values v) {
        return windowPs(v.get(DURATION), v.get(FLOW_COUNT));
    }

    /** {@link #durationPs(Option.Values)} of {@code --duration d} and {@code --flow-count count} (null when not given). */
    private static long windowPs(Long d, Long count) {
        return d != null ? d : count != null ? fabriclab.workload.PoissonTraffic.MAX_DURATION_PS : Time.MS;
    }

    /** Background flows expected in the window, or {@code --flow-count} when given and fewer. */
    private static double expectedFlows(Option.Values v) {
        double perHostPerSecond = v.get(LOAD) * v.get(RATE) / (8 * distribution(v).meanBytes());
        double expected = v.get(HOSTS) * perHostPerSecond * (durationPs(v) / 1e12);
        Long count = v.get(FLOW_COUNT);
        return count == null ? expected : Math.min(expected, count);
    }

    /** Why the window would draw too many flows (a message following "--duration"), or null. */
    private static String tooManyArrivals(Option.Values v) {
        if (v.get(FLOW_COUNT) != null) {
            return null;
        }
        double expected = expectedFlows(v);
        long limit = (long) (fabriclab.workload.PoissonTraffic.MAX_FLOWS * 0.9);
        return expected <= limit ? null : String.format(Locale.ROOT, "must hold at most about %,d flows, but %,.0f are"
                + " expected (--hosts %d at --load %s of --rate %d bit/s, mean flow %.0f B): a shorter window or"
                + " --flow-count", limit, expected, v.get(HOSTS), v.get(LOAD), v.get(RATE), distribution(v).meanBytes());
    }

    /** Why the incast bursts would add too many flows (a message following "--incast-period"), or null. */
    private static String tooManyIncastFlows(Option.Values v) {
        long senders = v.get(INCAST_SENDERS);
        if (senders == 0) {
            return null;
        }
        double window = durationPs(v);
        if (v.get(FLOW_COUNT) != null) { // the window ends at the last flow: about count / (hosts lambda)
            double perHostPerSecond = v.get(LOAD) * v.get(RATE) / (8 * distribution(v).meanBytes());
            window = Math.min(window, v.get(FLOW_COUNT) / (v.get(HOSTS) * perHostPerSecond) * 1e12);
        }
        double flows = Math.floor(window / v.get(INCAST_PERIOD)) * senders;
        long limit = fabriclab.workload.PoissonTraffic.MAX_FLOWS / 2;
        return flows <= limit ? null : String.format(Locale.ROOT, "must leave at most %,d incast flows, but %,.0f would"
                + " start (--incast-senders %d every period in a window of %.0f ps)", limit, flows, senders, window);
    }

    /** Why an all-reduce group of {@code ranks} would have more transfers than a schedule holds (following "--ranks"), or null. */
    private static String tooManyTransfers(Option.Values v, long ranks) {
        Collective c = v.get(WORKLOAD).equals("ring-allreduce") ? Collective.RING_ALL_REDUCE
                : Collective.HALVING_DOUBLING_ALL_REDUCE;
        long n = ranks * c.transfersPerRank((int) ranks);
        return n <= CollectiveSchedule.MAX_TRANSFERS ? null : String.format(Locale.ROOT, "must give a group at most %,d"
                + " transfers (%s: %d per rank), but gives %,d", CollectiveSchedule.MAX_TRANSFERS, v.get(WORKLOAD),
                c.transfersPerRank((int) ranks), n);
    }

    /**
     * Why the parallel engine cannot run the leaf-spine's switches (a message following "--threads N"), or null: a
     * switch has more ports (with GSE, plus a lane per switch) than the engine's lanes, {@code
     * Simulator.PARALLEL_MAX_PORTS_PER_NODE}.
     */
    private static String tooManyPortsForParallel(Option.Values v) {
        return tooManyPortsForLanes(v, "must be 0 (the sequential engine)", "the parallel engine's");
    }

    /**
     * As {@link #tooManyPortsForParallel}, for the canonical order of simultaneous events (whose lanes are the parallel
     * engine's): a message following "--tie-order canonical", or null.
     */
    private static String tooManyPortsForCanonicalOrder(Option.Values v) {
        return tooManyPortsForLanes(v, "must be scheduling", "the canonical order's lanes,");
    }

    private static String tooManyPortsForLanes(Option.Values v, String must, String whose) {
        int max = fabriclab.simulation.Simulator.PARALLEL_MAX_PORTS_PER_NODE;
        if (v.get(WORKLOAD).equals("incast")) { // one switch: a port per sender and the receiver's
            long ports = v.get(SENDERS) + 1;
            return ports <= max ? null : must + " when a switch has more than " + max + " ports, " + whose + " most:"
                    + " --senders " + v.get(SENDERS) + " give the incast's switch " + ports + " ports";
        }
        if (!LEAF_SPINE_WORKLOADS.contains(v.get(WORKLOAD))) {
            return null;
        }
        long leaves = v.get(HOSTS) / v.get(HOSTS_PER_LEAF);
        long leafPorts = v.get(HOSTS_PER_LEAF) + v.get(SPINES) * v.get(PARALLEL_LINKS);
        long spinePorts = leaves * v.get(PARALLEL_LINKS);
        long lanes = v.get(TRANSPORT) == TransportChoice.GSE ? leaves + v.get(SPINES) : 0;
        long most = Math.max(leafPorts, spinePorts) + lanes;
        if (most <= max) {
            return null;
        }
        String which = leafPorts >= spinePorts
                ? "--hosts-per-leaf " + v.get(HOSTS_PER_LEAF) + " + --spines " + v.get(SPINES) + " x --parallel-links "
                        + v.get(PARALLEL_LINKS) + " give a leaf " + leafPorts + " ports"
                : "--hosts / --hosts-per-leaf = " + leaves + " leaves x --parallel-links " + v.get(PARALLEL_LINKS)
                        + " give a spine " + spinePorts + " ports";
        return must + " when a switch has more than " + max + " ports, " + whose
                + " most" + (lanes > 0 ? " (with --transport gse, ports plus the " + lanes + " switches)" : "") + ": "
                + which + " (or fewer --spines or --parallel-links)";
    }

    /** Why {@code file} cannot be read as a distribution (a message following "--cdf"), or null. */
    private static String unreadableCdf(String file) {
        if (file == null) {
            return "must name a distribution file with --workload cdf";
        }
        if (file.isBlank()) {
            return "must name a file";
        }
        try {
            String problem = fabriclab.Parameters.inputFileProblem(Path.of(file),
                    fabriclab.workload.FlowSizeDistribution.MAX_FILE_BYTES);
            if (problem != null) {
                return problem;
            }
            fabriclab.workload.FlowSizeDistribution.read(Path.of(file));
            return null;
        } catch (RuntimeException e) {
            return "cannot be read as a flow-size distribution (" + e.getMessage() + ")";
        }
    }

    /**
     * The error of a standard workload whose window drew no flow, naming the options that set the window (from the
     * written-out command line {@code args} of {@link SimulateRun#args}).
     */
    static String noFlowDrawn(List<String> args) {
        Option.Values v = Option.Values.parse(args, ALL);
        double perHostPerSecond = v.get(LOAD) * v.get(RATE) / (8 * distribution(v).meanBytes());
        double expected = v.get(HOSTS) * perHostPerSecond * (durationPs(v) / 1e12);
        return String.format(Locale.ROOT, "--duration %s%s draws no flow: --hosts %d at --load %s of --rate %d bit/s"
                + " (mean flow %.0f B) start %.3g flows in that window; give a longer --duration (at least about %s)%s",
                Quantity.TIME.show(durationPs(v)), v.get(FLOW_COUNT) != null ? " with --flow-count " + v.get(FLOW_COUNT) : "",
                v.get(HOSTS), v.get(LOAD), v.get(RATE), distribution(v).meanBytes(), expected,
                Quantity.TIME.show((long) Math.ceil(1e12 / (v.get(HOSTS) * perHostPerSecond))),
                v.get(INCAST_SENDERS) > 0 ? " or an --incast-period within it" : "");
    }

    /** The run with no options: the RoCE+PFC permutation of the htsim comparison at 128 hosts. */
    public static SimulateRun defaults() {
        return parse(List.of());
    }

    /**
     * Parses {@code --name value} pairs and the flag {@code --quiet}; every option not given takes its default (see
     * {@link #usage}).
     *
     * @param args the command line after the command's name
     * @return the validated options
     * @throws IllegalArgumentException naming the first unknown option, missing value, value out of range or option
     *         given where it does not apply
     */
    public static SimulateRun parse(List<String> args) {
        fabriclab.Parameters.noNullElements("args", args);
        Option.Values v = Option.Values.parse(args, ALL);
        v.validate();
        int threads = v.get(THREADS).intValue();
        Long limit = v.get(TIME_LIMIT);
        String jit = v.get(JIT);
        boolean quiet = v.get(QUIET);
        String flows = v.get(FLOWS);
        String fct = v.get(FCT);
        List<String> written = v.toArgs();
        TieOrder order = v.get(TIE_ORDER).equals("canonical") ? TieOrder.CANONICAL : TieOrder.SCHEDULING;
        return new SimulateRun(settingsOf(v), threads, order, limit == null ? Long.MAX_VALUE : limit, jit, quiet,
                flows, fct, written);
    }

    /**
     * The scenario's settings that validated options {@code v} give: every option read first (applying or not: an
     * option that does not apply has its default), then the settings built from the values.
     */
    private static ScenarioSettings settingsOf(Option.Values v) {
        String workload = v.get(WORKLOAD);
        long hosts = v.get(HOSTS);
        long hostsPerLeaf = v.get(HOSTS_PER_LEAF);
        long spines = v.get(SPINES);
        long parallelLinks = v.get(PARALLEL_LINKS);
        long rate = v.get(RATE);
        long delay = v.get(DELAY);
        long buffer = v.get(BUFFER);
        long flowBytes = v.get(FLOW_BYTES);
        long senders = v.get(SENDERS);
        long ranks = v.get(RANKS);
        long qps = v.get(QPS);
        String cdf = v.get(CDF);
        double load = v.get(LOAD);
        Long count = v.get(FLOW_COUNT);
        Long duration = v.get(DURATION);
        long incastSenders = v.get(INCAST_SENDERS);
        long incastBytes = v.get(INCAST_BYTES);
        long incastPeriod = v.get(INCAST_PERIOD);
        long seed = v.get(SEED);
        TransportChoice transport = v.get(TRANSPORT);
        long messageBytes = v.get(MESSAGE_BYTES);
        long ackEvery = v.get(ACK_EVERY);
        long ackDelay = v.get(ACK_DELAY);
        long ackTimeoutExponent = v.get(ACK_TIMEOUT_EXPONENT);
        long retryCount = v.get(RETRY_COUNT);
        String forwarding = v.get(FORWARDING);
        long flowletGap = v.get(FLOWLET_GAP);
        boolean outOfOrder = v.get(PLACEMENT).equals("out-of-order");
        long reorderWindow = v.get(REORDER_WINDOW);
        long reorderTimeout = v.get(REORDER_TIMEOUT);
        long ecmpSeed = v.get(ECMP_SEED);
        Pfc pfc = v.get(PFC);
        long mtu = v.get(MTU);
        long header = v.get(HEADER);
        BufferPlan plan = planOf(v.get(SWITCH_BUFFER), v.get(PORT_LIMIT));
        ScenarioSettings.Fabric fabric = new ScenarioSettings.Fabric((int) hosts, (int) hostsPerLeaf, (int) spines,
                (int) parallelLinks, rate, delay, buffer, plan);
        ScenarioSettings.Traffic traffic = new ScenarioSettings.Traffic(flowBytes, (int) senders, (int) ranks, (int) qps,
                STANDARD_WORKLOADS.contains(workload) ? distributionOf(workload, cdf) : null, load,
                count == null ? 0 : count.intValue(), windowPs(duration, count), incastSenders == 0
                        ? fabriclab.workload.IncastMix.off()
                        : new fabriclab.workload.IncastMix((int) incastSenders, incastBytes, incastPeriod));
        ReliableConnection connection = new ReliableConnection(messageBytes, (int) ackEvery, ackDelay,
                (int) ackTimeoutExponent, (int) retryCount,
                outOfOrder ? new OutOfOrderPlacement((int) reorderWindow, reorderTimeout) : null);
        UecTransport uec = null;
        if (transport == TransportChoice.UEC) {
            uec = UEC.withSpraying(fabriclab.simulation.transport.uec.EntropySpraying.named(v.get(UEC_SPRAYING)))
                    .withEntropies(v.get(UEC_ENTROPIES).intValue())
                    .withTrimming(v.get(UEC_TRIMMING).equals("on"),
                            v.get(UEC_TRIMMING).equals("on") ? v.get(UEC_TRIM_THRESHOLD) : 0)
                    .withNscc(UEC.nscc().withTargetQueueDelayPs(v.get(UEC_TARGET_DELAY))
                            .withQuickAdapt(v.get(UEC_QUICK_ADAPT).equals("on")))
                    .withAckEveryBytes(v.get(UEC_ACK_BYTES))
                    .withRccc(fabriclab.simulation.transport.uec.Rccc.named(v.get(UEC_RCCC)));
        }
        ScenarioSettings.Transport how = new ScenarioSettings.Transport(transport, connection, forwarding, (int) ecmpSeed,
                pfc, (int) mtu, (int) header, flowletGap, uec);
        return new ScenarioSettings(workload, fabric, traffic, how, seed);
    }

    /** The plan of {@code --switch-buffer} (its switch buffers) and {@code --port-limit} (its queue limits); null: none. */
    private static BufferPlan planOf(BufferPlan switchBuffers, BufferPlan portLimits) {
        BufferPlan s = switchBuffers == null ? BufferPlan.none() : switchBuffers;
        BufferPlan p = portLimits == null ? BufferPlan.none() : portLimits;
        return new BufferPlan(s.tiers(), s.switches(), p.tierPorts(), p.ports());
    }

    /** The fabric's topology as the options give it (the incast's single switch, or the leaf-spine). */
    private static Topology topologyOf(Option.Values v) {
        ScenarioSettings.Fabric fabric = new ScenarioSettings.Fabric(v.get(HOSTS).intValue(),
                v.get(HOSTS_PER_LEAF).intValue(), v.get(SPINES).intValue(), v.get(PARALLEL_LINKS).intValue(), v.get(RATE),
                v.get(DELAY), v.get(BUFFER));
        return ScenarioSettings.topology(v.get(WORKLOAD), fabric, v.get(SENDERS).intValue());
    }

    /**
     * Why {@code --switch-buffer}'s entries do not fit (following "--switch-buffer"), or null: a tier the fabric lacks,
     * a name that is no switch of it, a buffer smaller than a packet or than the PFC XOFF threshold.
     */
    private static String switchBufferProblem(Option.Values v, BufferPlan plan) {
        if (plan == null) {
            return null;
        }
        Topology t = null;
        List<String> entries = new java.util.ArrayList<>();
        List<Long> sizes = new java.util.ArrayList<>();
        plan.tiers().forEach(e -> {
            entries.add(BufferPlanKind.name(e.tier()));
            sizes.add(e.buffer().sharedBytes());
        });
        plan.switches().forEach(e -> {
            entries.add(e.name());
            sizes.add(e.buffer().sharedBytes());
        });
        Pfc pfc = v.get(PFC);
        for (int i = 0; i < entries.size(); i++) {
            String who = entries.get(i);
            long bytes = sizes.get(i);
            if (bytes < wireBytes(v)) {
                return who + " must hold a packet: at least --mtu + --header = " + wireBytes(v) + " B, not " + bytes + " B";
            }
            if (pfc != null && bytes < pfc.xoffBytes()) {
                return who + " must be at least the PFC XOFF threshold of --pfc " + pfcText(v) + " = " + pfc.xoffBytes()
                        + " B, not " + bytes + " B";
            }
            if (t == null) {
                t = topologyOf(v);
            }
            String why = BufferPlanKind.TIERS.contains(who) ? BufferPlan.tierProblem(t, BufferPlanKind.tier(who))
                    : BufferPlan.switchProblem(t, who);
            if (why != null) {
                return who + " " + why;
            }
        }
        return null;
    }

    /**
     * Why {@code --port-limit}'s entries do not fit (following "--port-limit"), or null: a tier the fabric lacks or
     * whose switches have no port facing that way, a name that is no switch, a port the switch lacks, a limit smaller
     * than a packet or above the switch's shared buffer ({@code --buffer}, or its {@code --switch-buffer}).
     */
    private static String portLimitProblem(Option.Values v, BufferPlan plan) {
        if (plan == null) {
            return null;
        }
        Topology t = topologyOf(v);
        BufferPlan whole = planOf(v.get(SWITCH_BUFFER), plan);
        SwitchBuffer run = SwitchBuffer.shared(v.get(BUFFER));
        for (BufferPlan.TierPortLimit e : plan.tierPorts()) {
            String who = BufferPlanKind.name(e.tier()) + ":" + e.facing().name().toLowerCase(Locale.ROOT);
            if (e.queueLimitBytes() < wireBytes(v)) {
                return who + " must hold a packet: at least --mtu + --header = " + wireBytes(v) + " B, not "
                        + e.queueLimitBytes() + " B";
            }
            String why = BufferPlan.tierPortsProblem(t, e.tier(), e.facing());
            if (why != null) {
                return who + " " + why;
            }
            why = whole.tierLimitProblem(t, run, e.tier(), e.queueLimitBytes());
            if (why != null) {
                return who + " " + why.replace(" B", " B (--buffer or --switch-buffer)") + ", not " + e.queueLimitBytes()
                        + " B";
            }
        }
        for (BufferPlan.PortLimit e : plan.ports()) {
            String who = e.name() + ":" + e.port();
            if (e.queueLimitBytes() < wireBytes(v)) {
                return who + " must hold a packet: at least --mtu + --header = " + wireBytes(v) + " B, not "
                        + e.queueLimitBytes() + " B";
            }
            String why = BufferPlan.switchProblem(t, e.name());
            if (why != null) {
                return who + ": " + e.name() + " " + why;
            }
            why = BufferPlan.portProblem(t, e.name(), e.port());
            if (why != null) {
                return who + ": port " + e.port() + " " + why;
            }
            why = whole.switchLimitProblem(t, run, e.name(), e.queueLimitBytes());
            if (why != null) {
                return who + " " + why.replace(" B", " B (--buffer or --switch-buffer)") + ", not " + e.queueLimitBytes()
                        + " B";
            }
        }
        return null;
    }

    /** The usage text: every option with its range, default and where it applies, and the grammar of numbers. */
    static String usage() {
        return Option.usage("usage: bin/simulate [options]   (one packet-level run; prints its figures, progress on stderr)",
                ALL, String.join("\n", "numbers:",
                        Option.wrap("  N", "an integer: " + Quantity.INTEGER.grammar(), 6, Option.WIDTH),
                        Option.wrap("  S", "a size: " + Quantity.BYTES.grammar(), 6, Option.WIDTH),
                        Option.wrap("  R", "a rate: " + Quantity.RATE.grammar(), 6, Option.WIDTH),
                        Option.wrap("  T", "a time: " + Quantity.TIME.grammar(), 6, Option.WIDTH),
                        Option.wrap("", "Digits may be grouped by single underscores (1_000). This is the command's own"
                                + " grammar: no hexadecimal (0x1p14), NaN, Infinity or Java suffixes (1d, 100f).", 2,
                                Option.WIDTH),
                        "An option given where it does not apply (see \"only with\") is an error, not ignored."));
    }

    /**
     * Payload of the workload's smallest flow [bytes]: {@code --flow-bytes} for the permutation and the incast, a
     * chunk {@code max(1, --flow-bytes / --ranks)} for an all-reduce (its ring steps and its halving-doubling's
     * smallest steps carry that much).
     */
    static long smallestFlowBytes(Option.Values v) {
        long bytes = v.get(FLOW_BYTES);
        return ALL_REDUCES.contains(v.get(WORKLOAD)) ? Math.max(1, bytes / v.get(RANKS)) : bytes;
    }

    /** {@link #smallestFlowBytes} with where it comes from, for messages. */
    private static String smallestFlowText(Option.Values v) {
        return ALL_REDUCES.contains(v.get(WORKLOAD))
                ? "--flow-bytes / --ranks = " + v.get(FLOW_BYTES) + " / " + v.get(RANKS) + " = " + smallestFlowBytes(v) + " B"
                : "--flow-bytes = " + v.get(FLOW_BYTES) + " B";
    }

    /** {@code --pfc} as written, or its default with what it stands for. */
    private static String pfcText(Option.Values v) {
        String given = v.given(PFC);
        return given != null ? given : "default (its default: XOFF 15 packets of --mtu + --header)";
    }

    /** The payload of a GSE container of {@code --transport gse}, bytes. */
    private static final long GSE_CONTAINER_BYTES = fabriclab.simulation.transport.gse.GseTransport.defaults().containerBytes();

    /** A GSE container on the wire: its payload and a header per packet of up to {@code --mtu} bytes. */
    private static long gseContainerWireBytes(Option.Values v) {
        long mtu = v.get(MTU);
        return GSE_CONTAINER_BYTES + (GSE_CONTAINER_BYTES + mtu - 1) / mtu * v.get(HEADER);
    }

    private static long wireBytes(Option.Values v) {
        return v.get(MTU) + v.get(HEADER);
    }

    /** Whether output files {@code a} and {@code b} (either null: not given) name the same file. */
    static boolean sameFile(String a, String b) {
        if (a == null || b == null) {
            return false;
        }
        try {
            Path pa = Path.of(a).toAbsolutePath().normalize();
            Path pb = Path.of(b).toAbsolutePath().normalize();
            return pa.equals(pb) || Files.exists(pa) && Files.exists(pb) && Files.isSameFile(pa, pb);
        } catch (InvalidPathException | java.io.IOException e) {
            return false; // an invalid name is refused by its own check
        }
    }

    /** Why {@code file} cannot be written before the run starts (a message following "--flows"), or null. */
    private static String unwritable(String file) {
        if (file == null) {
            return null;
        }
        if (file.isBlank()) {
            return "must name a file";
        }
        Path p;
        try {
            p = Path.of(file);
        } catch (InvalidPathException e) {
            return "must be a valid file name (" + e.getReason() + ")";
        }
        if (Files.isDirectory(p)) {
            return "must name a file, not a directory";
        }
        if (Files.exists(p)) {
            return Files.isWritable(p) ? null : "must be a file this process may write";
        }
        Path dir = p.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            return "must be in an existing directory (" + dir + " is not one)";
        }
        return Files.isWritable(dir) ? null : "must be in a directory this process may write (" + dir + ")";
    }
}
