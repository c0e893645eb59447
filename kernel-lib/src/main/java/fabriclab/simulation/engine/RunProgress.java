package fabriclab.simulation.engine;

import fabriclab.fabric.Time;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import fabriclab.simulation.element.Workload;

/**
 * The progress of one run, reported to a {@link ProgressSink}: the simulated time in microseconds against a finite
 * time limit, else the payload delivered in megabytes (10^6 B, rounded up) against that of all the flows. Both
 * engines report through it; each tells it where the run is whenever it checks, and only the measure the run is
 * reported in moves the bar.
 */
final class RunProgress implements AutoCloseable {
    private final Progress progress;
    private final boolean byTime;
    private final long total;
    private long reported;

    /**
     * @param engine how the run is made, for the label (e.g. "parallel, 4 threads"), or null
     * @param timeLimitPs the run's time limit, ps ({@code Long.MAX_VALUE}: none, report payload delivered)
     * @param totalPayloadMb the payload of all the flows, MB rounded up
     */
    RunProgress(String engine, long timeLimitPs, long totalPayloadMb, ProgressSink sink) {
        this.byTime = timeLimitPs != Long.MAX_VALUE;
        this.total = byTime ? Math.max(1, timeLimitPs / Time.US) : totalPayloadMb;
        String detail = engine == null ? (byTime ? "" : "MB delivered") : engine + (byTime ? "" : ", MB delivered");
        this.progress = Progress.start("packet simulation" + (detail.isEmpty() ? "" : " (" + detail + ")"), total, sink);
    }

    /** The run has simulated up to {@code nowPs} (moves a run reported by time). */
    void simulatedTo(long nowPs) {
        if (byTime) {
            advanceTo(nowPs / Time.US);
        }
    }

    /** The receivers have {@code bytes} of payload (moves a run reported by payload). */
    void delivered(long bytes) {
        if (!byTime) {
            advanceTo(Workload.megabytes(bytes));
        }
    }

    private void advanceTo(long done) {
        if (done > reported) {
            progress.advance(Math.min(done, total) - Math.min(reported, total));
            reported = done;
        }
    }

    /**
     * The run ended with {@code bytes} delivered: a run reported by payload shows it; one reported by time keeps
     * showing where it was last seen.
     */
    void finish(long bytes) {
        if (!byTime) {
            long done = Workload.megabytes(bytes);
            progress.advance(Math.min(done, total) - Math.min(reported, total));
            reported = Math.max(reported, done);
        }
    }

    @Override
    public void close() {
        progress.close();
    }
}
