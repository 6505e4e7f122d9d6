#include "ModelComparison.h"

#include "common/RunLayoutOf.h"
#include "pack/PackError.h"
#include "pack/PackReader.h"
#include "run/RunConfigFile.h"
#include "run/RunProgress.h"

#include <QFileInfo>

namespace segstudio::ui::training {

namespace {

QString meanIoU(double value) { return QString::number(value, 'f', 3); }

}  // namespace

QString ModelComparison::valPackOf(const QString& runDir)
{
    if (runDir.isEmpty())
        return {};
    QString pack = common::pathOf(common::layoutOf(runDir).valPack());
    if (const auto config = run::RunConfigFile::read(runDir.toStdString()); config && config->valPack)
        pack = QString::fromStdString(*config->valPack);
    return !pack.isEmpty() && QFileInfo::exists(pack) ? pack : QString();
}

std::optional<ModelComparison::Score> ModelComparison::scoreOf(const QString& runDir)
{
    if (runDir.isEmpty())
        return std::nullopt;
    const auto progress = run::RunProgress::read(common::layoutOf(runDir).metricsFile());
    const QString valPack = valPackOf(runDir);
    if (!progress.bestMeanIoU() || valPack.isEmpty() || !QFileInfo::exists(valPack))
        return std::nullopt;
    try {
        const pack::PackReader pack(valPack.toStdString(), /*verifyChecksum=*/false);
        return Score{*progress.bestMeanIoU(), pack.storedChecksum(), pack.size()};
    } catch (const pack::PackError&) {
        return std::nullopt;
    }
}

QString ModelComparison::bestOf(const QStringList& runDirs)
{
    QString best = runDirs.isEmpty() ? QString() : runDirs.first();
    double bestMeanIoU = -1.0;
    for (const QString& dir : runDirs) {
        const auto progress = run::RunProgress::read(common::layoutOf(dir).metricsFile());
        if (progress.bestMeanIoU() && *progress.bestMeanIoU() > bestMeanIoU) {
            bestMeanIoU = *progress.bestMeanIoU();
            best = dir;
        }
    }
    return best;
}

ModelComparison::Verdict ModelComparison::compare(const QString& inUseName, const std::optional<Score>& inUse,
                                                  const QString& candidateName, const std::optional<Score>& candidate)
{
    if (!candidate)
        return {Outcome::NotComparable, QObject::tr("%1 has no validation score, so %2 stays the model in use")
                                            .arg(candidateName, inUseName)};
    if (!inUse)
        return {Outcome::NotComparable, QObject::tr("%1 has no validation score to compare with, so it stays the model in use")
                                            .arg(inUseName)};
    if (inUse->valPackChecksum != candidate->valPackChecksum)
        return {Outcome::NotComparable,
                QObject::tr("%1 (mIoU %2) was validated on other images than %3 (mIoU %4), so %3 stays the model in use")
                    .arg(candidateName, meanIoU(candidate->bestMeanIoU), inUseName, meanIoU(inUse->bestMeanIoU))};
    const QString figures = QObject::tr("mIoU %1 against %2 of %3 on the same %4 validation images")
                                .arg(meanIoU(candidate->bestMeanIoU), meanIoU(inUse->bestMeanIoU), inUseName)
                                .arg(candidate->valImages);
    if (candidate->bestMeanIoU > inUse->bestMeanIoU)
        return {Outcome::Better, QObject::tr("%1 validated better (%2): its model now predicts").arg(candidateName, figures)};
    return {Outcome::NotBetter, QObject::tr("%1 validated no better (%2), so %3 stays the model in use")
                                    .arg(candidateName, figures, inUseName)};
}

}  // namespace segstudio::ui::training
