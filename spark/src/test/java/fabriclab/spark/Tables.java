package fabriclab.spark;

import fabriclab.datasets.Dataset;
import fabriclab.datasets.Datasets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The bytes a dataset gives when saved (CSV, then its provenance JSON), to compare executors. */
final class Tables {
    private Tables() {
    }

    static String savedBytes(Dataset d, Path dir) {
        try {
            Path csv = Datasets.write(dir, d);
            Path json = csv.resolveSibling(d.provenance().name() + ".json");
            return Files.readString(csv) + "\n--- provenance ---\n" + Files.readString(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
