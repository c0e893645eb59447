package fabriclab.simulation.bench;

import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.Scenario;
import fabriclab.cli.SimulateOptions;
import fabriclab.simulation.SimulationResult;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Bench command for the packet simulator at cluster scale: the scenarios of the comparison with htsim
 * (csg-htsim) in both of the ways a user meets the simulator.
 *
 * <p>Scenarios (all on a two-tier leaf-spine of {@code hosts / 16} leaves of 16 hosts and 8 spines, 2 parallel
 * 100G links per leaf-spine pair, 1 us per link, 1000 B payload + 64 B header per packet, a permutation of 2 MB
 * flows drawn with {@link Scenario#permutation} seed 5):
 * <ul>
 *   <li>{@code roce}: RoCE go-back-N without congestion control, an ACK per packet, PFC (XOFF 15 x 1064 B,
 *       XON 12,000 B, 65535 quanta), per-flow ECMP (CRC-32, seed 7), 16 MB shared buffer;</li>
 *   <li>{@code spray}: line-rate senders (no transport), per-packet round-robin spraying, 16 MB shared buffer,
 *       no PFC;</li>
 *   <li>{@code incast}: 64 senders x 4 MB to one receiver on one switch at 100G, 1 us per link, RoCE + PFC as in
 *       {@code roce} (the {@code hosts} argument is ignored);</li>
 *   <li>{@code gse}: the permutation under GSE ({@code GseTransport.defaults()}: 16 KB containers assembled, requested,
 *       granted and sprayed by the leaves, line-rate hosts, no PFC in the fabric; not an htsim scenario, htsim has no
 *       GSE: the papers' own transport at the same scale);</li>
 *   <li>{@code ctcc}: the permutation under CTCC (RTT probes per host pair, paced senders, an ACK per 16 packets,
 *       no PFC; not an htsim scenario either);</li>
 *   <li>{@code allreduce} and {@code gse-allreduce}: a ring all-reduce of 2 MB per rank in every group of 16 hosts
 *       at once (rank r of group g on host r x groups + g, so a group spans the leaves), each step a flow that
 *       starts when the data it waits for has arrived, under {@code roce} and under GSE.</li>
 * </ul>
 * Variants of {@code roce} take its cost apart (not htsim scenarios): {@code roce-ack16}, the same with an ACK per
 * 16 packets; {@code roce-nopfc} and {@code roce-ack16-nopfc}, the same two without PFC on a 16 GiB shared buffer (deep
 * enough that nothing is dropped); and {@code ecmp}, line-rate senders (no transport, no ACKs) on the same per-flow
 * ECMP without PFC (16 MB buffer: it drops at 1024 hosts).
 *
 * <p>Figures: CPU time (the whole process's, from the operating system's account of the JVM: the simulation
 * thread, the JIT compilers and the garbage collector), wall time, <em>data packet-hops</em> per CPU-second (every
 * data packet of a flow times the links of its path: 2 within a leaf, 4 across the spines; the figure of the htsim
 * comparison, exact when no data packet is dropped or sent twice, which the line prints), all packet-hops (data and
 * control, from {@link SimulationResult#packetHops()}), events, peak heap (the sum of the heap pools' peaks) and
 * peak RSS (VmHWM of {@code /proc/self/status}).
 *
 * <p>Two modes:
 * <ul>
 *   <li>{@code process} (the user's one-shot run: a CLI, a Spark task): every run is a fresh JVM started by this
 *       command with the same class path and collector; CPU time is the child's whole process, JVM start-up,
 *       class loading, building the fabric and JIT compilation included; wall time is measured by the parent
 *       from fork to exit.</li>
 *   <li>{@code warm} (a sweep in one JVM): runs in this JVM after warm-up runs; CPU is the process CPU time
 *       during the run (simulation thread plus GC and JIT threads) and, apart, the simulation thread's; peak heap
 *       is reset (after a full collection) before each run; peak RSS is the JVM's so far.</li>
 * </ul>
 * Each figure is the median of the runs, with the quartiles (or min to max for fewer than 4 runs).
 *
 * <p>Usage: {@code ./bench --main fabriclab.simulation.bench.ClusterBenchMain [--mode process|warm|both]
 * [--scenarios roce,spray,incast] [--hosts 128,1024,3456] [--runs 3] [--warmup 2] [--xmx 8g]
 * [--child-opts "JVM options of the fresh JVMs"]}; one run and one
 * result line: {@code ... ClusterBenchMain --one SCENARIO HOSTS}.
 */
public final class ClusterBenchMain {
    private static final int MTU_BYTES = 1000;

    private ClusterBenchMain() {
    }

    /**
     * The scenario {@code name} (see the class comment: the htsim scenarios and the variants of {@code roce}) at
     * {@code hosts} hosts: the command line of {@code bin/simulate} whose defaults are the htsim scenario, so the bench
     * and the command run one definition of it.
     */
    static Scenario scenario(String name, int hosts) {
        return scenario(simulateArgs(name, hosts));
    }

    /** The scenario {@code bin/simulate} runs with the options {@code simulateArgs}. */
    static Scenario scenario(List<String> simulateArgs) {
        return SimulateOptions.parse(simulateArgs).settings().scenario();
    }

    /**
     * The options of {@code bin/simulate} that run the scenario {@code name} at {@code hosts} hosts (none for the
     * default {@code roce}; the incast ignores {@code hosts}): the one definition of each scenario, which
     * {@link #scenario} parses here and {@link HtsimBenchMain} hands to {@code bin/simulate} as a whole process.
     */
    static List<String> simulateArgs(String name, int hosts) {
        if (!name.equals("incast") && (hosts < 32 || hosts % 16 != 0)) {
            throw new IllegalArgumentException("hosts must be a multiple of 16, at least 32, got " + hosts);
        }
        List<String> noPfcDeep = List.of("--pfc", "off", "--buffer", "16GiB"); // deep enough that nothing is dropped
        List<String> lineRate = List.of("--transport", "line-rate", "--pfc", "off");
        List<String> args = switch (name) {
            case "roce" -> List.of();
            case "roce-ack16" -> List.of("--ack-every", "16");
            case "roce-nopfc" -> noPfcDeep;
            case "roce-ack16-nopfc" -> concat(noPfcDeep, List.of("--ack-every", "16"));
            case "ecmp" -> lineRate;
            case "spray" -> concat(lineRate, List.of("--forwarding", "spray"));
            case "incast" -> List.of("--workload", "incast");
            case "gse" -> List.of("--transport", "gse");
            case "ctcc" -> List.of("--transport", "ctcc");
            case "allreduce" -> List.of("--workload", "ring-allreduce");
            case "gse-allreduce" -> List.of("--workload", "ring-allreduce", "--transport", "gse");
            default -> throw new IllegalArgumentException(
                    "scenario must be one of roce, spray, incast, gse, ctcc, allreduce, gse-allreduce, roce-ack16, roce-nopfc, roce-ack16-nopfc, ecmp, got " + name);
        };
        // the incast is one switch of 65 hosts: bin/simulate refuses --hosts there, as it does not apply
        List<String> size = name.equals("incast") ? List.of() : List.of("--hosts", Integer.toString(hosts));
        return concat(size, args);
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> r = new ArrayList<>(a);
        r.addAll(b);
        return r;
    }

    /** Data packet-hops of a run without drops or retransmissions: packets of each flow times its path's links. */
    static long dataHops(Scenario s, String name) {
        long hops = 0;
        for (FlowSpec f : s.flows()) {
            long packets = (f.bytes() + MTU_BYTES - 1) / MTU_BYTES;
            int links = name.equals("incast") || f.source() / 16 == f.destination() / 16 ? 2 : 4;
            hops += packets * links;
        }
        return hops;
    }

    /** One measured run, in this JVM. */
    record Run(double cpuS, double threadCpuS, double wallS, long dataHops, long hops, long events, long dropped,
            long retransmitted, long pauses, long peakHeap, long vmHwm, long endPs) {
        String line() {
            return String.format(Locale.ROOT, "RESULT cpu=%.4f thread=%.4f wall=%.4f dataHops=%d hops=%d events=%d dropped=%d"
                    + " retx=%d pauses=%d heap=%d hwm=%d endPs=%d", cpuS, threadCpuS, wallS, dataHops, hops, events,
                    dropped, retransmitted, pauses, peakHeap, vmHwm, endPs);
        }

        static Run parse(String line) {
            Map<String, String> m = new LinkedHashMap<>();
            for (String kv : line.substring("RESULT ".length()).split(" ")) {
                String[] p = kv.split("=");
                m.put(p[0], p[1]);
            }
            return new Run(Double.parseDouble(m.get("cpu")), Double.parseDouble(m.get("thread")),
                    Double.parseDouble(m.get("wall")), Long.parseLong(m.get("dataHops")), Long.parseLong(m.get("hops")),
                    Long.parseLong(m.get("events")), Long.parseLong(m.get("dropped")), Long.parseLong(m.get("retx")),
                    Long.parseLong(m.get("pauses")), Long.parseLong(m.get("heap")), Long.parseLong(m.get("hwm")), Long.parseLong(m.get("endPs")));
        }
    }

    private static long processCpuNs() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    /** Peak resident set size of this process (VmHWM), bytes; -1 where /proc is not available. */
    static long vmHwmBytes() {
        try {
            for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (l.startsWith("VmHWM:")) {
                    return Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }


    /** Builds and runs {@code name} at {@code hosts} once; {@code wholeProcess}: CPU since the JVM started. */
    static Run runOnce(String name, int hosts, boolean wholeProcess) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        if (!wholeProcess) {
            SimulatorBenchMain.resetPeaks();
        }
        long cpu0 = wholeProcess ? 0 : processCpuNs();
        long thread0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        Scenario s = scenario(name, hosts);
        SimulationResult r = new Simulator(s).run();
        long wall = System.nanoTime() - t0;
        long thread = threads.getCurrentThreadCpuTime() - thread0;
        long cpu = processCpuNs() - cpu0;
        long retx = 0;
        for (SimulationResult.FlowRecord f : r.flows()) {
            retx += f.retransmittedPackets();
        }
        return new Run(cpu / 1e9, thread / 1e9, wall / 1e9, dataHops(s, name), r.packetHops(), r.events(),
                r.droppedPackets(), retx, r.pausesSent(), SimulatorBenchMain.peakHeap(), vmHwmBytes(), r.endPs());
    }

    private static String spread(double[] v, String format) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        String mid = String.format(Locale.ROOT, format, s[n / 2]);
        if (n == 1) {
            return mid;
        }
        double lo = n >= 4 ? s[n / 4] : s[0];
        double hi = n >= 4 ? s[(3 * n) / 4] : s[n - 1];
        return mid + String.format(Locale.ROOT, " [" + format + ".." + format + "]", lo, hi);
    }

    private static void print(String mode, String name, int hosts, List<Run> runs) {
        int n = runs.size();
        double[] cpu = new double[n];
        double[] thread = new double[n];
        double[] wall = new double[n];
        double[] rate = new double[n];
        double[] heap = new double[n];
        double[] rss = new double[n];
        for (int i = 0; i < n; i++) {
            Run r = runs.get(i);
            cpu[i] = r.cpuS();
            thread[i] = r.threadCpuS();
            wall[i] = r.wallS();
            rate[i] = r.dataHops() / r.cpuS() / 1e6;
            heap[i] = r.peakHeap() / 1e6;
            rss[i] = r.vmHwm() / 1e6;
        }
        Run r = runs.get(0);
        String hostLabel = name.equals("incast") ? "65" : Integer.toString(hosts);
        System.out.println(String.format(Locale.ROOT,
                "%-7s %-6s %5s hosts | CPU %s s (sim thread %s s) | wall %s s | %s M data packet-hops/CPU-s"
                + " | data hops %,d, all hops %,d, events %,d, dropped %d, retransmitted %d, PAUSE frames %,d | peak heap %s MB | peak RSS %s MB"
                + " | %d runs, end %.3f us",
                mode, name, hostLabel, spread(cpu, "%.2f"), spread(thread, "%.2f"), spread(wall, "%.2f"),
                spread(rate, "%.2f"), r.dataHops(), r.hops(), r.events(), r.dropped(), r.retransmitted(), r.pauses(),
                spread(heap, "%.0f"), spread(rss, "%.0f"), n, r.endPs() / 1e6));
        for (Run o : runs) {
            if (o.events() != r.events() || o.endPs() != r.endPs() || o.hops() != r.hops()) {
                throw new IllegalStateException("runs of " + name + " differ: " + r + " vs " + o);
            }
        }
    }

    /** What a bench child printed on its {@code RESULT} line, and the parent's fork-to-exit wall time, seconds. */
    record ChildResult(String resultLine, double wallS) {
    }

    /**
     * Runs the command {@code cmd} (a fresh JVM that prints one line starting with {@code RESULT }) and waits for it;
     * fails naming {@code what} with the child's other output if it exits non-zero or prints no result.
     */
    static ChildResult runChild(List<String> cmd, String what) throws IOException, InterruptedException {
        long t0 = System.nanoTime();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String result = null;
        StringBuilder other = new StringBuilder();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String l;
            while ((l = in.readLine()) != null) {
                if (l.startsWith("RESULT ")) {
                    result = l;
                } else {
                    other.append(l).append('\n');
                }
            }
        }
        int rc = p.waitFor();
        double wall = (System.nanoTime() - t0) / 1e9;
        if (rc != 0 || result == null) {
            throw new IllegalStateException("child run of " + what + " failed (exit " + rc + "):\n" + other);
        }
        return new ChildResult(result, wall);
    }

    private static Run child(String classpath, String xmx, List<String> childOptions, String name, int hosts)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>(List.of(java, "-Xmx" + xmx, "-Djava.awt.headless=true"));
        if (childOptions.stream().noneMatch(o -> o.startsWith("-XX:+Use") && o.endsWith("GC"))) {
            cmd.add("-XX:+UseParallelGC"); // the collector of ./bench unless the options choose one
        }
        cmd.add("-XX:+UseTransparentHugePages"); // as ./bench; -XX:-UseTransparentHugePages in the options wins
        cmd.addAll(childOptions);
        cmd.addAll(List.of("-cp", classpath, ClusterBenchMain.class.getName(), "--one", name, Integer.toString(hosts)));
        ChildResult c = runChild(cmd, name + " " + hosts);
        String result = c.resultLine();
        double wall = c.wallS();
        Run r = Run.parse(result);
        return new Run(r.cpuS(), r.threadCpuS(), wall, r.dataHops(), r.hops(), r.events(), r.dropped(), r.retransmitted(),
                r.pauses(), r.peakHeap(), r.vmHwm(), r.endPs());
    }

    /**
     * @param args see the class comment
     */
    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("--one")) {
            System.out.println(runOnce(args[1], Integer.parseInt(args[2]), true).line());
            return;
        }
        String mode = "both";
        List<String> scenarios = List.of("roce", "spray", "incast");
        int[] hostCounts = {128, 1024, 3456};
        int runs = 3;
        int warmup = 2;
        String xmx = "8g";
        List<String> childOptions = List.of();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            String v = args[i + 1];
            switch (args[i]) {
                case "--mode" -> {
                    if (!List.of("process", "warm", "both").contains(v)) {
                        throw new IllegalArgumentException("--mode must be process, warm or both, got " + v);
                    }
                    mode = v;
                }
                case "--scenarios" -> scenarios = List.of(v.split(","));
                case "--hosts" -> hostCounts = Arrays.stream(v.split(",")).mapToInt(Integer::parseInt).toArray();
                case "--runs" -> runs = Integer.parseInt(v);
                case "--warmup" -> warmup = Integer.parseInt(v);
                case "--xmx" -> xmx = v;
                case "--child-opts" -> childOptions = v.isBlank() ? List.of() : List.of(v.trim().split("\\s+"));
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (allowed: --mode, --scenarios, --hosts, --runs, --warmup, --xmx, --child-opts, or --one SCENARIO HOSTS)");
            }
        }
        if (runs < 1) {
            throw new IllegalArgumentException("--runs must be at least 1, got " + runs);
        }
        for (String s : scenarios) {
            scenario(s, 32); // fails early on an unknown name
        }
        String classpath = System.getProperty("java.class.path");
        System.out.println("cores " + Runtime.getRuntime().availableProcessors() + ", max heap (this JVM) "
                + Runtime.getRuntime().maxMemory() / 1_000_000 + " MB, children -Xmx" + xmx + " -XX:+UseTransparentHugePages"
                + (childOptions.isEmpty() ? "" : " " + String.join(" ", childOptions)));
        for (String name : scenarios) {
            int[] sizes = name.equals("incast") ? new int[] {65} : hostCounts;
            for (int hosts : sizes) {
                if (!mode.equals("warm")) {
                    List<Run> rs = new ArrayList<>();
                    for (int k = 0; k < runs; k++) {
                        rs.add(child(classpath, xmx, childOptions, name, hosts == 65 ? 32 : hosts));
                    }
                    print("process", name, hosts, rs);
                }
                if (!mode.equals("process")) {
                    int h = hosts == 65 ? 32 : hosts;
                    for (int k = 0; k < warmup; k++) {
                        runOnce(name, h, false);
                    }
                    List<Run> rs = new ArrayList<>();
                    for (int k = 0; k < runs; k++) {
                        rs.add(runOnce(name, h, false));
                    }
                    print("warm", name, hosts, rs);
                }
            }
        }
    }
}
