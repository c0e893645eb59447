package fabriclab.kernel;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class NotebookProgressSinkTest {
    @Test
    void serviceLoaderFindsTheNotebookSink() {
        boolean found = ServiceLoader.load(ProgressSink.class, Progress.class.getClassLoader()).stream()
                .anyMatch(p -> p.type() == NotebookProgressSink.class);
        assertTrue(found, "META-INF/services/" + ProgressSink.class.getName() + " must name " + NotebookProgressSink.class.getName());
    }

    @Test
    void outsideACellTheNotebookSinkStepsAside() {
        assertFalse(new NotebookProgressSink().isActive());
        assertFalse(Progress.defaultSink() instanceof NotebookProgressSink);
    }
}
