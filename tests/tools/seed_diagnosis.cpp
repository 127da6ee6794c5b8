// Test-only: stores the fixture diagnosis (src/testing/pci_nic_diagnosis.h) in a results
// database and prints its id ("d1"), so that tests driving the real binary (the browser
// test of the waterfall) have a diagnosis without a NAS to diagnose.
//   nasperf_seed_diagnosis DB
#include <cstdio>

#include "store/results_store.h"
#include "testing/pci_nic_diagnosis.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: nasperf_seed_diagnosis DB\n");
    return 2;
  }
  nasperf::Result<nasperf::ResultsStore> store = nasperf::ResultsStore::Open(argv[1]);
  nasperf::Diagnosis d = nasperf::testing::PciNicDiagnosis();
  nasperf::Result<int64_t> id = store.ok()
                                    ? store.value().BeginDiagnosis(d.started_at, d.command_line, d.evidence.target)
                                    : nasperf::Result<int64_t>(store.status());
  nasperf::Status done = id.ok() ? (d.id = id.value(), store.value().FinishDiagnosis(d)) : id.status();
  if (!done.ok()) {
    std::fprintf(stderr, "nasperf_seed_diagnosis: %s\n", done.message().c_str());
    return 1;
  }
  std::printf("d%lld\n", static_cast<long long>(d.id));
  return 0;
}
