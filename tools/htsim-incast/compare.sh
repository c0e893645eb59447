#!/usr/bin/env bash
# The 64 x 4 MB RoCE+PFC incast on 65 hosts: CPU seconds (user + system of the whole process, /usr/bin/time) of
# bin/simulate with its class-data sharing archive ("cds"), without it ("nocds", FABRICLAB_SIMULATE_CDS=off), and of
# csg-htsim's htsim_roce on the same flows ("htsim", when its program is given), in interleaved rounds; prints each
# one's median [min..max] and the per-round ratios' medians. Run from anywhere:
#   tools/htsim-incast/compare.sh [ROUNDS] [PATH/TO/htsim_roce]
# With FABRICLAB_OLD_LIB=DIR (the kernelspec lib/ of an earlier build, copied aside) it also times "old": that build
# as bin/simulate ran it before the archive (the same JVM options, no archive).
# The flows come from bin/simulate --flows (one CSV line per flow: source, destination, bytes, start) turned into
# htsim's connection matrix; the fabric is incast65.topo (one leaf of 65 hosts); htsim's options mirror bin/simulate's
# incast: 1000 B payload (+ 64 B header in both), PFC XOFF 15 and XON 12 packets, one path, an end past the makespan,
# and output queues of 16,000 packets (16 MB, bin/simulate's shared buffer): with htsim's default of 15 packets the
# receiver's queue, which PFC lets grow to about 64 x 15 packets, prints a "LOSSLESS not working" line per packet
# (256,000 lines, about half again its CPU) without changing a completion time.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
rounds="${1:-10}"
htsim="${2:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$root/bin/simulate" --workload incast --quiet --flows "$work/flows.csv" > "$work/fabriclab.txt"
awk -F, 'NR > 1 { n++; line[n] = $2 "->" $3 " id " n " start " $5 / 1e6 " size " $4 }
  END { print "Nodes 65"; print "Connections " n; for (i = 1; i <= n; i++) print line[i] }' "$work/flows.csv" > "$work/incast65.cm"
names=(cds nocds)
cmds=("\"$root/bin/simulate\" --workload incast --quiet" "FABRICLAB_SIMULATE_CDS=off \"$root/bin/simulate\" --workload incast --quiet")
if [ -n "${FABRICLAB_OLD_LIB:-}" ]; then
  old=$(ls "$FABRICLAB_OLD_LIB"/kernel-lib-*.jar | head -n 1)
  names+=(old)
  cmds+=("java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:+UseTransparentHugePages -XX:-UsePerfData -Djava.awt.headless=true -Dfabriclab.home=\"$root\" -cp \"$old:$FABRICLAB_OLD_LIB/*\" fabriclab.cli.SimulateCommand --workload incast --quiet")
fi
if [ -n "$htsim" ]; then
  names+=(htsim)
  cmds+=("\"$htsim\" -tm \"$work/incast65.cm\" -topo \"$here/incast65.topo\" -nodes 65 -mtu 1000 -q 16000 -pfc_thresholds 12 15 -strat ecmp_host -paths 1 -end 30000 -o \"$work/htsim.log\"")
  (cd "$work" && eval "${cmds[${#cmds[@]}-1]}") > "$work/htsim.txt" 2>&1
  echo "htsim_roce: $(grep -c 'finished at' "$work/htsim.txt") flows finished, the last at $(awk '/finished at/ { t = $6 > t ? $6 : t } END { print t }' "$work/htsim.txt") us; bin/simulate: $(grep '^makespan' "$work/fabriclab.txt")"
fi
load_before=$(cut -d ' ' -f 1-3 /proc/loadavg)
for r in $(seq 1 "$rounds"); do
  for i in "${!names[@]}"; do
    (cd "$work" && /usr/bin/time -f "%U %S" -o "$work/t" bash -c "${cmds[$i]}" > /dev/null 2>&1)
    read -r u s < "$work/t"
    echo "$r ${names[$i]} $u $s" >> "$work/times"
  done
done
echo "load average (1, 5, 15 min) before: $load_before; after: $(cut -d ' ' -f 1-3 /proc/loadavg)"
"${FABRICLAB_PYTHON:-python3}" - "$work/times" "${names[@]}" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
names = sys.argv[2:]
cpu = {n: [float(r[2]) + float(r[3]) for r in rows if r[1] == n] for n in names}
for n in names:
    c = sorted(cpu[n])
    print(f"{n:6s} CPU s median {statistics.median(c):.3f} [{c[0]:.3f}..{c[-1]:.3f}], {len(c)} runs")
for a, b in [("cds", "nocds"), ("cds", "old"), ("cds", "htsim"), ("nocds", "htsim"), ("old", "htsim")]:
    if a in cpu and b in cpu:
        r = sorted(x / y for x, y in zip(cpu[a], cpu[b]))
        print(f"{a}/{b} per round: median {statistics.median(r):.3f} [{r[0]:.3f}..{r[-1]:.3f}]")
PY
