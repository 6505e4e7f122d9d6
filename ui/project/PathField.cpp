#include "PathField.h"

#include <QFileDialog>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>

namespace segstudio::ui::project {

PathField::PathField(Kind kind, QString filter, QWidget* parent)
    : QWidget(parent), m_kind(kind), m_filter(std::move(filter)), m_edit(new QLineEdit(this))
{
    auto* button = new QPushButton(tr("Browse…"), this);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_edit, 1);
    layout->addWidget(button);
    connect(button, &QPushButton::clicked, this, &PathField::browse);
    connect(m_edit, &QLineEdit::textChanged, this, &PathField::pathChanged);
}

QString PathField::path() const
{
    return m_edit->text().trimmed();
}

void PathField::setPath(const QString& path)
{
    m_edit->setText(path);
}

void PathField::browse()
{
    QString chosen;
    switch (m_kind) {
    case Kind::Folder: chosen = QFileDialog::getExistingDirectory(this, tr("Choose a folder"), path()); break;
    case Kind::OpenFile: chosen = QFileDialog::getOpenFileName(this, tr("Choose a file"), path(), m_filter); break;
    case Kind::SaveFile: chosen = QFileDialog::getSaveFileName(this, tr("Save as"), path(), m_filter); break;
    }
    if (!chosen.isEmpty())
        setPath(chosen);
}

}  // namespace segstudio::ui::project
