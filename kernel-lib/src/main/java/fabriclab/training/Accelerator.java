package fabriclab.training;

import fabriclab.Parameters;
import java.util.List;

/**
 * An accelerator's dense 16-bit (BF16 or FP16) tensor peak, and where the number comes from. 002 does not
 * name its GPUs ("32 GPU cards with a 200G port each"), so the candidates a 2024 Chinese lab testbed could
 * have had are listed with their published peaks; the peak is an axis, not a fitted constant.
 *
 * <p>Compute time of {@code F} model FLOPs at compute efficiency {@code e} (the MFU of the compute phases
 * alone): {@code t = F / (peak e)} ({@link #seconds}).
 *
 * @param name the product
 * @param peakFlopsPerSecond dense BF16/FP16 tensor peak [FLOP/s]
 * @param source where the peak is published
 * @param certain false when no vendor datasheet states the number (then {@code source} says what it rests on)
 */
public record Accelerator(String name, double peakFlopsPerSecond, String source, boolean certain) implements java.io.Serializable {
    private static final long serialVersionUID = 1L;


    /** Validates. */
    public Accelerator {
        Parameters.notBlank("name", name);
        Parameters.positive("peakFlopsPerSecond", peakFlopsPerSecond);
        Parameters.notBlank("source", source);
    }

    /** NVIDIA A100 SXM: 312 TFLOP/s BF16 dense (624 with sparsity). The A800 sold in China has the same compute. */
    public static final Accelerator A100 = new Accelerator("A100/A800", 312e12,
            "NVIDIA A100 Tensor Core GPU datasheet (2021): BF16 tensor 312 TFLOPS, 624 with sparsity; "
                    + "the A800 datasheet lists the same", true);

    /** NVIDIA H800 SXM (China variant of H100 SXM): 989 TFLOP/s BF16 dense (1979 with sparsity). */
    public static final Accelerator H800 = new Accelerator("H100/H800 SXM", 989e12,
            "NVIDIA H100 Tensor Core GPU datasheet (2023): BF16 tensor 1,979 TFLOPS with sparsity, half dense; "
                    + "H800 SXM lists the same compute (only NVLink and FP64 differ)", true);

    /** NVIDIA H20 (China, 2024): 148 TFLOP/s BF16 dense. */
    public static final Accelerator H20 = new Accelerator("H20", 148e12,
            "NVIDIA H20 product brief as reported by the press (2024): BF16 148 TFLOPS dense; no public datasheet found",
            false);

    /**
     * Huawei Ascend 910B: about 320 TFLOP/s FP16 as reported; Huawei's published figure is for the Ascend 910
     * (256 TFLOP/s FP16, Hot Chips 31, 2019). Reported 910B variants span about 280-376 TFLOP/s.
     */
    public static final Accelerator ASCEND_910B = new Accelerator("Ascend 910B", 320e12,
            "no vendor datasheet found: press reports 280-376 TFLOPS FP16 by variant (about 320 typical); Huawei's own "
                    + "figure is 256 TFLOPS FP16 for the Ascend 910 (Hot Chips 31, 2019)", false);

    /** The candidates, slowest first. */
    public static List<Accelerator> candidates() {
        return List.of(H20, A100, ASCEND_910B, H800);
    }

    /**
     * Seconds to compute {@code flops} model FLOPs at compute efficiency {@code efficiency}: F / (peak e).
     *
     * @param flops model FLOPs, not negative
     * @param efficiency fraction of the peak achieved while computing, in (0, 1]
     */
    public double seconds(double flops, double efficiency) {
        Parameters.nonNegative("flops", flops);
        Parameters.inHalfOpenRange("efficiency", efficiency, 0, 1);
        double s = flops / (peakFlopsPerSecond * efficiency);
        if (!Double.isFinite(s)) {
            throw new IllegalArgumentException("flops must be at most " + Double.MAX_VALUE * (peakFlopsPerSecond * efficiency)
                    + " at efficiency = " + efficiency + " (the time, flops / (peak x efficiency), must be a finite number"
                    + " of seconds), got " + flops);
        }
        return s;
    }
}
