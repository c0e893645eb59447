package fabriclab.datasets;

import tech.tablesaw.api.Table;

/**
 * A table of numbers with its provenance.
 *
 * @param provenance where the numbers come from, with units
 * @param table the numbers (column names as in the CSV header)
 */
public record Dataset(Provenance provenance, Table table) {
    /** The dataset's name. */
    public String name() {
        return provenance.name();
    }
}
