#include "ClassesPanel.h"

#include "data/labels/DistinctColor.h"
#include "document/ProjectDocument.h"

#include "ClassHotkeys.h"
#include "ToolSettings.h"

#include <QCheckBox>
#include <QColorDialog>

#include <algorithm>
#include <limits>
#include <QGridLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QMessageBox>
#include <QPixmap>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace segstudio::ui::editor {

namespace {

QColor toQColor(const data::Rgb& c) { return QColor(c.r, c.g, c.b); }

data::Rgb rgbOf(const QColor& color)
{
    return {static_cast<std::uint8_t>(color.red()), static_cast<std::uint8_t>(color.green()),
            static_cast<std::uint8_t>(color.blue())};
}

QIcon swatch(const data::Rgb& c)
{
    QPixmap pixmap(14, 14);
    pixmap.fill(toQColor(c));
    return QIcon(pixmap);
}

}  // namespace

ClassesPanel::ClassesPanel(ToolSettings* settings, QWidget* parent)
    : QWidget(parent), m_settings(settings), m_table(new QTableWidget(this)), m_onlyUnlabelled(new QCheckBox(this))
{
    setObjectName(QStringLiteral("ClassesPanel"));
    setWindowTitle(tr("Classes"));
    m_table->setColumnCount(ColumnCount);
    m_table->setHorizontalHeaderLabels({tr("Show"), tr("Class"), tr("Key"), tr("Pixels"), tr("Lock")});
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    for (int column : {VisibleColumn, KeyColumn, CountColumn, LockColumn})
        m_table->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    m_table->setToolTip(tr("Show: draw this class. Key: press it to paint with the class (1…9, 0, then Shift+1… from "
                           "the 11th class on). Lock: protect its pixels from being painted over."));
    // Rows as tall as their text: a usual schema's rows all show at the dock's first size (rebuild).
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);

    m_onlyUnlabelled->setText(tr("Paint only into unlabelled pixels"));
    auto* buttons = new QGridLayout;
    const auto addButton = [&](const QString& text, int row, int column, auto slot) {
        auto* button = new QPushButton(text, this);
        connect(button, &QPushButton::clicked, this, slot);
        buttons->addWidget(button, row, column);
        m_editButtons << button;
    };
    addButton(tr("Add…"), 0, 0, &ClassesPanel::askAdd);
    addButton(tr("Rename…"), 0, 1, &ClassesPanel::askRename);
    addButton(tr("Colour…"), 0, 2, &ClassesPanel::askRecolour);
    addButton(tr("Merge into…"), 1, 0, &ClassesPanel::askMerge);
    addButton(tr("Delete…"), 1, 1, &ClassesPanel::askDelete);
    addButton(tr("Fill unlabelled"), 1, 2, [this] {
        if (selectedClass() >= 0)
            emit fillUnlabelledRequested(selectedClass());
    });

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_onlyUnlabelled);
    layout->addLayout(buttons);

    connect(m_table, &QTableWidget::cellChanged, this, &ClassesPanel::onCellChanged);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, &ClassesPanel::onSelectionChanged);
    connect(m_onlyUnlabelled, &QCheckBox::toggled, m_settings, &ToolSettings::setOnlyUnlabelled);
    connect(m_settings, &ToolSettings::currentClassChanged, this, &ClassesPanel::selectCurrentClass);
}

void ClassesPanel::setEditable(bool editable, const QString& why)
{
    for (QPushButton* button : m_editButtons) {
        button->setEnabled(editable);
        button->setToolTip(editable ? QString() : why);
    }
}

void ClassesPanel::setSchema(const data::ClassSchema& schema)
{
    m_schema = schema;
    rebuild();
}

void ClassesPanel::setCounts(const data::LabelCounts& counts)
{
    m_counts = counts;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const int id = m_table->item(row, NameColumn)->data(Qt::UserRole).toInt();
        m_table->item(row, CountColumn)->setText(QLocale().toString(static_cast<qlonglong>(m_counts[static_cast<std::size_t>(id)])));
    }
}

int ClassesPanel::rowOf(int classId) const
{
    for (int row = 0; row < m_table->rowCount(); ++row) {
        if (m_table->item(row, NameColumn)->data(Qt::UserRole).toInt() == classId)
            return row;
    }
    return -1;
}

void ClassesPanel::rebuild()
{
    m_rebuilding = true;
    m_table->setRowCount(static_cast<int>(m_schema.size()));
    int row = 0;
    for (const data::LabelClass& c : m_schema.classes()) {
        auto* visible = new QTableWidgetItem;
        visible->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        visible->setCheckState(m_hidden.count(c.id) ? Qt::Unchecked : Qt::Checked);
        auto* name = new QTableWidgetItem(swatch(c.color), QString::fromStdString(c.name));
        name->setData(Qt::UserRole, c.id);
        auto* lock = new QTableWidgetItem;
        lock->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        lock->setCheckState(m_settings->guard().isProtected(c.id) ? Qt::Checked : Qt::Unchecked);
        m_table->setItem(row, VisibleColumn, visible);
        m_table->setItem(row, NameColumn, name);
        m_table->setItem(row, KeyColumn, new QTableWidgetItem(ClassHotkeys::keyOf(m_schema, c.id)));
        m_table->setItem(row, CountColumn, new QTableWidgetItem(QStringLiteral("0")));
        m_table->setItem(row, LockColumn, lock);
        ++row;
    }
    m_rebuilding = false;
    // The table asks for the height of all its rows, up to a dozen: CamVid's 11 classes were cut
    // off at the first start (the dock takes what its contents ask for); longer lists scroll.
    constexpr int kRowsShownWhole = 12;
    const int shown = std::min(m_table->rowCount(), kRowsShownWhole);
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() +
                              shown * m_table->verticalHeader()->defaultSectionSize() + 2 * m_table->frameWidth());
    setCounts(m_counts);
    if (!m_schema.empty() && !m_schema.contains(m_settings->currentClass()))
        m_settings->setCurrentClass(m_schema.classes().front().id);
    selectCurrentClass();
}

void ClassesPanel::onCellChanged(int row, int column)
{
    if (m_rebuilding)
        return;
    const int id = m_table->item(row, NameColumn) ? m_table->item(row, NameColumn)->data(Qt::UserRole).toInt() : -1;
    if (id < 0)
        return;
    const bool checked = m_table->item(row, column)->checkState() == Qt::Checked;
    if (column == VisibleColumn) {
        if (checked)
            m_hidden.erase(id);
        else
            m_hidden.insert(id);
        emit visibilityChanged(id, checked);
    }
    else if (column == LockColumn)
        m_settings->setProtected(id, checked);
}

void ClassesPanel::onSelectionChanged()
{
    const int id = selectedClass();
    if (id >= 0)
        m_settings->setCurrentClass(id);
}

void ClassesPanel::selectCurrentClass()
{
    const int row = rowOf(m_settings->currentClass());
    if (row >= 0 && m_table->currentRow() != row)
        m_table->selectRow(row);
}

int ClassesPanel::selectedClass() const
{
    const auto rows = m_table->selectionModel()->selectedRows();
    if (rows.isEmpty())
        return -1;
    return m_table->item(rows.first().row(), NameColumn)->data(Qt::UserRole).toInt();
}

// A colour far from every class's: hues around the wheel by the golden angle, the one whose
// nearest existing colour is farthest away (Colour… changes it later).
QColor ClassesPanel::distinctColour() const
{
    std::vector<data::Rgb> taken;
    for (const data::LabelClass& c : m_schema.classes())
        taken.push_back(c.color);
    const data::Rgb colour = data::distinctColor(taken);
    return QColor(colour.r, colour.g, colour.b);
}

// Only the name is asked: a colour picker after it took seconds to appear and one more decision;
// the class gets a distinct colour, and is selected and scrolled into view once it is in.
void ClassesPanel::askAdd()
{
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Add class"), tr("Name:"), QLineEdit::Normal, QString(), &ok);
    if (!ok || name.trimmed().isEmpty())
        return;
    addClass(name.trimmed(), distinctColour());
}

void ClassesPanel::setDocument(document::ProjectDocument* document)
{
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    if (document) {
        connect(document, &document::ProjectDocument::schemaChanged, this,
                [this] { setSchema(m_document->project().schema()); });
    }
    setSchema(document ? document->project().schema() : data::ClassSchema());
}

std::optional<int> ClassesPanel::addClass(const QString& name, const QColor& color)
{
    const auto id = m_document ? m_document->addClass(name, rgbOf(color)) : std::nullopt;
    if (id)
        showClass(*id);  // the new class is the one to paint with
    return id;
}

bool ClassesPanel::renameClass(int classId, const QString& name)
{
    return m_document && m_document->renameClass(classId, name);
}

bool ClassesPanel::recolourClass(int classId, const QColor& color)
{
    return m_document && m_document->recolourClass(classId, rgbOf(color));
}

bool ClassesPanel::mergeClasses(int fromId, int intoId) { return m_document && m_document->mergeClasses(fromId, intoId); }

bool ClassesPanel::deleteClass(int classId) { return m_document && m_document->deleteClass(classId); }

void ClassesPanel::showClass(int classId)
{
    m_settings->setCurrentClass(classId);
    const int row = rowOf(classId);
    if (row >= 0)
        m_table->scrollToItem(m_table->item(row, NameColumn));
}

void ClassesPanel::askRename()
{
    const int id = selectedClass();
    const data::LabelClass* c = m_schema.find(id);
    if (!c)
        return;
    bool ok = false;
    const QString name = QInputDialog::getText(this, tr("Rename class"), tr("Name:"), QLineEdit::Normal,
                                               QString::fromStdString(c->name), &ok);
    if (ok && !name.trimmed().isEmpty())
        renameClass(id, name.trimmed());
}

void ClassesPanel::askRecolour()
{
    const int id = selectedClass();
    const data::LabelClass* c = m_schema.find(id);
    if (!c)
        return;
    const QColor color = QColorDialog::getColor(toQColor(c->color), this, tr("Colour of %1").arg(QString::fromStdString(c->name)));
    if (color.isValid())
        recolourClass(id, color);
}

void ClassesPanel::askMerge()
{
    const int id = selectedClass();
    const data::LabelClass* from = m_schema.find(id);
    if (!from)
        return;
    QStringList names;
    QList<int> ids;
    for (const data::LabelClass& c : m_schema.classes()) {
        if (c.id != id) {
            names << QString::fromStdString(c.name);
            ids << c.id;
        }
    }
    bool ok = false;
    const QString into = QInputDialog::getItem(this, tr("Merge class"),
                                               tr("Merge \"%1\" into:").arg(QString::fromStdString(from->name)), names, 0,
                                               false, &ok);
    if (!ok)
        return;
    const int intoId = ids.value(names.indexOf(into), -1);
    const auto answer = QMessageBox::question(
        this, tr("Merge class"),
        tr("Relabel every \"%1\" pixel in every image of the project as \"%2\" and remove \"%1\"? "
           "Edit > Undo takes it back.")
            .arg(QString::fromStdString(from->name), into));
    if (answer == QMessageBox::Yes && intoId >= 0)
        mergeClasses(id, intoId);
}

void ClassesPanel::askDelete()
{
    const int id = selectedClass();
    const data::LabelClass* c = m_schema.find(id);
    if (!c)
        return;
    const auto answer = QMessageBox::question(
        this, tr("Delete class"),
        tr("Delete \"%1\" and make its pixels unlabelled in every image of the project? Edit > Undo takes it back.")
            .arg(QString::fromStdString(c->name)));
    if (answer == QMessageBox::Yes)
        deleteClass(id);
}

}  // namespace segstudio::ui::editor
