// A file of src/engine/ that reaches src/cli/ by climbing: the layer check must refuse it
// (ctest layers.real_build_refuses).
#include "../cli/commands.h"
