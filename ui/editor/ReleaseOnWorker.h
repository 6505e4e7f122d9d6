#pragma once

#include "document/WorkerPool.h"

#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace segstudio::ui::editor {

// Drops the last references to big buffers (a 12 MP image, its label map, overlays: ~150 MB) on
// a worker thread, where freeing them costs the GUI thread nothing. The items are moved into the
// task; it ends (and they are freed) on the pool's thread. Only for implicitly shared or
// reference-counted values (cv::Mat, QImage) whose last owner may be any thread.
template <typename... Items>
void releaseOnWorker(Items&&... items)
{
    [[maybe_unused]] const auto done = QtConcurrent::run(document::workerPool(), [held = std::make_tuple(std::forward<Items>(items)...)] { (void)held; });
}

}  // namespace segstudio::ui::editor
