package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Time;
import fabriclab.notebook.PaperComparison;
import fabriclab.progress.Progress;
import fabriclab.simulation.SimulationResult;
import fabriclab.sweep.LocalThreads;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

/**
 * The five schemes of HPCC's figure at two sizes: a short arrival window (notebook 14's) runs the first flows of a
 * longer one (the full size of {@link HpccSchemesMain}), and up to the short window's end both are the same run, so
 * every flow that the short run completes by then completes at the same instant in the long run; and the tables of
 * {@link HpccComparison#schemeTenths} and {@link HpccComparison#passCounts} hold every scheme, workload, percentile
 * and tenth.
 */
class HpccSchemesTest {
    @ParameterizedTest
    @EnumSource(HpccScheme.class)
    void theShortWindowIsThePrefixOfTheLongOne(HpccScheme scheme) {
        long shortPs = 150 * Time.US;
        HpccEvaluation small = new HpccEvaluation("websearch", 0.3, shortPs, 1);
        HpccEvaluation full = new HpccEvaluation("websearch", 0.3, 2 * shortPs, 1);
        var a = small.flows().flows();
        var b = full.flows().flows();
        assertTrue(a.size() > 20 && b.size() > a.size(), a.size() + " and " + b.size() + " flows");
        assertEquals(a, b.subList(0, a.size()), "the short window's flows are the long one's first");
        SimulationResult rs = small.run(scheme).result();
        SimulationResult rf = full.run(scheme).result();
        int same = 0;
        for (int i = 0; i < a.size(); i++) {
            long done = rs.flows().get(i).acknowledgedPs();
            if (done >= 0 && done < shortPs) {
                assertEquals(done, rf.flows().get(i).acknowledgedPs(), scheme + ": flow " + i + " completes by " + shortPs + " ps");
                same++;
            }
        }
        assertTrue(same > 5, scheme + ": only " + same + " flows complete within the short window");
    }

    @Test
    void theSchemeTablesHoldEveryTenth() throws InterruptedException {
        List<HpccEvaluation> e = HpccComparison.evaluationsOver(List.of("websearch", "fb-hadoop"), 0.3, List.of(1L, 2L), 300 * Time.US);
        Table t = HpccComparison.schemeTenths(e, List.of(HpccScheme.HPCC_PINT, HpccScheme.DCTCP), HpccComparison.published(),
                new LocalThreads(2), Progress.silent());
        assertEquals(2 * 2 * 3 * 10, t.rowCount());
        // the schemes' runs as one sweep give each scheme's own: its runs tabulated and compared alone
        for (HpccScheme scheme : List.of(HpccScheme.HPCC_PINT, HpccScheme.DCTCP)) {
            Table alone = HpccComparison.tenths(HpccComparison.runs(e, scheme, new LocalThreads(1), Progress.silent()),
                    HpccComparison.published(), HpccComparison.readingUncertainty(HpccComparison.published()), scheme);
            Table mine = t.where(t.stringColumn("scheme").isEqualTo(scheme.label()));
            mine.removeColumns("scheme");
            assertEquals(alone.printAll(), mine.setName(alone.name()).printAll(), scheme.label());
        }
        Table counts = HpccComparison.passCounts(t);
        assertEquals(2 * 2 * 3, counts.rowCount());
        assertEquals(t.rowCount(), counts.intColumn("tenths").sum(), 0.0);
        assertEquals(t.stringColumn("pass").asList().stream().filter("pass"::equals).count(), counts.intColumn("passed").sum(), 0.0);
        PaperComparison cmp = PaperComparison.of("test", "outside reference (not a seed paper)");
        HpccComparison.addSchemesTo(cmp, t, List.of(HpccScheme.HPCC_PINT), 2, "300 us of arrivals");
        assertEquals(60, cmp.rows().size());
        assertTrue(cmp.rows().get(0).quantity().contains("HPCC (PINT)") && cmp.rows().get(0).quantity().contains("300 us of arrivals"),
                cmp.rows().get(0).quantity());
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> HpccComparison.addSchemesTo(cmp, t, List.of(HpccScheme.TIMELY_W), 2, ""));
        assertTrue(x.getMessage().contains("TIMELY+w"), x.getMessage());
        x = assertThrows(IllegalArgumentException.class, () -> HpccComparison.schemeTenths(e, List.of(), HpccComparison.published(),
                new LocalThreads(1), Progress.silent()));
        assertTrue(x.getMessage().contains("schemes"), x.getMessage());
    }
}
