#pragma once

#include <QWidget>

class QLineEdit;

namespace segstudio::ui::project {

// A path line edit with a "Browse…" button, for the wizards' folder and file fields.
class PathField : public QWidget {
    Q_OBJECT

public:
    enum class Kind { Folder, OpenFile, SaveFile };

    PathField(Kind kind, QString filter = {}, QWidget* parent = nullptr);

    QString path() const;
    void setPath(const QString& path);
    QLineEdit* lineEdit() const { return m_edit; }

signals:
    void pathChanged(const QString& path);

private:
    void browse();

    Kind m_kind;
    QString m_filter;
    QLineEdit* m_edit;
};

}  // namespace segstudio::ui::project
