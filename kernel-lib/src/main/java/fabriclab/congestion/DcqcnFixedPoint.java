package fabriclab.congestion;

import fabriclab.fabric.EcnMarking;
import fabriclab.Parameters;
import org.apache.commons.math3.analysis.solvers.BrentSolver;

/**
 * The fixed point of the DCQCN fluid model ({@link DcqcnFluidModel}) for N identical flows
 * (Zhu et al. SIGCOMM 2015 section 5; CoNEXT 2016 section 3, "fixed point").
 *
 * <p>At equilibrium every flow sends R_C = C/N, alpha = 1 - (1-p)^(tau' R) and, setting the rate
 * derivatives to zero, R_T - R_C = tau R_AI R (c+e) / a and
 * <pre>  R_C alpha a^2 = tau^2 R_AI (R c + R e)(R b + R d)</pre>
 * whose left side grows from 0 (p = 0) to R (p = 1) while the right side falls from
 * tau^2 R_AI (R/B + 1/T)^2 to 0, so it has one root p* in (0, 1), found here by Brent's method to
 * 1e-15. The queue follows by inverting the marking ramp: q* = Kmin + p* / Pmax (Kmax - Kmin). If
 * p* > Pmax the ramp cannot deliver p*: the queue then sits at Kmax, where the marking probability
 * jumps from Pmax to 1 ({@link #onRamp()} false), and the fluid model chatters about Kmax.
 *
 * <p>One flow (N = 1) is the exception: the fluid model caps a flow's rate at the line rate C, so
 * its arrivals never exceed the service and the queue, starting empty, stays empty; nothing is
 * marked and alpha decays to 0. The fixed point of the capped model is then R_C = R_T = C,
 * alpha* = 0, p* = 0, q* = 0 (the uncapped balance above would put q* on the ramp, a state the
 * model never reaches).
 *
 * @param flows N
 * @param rateBitsPerSecond per-flow rate C/N [bit/s]
 * @param targetRateBitsPerSecond per-flow target rate R_T [bit/s]
 * @param alpha alpha at equilibrium
 * @param markingProbability p*
 * @param queueBytes q* [bytes]
 * @param onRamp whether {@code p* <= Pmax} (queue on the linear part of the marking curve)
 */
public record DcqcnFixedPoint(int flows, double rateBitsPerSecond, double targetRateBitsPerSecond, double alpha,
                              double markingProbability, double queueBytes, boolean onRamp) {

    /** Validates: flows &gt;= 1, rates and queue finite and &gt;= 0, alpha and p in [0, 1]. */
    public DcqcnFixedPoint {
        Parameters.atLeast("flows", flows, 1);
        Parameters.nonNegative("rateBitsPerSecond", rateBitsPerSecond);
        Parameters.nonNegative("targetRateBitsPerSecond", targetRateBitsPerSecond);
        Parameters.inRange("alpha", alpha, 0, 1);
        Parameters.inRange("markingProbability", markingProbability, 0, 1);
        Parameters.nonNegative("queueBytes", queueBytes);
    }

    /**
     * Solves the fixed point.
     *
     * @param params DCQCN parameters, not null
     * @param port bottleneck (line rate C, packet size), not null
     * @param flows N, {@code >= 1} and below C / minRate (with a rate floor the fair share must lie above it)
     */
    public static DcqcnFixedPoint solve(DcqcnParameters params, Bottleneck port, int flows) {
        Parameters.notNull("params", params);
        Parameters.notNull("port", port);
        Parameters.atLeast("flows", flows, 1);
        if (params.minRateBitsPerSecond() * flows >= port.lineRateBitsPerSecond()) {
            // the fair share C / N would lie at or below the rate floor: the rates cannot settle there
            throw new IllegalArgumentException("flows must be below port.lineRateBitsPerSecond / params.minRateBitsPerSecond = "
                    + port.lineRateBitsPerSecond() / params.minRateBitsPerSecond() + " (no fixed point when the fair share "
                    + "is at or below the rate floor), got " + flows);
        }
        double pkt = port.packetBytes();
        if (flows == 1) {
            // capped at line rate: no queue, no marks, alpha decays to 0 (see the class comment)
            return new DcqcnFixedPoint(1, port.lineRateBitsPerSecond(), port.lineRateBitsPerSecond(), 0, 0, 0, true);
        }
        double r = port.lineRatePps() / flows;
        double rai = params.rateAiBitsPerSecond() / (8 * pkt);
        double bPackets = params.byteCounterBytes() / pkt;
        DcqcnRates t = new DcqcnRates();
        double tau = params.tauS();
        double p = new BrentSolver(1e-15, 1e-15).solve(10_000, x -> {
            t.compute(x, r, tau, params.tauPrimeS(), params.timerS(), bPackets, params.fastRecoverySteps());
            return r * t.aAlpha * t.a * t.a - tau * tau * rai * (t.rc + t.re) * (t.rb + t.rd);
        }, 0.0, 1.0);
        t.compute(p, r, tau, params.tauPrimeS(), params.timerS(), bPackets, params.fastRecoverySteps());
        double rt = r + tau * rai * (t.rc + t.re) / t.a;
        EcnMarking w = params.marking();
        boolean onRamp = p <= w.pMax();
        double q = onRamp ? w.queueForProbability(p) : w.kMaxBytes();
        double bits = 8 * pkt;
        return new DcqcnFixedPoint(flows, r * bits, rt * bits, t.aAlpha, p, q, onRamp);
    }
}
