package fabriclab.kernel.eval;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where inspect (Shift-Tab) finds Javadoc: JShell reads documentation only from the JDK's
 * {@code lib/src.zip}, so kernel-lib's Javadoc would never show. The kernelspec ships kernel-lib's
 * sources ({@code src/}, passed as {@code -Dfabriclab.sources}); this gives JShell that directory plus
 * the JDK's sources when installed (Debian: openjdk-17-source / openjdk-17-jdk), through the source list
 * JShell keeps for its own tests ({@code SourceCodeAnalysisImpl.availableSourcesOverride}). That field is
 * not public API: the kernelspec opens {@code jdk.jshell} to the kernel, and when it cannot be set
 * (another JDK, no {@code --add-opens}) inspect shows signatures only, as before.
 */
final class JavadocSources {
    private static boolean installed;

    private JavadocSources() {
    }

    static synchronized void install(String sources) {
        if (installed || sources == null || sources.isBlank() || !Files.isDirectory(Path.of(sources))) {
            return;
        }
        installed = true;
        List<Path> paths = new ArrayList<>(jdkSources());
        paths.add(Path.of(sources).toAbsolutePath());
        try {
            Class<?> impl = Class.forName("jdk.jshell.SourceCodeAnalysisImpl");
            Field f = impl.getDeclaredField("availableSourcesOverride");
            f.setAccessible(true);
            f.set(null, List.copyOf(paths));
        } catch (ReflectiveOperationException | RuntimeException e) {
            // signatures only
        }
    }

    /** The module directories of the JDK's src.zip, when it is installed. */
    private static List<Path> jdkSources() {
        Path home = Path.of(System.getProperty("java.home"));
        Path zip = home.resolve("lib/src.zip");
        if (!Files.isReadable(zip)) {
            zip = home.getParent().resolve("src.zip");
        }
        List<Path> out = new ArrayList<>();
        if (!Files.isReadable(zip)) {
            return out;
        }
        try {
            FileSystem fs = FileSystems.newFileSystem(zip, Map.of()); // stays open for the kernel's life
            Path root = fs.getRootDirectories().iterator().next();
            if (Files.exists(root.resolve("java.base/java/lang/Object.java"))) {
                try (DirectoryStream<Path> ds = Files.newDirectoryStream(root)) {
                    for (Path p : ds) {
                        if (Files.isDirectory(p)) {
                            out.add(p);
                        }
                    }
                }
            } else {
                out.add(zip);
            }
        } catch (IOException e) {
            // no JDK sources
        }
        return out;
    }
}
