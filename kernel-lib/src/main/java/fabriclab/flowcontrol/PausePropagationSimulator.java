package fabriclab.flowcontrol;

import fabriclab.Parameters;
import fabriclab.fabric.Pfc;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Hop-by-hop PFC pause propagation and head-of-line blocking (003 section 4.1; 000 section 1:
 * "head-of-line blocking, congestion spreading"). A chain of {@code hops} switch ingress queues on
 * one priority (for example source leaf, spine, destination leaf) carries an incast aggregate of
 * {@code incastRateBitsPerSecond} from a sender NIC towards a bottleneck egress of rate R at the last hop; the
 * links between hops run at {@code linkRateBitsPerSecond}. The same NIC also sends a victim flow of
 * {@code victimRateBitsPerSecond} on the same priority towards an uncongested port of the first switch: its
 * bytes never queue, but whenever the first switch pauses the NIC, the victim stops as well.
 *
 * <p>Each hop pauses its upstream (the previous hop's egress, or the NIC) when its ingress queue
 * {@link Pfc#pausesAt reaches XOFF} and resumes it when the queue {@link Pfc#resumesAt falls below
 * XON}, both taking effect {@code pauseDelayS} later. The buffer is not limited: the headroom check
 * of the constructor keeps every queue within XOFF + headroom (plus one step). Data advance at
 * most one hop per step. Time-stepped with step {@code stepS}; one object per scenario.
 */
public final class PausePropagationSimulator {
    /**
     * Result of a run.
     *
     * @param timesS              sample times [s]
     * @param queueBytes          queueBytes[k][s]: ingress queue of hop k at sample s [bytes]
     * @param maxQueueBytes       largest queue of each hop [bytes]
     * @param firstPauseS         firstPauseS.get(k): time hop k first pauses its upstream (signal sent) [s],
     *                            empty if never; index 0 pauses the NIC
     * @param sendersStopS        time the NIC first stops (pause effective) [s], empty if never
     * @param victimThroughputBitsPerSecond victim bytes sent * 8 / duration [bit/s]
     * @param pausedFractionNic   fraction of the run the NIC was paused
     */
    public record Result(double[] timesS, double[][] queueBytes, double[] maxQueueBytes, List<OptionalDouble> firstPauseS,
                         OptionalDouble sendersStopS, double victimThroughputBitsPerSecond, double pausedFractionNic) {
        /** Validates: arrays of finite numbers, "never" said with an empty OptionalDouble, rates and fractions &gt;= 0. */
        public Result {
            Parameters.finiteElements("timesS", timesS);
            Parameters.notNull("queueBytes", queueBytes);
            for (int k = 0; k < queueBytes.length; k++) {
                Parameters.finiteElements("queueBytes[" + k + "]", queueBytes[k]);
            }
            Parameters.finiteElements("maxQueueBytes", maxQueueBytes);
            firstPauseS = List.copyOf(Parameters.noNullElements("firstPauseS", firstPauseS));
            for (int k = 0; k < firstPauseS.size(); k++) {
                if (firstPauseS.get(k).isPresent()) {
                    Parameters.finite("firstPauseS[" + k + "]", firstPauseS.get(k).getAsDouble());
                }
            }
            Parameters.notNull("sendersStopS", sendersStopS);
            if (sendersStopS.isPresent()) {
                Parameters.finite("sendersStopS", sendersStopS.getAsDouble());
            }
            Parameters.nonNegative("victimThroughputBitsPerSecond", victimThroughputBitsPerSecond);
            Parameters.inRange("pausedFractionNic", pausedFractionNic, 0, 1);
        }
    }

    private final int hops;
    private final double incast;
    private final double victim;
    private final double link;
    private final double bottleneck;
    private final Pfc pfc;
    private final double delay;
    private final double step;

    /**
     * @param hops            number of switch hops, at least 1
     * @param incastRateBitsPerSecond   incast aggregate leaving the NIC [bit/s]
     * @param victimRateBitsPerSecond   victim flow on the same NIC and priority [bit/s], may be 0
     * @param linkRateBitsPerSecond     rate of the links between hops [bit/s], at least the incast rate
     * @param bottleneckRateBitsPerSecond egress rate of the last hop [bit/s], below the incast rate
     * @param pfc             XOFF/XON/headroom of every ingress queue
     * @param pauseDelayS     pause (and resume) response time [s]; link rate * delay / 8 must fit the headroom
     * @param stepS           time step [s], at most half the delay when the delay is positive
     */
    public PausePropagationSimulator(int hops, double incastRateBitsPerSecond, double victimRateBitsPerSecond, double linkRateBitsPerSecond,
                                     double bottleneckRateBitsPerSecond, Pfc pfc, double pauseDelayS,
                                     double stepS) {
        this.hops = Parameters.atLeast("hops", hops, 1);
        this.incast = Parameters.positive("incastRateBitsPerSecond", incastRateBitsPerSecond);
        this.victim = Parameters.nonNegative("victimRateBitsPerSecond", victimRateBitsPerSecond);
        this.link = Parameters.positive("linkRateBitsPerSecond", linkRateBitsPerSecond);
        this.bottleneck = Parameters.positive("bottleneckRateBitsPerSecond", bottleneckRateBitsPerSecond);
        this.pfc = Parameters.notNull("pfc", pfc);
        this.delay = Parameters.nonNegative("pauseDelayS", pauseDelayS);
        this.step = Parameters.positive("stepS", stepS);
        if (linkRateBitsPerSecond < incastRateBitsPerSecond) {
            throw new IllegalArgumentException("linkRateBitsPerSecond must be >= incastRateBitsPerSecond (" + incastRateBitsPerSecond + "), got "
                    + linkRateBitsPerSecond);
        }
        if (bottleneckRateBitsPerSecond >= incastRateBitsPerSecond) {
            throw new IllegalArgumentException("bottleneckRateBitsPerSecond must be < incastRateBitsPerSecond (" + incastRateBitsPerSecond
                    + ") for congestion, got " + bottleneckRateBitsPerSecond);
        }
        if (delay > 0 && stepS > delay / 2) {
            throw new IllegalArgumentException("stepS must be <= pauseDelayS / 2 (" + delay / 2 + "), got " + stepS);
        }
        if (link * delay / 8.0 > pfc.headroomBytes() + 1e-9) {
            throw new IllegalArgumentException("linkRateBitsPerSecond * pauseDelayS / 8 (the bytes in flight) must be at most "
                    + "pfc.headroomBytes = " + pfc.headroomBytes() + ", got linkRateBitsPerSecond = " + linkRateBitsPerSecond
                    + " and pauseDelayS = " + pauseDelayS + ": " + link * delay / 8.0 + " bytes");
        }
    }

    /** Runs for {@code durationS}, sampling every {@code sampleEvery} steps. */
    public Result run(double durationS, int sampleEvery) {
        Parameters.positive("durationS", durationS);
        Parameters.atLeast("sampleEvery", sampleEvery, 1);
        long steps = (long) Math.ceil(durationS / step);
        if (steps > 50_000_000L) {
            throw new IllegalArgumentException("durationS / stepS must be at most 5e7 steps, got " + steps);
        }
        int cap = (int) (steps / sampleEvery + 1);
        double[] ts = new double[cap];
        double[][] qs = new double[hops][cap];
        double[] q = new double[hops];
        double[] maxQ = new double[hops];
        double[] firstPause = new double[hops];
        Arrays.fill(firstPause, Double.NaN);
        boolean[] signalled = new boolean[hops];
        boolean[] paused = new boolean[hops]; // paused[k]: upstream of hop k (NIC for k = 0) is paused
        @SuppressWarnings("unchecked")
        ArrayDeque<double[]>[] pending = new ArrayDeque[hops];
        for (int k = 0; k < hops; k++) {
            pending[k] = new ArrayDeque<>();
        }
        double stop = Double.NaN;
        double victimBytes = 0;
        long pausedSteps = 0;
        int s = 0;
        for (long i = 0; i < steps; i++) {
            double t = i * step;
            if (i % sampleEvery == 0 && s < cap) {
                ts[s] = t;
                for (int k = 0; k < hops; k++) {
                    qs[k][s] = q[k];
                }
                s++;
            }
            for (int k = 0; k < hops; k++) {
                while (!pending[k].isEmpty() && pending[k].peekFirst()[0] <= t + 1e-15) {
                    paused[k] = pending[k].pollFirst()[1] > 0;
                }
            }
            if (paused[0] && Double.isNaN(stop)) {
                stop = t;
            }
            // downstream first: data move at most one hop per step
            for (int k = hops - 1; k >= 0; k--) {
                double rate = k == hops - 1 ? bottleneck : (paused[k + 1] ? 0 : link);
                double moved = Math.min(q[k], rate * step / 8.0);
                q[k] -= moved;
                if (k < hops - 1) {
                    q[k + 1] += moved;
                }
            }
            if (!paused[0]) {
                q[0] += incast * step / 8.0;
                victimBytes += victim * step / 8.0;
            } else {
                pausedSteps++;
            }
            for (int k = 0; k < hops; k++) {
                maxQ[k] = Math.max(maxQ[k], q[k]);
                if (!signalled[k] && pfc.pausesAt(q[k])) {
                    signalled[k] = true;
                    if (Double.isNaN(firstPause[k])) {
                        firstPause[k] = t + step;
                    }
                    pending[k].addLast(new double[] {t + step + delay, 1});
                } else if (signalled[k] && pfc.resumesAt(q[k])) {
                    signalled[k] = false;
                    pending[k].addLast(new double[] {t + step + delay, 0});
                }
            }
        }
        double[][] qOut = new double[hops][];
        for (int k = 0; k < hops; k++) {
            qOut[k] = Arrays.copyOf(qs[k], s);
        }
        double dur = steps * step;
        List<OptionalDouble> firstPauses = new java.util.ArrayList<>();
        for (double f : firstPause) {
            firstPauses.add(Double.isNaN(f) ? OptionalDouble.empty() : OptionalDouble.of(f)); // NaN: internal "not yet"
        }
        return new Result(Arrays.copyOf(ts, s), qOut, maxQ, firstPauses,
                Double.isNaN(stop) ? OptionalDouble.empty() : OptionalDouble.of(stop), victimBytes * 8.0 / dur,
                (double) pausedSteps / steps);
    }
}
