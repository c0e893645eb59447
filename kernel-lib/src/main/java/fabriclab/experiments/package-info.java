/**
 * The papers' headline experiments assembled from the simulator, the transports and the collective
 * schedules: GSE vs RoCE job completion time on the fabric of 000 section 3, and the communication phase
 * of 002's Llama2 training on the same fabric.
 *
 * <p>One shape for every experiment: the testbed is built in one place ({@link fabriclab.experiments.testbed.Duan2024Testbed}
 * for 000's leaf-spine and jobs), every packet-level run of concurrent jobs goes through one run
 * ({@code JobSimulation}: switches, RoCE or GSE, horizon) and is measured as one
 * {@link fabriclab.experiments.testbed.JobMetrics} (JCT per group, uplink balance, PFC, ECN, drops, retransmissions and the
 * transport's counters). A paper experiment is a parameter record plus one {@code run}, wrapped in a
 * {@link fabriclab.sweep.SweepTask} so that the sweep runner ({@link fabriclab.sweep.SweepExecutor}) can run its
 * points; turning the runs into a dataset and saving it is the caller's step. Published targets are read
 * from {@code datasets/published/} ({@link fabriclab.experiments.GseVsRoceJct#publishedBand}).
 */
package fabriclab.experiments;
