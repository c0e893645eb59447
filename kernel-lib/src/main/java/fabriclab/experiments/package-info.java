/**
 * The papers' headline experiments assembled from the simulator, the transports and the collective
 * schedules: GSE vs RoCE job completion time on the fabric of 000 section 3, and the communication phase
 * of 002's Llama2 training on the same fabric.
 *
 * <p>One shape for every experiment. The shared base is {@link fabriclab.experiments.testbed}: 000's testbed
 * ({@link fabriclab.experiments.testbed.Duan2024Testbed}: leaf-spine, jobs and the settings the paper leaves
 * unstated), the choice of RoCE or GSE and the spread over seeds; it imports no experiment. Every packet-level run of
 * concurrent jobs goes through one run ({@code JobSimulation}: switches, RoCE or GSE, horizon) and is measured as one
 * {@link fabriclab.experiments.JobMetrics} (JCT per group, uplink balance, PFC, ECN, drops, retransmissions and the
 * transport's counters); both import no experiment either. An experiment {@code X} names its roles alike:
 * {@code X.Point} holds the inputs of one run of its sweep, {@code X.Result} what the run returns, and
 * {@code X.Task} is the {@link fabriclab.sweep.SweepTask} from one to the other, so that the sweep runner
 * ({@link fabriclab.sweep.SweepExecutor}) can run its points; turning the results into a dataset and saving it is
 * the caller's step. The papers are named by author and year in code (000 is Duan et al. 2024). Published targets
 * are read from {@code datasets/published/} ({@link fabriclab.experiments.GseVsRoceJct#publishedBand}).
 */
package fabriclab.experiments;
