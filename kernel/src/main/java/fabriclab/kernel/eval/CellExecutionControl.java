package fabriclab.kernel.eval;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jshell.execution.DirectExecutionControl;

/**
 * Runs JShell snippets in this JVM, keeps the real result objects (JShell itself only returns their
 * {@code toString}), and can stop a running cell.
 *
 * <p>Each snippet runs on a fresh thread so that {@link #stop()} can end it even when it is
 * CPU-bound and ignores interrupts: first {@link Thread#interrupt()}, then, after a grace period,
 * {@link Thread#stop()} (still functional on JDK 17; a cell that swallows {@link ThreadDeath} is
 * stopped up to ten times, then abandoned). The invoking thread always returns, so the next cell runs.
 */
final class CellExecutionControl extends DirectExecutionControl {
    private static final long GRACE_MILLIS = 300;

    private final Map<String, Object> results = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    private static final int STOP_ATTEMPTS = 10;

    private volatile Thread running;
    private volatile java.util.concurrent.CountDownLatch finished;
    private volatile boolean stopRequested;

    CellExecutionControl() {
        super();
    }

    /** Whether the last invocation was stopped by {@link #stop()}. */
    boolean wasStopped() {
        return stopRequested;
    }

    /** Removes and returns the object that a snippet evaluated to, by the key JShell reported. */
    Object takeResult(String key) {
        return key == null ? null : results.remove(key);
    }

    @Override
    protected String invoke(Method doitMethod) throws Exception {
        Object[] value = new Object[1];
        Throwable[] failure = new Throwable[1];
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        Thread cell = new Thread(() -> {
            try {
                value[0] = doitMethod.invoke(null);
            } catch (Throwable t) {
                failure[0] = t;
            } finally {
                done.countDown();
            }
        }, "fabriclab-cell");
        cell.setContextClassLoader(loader);
        cell.setDaemon(true);
        stopRequested = false;
        finished = done;
        running = cell;
        try {
            cell.start();
            done.await();
        } finally {
            running = null;
            finished = null;
        }
        if (stopRequested) {
            throw new StoppedException();
        }
        if (failure[0] instanceof InvocationTargetException ite) {
            if (ite.getCause() instanceof ThreadDeath) {
                throw new StoppedException();
            }
            throw ite;
        }
        if (failure[0] instanceof Exception e) {
            throw e;
        }
        if (failure[0] != null) {
            throw new InvocationTargetException(failure[0]);
        }
        String key = "fabriclab-value-" + ids.incrementAndGet();
        if (value[0] != null) {
            results.put(key, value[0]);
        }
        return key;
    }

    /**
     * Stops other threads that run cell code (a parallel stream's pool workers, threads the cell
     * started): after an interrupt no worker may keep spinning on the cell's behalf.
     */
    private static void stopWorkers(Thread cell) {
        // A pool worker that is stopped picks up the stream's next task, so repeat until none runs cell code.
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (stopWorkersOnce(cell) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @SuppressWarnings({"deprecation", "removal"})
    private static boolean stopWorkersOnce(Thread cell) {
        boolean found = false;
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            Thread w = e.getKey();
            if (w == cell || w == Thread.currentThread()) {
                continue;
            }
            boolean runsCellCode = false;
            for (StackTraceElement f : e.getValue()) {
                if (f.getClassName().startsWith("REPL.")) {
                    runsCellCode = true;
                    break;
                }
            }
            if (runsCellCode) {
                found = true;
                w.interrupt();
                try {
                    w.stop();
                } catch (UnsupportedOperationException ignored) {
                    // JDK 20+: only the interrupt remains
                }
            }
        }
        return found;
    }

    @Override
    @SuppressWarnings({"deprecation", "removal"})
    public void stop() {
        Thread t = running;
        if (t == null) {
            return;
        }
        java.util.concurrent.CountDownLatch done = finished;
        stopRequested = true;
        t.interrupt();
        stopWorkers(t);
        try {
            t.join(GRACE_MILLIS);
            for (int i = 0; i < STOP_ATTEMPTS && t.isAlive(); i++) {
                try {
                    t.stop();
                } catch (UnsupportedOperationException e) {
                    break; // JDK 20+: Thread.stop is gone; fall through to abandoning the thread
                }
                t.join(GRACE_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (t.isAlive() && done != null) {
            // The cell swallows ThreadDeath: give up on it so that the kernel stays usable.
            System.err.println("fabriclab: the interrupted cell would not stop; its thread is abandoned and may keep running");
            done.countDown();
        }
    }
}
