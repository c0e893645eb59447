package fabriclab.kernel.eval;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * CPU time of a cell defining many short methods against one defining one, in the kernel's evaluator: after
 * {@code TRIVIAL} trivial cells ({@code i + 1}, as
 * {@code bin/kernel-latency} sends before) and {@code WARMUP} rounds, {@code ROUNDS} rounds each evaluating a cell with 1 method and one with {@code M} methods
 * ({@code int mR_i(int x) { return x + i; }}, new names every round, as {@code bin/kernel-latency} sends them);
 * the evaluating thread's CPU and wall time, medians, and their ratio. Uses only the evaluator's public API:
 * {@code java -cp kernel/target/test-classes:KERNELSPEC/lib/* fabriclab.kernel.eval.MethodsCpuBench [M=40] [ROUNDS=10] [WARMUP=5] [TRIVIAL=90]}.
 * With {@code -Djfr=FILE} the measured rounds are recorded with JFR (execution samples every 2 ms).
 */
public final class MethodsCpuBench {
    private MethodsCpuBench() {
    }

    /** Entry point: {@code [M=40] [ROUNDS=10] [WARMUP=5] [TRIVIAL=90]}. */
    public static void main(String[] args) throws Exception {
        int m = args.length > 0 ? Integer.parseInt(args[0]) : 40;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        int trivial = args.length > 3 ? Integer.parseInt(args[3]) : 90;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        JavaEvaluator evaluator = new JavaEvaluator(List.of(), List.of());
        for (int i = 0; i < trivial; i++) {
            evaluator.eval(i + " + 1");
        }
        for (int r = 0; r < warmup; r++) {
            evaluator.eval(cell(1, "w" + r));
            evaluator.eval(cell(m, "v" + r));
        }
        jdk.jfr.Recording recording = null;
        if (System.getProperty("jfr") != null) {
            recording = new jdk.jfr.Recording(jdk.jfr.Configuration.getConfiguration("profile"));
            recording.enable("jdk.ExecutionSample").withPeriod(java.time.Duration.ofMillis(2));
            recording.start();
        }
        double[][] cpu = new double[2][rounds];
        double[][] wall = new double[2][rounds];
        for (int r = 0; r < rounds; r++) {
            for (int k = 0; k < 2; k++) {
                String code = cell(k == 0 ? 1 : m, (k == 0 ? "a" : "b") + r);
                long w = System.nanoTime();
                long c = threads.getCurrentThreadCpuTime();
                evaluator.eval(code);
                cpu[k][r] = (threads.getCurrentThreadCpuTime() - c) / 1e6;
                wall[k][r] = (System.nanoTime() - w) / 1e6;
            }
        }
        if (recording != null) {
            recording.stop();
            recording.dump(Path.of(System.getProperty("jfr")));
        }
        // the methods are callable afterwards
        Object v = evaluator.eval("mb0_" + (m - 1) + "(1)").valueIfAny().orElse(null);
        System.out.printf(Locale.ROOT, "1 method: thread CPU %.1f ms, wall %.1f ms; %d methods: thread CPU %.1f ms, wall %.1f ms;"
                        + " ratio CPU %.1f, wall %.1f (medians of %d after %d warm-up rounds; check %s)%n",
                median(cpu[0]), median(wall[0]), m, median(cpu[1]), median(wall[1]),
                median(cpu[1]) / median(cpu[0]), median(wall[1]) / median(wall[0]), rounds, warmup, v);
        evaluator.close();
        System.exit(0);
    }

    static String cell(int n, String tag) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append("int m").append(tag).append('_').append(i).append("(int x) { return x + ").append(i).append("; }\n");
        }
        return sb.toString();
    }

    private static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
