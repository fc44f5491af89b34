// The prefetch hint is a static inline function in include/prefetch.h; this file gives the
// target a source, as a C target must have.
#include "prefetch.h"
