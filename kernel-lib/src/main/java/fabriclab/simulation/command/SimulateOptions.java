package fabriclab.simulation.command;

import fabriclab.fabric.Incast;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.loadbalancing.hash.HashFunction;
import fabriclab.simulation.transport.ctcc.CtccTransport;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.transport.gse.GseTransport;
import fabriclab.simulation.config.Forwarding;
import fabriclab.simulation.transport.roce.RoceTransport;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.collectives.Collective;
import fabriclab.collectives.CollectiveSchedule;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.congestion.RttControlParameters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The options of {@link SimulateCommand}: one packet-level run described on a command line, validated,
 * and the {@link Scenario} it stands for. The defaults are the RoCE+PFC scenario of the comparison with
 * htsim (README, Benchmarks): a leaf-spine of {@code hosts / 16} leaves of 16 hosts and 8 spines, 2
 * parallel 100G links per leaf-spine pair, 1 us per link, 1000 B payload + 64 B header per packet, a
 * permutation of 2 MB flows (seed 5), RoCE go-back-N with an ACK per packet and no congestion control,
 * PFC with XOFF 15 packets (15,960 B) and XON 12,000 B, per-flow ECMP (CRC-32, seed 7), a 16 MB shared
 * buffer per switch.
 *
 * <p>Sizes take the units B, KB, MB, GB (powers of 10, as the papers write them) or KiB, MiB, GiB;
 * rates bit/s with K, M, G or T (e.g. {@code 100G}); times ps, ns, us or ms. A plain number is bytes,
 * bit/s or picoseconds.
 *
 * @param workload {@code permutation} (every host sends one flow to a distinct other host, a random
 *        derangement), {@code incast} ({@code senders} hosts to one receiver through one switch), or a collective in
 *        every group of {@code ranks} hosts: {@code ring-allreduce} (ring all-reduce) or {@code hd-allreduce}
 *        (halving-doubling all-reduce), {@code flowBytes} the buffer each rank reduces
 *        ({@link fabriclab.collectives.CollectiveSchedule}: each transfer a flow that starts when the transfers it
 *        waits for have arrived); {@code hosts / ranks} groups at once, rank r of group g on host
 *        {@code r * groups + g}, so each group spreads over the leaves
 * @param hosts hosts of the leaf-spine (permutation), a multiple of {@code hostsPerLeaf}, 2 to 1,048,576
 * @param hostsPerLeaf hosts attached to each leaf, 1 to 4096
 * @param spines spine switches, 1 to 4096
 * @param parallelLinks links between each leaf and each spine, 1 to 64
 * @param rateBitsPerSecond rate of every link [bit/s], 1 Mb/s to 10 Tb/s
 * @param delayPs propagation delay of every link [ps], 1 ps to 1 s
 * @param flowBytes payload of each permutation flow, or of each incast sender [bytes], 1 B to 1 TB
 * @param senders incast senders, 1 to 65,536
 * @param ranks ranks of each collective group, at least 2; for an all-reduce it divides {@code hosts} (a power of
 *        two for {@code hd-allreduce}) and {@code flowBytes} is at least it
 * @param seed seed of the permutation, of the flows' source ports and of the run's random draws (spraying at
 *        random, ECN marking)
 * @param transport {@code roce} (go-back-N, no congestion control), {@code dcqcn} (RoCE with DCQCN,
 *        Zhu et al. 2015 parameters, and the switches marking ECN on their curve), {@code line-rate}
 *        (senders at line rate, no acknowledgements), {@code ctcc} (CTCC's RTT-based rate control,
 *        {@link fabriclab.congestion.RttControlParameters#ctcc()}, probes per host pair, go-back-N, an ACK per 16
 *        packets unless {@code --ack-every} says otherwise; no PFC, as 001 runs it, unless {@code --pfc} gives
 *        thresholds) or {@code gse} (Global Scheduling Ethernet,
 *        {@link GseTransport#defaults()}: the leaves assemble 16 KB containers, request and grant them, spray
 *        them over the spines and reorder them; line-rate hosts; no PFC in the fabric unless {@code --pfc} gives
 *        thresholds)
 * @param ackEvery RoCE and CTCC: an ACK per this many data packets, 1 to 65,536
 * @param forwarding {@code ecmp} (per flow), {@code spray} (per packet, round robin) or
 *        {@code spray-random} (per packet, at random)
 * @param ecmpSeed seed of the ECMP hash (CRC-32)
 * @param pfc PFC thresholds, or null for no PFC
 * @param bufferBytes shared buffer of each switch [bytes], at least one packet
 * @param mtuBytes payload per packet [bytes], 64 to 65,536
 * @param headerBytes header per packet [bytes], 0 to 4096
 * @param threads 0 for the sequential engine, else the threads of the parallel engine, 1 to 256
 * @param timeLimitPs simulated time after which the run stops [ps], or {@code Long.MAX_VALUE} for none
 * @param flowsFile where to write one CSV line per flow, or null
 * @param jit {@code auto}, {@code short} or {@code long}: the JVM profile ({@link SimulateCommand})
 * @param quiet whether to leave out progress lines on standard error
 */
public record SimulateOptions(String workload, int hosts, int hostsPerLeaf, int spines, int parallelLinks,
        long rateBitsPerSecond, long delayPs, long flowBytes, int senders, int ranks, long seed, String transport,
        int ackEvery,
        String forwarding, int ecmpSeed, Pfc pfc, long bufferBytes, int mtuBytes, int headerBytes, int threads,
        long timeLimitPs, String flowsFile, String jit, boolean quiet) {

    /** The accepted workloads, transports, forwarding modes and JVM profiles. */
    static final List<String> WORKLOADS = List.of("permutation", "incast", "ring-allreduce", "hd-allreduce");
    static final List<String> TRANSPORTS = List.of("roce", "dcqcn", "line-rate", "ctcc", "gse");
    static final List<String> FORWARDINGS = List.of("ecmp", "spray", "spray-random");
    static final List<String> JITS = List.of("auto", "short", "long");

    /** Validates every option; the message names the option as it is written on the command line. */
    public SimulateOptions {
        oneOf("--workload", workload, WORKLOADS);
        range("--hosts", hosts, 2, 1 << 20);
        range("--hosts-per-leaf", hostsPerLeaf, 1, 4096);
        range("--spines", spines, 1, 4096);
        range("--parallel-links", parallelLinks, 1, 64);
        range("--rate", rateBitsPerSecond, 1_000_000L, 10_000_000_000_000L);
        range("--delay", delayPs, 1L, 1_000_000_000_000L);
        range("--flow-bytes", flowBytes, 1L, 1_000_000_000_000L);
        range("--senders", senders, 1, 65_536);
        range("--ranks", ranks, 2, 1 << 20);
        oneOf("--transport", transport, TRANSPORTS);
        range("--ack-every", ackEvery, 1, 65_536);
        oneOf("--forwarding", forwarding, FORWARDINGS);
        range("--mtu", mtuBytes, 64, 65_536);
        range("--header", headerBytes, 0, 4096);
        range("--buffer", bufferBytes, (long) mtuBytes + headerBytes, 1L << 40);
        range("--threads", threads, 0, 256);
        range("--time-limit", timeLimitPs, 1L, Long.MAX_VALUE);
        oneOf("--jit", jit, JITS);
        if (!workload.equals("incast") && hosts % hostsPerLeaf != 0) {
            throw new IllegalArgumentException("--hosts must be a multiple of --hosts-per-leaf = " + hostsPerLeaf
                    + ", got " + hosts);
        }
        if (workload.endsWith("allreduce") && hosts % ranks != 0) {
            throw new IllegalArgumentException("--ranks must divide --hosts = " + hosts + " (one group per " + ranks
                    + " hosts), got " + ranks);
        }
        if (workload.equals("hd-allreduce") && Integer.bitCount(ranks) != 1) {
            throw new IllegalArgumentException("--ranks must be a power of two for hd-allreduce, got " + ranks);
        }
        if (workload.endsWith("allreduce") && flowBytes < ranks) { // every chunk at least a byte
            throw new IllegalArgumentException("--flow-bytes must be at least --ranks = " + ranks
                    + " for an all-reduce (a chunk per rank), got " + flowBytes);
        }
        if (flowsFile != null && flowsFile.isBlank()) {
            throw new IllegalArgumentException("--flows must name a file, got a blank name");
        }
    }

    /** The options with nothing given: the RoCE+PFC permutation of the htsim comparison at 128 hosts. */
    public static SimulateOptions defaults() {
        return parse(List.of());
    }

    /** PFC of the htsim comparison for packets of {@code wireBytes}: XOFF 15 packets, XON 12,000 B, 65,535 quanta. */
    static Pfc defaultPfc(int wireBytes) {
        return new Pfc(15L * wireBytes, Math.min(12_000, 15L * wireBytes), 0, Pfc.MAX_QUANTA);
    }

    /**
     * Parses {@code --name value} pairs (and the flag {@code --quiet}); every option not given takes its
     * default (see the class comment).
     *
     * @param args the command line after the command's name
     * @return the validated options
     * @throws IllegalArgumentException naming the first unknown option, missing value or value out of range
     */
    public static SimulateOptions parse(List<String> args) {
        fabriclab.Parameters.noNullElements("args", args);
        Map<String, String> v = new LinkedHashMap<>();
        boolean quiet = false;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--quiet")) {
                quiet = true;
                continue;
            }
            if (!OPTIONS.contains(a)) {
                throw new IllegalArgumentException("unknown option " + quote(a) + "; the options are " + String.join(", ", OPTIONS)
                        + " and --quiet (--help prints them with their defaults)");
            }
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException(a + " needs a value");
            }
            if (v.put(a, args.get(++i)) != null) {
                throw new IllegalArgumentException(a + " is given twice");
            }
        }
        String workload = v.getOrDefault("--workload", "permutation");
        int mtu = integer("--mtu", v.getOrDefault("--mtu", "1000"));
        int header = integer("--header", v.getOrDefault("--header", "64"));
        Pfc pfc;
        // GSE schedules the fabric with grants (000), CTCC runs with PFC off (001): no PFC unless thresholds are given
        String transport = v.getOrDefault("--transport", "roce");
        boolean noPfc = transport.equals("gse") || transport.equals("ctcc");
        String pfcText = v.getOrDefault("--pfc", noPfc ? "off" : "default");
        if (pfcText.equals("off")) {
            pfc = null;
        } else if (pfcText.equals("default")) {
            pfc = defaultPfc(mtu + header);
        } else {
            String[] parts = pfcText.split(",", -1);
            if (parts.length != 2) {
                throw new IllegalArgumentException("--pfc must be off, default or XOFF,XON (sizes, e.g. 15960,12000), got "
                        + quote(pfcText));
            }
            long xoff = bytes("--pfc XOFF", parts[0]);
            long xon = bytes("--pfc XON", parts[1]);
            if (xoff < 1 || xon > xoff) {
                throw new IllegalArgumentException("--pfc must have 1 <= XOFF and XON <= XOFF, got XOFF " + xoff + ", XON " + xon);
            }
            pfc = new Pfc(xoff, xon, 0, Pfc.MAX_QUANTA);
        }
        String limit = v.get("--time-limit");
        return new SimulateOptions(workload,
                integer("--hosts", v.getOrDefault("--hosts", "128")),
                integer("--hosts-per-leaf", v.getOrDefault("--hosts-per-leaf", "16")),
                integer("--spines", v.getOrDefault("--spines", "8")),
                integer("--parallel-links", v.getOrDefault("--parallel-links", "2")),
                rate("--rate", v.getOrDefault("--rate", "100G")),
                time("--delay", v.getOrDefault("--delay", "1us")),
                bytes("--flow-bytes", v.getOrDefault("--flow-bytes", workload.equals("incast") ? "4MB" : "2MB")),
                integer("--senders", v.getOrDefault("--senders", "64")),
                integer("--ranks", v.getOrDefault("--ranks", "16")),
                longValue("--seed", v.getOrDefault("--seed", "5")),
                transport,
                integer("--ack-every", v.getOrDefault("--ack-every", transport.equals("ctcc") ? "16" : "1")),
                v.getOrDefault("--forwarding", "ecmp"),
                integer("--ecmp-seed", v.getOrDefault("--ecmp-seed", "7")),
                pfc,
                bytes("--buffer", v.getOrDefault("--buffer", "16MB")),
                mtu, header,
                integer("--threads", v.getOrDefault("--threads", "0")),
                limit == null ? Long.MAX_VALUE : time("--time-limit", limit),
                v.get("--flows"),
                v.getOrDefault("--jit", "auto"),
                quiet);
    }

    /** The options that take a value, in the order of the usage text. */
    static final List<String> OPTIONS = List.of("--workload", "--hosts", "--hosts-per-leaf", "--spines", "--parallel-links",
            "--rate", "--delay", "--flow-bytes", "--senders", "--ranks", "--seed", "--transport", "--ack-every", "--forwarding",
            "--ecmp-seed", "--pfc", "--buffer", "--mtu", "--header", "--threads", "--time-limit", "--flows", "--jit");

    /** The scenario these options describe (the flows drawn from {@link #seed}). */
    public Scenario scenario() {
        SwitchBuffer buffer = transport.equals("dcqcn")
                ? new SwitchBuffer(bufferBytes, bufferBytes, fabriclab.fabric.EcnMarking.dcqcnDefaults())
                : SwitchBuffer.shared(bufferBytes);
        Forwarding f = switch (forwarding) {
            case "ecmp" -> Forwarding.ecmp(HashFunction.CRC32, ecmpSeed);
            case "spray" -> Forwarding.sprayRoundRobin();
            default -> Forwarding.sprayRandom();
        };
        SimulationConfig config = new SimulationConfig(mtuBytes, headerBytes, 1, buffer, f, seed, 0, 0);
        Scenario base;
        String what;
        if (workload.equals("incast")) {
            base = Scenario.incast(Incast.of(senders, flowBytes, rateBitsPerSecond), delayPs, config);
            what = senders + "-to-1 incast of " + flowBytes + " B per sender";
        } else {
            LeafSpine fabric = new LeafSpine(hosts, 1, hosts / hostsPerLeaf, spines, rateBitsPerSecond, rateBitsPerSecond,
                    parallelLinks, delayPs, delayPs);
            String where = hosts + " hosts (" + hosts / hostsPerLeaf + " leaves x " + hostsPerLeaf + ", " + spines
                    + " spines, " + parallelLinks + " links per leaf-spine pair)";
            if (workload.equals("permutation")) {
                base = Scenario.permutation(fabric, flowBytes, seed, config);
                what = "permutation of " + flowBytes + " B flows on " + where;
            } else {
                base = collectives(fabric, config);
                what = (workload.equals("ring-allreduce") ? "ring" : "halving-doubling") + " all-reduce of " + flowBytes
                        + " B per rank in " + hosts / ranks + " groups of " + ranks + " ranks on " + where;
            }
        }
        TransportModel model = switch (transport) {
            case "roce" -> RoceTransport.noCongestionControl().withAckEvery(ackEvery);
            case "dcqcn" -> RoceTransport.dcqcn(DcqcnParameters.zhu2015()).withAckEvery(ackEvery);
            case "gse" -> GseTransport.defaults();
            case "ctcc" -> new CtccTransport(RttControlParameters.ctcc(), 0, ackEvery, 64, fabriclab.fabric.Time.MS);
            default -> TransportModel.uncontrolled();
        };
        String name = String.format(Locale.ROOT, "%s, %s, %s, %s", what, transport,
                pfc == null ? "no PFC" : "PFC XOFF " + pfc.xoffBytes() + " B XON " + pfc.xonBytes() + " B", forwarding);
        return base.toBuilder().transport(model).pfc(pfc).name(name).build();
    }

    /** The collective of an all-reduce {@link #workload}: ring or halving-doubling. */
    Collective collective() {
        return workload.equals("ring-allreduce") ? Collective.RING_ALL_REDUCE : Collective.HALVING_DOUBLING_ALL_REDUCE;
    }

    /**
     * The collective of {@link #workload} in each of the {@code hosts / ranks} groups at once: rank r of group g on
     * host {@code r * groups + g}; each transfer of {@link CollectiveSchedule} a flow (source port drawn from
     * {@link #seed}) that starts when the transfers it waits for have arrived.
     */
    private Scenario collectives(LeafSpine fabric, SimulationConfig config) {
        CollectiveSchedule schedule = CollectiveSchedule.of(collective(), ranks, flowBytes);
        int groups = hosts / ranks;
        java.util.SplittableRandom ports = new java.util.SplittableRandom(seed);
        Scenario.Builder b = Scenario.builder(fabric.build(), config);
        for (int g = 0; g < groups; g++) {
            int[] hostOfRank = new int[ranks];
            for (int r = 0; r < ranks; r++) {
                hostOfRank[r] = r * groups + g;
            }
            b.collective(schedule, hostOfRank, () -> 49152 + ports.nextInt(16384));
        }
        return b.build();
    }

    /**
     * The packet-hops the run will take if nothing is dropped or sent twice: every data packet times the
     * links of its path (2 through one switch, 4 across the spines), and as many acknowledgements
     * again divided by {@link #ackEvery} for RoCE and CTCC (CTCC's probes and their replies, as many as the run's
     * duration over the probe interval per host pair, are not counted: the duration is not known before the run).
     * Decides the JVM profile ({@link SimulateCommand}).
     */
    public long estimatedPacketHops(Scenario s) {
        fabriclab.Parameters.notNull("s", s);
        long hops = 0;
        for (FlowSpec f : s.flows()) {
            long packets = (f.bytes() + mtuBytes - 1) / mtuBytes;
            int links = workload.equals("incast") || f.source() / hostsPerLeaf == f.destination() / hostsPerLeaf ? 2 : 4;
            long data = packets * links;
            boolean acked = !transport.equals("line-rate") && !transport.equals("gse");
            long acks = acked ? (packets + ackEvery - 1) / ackEvery * links : 0;
            hops = Math.addExact(hops, Math.addExact(data, acks));
        }
        return hops;
    }

    /** The usage text: every option with its default. */
    static String usage() {
        return String.join("\n",
                "usage: bin/simulate [options]   (one packet-level run; prints its figures, progress on stderr)",
                "  --workload permutation|incast|ring-allreduce|hd-allreduce  permutation (every host to a distinct other",
                "                                  host), incast, or all-reduce in groups of --ranks hosts [permutation]",
                "  --hosts N                       hosts of the leaf-spine, a multiple of --hosts-per-leaf [128]",
                "  --hosts-per-leaf N              [16]",
                "  --spines N                      [8]",
                "  --parallel-links N              links per leaf-spine pair [2]",
                "  --rate R                        every link, bit/s: 25G, 100G, 400G [100G]",
                "  --delay T                       propagation per link: 500ns, 1us [1us]",
                "  --flow-bytes S                  per flow (permutation), sender (incast) or rank (all-reduce buffer):",
                "                                  2MB, 4MiB [2MB; incast 4MB]",
                "  --senders N                     incast senders [64]",
                "  --ranks N                       ranks of each all-reduce group (hosts / N groups at once) [16]",
                "  --seed N                        seed of the permutation, source ports and random draws [5]",
                "  --transport roce|dcqcn|line-rate|ctcc|gse  RoCE go-back-N without or with DCQCN, line-rate senders,",
                "                                  CTCC (RTT probes, paced; ACK per 16, PFC off) or GSE (16 KB containers",
                "                                  granted by the leaves, sprayed; PFC off) [roce]",
                "  --ack-every N                   RoCE, CTCC: an ACK per N data packets [1; ctcc 16]",
                "  --forwarding ecmp|spray|spray-random  per flow, or per packet round robin / at random [ecmp]",
                "  --ecmp-seed N                   seed of the CRC-32 ECMP hash [7]",
                "  --pfc off|default|XOFF,XON      PFC thresholds in bytes [default: 15 packets, 12000; ctcc, gse: off]",
                "  --buffer S                      shared buffer per switch [16MB]",
                "  --mtu S --header S              payload and header per packet [1000, 64]",
                "  --threads N                     0: sequential engine; N >= 1: parallel engine on N threads [0]",
                "  --time-limit T                  stop at this simulated time: 10ms [none]",
                "  --flows FILE                    write one CSV line per flow to FILE",
                "  --jit auto|short|long           JVM profile: C1 only (short runs) or tiered with C2 [auto: by size]",
                "  --quiet                         no progress lines",
                "sizes: B, KB, MB, GB (x1000) or KiB, MiB, GiB; rates: K, M, G, T bit/s; times: ps, ns, us, ms, s");
    }

    private static String quote(String s) {
        return "\"" + s + "\"";
    }

    private static void oneOf(String option, String value, List<String> allowed) {
        if (value == null || !allowed.contains(value)) {
            throw new IllegalArgumentException(option + " must be one of " + String.join(", ", allowed) + ", got "
                    + (value == null ? "null" : quote(value)));
        }
    }

    private static void range(String option, long value, long lo, long hi) {
        if (value < lo || value > hi) {
            throw new IllegalArgumentException(option + " must be in [" + lo + ", " + hi + "], got " + value);
        }
    }

    private static int integer(String option, String text) {
        long v = longValue(option, text);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(option + " must be an integer, got " + quote(text));
        }
        return (int) v;
    }

    private static long longValue(String option, String text) {
        try {
            return Long.parseLong(text.trim().replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be an integer, got " + quote(text));
        }
    }

    /** A size in bytes: a number with B, KB, MB, GB, TB (x1000) or KiB, MiB, GiB, TiB. */
    static long bytes(String option, String text) {
        return scaled(option, text, "a size such as 2MB, 4MiB or 1500 (bytes)", new String[] {"TiB", "GiB", "MiB", "KiB",
                "TB", "GB", "MB", "KB", "B"}, new double[] {0x1p40, 0x1p30, 0x1p20, 0x1p10, 1e12, 1e9, 1e6, 1e3, 1});
    }

    /** A rate in bit/s: a number with K, M, G, T (optionally followed by bps or b/s). */
    static long rate(String option, String text) {
        String t = text.trim().replace("bps", "").replace("b/s", "");
        return scaled(option, t, "a rate such as 100G or 25G (bit/s)", new String[] {"T", "G", "M", "K"},
                new double[] {1e12, 1e9, 1e6, 1e3});
    }

    /** A time in ps: a number with ps, ns, us, ms or s. */
    static long time(String option, String text) {
        return scaled(option, text, "a time such as 1us, 500ns or 10ms", new String[] {"ps", "ns", "us", "ms", "s"},
                new double[] {1, 1e3, 1e6, 1e9, 1e12});
    }

    private static long scaled(String option, String text, String what, String[] units, double[] factors) {
        String t = text.trim();
        double factor = 1;
        for (int i = 0; i < units.length; i++) {
            if (t.endsWith(units[i])) {
                t = t.substring(0, t.length() - units[i].length()).trim();
                factor = factors[i];
                break;
            }
        }
        double v;
        try {
            v = Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be " + what + ", got " + quote(text));
        }
        double scaled = v * factor;
        if (!(scaled >= 0) || scaled >= 0x1p63 || Math.rint(scaled) != scaled) {
            throw new IllegalArgumentException(option + " must be " + what + " giving a whole number from 0 to 2^63 - 1, got "
                    + quote(text));
        }
        return (long) scaled;
    }

    /** The options as a command line (the re-started JVM gets them back this way). */
    List<String> toArgs() {
        List<String> a = new ArrayList<>(List.of("--workload", workload, "--hosts", Integer.toString(hosts),
                "--hosts-per-leaf", Integer.toString(hostsPerLeaf), "--spines", Integer.toString(spines),
                "--parallel-links", Integer.toString(parallelLinks), "--rate", Long.toString(rateBitsPerSecond),
                "--delay", delayPs + "ps", "--flow-bytes", Long.toString(flowBytes), "--senders", Integer.toString(senders),
                "--ranks", Integer.toString(ranks),
                "--seed", Long.toString(seed), "--transport", transport, "--ack-every", Integer.toString(ackEvery),
                "--forwarding", forwarding, "--ecmp-seed", Integer.toString(ecmpSeed),
                "--pfc", pfc == null ? "off" : pfc.xoffBytes() + "," + pfc.xonBytes(), "--buffer", Long.toString(bufferBytes),
                "--mtu", Integer.toString(mtuBytes), "--header", Integer.toString(headerBytes),
                "--threads", Integer.toString(threads), "--jit", jit));
        if (timeLimitPs != Long.MAX_VALUE) {
            a.addAll(List.of("--time-limit", timeLimitPs + "ps"));
        }
        if (flowsFile != null) {
            a.addAll(List.of("--flows", flowsFile));
        }
        if (quiet) {
            a.add("--quiet");
        }
        return a;
    }
}
