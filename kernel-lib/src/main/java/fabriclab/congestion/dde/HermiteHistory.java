package fabriclab.congestion.dde;

import java.util.Arrays;
import java.util.function.DoubleFunction;

/**
 * The past of a DDE solution: accepted points (t, y, y') interpolated by cubic Hermite polynomials
 * (third-order accurate, so the fourth-order RK4 keeps order 4 on smooth solutions), and a user
 * history function before the initial time. Points older than the largest lag are discarded, so
 * memory stays bounded on long runs. Not thread-safe; owned by one solver run.
 */
final class HermiteHistory {
    private final int dim;
    private final double t0;
    private final DoubleFunction<double[]> initial;
    private final double keep;
    private double[] ts = new double[64];
    private double[][] ys = new double[64][];
    private double[][] fs = new double[64][];
    private int start;
    private int end;
    private int cursor;

    HermiteHistory(int dim, double t0, DoubleFunction<double[]> initial, double maxLag) {
        this.dim = dim;
        this.t0 = t0;
        this.initial = initial;
        this.keep = maxLag * 1.01 + 1e-300;
    }

    void add(double t, double[] y, double[] f) {
        if (end == ts.length) {
            if (start > ts.length / 2) {
                int n = end - start;
                System.arraycopy(ts, start, ts, 0, n);
                System.arraycopy(ys, start, ys, 0, n);
                System.arraycopy(fs, start, fs, 0, n);
                Arrays.fill(ys, n, end, null);
                Arrays.fill(fs, n, end, null);
                cursor = Math.max(0, cursor - start);
                start = 0;
                end = n;
            } else {
                ts = Arrays.copyOf(ts, ts.length * 2);
                ys = Arrays.copyOf(ys, ys.length * 2);
                fs = Arrays.copyOf(fs, fs.length * 2);
            }
        }
        ts[end] = t;
        ys[end] = y.clone();
        fs[end] = f.clone();
        end++;
        // drop points no query can reach any more (keep one older than t - keep)
        while (end - start > 2 && ts[start + 1] < t - keep) {
            ys[start] = null;
            fs[start] = null;
            start++;
        }
        if (cursor < start) {
            cursor = start;
        }
    }

    /** Writes y(t) into out. */
    void value(double t, double[] out) {
        if (t <= t0) {
            double[] h = initial.apply(t);
            if (h == null || h.length != dim) {
                throw new IllegalArgumentException("history must return an array of length " + dim + " at t=" + t);
            }
            System.arraycopy(h, 0, out, 0, dim);
            return;
        }
        if (t > ts[end - 1] * (1 + 1e-12) + 1e-300 && t > ts[end - 1]) {
            throw new IllegalStateException("history queried at t=" + t + " beyond the last accepted point "
                    + ts[end - 1] + " (step larger than the smallest lag?)");
        }
        if (t < ts[start]) {
            throw new IllegalStateException("history queried at t=" + t + " before the kept window " + ts[start]);
        }
        // locate interval [ts[i], ts[i+1]] containing t; queries move forward, so walk from the cursor
        int i = Math.min(Math.max(cursor, start), end - 2);
        if (i < start) {
            System.arraycopy(ys[end - 1], 0, out, 0, dim);
            return;
        }
        while (i > start && ts[i] > t) {
            i--;
        }
        while (i < end - 2 && ts[i + 1] < t) {
            i++;
        }
        cursor = i;
        double ta = ts[i];
        double tb = ts[i + 1];
        double h = tb - ta;
        if (h <= 0) {
            System.arraycopy(ys[i + 1], 0, out, 0, dim);
            return;
        }
        double s = (t - ta) / h;
        double s2 = s * s;
        double s3 = s2 * s;
        double h00 = 2 * s3 - 3 * s2 + 1;
        double h10 = s3 - 2 * s2 + s;
        double h01 = -2 * s3 + 3 * s2;
        double h11 = s3 - s2;
        double[] ya = ys[i];
        double[] yb = ys[i + 1];
        double[] fa = fs[i];
        double[] fb = fs[i + 1];
        for (int k = 0; k < dim; k++) {
            out[k] = h00 * ya[k] + h10 * h * fa[k] + h01 * yb[k] + h11 * h * fb[k];
        }
    }
}
