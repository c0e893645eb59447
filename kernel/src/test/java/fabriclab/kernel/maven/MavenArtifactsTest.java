package fabriclab.kernel.maven;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MavenArtifacts} against Maven Central itself (the network is part of what is tested), with a
 * fresh local repository so every file is really downloaded.
 */
class MavenArtifactsTest {
    @TempDir
    Path local;

    @Test
    void resolvesAnArtifactWithItsDependencyFromMavenCentral() throws Exception {
        List<Path> jars = new MavenArtifacts(local).resolve(List.of("org.apache.commons:commons-text:1.12.0"));
        List<String> names = jars.stream().map(p -> p.getFileName().toString()).collect(Collectors.toList());
        // commons-text 1.12.0's POM declares one runtime dependency: commons-lang3 3.14.0.
        assertEquals(List.of("commons-text-1.12.0.jar", "commons-lang3-3.14.0.jar"), names);
        for (Path jar : jars) {
            assertTrue(jar.startsWith(local), jar + " is in the local repository " + local);
            assertTrue(Files.size(jar) > 10_000, jar + " was downloaded");
        }
    }

    @Test
    void anArtifactThatDoesNotExistIsNamedInTheError() {
        MavenArtifacts.ResolutionException e = assertThrows(MavenArtifacts.ResolutionException.class,
                () -> new MavenArtifacts(local).resolve(List.of("org.fabriclab.nonexistent:no-such-artifact:9.9.9")));
        assertTrue(e.getMessage().contains("org.fabriclab.nonexistent:no-such-artifact:9.9.9"), e.getMessage());
        assertTrue(e.getMessage().contains("central"), e.getMessage());
    }

    @Test
    void anUnreachableRepositoryFailsQuicklyWithItsAddress() {
        MavenArtifacts m = new MavenArtifacts(local);
        m.addRepository("nowhere", "http://127.0.0.1:9/maven2");
        long start = System.nanoTime();
        MavenArtifacts.ResolutionException e = assertThrows(MavenArtifacts.ResolutionException.class,
                () -> m.resolve(List.of("org.fabriclab.nonexistent:no-such-artifact:9.9.9")));
        assertTrue(e.getMessage().contains("http://127.0.0.1:9/maven2/"), e.getMessage());
        // refused at once; bounded by the connect time-out in any case (not a benchmark, a hang check)
        assertTrue((System.nanoTime() - start) / 1e9 < 3 * MavenArtifacts.CONNECT_TIMEOUT_MS / 1000.0, "took too long");
    }

    @Test
    void malformedCoordinatesAndRepositoriesAreRejectedWithTheValue() {
        MavenArtifacts m = new MavenArtifacts(local);
        IllegalArgumentException a = assertThrows(IllegalArgumentException.class, () -> m.resolve(List.of("commons-text")));
        assertTrue(a.getMessage().contains("'commons-text'"), a.getMessage());
        assertThrows(IllegalArgumentException.class, () -> m.resolve(List.of("g::1.0")));
        assertThrows(IllegalArgumentException.class, () -> m.resolve(List.of()));
        IllegalArgumentException b = assertThrows(IllegalArgumentException.class, () -> m.addRepository("x", "ftp://host/repo"));
        assertTrue(b.getMessage().contains("ftp://host/repo"), b.getMessage());
        assertThrows(IllegalArgumentException.class, () -> m.addRepository("bad id", "https://example.org/"));
    }
}
