#pragma once

#include <algorithm>
#include <cstddef>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace segstudio::data {
inline namespace labels {

// Runs work(i) for i in [0, count) on all cores, a batch at a time, then finish(i) for each item of
// the batch in order on the calling thread. Decoding and encoding images is what parallelises;
// bookkeeping, progress callbacks and errors stay on the caller's thread and in item order: the
// first failing item's exception is rethrown, so errors are as deterministic as a serial loop.
class ParallelBatches {
public:
    static void run(std::size_t count, const std::function<void(std::size_t)>& work,
                    const std::function<void(std::size_t)>& finish)
    {
        const std::size_t threads = std::max(1u, std::thread::hardware_concurrency());
        const std::size_t batch = 4 * threads;
        for (std::size_t begin = 0; begin < count; begin += batch) {
            const std::size_t end = std::min(count, begin + batch);
            std::vector<std::exception_ptr> errors(end - begin);
            std::vector<std::thread> workers;
            for (std::size_t t = 0; t < threads; ++t)
                workers.emplace_back([&, t] {
                    for (std::size_t i = begin + t; i < end; i += threads) {
                        try {
                            work(i);
                        } catch (...) {
                            errors[i - begin] = std::current_exception();
                        }
                    }
                });
            for (std::thread& worker : workers)
                worker.join();
            for (std::size_t i = begin; i < end; ++i) {
                if (errors[i - begin])
                    std::rethrow_exception(errors[i - begin]);
                finish(i);
            }
        }
    }
};

}  // namespace labels
}  // namespace segstudio::data
