#pragma once

namespace segstudio::engine {
inline namespace training {

// When an epoch's end writes last.pt. An explicit interval (0: each epoch) is kept as given. The
// automatic one keeps the writes to about 2 % of the run: on two cores a ResNet-18 DeepLabV3+'s
// last.pt (139 MB with AdamW's state, written durably) took 1.3 s, a tenth of its 12-s epochs,
// so it is written at most every ~50 write-times (about a minute); a small model whose write
// takes milliseconds is still saved each epoch. On a GPU, where epochs take seconds, at most one
// a minute as well.
class CheckpointCadence {
public:
    static constexpr double kWriteShare = 0.02;
    static constexpr double kGpuMinimumSeconds = 60.0;

    // intervalSeconds: -1 for automatic, else the least time between two epoch-end writes.
    CheckpointCadence(double intervalSeconds, bool onGpu);

    void started(double now);                    // a session begins: its first write is an interval away
    void written(double now, double writeSeconds);  // last.pt was just written, taking writeSeconds
    bool due(double now) const;
    double interval() const;

private:
    double m_configured;
    bool m_onGpu;
    double m_lastAt = 0.0;
    double m_lastWriteSeconds = 0.0;
};

}  // namespace training
}  // namespace segstudio::engine
