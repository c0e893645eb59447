/**
 * Training workloads derived from first principles, the way SimAI's workload generator or ASTRA-sim's
 * Chakra traces derive them: a transformer's configuration gives its parameters and FLOPs
 * ({@link fabriclab.training.TransformerConfig}), an accelerator's peak and a compute efficiency give
 * compute times ({@link fabriclab.training.Accelerator}), a parallel layout
 * ({@link fabriclab.training.ParallelLayout}) gives the collectives one iteration issues, with their
 * bytes and places ({@link fabriclab.training.TrainingJob#collectives()}), and
 * {@link fabriclab.training.IterationTimeline} schedules compute and communication with their
 * dependencies and overlap, communication timed by any {@link fabriclab.training.CommTimer} (a
 * bandwidth bound or the packet simulator). Used for 002 table 1 (Llama2-13B on 32 accelerators).
 */
package fabriclab.training;
