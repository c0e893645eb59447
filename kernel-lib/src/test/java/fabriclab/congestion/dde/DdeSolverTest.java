package fabriclab.congestion.dde;

import org.junit.jupiter.api.Test;

import java.util.function.DoubleFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static fabriclab.TestArguments.rejects;

class DdeSolverTest {

    /** y'(t) = a y(t - lag). */
    private static DelaySystem linear(double a, double lag) {
        return new DelaySystem() {
            @Override
            public int dimension() {
                return 1;
            }

            @Override
            public double[] lags() {
                return new double[]{lag};
            }

            @Override
            public void derivative(double t, double[] y, double[][] delayed, double[] dydt) {
                dydt[0] = a * delayed[0][0];
            }
        };
    }

    /**
     * y' = -y(t-1), y = 1 for t <= 0. By the method of steps on paper: [0,1] y = 1 - t;
     * [1,2] y = 1 - t + (t-1)^2/2; [2,3] y = 1 - t + (t-1)^2/2 - (t-2)^3/6, so y(3) = -1/6,
     * y(2) = -1/2, y(1.5) = 1/8 - 1/2 + 1 ... = 1 - 1.5 + 0.125 = -0.375.
     */
    @Test
    void methodOfStepsClosedForm() {
        DoubleFunction<double[]> one = t -> new double[]{1.0};
        for (DdeSolver solver : new DdeSolver[]{DdeSolver.rk4(0.01), DdeSolver.adaptive(1e-12, 1e-12)}) {
            double[] seen = new double[2];
            double[] end = solver.solve(linear(-1, 1), 0, one, 3, (t, y) -> {
                if (Math.abs(t - 2) < 1e-12) {
                    seen[0] = y[0];
                }
                if (Math.abs(t - 1.5) < 1e-12) {
                    seen[1] = y[0];
                }
            });
            assertEquals(-1.0 / 6, end[0], 1e-8, "y(3)");
            assertEquals(-0.5, seen[0], 1e-8, "y(2)");
            if (solver.isFixedStep()) {
                assertEquals(-0.375, seen[1], 1e-8, "y(1.5)");
            }
        }
    }

    /**
     * y = exp(lambda t) solves y' = a y(t - lag) when a = lambda exp(lambda lag). The RK4 error must
     * fall about 16x when the step halves (fourth order with third-order Hermite history).
     */
    @Test
    void fourthOrderOnSmoothSolution() {
        double lambda = -0.5;
        double lag = 1;
        double a = lambda * Math.exp(lambda * lag);
        DoubleFunction<double[]> hist = t -> new double[]{Math.exp(lambda * t)};
        double exact = Math.exp(lambda * 5);
        double e1 = Math.abs(DdeSolver.rk4(0.1).solve(linear(a, lag), 0, hist, 5, null)[0] - exact);
        double e2 = Math.abs(DdeSolver.rk4(0.05).solve(linear(a, lag), 0, hist, 5, null)[0] - exact);
        assertTrue(e1 < 1e-6, "error " + e1);
        double ratio = e1 / e2;
        assertTrue(ratio > 10 && ratio < 24, "error ratio " + ratio);
        double ea = Math.abs(DdeSolver.adaptive(1e-10, 1e-10).solve(linear(a, lag), 0, hist, 5, null)[0] - exact);
        assertTrue(ea < 1e-8, "adaptive error " + ea);
    }

    @Test
    void badInputNamesTheParameter() {
        DoubleFunction<double[]> one = t -> new double[]{1.0};
        assertMessage("step", () -> DdeSolver.rk4(2).solve(linear(-1, 1), 0, one, 3, null));
        assertMessage("step", () -> DdeSolver.rk4(0));
        assertMessage("absTol", () -> DdeSolver.adaptive(-1, 1e-6));
        assertMessage("tEnd", () -> DdeSolver.rk4(0.1).solve(linear(-1, 1), 0, one, -1, null));
        assertMessage("lags[0]", () -> DdeSolver.rk4(0.1).solve(linear(-1, -1), 0, one, 1, null));
        assertMessage("history", () -> DdeSolver.rk4(0.1).solve(linear(-1, 1), 0, t -> new double[2], 1, null));
    }

    static void assertMessage(String name, org.junit.jupiter.api.function.Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        assertTrue(e.getMessage().startsWith(name), () -> "message should name " + name + ": " + e.getMessage());
    }

    /**
     * A queue drained at rate 1 from 1, held at 0 by the derivative once empty: y(t) = max(0, 1 - t), with the lag 0.3
     * unused. Every state either solver reports is at or above 0 and on that line (a straight line, which both
     * integrate exactly up to the crossing), and a component outside the system is refused.
     */
    @Test
    void nonNegativeComponentStaysAtOrAboveZero() {
        DelaySystem drain = new DelaySystem() {
            @Override
            public int dimension() {
                return 1;
            }

            @Override
            public double[] lags() {
                return new double[]{0.3};
            }

            @Override
            public void derivative(double t, double[] y, double[][] delayed, double[] dydt) {
                dydt[0] = y[0] <= 0 ? 0 : -1;
            }

            @Override
            public int[] nonNegative() {
                return new int[]{0};
            }
        };
        for (DdeSolver solver : new DdeSolver[]{DdeSolver.rk4(0.07), DdeSolver.adaptive(1e-9, 1e-9)}) {
            int[] states = {0};
            double[] end = solver.solve(drain, 0, t -> new double[]{1.0}, 3, (t, y) -> {
                assertTrue(y[0] >= 0, solver.isFixedStep() + ": " + y[0] + " at " + t);
                assertEquals(Math.max(0, 1 - t), y[0], 1e-7, "at " + t);
                states[0]++;
            });
            assertEquals(0, end[0]);
            assertTrue(states[0] > 10);
        }
        DelaySystem outside = new DelaySystem() {
            @Override
            public int dimension() {
                return 1;
            }

            @Override
            public double[] lags() {
                return new double[]{1};
            }

            @Override
            public void derivative(double t, double[] y, double[][] delayed, double[] dydt) {
                dydt[0] = 0;
            }

            @Override
            public int[] nonNegative() {
                return new int[]{1};
            }
        };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DdeSolver.rk4(0.5).solve(outside, 0, t -> new double[]{1.0}, 1, null));
        assertTrue(e.getMessage().contains("system.nonNegative()[0] must be in [0, 0]"), e.getMessage());
    }

    @Test
    void aHugeEndTimeIsRejectedUpFront() {
        rejects("tEnd", () -> DdeSolver.rk4(0.1).solve(linear(-1, 1.0), 0, t -> new double[] {1}, 1e300, null));
    }
}
