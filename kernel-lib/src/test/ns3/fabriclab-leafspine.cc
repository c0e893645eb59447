// fabriclab's ns-3 side of the differential test Ns3LeafSpineDifferentialTest (kernel-lib/src/test/java/fabriclab/
// simulation). Written for this project against ns-3 3.37 (Debian libns3-dev); compiled and run by the test.
//
// A permutation of line-rate flows on a two-tier leaf-spine, without an IP stack, in the style of
// fabriclab-incast.cc: hosts, leaf switches and spine switches are nodes joined by point-to-point links (one rate
// and one delay everywhere, one link per host-leaf and per leaf-spine pair). Every host hands all the packets of its
// flow to its own device at time 0 (back to back at line rate, no congestion control). Switches forward each packet
// at once (zero processing delay) to the device its flow's path names; every device queue is a drop-tail queue large
// enough never to drop, so the queues are plain FIFO output queues.
//
// Paths: a flow between two hosts of one leaf goes host - leaf - host; any other goes host - leaf - spine - leaf -
// host through one spine, chosen per flow uniformly at random from ns-3's random number generator (a
// UniformRandomVariable, seed and run from the arguments): per-flow ECMP with a hash of ns-3's own, which the test
// compares with fabriclab's CRC-32 hash as distributions over seeds, not flow by flow.
//
// Sizes are wire sizes: each packet is created with (wire - 2) bytes so that, with PPP's 2-byte header, it takes
// `wire` bytes on the link. The first 4 bytes of every packet carry its flow index.
//
// Simultaneous events: with tieOrder 1 a switch hands each arriving packet on through Simulator::ScheduleNow, after
// the events already due at that instant (a transmission's end first, then the arrivals), as fabriclab orders them.
//
// Arguments: leaves hostsPerLeaf spines wireBytes rateBitsPerSecond delayPs bytesPerFlow tieOrder seed run SRC:DST...
// Output (stdout, CSV lines):
//   flow,<id>,<spine or -1>,<lastArrivalPs>,<deliveredPackets>     (one per flow)
//   summary,<lastArrivalPs>,<deliveredPackets>
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/point-to-point-module.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{
std::map<std::pair<uint32_t, uint32_t>, Ptr<NetDevice>> g_next; // (switch node id, flow) -> egress device
std::vector<int64_t> g_lastPs;
std::vector<uint64_t> g_packets;
bool g_departuresFirst = false;

uint32_t
FlowOf(Ptr<const Packet> p)
{
    uint8_t head[4];
    p->CopyData(head, 4);
    uint32_t flow;
    std::memcpy(&flow, head, 4);
    return flow;
}

void
Forward(Ptr<NetDevice> out, Ptr<Packet> copy, uint16_t protocol)
{
    out->Send(copy, out->GetBroadcast(), protocol);
}

void
SwitchReceive(Ptr<NetDevice> in, Ptr<const Packet> p, uint16_t protocol, const Address&, const Address&,
              NetDevice::PacketType)
{
    Ptr<NetDevice> out = g_next.at({in->GetNode()->GetId(), FlowOf(p)});
    if (g_departuresFirst)
    {
        Simulator::ScheduleNow(&Forward, out, p->Copy(), protocol);
    }
    else
    {
        Forward(out, p->Copy(), protocol);
    }
}

void
HostReceive(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&, const Address&, NetDevice::PacketType)
{
    uint32_t flow = FlowOf(p);
    g_lastPs.at(flow) = Simulator::Now().GetPicoSeconds();
    g_packets.at(flow)++;
}

void
SendAll(Ptr<NetDevice> dev, uint32_t flow, uint64_t bytes, uint32_t wire)
{
    std::vector<uint8_t> buf(wire, 0);
    std::memcpy(buf.data(), &flow, 4);
    for (uint64_t left = bytes; left > 0;)
    {
        uint32_t w = left < wire ? static_cast<uint32_t>(left) : wire;
        left -= w;
        dev->Send(Create<Packet>(buf.data(), w - 2), dev->GetBroadcast(), 0x0800);
    }
}
} // namespace

int
main(int argc, char* argv[])
{
    if (argc < 12)
    {
        std::cerr << "usage: " << argv[0]
                  << " leaves hostsPerLeaf spines wireBytes rateBitsPerSecond delayPs bytesPerFlow tieOrder seed run"
                     " SRC:DST..."
                  << std::endl;
        return 2;
    }
    uint32_t leaves = std::strtoul(argv[1], nullptr, 10);
    uint32_t perLeaf = std::strtoul(argv[2], nullptr, 10);
    uint32_t spines = std::strtoul(argv[3], nullptr, 10);
    uint32_t wire = std::strtoul(argv[4], nullptr, 10);
    uint64_t rate = std::strtoull(argv[5], nullptr, 10);
    int64_t delayPs = std::strtoll(argv[6], nullptr, 10);
    uint64_t bytes = std::strtoull(argv[7], nullptr, 10);
    g_departuresFirst = std::strtoul(argv[8], nullptr, 10) == 1;
    uint32_t seed = std::strtoul(argv[9], nullptr, 10);
    uint64_t run = std::strtoull(argv[10], nullptr, 10);
    if (leaves < 1 || perLeaf < 1 || spines < 1 || wire < 8 || bytes % wire != 0 || bytes == 0 || seed == 0)
    {
        std::cerr << "bad arguments: need leaves, hostsPerLeaf, spines >= 1, wire >= 8, bytesPerFlow a positive"
                     " multiple of wire, seed >= 1"
                  << std::endl;
        return 2;
    }
    uint32_t hosts = leaves * perLeaf;
    std::vector<std::pair<uint32_t, uint32_t>> flows;
    for (int i = 11; i < argc; i++)
    {
        char* colon = nullptr;
        uint32_t src = std::strtoul(argv[i], &colon, 10);
        uint32_t dst = std::strtoul(colon + 1, nullptr, 10);
        if (*colon != ':' || src >= hosts || dst >= hosts || src == dst)
        {
            std::cerr << "bad flow " << argv[i] << std::endl;
            return 2;
        }
        flows.emplace_back(src, dst);
    }
    Time::SetResolution(Time::PS);
    RngSeedManager::SetSeed(seed);
    RngSeedManager::SetRun(run);

    NodeContainer hostNodes;
    hostNodes.Create(hosts);
    NodeContainer leafNodes;
    leafNodes.Create(leaves);
    NodeContainer spineNodes;
    spineNodes.Create(spines);

    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("DataRate", DataRateValue(DataRate(rate)));
    p2p.SetDeviceAttribute("Mtu", UintegerValue(65535));
    p2p.SetChannelAttribute("Delay", TimeValue(PicoSeconds(delayPs)));
    p2p.SetQueue("ns3::DropTailQueue<Packet>", "MaxSize", QueueSizeValue(QueueSize("100000000p")));

    std::vector<Ptr<NetDevice>> hostDev(hosts);
    std::vector<Ptr<NetDevice>> leafToHost(hosts);
    for (uint32_t h = 0; h < hosts; h++)
    {
        NetDeviceContainer d = p2p.Install(hostNodes.Get(h), leafNodes.Get(h / perLeaf));
        hostDev[h] = d.Get(0);
        leafToHost[h] = d.Get(1);
    }
    std::vector<std::vector<Ptr<NetDevice>>> leafUp(leaves, std::vector<Ptr<NetDevice>>(spines));
    std::vector<std::vector<Ptr<NetDevice>>> spineDown(spines, std::vector<Ptr<NetDevice>>(leaves));
    for (uint32_t l = 0; l < leaves; l++)
    {
        for (uint32_t s = 0; s < spines; s++)
        {
            NetDeviceContainer d = p2p.Install(leafNodes.Get(l), spineNodes.Get(s));
            leafUp[l][s] = d.Get(0);
            spineDown[s][l] = d.Get(1);
        }
    }
    for (uint32_t l = 0; l < leaves; l++)
    {
        leafNodes.Get(l)->RegisterProtocolHandler(MakeCallback(&SwitchReceive), 0x0800, nullptr);
    }
    for (uint32_t s = 0; s < spines; s++)
    {
        spineNodes.Get(s)->RegisterProtocolHandler(MakeCallback(&SwitchReceive), 0x0800, nullptr);
    }
    for (uint32_t h = 0; h < hosts; h++)
    {
        hostNodes.Get(h)->RegisterProtocolHandler(MakeCallback(&HostReceive), 0x0800, nullptr);
    }

    Ptr<UniformRandomVariable> pick = CreateObject<UniformRandomVariable>();
    std::vector<int32_t> spineOf(flows.size(), -1);
    for (uint32_t f = 0; f < flows.size(); f++)
    {
        uint32_t src = flows[f].first;
        uint32_t dst = flows[f].second;
        uint32_t sl = src / perLeaf;
        uint32_t dl = dst / perLeaf;
        if (sl == dl)
        {
            g_next[{leafNodes.Get(sl)->GetId(), f}] = leafToHost[dst];
        }
        else
        {
            uint32_t s = pick->GetInteger(0, spines - 1);
            spineOf[f] = static_cast<int32_t>(s);
            g_next[{leafNodes.Get(sl)->GetId(), f}] = leafUp[sl][s];
            g_next[{spineNodes.Get(s)->GetId(), f}] = spineDown[s][dl];
            g_next[{leafNodes.Get(dl)->GetId(), f}] = leafToHost[dst];
        }
    }
    g_lastPs.assign(flows.size(), -1);
    g_packets.assign(flows.size(), 0);
    for (uint32_t f = 0; f < flows.size(); f++)
    {
        Simulator::Schedule(Seconds(0), &SendAll, hostDev[flows[f].first], f, bytes, wire);
    }
    Simulator::Run();

    int64_t last = -1;
    uint64_t packets = 0;
    for (uint32_t f = 0; f < flows.size(); f++)
    {
        std::cout << "flow," << f << "," << spineOf[f] << "," << g_lastPs[f] << "," << g_packets[f] << "\n";
        last = std::max(last, g_lastPs[f]);
        packets += g_packets[f];
    }
    std::cout << "summary," << last << "," << packets << "\n";
    Simulator::Destroy();
    return 0;
}
