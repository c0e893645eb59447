package fabriclab.workload;

import fabriclab.Parameters;
import fabriclab.simulation.SimulationResult;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Flow completion times in the layout of the {@code fct.txt} file of HPCC's ns-3 simulator (Li et al., SIGCOMM 2019;
 * repository alibaba-edu/High-Precision-Congestion-Control, written by {@code qp_finish} in
 * {@code simulation/scratch/third.cc}), so that its {@code analysis/fct_analysis.py} reads our runs unchanged.
 *
 * <p>One line per completed flow, in order of completion (ties by flow index), eight fields separated by single
 * spaces: source IP and destination IP as eight lower-case hexadecimal digits, source port, destination port, size
 * (bytes), start time (ns), FCT (ns), standalone FCT (ns). Hosts map to IPs as in HPCC's simulator: host {@code h} is
 * {@code 0x0b000001 + (h / 256) * 0x10000 + (h % 256) * 0x100} (11.x.y.1), and back {@code (ip >> 8) & 0xffff}. The
 * source port is the flow's UDP source port; the destination port marks the kind of flow as HPCC's traffic does:
 * {@link #BACKGROUND_PORT} for the Poisson flows, {@link #INCAST_PORT} for incast flows (its script's {@code -t 0}
 * and {@code -t 1}). Times are picoseconds rounded to the nearest nanosecond. The standalone FCT is our
 * {@link IdealFct} (one way, no base RTT; HPCC's adds the pair's base RTT to the serialisation of the flow with its
 * headers).
 */
public final class HpccFctFile {
    /** Destination port of background (Poisson) flows in HPCC's traffic files. */
    public static final int BACKGROUND_PORT = 100;
    /** Destination port of incast flows, the other kind HPCC's script tells apart. */
    public static final int INCAST_PORT = 200;

    private HpccFctFile() {
    }

    /**
     * One line of the file.
     *
     * @param sourceIp source IP (32 bits as an unsigned value)
     * @param destinationIp destination IP
     * @param sourcePort source port, 0..65535
     * @param destinationPort destination port, 0..65535
     * @param bytes flow size, bytes, at least 1
     * @param startNs start time, ns, not negative
     * @param fctNs flow completion time, ns, not negative
     * @param standaloneFctNs the flow's FCT alone on the empty fabric, ns, not negative
     */
    public record Line(long sourceIp, long destinationIp, int sourcePort, int destinationPort, long bytes, long startNs,
            long fctNs, long standaloneFctNs) {
        /** Validates. */
        public Line {
            Parameters.inRange("sourceIp", sourceIp, 0L, 0xffffffffL);
            Parameters.inRange("destinationIp", destinationIp, 0L, 0xffffffffL);
            Parameters.inRange("sourcePort", sourcePort, 0, 65535);
            Parameters.inRange("destinationPort", destinationPort, 0, 65535);
            Parameters.atLeast("bytes", bytes, 1L);
            Parameters.atLeast("startNs", startNs, 0L);
            Parameters.atLeast("fctNs", fctNs, 0L);
            Parameters.atLeast("standaloneFctNs", standaloneFctNs, 0L);
        }

        /** The source host of {@link #sourceIp}. */
        public int sourceHost() {
            return host(sourceIp);
        }

        /** The destination host of {@link #destinationIp}. */
        public int destinationHost() {
            return host(destinationIp);
        }

        /** The line as written: {@code "%08x %08x %d %d %d %d %d %d"}. */
        public String text() {
            return String.format(Locale.ROOT, "%08x %08x %d %d %d %d %d %d", sourceIp, destinationIp, sourcePort,
                    destinationPort, bytes, startNs, fctNs, standaloneFctNs);
        }
    }

    /**
     * The IP of host {@code host} in HPCC's simulator (11.x.y.1, class comment), as an unsigned 32-bit value.
     *
     * @param host host index, 0 to 65535
     */
    public static long ip(int host) {
        Parameters.inRange("host", host, 0, 65535);
        return 0x0b000001L + (host / 256) * 0x10000L + (host % 256) * 0x100L;
    }

    /**
     * The host of an IP made by {@link #ip}: {@code (ip >> 8) & 0xffff}.
     *
     * @param ip an IP, 0 to 2^32 - 1
     */
    public static int host(long ip) {
        Parameters.inRange("ip", ip, 0L, 0xffffffffL);
        return (int) ((ip >> 8) & 0xffff);
    }

    /**
     * The lines of the completed flows of {@code result}, in order of completion.
     *
     * @param result the run (hosts 0 to 65535)
     * @param idealPs each flow's ideal FCT, ps ({@link IdealFct}), not negative, one per flow
     * @param incast which flows are incast flows (destination port {@link #INCAST_PORT}), one per flow
     */
    public static List<Line> lines(SimulationResult result, long[] idealPs, boolean[] incast) {
        Parameters.notNull("result", result);
        Parameters.notNull("idealPs", idealPs);
        Parameters.notNull("incast", incast);
        int n = result.flows().size();
        if (idealPs.length != n) {
            throw new IllegalArgumentException("idealPs must have one entry per flow (" + n + "), got " + idealPs.length);
        }
        if (incast.length != n) {
            throw new IllegalArgumentException("incast must have one entry per flow (" + n + "), got " + incast.length);
        }
        List<Integer> done = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Parameters.atLeast("idealPs[" + i + "]", idealPs[i], 0L);
            SimulationResult.FlowRecord f = result.flows().get(i);
            if (f.completed()) {
                if (f.spec().source() > 65535 || f.spec().destination() > 65535) {
                    throw new IllegalArgumentException("result must have hosts 0 to 65535 (HPCC's IPs), flow " + i
                            + " is " + f.spec().source() + " -> " + f.spec().destination());
                }
                done.add(i);
            }
        }
        done.sort(Comparator.comparingLong((Integer i) -> result.completedAtPs(i)).thenComparingInt(i -> i));
        List<Line> lines = new ArrayList<>(done.size());
        for (int i : done) {
            SimulationResult.FlowRecord f = result.flows().get(i);
            lines.add(new Line(ip(f.spec().source()), ip(f.spec().destination()), f.spec().sourcePort(),
                    incast[i] ? INCAST_PORT : BACKGROUND_PORT, f.spec().bytes(), nanos(f.startedPs()),
                    nanos(f.completionTimePs()), nanos(idealPs[i])));
        }
        return lines;
    }

    /** Picoseconds to the nearest nanosecond (halves up). */
    private static long nanos(long ps) {
        return ps / 1000 + (ps % 1000 >= 500 ? 1 : 0);
    }

    /**
     * Writes {@link #lines} to {@code file}.
     *
     * @param file the file (created or replaced)
     * @param result the run
     * @param idealPs each flow's ideal FCT, ps
     * @param incast which flows are incast flows
     * @throws IOException if the file cannot be written
     */
    public static void write(Path file, SimulationResult result, long[] idealPs, boolean[] incast) throws IOException {
        Parameters.notNull("file", file);
        List<Line> lines = lines(result, idealPs, incast);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (Line l : lines) {
                w.write(l.text());
                w.write('\n');
            }
        }
    }

    /** The largest file {@link #read} takes: 256 MiB (about 3 M flows of HPCC's 80-byte lines). */
    public static final long MAX_FILE_BYTES = 256L << 20;

    /**
     * Reads a file in this layout (ours or HPCC's).
     *
     * @param file the file: a regular file (not a directory, device or FIFO) of at most {@link #MAX_FILE_BYTES}
     * @throws IllegalArgumentException naming the file and line of a line that is not eight fields as above
     */
    public static List<Line> read(Path file) {
        Parameters.notNull("file", file);
        List<String> text = Parameters.readInputFile("file", file, MAX_FILE_BYTES);
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < text.size(); i++) {
            String t = text.get(i);
            if (t.isBlank()) {
                continue;
            }
            String[] f = t.strip().split(" +");
            try {
                if (f.length != 8 || !f[0].matches("[0-9a-f]{8}") || !f[1].matches("[0-9a-f]{8}")
                        || !Arrays.stream(f, 2, 8).allMatch(x -> x.matches("[0-9]{1,18}"))) {
                    throw new IllegalArgumentException("expected sip dip sport dport size start fct standalone (two"
                            + " 8-digit hex IPs and six whole numbers)");
                }
                lines.add(new Line(Long.parseLong(f[0], 16), Long.parseLong(f[1], 16), Integer.parseInt(f[2]),
                        Integer.parseInt(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5]), Long.parseLong(f[6]),
                        Long.parseLong(f[7])));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("file " + file + ", line " + (i + 1) + ": " + e.getMessage() + ", got \""
                        + t + "\"", e);
            }
        }
        return lines;
    }
}
