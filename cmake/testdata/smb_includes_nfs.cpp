// A file of src/proto/smb/ that includes another protocol's header: the layer check must
// refuse it; protocols share only what is in proto/ itself (ctest layers.real_build_refuses).
#include "proto/schemes.h"
#include "proto/nfs/nfs_engine.h"
