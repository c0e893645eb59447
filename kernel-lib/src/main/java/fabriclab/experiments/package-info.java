/**
 * The papers' headline experiments assembled from the simulator, the transports and the collective
 * schedules (issue 8): GSE vs RoCE job completion time on the fabric of 000 section 3.
 */
package fabriclab.experiments;
