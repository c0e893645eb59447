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

    private final Partition part;
    private boolean stalled;

    /** The engine of {@code part}, the run's only partition. */
    public SequentialEngine(Partition part) {
        this.part = Parameters.notNull("part", part);
    }

    /**
     * Runs the partition's events until none is pending, the next would pass {@code timeLimitPs}, the thread is
     * interrupted, or the progress watchdog stops it ({@link #stalled()}): a flow has started and not completed and
     * no flow has started and no payload was delivered for more than {@code stallLimitPs} of simulated time
     * ({@link Partition#lastProgressPs}), checked after each instant. Reports progress to {@code sink} (see
     * {@link RunProgress}).
     *
     * @param timeLimitPs last simulated time to handle, ps ({@code Long.MAX_VALUE}: none)
     * @param stallLimitPs simulated time without progress that stops the run, ps, positive ({@code Long.MAX_VALUE}:
     *        no watchdog)
     * @param totalPayloadMb the payload of all the flows, MB rounded up (the progress total without a time limit)
     * @param sink progress sink
     * @return the events handled; {@code -handled - 1} if the run stopped with events pending
     */
    public long run(long timeLimitPs, long stallLimitPs, long totalPayloadMb, ProgressSink sink) {
        Parameters.atLeast("timeLimitPs", timeLimitPs, 1L);
        Parameters.atLeast("stallLimitPs", stallLimitPs, 1L);
        Parameters.atLeast("totalPayloadMb", totalPayloadMb, 0L);
        Parameters.notNull("sink", sink);
        stalled = false;
        boolean partial = false;
        long handled = 0;
        long nextCheck = CHECK_EVERY_EVENTS;
        EventQueue events = part.events;
        try (RunProgress progress = new RunProgress(null, timeLimitPs, totalPayloadMb, sink)) {
            while (true) {
                // all events of one instant at a time: handlers read the clock from now
                long t = events.peekTime();
                if (events.size() == part.cancelledEvents()) {
                    break; // nothing pending, or only timers that would do nothing: the run is over
                }
                if (t > timeLimitPs) {
                    partial = true; // stopped by the time limit
                    break;
                }
                part.advanceClockTo(t);
                handled += events.dispatchNextInstant(timeLimitPs);
                if (part.now() - part.lastProgressPs() > stallLimitPs && part.flowsStarted() > part.flowsCompleted()) {
                    stalled = true; // the watchdog: flows in progress, nothing delivered for the limit
                    partial = !events.isEmpty();
                    break;
                }
                if (handled >= nextCheck) {
                    nextCheck = handled + CHECK_EVERY_EVENTS;
                    if (Thread.currentThread().isInterrupted()) {
                        partial = !events.isEmpty();
                        break;
                    }
                    progress.simulatedTo(part.now());
                    progress.delivered(part.deliveredBytes());
                }
            }
            progress.finish(part.deliveredBytes());
        }
        return partial ? -handled - 1 : handled;
    }

    /** Whether the progress watchdog stopped the last run. */
    public boolean stalled() {
        return stalled;
    }
}
