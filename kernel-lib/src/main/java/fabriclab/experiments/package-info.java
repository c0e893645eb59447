/**
 * The papers' headline experiments assembled from the simulator, the transports and the collective
 * schedules: GSE vs RoCE job completion time on the fabric of 000 section 3, and the communication phase
 * of 002's Llama2 training on the same fabric. The sweeps run through {@link fabriclab.sweep.Sweep} and
 * return their runs; turning them into a dataset and saving it is the caller's step.
 */
package fabriclab.experiments;
