package fabriclab.cli;

import fabriclab.fabric.Time;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.trace.DropReason;
import fabriclab.simulation.transport.TransportModel;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The packet simulator as a command ({@code bin/simulate}): one run described by {@link SimulateOptions},
 * its figures printed as {@code name: value} lines on standard output, progress on standard error, and
 * optionally one CSV line per flow.
 *
 * <p><b>Why a command picks its JVM.</b> A one-shot run pays for the JVM's start and its JIT compilers,
 * and for a short run those dominate: with the default tiered compilation the C2 compiler threads
 * take most of the process's CPU, while C1's code runs the simulation barely slower; beyond a few
 * million packet-hops C2's faster code pays for its compilation. (Measured figures: README, Benchmarks;
 * their history: {@code BENCH-RESULTS.md}.) So the launcher starts the JVM in the
 * <em>short</em> profile (C1 only, serial collector), and this command, once it has built the
 * scenario, re-runs itself in the <em>long</em> profile (tiered with C2, parallel collector,
 * transparent huge pages: the flags of {@code ./bench}) when the run is estimated at more than
 * {@link #LONG_RUN_PACKET_HOPS} packet-hops ({@link #estimatedPacketHops}); {@code --jit
 * short|long} forces either. The re-start costs one JVM start on runs of several seconds.
 *
 * <p>Exit status: 0 after a run (also one stopped by {@code --time-limit}), 2 for a bad command line
 * (the message names the option, its value and the allowed values; a {@code --flows} file that cannot be created is
 * one, found before the run), 1 when the run failed or its figures or flows could not be written.
 */
public final class SimulateCommand {
    /** Estimated packet-hops above which the long (C2) profile is used: about 8 M events. */
    public static final long LONG_RUN_PACKET_HOPS = 4_000_000L;
    /** System property set in the re-started JVM (its profile is then final). */
    static final String PROFILE_PROPERTY = "fabriclab.simulate.profile";
    /** JVM options of the long profile (tiered compilation with C2 is the JVM's default). */
    static final List<String> LONG_PROFILE_OPTIONS = List.of("-XX:+UseParallelGC", "-XX:+UseTransparentHugePages",
            "-Djava.awt.headless=true");

    private SimulateCommand() {
    }

    /**
     * Runs the command and exits with its status.
     *
     * @param args the command line (see {@link SimulateOptions#usage})
     */
    public static void main(String[] args) {
        System.exit(run(Arrays.asList(args), System.out, System.err));
    }

    /**
     * Runs the command (in this JVM, or in a re-started one for a long run; see the class comment).
     *
     * @param args the command line
     * @param out where the figures go
     * @param err where progress and errors go
     * @return the exit status: 0 done, 1 the run failed, 2 a bad command line
     */
    public static int run(List<String> args, PrintStream out, PrintStream err) {
        fabriclab.Parameters.notNull("out", out);
        fabriclab.Parameters.notNull("err", err);
        if (args != null && (args.contains("--help") || args.contains("-h"))) {
            out.println(SimulateOptions.usage());
            return 0;
        }
        SimulateOptions o;
        Scenario s;
        try {
            o = SimulateOptions.parse(fabriclab.Parameters.notNull("args", args));
            checkHeap(o, Runtime.getRuntime().maxMemory());
            s = o.scenario();
        } catch (IllegalArgumentException | NullPointerException e) {
            err.println("simulate: " + e.getMessage());
            err.println("(bin/simulate --help lists the options)");
            return 2;
        }
        long estimate = estimatedPacketHops(o, s);
        String profile = System.getProperty(PROFILE_PROPERTY, "short");
        boolean wantLong = o.jit().equals("long") || o.jit().equals("auto") && estimate > LONG_RUN_PACKET_HOPS;
        if (wantLong && !profile.equals("long")) {
            return restartLong(o, out, err);
        }
        try {
            return simulate(o, s, estimate, profile, out, err);
        } catch (IOException e) {
            err.println("simulate: could not write " + (String.valueOf(e.getMessage()).startsWith("--fct") ? e.getMessage()
                    : "--flows " + o.flowsFile() + ": " + e.getMessage()));
            return 1;
        } catch (fabriclab.simulation.SimulationStalledException e) { // the progress watchdog: what is stuck
            err.println("simulate: " + e.getMessage());
            return 1;
        } catch (RuntimeException e) {
            err.println("simulate: the run failed: " + e);
            return 1;
        }
    }

    /**
     * The packet-hops the run will take if nothing is dropped or sent twice: every data packet (of every queue pair)
     * times the links of its path (2 through one switch, 4 across the spines), and as many acknowledgements
     * again divided by {@code --ack-every} (per queue pair) for RoCE and CTCC (CTCC's probes and their replies, as many as the run's
     * duration over the probe interval per host pair, are not counted: the duration is not known before the run).
     * Decides the JVM profile (the class comment).
     */
    static long estimatedPacketHops(SimulateOptions o, Scenario s) {
        long hops = 0;
        for (FlowSpec f : s.flows()) {
            int n = f.queuePairs(); // the first bytes mod n queue pairs carry one byte more
            long small = f.bytes() / n;
            long larger = f.bytes() % n;
            long mtu = o.mtuBytes();
            long perLarger = (small + 1 + mtu - 1) / mtu;
            long perSmall = (small + mtu - 1) / mtu;
            long packets = larger * perLarger + (n - larger) * perSmall;
            int links = o.workload().equals("incast") || f.source() / o.hostsPerLeaf() == f.destination() / o.hostsPerLeaf() ? 2 : 4;
            long data = packets * links;
            boolean acked = o.transport().acknowledged();
            long acks = acked ? (larger * ((perLarger + o.ackEvery() - 1) / o.ackEvery())
                    + (n - larger) * ((perSmall + o.ackEvery() - 1) / o.ackEvery())) * links : 0;
            hops = Math.addExact(hops, Math.addExact(data, acks));
        }
        return hops;
    }

    /**
     * Heap per host that a run is assumed to need, bytes, to refuse sizes that cannot fit before building anything:
     * the peak RSS of the whole process per host of the RoCE+PFC permutation with 16 MB buffers at 3456 and at
     * 10,000 hosts ({@code BENCH-RESULTS.md}), rounded up. A floor, not a promise: with deep buffers and no PFC
     * the packets held in the queues can need much more.
     */
    static final long HEAP_BYTES_PER_HOST = 100_000L;

    /**
     * Heap per flow (per queue pair: each is a flow of the run) assumed besides, bytes: the flow's state, endpoints and result, from the heap after a full GC
     * of ring all-reduces of thousands to a hundred thousand flows, built and after the run
     * ({@code BENCH-RESULTS.md}), rounded up. It
     * matters where flows outnumber hosts: an all-reduce's steps are flows (2 (R - 1) per host in a ring of R ranks).
     */
    static final long HEAP_BYTES_PER_FLOW = 1_500L;

    /**
     * Heap per link between a leaf and a spine assumed besides, bytes: its two ports' queues, counters and PFC state,
     * from the heap after a full GC of leaf-spines of 16,384 to 131,072 such links built and run for a few
     * microseconds (2.1 KB per link measured), rounded up. It matters where links outnumber
     * hosts: 1024 leaves of one host each under 4096 spines have 4 M of them. A host's own link is in
     * {@link #HEAP_BYTES_PER_HOST}.
     */
    static final long HEAP_BYTES_PER_LINK = 3_000L;

    /**
     * Heap per packet held in a switch's buffer or on a link assumed besides, bytes: 93 B measured per packet in flight
     * (12.8 GB of 1064-byte packets on 1 s links) and per packet queued (300 MB in one incast switch), rounded up.
     */
    static final long HEAP_BYTES_PER_PACKET = 150L;

    /**
     * The packets a run may hold at once, at most: the bytes the switches may queue (each switch's {@code --buffer}, or
     * with PFC at most, per port, the XOFF threshold plus what arrives in the round trip of its link and two packets)
     * and the bytes on the links (each direction's rate times its delay), but no more than the workload sends, in
     * packets of {@code --mtu + --header}.
     */
    static double heldPackets(SimulateOptions o, long flows) {
        boolean incast = o.workload().equals("incast");
        double wire = o.mtuBytes() + o.headerBytes();
        double rate = o.rateBitsPerSecond();
        double fabricLinks = incast ? 0 : (double) o.hosts() / o.hostsPerLeaf() * o.spines() * o.parallelLinks();
        double hostLinks = incast ? o.senders() + 1.0 : o.hosts();
        double links = hostLinks + fabricLinks;
        double onLinks = 2 * links * rate * (o.delayPs() / 1e12) / 8; // both directions of every link
        double ports = hostLinks + 2 * fabricLinks; // switch ports: a host link has one, a fabric link two
        double switches = incast ? 1 : (double) o.hosts() / o.hostsPerLeaf() + o.spines();
        double queued = switches * o.bufferBytes();
        if (o.pfc() != null) {
            double perPort = o.pfc().xoffBytes() + 2 * rate * (o.delayPs() / 1e12) / 8 + 2 * wire;
            queued = Math.min(queued, ports * perPort);
        }
        double sent = o.standard() ? flows * o.distribution().meanBytes()
                : incast ? (double) o.senders() * o.flowBytes()
                : o.workload().equals("permutation") ? (double) o.hosts() * o.flowBytes()
                : 2.0 * o.hosts() * o.flowBytes(); // an all-reduce: each rank sends 2 (p - 1) / p of its buffer
        double sentPackets = sent / o.mtuBytes() + flows; // a partial packet per flow
        return Math.min(sentPackets, (queued + onLinks) / wire);
    }

    /**
     * Fails naming the options that size the run when it would need more than {@code maxHeapBytes} (instead of running
     * out of memory): {@link #HEAP_BYTES_PER_HOST} per host, {@link #HEAP_BYTES_PER_FLOW} per flow,
     * {@link #HEAP_BYTES_PER_LINK} per leaf-spine link and {@link #HEAP_BYTES_PER_PACKET} per packet it may hold
     * ({@link #heldPackets}).
     */
    static void checkHeap(SimulateOptions o, long maxHeapBytes) {
        boolean incast = o.workload().equals("incast");
        boolean allReduce = o.workload().endsWith("allreduce");
        long hosts = incast ? o.senders() + 1L : o.hosts();
        long stepsPerHost = !allReduce ? 1 // a flow per host (permutation) or per sender (incast)
                : o.collective().transfersPerRank(o.ranks());
        long flows = o.standard() ? standardFlowsEstimate(o) // drawn later: their expected number
                : (incast ? o.senders() : o.hosts()) * stepsPerHost * o.queuePairs(); // runtime flows: queue pairs
        double links = incast ? 0 : (double) o.hosts() / o.hostsPerLeaf() * o.spines() * o.parallelLinks();
        double packets = heldPackets(o, flows);
        double hostsAndFlows = hosts * (double) HEAP_BYTES_PER_HOST + flows * (double) HEAP_BYTES_PER_FLOW; // (can pass 2^63)
        double linkHeap = links * HEAP_BYTES_PER_LINK;
        double packetHeap = packets * HEAP_BYTES_PER_PACKET;
        double need = hostsAndFlows + linkHeap + packetHeap;
        if (need > maxHeapBytes) {
            String what;
            if (linkHeap >= hostsAndFlows && linkHeap >= packetHeap) {
                what = String.format(Locale.ROOT, "--hosts %d with --hosts-per-leaf %d, --spines %d and --parallel-links %d"
                        + " (%,.0f leaf-spine links)", o.hosts(), o.hostsPerLeaf(), o.spines(), o.parallelLinks(), links);
            } else if (packetHeap >= hostsAndFlows) {
                what = String.format(Locale.ROOT, "--buffer %d%s with --delay %d ps and %s (up to %,.0f packets held in"
                        + " buffers and on links)", o.bufferBytes(), o.pfc() == null ? " and --pfc off" : "", o.delayPs(),
                        incast ? "--senders " + o.senders() + " of --flow-bytes " + o.flowBytes()
                                : o.standard() ? "--hosts " + o.hosts() + " with about " + flows + " flows"
                                : "--hosts " + o.hosts() + " of --flow-bytes " + o.flowBytes(), packets);
            } else {
                what = o.standard() ? String.format(Locale.ROOT, "--hosts %d with about %,d flows", o.hosts(), flows)
                        : incast ? "--senders " + o.senders()
                        : allReduce ? "--hosts " + o.hosts() + " with --ranks " + o.ranks()
                        : "--hosts " + o.hosts();
                if (o.queuePairs() > 1) {
                    what += " with --qps " + o.queuePairs();
                }
                if (allReduce || o.queuePairs() > 1) {
                    what += " (" + flows + (o.queuePairs() > 1 ? " queue pairs)" : " flows)");
                }
            }
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "%s needs about %.1f GB of heap (%d KB per host, %.1f KB per flow, %.1f KB per leaf-spine link, %d B per"
                            + " packet held), this JVM has %.1f GB: a smaller run, or a larger heap"
                            + " (FABRICLAB_SIMULATE_JAVA_OPTS=-Xmx%dg bin/simulate ...)",
                    what, need / 1e9, HEAP_BYTES_PER_HOST / 1000, HEAP_BYTES_PER_FLOW / 1000.0, HEAP_BYTES_PER_LINK / 1000.0,
                    HEAP_BYTES_PER_PACKET, maxHeapBytes / 1e9, (long) Math.ceil(need * 1.5 / (1L << 30))));
        }
    }

    /**
     * The flows a standard workload is expected to draw: the Poisson flows expected in its window (at most
     * {@code --flow-count}) plus its incast flows, with 4 standard deviations of the Poisson count on top.
     */
    static long standardFlowsEstimate(SimulateOptions o) {
        fabriclab.workload.PoissonTraffic p = new fabriclab.workload.PoissonTraffic(o.distribution(), o.hosts(),
                o.rateBitsPerSecond(), o.load(), o.durationPs(), o.flowCount(), fabriclab.workload.IncastMix.off(), o.seed());
        double expected = p.expectedFlows() + 4 * Math.sqrt(p.expectedFlows());
        if (o.flowCount() > 0) {
            expected = Math.min(expected, o.flowCount());
        }
        double window = o.flowCount() > 0 ? Math.min(o.durationPs(), o.flowCount() / (o.hosts() * p.flowsPerSecondPerHost()) * 1e12)
                : o.durationPs();
        double incastFlows = o.incast().on() ? Math.floor(window / o.incast().periodPs()) * o.incast().senders() : 0;
        return (long) Math.ceil(expected + incastFlows);
    }

    /** Runs the command again in a JVM of the long profile, passing its output on to {@code out} and {@code err}; returns its status. */
    private static int restartLong(SimulateOptions o, PrintStream out, PrintStream err) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(LONG_PROFILE_OPTIONS);
        cmd.add("-Xmx" + Runtime.getRuntime().maxMemory() / (1024 * 1024) + "m");
        cmd.add("-D" + PROFILE_PROPERTY + "=long");
        String home = System.getProperty("fabriclab.home");
        if (home != null) { // where the datasets are (the flow-size distributions)
            cmd.add("-Dfabriclab.home=" + home);
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), SimulateCommand.class.getName()));
        cmd.addAll(o.toArgs());
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

    private static int simulate(SimulateOptions o, Scenario s, long estimate, String profile, PrintStream out,
            PrintStream err) throws IOException {
        // progress: simulated time against --time-limit, else the payload delivered
        ProgressSink sink = o.quiet() ? Progress.silent() : Progress.console(err);
        Simulator sim = new Simulator(s);
        long t0 = System.nanoTime();
        SimulationResult r = o.threads() == 0 ? sim.run(o.timeLimitPs(), sink) : sim.runParallel(o.timeLimitPs(), sink, o.threads());
        double wall = (System.nanoTime() - t0) / 1e9;
        out.println("scenario: " + s.name());
        out.println("engine: " + (o.threads() == 0 ? "sequential" : "parallel, " + o.threads() + " threads"));
        out.println(String.format(Locale.ROOT, "jvm: %s (%s); estimated packet-hops %,d", profile,
                profile.equals("long") ? "tiered compilation with C2" : "C1 only", estimate));
        printFigures(r, out);
        out.println(String.format(Locale.ROOT, "simulation wall time: %.3f s (%.2f M events/s)", wall,
                wall > 0 ? r.events() / wall / 1e6 : 0.0));
        if (o.threads() > 0) { // how the run would scale: the windows (a function of the run) and the threads' times
            sim.parallelStats().ifPresent(st -> {
                out.println(String.format(Locale.ROOT, "parallel windows: %,d of %.3f us; events per window mean %,.0f,"
                        + " p99 %,d; messages between partitions per window mean %,.0f; event parallelism %.2f",
                        st.windows(), st.lookaheadPs() / 1e6, st.meanEventsPerWindow(), st.p99EventsPerWindow(),
                        st.meanMessagesPerWindow(), st.eventParallelism()));
                out.println(String.format(Locale.ROOT, "parallel threads: CPU parallelism %.2f; barrier wait %s s",
                        st.cpuParallelism(), java.util.Arrays.stream(st.barrierWaitSeconds())
                                .mapToObj(w -> String.format(Locale.ROOT, "%.3f", w)).toList()));
            });
        }
        if (o.standard() || o.fctFile() != null) {
            long[] ideal = fabriclab.workload.IdealFct.of(s.topology(), s.config(), s.flows());
            boolean[] incast = new boolean[s.flows().size()];
            if (o.standard()) {
                for (int i = 0; i < incast.length; i++) {
                    incast[i] = o.standardFlows().isIncast(i);
                }
                printSlowdown(o, r, ideal, incast, out);
            }
            if (o.fctFile() != null) {
                try {
                    fabriclab.workload.HpccFctFile.write(Path.of(o.fctFile()), r, ideal, incast);
                } catch (IOException e) {
                    throw new IOException("--fct " + o.fctFile() + ": " + e.getMessage(), e);
                }
                out.println("completion times written to: " + o.fctFile() + " (HPCC's fct.txt layout)");
            }
        }
        if (o.flowsFile() != null) {
            writeFlows(r, Path.of(o.flowsFile()));
            out.println("flows written to: " + o.flowsFile());
        }
        if (out.checkError()) { // a PrintStream keeps its write errors to itself (a full disk, a closed pipe)
            err.println("simulate: could not write the figures to standard output");
            return 1;
        }
        return 0;
    }

    /**
     * The FCT slowdown table of a standard workload's Poisson flows, binned at the deciles of its flow-size distribution
     * ({@link fabriclab.workload.FctSlowdown}), and the incast flows' slowdown on one line when there are any.
     */
    private static void printSlowdown(SimulateOptions o, SimulationResult r, long[] ideal, boolean[] incast, PrintStream out) {
        boolean[] background = new boolean[incast.length];
        for (int i = 0; i < incast.length; i++) {
            background[i] = !incast[i];
        }
        long[] edges = fabriclab.workload.FctSlowdown.decileEdges(o.distribution());
        fabriclab.workload.FctSlowdown bg = fabriclab.workload.FctSlowdown.of(r, ideal, edges, background);
        out.println("FCT slowdown (FCT over the flow alone on the empty fabric) of the Poisson flows by size, bins at the"
                + " deciles of " + o.distribution().name() + (bg.notCompleted() > 0 ? "; " + bg.notCompleted()
                + " flows not completed left out" : "") + ":");
        bg.table().lines().forEach(l -> out.println("  " + l));
        if (o.incast().on()) {
            fabriclab.workload.FctSlowdown in = fabriclab.workload.FctSlowdown.of(r, ideal, new long[0], incast);
            out.println(String.format(Locale.ROOT, "FCT slowdown of the incast flows: %d flows, p50 %.3f, p95 %.3f, p99 %.3f%s",
                    in.all().flows(), in.all().p50(), in.all().p95(), in.all().p99(),
                    in.notCompleted() > 0 ? "; " + in.notCompleted() + " not completed" : ""));
        }
    }

    /** Places listed by name in the switch-drop lines of {@link #printFigures}; the rest are summed in one line. */
    static final int DROP_PLACES_SHOWN = 5;

    /**
     * The run's figures: completion, makespan, completion-time percentiles, goodput (distinct payload delivered) apart
     * from the payload sent (retransmissions included), timeouts, failed queue pairs, NAKs, receiver discards apart from
     * the packets the fabric lost (by reason, then by place: the {@value #DROP_PLACES_SHOWN} places that lost the most),
     * PFC, and the transport's counters.
     */
    static void printFigures(SimulationResult r, PrintStream out) {
        int n = r.flows().size();
        long completed = r.flows().stream().filter(SimulationResult.FlowRecord::completed).count();
        out.println("stopped early: " + r.partial());
        out.println("flows completed: " + completed + " of " + n);
        long makespan = -1;
        for (int i = 0; i < n; i++) {
            makespan = Math.max(makespan, r.completedAtPs(i));
        }
        out.println("makespan: " + (completed == n && n > 0 ? micros(makespan) + " us" : "- (not every flow completed)"));
        double[] fct = r.completionTimesMicros();
        Arrays.sort(fct);
        if (fct.length > 0) {
            out.println(String.format(Locale.ROOT, "flow completion time: min %.3f, median %.3f, p99 %.3f, max %.3f us",
                    fct[0], quantile(fct, 0.5), quantile(fct, 0.99), fct[fct.length - 1]));
        }
        out.println(String.format(Locale.ROOT, "simulated time: %s us", micros(r.endPs())));
        out.println(String.format(Locale.ROOT, "events: %,d", r.events()));
        out.println(String.format(Locale.ROOT, "packet-hops: %,d", r.packetHops()));
        long first = r.flows().stream().mapToLong(SimulationResult.FlowRecord::startedPs).filter(t -> t >= 0).min().orElse(-1);
        long last = r.lastDeliveryPs();
        out.println(String.format(Locale.ROOT, "goodput: %.3f Gb/s (%,d distinct payload bytes delivered in %s us, first start"
                + " to last delivery)", r.goodputBitsPerSecond() / 1e9, r.deliveredBytes(),
                first >= 0 && last > first ? micros(last - first) : "0.000000"));
        long retx = r.flows().stream().mapToLong(SimulationResult.FlowRecord::retransmittedPackets).sum();
        out.println(String.format(Locale.ROOT, "bytes sent: %,d payload bytes injected, of which %,d retransmitted (%s);"
                + " retransmitted data packets: %,d", r.injectedBytes(), r.retransmittedBytes(),
                percent(r.retransmittedBytes(), r.injectedBytes()), retx));
        out.println(String.format(Locale.ROOT, "timeouts: %,d, of which spurious %,d; failed QPs: %,d; NAKs: %,d",
                r.timeouts(), r.spuriousTimeouts(), r.failedQueuePairs(), r.counter(TransportModel.NACKS)));
        out.println(String.format(Locale.ROOT, "receiver discards: %,d duplicates, %,d out of order (%,d payload bytes;"
                + " not drops)", r.duplicatePackets(), r.outOfOrderDiscards(), r.discardedBytes()));
        printDrops(r, out);
        out.println(String.format(Locale.ROOT, "ECN marks: %,d", r.ecnMarks()));
        out.println(String.format(Locale.ROOT, "PAUSE frames sent: %,d; time paused (summed over ports): %s us",
                r.pausesSent(), micros(r.pausedPs())));
        if (!r.counters().isEmpty()) { // the transport's own counters (GSE's containers and grants, DCQCN's CNPs)
            StringBuilder b = new StringBuilder("transport counters:");
            r.counters().forEach((k, c) -> b.append(String.format(Locale.ROOT, " %s %,d;", k, c)));
            b.setLength(b.length() - 1);
            out.println(b);
        }
    }

    /**
     * The packets the fabric lost (switches, and links that failed): the total, then per reason, then per place the
     * {@value #DROP_PLACES_SHOWN} places that lost the most packets (ties in node and port order), the rest summed.
     */
    private static void printDrops(SimulationResult r, PrintStream out) {
        out.println(String.format(Locale.ROOT, "switch drops: %,d data packets (%,d payload bytes), %,d control packets",
                r.droppedPackets(), r.droppedBytes(), r.controlDropped()));
        if (r.drops().isEmpty()) {
            return;
        }
        StringBuilder b = new StringBuilder("switch drops by reason:");
        for (DropReason reason : DropReason.values()) {
            SimulationResult.DropCount c = r.dropsBy(reason);
            if (c.packets() > 0) {
                b.append(String.format(Locale.ROOT, " %s %,d data (%,d payload bytes) + %,d control packets;", reason,
                        c.dataPackets(), c.payloadBytes(), c.controlPackets()));
            }
        }
        b.setLength(b.length() - 1);
        out.println(b);
        // a place may lose packets for several reasons: one line per place, its reasons in it
        java.util.Map<String, List<SimulationResult.DropSite>> byPlace = new java.util.LinkedHashMap<>();
        for (SimulationResult.DropSite d : r.drops()) {
            byPlace.computeIfAbsent(d.place(), k -> new ArrayList<>()).add(d);
        }
        List<List<SimulationResult.DropSite>> places = new ArrayList<>(byPlace.values());
        places.sort(java.util.Comparator.comparingLong(
                (List<SimulationResult.DropSite> l) -> l.stream().mapToLong(SimulationResult.DropSite::packets).sum()).reversed());
        for (List<SimulationResult.DropSite> place : places.subList(0, Math.min(DROP_PLACES_SHOWN, places.size()))) {
            StringBuilder p = new StringBuilder("switch drops at " + place.get(0).place() + ":");
            for (SimulationResult.DropSite d : place) {
                p.append(String.format(Locale.ROOT, " %s %,d data (%,d payload bytes) + %,d control packets;", d.reason(),
                        d.dataPackets(), d.payloadBytes(), d.controlPackets()));
            }
            p.setLength(p.length() - 1);
            out.println(p);
        }
        if (places.size() > DROP_PLACES_SHOWN) {
            long data = 0;
            long control = 0;
            for (List<SimulationResult.DropSite> place : places.subList(DROP_PLACES_SHOWN, places.size())) {
                for (SimulationResult.DropSite d : place) {
                    data += d.dataPackets();
                    control += d.controlPackets();
                }
            }
            out.println(String.format(Locale.ROOT, "switch drops and %,d more places: %,d data + %,d control packets",
                    places.size() - DROP_PLACES_SHOWN, data, control));
        }
    }

    /** {@code part} as a percentage of {@code whole} with one decimal ("-" when {@code whole} is 0). */
    private static String percent(long part, long whole) {
        return whole == 0 ? "-" : String.format(Locale.ROOT, "%.1f%%", 100.0 * part / whole);
    }

    /** The nearest-rank quantile {@code q} of sorted {@code v}. */
    private static double quantile(double[] v, double q) {
        int k = (int) Math.ceil(q * v.length) - 1;
        return v[Math.max(0, Math.min(v.length - 1, k))];
    }

    /** Picoseconds as microseconds with six decimals (exact). */
    private static String micros(long ps) {
        return String.format(Locale.ROOT, "%d.%06d", ps / Time.US, ps % Time.US);
    }

    /**
     * One CSV line per flow: id, source, destination, bytes, start, completion time and counters (the columns of
     * {@link SimulationResult.FlowRecord}; {@code failed} is 1 when the queue pair went to the error state, else 0).
     */
    static void writeFlows(SimulationResult r, Path file) throws IOException {
        // a Writer, not a PrintWriter: a PrintWriter keeps a write error to itself (/dev/full seemed to succeed)
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            w.write("flow,source,destination,bytes,start_ps,completion_time_ps,completed_at_ps,delivered_bytes,"
                    + "dropped_packets,retransmitted_packets,ecn_marked_packets,retransmitted_bytes,timeouts,"
                    + "spurious_timeouts,failed,duplicate_packets,out_of_order_discards\n");
            for (int i = 0; i < r.flows().size(); i++) {
                SimulationResult.FlowRecord f = r.flows().get(i);
                w.write(f.id() + "," + f.spec().source() + "," + f.spec().destination() + "," + f.spec().bytes() + ","
                        + f.startedPs() + "," + f.completionTimePs() + "," + r.completedAtPs(i) + "," + f.deliveredBytes() + ","
                        + f.droppedPackets() + "," + f.retransmittedPackets() + "," + f.ecnMarkedPackets() + ","
                        + f.retransmittedBytes() + "," + f.timeouts() + "," + f.spuriousTimeouts() + "," + (f.failed() ? 1 : 0)
                        + "," + f.duplicatePackets() + "," + f.outOfOrderDiscards() + "\n");
            }
        }
    }
}
