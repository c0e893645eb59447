package fabriclab.simulation.engine;

import fabriclab.Parameters;
import java.util.Arrays;

/**
 * What a run of the parallel engine ({@code Simulator.runParallel(long, fabriclab.progress.ProgressSink, int)})
 * measured about itself: its windows, the traffic between partitions, and where each thread's wall
 * time went. These figures say how the run would scale: a window's events are the work that can be
 * spread over threads; a barrier per window is the fixed cost; the messages are the traffic between
 * threads; the wait at the barriers is the imbalance (and, on a loaded machine, descheduling).
 * Wall-clock figures (busy, wait) vary from run to run; the others are a function of the scenario and
 * the thread count.
 *
 * @param threads threads (= partitions)
 * @param lookaheadPs window length L: the smallest link propagation delay, ps
 * @param windows windows run (barriers crossed, the initial one excluded)
 * @param events events handled, all partitions
 * @param meanEventsPerWindow events per window, mean over windows
 * @param p50EventsPerWindow events per window, median
 * @param p99EventsPerWindow events per window, 99th percentile (nearest rank)
 * @param maxEventsPerWindow events in the busiest window
 * @param messages events sent from one partition to another (packets and PAUSE frames over links between partitions)
 * @param meanMessagesPerWindow messages per window, mean
 * @param p99MessagesPerWindow messages per window, 99th percentile
 * @param criticalPathEvents the sum over windows of the events of the busiest partition in that window: the
 *        events a run must handle one after another however fast the barriers, so {@code events /
 *        criticalPathEvents} bounds the speedup of this partitioning ({@link #eventParallelism()})
 * @param cpuSeconds CPU time the threads spent in the windows (handling events, taking in messages), s
 * @param cpuCriticalPathSeconds the sum over windows of the CPU time of the thread that took longest in that
 *        window, s: with a core per thread and free barriers the run would take about this long, so
 *        {@code cpuSeconds / cpuCriticalPathSeconds} ({@link #cpuParallelism()}) estimates the speedup on idle
 *        cores from CPU time, which other tenants of a loaded machine do not stretch as they stretch wall time
 * @param partitionNodes per partition, its nodes
 * @param partitionPorts per partition, the ports of its nodes (the load estimate of the partitioning)
 * @param partitionEvents per partition, the events it handled
 * @param busySeconds per thread, wall time handling events and taking in messages, s
 * @param barrierWaitSeconds per thread, wall time waiting at barriers, s
 */
public record ParallelRunStats(int threads, long lookaheadPs, long windows, long events, double meanEventsPerWindow,
        long p50EventsPerWindow, long p99EventsPerWindow, long maxEventsPerWindow, long messages,
        double meanMessagesPerWindow, long p99MessagesPerWindow, long criticalPathEvents, double cpuSeconds,
        double cpuCriticalPathSeconds, int[] partitionNodes, long[] partitionPorts,
        long[] partitionEvents, double[] busySeconds, double[] barrierWaitSeconds) {

    /** Validates. */
    public ParallelRunStats {
        Parameters.atLeast("threads", threads, 1);
        Parameters.atLeast("lookaheadPs", lookaheadPs, 1L);
        Parameters.atLeast("windows", windows, 0L);
        Parameters.atLeast("events", events, 0L);
        Parameters.nonNegative("meanEventsPerWindow", meanEventsPerWindow);
        Parameters.atLeast("p50EventsPerWindow", p50EventsPerWindow, 0L);
        Parameters.atLeast("p99EventsPerWindow", p99EventsPerWindow, p50EventsPerWindow);
        Parameters.atLeast("maxEventsPerWindow", maxEventsPerWindow, p99EventsPerWindow);
        Parameters.atLeast("messages", messages, 0L);
        Parameters.nonNegative("meanMessagesPerWindow", meanMessagesPerWindow);
        Parameters.atLeast("p99MessagesPerWindow", p99MessagesPerWindow, 0L);
        Parameters.inRange("criticalPathEvents", criticalPathEvents, 0L, events);
        if (events > 0 && criticalPathEvents * (long) threads < events) {
            throw new IllegalArgumentException("criticalPathEvents must be at least events / threads = " + events / threads
                    + ", got " + criticalPathEvents);
        }
        Parameters.nonNegative("cpuSeconds", cpuSeconds);
        Parameters.inRange("cpuCriticalPathSeconds", cpuCriticalPathSeconds, 0, cpuSeconds);
        Parameters.notNull("partitionNodes", partitionNodes);
        Parameters.notNull("partitionPorts", partitionPorts);
        Parameters.notNull("partitionEvents", partitionEvents);
        Parameters.notNull("busySeconds", busySeconds);
        Parameters.notNull("barrierWaitSeconds", barrierWaitSeconds);
        for (Object a : new Object[] {partitionNodes, partitionPorts, partitionEvents, busySeconds, barrierWaitSeconds}) {
            if (java.lang.reflect.Array.getLength(a) != threads) {
                throw new IllegalArgumentException("per-partition arrays must have threads = " + threads + " entries, got "
                        + java.lang.reflect.Array.getLength(a));
            }
        }
        for (int i = 0; i < threads; i++) {
            Parameters.atLeast("partitionNodes[" + i + "]", partitionNodes[i], 0);
            Parameters.atLeast("partitionPorts[" + i + "]", partitionPorts[i], 0L);
            Parameters.atLeast("partitionEvents[" + i + "]", partitionEvents[i], 0L);
            Parameters.nonNegative("busySeconds[" + i + "]", busySeconds[i]);
            Parameters.nonNegative("barrierWaitSeconds[" + i + "]", barrierWaitSeconds[i]);
        }
        partitionNodes = partitionNodes.clone();
        partitionPorts = partitionPorts.clone();
        partitionEvents = partitionEvents.clone();
        busySeconds = busySeconds.clone();
        barrierWaitSeconds = barrierWaitSeconds.clone();
    }

    /**
     * Events over {@link #criticalPathEvents}: the speedup over one thread this partitioning would reach if
     * every event cost the same and barriers and messages cost nothing (at most {@code threads}).
     */
    public double eventParallelism() {
        return criticalPathEvents == 0 ? 1 : events / (double) criticalPathEvents;
    }

    /**
     * CPU time over its critical path ({@link #cpuCriticalPathSeconds}): the speedup over the same work on one
     * thread that a core per thread would give if barriers were free (barriers cost a wake-up each on top).
     */
    public double cpuParallelism() {
        return cpuCriticalPathSeconds == 0 ? 1 : cpuSeconds / cpuCriticalPathSeconds;
    }

    /** Events of the busiest partition over the mean per partition (1 = perfectly balanced). */
    public double imbalance() {
        long max = Arrays.stream(partitionEvents).max().orElse(0);
        double mean = Arrays.stream(partitionEvents).average().orElse(0);
        return mean == 0 ? 1 : max / mean;
    }

    static ParallelRunStats of(int threads, long lookaheadPs, long[] eventsPerWindow, long[] messagesPerWindow,
            long criticalPathEvents, long cpuNs, long cpuCriticalNs, long[] partitionEvents, int[] partitionNodes, long[] partitionPorts, long[] busyNs,
            long[] waitNs) {
        long[] e = eventsPerWindow.clone();
        long[] m = messagesPerWindow.clone();
        Arrays.sort(e);
        Arrays.sort(m);
        double[] busy = new double[threads];
        double[] wait = new double[threads];
        for (int i = 0; i < threads; i++) {
            busy[i] = busyNs[i] / 1e9;
            wait[i] = waitNs[i] / 1e9;
        }
        return new ParallelRunStats(threads, lookaheadPs, e.length, Arrays.stream(e).sum(), mean(e), rank(e, 0.5),
                rank(e, 0.99), e.length == 0 ? 0 : e[e.length - 1], Arrays.stream(m).sum(), mean(m), rank(m, 0.99),
                criticalPathEvents, cpuNs / 1e9, cpuCriticalNs / 1e9, partitionNodes, partitionPorts, partitionEvents, busy, wait);
    }

    private static double mean(long[] v) {
        return v.length == 0 ? 0 : Arrays.stream(v).sum() / (double) v.length;
    }

    /** Nearest-rank percentile of sorted {@code v}. */
    private static long rank(long[] v, double q) {
        if (v.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(q * v.length) - 1;
        return v[Math.max(0, Math.min(v.length - 1, i))];
    }
}
