#!/usr/bin/env bash
# The layer check on the real build (cmake/layers.cmake), not only on a sample file: this
# configures the project afresh with probe files added to the engine, smb and base layers
# (NASPERF_LAYER_PROBES) and builds each layer's check target. The engine's must fail,
# naming the angle-bracket, climbing and quoted upward includes; smb's must fail, naming the
# other protocol's header; base's must pass (system headers that share a folder name).
# Calls as well as includes: the contract's test binary links the contract alone, so a test
# added to it (NASPERF_CONTRACT_TEST_PROBES) that calls into base/ must fail to link.
# Usage: real_build_refuses_test.sh SOURCE_DIR SCRATCH_DIR
set -euo pipefail
src="$1"
scratch="$2"
data="$src/cmake/testdata"
rm -rf "$scratch"
mkdir -p "$scratch"
trap 'rm -rf "$scratch"' EXIT

probes="engine=$data/engine_includes_cli_angle.cpp;engine=$data/engine_includes_cli_climbing.cpp"
probes+=";engine=$data/engine_includes_cli.cpp;proto/smb=$data/smb_includes_nfs.cpp"
probes+=";base=$data/base_includes_system_headers.cpp"
cmake -S "$src" -B "$scratch" -DBUILD_TESTING=ON "-DNASPERF_LAYER_PROBES=$probes" \
  "-DNASPERF_CONTRACT_TEST_PROBES=$data/contract_test_calls_base.cpp" > "$scratch/configure.log" 2>&1 \
  || { cat "$scratch/configure.log"; echo "FAIL: the project did not configure"; exit 1; }

failures=0
# expect_check TARGET pass|fail [TEXT...]: the check target's outcome, and each TEXT in its output.
expect_check() {
  local target="$1" want="$2"
  shift 2
  local out rc=0
  out=$(cmake --build "$scratch" --target "$target" 2>&1) || rc=$?
  if [ "$want" = pass ] && [ "$rc" -ne 0 ]; then
    echo "FAIL: $target refused a file it must pass:"; echo "$out"; failures=$((failures + 1)); return
  fi
  if [ "$want" = fail ] && [ "$rc" -eq 0 ]; then
    echo "FAIL: $target passed; it must refuse the probes"; failures=$((failures + 1)); return
  fi
  local text missing=0
  for text in "$@"; do
    if ! grep -qF -- "$text" <<<"$out"; then
      echo "FAIL: $target's output does not name: $text"; missing=1
    fi
  done
  if [ "$missing" -ne 0 ]; then
    echo "$out"; failures=$((failures + 1)); return
  fi
  local verb=fails
  [ "$want" = pass ] && verb=passes
  echo "ok: $target $verb${*:+, naming: $*}"
}

expect_check nasperf_layer_check_engine fail \
  'engine_includes_cli_angle.cpp: #include <cli/commands.h> (a project header in angle brackets)' \
  'engine_includes_cli_climbing.cpp: #include "../cli/commands.h" (a path that climbs)' \
  'engine_includes_cli.cpp: #include "cli/commands.h" (from cli/)'
expect_check nasperf_layer_check_proto_smb fail \
  'smb_includes_nfs.cpp: #include "proto/nfs/nfs_engine.h" (another protocol'"'"'s folder)'
expect_check nasperf_layer_check_base pass
# A layer without probes passes: the real tree's includes are all allowed ones.
expect_check nasperf_layer_check_core pass
# An upward call links nowhere it is not allowed: the linker names the missing function.
expect_check nasperf_contract_tests fail 'nasperf::FormatSize'

[ "$failures" -eq 0 ] || { echo "$failures check(s) failed"; exit 1; }
echo "PASS"
