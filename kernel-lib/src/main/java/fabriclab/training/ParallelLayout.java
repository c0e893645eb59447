package fabriclab.training;

import fabriclab.Parameters;

/**
 * How a training job spreads over its accelerators: tensor parallelism (TP), pipeline stages (PP), data
 * parallelism (DP) with a ZeRO stage, and micro-batches per iteration (Narayanan et al. SC'21 for TP x PP x DP;
 * Rajbhandari et al. SC'20 "ZeRO" for the stages), placed on the hosts in one of two rank orders
 * ({@link Placement}).
 *
 * <p>Placement {@link Placement#TENSOR_FIRST} (Megatron-LM's default order, TP fastest, then DP, then PP): the
 * GPU of TP rank {@code t}, DP rank {@code d} and stage {@code p} is host {@code p (DP TP) + d TP + t}; hosts are
 * numbered server by server ({@code gpusPerServer} consecutive hosts per server, as in
 * {@code fabriclab.fabric.LeafSpine}), so a TP group of at most {@code gpusPerServer} ranks is inside one server, a
 * stage is {@code DP TP} consecutive hosts and the DP group of TP rank {@code t} is every {@code TP}-th host of its
 * stage. Placement {@link Placement#DATA_FIRST} swaps TP and DP (host {@code p (DP TP) + t DP + d}): a TP group is
 * every {@code DP}-th host of its stage, so with {@code DP TP} above a server it spans servers, and a DP group is
 * {@code DP} consecutive hosts.
 *
 * <p>ZeRO: stage 0 keeps everything replicated and all-reduces the gradients; stages 1 and 2 partition the
 * optimizer state (and gradients), so the gradients are reduce-scattered and the updated parameters
 * all-gathered (the same bytes as an all-reduce); stage 3 also partitions the parameters, which are
 * all-gathered for every micro-batch's forward and again for its backward, and its gradients
 * reduce-scattered every micro-batch.
 *
 * @param gpus accelerators of the job
 * @param gpusPerServer accelerators per server
 * @param tensorParallel TP degree; with {@link Placement#TENSOR_FIRST} it divides {@code gpusPerServer} (a TP group
 *        in one server) or is a multiple of it (a TP group filling whole servers)
 * @param pipelineParallel PP degree (stages)
 * @param dataParallel DP degree; TP x PP x DP = gpus
 * @param zeroStage 0, 1, 2 or 3
 * @param microBatches micro-batches per iteration per pipeline (gradient accumulation steps), at least 1
 * @param placement the rank order, not null
 */
public record ParallelLayout(int gpus, int gpusPerServer, int tensorParallel, int pipelineParallel, int dataParallel,
        int zeroStage, int microBatches, Placement placement) implements java.io.Serializable {
    private static final long serialVersionUID = 2L;

    /** The order in which a stage's TP and DP ranks are laid over its hosts (the stages follow each other). */
    public enum Placement {
        /** TP fastest, then DP, then PP (Megatron-LM's default): a TP group on consecutive hosts. */
        TENSOR_FIRST,
        /** DP fastest, then TP, then PP: a TP group strided by DP hosts, across servers when DP TP exceeds a server. */
        DATA_FIRST
    }

    /** The layout in Megatron-LM's default order ({@link Placement#TENSOR_FIRST}). */
    public ParallelLayout(int gpus, int gpusPerServer, int tensorParallel, int pipelineParallel, int dataParallel, int zeroStage,
            int microBatches) {
        this(gpus, gpusPerServer, tensorParallel, pipelineParallel, dataParallel, zeroStage, microBatches, Placement.TENSOR_FIRST);
    }

    /**
     * Validates: the degrees multiply to the GPUs, a tensor-first TP group fits in a server or fills whole servers,
     * ZeRO 0-3, at least one micro-batch, a placement.
     */
    public ParallelLayout {
        Parameters.atLeast("gpus", gpus, 1);
        Parameters.atLeast("gpusPerServer", gpusPerServer, 1);
        Parameters.atLeast("tensorParallel", tensorParallel, 1);
        Parameters.atLeast("pipelineParallel", pipelineParallel, 1);
        Parameters.atLeast("dataParallel", dataParallel, 1);
        Parameters.inRange("zeroStage", zeroStage, 0, 3);
        Parameters.atLeast("microBatches", microBatches, 1);
        if (gpus % gpusPerServer != 0) {
            throw new IllegalArgumentException("gpusPerServer must divide gpus = " + gpus + ", got " + gpusPerServer);
        }
        Parameters.notNull("placement", placement);
        if (placement == Placement.TENSOR_FIRST && gpusPerServer % tensorParallel != 0 && tensorParallel % gpusPerServer != 0) {
            throw new IllegalArgumentException("tensorParallel must divide gpusPerServer = " + gpusPerServer
                    + " or be a multiple of it (a tensor-first TP group sits in one server or fills whole servers), got "
                    + tensorParallel);
        }
        if ((long) tensorParallel * pipelineParallel * dataParallel != gpus) {
            throw new IllegalArgumentException("tensorParallel x pipelineParallel x dataParallel must equal gpus = " + gpus
                    + ", got " + tensorParallel + " x " + pipelineParallel + " x " + dataParallel + " = "
                    + (long) tensorParallel * pipelineParallel * dataParallel);
        }
    }

    /**
     * The layout with TP and PP given and DP = gpus / (TP PP).
     *
     * @throws IllegalArgumentException if TP x PP does not divide {@code gpus}, naming tensorParallel x pipelineParallel
     */
    public static ParallelLayout of(int gpus, int gpusPerServer, int tensorParallel, int pipelineParallel, int zeroStage,
            int microBatches) {
        return of(gpus, gpusPerServer, tensorParallel, pipelineParallel, zeroStage, microBatches, Placement.TENSOR_FIRST);
    }

    /**
     * The layout with TP and PP given, DP = gpus / (TP PP), in rank order {@code placement}.
     *
     * @throws IllegalArgumentException if TP x PP does not divide {@code gpus}, naming tensorParallel x pipelineParallel
     */
    public static ParallelLayout of(int gpus, int gpusPerServer, int tensorParallel, int pipelineParallel, int zeroStage,
            int microBatches, Placement placement) {
        Parameters.atLeast("gpus", gpus, 1);
        Parameters.atLeast("tensorParallel", tensorParallel, 1);
        Parameters.atLeast("pipelineParallel", pipelineParallel, 1);
        long tp = (long) tensorParallel * pipelineParallel;
        if (gpus % tp != 0) {
            throw new IllegalArgumentException("tensorParallel x pipelineParallel must divide gpus = " + gpus + ", got "
                    + tensorParallel + " x " + pipelineParallel + " = " + tp);
        }
        return new ParallelLayout(gpus, gpusPerServer, tensorParallel, pipelineParallel, (int) (gpus / tp), zeroStage,
                microBatches, placement);
    }

    /** The same layout on {@code gpus} accelerators with DP degree {@code dataParallel} (the other degrees, ZeRO stage, micro-batches and placement kept). */
    public ParallelLayout withData(int gpus, int dataParallel) {
        return new ParallelLayout(gpus, gpusPerServer, tensorParallel, pipelineParallel, dataParallel, zeroStage, microBatches,
                placement);
    }

    /** Host of TP rank t, DP rank d, stage p: p (DP TP) + d TP + t tensor-first, p (DP TP) + t DP + d data-first. */
    public int host(int tensorRank, int dataRank, int stage) {
        Parameters.inRange("tensorRank", tensorRank, 0, tensorParallel - 1);
        Parameters.inRange("dataRank", dataRank, 0, dataParallel - 1);
        Parameters.inRange("stage", stage, 0, pipelineParallel - 1);
        int base = stage * dataParallel * tensorParallel;
        return placement == Placement.TENSOR_FIRST ? base + dataRank * tensorParallel + tensorRank
                : base + tensorRank * dataParallel + dataRank;
    }

    /** The DP tensor-parallel groups of a stage: group d is the TP ranks of DP rank d (hosts). */
    public int[][] tensorGroups(int stage) {
        int[][] g = new int[dataParallel][tensorParallel];
        for (int d = 0; d < dataParallel; d++) {
            for (int t = 0; t < tensorParallel; t++) {
                g[d][t] = host(t, d, stage);
            }
        }
        return g;
    }

    /** The TP data-parallel groups of a stage: group t is the DP ranks of TP rank t (hosts). */
    public int[][] dataGroups(int stage) {
        int[][] g = new int[tensorParallel][dataParallel];
        for (int t = 0; t < tensorParallel; t++) {
            for (int d = 0; d < dataParallel; d++) {
                g[t][d] = host(t, d, stage);
            }
        }
        return g;
    }

    /**
     * The point-to-point pairs {from, to} between stage {@code stage} and stage {@code stage + 1} (forward direction).
     *
     * @param stage the sending stage, in [0, pipelineParallel - 2]
     * @throws IllegalArgumentException if {@code stage} is out of range, or if this layout has no pipeline pairs
     *         ({@code pipelineParallel = 1})
     */
    public int[][] pipelinePairs(int stage) {
        if (pipelineParallel == 1) {
            throw new IllegalArgumentException("stage: this layout has no pipeline pairs (pipelineParallel = 1, a single "
                    + "stage), so no stage is valid, got " + stage);
        }
        Parameters.inRange("stage", stage, 0, pipelineParallel - 2);
        int[][] g = new int[dataParallel * tensorParallel][];
        for (int d = 0; d < dataParallel; d++) {
            for (int t = 0; t < tensorParallel; t++) {
                g[d * tensorParallel + t] = new int[] {host(t, d, stage), host(t, d, stage + 1)};
            }
        }
        return g;
    }

    /** True when every host of {@code group} is in one server. */
    public boolean insideOneServer(int[] group) {
        Parameters.notNull("group", group);
        for (int h : group) {
            if (h / gpusPerServer != group[0] / gpusPerServer) {
                return false;
            }
        }
        return true;
    }

    /** A short label, e.g. "TP8 PP1 DP4 ZeRO0 m4", with " DP-first" appended in that placement. */
    public String label() {
        return "TP" + tensorParallel + " PP" + pipelineParallel + " DP" + dataParallel + " ZeRO" + zeroStage + " m" + microBatches
                + (placement == Placement.DATA_FIRST ? " DP-first" : "");
    }
}
