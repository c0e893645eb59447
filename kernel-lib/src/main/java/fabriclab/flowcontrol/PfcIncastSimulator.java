package fabriclab.flowcontrol;

import fabriclab.Parameters;
import fabriclab.fabric.Incast;
import fabriclab.fabric.Pfc;
import fabriclab.fabric.Time;

import java.util.ArrayDeque;

/**
 * Incast under PFC only (003 section 4.1): the senders of an {@link Incast}, one per ingress port,
 * each with a message of M bytes at rate r (sender i from {@code i * stagger}), towards one egress
 * port of rate R. The shared buffer keeps one counter per ingress (the bytes of that ingress still
 * queued); the egress serves the counters in proportion to their occupancy (fluid FIFO). When a
 * counter {@link Pfc#pausesAt reaches XOFF} the ingress sends a PFC pause that stops its sender
 * {@code pauseDelayS} later (the bytes in flight meanwhile land in the headroom); when it
 * {@link Pfc#resumesAt falls below XON} a resume takes the same delay. Excess traffic therefore
 * waits at the senders. The buffer is not limited: the headroom check of the constructor keeps every
 * counter within XOFF + headroom (plus one step), which is the buffer a switch must provide.
 *
 * <p>Time-stepped with step {@code stepS}; a simulator object holds the state of one run.
 */
public final class PfcIncastSimulator {
    /**
     * Result of a run.
     *
     * @param timesS              sample times [s]
     * @param egressQueueBytes    total queue of the egress (sum of ingress counters) at each sample
     * @param senderBacklogBytes  bytes not yet sent by all senders at each sample
     * @param maxEgressQueueBytes largest total queue [bytes]
     * @param maxIngressBytes     largest single ingress counter [bytes]
     * @param completionS         time the last byte leaves the egress [s]
     * @param pauseFrames         number of XOFF transitions (pause frames sent)
     */
    public record Result(double[] timesS, double[] egressQueueBytes, double[] senderBacklogBytes,
                         double maxEgressQueueBytes, double maxIngressBytes, double completionS, long pauseFrames) {
        /** Validates: arrays of finite numbers, bytes and times finite and &gt;= 0. */
        public Result {
            Parameters.finiteElements("timesS", timesS);
            Parameters.finiteElements("egressQueueBytes", egressQueueBytes);
            Parameters.finiteElements("senderBacklogBytes", senderBacklogBytes);
            Parameters.nonNegative("maxEgressQueueBytes", maxEgressQueueBytes);
            Parameters.nonNegative("maxIngressBytes", maxIngressBytes);
            Parameters.nonNegative("completionS", completionS);
            Parameters.atLeast("pauseFrames", pauseFrames, 0);
        }
    }

    private final int n;
    private final double r;
    private final double bigR;
    private final double m;
    private final double[] startS;
    private final Pfc pfc;
    private final double delay;
    private final double step;

    /**
     * @param incast       the senders (n, M, r, stagger) and the egress port rate R (the receiver's);
     *                     its queue pairs share their sender's ingress counter
     * @param pfc          XOFF/XON and headroom of every ingress
     * @param pauseDelayS  time from the XOFF (or XON) crossing until the sender stops (resumes) [s];
     *                     must satisfy r * delay / 8 <= headroom
     * @param stepS        time step [s], positive and at most pauseDelayS / 2 when the delay is positive
     */
    public PfcIncastSimulator(Incast incast, Pfc pfc, double pauseDelayS, double stepS) {
        Parameters.notNull("incast", incast);
        this.n = incast.senders();
        this.r = incast.senderRateBitsPerSecond();
        this.bigR = incast.receiverRateBitsPerSecond();
        this.m = incast.bytesPerSender();
        this.startS = new double[n];
        for (int i = 0; i < n; i++) {
            startS[i] = Time.toSeconds(incast.startPs(i));
        }
        this.pfc = Parameters.notNull("pfc", pfc);
        this.delay = Parameters.nonNegative("pauseDelayS", pauseDelayS);
        this.step = Parameters.positive("stepS", stepS);
        if (delay > 0 && step > delay / 2) {
            throw new IllegalArgumentException("stepS must be <= pauseDelayS / 2 (" + delay / 2 + "), got " + stepS);
        }
        double horizonS = horizonS();
        if (horizonS / step > MAX_STEPS) {
            throw new IllegalArgumentException("stepS must be at least " + horizonS / MAX_STEPS + " s for this incast (its run of up to "
                    + horizonS + " s may take at most " + (long) MAX_STEPS + " steps), got " + stepS);
        }
        if (r * delay / 8.0 > pfc.headroomBytes() + 1e-9) {
            throw new IllegalArgumentException("pfc.headroomBytes " + pfc.headroomBytes()
                    + " is smaller than the bytes in flight r * pauseDelayS / 8 = " + r * delay / 8.0 + " (got pauseDelayS = "
                    + delay + ")");
        }
    }

    /** The most steps a run may take (rejected up front: a smaller step would run for hours). */
    public static final double MAX_STEPS = 2e9;

    /** Time by which every byte has left the egress [s]: last start, sending, draining, four pause delays. */
    private double horizonS() {
        return startS[n - 1] + 8.0 * n * m / Math.min(r, bigR) + 8.0 * n * m / bigR + 4 * delay;
    }

    /** Runs until every byte has left the egress; samples every {@code sampleEvery} steps. */
    public Result run(int sampleEvery) {
        Parameters.atLeast("sampleEvery", sampleEvery, 1);
        double[] counter = new double[n];
        double[] remaining = new double[n];
        boolean[] signalled = new boolean[n]; // last signal sent: true = XOFF
        boolean[] paused = new boolean[n];    // state at the sender
        @SuppressWarnings("unchecked")
        ArrayDeque<double[]>[] pending = new ArrayDeque[n];
        for (int i = 0; i < n; i++) {
            remaining[i] = m;
            pending[i] = new ArrayDeque<>();
        }
        long maxSteps = (long) Math.ceil(horizonS() / step) + 10;
        int cap = (int) Math.min(1_000_000, maxSteps / sampleEvery + 2);
        double[] ts = new double[cap];
        double[] qs = new double[cap];
        double[] bs = new double[cap];
        int samples = 0;
        double maxQ = 0;
        double maxIn = 0;
        long pauses = 0;
        double t = 0;
        double completion = 0;
        for (long k = 0; k <= maxSteps; k++) {
            double total = 0;
            double backlog = 0;
            for (int i = 0; i < n; i++) {
                total += counter[i];
                backlog += remaining[i];
            }
            if (k % sampleEvery == 0 && samples < cap) {
                ts[samples] = t;
                qs[samples] = total;
                bs[samples] = backlog;
                samples++;
            }
            if (backlog <= 0 && total <= 1e-9) {
                completion = t;
                break;
            }
            // senders transmit, pause state applied
            for (int i = 0; i < n; i++) {
                ArrayDeque<double[]> p = pending[i];
                while (!p.isEmpty() && p.peekFirst()[0] <= t + 1e-15) {
                    paused[i] = p.pollFirst()[1] > 0;
                }
                if (!paused[i] && remaining[i] > 0 && t >= startS[i]) {
                    double b = Math.min(remaining[i], r * step / 8.0);
                    remaining[i] -= b;
                    counter[i] += b;
                    total += b;
                }
            }
            // egress serves in proportion to occupancy
            double serve = Math.min(total, bigR * step / 8.0);
            if (total > 0) {
                double f = serve / total;
                for (int i = 0; i < n; i++) {
                    counter[i] -= counter[i] * f;
                }
            }
            maxQ = Math.max(maxQ, total);
            // ingress thresholds
            for (int i = 0; i < n; i++) {
                maxIn = Math.max(maxIn, counter[i]);
                if (!signalled[i] && pfc.pausesAt(counter[i])) {
                    signalled[i] = true;
                    pauses++;
                    pending[i].addLast(new double[] {t + step + delay, 1});
                } else if (signalled[i] && pfc.resumesAt(counter[i])) {
                    signalled[i] = false;
                    pending[i].addLast(new double[] {t + step + delay, 0});
                }
            }
            t += step;
            completion = t;
        }
        return new Result(java.util.Arrays.copyOf(ts, samples), java.util.Arrays.copyOf(qs, samples),
                java.util.Arrays.copyOf(bs, samples), maxQ, maxIn, completion, pauses);
    }

    /**
     * Network-calculus style bound on the egress queue under PFC: every ingress holds at most
     * XOFF + r * delay / 8 (the sender stops at most one delay after the crossing, plus one step of
     * sampling), so the egress queue is at most n (XOFF + r (delay + step) / 8) [bytes], linear in n.
     */
    public double egressQueueBoundBytes() {
        return n * (pfc.xoffBytes() + r * (delay + step) / 8.0);
    }
}
