package fabriclab;

/**
 * Argument checks shared by every public entry point of kernel-lib.
 *
 * <p>Each check fails with an {@link IllegalArgumentException} whose message names the parameter,
 * the value received and the allowed range, so that a notebook user sees at once what to change.
 * NaN is rejected by every numeric check.
 */
public final class Parameters {
    private Parameters() {
    }

    /** Requires {@code value > 0} and finite. Returns the value. */
    public static double positive(String name, double value) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be a finite number > 0, got " + value);
        }
        return value;
    }

    /** Requires {@code value >= 0} and finite. Returns the value. */
    public static double nonNegative(String name, double value) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(name + " must be a finite number >= 0, got " + value);
        }
        return value;
    }

    /** Requires {@code lo <= value <= hi}. Returns the value. */
    public static double inRange(String name, double value, double lo, double hi) {
        if (!(value >= lo && value <= hi)) {
            throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "], got " + value);
        }
        return value;
    }

    /** Requires {@code lo < value <= hi} (for example a probability that may not be zero). */
    public static double inHalfOpenRange(String name, double value, double lo, double hi) {
        if (!(value > lo && value <= hi)) {
            throw new IllegalArgumentException(name + " must be in (" + lo + ", " + hi + "], got " + value);
        }
        return value;
    }

    /** Requires {@code value >= min}. Returns the value. */
    public static long atLeast(String name, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be >= " + min + ", got " + value);
        }
        return value;
    }

    /** Requires {@code value >= min}. Returns the value. */
    public static int atLeast(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be >= " + min + ", got " + value);
        }
        return value;
    }

    /** Checks {@code lo <= value <= hi} for a long (byte counts, picoseconds) and returns it. */
    public static long inRange(String name, long value, long lo, long hi) {
        if (value < lo || value > hi) {
            throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "], got " + value);
        }
        return value;
    }

    /** Requires {@code lo <= value <= hi}. Returns the value. */
    public static int inRange(String name, int value, int lo, int hi) {
        if (value < lo || value > hi) {
            throw new IllegalArgumentException(name + " must be in [" + lo + ", " + hi + "], got " + value);
        }
        return value;
    }

    /** Requires a finite value (not NaN, not infinite). Returns the value. */
    public static double finite(String name, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException(name + " must be a finite number, got " + value);
        }
        return value;
    }

    /** Requires a non-null reference. Returns it. */
    public static <T> T notNull(String name, T value) {
        if (value == null) {
            throw new IllegalArgumentException(name + " must not be null");
        }
        return value;
    }

    /**
     * Requires a non-null list without null elements; the message names the first null element as
     * {@code name[i]}. Returns the list.
     */
    public static <T extends java.util.Collection<?>> T noNullElements(String name, T values) {
        notNull(name, values);
        int i = 0;
        for (Object v : values) {
            if (v == null) {
                throw new IllegalArgumentException(name + "[" + i + "] must not be null");
            }
            i++;
        }
        return values;
    }

    /**
     * Requires a non-null array of finite numbers; the message names the first bad element as
     * {@code name[i]}. Returns the array.
     */
    public static double[] finiteElements(String name, double[] values) {
        notNull(name, values);
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException(name + "[" + i + "] must be a finite number, got " + values[i]);
            }
        }
        return values;
    }

    /** Requires a non-null, non-blank string. Returns it. */
    public static String notBlank(String name, String value) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("name (of the parameter checked) must be a non-empty string, got "
                    + (name == null ? "null" : "\"" + name + "\""));
        }
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must be a non-empty string, got " + (value == null ? "null" : "\"" + value + "\""));
        }
        return value;
    }
    /**
     * Why {@code file} is not an input file of at most {@code maxBytes} bytes, as a phrase following its name ("must
     * be a regular file ..."), or null: it must exist, be a regular file (not a directory, device, FIFO or socket,
     * which could be endless or block; a symbolic link is followed) and hold at most {@code maxBytes} bytes.
     *
     * @param file the file
     * @param maxBytes the largest size allowed, bytes, positive
     */
    public static String inputFileProblem(java.nio.file.Path file, long maxBytes) {
        notNull("file", file);
        atLeast("maxBytes", maxBytes, 1L);
        if (!java.nio.file.Files.exists(file)) {
            return "must name an existing file, got " + file + " (no such file)";
        }
        if (!java.nio.file.Files.isRegularFile(file)) {
            String kind = java.nio.file.Files.isDirectory(file) ? "a directory" : "a device, FIFO or socket";
            return "must be a regular file, got " + file + " (" + kind + ", which is not read)";
        }
        try {
            long size = java.nio.file.Files.size(file);
            if (size > maxBytes) {
                return "must be at most " + maxBytes + " bytes (" + (maxBytes >> 20) + " MiB), got " + file + " of " + size
                        + " bytes";
            }
        } catch (java.io.IOException e) {
            return "must be a readable file, got " + file + " (" + e.getMessage() + ")";
        }
        return null;
    }

    /**
     * The lines of input file {@code file} (UTF-8; see {@link #inputFileProblem} for what it must be), read with a
     * bound: a file that grows past {@code maxBytes} while it is read is refused too.
     *
     * @param name the parameter that named the file, for the message
     * @param file the file
     * @param maxBytes the largest size allowed, bytes, positive
     * @throws IllegalArgumentException naming {@code name} if the file is not a regular file of at most
     *         {@code maxBytes} bytes or is not UTF-8 text
     * @throws java.io.UncheckedIOException if it cannot be read
     */
    public static java.util.List<String> readInputFile(String name, java.nio.file.Path file, long maxBytes) {
        return readInputText(name, file, maxBytes).lines().toList();
    }

    /**
     * The text of input file {@code file}, as {@link #readInputFile} reads it (the same checks), whole.
     *
     * @param name the parameter that named the file, for the message
     * @param file the file
     * @param maxBytes the largest size allowed, bytes, positive
     */
    public static String readInputText(String name, java.nio.file.Path file, long maxBytes) {
        notBlank("name", name);
        String problem = inputFileProblem(file, maxBytes);
        if (problem != null) {
            throw new IllegalArgumentException(name + " " + problem);
        }
        byte[] bytes;
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + name + " " + file, e);
        }
        if (bytes.length > maxBytes) {
            throw new IllegalArgumentException(name + " must be at most " + maxBytes + " bytes, got " + file
                    + ", which grew past that while it was read");
        }
        String text;
        try {
            text = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException(name + " must be UTF-8 text, got " + file + " (" + e.getMessage() + ")");
        }
        return text;
    }
}
