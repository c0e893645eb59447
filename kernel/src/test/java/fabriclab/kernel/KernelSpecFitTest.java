package fabriclab.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class KernelSpecFitTest {
    static final List<String> TEMPLATE = List.of("java", "-Xshare:auto", "-Djava.security.manager=allow", "-cp", "{resource_dir}/lib/*",
            "fabriclab.kernel.Main", "{connection_file}");

    @Test
    void securityManagerFlagOnlyBelowJdk24AndTheJdksOwnJava() {
        List<String> tail = List.of("-cp", "{resource_dir}/lib/*", "fabriclab.kernel.Main", "{connection_file}");
        for (int feature : new int[] {17, 21, 23}) {
            assertEquals(concat(List.of("/jdk/bin/java", "-Xshare:auto", "-Djava.security.manager=allow"), tail),
                    KernelSpecFit.fitArgv(TEMPLATE, feature, "/jdk/bin/java"), "JDK " + feature);
        }
        for (int feature : new int[] {24, 25}) {
            assertEquals(concat(List.of("/jdk/bin/java", "-Xshare:auto"), tail), KernelSpecFit.fitArgv(TEMPLATE, feature, "/jdk/bin/java"),
                    "JDK " + feature);
        }
    }

    @Test
    void warmUpWritesTheArchiveWithTheKernelsFlags() {
        List<String> argv = List.of("/jdk/bin/java", "-XX:SharedArchiveFile={resource_dir}/fabriclab.jsa", "-Xshare:auto", "-cp",
                "{resource_dir}/lib/*", "fabriclab.kernel.Main", "{connection_file}");
        assertEquals(List.of("/jdk/bin/java", "-XX:ArchiveClassesAtExit=/k/fabriclab.jsa", "-cp", "/k/lib/*", "fabriclab.kernel.Main",
                "--warm-up"), KernelSpecFit.warmUpCommand(argv, java.nio.file.Path.of("/k")));
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> out = new java.util.ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
