package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.datasets.ComparisonRow;
import fabriclab.datasets.Datasets;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.simulation.transport.roce.RoceTransport;
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
 *   <li>Hashed runs (four spines): every flow completes and nothing is dropped in ours; every row of
 *       {@link RdmaReferenceComparison#allToAllRows} for the hashed runs passes: makespan, mean, p10, p50, p90 and p99
 *       FCT and PAUSE frames per run, the median of our ten runs within the reference's range over its ten, widened by
 *       that range's width relative to the nearer end. Neither simulator can reproduce the other's path choice (the
 *       reference hashes with Murmur3 seeded by the switch's node id, ours with CRC-32), so the path choice is the
 *       variation both are sampled over.</li>
 *   <li>The one-spine control, where no hashing acts: makespan and mean FCT of the 192 flows across the spine within
 *       the reference's spread of FCT over those flows, (max - min) / max, as {@link RdmaReferenceIncastTest} does.
 *       That spread is 73%, so this check is loose; the numbers are printed.</li>
 *   <li>The control with the reference's NIC rule ({@link fabriclab.simulation.transport.roce.RoceTransport.TokenBucket}:
 *       each DCQCN rate limiter a token bucket that keeps filling while its queue pair waits, the NIC serving bursts, as
 *       ns-3-alibabacloud's default {@code TxDequeueMode DWRR}): the same, and the mean FCT of the 48 flows within a leaf
 *       within the reference's spread of FCT over those flows (13%). With our default rule (packet spacing, no credit
 *       for waiting) that mean is about a third short of the reference's: the traced miss of
 *       {@link RdmaReferenceComparison#allToAllRows}.</li>
 * </ul>
 *
 * <p>Where the two differ is in the rows' notes ({@link RdmaReferenceComparison#allToAllRows}, notebook 14).
 */
class RdmaReferenceAllToAllTest {
    private static final String NAME = RdmaReferenceComparison.ALL_TO_ALL_DATASET;
    /** The reference's hashed runs (four spines, destination ports 100 to 109). */
    private static final int REFERENCE_RUNS = RdmaReferenceComparison.ALL_TO_ALL_RUNS;
    private static final int FLOWS = RdmaReferenceAllToAll.HOSTS * (RdmaReferenceAllToAll.HOSTS - 1);

    @Test
    void theDatasetIsConsistentWithItself() {
        Table t = Datasets.load(NAME).table();
        // ideal FCT: base RTT (propagation over 2 or 4 links each way plus a 1000 B payload's serialisation per link, as
        // the program counts it: 80 ns each way per link pair) plus 256 packets of 1052 B at 100 Gb/s
        double wireNs = (RdmaReferenceAllToAll.BYTES_PER_FLOW + 256 * 52) * 8 / 100.0;
        double withinLeaf = 4_000 + 2 * 80 + wireNs;
        double acrossSpine = 8_000 + 4 * 80 + wireNs;
        for (int k = 0; k <= REFERENCE_RUNS + 1; k++) {
            String id = k < REFERENCE_RUNS ? "a2a_s" + k : k == REFERENCE_RUNS ? "a2a_1spine"
                    : RdmaReferenceComparison.ALL_TO_ALL_CONTROL_QPAVAIL;
            long[][] fct = RdmaReferenceComparison.referenceAllToAllFct(t, id);
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
            assertTrue(Arrays.stream(RdmaReferenceComparison.allToAllFlows(fct)).max().orElseThrow() >= 15 * wireNs, id);
        }
    }

    /**
     * The hashed runs: ours with ECMP seeds (and source ports) 1 to 10, the reference with destination ports 100 to 109;
     * every hashed row of {@link RdmaReferenceComparison#allToAllRows} must pass: the median of ours over its runs
     * within the reference's range over its runs, widened by the range's width relative to the nearer end. The window is
     * the reference's own variation over path choices, counted once for where the reference falls and once for where a
     * second simulator with other path choices falls.
     */
    @Test
    void hashedRunsAgreeOverSeeds() {
        Table t = Datasets.load(NAME).table();
        List<SimulationResult> ours = new ArrayList<>();
        for (int k = 1; k <= REFERENCE_RUNS; k++) {
            SimulationResult r = new Simulator(new RdmaReferenceAllToAll(RdmaReferenceComparison.ALL_TO_ALL_SPINES, k).scenario()).run();
            assertTrue(r.allCompleted(), "seed " + k);
            assertEquals(FLOWS * RdmaReferenceAllToAll.BYTES_PER_FLOW, r.deliveredBytes());
            assertEquals(0, r.droppedPackets());
            ours.add(r);
        }
        SimulationResult control = new Simulator(new RdmaReferenceAllToAll(1, 1).scenario()).run();
        List<ComparisonRow> rows = RdmaReferenceComparison.allToAllRows(ours, control, t);
        List<String> misses = new ArrayList<>();
        int hashed = 0;
        for (ComparisonRow r : rows) {
            System.out.printf(Locale.ROOT, "%-110s %12.3f %12.3f %6.3f %s  %s%n", r.quantity(), r.target().published(), r.model(),
                    r.target().tolerance(), r.meetsTarget() ? "pass" : "MISS", r.note());
            if (r.quantity().contains("hashed")) {
                hashed++;
                if (!r.meetsTarget()) {
                    misses.add(r.quantity() + ": ours " + r.model() + ", " + r.target().describe());
                }
            }
        }
        assertEquals(8, hashed, "flows completed, six FCT statistics, PAUSE frames");
        assertTrue(misses.isEmpty(), String.join("; ", misses));
    }

    /**
     * The control, one spine: every flow has one path, so no hashing and no seed; one run of each, compared as
     * {@link RdmaReferenceIncastTest} compares the incasts. The 192 flows across the spine are alike (same bytes, same
     * demand, four leaves' uplinks at 4:1); their makespan and mean FCT must lie within the reference's own spread of FCT
     * over them, (max - min) / max. The 48 flows within a leaf are reported only: with our default NIC rule their mean
     * misses (see {@link #withTheReferencesNicRuleTheFlowsWithinALeafAgree}).
     */
    @Test
    void singleSpineControlAgrees() {
        singleSpine(new RdmaReferenceAllToAll(1, 1).scenario());
    }

    /**
     * The control with the reference's NIC rule ({@code RoceTransport.TokenBucket.reference()}): the rows of
     * {@link #singleSpineControlAgrees}, and the mean FCT of the 48 flows within a leaf within the reference's own spread
     * of FCT over those flows, (max - min) / max, as for the flows across the spine. Marking at enqueue (ours) and at
     * dequeue (the reference's) both.
     */
    @Test
    void withTheReferencesNicRuleTheFlowsWithinALeafAgree() {
        for (SwitchBuffer.MarkingPoint mp : SwitchBuffer.MarkingPoint.values()) {
            double[] within = singleSpine(new RdmaReferenceAllToAll(1, 1).scenario(mp, RoceTransport.TokenBucket.reference()));
            assertTrue(Math.abs(within[1] - within[0]) <= within[2] * within[0], mp + ": within-leaf mean " + within[1]
                    + " vs the reference's " + within[0] + ", tolerance " + within[2]);
        }
    }

    /**
     * The mechanism from both sides: each simulator run under both NIC rules, the reference with {@code DWRR} (its
     * default, {@code a2a_1spine}) and {@code QpAvail} ({@code a2a_1spine_qpavail}), ours with
     * {@code RoceTransport.TokenBucket.reference()} and without (packet spacing), marking where the reference does (at
     * dequeue). The mean FCT of the flows within a leaf must fall on the side of the same rule: ours under each rule
     * nearer the reference under that rule than under the other. No tolerance is involved: the two rules move the
     * reference's mean by a third (296 us to 194 us), and the check is which of the two each of ours is nearer.
     */
    @Test
    void eachNicRuleGivesTheFlowsWithinALeafTheMeanOfTheReferenceUnderTheSameRule() {
        Table t = Datasets.load(NAME).table();
        double refDwrr = Arrays.stream(RdmaReferenceComparison.allToAllSelect(RdmaReferenceComparison.referenceAllToAllFct(t,
                "a2a_1spine"), false)).average().orElseThrow();
        double refQpAvail = Arrays.stream(RdmaReferenceComparison.allToAllSelect(RdmaReferenceComparison.referenceAllToAllFct(t,
                RdmaReferenceComparison.ALL_TO_ALL_CONTROL_QPAVAIL), false)).average().orElseThrow();
        SwitchBuffer.MarkingPoint dequeue = SwitchBuffer.MarkingPoint.DEQUEUE;
        double oursBucket = singleSpine(new RdmaReferenceAllToAll(1, 1).scenario(dequeue, RoceTransport.TokenBucket.reference()))[1];
        double oursSpacing = singleSpine(new RdmaReferenceAllToAll(1, 1).scenario(dequeue, null))[1];
        System.out.printf(Locale.ROOT, "within-leaf mean FCT, ns: reference DWRR %.0f, QpAvail %.0f; ours token bucket %.0f,"
                + " spacing %.0f%n", refDwrr, refQpAvail, oursBucket, oursSpacing);
        assertTrue(Math.abs(oursBucket - refDwrr) < Math.abs(oursBucket - refQpAvail), "token bucket " + oursBucket);
        assertTrue(Math.abs(oursSpacing - refQpAvail) < Math.abs(oursSpacing - refDwrr), "spacing " + oursSpacing);
    }

    /**
     * The mechanism needs no PAUSE: with PFC off and switch buffers too large to fill (no drop), the two NIC rules still
     * give the flows within a leaf means further apart than the reference's own spread over those flows (13% of its
     * mean), spacing the sooner: a cut queue pair under spacing loses the time it waits for its round-robin turn beyond
     * its spacing, where the bucket keeps it as credit. Under the bucket, turns of about equal size give each of the
     * NIC's 15 queue pairs about 1/15 of the line, 15 x 269,312 wire bytes at 100 Gb/s = 323 us for the flows within a
     * leaf (printed, not asserted: turns are equal only while every bucket reaches its cap).
     */
    @Test
    void withoutPfcTheTwoNicRulesStillDiffer() {
        Table t = Datasets.load(NAME).table();
        long[] refWithinFct = RdmaReferenceComparison.allToAllSelect(RdmaReferenceComparison.referenceAllToAllFct(t, "a2a_1spine"),
                false);
        double refMean = Arrays.stream(refWithinFct).average().orElseThrow();
        double max = Arrays.stream(refWithinFct).max().orElseThrow();
        double spread = (max - Arrays.stream(refWithinFct).min().orElseThrow()) / max;
        double[] within = new double[2];
        for (int k = 0; k < 2; k++) {
            fabriclab.simulation.Scenario s = new RdmaReferenceAllToAll(1, 1).scenario(SwitchBuffer.MarkingPoint.DEQUEUE,
                    k == 0 ? null : RoceTransport.TokenBucket.reference());
            fabriclab.simulation.config.SimulationConfig c = s.config();
            fabriclab.simulation.config.SimulationConfig unbounded = new fabriclab.simulation.config.SimulationConfig(c.mtuBytes(),
                    c.headerBytes(), c.priorities(), new SwitchBuffer(1L << 32, 1L << 32, c.buffer().ecnMarking())
                            .withEcnMarkingPoint(SwitchBuffer.MarkingPoint.DEQUEUE), c.forwarding(), c.seed(), c.samplePeriodPs(),
                    c.maxSamples());
            SimulationResult r = new Simulator(fabriclab.simulation.Scenario.builder(s.topology(), unbounded).flows(s.flows())
                    .transport(s.transport()).build()).run();
            assertTrue(r.allCompleted());
            assertEquals(0, r.droppedPackets());
            within[k] = Arrays.stream(RdmaReferenceComparison.allToAllSelect(RdmaReferenceComparison.ourAllToAllFct(r), false))
                    .average().orElseThrow();
        }
        System.out.printf(Locale.ROOT, "no PFC: within-leaf mean FCT spacing %.0f ns, token bucket %.0f ns; equal turns %.0f ns%n",
                within[0], within[1], 15 * (RdmaReferenceAllToAll.BYTES_PER_FLOW + 256 * 52) * 8 / 100.0);
        assertTrue(within[1] - within[0] > spread * refMean, "spacing " + within[0] + ", bucket " + within[1]);
    }

    /** Runs {@code scenario}, asserts the across-spine rows; returns the within-leaf mean FCT, ref and ours, and its spread. */
    private static double[] singleSpine(fabriclab.simulation.Scenario scenario) {
        Table t = Datasets.load(NAME).table();
        long[][] refFct = RdmaReferenceComparison.referenceAllToAllFct(t, "a2a_1spine");
        SimulationResult r = new Simulator(scenario).run();
        assertTrue(r.allCompleted());
        assertEquals(0, r.droppedPackets());
        long[][] ourFct = RdmaReferenceComparison.ourAllToAllFct(r);
        long[] refAcross = RdmaReferenceComparison.allToAllSelect(refFct, true);
        long[] ourAcross = RdmaReferenceComparison.allToAllSelect(ourFct, true);
        double refMax = Arrays.stream(refAcross).max().orElseThrow();
        double spread = (refMax - Arrays.stream(refAcross).min().orElseThrow()) / refMax;
        double ourMax = Arrays.stream(ourAcross).max().orElseThrow();
        double refMean = Arrays.stream(refAcross).average().orElseThrow();
        double ourMean = Arrays.stream(ourAcross).average().orElseThrow();
        double refWithin = Arrays.stream(RdmaReferenceComparison.allToAllSelect(refFct, false)).average().orElseThrow();
        double ourWithin = Arrays.stream(RdmaReferenceComparison.allToAllSelect(ourFct, false)).average().orElseThrow();
        long ourPauses = r.pfc().stream().mapToLong(SimulationResult.PortPfc::pausesReceived).sum();
        System.out.printf(Locale.ROOT, scenario.name() + ": across-spine makespan ref %.0f ours %.0f; mean ref %.0f ours %.0f; tolerance %.1f%%;"
                + " within-leaf mean ref %.0f ours %.0f; PAUSE ref %d ours %d%n", refMax, ourMax, refMean, ourMean, 100 * spread,
                refWithin, ourWithin, RdmaReferenceComparison.allToAllValue(t, "a2a_1spine", "pause_received"), ourPauses);
        assertTrue(Math.abs(ourMax - refMax) <= spread * refMax, "makespan " + ourMax + " vs " + refMax);
        assertTrue(Math.abs(ourMean - refMean) <= spread * refMean, "mean " + ourMean + " vs " + refMean);
        long[] refWithinFct = RdmaReferenceComparison.allToAllSelect(refFct, false);
        double withinMax = Arrays.stream(refWithinFct).max().orElseThrow();
        return new double[] {refWithin, ourWithin, (withinMax - Arrays.stream(refWithinFct).min().orElseThrow()) / withinMax};
    }
}
