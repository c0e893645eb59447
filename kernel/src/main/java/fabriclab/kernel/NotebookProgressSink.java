package fabriclab.kernel;

import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;

/**
 * Draws {@link Progress} as an HTML progress bar in the running cell and updates it in place
 * (display_data, then update_display_data with the same display id). Found by
 * {@link java.util.ServiceLoader}; active only while a cell runs in the fabriclab kernel.
 */
public final class NotebookProgressSink implements ProgressSink {
    /** Used by ServiceLoader. */
    public NotebookProgressSink() {
    }

    @Override
    public boolean isActive() {
        return NotebookDisplay.isActive();
    }

    @Override
    public void report(Progress.State state) {
        if (!NotebookDisplay.isActive()) {
            return;
        }
        DisplayData d = new DisplayData(state.textBar());
        d.putHTML(state.htmlBar());
        NotebookDisplay.show(state.id(), d, state.done() > 0 || state.finished());
    }
}
