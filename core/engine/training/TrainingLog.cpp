#include "TrainingLog.h"

#include "engine/distributed/Replicas.h"

#include <algorithm>

namespace segstudio::engine {
inline namespace training {

TrainingLog::TrainingLog(const Replicas& replicas, torch::Device device, std::function<double()> clock)
    : m_replicas(replicas), m_device(device), m_clock(std::move(clock))
{
    restart();
}

TrainingLog::~TrainingLog() = default;

void TrainingLog::restart()
{
    m_images = 0;
    m_steps = 0;
    m_lossSum = torch::Tensor();
    m_hits = 0.0;
    m_valid = 0.0;
    m_start = m_clock();
}

void TrainingLog::count(const torch::Tensor& loss, std::int64_t images, bool logged, double hits, double valid)
{
    if (logged) {
        m_hits = hits;
        m_valid = valid;
    }
    m_images += images;
    m_lossSum = m_lossSum.defined() ? m_lossSum + loss : loss;
    ++m_steps;
}

RunRecorder::TrainFigures TrainingLog::figures()
{
    const double seconds = m_clock() - m_start;
    // Global figures: losses and accuracy are means over every rank, images/s their sum.
    const auto totals = m_replicas.sum(torch::stack(
        {m_lossSum.defined() ? m_lossSum.to(torch::kCPU).to(torch::kDouble) : torch::zeros({}, torch::kDouble),
         torch::tensor(double(m_steps), torch::kDouble), torch::tensor(double(m_images), torch::kDouble),
         torch::tensor(m_hits, torch::kDouble), torch::tensor(m_valid, torch::kDouble)}));
    const auto total = [&](int i) { return totals[i].item<double>(); };
    RunRecorder::TrainFigures figures;
    figures.loss = total(0) / std::max(1.0, total(1));
    figures.accuracy = total(3) / std::max(1.0, total(4));
    figures.imagesPerSecond = seconds > 0 ? total(2) / seconds : 0.0;
    if (m_device.is_cuda())
        figures.gpus = sampleGpus();  // a collective: every CUDA rank takes part
    restart();
    return figures;
}

std::vector<run::GpuSample> TrainingLog::sampleGpus()
{
    // Each rank samples its own GPU (another machine's cannot be seen from here); one row per
    // rank, gathered so rank 0 can write them all.
    if (!m_gpuMonitorOpened) {
        m_gpuMonitorOpened = true;
        m_gpuMonitor = GpuMonitor::open({m_device.has_index() ? int(m_device.index()) : 0});
    }
    std::vector<double> mine(4, 0.0);
    if (m_gpuMonitor)
        for (const auto& gpu : m_gpuMonitor->sample())
            mine = {double(gpu.index), gpu.utilization, gpu.memoryUsed, gpu.memoryTotal};
    const auto rows = m_replicas.rows(mine);
    const auto values = rows.accessor<double, 2>();
    std::vector<run::GpuSample> gpus;
    for (int r = 0; r < values.size(0); ++r)
        if (values[r][3] > 0)  // a rank without NVML leaves its row empty
            gpus.push_back({int(values[r][0]), values[r][1], values[r][2], values[r][3]});
    return gpus;
}

}  // namespace training
}  // namespace segstudio::engine
