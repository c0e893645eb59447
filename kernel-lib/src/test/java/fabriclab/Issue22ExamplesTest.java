package fabriclab;

import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.simulation.Simulator;
import fabriclab.collectives.AllReduceLatency;
import fabriclab.congestion.Bottleneck;
import fabriclab.congestion.DcqcnFixedPoint;
import fabriclab.congestion.DcqcnFluidModel;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.congestion.DcqcnSweeps;
import fabriclab.congestion.EcnThresholdTuning;
import fabriclab.congestion.FlowClass;
import fabriclab.congestion.FluidRun;
import fabriclab.congestion.dde.DdeSolver;
import fabriclab.congestion.dde.DelaySystem;
import fabriclab.container.PacketSizes;
import fabriclab.container.Spraying;
import fabriclab.experiments.GseVsRoceJct;
import fabriclab.experiments.Llama2Fabric;
import fabriclab.fabric.Incast;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.flowcontrol.PfcIncastSimulator;
import fabriclab.loadbalancing.analytics.BallsIntoBins;
import fabriclab.loadbalancing.analytics.EcmpMonteCarlo;
import fabriclab.loadbalancing.hash.ResilientHashGroup;
import fabriclab.loadbalancing.polarization.PolarizationResult;
import fabriclab.progress.Progress;
import fabriclab.scheduling.DgsqConfig;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The examples issue 22 names, one by one (the reflective {@link BadInputContractTest} covers them in
 * general; these pin the cases the outside check reported): each bad value is rejected at once with an
 * {@link IllegalArgumentException} naming the parameter the caller passed, or gives a finite, meaningful
 * answer.
 */
class Issue22ExamplesTest {
    private static final Duration QUICK = Duration.ofSeconds(10);

    /** The call fails quickly with an IllegalArgumentException whose message names {@code parameter}. */
    private static void rejects(String parameter, Executable call) {
        IllegalArgumentException e = assertTimeoutPreemptively(QUICK,
                () -> assertThrows(IllegalArgumentException.class, call, "should reject, naming " + parameter));
        assertTrue(e.getMessage().matches("(?s).*(?<![A-Za-z0-9_])" + java.util.regex.Pattern.quote(parameter) + "(?![A-Za-z0-9_]).*"),
                "message should name " + parameter + ": " + e.getMessage());
    }

    private static final DelaySystem DECAY = new DelaySystem() { // y' = -y(t - 1)
        @Override
        public int dimension() {
            return 1;
        }

        @Override
        public double[] lags() {
            return new double[] {1.0};
        }

        @Override
        public void derivative(double t, double[] y, double[][] delayed, double[] dydt) {
            dydt[0] = -delayed[0][0];
        }
    };

    // --- hangs on huge counts or tiny steps

    @Test
    void hugeCountsAndTinyStepsAreRejectedUpFront() {
        rejects("tEnd", () -> DdeSolver.rk4(0.1).solve(DECAY, 0, t -> new double[] {1}, 1e300, null));
        rejects("packets", () -> fabriclab.container.ReorderSimulator.builder().delay(new fabriclab.container.DelayModel.Normal(1e-6, 1e-7)).gap(1e-7).paths(4).build().run(Long.MAX_VALUE, 1));
        rejects("m", () -> BallsIntoBins.maxLoad(16, Integer.MAX_VALUE));
        SimulationConfig config = SimulationConfig.defaults(SwitchBuffer.shared(10_000_000));
        rejects("bytesPerSender", () -> new Simulator(Scenario.incast(4, Long.MAX_VALUE, 100_000_000_000L, config)).run());
        rejects("spines", () -> new LeafSpine(16, 8, 2, Integer.MAX_VALUE, 100_000_000_000L, 100_000_000_000L, 1, 1000, 1000).build());
        rejects("grantBytes", () -> new fabriclab.scheduling.DgsqSimulator(new DgsqConfig(100e9, 100e9, 1e-300, 0, 0,
                fabriclab.scheduling.GrantPolicy.values()[0])).run(Incast.of(4, 1_000_000, 100_000_000_000L), 1));
    }

    // --- out of memory on unchecked sizes

    @Test
    void sizesThatWouldExhaustMemoryAreRejected() {
        rejects("maxBytes", () -> PacketSizes.uniform(64, Integer.MAX_VALUE));
        rejects("m", () -> EcmpMonteCarlo.maxCounts(16, Integer.MAX_VALUE, 10, 1));
        rejects("trials", () -> EcmpMonteCarlo.maxCounts(16, 4, Integer.MAX_VALUE, 1));
        rejects("bucketCount", () -> ResilientHashGroup.create(4, Integer.MAX_VALUE));
        Incast incast = Incast.of(4, 1_000_000, 100_000_000_000L);
        rejects("stepS", () -> new PfcIncastSimulator(incast, new Pfc(100_000, 90_000, 50_000, 65535), 1e-6, 1e-300));
    }

    // --- NaN, infinity or negative nonsense returned silently

    @Test
    void noSilentNanInfinityOrOverflow() {
        FlowClass four = FlowClass.of(4);
        rejects("lineRate", () -> four.wireRateCap(Double.NaN));
        rejects("lineRate", () -> four.wireRateCap(-1));
        Bottleneck port = Bottleneck.of(40e9);
        DcqcnParameters z = DcqcnParameters.zhu2015();
        for (DcqcnParameters p : List.of(
                new DcqcnParameters(z.marking(), z.g(), z.tauS(), z.tauPrimeS(), z.timerS(), 1e-300, z.fastRecoverySteps(),
                        z.rateAiBitsPerSecond(), z.feedbackDelayS(), z.minRateBitsPerSecond()),
                new DcqcnParameters(z.marking(), z.g(), z.tauS(), z.tauPrimeS(), z.timerS(), z.byteCounterBytes(),
                        z.fastRecoverySteps(), Double.MAX_VALUE, z.feedbackDelayS(), z.minRateBitsPerSecond()))) {
            // either rejected naming the field, or a trajectory without NaN
            try {
                FluidRun r = assertTimeoutPreemptively(QUICK,
                        () -> DcqcnFluidModel.of(p, port, 4).simulate(2e-4, 1e-6, 1e-5, Progress.silent()));
                for (var c : r.trajectory().columns()) {
                    if (c instanceof tech.tablesaw.api.DoubleColumn d) {
                        for (double v : d.asDoubleArray()) {
                            assertTrue(Double.isFinite(v), c.name() + " has " + v);
                        }
                    }
                }
            } catch (IllegalArgumentException e) {
                assertTrue(e.getMessage().contains("byteCounterBytes") || e.getMessage().contains("rateAiBitsPerSecond"),
                        e.getMessage());
            }
        }
        DcqcnParameters tinyTimer = new DcqcnParameters(z.marking(), z.g(), z.tauS(), z.tauPrimeS(), 1e-300, z.byteCounterBytes(),
                z.fastRecoverySteps(), z.rateAiBitsPerSecond(), z.feedbackDelayS(), z.minRateBitsPerSecond());
        rejects("stepS", () -> DcqcnFluidModel.of(tinyTimer, port, 4).simulate(2e-4, 1e-6, 1e-5, Progress.silent()));
        AllReduceLatency lat = new AllReduceLatency(1e-6, 1e-6, 1e-6, 1e-6, 100, 2);
        rejects("nodes", () -> lat.rounds(AllReduceLatency.Algorithm.RING, Integer.MAX_VALUE));
        rejects("cellHeaderBytes", () -> Spraying.cellUnits(new int[] {1500}, 256, Integer.MAX_VALUE));
        rejects("bufferBytes", () -> new GseVsRoceJct(2.0).run(fabriclab.collectives.Collective.ALL_TO_ALL, Long.MAX_VALUE,
                RoceOrGse.ROCE, 1));
        rejects("bytesPerRank", () -> new Llama2Fabric(2.0).communication(Llama2Fabric.Case.values()[0], RoceOrGse.GSE,
                Long.MAX_VALUE, 1));
        assertEquals(1.0, BallsIntoBins.maxLoad(8, 4).probabilityAtLeast(Integer.MIN_VALUE));
    }

    @Test
    void aggregationAtAVanishingLoadWaitsCorrespondinglyLongOrIsRejected() {
        // the wait moments scale as 1 / lambda, lambda = load R / (8 P): std(load) = std(1) / load exactly
        fabriclab.container.OverheadModel m = fabriclab.container.OverheadModel.defaults();
        PacketSizes p = PacketSizes.fixed(256);
        var one = m.aggregation(p, 1);
        var tiny = m.aggregation(p, 1e-300);
        assertTrue(one.stdAddedLatency() > 0, "a frame holds several 256 B packets");
        assertEquals(one.stdAddedLatency() * 1e300, tiny.stdAddedLatency(), 1e-12 * tiny.stdAddedLatency());
        assertTrue(Double.isFinite(tiny.meanAddedLatency()) && tiny.meanAddedLatency() > one.meanAddedLatency());
        rejects("load", () -> m.aggregation(p, Double.MIN_VALUE));
    }

    // --- unclear exceptions

    @Test
    void messagesNameTheParameterTheCallerPassed() throws Exception {
        rejects("durationS", () -> DcqcnSweeps.oscillation(DcqcnParameters.zhu2015(), Bottleneck.of(40e9), new int[] {2},
                new double[] {1e-6}, 1e-300, Progress.silent()));
        rejects("classes", () -> new DcqcnFluidModel(DcqcnParameters.zhu2015(), Bottleneck.of(40e9),
                java.util.Arrays.asList(FlowClass.of(2), null)));
    }

    // --- invalid input accepted

    @Test
    void invalidInputIsNotAccepted() {
        rejects("usedFraction", () -> new PolarizationResult(1, 4, Double.NaN, 1, new int[] {1, 1, 1, 1}));
        rejects("tier", () -> new PolarizationResult(-1, 4, 0.5, 1, new int[] {1, 1, 1, 1}));
        rejects("announceS", () -> fabriclab.telemetry.PathSelectionExperiment.paper(0.1).toBuilder().announceS(Double.NaN).build());
        rejects("sampleS", () -> fabriclab.telemetry.PathSelectionExperiment.paper(0.1).toBuilder()
                .sampleS(Double.POSITIVE_INFINITY).build());
        EcnThresholdTuning tuning = new EcnThresholdTuning(DcqcnParameters.zhu2015(), Bottleneck.of(40e9),
                List.of(FlowClass.of(4)), 1e-4, 1e-6, 10);
        rejects("kMinBytes", () -> tuning.grid(new double[] {Double.NaN}, new double[] {100e3}, new double[] {0.01},
                Progress.silent()));
    }

    // --- "never" said with a type, not with NaN

    @Test
    void neverIsAnEmptyOptional() {
        // 400G into a 100G bottleneck fills 100 KB (XOFF) after 8 * 100e3 / 300e9 = 2.7 us: a 1 us run never pauses
        fabriclab.flowcontrol.PausePropagationSimulator.Result r = new fabriclab.flowcontrol.PausePropagationSimulator(3, 400e9, 0,
                400e9, 100e9, new Pfc(100_000, 80_000, 50_000, Pfc.MAX_QUANTA), 1e-6, 1e-7).run(1e-6, 1);
        assertTrue(r.sendersStopS().isEmpty());
        assertTrue(r.firstPauseS().stream().allMatch(java.util.OptionalDouble::isEmpty));
    }

    // --- model bugs

    @Test
    void oneDcqcnFlowHasNoStandingQueue() {
        DcqcnFixedPoint fp = DcqcnFixedPoint.solve(DcqcnParameters.zhu2015(), Bottleneck.of(40e9), 1);
        assertEquals(0.0, fp.queueBytes()); // one flow is capped at line rate: the queue never grows
        assertEquals(40e9, fp.rateBitsPerSecond());
    }

    @Test
    void moreFlowsPerPathThanFlowsHasProbabilityZero() {
        assertEquals(0.0, BallsIntoBins.probabilityAnyPathAtLeast(2, 2, 3));
    }
}
