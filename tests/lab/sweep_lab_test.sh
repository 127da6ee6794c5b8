#!/usr/bin/env bash
# Lab test: `nasperf sweep` over an SMB share and an NFS export, and on the NAS's agent. The sweep's one test file
# lives on the NAS: each write test starts it afresh, the read tests read what the write
# test left, --nas-ram marks the points the NAS's RAM can cache, and nothing is left on
# the share afterwards.
set -euo pipefail

# shellcheck source=tests/lab/lab_test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lab_test_lib.sh"
require_lab_tools smbd ganesha.nfsd python3
lab_up --link none

# sweep_ok NAME: the sweep's JSON holds 4 sizes x 4 tests, every point complete with its
# full size moved, cached exactly when the file fits the 4 MiB of --nas-ram, the protocol
# recorded, and the summary saying there is no client cache.
sweep_ok() {
  python3 - "$work/$1.json" "$1" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1])); name = sys.argv[2]
runs, sweep = doc["runs"], doc["sweep"]
sizes = [1 << 20, 2 << 20, 4 << 20, 8 << 20]
tests = ["write", "rewrite", "read", "reread"]
assert sweep["sizes_bytes"] == sizes, sweep["sizes_bytes"]
assert [(r["job"]["size"], r["test"]) for r in runs] == [(s, t) for s in sizes for t in tests], \
    [(r["job"]["size"], r["test"]) for r in runs]
for r in runs:
    where = f'{r["test"]} {r["job"]["size"]}'
    assert not r["partial"], (where, r.get("error"))
    direction = "write" if "write" in r["test"] else "read"
    assert r[direction]["bytes"] == r["job"]["size"], (where, r[direction]["bytes"])
    assert r[direction]["mb_per_s"] > 0, where
    assert r["cached"] == (r["job"]["size"] <= 4 << 20), (where, r["cached"])
    assert r["protocol"]["protocol"] == name.upper(), r["protocol"]
assert sweep["ram"]["client_caches"] is False, sweep["ram"]
assert sweep["ram"]["nas_bytes"] == 4 << 20, sweep["ram"]
assert sweep["ram"]["cache_bytes"] == 4 << 20, sweep["ram"]
assert sweep["cache_cleaning"]["drops"] == 0, sweep["cache_cleaning"]
assert "no cache" in sweep["cache_cleaning"]["method"], sweep["cache_cleaning"]
assert not sweep["partial"]
print(f"{name}: {len(runs)} points, read of 8 MiB {runs[-2]['read']['mb_per_s']:.1f} MB/s", file=sys.stderr)
PY
}
for protocol in smb nfs; do
  url="$(protocol_url "$protocol")"
  mapfile -t args < <(protocol_args "$protocol" "$url")
  rc=0
  "$nasperf" sweep "$url" "${args[@]}" --min 1m --max 8m --record 1m --tests write,rewrite,read,reread \
    --nas-ram 4m --json --db "$work/results.db" >"$work/$protocol.json" 2>"$work/$protocol.err" || rc=$?
  check "$protocol: sweep exits 0 ($(head -c 300 "$work/$protocol.err"))" test "$rc" -eq 0
  check "$protocol: every point complete, cached up to --nas-ram, no client cache" sweep_ok "$protocol"
  # The same sweep as a table: the analysis names the NAS's RAM and no client cache.
  "$nasperf" sweep "$url" "${args[@]}" --min 1m --max 4m --record 1m --tests write,read --nas-ram 2m \
    --no-store >"$work/$protocol.txt" 2>&1 || true
  check "$protocol: the table says there is no client cache" grep -q "no client cache, NAS RAM 2 MiB" "$work/$protocol.txt"
done

# The same suite on the NAS's agent (issue 16): `sweep --on` plans and runs every point
# there, in the agent's root on the NAS's ext4, and the client stores each point as it comes.
agent_sweep_ok() {
  python3 - "$work/agent.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
runs, sweep = doc["runs"], doc["sweep"]
assert [(r["job"]["size"], r["test"]) for r in runs] == \
    [(s, t) for s in (1 << 20, 2 << 20, 4 << 20) for t in ("write", "read")], [(r["job"]["size"], r["test"]) for r in runs]
for r in runs:
    assert not r["partial"], r.get("error")
    assert r.get("measured_on") == "nas", r.get("measured_on")
    direction = "write" if r["test"] == "write" else "read"
    assert r[direction]["bytes"] == r["job"]["size"], r[direction]
assert not sweep["partial"] and len(sweep["curves"]) == 2, sweep
print(f"agent: {len(runs)} points, read of 4 MiB {runs[-1]['read']['mb_per_s']:.1f} MB/s", file=sys.stderr)
PY
}
agent_root="$(lab_json dir)/mnt/ext4/agent"
mkdir -p "$agent_root/sweep"
rc=0
"$nasperf" sweep sweep --on "$(lab_json agent)" --token-file "$(lab_json token_file)" --min 1m --max 4m --record 1m \
  --tests write,read --json --db "$work/agent.db" >"$work/agent.json" 2>"$work/agent.err" || rc=$?
check "agent: sweep --on exits 0 ($(head -c 300 "$work/agent.err"))" test "$rc" -eq 0
check "agent: every point ran on the NAS, complete" agent_sweep_ok
check "agent: no .nasperf file left in the agent's root" bash -c "! compgen -G '$agent_root/sweep/.nasperf-*' >/dev/null"

share_dir="$(lab_json dir)/mnt/ext4"
check "no .nasperf file left on the NAS" bash -c "! compgen -G '$share_dir/*/.nasperf-*' >/dev/null"

finish sweep
