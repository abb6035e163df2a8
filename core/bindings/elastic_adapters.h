// elastic_adapters.h — Week 6's elastic data parallelism for JavaScript (dsml/elastic.h). Same rules as adapters.h.
#pragma once

#include <emscripten/val.h>

namespace dsml::bindings {

using emscripten::val;

// trainElastic({model, optimizer?, batch, steps, seed?, workers, changes?: [{step, workers}], replicated?,
//   algorithm?}) → {workers, resizes, losses, singleLosses, maxRelativeDifference, stepBytes}   = train_elastic
val train_elastic(const val& request);

}  // namespace dsml::bindings
