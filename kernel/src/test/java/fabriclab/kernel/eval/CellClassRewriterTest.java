package fabriclab.kernel.eval;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

class CellClassRewriterTest {
    private static byte[] classFile(Class<?> c) throws IOException {
        try (InputStream in = c.getResourceAsStream(c.getSimpleName() + ".class")) {
            return in.readAllBytes();
        }
    }

    /** The class with every line number moved by {@code lines}, as when a wrapper's imports take another line. */
    private static byte[] movedLines(byte[] classFile, int lines) {
        ClassReader reader = new ClassReader(classFile);
        ClassWriter writer = new ClassWriter(0);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, descriptor, signature, exceptions)) {
                    @Override
                    public void visitLineNumber(int line, Label start) {
                        super.visitLineNumber(line + lines, start);
                    }
                };
            }
        }, 0);
        return writer.toByteArray();
    }

    @Test
    void aClassThatOnlyMovedLinesIsTheSame() throws IOException {
        byte[] original = classFile(CellGuard.class);
        byte[] moved = movedLines(original, 1);
        assertFalse(java.util.Arrays.equals(original, moved));
        assertTrue(CellClassRewriter.sameButDebugInfo(original, moved));
    }

    @Test
    void otherCodeIsNotTheSame() throws IOException {
        byte[] original = classFile(CellGuard.class);
        assertFalse(CellClassRewriter.sameButDebugInfo(original, CellClassRewriter.rewrite(original)));
        assertFalse(CellClassRewriter.sameButDebugInfo(original, classFile(CellExitGuard.class)));
        assertFalse(CellClassRewriter.sameButDebugInfo(original, new byte[] {1, 2, 3}));
    }
}
