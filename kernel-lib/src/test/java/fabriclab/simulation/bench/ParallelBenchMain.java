package fabriclab.simulation.bench;

import fabriclab.simulation.engine.ParallelRunStats;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Bench command for the parallel engine of the packet simulator ({@link Simulator#runParallel}): the
 * scenarios of {@link ClusterBenchMain} (RoCE+PFC with per-flow ECMP, spraying, the incast, GSE), each run as a
 * whole process (a fresh JVM per run, as {@code ClusterBenchMain --mode process}) with the sequential engine
 * ({@code seq}) and with the parallel engine on each given thread count, the runs of one size interleaved
 * (run k of every engine before run k + 1 of any) so that a change in the machine's load affects them alike.
 *
 * <p>Figures per engine: wall time of the whole process (fork to exit) and of the simulation alone (the
 * run() call), CPU time of the whole process, each as median [min..max]; the speedup of the simulation's
 * wall time over the parallel engine on 1 thread and over the sequential engine (medians); and the
 * parallel run's own figures ({@link ParallelRunStats}): windows, events per window (mean, p50, p99),
 * messages between partitions per window, load imbalance, the event parallelism (events over the sum
 * of each window's busiest partition: the speedup bound of the partitioning if barriers were free, a count
 * that does not depend on the machine's load, so {@code --threads 16,64} on a small machine still tells how
 * those would scale), the CPU parallelism (the threads' CPU time in the windows over the sum of each window's
 * longest CPU time: the speedup a core per thread would give with free barriers, from CPU time, which a loaded
 * machine stretches far less than wall time), and per thread the time busy and waiting at barriers (from the median run). A check line says whether every thread count gave the same result
 * (events, end time, packet-hops, delivered bytes, PAUSE frames and every flow's completion time).
 *
 * <p>Usage: {@code ./bench --main fabriclab.simulation.bench.ParallelBenchMain [--scenarios roce,spray,incast,gse]
 * [--hosts 128,1024,3456] [--threads 1,2] [--runs 3] [--xmx 8g] [--no-seq]}; one run:
 * {@code ... ParallelBenchMain --one SCENARIO HOSTS THREADS} (THREADS 0: the sequential engine).
 */
public final class ParallelBenchMain {
    private ParallelBenchMain() {
    }

    private static long processCpuNs() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** A digest of what a run simulated (equal for runs that agree event for event). */
    static String digest(SimulationResult r) {
        long completions = 0;
        for (SimulationResult.FlowRecord f : r.flows()) {
            completions = 31 * completions + f.completionTimePs();
        }
        return r.events() + "/" + r.endPs() + "/" + r.packetHops() + "/" + r.deliveredBytes() + "/" + r.pausesSent() + "/"
                + Long.toHexString(completions);
    }

    /** One run in this JVM; prints a RESULT line (and the stats of a parallel run). */
    static String runOnce(String name, int hosts, int threads) {
        Scenario s = ClusterBenchMain.scenario(name, hosts);
        Simulator sim = new Simulator(s);
        long t0 = System.nanoTime();
        SimulationResult r = threads == 0 ? sim.run() : sim.runParallel(threads);
        long wall = System.nanoTime() - t0;
        long cpu = processCpuNs();
        long makespan = 0;
        for (int f = 0; f < r.flows().size(); f++) {
            makespan = Math.max(makespan, r.completedAtPs(f));
        }
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT,
                "RESULT simWall=%.4f cpu=%.4f digest=%s endPs=%d events=%d makespanPs=%d completed=%b",
                wall / 1e9, cpu / 1e9, digest(r), r.endPs(), r.events(), makespan, r.allCompleted()));
        if (threads > 0) {
            ParallelRunStats st = sim.parallelStats().orElseThrow();
            b.append(String.format(Locale.ROOT, " windows=%d lookaheadPs=%d evMean=%.1f evP50=%d evP99=%d evMax=%d"
                    + " msgMean=%.1f msgP99=%d msgs=%d imbalance=%.3f parallelism=%.3f cpuPar=%.3f cpuWin=%.3f cpuCrit=%.3f busy=%s wait=%s ports=%s",
                    st.windows(), st.lookaheadPs(), st.meanEventsPerWindow(), st.p50EventsPerWindow(), st.p99EventsPerWindow(),
                    st.maxEventsPerWindow(), st.meanMessagesPerWindow(), st.p99MessagesPerWindow(), st.messages(),
                    st.imbalance(), st.eventParallelism(), st.cpuParallelism(), st.cpuSeconds(),
                    st.cpuCriticalPathSeconds(), join(st.busySeconds()), join(st.barrierWaitSeconds()),
                    Arrays.toString(st.partitionPorts()).replace(" ", "")));
        }
        return b.toString();
    }

    private static String join(double[] v) {
        StringBuilder b = new StringBuilder();
        for (double x : v) {
            b.append(b.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.3f", x));
        }
        return b.toString();
    }

    /** A run in a fresh JVM: its RESULT line as a map, plus the parent's fork-to-exit wall time as "wall". */
    private static Map<String, String> child(String classpath, String xmx, String name, int hosts, int threads)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(java, "-Xmx" + xmx, "-XX:+UseParallelGC", "-XX:+UseTransparentHugePages", "-Djava.awt.headless=true", "-cp", classpath,
                ParallelBenchMain.class.getName(), "--one", name, Integer.toString(hosts), Integer.toString(threads));
        ClusterBenchMain.ChildResult c = ClusterBenchMain.runChild(cmd, name + " " + hosts + " threads " + threads);
        String result = c.resultLine();
        double wall = c.wallS();
        Map<String, String> m = new LinkedHashMap<>();
        for (String kv : result.substring("RESULT ".length()).split(" ")) {
            int i = kv.indexOf('=');
            m.put(kv.substring(0, i), kv.substring(i + 1));
        }
        m.put("wall", String.format(Locale.ROOT, "%.4f", wall));
        return m;
    }

    private static double[] values(List<Map<String, String>> runs, String key) {
        return runs.stream().mapToDouble(m -> Double.parseDouble(m.get(key))).toArray();
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static String spread(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return String.format(Locale.ROOT, "%.2f [%.2f..%.2f]", median(v), s[0], s[s.length - 1]);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    /**
     * @param args see the class comment
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 4 && args[0].equals("--one")) {
            System.out.println(runOnce(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3])));
            return;
        }
        List<String> scenarios = List.of("roce", "spray", "incast");
        int[] hostCounts = {128, 1024, 3456};
        int[] threadCounts = {1, 2};
        int runs = 3;
        String xmx = "8g";
        boolean seq = true;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--no-seq")) {
                seq = false;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            String v = args[++i];
            switch (args[i - 1]) {
                case "--scenarios" -> scenarios = List.of(v.split(","));
                case "--hosts" -> hostCounts = Arrays.stream(v.split(",")).mapToInt(Integer::parseInt).toArray();
                case "--threads" -> threadCounts = Arrays.stream(v.split(",")).mapToInt(Integer::parseInt).toArray();
                case "--runs" -> runs = Integer.parseInt(v);
                case "--xmx" -> xmx = v;
                default -> throw new IllegalArgumentException("unknown option " + args[i - 1]
                        + " (allowed: --scenarios, --hosts, --threads, --runs, --xmx, --no-seq, or --one SCENARIO HOSTS THREADS)");
            }
        }
        if (runs < 1) {
            throw new IllegalArgumentException("--runs must be at least 1, got " + runs);
        }
        for (int t : threadCounts) {
            if (t < 1 || t > 256) {
                throw new IllegalArgumentException("--threads must be 1 to 256, got " + t);
            }
        }
        for (String s : scenarios) {
            ClusterBenchMain.scenario(s, 32); // fails early on an unknown name
        }
        List<Integer> engines = new ArrayList<>();
        if (seq) {
            engines.add(0);
        }
        for (int t : threadCounts) {
            engines.add(t);
        }
        String classpath = System.getProperty("java.class.path");
        System.out.println("cores " + Runtime.getRuntime().availableProcessors() + ", children -Xmx" + xmx
                + " -XX:+UseParallelGC -XX:+UseTransparentHugePages; load average at start: " + loadAverage());
        for (String name : scenarios) {
            int[] sizes = name.equals("incast") ? new int[] {32} : hostCounts;
            for (int hosts : sizes) {
                Map<Integer, List<Map<String, String>>> byEngine = new LinkedHashMap<>();
                engines.forEach(e -> byEngine.put(e, new ArrayList<>()));
                for (int k = 0; k < runs; k++) {
                    for (int j = 0; j < engines.size(); j++) { // rotate the order from run to run
                        int e = engines.get((j + k) % engines.size());
                        byEngine.get(e).add(child(classpath, xmx, name, hosts, e));
                    }
                }
                String label = name.equals("incast") ? "65" : Integer.toString(hosts);
                System.out.println(String.format(Locale.ROOT, "%s, %s hosts (%d runs each, load average now %s):", name, label,
                        runs, loadAverage()));
                Double base1 = byEngine.containsKey(1) ? median(values(byEngine.get(1), "simWall")) : null;
                Double baseSeq = byEngine.containsKey(0) ? median(values(byEngine.get(0), "simWall")) : null;
                String parallelDigest = null;
                boolean same = true;
                for (var en : byEngine.entrySet()) {
                    int e = en.getKey();
                    List<Map<String, String>> rs = en.getValue();
                    double simWall = median(values(rs, "simWall"));
                    StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                            "  %-10s | simulation wall %s s | process wall %s s | process CPU %s s",
                            e == 0 ? "sequential" : e + " thread" + (e > 1 ? "s" : ""), spread(values(rs, "simWall")),
                            spread(values(rs, "wall")), spread(values(rs, "cpu"))));
                    if (e > 0 && base1 != null) {
                        line.append(String.format(Locale.ROOT, " | speedup %.2fx over 1 thread", base1 / simWall));
                    }
                    if (e > 0 && baseSeq != null) {
                        line.append(String.format(Locale.ROOT, ", %.2fx over sequential", baseSeq / simWall));
                    }
                    System.out.println(line);
                    for (Map<String, String> m : rs) {
                        if (!m.get("digest").equals(rs.get(0).get("digest"))) {
                            same = false;
                        }
                    }
                    if (e > 0) {
                        if (parallelDigest == null) {
                            parallelDigest = rs.get(0).get("digest");
                        } else if (!parallelDigest.equals(rs.get(0).get("digest"))) {
                            same = false;
                        }
                        Map<String, String> m = rs.stream().sorted((a, b) -> Double.compare(Double.parseDouble(a.get("simWall")),
                                Double.parseDouble(b.get("simWall")))).toList().get(rs.size() / 2);
                        System.out.println("               makespan " + m.get("makespanPs") + " ps (all flows completed: "
                                + m.get("completed") + "), events " + m.get("events"));
                        System.out.println(String.format(Locale.ROOT,
                                "               windows %s (L = %s ps) | events/window mean %s, p50 %s, p99 %s, max %s"
                                + " | messages/window mean %s, p99 %s (total %s) | imbalance %s | event parallelism %s"
                                + " | CPU in windows %s s, critical path %s s, CPU parallelism %s | per thread: busy %s s,"
                                + " barrier wait %s s | ports per partition %s",
                                m.get("windows"), m.get("lookaheadPs"), m.get("evMean"), m.get("evP50"), m.get("evP99"),
                                m.get("evMax"), m.get("msgMean"), m.get("msgP99"), m.get("msgs"), m.get("imbalance"), m.get("parallelism"), m.get("cpuWin"),
                                m.get("cpuCrit"), m.get("cpuPar"), m.get("busy"),
                                m.get("wait"), m.get("ports")));
                    } else {
                        System.out.println("               makespan " + rs.get(0).get("makespanPs") + " ps (all flows completed: "
                                + rs.get(0).get("completed") + "), events " + rs.get(0).get("events"));
                    }
                }
                System.out.println("  parallel runs identical across thread counts and runs: " + same + " (digest "
                        + parallelDigest + ")");
            }
        }
    }
}
