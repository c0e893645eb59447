package fabriclab.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The kernel under real Jupyter: the jupyter_kernel_test conformance suite, robustness (errors,
 * interrupt, bad signature, parent death), every notebook in {@code notebooks/} validated against the
 * nbformat schema and executed with nbclient, its fresh outputs equal to the outputs committed with it. Uses Debian's Python ({@code /usr/bin/python3}) and fails, never skips, when Jupyter is
 * missing.
 */
class JupyterIT {
    static final Path ROOT = Path.of(System.getProperty("fabriclab.root", "..")).toAbsolutePath().normalize();
    static final Path KERNELSPEC = Path.of(System.getProperty("fabriclab.kernelspec", "target/kernelspec/fabriclab"));
    static final Path PYTHON_TESTS = ROOT.resolve("kernel/src/test/python");
    static final String PYTHON = Files.isExecutable(Path.of("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    static Path jupyterHome;

    @BeforeAll
    static void installKernel() throws Exception {
        Process check = new ProcessBuilder(PYTHON, "-c", "import nbclient, nbformat, jupyter_client, jupyter_kernel_test")
                .redirectErrorStream(true).start();
        String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (check.waitFor() != 0) {
            fail("Jupyter is not installed for " + PYTHON + ": apt-get install jupyter-notebook jupyter-nbconvert "
                    + "python3-nbclient jupyter-client python3-jupyter-kernel-test python3-ipykernel\n" + out);
        }
        if (!Files.isRegularFile(KERNELSPEC.resolve("kernel.json"))) {
            fail("no kernelspec at " + KERNELSPEC + ": run the package phase first");
        }
        jupyterHome = Files.createTempDirectory("fabriclab-jupyter");
        Path dest = jupyterHome.resolve("data/kernels/fabriclab");
        copyTree(KERNELSPEC, dest);
    }

    /** A throwaway project home with the datasets, so notebooks write their figures there. */
    static Path scratchHome() throws IOException {
        Path home = Files.createTempDirectory("fabriclab-home");
        copyTree(ROOT.resolve("datasets"), home.resolve("datasets"));
        Files.createDirectories(home.resolve("images"));
        return home;
    }

    static Map<String, String> env(Path fabriclabHome) {
        return Map.of(
                "JUPYTER_DATA_DIR", jupyterHome.resolve("data").toString(),
                "JUPYTER_PATH", jupyterHome.resolve("data").toString(),
                "JUPYTER_CONFIG_DIR", jupyterHome.resolve("config").toString(),
                "JUPYTER_RUNTIME_DIR", jupyterHome.resolve("runtime").toString(),
                "JUPYTER_PLATFORM_DIRS", "1",
                "FABRICLAB_HOME", fabriclabHome.toString());
    }

    static String run(Path dir, Map<String, String> env, long timeoutSeconds, String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        StringBuilder out = new StringBuilder();
        Thread reader = new Thread(() -> {
            try {
                out.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                out.append(e);
            }
        });
        reader.start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            reader.join(5000);
            fail(String.join(" ", command) + " timed out after " + timeoutSeconds + " s\n" + out);
        }
        reader.join();
        String text = out.toString().lines().filter(l -> !l.startsWith("INFO:") && !l.matches("^[A-Z][a-z]{2} \\d+, \\d{4} .*"))
                .collect(Collectors.joining("\n"));
        System.out.println(text);
        if (p.exitValue() != 0) {
            fail(String.join(" ", command) + " exited with " + p.exitValue() + "\n" + text);
        }
        return text;
    }

    @Test
    void kernelPassesTheJupyterKernelTestSuite() throws Exception {
        run(PYTHON_TESTS, env(scratchHome()), 600, PYTHON, "-m", "unittest", "-v", "test_conformance");
    }

    @Test
    void everyNotebookValidatesAgainstTheNbformatSchema() throws Exception {
        run(PYTHON_TESTS, Map.of(), 120, PYTHON, "-m", "unittest", "-v", "test_notebook_files");
    }

    @Test
    void kernelSurvivesErrorsInterruptsAndForgedMessages() throws Exception {
        run(PYTHON_TESTS, env(scratchHome()), 600, PYTHON, "-m", "unittest", "-v", "test_robustness");
    }

    @Test
    void mavenMagicResolvesFromMavenCentral() throws Exception {
        run(PYTHON_TESTS, env(scratchHome()), 600, PYTHON, "-m", "unittest", "-v", "test_maven_magic");
    }

    @TestFactory
    Stream<DynamicTest> everyNotebookExecutes() throws IOException {
        List<Path> notebooks;
        try (Stream<Path> s = Files.list(ROOT.resolve("notebooks"))) {
            notebooks = s.filter(p -> p.toString().endsWith(".ipynb")).sorted(java.util.Comparator // the scorecard reads the others' results: last
                    .comparing((Path p) -> p.getFileName().toString().contains("scorecard")).thenComparing(Path::compareTo))
                    .collect(Collectors.toList());
        }
        assertFalse(notebooks.isEmpty(), "no notebooks found in " + ROOT.resolve("notebooks"));
        Path out = Files.createTempDirectory("fabriclab-executed");
        return notebooks.stream().map(nb -> DynamicTest.dynamicTest(nb.getFileName().toString(), () ->
                run(ROOT, env(scratchHome()), 1800, PYTHON, PYTHON_TESTS.resolve("run_notebook.py").toString(),
                        nb.toString(), out.toString(), "--compare")));
    }

    @Test
    void sameNotebookGivesByteIdenticalFiguresAndDatasets() throws Exception {
        Path nb = ROOT.resolve("notebooks/00-quickstart.ipynb");
        Path a = scratchHome();
        Path b = scratchHome();
        Path out = Files.createTempDirectory("fabriclab-executed");
        run(ROOT, env(a), 600, PYTHON, PYTHON_TESTS.resolve("run_notebook.py").toString(), nb.toString(), out.toString());
        run(ROOT, env(b), 600, PYTHON, PYTHON_TESTS.resolve("run_notebook.py").toString(), nb.toString(), out.toString());
        List<Path> filesA = listFiles(a);
        List<Path> filesB = listFiles(b);
        assertEquals(filesA.stream().map(a::relativize).collect(Collectors.toList()),
                filesB.stream().map(b::relativize).collect(Collectors.toList()));
        assertFalse(filesA.stream().noneMatch(p -> p.toString().endsWith(".png")), "quickstart writes a PNG");
        for (Path f : filesA) {
            assertArrayEquals(Files.readAllBytes(f), Files.readAllBytes(b.resolve(a.relativize(f))), "differs: " + a.relativize(f));
        }
    }

    private static List<Path> listFiles(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.filter(Files::isRegularFile).sorted().collect(Collectors.toList());
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        List<Path> all = new ArrayList<>();
        try (Stream<Path> s = Files.walk(from)) {
            s.forEach(all::add);
        }
        for (Path p : all) {
            Path target = to.resolve(from.relativize(p).toString());
            if (Files.isDirectory(p)) {
                Files.createDirectories(target);
            } else {
                Files.createDirectories(target.getParent());
                Files.copy(p, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }
}
