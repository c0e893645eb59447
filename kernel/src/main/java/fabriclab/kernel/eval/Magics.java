package fabriclab.kernel.eval;

import fabriclab.kernel.maven.MavenArtifacts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The line magics: lines at the top of a cell that start with {@code %} (blank lines may stand between them).
 * {@code %classpath PATH...} and {@code %jars GLOB...} add jars or directories to the class path,
 * {@code %maven GROUP:ARTIFACT:VERSION...} resolves artifacts and their dependencies from Maven Central (and
 * repositories added with {@code %mavenRepo ID URL}) and adds their jars (IJava-compatible; see
 * {@link MavenArtifacts}). A wrong magic line stops the cell with a {@link CellException.Kind#MAGIC_ERROR}.
 */
final class Magics {
    private final Consumer<String> addToClasspath;
    private MavenArtifacts maven;

    /** Magics that add the jars and directories they name with {@code addToClasspath}. */
    Magics(Consumer<String> addToClasspath) {
        this.addToClasspath = addToClasspath;
    }

    /** Whether a line of a cell is blank or a magic (as the top lines of a cell that {@link #run} takes). */
    static boolean isBlankOrMagic(String line) {
        return line.isBlank() || line.strip().startsWith("%");
    }

    /**
     * Runs the magic lines at the top of {@code cell}, in order.
     *
     * @return the cell with those lines emptied (so the code keeps its line numbers)
     * @throws CellException on an unknown or wrong magic, or one whose files or artifacts cannot be found
     */
    String run(String cell) throws CellException {
        String[] lines = cell.split("\n", -1);
        int i = 0;
        for (; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            if (!line.startsWith("%")) {
                break;
            }
            String[] words = line.substring(1).trim().split("\\s+");
            String magic = words[0];
            List<String> args = List.of(words).subList(1, words.length);
            switch (magic) {
                case "classpath", "jars" -> {
                    if (args.isEmpty()) {
                        throw ErrorFormatter.magicError("%" + magic + " needs at least one path or glob, e.g. %" + magic + " lib/*.jar");
                    }
                    for (String arg : args) {
                        List<Path> matched = glob(arg);
                        if (matched.isEmpty()) {
                            throw ErrorFormatter.magicError("%" + magic + ": nothing matches " + arg);
                        }
                        matched.forEach(p -> addToClasspath.accept(p.toString()));
                    }
                }
                case "maven" -> {
                    if (args.isEmpty()) {
                        throw ErrorFormatter.magicError("%maven needs at least one artifact, e.g. %maven org.apache.commons:commons-text:1.12.0");
                    }
                    List<Path> jars;
                    try {
                        jars = maven().resolve(args);
                    } catch (IllegalArgumentException | MavenArtifacts.ResolutionException e) {
                        throw ErrorFormatter.magicError("%maven: " + e.getMessage());
                    }
                    jars.forEach(p -> addToClasspath.accept(p.toString()));
                    System.out.println("%maven: added " + jars.size() + " jar(s): "
                            + jars.stream().map(p -> p.getFileName().toString()).collect(Collectors.joining(", ")));
                }
                case "mavenRepo" -> {
                    if (args.size() != 2) {
                        throw ErrorFormatter.magicError("%mavenRepo needs an id and a URL, e.g. %mavenRepo jitpack https://jitpack.io");
                    }
                    try {
                        maven().addRepository(args.get(0), args.get(1));
                    } catch (IllegalArgumentException e) {
                        throw ErrorFormatter.magicError("%mavenRepo: " + e.getMessage());
                    }
                }
                default -> throw ErrorFormatter.magicError("unknown magic %" + magic + "; available: %classpath, %jars, %maven, %mavenRepo");
            }
        }
        StringBuilder rest = new StringBuilder();
        for (int j = 0; j < lines.length; j++) {
            // keep line numbers of the code stable for error messages
            rest.append(j < i ? "" : lines[j]);
            if (j < lines.length - 1) {
                rest.append('\n');
            }
        }
        return rest.toString();
    }

    /** The Maven resolver, made at the first {@code %maven} or {@code %mavenRepo}. */
    private MavenArtifacts maven() {
        if (maven == null) {
            maven = new MavenArtifacts();
        }
        return maven;
    }

    /** Files matching a path that may contain glob characters in its last element(s). */
    static List<Path> glob(String pattern) {
        if (!pattern.contains("*") && !pattern.contains("?") && !pattern.contains("[") && !pattern.contains("{")) {
            Path p = Path.of(pattern);
            return Files.exists(p) ? List.of(p.toAbsolutePath().normalize()) : List.of();
        }
        Path base = Path.of("").toAbsolutePath();
        String[] parts = pattern.split("/");
        StringBuilder fixed = new StringBuilder(pattern.startsWith("/") ? "/" : "");
        int k = 0;
        for (; k < parts.length - 1; k++) {
            if (parts[k].matches(".*[*?\\[{].*")) {
                break;
            }
            if (!parts[k].isEmpty()) {
                fixed.append(parts[k]).append('/');
            }
        }
        Path root = fixed.length() == 0 ? base : base.resolve(fixed.toString()).normalize();
        String relGlob = String.join("/", List.of(parts).subList(k, parts.length));
        PathMatcher m = FileSystems.getDefault().getPathMatcher("glob:" + relGlob);
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(p -> m.matches(root.relativize(p))).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
