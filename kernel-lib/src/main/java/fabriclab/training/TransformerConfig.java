package fabriclab.training;

import fabriclab.Parameters;

/**
 * A decoder-only transformer of the Llama family: its shape, parameter count and training FLOPs.
 *
 * <p>Parameters (Llama architecture: no biases, RMSNorm with one weight vector, SwiGLU MLP with three
 * {@code h x f} matrices, input embedding and output head not tied, multi-head attention with
 * {@code heads} key/value heads, i.e. no grouped-query attention, as in Llama 2 7B and 13B):
 * <pre>
 *   per layer   P_layer = 4 h^2 (Q, K, V, O) + 3 h f (gate, up, down) + 2 h (two RMSNorms)
 *   total       N = L P_layer + 2 V h (embedding + output head) + h (final RMSNorm)
 * </pre>
 *
 * <p>Training FLOPs per token (forward + backward = 3 x forward, a multiply-add counted as 2 FLOPs,
 * the convention of Kaplan et al. 2020 "Scaling laws for neural language models" section 2.1 and of
 * Narayanan et al. SC'21 "Efficient large-scale language model training on GPU clusters using
 * Megatron-LM" section 5.1):
 * <pre>
 *   F_token = 6 N_matmul + 12 L h s
 * </pre>
 * where {@code N_matmul = N - V h} are the parameters that take part in a matrix product (the input
 * embedding is a lookup) and {@code 12 L h s} is attention's score and value products ({@code Q K^T} and
 * {@code A V}: {@code 2 x 2 h s} FLOPs per token per layer forward, times 3), counted over the full
 * {@code s x s} matrix as Narayanan et al. do (no saving for the causal mask). Norms, softmax and
 * activations are left out (under 1%). Activation recomputation is not counted: these are model FLOPs,
 * so {@code F / (time x peak)} is the model FLOPs utilisation (MFU) of Chowdhery et al. 2022 (PaLM,
 * appendix B).
 *
 * @param layers L
 * @param hidden h, the model width
 * @param heads attention heads (must divide h)
 * @param ffn f, the SwiGLU inner width
 * @param vocabulary V
 * @param sequenceLength s, tokens per sample
 */
public record TransformerConfig(int layers, int hidden, int heads, int ffn, int vocabulary, int sequenceLength) implements java.io.Serializable {
    private static final long serialVersionUID = 1L;


    /** Validates the shape. */
    public TransformerConfig {
        Parameters.atLeast("layers", layers, 1);
        Parameters.atLeast("hidden", hidden, 1);
        Parameters.atLeast("heads", heads, 1);
        Parameters.atLeast("ffn", ffn, 1);
        Parameters.atLeast("vocabulary", vocabulary, 1);
        Parameters.atLeast("sequenceLength", sequenceLength, 1);
        if (hidden % heads != 0) {
            throw new IllegalArgumentException("heads must divide hidden = " + hidden + ", got " + heads);
        }
    }

    /**
     * Llama2-13B (Touvron et al. 2023, "Llama 2: Open foundation and fine-tuned chat models",
     * arXiv:2307.09288, table 1 and section 2.2; the released configuration): 40 layers, hidden 5120,
     * 40 heads, SwiGLU width 13824, vocabulary 32000, trained with a 4096-token context.
     *
     * @param sequenceLength tokens per sample (002 does not state it; 4096 is Llama 2's context), at least 1
     */
    public static TransformerConfig llama2x13b(int sequenceLength) {
        return new TransformerConfig(40, 5120, 40, 13824, 32000, sequenceLength);
    }

    /** Parameters of one transformer layer: 4 h^2 + 3 h f + 2 h. */
    public double parametersPerLayer() {
        double h = hidden;
        return 4 * h * h + 3 * h * ffn + 2 * h;
    }

    /** All parameters N = L P_layer + 2 V h + h. */
    public double parameters() {
        return layers * parametersPerLayer() + 2.0 * vocabulary * hidden + hidden;
    }

    /** Parameters that take part in a matrix product: N - V h (the input embedding is a lookup). */
    public double matmulParameters() {
        return parameters() - (double) vocabulary * hidden;
    }

    /** Training (forward + backward) FLOPs per token: 6 N_matmul + 12 L h s [FLOP]. */
    public double trainingFlopsPerToken() {
        return 6 * matmulParameters() + 12.0 * layers * hidden * sequenceLength;
    }

    /** Training FLOPs per sample: s F_token [FLOP]. */
    public double trainingFlopsPerSample() {
        return sequenceLength * trainingFlopsPerToken();
    }

    /**
     * Bytes of one layer's output activations for one sample, {@code s h bytesPerValue}: what a tensor-parallel
     * all-reduce reduces and what a pipeline stage sends to the next [bytes].
     *
     * @param bytesPerValue bytes per activation value (2 for bf16), at least 1
     */
    public double activationBytesPerSample(int bytesPerValue) {
        Parameters.atLeast("bytesPerValue", bytesPerValue, 1);
        return (double) sequenceLength * hidden * bytesPerValue;
    }
}
