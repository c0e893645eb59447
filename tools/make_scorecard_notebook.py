"""Writes notebooks/10-scorecard.ipynb (the notebook's source, kept reviewable)."""
import hashlib
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

cells = [
    new_markdown_cell("""# 10 · Scorecard: every published number beside the model

**Question.** Across all five seed papers, how many published numbers does fabriclab reproduce within 15%, and why
does it miss the others?

**How the card is built.** Every notebook ends with a paper-vs-model table (`PaperComparison`) and saves it as a
model dataset `datasets/model/comparison-NN-topic.csv` (with provenance naming the seed and the published datasets it
used). This notebook only reads those files: it recomputes nothing and runs in seconds, but it is only as fresh as
the last run of each notebook (`./reproduce` runs them all, this one last).

For a published value $p$ and a model value $m$ the relative difference is $d = (m - p)/|p|$ (the absolute
difference $m - p$ when $p = 0$); a row is within tolerance when $|d| \\le 0.15$. The *reason* column is the note the
notebook wrote for that row: why the numbers differ, or what the model assumes (e.g. a row marked *calibrated* is
not a prediction)."""),
    new_code_cell("""import fabriclab.datasets.*;
import fabriclab.notebook.*;
import org.knowm.xchart.*;
import tech.tablesaw.api.*;

Table card = Scorecard.gather();
StringColumn nb = card.stringColumn("notebook");
IntColumn within = IntColumn.create("within_15_percent"), total = IntColumn.create("rows");
StringColumn names = StringColumn.create("notebook");
for (String n : nb.unique().asList().stream().sorted().toList()) {
    Table t = card.where(nb.isEqualTo(n));
    names.append(n);
    total.append(t.rowCount());
    within.append((int) t.stringColumn("within_tolerance").countOccurrences("yes"));
}
long hits = card.stringColumn("within_tolerance").countOccurrences("yes");
display(String.format("%d of %d published numbers reproduced within 15%% (%d notebooks)", hits, card.rowCount(), names.size()));
Table.create("rows within 15% per notebook", names, total, within)"""),
    new_markdown_cell("""The ratio model / published for every row whose published value is not zero, on a log scale: the band
between the dashed lines is the 15% tolerance. Points far above or below are the misses listed next."""),
    new_code_cell("""XYChart ratios = Figures.xy("Model / published for every compared number", "comparison row (order of the table below)", "model / published");
ratios.getStyler().setYAxisLogarithmic(true);
List<Double> xin = new ArrayList<>(), yin = new ArrayList<>(), xout = new ArrayList<>(), yout = new ArrayList<>();
for (int i = 0; i < card.rowCount(); i++) {
    double p = card.doubleColumn("published").get(i), m = card.doubleColumn("model").get(i);
    if (p == 0 || m / p <= 0) continue; // no ratio on a log axis
    boolean ok = card.stringColumn("within_tolerance").get(i).equals("yes");
    (ok ? xin : xout).add((double) i);
    (ok ? yin : yout).add(m / p);
}
if (!xin.isEmpty()) ratios.addSeries("within 15%", xin, yin).setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
if (!xout.isEmpty()) ratios.addSeries("outside 15%", xout, yout).setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
Figures.markPaperLevel(ratios, "published (ratio 1)", 1.0, 0, Math.max(1, card.rowCount() - 1));
ratios.addSeries("-15%", new double[] {0, Math.max(1, card.rowCount() - 1)}, new double[] {0.85, 0.85})
        .setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE).setLineStyle(new java.awt.BasicStroke(1f, 0, 0, 10f, new float[] {4f, 4f}, 0f));
ratios.addSeries("+15%", new double[] {0, Math.max(1, card.rowCount() - 1)}, new double[] {1.15, 1.15})
        .setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE).setLineStyle(new java.awt.BasicStroke(1f, 0, 0, 10f, new float[] {4f, 4f}, 0f));
Figures.save(ratios, "10-scorecard-model-over-published")"""),
    new_markdown_cell("""### The whole card
Source is the seed paper (000 Duan et al. 2024 on GSE; 001 Che et al. 2024 on CTCC; 002 Cheng et al. 2025 on GSE
practice; 003 the intelligent lossless network white paper; 004 the telemetry paper)."""),
    new_code_cell("""card"""),
    new_markdown_cell("""### The misses, with their reasons"""),
    new_code_cell("""Table misses = card.where(card.stringColumn("within_tolerance").isEqualTo("no"));
misses.setName("outside 15%: " + misses.rowCount() + " rows");
misses.selectColumns("source", "notebook", "quantity", "unit", "published", "model", "relative_difference", "reason")"""),
    new_markdown_cell("""### Coverage of the published datasets
Every published dataset and the notebooks that compare a model against it. A dataset marked *not compared yet* holds
numbers no notebook models yet."""),
    new_code_cell("""Scorecard.coverage()"""),
]
for i, c in enumerate(cells):
    c["id"] = hashlib.sha1(f"10:{i}".encode()).hexdigest()[:8]
nb = new_notebook(cells=cells, metadata={
    "kernelspec": {"name": "fabriclab", "display_name": "Java (fabriclab)", "language": "java"},
    "language_info": {"name": "java", "version": "17", "mimetype": "text/x-java-source", "file_extension": ".jshell"},
})
nbformat.write(nb, "notebooks/10-scorecard.ipynb")
