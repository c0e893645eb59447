package fabriclab.training;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ParallelLayoutTest {
    private static String message(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    void badLayoutsFailNamingTheParameter() {
        String m = message(() -> new ParallelLayout(32, 8, 8, 1, 2, 0, 1));
        assertTrue(m.contains("tensorParallel x pipelineParallel x dataParallel must equal gpus = 32") && m.contains("= 16"), m);
        m = message(() -> ParallelLayout.of(32, 12, 4, 1, 0, 1));
        assertTrue(m.contains("gpusPerServer must divide gpus"), m);
        m = message(() -> ParallelLayout.of(48, 8, 12, 1, 0, 1));
        assertTrue(m.contains("tensorParallel must divide gpusPerServer = 8 or be a multiple of it") && m.contains("got 12"), m);
        assertTrue(message(() -> new ParallelLayout(32, 8, 2, 2, 8, 1, 4, null)).contains("placement"));
        m = message(() -> ParallelLayout.of(32, 8, 4, 3, 0, 1));
        assertTrue(m.contains("tensorParallel x pipelineParallel must divide gpus = 32"), m);
        assertTrue(message(() -> ParallelLayout.of(32, 8, 8, 1, 4, 1)).contains("zeroStage"));
        assertTrue(message(() -> ParallelLayout.of(32, 8, 8, 1, 0, 0)).contains("microBatches"));
        ParallelLayout l = ParallelLayout.of(32, 8, 8, 1, 0, 1);
        TransformerConfig c = TransformerConfig.llama2x13b(4096);
        m = message(() -> new TrainingJob(c, l, 0));
        assertTrue(m.contains("globalBatch"), m);
        m = message(() -> new TrainingJob(c, l, 6));
        assertTrue(m.contains("globalBatch must be a multiple of dataParallel x microBatches = 4 x 1 = 4, got 6"), m);
        m = message(() -> new TrainingJob(c, ParallelLayout.of(32, 8, 1, 32, 0, 1), 32));
        assertTrue(m.contains("pipelineParallel must divide the model's layers = 40"), m);
    }

    @Test
    void placementPutsTensorGroupsInAServerAndDataGroupsAcrossServers() {
        ParallelLayout l = ParallelLayout.of(32, 8, 8, 1, 0, 1);
        assertEquals(4, l.dataParallel());
        assertArrayEquals(new int[] {3, 11, 19, 27}, l.dataGroups(0)[3]);
        assertArrayEquals(new int[] {8, 9, 10, 11, 12, 13, 14, 15}, l.tensorGroups(0)[1]);
        assertTrue(l.insideOneServer(l.tensorGroups(0)[1]));
        assertFalse(l.insideOneServer(l.dataGroups(0)[0]));
        ParallelLayout p = ParallelLayout.of(32, 8, 2, 4, 0, 8); // stages of 8 GPUs = one server each
        assertArrayEquals(new int[] {5, 13}, p.pipelinePairs(0)[5]);
        assertTrue(p.insideOneServer(p.dataGroups(2)[1]));
    }

    @Test
    void dataFirstPlacementPutsTensorGroupsAcrossServers() {
        // TP 8, DP 4, data-first: host = t DP + d, so TP group d is {d, d + 4, ..., d + 28}: two GPUs in each of 4 servers
        ParallelLayout l = ParallelLayout.of(32, 8, 8, 1, 1, 8, ParallelLayout.Placement.DATA_FIRST);
        assertArrayEquals(new int[] {1, 5, 9, 13, 17, 21, 25, 29}, l.tensorGroups(0)[1]);
        assertArrayEquals(new int[] {12, 13, 14, 15}, l.dataGroups(0)[3]);
        assertFalse(l.insideOneServer(l.tensorGroups(0)[0]));
        assertTrue(l.insideOneServer(l.dataGroups(0)[0]));
        assertTrue(l.label().endsWith(" DP-first"));
        // every host exactly once
        boolean[] seen = new boolean[32];
        for (int[] g : l.tensorGroups(0)) {
            for (int h : g) {
                assertFalse(seen[h]);
                seen[h] = true;
            }
        }
        // with stages: TP 2, PP 2, DP 8, stage 1 starts at host 16; TP group 3 of stage 1 is {16 + 3, 16 + 8 + 3}
        ParallelLayout p = ParallelLayout.of(32, 8, 2, 2, 0, 4, ParallelLayout.Placement.DATA_FIRST);
        assertArrayEquals(new int[] {19, 27}, p.tensorGroups(1)[3]);
        assertArrayEquals(new int[] {5, 21}, p.pipelinePairs(0)[10]); // pair index d TP + t = 5 x 2 + 0: TP rank 0, DP rank 5
        // tensor-first TP filling two whole servers is a layout; its TP group spans them
        ParallelLayout wide = ParallelLayout.of(32, 8, 16, 1, 0, 1);
        assertFalse(wide.insideOneServer(wide.tensorGroups(0)[0]));
        // the default order is unchanged: tensor-first, no suffix
        assertEquals(ParallelLayout.Placement.TENSOR_FIRST, new ParallelLayout(32, 8, 2, 2, 8, 1, 4).placement());
        assertEquals("TP2 PP2 DP8 ZeRO1 m4", new ParallelLayout(32, 8, 2, 2, 8, 1, 4).label());
        assertEquals(new ParallelLayout(16, 8, 2, 2, 4, 1, 4, ParallelLayout.Placement.DATA_FIRST),
                new ParallelLayout(32, 8, 2, 2, 8, 1, 4, ParallelLayout.Placement.DATA_FIRST).withData(16, 4));
    }

    @Test
    void collectiveBytesFollowTheClosedForms() {
        TransformerConfig c = TransformerConfig.llama2x13b(4096);
        double n = 13_015_864_320.0;
        double act = 4096.0 * 5120 * 2; // one sample's layer output in bf16
        // TP 4, PP 2, DP 4, ZeRO 3, 4 micro-batches of 2 samples (B = 32)
        TrainingJob j = new TrainingJob(c, ParallelLayout.of(32, 8, 4, 2, 3, 4), 32);
        assertEquals(2, j.microBatchSize());
        Map<String, CommOp> ops = j.collectives().stream().collect(Collectors.toMap(CommOp::name, Function.identity()));
        CommOp tp = ops.get("TP all-reduce (forward)");
        assertEquals(2 * 20 * 4, tp.perIteration()); // 2 per layer, 20 layers per stage, 4 micro-batches
        assertEquals(2 * 3 / 4.0 * 2 * act, tp.bytesSentPerRank(), 1e-6);
        assertFalse(tp.onFabric());
        CommOp pp = ops.get("PP activations");
        assertEquals(2 * act / 4, pp.bytesSentPerRank(), 1e-6);
        assertTrue(pp.onFabric()); // stage 0 = servers 0-1, stage 1 = servers 2-3
        CommOp ag = ops.get("ZeRO-3 parameter all-gather (forward)");
        double g = 2 * n / (4 * 2);
        assertEquals(3 / 4.0 * g, ag.bytesSentPerRank(), 1e-3);
        assertEquals(4, ag.perIteration());
        assertEquals(4 * 3 / 4.0 * g, ops.get("ZeRO-3 gradient reduce-scatter").bytesSentPerIteration(), 1e-2);
        // ZeRO 0: one all-reduce of the gradients, 2 (p-1)/p G; ZeRO 1: reduce-scatter + all-gather, the same total
        TrainingJob z0 = new TrainingJob(c, ParallelLayout.of(32, 8, 8, 1, 0, 1), 32);
        List<CommOp> o0 = z0.collectives();
        double g8 = 2 * n / 8;
        assertEquals(2 * 3 / 4.0 * g8, o0.stream().filter(o -> o.name().startsWith("DP")).mapToDouble(CommOp::bytesSentPerIteration)
                .sum(), 1e-2);
        TrainingJob z1 = new TrainingJob(c, ParallelLayout.of(32, 8, 8, 1, 1, 1), 32);
        assertEquals(2 * 3 / 4.0 * g8, z1.collectives().stream().filter(o -> o.name().startsWith("DP"))
                .mapToDouble(CommOp::bytesSentPerIteration).sum(), 1e-2);
        assertEquals(4, z1.collectives().size()); // TP forward, TP backward, DP reduce-scatter, DP all-gather; no PP
        // send/recv sends its buffer; one rank alone sends nothing
        assertEquals(5.0, CommOp.Primitive.SEND_RECV.bytesSentPerRank(2, 5.0));
        assertEquals(0.0, CommOp.Primitive.ALL_REDUCE.bytesSentPerRank(1, 5.0));
    }

    @Test
    void aLayoutWithoutPipelineStagesSaysSoInsteadOfAnEmptyRange() {
        ParallelLayout noPipeline = new ParallelLayout(8, 8, 2, 1, 4, 0, 1); // TP 2 x PP 1 x DP 4
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> noPipeline.pipelinePairs(0));
        assertTrue(e.getMessage().contains("no pipeline pairs") && e.getMessage().contains("pipelineParallel = 1"), e.getMessage());
        assertTrue(!e.getMessage().contains("[0, -1]"), e.getMessage());
    }

    @Test
    void pipelinePairsOfTwoStagesPairEachRankWithItsNextStage() {
        // TP 1 x PP 2 x DP 1 on 2 GPUs: one pair, stage 0 -> stage 1, two different hosts
        int[][] pairs = new ParallelLayout(2, 2, 1, 2, 1, 0, 1).pipelinePairs(0);
        assertEquals(1, pairs.length);
        assertEquals(2, pairs[0].length);
        assertTrue(pairs[0][0] != pairs[0][1]);
        assertThrows(IllegalArgumentException.class, () -> new ParallelLayout(2, 2, 1, 2, 1, 0, 1).pipelinePairs(1));
    }
}
