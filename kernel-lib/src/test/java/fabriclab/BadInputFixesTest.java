package fabriclab;

import fabriclab.collectives.LeafSpineBound;
import fabriclab.fabric.LinkSpec;
import fabriclab.fabric.Topology;
import fabriclab.training.ParallelLayout;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The library fixes that came out of giving the NOT FUZZED entry points of BadInputContractTest a start. */
class BadInputFixesTest {

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

    @Test
    void moreHostsThanLinksIsRejectedBeforeTheDefaultNamesAreBuilt() {
        List<LinkSpec> links = List.of(new LinkSpec(0, 2, 1000, 0), new LinkSpec(1, 2, 1000, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Topology("t", Integer.MAX_VALUE, 1, links, List.of(0)));
        assertTrue(e.getMessage().startsWith("hosts must be at most links.size() = 2"), e.getMessage());
        assertEquals(List.of("host0", "host1", "leaf1"), new Topology("t", 2, 1, links, List.of(0)).nodeNames());
    }

    @Test
    void hostsPlusSwitchesIsCountedWithoutOverflow() {
        List<LinkSpec> links = List.of(new LinkSpec(0, 2, 1000, 0), new LinkSpec(1, 2, 1000, 0));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new Topology("t", Integer.MAX_VALUE, 1, links, List.of(0), List.of("a", "b", "s")));
        // 2^31 - 1 hosts + 1 switch = 2^31 nodes, not the int overflow -2^31
        assertTrue(e.getMessage().contains("hosts + switches = 2147483648"), e.getMessage());
    }

    @Test
    void anUnknownNodeIsReportedUnderTheCallersParameter() {
        Topology t = Topology.singleSwitch(2, 1000, 0); // host0, host1, leaf1
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.hasLink("host0", "spine9"));
        assertTrue(e.getMessage().startsWith("b must name a node"), e.getMessage());
        assertTrue(t.hasLink("host0", "leaf1"));
    }

    @Test
    void aLongRingIsOneSharedStepNotACopyPerStep() {
        List<List<LeafSpineBound.Flow>> steps = LeafSpineBound.ringSteps(new int[][] {{0, 1, 2}}, Integer.MAX_VALUE, 10);
        assertEquals(Integer.MAX_VALUE, steps.size());
        // ring of 3: 0 -> 1, 1 -> 2, 2 -> 0, each 10 bytes
        assertEquals(List.of(new LeafSpineBound.Flow(0, 1, 10), new LeafSpineBound.Flow(1, 2, 10), new LeafSpineBound.Flow(2, 0, 10)),
                steps.get(Integer.MAX_VALUE - 1));
    }
}
