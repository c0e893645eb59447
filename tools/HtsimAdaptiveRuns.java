import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs fabriclab's RoCE adaptive-routing scenarios ({@code tools/htsim-adaptive/scenarios/}, described in
 * {@code tools/htsim-adaptive/README.md}) in csg-htsim (github.com/Broadcom/csg-htsim, program {@code htsim_roce},
 * its main in {@code sim/datacenter/main_roce.cpp}) and writes what it measured as the dataset
 * {@code datasets/published/htsim-adaptive-roce.csv}: RoCE at line rate over PFC on the 32-host leaf-spine, a shift
 * permutation and an 8-to-1 incast, with per-flow ECMP ({@code -strat ecmp_host -paths 1}), adaptive routing per
 * flowlet ({@code -strat ecmp_ar}, its default 10 us gap) and adaptive routing re-deciding at every packet
 * ({@code -strat ecmp_ar -ar_sticky_delta 0}), seeds 1 to {@value #SEEDS}.
 *
 * <p>Run: {@code java tools/HtsimAdaptiveRuns.java [--check] [<csg-htsim tree> [<out dir>]]} from the repository's
 * root; the tree (the repository's files with {@code sim/datacenter/htsim_roce} built) may also be given as the
 * environment variable {@code FABRICLAB_CSG_HTSIM}. Without {@code --check} the CSV is written to the out dir (default
 * {@code datasets/published}); with it, to a temporary directory and compared byte for byte with the committed one
 * (exit status 1 when they differ). Each run copies the topology and connection matrix into a fresh temporary
 * directory (the program writes {@code idmap.txt} and its log there) and reads the program's standard output.
 *
 * <p>Columns: {@code scenario,strategy,seed,quantity,source,destination,value}; source and destination are host ids
 * for a flow's rows and -1 for a run's rows; every value is a whole number. Per flow: {@code fct_ns} (the time the
 * sender saw its last byte acknowledged; flows start at 0). Per run: {@code flows}, {@code fct_min_ns},
 * {@code fct_mean_ns} (rounded half up), {@code fct_p50_ns}, {@code fct_p99_ns} (nearest rank), {@code fct_max_ns},
 * {@code goodput_bps} (all flows' bytes x 8 over the last completion), {@code rtx_bytes} (the program's end-of-run
 * "Rtx" sum: at every NAK a sender adds the bytes it goes back over, from its highest sent byte to the NAK's
 * cumulative acknowledgement) and {@code overfull_enqueues} (how often a switch's output queue held more than its
 * nominal 61,440 B at an enqueue: the program's "LOSSLESS not working" lines; it drops nothing).
 *
 * <p>The program reseeds the C library's generator from {@code time(NULL)} as it creates each sender, so its runs
 * depend on the wall clock; each run is made with {@code tools/htsim-adaptive/fixed_time.c} (compiled here with gcc)
 * preloaded, which makes {@code time()} return the run's seed. A run in which the program stops on a failed assertion
 * (exit status 134; one run of {@code ar_packet} on the permutation, in its host queue) is kept with {@code aborted} 1,
 * the flows that finished before it ({@code fct_ns} rows and {@code flows}) and {@code overfull_enqueues}; every other
 * run has {@code aborted} 0 and every quantity.
 */
public final class HtsimAdaptiveRuns {
    /** Seeds of every run ({@code -seed 1} to {@code -seed SEEDS}). */
    static final int SEEDS = 10;
    /** The scenarios' directory, relative to the repository's root. */
    static final Path SCENARIOS = Path.of("tools/htsim-adaptive/scenarios");
    static final String TOPOLOGY = "leafspine32.topo";
    static final String DATASET = "htsim-adaptive-roce";
    static final String HEADER = "scenario,strategy,seed,quantity,source,destination,value\n";

    /** The scenarios (id and connection matrix) and the strategies (id and the options that select it). */
    static final Map<String, String> MATRICES = new LinkedHashMap<>();
    static final Map<String, List<String>> STRATEGIES = new LinkedHashMap<>();

    static {
        MATRICES.put("permutation32", "permutation32.cm");
        MATRICES.put("incast8", "incast8.cm");
        STRATEGIES.put("ecmp", List.of("-strat", "ecmp_host", "-paths", "1"));
        STRATEGIES.put("ar_flowlet", List.of("-strat", "ecmp_ar", "-ar_method", "queue"));
        STRATEGIES.put("ar_packet", List.of("-strat", "ecmp_ar", "-ar_method", "queue", "-ar_sticky_delta", "0"));
    }

    private HtsimAdaptiveRuns() {
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
        String tree = !rest.isEmpty() ? rest.get(0) : System.getenv("FABRICLAB_CSG_HTSIM");
        if (tree == null || tree.isBlank() || rest.size() > 2) {
            System.err.println("usage: java tools/HtsimAdaptiveRuns.java [--check] <csg-htsim tree> [<out dir>]"
                    + " (or set FABRICLAB_CSG_HTSIM)");
            System.exit(2);
        }
        Path program = Path.of(tree).resolve("sim/datacenter/htsim_roce");
        if (!Files.isExecutable(program)) {
            throw new IllegalStateException(program + " is not an executable file: build it first (see the provenance"
                    + " of datasets/published/" + DATASET + ")");
        }
        Path shimDir = Files.createTempDirectory("htsim-ar-shim-");
        Path shim = shimDir.resolve("fixed_time.so");
        exec(shimDir, List.of("gcc", "-shared", "-fPIC", "-O2", "-o", shim.toString(),
                SCENARIOS.resolveSibling("fixed_time.c").toAbsolutePath().toString()), Map.of(), false);
        Path out = check ? Files.createTempDirectory("htsim-ar-check-")
                : Path.of(rest.size() > 1 ? rest.get(1) : "datasets/published");
        List<String> options = List.of(Files.readString(SCENARIOS.resolve("options.txt"), StandardCharsets.UTF_8).trim()
                .split("\\s+"));
        StringBuilder csv = new StringBuilder(HEADER);
        for (Map.Entry<String, String> m : MATRICES.entrySet()) {
            for (Map.Entry<String, List<String>> s : STRATEGIES.entrySet()) {
                for (int seed = 1; seed <= SEEDS; seed++) {
                    long t0 = System.nanoTime();
                    runOnce(program, shim, options, m.getKey(), m.getValue(), s.getKey(), s.getValue(), seed, csv);
                    System.err.printf("%s %s seed %d: %.2f s%n", m.getKey(), s.getKey(), seed, (System.nanoTime() - t0) / 1e9);
                }
            }
        }
        Files.delete(shim);
        Files.delete(shimDir.resolve("stdout.txt"));
        Files.delete(shimDir.resolve("stderr.txt"));
        Files.delete(shimDir);
        Path written = out.resolve(DATASET + ".csv");
        Files.writeString(written, csv.toString(), StandardCharsets.UTF_8);
        if (check) {
            byte[] committed = Files.readAllBytes(Path.of("datasets/published", DATASET + ".csv"));
            if (!Arrays.equals(Files.readAllBytes(written), committed)) {
                System.err.println("differs from datasets/published: " + DATASET + ".csv (regenerated copy kept in " + out + ")");
                System.exit(1);
            }
            Files.delete(written);
            Files.delete(out);
            System.err.println("byte-identical: " + DATASET);
        }
    }

    /** Runs one scenario with one strategy and seed and appends its rows to {@code csv}. */
    static void runOnce(Path program, Path shim, List<String> options, String id, String matrix, String strategy, List<String> strat,
            int seed, StringBuilder csv) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("htsim-ar-" + id + "-");
        Files.copy(SCENARIOS.resolve(TOPOLOGY), dir.resolve(TOPOLOGY));
        Files.copy(SCENARIOS.resolve(matrix), dir.resolve(matrix));
        List<String> command = new ArrayList<>(List.of(program.toString(), "-tm", matrix, "-topo", TOPOLOGY));
        command.addAll(options);
        command.addAll(strat);
        command.addAll(List.of("-seed", Integer.toString(seed), "-o", "log.dat"));
        int exit = exec(dir, command, Map.of("LD_PRELOAD", shim.toString(), "FABRICLAB_FIXED_TIME", Integer.toString(seed)),
                true);
        boolean aborted = exit != 0;
        if (aborted && !Files.readString(dir.resolve("stderr.txt"), StandardCharsets.UTF_8).contains("Assertion")) {
            throw new IllegalStateException(command + " exited with " + exit + " without an assertion (in " + dir + ")");
        }
        convert(id, strategy, seed, dir.resolve("stdout.txt"), aborted, csv);
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    /**
     * Runs {@code command} in {@code dir} with {@code env} added to the environment, standard output to
     * {@code dir/stdout.txt} and error to {@code dir/stderr.txt}; returns its exit status, and fails on a non-zero one
     * unless {@code abortAllowed} and the program aborted (134).
     */
    static int exec(Path dir, List<String> command, Map<String, String> env, boolean abortAllowed)
            throws IOException, InterruptedException {
        ProcessBuilder b = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(dir.resolve("stdout.txt").toFile()).redirectError(dir.resolve("stderr.txt").toFile());
        b.environment().putAll(env);
        Process p = b.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new IllegalStateException(command + " did not finish in 10 minutes");
        }
        if (p.exitValue() != 0 && !(abortAllowed && p.exitValue() == 134)) {
            throw new IllegalStateException(command + " exited with " + p.exitValue() + " (in " + dir + ")");
        }
        return p.exitValue();
    }

    /** A flow's completion line: source, destination, finish time in us, acknowledged bytes. */
    static final Pattern FINISHED = Pattern.compile("^Flow Roce_(\\d+)_(\\d+) \\d+ finished at (\\S+) total bytes (\\d+)$");
    static final Pattern TOTALS = Pattern.compile("^New: (\\d+) Rtx: (\\d+)$");
    static final Pattern OVERFULL = Pattern.compile("^ Queue \\S+ LOSSLESS not working! .*");
    static final Pattern CONNECTION = Pattern.compile("^Connection \\d+->\\d+ starting at .*");

    /** Reads a run's standard output and appends its rows. */
    static void convert(String id, String strategy, int seed, Path stdout, boolean aborted, StringBuilder csv)
            throws IOException {
        String prefix = id + "," + strategy + "," + seed + ",";
        List<long[]> flows = new ArrayList<>(); // source, destination, fct ns, bytes
        long[] totals = null;
        int connections = 0;
        long overfull = 0;
        for (String line : Files.readAllLines(stdout, StandardCharsets.UTF_8)) {
            Matcher m = FINISHED.matcher(line);
            if (m.matches()) {
                long fct = new BigDecimal(m.group(3)).movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
                flows.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), fct, Long.parseLong(m.group(4))});
                continue;
            }
            m = TOTALS.matcher(line);
            if (m.matches()) {
                totals = new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
                continue;
            }
            if (CONNECTION.matcher(line).matches()) {
                connections++;
            } else if (OVERFULL.matcher(line).matches()) {
                overfull++;
            }
        }
        flows.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        if (aborted) {
            for (long[] f : flows) {
                csv.append(prefix).append("fct_ns,").append(f[0]).append(',').append(f[1]).append(',').append(f[2]).append('\n');
            }
            runRow(csv, prefix, "aborted", 1);
            runRow(csv, prefix, "flows", flows.size());
            runRow(csv, prefix, "overfull_enqueues", overfull);
            return;
        }
        if (totals == null || connections < 1 || flows.size() != connections) {
            throw new IllegalStateException(id + " " + strategy + " seed " + seed + ": " + flows.size() + " of " + connections
                    + " flows finished (or no totals line) in " + stdout);
        }
        for (long[] f : flows) {
            csv.append(prefix).append("fct_ns,").append(f[0]).append(',').append(f[1]).append(',').append(f[2]).append('\n');
        }
        long[] fct = flows.stream().mapToLong(f -> f[2]).sorted().toArray();
        long sum = Arrays.stream(fct).sum();
        long bytes = flows.stream().mapToLong(f -> f[3]).sum();
        int n = fct.length;
        runRow(csv, prefix, "aborted", 0);
        runRow(csv, prefix, "flows", n);
        runRow(csv, prefix, "fct_min_ns", fct[0]);
        runRow(csv, prefix, "fct_mean_ns", (2 * sum + n) / (2L * n));
        runRow(csv, prefix, "fct_p50_ns", fct[(int) Math.ceil(0.50 * n) - 1]);
        runRow(csv, prefix, "fct_p99_ns", fct[(int) Math.ceil(0.99 * n) - 1]);
        runRow(csv, prefix, "fct_max_ns", fct[n - 1]);
        runRow(csv, prefix, "goodput_bps", new BigDecimal(bytes * 8).multiply(BigDecimal.valueOf(1_000_000_000L))
                .divide(BigDecimal.valueOf(fct[n - 1]), 0, RoundingMode.HALF_UP).longValueExact());
        runRow(csv, prefix, "rtx_bytes", totals[1]);
        runRow(csv, prefix, "overfull_enqueues", overfull);
    }

    private static void runRow(StringBuilder csv, String prefix, String quantity, long value) {
        csv.append(prefix).append(quantity).append(",-1,-1,").append(value).append('\n');
    }
}
