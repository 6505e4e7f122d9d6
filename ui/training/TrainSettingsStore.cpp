#include "TrainSettingsStore.h"

#include <QFileInfo>
#include <QSettings>
#include <QUrl>

namespace segstudio::ui::training {

namespace {

// One group per project: the path, percent-encoded (its slashes would be QSettings' groups).
QString groupOf(const QString& projectFile)
{
    return QStringLiteral("trainDialog/") +
           QString::fromLatin1(QUrl::toPercentEncoding(QFileInfo(projectFile).absoluteFilePath()));
}

}  // namespace

QVariantMap TrainSettingsStore::toMap(const common::TrainSettings& s)
{
    return {{QStringLiteral("recipe"), s.recipe},
            {QStringLiteral("model"), s.model},
            {QStringLiteral("minutes"), s.minutes},
            {QStringLiteral("epochs"), s.epochs},
            {QStringLiteral("height"), s.height},
            {QStringLiteral("width"), s.width},
            {QStringLiteral("batch"), s.batch},
            {QStringLiteral("cropPercent"), s.cropPercent},
            {QStringLiteral("cropHeight"), s.cropHeight},
            {QStringLiteral("cropWidth"), s.cropWidth},
            {QStringLiteral("optimizer"), s.optimizer},
            {QStringLiteral("learningRate"), s.learningRate},
            {QStringLiteral("schedule"), s.schedule},
            {QStringLiteral("classWeighting"), s.classWeighting},
            {QStringLiteral("flip"), s.flip},
            {QStringLiteral("translate"), s.translate},
            {QStringLiteral("colorJitter"), s.colorJitter},
            {QStringLiteral("valEpochs"), s.valEpochs},
            {QStringLiteral("devices"), s.devices},
            // Where it trains (issue 64.2): the target as JSON, empty for this computer.
            {QStringLiteral("where"), s.where ? QString::fromStdString(s.where->toJson().dump()) : QString()}};
}

common::TrainSettings TrainSettingsStore::fromMap(const QVariantMap& map, const common::TrainSettings& base)
{
    common::TrainSettings s = base;
    const auto number = [&map](const char* key, int& field) {
        bool ok = false;
        const int value = map.value(QString::fromLatin1(key)).toInt(&ok);
        if (ok)
            field = value;
    };
    const auto text = [&map](const char* key, QString& field) {
        if (map.contains(QString::fromLatin1(key)))
            field = map.value(QString::fromLatin1(key)).toString();
    };
    const auto flag = [&map](const char* key, bool& field) {
        if (map.contains(QString::fromLatin1(key)))
            field = map.value(QString::fromLatin1(key)).toBool();
    };
    flag("recipe", s.recipe);
    text("model", s.model);
    number("minutes", s.minutes);
    number("epochs", s.epochs);
    number("height", s.height);
    number("width", s.width);
    number("batch", s.batch);
    number("cropPercent", s.cropPercent);
    number("cropHeight", s.cropHeight);
    number("cropWidth", s.cropWidth);
    text("optimizer", s.optimizer);
    bool ok = false;
    if (const double rate = map.value(QStringLiteral("learningRate")).toDouble(&ok); ok)
        s.learningRate = rate;
    text("schedule", s.schedule);
    text("classWeighting", s.classWeighting);
    flag("flip", s.flip);
    number("translate", s.translate);
    if (const double jitter = map.value(QStringLiteral("colorJitter")).toDouble(&ok); ok && jitter >= 0.0 && jitter <= 1.0)
        s.colorJitter = jitter;
    number("valEpochs", s.valEpochs);
    if (map.contains(QStringLiteral("devices")))
        s.devices = map.value(QStringLiteral("devices")).toStringList();
    if (map.contains(QStringLiteral("where"))) {
        const std::string where = map.value(QStringLiteral("where")).toString().toStdString();
        try {
            s.where = where.empty() ? std::nullopt
                                    : std::optional<remote::RemoteTarget>(remote::RemoteTarget::fromJson(nlohmann::json::parse(where)));
        } catch (const std::exception&) {
            // a damaged entry (edited by hand): this computer, as before it was chosen
            s.where.reset();
        }
    }
    return s;
}

std::optional<common::TrainSettings> TrainSettingsStore::read(const QString& projectFile,
                                                              const common::TrainSettings& base)
{
    if (projectFile.isEmpty())
        return std::nullopt;
    QSettings settings;
    settings.beginGroup(groupOf(projectFile));
    const QStringList keys = settings.childKeys();
    if (keys.isEmpty())
        return std::nullopt;
    QVariantMap map;
    for (const QString& key : keys)
        map.insert(key, settings.value(key));
    return fromMap(map, base);
}

void TrainSettingsStore::write(const QString& projectFile, const common::TrainSettings& value)
{
    if (projectFile.isEmpty())
        return;
    QSettings settings;
    settings.beginGroup(groupOf(projectFile));
    settings.remove(QString());  // this project's entry only: nothing of an older one stays
    const QVariantMap map = toMap(value);
    for (auto it = map.cbegin(); it != map.cend(); ++it)
        settings.setValue(it.key(), it.value());
}

}  // namespace segstudio::ui::training
