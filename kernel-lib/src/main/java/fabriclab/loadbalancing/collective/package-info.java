/** The cost of ECMP imbalance to a synchronous collective, and QP scaling as a mitigation. */
package fabriclab.loadbalancing.collective;
