package fabriclab.kernel.eval;

import java.util.HashSet;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Rewrites the bytecode of a class JShell compiled from a cell, before it is defined (JShell hands every
 * class of a snippet to {@link CellExecutionControl#load}, nested, local and anonymous classes and the
 * lambdas' bodies included):
 *
 * <ul>
 *   <li>calls of {@code System.exit(int)}, {@code Runtime.exit(int)} and {@code Runtime.halt(int)}, and
 *       method references to them, call {@link CellGuard} instead, which throws a
 *       {@link SecurityException};
 *   <li>{@link CellGuard#poll()} is called before every backward jump (each iteration of a loop) and at
 *       the entry of every method, so an interrupt ends CPU-bound loops and recursion of cell code,
 *       also in pool workers running the cell's lambdas (a parallel stream).
 * </ul>
 *
 * <p>The inserted call takes and leaves nothing on the operand stack and is never a jump target, so the
 * stack map frames stay valid; ASM recomputes the offsets (and widens a jump that no longer fits).
 */
final class CellClassRewriter {
    private static final String GUARD = "fabriclab/kernel/eval/CellGuard";

    private CellClassRewriter() {
    }

    /** The rewritten class file. */
    static byte[] rewrite(byte[] classFile) {
        ClassReader reader = new ClassReader(classFile);
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ClassVisitor(Opcodes.ASM9, writer) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
                boolean body = (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) == 0;
                boolean pollAtEntry = body && !name.equals("<init>") && !name.equals("<clinit>");
                return mv == null ? null : new GuardedMethod(mv, pollAtEntry);
            }
        }, 0);
        return writer.toByteArray();
    }

    /**
     * Whether two class files declare and do the same, differing at most in debug information (line numbers,
     * local variable tables, source file, parameter names); false when either cannot be read.
     */
    static boolean sameButDebugInfo(byte[] a, byte[] b) {
        try {
            return java.util.Arrays.equals(withoutDebugInfo(a), withoutDebugInfo(b));
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static byte[] withoutDebugInfo(byte[] classFile) {
        ClassWriter writer = new ClassWriter(0); // a constant pool in the order of visits, the same for the same class
        new ClassReader(classFile).accept(writer, ClassReader.SKIP_DEBUG);
        return writer.toByteArray();
    }

    private static final class GuardedMethod extends MethodVisitor {
        private final boolean pollAtEntry;
        private final Set<Label> seen = new HashSet<>();

        GuardedMethod(MethodVisitor mv, boolean pollAtEntry) {
            super(Opcodes.ASM9, mv);
            this.pollAtEntry = pollAtEntry;
        }

        private void poll() {
            super.visitMethodInsn(Opcodes.INVOKESTATIC, GUARD, "poll", "()V", false);
        }

        @Override
        public void visitCode() {
            super.visitCode();
            if (pollAtEntry) {
                poll();
            }
        }

        @Override
        public void visitLabel(Label label) {
            seen.add(label);
            super.visitLabel(label);
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            if (seen.contains(label)) { // a label already visited lies behind: a loop's back-edge
                poll();
            }
            super.visitJumpInsn(opcode, label);
        }

        @Override
        public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
            String[] target = exitReplacement(opcode == Opcodes.INVOKESTATIC, owner, name, descriptor);
            if (target != null) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, GUARD, target[0], target[1], false);
            } else {
                super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
            }
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
            Object[] args = arguments.clone();
            for (int i = 0; i < args.length; i++) {
                args[i] = guarded(args[i]);
            }
            super.visitInvokeDynamicInsn(name, descriptor, bootstrap, args);
        }

        @Override
        public void visitLdcInsn(Object value) {
            super.visitLdcInsn(guarded(value));
        }

        /** A method handle constant ({@code System::exit}) pointed at the guard. */
        private static Object guarded(Object constant) {
            if (constant instanceof Handle h) {
                boolean isStatic = h.getTag() == Opcodes.H_INVOKESTATIC;
                boolean isVirtual = h.getTag() == Opcodes.H_INVOKEVIRTUAL;
                if (isStatic || isVirtual) {
                    String[] target = exitReplacement(isStatic, h.getOwner(), h.getName(), h.getDesc());
                    if (target != null) {
                        return new Handle(Opcodes.H_INVOKESTATIC, GUARD, target[0], target[1], false);
                    }
                }
            }
            return constant;
        }
    }

    /** {name, descriptor} of the guard method replacing an exit call, or null when it is not one. */
    static String[] exitReplacement(boolean isStatic, String owner, String name, String descriptor) {
        if (!descriptor.equals("(I)V")) {
            return null;
        }
        if (isStatic && owner.equals("java/lang/System") && name.equals("exit")) {
            return new String[] {"exit", "(I)V"};
        }
        if (!isStatic && owner.equals("java/lang/Runtime") && (name.equals("exit") || name.equals("halt"))) {
            return new String[] {name, "(Ljava/lang/Runtime;I)V"};
        }
        return null;
    }
}
