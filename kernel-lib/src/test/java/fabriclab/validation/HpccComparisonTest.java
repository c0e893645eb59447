package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.notebook.PaperComparison;
import fabriclab.workload.FctSteps;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** The comparison's reduction and its pass rule on tables made by hand, and the published dataset it reads. */
class HpccComparisonTest {

    /** A published table: every step of the dcqcn_w curve of websearch at {@code value(step)} for every percentile. */
    static Table published(java.util.function.IntToDoubleFunction value) {
        return published(value, "dcqcn_w");
    }

    /** The same for {@code scheme}'s curve. */
    static Table published(java.util.function.IntToDoubleFunction value, String scheme) {
        StringColumn w = StringColumn.create("workload");
        IntColumn pc = IntColumn.create("percentile");
        StringColumn sc = StringColumn.create("scheme");
        DoubleColumn from = DoubleColumn.create("flows_from_pct");
        DoubleColumn sl = DoubleColumn.create("slowdown");
        for (int p : new int[] {50, 95, 99}) {
            for (int k = 0; k < 100; k++) {
                w.append("websearch");
                pc.append(p);
                sc.append(scheme);
                from.append(k);
                sl.append(value.applyAsDouble(k));
            }
        }
        return Table.create("published", w, pc, sc, from, sl);
    }

    /** Our runs: seed s has every percentile of step k at {@code base(k) * factor[s]}. */
    static Table ours(java.util.function.IntToDoubleFunction base, double... factor) {
        StringColumn fab = StringColumn.create("fabric");
        StringColumn w = StringColumn.create("workload");
        LongColumn sd = LongColumn.create("seed");
        DoubleColumn from = DoubleColumn.create("from_pct");
        LongColumn largest = LongColumn.create("largest_bytes");
        DoubleColumn p50 = DoubleColumn.create("p50");
        DoubleColumn p95 = DoubleColumn.create("p95");
        DoubleColumn p99 = DoubleColumn.create("p99");
        for (int s = 0; s < factor.length; s++) {
            for (int k = 0; k < 100; k++) {
                fab.append("leaf-spine");
                w.append("websearch");
                sd.append(s + 1);
                from.append(k);
                largest.append(1000L * (k + 1));
                double v = base.applyAsDouble(k) * factor[s];
                p50.append(v);
                p95.append(v);
                p99.append(v);
            }
        }
        return Table.create("ours", fab, w, sd, from, largest, p50, p95, p99);
    }

    /**
     * Tenth k holds steps 10k..10k+9: with values 1 + step / 100 the median of a tenth's ten steps is
     * 1 + (10k + 4.5) / 100 on both sides; seeds at factors 0.9, 1 and 1.2 put our median at the published value and
     * the tolerance at 0.2 (the larger side) plus the reading's 0.01.
     */
    @Test
    void tenthsAreMediansOfTenStepsAndTheToleranceIsTheSeedSpreadPlusTheReading() {
        Table t = HpccComparison.tenths(ours(k -> 1 + k / 100.0, 0.9, 1.0, 1.2), published(k -> 1 + k / 100.0), 0.01);
        assertEquals(30, t.rowCount());
        for (int i = 0; i < 10; i++) {
            assertEquals(1 + (10 * i + 4.5) / 100, t.doubleColumn("published").get(i), 1e-12);
            assertEquals(1 + (10 * i + 4.5) / 100, t.doubleColumn("ours").get(i), 1e-12);
            assertEquals(0.21, t.doubleColumn("tolerance").get(i), 1e-12);
            assertEquals("pass", t.stringColumn("pass").get(i));
            assertEquals(1000L * (10 * i + 10), t.longColumn("largest_bytes").get(i));
        }
    }

    @Test
    void aDifferenceBeyondTheSpreadAndTheReadingIsAMiss() {
        // our three seeds agree (no spread); ours is 3% above: within a 5% reading, beyond a 1% one
        Table pass = HpccComparison.tenths(ours(k -> 2.06, 1, 1, 1), published(k -> 2.0), 0.05);
        Table miss = HpccComparison.tenths(ours(k -> 2.06, 1, 1, 1), published(k -> 2.0), 0.01);
        assertTrue(pass.stringColumn("pass").asList().stream().allMatch("pass"::equals));
        assertTrue(miss.stringColumn("pass").asList().stream().allMatch("miss"::equals));
        PaperComparison cmp = PaperComparison.of("test", "outside reference (not a seed paper)");
        HpccComparison.addTo(cmp, miss);
        assertEquals(30, cmp.rows().size());
        assertTrue(cmp.rows().stream().noneMatch(r -> r.meetsTarget()));
    }

    /**
     * HPCC (INT) is reduced by the same rule against its own published curve: a table holding only the hpcc_int curve
     * gives the tenths and rows of that scheme, named after it, and the DCQCN+w reduction finds no curve in it.
     */
    @Test
    void hpccIntIsComparedByTheSameRuleAgainstItsOwnCurve() {
        Table pub = published(k -> 1 + k / 100.0, "hpcc_int");
        Table t = HpccComparison.tenths(ours(k -> 1 + k / 100.0, 0.9, 1.0, 1.2), pub, 0.01, HpccScheme.HPCC_INT);
        assertEquals(30, t.rowCount());
        assertEquals(0.21, t.doubleColumn("tolerance").get(0), 1e-12);
        assertTrue(t.name().startsWith("HPCC (INT), ours against"), t.name());
        assertTrue(t.name().endsWith("30 of 30 within tolerance"), t.name());
        PaperComparison cmp = PaperComparison.of("test", "outside reference (not a seed paper)");
        HpccComparison.addTo(cmp, t, HpccScheme.HPCC_INT);
        assertEquals(30, cmp.rows().size());
        assertTrue(cmp.rows().stream().allMatch(r -> r.meetsTarget()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HpccComparison.tenths(ours(k -> 1 + k / 100.0, 1, 1, 1), pub, 0.01));
        assertTrue(e.getMessage().contains("dcqcn_w"), e.getMessage());
    }

    @Test
    void thePublishedDatasetHasTheHpccIntCurvesOfBothWorkloads() {
        Table pub = HpccComparison.published();
        for (String w : List.of("websearch", "fb-hadoop")) {
            for (String p : HpccComparison.PERCENTILES) {
                double[][] curve = HpccComparison.published(pub, w, p, HpccScheme.HPCC_INT);
                assertEquals(100, curve.length, w + " " + p);
            }
        }
    }

    @Test
    void thePublishedDatasetHasTheDcqcnWindowCurvesOfBothWorkloads() {
        Table pub = HpccComparison.published();
        for (String w : List.of("websearch", "fb-hadoop")) {
            for (String p : HpccComparison.PERCENTILES) {
                double[][] curve = HpccComparison.published(pub, w, p);
                assertEquals(100, curve.length, w + " " + p);
                for (int k = 0; k < 100; k++) {
                    assertEquals(k, curve[k][0], 1e-12);
                }
            }
        }
    }

    @Test
    void refusesTablesItCannotReduce() {
        Table pub = published(k -> 1.0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HpccComparison.tenths(ours(k -> 1.0, 1), pub, 1.5));
        assertTrue(e.getMessage().contains("readingUncertainty"), e.getMessage());
        Table fb = ours(k -> 1.0, 1);
        fb.stringColumn("workload").set(fb.stringColumn("workload").isEqualTo("websearch"), "fb-hadoop");
        e = assertThrows(IllegalArgumentException.class, () -> HpccComparison.tenths(fb, pub, 0.01));
        assertTrue(e.getMessage().contains("fb-hadoop"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> HpccComparison.evaluations(List.of(), 0.3, List.of(1L)));
        assertTrue(e.getMessage().contains("workloads"), e.getMessage());
    }

    /** A step list survives a round trip through Java serialization (what a cluster executor does with results). */
    @Test
    void stepsRunsAreSerializable() throws Exception {
        List<FctSteps.Step> steps = new ArrayList<>();
        steps.add(new FctSteps.Step(0, 50, 10, 3, 1.0, 1.5, 2.0));
        HpccComparison.Result r = new HpccComparison.Result(new HpccEvaluation("websearch", 0.3, 1_000_000_000L, 1),
                10, 0, 0, 0, 0, 0, 0, steps);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(r);
        }
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            assertEquals(r, in.readObject());
        }
    }

    @Test
    void sizesAreLabelledAsTheFiguresLabelThem() {
        assertEquals("327B", HpccComparison.bytes(327));
        assertEquals("6.72K", HpccComparison.bytes(6720));
        assertEquals("20.5K", HpccComparison.bytes(20_476));
        assertEquals("100K", HpccComparison.bytes(100_000));
        assertEquals("1.94M", HpccComparison.bytes(1_940_417));
        assertEquals("29.9M", HpccComparison.bytes(29_947_739));
        assertEquals("1M", HpccComparison.bytes(999_999));
    }

    /** One pixel of the figures' log axes is at most a 0.22% change of slowdown (1 to 10 over 1059 rows), so 4 pixels 0.9%. */
    @Test
    void theReadingUncertaintyIsFourPixelsRelative() {
        double u = HpccComparison.readingUncertainty(HpccComparison.published());
        assertEquals(4 * (Math.pow(10, 1 / 1058.91) - 1), u, 2e-4);
    }

    /** A fabric's rows of a table of both fabrics' runs: those rows, in their order, under the table's name. */
    @Test
    void onFabricKeepsThatFabricsRowsInOrder() {
        Table a = ours(k -> 1 + k / 100.0, 1.0, 2.0);
        Table b = ours(k -> 3 + k / 100.0, 1.0);
        for (int i = 0; i < b.rowCount(); i++) {
            b.stringColumn("fabric").set(i, "fat tree");
        }
        Table both = b.copy().append(a);
        both.setName("both");
        Table leafSpine = HpccComparison.onFabric(both, HpccEvaluation.FabricTopology.LEAF_SPINE);
        Table fatTree = HpccComparison.onFabric(both, HpccEvaluation.FabricTopology.FAT_TREE);
        assertEquals("both", leafSpine.name());
        assertEquals(a.setName("both").printAll(), leafSpine.printAll());
        assertEquals(b.setName("both").printAll(), fatTree.printAll());
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> HpccComparison.onFabric(Table.create("t", DoubleColumn.create("p50")), HpccEvaluation.FabricTopology.FAT_TREE));
        assertTrue(x.getMessage().startsWith("runs must be a table of HpccComparison.runs"), x.getMessage());
    }
}
