#pragma once

namespace segstudio::engine {
inline namespace training {

// When an epoch's end validates. A time-budgeted run re-plans its validation period as its pace
// changes (13, 17, 25 epochs...); testing the epoch count against multiples of the period of the
// moment misses most of them (issue 47.3: 8 validations in 230 epochs where "every 13-25" was
// planned, the first at epoch 57). The cadence counts the epochs since the last validation
// instead, so a gap is never longer than the period in force when it closes, whatever the
// periods planned before it.
class ValidationCadence {
public:
    // epochsDone: the epochs finished when a session starts (0, or where a resume begins).
    explicit ValidationCadence(int epochsDone = 0) : m_lastEpoch(epochsDone) {}

    // After the epochsDone-th epoch, with a validation every `period` epochs planned now.
    bool dueAfterEpoch(int epochsDone, int period) const;
    void validated(int epochsDone) { m_lastEpoch = epochsDone; }
    int lastEpoch() const { return m_lastEpoch; }

private:
    int m_lastEpoch;
};

}  // namespace training
}  // namespace segstudio::engine
