package fabriclab.cli;

import fabriclab.fabric.Time;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import fabriclab.scenarios.ScenarioSettings;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.TieOrder;
import fabriclab.simulation.trace.DropReason;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.workload.GeneratedFlows;
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
 * The packet simulator as a command ({@code bin/simulate}), in one direction: the command line read once into a
 * {@link SimulateRun} ({@link SimulateOptions}), its heap checked ({@link HeapCheck}), its scenario built from its
 * {@link ScenarioSettings}, run, and its figures printed as {@code name: value} lines on standard output, progress on
 * standard error, and optionally one CSV line per flow.
 *
 * <p><b>Why a command picks its JVM.</b> A one-shot run pays for the JVM's start and its JIT compilers,
 * and for a short run those dominate: with the default tiered compilation the C2 compiler threads
 * take most of the process's CPU, while C1's code runs the simulation barely slower; beyond a few
 * million packet-hops C2's faster code pays for its compilation. (Measured figures: README, Benchmarks;
 * their history: {@code BENCH-RESULTS.md}.) So the launcher starts the JVM in the
 * <em>short</em> profile (C1 only, serial collector), and this command, once it has built the
 * scenario, re-runs itself in the <em>long</em> profile (tiered with C2, parallel collector,
 * transparent huge pages: the flags of {@code ./bench}) when the run is estimated at more than
 * {@link JvmProfile#LONG_RUN_PACKET_HOPS} packet-hops ({@link JvmProfile#estimatedPacketHops}); {@code --jit
 * short|long} forces either. The re-start costs one JVM start on runs of several seconds. Both JVMs map the
 * command's classes from the class-data sharing archive {@code bin/simulate} makes with {@link SimulateTraining}
 * ({@link JvmProfile#archiveOptions}).
 *
 * <p>Exit status: 0 after a run (also one stopped by {@code --time-limit}), 2 for a bad command line
 * (the message names the option, its value and the allowed values; a {@code --flows} file that cannot be created is
 * one, found before the run), 1 when the run failed or its figures or flows could not be written.
 */
public final class SimulateCommand {
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
        SimulateRun o;
        Scenario s;
        GeneratedFlows drawn;
        try {
            o = SimulateOptions.parse(fabriclab.Parameters.notNull("args", args));
            HeapCheck.checkHeap(o.settings(), Runtime.getRuntime().maxMemory());
            try {
                drawn = o.settings().standard() ? o.settings().arrivals().generate() : null;
            } catch (IllegalArgumentException | IllegalStateException e) {
                throw new IllegalArgumentException("--duration, --flow-count or the --incast options: " + e.getMessage(), e);
            }
            if (drawn != null && drawn.size() == 0) { // options that together select nothing: an error, not a run of 0 flows
                throw new IllegalArgumentException(SimulateOptions.noFlowDrawn(o.args()));
            }
            s = o.settings().scenario(drawn);
        } catch (IllegalArgumentException | NullPointerException e) {
            err.println("simulate: " + e.getMessage());
            err.println("(bin/simulate --help lists the options)");
            return 2;
        }
        long estimate = JvmProfile.estimatedPacketHops(o.settings(), s);
        String profile = System.getProperty(JvmProfile.PROFILE_PROPERTY, "short");
        boolean wantLong = o.jit().equals("long") || o.jit().equals("auto") && estimate > JvmProfile.LONG_RUN_PACKET_HOPS;
        if (wantLong && !profile.equals("long")) {
            return JvmProfile.restart(o, out, err);
        }
        String work = workWarning(estimate, o.timeLimitPs());
        if (work != null) {
            err.println("simulate: " + work);
        }
        s.pfcShortfall().ifPresent(f -> err.println("simulate: " + pfcWarning(f)));
        try {
            return simulate(o, s, drawn, estimate, profile, out, err);
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

    /** Events per packet-hop of a run, about: 4,128,000 events for 1,936,000 packet-hops in the default run, 2.13. */
    static final double EVENTS_PER_PACKET_HOP = 2.2;
    /** Events per second assumed for a warning: the low end of the sequential engine's 1 to 3 M events/s. */
    static final double EVENTS_PER_SECOND = 1e6;
    /** Estimated wall-clock seconds above which a run is announced with its estimate (10 minutes). */
    static final double WARN_SECONDS = 600;

    /**
     * The warning for a run of {@code packetHops} estimated packet-hops ({@link JvmProfile#estimatedPacketHops}) with
     * no time limit ({@code timeLimitPs == Long.MAX_VALUE}) whose estimated work exceeds {@link #WARN_SECONDS} at
     * {@link #EVENTS_PER_SECOND}, or null: its events and time, before anything runs.
     */
    static String workWarning(long packetHops, long timeLimitPs) {
        double events = packetHops * EVENTS_PER_PACKET_HOP;
        double seconds = events / EVENTS_PER_SECOND;
        if (timeLimitPs != Long.MAX_VALUE || seconds <= WARN_SECONDS) {
            return null;
        }
        return String.format(Locale.ROOT, "a long run: about %,.0f packet-hops, %,.0f events, about %s at 1 to 3 M events/s"
                + " (more with drops and retransmissions); --time-limit bounds it", (double) packetHops, events,
                seconds < 3600 * 48 ? String.format(Locale.ROOT, "%.0f to %.0f minutes", seconds / 180, seconds / 60)
                        : String.format(Locale.ROOT, "%.0f to %.0f hours", seconds / 10800, seconds / 3600));
    }

    /**
     * The warning for a switch whose buffer static PFC cannot keep lossless ({@link Scenario#pfcShortfall}), in the
     * options' terms.
     */
    static String pfcWarning(Scenario.PfcShortfall f) {
        String when = f.sharedBytes() < f.onePortBytes()
                ? String.format(Locale.ROOT, "even one port needs %,d B: one sender into a paused egress overflows it",
                        f.onePortBytes())
                : String.format(Locale.ROOT, "one port needs %,d B: enough senders outrunning their egresses at once"
                        + " overflow it", f.onePortBytes());
        return String.format(Locale.ROOT, "warning: PFC cannot keep %s lossless: its buffer (--buffer or --switch-buffer)"
                + " of %,d B is less than the %,d B its %d ports may hold, each the XOFF of --pfc (%,d B) plus what still"
                + " arrives after it sends a PAUSE (two --delay at --rate, in packets of --mtu + --header); %s; drops are"
                + " counted by place", f.switchName(), f.sharedBytes(), f.allPortsBytes(), f.ports(), f.xoffBytes(), when);
    }

    private static int simulate(SimulateRun o, Scenario s, GeneratedFlows drawn, long estimate, String profile,
            PrintStream out, PrintStream err) throws IOException {
        // progress: simulated time against --time-limit, else the payload delivered
        ProgressSink sink = o.quiet() ? Progress.silent() : Progress.console(err);
        Simulator sim = new Simulator(s.withTieOrder(o.tieOrder())); // canonical with --threads (the option's default)
        long t0 = System.nanoTime();
        SimulationResult r = o.threads() == 0 ? sim.run(o.timeLimitPs(), sink) : sim.runParallel(o.timeLimitPs(), sink, o.threads());
        double wall = (System.nanoTime() - t0) / 1e9;
        out.println("scenario: " + s.name());
        out.println("engine: " + (o.threads() == 0 ? "sequential, " + (o.tieOrder() == TieOrder.CANONICAL ? "canonical"
                : "scheduling") + " order"
                : "parallel, " + o.threads() + " threads"));
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
        if (o.settings().standard() || o.fctFile() != null) {
            long[] ideal = fabriclab.workload.IdealFct.of(s.topology(), s.config(), s.flows());
            boolean[] incast = new boolean[s.flows().size()];
            if (o.settings().standard()) {
                for (int i = 0; i < incast.length; i++) {
                    incast[i] = drawn.isIncast(i);
                }
                printSlowdown(o.settings().traffic(), r, ideal, incast, out);
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
    private static void printSlowdown(ScenarioSettings.Traffic o, SimulationResult r, long[] ideal, boolean[] incast, PrintStream out) {
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
            fabriclab.workload.FctSlowdown.Bin a = in.all();
            out.println(String.format(Locale.ROOT, "FCT slowdown of the incast flows: %d flows, %s%s", a.flows(),
                    a.flows() == 0 ? "no percentiles (none completed)" : String.format(Locale.ROOT,
                            "p50 %.3f, p95 %.3f, p99 %.3f", a.p50().getAsDouble(), a.p95().getAsDouble(),
                            a.p99().getAsDouble()),
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
        out.println(String.format(Locale.ROOT, "timeouts: %,d, of which spurious %,d; failed QPs: %,d%s; NAKs: %,d",
                r.timeouts(), r.spuriousTimeouts(), r.failedQueuePairs(), r.queuePairs().size() == r.flows().size() ? ""
                        : String.format(Locale.ROOT, " (of %,d queue pairs; flows failed: %,d)", r.queuePairs().size(),
                                r.failedFlows()), r.counter(TransportModel.NACKS)));
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
