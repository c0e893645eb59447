package fabriclab.datasets;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * Where the numbers of a dataset come from: the {@code NAME.json} file beside {@code NAME.csv}.
 *
 * @param name dataset name (the file name without extension)
 * @param title one-line description
 * @param kind {@code "published"} for numbers copied from a paper, {@code "model"} for numbers
 *     computed by fabriclab (written by a notebook)
 * @param paper the source paper, or for model output the paper it is compared with
 * @param location table or figure (and section) in the paper, e.g. {@code "Table 1, section 3.2"}
 * @param columns unit of each CSV column (empty string for dimensionless or text columns)
 * @param notes how the numbers were read (OCR damage, values read off a bar chart, ...), or null for none
 */
@JsonIgnoreProperties(ignoreUnknown = false)
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Provenance(String name, String title, String kind, Paper paper, String location,
                         Map<String, String> columns, String notes) {

    /**
     * A paper of the seed set.
     *
     * @param seedFile the file in {@code shared/seeds/} that holds its text
     * @param authors authors as printed
     * @param title the paper's title (English translation)
     * @param venue journal or publisher, with year
     * @param doi DOI, or null where the paper has none
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Paper(String seedFile, String authors, String title, String venue, String doi) {
    }

    /** Validates the record's required fields; fails naming the first missing one. */
    public Provenance {
        require("name", name);
        require("title", title);
        require("kind", kind);
        if (!kind.equals("published") && !kind.equals("model")) {
            throw new IllegalArgumentException("kind must be \"published\" or \"model\", got \"" + kind + "\"");
        }
        if (paper == null) {
            throw new IllegalArgumentException("provenance of " + name + ": paper is missing");
        }
        require("paper.seedFile", paper.seedFile());
        require("location", location);
        if (columns == null || columns.isEmpty()) {
            throw new IllegalArgumentException("provenance of " + name + ": columns (unit of each column) is missing");
        }
        columns = Map.copyOf(columns);
    }

    private static void require(String field, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("provenance field " + field + " is missing or blank");
        }
    }
}
