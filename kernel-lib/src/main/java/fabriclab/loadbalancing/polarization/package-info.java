/** Hash polarization: correlated ECMP choices of successive tiers, closed forms and simulation with real hashes. */
package fabriclab.loadbalancing.polarization;
