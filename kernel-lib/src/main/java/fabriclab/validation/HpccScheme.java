package fabriclab.validation;

import fabriclab.congestion.DcqcnParameters;
import fabriclab.fabric.EcnMarking;
import fabriclab.simulation.SimulationResult;
import fabriclab.simulation.transport.TransportModel;
import fabriclab.simulation.transport.hpcc.HpccTransport;
import fabriclab.simulation.transport.roce.RoceTransport;
import fabriclab.simulation.transport.window.DctcpTransport;
import fabriclab.simulation.transport.window.TimelyTransport;

/**
 * The schemes of HPCC's FCT-slowdown figure (Li et al., SIGCOMM 2019, figure 11; dataset
 * {@value HpccComparison#DATASET}) that {@link HpccEvaluation} runs, each with the settings of HPCC's {@code run.py}
 * (alibaba-edu/High-Precision-Congestion-Control, {@code simulation/run.py}): its transport with the rate-scaled window
 * of one BDP of the fabric's longest path ({@code HAS_WIN 1}, {@code VAR_WIN 1}), the switches' ECN marking (at
 * 100 Gb/s, scaled with each port's rate), and the counter of its senders' cuts.
 */
public enum HpccScheme {
    /** DCQCN with the window: {@link HpccEvaluation#dcqcnWithWindow(long)}, Kmin 400 KB, Kmax 1600 KB, Pmax 0.2. */
    DCQCN_W("dcqcn_w", "DCQCN+w"),
    /** DCTCP ({@code --cc dctcp}): {@link DctcpTransport#hpccSimulation(long)}, step marking at K = 300 KB. */
    DCTCP("dctcp", "DCTCP"),
    /**
     * TIMELY with the window ({@code --cc timely_vwin}): {@link TimelyTransport#hpccSimulation(long)}; its switches keep
     * DCQCN's marking, which TIMELY does not read.
     */
    TIMELY_W("timely_w", "TIMELY+w"),
    /**
     * HPCC with INT as the authors' published figures run it: {@link HpccEvaluation#hpccInt()} (its window is the
     * rate-scaled W = B T of the run's fabric, not {@code windowBytes}); its switches keep DCQCN's marking, which HPCC
     * does not read.
     */
    HPCC_INT("hpcc_int", "HPCC (INT)"),
    /**
     * HPCC with PINT ({@code --cc hpccPint}, {@code CC_MODE 10}; Ben Basat et al., "PINT: Probabilistic In-band Network
     * Telemetry", SIGCOMM 2020): {@link HpccEvaluation#hpccPint()}, HPCC (INT) with the PINT digest in place of the
     * INT header, {@value #PINT_HEADER_BYTES} bytes per packet. At the settings of HPCC's {@code run.py}
     * ({@code pint_prob 1.0}: every ACK's feedback is used; {@code pint_log_base 1.01}) the sampled variant is HPCC
     * with a smaller header: each switch folds its utilisation U = qlen / (B T) + txRate / B (an EWMA over T, HPCC's
     * Algorithm 1 estimate) into the packet's maximum, rounded at random to a power of 1.01 (unbiased, at most 1%
     * apart), and the sender runs HPCC's single-rate update on that maximum, as our HPCC (INT) runs it on the largest
     * per-hop U its records give. Not built: the per-switch estimate and its rounding (our senders compute the same U
     * from exact per-hop records), and sampling with a probability below 1, which depends on it: with a probability
     * p a switch folds its U into a packet's digest only on the packets it samples, and a sender updates only on the
     * ACKs that bring one back, so p is a setting of the per-switch estimate; applied to our exact records it would
     * thin them instead (each U then measured over a longer interval), which is not PINT's sampling. HPCC's published
     * figure, which this scheme is compared with, ran {@code pint_prob 1.0}.
     */
    HPCC_PINT("hpcc_pint", "HPCC (PINT)");

    /**
     * Bytes of the PINT digest at HPCC's {@code pint_log_base 1.01}: U scaled by 512 concurrent flows, its logarithm to
     * base 1.01 reaches log(512^2) / log(1.01) = 1,254, 11 bits, carried in 2 bytes (ns-3-alibabacloud
     * {@code src/point-to-point/model/pint.cc}, {@code Pint::get_n_bytes}; the HPCC authors: "PINT ... reduce[s] the
     * INT overhead to &le;2 bytes per packet", hpcc-group.github.io results.md).
     */
    public static final int PINT_HEADER_BYTES = 2;

    private final String datasetName;
    private final String label;

    HpccScheme(String datasetName, String label) {
        this.datasetName = datasetName;
        this.label = label;
    }

    /** Its name in the published dataset's {@code scheme} column. */
    public String datasetName() {
        return datasetName;
    }

    /**
     * Its name in tables and figures: {@code DCQCN+w}, {@code DCTCP}, {@code TIMELY+w}, {@code HPCC (INT)},
     * {@code HPCC (PINT)}.
     */
    public String label() {
        return label;
    }

    /**
     * Its transport with window W_max {@code windowBytes} (rate-scaled); HPCC (INT) has the fabric's own window and
     * needs its evaluation: {@link HpccEvaluation#scenario(HpccScheme)} builds it with {@link HpccEvaluation#hpccInt()}.
     *
     * @param windowBytes W_max [bytes], at least 1
     * @throws IllegalArgumentException for {@link #HPCC_INT} and {@link #HPCC_PINT}
     */
    public TransportModel transport(long windowBytes) {
        fabriclab.Parameters.atLeast("windowBytes", windowBytes, 1L);
        return switch (this) {
            case DCQCN_W -> HpccEvaluation.dcqcnWithWindow(windowBytes);
            case DCTCP -> DctcpTransport.hpccSimulation(windowBytes);
            case TIMELY_W -> TimelyTransport.hpccSimulation(windowBytes);
            case HPCC_INT, HPCC_PINT -> throw new IllegalArgumentException(label + " takes its window from the evaluation's"
                    + " fabric: use HpccEvaluation.scenario(HpccScheme." + name() + ")");
        };
    }

    /** The switches' marking, written for {@link HpccEvaluation#HOST_RATE} and scaled with each port's rate. */
    public EcnMarking marking() {
        return this == DCTCP ? DctcpTransport.hpccMarking(HpccEvaluation.HOST_RATE) : DcqcnParameters.hpccSimulation().marking();
    }

    /** The senders' rate or window cuts in {@code r}. */
    public long cuts(SimulationResult r) {
        fabriclab.Parameters.notNull("r", r);
        return switch (this) {
            case DCQCN_W -> r.counter(RoceTransport.RATE_CUTS);
            case DCTCP -> r.counter(DctcpTransport.CUTS);
            case TIMELY_W -> r.counter(TimelyTransport.DECREASES);
            case HPCC_INT, HPCC_PINT -> r.counter(HpccTransport.DECREASES);
        };
    }

    /** The CNPs the receivers sent in {@code r} (DCQCN's; 0 for the others, which send none). */
    public long cnps(SimulationResult r) {
        fabriclab.Parameters.notNull("r", r);
        return this == DCQCN_W ? r.counter(RoceTransport.CNPS) : 0;
    }
}
