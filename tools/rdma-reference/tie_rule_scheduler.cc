// fabriclab's order of simultaneous events (CanonicalOrder) as an ns-3 scheduler, for HPCC's RDMA model
// (aliyun/ns-3-alibabacloud, ns-3.36.1) run without a change to its sources: built as a shared library and loaded with
// LD_PRELOAD, it registers its type and, when FABRICLAB_TIE_TOPO is set, makes itself the simulator's scheduler
// (GlobalValue SchedulerType; NS_GLOBAL_VALUE cannot name it, as the core library reads that variable before this
// library has registered the type).
//
// The rule, per node and instant: first the packets that arrive through the node's ports, the ports in an order
// drawn from (seed, time in ps, node, lane), the lane being the port's index at the node (links numbered in the order
// of the topology file, as fabriclab numbers a node's ports); then the node's own events (timers, ends of
// transmissions) in scheduling order; then the events scheduled for that same instant while it is handled, in
// scheduling order. An event is an arrival at node v when it is scheduled for context v from another node's context
// (the channel's ScheduleWithContext); its own when scheduled from v's context or outside any.
//
// ns-3's DefaultSimulatorImpl takes an event of the current instant as expired when its uid is at most the uid of the
// event being handled (IsExpired), which holds only when the events of one instant run in uid (scheduling) order.
// Under the rule a pending event of this instant can have a smaller uid than the one being handled, and
// Simulator::Cancel or Remove of it would do nothing: the cancelled event would still run (in the reference, a
// DCQCN timer of a queue pair already completed and freed). So the library also installs a simulator implementation
// (FabriclabTieRuleSimulatorImpl, the default one with IsExpired asking the scheduler whether the event is still
// pending).
//
// Environment: FABRICLAB_TIE_TOPO (the scenario's topology file, the model's format) and FABRICLAB_TIE_SEED (the draw's seed, default 1).
//
// Build (from the reference's simulation/ directory, after its own build):
//   g++ -O2 -std=c++17 -shared -fPIC -I build/include tie_rule_scheduler.cc -o tie_rule_scheduler.so \
//       -L build/lib -lns3.36.1-core
#include "ns3/default-simulator-impl.h"
#include "ns3/event-impl.h"
#include "ns3/global-value.h"
#include "ns3/string.h"
#include "ns3/scheduler.h"
#include "ns3/simulator.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <tuple>
#include <unordered_map>

namespace ns3
{
namespace
{
// fabriclab's CanonicalOrder.draw: 27 bits of SplitMix64's finaliser of
// (node << 12 | lane) * 0x9E3779B97F4A7C15 + time + seed * 0xBF58476D1CE4E5B9, at most 2^27 - 3
uint64_t
TieDraw(uint64_t seed, uint64_t timePs, uint64_t node, uint64_t lane)
{
    uint64_t z = (node << 12 | lane) * 0x9E3779B97F4A7C15ULL + timePs + seed * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z = z ^ (z >> 31);
    uint64_t d = z >> 37;
    uint64_t limit = (1ULL << 27) - 3;
    return d > limit ? limit : d;
}

const uint64_t OWN_LANE = 4095;
const uint64_t OWN_RANK = ((1ULL << 27) - 1) << 12 | OWN_LANE;
const uint64_t NEW_RANK = 1ULL << 40;

// lane[(v << 32) | u]: the index of v's port toward u
std::unordered_map<uint64_t, uint64_t>
ReadLanes()
{
    std::unordered_map<uint64_t, uint64_t> lanes;
    const char* path = std::getenv("FABRICLAB_TIE_TOPO");
    if (path == nullptr)
    {
        std::cerr << "FabriclabTieRuleScheduler: FABRICLAB_TIE_TOPO is not set" << std::endl;
        std::exit(2);
    }
    std::ifstream in(path);
    // the model's topology file (scratch/common.h): node_num gpus_per_server nvswitch_num switch_num link_num gpu_type
    // ngpus_per_node, the NVSwitch ids, the switch ids, then one "src dst rate delay error_rate" line per link
    uint64_t nodes, gpusPerServer, nvswitches, switches, links;
    std::string gpuType;
    uint64_t gpusPerNode;
    if (!(in >> nodes >> gpusPerServer >> nvswitches >> switches >> links >> gpuType >> gpusPerNode))
    {
        std::cerr << "FabriclabTieRuleScheduler: cannot read the topology " << path << std::endl;
        std::exit(2);
    }
    for (uint64_t i = 0; i < nvswitches + switches; i++)
    {
        uint64_t id;
        in >> id;
    }
    std::unordered_map<uint64_t, uint64_t> ports;
    for (uint64_t i = 0; i < links; i++)
    {
        uint64_t a, b;
        std::string rate, delay, error;
        in >> a >> b >> rate >> delay >> error;
        lanes[a << 32 | b] = ports[a]++;
        lanes[b << 32 | a] = ports[b]++;
    }
    return lanes;
}
} // namespace

class FabriclabTieRuleScheduler : public Scheduler
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::FabriclabTieRuleScheduler")
                                .SetParent<Scheduler>()
                                .SetGroupName("Core")
                                .AddConstructor<FabriclabTieRuleScheduler>();
        return tid;
    }

    FabriclabTieRuleScheduler()
        : m_lanes(ReadLanes())
    {
        const char* s = std::getenv("FABRICLAB_TIE_SEED");
        m_seed = s == nullptr ? 1 : std::strtoull(s, nullptr, 10);
        s_active = this;
    }

    ~FabriclabTieRuleScheduler() override
    {
        if (s_active == this)
        {
            s_active = nullptr;
        }
    }

    // the scheduler of the running simulation (one per process), null before it exists and after it is destroyed
    static const FabriclabTieRuleScheduler* Active()
    {
        return s_active;
    }

    // whether the event with this uid is in the queue (not yet run, not removed)
    bool Pending(uint32_t uid) const
    {
        return m_rank.count(uid) > 0;
    }

    void Insert(const Event& ev) override
    {
        uint64_t rank = Rank(ev.key.m_ts, ev.key.m_context, Simulator::GetContext());
        m_events.emplace(std::make_tuple(ev.key.m_ts, rank, ev.key.m_uid), ev);
        m_rank[ev.key.m_uid] = rank;
    }

    bool IsEmpty() const override
    {
        return m_events.empty();
    }

    Event PeekNext() const override
    {
        return m_events.begin()->second;
    }

    Event RemoveNext() override
    {
        Event ev = m_events.begin()->second;
        m_events.erase(m_events.begin());
        m_rank.erase(ev.key.m_uid);
        m_handling = true;
        m_now = ev.key.m_ts;
        return ev;
    }

    void Remove(const Event& ev) override
    {
        auto r = m_rank.find(ev.key.m_uid);
        if (r == m_rank.end())
        {
            return;
        }
        m_events.erase(std::make_tuple(ev.key.m_ts, r->second, ev.key.m_uid));
        m_rank.erase(r);
    }

  private:
    uint64_t Rank(uint64_t ts, uint32_t node, uint32_t from) const
    {
        if (m_handling && ts == m_now)
        {
            return NEW_RANK; // scheduled for the instant being handled: after its pending events
        }
        if (node == from || node == Simulator::NO_CONTEXT || from == Simulator::NO_CONTEXT)
        {
            return OWN_RANK;
        }
        auto l = m_lanes.find(static_cast<uint64_t>(node) << 32 | from);
        if (l == m_lanes.end())
        {
            std::cerr << "FabriclabTieRuleScheduler: no link between node " << node << " and node " << from
                      << " in FABRICLAB_TIE_TOPO" << std::endl;
            std::exit(2);
        }
        uint64_t timePs = static_cast<uint64_t>(TimeStep(ts).GetPicoSeconds());
        return TieDraw(m_seed, timePs, node, l->second) << 12 | l->second;
    }

    std::unordered_map<uint64_t, uint64_t> m_lanes;
    uint64_t m_seed;
    bool m_handling = false;
    uint64_t m_now = 0;
    std::map<std::tuple<uint64_t, uint64_t, uint32_t>, Event> m_events;
    std::unordered_map<uint32_t, uint64_t> m_rank;
    static inline FabriclabTieRuleScheduler* s_active = nullptr;
};

NS_OBJECT_ENSURE_REGISTERED(FabriclabTieRuleScheduler);

// The default simulator implementation with IsExpired true only for events no longer in the scheduler's queue (run,
// removed) or cancelled, whatever their uid (see the header comment).
class FabriclabTieRuleSimulatorImpl : public DefaultSimulatorImpl
{
  public:
    static TypeId GetTypeId()
    {
        static TypeId tid = TypeId("ns3::FabriclabTieRuleSimulatorImpl")
                                .SetParent<DefaultSimulatorImpl>()
                                .SetGroupName("Core")
                                .AddConstructor<FabriclabTieRuleSimulatorImpl>();
        return tid;
    }

    bool IsExpired(const EventId& id) const override
    {
        const FabriclabTieRuleScheduler* scheduler = FabriclabTieRuleScheduler::Active();
        if (scheduler == nullptr || id.GetUid() == EventId::UID::DESTROY)
        {
            return DefaultSimulatorImpl::IsExpired(id);
        }
        return id.PeekEventImpl() == nullptr || id.PeekEventImpl()->IsCancelled() || !scheduler->Pending(id.GetUid());
    }
};

NS_OBJECT_ENSURE_REGISTERED(FabriclabTieRuleSimulatorImpl);

namespace
{
// runs when the library loads, after the core library (a dependency) and before the program's main
struct ChooseScheduler
{
    ChooseScheduler()
    {
        if (std::getenv("FABRICLAB_TIE_TOPO") != nullptr)
        {
            GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::FabriclabTieRuleSimulatorImpl"));
            GlobalValue::Bind("SchedulerType", TypeIdValue(FabriclabTieRuleScheduler::GetTypeId()));
        }
    }
} g_chooseScheduler;
} // namespace
} // namespace ns3
