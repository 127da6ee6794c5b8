#!/usr/bin/env bash
# Lab test: jumbo frames at --link 1g. The shaper charges each frame as a wire does, so the
# payload share of the rate rises from 1448/1538 (94.1 %) at MTU 1500 to 8948/9038 (99.0 %)
# at 9000:
# `nasperf net` and NFS must not get slower with --mtu 9000 (beyond 1 % of noise; the
# shaped figures repeat within 0.5 %), and net must match the new payload rate within 5 %.
set -euo pipefail

# shellcheck source=tests/lab/lab_test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lab_test_lib.sh"
require_lab_tools ganesha.nfsd python3
lab_up --link 1g --mtu 1500
protocol=nfs  # one protocol is enough here; link_lab_test covers them all

declare -A mb
# Both MTUs' figures and their checks; twice when the first run's are off (measure_twice).
measure_jumbo() {
  local mtu what a b gain expected
  for mtu in 1500 9000; do
    "$lab" link --mtu "$mtu" 2>/dev/null
    mb[net-up-$mtu]="$(net_mb up)"
    mb[net-down-$mtu]="$(net_mb down)"
    mb[$protocol-write-$mtu]="$(protocol_mb "$protocol" write 384m 4)"
    mb[$protocol-read-$mtu]="$(protocol_mb "$protocol" read 384m 4)"
  done

  gain="$(python3 -c "print(f'{$(link_efficiency 1g 9000) / $(link_efficiency 1g 1500):.4f}')")"
  echo "expected: MTU 9000 carries $gain x the payload of MTU 1500 ($(link_payload_mb 1g 9000) vs $(link_payload_mb 1g 1500) MB/s)"
  expected="$(link_payload_mb 1g 9000)"
  check "MTU 9000 net up: ${mb[net-up-9000]} MB/s, within 5 % of $expected" within "${mb[net-up-9000]}" "$expected" 5
  for what in net-up net-down $protocol-write $protocol-read; do
    a="${mb[$what-1500]}"; b="${mb[$what-9000]}"
    check "$what: MTU 9000 $b MB/s >= MTU 1500 $a MB/s - 1 % (measured x$(ratio "$b" "$a"), expected x$gain)" \
      at_least "$b" "$a" 1
  done
}
measure_twice measure_jumbo

finish jumbo
