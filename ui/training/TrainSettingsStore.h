#pragma once

#include "common/TrainSettings.h"

#include <QVariantMap>

#include <optional>

namespace segstudio::ui::training {

// The Train dialog's last accepted settings per project, kept in QSettings under the project
// file's absolute path, so the next Train… of that project proposes them, also after a restart
// (a 1-minute run on the demo stays 1 minute); another project starts from the defaults.
// Requirements: GUI thread (QSettings of the application's organisation and name).
class TrainSettingsStore {
public:
    // nullopt: never trained; a value the entry lacks (written by an older version) is the base's.
    static std::optional<common::TrainSettings> read(const QString& projectFile,
                                                     const common::TrainSettings& base = {});
    static void write(const QString& projectFile, const common::TrainSettings& settings);

    // Pure, for tests: the settings as values and back; a value missing (an older entry) keeps
    // the base's.
    static QVariantMap toMap(const common::TrainSettings& settings);
    static common::TrainSettings fromMap(const QVariantMap& map, const common::TrainSettings& base);
};

}  // namespace segstudio::ui::training
