import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Runs fabriclab's DCQCN+PFC incast scenarios ({@code tools/rdma-reference/scenarios/incastN/}, N = 4, 8, 16) in the
 * RDMA model of HPCC's authors for ns-3 as aliyun/ns-3-alibabacloud carries it (its {@code scratch/NormalNetwork}
 * program, branch dev/qp) and writes what they measured as one CSV, the dataset
 * {@code datasets/published/rdma-ns3-dcqcn-incast.csv}.
 *
 * <p>It also runs the PFC victim scenarios ({@code hol_dcqcn}, {@code hol_pfc}: an incast and a victim flow on two leaves
 * and a spine) into {@code datasets/published/rdma-ns3-pfc-victim.csv} ({@link #convertVictim}) and the go-back-N scenario
 * ({@code gbn_linkdown}: a link going down mid-flow) into {@code datasets/published/rdma-ns3-gbn-linkdown.csv}
 * ({@link #convertGoBackN}); their columns are {@code scenario,quantity,node,port,time_ns,value}. Last, the DCQCN
 * all-to-all scenarios ({@code a2a_s0} to {@code a2a_s9}: 16 hosts, 4 leaves, 4 spines, hashed uplinks, one destination
 * port per run; {@code a2a_1spine}: one spine; {@code a2a_1spine_qpavail}: one spine, the NIC's queue-pair service
 * {@code QpAvail} instead of the program's default {@code DWRR}) into {@code datasets/published/rdma-ns3-alltoall.csv}
 * ({@link #convertAllToAll}, columns {@code scenario,quantity,source,destination,value}); these keep no packet trace.
 * The HPCC scenarios ({@code hpcc_incast8}, {@code hpcc_perm}: CcMode 3 with its window and in-band telemetry) go into
 * {@code datasets/published/rdma-ns3-hpcc.csv} ({@link #convertHpcc}, the same columns); the same two scenarios under
 * DCTCP ({@code CcMode 8}: {@code dctcp_incast8}, {@code dctcp_perm}), TIMELY ({@code CcMode 7}: {@code timely_*}) and
 * Swift ({@code CcMode 11}: {@code swift_*}) into {@code rdma-ns3-dctcp.csv}, {@code rdma-ns3-timely.csv} and
 * {@code rdma-ns3-swift.csv} ({@link #CC_SCENARIOS}). Last, the two HPCC scenarios again under fabriclab's order of
 * simultaneous events, draw seeds 1 to 5 ({@link #TIE_RULE_DATASET}): {@code tools/rdma-reference/tie_rule_scheduler.cc},
 * compiled here with g++ against the tree's build, is loaded with {@code LD_PRELOAD} and becomes the simulator's
 * scheduler; the reference's sources stay as they are.
 *
 * <p>Run: {@code java tools/RdmaReferenceRuns.java [<ns-3-alibabacloud work tree> [<out dir> | <incast out.csv>]]}
 * (out dir: all its datasets, default {@code datasets/published}; a file name ending in .csv: the incast dataset
 * alone, written there); the work tree may
 * also be given as the environment variable {@code FABRICLAB_RDMA_REFERENCE}. The tree must hold the built program
 * {@code simulation/build/scratch/ns3.36.1-NormalNetwork} and the trace decoder {@code analysis/trace_reader} (built
 * with {@code make trace_reader} in {@code analysis/}); the dataset's provenance says how they were built. Each
 * scenario's files are copied into a fresh temporary directory, the program is run there (its paths are relative),
 * and its outputs are read; the reference is deterministic, so the same build gives the same bytes. Run from the
 * repository's root (the scenarios are read from {@code tools/rdma-reference/scenarios/}).
 *
 * <p>The CSV has one row per measured value: {@code senders,quantity,node,port,time_ns,value}, node and port the
 * reference's node id and interface index (-1 where none applies), time in ns since the flows started (-1 where the
 * value is not tied to an instant), all values whole numbers. The quantities, per run:
 * <ul>
 *   <li>{@code fct_ns} (node: sender): the flow's completion time as the program reports it (flow start to the
 *       sender's receipt of the ACK of its last byte); {@code standalone_fct_ns} (node -1): the program's ideal FCT
 *       (base RTT plus wire bytes at the bottleneck rate).</li>
 *   <li>{@code cnp_acks} (node: sender): CNP-flagged ACKs the sender's queue pair received in all.</li>
 *   <li>{@code rate_cuts} (node: sender): 1-us samples of the queue pair's DCQCN rate below the sample before.</li>
 *   <li>{@code min_rate_bps} (node: sender): lowest sampled DCQCN rate.</li>
 *   <li>{@code rate_bps} (node: sender, time_ns a multiple of 10 us): the rate sample at that instant, while the flow
 *       runs.</li>
 *   <li>{@code pause_received}, {@code resume_received} (node: host, port: its interface): PFC frames the port received
 *       (PAUSE and RESUME); {@code first_pause_ns} the time of its first PAUSE; {@code paused_ns} the time between
 *       each PAUSE and the RESUME after it, summed.</li>
 *   <li>{@code pause_sent}, {@code resume_sent} (node: switch, port: its interface): PFC frames the switch sent through
 *       that port (from the switch's packet trace).</li>
 *   <li>{@code ecn_marked} (node: switch, port: toward the receiver): data packets that left the port ECN-marked.</li>
 *   <li>{@code drops} (node: switch): packets the switch dropped.</li>
 *   <li>{@code peak_queue_bytes} (node: switch, port: toward the receiver, time_ns: when): the largest 1-us sample of
 *       the data priority's egress queue; {@code queue_bytes} (time_ns a multiple of 10 us): the latest sample at or
 *       before that instant, from the start to the last completion.</li>
 * </ul>
 */
public final class RdmaReferenceRuns {
    /** Senders of the scenarios, each with its directory {@code incastN}. */
    static final int[] SENDERS = {4, 8, 16};
    /** Flows start at 2 s of simulated time (the ns-3 convention of HPCC's configurations). */
    static final long START_NS = 2_000_000_000L;
    /** Spacing of the downsampled queue and rate traces, ns. */
    static final long TRACE_STEP_NS = 10_000;
    /** The data priority of the flows (their flow file's pg column). */
    static final int DATA_QUEUE = 3;
    /** The incast dataset's name. */
    static final String INCAST_DATASET = "rdma-ns3-dcqcn-incast";
    /** The PFC victim dataset's name and its scenarios (DCQCN+PFC, PFC alone). */
    static final String VICTIM_DATASET = "rdma-ns3-pfc-victim";
    static final List<String> VICTIM_SCENARIOS = List.of("hol_dcqcn", "hol_pfc");
    /** The go-back-N dataset's name and its scenario. */
    static final String GBN_DATASET = "rdma-ns3-gbn-linkdown";
    static final String GBN_SCENARIO = "gbn_linkdown";
    /** The all-to-all dataset's name; its hashed runs (four spines, destination ports 100 to 109) and its control. */
    static final String ALLTOALL_DATASET = "rdma-ns3-alltoall";
    static final int ALLTOALL_SEEDS = 10;
    static final String ALLTOALL_CONTROL = "a2a_1spine";
    /** The control with the NIC's queue-pair service set to QpAvail (the published HPCC model's rule and ours). */
    static final String ALLTOALL_CONTROL_QPAVAIL = "a2a_1spine_qpavail";
    /** Hosts of the all-to-all scenarios (every one sends to every other). */
    static final int ALLTOALL_HOSTS = 16;

    private RdmaReferenceRuns() {
    }

    public static void main(String[] args) throws Exception {
        String tree = args.length > 0 ? args[0] : System.getenv("FABRICLAB_RDMA_REFERENCE");
        if (tree == null || tree.isBlank() || args.length > 2) {
            System.err.println("usage: java tools/RdmaReferenceRuns.java <ns-3-alibabacloud work tree> [<out dir> | <incast out.csv>]"
                    + " (or set FABRICLAB_RDMA_REFERENCE)");
            System.exit(2);
        }
        Path root = Path.of(tree);
        Path program = root.resolve("simulation/build/scratch/ns3.36.1-NormalNetwork");
        Path reader = root.resolve("analysis/trace_reader");
        for (Path p : List.of(program, reader)) {
            if (!Files.isExecutable(p)) {
                throw new IllegalStateException(p + " is not an executable file: build the reference first (see the"
                        + " provenance of datasets/published/rdma-ns3-dcqcn-incast)");
            }
        }
        String target = args.length > 1 ? args[1] : "datasets/published";
        boolean incastOnly = target.endsWith(".csv");
        Path out = incastOnly ? Path.of(target) : Path.of(target, INCAST_DATASET + ".csv");
        StringBuilder csv = new StringBuilder("senders,quantity,node,port,time_ns,value\n");
        for (int n : SENDERS) {
            Path dir = runScenario(program, reader, "incast" + n);
            convert(n, dir, csv);
            deleteRun(dir);
        }
        Files.writeString(out, csv.toString(), StandardCharsets.UTF_8);
        if (incastOnly) {
            return;
        }
        StringBuilder victim = new StringBuilder("scenario,quantity,node,port,time_ns,value\n");
        for (String id : VICTIM_SCENARIOS) {
            Path dir = runScenario(program, reader, id);
            convertVictim(id, dir, victim);
            deleteRun(dir);
        }
        Files.writeString(Path.of(target, VICTIM_DATASET + ".csv"), victim.toString(), StandardCharsets.UTF_8);
        StringBuilder gbn = new StringBuilder("scenario,quantity,node,port,time_ns,value\n");
        Path dir = runScenario(program, reader, GBN_SCENARIO);
        convertGoBackN(GBN_SCENARIO, dir, gbn);
        deleteRun(dir);
        Files.writeString(Path.of(target, GBN_DATASET + ".csv"), gbn.toString(), StandardCharsets.UTF_8);
        StringBuilder a2a = new StringBuilder("scenario,quantity,source,destination,value\n");
        List<String> ids = new ArrayList<>();
        for (int k = 0; k < ALLTOALL_SEEDS; k++) {
            ids.add("a2a_s" + k);
        }
        ids.add(ALLTOALL_CONTROL);
        ids.add(ALLTOALL_CONTROL_QPAVAIL);
        for (String id : ids) {
            Path run = runScenario(program, null, id);
            convertAllToAll(id, run, a2a);
            deleteRun(run);
        }
        Files.writeString(Path.of(target, ALLTOALL_DATASET + ".csv"), a2a.toString(), StandardCharsets.UTF_8);
        StringBuilder hpcc = new StringBuilder("scenario,quantity,source,destination,value\n");
        for (String id : HPCC_SCENARIOS) {
            Path run = runScenario(program, null, id);
            convertHpcc(id, run, hpcc);
            deleteRun(run);
        }
        Files.writeString(Path.of(target, HPCC_DATASET + ".csv"), hpcc.toString(), StandardCharsets.UTF_8);
        for (Map.Entry<String, List<String>> cc : CC_SCENARIOS.entrySet()) {
            StringBuilder rows = new StringBuilder("scenario,quantity,source,destination,value\n");
            for (String id : cc.getValue()) {
                Path run = runScenario(program, null, id);
                convertHpcc(id, run, rows);
                deleteRun(run);
            }
            Files.writeString(Path.of(target, cc.getKey() + ".csv"), rows.toString(), StandardCharsets.UTF_8);
        }
        Path scheduler = buildTieRuleScheduler(root);
        underRule(program, null, scheduler, target, HPCC_DATASET, "scenario,quantity,source,destination,value", HPCC_SCENARIOS,
                RdmaReferenceRuns::convertHpcc); // into TIE_RULE_DATASET
        List<String> incasts = new ArrayList<>();
        for (int n : SENDERS) {
            incasts.add("incast" + n);
        }
        underRule(program, reader, scheduler, target, INCAST_DATASET, "senders,quantity,node,port,time_ns,value", incasts,
                (id, run, rows) -> convert(Integer.parseInt(id.substring("incast".length())), run, rows));
        underRule(program, reader, scheduler, target, VICTIM_DATASET, "scenario,quantity,node,port,time_ns,value",
                VICTIM_SCENARIOS, RdmaReferenceRuns::convertVictim);
        underRule(program, reader, scheduler, target, GBN_DATASET, "scenario,quantity,node,port,time_ns,value",
                List.of(GBN_SCENARIO), RdmaReferenceRuns::convertGoBackN);
        underRule(program, null, scheduler, target, ALLTOALL_DATASET, "scenario,quantity,source,destination,value", ids,
                RdmaReferenceRuns::convertAllToAll);
        for (Map.Entry<String, List<String>> cc : CC_SCENARIOS.entrySet()) {
            underRule(program, null, scheduler, target, cc.getKey(), "scenario,quantity,source,destination,value",
                    cc.getValue(), RdmaReferenceRuns::convertHpcc);
        }
        Files.deleteIfExists(scheduler);
        Files.delete(scheduler.getParent());
    }

    /** Converts a run's outputs (in {@code dir}) of scenario {@code id} into a dataset's rows. */
    interface Converter {
        void convert(String id, Path dir, StringBuilder csv) throws IOException;
    }

    /** The name of dataset {@code name}'s runs under fabriclab's order of simultaneous events. */
    static String tieRuleName(String name) {
        return name + "-tie-rule";
    }

    /**
     * Runs every scenario of {@code ids} under the tie rule (the scheduler {@code scheduler}) with draw seeds 1 to
     * {@link #TIE_SEEDS} and writes dataset {@code name}'s rows of all the runs into {@link #tieRuleName}{@code (name)}:
     * its columns ({@code header}) with {@code tie_seed} after the first, scenario-major, then seed.
     */
    static void underRule(Path program, Path reader, Path scheduler, String target, String name, String header,
            List<String> ids, Converter converter) throws IOException, InterruptedException {
        int first = header.indexOf(',');
        StringBuilder csv = new StringBuilder(header.substring(0, first + 1)).append("tie_seed").append(header.substring(first))
                .append('\n');
        for (String id : ids) {
            for (int seed = 1; seed <= TIE_SEEDS; seed++) {
                Path run = runScenario(program, reader, id, Map.of("LD_PRELOAD", scheduler.toString(),
                        "FABRICLAB_TIE_TOPO", "topo_" + id + ".txt", "FABRICLAB_TIE_SEED", String.valueOf(seed)));
                StringBuilder rows = new StringBuilder();
                converter.convert(id, run, rows);
                for (String line : rows.toString().split("\n")) {
                    int comma = line.indexOf(',');
                    csv.append(line, 0, comma + 1).append(seed).append(line.substring(comma)).append('\n');
                }
                deleteRun(run);
            }
        }
        Files.writeString(Path.of(target, tieRuleName(name) + ".csv"), csv.toString(), StandardCharsets.UTF_8);
    }

    /**
     * The HPCC scenarios run under fabriclab's order of simultaneous events ({@code CanonicalOrder}) instead of the
     * reference's own (scheduling order): the dataset's name and the draw's seeds 1 to this. Columns: those of
     * {@link #convertHpcc} with {@code tie_seed} after the scenario.
     */
    static final String TIE_RULE_DATASET = "rdma-ns3-hpcc-tie-rule";
    static final int TIE_SEEDS = 5;

    /**
     * Compiles {@code tools/rdma-reference/tie_rule_scheduler.cc} (fabriclab's tie rule as an ns-3 scheduler) against
     * the tree's build into a shared library in a fresh temporary directory, for {@code LD_PRELOAD}; returns its path.
     */
    static Path buildTieRuleScheduler(Path root) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("rdma-tie-rule-");
        Path lib = dir.resolve("tie_rule_scheduler.so");
        Path build = root.resolve("simulation/build").toAbsolutePath();
        run(dir, List.of("g++", "-O2", "-std=c++17", "-shared", "-fPIC", "-I", build.resolve("include").toString(),
                Path.of("tools/rdma-reference/tie_rule_scheduler.cc").toAbsolutePath().toString(), "-o", lib.toString(),
                "-L", build.resolve("lib").toString(), "-Wl,-rpath," + build.resolve("lib"), "-lns3.36.1-core"),
                dir.resolve("g++.txt"));
        Files.delete(dir.resolve("g++.txt"));
        Files.deleteIfExists(dir.resolve("stderr-g++.txt"));
        return lib;
    }

    /**
     * The datasets of the other congestion controls the reference selects with {@code CcMode} (8 DCTCP, 7 TIMELY,
     * 11 Swift), each on the HPCC runs' two scenarios, with the HPCC dataset's columns ({@link #convertHpcc}).
     */
    static final Map<String, List<String>> CC_SCENARIOS = new java.util.LinkedHashMap<>(Map.of(
            "rdma-ns3-dctcp", List.of("dctcp_incast8", "dctcp_perm")));

    static {
        CC_SCENARIOS.put("rdma-ns3-timely", List.of("timely_incast8", "timely_perm"));
        CC_SCENARIOS.put("rdma-ns3-swift", List.of("swift_incast8", "swift_perm"));
    }

    /** The HPCC dataset's name and its scenarios (an 8-to-1 incast on one switch; a permutation under one spine). */
    static final String HPCC_DATASET = "rdma-ns3-hpcc";
    static final List<String> HPCC_SCENARIOS = List.of("hpcc_incast8", "hpcc_perm");

    /**
     * Appends HPCC run {@code id}'s rows to {@code csv} (columns {@code scenario,quantity,source,destination,value}):
     * per flow (source, destination) {@code fct_ns} and {@code standalone_fct_ns}; per run (-1, -1)
     * {@code pause_received} (PFC PAUSE frames received by any device) and {@code peak_queue_bytes}, the largest sample
     * of any switch egress queue of the data priority (1-us samples).
     */
    static void convertHpcc(String id, Path dir, StringBuilder csv) throws IOException {
        List<long[]> flows = new ArrayList<>();
        for (String[] f : rows(dir.resolve("fct_" + id + ".txt"), " ", false)) {
            if (Long.parseLong(f[5]) != START_NS) {
                throw new IllegalStateException(id + ": a flow started at " + f[5] + " ns, not " + START_NS);
            }
            flows.add(new long[] {nodeOfIp(f[0]), nodeOfIp(f[1]), Long.parseLong(f[6]), Long.parseLong(f[7])});
        }
        flows.sort(Comparator.comparingLong((long[] f) -> f[0]).thenComparingLong(f -> f[1]));
        for (long[] f : flows) {
            csv.append(id).append(",fct_ns,").append(f[0]).append(',').append(f[1]).append(',').append(f[2]).append('\n');
        }
        for (long[] f : flows) {
            csv.append(id).append(",standalone_fct_ns,").append(f[0]).append(',').append(f[1]).append(',').append(f[3])
                    .append('\n');
        }
        long pauses = 0;
        for (String[] r : rows(dir.resolve("pfc_" + id + ".txt"), " ", false)) {
            pauses += r[4].equals("1") ? 1 : 0;
        }
        csv.append(id).append(",pause_received,-1,-1,").append(pauses).append('\n');
        long peak = 0;
        for (String[] r : rows(dir.resolve("qlen_" + id + ".txt"), ", ", true)) {
            if (Integer.parseInt(r[3]) == DATA_QUEUE) {
                peak = Math.max(peak, Long.parseLong(r[4]));
            }
        }
        csv.append(id).append(",peak_queue_bytes,-1,-1,").append(peak).append('\n');
    }

    /**
     * Copies scenario {@code id}'s files ({@code tools/rdma-reference/scenarios/<id>/}) into a fresh temporary
     * directory, runs the program on {@code config_<id>.txt} there and decodes its packet trace into
     * {@code decoded.txt} (not when {@code reader} is null: a scenario without a trace); returns the directory.
     */
    static Path runScenario(Path program, Path reader, String id) throws IOException, InterruptedException {
        return runScenario(program, reader, id, Map.of());
    }

    /** As {@link #runScenario(Path, Path, String)}, the program run with {@code env} added to its environment. */
    static Path runScenario(Path program, Path reader, String id, Map<String, String> env)
            throws IOException, InterruptedException {
        Path scenario = Path.of("tools/rdma-reference/scenarios/" + id);
        Path dir = Files.createTempDirectory("rdma-" + id + "-");
        try (var files = Files.list(scenario)) {
            for (Path f : files.sorted().toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        run(dir, List.of(program.toString(), "config_" + id + ".txt"), dir.resolve("stdout.txt"), env);
        if (reader != null) {
            run(dir, List.of(reader.toString(), "mix_" + id + ".tr"), dir.resolve("decoded.txt"));
        }
        return dir;
    }

    static void deleteRun(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    /** Runs {@code command} in {@code dir} with standard output to {@code stdout}; fails on a non-zero exit. */
    static void run(Path dir, List<String> command, Path stdout) throws IOException, InterruptedException {
        run(dir, command, stdout, Map.of());
    }

    /** As {@link #run(Path, List, Path)}, with {@code env} added to the command's environment. */
    static void run(Path dir, List<String> command, Path stdout, Map<String, String> env)
            throws IOException, InterruptedException {
        ProcessBuilder b = new ProcessBuilder(command).directory(dir.toFile()).redirectOutput(stdout.toFile())
                .redirectError(dir.resolve("stderr-" + Path.of(command.get(0)).getFileName() + ".txt").toFile());
        b.environment().putAll(env);
        Process p = b.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(command + " did not finish in 10 minutes");
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException(command + " exited with " + p.exitValue() + " (in " + dir + ")");
        }
    }

    private static void row(StringBuilder csv, int n, String quantity, long node, long port, long timeNs, long value) {
        csv.append(n).append(',').append(quantity).append(',').append(node).append(',').append(port).append(',')
                .append(timeNs).append(',').append(value).append('\n');
    }

    /** Node id of a host IP written in hex (11.x.y.1: the node id is bits 8 to 23). */
    static int nodeOfIp(String hex) {
        return (int) ((Long.parseLong(hex, 16) >> 8) & 0xffff);
    }

    static List<String[]> rows(Path file, String separator, boolean header) throws IOException {
        List<String[]> out = new ArrayList<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = header ? 1 : 0; i < lines.size(); i++) {
            String l = lines.get(i).trim();
            if (!l.isEmpty()) {
                out.add(l.split(separator));
            }
        }
        return out;
    }

    static void convert(int n, Path dir, StringBuilder csv) throws IOException {
        String id = "_incast" + n;
        int sw = n + 1;
        int bottleneck = n + 1; // the switch's interface i + 1 leads to host i; host n receives
        // completion times
        List<String[]> fct = rows(dir.resolve("fct" + id + ".txt"), " ", false);
        if (fct.size() != n) {
            throw new IllegalStateException("incast" + n + ": " + fct.size() + " flows completed, expected " + n);
        }
        long[] fctNs = new long[n];
        long standalone = -1;
        for (String[] f : fct) {
            int src = nodeOfIp(f[0]);
            fctNs[src] = Long.parseLong(f[6]);
            standalone = Long.parseLong(f[7]);
            if (Long.parseLong(f[5]) != START_NS) {
                throw new IllegalStateException("incast" + n + ": a flow started at " + f[5] + " ns, not " + START_NS);
            }
        }
        long makespan = 0;
        for (int s = 0; s < n; s++) {
            row(csv, n, "fct_ns", s, -1, -1, fctNs[s]);
            makespan = Math.max(makespan, fctNs[s]);
        }
        row(csv, n, "standalone_fct_ns", -1, -1, -1, standalone);
        // CNPs: cumulative count per queue pair, rows only when it changed; the last is the total
        long[] cnps = new long[n];
        for (String[] r : rows(dir.resolve("cnp" + id + ".txt"), ",\\s*", true)) {
            int src = Integer.parseInt(r[1]);
            cnps[src] = Math.max(cnps[src], Long.parseLong(r[6]));
        }
        for (int s = 0; s < n; s++) {
            row(csv, n, "cnp_acks", s, -1, -1, cnps[s]);
        }
        // rates: every queue pair every 1 us while it runs
        List<Map<Long, Long>> rate = new ArrayList<>();
        for (int s = 0; s < n; s++) {
            rate.add(new TreeMap<>());
        }
        for (String[] r : rows(dir.resolve("rate" + id + ".txt"), ",\\s*", true)) {
            rate.get(Integer.parseInt(r[1])).put(Long.parseLong(r[0]) - START_NS, Long.parseLong(r[6]));
        }
        for (int s = 0; s < n; s++) {
            long cuts = 0;
            long min = Long.MAX_VALUE;
            long previous = -1;
            for (long v : rate.get(s).values()) {
                if (previous >= 0 && v < previous) {
                    cuts++;
                }
                previous = v;
                min = Math.min(min, v);
            }
            row(csv, n, "rate_cuts", s, -1, -1, cuts);
            row(csv, n, "min_rate_bps", s, -1, -1, min);
        }
        for (int s = 0; s < n; s++) {
            for (Map.Entry<Long, Long> e : rate.get(s).entrySet()) {
                if (e.getKey() % TRACE_STEP_NS == 0 && e.getKey() <= fctNs[s]) {
                    row(csv, n, "rate_bps", s, -1, e.getKey(), e.getValue());
                }
            }
        }
        // PFC frames received (logged at the receiving device): time node type ifindex kind (1 PAUSE, 0 RESUME)
        Map<String, long[]> received = new TreeMap<>(Comparator.comparingInt((String k) -> Integer.parseInt(k.split(":")[0]))
                .thenComparingInt(k -> Integer.parseInt(k.split(":")[1])));
        for (int s = 0; s < n; s++) {
            received.put(s + ":1", new long[] {0, 0, -1, 0, -1}); // each sender's one interface, paused or not
        }
        for (String[] r : rows(dir.resolve("pfc" + id + ".txt"), " ", false)) {
            long t = Long.parseLong(r[0]) - START_NS;
            long[] c = received.computeIfAbsent(r[1] + ":" + r[3], k -> new long[] {0, 0, -1, 0, -1});
            if (r[4].equals("1")) {
                c[0]++;
                if (c[2] < 0) {
                    c[2] = t;
                }
                if (c[4] < 0) {
                    c[4] = t; // paused since
                }
            } else {
                c[1]++;
                if (c[4] >= 0) {
                    c[3] += t - c[4];
                    c[4] = -1;
                }
            }
        }
        for (Map.Entry<String, long[]> e : received.entrySet()) {
            long node = Long.parseLong(e.getKey().split(":")[0]);
            long port = Long.parseLong(e.getKey().split(":")[1]);
            long[] c = e.getValue();
            if (c[4] >= 0) {
                throw new IllegalStateException("incast" + n + ": node " + node + " port " + port + " still paused at the end");
            }
            row(csv, n, "pause_received", node, port, -1, c[0]);
            row(csv, n, "resume_received", node, port, -1, c[1]);
            row(csv, n, "first_pause_ns", node, port, c[2], c[2]); // -1: never paused
            row(csv, n, "paused_ns", node, port, -1, c[3]);
        }
        // the switch's packet trace: PFC frames sent, ECN-marked data leaving the bottleneck, drops
        Map<Integer, long[]> sent = new TreeMap<>();
        for (int p = 1; p <= n + 1; p++) {
            sent.put(p, new long[2]);
        }
        long marked = 0;
        long drops = 0;
        try (BufferedReader in = Files.newBufferedReader(dir.resolve("decoded.txt"), StandardCharsets.UTF_8)) {
            for (String l = in.readLine(); l != null; l = in.readLine()) {
                String[] f = l.split(" ");
                if (f.length < 10 || !f[1].equals("n:" + sw)) {
                    continue;
                }
                int port = Integer.parseInt(f[2].substring(0, f[2].indexOf(':')));
                if (f[4].equals("Drop")) {
                    drops++;
                } else if (f[4].equals("Dequ") && f[8].equals("P")) { // ... sip dip P pause_time qlen qIndex size
                    sent.computeIfAbsent(port, k -> new long[2])[f[9].equals("0") ? 1 : 0]++;
                } else if (f[4].equals("Dequ") && f[10].equals("U") && port == bottleneck && f[5].equals("ecn:3")) {
                    marked++;
                }
            }
        }
        for (Map.Entry<Integer, long[]> e : sent.entrySet()) {
            row(csv, n, "pause_sent", sw, e.getKey(), -1, e.getValue()[0]);
            row(csv, n, "resume_sent", sw, e.getKey(), -1, e.getValue()[1]);
        }
        row(csv, n, "ecn_marked", sw, bottleneck, -1, marked);
        row(csv, n, "drops", sw, -1, -1, drops);
        // the bottleneck's data queue, sampled every 1 us (rows only when the port's total changed)
        TreeMap<Long, Long> queue = new TreeMap<>();
        for (String[] r : rows(dir.resolve("qlen" + id + ".txt"), ",\\s*", true)) {
            if (Integer.parseInt(r[1]) == sw && Integer.parseInt(r[2]) == bottleneck && Integer.parseInt(r[3]) == DATA_QUEUE) {
                queue.put(Long.parseLong(r[0]) - START_NS, Long.parseLong(r[4]));
            }
        }
        long peak = -1;
        long peakAt = -1;
        for (Map.Entry<Long, Long> e : queue.entrySet()) {
            if (e.getValue() > peak) {
                peak = e.getValue();
                peakAt = e.getKey();
            }
        }
        row(csv, n, "peak_queue_bytes", sw, bottleneck, peakAt, peak);
        for (long t = 0; t <= makespan; t += TRACE_STEP_NS) {
            Map.Entry<Long, Long> e = queue.floorEntry(t);
            row(csv, n, "queue_bytes", sw, bottleneck, t, e == null ? 0 : e.getValue());
        }
    }

    private static void row(StringBuilder csv, String id, String quantity, long node, long port, long timeNs, long value) {
        csv.append(id).append(',').append(quantity).append(',').append(node).append(',').append(port).append(',')
                .append(timeNs).append(',').append(value).append('\n');
    }

    /** Key of a (node, port) pair, ordered by node then port. */
    private static long key(long node, long port) {
        return node * 1000 + port;
    }

    /**
     * The PFC victim runs: per flow (node: its source) {@code fct_ns}, {@code standalone_fct_ns}, {@code cnp_acks};
     * per port that received PFC frames (and every source's interface 1) {@code pause_received},
     * {@code resume_received}, {@code paused_ns}; per switch port that sent any, from the switches' packet trace,
     * {@code pause_sent}, {@code resume_sent}; per switch port with marks {@code ecn_marked}; per switch {@code drops};
     * per switch port whose data queue held anything {@code peak_queue_bytes} (the largest 1-us sample, time_ns when).
     */
    static void convertVictim(String id, Path dir, StringBuilder csv) throws IOException {
        String suffix = "_" + id;
        TreeMap<Integer, long[]> fct = new TreeMap<>();
        for (String[] f : rows(dir.resolve("fct" + suffix + ".txt"), " ", false)) {
            if (Long.parseLong(f[5]) != START_NS) {
                throw new IllegalStateException(id + ": a flow started at " + f[5] + " ns, not " + START_NS);
            }
            fct.put(nodeOfIp(f[0]), new long[] {Long.parseLong(f[6]), Long.parseLong(f[7])});
        }
        if (fct.size() != 4) {
            throw new IllegalStateException(id + ": " + fct.size() + " flows completed, expected 4");
        }
        for (Map.Entry<Integer, long[]> e : fct.entrySet()) {
            row(csv, id, "fct_ns", e.getKey(), -1, -1, e.getValue()[0]);
            row(csv, id, "standalone_fct_ns", e.getKey(), -1, -1, e.getValue()[1]);
        }
        TreeMap<Integer, Long> cnps = new TreeMap<>();
        for (int src : fct.keySet()) {
            cnps.put(src, 0L);
        }
        for (String[] r : rows(dir.resolve("cnp" + suffix + ".txt"), ",\\s*", true)) {
            cnps.merge(Integer.parseInt(r[1]), Long.parseLong(r[6]), Math::max);
        }
        cnps.forEach((src, c) -> row(csv, id, "cnp_acks", src, -1, -1, c));
        // PFC frames received: pause, resume, paused since, paused in all
        TreeMap<Long, long[]> received = new TreeMap<>();
        for (int src : fct.keySet()) {
            received.put(key(src, 1), new long[] {0, 0, -1, 0});
        }
        for (String[] r : rows(dir.resolve("pfc" + suffix + ".txt"), " ", false)) {
            long t = Long.parseLong(r[0]) - START_NS;
            long[] c = received.computeIfAbsent(key(Long.parseLong(r[1]), Long.parseLong(r[3])), k -> new long[] {0, 0, -1, 0});
            if (r[4].equals("1")) {
                c[0]++;
                if (c[2] < 0) {
                    c[2] = t;
                }
            } else {
                c[1]++;
                if (c[2] >= 0) {
                    c[3] += t - c[2];
                    c[2] = -1;
                }
            }
        }
        for (Map.Entry<Long, long[]> e : received.entrySet()) {
            long[] c = e.getValue();
            if (c[2] >= 0) {
                throw new IllegalStateException(id + ": port " + e.getKey() + " still paused at the end");
            }
            row(csv, id, "pause_received", e.getKey() / 1000, e.getKey() % 1000, -1, c[0]);
            row(csv, id, "resume_received", e.getKey() / 1000, e.getKey() % 1000, -1, c[1]);
            row(csv, id, "paused_ns", e.getKey() / 1000, e.getKey() % 1000, -1, c[3]);
        }
        // the switches' packet trace
        TreeMap<Long, long[]> sent = new TreeMap<>();
        TreeMap<Long, Long> marked = new TreeMap<>();
        TreeMap<Long, Long> drops = new TreeMap<>();
        try (BufferedReader in = Files.newBufferedReader(dir.resolve("decoded.txt"), StandardCharsets.UTF_8)) {
            for (String l = in.readLine(); l != null; l = in.readLine()) {
                String[] f = l.split(" ");
                if (f.length < 10 || !f[1].startsWith("n:")) {
                    continue;
                }
                long node = Long.parseLong(f[1].substring(2));
                long port = Integer.parseInt(f[2].substring(0, f[2].indexOf(':')));
                if (f[4].equals("Drop")) {
                    drops.merge(node, 1L, Long::sum);
                } else if (f[4].equals("Dequ") && f[8].equals("P")) {
                    sent.computeIfAbsent(key(node, port), k -> new long[2])[f[9].equals("0") ? 1 : 0]++;
                } else if (f[4].equals("Dequ") && f[10].equals("U") && f[5].equals("ecn:3")) {
                    marked.merge(key(node, port), 1L, Long::sum);
                }
            }
        }
        sent.forEach((k, c) -> {
            row(csv, id, "pause_sent", k / 1000, k % 1000, -1, c[0]);
            row(csv, id, "resume_sent", k / 1000, k % 1000, -1, c[1]);
        });
        marked.forEach((k, c) -> row(csv, id, "ecn_marked", k / 1000, k % 1000, -1, c));
        for (long sw : List.of(11L, 12L, 13L)) {
            row(csv, id, "drops", sw, -1, -1, drops.getOrDefault(sw, 0L));
        }
        // the data queues' peaks, from the 1-us samples
        TreeMap<Long, long[]> peaks = new TreeMap<>();
        for (String[] r : rows(dir.resolve("qlen" + suffix + ".txt"), ",\\s*", true)) {
            if (Integer.parseInt(r[3]) == DATA_QUEUE) {
                long[] p = peaks.computeIfAbsent(key(Long.parseLong(r[1]), Long.parseLong(r[2])), k -> new long[] {0, -1});
                long v = Long.parseLong(r[4]);
                if (v > p[0]) {
                    p[0] = v;
                    p[1] = Long.parseLong(r[0]) - START_NS;
                }
            }
        }
        peaks.forEach((k, p) -> {
            if (p[0] > 0) {
                row(csv, id, "peak_queue_bytes", k / 1000, k % 1000, p[1], p[0]);
            }
        });
    }

    /**
     * The go-back-N run (host 0 to host 1; switch 3's interface 1 leads to host 1, switch 2's interface 1 to host 0):
     * {@code fct_ns}, {@code standalone_fct_ns} (node 0); {@code data_sent} the data packets host 0 put on the wire
     * (received by switch 2 from it); {@code data_dropped}, {@code ack_dropped} (node: switch) the data packets and the
     * ACKs/NACKs the switch dropped; {@code nacks} the NACKs the receiver sent; {@code first_gap_ns} (port: the
     * sequence number expected then) when the first packet past a gap left switch 3 toward the receiver;
     * {@code gap_filled_ns} when the packet of that sequence number did.
     */
    static void convertGoBackN(String id, Path dir, StringBuilder csv) throws IOException {
        String suffix = "_" + id;
        List<String[]> fct = rows(dir.resolve("fct" + suffix + ".txt"), " ", false);
        if (fct.size() != 1 || Long.parseLong(fct.get(0)[5]) != START_NS) {
            throw new IllegalStateException(id + ": expected one flow completed, started at " + START_NS);
        }
        row(csv, id, "fct_ns", 0, -1, -1, Long.parseLong(fct.get(0)[6]));
        row(csv, id, "standalone_fct_ns", 0, -1, -1, Long.parseLong(fct.get(0)[7]));
        long sent = 0;
        long nacks = 0;
        TreeMap<Long, long[]> drops = new TreeMap<>();
        long expected = 0;
        long gapSeq = -1;
        long gapAt = -1;
        long filledAt = -1;
        try (BufferedReader in = Files.newBufferedReader(dir.resolve("decoded.txt"), StandardCharsets.UTF_8)) {
            for (String l = in.readLine(); l != null; l = in.readLine()) {
                String[] f = l.split(" ");
                if (f.length < 12 || !f[1].startsWith("n:")) {
                    continue;
                }
                long node = Long.parseLong(f[1].substring(2));
                int port = Integer.parseInt(f[2].substring(0, f[2].indexOf(':')));
                long t = Long.parseLong(f[0]) - START_NS;
                if (f[4].equals("Drop")) {
                    drops.computeIfAbsent(node, k -> new long[2])[f[10].equals("U") ? 0 : 1]++;
                } else if (node == 2 && port == 1 && f[4].equals("Recv") && f[10].equals("U")) {
                    sent++;
                } else if (node == 3 && port == 1 && f[4].equals("Recv") && f[10].equals("N")) {
                    nacks++;
                } else if (node == 3 && port == 1 && f[4].equals("Dequ") && f[10].equals("U")) {
                    long seq = Long.parseLong(f[11]);
                    if (seq == expected) {
                        expected += Long.parseLong(f[14].substring(f[14].indexOf('(') + 1, f[14].indexOf(')')));
                        if (seq == gapSeq && filledAt < 0) {
                            filledAt = t;
                        }
                    } else if (seq > expected && gapAt < 0) {
                        gapAt = t;
                        gapSeq = expected;
                    }
                }
            }
        }
        row(csv, id, "data_sent", 0, 1, -1, sent);
        for (long sw : List.of(2L, 3L, 4L)) {
            long[] d = drops.getOrDefault(sw, new long[2]);
            row(csv, id, "data_dropped", sw, -1, -1, d[0]);
            row(csv, id, "ack_dropped", sw, -1, -1, d[1]);
        }
        row(csv, id, "nacks", 1, 1, -1, nacks);
        row(csv, id, "first_gap_ns", 3, gapSeq, gapAt, gapAt);
        row(csv, id, "gap_filled_ns", 3, gapSeq, filledAt, filledAt);
    }

    /**
     * An all-to-all run (16 hosts, every one sends to every other): {@code fct_ns} per flow (source, destination) as the
     * program reports it; {@code standalone_fct_ns} per flow its ideal FCT (base RTT of its path plus its wire bytes at
     * line rate);
     * {@code pause_received} (source -1, destination -1) the PFC PAUSE frames received by any device, hosts and
     * switches, in the run. Rows of flows in source-major order, destinations ascending.
     */
    static void convertAllToAll(String id, Path dir, StringBuilder csv) throws IOException {
        long[][] fct = new long[ALLTOALL_HOSTS][ALLTOALL_HOSTS];
        long[][] standalone = new long[ALLTOALL_HOSTS][ALLTOALL_HOSTS];
        int flows = 0;
        for (String[] f : rows(dir.resolve("fct_" + id + ".txt"), " ", false)) {
            if (Long.parseLong(f[5]) != START_NS) {
                throw new IllegalStateException(id + ": a flow started at " + f[5] + " ns, not " + START_NS);
            }
            fct[nodeOfIp(f[0])][nodeOfIp(f[1])] = Long.parseLong(f[6]);
            standalone[nodeOfIp(f[0])][nodeOfIp(f[1])] = Long.parseLong(f[7]);
            flows++;
        }
        if (flows != ALLTOALL_HOSTS * (ALLTOALL_HOSTS - 1)) {
            throw new IllegalStateException(id + ": " + flows + " flows completed, expected " + ALLTOALL_HOSTS * (ALLTOALL_HOSTS - 1));
        }
        for (int a = 0; a < ALLTOALL_HOSTS; a++) {
            for (int b = 0; b < ALLTOALL_HOSTS; b++) {
                if (a != b) {
                    csv.append(id).append(",fct_ns,").append(a).append(',').append(b).append(',').append(fct[a][b]).append('\n');
                }
            }
        }
        for (int a = 0; a < ALLTOALL_HOSTS; a++) {
            for (int b = 0; b < ALLTOALL_HOSTS; b++) {
                if (a != b) {
                    csv.append(id).append(",standalone_fct_ns,").append(a).append(',').append(b).append(',')
                            .append(standalone[a][b]).append('\n');
                }
            }
        }
        long pauses = 0;
        for (String[] r : rows(dir.resolve("pfc_" + id + ".txt"), " ", false)) {
            pauses += r[4].equals("1") ? 1 : 0;
        }
        csv.append(id).append(",pause_received,-1,-1,").append(pauses).append('\n');
    }
}
