package fabriclab.training;

import fabriclab.Parameters;
import java.util.ArrayList;
import java.util.List;

/**
 * A model trained with a parallel layout and a global batch: the work and the traffic of one iteration.
 *
 * <p>Assumptions (stated, not fitted): parameters, gradients and activations travel in bf16
 * ({@link #BYTES_PER_VALUE} = 2 bytes); the layers, their parameters and their FLOPs split evenly over the
 * pipeline stages (the embedding and the output head, 2.5% of Llama2-13B's parameters, are spread with
 * them); the backward pass costs twice the forward; micro-batch size {@code b = B / (DP m)}.
 *
 * <p>Per micro-batch and accelerator: forward FLOPs {@code b F_sample / (3 TP PP)}, backward twice that.
 * Traffic ({@link #collectives()}):
 * <ul>
 *   <li>TP (Megatron-LM, Shoeybi et al. 2019): 2 all-reduces of the layer output ({@code b s h} values) per
 *       layer in the forward pass and 2 in the backward, over the TP group, on the critical path;</li>
 *   <li>PP: each stage boundary sends the activations forward and their gradients back, {@code b s h} values
 *       per micro-batch, split over the TP ranks (the scatter/gather optimisation of Narayanan et al.
 *       SC'21), each TP rank to its peer;</li>
 *   <li>DP, per iteration, over the DP group, on the {@code G = 2 N / (TP PP)} gradient bytes of a GPU:
 *       ZeRO 0: one all-reduce (in buckets, overlapped with the last micro-batch's backward); ZeRO 1/2: a
 *       reduce-scatter (in buckets, overlapped) and an all-gather of the updated parameters; ZeRO 3: per
 *       micro-batch, an all-gather of the parameters before the forward and again before the backward
 *       (layer by layer, prefetched) and a reduce-scatter of the gradients after the backward.</li>
 * </ul>
 *
 * @param model the transformer
 * @param layout the parallel layout
 * @param globalBatch B, samples per iteration; a multiple of DP x micro-batches
 */
public record TrainingJob(TransformerConfig model, ParallelLayout layout, int globalBatch) {

    /** Bytes per parameter, gradient and activation value (bf16). */
    public static final int BYTES_PER_VALUE = 2;

    /** Validates: the batch fills every micro-batch of every DP rank, the stages get whole layers, TP splits the heads. */
    public TrainingJob {
        Parameters.notNull("model", model);
        Parameters.notNull("layout", layout);
        Parameters.atLeast("globalBatch", globalBatch, 1);
        int per = layout.dataParallel() * layout.microBatches();
        if (globalBatch % per != 0) {
            throw new IllegalArgumentException("globalBatch must be a multiple of dataParallel x microBatches = "
                    + layout.dataParallel() + " x " + layout.microBatches() + " = " + per + ", got " + globalBatch);
        }
        if (model.layers() % layout.pipelineParallel() != 0) {
            throw new IllegalArgumentException("pipelineParallel must divide the model's layers = " + model.layers()
                    + ", got " + layout.pipelineParallel());
        }
        if (model.heads() % layout.tensorParallel() != 0) {
            throw new IllegalArgumentException("tensorParallel must divide the model's heads = " + model.heads()
                    + ", got " + layout.tensorParallel());
        }
    }

    /** Samples per micro-batch per DP rank: b = B / (DP m). */
    public int microBatchSize() {
        return globalBatch / (layout.dataParallel() * layout.microBatches());
    }

    /** Layers per pipeline stage. */
    public int layersPerStage() {
        return model.layers() / layout.pipelineParallel();
    }

    /** Forward FLOPs of one micro-batch on one accelerator: b F_sample / (3 TP PP) [FLOP]. */
    public double forwardFlopsPerMicroBatch() {
        return microBatchSize() * model.trainingFlopsPerSample() / (3.0 * layout.tensorParallel() * layout.pipelineParallel());
    }

    /** Backward FLOPs of one micro-batch on one accelerator: twice the forward [FLOP]. */
    public double backwardFlopsPerMicroBatch() {
        return 2 * forwardFlopsPerMicroBatch();
    }

    /** Gradient (and bf16 parameter) bytes one accelerator holds before ZeRO partitioning: G = 2 N / (TP PP) [bytes]. */
    public double gradientBytesPerGpu() {
        return BYTES_PER_VALUE * model.parameters() / ((double) layout.tensorParallel() * layout.pipelineParallel());
    }

    /** Bytes of one TP all-reduce: the layer output of a micro-batch, b s h x 2 [bytes]. */
    public double tensorAllReduceBytes() {
        return microBatchSize() * model.activationBytesPerSample(BYTES_PER_VALUE);
    }

    /** Bytes one TP rank sends across a stage boundary per micro-batch and direction: b s h x 2 / TP [bytes]. */
    public double pipelineSendBytes() {
        return tensorAllReduceBytes() / layout.tensorParallel();
    }

    /** Model FLOPs of one iteration over all accelerators: B F_sample [FLOP]. */
    public double flopsPerIteration() {
        return globalBatch * model.trainingFlopsPerSample();
    }

    /**
     * The collectives one iteration issues, per accelerator, with their bytes and place (see the class
     * comment); kinds that do not occur (TP 1, PP 1, DP 1) are left out.
     */
    public List<CommOp> collectives() {
        ParallelLayout l = layout;
        int m = l.microBatches();
        int layers = layersPerStage();
        List<CommOp> ops = new ArrayList<>();
        if (l.tensorParallel() > 1) {
            boolean fabric = !l.insideOneServer(l.tensorGroups(0)[0]);
            ops.add(new CommOp("TP all-reduce (forward)", CommOp.Primitive.ALL_REDUCE, l.tensorParallel(),
                    tensorAllReduceBytes(), 2 * layers * m, fabric, "forward, 2 per layer per micro-batch, blocking"));
            ops.add(new CommOp("TP all-reduce (backward)", CommOp.Primitive.ALL_REDUCE, l.tensorParallel(),
                    tensorAllReduceBytes(), 2 * layers * m, fabric, "backward, 2 per layer per micro-batch, blocking"));
        }
        if (l.pipelineParallel() > 1) {
            boolean fabric = !l.insideOneServer(l.pipelinePairs(0)[0]);
            ops.add(new CommOp("PP activations", CommOp.Primitive.SEND_RECV, 2, pipelineSendBytes(), m, fabric,
                    "forward, 1 per micro-batch per stage boundary"));
            ops.add(new CommOp("PP activation gradients", CommOp.Primitive.SEND_RECV, 2, pipelineSendBytes(), m, fabric,
                    "backward, 1 per micro-batch per stage boundary"));
        }
        if (l.dataParallel() > 1) {
            boolean fabric = !l.insideOneServer(l.dataGroups(0)[0]);
            int dp = l.dataParallel();
            double g = gradientBytesPerGpu();
            switch (l.zeroStage()) {
                case 0 -> ops.add(new CommOp("DP gradient all-reduce", CommOp.Primitive.ALL_REDUCE, dp, g, 1, fabric,
                        "end of the last backward, in buckets overlapped with it"));
                case 1, 2 -> {
                    ops.add(new CommOp("DP gradient reduce-scatter", CommOp.Primitive.REDUCE_SCATTER, dp, g, 1, fabric,
                            "end of the last backward, in buckets overlapped with it"));
                    ops.add(new CommOp("DP parameter all-gather", CommOp.Primitive.ALL_GATHER, dp, g, 1, fabric,
                            "after the optimizer step"));
                }
                default -> {
                    ops.add(new CommOp("ZeRO-3 parameter all-gather (forward)", CommOp.Primitive.ALL_GATHER, dp, g, m, fabric,
                            "forward, layer by layer, prefetched"));
                    ops.add(new CommOp("ZeRO-3 parameter all-gather (backward)", CommOp.Primitive.ALL_GATHER, dp, g, m, fabric,
                            "backward, layer by layer, prefetched"));
                    ops.add(new CommOp("ZeRO-3 gradient reduce-scatter", CommOp.Primitive.REDUCE_SCATTER, dp, g, m, fabric,
                            "backward, layer by layer, overlapped"));
                }
            }
        }
        return ops;
    }
}
