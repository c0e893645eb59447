package fabriclab.congestion;

import fabriclab.Parameters;
import org.apache.commons.math3.complex.Complex;

/**
 * Linear stability of the DCQCN fluid model around its fixed point, in the manner of Zhu, Ghobadi,
 * Misra and Padhye (CoNEXT 2016, section 3.2): the loop is opened at the marking probability and
 * the phase margin of the open-loop transfer function is computed.
 *
 * <p>For N identical flows (the symmetric mode), with x = (R_C, R_T, alpha) of one flow and small
 * deviations around {@link DcqcnFixedPoint}: x' = A0 x + A1 x(t - tau*) + Bp p(t - tau*), where A1
 * acts through the delayed rate R = R_C(t - tau*) and Bp through the delayed marking probability;
 * q' = N R_C; p = k q with k = Pmax / (Kmax - Kmin) (per packet). The open loop is
 * <pre>  L(s) = -k N / s * e1' (sI - A0 - A1 e^{-s tau*})^{-1} Bp e^{-s tau*}</pre>
 * (closed loop 1 + L = 0). The Jacobians are taken by central differences of the model's own
 * right-hand side; the gain crossover |L(j w_c)| = 1 is located on a logarithmic grid
 * (1e2 to 1e9 rad/s, phase unwrapped along it) and refined by bisection; the phase margin is
 * 180 deg + arg L(j w_c). Positive margin: the fixed point is locally stable; negative: the fluid
 * model oscillates. Valid only when the fixed point lies on the marking ramp.
 *
 * @param fixedPoint the linearisation point
 * @param phaseMarginDeg phase margin [degrees]; +180 when |L| never reaches 1
 * @param crossoverRadPerS gain-crossover frequency [rad/s]; 0 when |L| never reaches 1
 * @param onRamp whether the analysis is valid (fixed point on the ramp)
 */
public record DcqcnStability(DcqcnFixedPoint fixedPoint, double phaseMarginDeg, double crossoverRadPerS,
                             boolean onRamp) {

    /** Validates: fixed point not null, phase margin finite, crossover finite and &gt;= 0. */
    public DcqcnStability {
        Parameters.notNull("fixedPoint", fixedPoint);
        Parameters.finite("phaseMarginDeg", phaseMarginDeg);
        Parameters.nonNegative("crossoverRadPerS", crossoverRadPerS);
    }

    /**
     * Computes the phase margin for N flows.
     *
     * @param params DCQCN parameters (tau* is the loop delay), not null
     * @param port bottleneck, not null
     * @param flows N, {@code >= 1} and below C / minRate ({@link DcqcnFixedPoint#solve})
     */
    public static DcqcnStability analyse(DcqcnParameters params, Bottleneck port, int flows) {
        if (params != null && !(params.marking().kMaxBytes() > params.marking().kMinBytes())) {
            throw new IllegalArgumentException("params.marking must have a linear part (kMaxBytes > kMinBytes) for the "
                    + "linearisation, got a step at kMinBytes = " + params.marking().kMinBytes());
        }
        DcqcnFixedPoint fp = DcqcnFixedPoint.solve(params, port, flows);
        if (fp.markingProbability() == 0) {
            // nothing marked at the fixed point (one flow capped at line rate): no loop gain, |L| = 0
            return new DcqcnStability(fp, 180, 0, fp.onRamp());
        }
        double pkt = port.packetBytes();
        double r = fp.rateBitsPerSecond() / (8 * pkt);
        double rt = fp.targetRateBitsPerSecond() / (8 * pkt);
        double[] x0 = {r, rt, fp.alpha()};
        double p0 = fp.markingProbability();
        Rhs f = new Rhs(params, pkt);
        double[][] a0 = new double[3][3];
        double[] a1 = new double[3];
        double[] bp = new double[3];
        for (int j = 0; j < 3; j++) {
            double h = 1e-6 * Math.max(Math.abs(x0[j]), 1e-3);
            double[] xp = x0.clone();
            double[] xm = x0.clone();
            xp[j] += h;
            xm[j] -= h;
            double[] fp1 = f.eval(xp, r, p0);
            double[] fm1 = f.eval(xm, r, p0);
            for (int i = 0; i < 3; i++) {
                a0[i][j] = (fp1[i] - fm1[i]) / (2 * h);
            }
        }
        double hr = 1e-6 * r;
        double[] fr1 = f.eval(x0, r + hr, p0);
        double[] fr2 = f.eval(x0, r - hr, p0);
        double hp = 1e-6 * p0;
        double[] fp2 = f.eval(x0, r, p0 + hp);
        double[] fm2 = f.eval(x0, r, p0 - hp);
        for (int i = 0; i < 3; i++) {
            a1[i] = (fr1[i] - fr2[i]) / (2 * hr);
            bp[i] = (fp2[i] - fm2[i]) / (2 * hp);
        }
        double k = params.marking().slopePerByte() * pkt;
        double tauStar = params.feedbackDelayS();
        int n = flows;
        java.util.function.DoubleFunction<Complex> loop = w -> openLoop(w, a0, a1, bp, k, n, tauStar);

        int grid = 1400;
        double lo = Math.log(1e2);
        double hi = Math.log(1e9);
        double prevW = Math.exp(lo);
        Complex prevL = loop.apply(prevW);
        double phase = prevL.getArgument();
        double prevPhase = phase;
        for (int g = 1; g <= grid; g++) {
            double w = Math.exp(lo + (hi - lo) * g / grid);
            Complex l = loop.apply(w);
            double raw = l.getArgument();
            double ph = prevPhase + wrap(raw - wrap(prevPhase));
            if (prevL.abs() >= 1 && l.abs() < 1) {
                double wa = prevW;
                double wb = w;
                for (int it = 0; it < 80; it++) {
                    double wm = Math.sqrt(wa * wb);
                    if (loop.apply(wm).abs() >= 1) {
                        wa = wm;
                    } else {
                        wb = wm;
                    }
                }
                double wc = Math.sqrt(wa * wb);
                double phc = prevPhase + wrap(loop.apply(wc).getArgument() - wrap(prevPhase));
                return new DcqcnStability(fp, 180 + Math.toDegrees(phc), wc, fp.onRamp());
            }
            prevW = w;
            prevL = l;
            prevPhase = ph;
        }
        return new DcqcnStability(fp, 180, 0, fp.onRamp());
    }

    private static double wrap(double a) {
        double x = Math.IEEEremainder(a, 2 * Math.PI);
        return x;
    }

    private static Complex openLoop(double w, double[][] a0, double[] a1, double[] bp, double k, int n,
                                    double tauStar) {
        Complex s = new Complex(0, w);
        Complex delay = new Complex(Math.cos(-w * tauStar), Math.sin(-w * tauStar));
        Complex[][] m = new Complex[3][3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                Complex v = new Complex(-a0[i][j]);
                if (j == 0) {
                    v = v.subtract(delay.multiply(a1[i]));
                }
                if (i == j) {
                    v = v.add(s);
                }
                m[i][j] = v;
            }
        }
        Complex[] rhs = {delay.multiply(bp[0]), delay.multiply(bp[1]), delay.multiply(bp[2])};
        // first component of m^{-1} rhs by Cramer's rule
        Complex det = det3(m);
        Complex[][] m0 = {{rhs[0], m[0][1], m[0][2]}, {rhs[1], m[1][1], m[1][2]}, {rhs[2], m[2][1], m[2][2]}};
        Complex x0 = det3(m0).divide(det);
        return x0.multiply(-k * n).divide(s);
    }

    private static Complex det3(Complex[][] m) {
        return m[0][0].multiply(m[1][1].multiply(m[2][2]).subtract(m[1][2].multiply(m[2][1])))
                .subtract(m[0][1].multiply(m[1][0].multiply(m[2][2]).subtract(m[1][2].multiply(m[2][0]))))
                .add(m[0][2].multiply(m[1][0].multiply(m[2][1]).subtract(m[1][1].multiply(m[2][0]))));
    }

    /** The per-flow right-hand side of the fluid model as a function of (x, delayed R, delayed p). */
    private static final class Rhs {
        private final DcqcnParameters prm;
        private final double rai;
        private final double bPackets;
        private final DcqcnRates t = new DcqcnRates();

        Rhs(DcqcnParameters prm, double pkt) {
            this.prm = prm;
            this.rai = prm.rateAiBitsPerSecond() / (8 * pkt);
            this.bPackets = prm.byteCounterBytes() / pkt;
        }

        double[] eval(double[] x, double rDelayed, double p) {
            t.compute(p, rDelayed, prm.tauS(), prm.tauPrimeS(), prm.timerS(), bPackets, prm.fastRecoverySteps());
            double rc = x[0];
            double rt = x[1];
            double alpha = x[2];
            return new double[]{
                    -rc * alpha * t.a / (2 * prm.tauS()) + (rt - rc) * (t.rb + t.rd) / 2,
                    -(rt - rc) * t.a / prm.tauS() + rai * (t.rc + t.re),
                    prm.g() / prm.tauPrimeS() * (t.aAlpha - alpha)};
        }
    }
}
