#!/usr/bin/env bash
# Lab test: nasperf measures an SMB share of the emulated NAS (lab/nas-lab) through
# libsmbclient: writes and reads at a 1 Gbit/s link, the dialect and signing it reports
# agree with what smbd says about the session, no file left behind, and wrong passwords,
# missing shares, unreachable servers and unsafe password files are refused in time.
set -euo pipefail

# shellcheck source=tests/lab/lab_test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lab_test_lib.sh"
require_lab_tools smbd smbstatus python3
lab_up --link 1g
url="$(lab_json smb)"
password_file="$(lab_json password_file)"
share_dir="$(lab_json dir)/mnt/ext4/share"

"$nasperf" run "$url" --password-file "$password_file" --rw write --bs 1m --size 96m --json --no-store >"$work/write.json"
write="$(mb_per_s "$work/write.json" write)"
check "sequential write over SMB at 1 Gbit/s: $write MB/s, within 60..125" between "$write" 60 125
check "the run names the smb engine, the dialect and no password" python3 -c "
import json; r = json.load(open('$work/write.json'))['runs'][0]
assert r['job']['engine'] == 'smb', r['job']; assert r['target'] == '$url', r['target']
p = r['protocol']; assert p['protocol'] == 'SMB' and p['version'] == '3.1.1', p
assert p['options']['signing'].startswith('off'), p
assert '$(cat "$password_file")' not in open('$work/write.json').read()"

# While a read runs, smbd lists the session: its dialect and signing must be what nasperf said.
"$nasperf" run "$url" --password-file "$password_file" --rw read --bs 1m --size 96m --time 4 --json --no-store \
  >"$work/read.json" &
reader=$!
sleep 2.5
ip netns exec nplab-nas smbstatus -s "$(lab_json dir)/smb/smb.conf" -b >"$work/smbstatus.txt" 2>/dev/null || true
wait "$reader"
sed "s/^/smbstatus: /" "$work/smbstatus.txt" | grep -v "^smbstatus: *$" >&2 || true
read="$(mb_per_s "$work/read.json" read)"
check "sequential read over SMB at 1 Gbit/s: $read MB/s, within 60..125" between "$read" 60 125
# smbd's Signing column: "-" or "partial(ALG)" when only the session set-up is signed, the
# bare algorithm when every message is; nasperf reported "off" for data.
check "smbd sees SMB3_11 sessions whose data is not signed, as reported" python3 -c "
rows = [l.split() for l in open('$work/smbstatus.txt') if 'SMB3_11' in l]
assert rows and all(r[-1] == '-' or r[-1].startswith('partial(') for r in rows), rows"

# Two streams: libsmbclient is not thread-safe, so each worker's session runs in a helper
# process of its own; every byte written is read back and checked, and no helper outlives
# the run.
"$nasperf" run "$url" --password-file "$password_file" --threads 2 --rw write --bs 1m --size 32m --verify \
  --json --no-store >"$work/threads.json" 2>"$work/threads.err" || true
check "two SMB streams: 2 x 32 MiB written, all read back as written, one connection each" python3 -c "
import json; r = json.load(open('$work/threads.json'))['runs'][0]
assert not r['partial'], r.get('error'); assert r['job']['threads'] == 2, r['job']
assert r['write']['bytes'] == 2 * 32 * 2**20 and r['verified_bytes'] == 2 * 32 * 2**20, (r['write'], r.get('verified_bytes'))
assert '2 connections' in r['protocol']['options']['client'], r['protocol']"
"$nasperf" run "$url" --password-file "$password_file" --threads 2 --rw read --bs 1m --size 32m --json --no-store \
  >"$work/threads-read.json" 2>>"$work/threads.err" || true
threads_read="$(mb_per_s "$work/threads-read.json" read 2>/dev/null || echo 0)"
check "two SMB streams read at 1 Gbit/s: $threads_read MB/s, within 60..125" between "$threads_read" 60 125
check "no SMB helper process left" bash -c "! ps -eo args | grep -q '^[^ ]*nasperf smb-io-helper'"
[ ! -s "$work/threads.err" ] || sed 's/^/threads: /' "$work/threads.err" >&2

check "no .nasperf file left in the share" bash -c "! compgen -G '$share_dir/.nasperf-*' >/dev/null"

(umask 077; echo wrong-password >"$work/wrong")
rc=0; "$nasperf" run "$url" --password-file "$work/wrong" --size 1m --no-store 2>"$work/err" || rc=$?
check "wrong password: exit 2, one line, no guest fallback" bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q 'access denied' '$work/err'"

rc=0; env -u NASPERF_PASSWORD "$nasperf" run "$url" --size 1m --no-store 2>"$work/err" || rc=$?
check "a user with no password: exit 2, naming --password-file" bash -c "[ $rc -eq 2 ] && grep -q -- --password-file '$work/err'"

rc=0; "$nasperf" run "${url%/bench}/no-such-share" --password-file "$password_file" --size 1m --no-store 2>"$work/err" || rc=$?
check "missing share: exit 2, one line" bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ]"

chmod 644 "$work/wrong"
rc=0; "$nasperf" run "$url" --password-file "$work/wrong" --size 1m --no-store 2>"$work/err" || rc=$?
check "password file readable by others: exit 2, not read" bash -c "[ $rc -eq 2 ] && grep -q 'chmod 600' '$work/err' && ! grep -q wrong-password '$work/err'"

start=$SECONDS
rc=0; "$nasperf" run smb://root@198.18.0.9/bench --password-file "$password_file" --connect-timeout 3s --size 1m --no-store 2>"$work/err" || rc=$?
check "unreachable server: exit 1 within 10 s ($((SECONDS - start)) s)" bash -c "[ $rc -eq 1 ] && [ $((SECONDS - start)) -le 10 ]"

rc=0; "$nasperf" run smb://root:secret@198.18.0.2/bench --size 1m --no-store 2>"$work/err" || rc=$?
check "a password in the URL: exit 2, not echoed" bash -c "[ $rc -eq 2 ] && ! grep -q secret '$work/err'"

finish SMB
