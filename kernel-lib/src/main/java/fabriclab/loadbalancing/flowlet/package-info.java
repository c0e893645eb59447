/** Flowlet splitting at idle gaps, and why it does not balance AI-training elephants. */
package fabriclab.loadbalancing.flowlet;
