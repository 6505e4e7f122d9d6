#include "SchemaChooser.h"

#include "SchemaPresets.h"

#include <QComboBox>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace segstudio::ui::project {

SchemaChooser::SchemaChooser(QWidget* parent)
    : QWidget(parent), m_preset(new QComboBox(this)), m_names(new QPlainTextEdit(this))
{
    m_preset->addItems(SchemaPresets::presetNames());
    m_preset->addItem(tr("Custom classes (one name a line)"));
    m_names->setObjectName(QStringLiteral("schemaNames"));
    m_names->setMaximumHeight(100);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_preset);
    layout->addWidget(m_names);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &SchemaChooser::showChoice);
    showChoice(m_preset->currentIndex());
}

bool SchemaChooser::customChosen() const { return m_preset->currentIndex() >= SchemaPresets::presetNames().size(); }

// Under a preset the field showed the custom example ("background person car") as if those were
// CamVid's classes: it shows the preset's own names instead.
void SchemaChooser::showChoice(int index)
{
    if (m_customShown)  // leaving "Custom": what was typed there comes back with it
        m_customNames = m_names->toPlainText();
    m_customShown = index >= SchemaPresets::presetNames().size();
    m_names->setReadOnly(!m_customShown);
    m_names->setEnabled(m_customShown);
    if (m_customShown) {
        m_names->setPlaceholderText(tr("background\nperson\ncar"));
        m_names->setPlainText(m_customNames);
        return;
    }
    m_names->setPlaceholderText({});
    QStringList names;
    const data::ClassSchema preset = SchemaPresets::preset(index);  // classes() refers into it
    for (const data::LabelClass& c : preset.classes())
        names << QString::fromStdString(c.name);
    m_names->setPlainText(names.join(u'\n'));
}

data::ClassSchema SchemaChooser::schema() const
{
    if (!customChosen())
        return SchemaPresets::preset(m_preset->currentIndex());
    return SchemaPresets::fromNames(m_names->toPlainText().split(u'\n'));
}

}  // namespace segstudio::ui::project
