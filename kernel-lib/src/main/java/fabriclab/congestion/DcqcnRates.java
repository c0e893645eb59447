package fabriclab.congestion;

/**
 * The event-rate terms of the DCQCN fluid model (Zhu et al., SIGCOMM 2015, section 5; CoNEXT 2016
 * per-flow form), with the limits p -> 0, p -> 1 and R -> 0 taken exactly. All quantities are per
 * second: the model's per-packet terms b, c, d, e are multiplied by the sending rate R [packet/s]
 * because only those products enter the equations, and the products stay finite where d, e alone
 * diverge (R -> 0).
 *
 * <ul>
 *   <li>a = 1 - (1-p)^(tau R): probability of at least one CNP in a CNP interval;</li>
 *   <li>R b = R p / ((1-p)^(-B) - 1): byte-counter expiries per second (-> R/B as p -> 0);</li>
 *   <li>R c = R b (1-p)^(F B): byte-counter expiries past fast recovery;</li>
 *   <li>R d = R p / ((1-p)^(-T R) - 1): timer expiries per second (-> 1/T as p -> 0,
 *   -> -p / (T ln(1-p)) as R -> 0);</li>
 *   <li>R e = R d (1-p)^(F T R): timer expiries past fast recovery;</li>
 *   <li>a' = 1 - (1-p)^(tau' R): probability of a mark within an alpha period.</li>
 * </ul>
 * B is in packets here. Package-private helper of {@link DcqcnFluidModel}, {@link DcqcnFixedPoint}.
 */
final class DcqcnRates {
    double a;
    double aAlpha;
    double rb;
    double rc;
    double rd;
    double re;

    /**
     * @param p marking probability in [0, 1]
     * @param r sending rate [packet/s], {@code >= 0}
     * @param tau CNP interval [s]
     * @param tauPrime alpha period [s]
     * @param timer T [s]
     * @param bPackets byte counter [packets]
     * @param f fast-recovery steps
     */
    void compute(double p, double r, double tau, double tauPrime, double timer, double bPackets, int f) {
        if (r < 0) {
            r = 0;
        }
        if (p <= 0) {
            a = 0;
            aAlpha = 0;
            rb = r / bPackets;
            rc = rb;
            rd = 1.0 / timer;
            re = rd;
            return;
        }
        if (p >= 1) {
            a = r > 0 ? 1 : 0;
            aAlpha = a;
            rb = 0;
            rc = 0;
            rd = 0;
            re = 0;
            return;
        }
        double l = Math.log1p(-p); // ln(1-p) < 0
        a = -Math.expm1(tau * r * l);
        aAlpha = -Math.expm1(tauPrime * r * l);
        rb = r * p / Math.expm1(-bPackets * l);
        rc = rb * Math.exp(f * bPackets * l);
        double x = timer * r * l; // ln((1-p)^(T R)) <= 0
        if (r == 0 || x > -1e-300) {
            rd = p / (-timer * l);
        } else {
            rd = r * p / Math.expm1(-x);
        }
        re = rd * Math.exp(f * x);
    }
}
