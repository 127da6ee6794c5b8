// A file of src/engine/ that names a project header in angle brackets: the layer check
// must refuse it, whichever folder it is from (ctest layers.real_build_refuses).
#include <cli/commands.h>
