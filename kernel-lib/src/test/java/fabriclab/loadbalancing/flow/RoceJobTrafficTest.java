package fabriclab.loadbalancing.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class RoceJobTrafficTest {
    @Test
    void jobHasNicsTimesDestinationsTimesQpsRoceFlows() {
        List<FiveTuple> f = RoceJobTraffic.of(4, 3, 2, SourcePortPolicy.SEQUENTIAL).flows(0);
        assertEquals(24, f.size());
        for (FiveTuple t : f) {
            assertEquals(4791, t.destinationPort());
            assertEquals(17, t.protocol());
            assertTrue(t.sourcePort() >= 49152 && t.sourcePort() <= 65535);
        }
        assertEquals("10.0.0.1:49408 -> 10.128.0.1:4791 proto 17", f.get(0).toString()); // QPN 0x100 -> port 0xC100
        assertEquals(0xC101, f.get(1).sourcePort());
        // sequential numbering: every NIC uses the same ports, so only the addresses differ
        assertEquals(f.get(0).sourcePort(), f.get(6).sourcePort());
        assertEquals(24, new HashSet<>(f).size());
    }

    @Test
    void randomPortsAreReproducible() {
        RoceJobTraffic job = RoceJobTraffic.of(8, 2, 4, SourcePortPolicy.RANDOM);
        assertEquals(job.flows(5), job.flows(5));
        assertTrue(!job.flows(5).equals(job.flows(6)));
    }

    @Test
    void addressesParseAndPrint() {
        assertEquals(0x0A000001, FiveTuple.ipv4("10.0.0.1"));
        assertEquals("255.1.2.3", FiveTuple.ipv4Text(FiveTuple.ipv4("255.1.2.3")));
        byte[] b = FiveTuple.roceV2(0x01020304, 0x05060708, 0xC000).bytes();
        assertEquals(13, b.length);
        assertEquals(0x12, b[10] & 0xFF); // 4791 = 0x12B7, network order
        assertEquals(0xB7, b[11] & 0xFF);
        assertEquals(17, b[12]);
    }

    @Test
    void badInputsNameTheParameter() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RoceJobTraffic.of(0, 1, 1, SourcePortPolicy.RANDOM))
                .getMessage().startsWith("sourceNics"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RoceJobTraffic.of(1, 1, 0, SourcePortPolicy.RANDOM))
                .getMessage().startsWith("qpsPerNic"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RoceJobTraffic.of(1, 1, 1, null))
                .getMessage().startsWith("policy"));
    }
}
