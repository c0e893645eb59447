package fabriclab.spark;

import fabriclab.sweep.SweepTask;
import java.io.Serializable;

/** A test task: returns x * 10, throws for x = 13, rejects negative x before work. */
public final class Failing implements SweepTask<Failing.X, Failing.X> {
    /** A parameter (and result) record. */
    public record X(int x) implements Serializable {
    }

    /** Stateless. */
    public Failing() {
    }

    @Override
    public X run(X p) {
        if (p.x() == 13) {
            throw new IllegalStateException("unlucky x = " + p.x(), new ArithmeticException("the cause"));
        }
        return new X(p.x() * 10);
    }

    @Override
    public void validate(X p) {
        if (p.x() < 0) {
            throw new IllegalArgumentException("x must be >= 0, got " + p.x());
        }
    }
}
