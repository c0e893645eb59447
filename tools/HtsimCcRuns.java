import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs fabriclab's congestion-control scenarios ({@code tools/htsim-cc/scenarios/}, described in
 * {@code tools/htsim-cc/README.md}) in csg-htsim (github.com/Broadcom/csg-htsim) with its HPCC program
 * ({@code htsim_hpcc}, main in {@code sim/datacenter/main_hpcc.cpp}) and its Swift program ({@code htsim_swift}, main in
 * {@code sim/datacenter/main_swift.cpp}), and writes what they measured as {@code datasets/published/htsim-cc.csv}:
 * an 8-to-1 incast of 1 MiB flows and a shift permutation of 2 MiB flows on the 16-host three-tier fat tree the
 * programs build for {@code -nodes 16} (k = 4, 100 Gb/s, 1 us per link). HPCC runs seeds 1 to {@value #SEEDS}; Swift's
 * program has no seed option (it seeds the C library's generator with 13) and reads no clock, so it runs once.
 *
 * <p>Run: {@code java tools/HtsimCcRuns.java [--check] [<csg-htsim tree> [<out dir>]]} from the repository's root; the
 * tree (the repository's files with {@code sim/datacenter/htsim_hpcc} and {@code htsim_swift} built) may also be given
 * as the environment variable {@code FABRICLAB_CSG_HTSIM}. Without {@code --check} the CSV is written to the out dir
 * (default {@code datasets/published}); with it, to a temporary directory and compared byte for byte with the committed
 * one (exit status 1 when they differ). Each run copies its connection matrix into a fresh temporary directory (the
 * programs write {@code idmap.txt}, a log and a paths file there) and reads the program's standard output.
 *
 * <p>Columns: {@code control,scenario,seed,quantity,source,destination,value}; source and destination are host ids for
 * a flow's rows and -1 for a run's rows; every value is a whole number. Per flow: {@code fct_ns} (the time the sender
 * saw its last byte acknowledged; flows start at 0), for the flows that finished. Per run: {@code connections} (flows
 * started), {@code flows} (flows finished before the run's end), then, over the finished flows, {@code fct_min_ns},
 * {@code fct_mean_ns} (rounded half up), {@code fct_p50_ns}, {@code fct_p99_ns} (nearest rank), {@code fct_max_ns};
 * HPCC also {@code rtx_bytes} (the program's end-of-run "Rtx" sum, bytes gone back over at NAKs) and
 * {@code overfull_enqueues} (its "LOSSLESS not working" lines: an output queue above its nominal 61,440 B at an
 * enqueue; nothing drops); Swift also {@code retransmits} (its "retransmit_packet" lines: a packet resent after a
 * retransmission timeout or in fast recovery).
 *
 * <p>It then builds fabriclab's own driver ({@code tools/htsim-cc/driver/fabriclab_htsim_cc.cpp}, a main program
 * linked to the tree's {@code sim/libhtsim.a} and fat-tree objects, compiled into a temporary directory) and runs
 * csg-htsim's DCTCP class ({@code DCTCPSrc} over ECN-marking queues) and Swift class ({@code SwiftSrc}) with it on the
 * same scenarios, seeds 1 to {@value #SEEDS} each ({@code -seed}; options in
 * {@code tools/htsim-cc/scenarios/options-driver.txt}), into {@code datasets/published/htsim-cc-driver.csv} with the
 * same columns: per flow {@code fct_ns}; per run {@code connections}, {@code flows}, the FCT summaries; DCTCP also
 * {@code ecn_echo_acks}, {@code timeouts}, {@code fast_retransmits}, {@code sent_bytes}, {@code switch_drops}; Swift
 * also {@code retransmits}. {@code --check} compares both CSVs.
 *
 * <p>{@code htsim_hpcc} reseeds the C library's generator from {@code time(NULL)} as it creates each sender (its
 * {@code HPCCSrc} constructor), so every run is made with {@code tools/htsim-adaptive/fixed_time.c} preloaded, which
 * makes {@code time()} return the run's seed (the same shim as {@code HtsimAdaptiveRuns}); Swift's runs get it too
 * (seed 1), which changes nothing there.
 */
public final class HtsimCcRuns {
    /** Seeds of HPCC's runs ({@code -seed 1} to {@code -seed SEEDS}). */
    static final int SEEDS = 10;
    static final Path SCENARIOS = Path.of("tools/htsim-cc/scenarios");
    static final Path SHIM_SOURCE = Path.of("tools/htsim-adaptive/fixed_time.c");
    static final String DATASET = "htsim-cc";
    static final String HEADER = "control,scenario,seed,quantity,source,destination,value\n";
    /** The scenarios: id, matrix file, packets per flow (Swift's {@code -flowsize}, which ignores the matrix's sizes). */
    static final List<String[]> SCENARIO_LIST = List.of(
            new String[] {"incast8", "incast8.cm", "256"},
            new String[] {"permutation16", "permutation16.cm", "512"});

    private HtsimCcRuns() {
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
            System.err.println("usage: java tools/HtsimCcRuns.java [--check] <csg-htsim tree> [<out dir>]"
                    + " (or set FABRICLAB_CSG_HTSIM)");
            System.exit(2);
        }
        Path hpcc = Path.of(tree).resolve("sim/datacenter/htsim_hpcc");
        Path swift = Path.of(tree).resolve("sim/datacenter/htsim_swift");
        for (Path p : List.of(hpcc, swift)) {
            if (!Files.isExecutable(p)) {
                throw new IllegalStateException(p + " is not an executable file: build it first (see the provenance of"
                        + " datasets/published/" + DATASET + ")");
            }
        }
        Path shimDir = Files.createTempDirectory("htsim-cc-shim-");
        Path shim = shimDir.resolve("fixed_time.so");
        exec(shimDir, List.of("gcc", "-shared", "-fPIC", "-O2", "-o", shim.toString(),
                SHIM_SOURCE.toAbsolutePath().toString()), Map.of());
        Path out = check ? Files.createTempDirectory("htsim-cc-check-")
                : Path.of(rest.size() > 1 ? rest.get(1) : "datasets/published");
        List<String> hpccOptions = options("options-hpcc.txt");
        List<String> swiftOptions = options("options-swift.txt");
        StringBuilder csv = new StringBuilder(HEADER);
        for (String[] s : SCENARIO_LIST) {
            for (int seed = 1; seed <= SEEDS; seed++) {
                List<String> command = new ArrayList<>(List.of(hpcc.toString(), "-tm", s[1]));
                command.addAll(hpccOptions);
                command.addAll(List.of("-seed", Integer.toString(seed), "-o", "log.dat"));
                runOnce("hpcc", s[0], s[1], seed, command, shim, csv);
            }
        }
        for (String[] s : SCENARIO_LIST) {
            List<String> command = new ArrayList<>(List.of(swift.toString(), "-tm", s[1]));
            command.addAll(swiftOptions);
            command.addAll(List.of("-flowsize", s[2], "-o", "log.dat"));
            runOnce("swift", s[0], s[1], 1, command, shim, csv);
        }
        StringBuilder driverCsv = new StringBuilder(HEADER);
        Path driver = buildDriver(Path.of(tree), shimDir);
        for (String control : List.of("dctcp", "swift")) {
            for (String[] s : SCENARIO_LIST) {
                for (int seed = 1; seed <= SEEDS; seed++) {
                    List<String> command = new ArrayList<>(List.of(driver.toString(), "-cc", control, "-tm", s[1]));
                    command.addAll(options("options-driver.txt"));
                    command.addAll(List.of("-seed", Integer.toString(seed)));
                    runDriver(control, s[0], s[1], seed, command, driverCsv);
                }
            }
        }
        Files.delete(driver);
        Files.delete(shim);
        Files.delete(shimDir.resolve("stdout.txt"));
        Files.delete(shimDir.resolve("stderr.txt"));
        Files.delete(shimDir);
        boolean same = write(out, DATASET, csv, check);
        same &= write(out, DRIVER_DATASET, driverCsv, check);
        if (check) {
            if (!same) {
                System.exit(1);
            }
            Files.delete(out);
        }
    }

    /** Writes {@code name}.csv into {@code out}; with {@code check}, compares it with the committed one (true when equal). */
    private static boolean write(Path out, String name, StringBuilder csv, boolean check) throws IOException {
        Path written = out.resolve(name + ".csv");
        Files.writeString(written, csv.toString(), StandardCharsets.UTF_8);
        if (!check) {
            return true;
        }
        byte[] committed = Files.readAllBytes(Path.of("datasets/published", name + ".csv"));
        if (!Arrays.equals(Files.readAllBytes(written), committed)) {
            System.err.println("differs from datasets/published: " + name + ".csv (regenerated copy kept in " + out + ")");
            return false;
        }
        Files.delete(written);
        System.err.println("byte-identical: " + name);
        return true;
    }

    /** Our driver's source, its dataset, and the csg-htsim objects it links besides {@code sim/libhtsim.a}. */
    static final Path DRIVER_SOURCE = Path.of("tools/htsim-cc/driver/fabriclab_htsim_cc.cpp");
    static final String DRIVER_DATASET = "htsim-cc-driver";
    static final List<String> DRIVER_OBJECTS = List.of("fat_tree_topology.o", "fat_tree_switch.o", "connection_matrix.o",
            "firstfit.o");

    /**
     * Compiles {@link #DRIVER_SOURCE} against the built tree into {@code dir} (the command of
     * {@code tools/htsim-cc/driver/Makefile}; nothing is written into the tree) and prints the source's git blob id.
     */
    static Path buildDriver(Path tree, Path dir) throws IOException, InterruptedException {
        Path binary = dir.resolve("fabriclab_htsim_cc");
        Path sim = tree.toAbsolutePath().resolve("sim");
        List<String> command = new ArrayList<>(List.of("g++", "-std=c++11", "-O2", "-Wall", "-I" + sim,
                "-I" + sim.resolve("datacenter"), DRIVER_SOURCE.toAbsolutePath().toString()));
        for (String o : DRIVER_OBJECTS) {
            Path object = sim.resolve("datacenter").resolve(o);
            if (!Files.isRegularFile(object)) {
                throw new IllegalStateException(object + " is missing: build htsim_swift in sim/datacenter first");
            }
            command.add(object.toString());
        }
        command.addAll(List.of("-L" + sim, "-lhtsim", "-o", binary.toString()));
        long t0 = System.nanoTime();
        exec(dir, command, Map.of());
        System.err.printf("driver built in %.2f s, source blob %s%n", (System.nanoTime() - t0) / 1e9,
                gitBlob(Files.readAllBytes(DRIVER_SOURCE)));
        return binary;
    }

    /** The git blob id of {@code content} (SHA-1 of "blob <length>\0" and the bytes), as {@code git hash-object}. */
    static String gitBlob(byte[] content) {
        try {
            java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-1");
            sha.update(("blob " + content.length + "\0").getBytes(StandardCharsets.US_ASCII));
            sha.update(content);
            StringBuilder hex = new StringBuilder();
            for (byte b : sha.digest()) {
                hex.append(String.format("%02x", b & 0xff));
            }
            return hex.toString();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs the driver once in a fresh directory holding the matrix and appends the run's rows to {@code csv}. */
    static void runDriver(String control, String id, String matrix, int seed, List<String> command, StringBuilder csv)
            throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("htsim-cc-driver-" + control + "-" + id + "-");
        Files.copy(SCENARIOS.resolve(matrix), dir.resolve(matrix));
        long t0 = System.nanoTime();
        exec(dir, command, Map.of());
        System.err.printf("driver %s %s seed %d: %.2f s%n", control, id, seed, (System.nanoTime() - t0) / 1e9);
        convertDriver(control, id, seed, dir.resolve("stdout.txt"), csv);
        deleteTree(dir);
    }

    static final Pattern DRIVER_FLOW = Pattern.compile("^fabriclab-flow (\\d+) (\\d+) (\\d+)$");
    static final Pattern DRIVER_RUN = Pattern.compile("^fabriclab-run (\\w+) (\\d+)$");
    /** Run counters of the driver, in the order they are written. */
    static final List<String> DCTCP_COUNTERS = List.of("ecn_echo_acks", "timeouts", "fast_retransmits", "sent_bytes",
            "switch_drops");

    /** Reads one driver run's standard output and appends its rows. */
    static void convertDriver(String control, String id, int seed, Path stdout, StringBuilder csv) throws IOException {
        String prefix = control + "," + id + "," + seed + ",";
        List<long[]> flows = new ArrayList<>();
        Map<String, Long> run = new java.util.HashMap<>();
        long retransmits = 0;
        for (String line : Files.readAllLines(stdout, StandardCharsets.UTF_8)) {
            Matcher m = DRIVER_FLOW.matcher(line);
            if (m.matches()) {
                long ps = Long.parseLong(m.group(3));
                flows.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), (ps + 500) / 1000});
                continue;
            }
            m = FINISHED.matcher(line);
            if (m.matches()) {
                // the library prints a line at every acknowledgement at or past the end; the first is the completion
                long src = Long.parseLong(m.group(1));
                long dst = Long.parseLong(m.group(2));
                if (flows.stream().noneMatch(f -> f[0] == src && f[1] == dst)) {
                    long fct = new BigDecimal(m.group(3)).movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
                    flows.add(new long[] {src, dst, fct});
                }
                continue;
            }
            m = DRIVER_RUN.matcher(line);
            if (m.matches()) {
                run.put(m.group(1), Long.parseLong(m.group(2)));
            } else if (SWIFT_RTX.matcher(line).matches()) {
                retransmits++;
            }
        }
        long connections = run.getOrDefault("connections", 0L);
        if (connections < 1 || flows.isEmpty() || !run.containsKey("switch_drops")) {
            throw new IllegalStateException(control + " " + id + " seed " + seed + ": " + flows.size() + " of " + connections
                    + " flows finished (or no counters) in " + stdout);
        }
        flows.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        for (long[] f : flows) {
            csv.append(prefix).append("fct_ns,").append(f[0]).append(',').append(f[1]).append(',').append(f[2]).append('\n');
        }
        long[] fct = flows.stream().mapToLong(f -> f[2]).sorted().toArray();
        long sum = Arrays.stream(fct).sum();
        int n = fct.length;
        runRow(csv, prefix, "connections", connections);
        runRow(csv, prefix, "flows", n);
        runRow(csv, prefix, "fct_min_ns", fct[0]);
        runRow(csv, prefix, "fct_mean_ns", (2 * sum + n) / (2L * n));
        runRow(csv, prefix, "fct_p50_ns", fct[(int) Math.ceil(0.50 * n) - 1]);
        runRow(csv, prefix, "fct_p99_ns", fct[(int) Math.ceil(0.99 * n) - 1]);
        runRow(csv, prefix, "fct_max_ns", fct[n - 1]);
        if (control.equals("dctcp")) {
            for (String c : DCTCP_COUNTERS) {
                runRow(csv, prefix, c, run.get(c));
            }
        } else {
            // no switch_drops: Swift's queues (RandomQueue) drop without counting in Queue::num_drops
            runRow(csv, prefix, "retransmits", retransmits);
        }
    }

    private static List<String> options(String file) throws IOException {
        return List.of(Files.readString(SCENARIOS.resolve(file), StandardCharsets.UTF_8).trim().split("\\s+"));
    }

    /** Runs one command in a fresh directory holding the matrix and appends the run's rows to {@code csv}. */
    static void runOnce(String control, String id, String matrix, int seed, List<String> command, Path shim,
            StringBuilder csv) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("htsim-cc-" + control + "-" + id + "-");
        Files.copy(SCENARIOS.resolve(matrix), dir.resolve(matrix));
        long t0 = System.nanoTime();
        exec(dir, command, Map.of("LD_PRELOAD", shim.toString(), "FABRICLAB_FIXED_TIME", Integer.toString(seed)));
        System.err.printf("%s %s seed %d: %.2f s%n", control, id, seed, (System.nanoTime() - t0) / 1e9);
        convert(control, id, seed, dir.resolve("stdout.txt"), csv);
        deleteTree(dir);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.delete(f);
            }
        }
        Files.delete(dir);
    }

    /**
     * Runs {@code command} in {@code dir} with {@code env} added, standard output to {@code dir/stdout.txt} and error
     * to {@code dir/stderr.txt}; fails on a non-zero exit status.
     */
    static void exec(Path dir, List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder b = new ProcessBuilder(command).directory(dir.toFile())
                .redirectOutput(dir.resolve("stdout.txt").toFile()).redirectError(dir.resolve("stderr.txt").toFile());
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

    /** A flow's completion line: the source's name (HPCC_s_d or swift_s_d), finish time in us, acknowledged bytes. */
    static final Pattern FINISHED = Pattern.compile("^Flow (?:HPCC|swift)_(\\d+)_(\\d+) finished at (\\S+) total bytes (\\d+)$");
    static final Pattern TOTALS = Pattern.compile("^New: (\\d+) Rtx: (\\d+)$");
    static final Pattern OVERFULL = Pattern.compile("^ Queue \\S+ LOSSLESS not working! .*");
    static final Pattern HPCC_START = Pattern.compile("^startflow HPCC_\\d+_\\d+ at .*");
    static final Pattern SWIFT_LOADED = Pattern.compile("^Loaded (\\d+) connections in total$");
    static final Pattern SWIFT_RTX = Pattern.compile("^\\S+ \\S+ retransmit_packet\\s*$");

    /** Reads a run's standard output and appends its rows. */
    static void convert(String control, String id, int seed, Path stdout, StringBuilder csv) throws IOException {
        String prefix = control + "," + id + "," + seed + ",";
        List<long[]> flows = new ArrayList<>(); // source, destination, fct ns
        long rtxBytes = -1;
        long connections = 0;
        long overfull = 0;
        long retransmits = 0;
        for (String line : Files.readAllLines(stdout, StandardCharsets.UTF_8)) {
            Matcher m = FINISHED.matcher(line);
            if (m.matches()) {
                long fct = new BigDecimal(m.group(3)).movePointRight(3).setScale(0, RoundingMode.HALF_UP).longValueExact();
                flows.add(new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), fct});
                continue;
            }
            m = TOTALS.matcher(line);
            if (m.matches()) {
                rtxBytes = Long.parseLong(m.group(2));
                continue;
            }
            m = SWIFT_LOADED.matcher(line);
            if (m.matches()) {
                connections = Long.parseLong(m.group(1));
            } else if (HPCC_START.matcher(line).matches()) {
                connections++;
            } else if (OVERFULL.matcher(line).matches()) {
                overfull++;
            } else if (SWIFT_RTX.matcher(line).matches()) {
                retransmits++;
            }
        }
        if (connections < 1 || flows.isEmpty() || (control.equals("hpcc") && (rtxBytes < 0 || flows.size() != connections))) {
            throw new IllegalStateException(control + " " + id + " seed " + seed + ": " + flows.size() + " of " + connections
                    + " flows finished (or no totals line) in " + stdout);
        }
        flows.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        for (long[] f : flows) {
            csv.append(prefix).append("fct_ns,").append(f[0]).append(',').append(f[1]).append(',').append(f[2]).append('\n');
        }
        long[] fct = flows.stream().mapToLong(f -> f[2]).sorted().toArray();
        long sum = Arrays.stream(fct).sum();
        int n = fct.length;
        runRow(csv, prefix, "connections", connections);
        runRow(csv, prefix, "flows", n);
        runRow(csv, prefix, "fct_min_ns", fct[0]);
        runRow(csv, prefix, "fct_mean_ns", (2 * sum + n) / (2L * n));
        runRow(csv, prefix, "fct_p50_ns", fct[(int) Math.ceil(0.50 * n) - 1]);
        runRow(csv, prefix, "fct_p99_ns", fct[(int) Math.ceil(0.99 * n) - 1]);
        runRow(csv, prefix, "fct_max_ns", fct[n - 1]);
        if (control.equals("hpcc")) {
            runRow(csv, prefix, "rtx_bytes", rtxBytes);
            runRow(csv, prefix, "overfull_enqueues", overfull);
        } else {
            runRow(csv, prefix, "retransmits", retransmits);
        }
    }

    private static void runRow(StringBuilder csv, String prefix, String quantity, long value) {
        csv.append(prefix).append(quantity).append(",-1,-1,").append(value).append('\n');
    }
}
