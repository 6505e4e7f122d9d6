#pragma once

#include "RunRecorder.h"

#include "engine/runtime/GpuMonitor.h"

#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace segstudio::engine {
inline namespace distributed { class Replicas; }
inline namespace training {

// The training log's window (issue 65.1, out of Trainer): the losses, images and the logged step's
// accuracy since the last metrics line, turned into that line's figures over every rank (mean loss
// and accuracy, images/s summed), with each rank's GPU sampled for the system record on CUDA.
// Losses stay on the device until the line is written, so a step never waits for the GPU.
// Requirements: the replicas outlive it; figures() is a collective (every rank calls it at the same
// step). Guarantees: figures() starts a new window.
class TrainingLog {
public:
    TrainingLog(const Replicas& replicas, torch::Device device, std::function<double()> clock);
    ~TrainingLog();

    // Starts a new window now.
    void restart();
    // A step's mean loss (a 0-d tensor on the device) and images; `logged`: its accuracy too
    // (pixels right of labelled ones), for the line it ends.
    void count(const torch::Tensor& loss, std::int64_t images, bool logged, double hits, double valid);
    // The window's figures (loss, accuracy, images/s, GPUs; the caller fills epoch, iteration,
    // learning rate and elapsed time), then a new window.
    RunRecorder::TrainFigures figures();

private:
    std::vector<run::GpuSample> sampleGpus();

    const Replicas& m_replicas;
    torch::Device m_device;
    std::function<double()> m_clock;
    std::int64_t m_images = 0;
    std::int64_t m_steps = 0;
    torch::Tensor m_lossSum;  // on the device, fetched when the line is written
    double m_hits = 0.0;      // pixels right, of the logged step
    double m_valid = 0.0;     // labelled pixels, of the logged step
    double m_start = 0.0;     // m_clock()
    std::unique_ptr<GpuMonitor> m_gpuMonitor;  // null without NVML
    bool m_gpuMonitorOpened = false;
};

}  // namespace training
}  // namespace segstudio::engine
