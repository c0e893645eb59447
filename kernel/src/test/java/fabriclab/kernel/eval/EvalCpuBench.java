package fabriclab.kernel.eval;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * CPU time of the kernel's evaluator, which a loaded machine does not blur as it does wall time: building the
 * JShell session (with the kernel's start-up snippets), a first cell {@code 1 + 1}, then N trivial cells
 * {@code i + 1}; the evaluating thread's CPU time and the whole process's, and at the end the CPU time of the
 * JIT compiler threads and the others (Linux {@code /proc/self/task}). Uses only the evaluator's public API,
 * so it runs against any build's jars:
 * {@code java -cp kernel/target/test-classes:KERNELSPEC/lib/* fabriclab.kernel.eval.EvalCpuBench 30}.
 * With {@code -Djfr=FILE} the N cells are recorded with JFR (execution samples every 5 ms).
 */
public final class EvalCpuBench {
    private EvalCpuBench() {
    }

    /** Entry point: {@code [N=30]}. */
    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long p0 = os.getProcessCpuTime();
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        JavaEvaluator evaluator = new JavaEvaluator(List.of(), List.of(
                "import static fabriclab.kernel.NotebookDisplay.display;",
                "import static fabriclab.kernel.NotebookDisplay.updateDisplay;"));
        long t1 = System.nanoTime();
        long p1 = os.getProcessCpuTime();
        long c1 = threads.getCurrentThreadCpuTime();
        evaluator.eval("1 + 1");
        long p2 = os.getProcessCpuTime();
        long c2 = threads.getCurrentThreadCpuTime();
        jdk.jfr.Recording recording = null;
        if (System.getProperty("jfr") != null) {
            recording = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
            recording.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(5));
            recording.start();
        }
        double[] cpu = new double[n];
        double[] wall = new double[n];
        for (int i = 0; i < n; i++) {
            long w = System.nanoTime();
            long c = threads.getCurrentThreadCpuTime();
            evaluator.eval(i + " + 1");
            cpu[i] = (threads.getCurrentThreadCpuTime() - c) / 1e6;
            wall[i] = (System.nanoTime() - w) / 1e6;
        }
        long p3 = os.getProcessCpuTime();
        if (recording != null) {
            recording.stop();
            recording.dump(Path.of(System.getProperty("jfr")));
        }
        System.out.printf(Locale.ROOT, "session: %.0f ms CPU (thread %.0f), %.0f ms wall; first cell: %.0f ms CPU (thread %.0f);"
                        + " later cell: thread CPU median %.1f ms, process CPU %.1f ms per cell, wall median %.1f ms%n",
                (p1 - p0) / 1e6, (c1 - c0) / 1e6, (t1 - t0) / 1e6, (p2 - p1) / 1e6, (c2 - c1) / 1e6,
                median(cpu), (p3 - p2) / 1e6 / n, median(wall));
        System.out.println("CPU by thread, ms: " + cpuByThread());
        evaluator.close();
        System.exit(0);
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    /** CPU time so far of the JIT compiler threads (C1, C2), the collector's and all others, from /proc. */
    private static Map<String, Long> cpuByThread() throws Exception {
        Map<String, Long> byGroup = new TreeMap<>();
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return byGroup;
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(tasks)) {
            for (Path t : ds) {
                String stat = Files.readString(t.resolve("stat"));
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long ms = (Long.parseLong(f[11]) + Long.parseLong(f[12])) * 10; // utime + stime, in 10 ms ticks
                String group = name.startsWith("C2 ") ? "C2" : name.startsWith("C1 ") ? "C1"
                        : name.startsWith("GC ") || name.startsWith("ParGC") ? "GC" : "other";
                byGroup.merge(group, ms, Long::sum);
            }
        }
        return byGroup;
    }
}
