package fabriclab.training;

import fabriclab.Parameters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One training iteration as a schedule of compute and communication intervals with their dependencies
 * and overlap, for one accelerator of each pipeline stage (the others of the stage run the same schedule):
 * the samples/s of a job, and a Gantt chart of where the time goes.
 *
 * <p>Resources (each runs one interval at a time, in the order the intervals were issued): a stage's compute
 * stream, which also carries its TP all-reduces (they block compute, as in Megatron-LM); a stage's DP stream
 * (gradient reductions, ZeRO gathers); one stream per stage boundary and direction (PP sends). An interval
 * starts when its resource is free and its dependencies have ended (list scheduling).
 *
 * <p>Schedule: each stage runs the 1F1B pipeline order (Narayanan et al. SC'21: {@code PP - 1 - stage}
 * warm-up forwards, then one forward one backward, then the remaining backwards). A stage's forward of
 * micro-batch i waits for the activations from the stage before, its backward for the gradients from the
 * stage after. DP with ZeRO 0-2: the last micro-batch's backward is cut into gradient buckets of
 * {@code bucketBytes} (PyTorch DDP's default is 25 MiB); bucket k's reduction starts when its share of the
 * backward has been computed and runs on the DP stream while the backward goes on; ZeRO 1/2 then all-gather
 * the updated parameters. ZeRO 3: every forward and backward is cut layer by layer; layer k's parameter
 * all-gather may start once layer k - 2 has been computed (prefetch of one layer ahead) and layer k's
 * compute waits for it; each backward layer's gradient reduce-scatter follows it on the DP stream.
 * The optimizer step and the reduction compute are not modelled.
 *
 * <p>Durations: compute = FLOPs / (peak x computeEfficiency) ({@link Accelerator#seconds}); communication
 * from a {@link CommTimer}, called once per primitive and stage with the whole buffer and divided
 * proportionally among buckets and layers (the bandwidth regime: time linear in bytes).
 *
 * <p>Bounds that hold by construction and are tested: the iteration is at least the busiest stream's busy
 * time (its compute, or its critical communication), and at most the sum of all intervals.
 *
 * @param job the job
 * @param accelerator the accelerator
 * @param computeEfficiency fraction of the peak achieved while computing
 * @param intervals the schedule, in issue order
 * @param iterationSeconds end of the last interval [s]
 */
public record IterationTimeline(TrainingJob job, Accelerator accelerator, double computeEfficiency, List<Interval> intervals,
        double iterationSeconds) {

    /** What an interval does. */
    public enum Kind {
        /** Forward or backward compute. */
        COMPUTE,
        /** Tensor-parallel all-reduce (blocks compute). */
        TENSOR_PARALLEL,
        /** Pipeline send of activations or their gradients. */
        PIPELINE,
        /** Data-parallel reduction or ZeRO gather. */
        DATA_PARALLEL
    }

    /**
     * One interval of the schedule.
     *
     * @param lane the Gantt row, e.g. "stage 0 compute"
     * @param label what it is, e.g. "F3" (forward of micro-batch 3) or "DP all-reduce"
     * @param kind what it does
     * @param stage the pipeline stage
     * @param microBatch the micro-batch, -1 for per-iteration work
     * @param startS start [s]
     * @param endS end [s]
     */
    public record Interval(String lane, String label, Kind kind, int stage, int microBatch, double startS, double endS) {
        /** Validates: names and kind present, stage not negative, micro-batch -1 or more, 0 &lt;= startS &lt;= endS, finite. */
        public Interval {
            Parameters.notNull("lane", lane);
            Parameters.notNull("label", label);
            Parameters.notNull("kind", kind);
            Parameters.atLeast("stage", stage, 0);
            Parameters.atLeast("microBatch", microBatch, -1);
            Parameters.nonNegative("startS", Parameters.finite("startS", startS));
            Parameters.finite("endS", endS);
            if (endS < startS) {
                throw new IllegalArgumentException("endS must be at least startS = " + startS + ", got " + endS);
            }
        }

        /** Duration [s]. */
        public double seconds() {
            return endS - startS;
        }
    }

    /** PyTorch DistributedDataParallel's default gradient bucket (bucket_cap_mb = 25) [bytes]. */
    public static final double DDP_BUCKET_BYTES = 25 * 1024 * 1024;

    /** Validates and copies. */
    public IterationTimeline {
        Parameters.notNull("job", job);
        Parameters.notNull("accelerator", accelerator);
        Parameters.inHalfOpenRange("computeEfficiency", Parameters.finite("computeEfficiency", computeEfficiency), 0, 1);
        intervals = List.copyOf(Parameters.noNullElements("intervals", intervals));
        Parameters.nonNegative("iterationSeconds", Parameters.finite("iterationSeconds", iterationSeconds));
    }

    /**
     * Schedules one iteration (see the class comment).
     *
     * @param job the job
     * @param accelerator its accelerator
     * @param computeEfficiency fraction of the peak achieved while computing (the MFU of the compute alone), in (0, 1]
     * @param timer times each communication step
     * @param bucketBytes gradient bucket size for ZeRO 0-2 [bytes], at least 1 MiB, and at most 100000 buckets per GPU
     * @throws IllegalArgumentException naming {@code job} when its iteration could have more than {@link #MAX_TASKS} tasks
     */
    public static IterationTimeline schedule(TrainingJob job, Accelerator accelerator, double computeEfficiency, CommTimer timer,
            double bucketBytes) {
        Parameters.notNull("job", job);
        Parameters.notNull("accelerator", accelerator);
        Parameters.inHalfOpenRange("computeEfficiency", computeEfficiency, 0, 1);
        Parameters.notNull("timer", timer);
        Parameters.positive("bucketBytes", bucketBytes);
        Parameters.inRange("bucketBytes", bucketBytes, 1 << 20, Double.MAX_VALUE);
        double buckets = Math.ceil(job.gradientBytesPerGpu() / bucketBytes);
        if (buckets > 100_000) {
            throw new IllegalArgumentException("bucketBytes must give at most 100000 buckets of the " + job.gradientBytesPerGpu()
                    + " gradient bytes per GPU, got " + bucketBytes);
        }
        checkTasks(job, (int) buckets);
        return new Builder(job, accelerator, computeEfficiency, timer, (int) buckets).build();
    }

    /**
     * The most tasks (intervals before scheduling) {@link #schedule} builds: 1,000,000, a few hundred MB of heap. The
     * count is bounded before building from the pipeline stages, micro-batches, chunks per pass (the stage's layers
     * with ZeRO-3, else 1) and gradient buckets.
     */
    public static final long MAX_TASKS = 1_000_000L;

    /**
     * Fails naming {@code job} when its iteration could have more than {@link #MAX_TASKS} tasks: per stage and
     * micro-batch, a forward and a backward pass, each at most 4 tasks per chunk (compute, tensor parallel, a gather
     * and a reduce) and 2 more (a gather, a pipeline send); per stage the last backward's buckets (3 each) and 3 more.
     */
    private static void checkTasks(TrainingJob job, int buckets) {
        ParallelLayout l = job.layout();
        boolean zero3 = l.zeroStage() == 3 && l.dataParallel() > 1;
        double chunks = zero3 ? job.layersPerStage() : 1;
        double bound = (double) l.pipelineParallel() * (2.0 * l.microBatches() * (4 * chunks + 2) + 3.0 * buckets + 3);
        if (bound > MAX_TASKS) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "job must give at most %,d tasks per"
                    + " iteration, got pipelineParallel %d x 2 passes of microBatches %d x (4 x %.0f chunks + 2)%s: up to %.3g"
                    + " tasks; fewer micro-batches or stages", MAX_TASKS, l.pipelineParallel(), l.microBatches(), chunks,
                    buckets > 1 ? " and " + buckets + " buckets" : "", bound));
        }
    }

    /** Samples per second: B / iteration. */
    public double samplesPerSecond() {
        return job.globalBatch() / iterationSeconds;
    }

    /** End-to-end model FLOPs utilisation: B F_sample / (iteration x GPUs x peak). */
    public double mfu() {
        return job.flopsPerIteration() / (iterationSeconds * job.layout().gpus() * accelerator.peakFlopsPerSecond());
    }

    /** Busy time of each lane [s], lanes in first-use order. */
    public Map<String, Double> laneBusySeconds() {
        Map<String, Double> busy = new LinkedHashMap<>();
        for (Interval i : intervals) {
            busy.merge(i.lane(), i.seconds(), Double::sum);
        }
        return busy;
    }

    /**
     * Total time of the intervals of {@code kind} on stage {@code stage} [s].
     *
     * @param stage a pipeline stage of the job, 0 to {@code pipelineParallel - 1}
     */
    public double seconds(Kind kind, int stage) {
        Parameters.notNull("kind", kind);
        int last = job.layout().pipelineParallel() - 1;
        for (Interval i : intervals) {
            last = Math.max(last, i.stage());
        }
        Parameters.inRange("stage", stage, 0, last);
        return intervals.stream().filter(i -> i.kind() == kind && i.stage() == stage).mapToDouble(Interval::seconds).sum();
    }

    /** Builds the task graph and list-schedules it. */
    private static final class Builder {
        private final TrainingJob job;
        private final Accelerator acc;
        private final double eff;
        private final CommTimer timer;
        private final int buckets;
        private final ParallelLayout l;
        private final List<String> lane = new ArrayList<>();
        private final List<String> label = new ArrayList<>();
        private final List<Kind> kind = new ArrayList<>();
        private final List<int[]> stageMb = new ArrayList<>();
        private final List<Double> duration = new ArrayList<>();
        private final List<List<Object>> deps = new ArrayList<>(); // Integer: a task id; String: a key of keys
        private final List<Integer> resource = new ArrayList<>();
        private final Map<String, Integer> resources = new LinkedHashMap<>();
        private final Map<String, Integer> keys = new HashMap<>();

        Builder(TrainingJob job, Accelerator acc, double eff, CommTimer timer, int buckets) {
            this.job = job;
            this.acc = acc;
            this.eff = eff;
            this.timer = timer;
            this.buckets = Math.max(1, buckets);
            this.l = job.layout();
        }

        private double time(CommOp.Primitive p, int[][] groups, double bytes) {
            double t = timer.seconds(p, groups, bytes);
            if (!(t >= 0) || Double.isInfinite(t)) {
                throw new IllegalStateException("the CommTimer returned " + t + " s for " + p + " of " + bytes
                        + " bytes; it must be finite and not negative");
            }
            return t;
        }

        private int add(String res, String laneName, String what, Kind k, int stage, int mb, double seconds, List<Object> after) {
            int id = lane.size();
            lane.add(laneName);
            label.add(what);
            kind.add(k);
            stageMb.add(new int[] {stage, mb});
            duration.add(seconds);
            deps.add(after);
            resource.add(resources.computeIfAbsent(res, r -> resources.size()));
            return id;
        }

        IterationTimeline build() {
            int pp = l.pipelineParallel();
            int m = l.microBatches();
            int layers = job.layersPerStage();
            boolean zero3 = l.zeroStage() == 3 && l.dataParallel() > 1;
            double fwd = acc.seconds(job.forwardFlopsPerMicroBatch(), eff);
            double bwd = acc.seconds(job.backwardFlopsPerMicroBatch(), eff);
            for (int s = 0; s < pp; s++) {
                // per stage: the TP time of one pass (2 all-reduces per layer), the DP times of the whole gradient
                double tpPass = l.tensorParallel() > 1
                        ? 2 * layers * time(CommOp.Primitive.ALL_REDUCE, l.tensorGroups(s), job.tensorAllReduceBytes()) : 0;
                int[][] dpGroups = l.dataGroups(s);
                double g = job.gradientBytesPerGpu();
                double ar = 0;
                double rs = 0;
                double ag = 0;
                if (l.dataParallel() > 1) {
                    if (l.zeroStage() == 0) {
                        ar = time(CommOp.Primitive.ALL_REDUCE, dpGroups, g);
                    } else {
                        rs = time(CommOp.Primitive.REDUCE_SCATTER, dpGroups, g);
                        ag = time(CommOp.Primitive.ALL_GATHER, dpGroups, g);
                    }
                }
                double pp1 = s < pp - 1 ? time(CommOp.Primitive.SEND_RECV, l.pipelinePairs(s), job.pipelineSendBytes()) : 0;
                double ppBack = s > 0 ? time(CommOp.Primitive.SEND_RECV, l.pipelinePairs(s - 1), job.pipelineSendBytes()) : 0;
                String tpLane = "stage " + s + " TP all-reduce" + (l.insideOneServer(l.tensorGroups(s)[0]) ? " (NVLink)" : " (fabric)");
                String computeRes = "compute " + s;
                String computeLane = "stage " + s + " compute";
                String dpRes = "dp " + s;
                String dpLane = "stage " + s + " DP";
                int warm = Math.min(pp - 1 - s, m);
                List<int[]> order = new ArrayList<>(); // {forward? 1 : 0, micro-batch}
                for (int i = 0; i < warm; i++) {
                    order.add(new int[] {1, i});
                }
                for (int i = 0; i < m - warm; i++) {
                    order.add(new int[] {1, warm + i});
                    order.add(new int[] {0, i});
                }
                for (int i = m - warm; i < m; i++) {
                    order.add(new int[] {0, i});
                }
                for (int[] step : order) {
                    int i = step[1];
                    boolean forward = step[0] == 1;
                    List<Object> first = new ArrayList<>();
                    if (forward && s > 0) {
                        first.add("PF " + (s - 1) + " " + i);
                    }
                    if (!forward && s < pp - 1) {
                        first.add("PB " + (s + 1) + " " + i);
                    }
                    int chunks = zero3 ? layers : (!forward && i == m - 1 && l.dataParallel() > 1 ? buckets : 1);
                    String name = (forward ? "F" : "B") + i;
                    String gatherName = "AG" + name;
                    String tpName = "TP" + name;
                    String rsName = "RS" + name;
                    double compute = forward ? fwd : bwd;
                    int[] computeIds = new int[chunks];
                    List<Integer> gathers = new ArrayList<>();
                    if (zero3) {
                        gathers.add(add(dpRes, dpLane, gatherName, Kind.DATA_PARALLEL, s, i, ag / layers, List.of()));
                        if (chunks > 1) {
                            gathers.add(add(dpRes, dpLane, gatherName, Kind.DATA_PARALLEL, s, i, ag / layers, List.of()));
                        }
                    }
                    int last = -1;
                    for (int c = 0; c < chunks; c++) {
                        List<Object> after = new ArrayList<>(c == 0 ? first : List.of());
                        if (zero3) {
                            after.add(gathers.get(c));
                        }
                        computeIds[c] = add(computeRes, computeLane, name, Kind.COMPUTE, s, i, compute / chunks, after);
                        last = computeIds[c];
                        if (tpPass > 0) {
                            last = add(computeRes, tpLane, tpName, Kind.TENSOR_PARALLEL, s, i, tpPass / chunks, List.of());
                        }
                        if (!forward && zero3) {
                            add(dpRes, dpLane, rsName, Kind.DATA_PARALLEL, s, i, rs / layers, List.of(last));
                        } else if (!forward && chunks > 1) {
                            add(dpRes, dpLane, l.zeroStage() == 0 ? "AR" : "RS", Kind.DATA_PARALLEL, s, i,
                                    (l.zeroStage() == 0 ? ar : rs) / chunks, List.of(last));
                        }
                        if (zero3 && c + 2 < chunks) {
                            gathers.add(add(dpRes, dpLane, gatherName, Kind.DATA_PARALLEL, s, i, ag / layers,
                                    List.of(computeIds[c])));
                        }
                    }
                    keys.put((forward ? "F " : "B ") + s + " " + i, last);
                    if (forward && s < pp - 1) {
                        keys.put("PF " + s + " " + i, add("ppf " + s, "stage " + s + "→" + (s + 1) + " PP", "A" + i, Kind.PIPELINE, s, i,
                                pp1, List.of(last)));
                    }
                    if (!forward && s > 0) {
                        keys.put("PB " + s + " " + i, add("ppb " + s, "stage " + s + "→" + (s - 1) + " PP", "G" + i, Kind.PIPELINE, s, i,
                                ppBack, List.of(last)));
                    }
                }
                if (l.dataParallel() > 1 && !zero3 && m >= 1 && buckets == 1) {
                    // a single bucket was cut above only when buckets > 1; otherwise reduce after the backward
                    add("dp " + s, "stage " + s + " DP", l.zeroStage() == 0 ? "AR" : "RS", Kind.DATA_PARALLEL, s, -1,
                            l.zeroStage() == 0 ? ar : rs, List.of("B " + s + " " + (m - 1)));
                }
                if (l.dataParallel() > 1 && !zero3 && l.zeroStage() > 0) {
                    add("dp " + s, "stage " + s + " DP", "AG", Kind.DATA_PARALLEL, s, -1, ag, List.of());
                }
            }
            return schedule();
        }

        private IterationTimeline schedule() {
            int n = lane.size();
            List<List<Integer>> queues = new ArrayList<>();
            for (int r = 0; r < resources.size(); r++) {
                queues.add(new ArrayList<>());
            }
            for (int t = 0; t < n; t++) {
                queues.get(resource.get(t)).add(t);
            }
            int[][] after = new int[n][];
            for (int t = 0; t < n; t++) {
                List<Object> d = deps.get(t);
                after[t] = new int[d.size()];
                for (int k = 0; k < d.size(); k++) {
                    Integer id = d.get(k) instanceof Integer i ? i : keys.get((String) d.get(k));
                    if (id == null) {
                        throw new IllegalStateException("internal: unknown dependency " + d.get(k));
                    }
                    after[t][k] = id;
                }
            }
            double[] start = new double[n];
            double[] end = new double[n];
            boolean[] done = new boolean[n];
            int[] head = new int[queues.size()];
            double[] free = new double[queues.size()];
            int scheduled = 0;
            while (scheduled < n) {
                boolean progress = false;
                for (int r = 0; r < queues.size(); r++) {
                    List<Integer> q = queues.get(r);
                    while (head[r] < q.size()) {
                        int t = q.get(head[r]);
                        double ready = free[r];
                        boolean ok = true;
                        for (int d : after[t]) {
                            if (!done[d]) {
                                ok = false;
                                break;
                            }
                            ready = Math.max(ready, end[d]);
                        }
                        if (!ok) {
                            break;
                        }
                        start[t] = ready;
                        end[t] = ready + duration.get(t);
                        free[r] = end[t];
                        done[t] = true;
                        head[r]++;
                        scheduled++;
                        progress = true;
                    }
                }
                if (!progress) {
                    throw new IllegalStateException("internal: the iteration's task graph has a cycle");
                }
            }
            List<Interval> out = new ArrayList<>(n);
            double last = 0;
            for (int t = 0; t < n; t++) {
                out.add(new Interval(lane.get(t), label.get(t), kind.get(t), stageMb.get(t)[0], stageMb.get(t)[1], start[t], end[t]));
                last = Math.max(last, end[t]);
            }
            return new IterationTimeline(job, acc, eff, out, last);
        }
    }
}
