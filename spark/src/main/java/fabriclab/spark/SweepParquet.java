package fabriclab.spark;

import fabriclab.Parameters;
import fabriclab.datasets.Dataset;
import fabriclab.datasets.Datasets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import tech.tablesaw.api.ColumnType;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * Writes a sweep's dataset as Parquet, for tables too large for CSV: {@code root/KIND/NAME.parquet}
 * (Spark's directory of part files, one part, rows in the table's order) with the provenance record
 * beside it, {@code root/KIND/NAME.json}, exactly as {@link Datasets#write} writes it beside a CSV.
 * Column types map one to one: text to string, double to double, long to bigint, int to int, boolean
 * to boolean.
 */
public final class SweepParquet {
    private SweepParquet() {
    }

    /**
     * Writes {@code dataset} under {@code root} (replacing an earlier copy); returns the Parquet directory.
     *
     * @param spark the session that writes
     * @param root the datasets directory (a local path, or any path the cluster's file system takes)
     * @param dataset the table and its provenance
     */
    public static Path write(SparkSession spark, Path root, Dataset dataset) {
        Parameters.notNull("spark", spark);
        Parameters.notNull("root", root);
        Parameters.notNull("dataset", dataset);
        Table t = dataset.table();
        List<Row> rows = new ArrayList<>(t.rowCount());
        for (int r = 0; r < t.rowCount(); r++) {
            Object[] values = new Object[t.columnCount()];
            for (int c = 0; c < values.length; c++) {
                values[c] = t.column(c).get(r);
            }
            rows.add(RowFactory.create(values));
        }
        Path dir = root.resolve(dataset.provenance().kind());
        Path parquet = dir.resolve(dataset.provenance().name() + ".parquet");
        spark.createDataFrame(rows, schema(t)).coalesce(1).write().mode(SaveMode.Overwrite)
                .parquet(parquet.toString());
        Datasets.writeProvenance(dir, dataset.provenance());
        return parquet;
    }

    private static DataType sparkType(Column<?> c) {
        ColumnType type = c.type();
        if (type == ColumnType.STRING) {
            return DataTypes.StringType;
        } else if (type == ColumnType.DOUBLE) {
            return DataTypes.DoubleType;
        } else if (type == ColumnType.LONG) {
            return DataTypes.LongType;
        } else if (type == ColumnType.INTEGER) {
            return DataTypes.IntegerType;
        } else if (type == ColumnType.BOOLEAN) {
            return DataTypes.BooleanType;
        }
        throw new IllegalArgumentException("column " + c.name() + " has type " + type
                + "; Parquet output takes string, double, long, int and boolean columns");
    }

    /** The schema {@link #write} gives a table (for readers that check it). */
    public static StructType schema(Table t) {
        Parameters.notNull("t", t);
        List<StructField> fields = new ArrayList<>();
        for (Column<?> c : t.columns()) {
            fields.add(DataTypes.createStructField(c.name(), sparkType(c), false));
        }
        return DataTypes.createStructType(fields);
    }
}
