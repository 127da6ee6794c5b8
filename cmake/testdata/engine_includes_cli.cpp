// A file of src/engine/ that includes from src/cli/: the layer check must refuse it
// (ctest layers.upward_include_fails).
#include "engine/completion_queue.h"
#include "cli/commands.h"
