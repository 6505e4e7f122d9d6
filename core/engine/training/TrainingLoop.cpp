#include "TrainerImpl.h"

#include "NonFiniteParameters.h"
#include "SessionReport.h"
#include "TrainingValidation.h"
#include "engine/distributed/Communicator.h"
#include "engine/inference/Validation.h"
#include "engine/runtime/StopFlag.h"

#include <algorithm>
#include <cmath>

// A training session's loop (issue 65.1, out of Trainer.cpp): its start, its epochs of steps, the
// validations and checkpoints between them, a stop, a divergence and its end.

namespace segstudio::engine {
inline namespace training {

void Trainer::Impl::heed(const std::optional<StepVerdicts::Verdict>& verdict)
{
    if (!verdict)
        return;
    stopAgreed = stopAgreed || verdict->stop;
    if (!verdict->nonFinite)
        return;
    iteration = verdict->iteration;  // the steps before it are the run's
    throw TrainingDiverged(SessionReport::diverged(verdict->loss.item<double>(), verdict->iteration,
                                                   verdict->position / loader->batchesPerEpoch()));
}

void Trainer::Impl::settleVerdicts()
{
    while (!verdicts->empty())
        heed(verdicts->drain());
}

SegmentationMetrics Trainer::Impl::validateNow(TrainOutcome& outcome)
{
    const auto settings =
        TrainingValidation::settingsFor(config, device, precision, packs->classWeights(), communicator.get());
    settleVerdicts();
    recordState(run::RunState::Validating);
    lastValidatedIteration = iteration;
    validationCadence.validated(epoch + (batchInEpoch >= loader->batchesPerEpoch() ? 1 : 0));
    const double started = clock();
    // Validation and the best checkpoint see the averaged weights; training goes on with its own.
    WeightAverage::Scope averaged(average.get());
    replicas->averageBuffers(*model);
    const auto metrics = validate(*model, *valPack, *loss, settings);
    if (budget())
        budget()->validationTook(clock() - started);
    recorder->validated(epoch + 1, iteration, metrics, elapsed());
    outcome.validated = true;
    outcome.lastValidation = metrics;
    if (TrainingValidation::isNewBest(metrics, bestMeanIoU)) {
        bestMeanIoU = metrics.meanIoU;
        saveCheckpoint(layout().bestCheckpoint());
    }
    outcome.bestMeanIoU = bestMeanIoU;
    recordState(run::RunState::Training);
    return metrics;
}

void Trainer::Impl::logTraining()
{
    settleVerdicts();  // a line never shows the loss of a step that diverged
    RunRecorder::TrainFigures figures = metricsLog->figures();  // a collective
    figures.epoch = epoch + 1;
    figures.iteration = iteration;
    figures.learningRate = schedule->at(position() - 1) * (config.scaleLearningRate ? double(world) : 1.0);
    figures.elapsedSeconds = elapsed();
    recorder->trained(figures);
}

// Said and recorded once per session, before its first step.
void Trainer::Impl::startSession()
{
    outcome = TrainOutcome{};
    outcome.bestMeanIoU = bestMeanIoU;
    sessionStart = clock();
    session = SessionTally{};
    checkpointCadence = std::make_unique<CheckpointCadence>(config.checkpointIntervalSeconds, device.is_cuda());
    checkpointCadence->started(sessionStart);
    // A run that ended at its budget, resumed with a larger one: its saved plan ends here, so the
    // rest of the new budget is planned now from the last session's pace (issue 46.8), the
    // schedule re-planned from where it ended.
    if (budget() && length->plan() && length->plan()->totalIterations <= position() && config.timeBudgetSeconds > elapsedBefore)
        budget()->extendPastTheEnd(position(), elapsedBefore, elapsed());
    if (budget())
        budget()->startSession();
    if (!startNote.empty())
        say(startNote);
    say("data: " + dataNote);
    say(SessionReport::started({config.model, device.str(), communicator ? communicator->backend() : std::string(), world,
                                precision.amp, std::int64_t(trainPack->size()), std::int64_t(trainPack->spec().height),
                                std::int64_t(trainPack->spec().width), config.classes, loader->batchesPerEpoch(), epoch,
                                iteration}));
    if (length->budgeted())
        say(SessionReport::budgetStarted(config.timeBudgetSeconds, elapsedBefore));
    recordState(run::RunState::Training);
    metricsLog->restart();
}

// A step's loss, images and accuracy into the session's tally and the log window.
void Trainer::Impl::countStep(const TrainingStep::Result& stepped, std::int64_t images, bool logged)
{
    if (!session.lastLoss.defined())
        outcome.firstLoss = stepped.loss.item<double>();  // once per session
    session.lastLoss = stepped.loss;
    session.images += images;
    metricsLog->count(stepped.loss, images, logged, stepped.hits, stepped.valid);
}

TrainOutcome Trainer::Impl::finish(TrainOutcome::Status status, std::string message)
{
    loader->stop();
    checkpointWriter->wait();  // "finished" and "stopped" promise a checkpoint on disk
    if (session.lastLoss.defined())
        outcome.lastLoss = session.lastLoss.item<double>();
    outcome.status = status;
    outcome.message = std::move(message);
    outcome.epochsCompleted = epoch;
    outcome.iterations = iteration;
    const double seconds = clock() - sessionStart;
    outcome.imagesPerSecond = seconds > 0 ? double(session.images) / seconds : 0.0;
    say(outcome.message);
    recordState(SessionReport::stateOf(status), outcome.message);
    return outcome;
}

TrainOutcome Trainer::Impl::stopped()
{
    saveCheckpoint(layout().lastCheckpoint());
    return finish(TrainOutcome::Status::Stopped, SessionReport::stopped(epoch, iteration, config.runDir));
}

// One epoch's batches, up to the end of the run or a stop. Returns false when a stop asked for
// now ended the session mid-epoch (the outcome is then set); stopAtEpochEnd is set when the stop
// waits for the epoch to be closed.
bool Trainer::Impl::trainEpoch(bool& stopAtEpochEnd)
{
    loader->start(epoch, batchInEpoch);
    while (auto batch = loader->next()) {
        // The run's last step logs too, so a run shorter than the log interval still records
        // its loss and learning rate (the same on every rank: the limit is shared).
        const bool lastStep = std::int64_t(epoch) * loader->batchesPerEpoch() + batch->index + 1 >= totalIterations();
        const bool logNow = (iteration + 1) % config.logInterval == 0 || lastStep;
        const auto stepped = step->run(*batch, {epoch, iteration, position()}, logNow);
        ++iteration;
        batchInEpoch = batch->index + 1;
        countStep(stepped, batch->size(), logNow);
        if (logNow)
            logTraining();
        if (hook) {
            checkpointWriter->wait();  // the hook sees the run folder settled
            hook(iteration);
        }
        if (budget())  // may move the end (a collective in data parallel: every rank, same step)
            budget()->stepDone(position(), elapsed(), step->cost(), totalIterations());
        // A data-parallel stop is agreed inside the step (a collective), so every rank stops at
        // the same position; one process honours a request at once. After an epoch's last
        // batch the epoch is closed first (its validation, the epoch count), so the checkpoint
        // never sits at the end of an epoch that a resume would not finish.
        if (stopAgreed || (!communicator && stopRequested())) {
            if (batchInEpoch < loader->batchesPerEpoch()) {
                stopped();
                return false;
            }
            stopAtEpochEnd = true;
            break;
        }
        if (valPack && config.valInterval > 0 && iteration % config.valInterval == 0)
            validateNow(outcome);
        if (position() >= totalIterations())
            break;
    }
    loader->stop();
    return true;
}

// The end of an epoch's batches: its validation when due (and the run's last), the epoch count,
// the epoch's checkpoint. Returns true when the session stops here (a stop asked for during the
// epoch, or "stop after this epoch"), its checkpoint written and the outcome set.
bool Trainer::Impl::closeEpoch(bool stopAtEpochEnd)
{
    const bool epochDone = batchInEpoch >= loader->batchesPerEpoch();
    const bool lastEpoch = epoch + 1 >= length->epochLimit() || position() >= totalIterations();
    const bool epochValidation = length->validatesEachPeriod();
    const int validationEpochs = length->validationEpochs();
    // --val-interval may have validated this very iteration already (it divides the epoch).
    const bool validated = lastValidatedIteration == iteration;
    const bool periodDue = epochDone && validationCadence.dueAfterEpoch(epoch + 1, validationEpochs);
    if (valPack && !validated && ((epochValidation && periodDue) || lastEpoch))
        validateNow(outcome);  // still counted as the epoch just trained
    if (epochDone) {
        ++epoch;
        batchInEpoch = 0;
        if (config.checkpointEachEpoch && epoch < length->epochLimit() && position() < totalIterations() && epochCheckpointDue())
            saveCheckpoint(layout().lastCheckpoint());
    }
    const bool more = epoch < length->epochLimit() && position() < totalIterations();
    // "Stop after this epoch" (SIGUSR1, the GUI's button), asked once per epoch; every rank
    // must agree, or the ranks would part ways at a collective.
    if (epochDone && more && !stopAtEpochEnd && replicas->any(stopAfterEpochRequested()))
        stopAtEpochEnd = true;
    if (!stopAtEpochEnd || !more)
        return false;
    stopped();
    return true;
}

TrainOutcome Trainer::Impl::train()
{
    startSession();
    bool stopAtEpochEnd = false;
    while (epoch < length->epochLimit() && position() < totalIterations()) {
        if (!trainEpoch(stopAtEpochEnd) || closeEpoch(stopAtEpochEnd))
            return outcome;
    }
    saveCheckpoint(layout().lastCheckpoint());
    if (session.lastLoss.defined())
        outcome.lastLoss = session.lastLoss.item<double>();
    const auto spent = length->budgeted() ? std::optional<SessionReport::Budget>({elapsed(), config.timeBudgetSeconds,
                                                                                  budget()->firstPlannedIterations()})
                                          : std::nullopt;
    return finish(TrainOutcome::Status::Finished,
                  SessionReport::finished(epoch, iteration, outcome.lastLoss,
                                          valPack ? std::optional<double>(bestMeanIoU) : std::nullopt, spent));
}

TrainOutcome Trainer::Impl::endDiverged(const std::string& message)
{
    if (loader)
        loader->stop();
    outcome.status = TrainOutcome::Status::Diverged;
    outcome.message = message;
    try {
        checkpointWriter->wait();
    } catch (const std::exception& error) {
        outcome.message += std::string("; the checkpoint write before it failed too: ") + error.what();
    }
    outcome.epochsCompleted = epoch;
    outcome.iterations = iteration;
    outcome.bestMeanIoU = bestMeanIoU;
    say(message);
    recordState(run::RunState::Failed, message);
    return outcome;
}

void Trainer::Impl::makeTrainingStep()
{
    TrainingStep::Settings settings;
    settings.device = device;
    settings.seed = config.seed;
    settings.rank = rank;
    settings.learningRateFactor = config.scaleLearningRate ? double(world) : 1.0;
    settings.accumulate = config.accumulate;
    settings.amp = precision.amp;
    settings.channelsLast = precision.channelsLast;
    settings.cudaGraphs = config.cudaGraphs;
    settings.debugNanAtIteration = config.debugNanAtIteration;
    TrainingStep::Parts parts{*model, *optimizer, *loss, *augmenter, *schedule, *crops, *scaler,
                              average.get(), gradientSync.get(), residentTrain.get()};
    TrainingStep::Hooks hooks;
    // Decisions that end a step or the run are agreed by every rank, so none is left alone in a
    // collective: a NaN/Inf loss anywhere, a stop request anywhere. On a GPU the host reads them a
    // step late (the device is never waited for here); on a CPU at once, and then a non-finite
    // loss is never stepped on. A diverged run ends without saving what its last steps did.
    hooks.judge = [this](const torch::Tensor& meanLoss) {
        verdicts->post(iteration, position(), meanLoss, stopRequested());
        heed(verdicts->take());
    };
    hooks.say = [this](const std::string& line) { say(line); };
    step = std::make_unique<TrainingStep>(settings, parts, std::move(hooks));
}

}  // namespace training
}  // namespace segstudio::engine
