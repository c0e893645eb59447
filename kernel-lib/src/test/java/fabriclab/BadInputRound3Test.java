package fabriclab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.simulation.Simulator;
import fabriclab.fabric.LeafSpine;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Time;
import fabriclab.simulation.Scenario;
import fabriclab.simulation.config.FlowSpec;
import fabriclab.simulation.config.SimulationConfig;
import fabriclab.simulation.config.SwitchBuffer;
import fabriclab.training.Accelerator;
import fabriclab.training.CommTimer;
import fabriclab.training.IterationTimeline;
import fabriclab.training.ParallelLayout;
import fabriclab.training.TrainingJob;
import fabriclab.training.TransformerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Issue 39, item 1: library entry points that took extreme values without a word. */
class BadInputRound3Test {
    private static final long G100 = 100_000_000_000L;

    /** Fails unless {@code call} throws an IllegalArgumentException whose message holds every one of {@code parts}. */
    private static void refused(Executable call, String... parts) {
        String m = assertThrows(IllegalArgumentException.class, call).getMessage();
        for (String p : parts) {
            assertTrue(m.contains(p), "\"" + p + "\" in: " + m);
        }
    }

    @Test
    void pfcWhoseXoffPlusHeadroomOverflowsIsRefused() {
        Pfc pfc = new Pfc(1000, 500, Long.MAX_VALUE, 65535);
        LeafSpine f = new LeafSpine(4, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
        refused(() -> Scenario.builder(f.build(), SimulationConfig.defaults(SwitchBuffer.shared(10_000_000)))
                .flow(FlowSpec.of(0, 2, 1000, 0)).pfc(pfc).build(), "pfc.headroomBytes", "9999000", "" + Long.MAX_VALUE);
    }

    @Test
    void microsBeyondALongOfPicosecondsIsRefused() {
        refused(() -> Time.micros(1e13), "us", "1.0E13");
        // the largest accepted value still converts: 9.2e6 us is 106 days
        assertTrue(Time.micros(Time.MAX_MICROS) > 0);
        assertEquals(1_500_000L, Time.micros(1.5));
    }

    @Test
    void aSpeedupBeyondAPetabitUplinkIsRefused() {
        refused(() -> LeafSpine.withSpeedup(4, 1, 2, 2, G100, 1e300, 1, Time.US, Time.US), "speedup", "1.0E300");
        // 2 NICs per leaf at 100G over 2 spines: speedup 1 is a 100G uplink, and 10,000 is 1 Pbit/s, the limit
        assertEquals(G100, LeafSpine.withSpeedup(4, 1, 2, 2, G100, 1, 1, Time.US, Time.US).uplinkRateBitsPerSecond());
        assertEquals(1_000_000_000_000_000L,
                LeafSpine.withSpeedup(4, 1, 2, 2, G100, 10_000, 1, Time.US, Time.US).uplinkRateBitsPerSecond());
        refused(() -> LeafSpine.withSpeedup(4, 1, 2, 2, G100, 10_001, 1, Time.US, Time.US), "speedup", "10001");
    }

    @Test
    void leafOfAHostOutsideTheFabricIsRefused() {
        LeafSpine f = new LeafSpine(16, 1, 4, 2, G100, G100, 1, Time.US, Time.US);
        refused(() -> f.leafOf(-1), "host", "-1", "15");
        refused(() -> f.leafOf(16), "host", "16", "15");
        assertEquals(3, f.leafOf(15));
    }

    @Test
    void secondsOfAStageThatDoesNotExistIsRefused() {
        ParallelLayout l = new ParallelLayout(4, 1, 1, 1, 4, 0, 1);
        IterationTimeline t = IterationTimeline.schedule(new TrainingJob(TransformerConfig.llama2x13b(4096), l, 4),
                Accelerator.A100, 0.5, CommTimer.nonBlocking(1, 200e9, 1e12), 1e12);
        refused(() -> t.seconds(IterationTimeline.Kind.values()[0], 99), "stage", "99");
        refused(() -> t.seconds(IterationTimeline.Kind.values()[0], -1), "stage", "-1");
    }

    @Test
    void computeTimeBeyondADoubleIsRefused() {
        refused(() -> Accelerator.H800.seconds(1e308, 1e-300), "flops", "1.0E308", "1.0E-300");
        assertTrue(Double.isFinite(Accelerator.H800.seconds(1e308, 1)));
    }

    /** Issue 39, item 4: errors that did not say what was wrong. */
    @Test
    void aPauseLongerThanALongOfPicosecondsNamesTheRate() {
        // 65535 x 512 bit x 1e12 ps/s = 3.36e19 > 2^63 - 1 = 9.22e18: at least 4 bit/s
        refused(() -> Pfc.quantaPs(65535, 1), "rateBitsPerSecond", "at least 4", "got 1");
        assertEquals(8_388_480_000_000_000_000L, Pfc.quantaPs(65535, 4));
    }

    @Test
    void datasetsListOfNullNamesTheParameter() {
        String m = assertThrows(IllegalArgumentException.class, () -> fabriclab.datasets.Datasets.list(null)).getMessage();
        assertTrue(m != null && m.contains("root"), m);
    }

    @Test
    void aSweepRefusesMoreThreadsThanItsLimit() {
        refused(() -> fabriclab.sweep.Sweep.run("x", java.util.List.of(1, 2), p -> p, Integer.MAX_VALUE,
                fabriclab.progress.Progress.silent()), "threads", "" + Integer.MAX_VALUE, "1024");
        refused(() -> new fabriclab.sweep.LocalThreads(fabriclab.sweep.Sweep.MAX_THREADS + 1), "threads", "1025");
    }

    /** Issue 39, item 3: sizes refused before anything is built, instead of an OutOfMemoryError. */
    @Test
    void collectiveSchedulesBeyondTheirTransferLimitAreRefused() {
        refused(() -> fabriclab.collectives.CollectiveSchedule.of(
                fabriclab.collectives.Collective.HALVING_DOUBLING_ALL_REDUCE, 1 << 30, 1L << 40),
                "ranks", "16,777,216", "got 1073741824", "60 per rank");
        refused(() -> fabriclab.collectives.CollectiveSchedule.of(fabriclab.collectives.Collective.ALL_TO_ALL, 100_000,
                1_000_000_000_000L), "ranks", "got 100000", "99999 per rank");
        // p (p - 1) <= 2^24 up to p = 4096: 4097 x 4096 = 16,781,312 is one rank too many
        refused(() -> fabriclab.collectives.CollectiveSchedule.pairwiseAllToAll(4097, 1L << 20), "ranks", "got 4097",
                "16,781,312");
        assertEquals(2 * 2 * 3, fabriclab.collectives.CollectiveSchedule.of(fabriclab.collectives.Collective.RING_ALL_REDUCE,
                3, 3).transfers().size());
    }

    @Test
    void anIterationOfTooManyTasksIsRefused() {
        for (int microBatches : new int[] {1_000_000, 20_000_000}) {
            ParallelLayout l = new ParallelLayout(4, 1, 1, 1, 4, 0, microBatches);
            TrainingJob job = new TrainingJob(TransformerConfig.llama2x13b(4096), l, 4 * microBatches);
            // one stage, no ZeRO-3: 2 passes x m micro-batches x (4 + 2) tasks bound the iteration
            refused(() -> IterationTimeline.schedule(job, Accelerator.A100, 0.5, CommTimer.nonBlocking(1, 200e9, 1e12), 1e12),
                    "job", "1,000,000 tasks", "microBatches " + microBatches);
        }
    }

    @Test
    void aFluidTrajectoryBeyondItsValueLimitIsRefused() {
        fabriclab.congestion.DcqcnFluidModel m = fabriclab.congestion.DcqcnFluidModel.of(
                fabriclab.congestion.DcqcnParameters.zhu2015(), fabriclab.congestion.Bottleneck.of(40e9), 10);
        // 0.1 s / 1 ns = 1e8 rows of 7 columns (time, a class's rate, target and alpha, queue, marking, pause)
        refused(() -> m.simulate(0.1, 1e-9, 1e-9, fabriclab.progress.Progress.silent()), "sampleEveryS", "10,000,000",
                "7 columns", "got 1.0E-9");
    }

    /** Issue 39, item 4: times that wrapped past a long of picoseconds deep in the event queue, refused up front. */
    @Test
    void timesBeyondALongOfPicosecondsAreRefusedNamingTheParameter() {
        LeafSpine f = new LeafSpine(4, 1, 2, 2, G100, G100, 1, Time.US, Time.US);
        SimulationConfig config = SimulationConfig.defaults(SwitchBuffer.shared(16_000_000));
        refused(() -> Scenario.builder(f.build(), config).flow(FlowSpec.of(0, 2, 100_000, Long.MAX_VALUE - 1_000_000)).build(),
                "flows[0].startPs", "2^62", "" + (Long.MAX_VALUE - 1_000_000));
        refused(() -> new LeafSpine(4, 1, 2, 2, G100, G100, 1, Long.MAX_VALUE / 2, Time.US), "hostPropagationPs",
                "1000000000000000", "" + Long.MAX_VALUE / 2);
        refused(() -> new LeafSpine(4, 1, 2, 2, G100, G100, 1, Time.US, Long.MAX_VALUE / 2), "fabricPropagationPs");
        refused(() -> new fabriclab.fabric.LinkSpec(0, 1, G100, Long.MAX_VALUE / 2), "propagationPs");
        refused(() -> Scenario.builder(f.build(), config).flow(FlowSpec.of(0, 2, 100_000, 0))
                .fabricJitter(new fabriclab.container.DelayModel.Normal(1e300, 0)).build(), "fabricJitter", "1000 s", "1.0E300");
        // the largest accepted start and delays leave the run its room: RoCE with PFC delivers the flow
        LeafSpine far = new LeafSpine(4, 1, 2, 2, G100, G100, 1, fabriclab.fabric.LinkSpec.MAX_PROPAGATION_PS,
                fabriclab.fabric.LinkSpec.MAX_PROPAGATION_PS);
        fabriclab.simulation.SimulationResult r = new Simulator(Scenario.builder(far.build(), config)
                .flow(FlowSpec.of(0, 2, 100_000, Scenario.MAX_START_PS))
                .transport(fabriclab.simulation.transport.roce.RoceTransport.noCongestionControl())
                .pfc(new Pfc(20_000, 10_000, 0, Pfc.MAX_QUANTA)).build()).run();
        assertTrue(r.flows().get(0).completed());
        // four 1000 s links from host 0 to host 2 (host, leaf-spine, spine-leaf, host) after the start: at least 4000 s
        assertTrue(r.completedAtPs(0) >= Scenario.MAX_START_PS + 4 * fabriclab.fabric.LinkSpec.MAX_PROPAGATION_PS);
    }

    @Test
    void anEventTimeThatWrapsSaysSo() {
        fabriclab.simulation.event.EventQueue q = new fabriclab.simulation.event.EventQueue();
        q.schedule(Long.MAX_VALUE - 10, (t, p) -> { }, null);
        q.poll();
        long wrapped = Long.MAX_VALUE - 10 + 20;
        refused(() -> q.schedule(wrapped, (t, p) -> { }, null), "timePs", "2^63 - 1 ps", "wrapped", "" + wrapped);
    }
}
