package fabriclab;

import fabriclab.congestion.Bottleneck;
import fabriclab.congestion.DcqcnFluidModel;
import fabriclab.congestion.DcqcnParameters;
import fabriclab.congestion.RttControlParameters;
import fabriclab.congestion.RttFluidModel;
import fabriclab.congestion.DcqcnSweeps;
import fabriclab.congestion.EcnThresholdTuning;
import fabriclab.congestion.FlowClass;
import fabriclab.congestion.dde.DelaySystem;
import fabriclab.congestion.dde.StepObserver;
import fabriclab.progress.Progress;
import fabriclab.progress.ProgressSink;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.IntToDoubleFunction;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * What {@link BadInputContractTest} cannot find by itself: valid values of types reflection cannot
 * build, valid starting calls for entry points its search does not find, and the few calls allowed to
 * answer a bad value otherwise than the contract says, each with its reason.
 */
final class BadInputRegistry {
    private BadInputRegistry() {
    }

    /** Packages that read and write files or draw charts; their bad input is tested in their own tests. */
    static final Set<String> EXCLUDED_PACKAGES = Set.of("fabriclab.datasets", "fabriclab.notebook",
            "fabriclab.project", "fabriclab.sweep");

    /** Entry points not fuzzed, with the reason. */
    private static final String CALLBACK = "an interface the caller implements and the library calls";

    static final Map<String, String> SKIPPED = Map.ofEntries(
            Map.entry("fabriclab.Parameters#inRange(String,double,double,double)", "the checks themselves: their bounds are constants of the caller"),
            Map.entry("fabriclab.Parameters#inRange(String,long,long,long)", "the checks themselves"),
            Map.entry("fabriclab.Parameters#inRange(String,int,int,int)", "the checks themselves"),
            Map.entry("fabriclab.Parameters#inHalfOpenRange(String,double,double,double)", "the checks themselves"),
            Map.entry("fabriclab.Parameters#atLeast(String,long,long)", "the checks themselves"),
            Map.entry("fabriclab.Parameters#atLeast(String,int,int)", "the checks themselves"),
            Map.entry("fabriclab.Parameters#positive(String,double)", "the checks themselves"),
            Map.entry("fabriclab.Parameters#nonNegative(String,double)", "the checks themselves"),
            Map.entry("fabriclab.Parameters#finite(String,double)", "the checks themselves"),
            Map.entry("fabriclab.Parameters#notNull(String,Object)", "the checks themselves"),
            Map.entry("fabriclab.Parameters#notBlank(String,String)", "the checks themselves: their name labels the caller's parameter"),
            Map.entry("fabriclab.Parameters#noNullElements(String,Collection)", "the checks themselves"),
            Map.entry("fabriclab.Parameters#finiteElements(String,double[])", "the checks themselves"),
            Map.entry("fabriclab.congestion.dde.DelaySystem#derivative(double,double[],double[][],double[])", CALLBACK),
            Map.entry("fabriclab.congestion.dde.DelaySystem#afterStep(double,double[])", CALLBACK),
            Map.entry("fabriclab.congestion.dde.StepObserver#accept(double,double[])", CALLBACK),
            Map.entry("fabriclab.progress.ProgressSink#report(State)", CALLBACK),
            Map.entry("fabriclab.simulation.event.EventHandler#handle(long,Object)", CALLBACK));

    /** Calls ("id parameter=bad value") allowed to break the contract, with the reason. */
    /** Functions defined at +-infinity: a CDF is 0 or 1 there, a density 0, a threshold comparison true or false. */
    private static final List<String> DEFINED_AT_INFINITY = List.of(
            "fabriclab.container.DelayModel#cdf(double) x", "fabriclab.container.DelayModel#density(double) x",
            "fabriclab.container.DelayModel$Normal#cdf(double) x", "fabriclab.container.DelayModel$Normal#density(double) x",
            "fabriclab.container.DelayModel$ShiftedExponential#cdf(double) x",
            "fabriclab.container.DelayModel$ShiftedExponential#density(double) x",
            "fabriclab.fabric.EcnMarking#probabilityUnchecked(double) queueBytes",
            "fabriclab.fabric.Pfc#pausesAt(double) counterBytes", "fabriclab.fabric.Pfc#resumesAt(double) counterBytes");

    private static Map<String, String> allowed() {
        Map<String, String> m = new java.util.TreeMap<>(LISTED);
        for (String p : DEFINED_AT_INFINITY) {
            m.put(p + "=+Infinity", "defined at +infinity (a CDF is 1, a density 0, a threshold comparison a boolean)");
            m.put(p + "=-Infinity", "defined at -infinity (a CDF is 0, a density 0, a threshold comparison a boolean)");
        }
        return Map.copyOf(m);
    }

    private static final Map<String, String> LISTED = Map.ofEntries(
            Map.entry("fabriclab.congestion.Bottleneck#<init>(double,double,Pfc,double,double) pfc=null",
                    "null is the documented value for PFC off"),
            Map.entry("fabriclab.congestion.Bottleneck#withPfc(Pfc) pfc=null", "null is the documented value for PFC off"),
            Map.entry("fabriclab.simulation.Scenario$Builder#pfcDynamicThreshold(PfcDynamicThreshold) threshold=null",
                    "documented: null (the default) keeps the static thresholds of pfc"),
            Map.entry("fabriclab.loadbalancing.flow.SourcePortPolicy#sourcePort(int,SplittableRandom) random=null",
                    "documented: the QPN policies ignore the generator and accept null (RANDOM rejects it)"),
            Map.entry("fabriclab.flowcontrol.FluidQueue#run(List,double,double) bufferBytes=+Infinity",
                    "documented: an infinite buffer is an unbounded queue"),
            Map.entry("fabriclab.flowcontrol.FluidQueue#incast(Incast,double) bufferBytes=+Infinity",
                    "documented: an infinite buffer is an unbounded queue"),
            Map.entry("fabriclab.experiments.Llama2Fabric#provenance(String,String) notes=null",
                    "documented in Provenance: notes may be null (none)"),
            Map.entry("fabriclab.experiments.GseVsRoceJct#provenance(String,String) notes=null",
                    "documented in Provenance: notes may be null (none)"),
            Map.entry("fabriclab.container.Spraying#spray(long[],int,PathPolicy,double[],SplittableRandom) weights=null",
                    "documented: weights are for WEIGHTED only and may be null otherwise"),
            Map.entry("fabriclab.congestion.dde.DdeSolver#solve(DelaySystem,double,DoubleFunction,double,StepObserver) observer=null",
                    "documented: the observer may be null (no observer)"),
            Map.entry("fabriclab.simulation.Simulator#<init>(Scenario,QueueingObserver) observer=null",
                    "documented: the trace sink may be null (none); Simulator(Scenario) passes null"),
            Map.entry("fabriclab.simulation.RoceTransport#<init>(DcqcnParameters,double,int,int,int,int,long,boolean) dcqcn=null",
                    "documented: null dcqcn is RoCE without congestion control (RoceTransport.noCongestionControl())"),
            Map.entry("fabriclab.simulation.Scenario$Builder#pfc(Pfc) pfc=null",
                    "documented: null turns PFC off (the default; toBuilder copies a scenario without PFC this way)"),
            Map.entry("fabriclab.simulation.Scenario$Builder#fabricJitter(DelayModel) jitter=null",
                    "documented: null is no fabric jitter (the default)"),
            Map.entry("fabriclab.simulation.Scenario$Builder#pfcWatchdog(PfcWatchdog) watchdog=null",
                    "documented: null is no PFC watchdog (the default)"));

    /** Every allowed call (declared after the lists it is built from). */
    static final Map<String, String> ALLOWED = allowed();

    /**
     * Calls that still break the contract, one "id parameter=bad value" a line in
     * {@code bad-input-known-failures.txt} (the test fails when one is fixed and still listed, so the
     * list only shrinks). target/bad-input-failures.txt, written by each run, is the list to copy.
     */
    static Set<String> knownFailures() throws java.io.IOException {
        try (var in = BadInputRegistry.class.getResourceAsStream("bad-input-known-failures.txt")) {
            if (in == null) {
                return Set.of();
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).collect(java.util.stream.Collectors.toSet());
        }
    }

    /** How many entry points may lack a valid starting call. */
    static final int MAX_NOT_FUZZED = 1000;

    static List<BadInputContractTest.Recipe> samples(Class<?> type) {
        if (type == ProgressSink.class) {
            return List.of(constant(Progress.silent(), "Progress.silent()"));
        }
        if (type == IntToDoubleFunction.class) {
            return List.of(constant((IntToDoubleFunction) i -> 1.0, "i -> 1.0"));
        }
        if (type == DoubleFunction.class) { // DdeSolver's history
            return List.of(constant((DoubleFunction<double[]>) t -> new double[] {1.0}, "t -> {1.0}"));
        }
        if (type == DelaySystem.class) {
            return List.of(constant(new DelaySystem() { // y' = -y(t - 1)
                @Override
                public int dimension() {
                    return 1;
                }

                @Override
                public double[] lags() {
                    return new double[] {1.0};
                }

                @Override
                public void derivative(double t, double[] y, double[][] delayed, double[] dydt) {
                    dydt[0] = -delayed[0][0];
                }
            }, "y' = -y(t - 1)"));
        }
        if (type == DcqcnParameters.class) {
            return List.of(constant(DcqcnParameters.zhu2015(), "DcqcnParameters.zhu2015()"));
        }
        if (type == Bottleneck.class) { // a port the fluid models accept (R_AI and the byte counter fit its rate and packet)
            return List.of(constant(Bottleneck.of(40e9), "Bottleneck.of(40e9)"));
        }
        if (type == StepObserver.class) {
            return List.of(constant((StepObserver) (t, y) -> { }, "(t, y) -> {}"));
        }
        if (type == java.util.OptionalDouble.class) {
            return List.of(constant(java.util.OptionalDouble.of(1.0), "OptionalDouble.of(1)"),
                    constant(java.util.OptionalDouble.empty(), "OptionalDouble.empty()"));
        }
        if (type == fabriclab.loadbalancing.analytics.MaxLoadDistribution.class) {
            return List.of(constant(fabriclab.loadbalancing.analytics.BallsIntoBins.maxLoad(8, 4), "BallsIntoBins.maxLoad(8, 4)"));
        }
        if (type == EcnThresholdTuning.class) {
            return List.of(constant(new EcnThresholdTuning(DcqcnParameters.zhu2015(), Bottleneck.of(40e9),
                    List.of(FlowClass.of(4)), 1e-4, 1e-6, 10), "4 flows at 40G for 100 us"));
        }
        if (type == Function.class) {
            return List.of(constant(Function.identity(), "identity"));
        }
        if (type == ToDoubleFunction.class) {
            return List.of(constant((ToDoubleFunction<Object>) x -> 1.0, "x -> 1.0"));
        }
        if (type == ToIntFunction.class) {
            return List.of(constant((ToIntFunction<Object>) x -> 1, "x -> 1"));
        }
        if (type == ToLongFunction.class) {
            return List.of(constant((ToLongFunction<Object>) x -> 1L, "x -> 1"));
        }
        if (type == Predicate.class) {
            return List.of(constant((Predicate<Object>) x -> true, "x -> true"));
        }
        return null;
    }

    /** A registered valid starting call for an entry point, or null to search for one. */
    static BadInputContractTest.Call baseline(String id) {
        return switch (id) {
            case "fabriclab.congestion.DcqcnSweeps#oscillation(DcqcnParameters,Bottleneck,int[],double[],double,ProgressSink)" ->
                    call(DcqcnSweeps.class, id, DcqcnParameters.zhu2015(), Bottleneck.of(40e9), new int[] {2},
                            new double[] {1e-6}, 1e-4, Progress.silent());
            case "fabriclab.congestion.DcqcnSweeps#iqcnComparison(DcqcnParameters,Bottleneck,int[],double,ProgressSink)" ->
                    call(DcqcnSweeps.class, id, DcqcnParameters.zhu2015(), Bottleneck.of(40e9), new int[] {2}, 1e-4,
                            Progress.silent());
            case "fabriclab.congestion.DcqcnFluidModel#simulate(double,double,double,ProgressSink)" ->
                    call(DcqcnFluidModel.of(DcqcnParameters.zhu2015(), Bottleneck.of(40e9), 4), id, 1e-4, 1e-6, 1e-5,
                            Progress.silent());
            case "fabriclab.congestion.DcqcnFluidModel#simulate(double,DdeSolver,double,ProgressSink)" ->
                    call(DcqcnFluidModel.of(DcqcnParameters.zhu2015(), Bottleneck.of(40e9), 4), id, 1e-4,
                            fabriclab.congestion.dde.DdeSolver.rk4(1e-6), 1e-5, Progress.silent());
            case "fabriclab.congestion.DcqcnFluidModel#withClassStart(String,ClassStart)" ->
                    call(DcqcnFluidModel.of(DcqcnParameters.zhu2015(), Bottleneck.of(40e9), 4), id, "flows",
                            new DcqcnFluidModel.ClassStart(10e9, 20e9, 0.5));
            case "fabriclab.congestion.RttFluidModel#simulate(double,double,double,ProgressSink)" ->
                    call(new RttFluidModel(RttControlParameters.ctcc(), Bottleneck.of(40e9), List.of(FlowClass.of(4))), id, 1e-4, 1e-6, 1e-5,
                            Progress.silent());
            case "fabriclab.telemetry.PathSelectionExperiment#run(Policy,long,ProgressSink)" ->
                    call(new fabriclab.telemetry.PathSelectionExperiment(4, 4, 400, 25, 0.1, 0.7, 1e6, 0.1, 0.5, 1.0, 0.5, 1,
                            fabriclab.telemetry.PathQuality.balanced(), 1e-3, 1), id,
                            fabriclab.telemetry.PathSelectionExperiment.Policy.SCORE, 3L, Progress.silent());
            default -> null;
        };
    }

    /** A static call of {@code owner}'s entry point {@code id} with fixed arguments. */
    private static BadInputContractTest.Call call(Object ownerOrReceiver, String id, Object... args) {
        Class<?> owner = ownerOrReceiver instanceof Class<?> c ? c : ownerOrReceiver.getClass();
        BadInputContractTest.Recipe receiver = ownerOrReceiver instanceof Class<?> ? null
                : constant(ownerOrReceiver, String.valueOf(ownerOrReceiver));
        for (java.lang.reflect.Method m : owner.getMethods()) {
            if (BadInputContractTest.id(m).equals(id)) {
                List<BadInputContractTest.Recipe> recipes = new java.util.ArrayList<>();
                for (Object a : args) {
                    recipes.add(constant(a, BadInputContractTest.brief(a)));
                }
                return new BadInputContractTest.Call(m, receiver, recipes);
            }
        }
        throw new AssertionError("no entry point " + id);
    }

    private static BadInputContractTest.Recipe constant(Object value, String describe) {
        return new BadInputContractTest.Constant(value, describe);
    }
}
