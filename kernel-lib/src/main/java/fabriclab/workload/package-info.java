/**
 * The field's standard flow-completion workload: empirical flow-size distributions ({@code FlowSizeDistribution};
 * WebSearch and FB-Hadoop from {@code datasets/published/}), Poisson arrivals at a target load with optional incast
 * bursts ({@code PoissonTraffic}), the ideal FCT of a flow alone on the empty fabric ({@code IdealFct}), FCT slowdown
 * percentiles by flow size ({@code FctSlowdown}) and HPCC's {@code fct.txt} layout ({@code HpccFctFile}). Uses the
 * simulator's API ({@code fabriclab.simulation}, its flows and results) and {@code fabriclab.datasets}, and
 * sits above them: the simulator knows nothing of it; the runs described by their settings
 * ({@code fabriclab.scenarios}), the command line ({@code fabriclab.cli}) and the validation
 * ({@code fabriclab.validation}) use it.
 */
package fabriclab.workload;
