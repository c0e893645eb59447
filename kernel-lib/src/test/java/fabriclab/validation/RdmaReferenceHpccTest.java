package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.notebook.PaperComparison;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.Simulator;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.hpcc.HpccTransport;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tech.tablesaw.api.Table;

/**
 * Our HPCC against the RDMA reference's on the same scenarios ({@link RdmaReferenceHpcc}, dataset
 * {@value RdmaReferenceHpcc#DATASET}): the mean, smallest and largest FCT and the peak egress queue within the
 * reference's own spread of FCTs over its identical flows (28% in the incast, 6% in the permutation; the reason is
 * {@link RdmaReferenceHpcc}'s). Beyond that, neither pauses (2 MiB buffers, no PFC frame in the reference), both peak
 * below the closed-form bound of every sender's first window queued at once (N windows of B T, in whole packets with
 * headers and the INT header), and both finish no sooner than the bottleneck's line rate allows.
 */
class RdmaReferenceHpccTest {
    @ParameterizedTest
    @EnumSource(RdmaReferenceHpcc.Kind.class)
    void oursAgreesWithTheReferenceWithinItsOwnSpread(RdmaReferenceHpcc.Kind k) {
        Table t = RdmaReferenceHpcc.reference();
        RdmaReferenceHpcc s = new RdmaReferenceHpcc(k);
        assertEquals(s.flows().size(), s.referenceValues(t, "fct_ns").length, "every flow of the reference completed");
        SimulationResult r = new Simulator(s.scenario()).run();
        List<RdmaReferenceHpcc.Row> rows = s.rows(r, t);
        assertEquals(4, rows.size());
        assertTrue(rows.stream().allMatch(RdmaReferenceHpcc.Row::pass), k + ": " + rows);
        double spread = k == RdmaReferenceHpcc.Kind.INCAST ? 0.28 : 0.058;
        assertEquals(spread, rows.get(0).tolerance(), 0.01, "the reference's spread");
        PaperComparison cmp = PaperComparison.of("test", "outside reference (not a seed paper)");
        s.addTo(cmp, r, t);
        assertEquals(4, cmp.rows().size());
        assertTrue(cmp.rows().stream().allMatch(x -> x.meetsTarget()));

        assertEquals(0, s.referenceValues(t, "pause_received")[0]);
        assertEquals(0, r.pausesSent());
        assertEquals(0, r.droppedPackets());
        assertEquals(0, r.counter(TransportModel.TIMEOUTS));
        // closed forms: N first windows queued at once bound the peak; the bottleneck's line rate bounds the last FCT
        int wire = RdmaReferenceIncast.MTU_BYTES + RdmaReferenceIncast.HEADER_BYTES + HpccTransport.INT_HEADER_BYTES;
        int perBottleneck = k == RdmaReferenceHpcc.Kind.INCAST ? 8 : 4;
        long windowBytes = k == RdmaReferenceHpcc.Kind.INCAST ? 52_000 : 104_000; // B T, T the longest base RTT
        long bound = perBottleneck * ((windowBytes + RdmaReferenceIncast.MTU_BYTES - 1) / RdmaReferenceIncast.MTU_BYTES) * wire;
        double ourPeak = rows.get(3).ours();
        double theirPeak = rows.get(3).reference();
        assertTrue(ourPeak <= bound && theirPeak <= bound, "peaks " + ourPeak + ", " + theirPeak + " above " + bound);
        double lineRateUs = perBottleneck * (RdmaReferenceHpcc.BYTES / RdmaReferenceIncast.MTU_BYTES) * wire * 8.0
                / (RdmaReferenceIncast.RATE_BPS / 1e6);
        assertTrue(rows.get(2).ours() > lineRateUs && rows.get(2).reference() > lineRateUs);
    }

    @ParameterizedTest
    @EnumSource(RdmaReferenceHpcc.Kind.class)
    void aMissBeyondTheSpreadIsReported(RdmaReferenceHpcc.Kind k) {
        RdmaReferenceHpcc.Row r = new RdmaReferenceHpcc.Row("mean FCT", "us", 100, 110, 0.05);
        assertTrue(!r.pass());
        assertTrue(new RdmaReferenceHpcc.Row("mean FCT", "us", 100, 104, 0.05).pass());
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new RdmaReferenceHpcc(k).referenceValues(RdmaReferenceHpcc.reference(), "no_such_quantity"));
        assertTrue(e.getMessage().contains("no_such_quantity"), e.getMessage());
    }

    /**
     * Both simulators under one order of simultaneous events (this simulator's rule, the reference run with our
     * scheduler: {@value RdmaReferenceHpcc#TIE_RULE_DATASET}). The reference's FCTs depend on that order far more than on
     * which of its identical flows is which: its spread over all the rule's runs is wider than over its flows in its own
     * order. Within that spread ours agrees on the median mean FCT and on the smallest and largest FCT; in the incast a
     * run's own spread matches too, in the permutation ours spreads more than twice as wide per run (reported as a miss,
     * the mechanism not traced: HPCC's per-packet rate updates turn the order of a few early ties into lasting rate
     * differences, more in ours than in the reference).
     */
    @ParameterizedTest
    @EnumSource(RdmaReferenceHpcc.Kind.class)
    void underOneTieRuleOursAgreesWithTheReferenceOnFctsWithinItsSpreadOverDraws(RdmaReferenceHpcc.Kind k) {
        RdmaReferenceHpcc s = new RdmaReferenceHpcc(k);
        Table rule = RdmaReferenceHpcc.tieRuleReference();
        // the reference itself: every flow of every draw completed; its own order's spread lies inside the rule's
        double[] own = java.util.Arrays.stream(s.referenceValues(RdmaReferenceHpcc.reference(), "fct_ns")).mapToDouble(v -> v / 1e3)
                .sorted().toArray();
        double[] all = java.util.stream.IntStream.rangeClosed(1, RdmaReferenceHpcc.TIE_SEEDS)
                .mapToObj(seed -> s.tieRuleReferenceFctsUs(rule, seed)).flatMapToDouble(java.util.Arrays::stream).sorted().toArray();
        assertEquals(RdmaReferenceHpcc.TIE_SEEDS * s.flows().size(), all.length);
        assertTrue(all[0] < own[0] && all[all.length - 1] > own[own.length - 1],
                "the rule's draws widen the reference's FCTs beyond its own order's " + own[0] + " to " + own[own.length - 1]);

        List<double[]> ours = s.tieRuleRunsFctsUs();
        List<RdmaReferenceHpcc.Row> rows = s.tieRuleRows(ours, rule);
        assertEquals(4, rows.size());
        for (RdmaReferenceHpcc.Row r : rows.subList(0, 3)) {
            assertTrue(r.pass(), k + ": " + r);
        }
        RdmaReferenceHpcc.Row spread = rows.get(3);
        if (k == RdmaReferenceHpcc.Kind.INCAST) {
            assertTrue(spread.pass(), k + ": " + spread);
        } else {
            assertTrue(!spread.pass() && spread.ours() > 2 * spread.reference(), k + ": " + spread);
        }
        // the draws' seed is the only thing the run's seed changes here: in scheduling order seeds 1 and 2 run alike
        double[] a = new Simulator(s.scenario(1)).run().flows().stream().mapToDouble(f -> f.acknowledgedPs()).toArray();
        double[] b = new Simulator(s.scenario(2)).run().flows().stream().mapToDouble(f -> f.acknowledgedPs()).toArray();
        org.junit.jupiter.api.Assertions.assertArrayEquals(a, b);
        // and ours is a rule of its own: the rule's runs differ from each other
        assertTrue(!java.util.Arrays.equals(ours.get(0), ours.get(1)));
    }
}
