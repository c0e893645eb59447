"""Writes notebooks/09-llama2-training.ipynb (the notebook's source, kept reviewable)."""
import hashlib
import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

cells = [
    new_markdown_cell(r"""# 09 · Llama2-13B training: RoCE vs GSE samples/s (002 table 1)

**Question.** 002 (section 4, table 1) trains Llama2-13B on 32 GPUs with one 200G port each and reports samples/s on
RoCE and on GSE in four situations: a single job (2.66 vs 3.91), one link down (2.43 vs 3.84), four links down
(2.43 vs 3.53) and multiple jobs (2.45 vs 3.43). How much of that follows from the collective times our packet
simulator measures, once the compute time is calibrated on one row only?

**Layout (our reading; the paper gives none).** 4 servers × 8 GPUs, TP = 8 inside a server (NVLink, off the fabric),
PP = 1, DP = 4 across the servers: GPU $k$ of the 4 servers forms one ring AllReduce group, i.e. the 8 jobs of
notebook 08 on the same fabric (4 leaves, 400G uplinks, 3 spines: speedup 1.5:1). Each rank holds
$G = P b/(TP\,PP) = 13\cdot10^9 \cdot 2 / 8 = 3.25$ GB of bf16 gradients.

**The four rows** (`fabriclab.experiments.Llama2Fabric`):

| row | what runs on the fabric |
|---|---|
| single job | 8 ring AllReduces of 4 ranks, each rank sending $2(p-1)/p \cdot G = 1.5\,G$ |
| one link down | the same, uplink leaf 0 – spine 0 down |
| four links down | the same, the four uplinks of spine 0 down (one per leaf: every leaf keeps 2 of 3 uplinks) |
| multiple jobs | the 32 GPUs split into two 16-GPU jobs (servers A–B, C–D), TP 8, DP 2: 16 AllReduces of 2 ranks, $1.0\,G$ each; samples/s summed over the two jobs |

The rows are steady state: the links are down and routes have re-converged before the iteration starts (a run that
continues after a failure). What a failure costs *while it is handled* is the last experiment below.

**Iteration model.** No overlap of compute and communication: samples/s $= B/(T_c + T_{comm})$. $T_c$ is calibrated
only from the RoCE single-job row; the other seven numbers are predictions. $T_{comm}$ is the simulated AllReduce time
of 512 MiB per rank (the largest size we packet-simulate; mean of 3 seeds; the first cell runs the 24 simulations,
about a minute on 2 cores, and writes `datasets/model/llama2-comm.csv`, as
`./bench --main fabriclab.experiments.Llama2CommMain` does from a shell), scaled linearly to
$G$ (the bandwidth-dominated regime: notebook 08 shows JCT/bound flat above 64 MiB) and by 100/200 for 002's 200G
ports."""),
    new_code_cell(r"""import fabriclab.experiments.*;
import fabriclab.simulation.Time;
import fabriclab.datasets.*;
import fabriclab.notebook.*;
import tech.tablesaw.api.*;
import org.knowm.xchart.*;

Llama2Fabric.writeCommRuns(Runtime.getRuntime().availableProcessors(), Progress.defaultSink());
Table comm = Datasets.table("llama2-comm");
Table pub = Datasets.table("llama2-13b-samples-per-second");
for (String c : List.of("roce_samples_per_s", "gse_samples_per_s", "published_gain_percent")) {
    pub.replaceColumn(c, pub.numberColumn(c).asDoubleColumn().setName(c)); // whole numbers are read back as integers
}
Llama2Iteration model = Llama2Iteration.llama2x13b32Gpus(32);
double scale = model.gradientBytesPerRank() / (double) Llama2Fabric.COMM_BYTES_PER_RANK * (100.0 / 200.0);
List<String> rows = pub.stringColumn("scenario").asList();
Map<String, double[]> commSeconds = new LinkedHashMap<>(); // scenario -> {RoCE, GSE} mean [s]
Table t = Table.create("simulated communication per iteration, scaled to 3.25 GB and 200G",
        StringColumn.create("scenario"), StringColumn.create("fabric"), DoubleColumn.create("mean [ms]"),
        DoubleColumn.create("min [ms]"), DoubleColumn.create("max [ms]"), DoubleColumn.create("uplink max/mean"),
        DoubleColumn.create("ECN marks"), DoubleColumn.create("PFC pauses"));
for (String s : rows) {
    double[] m = new double[2];
    for (int i = 0; i < 2; i++) {
        String f = i == 0 ? "roce" : "gse";
        Table r = comm.where(comm.stringColumn("scenario").isEqualTo(s).and(comm.stringColumn("fabric").isEqualTo(f)));
        DoubleColumn us = r.numberColumn("comm_us").asDoubleColumn();
        m[i] = us.mean() * 1e-6 * scale;
        t.stringColumn(0).append(s); t.stringColumn(1).append(f);
        t.doubleColumn(2).append(1e3 * m[i]); t.doubleColumn(3).append(us.min() * 1e-3 * scale); t.doubleColumn(4).append(us.max() * 1e-3 * scale);
        t.doubleColumn(5).append(r.numberColumn("uplink_max_over_mean").mean());
        t.doubleColumn(6).append(r.numberColumn("ecn_marks").mean()); t.doubleColumn(7).append(r.numberColumn("pfc_pauses").mean());
    }
    commSeconds.put(s, m);
}
t"""),
    new_markdown_cell(r"""**The batch.** The predicted gain depends on the global batch $B$, which 002 does not state: the larger $B$, the
more compute dominates and the smaller the gain. The figure shows the single-job prediction against $B$; the table
uses $B = 32$ (one sample per GPU). We do not tune $B$ to the published 3.91."""),
    new_code_cell(r"""double roceSingle = pub.doubleColumn("roce_samples_per_s").get(0), gseSingle = pub.doubleColumn("gse_samples_per_s").get(0);
double[] single = commSeconds.get("single job");
List<Double> bs = new ArrayList<>(), pred = new ArrayList<>();
for (int b = 1; b <= 256; b *= 2) {
    Llama2Iteration m = Llama2Iteration.llama2x13b32Gpus(b);
    if (b / roceSingle <= single[0]) continue; // the batch must take longer than the communication alone
    bs.add((double) b); pred.add(m.samplesPerSecond(m.calibrateComputeSeconds(roceSingle, single[0]), single[1]));
}
XYChart c = Figures.xy("GSE single job predicted from the RoCE calibration", "global batch B [samples]", "GSE throughput [samples/s]");
c.getStyler().setXAxisLogarithmic(true);
c.addSeries("model", bs, pred);
Figures.markPaperLevel(c, "002 table 1: 3.91", gseSingle, bs.get(0), bs.get(bs.size() - 1));
Figures.save(c, "09-llama2-gse-vs-batch")"""),
    new_markdown_cell(r"""### Published vs model, every row
$T_c$ from the RoCE single-job row at $B = 32$; every other number is predicted from its row's simulated
communication time. The last column of the scorecard is the comparison saved for notebook 10."""),
    new_code_cell(r"""double tc = model.calibrateComputeSeconds(roceSingle, single[0]);
CategoryChart bars = Figures.bars("Llama2-13B samples/s, 002 table 1 vs model (B = 32)", "scenario", "samples/s");
List<Double> rp = new ArrayList<>(), rm = new ArrayList<>(), gp = new ArrayList<>(), gm = new ArrayList<>();
PaperComparison cmp = PaperComparison.of("002 table 1: Llama2-13B samples/s, published vs model");
for (int i = 0; i < rows.size(); i++) {
    String s = rows.get(i);
    double[] m = commSeconds.get(s);
    double roce = model.samplesPerSecond(tc, m[0]), gse = model.samplesPerSecond(tc, m[1]);
    rp.add(pub.doubleColumn("roce_samples_per_s").get(i)); rm.add(roce);
    gp.add(pub.doubleColumn("gse_samples_per_s").get(i)); gm.add(gse);
    String why = String.format("T_comm RoCE %.0f ms, GSE %.0f ms vs T_c %.1f s", 1e3 * m[0], 1e3 * m[1], tc);
    cmp.add("RoCE, " + s, "samples/s", rp.get(i), roce, i == 0 ? "calibration row (T_c fitted here)" : why);
    cmp.add("GSE, " + s, "samples/s", gp.get(i), gse, why);
    cmp.add("GSE gain, " + s, "%", pub.doubleColumn("published_gain_percent").get(i), 100 * (gse / roce - 1),
            String.format("communication alone would give at most %.0f%%", 100 * (m[0] / m[1] - 1)));
}
bars.addSeries("RoCE, 002", rows, rp); bars.addSeries("RoCE, model", rows, rm);
bars.addSeries("GSE, 002", rows, gp); bars.addSeries("GSE, model", rows, gm);
display(Figures.save(bars, "09-llama2-samples-per-second"));
cmp.save("09-llama2", "002_f37e90f02f6a00b7.txt", "llama2-13b-samples-per-second").table()"""),
    new_markdown_cell(r"""### A failure while the AllReduce runs: detection vs announcement
002 section 3.3: a RoCE fabric keeps hashing flows onto a failed link until the failure is detected and routes
re-converge; GSE's FEC error monitoring predicts the failure and announces it in PHY codes, so the edges stop spraying
onto the link first and the failure touches traffic for microseconds. Model (`Llama2Fabric.failureDuringCollective`):
the uplink leaf 0 – spine 0 fails 0.5 ms into a 32 MiB-per-rank single-job AllReduce; RoCE's routes avoid it a
*detection time* later (packets sent to it meanwhile are black-holed, and go-back-N with its 1 ms timeout recovers
them); GSE's routes avoid it 5 µs *before* it fails. Both detection times are parameters. Reference line: extra time =
detection time, what a job whose flows stall for the whole detection window loses; and the same link down from the
start (no transient), what the degraded fabric alone costs this seed's hash draw."""),
    new_code_cell(r"""Llama2Fabric lf = new Llama2Fabric(1.5);
long size = 32L << 20, failAt = Time.MS / 2;
double[] detectMs = {0.1, 0.3, 1, 3};
long[] detect = Arrays.stream(detectMs).mapToLong(d -> Math.round(d * Time.MS)).toArray();
List<Llama2Fabric.Comm> roceFail = lf.failureSweep(GseVsRoceJct.Fabric.ROCE, size, 1, failAt, detect, 2, Progress.defaultSink());
List<Llama2Fabric.Comm> gseFail = lf.failureSweep(GseVsRoceJct.Fabric.GSE, size, 1, failAt, new long[] {-5 * Time.US}, 1, Progress.silent());
double roceBase = lf.communication(Llama2Fabric.Scenario.SINGLE_JOB, GseVsRoceJct.Fabric.ROCE, size, 1).commUs();
double gseBase = lf.communication(Llama2Fabric.Scenario.SINGLE_JOB, GseVsRoceJct.Fabric.GSE, size, 1).commUs();
// the same link down from the start: what the degraded fabric alone costs, without the transient
double roceDown = lf.communication(Llama2Fabric.Scenario.ONE_LINK_DOWN, GseVsRoceJct.Fabric.ROCE, size, 1).commUs();
XYChart f = Figures.xy("Extra AllReduce time from one uplink failure (32 MiB per rank, 8 jobs)", "RoCE detection time [ms]",
        "extra time vs no failure [ms]");
f.getStyler().setXAxisLogarithmic(true);
List<Double> x = new ArrayList<>(), y = new ArrayList<>();
Table ft = Table.create("failure during the AllReduce", StringColumn.create("fabric"), DoubleColumn.create("detection [ms]"),
        DoubleColumn.create("AllReduce [ms]"), DoubleColumn.create("extra [ms]"), DoubleColumn.create("black-holed packets"),
        DoubleColumn.create("retransmitted packets"));
for (int i = 0; i < detectMs.length; i++) {
    Llama2Fabric.Comm r = roceFail.get(i);
    x.add(detectMs[i]); y.add((r.commUs() - roceBase) / 1e3);
    ft.stringColumn(0).append("roce"); ft.doubleColumn(1).append(detectMs[i]); ft.doubleColumn(2).append(r.commUs() / 1e3);
    ft.doubleColumn(3).append((r.commUs() - roceBase) / 1e3); ft.doubleColumn(4).append(r.blackholedPackets()); ft.doubleColumn(5).append(r.retransmittedPackets());
}
Llama2Fabric.Comm g = gseFail.get(0);
ft.stringColumn(0).append("gse"); ft.doubleColumn(1).append(-0.005); ft.doubleColumn(2).append(g.commUs() / 1e3);
ft.doubleColumn(3).append((g.commUs() - gseBase) / 1e3); ft.doubleColumn(4).append(g.blackholedPackets()); ft.doubleColumn(5).append(g.retransmittedPackets());
f.addSeries("RoCE: ECMP re-hash after detection", x, y);
f.addSeries("extra = detection time", List.of(0.1, 3.0), List.of(0.1, 3.0)).setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
f.addSeries("RoCE: link down from the start (no transient)", List.of(0.1, 3.0), List.of((roceDown - roceBase) / 1e3, (roceDown - roceBase) / 1e3))
        .setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
f.addSeries("GSE: announced 5 us ahead", List.of(0.1, 3.0), List.of((g.commUs() - gseBase) / 1e3, (g.commUs() - gseBase) / 1e3))
        .setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
display(Figures.save(f, "09-llama2-failure-transient"));
display(String.format("RoCE, no failure %.2f ms; link down from the start %.2f ms. GSE, no failure %.3f ms", roceBase / 1e3,
        roceDown / 1e3, gseBase / 1e3));
ft"""),
    new_markdown_cell(r"""**Where and why model and paper differ.**

*Single job.* The simulated communication gap is real and of the paper's size: the slowest of the 8 RoCE AllReduces
takes about 1.7× as long as on GSE (338 vs 195 ms per iteration after scaling), from ECMP collisions on the uplinks
(busiest uplink 1.3–1.5× the mean) and DCQCN's back-off; GSE sprays containers evenly and runs at the NICs' bandwidth
bound. But with one gradient AllReduce per iteration and $B = 32$, the calibrated iteration is 12 s of compute and a
third of a second of communication, so the predicted GSE gain is about 1%, not 47%. Even at zero compute the gain
could not pass 73% (the "communication alone" note). To get 47% from a 1.7× communication ratio, RoCE communication
would have to be about three quarters of the iteration, i.e. a batch near one sample per iteration, or roughly 30×
more fabric traffic than one bf16 gradient AllReduce (e.g. ZeRO-3/FSDP parameter gathers every layer, tensor or
pipeline parallelism across servers, or activation traffic the paper does not describe). We do not tune $B$ or the
traffic volume to reach 3.91; the layout is the assumption that would have to change.

*Links down.* In the model a failed uplink barely changes either fabric: with speedup 1.5 a leaf that loses one of its
three 400G uplinks still has 800G for its 800G of NICs, so GSE's time does not move (195 ms in all three rows) and
RoCE's moves within its seed spread (the re-hash over fewer members is a new draw, sometimes luckier: 324 and 334 ms
vs 338 ms). The paper's RoCE loses 9% in both failure rows and GSE 2% and 10%: its testbed's failures cost more
than capacity, plausibly because its uplinks were not 1.5× oversubscription-free, because a RoCE fabric pays the
re-convergence transient (below) on every failure and flap, or because "links down" there removed more capacity
than our reading. The model's RoCE samples/s land within 10% of the published ones only because the rows hardly
differ from the calibration row.

*Multiple jobs.* Our reading (two 16-GPU jobs with DP 2) moves less data per rank ($G$ instead of $1.5\,G$) in two ring
steps instead of six, so the model predicts *faster* communication for both fabrics and a much smaller RoCE/GSE gap
(1.17×); the paper reports both fabrics slower. Either the paper's jobs shared the fabric with other traffic, or
"multiple jobs" means a different split; 002 does not say.

*A failure while the collective runs.* Here detection time matters: for RoCE each detection window black-holes the
traffic the switches still hash onto the dead link; go-back-N with its 1 ms timeout resends it, repeatedly into the
same hole until the routes change, so the extra time grows faster than the detection time once it exceeds the
timeout (3 ms detection cost about 12 ms here). The degraded fabric itself is not what costs: with the link down
from the start this seed's hash draw is even faster (6.1 vs 7.1 ms), so the extra time is the transient. GSE, told 5 µs ahead, loses
nothing and pays microseconds. One such event per failure is negligible against a 12 s iteration, which is why the
table rows are steady state; a flapping link, or BFD/BGP detection of tens to hundreds of milliseconds, would make
it visible. Limitation: this model's GSE has no end-to-end retransmission and its grants are limited at the
destination port only, so it can model a failure announced ahead but not one discovered late, and failure patterns
that leave a leaf pair a single spine overload that spine (see `Llama2Fabric`)."""),
]
for i, c in enumerate(cells):
    c["id"] = hashlib.sha1(f"09:{i}".encode()).hexdigest()[:8]
nb = new_notebook(cells=cells, metadata={
    "kernelspec": {"name": "fabriclab", "display_name": "Java (fabriclab)", "language": "java"},
    "language_info": {"name": "java", "version": "17", "mimetype": "text/x-java-source", "file_extension": ".jshell"},
})
nbformat.write(nb, "notebooks/09-llama2-training.ipynb")
