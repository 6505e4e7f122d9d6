#include "SchemaChooser.h"

#include "SchemaPresets.h"

#include <QComboBox>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace segstudio::ui {

SchemaChooser::SchemaChooser(QWidget* parent)
    : QWidget(parent), m_preset(new QComboBox(this)), m_names(new QPlainTextEdit(this))
{
    m_preset->addItems(SchemaPresets::presetNames());
    m_preset->addItem(tr("Custom classes (one name a line)"));
    m_names->setPlaceholderText(tr("background\nperson\ncar"));
    m_names->setEnabled(false);
    m_names->setMaximumHeight(100);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_preset);
    layout->addWidget(m_names);
    connect(m_preset, &QComboBox::currentIndexChanged, this,
            [this](int index) { m_names->setEnabled(index >= SchemaPresets::presetNames().size()); });
}

data::ClassSchema SchemaChooser::schema() const
{
    const int index = m_preset->currentIndex();
    if (index < SchemaPresets::presetNames().size())
        return SchemaPresets::preset(index);
    return SchemaPresets::fromNames(m_names->toPlainText().split(u'\n'));
}

}  // namespace segstudio::ui
