#pragma once

class QThreadPool;

namespace segstudio::document {

// The pool for SegStudio's own long work (image decoding, superpixels, GrabCut, dataset jobs),
// kept apart from QThreadPool::globalInstance(): Qt 6.4 splits smooth image scaling inside
// QPainter over the global pool and waits for it, so a long job queued there made the GUI
// thread's next paint of a big image wait for that job (measured: 100-250 ms stalls).
// At least four threads, so an image can open while superpixels of the last one compute.
QThreadPool* workerPool();

}  // namespace segstudio::document
