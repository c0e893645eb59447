package fabriclab.cli;

import fabriclab.scenarios.ScenarioSettings;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.FlowSpec;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The JVM that runs a {@code bin/simulate} run ({@link SimulateCommand}'s class comment): the run's packet-hops,
 * estimated from its scenario ({@link #estimatedPacketHops}), against {@link #LONG_RUN_PACKET_HOPS}, and the re-start
 * of the command in a JVM of the long profile ({@link #restart}).
 */
final class JvmProfile {
    /** Estimated packet-hops above which the long (C2) profile is used: about 8 M events. */
    static final long LONG_RUN_PACKET_HOPS = 4_000_000L;
    /**
     * System property naming the class-data sharing archive the JVM was started with ({@code bin/simulate} sets it;
     * {@link SimulateTraining}); the re-started JVM maps the same archive.
     */
    static final String CDS_PROPERTY = "fabriclab.simulate.cds";
    /** System property set in the re-started JVM (its profile is then final). */
    static final String PROFILE_PROPERTY = "fabriclab.simulate.profile";
    /** JVM options of the long profile (tiered compilation with C2 is the JVM's default). */
    static final List<String> LONG_PROFILE_OPTIONS = List.of("-XX:+UseParallelGC", "-XX:+UseTransparentHugePages",
            "-Djava.awt.headless=true");

    private JvmProfile() {
    }

    /**
     * The packet-hops the run will take if nothing is dropped or sent twice: every data packet (of every queue pair)
     * times the links of its path (2 through one switch, 4 across the spines), and as many acknowledgements
     * again divided by {@code --ack-every} (per queue pair) for RoCE and CTCC (CTCC's probes and their replies, as many as the run's
     * duration over the probe interval per host pair, are not counted: the duration is not known before the run).
     * Decides the JVM profile (the class comment).
     */
    static long estimatedPacketHops(ScenarioSettings w, Scenario s) {
        int hostsPerLeaf = w.fabric().hostsPerLeaf();
        long mtu = w.transport().mtuBytes();
        boolean acked = w.transport().choice().acknowledged();
        int ackEvery = w.transport().connection().ackEvery();
        long hops = 0;
        for (FlowSpec f : s.flows()) {
            int n = f.queuePairs(); // the first bytes mod n queue pairs carry one byte more
            long small = f.bytes() / n;
            long larger = f.bytes() % n;
            long perLarger = (small + 1 + mtu - 1) / mtu;
            long perSmall = (small + mtu - 1) / mtu;
            long packets = larger * perLarger + (n - larger) * perSmall;
            int links = w.workload().equals("incast") || f.source() / hostsPerLeaf == f.destination() / hostsPerLeaf ? 2 : 4;
            long data = packets * links;
            long acks = acked ? (larger * ((perLarger + ackEvery - 1) / ackEvery)
                    + (n - larger) * ((perSmall + ackEvery - 1) / ackEvery)) * links : 0;
            hops = Math.addExact(hops, Math.addExact(data, acks));
        }
        return hops;
    }

    /** Runs the command again in a JVM of the long profile, passing its output on to {@code out} and {@code err}; returns its status. */
    static int restart(SimulateRun o, PrintStream out, PrintStream err) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(LONG_PROFILE_OPTIONS);
        cmd.add("-Xmx" + Runtime.getRuntime().maxMemory() / (1024 * 1024) + "m");
        cmd.add("-D" + PROFILE_PROPERTY + "=long");
        cmd.addAll(archiveOptions(System.getProperty(CDS_PROPERTY)));
        String home = System.getProperty("fabriclab.home");
        if (home != null) { // where the datasets are (the flow-size distributions)
            cmd.add("-Dfabriclab.home=" + home);
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), SimulateCommand.class.getName()));
        cmd.addAll(o.args());
        try {
            Process p = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.INHERIT).start();
            Thread errors = new Thread(() -> copy(p.getErrorStream(), err), "simulate-stderr");
            errors.start();
            copy(p.getInputStream(), out);
            int status = p.waitFor();
            errors.join();
            return status;
        } catch (IOException e) {
            err.println("simulate: could not start the JVM of the long profile (" + cmd.get(0) + "): " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("simulate: interrupted");
            return 1;
        }
    }

    /**
     * The JVM options that map the class-data sharing archive {@code archive} (null or empty: none), its messages on
     * standard error (an archive that does not fit the JDK or the jars is not used, and the run goes on).
     */
    static List<String> archiveOptions(String archive) {
        if (archive == null || archive.isEmpty()) {
            return List.of();
        }
        return List.of("-Xlog:cds*=off", "-Xlog:cds*=warning:stderr", "-XX:SharedArchiveFile=" + archive,
                "-D" + CDS_PROPERTY + "=" + archive);
    }

    /** Copies {@code in} to {@code out} as it comes (a progress line shows when it is written). */
    private static void copy(java.io.InputStream in, PrintStream out) {
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            out.println("simulate: lost the output of the long-profile JVM: " + e.getMessage());
        }
    }
}
