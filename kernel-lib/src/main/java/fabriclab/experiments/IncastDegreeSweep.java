package fabriclab.experiments;

import fabriclab.Parameters;
import fabriclab.fabric.Incast;
import fabriclab.fabric.Pfc;
import fabriclab.flowcontrol.FluidQueue;
import fabriclab.flowcontrol.PfcIncastSimulator;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import fabriclab.scheduling.DgsqConfig;
import fabriclab.scheduling.DgsqResult;
import fabriclab.scheduling.DgsqSimulator;
import fabriclab.scheduling.IncastBounds;
import java.util.ArrayList;
import java.util.List;

/**
 * An incast of growing degree n (002 section 3.1.2, notebook 05) under three controls, each simulated and
 * beside its analytic bound: no control (the fluid egress queue with an unbounded buffer, bound
 * M (n - R/r)), PFC only on every ingress ({@link PfcIncastSimulator}, bound n (XOFF + r tau / 8) with tau
 * the pause response plus one time step), and DGSQ grants ({@link DgsqSimulator}, bound g + g C / r + C
 * Delta / 8, independent of n). Completion times beside the lower bound max(8 n M / R, 8 M / r) of any
 * scheme and the grant scheme's upper bound.
 *
 * @param incast the incast whose sender count is varied (M, r, R), not null
 * @param pfc the PFC thresholds of every ingress, not null
 * @param pauseResponseS pause response time tau_p [s], positive; the PFC simulator steps by tau_p / 2
 * @param grants the grant scheduler, its port rate the incast's receiver rate, not null
 */
public record IncastDegreeSweep(Incast incast, Pfc pfc, double pauseResponseS, DgsqConfig grants) {
    /** Samples of the PFC simulator's trace: one every this many time steps (only the maximum and the completion are kept). */
    public static final int PFC_SAMPLE_EVERY = 1000;

    /** The largest incast degree a run takes (the PFC simulator's cost grows with n). */
    public static final int MAX_SENDERS = 4096;

    /**
     * Validates every field: the PFC headroom must hold what a sender sends during the pause response, the grants'
     * port rate must be the incast's receiver rate.
     */
    public IncastDegreeSweep {
        Parameters.notNull("incast", incast);
        Parameters.notNull("pfc", pfc);
        Parameters.positive("pauseResponseS", Parameters.finite("pauseResponseS", pauseResponseS));
        Parameters.notNull("grants", grants);
        new PfcIncastSimulator(incast, pfc, pauseResponseS, pauseResponseS / 2); // the headroom covers the pause response
        IncastBounds.grantEgressBacklogBytes(grants, incast); // the grants run at the receiver's rate
    }

    /**
     * One incast degree: the three controls simulated, and their bounds.
     *
     * @param senders n, at least 1 (every quantity below: finite, not negative)
     * @param noControlPeakBytes largest egress queue without control, unbounded buffer [bytes]
     * @param noControlCompletionS completion without control, no loss [s]
     * @param pfcMaxQueueBytes largest egress queue with PFC [bytes]
     * @param pfcCompletionS completion with PFC [s]
     * @param grantsMaxQueueBytes largest egress queue with grants [bytes]
     * @param grantsCompletionS completion with grants [s]
     * @param noControlBoundBytes M (n - R/r), 0 when n r &lt;= R [bytes]
     * @param pfcBoundBytes n (XOFF + r (tau_p + tau_p / 2) / 8) [bytes]
     * @param grantsBoundBytes g + g C / r + C Delta / 8 [bytes]
     * @param completionLowerBoundS max(8 n M / R, 8 M / r) [s]
     * @param grantsCompletionBoundS the grant scheme's completion bound [s]
     */
    public record Result(int senders, double noControlPeakBytes, double noControlCompletionS, double pfcMaxQueueBytes,
            double pfcCompletionS, double grantsMaxQueueBytes, double grantsCompletionS, double noControlBoundBytes,
            double pfcBoundBytes, double grantsBoundBytes, double completionLowerBoundS, double grantsCompletionBoundS) {
        /** Validates: at least one sender, every quantity finite and not negative. */
        public Result {
            Parameters.atLeast("senders", senders, 1);
            Parameters.nonNegative("noControlPeakBytes", noControlPeakBytes);
            Parameters.nonNegative("noControlCompletionS", noControlCompletionS);
            Parameters.nonNegative("pfcMaxQueueBytes", pfcMaxQueueBytes);
            Parameters.nonNegative("pfcCompletionS", pfcCompletionS);
            Parameters.nonNegative("grantsMaxQueueBytes", grantsMaxQueueBytes);
            Parameters.nonNegative("grantsCompletionS", grantsCompletionS);
            Parameters.nonNegative("noControlBoundBytes", noControlBoundBytes);
            Parameters.nonNegative("pfcBoundBytes", pfcBoundBytes);
            Parameters.nonNegative("grantsBoundBytes", grantsBoundBytes);
            Parameters.nonNegative("completionLowerBoundS", completionLowerBoundS);
            Parameters.nonNegative("grantsCompletionBoundS", grantsCompletionBoundS);
        }
    }

    /** The PFC-only simulator at {@code senders} (pause delay tau_p, step tau_p / 2). */
    public PfcIncastSimulator pfcSimulator(int senders) {
        return new PfcIncastSimulator(incast.withSenders(senders), pfc, pauseResponseS, pauseResponseS / 2);
    }

    /**
     * Simulates the incast of {@code senders} senders under the three controls.
     *
     * @param senders n, 1 to {@link #MAX_SENDERS}
     * @param seed seed of the grant simulator's draws
     */
    public Result run(int senders, long seed) {
        Parameters.inRange("senders", senders, 1, MAX_SENDERS);
        Incast in = incast.withSenders(senders);
        FluidQueue.Trajectory none = FluidQueue.incast(in, Double.POSITIVE_INFINITY);
        PfcIncastSimulator.Result pr = pfcSimulator(senders).run(PFC_SAMPLE_EVERY);
        DgsqResult gr = new DgsqSimulator(grants).run(in, seed);
        return new Result(senders, none.maxQueueBytes(), none.completionS(), pr.maxEgressQueueBytes(), pr.completionS(),
                gr.maxEgressQueueBytes(), gr.completionS(), IncastBounds.noControlPeakQueueBytes(in),
                IncastBounds.pfcEgressQueueBytes(in, pfc, pauseResponseS + pauseResponseS / 2),
                IncastBounds.grantEgressBacklogBytes(grants, incast), IncastBounds.completionLowerBoundS(in),
                IncastBounds.grantCompletionBoundS(grants, in));
    }

    /**
     * {@link #run} at every degree in {@code senders}, the grant simulator of the i-th seeded {@code firstSeed + i},
     * with a progress bar labelled "n sweep".
     *
     * @param senders the degrees, each 1 to {@link #MAX_SENDERS}
     * @param firstSeed seed of the first degree's grant simulator
     * @param sink where the progress bar goes, not null
     */
    public List<Result> sweep(int[] senders, long firstSeed, ProgressSink sink) {
        Parameters.notNull("senders", senders);
        Parameters.notNull("sink", sink);
        for (int i = 0; i < senders.length; i++) {
            Parameters.inRange("senders[" + i + "]", senders[i], 1, MAX_SENDERS);
        }
        List<Result> points = new ArrayList<>();
        try (Progress p = Progress.start("n sweep", senders.length, sink)) {
            for (int i = 0; i < senders.length; i++) {
                points.add(run(senders[i], firstSeed + i));
                p.step();
            }
        }
        return points;
    }
}
