package fabriclab;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The bad-input contract of kernel-lib, checked on every public entry point found by reflection.
 *
 * <p>Every public constructor and every public method with at least one parameter, of every public
 * type under {@code fabriclab} (except the packages {@link BadInputRegistry#EXCLUDED_PACKAGES} names,
 * which read and write files and have their own tests), is first called with valid arguments: the
 * test builds them from small per-type candidate lists (numbers such as 1, 4, 0.5, 40e9; enum
 * constants; the type's own constants and factories; {@link BadInputRegistry} for what reflection
 * cannot build) and, when a call rejects a value, tries the next candidate for the parameter the
 * message names. Then each parameter in turn is replaced by each bad value of its type: NaN,
 * +-Infinity, 0, -1, MIN/MAX, 1e-300, 1e300, null, an empty array or list, an array holding NaN or
 * infinity, a list holding null.
 *
 * <p>A call passes when it
 * <ul>
 *   <li>throws {@link IllegalArgumentException} or {@link NullPointerException} with a message that
 *       names the parameter as the caller passed it (its source name; kernel-lib is compiled with
 *       {@code -parameters}) and, for a number, the value received; or</li>
 *   <li>returns, for a value that may be valid (0, negative, extreme but finite, an empty array), a
 *       result with no NaN or infinity anywhere in it (numbers, records, arrays, collections), and no
 *       negative number where the valid call returned a non-negative one and the bad value was
 *       positive (an overflow).</li>
 * </ul>
 * It fails on a hang (no answer within {@link #CALL_BUDGET_MS}), an {@link OutOfMemoryError} (the
 * test runs in its own surefire execution with a 1 GB heap), any other exception type, a message that
 * does not name the parameter, or a call that accepts NaN, infinity, null or a NaN/null element.
 * {@link BadInputRegistry#ALLOWED} lists the few calls allowed to do otherwise, each with its reason.
 *
 * <p>A call that does not answer in time runs on a daemon thread that the test stops and abandons.
 */
class BadInputContractTest {
    /** Time given to one call (building its arguments included). */
    static final long CALL_BUDGET_MS = 3_000;

    /** How a call ended. */
    record Outcome(String kind, Object value, Throwable error, long millis) {
        boolean ok() {
            return kind.equals("returned");
        }
    }

    /** How to build one argument value afresh for each call (so a call cannot corrupt the next). */
    interface Recipe {
        Object make() throws Throwable;

        String describe();
    }

    record Constant(Object value, String describe) implements Recipe {
        @Override
        public Object make() {
            if (value != null && value.getClass().isArray()) {
                int n = Array.getLength(value);
                Object copy = Array.newInstance(value.getClass().getComponentType(), n);
                System.arraycopy(value, 0, copy, 0, n);
                return copy;
            }
            return value;
        }
    }

    record Call(Executable executable, Recipe receiver, List<Recipe> args) implements Recipe {
        @Override
        public Object make() throws Throwable {
            Object[] values = new Object[args.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = args.get(i).make();
            }
            try {
                if (executable instanceof Constructor<?> c) {
                    return c.newInstance(values);
                }
                Method m = (Method) executable;
                return m.invoke(receiver == null ? null : receiver.make(), values);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }

        @Override
        public String describe() {
            return id(executable);
        }
    }

    /** A bad value and whether a call must reject it (true) or may accept it with a sane result. */
    record Bad(String label, Object value, boolean mustReject, boolean positive) {
    }

    private final Map<Class<?>, List<Recipe>> samplesByType = new HashMap<>();
    private final List<Class<?>> allTypes = new ArrayList<>();

    static String id(Executable e) {
        StringBuilder b = new StringBuilder(e.getDeclaringClass().getName()).append('#')
                .append(e instanceof Constructor<?> ? "<init>" : e.getName()).append('(');
        Class<?>[] types = e.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            b.append(i == 0 ? "" : ",").append(types[i].getSimpleName());
        }
        return b.append(')').toString();
    }

    // ------------------------------------------------------------------ enumeration

    private List<Class<?>> publicTypes() throws Exception {
        Path classes = Path.of(Parameters.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> types = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path p : (Iterable<Path>) files.sorted()::iterator) {
                String file = classes.relativize(p).toString().replace(p.getFileSystem().getSeparator(), ".");
                if (!file.endsWith(".class") || file.endsWith("package-info.class") || file.endsWith("module-info.class")) {
                    continue;
                }
                Class<?> type = Class.forName(file.substring(0, file.length() - ".class".length()), false,
                        BadInputContractTest.class.getClassLoader());
                if (isPublicApi(type)) {
                    types.add(type);
                }
            }
        }
        return types;
    }

    private static boolean isPublicApi(Class<?> type) {
        for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
            if (!Modifier.isPublic(t.getModifiers()) || t.isAnonymousClass() || t.isSynthetic()) {
                return false;
            }
        }
        return true;
    }

    private static boolean excluded(Class<?> type) {
        return BadInputRegistry.EXCLUDED_PACKAGES.contains(type.getPackageName());
    }

    private static final java.util.Set<String> OBJECT_METHODS = java.util.Set.of("equals", "hashCode", "toString", "compareTo");

    private List<Executable> entryPoints(Class<?> type) {
        List<Executable> out = new ArrayList<>();
        if (!type.isInterface() && !type.isEnum() && !Modifier.isAbstract(type.getModifiers())) {
            out.addAll(Arrays.asList(type.getConstructors()));
        }
        for (Method m : type.getDeclaredMethods()) {
            if (!Modifier.isPublic(m.getModifiers()) || m.isSynthetic() || m.isBridge() || OBJECT_METHODS.contains(m.getName())) {
                continue;
            }
            if (type.isEnum() && (m.getName().equals("valueOf") || m.getName().equals("values"))) {
                continue;
            }
            out.add(m);
        }
        out.removeIf(e -> e.getParameterCount() == 0 || e.isSynthetic());
        out.sort(Comparator.comparing(BadInputContractTest::id));
        return out;
    }

    // ------------------------------------------------------------------ running one call, bounded

    /**
     * Runs a call within {@link #CALL_BUDGET_MS}; one that does not answer in time gets a second try
     * with four times the budget before it counts as a hang (a loaded CI machine must not turn a slow
     * call into a failure).
     */
    static Outcome run(Recipe call) {
        Outcome o = run(call, CALL_BUDGET_MS);
        return o.kind().equals("hang") ? run(call, 4 * CALL_BUDGET_MS) : o;
    }

    @SuppressWarnings({"deprecation", "removal"})
    static Outcome run(Recipe call, long budgetMs) {
        Object[] result = new Object[1];
        Throwable[] error = new Throwable[1];
        long start = System.nanoTime();
        Thread t = new Thread(() -> {
            try {
                result[0] = call.make();
            } catch (Throwable e) {
                error[0] = e;
            }
        }, "bad-input-call");
        t.setDaemon(true);
        t.start();
        try {
            t.join(budgetMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        if (t.isAlive()) {
            t.interrupt();
            t.stop(); // Java 17: still stops a runaway loop; the thread is a daemon and abandoned anyway
            try {
                t.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Outcome("hang", null, null, millis);
        }
        if (error[0] instanceof OutOfMemoryError) {
            return new Outcome("oom", null, error[0], millis);
        }
        if (error[0] != null) {
            return new Outcome("threw", null, error[0], millis);
        }
        return new Outcome("returned", result[0], null, millis);
    }

    // ------------------------------------------------------------------ valid values

    private List<Recipe> samples(Type generic, Class<?> type, int depth) {
        if (type == int.class) {
            return constants(4, 2, 1, 8, 64, 3, 16, 0, 1000);
        }
        if (type == long.class) {
            return constants(1000L, 4L, 1L, 64L, 1_000_000L, 0L, 100_000_000L);
        }
        if (type == double.class) {
            return constants(1.0, 0.5, 0.1, 2.0, 10.0, 1e-6, 1e-3, 100.0, 1000.0, 1e6, 40e9, 0.0, 0.9, 1e-5);
        }
        if (type == float.class) {
            return constants(1.0f, 0.5f);
        }
        if (type == boolean.class) {
            return constants(false, true);
        }
        if (type == String.class) {
            return constants("fuzz", "a");
        }
        if (type == double[].class) {
            return constants(new double[] {1, 2, 3, 4}, new double[] {0.5, 0.25, 0.25}, new double[] {1e-3, 2e-3});
        }
        if (type == int[].class) {
            return constants(new int[] {1, 2, 3, 4}, new int[] {2, 2});
        }
        if (type == long[].class) {
            return constants(new long[] {1, 2, 3, 4}, new long[] {1000, 2000});
        }
        if (type == byte[].class) {
            return constants(new byte[] {1, 2, 3, 4});
        }
        if (type == double[][].class) {
            return constants((Object) new double[][] {{1, 2}, {3, 4}});
        }
        if (type == SplittableRandom.class) {
            return List.of(new Recipe() {
                @Override
                public Object make() {
                    return new SplittableRandom(1);
                }

                @Override
                public String describe() {
                    return "new SplittableRandom(1)";
                }
            });
        }
        List<Recipe> registered = BadInputRegistry.samples(type);
        if (registered != null) {
            return registered;
        }
        if (type == List.class || type == Collection.class) {
            if (!(generic instanceof ParameterizedType p) || !(p.getActualTypeArguments()[0] instanceof Class<?> element)
                    && !(p.getActualTypeArguments()[0] instanceof ParameterizedType)) {
                return List.of();
            }
            Type elementType = p.getActualTypeArguments()[0];
            Class<?> elementClass = elementType instanceof Class<?> c ? c : (Class<?>) ((ParameterizedType) elementType).getRawType();
            List<Recipe> elements = samples(elementType, elementClass, depth + 1);
            if (elements.isEmpty()) {
                return List.of();
            }
            List<Recipe> out = new ArrayList<>();
            out.add(listOf(List.of(elements.get(0), elements.get(0), elements.get(0), elements.get(0))));
            if (elements.size() > 1) {
                out.add(listOf(List.of(elements.get(0), elements.get(1))));
            }
            out.add(listOf(List.of(elements.get(0))));
            return out;
        }
        if (!type.getName().startsWith("fabriclab.")) {
            return List.of();
        }
        List<Recipe> cached = samplesByType.get(type);
        if (cached != null) {
            return cached;
        }
        if (depth > 3) {
            return List.of();
        }
        samplesByType.put(type, List.of()); // guards recursion
        List<Recipe> found = findInstances(type, depth);
        samplesByType.put(type, found);
        return found;
    }

    private static List<Recipe> constants(Object... values) {
        List<Recipe> out = new ArrayList<>();
        for (Object v : values) {
            out.add(new Constant(v, v != null && v.getClass().isArray() ? arrayString(v) : String.valueOf(v)));
        }
        return out;
    }

    private static Recipe listOf(List<Recipe> elements) {
        return new Recipe() {
            @Override
            public Object make() throws Throwable {
                List<Object> list = new ArrayList<>();
                for (Recipe r : elements) {
                    list.add(r.make());
                }
                return list;
            }

            @Override
            public String describe() {
                return "list of " + elements.size();
            }
        };
    }

    private List<Recipe> findInstances(Class<?> type, int depth) {
        List<Recipe> out = new ArrayList<>();
        if (type.isEnum()) {
            for (Object c : type.getEnumConstants()) {
                out.add(new Constant(c, String.valueOf(c)));
            }
            return out;
        }
        for (Field f : type.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && type.isAssignableFrom(f.getType())) {
                try {
                    out.add(new Constant(f.get(null), type.getSimpleName() + "." + f.getName()));
                } catch (IllegalAccessException e) {
                    // not accessible: skip
                }
            }
        }
        List<Executable> makers = new ArrayList<>();
        List<Method> statics = new ArrayList<>(Arrays.asList(type.getMethods()));
        if (type.getEnclosingClass() != null) {
            statics.addAll(Arrays.asList(type.getEnclosingClass().getMethods())); // Outer.builder()
        }
        for (Method m : statics) {
            if (Modifier.isStatic(m.getModifiers()) && m.getDeclaringClass().getName().startsWith("fabriclab.")
                    && type.isAssignableFrom(m.getReturnType())) {
                makers.add(m);
            }
        }
        if (!type.isInterface() && !Modifier.isAbstract(type.getModifiers())) {
            makers.addAll(Arrays.asList(type.getConstructors()));
        }
        makers.sort(Comparator.comparingInt(Executable::getParameterCount).thenComparing(BadInputContractTest::id));
        for (Executable maker : makers) {
            if (out.size() >= 3) {
                break;
            }
            Call call = baseline(maker, depth + 1, null);
            if (call != null) {
                out.add(call);
            }
        }
        if (out.isEmpty() && (type.isInterface() || Modifier.isAbstract(type.getModifiers()))) {
            for (Class<?> sub : allTypes) {
                if (sub != type && type.isAssignableFrom(sub) && !sub.isInterface() && out.size() < 3) {
                    List<Recipe> subs = samples(sub, sub, depth + 1);
                    if (!subs.isEmpty()) {
                        out.add(subs.get(0));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Finds valid arguments for an entry point: starts from the first candidate of each parameter and,
     * when the call rejects a value, moves the parameter its message names (or the next one) on.
     */
    private Call baseline(Executable e, int depth, Outcome[] outcome) {
        Call registered = BadInputRegistry.baseline(id(e));
        if (registered != null) {
            Outcome o = run(registered);
            if (outcome != null) {
                outcome[0] = o;
            }
            return o.ok() ? registered : null;
        }
        Parameter[] params = e.getParameters();
        List<List<Recipe>> candidates = new ArrayList<>();
        for (Parameter p : params) {
            List<Recipe> c = samples(p.getParameterizedType(), p.getType(), depth);
            if (c.isEmpty()) {
                return null;
            }
            candidates.add(c);
        }
        List<Recipe> receivers = List.of();
        if (e instanceof Method m && !Modifier.isStatic(m.getModifiers())) {
            receivers = samples(m.getDeclaringClass(), m.getDeclaringClass(), depth);
            if (receivers.isEmpty()) {
                return null;
            }
        }
        int[] index = new int[params.length];
        int receiverIndex = 0;
        int roundRobin = 0;
        for (int attempt = 0; attempt < 40; attempt++) {
            List<Recipe> args = new ArrayList<>();
            for (int i = 0; i < params.length; i++) {
                args.add(candidates.get(i).get(index[i]));
            }
            Call call = new Call(e, receivers.isEmpty() ? null : receivers.get(receiverIndex), args);
            Outcome o = run(call, CALL_BUDGET_MS);
            if (outcome != null) {
                outcome[0] = o;
            }
            if (o.ok()) {
                return call;
            }
            if (o.kind().equals("hang") || o.kind().equals("oom")) {
                return null;
            }
            String message = o.error() == null ? "" : String.valueOf(o.error().getMessage());
            int named = -1;
            int longest = 0;
            for (int i = 0; i < params.length; i++) {
                String n = params[i].getName();
                if (message.contains(n) && n.length() > longest && index[i] + 1 < candidates.get(i).size()) {
                    named = i;
                    longest = n.length();
                }
            }
            if (named >= 0) {
                index[named]++;
                continue;
            }
            if (!receivers.isEmpty() && receiverIndex + 1 < receivers.size() && attempt % 2 == 0) {
                receiverIndex++;
                continue;
            }
            boolean moved = false;
            for (int k = 0; k < params.length && !moved; k++) {
                int i = (roundRobin + k) % params.length;
                if (index[i] + 1 < candidates.get(i).size()) {
                    index[i]++;
                    moved = true;
                    roundRobin = i + 1;
                }
            }
            if (!moved) {
                return null;
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ bad values

    static List<Bad> badValues(Class<?> type) {
        if (type == double.class) {
            return List.of(new Bad("NaN", Double.NaN, true, false),
                    new Bad("+Infinity", Double.POSITIVE_INFINITY, true, false),
                    new Bad("-Infinity", Double.NEGATIVE_INFINITY, true, false),
                    new Bad("0", 0.0, false, false), new Bad("-1", -1.0, false, false),
                    new Bad("-MAX", -Double.MAX_VALUE, false, false), new Bad("MAX", Double.MAX_VALUE, false, true),
                    new Bad("1e-300", 1e-300, false, true), new Bad("1e300", 1e300, false, true));
        }
        if (type == int.class) {
            return List.of(new Bad("0", 0, false, false), new Bad("-1", -1, false, false),
                    new Bad("MIN", Integer.MIN_VALUE, false, false), new Bad("MAX", Integer.MAX_VALUE, false, true));
        }
        if (type == long.class) {
            return List.of(new Bad("0", 0L, false, false), new Bad("-1", -1L, false, false),
                    new Bad("MIN", Long.MIN_VALUE, false, false), new Bad("MAX", Long.MAX_VALUE, false, true));
        }
        if (type.isPrimitive()) {
            return List.of();
        }
        List<Bad> out = new ArrayList<>();
        out.add(new Bad("null", null, true, false));
        if (type == double[].class) {
            out.add(new Bad("{}", new double[0], false, false));
            out.add(new Bad("{NaN}", new double[] {Double.NaN}, true, false));
            out.add(new Bad("{Infinity}", new double[] {Double.POSITIVE_INFINITY}, true, false));
        } else if (type == int[].class) {
            out.add(new Bad("{}", new int[0], false, false));
            out.add(new Bad("{MAX}", new int[] {Integer.MAX_VALUE}, false, true));
            out.add(new Bad("{-1}", new int[] {-1}, false, false));
        } else if (type == long[].class) {
            out.add(new Bad("{}", new long[0], false, false));
            out.add(new Bad("{MAX}", new long[] {Long.MAX_VALUE}, false, true));
            out.add(new Bad("{-1}", new long[] {-1}, false, false));
        } else if (type == double[][].class) {
            out.add(new Bad("{}", new double[0][], false, false));
            out.add(new Bad("{{NaN}}", new double[][] {{Double.NaN}}, true, false));
        } else if (type == List.class || type == Collection.class) {
            out.add(new Bad("[]", List.of(), false, false));
            out.add(new Bad("[null]", Arrays.asList((Object) null), true, false));
        } else if (type == String.class) {
            out.add(new Bad("\"\"", "", false, false));
        }
        return out;
    }

    // ------------------------------------------------------------------ judging an outcome

    /** Null when the outcome keeps the contract, else what is wrong. */
    static String judge(Outcome o, Parameter p, Bad bad, Object baselineValue) {
        switch (o.kind()) {
            case "hang":
                return "hang: no answer within " + 4 * CALL_BUDGET_MS + " ms";
            case "oom":
                return "OutOfMemoryError: " + o.error().getMessage();
            case "threw": {
                Throwable e = o.error();
                String message = e.getMessage();
                if (!(e instanceof IllegalArgumentException) && !(e instanceof NullPointerException)) {
                    return "unclear exception " + e.getClass().getName() + ": " + message;
                }
                if (message == null || message.startsWith("Cannot ")) {
                    return "unclear message " + e.getClass().getSimpleName() + ": " + message;
                }
                if (!namesAParameter(message, p)) {
                    return "message does not name the parameter '" + p.getName() + "': " + message;
                }
                if (bad.value() instanceof Number n && !message.contains(String.valueOf(n)) && !message.contains("got ")) {
                    return "message does not give the value " + n + ": " + message;
                }
                return null;
            }
            default: {
                if (bad.mustReject()) {
                    return "accepted " + bad.label() + " (returned " + brief(o.value()) + ")";
                }
                String insane = nonFinite(o.value(), 0);
                if (insane != null) {
                    return "returned " + insane + " for " + bad.label();
                }
                if (bad.positive() && firstNumber(baselineValue) >= 0 && firstNumber(o.value()) < 0) {
                    return "returned a negative number " + firstNumber(o.value()) + " for a positive input (overflow?)";
                }
                return null;
            }
        }
    }

    /**
     * Whether an error message names, as a whole word, the parameter that received the bad value, or
     * another parameter of the same call (a relation between two arguments, such as {@code hi >= lo}),
     * or, for a {@code withX(value)} copy method of a record, the record component it replaces.
     */
    static boolean namesAParameter(String message, Parameter p) {
        Executable e = p.getDeclaringExecutable();
        List<String> names = new ArrayList<>();
        for (Parameter q : e.getParameters()) {
            names.add(q.getName());
        }
        Class<?> owner = e.getDeclaringClass();
        if (e instanceof Method && !Modifier.isStatic(e.getModifiers()) && e.getParameterCount() == 1) {
            names.add(e.getName()); // a builder's setter: builder.linkGbps(x) -> "linkGbps must be ..."
        }
        if (e.getName().startsWith("with") && owner.isRecord()) {
            for (RecordComponent c : owner.getRecordComponents()) {
                names.add(c.getName());
            }
        }
        for (String n : names) {
            if (java.util.regex.Pattern.compile("(?<![A-Za-z0-9_])" + java.util.regex.Pattern.quote(n) + "(?![A-Za-z0-9_])")
                    .matcher(message).find()) {
                return true;
            }
        }
        return false;
    }

    /** The first number of a result (itself, or a record's first numeric component), or 0. */
    static double firstNumber(Object value) {
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value != null && value.getClass().isRecord()) {
            for (RecordComponent c : value.getClass().getRecordComponents()) {
                try {
                    c.getAccessor().setAccessible(true);
                    Object v = c.getAccessor().invoke(value);
                    if (v instanceof Number n) {
                        return n.doubleValue();
                    }
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return 0;
                }
            }
        }
        return 0;
    }

    /** Where a result holds NaN or infinity, or null. */
    static String nonFinite(Object value, int depth) {
        if (value == null || depth > 4) {
            return null;
        }
        if (value instanceof Double d && !Double.isFinite(d)) {
            return String.valueOf(d);
        }
        if (value instanceof Float f && !Float.isFinite(f)) {
            return String.valueOf(f);
        }
        if (value instanceof OptionalDouble o && o.isPresent() && !Double.isFinite(o.getAsDouble())) {
            return "OptionalDouble[" + o.getAsDouble() + "]";
        }
        if (value instanceof Optional<?> o && o.isPresent()) {
            return nonFinite(o.get(), depth + 1);
        }
        Class<?> type = value.getClass();
        if (type.isArray()) {
            int n = Math.min(Array.getLength(value), 100_000);
            for (int i = 0; i < n; i++) {
                String inner = nonFinite(Array.get(value, i), depth + 1);
                if (inner != null) {
                    return "[" + i + "] = " + inner;
                }
            }
            return null;
        }
        if (value instanceof Collection<?> c) {
            int i = 0;
            for (Object o : c) {
                if (i++ > 10_000) {
                    break;
                }
                String inner = nonFinite(o, depth + 1);
                if (inner != null) {
                    return "element " + inner;
                }
            }
            return null;
        }
        if (value instanceof Map<?, ?> m) {
            return nonFinite(m.values(), depth);
        }
        if (type.isRecord()) {
            for (RecordComponent c : type.getRecordComponents()) {
                try {
                    Method accessor = c.getAccessor();
                    accessor.setAccessible(true);
                    String inner = nonFinite(accessor.invoke(value), depth + 1);
                    if (inner != null) {
                        return c.getName() + " = " + inner;
                    }
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return null;
                }
            }
        }
        return null;
    }

    static String brief(Object value) {
        String s = value != null && value.getClass().isArray() ? arrayString(value) : String.valueOf(value);
        return s.length() > 120 ? s.substring(0, 120) + "..." : s;
    }

    static String arrayString(Object array) {
        if (array instanceof double[] d) {
            return Arrays.toString(d);
        }
        if (array instanceof int[] d) {
            return Arrays.toString(d);
        }
        if (array instanceof long[] d) {
            return Arrays.toString(d);
        }
        if (array instanceof Object[] d) {
            return Arrays.deepToString(d);
        }
        return array.getClass().getSimpleName();
    }

    // ------------------------------------------------------------------ the test

    @Test
    void everyPublicEntryPointRejectsBadInputClearly() throws Exception {
        allTypes.addAll(publicTypes());
        // initialise every class before any call: a call stopped for a hang must not be stopped inside
        // a static initialiser (which would leave the class unusable for the rest of the run)
        for (Class<?> type : allTypes) {
            Class.forName(type.getName(), true, type.getClassLoader());
        }
        for (String name : List.of("tech.tablesaw.api.Table", "tech.tablesaw.api.DoubleColumn", "tech.tablesaw.api.StringColumn",
                "tech.tablesaw.api.IntColumn", "tech.tablesaw.api.LongColumn", "tech.tablesaw.api.BooleanColumn")) {
            Class.forName(name, true, BadInputContractTest.class.getClassLoader());
        }
        Map<String, String> failures = new TreeMap<>();
        TreeSet<String> notFuzzed = new TreeSet<>();
        int entryPoints = 0;
        int calls = 0;
        int passed = 0;
        int allowedUsed = 0;
        // -Dbadinput.only=fabriclab.congestion fuzzes one package (to work on it); CI fuzzes all.
        String only = System.getProperty("badinput.only", "");
        for (Class<?> type : allTypes) {
            if (excluded(type) || !type.getName().startsWith(only)) {
                continue;
            }
            for (Executable e : entryPoints(type)) {
                String id = id(e);
                if (BadInputRegistry.SKIPPED.containsKey(id)) {
                    continue;
                }
                entryPoints++;
                Outcome[] baselineOutcome = new Outcome[1];
                Call valid = baseline(e, 0, baselineOutcome);
                if (valid == null) {
                    Outcome o = baselineOutcome[0];
                    notFuzzed.add(id + (o == null ? ": no valid value for some parameter"
                            : ": no valid call found, last " + o.kind() + (o.error() == null ? "" : " " + o.error())));
                    continue;
                }
                Object baselineValue = run(valid).value();
                Parameter[] params = e.getParameters();
                for (int i = 0; i < params.length; i++) {
                    for (Bad bad : badValues(params[i].getType())) {
                        List<Recipe> args = new ArrayList<>(valid.args());
                        args.set(i, new Constant(bad.value(), bad.label()));
                        Outcome o = run(new Call(e, valid.receiver(), args));
                        calls++;
                        String key = id + " " + params[i].getName() + "=" + bad.label();
                        String problem = judge(o, params[i], bad, baselineValue);
                        if (problem != null && BadInputRegistry.ALLOWED.containsKey(key)) {
                            allowedUsed++;
                            problem = null;
                        }
                        if (problem == null) {
                            passed++;
                        } else {
                            failures.put(key, problem);
                        }
                    }
                }
            }
        }
        Files.createDirectories(Path.of("target"));
        StringBuilder report = new StringBuilder();
        report.append(String.format("entry points %d, fuzzed calls %d, passed %d (%.1f%%), allowed by the registry %d, failed %d%n",
                entryPoints, calls, passed, 100.0 * passed / Math.max(1, calls), allowedUsed, failures.size()));
        Map<String, Integer> byKind = new TreeMap<>();
        failures.values().forEach(v -> byKind.merge(v.replaceAll("[:(].*", "").trim(), 1, Integer::sum));
        report.append("failures by kind: ").append(byKind).append('\n');
        failures.forEach((k, v) -> report.append("FAIL ").append(k).append(" -> ").append(v).append('\n'));
        Files.writeString(Path.of("target", "bad-input-failures.txt"), String.join("\n", failures.keySet()) + "\n",
                StandardCharsets.UTF_8);
        notFuzzed.forEach(n -> report.append("NOT FUZZED ").append(n).append('\n'));
        Path out = Path.of("target", "bad-input-contract.txt");
        Files.writeString(out, report, StandardCharsets.UTF_8);
        System.out.println(report.toString().lines().limit(3).reduce("", (a, b) -> a + b + "\n")
                + "(full report: " + out.toAbsolutePath() + ")");

        java.util.Set<String> knownFailures = BadInputRegistry.knownFailures();
        Map<String, String> unexpected = new LinkedHashMap<>(failures);
        unexpected.keySet().removeAll(knownFailures);
        List<String> fixedButListed = new ArrayList<>();
        for (String known : knownFailures) {
            if (!failures.containsKey(known) && known.startsWith(only)) {
                fixedButListed.add(known);
            }
        }
        assertTrue(unexpected.isEmpty(), unexpected.size() + " calls break the bad-input contract:\n"
                + String.join("\n", unexpected.entrySet().stream().map(x -> x.getKey() + " -> " + x.getValue()).toList()));
        assertTrue(fixedButListed.isEmpty(), "these calls now keep the contract; remove them from "
                + "src/test/resources/fabriclab/bad-input-known-failures.txt: " + fixedButListed);
        assertTrue(!only.isEmpty() || entryPoints > 200, "expected kernel-lib's entry points, found " + entryPoints);
        assertTrue(!only.isEmpty() || notFuzzed.size() <= BadInputRegistry.MAX_NOT_FUZZED, notFuzzed.size()
                + " entry points have no valid call to start from (at most " + BadInputRegistry.MAX_NOT_FUZZED + " may): add a "
                + "registry entry in BadInputRegistry for each, a valid value of the type reflection cannot build (samples) or a "
                + "valid starting call (baseline); SKIPPED is only for entry points fuzzing cannot apply to, with the reason:\n"
                + String.join("\n", notFuzzed));
    }
}
