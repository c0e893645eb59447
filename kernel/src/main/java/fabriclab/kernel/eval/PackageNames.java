package fabriclab.kernel.eval;

import java.io.File;
import java.io.IOException;
import java.lang.module.ModuleDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The package names a cell can use, for completing a qualified name ({@code java.util.conc},
 * {@code import tech.tablesaw.a}): the packages the JDK's modules export to every module, and the packages
 * holding classes in each jar and class directory of the session's class path (its start plus what
 * {@code %classpath}, {@code %jars} and {@code %maven} added). Each jar's or directory's packages are read once
 * and kept (a jar again when its size or date changes); the union is rebuilt only when the class path changes.
 * A package's parents count as packages too ({@code java.util.concurrent.atomic} gives {@code java.util} and
 * {@code java}).
 */
final class PackageNames {
    private static volatile NavigableSet<String> jdk;

    private final Supplier<List<String>> classpath;
    /** A class path entry's packages, with the jar's size and date when read (0 for a directory). */
    private final Map<String, Entry> entries = new HashMap<>();
    private List<String> indexedClasspath = List.of();
    private NavigableSet<String> all;

    private record Entry(long size, long modified, Set<String> packages) {
    }

    /** Package names of the JDK and of the class path {@code classpath} gives when asked. */
    PackageNames(Supplier<List<String>> classpath) {
        this.classpath = classpath;
    }

    /**
     * The completions of the package name that ends at {@code cursor} in {@code code}: the next name segment of
     * each package that starts with it, in alphabetical order, each replacing the text after the name's last dot.
     * A name without a dot completes only after {@code import} (or {@code import static}). Null when the text
     * before the cursor is not such a name.
     */
    synchronized Completion complete(String code, int cursor) {
        int end = Math.min(Math.max(cursor, 0), code.length());
        int start = end;
        while (start > 0 && (Character.isJavaIdentifierPart(code.charAt(start - 1)) || code.charAt(start - 1) == '.')) {
            start--;
        }
        // a name starts with a letter; "1.5" or ".x" are not package names
        if (start < end && !Character.isJavaIdentifierStart(code.charAt(start))) {
            return null;
        }
        String name = code.substring(start, end);
        if (name.isEmpty() && !afterImport(code, start)) {
            return null;
        }
        int lastDot = name.lastIndexOf('.');
        if (lastDot < 0 && !afterImport(code, start)) {
            return null;
        }
        if (name.contains("..")) {
            return null;
        }
        String parent = lastDot < 0 ? "" : name.substring(0, lastDot + 1);
        String partial = name.substring(lastDot + 1);
        NavigableSet<String> packages = packages();
        String from = parent + partial;
        List<String> options = new ArrayList<>();
        Set<String> seen = new TreeSet<>();
        for (String p : packages.tailSet(from, true)) {
            if (!p.startsWith(from)) {
                break;
            }
            String rest = p.substring(parent.length());
            int dot = rest.indexOf('.');
            String segment = dot < 0 ? rest : rest.substring(0, dot);
            if (seen.add(segment)) {
                options.add(segment);
            }
        }
        return new Completion(options, start + lastDot + 1, end);
    }

    /** Whether the text before {@code start} ends with the keyword {@code import} (or {@code import static}). */
    private static boolean afterImport(String code, int start) {
        String before = code.substring(0, start).stripTrailing();
        if (before.length() == start) {
            return false; // no space between the keyword and the name
        }
        if (before.endsWith("static")) {
            before = before.substring(0, before.length() - "static".length()).stripTrailing();
        }
        if (!before.endsWith("import")) {
            return false;
        }
        int k = before.length() - "import".length();
        return k == 0 || !Character.isJavaIdentifierPart(before.charAt(k - 1));
    }

    /** Every package name: the JDK's and the class path's, sorted. */
    synchronized NavigableSet<String> packages() {
        List<String> now = classpath.get();
        if (all == null || !now.equals(indexedClasspath)) {
            NavigableSet<String> union = new TreeSet<>(ofJdk());
            for (String e : now) {
                union.addAll(ofEntry(e));
            }
            all = Collections.unmodifiableNavigableSet(union);
            indexedClasspath = List.copyOf(now);
        }
        return all;
    }

    /** The packages of one class path entry, read once (a jar again when its size or date changed). */
    private Set<String> ofEntry(String path) {
        Path p = Path.of(path);
        long size = 0;
        long modified = 0;
        boolean directory = Files.isDirectory(p);
        if (!directory) {
            File f = p.toFile();
            size = f.length();
            modified = f.lastModified();
        }
        Entry cached = entries.get(path);
        if (cached != null && cached.size() == size && cached.modified() == modified) {
            return cached.packages();
        }
        Set<String> packages = directory ? ofDirectory(p) : ofJar(p);
        entries.put(path, new Entry(size, modified, packages));
        return packages;
    }

    /** The packages the JDK's modules (those of this JVM's boot layer) export to every module. */
    static NavigableSet<String> ofJdk() {
        NavigableSet<String> result = jdk;
        if (result == null) {
            NavigableSet<String> found = new TreeSet<>();
            for (Module m : ModuleLayer.boot().modules()) {
                ModuleDescriptor d = m.getDescriptor();
                if (d == null) {
                    continue;
                }
                for (ModuleDescriptor.Exports e : d.exports()) {
                    if (!e.isQualified()) {
                        withParents(e.source(), found);
                    }
                }
            }
            result = Collections.unmodifiableNavigableSet(found);
            jdk = result;
        }
        return result;
    }

    /**
     * The packages holding classes in a jar: the directories of its {@code .class} entries, without
     * {@code META-INF} (a multi-release jar's versioned copies) and {@code module-info}; empty when it is not
     * a readable jar.
     */
    static Set<String> ofJar(Path jar) {
        Set<String> found = new TreeSet<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            for (ZipEntry e : Collections.list(zip.entries())) {
                addClassEntry(e.getName(), found);
            }
        } catch (IOException | RuntimeException e) {
            return Set.of();
        }
        return Collections.unmodifiableSet(found);
    }

    /** The packages holding classes in a class directory (its subdirectories with {@code .class} files). */
    static Set<String> ofDirectory(Path dir) {
        Set<String> found = new TreeSet<>();
        try (Stream<Path> files = Files.walk(dir)) {
            files.filter(f -> f.getFileName() != null && f.getFileName().toString().endsWith(".class"))
                    .forEach(f -> addClassEntry(dir.relativize(f).toString().replace(File.separatorChar, '/'), found));
        } catch (IOException | RuntimeException e) {
            return Set.of();
        }
        return Collections.unmodifiableSet(found);
    }

    private static void addClassEntry(String name, Set<String> found) {
        if (!name.endsWith(".class") || name.startsWith("META-INF/")) {
            return;
        }
        int slash = name.lastIndexOf('/');
        if (slash <= 0) {
            return; // the unnamed package, or module-info.class at the top
        }
        String pkg = name.substring(0, slash).replace('/', '.');
        for (String part : pkg.split("\\.")) {
            if (part.isEmpty() || !Character.isJavaIdentifierStart(part.charAt(0))
                    || !part.chars().allMatch(Character::isJavaIdentifierPart)) {
                return; // not a package name ("foo-1.0/x.class")
            }
        }
        withParents(pkg, found);
    }

    private static void withParents(String pkg, Set<String> found) {
        for (String p = pkg; !p.isEmpty() && found.add(p); p = p.lastIndexOf('.') < 0 ? "" : p.substring(0, p.lastIndexOf('.'))) {
            // each parent once
        }
    }
}
