package fabriclab;

import fabriclab.experiments.testbed.Duan2024Testbed;
import fabriclab.simulation.trace.Counters;
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

import fabriclab.collectives.Collective;
import fabriclab.experiments.GseVsRoceJct;
import fabriclab.experiments.GseVsRoceTestbed;
import fabriclab.experiments.testbed.RoceOrGse;
import fabriclab.experiments.Llama2Fabric;
import fabriclab.experiments.Llama2Training;
import fabriclab.fabric.Incast;
import fabriclab.fabric.Topology;
import fabriclab.scheduling.DgsqConfig;
import fabriclab.simulation.SimulationResult;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.DoubleFunction;
import java.util.function.Function;
import java.util.function.IntFunction;
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

    /**
     * Packages that read and write files, draw charts or start processes (the simulation command exits the
     * JVM from main and runs whole simulations); their bad input is tested in their own tests. Also the
     * simulator's runtime elements, public only to the simulator's own transport and engine packages: a caller
     * cannot obtain their arguments (a {@code Network} is built by the simulator from a validated scenario).
     */
    static final Set<String> EXCLUDED_PACKAGES = Set.of("fabriclab.datasets", "fabriclab.notebook",
            "fabriclab.project", "fabriclab.sweep", "fabriclab.cli", "fabriclab.simulation.element");

    /** Entry points not fuzzed, with the reason. */
    private static final String CALLBACK = "an interface the caller implements and the library calls";

    private static final String SIMULATOR_RUNTIME = "its parameter type Network is the simulator's runtime, built only "
            + "by the simulator from a validated scenario";
    private static final String VERDICT_FILES = "reads notebook 08's saved datasets under a datasets directory (file"
            + " input, like the excluded fabriclab.datasets); its bad input (null) is tested in GseVsRoceVerdictTest";
    private static final String WHOLE_SWEEP = "the fixed full sweep of a published dataset (hundreds of packet-level runs, "
            + "minutes even on many threads); its only parameters are the executor and the sink";

    private static final String RDMA_ROWS = "needs our result of its RDMA reference scenario (a run of seconds) and the"
            + " reference's dataset; its bad input (null, an N the dataset lacks) is tested in RdmaReferenceComparisonTest";
    private static final String RDMA_INSTANCE = "needs an instance, which only run() makes by running the seventeen RDMA"
            + " reference scenarios in ours (tens of seconds); its bad input (null, an N not run) is tested in"
            + " RdmaReferenceComparisonTest";
    static final Map<String, String> SKIPPED = Map.ofEntries(
            Map.entry("fabriclab.experiments.GseVsRoceTransports#ratios(GseVsRoceTestbed,List,Algorithm,double,long,long[],SweepExecutor,ProgressSink)",
                    "a valid call runs 000's testbed on the packet simulator per transport and seed (seconds to minutes); its"
                    + " arguments are those of points (fuzzed) plus the executor and sink; tested in GseVsRoceTransportsTest"),
            Map.entry("fabriclab.experiments.GseVsRoceTransports#whatIf(long,long[],SweepExecutor,ProgressSink)",
                    "a valid call runs 000's testbed on the packet simulator per collective, transport and seed (minutes); its"
                    + " checks are those of ratios and points (fuzzed); tested in GseVsRoceTransportsTest and notebook 08"),
            Map.entry("fabriclab.experiments.GseVsRoceTransports#spread(Table)",
                    "reads the table whatIf returns, which only a run produces; null is refused, tested in"
                    + " GseVsRoceTransportsTest"),
            Map.entry("fabriclab.experiments.GseVsRoceTransports#summary(Table)",
                    "reads the table ratios returns, which only a run produces; null and a table without its columns are"
                    + " refused, tested in GseVsRoceTransportsTest"),
            Map.entry("fabriclab.validation.HpccComparison#schemeTenths(List,List,Table,SweepExecutor,ProgressSink)",
                    "a valid call runs HPCC's FCT workloads per scheme (tens of seconds); its bad input (an empty scheme list)"
                    + " is tested in HpccSchemesTest"),
            Map.entry("fabriclab.validation.HpccComparison#passCounts(Table)",
                    "reads the table schemeTenths returns, which only a run produces; tested in HpccSchemesTest"),
            Map.entry("fabriclab.validation.HpccComparison#addSchemesTo(PaperComparison,Table,List,int,String)",
                    "reads the table schemeTenths returns, which only a run produces; a scheme the table lacks is refused,"
                    + " tested in HpccSchemesTest"),
            Map.entry("fabriclab.validation.HpccComparison#addTo(PaperComparison,Table,HpccScheme,int,String)",
                    "reads the table of tenths a run produces; its three-argument form (fuzzed) passes 3 seeds and no size"),
            Map.entry("fabriclab.experiments.Llama2Training#calibratedOnPacket(List,double,double,double,long,SweepExecutor,ProgressSink)",
                    "a valid call simulates 64 MiB collectives packet by packet for every candidate (minutes); its arguments' checks"
                    + " and the no-candidate error are tested in Llama2CalibrationTest"),
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
            Map.entry("fabriclab.congestion.dde.DelaySystem#nonNegative()", CALLBACK),
            Map.entry("fabriclab.congestion.dde.StepObserver#accept(double,double[])", CALLBACK),
            Map.entry("fabriclab.progress.ProgressSink#report(State)", CALLBACK),
            Map.entry("fabriclab.simulation.event.EventHandler#handle(long,Object)", CALLBACK),
            Map.entry("fabriclab.simulation.event.InstantOrder#order(long,long[],Object[],int,int)", CALLBACK),
            Map.entry("fabriclab.simulation.trace.Trace#dequeued(int,int,int,boolean,int,long,long)", CALLBACK),
            Map.entry("fabriclab.simulation.trace.Trace#enqueued(int,int,int,boolean,int,long,long)", CALLBACK),
            Map.entry("fabriclab.simulation.trace.Trace#dropped(int,int,int,boolean,int,DropReason,long)", CALLBACK),
            Map.entry("fabriclab.simulation.transport.TransportModel#start(Network)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.engine.ParallelEngine#<init>(Network,TransportRun,int)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.engine.ParallelEngine#run(long,ProgressSink)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.engine.ParallelEngine#run(long,long,ProgressSink)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.engine.ParallelEngine#instantEventLimit(int)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.engine.ParallelEngine#droppingLimit(long)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.engine.ParallelEngine#quietEventLimit(long)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.transport.TransportRun#newFlow(FlowState)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.transport.TransportRun#reportCounters(Builder)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.transport.gse.GseEdge#intercept(Packet,long)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.transport.TransportModel$Uncontrolled#start(Network)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.transport.ctcc.CtccTransport#start(Network)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.transport.gse.GseTransport#start(Network)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.transport.roce.RoceTransport#start(Network)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.transport.hpcc.HpccTransport#start(Network)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.transport.window.DctcpTransport#start(Network)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.transport.window.TimelyTransport#start(Network)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.simulation.transport.window.SwiftTransport#start(Network)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.experiments.GseVsRoceVerdict#members(Path)", VERDICT_FILES),
            Map.entry("fabriclab.experiments.GseVsRoceVerdict#markingRecovery(Path)", VERDICT_FILES),
            Map.entry("fabriclab.experiments.GseVsRoceVerdict#table(Path)", VERDICT_FILES),
            Map.entry("fabriclab.experiments.GseVsRoceVerdict#sentence(Path)", VERDICT_FILES),
            Map.entry("fabriclab.simulation.transport.uec.UecTransport#start(Network)", SIMULATOR_RUNTIME),
            Map.entry("fabriclab.validation.Ns3Comparison#addTo(PaperComparison,Path)", "reads the ns-3 datasets under a"
                    + " directory and runs every ns-3 scenario in ours (seconds a call); its bad input (null, a directory"
                    + " without the datasets) is tested in Ns3ComparisonTest"),
            Map.entry("fabriclab.validation.RdmaReferenceTieRule#run(MarkingPoint)", "runs the RDMA reference scenarios in ours"
                    + " under the tie rule, five draws (tens of seconds a call); its bad input (null) is tested in"
                    + " RdmaReferenceTieRuleTest"),
            Map.entry("fabriclab.validation.RdmaReferenceTieRule#run(Path,MarkingPoint)", "runs the RDMA reference scenarios in"
                    + " ours under the tie rule, five draws (tens of seconds a call); its bad input (null) is tested in"
                    + " RdmaReferenceTieRuleTest"),
            Map.entry("fabriclab.validation.RdmaReferenceComparison#run(Path)", "runs the seventeen RDMA reference scenarios in"
                    + " ours (seconds a call); its bad input (null) is tested in RdmaReferenceComparisonTest"),
            Map.entry("fabriclab.validation.RdmaReferenceComparison#run(MarkingPoint)", "runs the seventeen RDMA reference"
                    + " scenarios in ours (seconds a call); its bad input (null) is tested in RdmaReferenceComparisonTest"),
            Map.entry("fabriclab.validation.RdmaReferenceComparison#run(Path,MarkingPoint)", "runs the seventeen RDMA"
                    + " reference scenarios in ours (seconds a call); its bad input (null) is tested in RdmaReferenceComparisonTest"),
            Map.entry("fabriclab.validation.RdmaReferenceComparison#addTo(PaperComparison)", RDMA_INSTANCE),
            Map.entry("fabriclab.validation.RdmaReferenceComparison#incast(int)", RDMA_INSTANCE),
            Map.entry("fabriclab.validation.RdmaReferenceComparison#incastRows(int,SimulationResult,Table)", RDMA_ROWS),
            Map.entry("fabriclab.validation.RdmaReferenceComparison#incastRows(int,SimulationResult,Table,MarkingPoint)", RDMA_ROWS),
            Map.entry("fabriclab.validation.RdmaReferenceComparison#victimRows(boolean,SimulationResult,Table,MarkingPoint)", RDMA_ROWS),
            Map.entry("fabriclab.validation.RdmaReferenceComparison#allToAllRows(List,SimulationResult,Table,MarkingPoint)", RDMA_ROWS),
            Map.entry("fabriclab.validation.RdmaReferenceComparison#victimRows(boolean,SimulationResult,Table)", RDMA_ROWS),
            Map.entry("fabriclab.validation.RdmaReferenceComparison#goBackNRows(SimulationResult,Table)", RDMA_ROWS),
            Map.entry("fabriclab.validation.RdmaReferenceHpcc#rows(SimulationResult,Table)", RDMA_ROWS),
            Map.entry("fabriclab.validation.HtsimAdaptiveRoce#rows(List,Table)", "needs our runs of a csg-htsim scenario"
                    + " (a second each) and the reference's dataset; its bad input (an empty list, a run of other flows) is"
                    + " tested in HtsimAdaptiveRoceTest"),
            Map.entry("fabriclab.validation.HtsimAdaptiveRoce#values(SimulationResult)", "needs a run of a csg-htsim scenario;"
                    + " its bad input (a run of other flows) is tested in HtsimAdaptiveRoceTest through rows"),
            Map.entry("fabriclab.validation.HtsimCc#rows(List,Table)", "needs our runs of a csg-htsim HPCC scenario"
                    + " (a fraction of a second each) and the reference's dataset; its bad input (an empty list, a run of"
                    + " other flows) is tested in HtsimCcTest"),
            Map.entry("fabriclab.validation.HtsimCc#rows(String,List,Table)", "needs our runs of a csg-htsim scenario"
                    + " and the reference's dataset; its bad input (an unknown control, an empty list, a run of other"
                    + " flows) is tested in HtsimCcTest"),
            Map.entry("fabriclab.validation.HtsimCc#driverRows(String,List,Table)", "needs our runs of a csg-htsim"
                    + " scenario and the driver's dataset; its bad input (an empty list) is tested in HtsimCcTest"),
            Map.entry("fabriclab.validation.HtsimCc#values(SimulationResult)", "needs a run of a csg-htsim HPCC scenario;"
                    + " its bad input (a run of other flows) is tested in HtsimCcTest through rows"),
            Map.entry("fabriclab.validation.RepsPaperAsymmetric#rows(List,List,Table)", "needs our runs of the REPS"
                    + " paper's asymmetric scenario (14 s for six); tested in RepsPaperAsymmetricTest"),
            Map.entry("fabriclab.validation.RepsPaperAsymmetric#completionUs(SimulationResult)", "needs a completed run of"
                    + " the REPS paper's asymmetric scenario; tested in RepsPaperAsymmetricTest"),
            Map.entry("fabriclab.validation.UetReferenceUec#rows(List,Table)", "needs our runs of a UEC reference scenario"
                    + " (a second each) and the reference's dataset; its bad input (an empty list, a run of other flows) is"
                    + " tested in UetReferenceUecTest"),
            Map.entry("fabriclab.validation.RdmaReferenceHpcc#addTo(PaperComparison,SimulationResult,Table)", RDMA_ROWS),
            Map.entry("fabriclab.validation.RdmaReferenceCc#rows(SimulationResult,Table)", RDMA_ROWS),
            Map.entry("fabriclab.validation.RdmaReferenceCc#addTo(PaperComparison,SimulationResult,Table)", RDMA_ROWS),
            Map.entry("fabriclab.validation.RdmaReferenceCc#runAll(PaperComparison)", "runs six RDMA reference scenarios in ours"
                    + " (tens of seconds a call); its bad input (null) is tested in RdmaReferenceCcTest"),
            Map.entry("fabriclab.validation.RdmaReferenceComparison#allToAllRows(List,SimulationResult,Table)", RDMA_ROWS),
            Map.entry("fabriclab.validation.RdmaReferenceComparison#allToAllTokenBucketRows(SimulationResult,Table)", RDMA_ROWS),
            Map.entry("fabriclab.experiments.GseVsRoceJct#fullSweep(int,ProgressSink)", WHOLE_SWEEP),
            Map.entry("fabriclab.experiments.GseVsRoceJct#fullSweep(SweepExecutor,ProgressSink)", WHOLE_SWEEP),
            Map.entry("fabriclab.experiments.Llama2Fabric#commRuns(int,ProgressSink)", WHOLE_SWEEP),
            Map.entry("fabriclab.experiments.Llama2Fabric#commRuns(SweepExecutor,ProgressSink)", WHOLE_SWEEP));

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
            Map.entry("fabriclab.experiments.GseVsRoceTransports$Point#<init>(GseVsRoceTestbed,TransportChoice,Algorithm,double,long,long) transport=null",
                    "null is the documented value for GSE (the point's fabric)"),
            Map.entry("fabriclab.scenarios.ScenarioSettings$Transport#<init>(TransportChoice,ReliableConnection,String,int,Pfc,int,int,UecTransport) pfc=null",
                    "null is the documented value for PFC off"),
            Map.entry("fabriclab.scenarios.ScenarioSettings$Transport#<init>(TransportChoice,ReliableConnection,String,int,Pfc,int,int,UecTransport) uec=null",
                    "null is the documented value for the UEC transport's defaults"),
            Map.entry("fabriclab.scenarios.ScenarioSettings$Transport#<init>(TransportChoice,ReliableConnection,String,int,Pfc,int,int,long,UecTransport) pfc=null",
                    "null is the documented value for PFC off"),
            Map.entry("fabriclab.scenarios.ScenarioSettings$Transport#<init>(TransportChoice,ReliableConnection,String,int,Pfc,int,int,long,UecTransport) uec=null",
                    "null is the documented value for the UEC transport's defaults"),
            Map.entry("fabriclab.scenarios.ScenarioSettings$Transport#<init>(TransportChoice,ReliableConnection,String,int,Pfc,int,int) pfc=null",
                    "null is the documented value for PFC off"),
            Map.entry("fabriclab.scenarios.ScenarioSettings$Transport#<init>(TransportChoice,ReliableConnection,String,int,Pfc,int,int,long) pfc=null",
                    "null is the documented value for PFC off"),
            Map.entry("fabriclab.scenarios.ScenarioSettings$Traffic#<init>(long,int,int,int,FlowSizeDistribution,double,int,long,IncastMix) distribution=null",
                    "documented: the fixed workloads have no flow-size distribution (null)"),
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
            Map.entry("fabriclab.simulation.transport.roce.RoceTransport#<init>(DcqcnParameters,double,ReliableConnection,int,int,int,boolean,Window) dcqcn=null",
                    "documented: null dcqcn is RoCE without congestion control (RoceTransport.noCongestionControl())"),
            Map.entry("fabriclab.simulation.transport.roce.RoceTransport#<init>(DcqcnParameters,double,ReliableConnection,int,int,int,boolean,Window) window=null",
                    "documented: null window is no sending window (the rate limiter alone, as NICs run DCQCN)"),
            Map.entry("fabriclab.simulation.transport.roce.RoceTransport#<init>(DcqcnParameters,double,ReliableConnection,int,int,int,boolean,Window,boolean) dcqcn=null",
                    "documented: null dcqcn is RoCE without congestion control (RoceTransport.noCongestionControl())"),
            Map.entry("fabriclab.simulation.transport.roce.RoceTransport#<init>(DcqcnParameters,double,ReliableConnection,int,int,int,boolean,Window,boolean) window=null",
                    "documented: null window is no sending window (the rate limiter alone, as NICs run DCQCN)"),
            Map.entry("fabriclab.simulation.transport.ReliableConnection#<init>(long,int,long,int,int,OutOfOrderPlacement) outOfOrder=null",
                    "documented: null outOfOrder is the in-order responder (the 5-argument constructor)"),
            Map.entry("fabriclab.simulation.transport.ReliableConnection#withOutOfOrder(OutOfOrderPlacement) placement=null",
                    "documented: null placement is the in-order responder"),
            Map.entry("fabriclab.simulation.transport.roce.RoceTransport#withWindow(Window) w=null",
                    "documented: null removes the sending window"),
            Map.entry("fabriclab.simulation.transport.roce.RoceTransport#<init>(DcqcnParameters,double,ReliableConnection,int,int,int,boolean,Window,boolean,TokenBucket) dcqcn=null",
                    "documented: null dcqcn is RoCE without congestion control (RoceTransport.noCongestionControl())"),
            Map.entry("fabriclab.simulation.transport.roce.RoceTransport#<init>(DcqcnParameters,double,ReliableConnection,int,int,int,boolean,Window,boolean,TokenBucket) window=null",
                    "documented: null window is no sending window (the rate limiter alone, as NICs run DCQCN)"),
            Map.entry("fabriclab.simulation.transport.roce.RoceTransport#<init>(DcqcnParameters,double,ReliableConnection,int,int,int,boolean,Window,boolean,TokenBucket) tokenBucket=null",
                    "documented: null tokenBucket is packet spacing by wire size / rate, one packet per turn (the default)"),
            Map.entry("fabriclab.simulation.transport.roce.RoceTransport#withTokenBucket(TokenBucket) b=null",
                    "documented: null is packet spacing, the default rate limiter"),
            Map.entry("fabriclab.validation.RdmaReferenceAllToAll#scenario(MarkingPoint,TokenBucket) tokenBucket=null",
                    "documented: null tokenBucket is our NIC rule (packet spacing), the default"),
            Map.entry("fabriclab.simulation.Scenario$Builder#pfc(Pfc) pfc=null",
                    "documented: null turns PFC off (the default; toBuilder copies a scenario without PFC this way)"),
            Map.entry("fabriclab.simulation.Scenario$Builder#fabricJitter(DelayModel) jitter=null",
                    "documented: null is no fabric jitter (the default)"),
            Map.entry("fabriclab.simulation.Scenario$Builder#pfcWatchdog(PfcWatchdog) watchdog=null",
                    "documented: null is no PFC watchdog (the default)"),
            Map.entry("fabriclab.simulation.Scenario#<init>(String,Topology,SimulationConfig,List,List,TransportModel,Pfc,List,"
                    + "DelayModel,List,PfcWatchdog,int,PfcDynamicThreshold,TieOrder) pfc=null", "documented: null is no PFC"),
            Map.entry("fabriclab.simulation.Scenario#<init>(String,Topology,SimulationConfig,List,List,TransportModel,Pfc,List,"
                    + "DelayModel,List,PfcWatchdog,int,PfcDynamicThreshold,TieOrder) fabricJitter=null", "documented: null is no fabric jitter"),
            Map.entry("fabriclab.simulation.Scenario#<init>(String,Topology,SimulationConfig,List,List,TransportModel,Pfc,List,"
                    + "DelayModel,List,PfcWatchdog,int,PfcDynamicThreshold,TieOrder) pfcWatchdog=null", "documented: null is no PFC watchdog"),
            Map.entry("fabriclab.simulation.Scenario#<init>(String,Topology,SimulationConfig,List,List,TransportModel,Pfc,List,"
                    + "DelayModel,List,PfcWatchdog,int,PfcDynamicThreshold,TieOrder) pfcDynamicThreshold=null",
                    "documented: null keeps the static thresholds of pfc"),
            Map.entry("fabriclab.container.Spraying#monteCarlo(PacketSizes,int,Function,int,PathPolicy,double[],int,long,ProgressSink) "
                    + "weights=null", "documented: weights are for WEIGHTED only and may be null otherwise (the call uses RANDOM)"),
            Map.entry("fabriclab.simulation.event.EventQueue#schedule(long,EventHandler,Object) payload=null",
                    "documented: the payload is any object or null, handed back to the handler"),
            Map.entry("fabriclab.simulation.event.EventQueue#scheduleKeyed(long,EventHandler,Object,long) payload=null",
                    "documented: the payload is any object or null, handed back to the handler"));

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

    /**
     * How many entry points may lack a valid starting call: a ratchet, lowered as entry points get one. A new
     * entry point the search cannot start gets a registry entry ({@link #samples} for a type reflection cannot
     * build, {@link #baseline} for a valid starting call), or, only when fuzzing cannot apply, a line in
     * {@link #SKIPPED} with the reason.
     */
    static final int MAX_NOT_FUZZED = 0;

    static List<BadInputContractTest.Recipe> samples(Class<?> type) {
        if (type == ProgressSink.class) {
            return List.of(constant(Progress.silent(), "Progress.silent()"));
        }
        if (type == fabriclab.datasets.SeedRange.class) { // GseVsRoceVerdict.Setting
            return List.of(constant(new fabriclab.datasets.SeedRange("seeds 1-2", List.of("seed 1", "seed 2"), List.of(2.5, 3.1)),
                    "new SeedRange(\"seeds 1-2\", [seed 1, seed 2], [2.5, 3.1])"));
        }
        if (type == fabriclab.datasets.Target.class) { // GseVsRoceVerdict.Setting
            return List.of(constant(fabriclab.datasets.Target.band(2.6, 3.0), "Target.band(2.6, 3.0)"));
        }
        if (type == Integer.class) { // elements of List<Integer> (switch nodes, predecessors, tiers)
            return List.of(constant(1, "1"), constant(2, "2"), constant(0, "0"));
        }
        if (type == fabriclab.simulation.event.EventHandler.class) {
            return List.of(constant((fabriclab.simulation.event.EventHandler) (t, e) -> { }, "(t, e) -> {}"));
        }
        if (type == fabriclab.simulation.event.InstantOrder.class) {
            return List.of(constant((fabriclab.simulation.event.InstantOrder) (timePs, keys, refs, from, n) -> { },
                    "(keys, refs, from, n) -> {}"));
        }
        if (type == java.util.function.ObjLongConsumer.class) { // Counters.forEach
            return List.of(constant((java.util.function.ObjLongConsumer<String>) (name, count) -> { },
                    "(name, count) -> {}"));
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
        if (type == java.util.function.UnaryOperator.class) { // BufferPlan's mapBuffers
            return List.of(constant(java.util.function.UnaryOperator.identity(), "identity"));
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
        if (type == fabriclab.workload.FlowSizeDistribution.class) {
            return List.of(constant(twoPointSizes(), "uniform on [1000, 3000] B"));
        }
        if (type == java.util.SplittableRandom.class) {
            return List.of(constant(new java.util.SplittableRandom(1), "new SplittableRandom(1)"));
        }
        if (type == fabriclab.workload.GeneratedFlows.class) {
            return List.of(constant(smallTraffic().generate(), "4 hosts, 100 us of Poisson flows"));
        }
        return null;
    }

    private static fabriclab.workload.FlowSizeDistribution twoPointSizes() {
        return fabriclab.workload.FlowSizeDistribution.of("two points", new double[] {1000, 3000}, new double[] {0, 1});
    }

    private static fabriclab.workload.PoissonTraffic smallTraffic() {
        return new fabriclab.workload.PoissonTraffic(twoPointSizes(), 4, 100_000_000_000L, 0.5, 100_000_000L, 0,
                new fabriclab.workload.IncastMix(2, 1000, 50_000_000L), 1);
    }

    /** A file holding {@code text}, deleted when the JVM exits. */
    private static java.nio.file.Path tempFile(String text) {
        try {
            java.nio.file.Path f = java.nio.file.Files.createTempFile("badinput", ".txt");
            f.toFile().deleteOnExit();
            java.nio.file.Files.writeString(f, text);
            return f;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Valid starting calls of {@code fabriclab.workload}. */
    private static BadInputContractTest.Call workloadBaselines(String id) {
        fabriclab.fabric.LeafSpine ls = smallLeafSpine();
        fabriclab.simulation.config.SimulationConfig config = fabriclab.simulation.config.SimulationConfig.defaults(
                fabriclab.simulation.config.SwitchBuffer.shared(1_000_000));
        fabriclab.simulation.config.FlowSpec flow = fabriclab.simulation.config.FlowSpec.of(0, ls.hosts() - 1, 5000, 0);
        return switch (id) {
            case "fabriclab.workload.FlowSizeDistribution#of(String,double[],double[])" ->
                    call(fabriclab.workload.FlowSizeDistribution.class, id, "d", new double[] {0, 100, 300},
                            new double[] {0, 0.5, 1});
            case "fabriclab.workload.FlowSizeDistribution#published(String)" ->
                    call(fabriclab.workload.FlowSizeDistribution.class, id, "websearch");
            case "fabriclab.workload.FlowSizeDistribution#fromDataset(Dataset)" ->
                    call(fabriclab.workload.FlowSizeDistribution.class, id, fabriclab.datasets.Datasets.load(
                            java.nio.file.Path.of("..", "datasets"), "fb-hadoop-flow-sizes"));
            case "fabriclab.workload.FlowSizeDistribution#read(Path)" ->
                    call(fabriclab.workload.FlowSizeDistribution.class, id, tempFile("0 0\n100 50\n300 100\n"));
            case "fabriclab.workload.FlowSizeDistribution#quantileBytes(double)" -> call(twoPointSizes(), id, 0.5);
            case "fabriclab.workload.FlowSizeDistribution#sample(SplittableRandom)",
                    "fabriclab.workload.FlowSizeDistribution#sampleBytes(SplittableRandom)" ->
                    call(twoPointSizes(), id, new java.util.SplittableRandom(1));
            case "fabriclab.workload.FctSlowdown#decileEdges(FlowSizeDistribution)" ->
                    call(fabriclab.workload.FctSlowdown.class, id, twoPointSizes());
            case "fabriclab.workload.FctSlowdown#of(SimulationResult,long[],long[],boolean[])" ->
                    call(fabriclab.workload.FctSlowdown.class, id, smallSimulationResult(), new long[0], new long[] {1000},
                            new boolean[0]);
            case "fabriclab.workload.GeneratedFlows#isIncast(int)" -> call(smallTraffic().generate(), id, 0);
            case "fabriclab.workload.HpccFctFile#lines(SimulationResult,long[],boolean[])" ->
                    call(fabriclab.workload.HpccFctFile.class, id, smallSimulationResult(), new long[0], new boolean[0]);
            case "fabriclab.workload.HpccFctFile#write(Path,SimulationResult,long[],boolean[])" ->
                    call(fabriclab.workload.HpccFctFile.class, id, tempFile(""), smallSimulationResult(), new long[0],
                            new boolean[0]);
            case "fabriclab.Parameters#inputFileProblem(Path,long)" ->
                    call(fabriclab.Parameters.class, id, tempFile("10 100\n"), 1000L);
            case "fabriclab.Parameters#readInputFile(String,Path,long)", "fabriclab.Parameters#readInputText(String,Path,long)" ->
                    call(fabriclab.Parameters.class, id, "file", tempFile("10 100\n"), 1000L);
            case "fabriclab.simulation.engine.StuckInstant#<init>(long,long,Map,List)" ->
                    call(fabriclab.simulation.engine.StuckInstant.class, id, 5L, 10L, Map.of("Link", 3L), List.of(1, 2));
            case "fabriclab.workload.HpccFctFile#read(Path)" ->
                    call(fabriclab.workload.HpccFctFile.class, id, tempFile("0b000001 0b000101 49152 100 1000 0 900 800\n"));
            case "fabriclab.workload.IdealFct#of(Topology,SimulationConfig,FlowSpec)" ->
                    call(fabriclab.workload.IdealFct.class, id, ls.build(), config, flow);
            case "fabriclab.workload.IdealFct#of(Topology,SimulationConfig,List)" ->
                    call(fabriclab.workload.IdealFct.class, id, ls.build(), config, List.of(flow));
            case "fabriclab.workload.PoissonTraffic#<init>(FlowSizeDistribution,int,long,double,long,int,IncastMix,long)" ->
                    call(fabriclab.workload.PoissonTraffic.class, id, twoPointSizes(), 4, 100_000_000_000L, 0.5, 100_000_000L, 0,
                            fabriclab.workload.IncastMix.off(), 1L);
            default -> null;
        };
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
            // the smallest sweep (one GSE run of 4 KiB per rank, under a second): a search could find a valid call
            // of minutes (RoCE, several cases), which a loaded machine turns into a hang
            case "fabriclab.experiments.Llama2Fabric#sweep(List,List,long,long[],int,ProgressSink)" ->
                    call(new Llama2Fabric(1.5), id, List.of(Llama2Fabric.Case.SINGLE_JOB), List.of(RoceOrGse.GSE), 4096L,
                            new long[] {1}, 1, Progress.silent());
            default -> moreBaselines(id);
        };
    }

    /** GSE on 000's AlltoAll at 4 KiB per rank, seed 1 (a run of well under a second). */
    private static fabriclab.experiments.DesignComparison.Point designPoint() {
        return new fabriclab.experiments.DesignComparison.Point(fabriclab.experiments.DesignComparison.Workload.ALL_TO_ALL_000,
                false, fabriclab.experiments.DesignComparison.Design.GSE, "defaults", 4096L, 1L);
    }

    /** Two made-up results of one workload and seed, GSE's and UEC's (no run). */
    private static List<fabriclab.experiments.DesignComparison.Result> designResults() {
        fabriclab.experiments.DesignComparison.Point uec = new fabriclab.experiments.DesignComparison.Point(
                fabriclab.experiments.DesignComparison.Workload.ALL_TO_ALL_000, false,
                fabriclab.experiments.DesignComparison.Design.UEC, "reps", 4096L, 1L);
        return List.of(new fabriclab.experiments.DesignComparison.Result(designPoint(), true, 2.0, 2.0, 1.0, 8L, 8L, 8L, 0.0, 1.0,
                0L, 0.0, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L),
                new fabriclab.experiments.DesignComparison.Result(uec, true, 3.0, 3.0, 1.0, 8L, 8L, 8L, 0.0, 1.0,
                0L, 0.0, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L));
    }

    /** A small leaf-spine: 4 servers x 2 NICs, 2 leaves, 2 spines, 100G, so hosts 0-3 on leaf1 and 4-7 on leaf2. */
    private static fabriclab.fabric.LeafSpine smallLeafSpine() {
        return new fabriclab.fabric.LeafSpine(4, 2, 2, 2, 100_000_000_000L, 100_000_000_000L, 1, 1000, 1000);
    }

    private static Incast incast40g() {
        return new Incast(4, 1, 1_000_000L, 40_000_000_000L, 40_000_000_000L, 0L);
    }

    private static fabriclab.experiments.IncastDegreeSweep incastDegreeSweep() {
        return new fabriclab.experiments.IncastDegreeSweep(incast40g(), new fabriclab.fabric.Pfc(20_000, 15_000, 30_000,
                fabriclab.fabric.Pfc.MAX_QUANTA), 1e-6, dgsq40g());
    }

        private static DgsqConfig dgsq40g() {
        return new DgsqConfig(40e9, 40e9, 4096, 1e-6, 2e-6, fabriclab.scheduling.GrantPolicy.EQUAL);
    }

    private static Llama2Training.Configuration llamaPoint(RoceOrGse fabric) {
        return new Llama2Training.Configuration(Llama2Fabric.Case.SINGLE_JOB, fabric, Llama2Training.layouts(32).get(0), 32,
                fabriclab.training.Accelerator.H800, 0.5);
    }

    private static Llama2Training.Gain llamaPair() {
        return new Llama2Training.Gain(llamaResult(RoceOrGse.ROCE), llamaResult(RoceOrGse.GSE));
    }

    private static fabriclab.experiments.Llama2Layouts.Target llamaTarget() {
        return new fabriclab.experiments.Llama2Layouts.Target(2.66, 0.1, 40, 58);
    }

    private static Llama2Training.Result llamaResult(RoceOrGse fabric) {
        Llama2Training t = Llama2Training.nonBlocking(2);
        return t.evaluate(llamaPoint(fabric), t.timer(Llama2Fabric.Case.SINGLE_JOB, fabric, Llama2Training.Timing.BOUND, 1),
                Llama2Training.Timing.BOUND);
    }

    /** A GSE vs RoCE sweep of one small run (AlltoAll of 4 KiB per rank on GSE, seed 1). */
    private static fabriclab.sweep.SweepPlan<GseVsRoceJct.Point, GseVsRoceJct.Result> smallJctPlan() {
        return new GseVsRoceJct(1.5).sweepPlan(List.of(Collective.ALL_TO_ALL), new long[] {4096}, List.of(RoceOrGse.GSE),
                new long[] {1});
    }

    private static fabriclab.collectives.InNetworkComparison inNetworkComparison() {
        return new fabriclab.collectives.InNetworkComparison(fabriclab.collectives.AllReduceLatency.builder().hostOverheadS(1e-6)
                .switchLatencyS(500e-9).propagationS(50e-9).linkGbps(100).tiers(2).build(), 90e-9, 8, List.of(16.0, 4096.0),
                List.of(0.8, 0.2));
    }

    private static SimulationResult smallSimulationResult() {
        return new SimulationResult(new SimulationResult.RunSummary("roce", 1000, false, 0),
                new SimulationResult.Totals(0, 0, 0, 0, 0, 0, 0),
                new SimulationResult.FabricEvents(0, 0, List.of(), 0, List.of()), List.of(), List.of(), List.of(), Counters.NONE);
    }

    /** HPCC's evaluation at full load over 20 us of FB-Hadoop flows: a few hundred small flows, a run of about a second. */
    private static fabriclab.validation.HpccEvaluation tinyHpccEvaluation() {
        return new fabriclab.validation.HpccEvaluation("fb-hadoop", 1.0, 20_000_000L, 1);
    }

    /** A result of one completed, acknowledged flow. */
    private static SimulationResult oneFlowResult() {
        return new SimulationResult(new SimulationResult.RunSummary("roce", 1000, false, 0),
                new SimulationResult.Totals(0, 0, 0, 0, 0, 0, 0),
                new SimulationResult.FabricEvents(0, 0, List.of(), 0, List.of()), List.of(new SimulationResult.FlowRecord(0, new fabriclab.simulation.config.FlowSpec(0, 1, 1000, 0, 1, 1000), 900, 1000, 0, 0, 0, 0, 0, 0, 900, 0, 0, 0, false, 0, 1000)), List.of(), Counters.NONE);
    }

    /** An HpccComparison runs table made by hand: websearch, one seed, 100 steps at slowdown 1 + step / 100. */
    private static tech.tablesaw.api.Table hpccRunsTable() {
        tech.tablesaw.api.StringColumn fab = tech.tablesaw.api.StringColumn.create("fabric");
        tech.tablesaw.api.StringColumn w = tech.tablesaw.api.StringColumn.create("workload");
        tech.tablesaw.api.LongColumn sd = tech.tablesaw.api.LongColumn.create("seed");
        tech.tablesaw.api.LongColumn window = tech.tablesaw.api.LongColumn.create("window_us");
        tech.tablesaw.api.DoubleColumn from = tech.tablesaw.api.DoubleColumn.create("from_pct");
        tech.tablesaw.api.LongColumn largest = tech.tablesaw.api.LongColumn.create("largest_bytes");
        tech.tablesaw.api.DoubleColumn[] p = {tech.tablesaw.api.DoubleColumn.create("p50"),
            tech.tablesaw.api.DoubleColumn.create("p95"), tech.tablesaw.api.DoubleColumn.create("p99")};
        tech.tablesaw.api.IntColumn runFlows = tech.tablesaw.api.IntColumn.create("run_flows");
        tech.tablesaw.api.IntColumn missing = tech.tablesaw.api.IntColumn.create("not_completed");
        tech.tablesaw.api.LongColumn drops = tech.tablesaw.api.LongColumn.create("drops");
        tech.tablesaw.api.LongColumn timeouts = tech.tablesaw.api.LongColumn.create("timeouts");
        tech.tablesaw.api.DoubleColumn paused = tech.tablesaw.api.DoubleColumn.create("paused_us");
        tech.tablesaw.api.LongColumn cnps = tech.tablesaw.api.LongColumn.create("cnps");
        tech.tablesaw.api.LongColumn cuts = tech.tablesaw.api.LongColumn.create("rate_cuts");
        for (int k = 0; k < 100; k++) {
            fab.append("leaf-spine");
            w.append("websearch");
            sd.append(1);
            window.append(5000);
            from.append(k);
            largest.append(1000L * (k + 1));
            for (tech.tablesaw.api.DoubleColumn c : p) {
                c.append(1 + k / 100.0);
            }
            runFlows.append(10_000);
            missing.append(0);
            drops.append(0);
            timeouts.append(0);
            paused.append(0);
            cnps.append(0);
            cuts.append(0);
        }
        return tech.tablesaw.api.Table.create("runs", fab, w, sd, window, from, largest, p[0], p[1], p[2], runFlows, missing, drops,
                timeouts, paused, cnps, cuts);
    }

    /** A standard workload of a few flows: 16 hosts, load 0.05 over 100 us (a run of milliseconds). */
    private static fabriclab.validation.FctWorkload tinyWorkload() {
        return new fabriclab.validation.FctWorkload("websearch", 0.05, 16, 8, 2, 100_000_000L);
    }

    private static tech.tablesaw.api.Table tinyRunsTable;

    /** The runs table of {@link #tinyWorkload} with DCQCN and seed 1, built once. */
    private static synchronized tech.tablesaw.api.Table tinyRuns() {
        if (tinyRunsTable == null) {
            tinyRunsTable = tinyWorkload().runs(List.of("dcqcn"), List.of(1L));
        }
        return tinyRunsTable.copy();
    }

    private static BadInputContractTest.Call moreBaselines(String id) {
        String leafSpineTopology = "leaf-spine";
        return switch (id) {
            case "fabriclab.experiments.DesignComparison$Point#<init>(Workload,boolean,Design,String,long,long)" ->
                    call(fabriclab.experiments.DesignComparison.Point.class, id, designPoint().workload(), false,
                            fabriclab.experiments.DesignComparison.Design.GSE, "defaults", 4096L, 1L);
            case "fabriclab.experiments.DesignComparison#points(List,long[],long[],boolean)" ->
                    call(fabriclab.experiments.DesignComparison.class, id,
                            List.of(fabriclab.experiments.DesignComparison.Workload.ALL_TO_ALL_000), new long[] {4096},
                            new long[] {1}, false);
            case "fabriclab.experiments.DesignComparison$Result#<init>(Point,boolean,double,double,double,long,long,long,double,double,long,double,long,long,long,long,long,long,long,long,long,long,long,long)" ->
                    call(fabriclab.experiments.DesignComparison.Result.class, id, designPoint(), true, 2.0, 2.0, 1.0, 8L, 8L,
                            8L, 0.0, 1.0, 0L, 0.0, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L, 0L);
            case "fabriclab.experiments.DesignComparison#overGse(List)", "fabriclab.experiments.DesignComparison#table(List)",
                    "fabriclab.experiments.DesignComparison#ranking(List)" ->
                    call(fabriclab.experiments.DesignComparison.class, id, designResults());
            case "fabriclab.experiments.DesignComparison#figure(Table,Workload)" ->
                    call(fabriclab.experiments.DesignComparison.class, id,
                            fabriclab.experiments.DesignComparison.ranking(designResults()),
                            fabriclab.experiments.DesignComparison.Workload.ALL_TO_ALL_000);
            case "fabriclab.experiments.DesignComparison#dataset(List,String)" ->
                    call(fabriclab.experiments.DesignComparison.class, id, designResults(), "notes");
            // the smallest sweep: one GSE run of 4 KiB per rank (well under a second)
            case "fabriclab.experiments.DesignComparison#sweep(List,SweepExecutor,ProgressSink)" ->
                    call(fabriclab.experiments.DesignComparison.class, id, List.of(designPoint()),
                            new fabriclab.sweep.LocalThreads(1), Progress.silent());
            case "fabriclab.experiments.DesignComparison$Task#run(Point)" ->
                    call(new fabriclab.experiments.DesignComparison.Task(), id, designPoint());
            case "fabriclab.scenarios.ScenarioSettings#<init>(String,Fabric,Traffic,Transport,long)" ->
                    call(fabriclab.scenarios.ScenarioSettings.class, id, "permutation",
                            fabriclab.scenarios.ScenarioSettings.Fabric.defaults(),
                            fabriclab.scenarios.ScenarioSettings.Traffic.defaults(),
                            fabriclab.scenarios.ScenarioSettings.Transport.defaults(fabriclab.scenarios.TransportChoice.ROCE), 1L);
            case "fabriclab.scenarios.ScenarioSettings#standard(String,double,long,int,int,int,TransportChoice,long)" ->
                    call(fabriclab.scenarios.ScenarioSettings.class, id, "websearch", 0.05, 100_000_000L, 16, 8, 2,
                            fabriclab.scenarios.TransportChoice.DCQCN, 1L);
            case "fabriclab.scenarios.ScenarioSettings#scenario(GeneratedFlows)" -> call(tinyWorkload().settings("dcqcn", 1L),
                    id, tinyWorkload().settings("dcqcn", 1L).arrivals().generate());
            case "fabriclab.scenarios.ScenarioSettings$Transport#<init>(TransportChoice,ReliableConnection,String,int,Pfc,int,int)" ->
                    call(fabriclab.scenarios.ScenarioSettings.Transport.class, id, fabriclab.scenarios.TransportChoice.ROCE,
                            fabriclab.simulation.transport.ReliableConnection.defaults(), "ecmp", 7,
                            fabriclab.scenarios.ScenarioSettings.Transport.htsimPfc(1064), 1000, 64);
            case "fabriclab.scenarios.ScenarioSettings$Transport#<init>(TransportChoice,ReliableConnection,String,int,Pfc,int,int,long)" ->
                    call(fabriclab.scenarios.ScenarioSettings.Transport.class, id, fabriclab.scenarios.TransportChoice.ROCE,
                            fabriclab.simulation.transport.ReliableConnection.defaults(), "adaptive-flowlet", 7,
                            fabriclab.scenarios.ScenarioSettings.Transport.htsimPfc(1064), 1000, 64, 10_000_000L);
            case "fabriclab.scenarios.ScenarioSettings$Transport#<init>(TransportChoice,ReliableConnection,String,int,Pfc,int,int,UecTransport)" ->
                    call(fabriclab.scenarios.ScenarioSettings.Transport.class, id, fabriclab.scenarios.TransportChoice.UEC,
                            fabriclab.simulation.transport.ReliableConnection.defaults(), "ecmp", 7, null, 1000, 64,
                            fabriclab.simulation.transport.uec.UecTransport.defaults());
            case "fabriclab.scenarios.ScenarioSettings$Transport#<init>(TransportChoice,ReliableConnection,String,int,Pfc,int,int,long,UecTransport)" ->
                    call(fabriclab.scenarios.ScenarioSettings.Transport.class, id, fabriclab.scenarios.TransportChoice.UEC,
                            fabriclab.simulation.transport.ReliableConnection.defaults(), "ecmp", 7, null, 1000, 64, 10_000_000L,
                            fabriclab.simulation.transport.uec.UecTransport.defaults());
            case "fabriclab.simulation.transport.uec.EntropySpraying#named(String)" ->
                    call(fabriclab.simulation.transport.uec.EntropySpraying.class, id, "reps");
            case "fabriclab.simulation.transport.uec.Rccc#named(String)" ->
                    call(fabriclab.simulation.transport.uec.Rccc.class, id, "on");
            case "fabriclab.experiments.GseVsRoceTransports#dataset(Table,long,int,String)" ->
                    call(fabriclab.experiments.GseVsRoceTransports.class, id,
                            tech.tablesaw.api.Table.create("t", tech.tablesaw.api.StringColumn.create("transport")), 1L << 20, 3,
                            "a test");
            case "fabriclab.experiments.GseVsRoceTransports#points(GseVsRoceTestbed,List,Algorithm,double,long,long[])" ->
                    call(fabriclab.experiments.GseVsRoceTransports.class, id,
                            fabriclab.experiments.GseVsRoceTestbed.documentedDefaults(),
                            fabriclab.experiments.GseVsRoceTransports.TRANSPORTS,
                            fabriclab.experiments.testbed.Duan2024Testbed.Algorithm.ALL_TO_ALL_AT_ONCE, 1.5, 1L << 20, new long[] {1});
            case "fabriclab.validation.HpccComparison#evaluationsOver(List,double,List,long)" ->
                    call(fabriclab.validation.HpccComparison.class, id, List.of("websearch"), 0.3, List.of(1L), 1_000_000_000L);
            case "fabriclab.scenarios.TransportChoice#named(String)" ->
                    call(fabriclab.scenarios.TransportChoice.class, id, "gse");
            case "fabriclab.validation.FctWorkload#<init>(String,double,int,int,int,long)" ->
                    call(fabriclab.validation.FctWorkload.class, id, "websearch", 0.3, 16, 8, 2, 1_000_000_000L);
            case "fabriclab.validation.FctWorkload#small(String,double)" ->
                    call(fabriclab.validation.FctWorkload.class, id, "websearch", 0.3);
            case "fabriclab.validation.FctWorkload#args(String,long)",
                    "fabriclab.validation.FctWorkload#settings(String,long)",
                    "fabriclab.validation.FctWorkload#run(String,long)",
                    "fabriclab.validation.FctWorkload#runFigures(String,long)" -> call(tinyWorkload(), id, "dcqcn", 1L);
            case "fabriclab.validation.FctWorkload#runs(List,List)" -> call(tinyWorkload(), id, List.of("dcqcn"), List.of(1L));
            case "fabriclab.validation.FctWorkload#spread(Table,String)",
                    "fabriclab.validation.FctWorkload#chart(Table,String)" ->
                    call(fabriclab.validation.FctWorkload.class, id, tinyRuns(), "p50");
            case "fabriclab.validation.FctWorkload#completion(Table)" ->
                    call(fabriclab.validation.FctWorkload.class, id, tinyRuns());
            case "fabriclab.validation.HpccEvaluation#<init>(String,double,long,long)" ->
                    call(fabriclab.validation.HpccEvaluation.class, id, "websearch", 0.3, 1_000_000_000L, 1L);
            case "fabriclab.validation.HpccEvaluation#forSteps(String,double,int,long)" ->
                    call(fabriclab.validation.HpccEvaluation.class, id, "websearch", 0.3, 1, 1L);
            case "fabriclab.validation.HpccEvaluation$Result#<init>(SimulationResult,long[],long[])" ->
                    call(fabriclab.validation.HpccEvaluation.Result.class, id, smallSimulationResult(), new long[0], new long[0]);
            case "fabriclab.validation.HpccEvaluation$Result#slowdown(int)" ->
                    call(new fabriclab.validation.HpccEvaluation.Result(oneFlowResult(), new long[] {900}, new long[] {950}), id, 0);
            case "fabriclab.workload.FctSteps#of(long[],double[],int)" ->
                    call(fabriclab.workload.FctSteps.class, id, new long[] {1, 2}, new double[] {1.0, 1.5}, 50);
            case "fabriclab.workload.FctSteps#medianOver(double,double,String)" ->
                    call(fabriclab.workload.FctSteps.of(new long[] {1, 2}, new double[] {1.0, 1.5}, 50), id, 0.0, 100.0, "p50");
            case "fabriclab.workload.FctSteps$Step#percentile(String)" ->
                    call(new fabriclab.workload.FctSteps.Step(0, 50, 10, 3, 1.0, 1.5, 2.0), id, "p95");
            case "fabriclab.validation.HpccComparison#evaluations(List,double,List)" ->
                    call(fabriclab.validation.HpccComparison.class, id, List.of("websearch"), 0.3, List.of(1L));
            case "fabriclab.validation.HpccComparison#evaluations(List,double,List,FabricTopology)" ->
                    call(fabriclab.validation.HpccComparison.class, id, List.of("websearch"), 0.3, List.of(1L),
                            fabriclab.validation.HpccEvaluation.FabricTopology.FAT_TREE);
            case "fabriclab.validation.HpccEvaluation#<init>(String,double,long,long,FabricTopology)" ->
                    call(fabriclab.validation.HpccEvaluation.class, id, "websearch", 0.3, 1_000_000_000L, 1L,
                            fabriclab.validation.HpccEvaluation.FabricTopology.FAT_TREE);
            case "fabriclab.validation.HpccComparison#runs(List,SweepExecutor,ProgressSink)" ->
                    call(fabriclab.validation.HpccComparison.class, id, List.of(tinyHpccEvaluation()),
                            new fabriclab.sweep.LocalThreads(1), Progress.silent());
            case "fabriclab.validation.HpccComparison$Task#run(Point)" ->
                    call(new fabriclab.validation.HpccComparison.Task(), id, new fabriclab.validation.HpccComparison.Point(
                            tinyHpccEvaluation(), fabriclab.validation.HpccScheme.DCQCN_W));
            case "fabriclab.validation.HpccComparison$Result#of(HpccEvaluation)" ->
                    call(fabriclab.validation.HpccComparison.Result.class, id, tinyHpccEvaluation());
            case "fabriclab.validation.HpccComparison$Result#of(HpccEvaluation,HpccScheme)" ->
                    call(fabriclab.validation.HpccComparison.Result.class, id, tinyHpccEvaluation(),
                            fabriclab.validation.HpccScheme.DCTCP);
            case "fabriclab.validation.HpccEvaluation#run(HpccScheme)" ->
                    call(tinyHpccEvaluation(), id, fabriclab.validation.HpccScheme.TIMELY_W);
            case "fabriclab.validation.HpccComparison#runs(List,HpccScheme,SweepExecutor,ProgressSink)" ->
                    call(fabriclab.validation.HpccComparison.class, id, List.of(tinyHpccEvaluation()),
                            fabriclab.validation.HpccScheme.DCTCP, new fabriclab.sweep.LocalThreads(1), Progress.silent());
            case "fabriclab.validation.HpccComparison$Result#<init>(HpccEvaluation,int,int,long,long,double,long,long,List)" ->
                    call(fabriclab.validation.HpccComparison.Result.class, id, tinyHpccEvaluation(), 10, 0, 0L, 0L, 0.0, 0L, 0L,
                            List.of(new fabriclab.workload.FctSteps.Step(0, 50, 10, 3, 1.0, 1.5, 2.0)));
            case "fabriclab.validation.RdmaReferenceCc#referenceValues(Table,String)" ->
                    call(new fabriclab.validation.RdmaReferenceCc(fabriclab.validation.RdmaReferenceCc.Cc.DCTCP,
                            fabriclab.validation.RdmaReferenceHpcc.Kind.INCAST), id,
                            fabriclab.validation.RdmaReferenceCc.Cc.DCTCP.reference(), "fct_ns");
            case "fabriclab.validation.UetReferenceUec#referenceValues(Table,String)" ->
                    call(new fabriclab.validation.UetReferenceUec("incast4",
                            fabriclab.simulation.transport.uec.EntropySpraying.REPS), id,
                            fabriclab.datasets.Datasets.load("uet-htsim-incast").table(), "nacks");
            case "fabriclab.validation.HtsimAdaptiveRoce#referenceValues(Table,String)" ->
                    call(new fabriclab.validation.HtsimAdaptiveRoce("incast8", "ecmp"), id,
                            fabriclab.validation.HtsimAdaptiveRoce.reference(), "fct_mean_ns");
            case "fabriclab.validation.HtsimCc#referenceValues(Table,String,String)" ->
                    call(new fabriclab.validation.HtsimCc("incast8"), id, fabriclab.validation.HtsimCc.reference(), "hpcc",
                            "fct_mean_ns");
            case "fabriclab.validation.HtsimCc#<init>(String)" -> call(fabriclab.validation.HtsimCc.class, id, "incast8");
            case "fabriclab.validation.HtsimCc#knownMiss(String)" ->
                    call(new fabriclab.validation.HtsimCc("incast8"), id, "mean FCT");
            case "fabriclab.validation.HtsimCc#knownMiss(String,String)" ->
                    call(new fabriclab.validation.HtsimCc("incast8"), id, "dctcp", "mean FCT");
            case "fabriclab.validation.HtsimCc#driverTable(String,int)" ->
                    call(fabriclab.validation.HtsimCc.class, id, "dctcp", 1);
            case "fabriclab.validation.HtsimCc#scenario(long)", "fabriclab.validation.HtsimCc#flows(long)",
                    "fabriclab.validation.HtsimCc#dctcpScenario(long)" ->
                    call(new fabriclab.validation.HtsimCc("incast8"), id, 1L);
            case "fabriclab.validation.HtsimCc#swiftScenario(long,double)" ->
                    call(new fabriclab.validation.HtsimCc("incast8"), id, 1L, 15.0);
            case "fabriclab.validation.HtsimAdaptiveRoce#<init>(String,String)" ->
                    call(fabriclab.validation.HtsimAdaptiveRoce.class, id, "incast8", "ecmp");
            case "fabriclab.validation.HtsimAdaptiveRoce#knownMiss(String)" ->
                    call(new fabriclab.validation.HtsimAdaptiveRoce("incast8", "ecmp"), id, "mean FCT");
            case "fabriclab.validation.HtsimAdaptiveRoce#scenario(long)",
                    "fabriclab.validation.HtsimAdaptiveRoce#flows(long)",
                    "fabriclab.validation.HtsimAdaptiveRoce#forwarding(long)" ->
                    call(new fabriclab.validation.HtsimAdaptiveRoce("incast8", "ecmp"), id, 1L);
            case "fabriclab.validation.UetReferenceUec#<init>(String,EntropySpraying)" ->
                    call(fabriclab.validation.UetReferenceUec.class, id, "incast4",
                            fabriclab.simulation.transport.uec.EntropySpraying.REPS);
            case "fabriclab.validation.UetReferenceUec#knownMiss(String)" ->
                    call(new fabriclab.validation.UetReferenceUec("incast4",
                            fabriclab.simulation.transport.uec.EntropySpraying.REPS), id, "mean FCT");
            case "fabriclab.validation.UetReferenceUec#scenario(long)" ->
                    call(new fabriclab.validation.UetReferenceUec("incast4",
                            fabriclab.simulation.transport.uec.EntropySpraying.REPS), id, 1L);
            case "fabriclab.validation.RdmaReferenceTieRule#referenceRun(Table,int)" ->
                    call(fabriclab.validation.RdmaReferenceTieRule.class, id, fabriclab.datasets.Datasets.load(
                            fabriclab.validation.RdmaReferenceTieRule.dataset("rdma-ns3-gbn-linkdown")).table(), 1);
            case "fabriclab.validation.RdmaReferenceTieRule#overDraws(List)" ->
                    call(fabriclab.validation.RdmaReferenceTieRule.class, id, List.of(List.of(new fabriclab.datasets.ComparisonRow(
                            "outside reference", "q", "us", fabriclab.datasets.ComparisonKind.VALIDATION, "outside reference", true,
                            fabriclab.datasets.Target.point(1.0, 0.1), 1.0, ""))));
            case "fabriclab.validation.RdmaReferenceHpcc#tieRuleReferenceFctsUs(Table,int)" ->
                    call(new fabriclab.validation.RdmaReferenceHpcc(fabriclab.validation.RdmaReferenceHpcc.Kind.INCAST), id,
                            fabriclab.validation.RdmaReferenceHpcc.tieRuleReference(), 1);
            case "fabriclab.validation.RdmaReferenceHpcc#tieRuleRows(List,Table)" ->
                    call(new fabriclab.validation.RdmaReferenceHpcc(fabriclab.validation.RdmaReferenceHpcc.Kind.INCAST), id,
                            java.util.Collections.nCopies(fabriclab.validation.RdmaReferenceHpcc.TIE_SEEDS, new double[] {650.0, 700.0}),
                            fabriclab.validation.RdmaReferenceHpcc.tieRuleReference());
            case "fabriclab.validation.RdmaReferenceHpcc#referenceValues(Table,String)" ->
                    call(new fabriclab.validation.RdmaReferenceHpcc(fabriclab.validation.RdmaReferenceHpcc.Kind.INCAST), id,
                            fabriclab.validation.RdmaReferenceHpcc.reference(), "fct_ns");
            case "fabriclab.validation.HpccComparison#runSummary(Table)" ->
                    call(fabriclab.validation.HpccComparison.class, id, hpccRunsTable());
            case "fabriclab.validation.HpccComparison#onFabric(Table,FabricTopology)" ->
                    call(fabriclab.validation.HpccComparison.class, id, hpccRunsTable(),
                            fabriclab.validation.HpccEvaluation.FabricTopology.LEAF_SPINE);
            case "fabriclab.validation.HpccComparison#tenths(Table,Table,double)" ->
                    call(fabriclab.validation.HpccComparison.class, id, hpccRunsTable(), fabriclab.validation.HpccComparison.published(), 0.01);
            case "fabriclab.validation.HpccComparison#readingUncertainty(Table)" ->
                    call(fabriclab.validation.HpccComparison.class, id, fabriclab.validation.HpccComparison.published());
            case "fabriclab.validation.HpccComparison#chart(Table,Table,String,String)" ->
                    call(fabriclab.validation.HpccComparison.class, id, hpccRunsTable(), fabriclab.validation.HpccComparison.published(),
                            "websearch", "p95");
            case "fabriclab.validation.HpccComparison#addTo(PaperComparison,Table)" ->
                    call(fabriclab.validation.HpccComparison.class, id, fabriclab.notebook.PaperComparison.of("t", "outside reference"),
                            fabriclab.validation.HpccComparison.tenths(hpccRunsTable(), fabriclab.validation.HpccComparison.published(), 0.01));
            case "fabriclab.validation.HpccComparison#runSummary(Table,HpccScheme)" ->
                    call(fabriclab.validation.HpccComparison.class, id, hpccRunsTable(), fabriclab.validation.HpccScheme.DCTCP);
            case "fabriclab.validation.HpccComparison#tenths(Table,Table,double,HpccScheme)" ->
                    call(fabriclab.validation.HpccComparison.class, id, hpccRunsTable(), fabriclab.validation.HpccComparison.published(),
                            0.01, fabriclab.validation.HpccScheme.TIMELY_W);
            case "fabriclab.validation.HpccComparison#chart(Table,Table,String,String,HpccScheme)" ->
                    call(fabriclab.validation.HpccComparison.class, id, hpccRunsTable(), fabriclab.validation.HpccComparison.published(),
                            "websearch", "p95", fabriclab.validation.HpccScheme.DCTCP);
            case "fabriclab.validation.HpccComparison#addTo(PaperComparison,Table,HpccScheme)" ->
                    call(fabriclab.validation.HpccComparison.class, id, fabriclab.notebook.PaperComparison.of("t", "outside reference"),
                            fabriclab.validation.HpccComparison.tenths(hpccRunsTable(), fabriclab.validation.HpccComparison.published(), 0.01,
                                    fabriclab.validation.HpccScheme.DCTCP), fabriclab.validation.HpccScheme.DCTCP);
            // mutually constrained parameters: failed uplinks are link indices after the host links
            case "fabriclab.collectives.LeafSpineBound#<init>(LeafSpine,int[])" ->
                    call(fabriclab.collectives.LeafSpineBound.class, id, smallLeafSpine(), new int[] {8});
            case "fabriclab.collectives.LeafSpineBound#ringSteps(int[][],int,double)" ->
                    call(fabriclab.collectives.LeafSpineBound.class, id, new int[][] {{0, 4}, {1, 5}}, 3, 1e6);
            case "fabriclab.collectives.LeafSpineBound#seconds(List,Routing,long,int)" ->
                    call(new fabriclab.collectives.LeafSpineBound(smallLeafSpine(), new int[] {8}), id,
                            fabriclab.collectives.LeafSpineBound.ringSteps(new int[][] {{0, 4}, {1, 5}}, 3, 1e6),
                            fabriclab.collectives.LeafSpineBound.Routing.ECMP, 1L, 4);
            // an incast whose receiver rate is the port's line rate
            case "fabriclab.congestion.DcqcnFluidModel#incast(DcqcnParameters,Bottleneck,Incast)" ->
                    call(DcqcnFluidModel.class, id, DcqcnParameters.zhu2015(), Bottleneck.of(40e9), incast40g());
            case "fabriclab.congestion.EcnThresholdTuning#incast(DcqcnParameters,Bottleneck,Incast,double,double,double)" ->
                    call(EcnThresholdTuning.class, id, DcqcnParameters.zhu2015(), Bottleneck.of(40e9), incast40g(), 1e-4, 1e-6, 10.0);
            case "fabriclab.congestion.RttFluidModel#incast(RttControlParameters,Bottleneck,Incast)" ->
                    call(RttFluidModel.class, id, RttControlParameters.ctcc(), Bottleneck.of(40e9), incast40g());
            case "fabriclab.scheduling.DgsqSimulator#run(Incast,long)" ->
                    call(new fabriclab.scheduling.DgsqSimulator(dgsq40g()), id, incast40g(), 1L);
            case "fabriclab.scheduling.IncastBounds#grantCompletionBoundS(DgsqConfig,Incast)",
                    "fabriclab.scheduling.IncastBounds#grantEgressBacklogBytes(DgsqConfig,Incast)" ->
                    call(fabriclab.scheduling.IncastBounds.class, id, dgsq40g(), incast40g());
            case "fabriclab.congestion.FluidRun#<init>(Table,FluidMetrics)" -> {
                fabriclab.congestion.FluidRun run = DcqcnFluidModel.of(DcqcnParameters.zhu2015(), Bottleneck.of(40e9), 4)
                        .simulate(1e-4, 1e-6, 1e-5, Progress.silent());
                yield call(fabriclab.congestion.FluidRun.class, id, run.trajectory(), run.metrics());
            }
            // a cutter of the right type: one unit per packet
            case "fabriclab.container.Spraying#monteCarlo(PacketSizes,int,Function,int,PathPolicy,double[],int,long,ProgressSink)" ->
                    call(fabriclab.container.Spraying.class, id, fabriclab.container.PacketSizes.uniform(64, 1500), 100,
                            (Function<int[], long[]>) pk -> java.util.Arrays.stream(pk).asLongStream().toArray(), 4,
                            fabriclab.container.PathPolicy.values()[0], null, 10, 1L, Progress.silent());
            // the 000 experiment's fabric (32 hosts) and schedules
            case "fabriclab.experiments.EcmpFluidJct#<init>(LeafSpine,int[][],int,boolean)" ->
                    call(fabriclab.experiments.EcmpFluidJct.class, id, smallLeafSpine(), new int[][] {{0, 4}, {1, 5}}, 1, false);
            case "fabriclab.experiments.EcmpFluidJct#duan2024(LeafSpine,int,boolean)" ->
                    call(fabriclab.experiments.EcmpFluidJct.class, id, new GseVsRoceJct(1.5).fabric(), 1, false);
            case "fabriclab.experiments.EcmpFluidJct#run(IntFunction,long)" ->
                    call(new fabriclab.experiments.EcmpFluidJct(smallLeafSpine(), new int[][] {{0, 4}, {1, 5}}, 1, false), id,
                            (IntFunction<fabriclab.collectives.CollectiveSchedule>) n -> fabriclab.collectives.CollectiveSchedule.of(
                                    Collective.ALL_TO_ALL, n, 1 << 20), 1L);
            case "fabriclab.experiments.EcmpFluidJct#worstCaseRouting(IntFunction)" ->
                    call(new fabriclab.experiments.EcmpFluidJct(smallLeafSpine(), new int[][] {{0, 4}, {1, 5}}, 1, false), id,
                            (IntFunction<fabriclab.collectives.CollectiveSchedule>) n -> fabriclab.collectives.CollectiveSchedule.of(
                                    Collective.ALL_TO_ALL, n, 1 << 20));
            // one row of 000's fluid readings: a reading per kind of uplinks
            case "fabriclab.experiments.EcmpFluidJct#duan2024Table(String,List)" ->
                    call(fabriclab.experiments.EcmpFluidJct.class, id, "fluid", List.of(
                            new fabriclab.experiments.EcmpFluidJct.Duan2024Reading(Duan2024Testbed.Algorithm.ALL_TO_ALL_AT_ONCE, 1.5,
                                    Duan2024Testbed.Uplinks.SINGLE_400G, 1.5, 2.0),
                            new fabriclab.experiments.EcmpFluidJct.Duan2024Reading(Duan2024Testbed.Algorithm.ALL_TO_ALL_AT_ONCE, 1.5,
                                    Duan2024Testbed.Uplinks.BREAKOUT_4X100G, 1.5, 8.0)));
            case "fabriclab.experiments.GseVsRoceJct#publishedBand(Dataset,Collective)" ->
                    call(GseVsRoceJct.class, id, fabriclab.datasets.Datasets.load(GseVsRoceJct.PUBLISHED), Collective.ALL_TO_ALL);
            // an incast whose PFC headroom covers the pause response and whose grants run at the receiver's rate
            case "fabriclab.experiments.IncastDegreeSweep#<init>(Incast,Pfc,double,DgsqConfig)" ->
                    call(fabriclab.experiments.IncastDegreeSweep.class, id, incast40g(), new fabriclab.fabric.Pfc(20_000, 15_000,
                            30_000, fabriclab.fabric.Pfc.MAX_QUANTA), 1e-6, dgsq40g());
            case "fabriclab.experiments.IncastDegreeSweep#pfcSimulator(int)" -> call(incastDegreeSweep(), id, 4);
            case "fabriclab.experiments.IncastDegreeSweep#run(int,long)" -> call(incastDegreeSweep(), id, 4, 1L);
            // a small incast (2 x 2 QPs, 50 us): the paper's 7 x 1000 QPs take seconds, past the fuzzer's 3 s on a busy machine
            case "fabriclab.experiments.IncastDcqcnVsCtcc#seedRuns(TransportModel,boolean,long[],int,ProgressSink)" ->
                    call(new fabriclab.experiments.IncastDcqcnVsCtcc(2, 2, 100_000_000_000L, 50_000_000L, 20_000_000L, 1000), id,
                            fabriclab.simulation.transport.roce.RoceTransport.noCongestionControl(), true, new long[] {1}, 1,
                            Progress.silent());
            case "fabriclab.experiments.IncastDcqcnVsCtcc#run(TransportModel,boolean,long,ProgressSink)" ->
                    call(new fabriclab.experiments.IncastDcqcnVsCtcc(2, 2, 100_000_000_000L, 50_000_000L, 20_000_000L, 1000), id,
                            fabriclab.simulation.transport.roce.RoceTransport.noCongestionControl(), true, 1L, Progress.silent());
            case "fabriclab.experiments.IncastDcqcnVsCtcc#ctccSweep(List,long,int,ProgressSink)" ->
                    call(new fabriclab.experiments.IncastDcqcnVsCtcc(2, 2, 100_000_000_000L, 50_000_000L, 20_000_000L, 1000), id,
                            List.of(fabriclab.experiments.IncastDcqcnVsCtcc.ctccStartupSettings().get(0)), 1L, 1, Progress.silent());
            // 003's OpenFOAM ratio on 8 nodes, 80% 16 B / 20% 4 KB (notebook 12)
            case "fabriclab.collectives.InNetworkComparison#<init>(AllReduceLatency,double,int,List,List)" ->
                    call(fabriclab.collectives.InNetworkComparison.class, id, inNetworkComparison().ethernet(), 90e-9, 8,
                            List.of(16.0, 4096.0), List.of(0.8, 0.2));
            case "fabriclab.collectives.InNetworkComparison#gapOverReduction(double)",
                    "fabriclab.collectives.InNetworkComparison#meanSeconds(double)" -> call(inNetworkComparison(), id, 1e-6);
            case "fabriclab.collectives.InNetworkComparison#hostOverheadsForGapMagnitude(double)" ->
                    call(inNetworkComparison(), id, 0.1);
            case "fabriclab.experiments.IncastDegreeSweep#sweep(int[],long,ProgressSink)" ->
                    call(incastDegreeSweep(), id, new int[] {2, 4}, 1L, Progress.silent());
            // metrics of a run without flows: one group, no JCT yet
            case "fabriclab.experiments.JobMetrics#<init>(double[],int,double,long,long,long,PfcCounters,Counters,long,long)" ->
                    call(fabriclab.experiments.JobMetrics.class, id, new double[] {1, 2}, 0, 1.0, 0L, 0L, 0L,
                            new fabriclab.experiments.JobMetrics.PfcCounters(0, 0, 0, 0), Counters.builder().put(fabriclab.simulation.transport.TransportModel.TIMEOUTS, 1).build(), 1L, 1L);
            case "fabriclab.experiments.JobMetrics#counter(Counter)" ->
                    call(new fabriclab.experiments.JobMetrics(new double[] {1, 2}, 0, 1.0, 0L, 0L, 0L,
                            new fabriclab.experiments.JobMetrics.PfcCounters(0, 0, 0, 0), Counters.builder().put(fabriclab.simulation.transport.TransportModel.TIMEOUTS, 1).build(), 1L, 1L), id,
                            fabriclab.simulation.transport.TransportModel.TIMEOUTS);
            case "fabriclab.experiments.JobMetrics#of(SimulationResult,LeafSpine,Topology,int[],int,int[])" ->
                    call(fabriclab.experiments.JobMetrics.class, id, smallSimulationResult(), smallLeafSpine(), smallLeafSpine().build(),
                            new int[0], 1, new int[0]);
            // sizes of at least 4096 bytes, one run
            case "fabriclab.experiments.GseVsRoceJct#sweep(List,long[],List,long[],int,ProgressSink)" ->
                    call(new GseVsRoceJct(1.5), id, List.of(Collective.ALL_TO_ALL), new long[] {4096}, List.of(RoceOrGse.GSE),
                            new long[] {1}, 1, Progress.silent());
            case "fabriclab.experiments.GseVsRoceJct#sweepPlan(List,long[],List,long[])" ->
                    call(new GseVsRoceJct(1.5), id, List.of(Collective.ALL_TO_ALL), new long[] {4096}, List.of(RoceOrGse.GSE),
                            new long[] {1});
            case "fabriclab.experiments.NamedSweeps#byName(String)" ->
                    call(fabriclab.experiments.NamedSweeps.class, id, fabriclab.experiments.NamedSweeps.JCT_SMOKE);
            case "fabriclab.experiments.NamedSweeps$Named#<init>(String,SweepPlan,Function)" ->
                    call(fabriclab.experiments.NamedSweeps.Named.class, id, "small", smallJctPlan(),
                            (Function<List<GseVsRoceJct.Result>, fabriclab.datasets.Dataset>) runs -> new fabriclab.datasets.Dataset(
                                    GseVsRoceJct.provenance("small", "one run"), GseVsRoceJct.table("small", runs)));
            case "fabriclab.experiments.NamedSweeps$Named#run(SweepExecutor,ProgressSink)" ->
                    call(new fabriclab.experiments.NamedSweeps.Named<>("small", smallJctPlan(),
                            runs -> new fabriclab.datasets.Dataset(GseVsRoceJct.provenance("small", "one run"),
                                    GseVsRoceJct.table("small", runs))), id, new fabriclab.sweep.LocalThreads(1), Progress.silent());
            // Llama2Training: a point of its 32-GPU grid, results from the bound
            case "fabriclab.experiments.Llama2Training#dataset(List,String)" ->
                    call(Llama2Training.class, id, List.of(llamaResult(RoceOrGse.ROCE), llamaResult(RoceOrGse.GSE)), "notes");
            case "fabriclab.experiments.Llama2Training#seedsDataset(Map,String)" ->
                    call(Llama2Training.class, id, Map.of(1L, List.of(llamaResult(RoceOrGse.ROCE), llamaResult(RoceOrGse.GSE))), "notes");
            case "fabriclab.experiments.Llama2Training$SeedSpread#of(Map,Case,Configuration)" ->
                    call(Llama2Training.SeedSpread.class, id, Map.of(1L, List.of(llamaResult(RoceOrGse.ROCE), llamaResult(RoceOrGse.GSE))),
                            llamaPoint(RoceOrGse.ROCE).row(), llamaPoint(RoceOrGse.ROCE));
            case "fabriclab.experiments.Llama2Training#table(String,List)" ->
                    call(Llama2Training.class, id, "t", List.of(llamaResult(RoceOrGse.ROCE), llamaResult(RoceOrGse.GSE)));
            case "fabriclab.experiments.Llama2Training#gains(List)" ->
                    call(Llama2Training.class, id, List.of(llamaResult(RoceOrGse.ROCE), llamaResult(RoceOrGse.GSE)));
            case "fabriclab.experiments.Llama2Training#evaluate(Configuration,CommTimer,Timing)" ->
                    call(Llama2Training.nonBlocking(2), id, llamaPoint(RoceOrGse.ROCE), fabriclab.training.CommTimer.nicBound(200e9),
                            Llama2Training.Timing.BOUND);
            case "fabriclab.experiments.Llama2Training#timeline(Configuration,CommTimer)" ->
                    call(Llama2Training.nonBlocking(2), id, llamaPoint(RoceOrGse.ROCE), fabriclab.training.CommTimer.nicBound(200e9));
            case "fabriclab.experiments.Llama2Training#grid(List,List,double[])" ->
                    call(Llama2Training.class, id, List.of(32), List.of(fabriclab.training.Accelerator.H800), new double[] {0.5});
            case "fabriclab.experiments.Llama2Training#sweep(List,Timing,long,SweepExecutor,ProgressSink)" ->
                    call(Llama2Training.nonBlocking(2), id, List.of(llamaPoint(RoceOrGse.ROCE)), Llama2Training.Timing.BOUND, 1L,
                            new fabriclab.sweep.LocalThreads(1), Progress.silent());
            case "fabriclab.experiments.Llama2Training#sweep(List,Timing,long,int,ProgressSink)" ->
                    call(Llama2Training.nonBlocking(2), id, List.of(llamaPoint(RoceOrGse.ROCE)), Llama2Training.Timing.BOUND, 1L, 1,
                            Progress.silent());
            case "fabriclab.experiments.Llama2Training#sweepPlan(List,Timing,long)" ->
                    call(Llama2Training.nonBlocking(2), id, List.of(llamaPoint(RoceOrGse.ROCE)), Llama2Training.Timing.BOUND, 1L);
            case "fabriclab.experiments.Llama2Training$Gain#<init>(Result,Result)" ->
                    call(Llama2Training.Gain.class, id, llamaResult(RoceOrGse.ROCE), llamaResult(RoceOrGse.GSE));
            case "fabriclab.experiments.Llama2Training$Point#<init>(Llama2Training,Configuration,Timing,long)" ->
                    call(Llama2Training.Point.class, id, Llama2Training.nonBlocking(2), llamaPoint(RoceOrGse.ROCE),
                            Llama2Training.Timing.BOUND, 1L);
            case "fabriclab.experiments.Llama2Training$Task#run(Point)" ->
                    call(new Llama2Training.Task(), id, new Llama2Training.Point(Llama2Training.nonBlocking(2),
                            llamaPoint(RoceOrGse.ROCE), Llama2Training.Timing.BOUND, 1L));
            case "fabriclab.experiments.Llama2Training$Configuration#<init>(Case,RoceOrGse,ParallelLayout,int,Accelerator,double)" ->
                    call(Llama2Training.Configuration.class, id, Llama2Fabric.Case.SINGLE_JOB, RoceOrGse.ROCE, Llama2Training.layouts(32).get(0),
                            32, fabriclab.training.Accelerator.H800, 0.5);
            case "fabriclab.experiments.Llama2Training$Result#<init>(Configuration,Timing,double,double,double,double,double,double)" -> {
                Llama2Training.Result r = llamaResult(RoceOrGse.ROCE);
                yield call(Llama2Training.Result.class, id, r.point(), r.timing(), r.samplesPerSecond(), r.iterationSeconds(),
                        r.computeSeconds(), r.tensorSeconds(), r.dataParallelSeconds(), r.mfu());
            }
            // a topology and the names of its nodes
            case "fabriclab.fabric.Topology#<init>(String,int,int,List,List)" ->
                    call(Topology.class, id, "two hosts", 2, 1, List.of(new fabriclab.fabric.LinkSpec(0, 2, 1000L, 0L),
                            new fabriclab.fabric.LinkSpec(1, 2, 1000L, 0L)), List.of(0));
            case "fabriclab.fabric.Topology#<init>(String,int,int,List,List,List)" ->
                    call(Topology.class, id, "two hosts", 2, 1, List.of(new fabriclab.fabric.LinkSpec(0, 2, 1000L, 0L),
                            new fabriclab.fabric.LinkSpec(1, 2, 1000L, 0L)), List.of(0), List.of("a", "b", "s"));
            case "fabriclab.fabric.Topology#hasLink(String,String)", "fabriclab.fabric.Topology#withoutLink(String,String)" ->
                    call(smallLeafSpine().build(), id, "leaf1", "spine1");
            case "fabriclab.fabric.Topology#withLinkRate(String,String,long)" ->
                    call(smallLeafSpine().build(), id, "leaf1", "spine1", 1000L);
            case "fabriclab.fabric.Topology#nodeIndex(String)", "fabriclab.fabric.Topology#tier(String)" ->
                    call(smallLeafSpine().build(), id, "leaf1");
            case "fabriclab.fabric.Topology$Builder#link(String,String,long,long)" ->
                    call(Topology.builder("t").node("a", fabriclab.fabric.Tier.HOST).node("s", fabriclab.fabric.Tier.LEAF), id,
                            "a", "s", 1000L, 0L);
            case "fabriclab.flowcontrol.BufferDependencyGraph#bounceIndex(Topology,List)" ->
                    call(fabriclab.flowcontrol.BufferDependencyGraph.class, id, smallLeafSpine().build(),
                            List.of("host0", "leaf1", "spine1", "leaf2", "host4"));
            case "fabriclab.flowcontrol.BufferDependencyGraph#build(Topology,List)" ->
                    call(fabriclab.flowcontrol.BufferDependencyGraph.class, id, smallLeafSpine().build(), List.of(routedFlow()));
            case "fabriclab.flowcontrol.BufferDependencyGraph#buildWithHookRemap(Topology,List,int)" ->
                    call(fabriclab.flowcontrol.BufferDependencyGraph.class, id, smallLeafSpine().build(), List.of(routedFlow()), 5);
            case "fabriclab.flowcontrol.BufferDependencyGraph#isHook(Topology,RoutedFlow)" ->
                    call(fabriclab.flowcontrol.BufferDependencyGraph.class, id, smallLeafSpine().build(), routedFlow());
            case "fabriclab.flowcontrol.BufferDependencyGraph#flowsOn(Queue,Queue)" -> {
                var g = fabriclab.flowcontrol.BufferDependencyGraph.build(smallLeafSpine().build(), List.of(routedFlow()));
                yield call(g, id, new fabriclab.flowcontrol.BufferDependencyGraph.Queue("spine1", "leaf1", 3),
                        new fabriclab.flowcontrol.BufferDependencyGraph.Queue("leaf2", "spine1", 3));
            }
            case "fabriclab.flowcontrol.BufferDependencyGraph$Cycle#<init>(List,Set)" ->
                    call(fabriclab.flowcontrol.BufferDependencyGraph.Cycle.class, id,
                            List.of(new fabriclab.flowcontrol.BufferDependencyGraph.Queue("spine1", "leaf1", 3),
                                    new fabriclab.flowcontrol.BufferDependencyGraph.Queue("leaf1", "spine1", 3)), Set.of("f"));
            case "fabriclab.experiments.PfcDeadlockAndRecovery#<init>(Topology,List,long,long,Pfc,PfcWatchdog,long)" -> {
                var d = fabriclab.experiments.PfcDeadlockAndRecovery.defaults();
                yield call(fabriclab.experiments.PfcDeadlockAndRecovery.class, id, d.topology(), d.flows(), d.flowBytes(),
                        d.bufferBytes(), d.pfc(), d.watchdog(), d.timeLimitPs());
            }
            case "fabriclab.experiments.PfcDeadlockAndRecovery#of(Topology,List)" ->
                    call(fabriclab.experiments.PfcDeadlockAndRecovery.class, id,
                            fabriclab.flowcontrol.DeadlockTopologies.huaweiWhitePaperClos(1, 100_000_000_000L, 1_000_000L),
                            fabriclab.experiments.PfcDeadlockAndRecovery.figure19Flows());
            // rates that congest (bottleneck below the incast) and a delay the headroom covers
            case "fabriclab.flowcontrol.PausePropagationSimulator#<init>(int,double,double,double,double,Pfc,double,double)" ->
                    call(fabriclab.flowcontrol.PausePropagationSimulator.class, id, 3, 100e9, 10e9, 100e9, 40e9,
                            new fabriclab.fabric.Pfc(100_000, 80_000, 50_000, fabriclab.fabric.Pfc.MAX_QUANTA), 1e-6, 1e-7);
            case "fabriclab.flowcontrol.PausePropagationSimulator#run(double,int)" ->
                    call(new fabriclab.flowcontrol.PausePropagationSimulator(3, 100e9, 10e9, 100e9, 40e9,
                            new fabriclab.fabric.Pfc(100_000, 80_000, 50_000, fabriclab.fabric.Pfc.MAX_QUANTA), 1e-6, 1e-7), id, 1e-4, 10);
            // strings that must be valid names or numbers
            case "fabriclab.loadbalancing.flow.FiveTuple#ipv4(String)" ->
                    call(fabriclab.loadbalancing.flow.FiveTuple.class, id, "10.0.0.1");
            case "fabriclab.loadbalancing.hash.HashFunction#byName(String)" ->
                    call(fabriclab.loadbalancing.hash.HashFunction.class, id, "crc32");
            case "fabriclab.loadbalancing.hash.Toeplitz#hex(String)" ->
                    call(fabriclab.loadbalancing.hash.Toeplitz.class, id, "6d5a");
            case "fabriclab.loadbalancing.hash.Toeplitz#<init>(byte[],int)" ->
                    call(fabriclab.loadbalancing.hash.Toeplitz.class, id, new byte[16], 12);
            case "fabriclab.loadbalancing.hash.FlowHasher#hash(FiveTuple)" ->
                    call(fabriclab.loadbalancing.hash.HashFunction.CRC32.hasher(1), id,
                            fabriclab.loadbalancing.flow.FiveTuple.roceV2(1, 2, 1000));
            case "fabriclab.loadbalancing.hash.ResilientHashGroup#withMember(int)" ->
                    call(fabriclab.loadbalancing.hash.ResilientHashGroup.create(4, 64).withoutMember(1), id, 1);
            case "fabriclab.progress.Progress#console(PrintStream)" ->
                    call(Progress.class, id, new java.io.PrintStream(java.io.OutputStream.nullOutputStream()));
            case "fabriclab.security.FrameProtection#goodputEfficiency(int[],double[])" ->
                    call(new fabriclab.security.FrameProtection.None(), id, new int[] {64, 1500}, new double[] {0.5, 0.5});
            // result records: the values of a real result
            case "fabriclab.simulation.SimulationResult#<init>(RunSummary,Totals,FabricEvents,List,List,Counters)" ->
                    call(SimulationResult.class, id, new SimulationResult.RunSummary("roce", 1000, false, 0),
                            new SimulationResult.Totals(0, 0, 0, 0, 0, 0, 0), SimulationResult.FabricEvents.none(), List.of(),
                            List.of(), Counters.NONE);
            case "fabriclab.simulation.SimulationResult#<init>(RunSummary,Totals,FabricEvents,List,List,List,Counters)" ->
                    call(SimulationResult.class, id, new SimulationResult.RunSummary("roce", 1000, false, 0),
                            new SimulationResult.Totals(0, 0, 0, 0, 0, 0, 0), SimulationResult.FabricEvents.none(), List.of(),
                            List.of(), List.of(), Counters.NONE);
            case "fabriclab.simulation.SimulationResult#queuePairsOf(int)" ->
                    call(new SimulationResult(new SimulationResult.RunSummary("roce", 1000, false, 0),
                new SimulationResult.Totals(0, 0, 0, 0, 0, 0, 0),
                new SimulationResult.FabricEvents(0, 0, List.of(), 0, List.of()), List.of(new SimulationResult.FlowRecord(0, new fabriclab.simulation.config.FlowSpec(0, 1, 1000, 0, 1, 1000), 900, 1000, 0, 0, 0, 0, 100, 0, 950, 0, 0, 0, false, 0, -1)), List.of(), Counters.NONE), id, 0);
            case "fabriclab.simulation.SimulationResult#completedAtPs(int)" ->
                    call(new SimulationResult(new SimulationResult.RunSummary("roce", 1000, false, 0),
                new SimulationResult.Totals(0, 0, 0, 0, 0, 0, 0),
                new SimulationResult.FabricEvents(0, 0, List.of(), 0, List.of()), List.of(new SimulationResult.FlowRecord(0, new fabriclab.simulation.config.FlowSpec(0, 1, 1000, 0, 1, 1000), 900, 1000, 0, 0, 0, 0, 100, 0, 950, 0, 0, 0, false, 0, -1)), List.of(), Counters.NONE), id, 0);
            case "fabriclab.experiments.PfcDeadlockAndRecovery$Result#<init>(Variant,SimulationResult,long[],int,long,long,long,long,List)" ->
                    call(fabriclab.experiments.PfcDeadlockAndRecovery.Result.class, id,
                            fabriclab.experiments.PfcDeadlockAndRecovery.Variant.values()[0], smallSimulationResult(), new long[] {1, 2},
                            1, 1000L, 0L, 0L, 0L, List.of(new long[] {1, 2}));
            case "fabriclab.experiments.IncastDcqcnVsCtcc$Result#<init>(String,boolean,long,double,double,long,long,double,long[],long,SimulationResult,double,double[],double[])" ->
                    call(fabriclab.experiments.IncastDcqcnVsCtcc.Result.class, id, "roce", true, 1000L, 500.0, 40e9, 0L, 0L, 10.0,
                            new long[] {1, 2}, 1000L, smallSimulationResult(), 2.0, new double[] {10.0}, new double[] {20e9, 20e9});
            case "fabriclab.experiments.IncastDcqcnVsCtcc$Result#smallFlowSenderWaitUs(int,long)" ->
                    call(new fabriclab.experiments.IncastDcqcnVsCtcc.Result("roce", true, 1000L, 500.0, 40e9, 0L, 0L, 10.0,
                            new long[] {1, 2}, 1000L, smallSimulationResult(), 2.0, new double[] {10.0}, new double[] {20e9, 20e9}), id,
                            1000, 40_000_000_000L);
            case "fabriclab.simulation.Scenario#<init>(String,Topology,SimulationConfig,List,List,TransportModel,Pfc,List,DelayModel,List,PfcWatchdog,int,PfcDynamicThreshold,TieOrder)" -> {
                fabriclab.simulation.Scenario sc = fabriclab.experiments.PfcDeadlockAndRecovery.defaults()
                        .scenario(fabriclab.experiments.PfcDeadlockAndRecovery.Variant.PFC);
                yield call(fabriclab.simulation.Scenario.class, id, sc.name(), sc.topology(), sc.config(), sc.flows(), sc.dependencies(),
                        sc.transport(), sc.pfc(), sc.failures(), sc.fabricJitter(), sc.routes(), sc.pfcWatchdog(), sc.hookPriority(),
                        sc.pfcDynamicThreshold(), sc.tieOrder());
            }
            // the layouts of a 32-GPU job: TP 2 x PP 2 x DP 8
            case "fabriclab.training.ParallelLayout#<init>(int,int,int,int,int,int,int)" ->
                    call(fabriclab.training.ParallelLayout.class, id, 32, 8, 2, 2, 8, 1, 4);
            case "fabriclab.training.ParallelLayout#pipelinePairs(int)" ->
                    call(new fabriclab.training.ParallelLayout(32, 8, 2, 2, 8, 1, 4), id, 0);
            case "fabriclab.training.ParallelLayout#<init>(int,int,int,int,int,int,int,Placement)" ->
                    call(fabriclab.training.ParallelLayout.class, id, 32, 8, 2, 2, 8, 1, 4,
                            fabriclab.training.ParallelLayout.Placement.DATA_FIRST);
            case "fabriclab.training.ParallelLayout#withData(int,int)" ->
                    call(new fabriclab.training.ParallelLayout(32, 8, 2, 2, 8, 1, 4), id, 16, 4);
            // Llama2Layouts: pairs of the bound on the 32-GPU grid
            case "fabriclab.experiments.Llama2Layouts#verdict(String,List,Target)" ->
                    call(fabriclab.experiments.Llama2Layouts.class, id, "group", List.of(llamaPair()), llamaTarget());
            case "fabriclab.experiments.Llama2Layouts#nearest(List,Target,int)" ->
                    call(fabriclab.experiments.Llama2Layouts.class, id, List.of(llamaPair()), llamaTarget(), 1);
            case "fabriclab.experiments.Llama2Layouts#table(String,List)" ->
                    call(fabriclab.experiments.Llama2Layouts.class, id, "t", List.of(llamaPair()));
            case "fabriclab.experiments.Llama2Layouts#dataset(Map,String)" ->
                    call(fabriclab.experiments.Llama2Layouts.class, id, Map.of(1L, List.of(llamaPair())), "notes");
            case "fabriclab.experiments.Llama2Layouts#overSeeds(Map,Function)" ->
                    call(fabriclab.experiments.Llama2Layouts.class, id, Map.of(1L, List.of(llamaPair())),
                            (java.util.function.Function<Llama2Fabric.Case, fabriclab.experiments.Llama2Layouts.Target>) c -> llamaTarget());
            case "fabriclab.experiments.Llama2Layouts#singleJobGrid(List,List,List)" ->
                    call(fabriclab.experiments.Llama2Layouts.class, id, List.of(32), List.of(fabriclab.training.Accelerator.H800), List.of(0.5));
            case "fabriclab.experiments.Llama2Layouts$Target#levelMet(Gain)" -> call(llamaTarget(), id, llamaPair());
            case "fabriclab.experiments.Llama2Layouts$Target#gainMet(Gain)" -> call(llamaTarget(), id, llamaPair());
            case "fabriclab.training.CommTimer#seconds(Primitive,int[][],double)" ->
                    call(fabriclab.training.CommTimer.nicBound(200e9), id, fabriclab.training.CommOp.Primitive.values()[0],
                            new int[][] {{0, 1}, {2, 3}}, 1e6);
            case "fabriclab.simulation.event.EventQueue#schedule(long,EventHandler,Object)" ->
                    call(new fabriclab.simulation.event.EventQueue(), id, 1000L,
                            (fabriclab.simulation.event.EventHandler) (t, e) -> { }, "payload");
            case "fabriclab.simulation.Scenario$Builder#collective(CollectiveSchedule,int[],IntSupplier)" ->
                    call(fabriclab.simulation.Scenario.builder(smallLeafSpine().build(),
                                    fabriclab.simulation.config.SimulationConfig.defaults(fabriclab.simulation.config.SwitchBuffer.shared(1_000_000))), id,
                            fabriclab.collectives.CollectiveSchedule.of(fabriclab.collectives.Collective.RING_ALL_REDUCE, 2, 1000),
                            new int[] {0, 1}, (java.util.function.IntSupplier) () -> 50_000);
            case "fabriclab.simulation.event.EventQueue#scheduleKeyed(long,EventHandler,Object,long)" ->
                    call(fabriclab.simulation.event.EventQueue.keyed(16, (timePs, keys, refs, from, n) -> { }, 1L, 1L << 20), id,
                            1000L, (fabriclab.simulation.event.EventHandler) (t, e) -> { }, "payload", 4096L);
            default -> workloadBaselines(id);
        };
    }

    private static fabriclab.flowcontrol.RoutedFlow routedFlow() {
        return new fabriclab.flowcontrol.RoutedFlow("f", List.of("host0", "leaf1", "spine1", "leaf2", "host4"), 3);
    }

    /** A static call of {@code owner}'s entry point {@code id} with fixed arguments. */
    private static BadInputContractTest.Call call(Object ownerOrReceiver, String id, Object... args) {
        Class<?> owner = ownerOrReceiver instanceof Class<?> c ? c : ownerOrReceiver.getClass();
        BadInputContractTest.Recipe receiver = ownerOrReceiver instanceof Class<?> ? null
                : constant(ownerOrReceiver, String.valueOf(ownerOrReceiver));
        List<java.lang.reflect.Executable> candidates = new java.util.ArrayList<>(List.of(owner.getMethods()));
        candidates.addAll(List.of(owner.getConstructors()));
        for (Class<?> i : owner.getInterfaces()) { // a library-made implementation of a public interface
            candidates.addAll(List.of(i.getMethods()));
        }
        for (java.lang.reflect.Executable m : candidates) {
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
