#!/usr/bin/env bash
# Lab test: the same write job with --verify over a local path, SMB, NFS and iSCSI. Each
# run writes check data keyed by offset, reads every block back over the same protocol
# and connection after the clock stops, and must find all of it exactly as written.
set -euo pipefail

# shellcheck source=tests/lab/lab_test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lab_test_lib.sh"
require_lab_tools smbd ganesha.nfsd tgtd python3
lab_up --link none

size=$((24 << 20))
# verified JSON: "WRITTEN VERIFIED" bytes of a finished, complete run.
verified() {
  python3 -c "
import json; r = json.load(open('$1'))['runs'][0]
assert not r['partial'], r.get('error'); assert r['job']['verify'] is True, r['job']
print(r['write']['bytes'], r.get('verified_bytes', 0))"
}
# verify_job NAME TARGET EXTRA...: one random-write job, 64 KiB blocks, 4 in flight.
verify_job() {
  local name="$1" target="$2"; shift 2
  local rc=0
  "$nasperf" run "$target" "$@" --rw randwrite --bs 64k --qd 4 --size "$size" --verify --json --no-store \
    >"$work/$name.json" 2>"$work/$name.err" || rc=$?
  [ "$rc" -eq 0 ] || { echo "$name: exit $rc: $(cat "$work/$name.err")" >&2; return 1; }
  local written checked
  read -r written checked <<<"$(verified "$work/$name.json")"
  echo "$name: wrote $written B, read back and checked $checked B" >&2
  [ "$written" -eq "$size" ] && [ "$checked" -eq "$size" ]
}

local_dir="$work/local"
mkdir -p "$local_dir"
check "local path: every written byte read back as written" verify_job local "$local_dir" --direct
for protocol in $(lab_protocols); do
  url="$(protocol_url "$protocol")"
  mapfile -t args < <(protocol_args "$protocol" "$url")
  check "$protocol: every written byte read back as written" verify_job "$protocol" "$url" "${args[@]}"
done

share_dir="$(lab_json dir)/mnt/ext4"
check "no .nasperf file left on the NAS or in the local path" \
  bash -c "! compgen -G '$share_dir/*/.nasperf-*' >/dev/null && ! compgen -G '$local_dir/.nasperf-*' >/dev/null"

finish verify
