# The test files of the ThreadSanitizer pass: the files that hold the suites .ci/tsan-tests.txt
# selects. .ci/run fails when one of its patterns matches no test of this build, so a suite
# that moves to another file is noticed rather than silently skipped.
set(NASPERF_TSAN_UNIT_TESTS
    # the runner's worker threads and its stop/interrupt paths
    ${CMAKE_SOURCE_DIR}/src/core/runner_test.cpp
    ${CMAKE_SOURCE_DIR}/src/core/runner_clock_test.cpp
    ${CMAKE_SOURCE_DIR}/src/core/start_outcome_test.cpp
    ${CMAKE_SOURCE_DIR}/src/core/verify_pass_test.cpp
    ${CMAKE_SOURCE_DIR}/src/testing/engine_conformance_test.cpp
    # the agent: sessions, jobs, telemetry sampling
    ${CMAKE_SOURCE_DIR}/src/wire/wire_test.cpp
    ${CMAKE_SOURCE_DIR}/src/agent/run_wire_test.cpp
    ${CMAKE_SOURCE_DIR}/src/sysinfo/telemetry/telemetry_test.cpp
    # the results store's concurrent writers
    ${CMAKE_SOURCE_DIR}/src/store/results_store_test.cpp
    # network streams, both ends
    ${CMAKE_SOURCE_DIR}/src/net/net_stream_test.cpp)
set(NASPERF_TSAN_E2E_TESTS
    ${CMAKE_SOURCE_DIR}/tests/interrupt_test.cpp
    ${CMAKE_SOURCE_DIR}/tests/agent_e2e_test.cpp
    ${CMAKE_SOURCE_DIR}/tests/agent_fault_test.cpp
    ${CMAKE_SOURCE_DIR}/tests/results_e2e_test.cpp
    ${CMAKE_SOURCE_DIR}/tests/net_e2e_test.cpp)
