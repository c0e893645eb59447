package fabriclab.flowcontrol;

import fabriclab.Parameters;
import fabriclab.fabric.Incast;
import fabriclab.fabric.Time;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Exact fluid (bit-by-bit) FIFO queue with a constant service rate and drop-tail buffer: the sum of
 * piecewise-constant arrival rates is integrated between rate breakpoints, so the queue is piecewise
 * linear and every overflow and empty instant is found in closed form (no time step).
 *
 * <p>Between breakpoints the queue obeys dq/dt = (A(t) - R)/8 [bytes/s], clipped at 0 (the port
 * idles) and at the buffer B (the excess (A - R)/8 is lost). This is the "no control" incast of 002
 * section 3.1.2: congestion exactly when sum r_i > R.
 */
public final class FluidQueue {
    private FluidQueue() {
    }

    /**
     * Result of a run.
     *
     * @param timesS        breakpoints of the piecewise-linear queue [s]
     * @param queueBytes    queue at each breakpoint [bytes]
     * @param maxQueueBytes largest queue [bytes]
     * @param overflowTimeS first time the queue reaches the buffer [s], empty if never
     * @param lostBytes     bytes dropped at the full buffer
     * @param arrivedBytes  bytes offered
     * @param completionS   time the last byte leaves the port [s] (0 if nothing arrived)
     */
    public record Trajectory(double[] timesS, double[] queueBytes, double maxQueueBytes, java.util.OptionalDouble overflowTimeS,
                             double lostBytes, double arrivedBytes, double completionS) {
        /** Validates: arrays of finite numbers, bytes and times finite and &gt;= 0, lost &lt;= arrived. */
        public Trajectory {
            Parameters.finiteElements("timesS", timesS);
            Parameters.finiteElements("queueBytes", queueBytes);
            Parameters.nonNegative("maxQueueBytes", maxQueueBytes);
            Parameters.notNull("overflowTimeS", overflowTimeS);
            if (overflowTimeS.isPresent()) {
                Parameters.finite("overflowTimeS", overflowTimeS.getAsDouble());
            }
            Parameters.nonNegative("arrivedBytes", arrivedBytes);
            Parameters.inRange("lostBytes", lostBytes, 0, arrivedBytes);
            Parameters.nonNegative("completionS", completionS);
        }

        /** Bytes that left the port: arrived minus lost (conservation). */
        public double deliveredBytes() {
            return arrivedBytes - lostBytes;
        }

        /** Queue at time t [bytes], linear interpolation between breakpoints, 0 outside. */
        public double queueAt(double t) {
            Parameters.finite("t", t);
            if (timesS.length == 0 || t <= timesS[0] || t >= timesS[timesS.length - 1]) {
                return 0.0;
            }
            int i = Arrays.binarySearch(timesS, t);
            if (i >= 0) {
                while (i + 1 < timesS.length && timesS[i + 1] == t) {
                    i++;
                }
                return queueBytes[i];
            }
            int hi = -i - 1;
            int lo = hi - 1;
            double span = timesS[hi] - timesS[lo];
            return span <= 0 ? queueBytes[hi] : queueBytes[lo] + (queueBytes[hi] - queueBytes[lo]) * (t - timesS[lo]) / span;
        }
    }

    /**
     * The arrivals of an incast at its receiver's port: sender i sends its M bytes at its NIC rate r
     * from {@code i * stagger} on, without any flow control (002 section 3.1.2, figure 2).
     *
     * @param incast the incast, not null
     */
    public static List<RateInterval> arrivals(Incast incast) {
        Parameters.notNull("incast", incast);
        List<RateInterval> a = new ArrayList<>(incast.senders());
        for (int i = 0; i < incast.senders(); i++) {
            a.add(RateInterval.ofBytes(Time.toSeconds(incast.startPs(i)), incast.bytesPerSender(),
                    incast.senderRateBitsPerSecond()));
        }
        return a;
    }

    /**
     * The uncontrolled incast (002 section 3.1.2): the exact trajectory of the receiver's port, rate
     * R = {@code incast.receiverRateBitsPerSecond()}, with a drop-tail buffer B. Synchronized closed forms
     * (n r > R): the queue grows as (n r - R) t / 8 until it reaches B at t = 8B / (n r - R); with an
     * unbounded buffer it peaks at M (n - R / r) when the senders stop at 8M / r.
     *
     * @param incast the incast, not null
     * @param bufferBytes buffer B of the port [bytes], {@code Double.POSITIVE_INFINITY} for an unbounded queue
     */
    public static Trajectory incast(Incast incast, double bufferBytes) {
        return run(arrivals(incast), incast.receiverRateBitsPerSecond(), bufferBytes);
    }

    /**
     * Runs the queue.
     *
     * @param arrivals       constant-rate arrival intervals (may overlap; not empty)
     * @param serviceRateBitsPerSecond port rate R [bit/s]
     * @param bufferBytes    buffer B [bytes]; {@code Double.POSITIVE_INFINITY} for an unbounded queue
     * @return the exact piecewise-linear trajectory
     */
    public static Trajectory run(List<RateInterval> arrivals, double serviceRateBitsPerSecond, double bufferBytes) {
        Parameters.notNull("arrivals", arrivals);
        if (arrivals.isEmpty()) {
            throw new IllegalArgumentException("arrivals must not be empty");
        }
        Parameters.positive("serviceRateBitsPerSecond", serviceRateBitsPerSecond);
        if (!(bufferBytes > 0)) {
            throw new IllegalArgumentException("bufferBytes must be > 0 (or +infinity), got " + bufferBytes);
        }
        int m = arrivals.size();
        double[] et = new double[2 * m];
        double[] dr = new double[2 * m];
        Integer[] order = new Integer[2 * m];
        double arrived = 0;
        for (int k = 0; k < m; k++) {
            RateInterval a = Parameters.notNull("arrivals[" + k + "]", arrivals.get(k));
            et[2 * k] = a.startS();
            dr[2 * k] = a.rateBitsPerSecond();
            et[2 * k + 1] = a.endS();
            dr[2 * k + 1] = -a.rateBitsPerSecond();
            arrived += a.bytes();
            order[2 * k] = 2 * k;
            order[2 * k + 1] = 2 * k + 1;
        }
        Arrays.sort(order, (x, y) -> Double.compare(et[x], et[y]));
        List<double[]> pts = new ArrayList<>();
        double t = et[order[0]];
        double q = 0;
        double rate = 0;
        double maxQ = 0;
        double lost = 0;
        double overflow = Double.POSITIVE_INFINITY;
        pts.add(new double[] {t, 0});
        int idx = 0;
        while (idx < order.length) {
            double now = et[order[idx]];
            // advance from t to now at the current rate
            double[] st = advance(pts, t, now, q, rate, serviceRateBitsPerSecond, bufferBytes);
            t = Math.max(t, now);
            q = st[0];
            lost += st[1];
            if (st[2] < overflow) {
                overflow = st[2];
            }
            while (idx < order.length && et[order[idx]] == now) {
                rate += dr[order[idx]];
                idx++;
            }
            if (Math.abs(rate) < 1e-9 * serviceRateBitsPerSecond) {
                rate = 0;
            }
            maxQ = Math.max(maxQ, q);
        }
        double completion = t;
        if (q > 0) {
            completion = t + 8.0 * q / serviceRateBitsPerSecond;
            pts.add(new double[] {completion, 0});
        }
        for (double[] p : pts) {
            maxQ = Math.max(maxQ, p[1]);
        }
        double[] ts = new double[pts.size()];
        double[] qs = new double[pts.size()];
        for (int i = 0; i < ts.length; i++) {
            ts[i] = pts.get(i)[0];
            qs[i] = pts.get(i)[1];
        }
        return new Trajectory(ts, qs, maxQ, Double.isInfinite(overflow) ? java.util.OptionalDouble.empty()
                : java.util.OptionalDouble.of(overflow), lost, arrived, completion);
    }

    /** Advances the queue from t to now; returns {queue, lost bytes, overflow time or +inf}. */
    private static double[] advance(List<double[]> pts, double t, double now, double q, double rate, double r, double b) {
        double[] st = new double[3];
        st[0] = q;
        st[1] = 0;
        st[2] = Double.POSITIVE_INFINITY;
        if (now <= t) {
            return st;
        }
        double slope = (rate - r) / 8.0; // bytes per second
        double dt = now - t;
        if (slope > 0) {
            double toFull = (b - q) / slope;
            if (toFull < dt) {
                double tf = t + toFull;
                pts.add(new double[] {tf, b});
                st[0] = b;
                st[1] = slope * (now - tf);
                st[2] = tf;
                pts.add(new double[] {now, b});
                return st;
            }
            st[0] = q + slope * dt;
        } else if (slope < 0) {
            if (q <= 0) {
                st[0] = 0;
                if (pts.get(pts.size() - 1)[1] != 0 || pts.get(pts.size() - 1)[0] != t) {
                    pts.add(new double[] {t, 0});
                }
                pts.add(new double[] {now, 0});
                return st;
            }
            double toEmpty = q / -slope;
            if (toEmpty < dt) {
                pts.add(new double[] {t + toEmpty, 0});
                st[0] = 0;
                pts.add(new double[] {now, 0});
                return st;
            }
            st[0] = q + slope * dt;
        } else {
            st[0] = q;
        }
        pts.add(new double[] {now, st[0]});
        return st;
    }
}
