package fabriclab.simulation.transport.uec;

import fabriclab.Parameters;

/**
 * Receiver-credit congestion control (RCCC, UEC specification 1.0, section 3.6.14) as an option of {@link UecTransport}:
 * each receiver hands its senders credit, and a sender sends only while it holds some.
 *
 * <ul>
 *   <li>Sender: starts with {@code speculativeCreditBdp} x BDP of speculative credit (0: none; it then asks for credit
 *       at once); the first acknowledgement, NACK or credit it receives ends the speculation, and whatever speculative
 *       credit is left is dropped. Every data packet spends its wire bytes of credit and carries the sender's pull
 *       target, cumulative: the credit received so far plus what it still needs (the wire bytes of its unsent and
 *       to-be-resent packets, at most {@code maxCreditBdp} x BDP and, with {@code senderWindow}, at most the NSCC
 *       window plus a packet), less the credit it holds, rounded up to 256 B. A sender may send while its credit is
 *       positive (so it overspends by less than a packet) and, with {@code senderWindow}, while NSCC's window also
 *       allows. One without credit but with packets to send (after a NACK or a timeout) asks again with a probe
 *       carrying its target, at most once per base RTT. Credit above {@code maxCreditBdp} x BDP is not kept.</li>
 *   <li>Receiver: one credit pacer per receiving host, shared by the flows into it. A flow whose pull target rose
 *       above the credit granted (or whose packet arrived trimmed: its wire bytes are added to the target, since it
 *       must be resent) joins the pacer's round robin; each turn grants it up to {@code packetsPerCredit} x MSS of
 *       credit, never above its target, in one 64 B credit packet (sent ahead of data, as ACKs are), and the pacer
 *       waits the grant's time at {@code pullRateFraction} of the host's line rate (at least 1024 B of it) before the
 *       next. A flow whose target is met leaves for the idle list, whose flows, when no flow has a target to meet,
 *       get unrequested credit a grant at a time until each holds {@code maxCreditBdp} x BDP above its target or
 *       every packet of it arrived (the reference keeps granting to the cap).</li>
 * </ul>
 *
 * <p>The specification's text was not at hand when this was written: its section number is the one this package cites
 * for RCCC, and every default below is read from the reference simulator, which follows it (its comment on the credit
 * per pull says so).
 *
 * <p>Defaults ({@link #defaults()}) from the reference simulator ultraethernet/uet-htsim ({@code htsim/sim}): credit
 * per pull 4 x MSS ({@code uec.cpp}, {@code UecSink::_mtus_per_pull = 4}, "as per default in UEC spec"), in units of
 * 256 B ({@code uecpacket.h}, {@code UEC_PULL_QUANTUM}); pacing at 0.99 of the line rate ({@code datacenter/main_uec.cpp},
 * the {@code UecPullPacer}'s {@code pull_rate_modifier}; {@code uec.cpp}, {@code UecPullPacer::doNextEvent}, at least
 * 1024 B of time between pulls); the most credit a sender keeps and the speculative credit it starts with, 1.5 BDP
 * ({@code uec.cpp}, {@code initRccc}, {@code setConfiguredMaxWnd(1.5 * bdp)}; {@code startConnection},
 * {@code _credit = _configured_maxwnd}); speculation ends on the first ACK, NACK or pull ({@code stopSpeculating});
 * the pull target ({@code computePullTarget}); unrequested ("slow") pulls for idle senders up to the same 1.5 BDP
 * ({@code UecPullPacer::doNextEvent}); the sender window with it ({@code -receiver_cc} beside
 * {@code -sender_cc_algo nscc}; {@code -receiver_cc_only} turns NSCC off). Not modelled: the division of a pull
 * target among a NIC's active sources ({@code _nic.activeSources()}: every sender here holds one flow per host in the
 * scenarios compared), a receiver's oversubscription and PCIe rate limits of the pacer, and the request-to-send packet
 * (a probe carries the target instead). The reference's switches also stop ECN-marking at the leaves' ports to hosts
 * when receivers grant credit ({@code main_uec.cpp}, {@code set_ecn_parameters(true, !receiver_driven, ...)}): a
 * setting of the fabric, not of this transport ({@code BufferPlan.withoutEcnMarking}).
 *
 * @param enabled whether the receivers grant credit (false: NSCC alone, the other fields unused)
 * @param senderWindow whether NSCC's window also limits the sender (false: credit alone, RCCC only)
 * @param packetsPerCredit the credit of one grant in MSS (payload) bytes, 1..64
 * @param pullRateFraction the pacer's rate as a fraction of the receiving host's line rate, in (0, 1]
 * @param speculativeCreditBdp the credit a sender starts with, in BDPs, 0..100
 * @param maxCreditBdp the most credit a sender keeps, in BDPs, 0.1..100
 */
public record Rccc(boolean enabled, boolean senderWindow, int packetsPerCredit, double pullRateFraction,
        double speculativeCreditBdp, double maxCreditBdp) {
    /** Credit is counted in units of this many bytes (uet-htsim {@code UEC_PULL_QUANTUM}). */
    public static final int QUANTUM_BYTES = 256;
    /** The least time between two grants, as this many bytes at the pacer's rate (uet-htsim {@code doNextEvent}). */
    public static final int MIN_PULL_SPACING_BYTES = 1024;

    /** Validates. */
    public Rccc {
        Parameters.inRange("packetsPerCredit", packetsPerCredit, 1, 64);
        Parameters.inRange("pullRateFraction", pullRateFraction, Double.MIN_VALUE, 1.0);
        Parameters.inRange("speculativeCreditBdp", speculativeCreditBdp, 0.0, 100.0);
        Parameters.inRange("maxCreditBdp", maxCreditBdp, 0.1, 100.0);
    }

    /** RCCC beside NSCC with the reference's settings: 4 MSS per grant, 0.99 of line rate, 1.5 BDP (class comment). */
    public static Rccc defaults() {
        return new Rccc(true, true, 4, 0.99, 1.5, 1.5);
    }

    /** Off: NSCC alone (the reference's default, and this transport's). */
    public static Rccc off() {
        return new Rccc(false, true, 4, 0.99, 1.5, 1.5);
    }

    /** A copy with the NSCC window on beside the credit or off (RCCC alone). */
    public Rccc withSenderWindow(boolean on) {
        return new Rccc(enabled, on, packetsPerCredit, pullRateFraction, speculativeCreditBdp, maxCreditBdp);
    }

    /** A copy starting each sender with {@code bdps} of speculative credit (0: none, it asks first). */
    public Rccc withSpeculativeCreditBdp(double bdps) {
        return new Rccc(enabled, senderWindow, packetsPerCredit, pullRateFraction, bdps, maxCreditBdp);
    }

    /** The name of this setting on the command line: {@code off}, {@code on} (with NSCC) or {@code only}. */
    public String optionName() {
        return !enabled ? "off" : senderWindow ? "on" : "only";
    }

    /** The setting named {@code name} on the command line ({@link #optionName()}), with the reference's values. */
    public static Rccc named(String name) {
        Parameters.notNull("name", name);
        return switch (name) {
            case "off" -> off();
            case "on" -> defaults();
            case "only" -> defaults().withSenderWindow(false);
            default -> throw new IllegalArgumentException("name must be off, on or only, got \"" + name + "\"");
        };
    }
}
