package fabriclab.kernel.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import javax.tools.StandardJavaFileManager;
import org.junit.jupiter.api.Test;

class IndexKeepingFileManagerTest {
    /** A standard file manager that records the options it is handed. */
    private static StandardJavaFileManager recording(List<String> handled) {
        return (StandardJavaFileManager) Proxy.newProxyInstance(IndexKeepingFileManagerTest.class.getClassLoader(),
                new Class<?>[] {StandardJavaFileManager.class}, (proxy, method, args) -> {
                    if (method.getName().equals("handleOption")) {
                        @SuppressWarnings("unchecked")
                        Iterator<String> rest = (Iterator<String>) args[1];
                        handled.add(args[0] + " " + rest.next());
                        return true;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }

    @Test
    void passesMultiReleaseOnlyWhenItsValueChanges() {
        List<String> handled = new ArrayList<>();
        IndexKeepingFileManager fm = new IndexKeepingFileManager(recording(handled));
        assertTrue(fm.handleOption("--multi-release", List.of("17").iterator()));
        assertTrue(fm.handleOption("--multi-release", List.of("17").iterator()));
        assertTrue(fm.handleOption("--multi-release", List.of("21").iterator()));
        assertEquals(List.of("--multi-release 17", "--multi-release 21"), handled);
    }

    @Test
    void passesEveryOtherOption() {
        List<String> handled = new ArrayList<>();
        IndexKeepingFileManager fm = new IndexKeepingFileManager(recording(handled));
        fm.handleOption("--multi-release", List.of("17").iterator());
        fm.handleOption("-classpath", List.of("a.jar").iterator());
        fm.handleOption("-classpath", List.of("a.jar").iterator());
        assertEquals(List.of("--multi-release 17", "-classpath a.jar", "-classpath a.jar"), handled);
    }
}
