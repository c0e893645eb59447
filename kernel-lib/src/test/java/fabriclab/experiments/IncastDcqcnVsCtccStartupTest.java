package fabriclab.experiments;

import fabriclab.simulation.transport.ctcc.CtccTransport;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import fabriclab.fabric.Time;
import fabriclab.progress.Progress;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CTCC's unstated start-up parameters in the 001 incast. */
class IncastDcqcnVsCtccStartupTest {
    /**
     * Queue pairs starting at their fair share still send their first packet at once: each sender's NIC puts
     * its Q first packets out back to back at line rate r, so n senders fill the port at n r for Q MTU / r,
     * and the queue peaks at (n - 1) Q MTU. Here 3 x 100 QPs of 1000-byte packets: 200 KB.
     */
    @Test
    void fairShareStartPeaksAtTheFirstPacketBurst() throws InterruptedException {
        IncastDcqcnVsCtcc e = new IncastDcqcnVsCtcc(3, 100, 100_000_000_000L, 300 * Time.US, 150 * Time.US, 1000);
        IncastDcqcnVsCtcc.CtccSetting fair = new IncastDcqcnVsCtcc.CtccSetting(10e-6, 1.0 / 300, 15e-6);
        IncastDcqcnVsCtcc.CtccSetting line = IncastDcqcnVsCtcc.CtccSetting.defaults();
        List<IncastDcqcnVsCtcc.Result> r = e.ctccSweep(List.of(fair, line), 1, 2, Progress.silent());
        long burst = 2L * 100 * 1000;
        assertTrue(r.get(0).maxQueueBytes() >= burst - 1000 && r.get(0).maxQueueBytes() <= burst * 1.05,
                "peak " + r.get(0).maxQueueBytes() + " vs (n - 1) Q MTU = " + burst);
        assertEquals(0, r.get(0).droppedPackets());
        assertTrue(r.get(1).maxQueueBytes() > 2 * burst, "a line-rate start overshoots further: " + r.get(1).maxQueueBytes());
        // the small flow's latency is its switch queueing plus what it waited at the NIC, plus the wire
        IncastDcqcnVsCtcc.Result f = r.get(0);
        assertTrue(f.smallFlowSwitchQueueUs() >= 0 && f.smallFlowSwitchQueueUs() <= f.smallFlowLatencyUs());
        assertTrue(f.smallFlowSenderWaitUs(1000, 100_000_000_000L) >= -1e-6);
    }

    @Test
    void settings() {
        List<IncastDcqcnVsCtcc.CtccSetting> s = IncastDcqcnVsCtcc.ctccStartupSettings();
        assertEquals(10, s.size());
        assertEquals(IncastDcqcnVsCtcc.CtccSetting.defaults(), s.get(0));
        assertEquals(1.0, s.get(0).transport().initialRateFraction());
        assertEquals(1.0, CtccTransport.of(fabriclab.congestion.RttControlParameters.ctcc()).initialRateFraction());
        assertThrows(IllegalArgumentException.class, () -> new IncastDcqcnVsCtcc.CtccSetting(0, 1, 15e-6));
        assertThrows(IllegalArgumentException.class, () -> new IncastDcqcnVsCtcc.CtccSetting(10e-6, 0, 15e-6));
        assertThrows(IllegalArgumentException.class, () -> new IncastDcqcnVsCtcc.CtccSetting(10e-6, 1.5, 15e-6));
        assertThrows(IllegalArgumentException.class,
                () -> CtccTransport.of(fabriclab.congestion.RttControlParameters.ctcc()).withInitialRateFraction(0));
    }
}
