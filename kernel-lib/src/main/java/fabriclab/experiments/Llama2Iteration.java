package fabriclab.experiments;

import fabriclab.Parameters;

/**
 * Training-iteration model behind 002 (002_f37e90f02f6a00b7.txt, section 4, table 1: Llama2-13B on 32 GPUs
 * with one 200G port each, samples/s for RoCE and GSE). The paper states neither the parallel layout nor the
 * batch, so both are parameters here; {@link #llama2x13b32Gpus(double)} is our reading (see there).
 *
 * <p>Model (no overlap of compute and communication, an assumption): one iteration processes
 * {@code samplesPerIteration} samples and takes {@code T = T_compute + T_comm}, so samples/s
 * {@code = B / (T_compute + T_comm)}. Only {@code T_compute} is calibrated, from one published row
 * ({@link #calibrateComputeSeconds}); every other row is predicted from its own communication time
 * ({@link #samplesPerSecond}).
 *
 * <p>Communication on the fabric is the data-parallel gradient AllReduce: each rank holds
 * {@code P * b / (TP * PP)} bytes of gradients (P parameters, b bytes each) and a ring AllReduce over
 * {@code DP} ranks sends {@code 2 (DP - 1) / DP} times that ({@link #ringAllReduceBytesSentPerRank}).
 * Tensor-parallel traffic stays inside a server (NVLink) and is not on the fabric.
 *
 * @param parameters model parameters P (13e9 for Llama2-13B)
 * @param bytesPerParameter gradient bytes per parameter b (2 for bf16)
 * @param tensorParallel TP degree (inside a server)
 * @param pipelineParallel PP degree
 * @param dataParallel DP degree (the ranks of the gradient AllReduce, one per server)
 * @param samplesPerIteration global batch B [samples]
 */
public record Llama2Iteration(double parameters, int bytesPerParameter, int tensorParallel, int pipelineParallel,
        int dataParallel, double samplesPerIteration) {

    /** Validates the layout. */
    public Llama2Iteration {
        Parameters.positive("parameters", parameters);
        Parameters.atLeast("bytesPerParameter", bytesPerParameter, 1);
        Parameters.atLeast("tensorParallel", tensorParallel, 1);
        Parameters.atLeast("pipelineParallel", pipelineParallel, 1);
        Parameters.atLeast("dataParallel", dataParallel, 2);
        Parameters.positive("samplesPerIteration", samplesPerIteration);
    }

    /**
     * Our reading of 002 table 1: Llama2-13B (13e9 parameters, bf16 gradients), 32 GPUs = 4 servers x 8,
     * TP = 8 inside each server, PP = 1, DP = 4 across the servers (so GPU k of the 4 servers forms one
     * AllReduce group, exactly the job shape of 000 section 3).
     *
     * @param samplesPerIteration global batch [samples], not given by the paper
     */
    public static Llama2Iteration llama2x13b32Gpus(double samplesPerIteration) {
        return new Llama2Iteration(13e9, 2, 8, 1, 4, samplesPerIteration);
    }

    /** GPUs used: TP x PP x DP. */
    public int gpus() {
        return tensorParallel * pipelineParallel * dataParallel;
    }

    /** Gradient bytes held by one rank: P b / (TP PP) [bytes]. */
    public double gradientBytesPerRank() {
        return parameters * bytesPerParameter / ((double) tensorParallel * pipelineParallel);
    }

    /** Bytes one rank sends in the ring gradient AllReduce over DP ranks: 2 (DP-1)/DP of its gradients [bytes]. */
    public double ringAllReduceBytesSentPerRank() {
        return 2.0 * (dataParallel - 1) / dataParallel * gradientBytesPerRank();
    }

    /**
     * Compute time per iteration from one measured row: {@code B / samplesPerSecond - T_comm} [s].
     *
     * @param samplesPerSecond published throughput of the calibration row [samples/s]
     * @param commSeconds modelled communication time of that row [s]
     * @throws IllegalArgumentException if the communication alone exceeds the measured iteration time
     */
    public double calibrateComputeSeconds(double samplesPerSecond, double commSeconds) {
        Parameters.positive("samplesPerSecond", samplesPerSecond);
        Parameters.nonNegative("commSeconds", commSeconds);
        double compute = samplesPerIteration / samplesPerSecond - commSeconds;
        if (!(compute > 0)) {
            throw new IllegalArgumentException("commSeconds must be below the iteration time "
                    + samplesPerIteration / samplesPerSecond + " s implied by samplesPerSecond, got " + commSeconds);
        }
        return compute;
    }

    /**
     * Predicted throughput {@code B / (T_compute + T_comm)} [samples/s].
     *
     * @param computeSeconds compute time per iteration [s]
     * @param commSeconds communication time per iteration [s]
     */
    public double samplesPerSecond(double computeSeconds, double commSeconds) {
        Parameters.positive("computeSeconds", computeSeconds);
        Parameters.nonNegative("commSeconds", commSeconds);
        return samplesPerIteration / (computeSeconds + commSeconds);
    }
}
