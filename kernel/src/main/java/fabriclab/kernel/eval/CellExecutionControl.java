package fabriclab.kernel.eval;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jshell.execution.DirectExecutionControl;

/**
 * Runs JShell snippets in this JVM, keeps the real result objects (JShell itself only returns their
 * {@code toString}), rewrites the cell classes before they are defined ({@link CellClassRewriter}) and
 * can stop a running cell.
 *
 * <p>How a cell is stopped, on every JDK: each snippet runs on a fresh thread; {@link #stop()} raises
 * {@link CellGuard}'s flag, so cell code ends at its next loop iteration or method call (on the cell's
 * thread and on pool workers running its lambdas), and interrupts the thread (a cell waiting in
 * {@code sleep}, {@code wait} or I/O). Code outside the cell that neither loops through cell code nor
 * checks interrupts (a long library call) is stopped with {@code Thread.stop} where the JDK still has it
 * (up to 19); from JDK 20 on, or when the cell swallows the stop, its thread is abandoned after a grace
 * period with a message saying so, and the next cell runs.
 *
 * <p>A stop that comes before the snippet has started (the cell is compiling, or between two of its
 * snippets) is kept until {@link #clearStop()}: the snippet then does not start.
 */
final class CellExecutionControl extends DirectExecutionControl {
    private static final long GRACE_MILLIS = 300;
    private static final int STOP_ATTEMPTS = 10;
    private static final long WORKERS_DEADLINE_NANOS = 5_000_000_000L;

    private final Map<String, Object> results = new ConcurrentHashMap<>();
    /** JShell's bytecode (before {@link CellClassRewriter}) of each class loaded, by name; see {@link #redefine}. */
    private final Map<String, byte[]> loaded = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();
    /** Held by {@link #stop()} while it ends a cell; the next snippet waits for it. */
    private final Object stopping = new Object();

    private volatile Thread running;
    private volatile CountDownLatch finished;
    private volatile boolean stopRequested;
    private volatile boolean rewriteFailed;

    CellExecutionControl() {
        super();
    }

    /** Whether a stop was requested since the last {@link #clearStop()}. */
    boolean wasStopped() {
        return stopRequested;
    }

    /** Forgets a stop: the next snippet runs. */
    void clearStop() {
        stopRequested = false;
    }

    /** Removes and returns the object that a snippet evaluated to, by the key JShell reported. */
    Object takeResult(String key) {
        return key == null ? null : results.remove(key);
    }

    @Override
    public void load(ClassBytecodes[] classes) throws ClassInstallException, NotImplementedException, EngineTerminationException {
        super.load(rewritten(classes));
        for (ClassBytecodes c : classes) {
            loaded.put(c.name(), c.bytecodes());
        }
    }

    /**
     * Keeps the loaded classes when JShell's new bytecode for them differs only in debug information (line
     * numbers, local variable names, source file); otherwise refuses, as {@link DirectExecutionControl} does.
     *
     * <p>JShell recompiles the snippets that depend on a name after an import or a declaration, and when a class
     * differs from the loaded one asks to redefine it; refused, JShell replaces it by a new class, and a variable
     * declared in a replaced snippet is reset to null or 0. A class that only moved lines (its wrapper's imports
     * took another line) behaves exactly as the loaded one, so the loaded one is kept, and with it the values
     * of its variables; only the line numbers of a stack trace through it may be off by the lines it moved.
     */
    @Override
    public void redefine(ClassBytecodes[] classes) throws ClassInstallException, NotImplementedException, EngineTerminationException {
        for (ClassBytecodes c : classes) {
            byte[] old = loaded.get(c.name());
            if (old == null || !CellClassRewriter.sameButDebugInfo(old, c.bytecodes())) {
                super.redefine(rewritten(classes));
                return;
            }
        }
        for (ClassBytecodes c : classes) {
            loaded.put(c.name(), c.bytecodes());
        }
    }

    private ClassBytecodes[] rewritten(ClassBytecodes[] classes) {
        ClassBytecodes[] out = new ClassBytecodes[classes.length];
        for (int i = 0; i < classes.length; i++) {
            byte[] bytes = classes[i].bytecodes();
            try {
                bytes = CellClassRewriter.rewrite(bytes);
            } catch (RuntimeException e) {
                // a class file newer than the rewriter reads: the cell runs, unguarded
                if (!rewriteFailed) {
                    rewriteFailed = true;
                    System.err.println("fabriclab: cell classes cannot be rewritten on this JDK (" + e
                            + "): System.exit is not refused and an interrupt cannot stop a CPU-bound cell");
                }
            }
            out[i] = new ClassBytecodes(classes[i].name(), bytes);
        }
        return out;
    }

    @Override
    protected String invoke(Method doitMethod) throws Exception {
        synchronized (stopping) {
            // a stop still ending the previous snippet's workers must not hit this one
        }
        if (stopRequested) {
            throw new StoppedException();
        }
        Object[] value = new Object[1];
        Throwable[] failure = new Throwable[1];
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        CountDownLatch done = new CountDownLatch(1);
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
        finished = done;
        running = cell;
        try {
            if (stopRequested) { // a stop that came while the thread was being made
                throw new StoppedException();
            }
            cell.start();
            done.await();
        } finally {
            running = null;
            finished = null;
        }
        if (failure[0] instanceof InvocationTargetException ite && isStop(ite.getCause())) {
            throw ite; // JShell turns it into an EvalException with the frames of the cell where it stopped
        }
        if (stopRequested) {
            throw new StoppedException();
        }
        if (failure[0] instanceof InvocationTargetException ite) {
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

    /** Whether {@code t} is what a stop throws into cell code ({@link CellGuard.CellInterrupted}, or ThreadDeath up to JDK 19). */
    static boolean isStop(Throwable t) {
        return t instanceof CellGuard.CellInterrupted || (t != null && t.getClass().getName().equals("java.lang.ThreadDeath"));
    }

    /** {@link #isStop} by class name, as JShell reports an exception. */
    static boolean isStop(String className) {
        return className != null && (className.equals(CellGuard.CellInterrupted.class.getName()) || className.equals("java.lang.ThreadDeath"));
    }

    @Override
    public void stop() {
        stopRequested = true;
        Thread t = running;
        if (t == null) {
            return; // not started yet: invoke() sees stopRequested
        }
        synchronized (stopping) {
            CountDownLatch done = finished;
            CellGuard.startStopping();
            try {
                t.interrupt();
                t.join(GRACE_MILLIS);
                for (int i = 0; i < STOP_ATTEMPTS && t.isAlive() && threadStop(t); i++) {
                    t.join(GRACE_MILLIS);
                }
                stopWorkers(t);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (t.isAlive() && done != null) {
                    System.err.println("fabriclab: the interrupted cell would not stop (it runs code outside the cell that"
                            + " ignores interrupts" + (Runtime.version().feature() >= 20 ? ", and this JDK has no Thread.stop" : "")
                            + "); its thread is abandoned and may keep running");
                    done.countDown();
                }
                CellGuard.endStopping();
            }
        }
    }

    /** {@code Thread.stop} where the JDK still has it (up to 19); false from JDK 20 on. */
    @SuppressWarnings({"deprecation", "removal"})
    private static boolean threadStop(Thread t) {
        if (Runtime.version().feature() >= 20) {
            return false;
        }
        try {
            t.stop();
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    /**
     * Waits until the cell's thread has ended and no other thread runs cell code (a parallel stream's pool
     * workers, threads the cell started), interrupting them; they stop at their next back-edge while
     * {@link CellGuard} is stopping (a library call in progress first returns).
     */
    private static void stopWorkers(Thread cell) throws InterruptedException {
        long deadline = System.nanoTime() + WORKERS_DEADLINE_NANOS;
        int clean = 0;
        // a worker that stops picks up the stream's next task: two scans in a row without one
        while ((clean < 2 || cell.isAlive()) && System.nanoTime() < deadline) {
            clean = stopWorkersOnce(cell) ? 0 : clean + 1;
            Thread.sleep(clean == 0 ? 20 : 5);
        }
    }

    private static boolean stopWorkersOnce(Thread cell) {
        boolean found = false;
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            Thread w = e.getKey();
            if (w == cell || w == Thread.currentThread()) {
                continue;
            }
            for (StackTraceElement f : e.getValue()) {
                if (f.getClassName().startsWith("REPL.")) {
                    found = true;
                    w.interrupt();
                    threadStop(w);
                    break;
                }
            }
        }
        return found;
    }
}
