/**
 * Credit-based scheduling of GSE (DGSQ, 000 section 2 and 002 section 3.1.2): per-destination-port
 * virtual queues at the sources, request/grant exchange, grant split policies, and network-calculus
 * bounds on the egress queue, the source buffers and the incast completion, compared with PFC only
 * and with no control. Units: bit/s, bytes, seconds.
 */
package fabriclab.scheduling;
