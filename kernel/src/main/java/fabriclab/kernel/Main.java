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
        if (args.length == 1 && args[0].equals("--warm-up")) {
            warmUp();
            System.exit(0);
        }
        if (args.length != 1) {
            System.err.println("usage: fabriclab.kernel.Main CONNECTION_FILE | --warm-up");
            System.exit(2);
        }
        String json = Files.readString(Path.of(args[0]), StandardCharsets.UTF_8);
        KernelConnectionProperties props = KernelConnectionProperties.parse(json);
        java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        for (java.util.logging.Handler h : java.util.logging.Logger.getLogger("").getHandlers()) {
            h.setLevel(java.util.logging.Level.WARNING);
        }
        watchParent(System.getenv("JPY_PARENT_PID"));
        locateProject();
        fabriclab.kernel.eval.CellExitGuard.install();
        JupyterConnection connection = new JupyterConnection(props);
        FabriclabKernel kernel = new FabriclabKernel();
        kernel.becomeHandlerForConnection(connection);
        connection.connect();
        ResilientChannels.install(connection);
        connection.waitUntilClose();
        System.exit(0);
    }

    /**
     * Runs what a kernel start and a first notebook load (JShell and the compiler, the kernel-lib
     * classes a notebook imports, a table and a chart rendered), then returns. {@code bin/install-kernel}
     * runs this with {@code -XX:ArchiveClassesAtExit} to write the class-data sharing archive the
     * kernelspec starts with, so those classes are mapped from the archive instead of loaded and verified.
     */
    static void warmUp() throws Exception {
        FabriclabKernel kernel = new FabriclabKernel();
        kernel.eval("import fabriclab.notebook.*; import tech.tablesaw.api.*; import org.knowm.xchart.*;");
        kernel.eval("Table t = Table.create(\"t\", DoubleColumn.create(\"x\", 1.5, 2.5)); t");
        kernel.eval("XYChart c = Figures.xy(\"warm-up\", \"x [1]\", \"y [1]\"); c.addSeries(\"s\", new double[]{0, 1}, new double[]{1, 2}); c");
        kernel.complete("Math.ab", 7);
        kernel.isComplete("int x = 1;");
        fabriclab.kernel.display.RichDisplay.html(tech.tablesaw.api.Table.create("t"));
        kernel.onShutdown(false);
    }

    /**
     * When neither {@code fabriclab.home} nor {@code FABRICLAB_HOME} is set and no checkout is found at
     * or above the working directory, uses the checkout the kernelspec was installed from
     * ({@code FABRICLAB_CHECKOUT}, written into kernel.json by {@code bin/install-kernel}), so a
     * notebook opened outside the checkout still finds the datasets.
     */
    static void locateProject() {
        if (System.getProperty("fabriclab.home") != null || System.getenv("FABRICLAB_HOME") != null) {
            return;
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve("datasets")) && Files.isRegularFile(d.resolve("pom.xml"))) {
                return;
            }
        }
        String checkout = System.getenv("FABRICLAB_CHECKOUT");
        if (checkout != null && !checkout.isBlank() && Files.isDirectory(Path.of(checkout, "datasets"))) {
            System.setProperty("fabriclab.home", checkout);
        }
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
