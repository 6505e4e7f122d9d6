#include "TrainerArguments.h"

#include "RunLayoutOf.h"

#include "run/RunLayout.h"

namespace segstudio::ui::common {

namespace {

QStringList predictOptions(const QString& checkpoint, const QString& cacheFolder, const QString& projectFile)
{
    return {QStringLiteral("predict"), QStringLiteral("-c"), checkpoint, QStringLiteral("-o"), cacheFolder,
            QStringLiteral("-P"), projectFile};
}

// Confidence and entropy maps beside the classes (the editor's layers, the browser's scores);
// no overlay images (the editor draws its own).
const QStringList kPredictionMaps{QStringLiteral("--confidence"), QStringLiteral("--no-overlay")};

}  // namespace

QStringList TrainerArguments::pack(const QString& projectFile, const QString& split, const QString& packFile, int height,
                                   int width)
{
    return {QStringLiteral("pack"), QStringLiteral("--project"), projectFile, QStringLiteral("--split"), split,
            QStringLiteral("--out"), packFile, QStringLiteral("--height"), QString::number(height),
            QStringLiteral("--width"), QString::number(width)};
}

QStringList TrainerArguments::train(const QString& runDir, const TrainSettings& settings)
{
    const run::RunLayout files = layoutOf(runDir);
    QStringList arguments{QStringLiteral("train"), QStringLiteral("--train-pack"), pathOf(files.trainPack()),
                          QStringLiteral("--val-pack"), pathOf(files.valPack()), QStringLiteral("-o"), runDir};
    // Only what the user chose; everything else is the engine's defaults, which learn well.
    if (settings.recipe)
        arguments << QStringLiteral("--recipe");
    if (!settings.model.isEmpty())
        arguments << QStringLiteral("--model") << settings.model;
    if (settings.minutes > 0)
        arguments << QStringLiteral("--time-budget") << QStringLiteral("%1m").arg(settings.minutes);
    else
        arguments << QStringLiteral("--epochs") << QString::number(settings.epochs);
    if (settings.batch > 0)
        arguments << QStringLiteral("--batch") << QString::number(settings.batch);
    // The crop in pixels of this run's pack (a share of its sides is resolved here, as the dialog
    // shows it); whole images said as such, since the engine's own default crops.
    if (const QSize crop = settings.crop(); !crop.isEmpty())
        arguments << QStringLiteral("--crop-height") << QString::number(crop.height()) << QStringLiteral("--crop-width")
                  << QString::number(crop.width());
    else
        arguments << QStringLiteral("--crop-share") << QStringLiteral("0");
    const auto option = [&arguments](const char* name, const QString& value) {
        if (!value.isEmpty())
            arguments << QString::fromLatin1(name) << value;
    };
    option("--optimizer", settings.optimizer);
    option("--lr", settings.learningRate > 0 ? QString::number(settings.learningRate, 'g', 6) : QString());
    option("--schedule", settings.schedule);
    option("--class-weighting", settings.classWeighting);
    if (!settings.flip)
        arguments << QStringLiteral("--no-flip");
    if (settings.translate != TrainSettings().translate)
        option("--translate", QString::number(settings.translate));
    if (settings.colorJitter > 0.0)
        option("--color-jitter", QString::number(settings.colorJitter, 'g', 3));
    if (settings.valEpochs != TrainSettings().valEpochs)
        option("--val-epochs", QString::number(settings.valEpochs));
    // One device: --device; several: one process each, data parallel (--devices).
    if (settings.devices.size() == 1)
        option("--device", settings.devices.first());
    else if (settings.devices.size() > 1)
        option("--devices", settings.devices.join(QLatin1Char(',')));
    return arguments;
}

QStringList TrainerArguments::resume(const QString& runDir, int epochs, int minutes)
{
    QStringList arguments{QStringLiteral("train"), QStringLiteral("--resume"), runDir};
    if (minutes > 0)
        arguments << QStringLiteral("--time-budget") << QStringLiteral("%1m").arg(minutes);
    else if (epochs > 0)
        arguments << QStringLiteral("--epochs") << QString::number(epochs);
    return arguments;
}

QStringList TrainerArguments::fineTune(const QString& baseRunDir, const QString& initFrom, const QString& packFile,
                                       const QString& runDir, int budgetSeconds, double learningRate, const QString& valPack)
{
    // The base run's own config (model, crops, augmentation, class weighting, device, threads);
    // what differs for a fine-tune is given after it, and options given override the config.
    return {QStringLiteral("train"),
            QStringLiteral("--config"), pathOf(layoutOf(baseRunDir).configFile()),
            QStringLiteral("--init-from"), initFrom,
            QStringLiteral("--train-pack"), packFile,
            // One validation, at the end, on the base's validation images: what decides whether
            // the fine-tune may take over (an empty pack: none, every second goes to learning).
            QStringLiteral("--val-pack"), valPack,
            QStringLiteral("--val-epochs"), QStringLiteral("1000000"),
            QStringLiteral("-o"), runDir,
            QStringLiteral("--time-budget"), QStringLiteral("%1s").arg(budgetSeconds),
            QStringLiteral("--max-iterations"), QStringLiteral("0"),
            QStringLiteral("--lr"), QString::number(learningRate, 'g', 6),
            QStringLiteral("--warmup"), QStringLiteral("-1")};
}

QStringList TrainerArguments::predictSplit(const QString& checkpoint, const QString& cacheFolder, const QString& projectFile,
                                           const QString& split)
{
    return predictOptions(checkpoint, cacheFolder, projectFile) << QStringLiteral("-s") << split << kPredictionMaps;
}

QStringList TrainerArguments::predictImages(const QString& checkpoint, const QString& cacheFolder,
                                            const QString& projectFile, const QStringList& images)
{
    return predictOptions(checkpoint, cacheFolder, projectFile) << kPredictionMaps << images;
}

QStringList TrainerArguments::adaptation()
{
    return {QStringLiteral("--adapt-norm"), QStringLiteral("auto"), QStringLiteral("--adapt-split"), QStringLiteral("all"),
            QStringLiteral("--adapt-images"), QStringLiteral("16")};
}

QStringList TrainerArguments::keptAdaptation()
{
    return adaptation() << QStringLiteral("--keep-adaptation");
}

QStringList TrainerArguments::evaluate(const QString& checkpoint, const QString& projectFile, const QString& split,
                                       const QString& reportFolder, const QString& cacheFolder)
{
    QStringList arguments{QStringLiteral("evaluate"), QStringLiteral("-c"), checkpoint, QStringLiteral("-P"), projectFile,
                          QStringLiteral("-s"), split, QStringLiteral("--report"), reportFolder};
    if (!cacheFolder.isEmpty())
        arguments << QStringLiteral("--predictions") << cacheFolder;
    return arguments;
}

QStringList TrainerArguments::catalogue(const QString& what) { return {what, QStringLiteral("--json")}; }

}  // namespace segstudio::ui::common
