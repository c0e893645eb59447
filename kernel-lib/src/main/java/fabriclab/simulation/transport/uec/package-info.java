/**
 * The Ultra Ethernet transport (UEC specification 1.0, June 2025) at packet level, as its public reference simulator
 * (ultraethernet/uet-htsim, {@code htsim/sim/uec.cpp}) runs it: senders spray packets over entropy values (oblivious,
 * or recycling the entropies of packets acknowledged without ECN as REPS does), the switches hash each packet's entropy
 * to pick among equal-cost ports, trim packets above a queue threshold to their headers and forward those ahead of the
 * data, receivers accept packets in any order, acknowledge selectively and NACK trimmed packets, and each sender's
 * window follows NSCC (delay and ECN, its four cases, quick adapt); optionally the receivers pace their senders with
 * credit (RCCC, {@link fabriclab.simulation.transport.uec.Rccc}). The model is
 * {@link fabriclab.simulation.transport.uec.UecTransport}; its NSCC settings {@link
 * fabriclab.simulation.transport.uec.Nscc}.
 *
 * <p>Not built: REPS's freezing mode after a timeout, the
 * last-hop trim code point, the base-RTT probe (section 3.6.13.7) and destination flow control (section 3.6.13.2).
 */
package fabriclab.simulation.transport.uec;
