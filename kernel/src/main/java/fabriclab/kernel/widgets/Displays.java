package fabriclab.kernel.widgets;

/** How the kernel shows a value in the notebook and later replaces what that display shows. */
public interface Displays {
    /** Displays that go nowhere (outside a kernel): every display id is empty. */
    Displays NONE = new Displays() {
        @Override
        public String show(Object value) {
            return "";
        }

        @Override
        public void replace(String displayId, Object value) {
        }
    };

    /** Shows {@code value} in its richest form; returns the display's id. */
    String show(Object value);

    /** Replaces what display {@code displayId} shows with {@code value}. */
    void replace(String displayId, Object value);
}
