import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs fabriclab's Ultra Ethernet scenarios ({@code tools/uet-reference/scenarios/}, described in
 * {@code tools/uet-reference/README.md}) in the UEC's public reference simulator, htsim as the Ultra Ethernet
 * Consortium carries it (github.com/ultraethernet/uet-htsim, program {@code htsim_uec}), and writes what it measured as
 * four datasets: {@code datasets/published/uet-htsim-permutation.csv} (the shift permutation on the 32-host
 * leaf-spine), {@code uet-htsim-incast.csv} (N-to-1 incasts, N = 4, 8, 16, 24), {@code uet-htsim-failed-link.csv}
 * (the permutation with the reference's link failure, {@code -failed 1}) and {@code uet-htsim-incast-rccc.csv} (the
 * incasts with receiver credits beside NSCC, {@code -receiver_cc}). Every scenario runs with oblivious spraying
 * and with REPS ({@code -load_balancing_algo oblivious|reps}), NSCC, trimming on, and seeds 1 to {@value #SEEDS}.
 *
 * <p>Run: {@code java tools/UetReferenceRuns.java [--check] [<uet-htsim export> [<out dir>]]} from the repository's
 * root; the export (the repository's tree, built under {@code htsim/sim/build}) may also be given as the environment
 * variable {@code FABRICLAB_UET_REFERENCE}. It must hold the built programs
 * {@code htsim/sim/build/datacenter/htsim_uec} and {@code htsim/sim/build/parse_output}; the datasets' provenance
 * says how they were built. Without {@code --check} the CSVs are written to the out dir (default
 * {@code datasets/published}); with it they are written to a temporary directory and compared byte for byte with the
 * committed ones (exit status 1 and the differing files named when they differ). Each run copies its topology and
 * connection matrix into a fresh temporary directory, runs {@code htsim_uec} there (it writes {@code idmap.txt} to its
 * working directory), decodes its queue log with {@code parse_output -ascii} and reads both outputs.
 *
 * <p>Columns: {@code scenario,load_balancing,seed,quantity,source,destination,value}; source and destination are host
 * ids for a flow's rows and -1 for a run's rows; every value is a whole number. Quantities per flow: {@code fct_ns}
 * (the time the sender saw the last byte acknowledged; flows start at 0), {@code bytes} (the bytes the reference
 * reports delivered). Per run: {@code flows}, {@code fct_min_ns}, {@code fct_mean_ns} (rounded half up),
 * {@code fct_p50_ns}, {@code fct_p99_ns} (nearest rank), {@code fct_max_ns}, {@code goodput_bps} (all flows' bytes x 8
 * over the last completion), the reference's end-of-run counters {@code new_pkts}, {@code rtx_pkts}, {@code rts_pkts},
 * {@code bounced_pkts}, {@code acks}, {@code nacks}, {@code pulls}, {@code sleek_pkts}, its NSCC window-change sums
 * over the flows {@code nscc_fair_inc_bytes}, {@code nscc_prop_inc_bytes}, {@code nscc_fast_inc_bytes},
 * {@code nscc_eta_inc_bytes}, {@code nscc_multi_dec_bytes}, {@code nscc_quick_dec_bytes}, {@code nscc_nack_dec_bytes},
 * and the largest queue any port of a class reported: {@code peak_nic_queue_bytes} (host to leaf),
 * {@code peak_leaf_down_queue_bytes} (leaf to host), {@code peak_leaf_up_queue_bytes} (leaf to spine),
 * {@code peak_spine_down_queue_bytes} (spine to leaf).
 */
public final class UetReferenceRuns {
    /** Seeds of every scenario ({@code -seed 1} to {@code -seed SEEDS}). */
    static final int SEEDS = 10;
    /** The load-balancing modes run ({@code -load_balancing_algo}). */
    static final List<String> LOAD_BALANCING = List.of("oblivious", "reps");
    /** The scenarios' directory, relative to the repository's root. */
    static final Path SCENARIOS = Path.of("tools/uet-reference/scenarios");
    /** The topology file every scenario uses. */
    static final String TOPOLOGY = "leafspine32.topo";
    static final String HEADER = "scenario,load_balancing,seed,quantity,source,destination,value\n";

    /** One scenario: its id in the CSV, its connection matrix and the options added to {@code options.txt}. */
    record Run(String id, String matrix, List<String> extra) {
    }

    /** The datasets, each with its scenarios, in the order their rows are written. */
    static final Map<String, List<Run>> DATASETS = new java.util.LinkedHashMap<>();

    static {
        DATASETS.put("uet-htsim-permutation", List.of(new Run("permutation32", "permutation32.cm", List.of())));
        DATASETS.put("uet-htsim-incast", List.of(new Run("incast4", "incast4.cm", List.of()),
                new Run("incast8", "incast8.cm", List.of()), new Run("incast16", "incast16.cm", List.of()),
                new Run("incast24", "incast24.cm", List.of())));
        DATASETS.put("uet-htsim-failed-link",
                List.of(new Run("permutation32_failed1", "permutation32.cm", List.of("-failed", "1"))));
        DATASETS.put("uet-htsim-incast-rccc", List.of(new Run("incast4_rccc", "incast4.cm", List.of("-receiver_cc")),
                new Run("incast8_rccc", "incast8.cm", List.of("-receiver_cc")),
                new Run("incast16_rccc", "incast16.cm", List.of("-receiver_cc")),
                new Run("incast24_rccc", "incast24.cm", List.of("-receiver_cc"))));
    }

    private UetReferenceRuns() {
    }

    public static void main(String[] args) throws Exception {
        List<String> rest = new ArrayList<>(Arrays.asList(args));
        boolean check = rest.remove("--check");
        for (String a : rest) {
            if (a.startsWith("-")) {
                System.err.println("unknown option " + a + " (the only option is --check)");
                System.exit(2);
            }
        }
        String tree = !rest.isEmpty() ? rest.get(0) : System.getenv("FABRICLAB_UET_REFERENCE");
        if (tree == null || tree.isBlank() || rest.size() > 2) {
            System.err.println("usage: java tools/UetReferenceRuns.java [--check] <uet-htsim export> [<out dir>]"
                    + " (or set FABRICLAB_UET_REFERENCE)");
            System.exit(2);
        }
        Path root = Path.of(tree);
        Path program = root.resolve("htsim/sim/build/datacenter/htsim_uec");
        Path parser = root.resolve("htsim/sim/build/parse_output");
        for (Path p : List.of(program, parser)) {
            if (!Files.isExecutable(p)) {
                throw new IllegalStateException(p + " is not an executable file: build the reference first (see the"
                        + " provenance of datasets/published/uet-htsim-permutation)");
            }
        }
        Path out = check ? Files.createTempDirectory("uet-check-")
                : Path.of(rest.size() > 1 ? rest.get(1) : "datasets/published");
        List<String> options = List.of(Files.readString(SCENARIOS.resolve("options.txt"), StandardCharsets.UTF_8).trim()
                .split("\\s+"));
        for (Map.Entry<String, List<Run>> d : DATASETS.entrySet()) {
            StringBuilder csv = new StringBuilder(HEADER);
            for (Run run : d.getValue()) {
                for (String lb : LOAD_BALANCING) {
                    for (int seed = 1; seed <= SEEDS; seed++) {
                        long t0 = System.nanoTime();
                        runOnce(program, parser, options, run, lb, seed, csv);
                        System.err.printf("%s %s seed %d: %.2f s%n", run.id(), lb, seed, (System.nanoTime() - t0) / 1e9);
                    }
                }
            }
            Files.writeString(out.resolve(d.getKey() + ".csv"), csv.toString(), StandardCharsets.UTF_8);
        }
        if (check) {
            List<String> differ = new ArrayList<>();
            for (String name : DATASETS.keySet()) {
                byte[] ours = Files.readAllBytes(out.resolve(name + ".csv"));
                byte[] committed = Files.readAllBytes(Path.of("datasets/published", name + ".csv"));
                if (!Arrays.equals(ours, committed)) {
                    differ.add(name + ".csv (regenerated copy kept in " + out + ")");
                } else {
                    Files.delete(out.resolve(name + ".csv"));
                }
            }
            if (!differ.isEmpty()) {
                System.err.println("differ from datasets/published: " + differ);
                System.exit(1);
            }
            Files.delete(out);
            System.err.println("byte-identical: " + DATASETS.keySet());
        }
    }

    /** Runs one scenario with one load-balancing mode and seed and appends its rows to {@code csv}. */
    static void runOnce(Path program, Path parser, List<String> options, Run run, String lb, int seed, StringBuilder csv)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("uet-" + run.id() + "-");
        Files.copy(SCENARIOS.resolve(TOPOLOGY), dir.resolve(TOPOLOGY));
        Files.copy(SCENARIOS.resolve(run.matrix()), dir.resolve(run.matrix()));
        List<String> command = new ArrayList<>(List.of(program.toString(), "-tm", run.matrix(), "-topo", TOPOLOGY));
        command.addAll(options);
        command.addAll(run.extra());
        command.addAll(List.of("-load_balancing_algo", lb, "-seed", Integer.toString(seed), "-o", "log.dat"));
        exec(dir, command, dir.resolve("stdout.txt"));
        exec(dir, List.of(parser.toString(), "log.dat", "-ascii"), dir.resolve("queues.txt"));
        convert(run, lb, seed, dir, csv);
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    /** A flow's completion line: its name (source and destination), finish time in us, delivered bytes, NSCC sums. */
    static final Pattern FINISHED = Pattern.compile("^Flow Uec_(\\d+)_(\\d+) flowId \\d+ uecSrc \\d+ finished at (\\S+) total messages"
            + " \\d+ total packets \\d+ RTS \\d+ total bytes (\\d+) in_flight now -?\\d+ fair_inc (-?\\d+) prop_inc (-?\\d+)"
            + " fast_inc (-?\\d+) eta_inc (-?\\d+) multi_dec -(-?\\d+) quick_dec -(-?\\d+) nack_dec -(-?\\d+)$");
    /** The end-of-run counters line. */
    static final Pattern TOTALS = Pattern.compile("^New: (\\d+) Rtx: (\\d+) RTS: (\\d+) Bounced: (\\d+) ACKs: (\\d+)"
            + " NACKs: (\\d+) Pulls: (\\d+) sleek_pkts: (\\d+)$");
    static final Pattern CONNECTIONS = Pattern.compile("^Nodes: \\d+ Connections: (\\d+) .*");
    static final Pattern RANGE = Pattern.compile("^\\S+ Type QUEUE_APPROX ID (\\d+) Ev RANGE LastQ -?\\d+ MinQ -?\\d+ MaxQ (-?\\d+)$");
    static final List<String> NSCC = List.of("nscc_fair_inc_bytes", "nscc_prop_inc_bytes", "nscc_fast_inc_bytes",
            "nscc_eta_inc_bytes", "nscc_multi_dec_bytes", "nscc_quick_dec_bytes", "nscc_nack_dec_bytes");
    static final List<String> TOTAL_NAMES = List.of("new_pkts", "rtx_pkts", "rts_pkts", "bounced_pkts", "acks", "nacks",
            "pulls", "sleek_pkts");

    /** Reads a run's standard output and decoded queue log and appends its rows. */
    static void convert(Run run, String lb, int seed, Path dir, StringBuilder csv) throws IOException {
        String prefix = run.id() + "," + lb + "," + seed + ",";
        List<long[]> flows = new ArrayList<>(); // source, destination, fct ns, bytes
        long[] nscc = new long[NSCC.size()];
        long[] totals = null;
        int connections = -1;
        for (String line : Files.readAllLines(dir.resolve("stdout.txt"), StandardCharsets.UTF_8)) {
            Matcher m = FINISHED.matcher(line);
            if (m.matches()) {
                long fct = new BigDecimal(m.group(3)).movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
                flows.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), fct, Long.parseLong(m.group(4))});
                for (int i = 0; i < nscc.length; i++) {
                    nscc[i] += Long.parseLong(m.group(5 + i));
                }
                continue;
            }
            m = TOTALS.matcher(line);
            if (m.matches()) {
                totals = new long[TOTAL_NAMES.size()];
                for (int i = 0; i < totals.length; i++) {
                    totals[i] = Long.parseLong(m.group(1 + i));
                }
                continue;
            }
            m = CONNECTIONS.matcher(line);
            if (m.matches()) {
                connections = Integer.parseInt(m.group(1));
            }
        }
        if (totals == null || connections < 1 || flows.size() != connections) {
            throw new IllegalStateException(run.id() + " " + lb + " seed " + seed + ": " + flows.size() + " of " + connections
                    + " flows finished (or no totals line) in " + dir.resolve("stdout.txt"));
        }
        flows.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        for (long[] f : flows) {
            csv.append(prefix).append("fct_ns,").append(f[0]).append(',').append(f[1]).append(',').append(f[2]).append('\n');
        }
        for (long[] f : flows) {
            csv.append(prefix).append("bytes,").append(f[0]).append(',').append(f[1]).append(',').append(f[3]).append('\n');
        }
        long[] fct = flows.stream().mapToLong(f -> f[2]).sorted().toArray();
        long sum = Arrays.stream(fct).sum();
        long bytes = flows.stream().mapToLong(f -> f[3]).sum();
        int n = fct.length;
        runRow(csv, prefix, "flows", n);
        runRow(csv, prefix, "fct_min_ns", fct[0]);
        runRow(csv, prefix, "fct_mean_ns", (2 * sum + n) / (2L * n));
        runRow(csv, prefix, "fct_p50_ns", fct[(int) Math.ceil(0.50 * n) - 1]);
        runRow(csv, prefix, "fct_p99_ns", fct[(int) Math.ceil(0.99 * n) - 1]);
        runRow(csv, prefix, "fct_max_ns", fct[n - 1]);
        runRow(csv, prefix, "goodput_bps", new BigDecimal(bytes * 8).multiply(BigDecimal.valueOf(1_000_000_000L))
                .divide(BigDecimal.valueOf(fct[n - 1]), 0, RoundingMode.HALF_UP).longValueExact());
        for (int i = 0; i < totals.length; i++) {
            runRow(csv, prefix, TOTAL_NAMES.get(i), totals[i]);
        }
        for (int i = 0; i < nscc.length; i++) {
            runRow(csv, prefix, NSCC.get(i), nscc[i]);
        }
        Map<Long, String> names = new HashMap<>();
        for (String line : Files.readAllLines(dir.resolve("idmap.txt"), StandardCharsets.UTF_8)) {
            String[] f = line.trim().split(" ", 2);
            if (f.length == 2) {
                names.put(Long.parseLong(f[0]), f[1]);
            }
        }
        Map<String, Long> peak = new java.util.LinkedHashMap<>();
        for (String c : List.of("nic", "leaf_down", "leaf_up", "spine_down")) {
            peak.put(c, -1L);
        }
        for (String line : Files.readAllLines(dir.resolve("queues.txt"), StandardCharsets.UTF_8)) {
            Matcher m = RANGE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            String name = names.get(Long.parseLong(m.group(1)));
            String c = name == null ? null
                    : name.matches("SRC\\d+->LS\\d+\\(\\d+\\)") ? "nic"
                    : name.matches("LS\\d+->DST\\d+\\(\\d+\\)") ? "leaf_down"
                    : name.matches("LS\\d+->US\\d+\\(\\d+\\)") ? "leaf_up"
                    : name.matches("US\\d+->LS_\\d+\\(\\d+\\)") ? "spine_down" : null;
            if (c == null) {
                throw new IllegalStateException(run.id() + ": queue record of id " + m.group(1) + " (" + name
                        + ") is of no known class");
            }
            peak.merge(c, Long.parseLong(m.group(2)), Math::max);
        }
        for (Map.Entry<String, Long> e : peak.entrySet()) {
            if (e.getValue() < 0) {
                throw new IllegalStateException(run.id() + ": no queue record for class " + e.getKey());
            }
            runRow(csv, prefix, "peak_" + e.getKey() + "_queue_bytes", e.getValue());
        }
    }

    private static void runRow(StringBuilder csv, String prefix, String quantity, long value) {
        csv.append(prefix).append(quantity).append(",-1,-1,").append(value).append('\n');
    }

    /** Runs {@code command} in {@code dir} with standard output to {@code stdout}; fails on a non-zero exit. */
    static void exec(Path dir, List<String> command, Path stdout) throws IOException, InterruptedException {
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
}
