#!/usr/bin/env bash
# Lab test: a server killed mid-run. For each protocol a 20 s sequential read runs, and
# about 2 s into it the lab's server for that protocol is killed (SIGKILL, by the PID the
# lab recorded). nasperf must exit 1 within the connect timeout (10 s) plus a margin,
# print one error line that names the server, and return the run marked partial with the
# seconds it did measure. (libnfs and libiscsi both reconnect forever by default; a run
# that hangs here is killed by this test and fails it.)
set -euo pipefail

# shellcheck source=tests/lab/lab_test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lab_test_lib.sh"
require_lab_tools ganesha.nfsd tgtd python3
lab_up --link 1g
readonly limit_s=15  # the 10 s connect timeout + 5 s

for protocol in $(lab_protocols); do
  url="$(protocol_url "$protocol")"
  server="$(protocol_server "$protocol")"
  pid="$(lab_server_pid "$server")"
  # 64 MiB: a read lays its file out first (NFS) — about 0.6 s at 1 Gbit/s — so the kill
  # lands in the measured part of the run.
  mapfile -t args < <(protocol_args "$protocol" "$url")
  "$nasperf" run "$url" "${args[@]}" --rw read --bs 1m --qd 4 --size 64m --time 20 --json --no-store \
    >"$work/$protocol.json" 2>"$work/$protocol.err" &
  run_pid=$!
  sleep 2.5
  kill -KILL "$pid"
  killed_ns="$(date +%s%N)"
  while kill -0 "$run_pid" 2>/dev/null && [ $(( ($(date +%s%N) - killed_ns) / 1000000000 )) -lt "$limit_s" ]; do sleep 0.05; done
  hung=0
  if kill -0 "$run_pid" 2>/dev/null; then hung=1; kill -KILL "$run_pid" 2>/dev/null || true; fi
  rc=0; wait "$run_pid" || rc=$?
  took_ms=$(( ($(date +%s%N) - killed_ns) / 1000000 ))
  echo "$protocol: $server (PID $pid) killed; nasperf exited $rc after $took_ms ms: $(cat "$work/$protocol.err")"
  check "$protocol: nasperf ends within $limit_s s of the kill ($took_ms ms)" [ "$hung" -eq 0 ]
  check "$protocol: exit status 1 ($rc)" [ "$rc" -eq 1 ]
  # Warnings printed before the run (a LUN's never-written region) are not errors.
  grep -vE '^(warning|nasperf: note):' "$work/$protocol.err" > "$work/$protocol.errors" || true
  check "$protocol: one error line naming the server 198.18.0.2" \
    bash -c "[ \$(wc -l <'$work/$protocol.errors') -eq 1 ] && grep -q '198\.18\.0\.2' '$work/$protocol.errors'"
  check "$protocol: the run is partial, with the seconds it measured" python3 - "$work/$protocol.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
seconds = r.get("read", {}).get("seconds", 0)
print(f"     partial={r['partial']} read.seconds={seconds:.2f} error={r.get('error')!r}")
assert r["partial"] and r.get("error"), r.get("error")
assert 0.3 <= seconds <= 3.0, seconds  # killed ~2.5 s after start, minus mount and layout
PY
done

finish server-kill
