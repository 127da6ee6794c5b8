#!/usr/bin/env bash
# Lab test: lab/nas-lab brings the emulated NAS up, its servers answer real clients, the
# link changes on a running lab, and `down` — or a failed `up` at any step — leaves the
# machine as it was. Needs root; under CI=true a lab that cannot start fails the test.
set -euo pipefail

# shellcheck source=tests/lab/lab_test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lab_test_lib.sh"
require_lab_tools smbd ganesha.nfsd rpcbind tgtd smbclient nfs-cp iscsi-readcapacity16 python3

# Nothing of a lab is left: namespace, veth, loop devices, mounts, directories, processes.
nothing_left() {
  ! ip netns list | grep -qw nplab-nas &&
    ! ip link show nplab-h >/dev/null 2>&1 &&
    ! losetup -l -n -O BACK-FILE | grep -q '/tmp/nasperf-lab\.' &&
    ! grep -q '/tmp/nasperf-lab\.' /proc/mounts &&
    ! compgen -G '/tmp/nasperf-lab.*' >/dev/null &&
    [ ! -e /run/nasperf-lab ] && [ ! -e /run/rpcbind.sock ] && [ ! -e /var/run/tgtd/socket.0 ] &&
    ! compgen -G '/sys/fs/cgroup/*/nasperf-lab' >/dev/null &&
    ! pgrep -f '/tmp/nasperf-lab\.' >/dev/null
}

# --- bad input: one line, exit 2, nothing started -------------------------------------
rc=0; "$lab" up --link 2g 2>"$work/err" || rc=$?
check "up --link 2g: exit 2" [ "$rc" -eq 2 ]
check "up --link 2g: one line naming --link" bash -c "[ \$(wc -l <'$work/err') -eq 1 ] && grep -q -- '--link' '$work/err'"
rc=0; "$lab" up --mtu 1400 2>/dev/null || rc=$?
check "up --mtu 1400: exit 2" [ "$rc" -eq 2 ]
for bad in "--nas-mtu 1400" "--nas-cpu 0" "--nas-cpu 20%" "--member-mb 0" "--member-mb 20,x" "--agent-root ext3"; do
  rc=0; # shellcheck disable=SC2086  # the option and its value are two words
  "$lab" up $bad 2>"$work/err" || rc=$?
  check "up $bad: exit 2, one line naming ${bad%% *}" bash -c "[ $rc -eq 2 ] && [ \$(wc -l <'$work/err') -eq 1 ] && grep -q -- '${bad%% *}' '$work/err'"
done
rc=0; "$lab" link --link 1g 2>/dev/null || rc=$?
check "link without a lab: exit 2" [ "$rc" -eq 2 ]
check "status --json without a lab" bash -c "'$lab' status --json | python3 -c 'import json,sys; assert json.load(sys.stdin) == {\"up\": False}'"
check "bad input left nothing" nothing_left

# --- a failed up at every step takes down what it built ---------------------------------
for step in network storage cgroups smbd nfs iscsi; do
  rc=0; NAS_LAB_FAIL_AFTER=$step "$lab" up --link 1g >/dev/null 2>"$work/err" || rc=$?
  check "up failing after $step: exit 1" [ "$rc" -eq 1 ]
  check "up failing after $step: nothing left" nothing_left
done

# --- up, real clients, link change, down -------------------------------------------------
lab_up --link 1g --nas-cpu 50 --member-mb 30,20
"$lab" status --json >"$work/status.json"
read -r iscsi password_file < <(python3 - "$work/status.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["up"] and d["link"] == "1g" and d["mtu"] == 1500, d
for name in ("smbd", "rpcbind", "ganesha", "tgtd"):
    assert d["running"][name], name + " is not running"
for key in ("smb", "nfs", "iscsi", "agent", "token_file", "password_file"):
    assert key in d, key
# Every address the lab hands out is in the benchmarking range, 198.18.0.0/15.
import ipaddress, re
for url in (d["smb"], d["nfs"], d["iscsi"], "x://" + d["agent"]):
    host = re.match(r"[a-z]+://(?:[^@/]*@)?([0-9.]+)", url).group(1)
    assert ipaddress.ip_address(host) in ipaddress.ip_network("198.18.0.0/15"), url
print(d["iscsi"], d["password_file"])
EOF
)
check "status --json: URLs in 198.18.0.0/15, every server running" [ -n "$iscsi" ]
check "password file is private" bash -c "[ \"\$(stat -c %a '$password_file')\" = 600 ]"
check "the NAS namespace has no default route" bash -c "! ip -n nplab-nas route show default | grep -q ."

head -c 4M /dev/urandom >"$work/data.bin"
password="$(cat "$password_file")"
check "SMB: put and get back the same bytes" bash -c "
  smbclient //198.18.0.2/bench -U 'root%$password' -m SMB3 -c 'put $work/data.bin t.bin; get t.bin $work/smb.bin' >/dev/null 2>&1 &&
  cmp -s '$work/data.bin' '$work/smb.bin'"
check "SMB: a wrong password is refused" bash -c "! smbclient //198.18.0.2/bench -U 'root%wrong' -m SMB3 -c 'ls' >/dev/null 2>&1"
for export in bench raid0 raid1; do
  check "NFS /$export: copy in and back" bash -c "
    nfs-cp '$work/data.bin' 'nfs://198.18.0.2/$export/t.bin' >/dev/null &&
    nfs-cp 'nfs://198.18.0.2/$export/t.bin' '$work/nfs-$export.bin' >/dev/null &&
    cmp -s '$work/data.bin' '$work/nfs-$export.bin'"
done
check "iSCSI: the LUN answers with its size" bash -c "iscsi-readcapacity16 '$iscsi' | grep -q 'Total size:536870912'"

"$lab" link --link 100m --mtu 9000 2>/dev/null
# 100m is shaped to its wire rate for the path's MTU, 100 Mbit/s x (9000 + 14) / (9000 + 38)
# (lab/nas-lab, tbf_args): tc's JSON gives the rate in bytes/s.
tbf_bits_per_s() {  # tbf_bits_per_s [ip netns exec NS] tc -j qdisc show dev DEV
  "$@" | python3 -c 'import json, sys; print(next(q["options"]["rate"] * 8 for q in json.load(sys.stdin) if q["kind"] == "tbf"))'
}
wire_100m="$(python3 -c 'print(100e6 * 9014 / 9038)')"
within_tenth_pct() { python3 -c "import sys; sys.exit(0 if abs($1 - $2) <= $2 * 0.001 else 1)"; }
check "link change: 100 Mbit/s at its wire rate for MTU 9000 ($wire_100m bit/s), tbf on both sides" bash -c "
  $(declare -f tbf_bits_per_s within_tenth_pct)
  within_tenth_pct \"\$(tbf_bits_per_s tc -j qdisc show dev nplab-h)\" $wire_100m &&
    within_tenth_pct \"\$(tbf_bits_per_s ip netns exec nplab-nas tc -j qdisc show dev nplab-n)\" $wire_100m"
check "link change: MTU 9000 on both sides" bash -c "
  ip link show nplab-h | grep -q 'mtu 9000' && ip -n nplab-nas link show nplab-n | grep -q 'mtu 9000'"
check "link change: status says so" bash -c "'$lab' status --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert (d[\"link\"], d[\"mtu\"]) == (\"100m\", 9000)'"
"$lab" link --link none --mtu 1500 2>/dev/null
check "link none: no qdisc left" bash -c "! tc qdisc show dev nplab-h | grep -q tbf"

# --- one-sided MTU, NAS CPU and member speed ----------------------------------------------
"$lab" link --nas-mtu 9000 2>/dev/null
check "--nas-mtu 9000: NAS side 9000, host side 1500" bash -c "
  ip link show nplab-h | grep -q 'mtu 1500' && ip -n nplab-nas link show nplab-n | grep -q 'mtu 9000'"
"$lab" link --link 1g 2>/dev/null
check "link --link keeps the NAS's MTU" bash -c "ip -n nplab-nas link show nplab-n | grep -q 'mtu 9000'"
check "SMB still carries data with MTU 9000 on the NAS side only (TCP's MSS is the host's)" bash -c "
  smbclient //198.18.0.2/bench -U 'root%$password' -m SMB3 -c 'put $work/data.bin t2.bin; get t2.bin $work/smb2.bin' >/dev/null 2>&1 &&
  cmp -s '$work/data.bin' '$work/smb2.bin'"
cpu_cg=/sys/fs/cgroup/cpu/nasperf-lab blkio_cg=/sys/fs/cgroup/blkio/nasperf-lab
check "--nas-cpu 50: quota is half the period" bash -c "[ \$(cat $cpu_cg/cpu.cfs_quota_us) -eq \$((\$(cat $cpu_cg/cpu.cfs_period_us) / 2)) ]"
for server in smbd ganesha tgtd agent; do
  [ -f "$(lab_json dir)/pids/$server" ] || continue
  check "$server runs in the lab's cpu and blkio cgroups" bash -c "
    grep -qx '$(lab_server_pid "$server")' $cpu_cg/cgroup.procs && grep -qx '$(lab_server_pid "$server")' $blkio_cg/cgroup.procs"
done
check "the test itself is not in the lab's cgroup" bash -c "! grep -qx $$ $cpu_cg/cgroup.procs"
r0a="$(losetup -n -O NAME -j "$(lab_json dir)/disks/raid0-a.img")"; r0b="$(losetup -n -O NAME -j "$(lab_json dir)/disks/raid0-b.img")"
check "--member-mb 30,20: raid0-a read at 30 MB/s, raid0-b written at 20 MB/s" bash -c "
  grep -qx \"\$(cat /sys/block/${r0a#/dev/}/dev) 30000000\" $blkio_cg/blkio.throttle.read_bps_device &&
  grep -qx \"\$(cat /sys/block/${r0b#/dev/}/dev) 20000000\" $blkio_cg/blkio.throttle.write_bps_device"
"$lab" link --nas-cpu off --member-mb off --mtu 1500 2>/dev/null
check "--nas-cpu off, --member-mb off: no limits left" bash -c "
  [ \$(cat $cpu_cg/cpu.cfs_quota_us) -eq -1 ] && [ -z \"\$(cat $blkio_cg/blkio.throttle.read_bps_device)\" ] &&
  ip -n nplab-nas link show nplab-n | grep -q 'mtu 1500'"

"$lab" down 2>/dev/null
check "down: nothing left" nothing_left

finish lab
