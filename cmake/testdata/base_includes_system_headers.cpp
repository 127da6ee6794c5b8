// A file of src/base/ that includes system headers whose folders share a name with one of
// ours (<net/...>) and a library's: the layer check must pass it (ctest layers.real_build_refuses).
#include <net/if.h>
#include <sys/uio.h>
#include <liburing.h>
