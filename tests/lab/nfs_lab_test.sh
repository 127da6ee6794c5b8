#!/usr/bin/env bash
# Lab test: nasperf measures an NFS export of the emulated NAS (lab/nas-lab) through its
# libnfs engine: writes, reads and queued random reads at a 1 Gbit/s link, leaves no file
# behind, and refuses a missing export (exit 2) or an unreachable server (exit 1) in time.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
lab="$repo_root/lab/nas-lab"
nasperf="${NASPERF:-$repo_root/build/nasperf}"
work="$(mktemp -d /tmp/nasperf-nfstest.XXXXXX)"
failures=0

skip_or_fail() {
  if [ "${CI:-}" = true ]; then echo "FAIL: $*" >&2; exit 1; fi
  echo "SKIP: $*" >&2; exit 77
}
check() {  # check DESCRIPTION CMD...
  local what="$1"; shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what" >&2; failures=$((failures + 1)); fi
}
cleanup() {
  "$lab" down >/dev/null 2>&1 || true
  rm -rf -- "$work"
}
trap cleanup EXIT

[ "$(id -u)" -eq 0 ] || skip_or_fail "lab tests need root"
command -v ganesha.nfsd >/dev/null 2>&1 || skip_or_fail "nfs-ganesha is not installed (scripts/install-deps)"
[ ! -e /run/nasperf-lab ] || { echo "FAIL: a lab is already up; not touching it" >&2; exit 1; }
"$lab" up --link 1g >/dev/null 2>"$work/up.err" || { cat "$work/up.err" >&2; echo "FAIL: lab up" >&2; exit 1; }
export_dir="$(python3 -c 'import json,sys; print(json.load(sys.stdin)["dir"])' < <("$lab" status --json))/mnt/ext4/export"

# mb_per_s FILE DIRECTION: the direction's MB/s in a nasperf JSON document.
mb_per_s() { python3 -c "import json,sys; r=json.load(open('$1'))['runs'][0]; assert not r['partial'], r.get('error'); print(r['$2']['mb_per_s'])"; }
between() { python3 -c "import sys; v=float('$1'); sys.exit(0 if $2 <= v <= $3 else 1)"; }

url=nfs://198.18.0.2/bench
"$nasperf" run "$url" --rw write --bs 1m --size 96m --json --no-store >"$work/write.json"
write="$(mb_per_s "$work/write.json" write)"
check "sequential write over NFS at 1 Gbit/s: $write MB/s, within 60..125" between "$write" 60 125
check "the run names the nfs engine and the target without secrets" python3 -c "
import json; r = json.load(open('$work/write.json'))['runs'][0]
assert r['job']['engine'] == 'nfs', r['job']; assert r['target'] == '$url', r['target']"

"$nasperf" run "$url" --rw read --bs 1m --size 96m --json --no-store >"$work/read.json"
read="$(mb_per_s "$work/read.json" read)"
check "sequential read over NFS at 1 Gbit/s: $read MB/s, within 60..125" between "$read" 60 125

"$nasperf" run "$url" --rw randread --bs 4k --qd 16 --size 32m --time 3 --json --no-store >"$work/rand.json"
check "random 4 KiB reads at queue depth 16 complete" python3 -c "
import json; r = json.load(open('$work/rand.json'))['runs'][0]
assert not r['partial'] and r['read']['ios'] > 100, r"

check "no .nasperf file left in the export" bash -c "! compgen -G '$export_dir/.nasperf-*' >/dev/null"

rc=0; "$nasperf" run nfs://198.18.0.2/no-such-export --rw read --size 1m --no-store 2>"$work/err" || rc=$?
check "missing export: exit 2, one line" bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ]"

start=$SECONDS
rc=0; "$nasperf" run nfs://198.18.0.9/bench --rw read --size 1m --no-store 2>"$work/err" || rc=$?
check "unreachable server: exit 1 within 15 s ($((SECONDS - start)) s)" bash -c "[ $rc -eq 1 ] && [ $((SECONDS - start)) -le 15 ]"

rc=0; "$nasperf" run "nfs://user:secret@198.18.0.2/bench" --size 1m --no-store 2>"$work/err" || rc=$?
check "a password in the URL: exit 2, not echoed" bash -c "[ $rc -eq 2 ] && ! grep -q secret '$work/err'"

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed" >&2; exit 1; }
echo "all NFS lab checks passed"
