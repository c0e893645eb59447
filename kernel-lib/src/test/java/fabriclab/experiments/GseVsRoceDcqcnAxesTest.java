package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.congestion.DcqcnParameters;
import fabriclab.experiments.testbed.Duan2024Testbed;
import fabriclab.experiments.testbed.Duan2024Testbed.Algorithm;
import fabriclab.experiments.testbed.Duan2024Testbed.Marking;
import fabriclab.experiments.testbed.Duan2024Testbed.Recovery;
import fabriclab.experiments.testbed.Duan2024Testbed.Uplinks;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.fabric.EcnMarking;
import fabriclab.progress.Progress;
import fabriclab.simulation.config.SwitchBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

class GseVsRoceDcqcnAxesTest {
    static final long G = 1_000_000_000L;
    static final long SMALL = 1L << 20;

    /** Each profile's thresholds as the cited sources give them (typed from the sources, not from the code). */
    @Test
    void markingProfilesHoldTheCitedThresholds() {
        EcnMarking zhu = new EcnMarking(5_000, 200_000, 0.01); // Zhu et al. 2015, section 5
        assertEquals(zhu, Marking.ZHU_UNSCALED.at(100 * G));
        assertEquals(zhu, Marking.ZHU_UNSCALED.at(400 * G));
        assertEquals(zhu, Marking.ZHU_SCALED.at(40 * G));
        assertEquals(new EcnMarking(12_500, 500_000, 0.01), Marking.ZHU_SCALED.at(100 * G));
        assertEquals(new EcnMarking(50_000, 2_000_000, 0.01), Marking.ZHU_SCALED.at(400 * G));
        // config_8to1.sh lines 39-41: KMIN_MAP/KMAX_MAP in KB, PMAX_MAP
        assertEquals(new EcnMarking(400_000, 1_600_000, 0.2), Marking.NS3_REFERENCE.at(100 * G));
        assertEquals(new EcnMarking(800_000, 3_200_000, 0.2), Marking.NS3_REFERENCE.at(400 * G));
        assertEquals(new EcnMarking(300_000, 1_200_000, 0.8), Marking.NS3_REFERENCE.at(200 * G));
        assertEquals(new EcnMarking(100_000, 400_000, 0.2), Marking.NS3_REFERENCE.at(25 * G));
        // Onyx "show roce": ecn, absolute, Min 150, Max 1500 (KB), at every speed
        assertEquals(new EcnMarking(150_000, 1_500_000, 1.0), Marking.NVIDIA_SWITCH.at(100 * G));
        assertEquals(Marking.NVIDIA_SWITCH.at(100 * G), Marking.NVIDIA_SWITCH.at(400 * G));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Marking.NS3_REFERENCE.at(40 * G));
        assertTrue(e.getMessage().contains("portBitsPerSecond") && e.getMessage().contains("40000000000"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Marking.ZHU_UNSCALED.at(0));
    }

    /**
     * The switch reads a scaled profile's curve at q x (reference rate / port rate): at a 100G port Zhu's curve read at
     * 0.4 q is the curve with thresholds 2.5 times larger, at every queue length.
     */
    @Test
    void scaledThresholdsAreTheCurveReadAtTheScaledQueue() {
        SwitchBuffer b = JobSimulation.markingBuffer(Marking.ZHU_SCALED, GseVsRoceDcqcnAxes.testbed().fabric(1.5));
        assertEquals(40 * G, b.ecnReferenceRateBitsPerSecond());
        EcnMarking curve = b.ecnMarking();
        EcnMarking at100 = Marking.ZHU_SCALED.at(100 * G);
        for (double q = 0; q <= 700_000; q += 1_250) {
            assertEquals(at100.probability(q), curve.probability(q * 40 / 100), 1e-12, "q = " + q);
        }
    }

    @Test
    void aProfileThatIsNotLinearInTheRateNeedsOnePortRate() {
        SwitchBuffer members = JobSimulation.markingBuffer(Marking.NS3_REFERENCE, GseVsRoceDcqcnAxes.testbed().fabric(1.5));
        assertEquals(0, members.ecnReferenceRateBitsPerSecond());
        assertEquals(Marking.NS3_REFERENCE.at(100 * G), members.ecnMarking());
        var single400 = new Duan2024Testbed(1.5, Uplinks.SINGLE_400G).leafSpine();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JobSimulation.markingBuffer(Marking.NS3_REFERENCE, single400));
        assertTrue(e.getMessage().contains("leafSpine"), e.getMessage());
        // absolute thresholds are one curve at 100G and 400G alike
        assertEquals(Marking.NVIDIA_SWITCH.at(100 * G), JobSimulation.markingBuffer(Marking.NVIDIA_SWITCH, single400).ecnMarking());
    }

    /** NVIDIA's fixed-point values turned into the model's: g = (1024 - dce_tcp_g) / 1024, times in seconds. */
    @Test
    void recoveryValuesAreTheDocumentedOnes() {
        DcqcnParameters nv = Recovery.NVIDIA.parameters();
        assertEquals((1024 - 1019) / 1024.0, nv.g(), 0.0);
        assertEquals(1e-6, nv.tauPrimeS(), 0.0);   // dce_tcp_rtt 1 us
        assertEquals(4e-6, nv.tauS(), 0.0);        // rate_reduce_monitor_period 4 us
        assertEquals(300e-6, nv.timerS(), 0.0);    // rpg_time_reset 300 us
        assertEquals(32_767, nv.byteCounterBytes(), 0.0);
        assertEquals(1, nv.fastRecoverySteps());
        assertEquals(5e6, nv.rateAiBitsPerSecond(), 0.0);
        assertEquals(1e6, nv.minRateBitsPerSecond(), 0.0); // rpg_min_rate 1 Mb/s
        assertEquals(nv, Recovery.NVIDIA_CLAMPED.parameters());
        assertTrue(Recovery.NVIDIA_CLAMPED.clampTargetRate());
        assertTrue(!Recovery.NVIDIA.clampTargetRate()); // clamp_tgt_rate 0
        DcqcnParameters ns3 = Recovery.NS3_REFERENCE.parameters(); // config_8to1.sh lines 53-69
        assertEquals(0.00390625, ns3.g(), 0.0);
        assertEquals(1e-6, ns3.tauPrimeS(), 0.0);
        assertEquals(4e-6, ns3.tauS(), 0.0);
        assertEquals(900e-6, ns3.timerS(), 0.0);
        assertEquals(DcqcnParameters.NO_BYTE_COUNTER, ns3.byteCounterBytes(), 0.0);
        assertEquals(1, ns3.fastRecoverySteps());
        assertEquals(5e6, ns3.rateAiBitsPerSecond(), 0.0);
        assertEquals(100e6, ns3.minRateBitsPerSecond(), 0.0);
        assertTrue(!Recovery.NS3_REFERENCE.clampTargetRate());
        for (Recovery r : Recovery.values()) {
            assertEquals(50e6, r.hyperIncreaseBitsPerSecond(), 0.0); // rpg_hai_rate 50, RateHAI 50Mb/s
        }
    }

    /** Zhu's unscaled marking with NVIDIA's clamped recovery is the canonical 4 x 100G configuration, run for run. */
    @Test
    void theCanonicalCornerIsTheCanonicalRun() {
        for (Algorithm a : List.of(Algorithm.ALL_TO_ALL_AT_ONCE, Algorithm.HALVING_DOUBLING_ALL_REDUCE)) {
            GseVsRoceTestbed.Result canonical = GseVsRoceTestbed.documentedDefaults().withUplinks(Uplinks.BREAKOUT_4X100G)
                    .run(a, RoceOrGse.ROCE, 1.5, SMALL, 3);
            GseVsRoceDcqcnAxes.Result axes = new GseVsRoceDcqcnAxes.Point(Marking.ZHU_UNSCALED, Recovery.NVIDIA_CLAMPED, a,
                    RoceOrGse.ROCE, SMALL, 3).run();
            assertEquals(canonical.meanJctUs(), axes.run().meanJctUs(), 0.0);
            assertEquals(canonical.ecnMarks(), axes.run().ecnMarks());
            assertEquals(canonical.rateCuts(), axes.run().rateCuts());
        }
    }

    @Test
    void ratiosPairEachRoceRunWithGseOfItsAlgorithm() throws InterruptedException {
        List<GseVsRoceDcqcnAxes.Point> points = GseVsRoceDcqcnAxes.points(List.of(Marking.NVIDIA_SWITCH),
                List.of(Recovery.NVIDIA, Recovery.NS3_REFERENCE), List.of(Algorithm.ALL_TO_ALL_AT_ONCE), SMALL, new long[] {1, 2});
        assertEquals(5, points.size());
        assertEquals(RoceOrGse.GSE, points.get(4).fabric());
        List<GseVsRoceDcqcnAxes.Result> runs = GseVsRoceDcqcnAxes.sweep(points, 2, Progress.silent());
        Table t = GseVsRoceDcqcnAxes.ratios(runs);
        assertEquals(4, t.rowCount());
        double gse = runs.get(4).run().meanJctUs();
        for (int i = 0; i < 4; i++) {
            assertEquals(runs.get(i).run().meanJctUs() / gse, t.doubleColumn("ratio_mean").get(i), 1e-12);
        }
        Table s = GseVsRoceDcqcnAxes.ratioSpread(runs);
        assertEquals(2, s.rowCount());
        assertEquals(2, s.longColumn("seeds").get(0));
        double lo = Math.min(t.doubleColumn("ratio_mean").get(0), t.doubleColumn("ratio_mean").get(1));
        assertEquals(lo, s.doubleColumn("ratio_min").get(0), 0.0);
        // deterministic: the same points give the same table
        assertEquals(GseVsRoceDcqcnAxes.table(runs).printAll(),
                GseVsRoceDcqcnAxes.table(GseVsRoceDcqcnAxes.sweep(points, 1, Progress.silent())).printAll());
    }

    @Test
    void badPointsAreRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new GseVsRoceDcqcnAxes.Point(null,
                Recovery.NVIDIA, Algorithm.ALL_TO_ALL_AT_ONCE, RoceOrGse.ROCE, SMALL, 1));
        assertTrue(e.getMessage().contains("marking"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new GseVsRoceDcqcnAxes.Point(Marking.ZHU_SCALED, null,
                Algorithm.ALL_TO_ALL_AT_ONCE, RoceOrGse.GSE, SMALL, 1));
        assertTrue(e.getMessage().contains("GSE"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new GseVsRoceDcqcnAxes.Point(Marking.ZHU_SCALED, Recovery.NVIDIA,
                Algorithm.ALL_TO_ALL_AT_ONCE, RoceOrGse.ROCE, 100, 1));
        assertTrue(e.getMessage().contains("bufferBytes"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GseVsRoceDcqcnAxes.grid(SMALL, new long[0]));
        assertTrue(e.getMessage().contains("seeds"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> GseVsRoceDcqcnAxes.points(List.of(), List.of(Recovery.NVIDIA),
                List.of(Algorithm.ALL_TO_ALL_AT_ONCE), SMALL, new long[] {1}));
        assertTrue(e.getMessage().contains("markings"), e.getMessage());
    }
}
