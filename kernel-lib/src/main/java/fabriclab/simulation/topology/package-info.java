/** Fabric graphs for the simulator: single switch and two-tier leaf-spine builders. */
package fabriclab.simulation.topology;
