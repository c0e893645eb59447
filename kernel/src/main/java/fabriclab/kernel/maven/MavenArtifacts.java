package fabriclab.kernel.maven;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.maven.repository.internal.MavenRepositorySystemUtils;
import org.eclipse.aether.DefaultRepositorySystemSession;
import org.eclipse.aether.RepositorySystem;
import org.eclipse.aether.artifact.DefaultArtifact;
import org.eclipse.aether.collection.CollectRequest;
import org.eclipse.aether.graph.Dependency;
import org.eclipse.aether.repository.LocalRepository;
import org.eclipse.aether.repository.RemoteRepository;
import org.eclipse.aether.resolution.ArtifactResult;
import org.eclipse.aether.resolution.DependencyRequest;
import org.eclipse.aether.resolution.DependencyResolutionException;
import org.eclipse.aether.supplier.RepositorySystemSupplier;
import org.eclipse.aether.util.artifact.JavaScopes;
import org.eclipse.aether.util.filter.DependencyFilterUtils;
import org.eclipse.aether.util.repository.SimpleArtifactDescriptorPolicy;

/**
 * Resolves Maven artifacts and their runtime dependencies to jar files, for the kernel's
 * {@code %maven group:artifact:version} magic (as IJava users know it).
 *
 * <p>Resolution is Apache Maven Resolver's (the library Maven itself uses; wired by its
 * {@code maven-resolver-supplier}, with Maven's POM reader), not ours: version ranges, exclusions,
 * dependency management and "nearest wins" conflict resolution are Maven's. Jars are cached in a local
 * repository, {@code ~/.m2/repository} unless {@code FABRICLAB_MAVEN_LOCAL} (environment) or
 * {@code fabriclab.maven.local} (system property) names another. Remote repositories are Maven Central
 * plus any added with {@link #addRepository}. One instance per kernel session; not thread-safe.
 */
public final class MavenArtifacts {
    /** Maven Central's address. */
    public static final URI CENTRAL = URI.create("https://repo.maven.apache.org/maven2/");
    /** Connect and request time-outs, milliseconds: an unreachable repository fails within these. */
    static final int CONNECT_TIMEOUT_MS = 10_000;
    static final int REQUEST_TIMEOUT_MS = 60_000;

    private final Path localRepository;
    private final Map<String, URI> repositories = new LinkedHashMap<>();
    private RepositorySystem system;

    /** Resolves against Maven Central, caching in the default local repository. */
    public MavenArtifacts() {
        this(defaultLocalRepository());
    }

    /**
     * Resolves against Maven Central, caching in {@code localRepository}.
     *
     * @param localRepository directory of the local repository cache (created when needed)
     */
    public MavenArtifacts(Path localRepository) {
        this.localRepository = Objects.requireNonNull(localRepository, "localRepository").toAbsolutePath().normalize();
        repositories.put("central", CENTRAL);
    }

    /** The local repository directory. */
    public Path localRepository() {
        return localRepository;
    }

    /** The remote repositories searched, by id, in order. */
    public Map<String, URI> repositories() {
        return Map.copyOf(repositories);
    }

    /**
     * Adds (or replaces) a remote repository, searched after the ones already known.
     *
     * @param id  repository id, letters, digits, '.', '-' or '_'
     * @param url an http, https or file URL
     * @throws IllegalArgumentException if the id or the URL is malformed
     */
    public void addRepository(String id, String url) {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(url, "url");
        if (!id.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("repository id must be letters, digits, '.', '-' or '_', got '" + id + "'");
        }
        URI uri;
        try {
            uri = URI.create(url.endsWith("/") ? url : url + "/");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("repository url is not a URL: '" + url + "'", e);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme();
        if (!List.of("http", "https", "file").contains(scheme)) {
            throw new IllegalArgumentException("repository url must be http, https or file, got '" + url + "'");
        }
        repositories.put(id, uri);
    }

    /**
     * Resolves artifacts and their compile+runtime dependencies.
     *
     * @param coordinates Maven coordinates {@code group:artifact[:extension[:classifier]]:version}
     * @return the jar files, each once, in resolution order (requested artifacts first)
     * @throws IllegalArgumentException if a coordinate is malformed
     * @throws ResolutionException if an artifact cannot be found or a repository cannot be reached; the
     *         message names the artifact and the repositories tried
     */
    public List<Path> resolve(List<String> coordinates) throws ResolutionException {
        Objects.requireNonNull(coordinates, "coordinates");
        if (coordinates.isEmpty()) {
            throw new IllegalArgumentException("coordinates must name at least one artifact, e.g. org.apache.commons:commons-text:1.12.0");
        }
        List<Dependency> dependencies = new ArrayList<>();
        for (String c : coordinates) {
            dependencies.add(new Dependency(parse(c), JavaScopes.RUNTIME));
        }
        List<RemoteRepository> remotes = new ArrayList<>();
        repositories.forEach((id, uri) -> remotes.add(new RemoteRepository.Builder(id, "default", uri.toString()).build()));
        RepositorySystem sys = system();
        DefaultRepositorySystemSession session = MavenRepositorySystemUtils.newSession();
        session.setLocalRepositoryManager(sys.newLocalRepositoryManager(session, new LocalRepository(localRepository.toFile())));
        // POM profiles activate on java.version and os.* as they do in Maven
        session.setSystemProperties(System.getProperties());
        // a POM that cannot be read is an error, not an artifact without dependencies
        session.setArtifactDescriptorPolicy(new SimpleArtifactDescriptorPolicy(false, false));
        session.setConfigProperty("aether.connector.connectTimeout", CONNECT_TIMEOUT_MS);
        session.setConfigProperty("aether.connector.requestTimeout", REQUEST_TIMEOUT_MS);
        CollectRequest collect = new CollectRequest(dependencies, List.of(), remotes);
        DependencyRequest request = new DependencyRequest(collect, DependencyFilterUtils.classpathFilter(JavaScopes.RUNTIME));
        try {
            List<Path> jars = new ArrayList<>();
            for (ArtifactResult r : sys.resolveDependencies(session, request).getArtifactResults()) {
                if (r.getArtifact() != null && r.getArtifact().getFile() != null) {
                    Path p = r.getArtifact().getFile().toPath();
                    if (!jars.contains(p)) {
                        jars.add(p);
                    }
                }
            }
            return jars;
        } catch (DependencyResolutionException e) {
            throw new ResolutionException("cannot resolve " + String.join(", ", coordinates) + " from "
                    + repositories + ": " + rootMessage(e), e);
        }
    }

    private RepositorySystem system() {
        if (system == null) {
            system = new RepositorySystemSupplier().get();
        }
        return system;
    }

    static DefaultArtifact parse(String coordinate) {
        Objects.requireNonNull(coordinate, "coordinate");
        String[] parts = coordinate.strip().split(":", -1);
        boolean wellFormed = parts.length >= 3 && parts.length <= 5;
        for (String p : parts) {
            wellFormed &= !p.isBlank();
        }
        if (!wellFormed) {
            throw new IllegalArgumentException("Maven coordinate must be group:artifact:version (or "
                    + "group:artifact:extension[:classifier]:version), got '" + coordinate + "'");
        }
        return new DefaultArtifact(coordinate.strip());
    }

    /** The most specific message in a cause chain (resolver wraps the transport's reason several times). */
    static String rootMessage(Throwable e) {
        String message = e.getMessage();
        for (Throwable t = e.getCause(); t != null && t != t.getCause(); t = t.getCause()) {
            if (t.getMessage() != null) {
                message = t.getClass().getSimpleName() + ": " + t.getMessage();
            }
        }
        return message;
    }

    static Path defaultLocalRepository() {
        String configured = System.getProperty("fabriclab.maven.local", System.getenv("FABRICLAB_MAVEN_LOCAL"));
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return Path.of(System.getProperty("user.home"), ".m2", "repository");
    }

    /** An artifact could not be resolved: not found, or a repository unreachable. */
    public static final class ResolutionException extends Exception {
        private static final long serialVersionUID = 1L;

        ResolutionException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
