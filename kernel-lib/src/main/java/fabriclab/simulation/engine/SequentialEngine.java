package fabriclab.simulation.engine;

import fabriclab.Parameters;
import fabriclab.progress.ProgressSink;
import fabriclab.simulation.element.Partition;
import fabriclab.simulation.event.EventQueue;

/**
 * The sequential engine: one partition holding every node, its events handled one instant at a time in time
 * order (ties in scheduling order), the clock set before an instant's handlers run.
 */
public final class SequentialEngine {
    /** Events between two checks for an interrupt and progress reports. */
    static final long CHECK_EVERY_EVENTS = 1 << 16;

    private SequentialEngine() {
    }

    /**
     * Runs {@code part}'s events until none is pending, the next would pass {@code timeLimitPs}, or the thread is
     * interrupted, reporting progress to {@code sink} (see {@link RunProgress}).
     *
     * @param part the run's only partition
     * @param timeLimitPs last simulated time to handle, ps ({@code Long.MAX_VALUE}: none)
     * @param totalPayloadMb the payload of all the flows, MB rounded up (the progress total without a time limit)
     * @param sink progress sink
     * @return the events handled; {@code -handled - 1} if the run stopped with events pending
     */
    public static long run(Partition part, long timeLimitPs, long totalPayloadMb, ProgressSink sink) {
        return run(part, timeLimitPs, Long.MAX_VALUE, totalPayloadMb, sink);
    }

    /**
     * As {@link #run(Partition, long, long, ProgressSink)}, with a progress watchdog: the run also stops (with events
     * pending, and {@link Partition#stalled} set) when a flow has started and not completed and no flow has
     * started and no payload was delivered for more than {@code stallLimitPs} of simulated time
     * ({@link Partition#lastProgressPs}), checked after each instant.
     *
     * @param stallLimitPs simulated time without progress that stops the run, ps, positive ({@code Long.MAX_VALUE}:
     *        no watchdog)
     */
    public static long run(Partition part, long timeLimitPs, long stallLimitPs, long totalPayloadMb, ProgressSink sink) {
        Parameters.notNull("part", part);
        Parameters.atLeast("timeLimitPs", timeLimitPs, 1L);
        Parameters.atLeast("stallLimitPs", stallLimitPs, 1L);
        Parameters.atLeast("totalPayloadMb", totalPayloadMb, 0L);
        Parameters.notNull("sink", sink);
        part.stalled = false;
        boolean partial = false;
        long handled = 0;
        long nextCheck = CHECK_EVERY_EVENTS;
        EventQueue events = part.events;
        try (RunProgress progress = new RunProgress(null, timeLimitPs, totalPayloadMb, sink)) {
            while (true) {
                // all events of one instant at a time: handlers read the clock from now
                long t = events.peekTime();
                if (t > timeLimitPs || events.isEmpty()) {
                    partial = !events.isEmpty(); // stopped by the time limit
                    break;
                }
                part.now = t;
                handled += events.dispatchNextInstant(timeLimitPs);
                if (part.now - part.lastProgressPs > stallLimitPs && part.flowsStarted > part.flowsCompleted) {
                    part.stalled = true; // the watchdog: flows in progress, nothing delivered for the limit
                    partial = !events.isEmpty();
                    break;
                }
                if (handled >= nextCheck) {
                    nextCheck = handled + CHECK_EVERY_EVENTS;
                    if (Thread.currentThread().isInterrupted()) {
                        partial = !events.isEmpty();
                        break;
                    }
                    progress.simulatedTo(part.now);
                    progress.delivered(part.deliveredBytes);
                }
            }
            progress.finish(part.deliveredBytes);
        }
        return partial ? -handled - 1 : handled;
    }
}
