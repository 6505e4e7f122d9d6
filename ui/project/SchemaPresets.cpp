#include "SchemaPresets.h"

#include "data/labels/DataError.h"

#include <QColor>
#include <QSet>

namespace segstudio::ui::project {

QStringList SchemaPresets::presetNames()
{
    return {QStringLiteral("CamVid (11 classes)")};
}

data::ClassSchema SchemaPresets::preset(int index)
{
    if (index != 0)
        throw data::DataError({}, "unknown schema preset " + std::to_string(index));
    return data::ClassSchema::camVid();
}

data::ClassSchema SchemaPresets::fromNames(const QStringList& names)
{
    std::vector<data::LabelClass> classes;
    QSet<QString> seen;
    for (const QString& raw : names) {
        const QString name = raw.trimmed();
        if (name.isEmpty())
            continue;
        if (seen.contains(name))
            throw data::DataError({}, "class name '" + name.toStdString() + "' appears twice");
        if (classes.size() >= 255)
            throw data::DataError({}, "at most 255 classes");
        seen.insert(name);
        const int id = int(classes.size());
        // Golden-angle hues give neighbouring ids clearly different colours.
        const QColor color = QColor::fromHsv((id * 137) % 360, 200, 220);
        data::LabelClass labelClass;
        labelClass.id = id;
        labelClass.name = name.toStdString();
        labelClass.color = {std::uint8_t(color.red()), std::uint8_t(color.green()), std::uint8_t(color.blue())};
        if (id < 10)
            labelClass.hotkey = std::to_string((id + 1) % 10);
        classes.push_back(labelClass);
    }
    if (classes.empty())
        throw data::DataError({}, "a custom schema needs at least one class name");
    return data::ClassSchema(std::move(classes));
}

}  // namespace segstudio::ui::project
