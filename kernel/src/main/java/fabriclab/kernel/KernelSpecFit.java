package fabriclab.kernel;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Fits an installed kernelspec to the JDK that runs this class: {@code bin/install-kernel} runs it with
 * the JDK it installs for ({@code JAVA_HOME}, else {@code java} on the PATH), the kernel tests with
 * theirs.
 *
 * <ul>
 *   <li>{@code argv[0]} becomes this JVM's own {@code bin/java}, so the kernel runs on the JDK it was
 *       installed with (and its class-data sharing archive, which only that JDK can map, matches), not on
 *       whichever {@code java} comes first on the PATH of the Jupyter server;
 *   <li>{@code -Djava.security.manager=allow} is kept up to JDK 23 (the exit guard's security manager,
 *       see {@code CellExitGuard}) and removed from JDK 24 on, which refuses to start with it ("Enabling a
 *       Security Manager is not supported"); there the cell classes' bytecode is rewritten instead
 *       ({@code CellGuard});
 *   <li>{@code env.FABRICLAB_CHECKOUT} is set when a checkout is given.
 * </ul>
 *
 * <p>Usage: {@code java -cp DIR/lib/* fabriclab.kernel.KernelSpecFit DIR [CHECKOUT]}. It rewrites
 * {@code DIR/kernel.json} and prints, one argument a line, the command that runs the kernel's warm-up
 * ({@code Main --warm-up}) with the kernelspec's own flags, writing the class-data sharing archive.
 */
public final class KernelSpecFit {
    /** The first JDK that refuses {@code -Djava.security.manager=allow}. */
    static final int NO_SECURITY_MANAGER = 24;
    static final String ALLOW_SECURITY_MANAGER = "-Djava.security.manager=allow";

    private KernelSpecFit() {
    }

    /** Entry point, see the class comment. */
    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 2) {
            System.err.println("usage: fabriclab.kernel.KernelSpecFit KERNELSPEC_DIR [CHECKOUT]");
            System.exit(2);
        }
        Path dir = Path.of(args[0]).toAbsolutePath().normalize();
        List<String> argv = fit(dir, args.length == 2 ? args[1] : null);
        for (String a : warmUpCommand(argv, dir)) {
            System.out.println(a);
        }
    }

    /** This JVM's launcher, {@code $java.home/bin/java}. */
    static String thisJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /**
     * Rewrites {@code dir/kernel.json} for this JVM and returns its argv.
     *
     * @param checkout the checkout to write into {@code env.FABRICLAB_CHECKOUT}, or null to leave env alone
     */
    public static List<String> fit(Path dir, String checkout) throws IOException {
        Path file = dir.resolve("kernel.json");
        JsonObject spec = new JsonParser().parse(Files.readString(file, StandardCharsets.UTF_8)).getAsJsonObject();
        List<String> argv = new ArrayList<>();
        for (JsonElement e : spec.getAsJsonArray("argv")) {
            argv.add(e.getAsString());
        }
        argv = fitArgv(argv, Runtime.version().feature(), thisJava());
        JsonArray out = new JsonArray();
        argv.forEach(out::add);
        spec.add("argv", out);
        if (checkout != null) {
            JsonObject env = spec.has("env") ? spec.getAsJsonObject("env") : new JsonObject();
            env.addProperty("FABRICLAB_CHECKOUT", checkout);
            spec.add("env", env);
        }
        Gson gson = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();
        Files.writeString(file, gson.toJson(spec) + "\n", StandardCharsets.UTF_8);
        return argv;
    }

    /** The argv for a JDK of feature release {@code feature} whose launcher is {@code java}. */
    static List<String> fitArgv(List<String> argv, int feature, String java) {
        if (argv.isEmpty()) {
            throw new IllegalArgumentException("kernel.json has an empty argv");
        }
        List<String> out = new ArrayList<>();
        out.add(java);
        for (String a : argv.subList(1, argv.size())) {
            if (!a.startsWith("-Djava.security.manager=")) {
                out.add(a);
            }
        }
        if (feature < NO_SECURITY_MANAGER) {
            int at = out.indexOf("-cp");
            out.add(at < 0 ? 1 : at, ALLOW_SECURITY_MANAGER);
        }
        return out;
    }

    /**
     * The kernel's JVM with its kernelspec flags running {@code Main --warm-up}, writing the class-data
     * sharing archive {@code dir/fabriclab.jsa} at exit instead of reading it.
     */
    static List<String> warmUpCommand(List<String> argv, Path dir) {
        List<String> out = new ArrayList<>();
        for (String a : argv) {
            if (a.startsWith("-XX:SharedArchiveFile=") || a.startsWith("-Xshare:")) {
                continue;
            }
            out.add(a.equals("{connection_file}") ? "--warm-up" : a.replace("{resource_dir}", dir.toString()));
        }
        out.add(1, "-XX:ArchiveClassesAtExit=" + dir.resolve("fabriclab.jsa"));
        return out;
    }
}
