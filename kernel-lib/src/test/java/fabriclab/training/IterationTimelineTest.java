package fabriclab.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import static fabriclab.TestArguments.refused;

class IterationTimelineTest {
    private static final TransformerConfig LLAMA = TransformerConfig.llama2x13b(4096);
    private static final double PEAK = 312e12;
    private static final double EFF = 0.5;
    /** By hand: F_sample = 4096 x 87,178,475,520 FLOPs (TransformerConfigTest). */
    private static final double F_SAMPLE = 4096 * 87_178_475_520.0;
    private static final double N = 13_015_864_320.0;

    private static IterationTimeline schedule(ParallelLayout l, int batch, CommTimer timer, double bucket) {
        return IterationTimeline.schedule(new TrainingJob(LLAMA, l, batch), Accelerator.A100, EFF, timer, bucket);
    }

    @Test
    void oneBucketMeansNoOverlap() {
        // 4 single-GPU servers, DP 4, one sample each; the gradient all-reduce after the backward
        ParallelLayout l = new ParallelLayout(4, 1, 1, 1, 4, 0, 1);
        IterationTimeline t = schedule(l, 4, CommTimer.nonBlocking(1, 200e9, 1e12), 1e12);
        double fwd = F_SAMPLE / 3 / (PEAK * EFF);
        double ar = 2 * 3 / 4.0 * 2 * N * 8 / 200e9;
        assertEquals(fwd + 2 * fwd + ar, t.iterationSeconds(), 1e-9 * t.iterationSeconds());
        assertEquals(4 / (3 * fwd + ar), t.samplesPerSecond(), 1e-9);
        assertEquals(4 * F_SAMPLE / (t.iterationSeconds() * 4 * PEAK), t.mfu(), 1e-12);
    }

    @Test
    void bucketsOverlapTheBackwardInBothRegimes() {
        ParallelLayout l = new ParallelLayout(4, 1, 1, 1, 4, 0, 1);
        double fwd = F_SAMPLE / 3 / (PEAK * EFF);
        double bwd = 2 * fwd;
        double bucket = IterationTimeline.DDP_BUCKET_BYTES;
        int k = (int) Math.ceil(2 * N / bucket);
        // communication-bound (slow NICs): the first bucket's backward, then every bucket back to back
        double slow = 2 * 3 / 4.0 * 2 * N * 8 / 10e9;
        assertTrue(slow / k > bwd / k);
        assertEquals(fwd + bwd / k + slow, schedule(l, 4, CommTimer.nonBlocking(1, 10e9, 1e12), bucket).iterationSeconds(),
                1e-9 * slow);
        // compute-bound (fast NICs): the whole backward, then the last bucket
        double fast = 2 * 3 / 4.0 * 2 * N * 8 / 1e15;
        assertEquals(fwd + bwd + fast / k, schedule(l, 4, CommTimer.nonBlocking(1, 1e15, 1e12), bucket).iterationSeconds(),
                1e-9 * bwd);
    }

    @Test
    void oneFOneBPipelineWithoutCommunicationTakesMPlusPMinusOneSlots() {
        CommTimer free = (p, g, b) -> 0;
        for (int pp : new int[] {1, 2, 4, 8}) {
            for (int m : new int[] {1, 3, 8}) {
                ParallelLayout l = new ParallelLayout(pp, 1, 1, pp, 1, 0, m);
                IterationTimeline t = schedule(l, m, free, IterationTimeline.DDP_BUCKET_BYTES);
                double slot = F_SAMPLE / pp / (PEAK * EFF); // forward + backward of one sample on one stage
                assertEquals((m + pp - 1) * slot, t.iterationSeconds(), 1e-9 * slot * (m + pp), "PP " + pp + " m " + m);
            }
        }
    }

    @Test
    void overlapNeverBeatsTheComputeOrTheCriticalCommunication() {
        CommTimer timer = CommTimer.nonBlocking(8, 200e9, 200e9);
        List<ParallelLayout> layouts = List.of(ParallelLayout.of(32, 8, 8, 1, 0, 1), ParallelLayout.of(32, 8, 1, 1, 3, 2),
                ParallelLayout.of(32, 8, 2, 2, 1, 4), ParallelLayout.of(32, 8, 4, 4, 0, 8), ParallelLayout.of(32, 8, 1, 2, 3, 2));
        for (ParallelLayout l : layouts) {
            int batch = l.dataParallel() * l.microBatches();
            IterationTimeline t = schedule(l, batch, timer, IterationTimeline.DDP_BUCKET_BYTES);
            double sum = t.intervals().stream().mapToDouble(IterationTimeline.Interval::seconds).sum();
            assertTrue(t.iterationSeconds() <= sum * (1 + 1e-12), l.label());
            for (double busy : t.laneBusySeconds().values()) {
                assertTrue(t.iterationSeconds() >= busy * (1 - 1e-12), l.label());
            }
            for (int s = 0; s < l.pipelineParallel(); s++) {
                double compute = t.seconds(IterationTimeline.Kind.COMPUTE, s);
                double fullCompute = l.microBatches() * F_SAMPLE * (batch / (l.dataParallel() * l.microBatches()))
                        / (l.tensorParallel() * l.pipelineParallel() * PEAK * EFF);
                assertEquals(fullCompute, compute, 1e-9 * compute, l.label());
                assertTrue(t.iterationSeconds() >= compute + t.seconds(IterationTimeline.Kind.TENSOR_PARALLEL, s) - 1e-12);
                assertTrue(t.iterationSeconds() >= t.seconds(IterationTimeline.Kind.DATA_PARALLEL, s) - 1e-12);
                // one stream never runs two intervals at once (compute and TP share the compute stream)
                List<IterationTimeline.Interval> stream = new ArrayList<>();
                for (IterationTimeline.Interval i : t.intervals()) {
                    if (i.stage() == s && (i.kind() == IterationTimeline.Kind.COMPUTE || i.kind() == IterationTimeline.Kind.TENSOR_PARALLEL)) {
                        stream.add(i);
                    }
                }
                stream.sort(Comparator.comparingDouble(IterationTimeline.Interval::startS));
                for (int i = 1; i < stream.size(); i++) {
                    assertTrue(stream.get(i).startS() >= stream.get(i - 1).endS() - 1e-12, l.label());
                }
            }
        }
    }

    @Test
    void hierarchicalCollectivesSendTheFlatRingsBytesButOnlyAShareThroughTheNic() {
        // DP 32 over 4 servers of 8: k = 8 per server, n = 4 servers
        int[][] group = {java.util.stream.IntStream.range(0, 32).toArray()};
        double s = 1e9;
        double intra = 100e9;
        double nic = 200e9;
        double t = CommTimer.nonBlocking(8, nic, intra).seconds(CommOp.Primitive.ALL_REDUCE, group, s);
        assertEquals(2 * 7 / 8.0 * s / intra + 2 * 3 / 4.0 * (s / 8) * 8 / nic, t, 1e-15);
        assertEquals(2 * 31 / 32.0, 2 * 7 / 8.0 + 2 * 3 / 4.0 / 8, 1e-15); // same bytes as the flat ring
        // a group inside one server: NVLink only; a rail (one rank per server): NIC only
        assertEquals(2 * 7 / 8.0 * s / intra, CommTimer.nonBlocking(8, nic, intra).seconds(CommOp.Primitive.ALL_REDUCE,
                new int[][] {{8, 9, 10, 11, 12, 13, 14, 15}}, s), 1e-15);
        assertEquals(3 / 4.0 * s * 8 / nic, CommTimer.nonBlocking(8, nic, intra).seconds(CommOp.Primitive.REDUCE_SCATTER,
                new int[][] {{1, 9, 17, 25}}, s), 1e-15);
        String m = assertThrows(IllegalArgumentException.class, () -> CommTimer.nonBlocking(8, nic, intra)
                .seconds(CommOp.Primitive.ALL_REDUCE, new int[][] {{0, 1, 9}}, s)).getMessage();
        assertTrue(m.contains("hostGroups"), m);
    }

    @Test
    void rejectsBadInputsNamingTheParameter() {
        ParallelLayout l = ParallelLayout.of(32, 8, 8, 1, 0, 1);
        TrainingJob j = new TrainingJob(LLAMA, l, 32);
        CommTimer ok = CommTimer.nonBlocking(8, 200e9, 200e9);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> IterationTimeline.schedule(j, Accelerator.A100, 0, ok, 1e8))
                .getMessage().contains("computeEfficiency"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> IterationTimeline.schedule(j, Accelerator.A100, 0.5, ok, 10))
                .getMessage().contains("bucketBytes"));
        String m = assertThrows(IllegalStateException.class, () -> IterationTimeline.schedule(j, Accelerator.A100, 0.5,
                (p, g, b) -> Double.NaN, 1e8)).getMessage();
        assertTrue(m.contains("CommTimer returned NaN"), m);
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
    void anIterationOfTooManyTasksIsRefused() {
        for (int microBatches : new int[] {1_000_000, 20_000_000}) {
            ParallelLayout l = new ParallelLayout(4, 1, 1, 1, 4, 0, microBatches);
            TrainingJob job = new TrainingJob(TransformerConfig.llama2x13b(4096), l, 4 * microBatches);
            // one stage, no ZeRO-3: 2 passes x m micro-batches x (4 + 2) tasks bound the iteration
            refused(() -> IterationTimeline.schedule(job, Accelerator.A100, 0.5, CommTimer.nonBlocking(1, 200e9, 1e12), 1e12),
                    "job", "1,000,000 tasks", "microBatches " + microBatches);
        }
    }
}
