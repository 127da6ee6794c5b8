#!/usr/bin/env bash
# Lab test: nasperf measures an iSCSI LUN of the emulated NAS (lab/nas-lab) through its
# libiscsi engine: writes only with --allow-destructive naming the LUN, reads and queued
# random reads at a 1 Gbit/s link, nothing past the LUN's end, and refuses an unknown
# target (exit 2) or an unreachable portal (exit 1) in time; a CHAP target logs in with
# the right user and password and refuses a wrong or missing one (exit 2, one line).
set -euo pipefail

# shellcheck source=tests/lab/lab_test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lab_test_lib.sh"
require_lab_tools tgtd python3
lab_up --link 1g
url="$(python3 -c 'import json,sys; print(json.load(sys.stdin)["iscsi"])' < <("$lab" status --json))"



rc=0; "$nasperf" run "$url" --rw write --size 16m --no-store 2>"$work/err" || rc=$?
check "write without --allow-destructive: exit 2, naming the flag" bash -c "[ $rc -eq 2 ] && grep -q -- --allow-destructive '$work/err'"

"$nasperf" run "$url" --allow-destructive "$url" --rw write --bs 1m --qd 4 --size 96m --json --no-store >"$work/write.json"
write="$(mb_per_s "$work/write.json" write)"
check "sequential write over iSCSI at 1 Gbit/s: $write MB/s, within 60..125" between "$write" 60 125
check "the run names the iscsi engine" python3 -c "
import json; r = json.load(open('$work/write.json'))['runs'][0]
assert r['job']['engine'] == 'iscsi', r['job']; assert r['target'] == '$url', r['target']"

"$nasperf" run "$url" --rw read --bs 1m --qd 4 --size 96m --json --no-store >"$work/read.json"
read="$(mb_per_s "$work/read.json" read)"
check "sequential read over iSCSI at 1 Gbit/s: $read MB/s, within 60..125" between "$read" 60 125

"$nasperf" run "$url" --rw randread --bs 4k --qd 16 --size 32m --time 3 --json --no-store >"$work/rand.json"
check "random 4 KiB reads at queue depth 16 complete" python3 -c "
import json; r = json.load(open('$work/rand.json'))['runs'][0]
assert not r['partial'] and r['read']['ios'] > 100, r"

rc=0; "$nasperf" run "$url" --rw read --size 1g --no-store 2>"$work/err" || rc=$?
check "a size past the LUN's end: exit 2" bash -c "[ $rc -eq 2 ] && grep -q 'past the end' '$work/err'"

rc=0; "$nasperf" run iscsi://198.18.0.2/iqn.2026-11.lab.nasperf:nosuch/1 --rw read --size 1m --no-store 2>"$work/err" || rc=$?
check "unknown target: exit 2, one line" bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ]"
rc=0; "$nasperf" run iscsi://198.18.0.2/iqn.2026-11.lab.nasperf:lun1/x --rw read --size 1m --no-store 2>/dev/null || rc=$?
check "LUN that is not a number: exit 2" [ "$rc" -eq 2 ]

chap="$(lab_json iscsi_chap)"
password_file="$(lab_json password_file)"
"$nasperf" run "$chap" --password-file "$password_file" --rw read --bs 1m --qd 4 --size 32m --json --no-store \
  >"$work/chap.json"
check "CHAP target: the right user and password read it; the run says CHAP, not the password" python3 -c "
import json; text = open('$work/chap.json').read(); r = json.loads(text)['runs'][0]
assert not r['partial'] and r['read']['bytes'] == 32 << 20, r
assert r['protocol']['options']['authentication'] == 'CHAP (user nasperf)', r['protocol']
assert open('$password_file').read().strip() not in text"
(umask 077; echo wrong-password >"$work/wrong")
rc=0; "$nasperf" run "$chap" --password-file "$work/wrong" --rw read --size 1m --no-store 2>"$work/err" || rc=$?
check "CHAP target, wrong password: exit 2, one line" bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && ! grep -q wrong-password '$work/err'"
rc=0; env -u NASPERF_PASSWORD "$nasperf" run "${chap/nasperf@/}" --rw read --size 1m --no-store 2>"$work/err" || rc=$?
check "CHAP target, no credentials: exit 2, one line" bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ]"

start=$SECONDS
rc=0; "$nasperf" run iscsi://198.18.0.9/iqn.2026-11.lab.nasperf:lun1/1 --rw read --size 1m --no-store 2>"$work/err" || rc=$?
check "unreachable portal: exit 1 within 15 s ($((SECONDS - start)) s)" bash -c "[ $rc -eq 1 ] && [ $((SECONDS - start)) -le 15 ]"

finish iSCSI
