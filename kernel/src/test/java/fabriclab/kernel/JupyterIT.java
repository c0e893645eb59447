package fabriclab.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import fabriclab.sweep.SweepRuns;
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
        // the kernel runs on the JDK of these tests (mvn's JAVA_HOME: CI runs them on JDK 17 and on JDK 25),
        // with the flags that JDK accepts, as bin/install-kernel writes them
        KernelSpecFit.fit(dest, null);
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
    void kernelBehavesLikeIpykernelWhereClientsRelyOnIt() throws Exception {
        run(PYTHON_TESTS, env(scratchHome()), 900, PYTHON, "-m", "unittest", "-v", "test_behaviour");
    }

    /** Jupyter widgets at message level, in the classic notebook's protocol and in protocol 2.1 (test_widgets.py). */
    @Test
    void widgetsSyncWithAFrontEndOverComms() throws Exception {
        run(PYTHON_TESTS, env(scratchHome()), 600, PYTHON, "-m", "unittest", "-v", "test_widgets");
    }

    /**
     * Jupyter's JavaScript clients: {@code @jupyterlab/services} against the classic notebook server
     * (execute, display_data PNG and HTML, complete, inspect, history, interrupt, restart) and Debian's
     * Chromium driven by playwright-core (Run All of notebook 00 in the notebook UI, the exported report
     * typeset offline; an IntSlider moved with the keyboard in the classic notebook's widgets redraws an
     * interact figure and reaches the kernel). Needs node, npm and /usr/bin/chromium ({@code .ci/run} installs them); fails,
     * never skips, without them.
     */
    @Test
    void javascriptClientsAndTheBrowserUseTheKernel() throws Exception {
        Path js = ROOT.resolve("kernel/src/test/js");
        for (String tool : new String[] {"node", "npm"}) {
            if (new ProcessBuilder("sh", "-c", "command -v " + tool).start().waitFor() != 0) {
                fail(tool + " is missing: apt-get install nodejs npm (or run .ci/run)");
            }
        }
        if (!Files.isExecutable(Path.of("/usr/bin/chromium"))) {
            fail("/usr/bin/chromium is missing: apt-get install chromium (or run .ci/run)");
        }
        if (!Files.isDirectory(js.resolve("node_modules/playwright-core"))
                || !Files.isDirectory(js.resolve("node_modules/@jupyterlab/services"))) {
            run(js, Map.of(), 600, "npm", "ci", "--no-audit", "--no-fund");
        }
        Map<String, String> env = new java.util.HashMap<>(env(scratchHome()));
        env.put("FABRICLAB_ROOT", ROOT.toString());
        env.put("FABRICLAB_PYTHON", PYTHON);
        run(js, env, 600, "node", "--test", "services.test.mjs");
        run(js, env, 1200, "node", "--test", "browser.test.mjs");
        run(js, env, 600, "node", "--test", "widgets.test.mjs");
    }

    /**
     * Notebook 00 run from a kernelspec installed outside the checkout, as in an image: the kernelspec
     * installed by {@code bin/install-kernel} under a user's {@code ~/.local/share/jupyter/kernels} (no
     * JUPYTER_PATH), {@code FABRICLAB_HOME} set, the notebook in a directory outside the checkout, and, when
     * the tests run as root, a non-root user. (The Docker/Binder image itself: {@code bin/test-binder}.)
     */
    @Test
    void quickstartRunsAsInTheDockerImage() throws Exception {
        Path home = Files.createTempDirectory("fabriclab-user");
        Path kernels = home.resolve(".local/share/jupyter/kernels");
        Files.createDirectories(kernels);
        run(ROOT, Map.of(), 600, ROOT.resolve("bin/install-kernel").toString(), kernels.toString());
        assertTrue(Files.isRegularFile(kernels.resolve("fabriclab/kernel.json")));
        Path project = scratchHome();
        Path work = Files.createTempDirectory("fabriclab-work");
        Path nb = work.resolve("00-quickstart.ipynb");
        Files.copy(ROOT.resolve("notebooks/00-quickstart.ipynb"), nb);
        List<String> command = new ArrayList<>();
        boolean root = "0".equals(new String(new ProcessBuilder("id", "-u").start().getInputStream().readAllBytes(),
                StandardCharsets.UTF_8).strip());
        if (root) {
            for (Path p : new Path[] {home, project, work}) {
                run(ROOT, Map.of(), 60, "chown", "-R", "nobody:nogroup", p.toString());
            }
            command.addAll(List.of("runuser", "-u", "nobody", "--"));
        }
        command.addAll(List.of("env", "-i", "PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "LANG=C.UTF-8",
                "FABRICLAB_HOME=" + project, PYTHON, PYTHON_TESTS.resolve("run_notebook.py").toString(), nb.toString(),
                work.resolve("out").toString()));
        String out = run(work, Map.of(), 900, command.toArray(String[]::new));
        assertTrue(out.contains("ok 00-quickstart.ipynb"), out);
        try (Stream<Path> s = Files.list(project.resolve("images"))) {
            assertTrue(s.anyMatch(p -> p.toString().endsWith(".png")), "no figure written under FABRICLAB_HOME");
        }
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
        // the sweeps compute a subset of their runs and check it against the runs ./reproduce recorded (datasets/runs);
        // the rest comes from the record, so every output must still match the committed notebook
        Map<String, String> sweepRuns = Map.of(SweepRuns.ENV, SWEEP_RUNS);
        return notebooks.stream().map(nb -> DynamicTest.dynamicTest(nb.getFileName().toString(), () ->
                run(ROOT, with(env(scratchHome()), sweepRuns), 1800, PYTHON, PYTHON_TESTS.resolve("run_notebook.py").toString(),
                        nb.toString(), out.toString(), "--compare")));
    }

    /**
     * The notebooks' sweeps in this test: {@code -Dfabriclab.it.sweepRuns} (for example {@code check:1}, every run
     * computed and compared with the record, or {@code run}), by default {@code check}: one run in
     * {@value SweepRuns#DEFAULT_CHECK_EVERY} computed and compared.
     */
    static final String SWEEP_RUNS = SweepRuns.parse("fabriclab.it.sweepRuns",
            System.getProperty("fabriclab.it.sweepRuns", "check")).toString();

    private static Map<String, String> with(Map<String, String> env, Map<String, String> more) {
        Map<String, String> all = new java.util.HashMap<>(env);
        all.putAll(more);
        return all;
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
