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
 * <p>Run: {@code java tools/RdmaReferenceRuns.java [<ns-3-alibabacloud work tree> [<out.csv>]]}; the work tree may
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

    private RdmaReferenceRuns() {
    }

    public static void main(String[] args) throws Exception {
        String tree = args.length > 0 ? args[0] : System.getenv("FABRICLAB_RDMA_REFERENCE");
        if (tree == null || tree.isBlank() || args.length > 2) {
            System.err.println("usage: java tools/RdmaReferenceRuns.java <ns-3-alibabacloud work tree> [<out.csv>]"
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
        Path out = Path.of(args.length > 1 ? args[1] : "datasets/published/rdma-ns3-dcqcn-incast.csv");
        StringBuilder csv = new StringBuilder("senders,quantity,node,port,time_ns,value\n");
        for (int n : SENDERS) {
            Path scenario = Path.of("tools/rdma-reference/scenarios/incast" + n);
            Path dir = Files.createTempDirectory("rdma-incast" + n + "-");
            try (var files = Files.list(scenario)) {
                for (Path f : files.sorted().toList()) {
                    Files.copy(f, dir.resolve(f.getFileName()));
                }
            }
            run(dir, List.of(program.toString(), "config_incast" + n + ".txt"), dir.resolve("stdout.txt"));
            run(dir, List.of(reader.toString(), "mix_incast" + n + ".tr"), dir.resolve("decoded.txt"));
            convert(n, dir, csv);
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
        Files.writeString(out, csv.toString(), StandardCharsets.UTF_8);
    }

    /** Runs {@code command} in {@code dir} with standard output to {@code stdout}; fails on a non-zero exit. */
    static void run(Path dir, List<String> command, Path stdout) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectOutput(stdout.toFile())
                .redirectError(dir.resolve("stderr-" + Path.of(command.get(0)).getFileName() + ".txt").toFile()).start();
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
}
