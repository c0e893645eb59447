package fabriclab.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Time;
import fabriclab.notebook.PaperComparison;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.transport.window.DctcpTransport;
import fabriclab.simulation.transport.window.TimelyTransport;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** The other schemes of HPCC's figure on its evaluation: their settings, a short run each, their comparison rows. */
class HpccSchemeTest {
    @Test
    void eachSchemeHasItsPublishedCurvesForBothWorkloadsAndEveryPercentile() {
        Table pub = HpccComparison.published();
        for (HpccScheme s : HpccScheme.values()) {
            for (String w : List.of("websearch", "fb-hadoop")) {
                for (String p : HpccComparison.PERCENTILES) {
                    assertEquals(100, HpccComparison.published(pub, w, p, s).length, s + " " + w + " " + p);
                }
            }
        }
    }

    /**
     * HPCC with PINT is HPCC (INT) with the PINT digest in place of the INT header: 2 bytes at HPCC's
     * {@code pint_log_base 1.01} (log(512^2) / log(1.01) = 1,254 values, 11 bits), every other setting the same.
     */
    @Test
    void pintIsHpccWithTheTwoByteDigest() {
        int bits = (int) Math.ceil(Math.log(Math.log(512.0 * 512.0) / Math.log(1.01)) / Math.log(2));
        assertEquals(11, bits);
        assertEquals((bits - 1) / 8 + 1, HpccScheme.PINT_HEADER_BYTES);
        HpccEvaluation e = new HpccEvaluation("websearch", 0.3, 100 * Time.US, 1);
        var pint = (fabriclab.simulation.transport.hpcc.HpccTransport) e.scenario(HpccScheme.HPCC_PINT).transport();
        assertEquals(e.hpccInt().withIntHeaderBytes(2), pint);
        assertEquals(e.hpccInt(), e.scenario(HpccScheme.HPCC_INT).transport());
        assertEquals(e.scenario(HpccScheme.HPCC_INT).config(), e.scenario(HpccScheme.HPCC_PINT).config());
        assertEquals("hpcc_pint", HpccScheme.HPCC_PINT.datasetName());
        IllegalArgumentException x = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> HpccScheme.HPCC_PINT.transport(1000));
        assertTrue(x.getMessage().contains("HPCC_PINT"), x.getMessage());
    }

    @Test
    void dcqcnWithWindowIsTheScenarioOfBefore() {
        HpccEvaluation e = new HpccEvaluation("websearch", 0.3, 100 * Time.US, 1);
        assertEquals(e.scenario().name(), e.scenario(HpccScheme.DCQCN_W).name());
        assertEquals(e.scenario().transport(), e.scenario(HpccScheme.DCQCN_W).transport());
        assertEquals(e.scenario().config(), e.scenario(HpccScheme.DCQCN_W).config());
    }

    @Test
    void theSchemesCarryHpccsSettings() {
        HpccEvaluation e = new HpccEvaluation("websearch", 0.3, 100 * Time.US, 1);
        DctcpTransport d = (DctcpTransport) e.scenario(HpccScheme.DCTCP).transport();
        assertEquals(1.0 / 16, d.g());
        assertEquals(615e6, d.additiveIncreaseBitsPerSecond());
        assertEquals(1e9, d.minRateBitsPerSecond());
        assertEquals(e.fabricWindowBytes(), d.windowBytes());
        assertEquals(1, d.rc().ackEvery());
        assertEquals(300_000, e.scenario(HpccScheme.DCTCP).config().buffer().ecnMarking().kMinBytes(), 1e-9);
        TimelyTransport t = (TimelyTransport) e.scenario(HpccScheme.TIMELY_W).transport();
        assertEquals(100e6, t.params().additiveIncreaseBitsPerSecond(), 1e-3);
        assertEquals(50e-6, t.params().tLowS());
        assertEquals(500e-6, t.params().tHighS());
        assertEquals(0.8, t.params().beta());
        assertEquals(0.875, t.params().ewma());
        assertEquals(20e-6, t.params().minRttS());
        assertEquals(5, t.params().haiThreshold());
        assertEquals(1e9, t.params().minRateBitsPerSecond());
        assertEquals(e.fabricWindowBytes(), t.windowBytes());
    }

    @ParameterizedTest
    @EnumSource(value = HpccScheme.class, names = {"DCTCP", "TIMELY_W"})
    void aShortRunCompletesEveryFlowWithoutLossAndIsDeterministic(HpccScheme s) {
        HpccEvaluation e = new HpccEvaluation("websearch", 0.3, 100 * Time.US, 1);
        HpccEvaluation.Result a = e.run(s);
        SimulationResult r = a.result();
        assertTrue(r.flows().size() > 20, "flows " + r.flows().size());
        assertTrue(r.allCompleted());
        assertEquals(0, r.droppedPackets());
        assertEquals(0, r.timeouts());
        for (int i = 0; i < r.flows().size(); i++) {
            assertTrue(Double.isFinite(a.slowdown(i)) && a.slowdown(i) > 0, "flow " + i + " slowdown " + a.slowdown(i));
        }
        SimulationResult again = e.run(s).result();
        assertEquals(r.flows().toString(), again.flows().toString());
        assertEquals(r.events(), again.events());
        assertEquals(r.endPs(), again.endPs());
        assertEquals(r.counters(), again.counters());
    }

    @Test
    void theTenthsAndRowsOfASchemeNameIt() {
        Table pub = HpccComparisonTest.published(k -> 2.0);
        pub.replaceColumn("scheme", StringColumn.create("scheme", java.util.Collections.nCopies(pub.rowCount(), "dctcp")));
        Table t = HpccComparison.tenths(HpccComparisonTest.ours(k -> 2.06, 1, 1, 1), pub, 0.01, HpccScheme.DCTCP);
        assertTrue(t.name().startsWith("DCTCP, ours against"), t.name());
        assertTrue(t.stringColumn("pass").asList().stream().allMatch("miss"::equals));
        PaperComparison cmp = PaperComparison.of("test", "outside reference (not a seed paper)");
        HpccComparison.addTo(cmp, t, HpccScheme.DCTCP);
        assertEquals(30, cmp.rows().size());
        assertTrue(cmp.rows().get(0).toString().contains("DCTCP websearch"), cmp.rows().get(0).toString());
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> HpccComparison.tenths(HpccComparisonTest.ours(k -> 2.06, 1, 1, 1), pub, 0.01, HpccScheme.TIMELY_W));
        assertTrue(x.getMessage().contains("timely_w"), x.getMessage());
        x = assertThrows(IllegalArgumentException.class, () -> HpccScheme.DCTCP.transport(0));
        assertTrue(x.getMessage().contains("windowBytes"), x.getMessage());
    }
}
