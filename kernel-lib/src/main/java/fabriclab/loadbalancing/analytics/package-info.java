/** n flows on m equal paths (balls into bins): exact distributions, flow mixes and Monte Carlo. */
package fabriclab.loadbalancing.analytics;
