"""Writes notebooks/00-quickstart.ipynb (kept as a script so the notebook's source is reviewable)."""
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

cells = [
    new_markdown_cell("""# 00 · Quickstart: from a published table to a figure

**Question.** Does the whole fabriclab pipeline work: a dataset of published numbers with its provenance,
a model from `kernel-lib`, a chart with the paper's value marked, and a *paper vs model* table?

We use two small pieces of the papers:

* **002, table 1** (Cheng et al., ZTE Technology Journal 2025, doi:10.12142/ZTETJ.202502003): Llama2-13B training
  throughput on 32 GPUs, RoCE vs GSE. The paper prints a *gain* column; we recompute it from the two throughputs.
* **000, section 3** (Duan et al., Telecommunications Science 2024, doi:10.11959/j.issn.1000-0801.2024171): jobs of
  p = 4 GPUs (GPU k of servers A to D) with 100GE NICs run AlltoAll and AllReduce on 1 MB to 512 MB.
  Before any congestion model, the **bandwidth bound** says how fast a perfect fabric could be.

### Model: the bandwidth bound

With p ranks, a buffer of S bytes per rank and a NIC rate B (bit/s), each rank must send at least

$$T_{\\text{AlltoAll}} \\ge \\frac{p-1}{p}\\,\\frac{8S}{B}, \\qquad
  T_{\\text{ring AllReduce}} \\ge 2\\,\\frac{p-1}{p}\\,\\frac{8S}{B}.$$

Assumptions: non-blocking fabric, no latency (alpha) terms, no headers, no congestion. Real JCTs (RoCE or GSE) can
only be larger; how much larger is what the later notebooks model."""),
    new_code_cell("""import fabriclab.datasets.*;
import fabriclab.notebook.*;
import fabriclab.collectives.*;
import org.knowm.xchart.*;
import tech.tablesaw.api.*;

Dataset llama = Datasets.load("llama2-13b-samples-per-second");
System.out.println(llama.provenance().paper().title() + " (" + llama.provenance().location() + ")");
llama.table()"""),
    new_markdown_cell("""The printed gain should equal $100\\,(\\text{GSE}/\\text{RoCE} - 1)$. The table below puts the paper's
column beside the recomputed value: the third row differs by 0.7 points (the paper rounds 45.3% up to 46%)."""),
    new_code_cell("""Table t = llama.table();
PaperComparison gains = PaperComparison.of("002 table 1: printed gain vs gain recomputed from samples/s");
for (int i = 0; i < t.rowCount(); i++) {
    double recomputed = 100 * (t.doubleColumn("gse_samples_per_s").get(i) / t.doubleColumn("roce_samples_per_s").get(i) - 1);
    gains.add(t.stringColumn("scenario").get(i), "%", t.numberColumn("published_gain_percent").getDouble(i), recomputed,
              "recomputed from the two throughputs of the same row");
}
gains.table()"""),
    new_code_cell("""CategoryChart bars = Figures.bars("Llama2-13B on 32 GPUs (002 table 1, published)", "scenario", "throughput [samples/s]");
bars.addSeries("RoCE", t.stringColumn("scenario").asList(), t.doubleColumn("roce_samples_per_s").asList());
bars.addSeries("GSE", t.stringColumn("scenario").asList(), t.doubleColumn("gse_samples_per_s").asList());
Figures.save(bars, "00-quickstart-llama2-published")"""),
    new_markdown_cell("""### The bandwidth bound of the 000 experiment

p = 4 ranks per job, 100 Gb/s NICs, buffers of 1 MB to 512 MB (MB = 2^20 bytes). The progress bar shows how
long-running sweeps report in a notebook."""),
    new_code_cell("""BandwidthBound bound = new BandwidthBound(4, 100);
int points = 10;
double[] sizeMb = new double[points], allToAllMs = new double[points], allReduceMs = new double[points];
try (Progress progress = Progress.start("bandwidth bound", points)) {
    for (int i = 0; i < points; i++) {
        sizeMb[i] = Math.pow(2, i);
        double bytes = sizeMb[i] * (1 << 20);
        allToAllMs[i] = 1e3 * bound.seconds(Collective.ALL_TO_ALL, bytes);
        allReduceMs[i] = 1e3 * bound.seconds(Collective.RING_ALL_REDUCE, bytes);
        progress.step();
    }
}
XYChart jct = Figures.xy("Bandwidth bound on job completion time (p = 4, 100 Gb/s)", "buffer per rank [MB]", "JCT lower bound [ms]");
jct.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true);
jct.addSeries("AlltoAll", sizeMb, allToAllMs);
jct.addSeries("ring AllReduce", sizeMb, allReduceMs);
Figures.save(jct, "00-quickstart-bandwidth-bound")"""),
    new_code_cell("""Table boundTable = Table.create("bandwidth bound (p = 4, 100 Gb/s)",
        DoubleColumn.create("buffer_mb", sizeMb),
        DoubleColumn.create("alltoall_ms", allToAllMs),
        DoubleColumn.create("ring_allreduce_ms", allReduceMs));
boundTable"""),
    new_markdown_cell("""**Reading.** At 512 MB the bound is 32.2 ms for AlltoAll and 64.4 ms for ring AllReduce. The paper gives no
absolute JCT in its surviving text, only the GSE/RoCE ratio (about 3.5x and 2.6x): the later notebooks
(`08-gse-vs-roce-jct`) place both fabrics against this bound."""),
]

nb = new_notebook(cells=cells, metadata={
    "kernelspec": {"name": "fabriclab", "display_name": "Java (fabriclab)", "language": "java"},
    "language_info": {"name": "java", "version": "17", "mimetype": "text/x-java-source", "file_extension": ".jshell"},
})
nbformat.write(nb, "notebooks/00-quickstart.ipynb")
