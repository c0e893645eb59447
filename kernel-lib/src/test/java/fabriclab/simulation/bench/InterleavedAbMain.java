package fabriclab.simulation.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Compares two builds of the simulator in one JVM, interleaved: each build is loaded by its own
 * class loader from a classpath (its kernel-lib classes, test classes and dependencies), both run
 * the permutation of {@link SimulatorBenchMain} (N hosts, 2 MB flows) in alternating order for the
 * given number of rounds after a warm-up, and the command prints each build's median rate
 * (packet-hops per CPU-second of the simulating thread, and of the whole process) with quartiles, and the median and quartiles of the per-round ratio
 * B/A. Interleaving in one process puts both builds under the same machine conditions, whose drift
 * between separate runs on a shared virtual machine (several percent) is larger than the
 * differences usually measured.
 *
 * <p>Usage: {@code ./bench --main fabriclab.simulation.bench.InterleavedAbMain HOSTS ROUNDS CLASSPATH_A CLASSPATH_B [SCENARIO]}
 * (SCENARIO: a scenario of {@link ClusterBenchMain}, {@code roce}, {@code spray} or {@code incast}, instead of the
 * line-rate ECMP permutation of {@link SimulatorBenchMain}; both builds must then have {@code ClusterBenchMain}),
 * e.g. with A built from an older commit in a {@code git worktree} ({@code mvn -q -pl kernel-lib -am
 * test-compile} there, then {@code A=old/kernel-lib/target/test-classes:old/kernel-lib/target/classes:$(cat cp.txt)}).
 */
public final class InterleavedAbMain {
    private InterleavedAbMain() {
    }

    private static Object scenario(ClassLoader loader, int hosts, String name) throws Exception {
        if (name != null) { // a scenario of ClusterBenchMain (roce, spray, incast)
            Class<?> cluster = Class.forName("fabriclab.simulation.bench.ClusterBenchMain", true, loader);
            Method m = cluster.getDeclaredMethod("scenario", String.class, int.class);
            m.setAccessible(true);
            return m.invoke(null, name, hosts);
        }
        Class<?> bench = Class.forName("fabriclab.simulation.bench.SimulatorBenchMain", true, loader);
        Method m = bench.getDeclaredMethod("permutation", int.class, long.class);
        m.setAccessible(true);
        return m.invoke(null, hosts, 2_000_000L);
    }

    /**
     * The simulator of {@code scenario} in its build: {@code new Simulator(scenario)}, or {@code scenario.simulator()}
     * in builds whose scenario makes its own simulator, so that a build can be measured against older ones.
     */
    private static Object simulatorOf(Object scenario) throws Exception {
        ClassLoader loader = scenario.getClass().getClassLoader();
        Class<?> simulator = Class.forName("fabriclab.simulation.Simulator", true, loader);
        try {
            return simulator.getConstructor(scenario.getClass()).newInstance(scenario);
        } catch (NoSuchMethodException e) {
            return scenario.getClass().getMethod("simulator").invoke(scenario);
        }
    }

    /**
     * One run of {@code scenario}'s simulator: million packet-hops per second of this thread's CPU time and per
     * second of the whole process's CPU time (the run only, not the build; CPU time rather than wall time, which
     * other tenants of a shared machine stretch). The process's figure includes the garbage collector's threads,
     * which collect what the run allocated; the thread's figure leaves them out.
     */
    private static double[] rate(Object scenario) throws Exception {
        Object simulator = simulatorOf(scenario);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long p0 = os.getProcessCpuTime();
        long t0 = threads.getCurrentThreadCpuTime();
        Object result = simulator.getClass().getMethod("run").invoke(simulator);
        long t1 = threads.getCurrentThreadCpuTime();
        long p1 = os.getProcessCpuTime();
        long hops = (long) result.getClass().getMethod("packetHops").invoke(result);
        long events = (long) result.getClass().getMethod("events").invoke(result);
        return new double[] {hops / ((t1 - t0) / 1e9) / 1e6, hops / ((p1 - p0) / 1e9) / 1e6, events, hops, (t1 - t0) / 1e9};
    }

    private static ClassLoader loader(String classpath) throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String p : classpath.split(":")) {
            if (!p.isEmpty()) {
                urls.add(Path.of(p).toUri().toURL());
            }
        }
        return new URLClassLoader(urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
    }

    private static String quartiles(double[] sorted, String format) {
        int n = sorted.length;
        return String.format(Locale.ROOT, format + " (quartiles " + format + " to " + format + ")", sorted[n / 2], sorted[n / 4],
                sorted[3 * n / 4]);
    }

    /**
     * @param args hosts (a multiple of 16, at least 16), rounds (at least 4), classpath A, classpath B
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 4 && args.length != 5) {
            throw new IllegalArgumentException("usage: InterleavedAbMain HOSTS ROUNDS CLASSPATH_A CLASSPATH_B [SCENARIO], got "
                    + args.length + " arguments");
        }
        String name = args.length == 5 ? args[4] : null;
        int hosts = Integer.parseInt(args[0]);
        int rounds = Integer.parseInt(args[1]);
        if (hosts < 16 || hosts % 16 != 0) {
            throw new IllegalArgumentException("HOSTS must be a positive multiple of 16, got " + hosts);
        }
        if (rounds < 4) {
            throw new IllegalArgumentException("ROUNDS must be at least 4, got " + rounds);
        }
        Object a = scenario(loader(args[2]), hosts, name);
        Object b = scenario(loader(args[3]), hosts, name);
        for (int w = 0; w < 6; w++) { // warm-up: both builds past the JIT's first compilations
            rate(a);
            rate(b);
        }
        double[][] ra = new double[2][rounds];
        double[][] rb = new double[2][rounds];
        double[][] perRun = new double[2][]; // events, packet-hops (the same every run of a build) and thread CPU s
        double[][] cpu = new double[2][rounds];
        double[][] ratio = new double[2][rounds];
        for (int i = 0; i < rounds; i++) {
            double[] x;
            double[] y;
            if (i % 2 == 0) {
                x = rate(a);
                y = rate(b);
            } else {
                y = rate(b);
                x = rate(a);
            }
            perRun[0] = x;
            perRun[1] = y;
            cpu[0][i] = x[4];
            cpu[1][i] = y[4];
            for (int k = 0; k < 2; k++) {
                ra[k][i] = x[k];
                rb[k][i] = y[k];
                ratio[k][i] = y[k] / x[k];
            }
        }
        System.out.println((name == null ? "bench" : name) + " permutation, " + hosts + " hosts, " + rounds
                + " interleaved rounds");
        for (int k = 0; k < 2; k++) {
            Arrays.sort(cpu[k]);
            System.out.println(String.format(Locale.ROOT, " %s: %,d events, %,d packet-hops per run; CPU of the simulating thread %s s",
                    k == 0 ? "A" : "B", (long) perRun[k][2], (long) perRun[k][3], quartiles(cpu[k], "%.3f")));
        }
        String[] per = {"CPU-second of the simulating thread", "CPU-second of the process (GC threads included)"};
        for (int k = 0; k < 2; k++) {
            Arrays.sort(ra[k]);
            Arrays.sort(rb[k]);
            Arrays.sort(ratio[k]);
            System.out.println(" per " + per[k] + ":");
            System.out.println("  A: " + quartiles(ra[k], "%.2f") + " M packet-hops/s");
            System.out.println("  B: " + quartiles(rb[k], "%.2f") + " M packet-hops/s");
            System.out.println("  B/A per round: " + quartiles(ratio[k], "%.3f"));
        }
    }
}
