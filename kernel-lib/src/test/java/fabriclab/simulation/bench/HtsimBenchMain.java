package fabriclab.simulation.bench;

import fabriclab.fabric.Pfc;
import fabriclab.simulation.Scenario;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code ./bench htsim}: the scenarios of the comparison with htsim (issue 53's table; {@link ClusterBenchMain}'s
 * {@code roce}, {@code spray} and {@code incast}) run side by side as whole processes, in interleaved rounds, against
 * csg-htsim's {@code htsim_roce} when a built one is given ({@code --htsim}) and against an earlier commit of fabriclab
 * ({@code --against}, by default {@code HEAD~1} when no htsim is given), printing CPU seconds, wall time and peak RSS
 * of each and the per-round ratios.
 *
 * <p>Each side, per scenario and size:
 * <ul>
 *   <li>ours: {@code bin/simulate} of this checkout with the scenario's options ({@link ClusterBenchMain#simulateArgs},
 *       the same definition the cluster bench parses) and {@code --quiet}; built first with
 *       {@code mvn -q -o package -DskipTests -pl kernel -am} unless {@code --no-build};</li>
 *   <li>htsim: {@code htsim_roce} on the same flows (the CSV of ours' {@code --flows} written as its connection matrix)
 *       and the same fabric (the scenario's {@link fabriclab.fabric.Topology} written as its fat-tree file), both by
 *       {@link HtsimInput}; the options mapped from the scenario as {@link #htsimOptions} says;</li>
 *   <li>old: {@code bin/simulate} of the commit {@code --against} names, checked out in a temporary git worktree and
 *       built there with the same Maven command (removed at the end).</li>
 * </ul>
 * One untimed check run of every side comes first (it writes the flows, and {@code bin/simulate} makes its class-data
 * archive on a build's first run). Then each round runs ours, htsim, old, one after the other, each under
 * {@code /usr/bin/time} (CPU = user + system of the whole process tree it waited for, wall = elapsed, peak RSS = the
 * largest process's maximum resident set). Every run, check or timed, must complete every flow (ours: its
 * "flows completed: N of N"; htsim: one "finished at" line per connection); the last completion of each side is
 * printed, which should agree closely where the fabric runs at line rate (spraying, the incast) and need not under
 * per-flow ECMP (the two simulators hash flows onto different paths).
 *
 * <p>Printed: the load average (1, 5, 15 min) at the start and the end, per scenario each side's median [min..max] of
 * CPU, wall and peak RSS, and the per-round ratios ours/htsim, ours/old (and old/htsim) as median [min..max].
 *
 * <p>Usage: {@code ./bench htsim [--htsim PATH_TO_htsim_roce] [--against GIT_REF] [--rounds N] [--scenarios LIST]
 * [--hosts LIST] [--parallel-links N] [--no-build]}; {@code ./bench htsim --help}.
 */
public final class HtsimBenchMain {
    /** The scenarios of the comparison with htsim. */
    static final List<String> SCENARIOS = List.of("roce", "spray", "incast");
    static final int MAX_ROUNDS = 1000;
    static final int MIN_HOSTS = 32;
    static final int MAX_HOSTS = 65536;
    /** htsim_roce's output queues, packets: deep enough to hold what PFC lets in (see {@link #htsimOptions}). */
    static final int HTSIM_QUEUE_PACKETS = 16000;

    private HtsimBenchMain() {
    }

    /** The command's options, validated. */
    record Options(Path htsim, String against, int rounds, List<String> scenarios, int[] hosts, int parallelLinks,
            boolean build, boolean help) {
    }

    /** The most links between a leaf and a spine ({@code bin/simulate --parallel-links}). */
    static final int MAX_PARALLEL_LINKS = 64;

    static String usage() {
        return String.join("\n",
                "usage: ./bench htsim [--htsim PATH] [--against GIT_REF] [--rounds N] [--scenarios LIST] [--hosts LIST]",
                "                     [--parallel-links N] [--no-build]",
                "  --htsim PATH        a built csg-htsim htsim_roce (an executable file); without it the comparison is",
                "                      against --against alone",
                "  --against GIT_REF   also time bin/simulate of that commit, built in a temporary git worktree;",
                "                      default HEAD~1 when --htsim is not given, none when it is",
                "  --rounds N          interleaved rounds, 1 to " + MAX_ROUNDS + " (default 5)",
                "  --scenarios LIST    comma-separated, of " + String.join(", ", SCENARIOS) + " (default all)",
                "  --hosts LIST        comma-separated host counts of roce and spray, each a multiple of 16 in [" + MIN_HOSTS
                        + ", " + MAX_HOSTS + "] (default 128,1024,3456); the incast is always 65 hosts",
                "  --parallel-links N  links between each leaf and each spine in roce and spray, 1 to " + MAX_PARALLEL_LINKS
                        + " (default: the scenario's 2);",
                "                      with 1, htsim_roce can build the 1,024-host fabric (64 ports per spine)",
                "  --no-build          time this checkout's last build instead of building it first",
                "Prints each side's CPU (user + system of the whole process), wall and peak RSS, median [min..max], the",
                "per-round ratios, and the load average at the start and the end. BENCH-RESULTS.md describes it.");
    }

    /** Parses and validates {@code args}; every message names the option, its value and what is allowed. */
    static Options parse(List<String> args) {
        Path htsim = null;
        String against = null;
        int rounds = 5;
        List<String> scenarios = SCENARIOS;
        int[] hosts = {128, 1024, 3456};
        int parallelLinks = 0;
        boolean build = true;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.equals("--help") || a.equals("-h")) {
                return new Options(null, null, rounds, scenarios, hosts, parallelLinks, build, true);
            }
            if (a.equals("--no-build")) {
                build = false;
                continue;
            }
            if (!List.of("--htsim", "--against", "--rounds", "--scenarios", "--hosts", "--parallel-links").contains(a)) {
                throw new IllegalArgumentException("unknown option " + a + " (allowed: --htsim, --against, --rounds,"
                        + " --scenarios, --hosts, --parallel-links, --no-build, --help)");
            }
            if (i + 1 >= args.size()) {
                throw new IllegalArgumentException("option " + a + " needs a value");
            }
            String v = args.get(++i);
            switch (a) {
                case "--htsim" -> {
                    Path p = Path.of(v).toAbsolutePath();
                    if (!Files.isRegularFile(p) || !Files.isExecutable(p)) {
                        throw new IllegalArgumentException("--htsim must name an executable file (csg-htsim's"
                                + " sim/datacenter/htsim_roce, built), got " + v);
                    }
                    htsim = p;
                }
                case "--against" -> {
                    if (v.isBlank() || v.startsWith("-")) {
                        throw new IllegalArgumentException("--against must be a git commit (a hash, branch, tag or"
                                + " HEAD~N), got \"" + v + "\"");
                    }
                    against = v;
                }
                case "--rounds" -> rounds = (int) wholeNumber("--rounds", v, 1, MAX_ROUNDS);
                case "--parallel-links" -> parallelLinks = (int) wholeNumber("--parallel-links", v, 1, MAX_PARALLEL_LINKS);
                case "--scenarios" -> {
                    List<String> s = List.of(v.split(",", -1));
                    for (String n : s) {
                        if (!SCENARIOS.contains(n)) {
                            throw new IllegalArgumentException("--scenarios must be a comma-separated list of "
                                    + String.join(", ", SCENARIOS) + ", got \"" + v + "\" (\"" + n + "\")");
                        }
                    }
                    if (s.stream().distinct().count() != s.size()) {
                        throw new IllegalArgumentException("--scenarios must name each scenario once, got \"" + v + "\"");
                    }
                    scenarios = s;
                }
                case "--hosts" -> {
                    String[] parts = v.split(",", -1);
                    hosts = new int[parts.length];
                    for (int k = 0; k < parts.length; k++) {
                        hosts[k] = (int) wholeNumber("--hosts", parts[k], MIN_HOSTS, MAX_HOSTS);
                        if (hosts[k] % 16 != 0) {
                            throw new IllegalArgumentException("--hosts must be multiples of 16 (leaves of 16 hosts) in ["
                                    + MIN_HOSTS + ", " + MAX_HOSTS + "], got " + parts[k] + " in \"" + v + "\"");
                        }
                    }
                }
                default -> throw new AssertionError(a);
            }
        }
        if (htsim == null && against == null) {
            against = "HEAD~1";
        }
        return new Options(htsim, against, rounds, scenarios, hosts, parallelLinks, build, false);
    }

    /**
     * {@code bin/simulate}'s options of scenario {@code name} at {@code hosts} hosts ({@link ClusterBenchMain#simulateArgs}),
     * with {@code --parallel-links parallelLinks} added to the leaf-spine scenarios when it is positive (0: the scenario's
     * own; the incast is one switch and has none).
     */
    static List<String> scenarioArgs(String name, int hosts, int parallelLinks) {
        List<String> args = new ArrayList<>(ClusterBenchMain.simulateArgs(name, hosts));
        if (parallelLinks > 0 && !name.equals("incast")) {
            args.addAll(List.of("--parallel-links", Integer.toString(parallelLinks)));
        }
        return args;
    }

    private static long wholeNumber(String option, String v, long min, long max) {
        long n;
        try {
            n = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " must be a whole number in [" + min + ", " + max + "], got \"" + v + "\"");
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(option + " must be in [" + min + ", " + max + "], got " + n);
        }
        return n;
    }

    /**
     * htsim_roce's options for scenario {@code name} on {@code s} (its flows in {@code matrix}, its fabric in
     * {@code topology}), mapped from the scenario:
     * <ul>
     *   <li>{@code -mtu} our payload (1000 B; both add a 64 B header, which htsim fixes, so another header is refused);</li>
     *   <li>{@code -pfc_thresholds LOW HIGH}: our XOFF and XON in packets of payload + header, XOFF exact (15 x 1064 B),
     *       XON rounded up (our 12,000 B is 11.3 packets: htsim resumes at 12, 12,768 B); the spraying scenario has no
     *       PFC of ours, and htsim_roce has no lossy RoCE switch, so it keeps the same thresholds there, which a
     *       balanced spray seldom reaches;</li>
     *   <li>{@code -q} {@value #HTSIM_QUEUE_PACKETS} packets of output queue (our 16 MB shared buffer): with htsim's
     *       default of 15 the queues PFC lets grow past 15 packets print a line per packet without changing a time;</li>
     *   <li>{@code -strat ecmp_host -paths 1} for per-flow ECMP (a hash of the flow, not ours: the paths differ);
     *       {@code -strat ecmp_rr} for spraying: every switch sends each packet to the next of its equal-cost ports in
     *       turn (reshuffled every 5 turns), as ours sprays per packet round-robin; htsim's sender is still RoCE
     *       (go-back-N, an ACK per packet) where ours is a line-rate sender without transport;</li>
     *   <li>{@code -end}: the last start plus the busiest host's line-rate time (its packets of payload + header at the
     *       link rate) times 20 plus 1 ms under per-flow ECMP (colliding flows share a link), times 2 plus 100 us for the
     *       line-rate cases (spraying, the incast, which ours completes within a few percent of that time). htsim's CPU
     *       does not depend on it once every flow is done (its event list empties: the same CPU at 600, 6,000 and
     *       60,000 us on the 32-host permutation); it bounds a run that does not complete.</li>
     * </ul>
     * htsim_roce's RoCE receiver answers every packet above the one it expects with a NAK and its sender goes back to
     * it, so per-packet spraying, which reorders, makes it resend without end: on the 32-host spraying permutation
     * 12 of 32 flows (those within a leaf, one path) completed by 4.4 ms, having resent 952 MB. The bench then prints
     * what htsim completed and leaves it out of that scenario's rounds.
     */
    static List<String> htsimOptions(String name, Scenario s, List<HtsimInput.Flow> flows, String matrix, String topology) {
        int mtu = s.config().mtuBytes();
        int header = s.config().headerBytes();
        if (header != 64) {
            throw new IllegalArgumentException("the scenario's header must be htsim's 64 B, got " + header);
        }
        int wire = mtu + header;
        List<String> o = new ArrayList<>(List.of("-topo", topology, "-tm", matrix, "-nodes",
                Integer.toString(s.topology().hosts()), "-mtu", Integer.toString(mtu), "-q",
                Integer.toString(HTSIM_QUEUE_PACKETS)));
        Pfc pfc = s.pfc();
        long high = pfc == null ? 15 : pfc.xoffBytes() / wire;
        long low = pfc == null ? 12 : (pfc.xonBytes() + wire - 1) / wire;
        if (pfc != null && pfc.xoffBytes() % wire != 0) {
            throw new IllegalArgumentException("the scenario's XOFF must be whole packets of " + wire + " B for htsim, got "
                    + pfc.xoffBytes() + " B");
        }
        o.addAll(List.of("-pfc_thresholds", Long.toString(low), Long.toString(high)));
        o.addAll(name.equals("spray") ? List.of("-strat", "ecmp_rr") : List.of("-strat", "ecmp_host", "-paths", "1"));
        long rate = s.topology().links().get(0).rateBitsPerSecond();
        long[] sent = new long[s.topology().hosts()];
        long[] received = new long[s.topology().hosts()];
        long lastStart = 0;
        for (HtsimInput.Flow f : flows) {
            long packets = (f.bytes() + mtu - 1) / mtu;
            sent[f.source()] += packets;
            received[f.destination()] += packets;
            lastStart = Math.max(lastStart, f.startPs());
        }
        long busiest = Math.max(Arrays.stream(sent).max().orElse(0), Arrays.stream(received).max().orElse(0));
        double lineRateUs = busiest * wire * 8.0 / rate * 1e6;
        boolean ecmp = name.equals("roce");
        long endUs = (long) Math.ceil((ecmp ? 20 : 2) * lineRateUs + lastStart / 1e6 + (ecmp ? 1000 : 100));
        o.addAll(List.of("-end", Long.toString(endUs), "-o", "htsim.log"));
        return o;
    }

    /** One side of the comparison: its name and how to run a scenario. */
    record Side(String name, boolean htsim) {
    }

    /** One run: CPU (user + system) and wall seconds, peak RSS in KB, flows completed of all, last completion (us). */
    record Measure(double cpuS, double wallS, long rssKb, int completed, int flows, double lastUs, long retransmitted) {
    }

    private static final Pattern OUR_COMPLETED = Pattern.compile("(?m)^flows completed: (\\d+) of (\\d+)$");
    private static final Pattern OUR_MAKESPAN = Pattern.compile("(?m)^makespan: (\\S+) us$");
    private static final Pattern OUR_RETX = Pattern.compile("(?m)retransmitted data packets: ([\\d,]+)");
    private static final Pattern HTSIM_FINISHED = Pattern.compile("(?m)^Flow \\S+ \\d+ finished at (\\S+) total bytes \\d+$");
    private static final Pattern HTSIM_TOTALS = Pattern.compile("(?m)^New: (\\d+) Rtx: (\\d+)$");

    /**
     * Runs {@code command} in {@code dir} under {@code /usr/bin/time}, its output to {@code dir/NAME.out} and
     * {@code .err}; fails with the tail of its error output on a non-zero exit.
     */
    static Measure time(String what, List<String> command, Path dir, String name, boolean htsim, int flows)
            throws IOException, InterruptedException {
        return time(what, command, dir, name, htsim, flows, true);
    }

    /** As above; {@code requireAll} false returns a run that did not complete every flow instead of failing. */
    static Measure time(String what, List<String> command, Path dir, String name, boolean htsim, int flows,
            boolean requireAll) throws IOException, InterruptedException {
        Path t = dir.resolve(name + ".time");
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        List<String> cmd = new ArrayList<>(List.of("/usr/bin/time", "-f", "%e %U %S %M", "-o", t.toString()));
        cmd.addAll(command);
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        int rc = p.waitFor();
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        if (rc != 0) {
            throw new IllegalStateException(what + " exited with " + rc + ": " + String.join(" ", command) + "\n"
                    + stderr.substring(Math.max(0, stderr.length() - 2000)));
        }
        String[] tf = Files.readString(t, StandardCharsets.UTF_8).trim().split("\\s+");
        String text = Files.readString(out, StandardCharsets.UTF_8);
        int completed;
        int all;
        double last = -1;
        long retx = 0;
        if (htsim) {
            Matcher m = HTSIM_FINISHED.matcher(text);
            completed = 0;
            while (m.find()) {
                completed++;
                last = Math.max(last, Double.parseDouble(m.group(1)));
            }
            all = flows;
            Matcher r = HTSIM_TOTALS.matcher(text);
            retx = r.find() ? Long.parseLong(r.group(2)) : -1;
        } else {
            Matcher m = OUR_COMPLETED.matcher(text);
            if (!m.find()) {
                throw new IllegalStateException(what + " printed no \"flows completed\" line: " + String.join(" ", command));
            }
            completed = Integer.parseInt(m.group(1));
            all = Integer.parseInt(m.group(2));
            Matcher s = OUR_MAKESPAN.matcher(text);
            if (s.find()) {
                last = Double.parseDouble(s.group(1));
            }
            Matcher r = OUR_RETX.matcher(text);
            retx = r.find() ? Long.parseLong(r.group(1).replace(",", "")) : -1;
        }
        if ((completed != all && requireAll) || all != flows) {
            throw new IllegalStateException(what + " completed " + completed + " of " + all + " flows (the scenario has "
                    + flows + "): " + String.join(" ", command));
        }
        return new Measure(Double.parseDouble(tf[1]) + Double.parseDouble(tf[2]), Double.parseDouble(tf[0]),
                Long.parseLong(tf[3]), completed, all, last, retx);
    }

    static String spread(double[] v, String format) {
        double[] s = v.clone();
        Arrays.sort(s);
        return String.format(Locale.ROOT, format + " [" + format + ".." + format + "]", median(s), s[0], s[s.length - 1]);
    }

    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    static String load() throws IOException {
        String[] l = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
        return l[0] + " " + l[1] + " " + l[2];
    }

    /** Runs {@code cmd} in {@code dir}, its output to {@code log}; fails naming {@code what} on a non-zero exit. */
    static void exec(String what, List<String> cmd, Path dir, Path log) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (p.waitFor() != 0) {
            String text = Files.readString(log, StandardCharsets.UTF_8);
            throw new IllegalStateException(what + " failed: " + String.join(" ", cmd) + "\n"
                    + text.substring(Math.max(0, text.length() - 3000)));
        }
    }

    static String git(Path root, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", root.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        return p.waitFor() == 0 ? out : null;
    }

    static final List<String> BUILD = List.of("mvn", "-q", "-o", "package", "-DskipTests", "-pl", "kernel", "-am");

    /**
     * @param args see {@link #usage}
     */
    public static void main(String[] args) throws Exception {
        Path root = Path.of("").toAbsolutePath();
        Options o;
        try {
            o = parse(List.of(args));
        } catch (IllegalArgumentException e) {
            System.err.println("bench htsim: " + e.getMessage());
            System.err.println(usage());
            System.exit(2);
            return;
        }
        if (o.help()) {
            System.out.println(usage());
            return;
        }
        String oldSha = null;
        if (o.against() != null) {
            oldSha = git(root, "rev-parse", "--verify", "--quiet", o.against() + "^{commit}");
            if (oldSha == null) {
                System.err.println("bench htsim: --against must name a commit of this repository, got " + o.against());
                System.exit(2);
                return;
            }
        }
        Path work = Files.createTempDirectory("bench-htsim-");
        Path oldTree = null;
        boolean ok = false;
        try {
            if (o.build()) {
                System.out.println("building this checkout: " + String.join(" ", BUILD));
                exec("the build of this checkout", BUILD, root, work.resolve("build.log"));
            }
            if (oldSha != null) {
                oldTree = work.resolve("old");
                System.out.println("building " + o.against() + " (" + oldSha.substring(0, 10) + ") in a temporary worktree "
                        + oldTree + ": " + String.join(" ", BUILD));
                exec("git worktree add", List.of("git", "-C", root.toString(), "worktree", "add", "--detach",
                        oldTree.toString(), oldSha), root, work.resolve("worktree.log"));
                exec("the build of " + o.against(), BUILD, oldTree, work.resolve("build-old.log"));
            }
            run(o, root, oldTree, oldSha, work);
            ok = true;
        } finally {
            if (oldTree != null) {
                git(root, "worktree", "remove", "--force", oldTree.toString());
            }
            if (ok) {
                try (Stream<Path> w = Files.walk(work)) {
                    w.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            } else {
                System.err.println("bench htsim: failed; its files (flows, htsim's inputs, each run's output) are kept in " + work);
            }
        }
    }

    private static void run(Options o, Path root, Path oldTree, String oldSha, Path work) throws Exception {
        List<Side> sides = new ArrayList<>(List.of(new Side("ours", false)));
        if (o.htsim() != null) {
            sides.add(new Side("htsim", true));
        }
        if (oldTree != null) {
            sides.add(new Side("old", false));
        }
        String ourHead = git(root, "rev-parse", "--short=10", "HEAD");
        String dirty = git(root, "status", "--porcelain", "--untracked-files=no");
        System.out.println("ours: bin/simulate of " + root + " at " + ourHead + (dirty != null && !dirty.isEmpty()
                ? " with uncommitted changes" : ""));
        if (o.htsim() != null) {
            System.out.println("htsim: " + o.htsim());
        }
        if (oldSha != null) {
            System.out.println("old: bin/simulate of " + o.against() + " = " + oldSha.substring(0, 10));
        }
        System.out.println("cores " + Runtime.getRuntime().availableProcessors() + "; rounds " + o.rounds()
                + ", each the sides in the order " + sides.stream().map(Side::name).toList());
        String loadStart = load();
        System.out.println("load average (1, 5, 15 min) at start: " + loadStart);
        List<String> summary = new ArrayList<>();
        for (String name : o.scenarios()) {
            int[] sizes = name.equals("incast") ? new int[] {65} : o.hosts();
            for (int hosts : sizes) {
                Path dir = Files.createDirectories(work.resolve(name + "-" + hosts));
                List<String> args = scenarioArgs(name, hosts, o.parallelLinks());
                Scenario s = ClusterBenchMain.scenario(args);
                args.add("--quiet");
                int flows = s.flows().size();
                Map<String, List<String>> commands = new LinkedHashMap<>();
                List<String> ours = new ArrayList<>(List.of(root.resolve("bin/simulate").toString()));
                ours.addAll(args);
                commands.put("ours", ours);
                String label = name + " " + hosts + " hosts";
                System.out.println();
                System.out.println("== " + label + ": bin/simulate " + String.join(" ", args));
                List<String> check = new ArrayList<>(ours);
                check.addAll(List.of("--flows", dir.resolve("flows.csv").toString()));
                Measure ourCheck = time("ours' check run of " + label, check, dir, "ours-check", false, flows);
                StringBuilder checkLine = new StringBuilder(String.format(Locale.ROOT,
                        "check: ours %d of %d flows, last completion %.3f us, %d data packets retransmitted",
                        ourCheck.completed(), ourCheck.flows(), ourCheck.lastUs(), ourCheck.retransmitted()));
                String cannot = o.htsim() == null ? null : HtsimInput.htsimCannotBuild(HtsimInput.shapeOf(s.topology()));
                if (cannot != null) {
                    checkLine.append("; htsim_roce cannot build this fabric: ").append(cannot)
                            .append(": htsim left out of this scenario");
                }
                if (o.htsim() != null && cannot == null) {
                    List<HtsimInput.Flow> f = HtsimInput.readFlows(dir.resolve("flows.csv"));
                    if (f.size() != flows) {
                        throw new IllegalStateException("--flows of " + label + " has " + f.size() + " flows, the scenario "
                                + flows);
                    }
                    Files.writeString(dir.resolve("flows.cm"), HtsimInput.connectionMatrix(s.topology().hosts(), f));
                    Files.writeString(dir.resolve("fabric.topo"), HtsimInput.topologyFile(
                            HtsimInput.shapeOf(s.topology()), "fabriclab scenario " + label + " (bin/simulate "
                            + String.join(" ", args) + ")"));
                    List<String> h = new ArrayList<>(List.of(o.htsim().toString()));
                    h.addAll(htsimOptions(name, s, f, "flows.cm", "fabric.topo"));
                    commands.put("htsim", h);
                    System.out.println("   htsim_roce " + String.join(" ", h.subList(1, h.size())));
                    Measure hc = time("htsim's check run of " + label, h, dir, "htsim-check", true, flows, false);
                    checkLine.append(String.format(Locale.ROOT, "; htsim %d of %d, last %.3f us (htsim/ours %.4f),"
                            + " %d bytes retransmitted", hc.completed(), hc.flows(), hc.lastUs(), hc.lastUs() / ourCheck.lastUs(),
                            hc.retransmitted()));
                    if (hc.completed() < flows) {
                        commands.remove("htsim");
                        checkLine.append(String.format(Locale.ROOT, "%n   htsim did NOT complete every flow by its -end (%.2f s"
                                + " of CPU): left out of this scenario's rounds (see HtsimBenchMain.htsimOptions)", hc.cpuS()));
                    }
                }
                if (oldTree != null) {
                    List<String> old = new ArrayList<>(List.of(oldTree.resolve("bin/simulate").toString()));
                    old.addAll(args);
                    commands.put("old", old);
                    Measure oc = time("old's check run of " + label, old, dir, "old-check", false, flows);
                    checkLine.append(String.format(Locale.ROOT, "; old %d of %d, last %.3f us", oc.completed(), oc.flows(),
                            oc.lastUs()));
                }
                System.out.println("   " + checkLine);
                Map<String, List<Measure>> runs = new LinkedHashMap<>();
                for (int r = 1; r <= o.rounds(); r++) {
                    StringBuilder line = new StringBuilder("   round " + r + ":");
                    for (Side side : sides) {
                        if (!commands.containsKey(side.name())) {
                            continue;
                        }
                        Measure m = time(side.name() + "'s round " + r + " of " + label, commands.get(side.name()), dir,
                                side.name(), side.htsim(), flows);
                        runs.computeIfAbsent(side.name(), k -> new ArrayList<>()).add(m);
                        line.append(String.format(Locale.ROOT, " %s %.2f s CPU %.2f s wall %.0f MB;", side.name(), m.cpuS(),
                                m.wallS(), m.rssKb() / 1024.0));
                    }
                    System.out.println(line);
                }
                for (Side side : sides) {
                    List<Measure> ms = runs.get(side.name());
                    if (ms == null) {
                        continue;
                    }
                    String l = String.format(Locale.ROOT, "   %-5s CPU %s s | wall %s s | peak RSS %s MB | last completion %s us",
                            side.name(), spread(ms.stream().mapToDouble(Measure::cpuS).toArray(), "%.3f"),
                            spread(ms.stream().mapToDouble(Measure::wallS).toArray(), "%.3f"),
                            spread(ms.stream().mapToDouble(m -> m.rssKb() / 1024.0).toArray(), "%.0f"),
                            spread(ms.stream().mapToDouble(Measure::lastUs).toArray(), "%.3f"));
                    System.out.println(l);
                }
                for (String[] pair : new String[][] {{"ours", "htsim"}, {"ours", "old"}, {"old", "htsim"}}) {
                    List<Measure> a = runs.get(pair[0]);
                    List<Measure> b = runs.get(pair[1]);
                    if (a == null || b == null) {
                        continue;
                    }
                    double[] cpu = new double[a.size()];
                    double[] wall = new double[a.size()];
                    double[] rss = new double[a.size()];
                    for (int k = 0; k < a.size(); k++) {
                        cpu[k] = a.get(k).cpuS() / b.get(k).cpuS();
                        wall[k] = a.get(k).wallS() / b.get(k).wallS();
                        rss[k] = (double) a.get(k).rssKb() / b.get(k).rssKb();
                    }
                    String l = String.format(Locale.ROOT, "%s/%s per round: CPU %s, wall %s, peak RSS %s", pair[0], pair[1],
                            spread(cpu, "%.3f"), spread(wall, "%.3f"), spread(rss, "%.3f"));
                    System.out.println("   " + l);
                    summary.add(String.format(Locale.ROOT, "%-6s %5d hosts  %s", name, hosts, l));
                }
            }
        }
        System.out.println();
        System.out.println("load average (1, 5, 15 min) at start: " + loadStart + "; at end: " + load());
        System.out.println("per-round ratios, median [min..max] over " + o.rounds() + " rounds:");
        summary.forEach(l -> System.out.println("  " + l));
    }
}
