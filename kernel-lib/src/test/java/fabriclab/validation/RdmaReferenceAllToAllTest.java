package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.Datasets;
import fabriclab.fabric.Time;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Row;
import tech.tablesaw.api.Table;

/**
 * Our simulator against the RDMA reference (HPCC's ns-3 model as aliyun/ns-3-alibabacloud carries it) on the DCQCN
 * all-to-all of {@link RdmaReferenceAllToAll}, read from the committed dataset {@code rdma-ns3-alltoall} (written by
 * {@code tools/RdmaReferenceRuns.java}; {@link RdmaReferenceGoBackNTest} reruns the reference when a built copy is present
 * and checks this CSV byte for byte).
 *
 * <p>What is asserted, and the tolerance's reason:
 * <ul>
 *   <li>The dataset against itself: 240 flows per run, each at least its ideal FCT, the ideal FCTs derived here from
 *       the path's links; every run at least one NIC's 15 flows of wire bytes long.</li>
 *   <li>Hashed runs (four spines): every flow completes and nothing is dropped in ours; makespan, p50 and p99 FCT, the
 *       median of our ten runs within the reference's range over its ten, widened on each side by that range's width.
 *       Neither simulator can reproduce the other's path choice (the reference hashes with Murmur3 seeded by the
 *       switch's node id, ours with CRC-32), so the path choice is the variation both are sampled over. PAUSE frames
 *       are printed, not asserted.</li>
 *   <li>The one-spine control, where no hashing acts: makespan and mean FCT of the 192 flows across the spine within
 *       the reference's spread of FCT over those flows, (max - min) / max, as {@link RdmaReferenceIncastTest} does.
 *       That spread is 73%, so this check is loose; the numbers are printed.</li>
 * </ul>
 *
 * <p>Where the two differ (the numbers are in the comparison the tests print): in the hashed runs our median p50 FCT
 * (349 us) lies 0.7% above the reference's largest (347 us), inside the widened window; makespan (ours 472 us, the
 * reference 421 to 570 us) and p99 lie inside the reference's own range. Ours sends fewer PAUSE frames (median 12.5
 * against 42.5; ranges 0 to 36 and 3 to 53). In the control ours' makespan is 11.5% longer (1.46 ms against 1.31 ms)
 * and its across-spine flows finish together (mean 1.45 ms) where the reference's finish spread out (0.36 to 1.31 ms,
 * mean 1.08 ms); the flows within a leaf finish earlier in ours (mean 216 us against 296 us). Not traced; candidates,
 * each a modelling difference named in {@link RdmaReferenceIncast}: marking at enqueue against dequeue, one CNP per
 * 4 us per flow against one per marked packet, the first CNP cutting at once, the PFC threshold offset.
 */
class RdmaReferenceAllToAllTest {
    private static final String NAME = "rdma-ns3-alltoall";
    /** The reference's hashed runs (four spines, destination ports 100 to 109). */
    private static final int REFERENCE_RUNS = 10;
    /** Our hashed runs (four spines, ECMP seeds 1 to 10). */
    private static final int OUR_RUNS = 10;
    private static final int FLOWS = RdmaReferenceAllToAll.HOSTS * (RdmaReferenceAllToAll.HOSTS - 1);

    /** FCT of the reference's run {@code id}, ns, indexed [source][destination]. */
    static long[][] referenceFct(Table t, String id) {
        long[][] fct = new long[RdmaReferenceAllToAll.HOSTS][RdmaReferenceAllToAll.HOSTS];
        for (Row r : t) {
            if (r.getString("scenario").equals(id) && r.getString("quantity").equals("fct_ns")) {
                fct[r.getInt("source")][r.getInt("destination")] = (long) r.getNumber("value");
            }
        }
        return fct;
    }

    static long referenceValue(Table t, String id, String quantity) {
        for (Row r : t) {
            if (r.getString("scenario").equals(id) && r.getString("quantity").equals(quantity)) {
                return (long) r.getNumber("value");
            }
        }
        throw new AssertionError(id + " " + quantity);
    }

    /** Our FCT, ns, indexed [source][destination]. */
    static long[][] ourFct(SimulationResult r) {
        long[][] fct = new long[RdmaReferenceAllToAll.HOSTS][RdmaReferenceAllToAll.HOSTS];
        List<SimulationResult.FlowRecord> flows = r.flows();
        int i = 0;
        for (int a = 0; a < RdmaReferenceAllToAll.HOSTS; a++) {
            for (int d = 0; d < RdmaReferenceAllToAll.HOSTS; d++) {
                if (a != d) {
                    SimulationResult.FlowRecord f = flows.get(i++);
                    fct[a][d] = (f.acknowledgedPs() - f.startedPs()) / Time.NS;
                }
            }
        }
        return fct;
    }

    /** The FCTs of the flows between different leaves (crossing a spine) or within one leaf. */
    static long[] select(long[][] fct, boolean acrossSpine) {
        List<Long> out = new ArrayList<>();
        for (int a = 0; a < fct.length; a++) {
            for (int d = 0; d < fct.length; d++) {
                boolean across = a / RdmaReferenceAllToAll.HOSTS_PER_LEAF != d / RdmaReferenceAllToAll.HOSTS_PER_LEAF;
                if (a != d && across == acrossSpine) {
                    out.add(fct[a][d]);
                }
            }
        }
        return out.stream().mapToLong(Long::longValue).toArray();
    }

    static long[] all(long[][] fct) {
        long[] out = new long[FLOWS];
        int i = 0;
        for (int a = 0; a < fct.length; a++) {
            for (int d = 0; d < fct.length; d++) {
                if (a != d) {
                    out[i++] = fct[a][d];
                }
            }
        }
        return out;
    }

    /** Nearest-rank percentile: the ceil(q n)-th smallest. */
    static long percentile(long[] values, double q) {
        long[] s = values.clone();
        Arrays.sort(s);
        return s[(int) Math.ceil(q * s.length) - 1];
    }

    /** Makespan, p50 and p99 of one run's FCTs, ns. */
    static double[] statistics(long[][] fct) {
        long[] v = all(fct);
        return new double[] {Arrays.stream(v).max().orElseThrow(), percentile(v, 0.5), percentile(v, 0.99)};
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    @Test
    void theDatasetIsConsistentWithItself() {
        Table t = Datasets.load(NAME).table();
        // ideal FCT: base RTT (propagation over 2 or 4 links each way plus a 1000 B payload's serialisation per link, as
        // the program counts it: 80 ns each way per link pair) plus 256 packets of 1052 B at 100 Gb/s
        double wireNs = (RdmaReferenceAllToAll.BYTES_PER_FLOW + 256 * 52) * 8 / 100.0;
        double withinLeaf = 4_000 + 2 * 80 + wireNs;
        double acrossSpine = 8_000 + 4 * 80 + wireNs;
        for (int k = 0; k <= REFERENCE_RUNS; k++) {
            String id = k < REFERENCE_RUNS ? "a2a_s" + k : "a2a_1spine";
            long[][] fct = referenceFct(t, id);
            int rows = 0;
            for (Row r : t) {
                if (r.getString("scenario").equals(id) && r.getString("quantity").equals("standalone_fct_ns")) {
                    boolean across = r.getInt("source") / 4 != r.getInt("destination") / 4;
                    assertEquals(across ? acrossSpine : withinLeaf, r.getNumber("value"), 1.0, id);
                    assertTrue(fct[r.getInt("source")][r.getInt("destination")] >= r.getNumber("value"), id);
                    rows++;
                }
            }
            assertEquals(FLOWS, rows, id);
            // no host can finish its 15 flows faster than its NIC sends 15 x 269,312 wire bytes
            assertTrue(Arrays.stream(all(fct)).max().orElseThrow() >= 15 * wireNs, id);
        }
    }

    /**
     * The hashed runs: makespan, p50 and p99 FCT of each of our ten runs (ECMP seeds and source ports 1 to 10) and each
     * of the reference's ten (destination ports 100 to 109); the median of ours must lie in the reference's range over
     * its runs, [min, max], widened on each side by that range's width (max - min). The window is the reference's own
     * variation over path choices, counted twice: once for where the reference falls, once for where a second
     * simulator with other path choices falls.
     */
    @Test
    void hashedRunsAgreeOverSeeds() {
        Table t = Datasets.load(NAME).table();
        String[] names = {"makespan [ns]", "p50 FCT [ns]", "p99 FCT [ns]"};
        double[][] ref = new double[3][REFERENCE_RUNS];
        double[] refPauses = new double[REFERENCE_RUNS];
        StringBuilder sb = new StringBuilder("run            makespan    p50 FCT    p99 FCT  PAUSE\n");
        for (int k = 0; k < REFERENCE_RUNS; k++) {
            double[] s = statistics(referenceFct(t, "a2a_s" + k));
            for (int j = 0; j < 3; j++) {
                ref[j][k] = s[j];
            }
            refPauses[k] = referenceValue(t, "a2a_s" + k, "pause_received");
            sb.append(String.format(Locale.ROOT, "reference %d %11.0f %10.0f %10.0f %6.0f%n", 100 + k, s[0], s[1], s[2], refPauses[k]));
        }
        double[][] ours = new double[3][OUR_RUNS];
        double[] ourPauses = new double[OUR_RUNS];
        for (int k = 0; k < OUR_RUNS; k++) {
            SimulationResult r = new Simulator(new RdmaReferenceAllToAll(4, k + 1).scenario()).run();
            assertTrue(r.allCompleted(), "seed " + (k + 1));
            assertEquals(FLOWS * RdmaReferenceAllToAll.BYTES_PER_FLOW, r.deliveredBytes());
            assertEquals(0, r.droppedPackets());
            double[] s = statistics(ourFct(r));
            for (int j = 0; j < 3; j++) {
                ours[j][k] = s[j];
            }
            ourPauses[k] = r.pfc().stream().mapToLong(SimulationResult.PortPfc::pausesSent).sum();
            sb.append(String.format(Locale.ROOT, "ours seed %2d %11.0f %10.0f %10.0f %6.0f%n", k + 1, s[0], s[1], s[2], ourPauses[k]));
        }
        sb.append("quantity          ref min    ref max  ours median   window\n");
        List<String> misses = new ArrayList<>();
        for (int j = 0; j < 3; j++) {
            double min = Arrays.stream(ref[j]).min().orElseThrow();
            double max = Arrays.stream(ref[j]).max().orElseThrow();
            double lo = min - (max - min);
            double hi = max + (max - min);
            double m = median(ours[j]);
            boolean pass = m >= lo && m <= hi;
            sb.append(String.format(Locale.ROOT, "%-15s %10.0f %10.0f %12.0f   [%.0f, %.0f] %s%n", names[j], min, max, m, lo, hi,
                    pass ? "pass" : "MISS"));
            if (!pass) {
                misses.add(names[j] + ": ours " + m + " outside [" + lo + ", " + hi + "]");
            }
        }
        sb.append(String.format(Locale.ROOT, "PAUSE frames    %10.0f %10.0f %12.1f   (reported only; reference median %.1f)%n",
                Arrays.stream(refPauses).min().orElseThrow(), Arrays.stream(refPauses).max().orElseThrow(), median(ourPauses),
                median(refPauses)));
        System.out.print(sb);
        assertTrue(misses.isEmpty(), String.join("; ", misses));
    }
    /**
     * The control, one spine: every flow has one path, so no hashing and no seed; one run of each, compared as
     * {@link RdmaReferenceIncastTest} compares the incasts. The 192 flows across the spine are alike (same bytes, same
     * demand, four leaves' uplinks at 4:1); their makespan and mean FCT must lie within the reference's own spread of FCT
     * over them, (max - min) / max. The 48 flows within a leaf are reported only.
     */
    @Test
    void singleSpineControlAgrees() {
        Table t = Datasets.load(NAME).table();
        long[][] refFct = referenceFct(t, "a2a_1spine");
        SimulationResult r = new Simulator(new RdmaReferenceAllToAll(1, 1).scenario()).run();
        assertTrue(r.allCompleted());
        assertEquals(0, r.droppedPackets());
        long[][] ourFct = ourFct(r);
        long[] refAcross = select(refFct, true);
        long[] ourAcross = select(ourFct, true);
        double refMax = Arrays.stream(refAcross).max().orElseThrow();
        double spread = (refMax - Arrays.stream(refAcross).min().orElseThrow()) / refMax;
        double ourMax = Arrays.stream(ourAcross).max().orElseThrow();
        double refMean = Arrays.stream(refAcross).average().orElseThrow();
        double ourMean = Arrays.stream(ourAcross).average().orElseThrow();
        double refWithin = Arrays.stream(select(refFct, false)).average().orElseThrow();
        double ourWithin = Arrays.stream(select(ourFct, false)).average().orElseThrow();
        long ourPauses = r.pfc().stream().mapToLong(SimulationResult.PortPfc::pausesSent).sum();
        System.out.printf(Locale.ROOT, "one spine: across-spine makespan ref %.0f ours %.0f; mean ref %.0f ours %.0f; tolerance %.1f%%;"
                + " within-leaf mean ref %.0f ours %.0f; PAUSE ref %d ours %d%n", refMax, ourMax, refMean, ourMean, 100 * spread,
                refWithin, ourWithin, referenceValue(t, "a2a_1spine", "pause_received"), ourPauses);
        assertTrue(Math.abs(ourMax - refMax) <= spread * refMax, "makespan " + ourMax + " vs " + refMax);
        assertTrue(Math.abs(ourMean - refMean) <= spread * refMean, "mean " + ourMean + " vs " + refMean);
    }
}
