# Shared by the lab tests (sourced, not run): their checks, skipping, and a lab that is
# always taken down. Sets repo_root, lab, nasperf and work; counts failures.
# shellcheck shell=bash

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
lab="$repo_root/lab/nas-lab"
export NASPERF="${NASPERF:-$repo_root/build/nasperf}"
nasperf="$NASPERF"
work="$(mktemp -d /tmp/nasperf-labtest.XXXXXX)"
failures=0

# A missing tool or no root skips the test on a user's machine, fails it under CI.
skip_or_fail() {
  if [ "${CI:-}" = true ]; then echo "FAIL: $*" >&2; exit 1; fi
  echo "SKIP: $*" >&2; exit 77
}
check() {  # check DESCRIPTION CMD...
  local what="$1"; shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what" >&2; failures=$((failures + 1)); fi
}
finish() {  # the test's last line: its verdict
  [ "$failures" -eq 0 ] || { echo "$failures check(s) failed" >&2; exit 1; }
  echo "all $1 checks passed"
}
# mb_per_s FILE DIRECTION: the direction's MB/s in a nasperf JSON document.
mb_per_s() { python3 -c "import json,sys; r=json.load(open('$1'))['runs'][0]; assert not r['partial'], r.get('error'); print(r['$2']['mb_per_s'])"; }
# between VALUE LOW HIGH: LOW <= VALUE <= HIGH, decimals allowed.
between() { python3 -c "import sys; v=float('$1'); sys.exit(0 if $2 <= v <= $3 else 1)"; }

lab_test_cleanup() {
  # Whatever happened, a lab test leaves no lab behind.
  "$lab" down >/dev/null 2>&1 || true
  rm -rf -- "$work"
}
trap lab_test_cleanup EXIT

# require_lab_tools TOOL...: root, the tools, and no lab of somebody else's running.
require_lab_tools() {
  [ "$(id -u)" -eq 0 ] || skip_or_fail "lab tests need root"
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || skip_or_fail "$tool is not installed (scripts/install-deps)"
  done
  [ ! -e /run/nasperf-lab ] || { echo "FAIL: a lab is already up; not touching it" >&2; exit 1; }
}

# lab_up ARGS...: brings the lab up or fails the test with up's error output.
lab_up() {
  "$lab" up "$@" >/dev/null 2>"$work/up.err" || { cat "$work/up.err" >&2; echo "FAIL: lab/nas-lab up $*" >&2; exit 1; }
}
