package fabriclab.experiments;

import fabriclab.experiments.testbed.Duan2024Testbed;
import fabriclab.simulation.SimulationResult;
import fabriclab.Parameters;
import fabriclab.collectives.Collective;
import fabriclab.datasets.Dataset;
import fabriclab.datasets.Provenance;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.progress.ProgressSink;
import fabriclab.fabric.LeafSpine;
import fabriclab.sweep.Columns;
import fabriclab.sweep.LocalThreads;
import fabriclab.sweep.Sweep;
import fabriclab.sweep.SweepExecutor;
import fabriclab.sweep.SweepPlan;
import fabriclab.sweep.SweepTask;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.Table;

/**
 * The communication part of 002 table 1 (Llama2-13B on 32 GPUs, samples/s for RoCE and GSE under four
 * scenarios), simulated packet by packet on the 000 fabric of {@link Duan2024Testbed} (4 servers x 8 NICs,
 * 4 leaves, 400G uplinks, 3 spines at speedup 1.5 or 4 at 2). The gradient AllReduce of one iteration
 * (ring, {@link Llama2Iteration}) is what crosses the fabric.
 *
 * <p>Our reading of the four rows (002 does not describe them beyond their names):
 * <ul>
 *   <li>{@link Case#SINGLE_JOB}: one 32-GPU job, TP 8 inside each server, DP 4 across the servers:
 *       8 concurrent ring AllReduces (GPU k of servers A-D);</li>
 *   <li>{@link Case#ONE_LINK_DOWN}: the same with the uplink leaf 0 - spine 0 down;</li>
 *   <li>{@link Case#FOUR_LINKS_DOWN}: the same with the four uplinks of spine 0 down (one per leaf,
 *       as when a spine or its line card fails): every leaf keeps {@code spines - 1} uplinks, a
 *       symmetric loss of a third (speedup 1.5) or a quarter (2) of the uplink capacity. We chose this
 *       pattern over scattered ones (leaf l losing its link to spine l mod spines) because with those
 *       some leaf pairs keep a single spine between them, and this model's GSE, whose grants are
 *       limited at the destination port but not along the path, then overloads that spine's downlink
 *       and drops containers, which it recovers by resending after its timeout ({@link fabriclab.simulation.transport.gse.GseTransport}),
 *       at the cost of that timeout per loss; RoCE's PFC and go-back-N ride through it. See the notebook.</li>
 *   <li>{@link Case#MULTIPLE_JOBS}: the same 32 GPUs split into two concurrent 16-GPU jobs (servers
 *       A-B and C-D), each TP 8 and DP 2: 16 concurrent 2-rank AllReduces; throughput is the sum over
 *       both jobs, so with the same per-GPU batch the compute time per iteration is unchanged.</li>
 * </ul>
 * The table rows are steady state ({@link #communication}): the links are down, and the fabric has
 * re-converged, before the iteration starts, as in a training run that continues after a failure.
 * What the failure costs while it is being handled is a separate experiment
 * ({@link #failureDuringCollective}): an uplink fails in the middle of the AllReduce; RoCE keeps
 * hashing flows onto it until the failure is detected and routes re-converge
 * ({@code roceDetectionPs} later: packets sent to it meanwhile are black-holed and go-back-N must
 * recover them), while GSE's FEC monitoring announces the failing link ahead of time (002 section
 * 3.3) and the edges stop spraying onto it before it fails (a negative detection time). Announced late, at
 * the failure instant, or not at all (a positive detection time, as for RoCE), GSE loses the containers on
 * the link or sprayed onto it and its edges resend them after the resend timeout
 * ({@link fabriclab.simulation.transport.gse.GseTransport}); {@link Result#retransmittedPackets()} counts them.
 *
 * @param speedup leaf speedup, 1.5 or 2 (as in {@link Duan2024Testbed})
 */
public record Llama2Fabric(double speedup) {

    /** The four rows of 002 table 1. */
    public enum Case {
        /** One 32-GPU job. */
        SINGLE_JOB("single job"),
        /** One leaf uplink down. */
        ONE_LINK_DOWN("one link down"),
        /** The four uplinks of spine 0 down (one per leaf). */
        FOUR_LINKS_DOWN("four links down"),
        /** Two concurrent 16-GPU jobs. */
        MULTIPLE_JOBS("multiple jobs");

        private final String label;

        Case(String label) {
            this.label = label;
        }

        /** The row label of 002 table 1 (as in {@code datasets/published/llama2-13b-samples-per-second.csv}). */
        public String label() {
            return label;
        }
    }

    /** Validates the speedup (only 000's 1.5 and 2). */
    public Llama2Fabric {
        Duan2024Testbed.checkSpeedup(speedup);
    }

    /**
     * One simulated communication phase.
     *
     * @param scenario the table row
     * @param fabric RoCE or GSE
     * @param bytesPerRank gradient bytes per rank simulated [bytes]
     * @param seed seed of ECMP hash seeds, source ports and WRED draws
     * @param commUs time until the last AllReduce of the iteration completes [us]
     * @param failedUplinks leaf uplinks down
     * @param uplinkMaxOverMean max over mean of packets sent on the uplinks that are up
     * @param blackholedPackets packets sent to a failed link before the routes avoided it
     * @param drops data packets dropped (black-holed, queued on the failed link, or tail-dropped)
     * @param retransmittedPackets data packets sent more than once (RoCE: go-back-N; GSE: packets of resent containers)
     * @param pfcPauses PAUSE frames sent
     * @param ecnMarks packets ECN-marked
     * @param delivery goodput, bytes delivered and sent, local ACK timeouts (spurious ones apart) and failed queue pairs
     *        (RoCE's timeout is HCCL's default 4.29 s; GSE's container resends are not timeouts of this kind and count 0)
     */
    public record Result(Case scenario, RoceOrGse fabric, long bytesPerRank, long seed, double commUs, int failedUplinks,
            double uplinkMaxOverMean, long blackholedPackets, long drops, long retransmittedPackets, long pfcPauses,
            long ecnMarks, JobMetrics.DeliveryCounters delivery) implements Serializable {
        private static final long serialVersionUID = 2L;

        /** Validates: the communication time is finite (a run that did not finish is an error, not a time). */
        public Result {
            Parameters.notNull("scenario", scenario);
            Parameters.notNull("fabric", fabric);
            Parameters.atLeast("bytesPerRank", bytesPerRank, 1);
            Parameters.positive("commUs", commUs);
            Parameters.atLeast("failedUplinks", failedUplinks, 0);
            Parameters.nonNegative("uplinkMaxOverMean", uplinkMaxOverMean);
            Parameters.atLeast("blackholedPackets", blackholedPackets, 0);
            Parameters.atLeast("drops", drops, 0);
            Parameters.atLeast("retransmittedPackets", retransmittedPackets, 0);
            Parameters.atLeast("pfcPauses", pfcPauses, 0);
            Parameters.atLeast("ecnMarks", ecnMarks, 0);
            Parameters.notNull("delivery", delivery);
        }
    }

    /**
     * The largest gradient per rank the packet-level runs take, bytes (1 GiB): the simulated horizon is
     * 10 s and larger sizes would take hours of simulation; a run that does not finish in the horizon
     * is reported as an error.
     */
    public static final long MAX_BYTES_PER_RANK = 1L << 30;

    /** The simulated horizon of every run, 10 s in ps: failure and detection times must fall inside it. */
    public static final long HORIZON_PS = 10 * fabriclab.fabric.Time.S;

    /** The leaf-spine of 000 ({@link Duan2024Testbed#leafSpine()}). */
    public LeafSpine fabric() {
        return Duan2024Testbed.of(speedup).leafSpine();
    }

    /** Link indices (into {@code fabric().build().links()}) of the uplinks down in {@code scenario}. */
    public int[] failedUplinks(Case scenario) {
        Parameters.notNull("scenario", scenario);
        LeafSpine ls = fabric();
        return switch (scenario) {
            case SINGLE_JOB, MULTIPLE_JOBS -> new int[0];
            case ONE_LINK_DOWN -> new int[] {ls.uplinkIndex(0, 0, 0)};
            case FOUR_LINKS_DOWN -> {
                int[] l = new int[ls.leaves()];
                for (int leaf = 0; leaf < l.length; leaf++) {
                    l[leaf] = ls.uplinkIndex(leaf, 0, 0);
                }
                yield l;
            }
        };
    }

    /**
     * The AllReduce groups of a scenario: rank r of group g is host {@code groups[g][r]}. One job: group k
     * is NIC k of the 4 servers. Two jobs: group k (k below 8) is NIC k of servers A, B, group 8 + k is
     * NIC k of servers C, D.
     */
    public static int[][] groups(Case scenario) {
        Parameters.notNull("scenario", scenario);
        int nics = Duan2024Testbed.NICS;
        if (scenario != Case.MULTIPLE_JOBS) {
            return Duan2024Testbed.jobGroups();
        }
        int[][] g = new int[2 * nics][2];
        for (int job = 0; job < 2; job++) {
            for (int k = 0; k < nics; k++) {
                g[job * nics + k] = new int[] {(2 * job) * nics + k, (2 * job + 1) * nics + k};
            }
        }
        return g;
    }

    /**
     * Steady-state communication time of one iteration in {@code scenario}: the scenario's links are
     * down and the routes have re-converged before the AllReduces start (time 0).
     *
     * @param scenario the table row
     * @param fabric RoCE or GSE
     * @param bytesPerRank gradient bytes per rank, at least 4096
     * @param seed the seed
     */
    public Result communication(Case scenario, RoceOrGse fabric, long bytesPerRank, long seed) {
        Parameters.notNull("scenario", scenario);
        Parameters.notNull("fabric", fabric);
        Parameters.inRange("bytesPerRank", bytesPerRank, 4096L, MAX_BYTES_PER_RANK);
        int[] failed = failedUplinks(scenario);
        JobMetrics m = simulate(scenario, fabric, bytesPerRank, seed, failed, JobSimulation.linksDownFromStart(failed));
        return comm(scenario, fabric, bytesPerRank, seed, failed, m);
    }

    /**
     * The single-job AllReduce with the uplink leaf 0 - spine 0 failing at {@code failPs}: the routes
     * avoid it from {@code failPs + detectionPs} on. Use a positive detection time for RoCE (failure
     * detected, then ECMP re-hashes) and a negative one for GSE (failure announced ahead by FEC
     * monitoring, 002 section 3.3: {@link fabriclab.simulation.Scenario.LinkFailure} with the reroute before the
     * failure). Either sign works with either fabric: what is lost on the link is recovered by go-back-N (RoCE)
     * or by the edges' container resend (GSE). Reported as scenario {@link Case#ONE_LINK_DOWN}.
     *
     * @param fabric RoCE or GSE
     * @param bytesPerRank gradient bytes per rank, at least 4096
     * @param seed the seed
     * @param failPs failure time [ps], not negative
     * @param detectionPs reroute time minus failure time [ps], -failPs to {@link #HORIZON_PS}: negative for a
     *        predicted failure (the routes avoid the link before it fails), positive for a detected one
     * @throws IllegalStateException if the AllReduce does not finish within {@link #HORIZON_PS} (not expected:
     *         both fabrics recover lost packets)
     */
    public Result failureDuringCollective(RoceOrGse fabric, long bytesPerRank, long seed, long failPs, long detectionPs) {
        Parameters.notNull("fabric", fabric);
        Parameters.inRange("bytesPerRank", bytesPerRank, 4096L, MAX_BYTES_PER_RANK);
        Parameters.inRange("failPs", failPs, 0L, HORIZON_PS);
        Parameters.inRange("detectionPs", detectionPs, -failPs, HORIZON_PS);
        int[] failed = failedUplinks(Case.ONE_LINK_DOWN);
        JobMetrics m = simulate(Case.SINGLE_JOB, fabric, bytesPerRank, seed, failed,
                setup -> setup.failLink(failed[0], failPs, failPs + detectionPs));
        if (!m.allFinished()) {
            throw new IllegalStateException("the " + fabric + " AllReduce with the link failing at " + failPs
                    + " ps and rerouted " + detectionPs + " ps later did not finish within " + HORIZON_PS + " ps");
        }
        return comm(Case.ONE_LINK_DOWN, fabric, bytesPerRank, seed, failed, m);
    }

    /** The ring AllReduces of {@code scenario}'s groups on 000's testbed as first read, {@code failed} left out of the balance. */
    private JobMetrics simulate(Case scenario, RoceOrGse fabric, long bytesPerRank, long seed, int[] failed,
            java.util.function.Consumer<fabriclab.simulation.Scenario.Builder> setup) {
        int[][] groups = groups(scenario);
        return JobSimulation.run(fabric(), JobSimulation.FabricSettings.firstReading(fabric), seed,
                JobSimulation.collectives(groups, Collective.RING_ALL_REDUCE, bytesPerRank), groups.length, failed, setup);
    }

    private static Result comm(Case scenario, RoceOrGse fabric, long bytesPerRank, long seed, int[] failed, JobMetrics m) {
        return new Result(scenario, fabric, bytesPerRank, seed, m.maxJctUs(), failed.length, m.uplinkMaxOverMean(),
                m.counter(SimulationResult.BLACKHOLED_PACKETS), m.drops(), m.retransmits(), m.pfc().pauses(), m.ecnMarks(),
                m.delivery());
    }

    /**
     * The parameters of one steady-state run: what {@link Task} gives to {@link #communication}.
     * Validated on construction (so also when a cluster deserializes it).
     *
     * @param speedup leaf speedup, 1.5 or 2
     * @param scenario the table row, not null
     * @param fabric RoCE or GSE, not null
     * @param bytesPerRank gradient bytes per rank, at least 4096
     * @param seed the seed
     */
    public record Point(double speedup, Case scenario, RoceOrGse fabric, long bytesPerRank, long seed)
            implements Serializable {
        private static final long serialVersionUID = 1L;

        /** Validates every field. */
        public Point {
            Duan2024Testbed.checkSpeedup(speedup);
            Parameters.notNull("scenario", scenario);
            Parameters.notNull("fabric", fabric);
            Parameters.atLeast("bytesPerRank", bytesPerRank, 4096L);
        }
    }

    /**
     * The sweep task of the steady-state runs: {@code new Llama2Fabric(p.speedup()).communication(p.scenario(),
     * p.fabric(), p.bytesPerRank(), p.seed())}, by name, so that any {@link SweepExecutor} can run it.
     */
    public static final class Task implements SweepTask<Point, Result> {
        /** Stateless. */
        public Task() {
        }

        @Override
        public Result run(Point p) {
            Parameters.notNull("p", p);
            return new Llama2Fabric(p.speedup()).communication(p.scenario(), p.fabric(), p.bytesPerRank(), p.seed());
        }
    }

    /**
     * The parameters of one run of {@link #failureSweep}.
     *
     * @param detectionPs reroute time minus failure time [ps]
     */
    private record Detection(long detectionPs) {
    }

    /**
     * Runs every scenario x fabric x seed at {@code bytesPerRank} on {@code threads} threads ({@link LocalThreads});
     * results in the order (scenario, fabric, seed) whatever the thread count, each depending only on its
     * own seed.
     *
     * @param scenarios the table rows, no null element
     * @param fabrics the fabrics, no null element
     * @param bytesPerRank gradient bytes per rank, at least 4096
     * @param seeds the seeds
     * @param threads worker threads, at least 1
     * @param sink where the progress bar goes
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<Result> sweep(List<Case> scenarios, List<RoceOrGse> fabrics, long bytesPerRank, long[] seeds, int threads,
            ProgressSink sink) throws InterruptedException {
        return new LocalThreads(threads).run(sweepPlan(scenarios, fabrics, bytesPerRank, seeds), sink);
    }

    /**
     * The plan of {@link #sweep}: every scenario x fabric x seed at {@code bytesPerRank}, in the order
     * (scenario, fabric, seed), run by {@link Task}. Run it on any {@link SweepExecutor}; turn its
     * results into a table with {@link #table}.
     *
     * @param scenarios the table rows, no null element
     * @param fabrics the fabrics, no null element
     * @param bytesPerRank gradient bytes per rank, at least 4096
     * @param seeds the seeds
     */
    public SweepPlan<Point, Result> sweepPlan(List<Case> scenarios, List<RoceOrGse> fabrics, long bytesPerRank,
            long[] seeds) {
        Parameters.notNull("scenarios", scenarios);
        Parameters.notNull("fabrics", fabrics);
        Parameters.inRange("bytesPerRank", bytesPerRank, 4096L, MAX_BYTES_PER_RANK);
        Parameters.notNull("seeds", seeds);
        List<Point> points = new ArrayList<>();
        for (int i = 0; i < scenarios.size(); i++) {
            Case s = Parameters.notNull("scenarios[" + i + "]", scenarios.get(i));
            for (int j = 0; j < fabrics.size(); j++) {
                RoceOrGse f = Parameters.notNull("fabrics[" + j + "]", fabrics.get(j));
                for (long seed : seeds) {
                    points.add(new Point(speedup, s, f, bytesPerRank, seed));
                }
            }
        }
        return new SweepPlan<>("Llama2 communication (" + points.size() + " runs)", Task.class, points);
    }

    /** Name of the published-scenario runs' model dataset, {@code datasets/model/llama2-comm.csv}. */
    public static final String COMM_RUNS = "llama2-comm";

    /** Gradient bytes per rank of {@link #commRuns} (scaled to 3.25 GB by {@link Llama2Iteration}). */
    public static final long COMM_BYTES_PER_RANK = 512L << 20;

    /**
     * The communication runs behind notebook 09: the four scenarios of 002 table 1 on the 1.5:1 fabric,
     * RoCE and GSE, seeds 1 to 3, {@link #COMM_BYTES_PER_RANK} per rank (24 runs), in the order
     * (scenario, fabric, seed) whatever the thread count. Writes nothing: save the runs with
     * {@link #commRunsDataset} and {@code fabriclab.datasets.Datasets}.
     *
     * @param threads worker threads, at least 1
     * @param sink where the progress bar goes
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static List<Result> commRuns(int threads, ProgressSink sink) throws InterruptedException {
        return commRuns(new LocalThreads(threads), sink);
    }

    /**
     * {@link #commRuns(int, ProgressSink)} on any executor: local threads, or a Spark cluster
     * ({@code fabriclab.sweep.SweepExecutors.configured(threads)} picks one from the
     * {@code FABRICLAB_SWEEP_MASTER} setting). The same runs, in the same order, on every executor.
     *
     * @param executor where the runs happen
     * @param sink where the progress bar goes
     * @throws InterruptedException if the calling thread is interrupted
     */
    public static List<Result> commRuns(SweepExecutor executor, ProgressSink sink) throws InterruptedException {
        Parameters.notNull("executor", executor);
        return executor.run(commRunsPlan(), sink);
    }

    /** The plan of {@link #commRuns(SweepExecutor, ProgressSink)}: 24 records in the order (scenario, fabric, seed). */
    public static SweepPlan<Point, Result> commRunsPlan() {
        return new Llama2Fabric(1.5).sweepPlan(List.of(Case.values()), List.of(RoceOrGse.ROCE, RoceOrGse.GSE), COMM_BYTES_PER_RANK,
                new long[] {1, 2, 3});
    }

    /**
     * The runs of {@link #commRuns(SweepExecutor, ProgressSink)} as the model dataset {@link #COMM_RUNS}: the table of {@link #table}
     * with its provenance. The same runs give the same bytes when saved.
     *
     * @param runs the runs, not null
     */
    public static Dataset commRunsDataset(List<Result> runs) {
        Parameters.noNullElements("runs", runs);
        return new Dataset(provenance(COMM_RUNS,
                "Written by fabriclab.experiments.Llama2CommMain; "
                        + runs.size() + " runs, speedup 1.5, ring AllReduce of " + (COMM_BYTES_PER_RANK >> 20)
                        + " MiB per rank (deterministic: each run depends only on its seed)."), table(COMM_RUNS, runs));
    }

    /**
     * {@link #failureDuringCollective} for each detection time, on {@code threads} threads ({@link Sweep});
     * results in the order of {@code detectionsPs}.
     *
     * @param fabric RoCE or GSE
     * @param bytesPerRank gradient bytes per rank, at least 4096
     * @param seed the seed
     * @param failPs failure time [ps], not negative
     * @param detectionsPs reroute time minus failure time of each run [ps] (see {@link #failureDuringCollective})
     * @param threads worker threads, at least 1
     * @param sink where the progress bar goes
     * @throws InterruptedException if the calling thread is interrupted
     */
    public List<Result> failureSweep(RoceOrGse fabric, long bytesPerRank, long seed, long failPs, long[] detectionsPs, int threads,
            ProgressSink sink) throws InterruptedException {
        Parameters.notNull("fabric", fabric);
        Parameters.inRange("bytesPerRank", bytesPerRank, 4096L, MAX_BYTES_PER_RANK);
        Parameters.inRange("failPs", failPs, 0L, HORIZON_PS);
        Parameters.notNull("detectionsPs", detectionsPs);
        List<Detection> points = new ArrayList<>();
        for (int i = 0; i < detectionsPs.length; i++) {
            long d = detectionsPs[i];
            Parameters.inRange("detectionsPs[" + i + "]", d, -failPs, HORIZON_PS);
            points.add(new Detection(d));
        }
        return Sweep.run("link failure during the AllReduce (" + points.size() + " runs)", points,
                p -> failureDuringCollective(fabric, bytesPerRank, seed, failPs, p.detectionPs()), threads, sink);
    }

    /** The columns of {@link #table}, with their units. */
    private static final Columns<Result> COLUMNS = JobMetrics.DeliveryCounters.appendTo(Columns.<Result>of()
            .stringColumn("scenario", "002 table 1 row", c -> c.scenario().label())
            .stringColumn("fabric", "", c -> c.fabric().name().toLowerCase(Locale.ROOT))
            .doubleColumn("size_mb", "MiB of gradients per rank (simulated)", c -> c.bytesPerRank() / 1048576.0)
            .longColumn("seed", "", Result::seed)
            .doubleColumn("comm_us", "us", Result::commUs)
            .intColumn("failed_uplinks", "links", Result::failedUplinks)
            .doubleColumn("uplink_max_over_mean", "ratio", Result::uplinkMaxOverMean)
            .longColumn("blackholed_packets", "packets", Result::blackholedPackets)
            .longColumn("drops", "packets", Result::drops)
            .longColumn("retransmitted_packets", "packets", Result::retransmittedPackets)
            .longColumn("pfc_pauses", "frames", Result::pfcPauses)
            .longColumn("ecn_marks", "packets", Result::ecnMarks), Result::delivery, false);

    /**
     * The runs as a table named {@code name}, one row per run in the order given: the scenario's label,
     * the fabric in lower case, size_mb = gradient bytes per rank [MiB], then the fields of {@link Result}, the delivery
     * columns of {@link JobMetrics.DeliveryCounters#appendTo} (goodput_gbps ... failed_qps) last.
     */
    public static Table table(String name, List<Result> runs) {
        Parameters.noNullElements("runs", runs);
        return COLUMNS.table(name, runs);
    }

    /**
     * Provenance of a model dataset made of {@link #table}: the units of its columns, 002 as the paper.
     *
     * @param name the dataset name
     * @param notes how the runs were made
     */
    public static Provenance provenance(String name, String notes) {
        return new Provenance(name, "Llama2-13B gradient AllReduce time per 002 table 1 scenario, "
                + "packet-level model on the 000 fabric", "model",
                new Provenance.Paper("002_f37e90f02f6a00b7.txt", null, null, null, null),
                "002 table 1 (model of the communication phase)", COLUMNS.units(), notes);
    }
}
