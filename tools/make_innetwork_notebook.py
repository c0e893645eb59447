"""Writes notebooks/12-in-network-collectives.ipynb (the notebook's source, kept reviewable)."""
import hashlib
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

cells = [
    new_markdown_cell("""# 12 · In-network collectives: when do switch-side AllReduce and switch latency matter?

**Question.** Seed 003 (intelligent lossless network white paper, section 6) says that over 80% of HPC MPI messages
carry under 16 bytes, that an Ethernet switch chip adds about 500 ns of static latency against about 90 ns for
InfiniBand, and that aggregating AllReduce in the leaf and spine switches makes the number of communication rounds
depend on the number of tiers instead of log N. Its OpenFOAM *cavity* run finished **12% sooner** than with
ordinary RoCEv2 collectives and **within 1.3%** of InfiniBand. What does an alpha-beta model say about these
claims, and what can it not know?

### Model (Hockney alpha-beta, `fabriclab.collectives.AllReduceLatency`)
One message: $\\alpha + S\\beta$, with $\\beta = 8/B$ and, for peers under different leaves of a $t$-tier fabric,
$\\alpha = o_{host} + (2t-1)\\,d_{switch} + 2t\\,d_{prop}$. For $N$ nodes and $S$ bytes per node:

| algorithm | time |
|---|---|
| ring | $2(N-1)\\alpha + 2\\frac{N-1}{N}S\\beta$ |
| recursive halving-doubling | $2\\log_2 N\\,\\alpha + 2\\frac{N-1}{N}S\\beta$ |
| binomial tree reduce + broadcast | $2\\lceil\\log_2 N\\rceil(\\alpha + S\\beta)$ |
| in-network (switch aggregation) | $o_{host} + (2t-1)(d_{switch} + d_{agg}) + 2t\\,d_{prop} + S\\beta$ |

**Assumptions** (not in the paper): host overhead $o_{host} = 1\\,\\mu s$ per message, 10 m links ($d_{prop} = 50$ ns),
100 Gb/s, two tiers, no extra aggregation latency ($d_{agg} = 0$), no congestion, reduction arithmetic free."""),
    new_code_cell("""import fabriclab.collectives.*;
import fabriclab.collectives.AllReduceLatency.Algorithm;
import fabriclab.notebook.*;
import fabriclab.datasets.*;
import org.knowm.xchart.*;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.*;

double HOST = 1e-6, PROP = 50e-9, GBPS = 100;
AllReduceLatency ethernet = new AllReduceLatency(HOST, 500e-9, 0, PROP, GBPS, 2);   // 003: Ethernet chip ~500 ns
AllReduceLatency infiniband = new AllReduceLatency(HOST, 90e-9, 0, PROP, GBPS, 2);  // 003: IB chip ~90 ns
int N = 64;
XYChart bySize = Figures.xy("AllReduce time vs message size (N = 64, 100 Gb/s, two tiers)", "message size per node [bytes]", "AllReduce time [us]");
bySize.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
Map<String, double[]> series = new LinkedHashMap<>();
double[] sizes = new double[23];
for (int i = 0; i < sizes.length; i++) sizes[i] = 4 * Math.pow(2, i);   // 4 B .. 16 MB
for (Algorithm a : Algorithm.values()) {
    double[] y = new double[sizes.length];
    for (int i = 0; i < sizes.length; i++) y[i] = 1e6 * ethernet.seconds(a, N, sizes[i]);
    series.put("Ethernet, " + a.name().toLowerCase().replace('_', '-'), y);
}
double[] ib = new double[sizes.length];
for (int i = 0; i < sizes.length; i++) ib[i] = 1e6 * infiniband.seconds(Algorithm.HALVING_DOUBLING, N, sizes[i]);
series.put("InfiniBand, halving-doubling", ib);
series.forEach((name, y) -> bySize.addSeries(name, sizes, y).setMarker(SeriesMarkers.NONE));
Figures.save(bySize, "12-allreduce-time-vs-size")"""),
    new_markdown_cell("""Small messages are pure latency: in-network aggregation needs one pass through three switches instead of
$2\\log_2 N$ messages. Large messages are pure bandwidth: in-network moves $S$ per host instead of $2\\frac{N-1}{N}S$,
so it tends to a factor of 2. The speedup over the best host algorithm as the job grows:"""),
    new_code_cell("""int[] nodes = {4, 8, 16, 32, 64, 128, 256, 512, 1024};
XYChart byN = Figures.xy("In-network speedup over halving-doubling (Ethernet, two tiers)", "nodes N", "speedup [x]");
byN.getStyler().setXAxisLogarithmic(true);
for (double s : new double[] {16, 4096, 1 << 20}) {
    double[] x = new double[nodes.length], y = new double[nodes.length];
    for (int i = 0; i < nodes.length; i++) {
        x[i] = nodes[i];
        y[i] = ethernet.seconds(Algorithm.HALVING_DOUBLING, nodes[i], s) / ethernet.seconds(Algorithm.IN_NETWORK, nodes[i], s);
    }
    byN.addSeries((long) s + " B messages", x, y);
}
Figures.save(byN, "12-in-network-speedup-vs-nodes")"""),
    new_markdown_cell("""### The OpenFOAM numbers

The paper gives the whole job's completion time, not the collectives': a 12% shorter run needs the AllReduce
share $c$ of the RoCEv2 run to satisfy $c\\,(1 - T_{\\text{in-network}}/T_{\\text{RoCE}}) = 0.12$. The model cannot know
$c$ (nor the node count, which the paper does not state), so we **calibrate** $c$ on the 12% for a message mix
of 80% 16-byte and 20% 4 KB AllReduces (an assumption following 003's 80% statistic) and N = 64, and then
**predict** the second number, the gap to InfiniBand with host-based collectives:
$\\text{gap} = c\\,(T_{\\text{in-network}} - T_{\\text{IB}})/T_{\\text{RoCE}}$."""),
    new_code_cell("""double[] mixSizes = {16, 4096};
double[] mixWeights = {0.8, 0.2};
java.util.function.BiFunction<AllReduceLatency, Algorithm, Double> mix = (m, a) -> {
    double t = 0;
    for (int i = 0; i < mixSizes.length; i++) t += mixWeights[i] * m.seconds(a, N, mixSizes[i]);
    return t;
};
double tRoce = mix.apply(ethernet, Algorithm.HALVING_DOUBLING);
double tInc = mix.apply(ethernet, Algorithm.IN_NETWORK);
double tIb = mix.apply(infiniband, Algorithm.HALVING_DOUBLING);
Table published = Datasets.table("hpc-in-network-003");
double pubReduction = published.doubleColumn("value").get(3), pubGapToIb = published.doubleColumn("value").get(4);
double c = pubReduction / 100 / (1 - tInc / tRoce);   // calibrated on the published 12%
double gapToIb = c * (tInc - tIb) / tRoce;
System.out.printf("mean AllReduce: RoCEv2 %.2f us, in-network %.2f us, InfiniBand %.2f us; calibrated AllReduce share of the RoCEv2 run c = %.1f%%%n",
        1e6 * tRoce, 1e6 * tInc, 1e6 * tIb, 100 * c);
PaperComparison.of("003 section 6.1: OpenFOAM cavity")
        .add("job time reduction, in-network vs RoCEv2", "%", pubReduction, 100 * c * (1 - tInc / tRoce),
             "calibrated: the AllReduce share c of the run is chosen to give 12% (not a prediction)")
        .add("job time difference, in-network Ethernet vs InfiniBand", "%", pubGapToIb, 100 * gapToIb,
             "predicted with the calibrated c; sign: positive = Ethernet in-network slower than IB host-based")
        .table()"""),
    new_markdown_cell("""**Reading.** With $c$ of about 13% (an eighth of the run in small AllReduces), in-network aggregation on
Ethernet comes out *faster* than host-based collectives on InfiniBand, by about 6% of the run, where the paper
reports a 1.3% gap. The direction of the miss tells what the model leaves out: the paper's InfiniBand baseline uses
host collectives, which the model charges $2\\log_2 N$ host overheads of 1 µs each, a cost that dwarfs the
500 vs 90 ns switch latency. A smaller host overhead (RDMA verbs with polling: a few hundred ns), a smaller N, or a
larger share of large messages all shrink the predicted gap; the paper states none of them, so the model shows the
mechanism (rounds, not switch latency, dominate small-message AllReduce) rather than the exact 1.3%."""),
]
for i, c in enumerate(cells):
    c["id"] = hashlib.sha1(f"12:{i}".encode()).hexdigest()[:8]
nb = new_notebook(cells=cells, metadata={
    "kernelspec": {"name": "fabriclab", "display_name": "Java (fabriclab)", "language": "java"},
    "language_info": {"name": "java", "version": "17", "mimetype": "text/x-java-source", "file_extension": ".jshell"},
})
nbformat.write(nb, "notebooks/12-in-network-collectives.ipynb")
