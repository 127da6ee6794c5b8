#!/usr/bin/env bash
# Lab test: at --link 1g and then 100m (changed on the running lab), `nasperf net` carries
# what the shaper allows — the nominal rate times the TCP payload share of a frame, within
# 5 % — and every protocol's 1 MiB sequential write and read comes within 10 % of what net
# measured in the same direction (write = up, read = down) on the same link.
set -euo pipefail

# shellcheck source=tests/lab/lab_test_lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lab_test_lib.sh"
require_lab_tools ganesha.nfsd tgtd python3
lab_up --link 1g

# measure_link LINK SIZE: net up and down, then each protocol's write and read.
# SIZE: about 3-4 s at the link's rate (the iSCSI LUN is 512 MiB).
measure_link() {
  local link="$1" size="$2" mtu efficiency expected up down protocol write read
  mtu="$(lab_json mtu)"
  efficiency="$(link_efficiency "$link" "$mtu")"
  expected="$(link_payload_mb "$link" "$mtu")"
  echo "link $link, MTU $mtu: TCP payload share $efficiency, so $expected MB/s of payload"
  up="$(net_mb up)"; down="$(net_mb down)"
  check "$link net up: $up MB/s, within 5 % of $expected" within "$up" "$expected" 5
  check "$link net down: $down MB/s, within 5 % of $expected" within "$down" "$expected" 5
  for protocol in $(lab_protocols); do
    # Queue depth 4: a 1 MiB request takes 8 ms at 1 Gbit/s; four in flight hide each
    # round trip and the server's turnaround (measured: qd 1 loses 8-35 %, 4 and 8 do not).
    nas_settle
    write="$(protocol_mb "$protocol" write "$size" 4)"
    read="$(protocol_mb "$protocol" read "$size" 4)"
    check "$link $protocol sequential write: $write MB/s, within 10 % of net up ($up)" within "$write" "$up" 10
    check "$link $protocol sequential read: $read MB/s, within 10 % of net down ($down)" within "$read" "$down" 10
  done
}

# Each link's figures twice when the first run's are off (lab_test_lib.sh, measure_twice).
measure_twice measure_link 1g 384m
"$lab" link --link 100m 2>/dev/null
measure_twice measure_link 100m 32m

finish link
