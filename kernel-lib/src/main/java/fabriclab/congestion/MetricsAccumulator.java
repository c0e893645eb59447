package fabriclab.congestion;

import java.util.List;
import java.util.OptionalDouble;

/**
 * Accumulates {@link FluidMetrics} from the steps of a run (rectangle rule over the solver steps,
 * which are uniform). Package-private; one per run.
 */
final class MetricsAccumulator {
    private final Bottleneck port;
    private final List<FlowClass> classes;
    private final double warmupEnd;
    private final double fairShare;
    private double weight;
    private double queueSum;
    private double queueMin = Double.POSITIVE_INFINITY;
    private double queueMax;
    private double peak;
    private double sentSum;
    private double deliveredSum;
    private double pausedSum;
    private final double[] classRateSum;
    private double lastOutside;

    MetricsAccumulator(Bottleneck port, List<FlowClass> classes, double duration) {
        this.port = port;
        this.classes = classes;
        this.warmupEnd = duration / 2;
        int n = classes.stream().mapToInt(FlowClass::multiplicity).sum();
        this.fairShare = port.lineRateBitsPerSecond() / n;
        this.classRateSum = new double[classes.size()];
    }

    /**
     * @param t time [s]
     * @param dt step weight [s]
     * @param queueBytes queue [bytes]
     * @param rates per-class per-flow sending rate [bit/s] (0 when paused)
     * @param paused whether PFC pauses the senders
     */
    void add(double t, double dt, double queueBytes, double[] rates, boolean paused) {
        peak = Math.max(peak, queueBytes);
        boolean outside = false;
        double sent = 0;
        for (int i = 0; i < rates.length; i++) {
            sent += rates[i] * classes.get(i).multiplicity();
            if (Math.abs(rates[i] - fairShare) > 0.1 * fairShare) {
                outside = true;
            }
        }
        if (outside) {
            lastOutside = t;
        }
        if (t < warmupEnd || dt <= 0) {
            return;
        }
        weight += dt;
        queueSum += queueBytes * dt;
        queueMin = Math.min(queueMin, queueBytes);
        queueMax = Math.max(queueMax, queueBytes);
        sentSum += sent * dt;
        deliveredSum += (queueBytes > 0 ? port.lineRateBitsPerSecond() : Math.min(sent, port.lineRateBitsPerSecond())) * dt;
        pausedSum += paused ? dt : 0;
        for (int i = 0; i < rates.length; i++) {
            classRateSum[i] += rates[i] * dt;
        }
    }

    FluidMetrics result(double endTime, double droppedBytes) {
        double w = weight > 0 ? weight : 1;
        double sx = 0;
        double sxx = 0;
        long n = 0;
        for (int i = 0; i < classRateSum.length; i++) {
            double x = classRateSum[i] / w;
            int m = classes.get(i).multiplicity();
            sx += m * x;
            sxx += m * x * x;
            n += m;
        }
        double jain = sxx > 0 ? sx * sx / (n * sxx) : 1.0;
        double c = port.lineRateBitsPerSecond();
        double meanQ = queueSum / w;
        double minQ = weight > 0 ? queueMin : 0;
        OptionalDouble conv = lastOutside < endTime * (1 - 1e-12) ? OptionalDouble.of(lastOutside) : OptionalDouble.empty();
        double delivered = deliveredSum / w;
        return new FluidMetrics(meanQ, minQ, queueMax, peak, sentSum / w, delivered, delivered / c, jain, conv,
                port.baseRttS() + meanQ * 8 / c, port.baseRttS() + queueMax * 8 / c, pausedSum / w, droppedBytes);
    }
}
