package fabriclab.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class TransformerConfigTest {
    @Test
    void llama2x13bHasThirteenBillionParameters() {
        // by hand: attention 4 x 5120^2 = 104,857,600; SwiGLU 3 x 5120 x 13824 = 212,336,640; two norms 10,240;
        // one layer 317,204,480; 40 layers 12,688,179,200; embedding + head 2 x 32000 x 5120 = 327,680,000;
        // final norm 5,120; total 13,015,864,320 (the count of the released checkpoint)
        TransformerConfig c = TransformerConfig.llama2x13b(4096);
        assertEquals(13_015_864_320.0, c.parameters(), 0.5);
        assertEquals(13.0e9, c.parameters(), 0.01 * 13.0e9);
        assertEquals(13_015_864_320.0 - 163_840_000.0, c.matmulParameters(), 0.5);
    }

    @Test
    void flopsPerTokenAreSixNPlusAttention() {
        TransformerConfig c = TransformerConfig.llama2x13b(4096);
        // 6 x 12,852,024,320 = 77,112,145,920; 12 x 40 x 5120 x 4096 = 10,066,329,600
        assertEquals(87_178_475_520.0, c.trainingFlopsPerToken(), 1.0);
        double sixN = 6 * 13_015_864_320.0;
        assertEquals(1.1163, c.trainingFlopsPerToken() / sixN, 1e-4);
        // one-token sequences: attention is 12 L h = 2,457,600 FLOPs and the rest is 6N minus the embedding lookup
        TransformerConfig one = TransformerConfig.llama2x13b(1);
        assertEquals(1 - 163_840_000.0 / 13_015_864_320.0 + 2_457_600.0 / sixN, one.trainingFlopsPerToken() / sixN, 1e-9);
        assertEquals(4096 * c.trainingFlopsPerToken(), c.trainingFlopsPerSample(), 1.0);
    }

    @Test
    void agreesWithNarayanansClosedFormForAGptShapedModel() {
        // Narayanan et al. SC'21 eq. (3) without recomputation (x 3/4): 72 B s l h^2 (1 + s/(6h) + V/(12 l h)) for a
        // model whose MLP has 8 h^2 parameters; a SwiGLU of width f = 8h/3 has the same: h = 768, f = 2048
        int l = 12;
        int h = 768;
        int s = 1024;
        int v = 50257;
        TransformerConfig c = new TransformerConfig(l, h, 12, 2048, v, s);
        double narayanan = 72.0 * s * l * h * h * (1 + s / (6.0 * h) + v / (12.0 * l * h));
        assertEquals(narayanan, c.trainingFlopsPerSample(), 1e-3 * narayanan); // norms are the only difference
    }

    @Test
    void rejectsBadShapesNamingTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TransformerConfig.llama2x13b(0)).getMessage()
                .contains("sequenceLength"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new TransformerConfig(40, 5120, 3, 13824, 32000, 4096))
                .getMessage().contains("heads"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TransformerConfig.llama2x13b(4096).activationBytesPerSample(0))
                .getMessage().contains("bytesPerValue"));
    }

    @Test
    void acceleratorSecondsAreFlopsOverPeakTimesEfficiency() {
        assertEquals(1.0, Accelerator.A100.seconds(312e12 * 0.5, 0.5), 1e-12);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Accelerator.A100.seconds(1, 0)).getMessage()
                .contains("efficiency"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Accelerator.H800.seconds(1, 1.5)).getMessage()
                .contains("efficiency"));
        assertEquals(4, Accelerator.candidates().size());
    }
}
