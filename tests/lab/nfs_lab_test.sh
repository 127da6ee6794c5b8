#!/usr/bin/env bash
# Lab test: nasperf measures an NFS export of the emulated NAS (lab/nas-lab) through its
# libnfs engine: writes, reads and queued random reads at a 1 Gbit/s link, leaves no file
# behind, and refuses a missing export (exit 2) or an unreachable server (exit 1) in time.
set -euo pipefail

# shellcheck source=tests/lab/lab_test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lab_test_lib.sh"
require_lab_tools ganesha.nfsd python3
lab_up --link 1g
export_dir="$(python3 -c 'import json,sys; print(json.load(sys.stdin)["dir"])' < <("$lab" status --json))/mnt/ext4/export"


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

# Issue 19's done-when: a vendor's Iometer spec from its .icf (67 % reads, 100 % random,
# 4 KiB and 64 KiB half each, 16 outstanding) on the export, with each size's figures.
spec='Vendor 4K-64K; 67% Read; 100% random'
"$nasperf" run "$url" --iometer "$repo_root/src/jobfile/testdata/several_specs.icf" --spec "$spec" \
  --size 32m --time 3 --json --no-store >"$work/spec.json"
check "the vendor's Iometer spec runs on NFS with each size's reads and writes" python3 -c "
import json; r = json.load(open('$work/spec.json'))['runs'][0]
j = r['job']
assert not r['partial'] and r['name'] == '$spec' and j['engine'] == 'nfs', r
assert j['rw'] == 'randrw' and j['mix_read_pct'] == 67 and j['qd_run'] == 16, j
assert [s['bs'] for s in r['per_size']] == [4096, 65536], r['per_size']
for s in r['per_size']:
    assert s['read']['ios'] > 20 and s['write']['ios'] > 10, s
reads = sum(s['read']['ios'] for s in r['per_size']); writes = sum(s['write']['ios'] for s in r['per_size'])
assert reads == r['read']['ios'] and writes == r['write']['ios'], r
assert 57 <= 100 * reads / (reads + writes) <= 77, (reads, writes)
print('  ', ', '.join(f\"{s['bs'] // 1024}K read {s['read']['mb_per_s']:.1f} write {s['write']['mb_per_s']:.1f} MB/s\" for s in r['per_size']))"

check "no .nasperf file left in the export" bash -c "! compgen -G '$export_dir/.nasperf-*' >/dev/null"

rc=0; "$nasperf" run nfs://198.18.0.2/no-such-export --rw read --size 1m --no-store 2>"$work/err" || rc=$?
check "missing export: exit 2, one line" bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ]"

start=$SECONDS
rc=0; "$nasperf" run nfs://198.18.0.9/bench --rw read --size 1m --no-store 2>"$work/err" || rc=$?
check "unreachable server: exit 1 within 15 s ($((SECONDS - start)) s)" bash -c "[ $rc -eq 1 ] && [ $((SECONDS - start)) -le 15 ]"

rc=0; "$nasperf" run "nfs://user:secret@198.18.0.2/bench" --size 1m --no-store 2>"$work/err" || rc=$?
check "a password in the URL: exit 2, not echoed" bash -c "[ $rc -eq 2 ] && ! grep -q secret '$work/err'"

finish NFS
