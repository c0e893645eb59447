/** RoCEv2 flows as switches see them: 5-tuples and the traffic of a training job. */
package fabriclab.loadbalancing.flow;
