package fabriclab.sweep;

import fabriclab.Parameters;
import java.io.Serializable;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A sweep as data: a label, the class of the {@link SweepTask} that runs one point, and the parameter
 * records in the order the results must come back. Any {@link SweepExecutor} runs it and returns the
 * results in this order, whatever order the runs finished in, so the table built from them is the same
 * byte for byte on every executor.
 *
 * <p>The constructor checks everything that can be checked before work starts: the task class can be
 * instantiated by name (public, not abstract, public no-argument constructor), no record is null, and
 * every record passes {@link SweepTask#validate} (the first failure is reported with its index).
 *
 * @param label what runs, shown on progress bars, not blank
 * @param task the task's class
 * @param parameters the points, in result order (copied; may be empty)
 * @param <P> the parameter record
 * @param <R> the result record
 */
public record SweepPlan<P extends Serializable, R extends Serializable>(String label, Class<? extends SweepTask<P, R>> task,
        List<P> parameters) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Validates the task class and every parameter record. */
    public SweepPlan {
        Parameters.notBlank("label", label);
        Parameters.notNull("task", task);
        Parameters.notNull("parameters", parameters);
        parameters = Collections.unmodifiableList(new ArrayList<>(parameters));
        SweepTask<P, R> instance = instantiate(task);
        for (int i = 0; i < parameters.size(); i++) {
            P p = parameters.get(i);
            if (p == null) {
                throw new IllegalArgumentException("parameters[" + i + "] must not be null");
            }
            try {
                instance.validate(p);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(label + ": parameters[" + i + "] = " + p + " is invalid: " + e.getMessage(), e);
            }
        }
    }

    /** Number of runs. */
    public int size() {
        return parameters.size();
    }

    /** A new instance of the task (what an executor calls on each worker). */
    public SweepTask<P, R> newTask() {
        return instantiate(task);
    }

    /**
     * A new instance of {@code task} through its public no-argument constructor.
     *
     * @throws IllegalArgumentException if the class is not public, is abstract, is an inner (non-static)
     *         class, or has no public no-argument constructor
     */
    public static <T> T instantiate(Class<T> task) {
        Parameters.notNull("task", task);
        String why = null;
        if (!Modifier.isPublic(task.getModifiers())) {
            why = "is not public";
        } else if (Modifier.isAbstract(task.getModifiers()) || task.isInterface()) {
            why = "is abstract";
        } else if (task.isMemberClass() && !Modifier.isStatic(task.getModifiers())) {
            why = "is an inner class (make it static)";
        } else if (task.isAnonymousClass() || task.isLocalClass() || task.isHidden()) {
            why = "is anonymous, local or a lambda (declare a public class)";
        }
        Constructor<T> c = null;
        if (why == null) {
            try {
                c = task.getConstructor();
            } catch (NoSuchMethodException e) {
                why = "has no public no-argument constructor";
            }
        }
        if (why != null) {
            throw new IllegalArgumentException("task " + task.getName() + " " + why
                    + "; a sweep task must be a public class with a public no-argument constructor");
        }
        try {
            return c.newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException("task " + task.getName() + "'s constructor threw " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException("task " + task.getName() + " cannot be instantiated: " + e, e);
        }
    }
}
