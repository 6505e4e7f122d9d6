#include "ModelChoice.h"

#include "common/RunLayoutOf.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QUrl>

namespace segstudio::ui::training {

namespace {

QString keyOf(const QString& projectFile)
{
    return QStringLiteral("modelChoice/") + QString::fromLatin1(QUrl::toPercentEncoding(QFileInfo(projectFile).absoluteFilePath()));
}

bool hasModel(const QString& runDir)
{
    return !runDir.isEmpty() && QFileInfo::exists(common::pathOf(common::layoutOf(runDir).checkpointToUse()));
}

}  // namespace

ModelChoice::ModelChoice(QObject* parent) : QObject(parent) {}

QString ModelChoice::nameOf(const QString& runDir) { return QFileInfo(runDir).fileName(); }

void ModelChoice::restore(const QString& projectFile, const QString& fallback)
{
    m_projectFile = projectFile;
    const QString remembered = projectFile.isEmpty() ? QString() : QSettings().value(keyOf(projectFile)).toString();
    const bool stillThere = hasModel(remembered);
    set(stillThere ? remembered : fallback);
    // Nothing chosen yet (or that run is gone): the fallback is the choice from now on, so that a
    // run trained later does not become "the newest" and take over at the next opening.
    if (!stillThere && !projectFile.isEmpty() && !fallback.isEmpty())
        QSettings().setValue(keyOf(projectFile), fallback);
}

void ModelChoice::choose(const QString& runDir)
{
    // A run with no checkpoint yet (training, or failed early) has no model to use: watched, not chosen.
    if (runDir == m_runDir || (!runDir.isEmpty() && !hasModel(runDir)))
        return;
    set(runDir);
    if (!m_projectFile.isEmpty() && !runDir.isEmpty())
        QSettings().setValue(keyOf(m_projectFile), runDir);
}

bool ModelChoice::offer(const QString& runDir)
{
    if (runDir.isEmpty() || runDir == m_runDir || !hasModel(runDir))
        return false;
    if (!hasModel(m_runDir)) {
        choose(runDir);
        emit message(tr("%1 is the model in use now (there was none)").arg(nameOf(runDir)));
        return true;
    }
    const auto verdict = ModelComparison::compare(nameOf(m_runDir), ModelComparison::scoreOf(m_runDir), nameOf(runDir),
                                                  ModelComparison::scoreOf(runDir));
    if (verdict.outcome == ModelComparison::Outcome::Better)
        choose(runDir);
    emit message(verdict.text);
    return verdict.outcome == ModelComparison::Outcome::Better;
}

void ModelChoice::set(const QString& runDir)
{
    const bool moved = runDir != m_runDir;
    m_runDir = runDir;
    if (moved)
        emit changed(runDir);
}

}  // namespace segstudio::ui::training
