package fabriclab.kernel;

import io.github.spencerpark.jupyter.channels.JupyterSocket;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.messages.Message;
import io.github.spencerpark.jupyter.messages.MessageContext;
import io.github.spencerpark.jupyter.messages.MessageType;
import io.github.spencerpark.jupyter.messages.publish.PublishDisplayData;
import io.github.spencerpark.jupyter.messages.publish.PublishStream;
import io.github.spencerpark.jupyter.messages.publish.PublishUpdateDisplayData;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Where a cell's output goes: {@code System.out} and {@code System.err} buffered and sent as
 * {@code stream} messages, and {@code display_data}, all on the IOPub socket with the request that
 * produced them as parent.
 *
 * <p>As in ipykernel, printed text is buffered and sent on a short timer ({@link #FLUSH_MILLIS}), when
 * a buffer holds more than {@link #MAX_MESSAGE_BYTES}, before any display or error message (so the
 * order is kept) and at the end of the cell. A 100,000-line cell therefore becomes a handful of
 * messages instead of one per line, and no text is lost to the socket's high-water mark. A buffer is
 * only cut after a whole UTF-8 character. Output from a thread that outlives its cell (a background
 * thread, a pool worker) still reaches the notebook: it goes to the last request that ran, as in
 * ipykernel, never to the kernel's terminal.
 *
 * <p>Thread-safe: cells, their threads and the flush timer all write here.
 */
final class CellOutput {
    /** Longest time printed text waits before it is sent. */
    static final long FLUSH_MILLIS = 50;
    /** A buffer larger than this is sent at once by the writing thread. */
    static final int MAX_MESSAGE_BYTES = 1 << 20;

    private final JupyterSocket iopub;
    private volatile MessageContext parent;
    private final StreamBuffer stdout = new StreamBuffer(PublishStream.StreamType.OUT);
    private final StreamBuffer stderr = new StreamBuffer(PublishStream.StreamType.ERR);
    /** System.out and System.err while the kernel runs. */
    final PrintStream out = new PrintStream(stdout, false, StandardCharsets.UTF_8);
    final PrintStream err = new PrintStream(stderr, false, StandardCharsets.UTF_8);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "fabriclab-output-flush");
        t.setDaemon(true);
        return t;
    });

    CellOutput(JupyterSocket iopub) {
        this.iopub = iopub;
        timer.scheduleWithFixedDelay(this::flushQuietly, FLUSH_MILLIS, FLUSH_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Output from now on belongs to the request {@code context} (until the next one begins). */
    void begin(MessageContext context) {
        flush();
        parent = context;
    }

    /** Whether some request has started (so output has a parent to go to). */
    boolean hasParent() {
        return parent != null;
    }

    /** Sends everything printed so far. */
    void flush() {
        out.flush();
        err.flush();
        stdout.send();
        stderr.send();
    }

    private void flushQuietly() {
        try {
            flush();
        } catch (RuntimeException e) {
            // a closed socket at shutdown: nothing more to send
        }
    }

    /** Publishes display data (after the text printed before it). */
    void display(DisplayData data) {
        publish(MessageType.PUBLISH_DISPLAY_DATA, new PublishDisplayData(data));
    }

    /** Replaces what display {@code data.getDisplayId()} shows. */
    void updateDisplay(DisplayData data) {
        publish(MessageType.PUBLISH_UPDATE_DISPLAY_DATA, new PublishUpdateDisplayData(data));
    }

    /** Publishes any message with the current request as parent, after the pending text. */
    <T> void publish(MessageType<T> type, T content) {
        flush();
        send(type, content);
    }

    /**
     * Publishes a message whose content is any JSON-serializable object (a map), with {@code metadata}, after
     * the pending text.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    void publishWithMetadata(MessageType<?> type, Object content, java.util.Map<String, Object> metadata) {
        flush();
        MessageContext p = parent;
        if (p != null) {
            iopub.sendMessage(new Message(p, type, content, null, metadata));
        }
    }

    /** The {@code msg_id} of the request output goes to, or "" before the first. */
    String parentMessageId() {
        MessageContext p = parent;
        return p == null || p.getHeader() == null ? "" : p.getHeader().getId();
    }

    private <T> void send(MessageType<T> type, T content) {
        MessageContext p = parent;
        if (p != null) {
            iopub.sendMessage(new Message<>(p, type, content));
        }
    }

    /** Stops the flush timer after a last flush. */
    void close() {
        flushQuietly();
        timer.shutdownNow();
    }

    /** Bytes of one stream waiting to be sent. */
    private final class StreamBuffer extends OutputStream {
        private final PublishStream.StreamType type;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream(8192);
        private final Object sending = new Object();

        StreamBuffer(PublishStream.StreamType type) {
            this.type = type;
        }

        @Override
        public void write(int b) {
            boolean full;
            synchronized (this) {
                pending.write(b);
                full = pending.size() > MAX_MESSAGE_BYTES;
            }
            if (full) {
                send();
            }
        }

        @Override
        public void write(byte[] b, int off, int len) {
            boolean full;
            synchronized (this) {
                pending.write(b, off, len);
                full = pending.size() > MAX_MESSAGE_BYTES;
            }
            if (full) {
                send();
            }
        }

        /** Sending is left to the timer: a flush per line would be a message per line. */
        @Override
        public void flush() {
        }

        /** Sends the pending text up to its last whole UTF-8 character. */
        void send() {
            // One sender at a time per stream keeps the pieces in order.
            synchronized (sending) {
                String text;
                synchronized (this) {
                    byte[] bytes = pending.toByteArray();
                    int cut = wholeCharacters(bytes);
                    if (cut == 0) {
                        return;
                    }
                    text = new String(bytes, 0, cut, StandardCharsets.UTF_8);
                    pending.reset();
                    pending.write(bytes, cut, bytes.length - cut);
                }
                CellOutput.this.send(MessageType.PUBLISH_STREAM, new PublishStream(type, text));
            }
        }
    }

    /** Length of the longest prefix of {@code b} that does not end inside a UTF-8 sequence. */
    static int wholeCharacters(byte[] b) {
        int n = b.length;
        int i = n - 1;
        // step back over at most three continuation bytes (10xxxxxx) to the lead byte
        while (i >= 0 && n - i <= 4 && (b[i] & 0xC0) == 0x80) {
            i--;
        }
        if (i < 0) {
            return n;
        }
        int lead = b[i] & 0xFF;
        int length = lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
        return n - i >= length ? n : i;
    }
}
