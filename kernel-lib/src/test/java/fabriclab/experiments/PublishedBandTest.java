package fabriclab.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import fabriclab.collectives.Collective;
import fabriclab.datasets.Dataset;
import fabriclab.datasets.Provenance;
import fabriclab.datasets.Target;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/** 000's band, read from datasets/published: between "about 1/3" and "about 3.5x" (AlltoAll) or "2.6x" (AllReduce). */
class PublishedBandTest {
    @Test
    void theBandRunsBetweenThePapersTwoStatements() {
        Target.Band a2a = GseVsRoceJct.publishedBand(Collective.ALL_TO_ALL);
        assertEquals(1 / 0.3333, a2a.published(), 1e-12); // "about 1/3", printed as 0.3333
        assertEquals(3.5, a2a.publishedHigh(), 0);
        for (Collective c : new Collective[] {Collective.RING_ALL_REDUCE, Collective.HALVING_DOUBLING_ALL_REDUCE}) {
            Target.Band ar = GseVsRoceJct.publishedBand(c);
            assertEquals(2.6, ar.published(), 0);
            assertEquals(1 / 0.3333, ar.publishedHigh(), 1e-12);
            assertEquals(Target.DEFAULT_TOLERANCE, ar.tolerance(), 0);
        }
    }

    @Test
    void readsTheGivenDatasetAndNamesAMissingRow() {
        Table t = Table.create("gse-vs-roce-jct", StringColumn.create("collective", new String[] {"alltoall"}),
                DoubleColumn.create("roce_over_gse_jct_ratio", new double[] {2.0}), DoubleColumn.create("gse_over_roce_jct", new double[] {0.25}));
        Dataset d = new Dataset(new Provenance("gse-vs-roce-jct", "test", "published", new Provenance.Paper("000_5f64c80d7629dca1.txt", null, null, null, null), "test",
                Map.of("collective", "", "roce_over_gse_jct_ratio", "ratio", "gse_over_roce_jct", "ratio"), "test"), t);
        Target.Band b = GseVsRoceJct.publishedBand(d, Collective.ALL_TO_ALL);
        assertEquals(2.0, b.published(), 0);
        assertEquals(4.0, b.publishedHigh(), 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GseVsRoceJct.publishedBand(d, Collective.RING_ALL_REDUCE));
        assertEquals(true, e.getMessage().contains("allreduce"), e.getMessage());
    }
}
