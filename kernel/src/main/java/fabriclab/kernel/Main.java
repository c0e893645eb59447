package fabriclab.kernel;

import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.kernel.KernelConnectionProperties;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Starts the kernel: {@code java -cp ... fabriclab.kernel.Main CONNECTION_FILE}.
 *
 * <p>Exits when the Jupyter process that started it dies ({@code JPY_PARENT_PID}), so that no
 * orphan JVMs are left behind.
 */
public final class Main {
    private Main() {
    }

    /** Entry point. */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: fabriclab.kernel.Main CONNECTION_FILE");
            System.exit(2);
        }
        String json = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8);
        KernelConnectionProperties props = KernelConnectionProperties.parse(json);
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        for (java.util.logging.Handler h : java.util.logging.Logger.getLogger("").getHandlers()) {
            h.setLevel(java.util.logging.Level.WARNING);
        }
        watchParent(System.getenv("JPY_PARENT_PID"));
        JupyterConnection connection = new JupyterConnection(props);
        FabriclabKernel kernel = new FabriclabKernel();
        kernel.becomeHandlerForConnection(connection);
        connection.connect();
        ResilientChannels.install(connection);
        connection.waitUntilClose();
        System.exit(0);
    }

    private static void watchParent(String pid) {
        if (pid == null || pid.isBlank()) {
            return;
        }
        long parent;
        try {
            parent = Long.parseLong(pid.trim());
        } catch (NumberFormatException e) {
            return;
        }
        Optional<ProcessHandle> handle = ProcessHandle.of(parent);
        if (handle.isEmpty()) {
            System.exit(0);
        }
        ScheduledExecutorService watcher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "fabriclab-parent-watch");
            t.setDaemon(true);
            return t;
        });
        watcher.scheduleAtFixedRate(() -> {
            if (!handle.get().isAlive()) {
                Runtime.getRuntime().halt(0);
            }
        }, 1, 1, TimeUnit.SECONDS);
    }
}
