package fabriclab.kernel.eval;

import java.io.OutputStream;
import java.io.PrintStream;
import java.security.Permission;

/**
 * Turns {@code System.exit}, {@code Runtime.exit} and {@code Runtime.halt} called from notebook code
 * into an ordinary error of the cell ({@link SecurityException}), so that the kernel and its state
 * survive; the kernel's own exits (shutdown, parent death) are not affected.
 *
 * <p>How: the JDK's only hook on exit is {@link SecurityManager#checkExit}, so this is a security
 * manager that permits everything else (its {@code checkPermission} does nothing) and refuses an exit
 * whose call stack holds a frame of cell code (JShell's {@code REPL.*} classes), on any thread, so a
 * lambda running in a pool worker is caught too. The security manager is deprecated for removal
 * (JEP 411): on JDK 17 it is allowed by default, the kernelspec passes
 * {@code -Djava.security.manager=allow} up to JDK 23 ({@code KernelSpecFit}). A library method that
 * exits when called from a cell is caught as well, since the cell's frame is below it.
 *
 * <p>JDK 24 and later refuse a security manager; there, and wherever this cannot be installed, the exit
 * calls in cell code itself are still refused, by {@link CellClassRewriter} (on every JDK), but an exit
 * inside a library that a cell calls is not.
 */
public final class CellExitGuard extends SecurityManager {
    private CellExitGuard() {
    }

    /**
     * Installs the guard (once; later calls do nothing). The JDK's deprecation warning for
     * {@code System.setSecurityManager} is not printed.
     *
     * @return whether the guard is in place (false when the JVM forbids a security manager)
     */
    @SuppressWarnings("removal")
    public static synchronized boolean install() {
        if (System.getSecurityManager() instanceof CellExitGuard) {
            return true;
        }
        PrintStream err = System.err;
        System.setErr(new PrintStream(OutputStream.nullOutputStream()));
        try {
            System.setSecurityManager(new CellExitGuard());
            return true;
        } catch (UnsupportedOperationException | SecurityException e) {
            return false;
        } finally {
            System.setErr(err);
        }
    }

    @Override
    public void checkPermission(Permission perm) {
        // everything is permitted
    }

    @Override
    public void checkPermission(Permission perm, Object context) {
        // everything is permitted
    }

    @Override
    public void checkExit(int status) {
        boolean fromCell = StackWalker.getInstance().walk(frames -> frames.anyMatch(f -> f.getClassName().startsWith("REPL.")));
        if (fromCell) {
            throw CellGuard.refused("System.exit(" + status + ")");
        }
    }
}
