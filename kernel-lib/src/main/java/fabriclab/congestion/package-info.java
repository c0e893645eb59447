/**
 * Congestion-control models of RoCE and its alternatives: ECN/WRED marking
 * ({@link fabriclab.fabric.EcnMarking}, {@link fabriclab.congestion.PriorityWred}); the DCQCN
 * fluid model of Zhu et al. (SIGCOMM 2015) in the per-flow form of the CoNEXT 2016 analysis, with
 * symmetric aggregation of identical flows, optional PFC and optional iQCN of 003 section 4.2.5
 * ({@link fabriclab.congestion.DcqcnFluidModel}, {@link fabriclab.congestion.DcqcnSweeps#iqcnComparison});
 * its exact fixed point and phase margin ({@link fabriclab.congestion.DcqcnFixedPoint},
 * {@link fabriclab.congestion.DcqcnStability}, {@link fabriclab.congestion.DcqcnSweeps}); RTT-based
 * control, CTCC of 001 and TIMELY's gradient rule ({@link fabriclab.congestion.RttFluidModel}); and
 * ECN threshold tuning ({@link fabriclab.congestion.EcnThresholdTuning}).
 *
 * <p>Units: SI seconds, bits per second for rates, bytes for queues and buffers, unless a name
 * says otherwise (trajectory columns carry their unit in the name: {@code _us}, {@code _gbps},
 * {@code _kb} with KB = 1000 bytes). Papers: seed files 000 (section 1.2.2), 001 (CTCC), 003
 * (ECN/WRED, PFC, DCQCN sections).
 */
package fabriclab.congestion;
