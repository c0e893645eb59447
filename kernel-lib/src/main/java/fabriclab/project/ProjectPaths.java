package fabriclab.project;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the project's {@code datasets/} and {@code images/} directories are.
 *
 * <p>Resolution order: the system property ({@code fabriclab.home}), then the environment variable
 * {@code FABRICLAB_HOME}, then the nearest directory at or above the working directory that holds
 * both a {@code datasets/} directory and a {@code pom.xml} (notebooks run with their own directory as
 * working directory, so this finds the checkout). Fails with a clear message when none is found.
 */
public final class ProjectPaths {
    private ProjectPaths() {
    }

    /** The project root. */
    public static Path root() {
        String configured = System.getProperty("fabriclab.home");
        if (configured == null || configured.isBlank()) {
            configured = System.getenv("FABRICLAB_HOME");
        }
        if (configured != null && !configured.isBlank()) {
            Path p = Path.of(configured).toAbsolutePath().normalize();
            if (!Files.isDirectory(p)) {
                throw new IllegalStateException("fabriclab.home / FABRICLAB_HOME points to " + p + ", which is not a directory");
            }
            return p;
        }
        Path dir = Path.of("").toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve("datasets")) && Files.isRegularFile(d.resolve("pom.xml"))) {
                return d;
            }
        }
        throw new IllegalStateException("cannot find the fabriclab project root from " + dir
                + ": set -Dfabriclab.home=... or FABRICLAB_HOME to the checkout");
    }

    /** {@code datasets/} under the root. */
    public static Path datasets() {
        return root().resolve("datasets");
    }

    /** {@code images/} under the root, created if missing. */
    public static Path images() {
        Path p = root().resolve("images");
        try {
            Files.createDirectories(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot create " + p, e);
        }
        return p;
    }
}
