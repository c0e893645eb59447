package fabriclab.kernel;

import fabriclab.kernel.display.RichDisplay;
import fabriclab.kernel.eval.CellException;
import fabriclab.kernel.eval.Completion;
import fabriclab.kernel.eval.EvalResult;
import fabriclab.kernel.eval.Help;
import fabriclab.kernel.eval.JavaEvaluator;
import fabriclab.kernel.widgets.Widget;
import fabriclab.kernel.widgets.WidgetManager;
import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.channels.JupyterInputStream;
import io.github.spencerpark.jupyter.channels.ShellChannel;
import io.github.spencerpark.jupyter.channels.ShellReplyEnvironment;
import io.github.spencerpark.jupyter.kernel.BaseKernel;
import io.github.spencerpark.jupyter.kernel.LanguageInfo;
import io.github.spencerpark.jupyter.kernel.ReplacementOptions;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.messages.Message;
import io.github.spencerpark.jupyter.messages.MessageType;
import io.github.spencerpark.jupyter.messages.publish.PublishError;
import io.github.spencerpark.jupyter.messages.publish.PublishExecuteInput;
import io.github.spencerpark.jupyter.messages.publish.PublishExecuteResult;
import io.github.spencerpark.jupyter.messages.publish.PublishStatus;
import io.github.spencerpark.jupyter.messages.reply.ErrorReply;
import io.github.spencerpark.jupyter.messages.reply.ExecuteReply;
import io.github.spencerpark.jupyter.messages.reply.KernelInfoReply;
import io.github.spencerpark.jupyter.messages.request.CommInfoRequest;
import io.github.spencerpark.jupyter.messages.request.ExecuteRequest;
import io.github.spencerpark.jupyter.messages.request.HistoryRequest;
import io.github.spencerpark.jupyter.messages.request.ShutdownRequest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.zeromq.ZMQ;

/**
 * The fabriclab Jupyter kernel: Jupyter messaging from the base library, Java evaluation from
 * {@link JavaEvaluator}, rich display from {@link RichDisplay}.
 *
 * <p>The execute, history, comm_info and shutdown requests are handled here rather than by the base
 * library, to behave as ipykernel does where notebooks rely on it: printed output buffered and sent
 * in few messages ({@link CellOutput}); after a failing cell with {@code stop_on_error}, the cells
 * already queued are answered {@code aborted}; {@code silent} and {@code store_history=false} leave the
 * execution count alone; the error's {@code ename} is the Java exception class; history is answered.
 */
public final class FabriclabKernel extends BaseKernel {
    /** Kernel version reported in kernel_info. */
    public static final String VERSION = "0.1.0";

    /**
     * IJava-compatible display functions in every session: static imports of {@link NotebookDisplay}'s
     * {@code display} and {@code updateDisplay} (two snippets for JShell to compile at start-up instead of
     * four wrapper methods).
     */
    static final List<String> STARTUP = List.of(
            "import static fabriclab.kernel.NotebookDisplay.display;",
            "import static fabriclab.kernel.NotebookDisplay.updateDisplay;",
            "import fabriclab.kernel.widgets.*;",
            "import static fabriclab.kernel.widgets.Interact.interact;");

    /** The JShell session, built on a background thread so that the kernel answers kernel_info at once. */
    private final java.util.concurrent.CompletableFuture<JavaEvaluator> session;
    /**
     * The language's feature version ("17"), not the build string: notebooks store it in their metadata,
     * and an executed notebook must not change with the JDK's patch release or vendor.
     */
    private final LanguageInfo languageInfo = new LanguageInfo("java", String.valueOf(Runtime.version().feature()), "text/x-java-source",
            ".jshell", "java", "text/x-java", null);
    private final CellHistory history = new CellHistory();
    private volatile CellOutput output;
    private volatile boolean executing;
    /** Guards the interrupt state below, shared by the control thread (interrupts) and the shell thread. */
    private final Object cellLock = new Object();
    /** Whether an execute request is being handled (from its arrival on the shell thread to its reply). */
    private boolean cellActive;
    /** Whether the cell being handled was interrupted (before its session was ready, say). */
    private volatile boolean stopThisCell;
    private PendingInterrupt pendingInterrupt;
    private JupyterConnection connection;
    private WidgetComms widgetComms;
    /** The execution count of the last cell stored in history (ipykernel's {@code execution_count}). */
    private int executionCount;

    /** Creates the kernel and its JShell session. */
    public FabriclabKernel() {
        RichDisplay.register(getRenderer());
        NotebookDisplay.attach(this);
        session = java.util.concurrent.CompletableFuture.supplyAsync(() -> new JavaEvaluator(List.of(), STARTUP), r -> {
            Thread t = new Thread(r, "fabriclab-jshell-start");
            t.setDaemon(true);
            t.start();
        });
        session.whenComplete((ready, failure) -> {
            synchronized (cellLock) {
                cellLock.notifyAll(); // wakes a cell waiting in sessionUnlessStopped()
            }
        });
        setShouldReplaceStdStreams(false);
    }

    /** The JShell session if it is built (and its start did not fail), else null; never waits. */
    private JavaEvaluator readySession() {
        return session.isDone() && !session.isCompletedExceptionally() ? session.join() : null;
    }

    /** The JShell session, waiting for it to be built if needed. */
    private JavaEvaluator evaluator() {
        return session.join();
    }

    /**
     * The JShell session, waiting for it to be built if needed, or null when the cell being handled is
     * interrupted before the session is ready: the interrupt is answered from the kernel's own threads at
     * once, not after JShell has started.
     */
    private JavaEvaluator sessionUnlessStopped() {
        synchronized (cellLock) {
            while (!session.isDone() && !stopThisCell) {
                try {
                    cellLock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
            if (stopThisCell && !session.isDone()) {
                return null;
            }
        }
        return session.join();
    }

    @Override
    public LanguageInfo getLanguageInfo() {
        return languageInfo;
    }

    @Override
    public String getBanner() {
        return "Java " + Runtime.version() + " (fabriclab kernel " + VERSION + ", kernel-lib preloaded)";
    }

    /** Whether a cell is running (so display output has a cell to go to). */
    boolean isExecuting() {
        return executing && output != null;
    }

    @Override
    public void display(DisplayData data) {
        CellOutput o = output;
        if (o != null) {
            o.display(data);
        }
    }

    /** Replaces what the display with {@code data}'s display id shows. */
    void updateDisplay(DisplayData data) {
        CellOutput o = output;
        if (o != null) {
            o.updateDisplay(data);
        }
    }

    @Override
    public DisplayData eval(String code) throws Exception {
        return render(evaluator().eval(code));
    }

    private DisplayData render(EvalResult r) {
        return r.valueIfAny().map(v -> v.getClass().isArray() ? new DisplayData(arrayText(v))
                : v instanceof Widget w ? WidgetComms.displayData(w) : getRenderer().render(v)).orElse(null);
    }

    /** An array's elements, as {@link java.util.Arrays#deepToString} writes them ({@code [1, 2]}, not {@code [I@6bc2}). */
    static String arrayText(Object array) {
        String s = java.util.Arrays.deepToString(new Object[] {array});
        return s.substring(1, s.length() - 1);
    }

    @Override
    public List<String> formatError(Exception e) {
        if (e instanceof CellException ce) {
            List<String> lines = new ArrayList<>();
            List<String> tb = ce.traceback();
            for (int i = 0; i < tb.size(); i++) {
                lines.add(i == 0 ? "\u001b[1;31m" + tb.get(i) + "\u001b[0m" : tb.get(i));
            }
            return lines;
        }
        return super.formatError(e);
    }

    @Override
    public DisplayData inspect(String code, int at, boolean extraDetail) {
        Help help = evaluator().help(code, at);
        if (help == null) {
            return null;
        }
        DisplayData data = new DisplayData(help.plain());
        data.putData(io.github.spencerpark.jupyter.kernel.display.mime.MIMEType.TEXT_MARKDOWN, help.markdown());
        return data;
    }

    @Override
    public ReplacementOptions complete(String code, int at) {
        Completion c = evaluator().complete(code, at);
        return c.options().isEmpty() ? null : new ReplacementOptions(c.options(), c.start(), c.end());
    }

    @Override
    public String isComplete(String code) {
        String answer = evaluator().isComplete(code);
        // The base library reads any other string as "incomplete" with that indent.
        return answer.equals("incomplete") ? "    " : answer;
    }

    @Override
    public void interrupt() {
        interrupt(System.nanoTime());
    }

    /**
     * An interrupt is never lost: one that comes while an execute request is being handled (waiting for
     * the JShell session, compiling, running) stops that cell, and one that comes while no cell is handled
     * is kept for the next execute request, which it stops if that request reached the kernel before the
     * interrupt or at most {@link #ARRIVAL_SLACK_NANOS} after it (see {@link PendingInterrupt}). A request
     * that reaches the kernel later runs. Only the kernel's own clock is read: the dates in the messages'
     * headers come from different machines (the browser's for a cell, the Jupyter server's for an
     * interrupt) and are never compared.
     *
     * @param arrivedNanos when the control channel's loop found the interrupt ({@link System#nanoTime()})
     */
    void interrupt(long arrivedNanos) {
        synchronized (cellLock) {
            if (cellActive) {
                stopThisCell = true;
                cellLock.notifyAll(); // a cell still waiting for the session stops now
                JavaEvaluator ready = readySession();
                if (ready != null) {
                    ready.interrupt();
                }
            } else {
                pendingInterrupt = new PendingInterrupt(arrivedNanos);
            }
        }
    }

    /**
     * How much later than an interrupt an execute request may reach the kernel and still be stopped by it: a
     * client that sends a cell and then an interrupt at once sends them on two sockets, read by two threads,
     * so the interrupt can be handled a little before the request is. Far shorter than a person's time from
     * Stop to the next Run.
     */
    static final long ARRIVAL_SLACK_NANOS = 100_000_000L;

    /**
     * An interrupt that came while no cell was handled, and when the control channel's loop found it (the
     * kernel's clock, {@link System#nanoTime()}).
     */
    record PendingInterrupt(long arrivedNanos) {
        /**
         * Whether it stops an execute request the shell channel's loop found at {@code executeFoundNanos}
         * (same clock): the request was found before the interrupt, or at most {@link #ARRIVAL_SLACK_NANOS}
         * after it. When the shell loop was busy with another request for longer than that, the kernel cannot
         * tell which came first and the cell runs, as in ipykernel.
         */
        boolean stops(long executeFoundNanos) {
            return executeFoundNanos - arrivedNanos <= ARRIVAL_SLACK_NANOS;
        }
    }

    @Override
    public void onShutdown(boolean isRestarting) {
        session.thenAccept(JavaEvaluator::close);
        CellOutput o = output;
        if (o != null) {
            o.close();
        }
    }

    @Override
    public void becomeHandlerForConnection(JupyterConnection connection) {
        super.becomeHandlerForConnection(connection);
        this.connection = connection;
        output = new CellOutput(connection.getIOPub());
        // Output printed at any time, from any thread, goes to the notebook (see CellOutput).
        System.setOut(output.out);
        System.setErr(output.err);
        System.setIn(getIO().in);
        connection.setHandler(MessageType.EXECUTE_REQUEST, this::handleExecute);
        connection.setHandler(MessageType.HISTORY_REQUEST, this::handleHistory);
        connection.setHandler(MessageType.COMM_INFO_REQUEST, this::handleCommInfo);
        widgetComms = new WidgetComms(output, getCommManager(), WidgetManager.configuredProtocol());
        WidgetManager.install(widgetComms.widgets());
        connection.setHandler(MessageType.COMM_OPEN_COMMAND, widgetComms::handleOpen);
        connection.setHandler(MessageType.COMM_MSG_COMMAND, widgetComms::handleMessage);
        connection.setHandler(MessageType.COMM_CLOSE_COMMAND, widgetComms::handleClose);
        connection.setHandler(MessageType.SHUTDOWN_REQUEST, this::handleShutdown);
        connection.setHandler(MessageType.INTERRUPT_REQUEST, (env, msg) -> {
            env.setBusyDeferIdle();
            env.defer().reply(new io.github.spencerpark.jupyter.messages.reply.InterruptReply());
            interrupt(ResilientChannels.foundNanos());
        });
        // The base library's kernel_info_reply lacks "status": "ok" (required by the protocol).
        connection.setHandler(KernelInfoReply.REQUEST_MESSAGE_TYPE, (env, msg) -> {
            env.setBusyDeferIdle();
            env.reply(new OkKernelInfoReply(getLanguageInfo(), getBanner(), getHelpLinks()));
        });
    }

    private void handleExecute(ShellReplyEnvironment env, Message<ExecuteRequest> message) {
        synchronized (cellLock) {
            cellActive = true;
            stopThisCell = pendingInterrupt != null && pendingInterrupt.stops(ResilientChannels.foundNanos());
            pendingInterrupt = null;
        }
        try {
            execute(env, message);
        } finally {
            endCell();
        }
    }

    /**
     * Ends the cell being handled: an interrupt from now on is kept for the next execute request. Called
     * before the cell's reply is sent (and again, harmlessly, when the handler returns): a client that reads
     * the reply, sends the next cell and interrupts it at once must never have that interrupt taken for the
     * cell that has just ended and then forgotten.
     */
    private void endCell() {
        synchronized (cellLock) {
            cellActive = false;
            stopThisCell = false;
            JavaEvaluator ready = readySession();
            if (ready != null) {
                ready.clearInterrupt();
            }
        }
    }

    private void execute(ShellReplyEnvironment env, Message<ExecuteRequest> message) {
        ExecuteRequest request = message.getContent();
        getCommManager().setMessageContext(message);
        env.setBusyDeferIdle();
        boolean silent = request.isSilent();
        boolean store = request.shouldStoreHistory() && !silent;
        if (store) {
            executionCount++;
        }
        int count = executionCount;
        String code = request.getCode() == null ? "" : request.getCode();
        CellOutput out = output;
        out.begin(message);
        if (!silent) {
            out.publish(MessageType.PUBLISH_EXECUTE_INPUT, new PublishExecuteInput(code, count));
        }
        if (store) {
            history.add(count, code);
        }
        JupyterInputStream stdin = (JupyterInputStream) getIO().in;
        stdin.setEnv(env);
        stdin.setEnabled(request.isStdinEnabled());
        executing = true;
        try {
            JavaEvaluator evaluator = sessionUnlessStopped();
            if (evaluator == null) { // interrupted while queued or while the session was being built
                throw JavaEvaluator.interruptedBeforeStart(count);
            }
            if (stopThisCell) { // interrupted while queued, the session ready
                evaluator.interrupt();
            }
            EvalResult result = evaluator.eval(code, count);
            if (result.valueIfAny().filter(v -> evaluator().lastEndedWithSemicolon()
                    && (NotebookDisplay.isDisplayId(v) || v instanceof fabriclab.kernel.widgets.Interact.Interaction)).isPresent()) {
                result = EvalResult.NONE; // `display(x);` or `interact(...);` as the last line: already shown, not a result
            }
            DisplayData data = silent ? null : render(result);
            out.flush();
            if (data != null && store) {
                history.setOutput(count, String.valueOf(data.getData(io.github.spencerpark.jupyter.kernel.display.mime.MIMEType.TEXT_PLAIN)));
            }
            if (data != null) {
                out.publish(MessageType.PUBLISH_EXECUTION_RESULT, new PublishExecuteResult(count, data));
            }
            endCell();
            env.reply(new ExecuteReply(count, Collections.emptyMap()));
        } catch (Exception e) {
            String name = e instanceof CellException ce ? ce.name() : e.getClass().getName();
            String value = e.getMessage() == null ? "" : e.getMessage();
            List<String> traceback = formatError(e);
            out.publish(MessageType.PUBLISH_ERROR, new PublishError(name, value, traceback));
            ErrorReply reply = new ErrorReply(name, value, traceback);
            reply.setExecutionCount(count);
            if (request.shouldStopOnError()) {
                // before the reply: only the requests queued while the cell ran are aborted, never one a client sends
                // after it has seen this error (it would race the drain)
                abortQueued(env);
            }
            endCell();
            env.replyError(MessageType.EXECUTE_REPLY.error(), reply);
        } finally {
            executing = false;
            out.flush();
            stdin.retractEnv(env);
        }
    }

    /**
     * Answers every execute request already waiting on the shell socket with status {@code aborted}
     * (what ipykernel does after an error when {@code stop_on_error} is set: Run All stops at the first
     * failing cell). Other requests waiting there are handled normally. Called before the failed cell's reply
     * is sent, so a request the client sends after reading that reply is never aborted.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private void abortQueued(ShellReplyEnvironment failedEnv) {
        ShellChannel shell = (ShellChannel) failedEnv.getShell();
        while ((shell.getEvents() & ZMQ.Poller.POLLIN) != 0) {
            Message<?> next = shell.readMessage();
            if (next == null) {
                return;
            }
            ShellReplyEnvironment env = connection.prepareReplyEnv(shell, next);
            if (next.getHeader().getType() == MessageType.EXECUTE_REQUEST) {
                env.publish(PublishStatus.BUSY);
                env.reply(new Message(next, MessageType.EXECUTE_REPLY, new AbortedReply()));
                env.publish(PublishStatus.IDLE);
                continue;
            }
            io.github.spencerpark.jupyter.channels.ShellHandler handler = connection.getHandler(next.getHeader().getType());
            if (handler == null) {
                continue;
            }
            try {
                handler.handle(env, next);
            } catch (Exception e) {
                System.getLogger("fabriclab.kernel").log(System.Logger.Level.WARNING, "while aborting: " + e);
            } finally {
                env.resolveDeferrals();
            }
        }
    }

    private void handleHistory(ShellReplyEnvironment env, Message<HistoryRequest> message) {
        env.setBusyDeferIdle();
        HistoryRequest r = message.getContent();
        List<CellHistory.Entry> entries = switch (r.getAccessType()) {
            case TAIL -> history.tail(((HistoryRequest.Tail) r).getMaxReturnLength());
            case RANGE -> {
                HistoryRequest.Range range = (HistoryRequest.Range) r;
                yield history.range(range.getSessionIndex(), range.getStart(), range.getStop());
            }
            case SEARCH -> {
                HistoryRequest.Search search = (HistoryRequest.Search) r;
                yield history.search(search.getPattern(), search.getMaxReturnLength(), search.filterUnique());
            }
        };
        List<List<Object>> rows = new ArrayList<>();
        for (CellHistory.Entry e : entries) {
            Object input = r.includeOutput() ? java.util.Arrays.asList(e.input(), e.output()) : e.input();
            rows.add(java.util.Arrays.asList(e.session(), e.line(), input));
        }
        reply(env, message, MessageType.HISTORY_REPLY, new HistoryReplyContent(rows));
    }

    private void handleCommInfo(ShellReplyEnvironment env, Message<CommInfoRequest> message) {
        env.setBusyDeferIdle();
        String target = message.getContent().getTargetName();
        Map<String, Map<String, String>> comms = new LinkedHashMap<>();
        widgetComms.openComms().forEach((id, commTarget) -> {
            if (target == null || target.equals(commTarget)) {
                comms.put(id, Map.of("target_name", commTarget));
            }
        });
        reply(env, message, MessageType.COMM_INFO_REPLY, new CommInfoReplyContent(comms));
    }

    private void handleShutdown(ShellReplyEnvironment env, Message<ShutdownRequest> message) {
        boolean restart = message.getContent().isRestart();
        env.setBusyDeferIdle();
        reply(env, message, MessageType.SHUTDOWN_REPLY, new ShutdownReplyContent(restart));
        onShutdown(restart);
        env.resolveDeferrals();
        env.markForShutdown();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void reply(ShellReplyEnvironment env, Message<?> request, MessageType<?> type, Object content) {
        env.reply(new Message(request, type, content));
    }

    /** execute_reply of a cell that was not run because an earlier one failed. */
    static final class AbortedReply {
        @SuppressWarnings("unused")
        private final String status = "aborted";
    }

    /** history_reply: rows of [session, line, input]. */
    static final class HistoryReplyContent {
        @SuppressWarnings("unused")
        private final String status = "ok";
        @SuppressWarnings("unused")
        private final List<List<Object>> history;

        HistoryReplyContent(List<List<Object>> history) {
            this.history = history;
        }
    }

    /** comm_info_reply with its status. */
    static final class CommInfoReplyContent {
        @SuppressWarnings("unused")
        private final String status = "ok";
        @SuppressWarnings("unused")
        private final Map<String, Map<String, String>> comms;

        CommInfoReplyContent(Map<String, Map<String, String>> comms) {
            this.comms = comms;
        }
    }

    /** shutdown_reply with its status. */
    static final class ShutdownReplyContent {
        @SuppressWarnings("unused")
        private final String status = "ok";
        @SuppressWarnings("unused")
        private final boolean restart;

        ShutdownReplyContent(boolean restart) {
            this.restart = restart;
        }
    }

    /** kernel_info_reply with the "status" field the base library leaves out. */
    static final class OkKernelInfoReply extends KernelInfoReply {
        @SuppressWarnings("unused")
        private final String status = "ok";

        OkKernelInfoReply(LanguageInfo info, String banner, List<LanguageInfo.Help> help) {
            super("5.3", "fabriclab", VERSION, info, banner, help);
        }
    }
}
