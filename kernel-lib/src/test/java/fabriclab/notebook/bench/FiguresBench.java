package fabriclab.notebook.bench;

import fabriclab.notebook.Figures;
import java.util.concurrent.TimeUnit;
import org.knowm.xchart.XYChart;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** How long rendering a 1,000-point chart to PNG takes (the cost of inline display). */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Djava.awt.headless=true")
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class FiguresBench {
    private XYChart chart;

    /** Builds the chart once. */
    @Setup
    public void setUp() {
        chart = Figures.xy("bench", "x [1]", "y [1]");
        double[] x = new double[1000];
        double[] y = new double[1000];
        for (int i = 0; i < x.length; i++) {
            x[i] = i;
            y[i] = Math.sin(i / 50.0);
        }
        chart.addSeries("sin", x, y);
    }

    /** PNG encoding of the chart. */
    @Benchmark
    public byte[] png() {
        return Figures.png(chart);
    }
}
