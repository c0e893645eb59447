package fabriclab.kernel;

import fabriclab.kernel.display.RichDisplay;
import fabriclab.kernel.eval.CellException;
import fabriclab.kernel.eval.EvalResult;
import fabriclab.kernel.eval.JavaEvaluator;
import io.github.spencerpark.jupyter.channels.JupyterConnection;
import io.github.spencerpark.jupyter.kernel.BaseKernel;
import io.github.spencerpark.jupyter.kernel.LanguageInfo;
import io.github.spencerpark.jupyter.kernel.ReplacementOptions;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.messages.reply.KernelInfoReply;
import java.util.ArrayList;
import java.util.List;

/**
 * The fabriclab Jupyter kernel: Jupyter messaging from the base library, Java evaluation from
 * {@link JavaEvaluator}, rich display from {@link RichDisplay}.
 */
public final class FabriclabKernel extends BaseKernel {
    /** Kernel version reported in kernel_info. */
    public static final String VERSION = "0.1.0";

    /** IJava-compatible display functions, defined in every session. */
    static final List<String> STARTUP = List.of(
            "String display(Object o) { return fabriclab.kernel.NotebookDisplay.display(o); }",
            "String display(Object o, String... as) { return fabriclab.kernel.NotebookDisplay.display(o, as); }",
            "void updateDisplay(String id, Object o) { fabriclab.kernel.NotebookDisplay.updateDisplay(id, o); }",
            "void updateDisplay(String id, Object o, String... as) { fabriclab.kernel.NotebookDisplay.updateDisplay(id, o, as); }");

    private final JavaEvaluator evaluator;
    /**
     * The language's feature version ("17"), not the build string: notebooks store it in their metadata,
     * and an executed notebook must not change with the JDK's patch release or vendor.
     */
    private final LanguageInfo languageInfo = new LanguageInfo("java", String.valueOf(Runtime.version().feature()), "text/x-java-source",
            ".jshell", "java", "text/x-java", null);

    /** Creates the kernel and its JShell session. */
    public FabriclabKernel() {
        RichDisplay.register(getRenderer());
        NotebookDisplay.attach(this);
        evaluator = new JavaEvaluator(List.of(), STARTUP);
    }

    @Override
    public LanguageInfo getLanguageInfo() {
        return languageInfo;
    }

    @Override
    public String getBanner() {
        return "Java " + Runtime.version() + " (fabriclab kernel " + VERSION + ", kernel-lib preloaded)";
    }

    @Override
    public DisplayData eval(String code) throws Exception {
        EvalResult r = evaluator.eval(code);
        return r.valueIfAny().map(v -> getRenderer().render(v)).orElse(null);
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
        String doc = evaluator.inspect(code, at);
        return doc == null ? null : new DisplayData(doc);
    }

    @Override
    public ReplacementOptions complete(String code, int at) {
        JavaEvaluator.Completion c = evaluator.complete(code, at);
        return c.options().isEmpty() ? null : new ReplacementOptions(c.options(), c.start(), c.end());
    }

    @Override
    public String isComplete(String code) {
        String answer = evaluator.isComplete(code);
        // The base library reads any other string as "incomplete" with that indent.
        return answer.equals("incomplete") ? "    " : answer;
    }

    @Override
    public void interrupt() {
        evaluator.interrupt();
    }

    @Override
    public void onShutdown(boolean isRestarting) {
        evaluator.close();
    }

    @Override
    public void becomeHandlerForConnection(JupyterConnection connection) {
        super.becomeHandlerForConnection(connection);
        // The base library's kernel_info_reply lacks "status": "ok" (required by the protocol).
        connection.setHandler(KernelInfoReply.REQUEST_MESSAGE_TYPE, (env, msg) -> {
            env.setBusyDeferIdle();
            env.reply(new OkKernelInfoReply(getLanguageInfo(), getBanner(), getHelpLinks()));
        });
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
